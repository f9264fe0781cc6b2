//! An NTT plan as a schedule of passes, the same model as the FFT's
//! ([`crate::plan::schedule`]): an ordered list of kernel launches, each transforming *items*
//! (lines of `len` samples) of the batch, with the four-step twiddle between passes and the
//! buffers assigned by [`crate::plan::schedule::pass_buffers`]. The GPU plan launches the list;
//! [`super::executor`] runs the same list on the CPU.
//!
//! For `N = L_0 · L_1 ⋯ L_{P−1}`, pass `j` computes `L_j`-point NTTs over digit `n_j` of the
//! natural input index `n = n_0 S_0 + n_1 S_1 + … ` (`S_j = L_{j+1} ⋯ L_{P−1}`), writing digit
//! `k_j` of the output index `k = k_0 + L_0 k_1 + L_0 L_1 k_2 + …`, and multiplies its outputs by
//! `ω_{N/A_j}^{k_j · n''}` (`A_j = L_0 ⋯ L_{j−1}`, `n''` the digits still to transform). Where
//! each digit sits in memory depends on the orders:
//! - natural → bit-reversed: every pass in place, rows stored bit-reversed (decimation in
//!   frequency, no permutation anywhere);
//! - bit-reversed → natural: every pass in place (the mirror image);
//! - natural → natural: the last pass writes its outputs transposed (out of place);
//! - bit-reversed → bit-reversed: the first pass reads transposed (out of place).
//!
//! Inside a pass every item's NTT is a radix-2 decimation in frequency on natural samples in
//! shared memory; the kernel permutes samples on load and store for the local orders. Passes of
//! natural local input and bit-reversed local output skip that staging (direct passes), and so
//! do passes of bit-reversed local input and natural local output, by decimation in time
//! ([`NttPass::in_time`]).

use super::spec::{NttKind, NttSpec, Order};
use crate::error::{Error, Result};
use crate::plan::schedule::{pass_buffers, scratch_count, Buffer};
use crate::plan::Direction;
use std::fmt;

/// The machine word of an NTT plan's data and its modular arithmetic on the GPU.
///
/// ```
/// use tensorfft::ntt::schedule::NttArithmetic;
/// assert_eq!(NttArithmetic::for_moduli(&[tensorfft::ntt::BABY_BEAR], 4).unwrap(), NttArithmetic::Shoup32);
/// assert_eq!(NttArithmetic::for_moduli(&[tensorfft::ntt::GOLDILOCKS], 8).unwrap(), NttArithmetic::Goldilocks);
/// assert!(NttArithmetic::for_moduli(&[tensorfft::ntt::GOLDILOCKS], 4).is_err());
/// // A prime above 2^31 in u32 words.
/// let p32 = tensorfft::ntt::PRIME_32;
/// assert_eq!(NttArithmetic::for_moduli(&[p32], 4).unwrap(), NttArithmetic::Shoup32Full);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NttArithmetic {
    /// `u32` words, primes below 2^31, Shoup products with precomputed companions.
    Shoup32,
    /// `u32` words, primes between 2^31 and 2^32: the same Shoup products, with sums checked
    /// for the carry out of 32 bits and the product's remainder (below 2p) formed in 64 bits.
    Shoup32Full,
    /// `u64` words, primes below 2^63, Shoup products.
    Shoup64,
    /// `u64` words, the Goldilocks prime 2^64 − 2^32 + 1 with its own reduction.
    Goldilocks,
}

impl NttArithmetic {
    /// The arithmetic for data of `word_bytes` (4 or 8) bytes and these moduli (all limbs share
    /// one arithmetic).
    ///
    /// ```
    /// use tensorfft::ntt::{schedule::NttArithmetic, FHE_62};
    /// assert_eq!(NttArithmetic::for_moduli(&[FHE_62], 8).unwrap(), NttArithmetic::Shoup64);
    /// ```
    pub fn for_moduli(moduli: &[u64], word_bytes: usize) -> Result<Self> {
        let max = moduli.iter().copied().max().unwrap_or(0);
        let all_goldilocks = moduli.iter().all(|&p| p == super::GOLDILOCKS);
        match word_bytes {
            4 if max < 1 << 31 => Ok(NttArithmetic::Shoup32),
            4 if max < 1 << 32 => Ok(NttArithmetic::Shoup32Full),
            8 if max < 1 << 63 => Ok(NttArithmetic::Shoup64),
            8 if all_goldilocks => Ok(NttArithmetic::Goldilocks),
            _ => Err(Error::Unsupported {
                what: format!("moduli up to {max} in {word_bytes}-byte words"),
                supported: "u32 data for primes below 2^32; u64 data for primes below 2^63 or \
                            the Goldilocks prime (one or the other in a plan)"
                    .into(),
            }),
        }
    }

    /// Bytes of one word.
    ///
    /// ```
    /// assert_eq!(tensorfft::ntt::schedule::NttArithmetic::Goldilocks.word_bytes(), 8);
    /// ```
    pub fn word_bytes(self) -> usize {
        match self {
            NttArithmetic::Shoup32 | NttArithmetic::Shoup32Full => 4,
            _ => 8,
        }
    }

    /// Short name for kernel names and reports.
    ///
    /// ```
    /// assert_eq!(tensorfft::ntt::schedule::NttArithmetic::Shoup32.name(), "u32");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            NttArithmetic::Shoup32 => "u32",
            NttArithmetic::Shoup32Full => "u32f",
            NttArithmetic::Shoup64 => "u64",
            NttArithmetic::Goldilocks => "goldilocks",
        }
    }
}

/// A batch of NTTs: one [`NttSpec`] (length, kind, orders, scaling) for every RNS limb, each limb
/// with its own modulus, and a number of transforms per limb. Transform `t` of the data starts at
/// element `t · n` and uses limb `t mod limbs` (limbs contiguous, batches of limbs after each
/// other).
///
/// ```
/// use tensorfft::ntt::{ntt_friendly_primes, NttBatch, NttKind, NttSpec};
/// let ps = ntt_friendly_primes(50, 1 << 12, 3).unwrap();
/// let b = NttBatch::limbs(&ps, 1 << 12, NttKind::Negacyclic).unwrap().batch(2);
/// assert_eq!((b.transforms(), b.len()), (6, 6 << 12));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NttBatch {
    specs: Vec<NttSpec>,
    batch: usize,
    interleaved: bool,
}

impl NttBatch {
    /// One limb, one transform.
    ///
    /// ```
    /// use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1024, NttKind::Cyclic).unwrap());
    /// assert_eq!(b.len(), 1024);
    /// ```
    pub fn new(spec: NttSpec) -> Self {
        NttBatch {
            specs: vec![spec],
            batch: 1,
            interleaved: false,
        }
    }

    /// One limb per modulus, all of length `n` and `kind`, natural orders, scaled inverse (use
    /// [`NttBatch::with_orders`] and [`NttBatch::with_inverse_scaling`] to change them).
    /// Errors as [`NttSpec::new`] does for any modulus, or [`Error::InvalidSize`] for no moduli.
    ///
    /// ```
    /// use tensorfft::ntt::{NttBatch, NttKind, BABY_BEAR, KOALA_BEAR};
    /// assert_eq!(NttBatch::limbs(&[BABY_BEAR, KOALA_BEAR], 64, NttKind::Cyclic).unwrap().limb_count(), 2);
    /// assert!(NttBatch::limbs(&[], 64, NttKind::Cyclic).is_err());
    /// ```
    pub fn limbs(moduli: &[u64], n: usize, kind: NttKind) -> Result<Self> {
        if moduli.is_empty() {
            return Err(Error::InvalidSize(
                "an NTT batch needs at least one modulus".into(),
            ));
        }
        let specs = moduli
            .iter()
            .map(|&p| NttSpec::new(p, n, kind))
            .collect::<Result<Vec<_>>>()?;
        Ok(NttBatch {
            specs,
            batch: 1,
            interleaved: false,
        })
    }

    /// Transforms per limb (`batch ≥ 1`; 0 is treated as 1).
    ///
    /// ```
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 16, NttKind::Cyclic).unwrap()).batch(5);
    /// assert_eq!(b.transforms(), 5);
    /// ```
    pub fn batch(mut self, batch: usize) -> Self {
        self.batch = batch.max(1);
        self
    }

    /// Interleaved columns (a row-major matrix, as ZK provers keep their traces): word `i` of
    /// transform `t` at `i · transforms() + t` instead of `t · n + i`; every transform runs down
    /// its column, without a transpose. Limbs stay `t mod limbs`.
    ///
    /// ```
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 16, NttKind::Cyclic).unwrap()).batch(64).interleaved(true);
    /// assert!(b.is_interleaved());
    /// ```
    pub fn interleaved(mut self, interleaved: bool) -> Self {
        self.interleaved = interleaved;
        self
    }

    /// Whether the columns are interleaved (see [`NttBatch::interleaved`]).
    ///
    /// ```
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// assert!(!NttBatch::new(NttSpec::new(BABY_BEAR, 16, NttKind::Cyclic).unwrap()).is_interleaved());
    /// ```
    pub fn is_interleaved(&self) -> bool {
        self.interleaved
    }

    /// The transform and index of word `w` of the data: `(w / n, w mod n)`, or for interleaved
    /// columns `(w mod transforms, w / transforms)`.
    ///
    /// ```
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 16, NttKind::Cyclic).unwrap()).batch(4);
    /// assert_eq!(b.locate(17), (1, 1));
    /// assert_eq!(b.clone().interleaved(true).locate(17), (1, 4));
    /// ```
    pub fn locate(&self, w: usize) -> (usize, usize) {
        if self.interleaved {
            (w % self.transforms(), w / self.transforms())
        } else {
            (w / self.n(), w % self.n())
        }
    }

    /// Sets the orders of every limb (see [`NttSpec::with_orders`]).
    ///
    /// ```
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 16, NttKind::Cyclic).unwrap())
    ///     .with_orders(Order::Natural, Order::BitReversed);
    /// assert_eq!(b.spec(0).orders().1, Order::BitReversed);
    /// ```
    pub fn with_orders(mut self, input: Order, output: Order) -> Self {
        for s in &mut self.specs {
            *s = s.with_orders(input, output);
        }
        self
    }

    /// Sets whether the inverse of every limb is scaled by `n⁻¹`.
    ///
    /// ```
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 16, NttKind::Cyclic).unwrap()).with_inverse_scaling(false);
    /// assert!(!b.spec(0).scales_inverse());
    /// ```
    pub fn with_inverse_scaling(mut self, scale: bool) -> Self {
        for s in &mut self.specs {
            *s = s.with_inverse_scaling(scale);
        }
        self
    }

    /// Every limb's transform on the coset `g·H` ([`NttSpec::with_coset`]; `g` taken modulo each
    /// limb's prime). Errors: `g ≡ 0` modulo a limb's prime.
    ///
    /// ```
    /// # use tensorfft::ntt::{NttBatch, NttKind, BABY_BEAR, KOALA_BEAR};
    /// let b = NttBatch::limbs(&[BABY_BEAR, KOALA_BEAR], 16, NttKind::Cyclic).unwrap().with_coset(31).unwrap();
    /// assert_eq!(b.spec(1).coset(), 31);
    /// ```
    pub fn with_coset(mut self, g: u64) -> Result<Self> {
        for s in &mut self.specs {
            *s = s.with_coset(g)?;
        }
        Ok(self)
    }

    /// Whether a limb's transform weights its inputs (forward) and outputs (inverse) by powers
    /// of `g·ψ` ≠ 1 (negacyclic or on a coset).
    ///
    /// ```
    /// # use tensorfft::ntt::{NttBatch, NttKind, BABY_BEAR};
    /// let b = NttBatch::limbs(&[BABY_BEAR], 16, NttKind::Cyclic).unwrap();
    /// assert!(!b.twisted() && b.clone().with_coset(7).unwrap().twisted());
    /// ```
    pub fn twisted(&self) -> bool {
        self.specs.iter().any(|s| s.twist() != 1)
    }

    /// The spec of limb `l` (`l < limb_count()`; larger indices wrap around).
    ///
    /// ```
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 16, NttKind::Cyclic).unwrap());
    /// assert_eq!(b.spec(0).n(), 16);
    /// ```
    pub fn spec(&self, l: usize) -> &NttSpec {
        &self.specs[l % self.specs.len()]
    }

    /// Number of limbs (moduli).
    ///
    /// ```
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// assert_eq!(NttBatch::new(NttSpec::new(BABY_BEAR, 16, NttKind::Cyclic).unwrap()).limb_count(), 1);
    /// ```
    pub fn limb_count(&self) -> usize {
        self.specs.len()
    }

    /// The moduli, one per limb.
    ///
    /// ```
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// assert_eq!(NttBatch::new(NttSpec::new(BABY_BEAR, 16, NttKind::Cyclic).unwrap()).moduli(), vec![BABY_BEAR]);
    /// ```
    pub fn moduli(&self) -> Vec<u64> {
        self.specs.iter().map(|s| s.modulus().value()).collect()
    }

    /// Transform length.
    ///
    /// ```
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// assert_eq!(NttBatch::new(NttSpec::new(BABY_BEAR, 16, NttKind::Cyclic).unwrap()).n(), 16);
    /// ```
    pub fn n(&self) -> usize {
        self.specs[0].n()
    }

    /// Transforms in all (batch times limbs).
    ///
    /// ```
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// assert_eq!(NttBatch::new(NttSpec::new(BABY_BEAR, 16, NttKind::Cyclic).unwrap()).batch(3).transforms(), 3);
    /// ```
    pub fn transforms(&self) -> usize {
        self.batch * self.specs.len()
    }

    /// Elements of the whole batch.
    ///
    /// ```
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// assert_eq!(NttBatch::new(NttSpec::new(BABY_BEAR, 16, NttKind::Cyclic).unwrap()).batch(3).len(), 48);
    /// ```
    pub fn len(&self) -> usize {
        self.transforms() * self.n()
    }

    /// Never true.
    ///
    /// ```
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// assert!(!NttBatch::new(NttSpec::new(BABY_BEAR, 16, NttKind::Cyclic).unwrap()).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Checks every value against its limb's modulus (the documented precondition of every
    /// transform: inputs in `[0, p)`), and the length.
    ///
    /// ```
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 4, NttKind::Cyclic).unwrap());
    /// assert!(b.validate(&[0u64, 1, 2, 3]).is_ok());
    /// assert!(b.validate(&[0u64, 1, 2, BABY_BEAR]).is_err());
    /// assert!(b.validate(&[0u64, 1]).is_err());
    /// ```
    pub fn validate<W: Copy + Into<u64>>(&self, data: &[W]) -> Result<()> {
        if data.len() != self.len() {
            return Err(Error::LengthMismatch {
                expected: self.len(),
                actual: data.len(),
            });
        }
        for (i, &v) in data.iter().enumerate() {
            let p = self.spec(self.locate(i).0).modulus().value();
            let v: u64 = v.into();
            if v >= p {
                return Err(Error::NotReduced {
                    index: i,
                    value: v,
                    modulus: p,
                });
            }
        }
        Ok(())
    }
}

/// One dimension of a pass's items: `count` natural coordinates `c`, stored at position
/// `c` or (`bit_reversed`) its `log2(count)`-bit reversal, times the stride.
///
/// ```
/// use tensorfft::ntt::schedule::NttDim;
/// let d = NttDim { count: 8, in_stride: 4, out_stride: 4, in_bit_reversed: true, out_bit_reversed: true, in_weight: 0, out_weight: 1 };
/// assert_eq!(d.in_offset(1), 16); // 1 reversed over 3 bits is 4
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NttDim {
    /// Number of coordinates (a power of two, except for the last dimension: the transforms).
    pub count: usize,
    /// Element distance between positions in the input.
    pub in_stride: usize,
    /// Element distance between positions in the output.
    pub out_stride: usize,
    /// Whether the input position of coordinate `c` is its bit reversal.
    pub in_bit_reversed: bool,
    /// Whether the output position of coordinate `c` is its bit reversal.
    pub out_bit_reversed: bool,
    /// What the coordinate adds to the natural input index `n` (first pass; for input weights).
    pub in_weight: usize,
    /// What the coordinate adds to the natural output index `k` (last pass; for output weights).
    pub out_weight: usize,
}

impl NttDim {
    fn position(&self, c: usize, reversed: bool) -> usize {
        if reversed {
            Order::BitReversed.index(c, self.count)
        } else {
            c
        }
    }

    /// Element offset of coordinate `c` in the input.
    ///
    /// ```
    /// # use tensorfft::ntt::schedule::NttDim;
    /// let d = NttDim { count: 4, in_stride: 3, out_stride: 1, in_bit_reversed: false, out_bit_reversed: false, in_weight: 0, out_weight: 0 };
    /// assert_eq!(d.in_offset(2), 6);
    /// ```
    pub fn in_offset(&self, c: usize) -> usize {
        self.position(c, self.in_bit_reversed) * self.in_stride
    }

    /// Element offset of coordinate `c` in the output.
    ///
    /// ```
    /// # use tensorfft::ntt::schedule::NttDim;
    /// let d = NttDim { count: 4, in_stride: 3, out_stride: 1, in_bit_reversed: false, out_bit_reversed: true, in_weight: 0, out_weight: 0 };
    /// assert_eq!(d.out_offset(1), 2);
    /// ```
    pub fn out_offset(&self, c: usize) -> usize {
        self.position(c, self.out_bit_reversed) * self.out_stride
    }

    fn plain(count: usize, stride: usize) -> Self {
        NttDim {
            count,
            in_stride: stride,
            out_stride: stride,
            in_bit_reversed: false,
            out_bit_reversed: false,
            in_weight: 0,
            out_weight: 0,
        }
    }

    fn reversed(count: usize, stride: usize) -> Self {
        NttDim {
            in_bit_reversed: true,
            out_bit_reversed: true,
            ..Self::plain(count, stride)
        }
    }
}

/// The four-step twiddle after a pass: the output of local frequency `k` of an item whose
/// coordinate along dimension `dim` is `m` is multiplied by `ω_root^{m·k}`.
///
/// ```
/// let t = tensorfft::ntt::schedule::NttTwiddle { dim: 0, root: 1 << 22 };
/// assert_eq!(t.lo_bits(), 11);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NttTwiddle {
    /// The item dimension of `m`.
    pub dim: usize,
    /// Order of the root (`N / A_j`).
    pub root: usize,
}

impl NttTwiddle {
    /// Bits of the exponent looked up in the low table: `ω^e = hi[e >> lo_bits] · lo[e mod
    /// 2^lo_bits]`, two products with table entries (each with its Shoup companion).
    ///
    /// ```
    /// assert_eq!(tensorfft::ntt::schedule::NttTwiddle { dim: 0, root: 8 }.lo_bits(), 2);
    /// ```
    pub fn lo_bits(&self) -> u32 {
        self.root.trailing_zeros().div_ceil(2)
    }
}

/// Row position of value `j` of an item's thread `t` in round `k` of a direct pass of `len`
/// samples, `values` per thread, in rounds of `rounds` stages ([`NttPass::kernel_round_sizes`];
/// `Round<K>` in `ntt_pass.cuh`): with `G = 2^rounds[k]` and `D = len / 2^(stages up to and
/// including round k)`, group `g = j / G` of the thread starts at `base(t, g)` and its values
/// lie `D` apart. The bank model (`ntt/row_layout.rs`) and the slot twiddles
/// ([`NttPass::output_frequency`]) both read positions from here.
///
/// ```
/// use tensorfft::ntt::schedule::round_position;
/// // 16 samples, 4 values per thread, rounds of 2 + 2 stages: thread 1 holds 1, 5, 9, 13 in
/// // round 0 and 4, 5, 6, 7 in round 1.
/// let p = |k, j| round_position(16, 4, &[2, 2], k, 1, j);
/// assert_eq!((0..4).map(|j| p(0, j)).collect::<Vec<_>>(), [1, 5, 9, 13]);
/// assert_eq!((0..4).map(|j| p(1, j)).collect::<Vec<_>>(), [4, 5, 6, 7]);
/// ```
pub fn round_position(
    len: usize,
    values: usize,
    rounds: &[u32],
    k: usize,
    t: usize,
    j: usize,
) -> usize {
    let s0: u32 = rounds[..k].iter().sum();
    let r = rounds[k];
    let g_len = 1usize << r;
    let d = len >> (s0 + r);
    let group = t + (j / g_len) * (len / values);
    (group / d) * (d * g_len) + group % d + (j % g_len) * d
}

/// One pass: `len`-point NTTs over the items of up to three dimensions (the last one counts the
/// transforms), samples `sample_in` / `sample_out` elements apart, local orders, twiddle after.
///
/// ```
/// use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
/// use tensorfft::Direction;
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 22, NttKind::Cyclic).unwrap());
/// let s = plan_ntt_schedule(&b, 4, Direction::Forward).unwrap();
/// assert_eq!(s.passes.len(), 2);
/// assert_eq!(s.passes[0].len * s.passes[1].len, 1 << 22);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NttPass {
    /// Points of each item's NTT.
    pub len: usize,
    /// Item dimensions, fastest first; one of them counts the transforms.
    pub dims: Vec<NttDim>,
    /// The dimension that counts the transforms (the last, or the first for interleaved
    /// columns, whose transforms are the contiguous side).
    pub transform_dim: usize,
    /// Element distance between an item's samples in the input.
    pub sample_in: usize,
    /// Element distance between an item's outputs.
    pub sample_out: usize,
    /// What one local sample step adds to the natural input index (first pass).
    pub sample_in_weight: usize,
    /// What one local frequency step adds to the natural output index (last pass).
    pub sample_out_weight: usize,
    /// Order of an item's samples in memory.
    pub local_in: Order,
    /// Order of an item's outputs in memory.
    pub local_out: Order,
    /// The four-step twiddle applied to the outputs.
    pub twiddle: Option<NttTwiddle>,
    /// Items a thread block loads, transforms and stores together.
    pub items_per_tile: usize,
    /// Samples each thread holds in registers during a round of radix-2 stages.
    pub values_per_thread: usize,
    /// Most radix-2 stages per round (between two exchanges through shared memory, which wait
    /// on the warp where an item's threads fit one, else on the block): `log2(values_per_thread)`,
    /// or 1 for the block-synchronous baseline ([`NttPass::round_sizes`]).
    pub round_stages: u32,
    /// Whether the stages go in the fewest rounds as evenly as possible (else `round_stages`
    /// per round and the rest last): set by the planner for direct passes whose plain split
    /// would leave a last round of one stage ([`even_rounds_pay`]).
    pub even_rounds: bool,
    /// Whether every exchange waits on the whole block, even where an item's threads fit one
    /// warp: the block-synchronous baseline ([`NttSchedule::block_synchronous`]).
    pub block_barriers: bool,
    /// Radix-2 stages at the end of each item's NTT (at its start by decimation in time)
    /// exchanged between the lanes of a warp (`__shfl_xor_sync`, butterfly distances 1 …
    /// 2^(k-1) samples) instead of through shared memory: set by the planner where they pay
    /// (32-bit rows of 128 … 512) or by [`NttSchedule::warp_shuffles`], else 0.
    pub shuffle_stages: u32,
    /// Whether neighbouring threads load neighbouring items (else neighbouring samples).
    pub items_fastest_in: bool,
    /// Whether neighbouring threads store neighbouring items.
    pub items_fastest_out: bool,
    /// Whether a pass of bit-reversed local input and natural local output runs as a radix-2
    /// decimation in time read straight from device memory and written straight back (a direct
    /// pass, [`NttPass::in_time`]) rather than staged through shared memory both ways: set by
    /// the planner unless [`NttScheduleOptions::staged_reversed_input`] asks for the staged pass.
    pub decimation_in_time: bool,
}

impl NttPass {
    /// Number of items.
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1024, NttKind::Cyclic).unwrap()).batch(3);
    /// assert_eq!(plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().passes[0].items(), 3);
    /// ```
    pub fn items(&self) -> usize {
        self.dims.iter().map(|d| d.count).product()
    }

    /// Whether the pass writes exactly the positions it reads, item by item (it may run in place:
    /// each item's threads read all of its samples before any of them writes, and items are
    /// disjoint).
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 20, NttKind::Cyclic).unwrap())
    ///     .with_orders(Order::Natural, Order::BitReversed);
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
    /// assert!(s.passes.iter().all(|p| p.in_place_safe()));
    /// ```
    pub fn in_place_safe(&self) -> bool {
        self.sample_in == self.sample_out
            && self.dims.iter().all(|d| {
                d.count == 1
                    || (d.in_stride == d.out_stride && d.in_bit_reversed == d.out_bit_reversed)
            })
    }

    /// The stages [`NttSchedule::warp_shuffles`] moves into warp shuffles: the last round's,
    /// where the pass is direct with an item's threads in consecutive lanes and the round's
    /// butterfly distances are thread-index bits below 32 lanes; else 0.
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 8, NttKind::Cyclic).unwrap())
    ///     .with_orders(Order::Natural, Order::BitReversed)
    ///     .batch(64);
    /// let p = &plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().passes[0];
    /// // 256 = 16 values x 16 threads in rounds of 4: the second round runs between lanes.
    /// assert_eq!((p.round_stages, p.shuffle_tail()), (4, 4));
    /// ```
    pub fn shuffle_tail(&self) -> u32 {
        let log_len = self.len.trailing_zeros();
        let thread_bits = self.threads_per_item().trailing_zeros();
        if !self.direct() || self.items_fastest_in || thread_bits == 0 || self.round_stages == 0 {
            return 0;
        }
        // The rounds before the tail are then the same as the first rounds here (the longer
        // rounds come first).
        let last = self.round_sizes().last().copied().unwrap_or(0);
        if last <= thread_bits.min(5) && last < log_len {
            last
        } else {
            0
        }
    }

    /// The radix-2 stages of each round of the kernel when no stage runs between lanes:
    /// `log2(len)` stages in rounds of `round_stages` and the rest last, or with `even_rounds`
    /// in as few rounds, as evenly as possible, the longer first.
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 24, NttKind::Cyclic).unwrap())
    ///     .with_orders(Order::Natural, Order::BitReversed);
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
    /// // A 2048-point pass, 32 values per thread: 4 + 4 + 3 stages, not 5 + 5 + 1.
    /// assert_eq!((s.passes[0].len, s.passes[0].round_sizes()), (2048, vec![4, 4, 3]));
    /// ```
    pub fn round_sizes(&self) -> Vec<u32> {
        split_rounds(
            self.len.trailing_zeros(),
            self.round_stages,
            self.even_rounds,
        )
    }

    /// The kernel's rounds: those of [`NttPass::round_sizes`] before the `shuffle_stages` that
    /// run between lanes (the longer rounds come first, so these are its first rounds). The
    /// kernel runs exactly these rounds (`Cfg::ROUND_SIZES` in `ntt_pass.cuh`).
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 8, NttKind::Cyclic).unwrap())
    ///     .with_orders(Order::Natural, Order::BitReversed)
    ///     .batch(64);
    /// let p = &plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().passes[0];
    /// // 256 points: one round of 4 stages, then 4 between lanes.
    /// assert_eq!((p.kernel_round_sizes(), p.shuffle_stages), (vec![4], 4));
    /// ```
    pub fn kernel_round_sizes(&self) -> Vec<u32> {
        let stages = self
            .len
            .trailing_zeros()
            .saturating_sub(self.shuffle_stages);
        split_rounds(stages, self.round_stages, self.even_rounds)
    }

    /// Whether the sample distances depend on the pass alone, not on the batch: true unless the
    /// columns are interleaved (their distances are multiples of the transform count). The
    /// kernel then takes them as compile-time constants (one kernel per distance pair; with
    /// interleaved columns one kernel serves every column count).
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 20, NttKind::Cyclic).unwrap()).batch(64);
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
    /// assert!(s.passes[0].fixed_sample_distances());
    /// let s = plan_ntt_schedule(&b.interleaved(true), 4, tensorfft::Direction::Forward).unwrap();
    /// assert!(!s.passes[0].fixed_sample_distances());
    /// ```
    pub fn fixed_sample_distances(&self) -> bool {
        self.transform_dim + 1 == self.dims.len()
    }

    /// Threads that compute one item.
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1024, NttKind::Cyclic).unwrap());
    /// let p = &plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().passes[0];
    /// assert_eq!(p.threads_per_item() * p.values_per_thread, 1024);
    /// ```
    pub fn threads_per_item(&self) -> usize {
        self.len / self.values_per_thread
    }

    /// Items computed at once (the block's threads over `threads_per_item`).
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 64, NttKind::Cyclic).unwrap()).batch(100);
    /// let p = &plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().passes[0];
    /// assert_eq!(p.items_per_tile % p.concurrent_items(), 0);
    /// ```
    pub fn concurrent_items(&self) -> usize {
        if self.direct() {
            return self.items_per_tile;
        }
        (TARGET_THREADS / self.threads_per_item()).clamp(1, self.items_per_tile)
    }

    /// Whether the pass reads its samples straight from device memory into its first round's
    /// registers and writes its outputs straight back from its last round's: natural local
    /// input and bit-reversed local output (where decimation in frequency leaves them), or the
    /// mirror image by decimation in time ([`NttPass::in_time`]). All of a tile's items are
    /// computed at once.
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 20, NttKind::Cyclic).unwrap())
    ///     .with_orders(Order::Natural, Order::BitReversed);
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
    /// assert!(s.passes.iter().all(|p| p.direct()));
    /// ```
    pub fn direct(&self) -> bool {
        self.items_fastest_in == self.items_fastest_out
            && ((self.local_in == Order::Natural && self.local_out == Order::BitReversed)
                || self.in_time())
    }

    /// Whether the pass is direct by decimation in time (the mirror image of the decimation in
    /// frequency): bit-reversed local input, natural local output, and
    /// [`NttPass::decimation_in_time`] set. The kernel runs the rounds of
    /// [`NttPass::kernel_round_sizes`] last to first, each round's stages last to first as
    /// butterflies `(a + w·b, a − w·b)` with the same roots: the last round's groups come
    /// straight from device memory (position `i` of the row holds sample `bitrev(i)`), the
    /// warp-shuffle stages ([`NttPass::shuffle_stages`], the smallest distances) run first, and
    /// round 0's values are the natural frequencies `k = position`, stored straight back.
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 22, NttKind::Cyclic).unwrap())
    ///     .with_orders(Order::BitReversed, Order::Natural);
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
    /// assert!(s.passes.iter().all(|p| p.in_time() && p.direct()));
    /// ```
    pub fn in_time(&self) -> bool {
        self.decimation_in_time
            && self.local_in == Order::BitReversed
            && self.local_out == Order::Natural
            && self.items_fastest_in == self.items_fastest_out
    }

    /// The local frequency that value `j` of an item's thread `t` holds when a direct pass
    /// stores it: `bitrev(output_position(t, j))` after a decimation in frequency, round 0's
    /// position ([`round_position`]) after a decimation in time. Bit placements of `t` and `j`
    /// on disjoint bits either way: `output_frequency(t, j) = output_frequency(t, 0) |
    /// output_frequency(0, j)` (the slot twiddles' tables rest on it).
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 22, NttKind::Cyclic).unwrap())
    ///     .with_orders(Order::BitReversed, Order::Natural);
    /// let p = &plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().passes[0];
    /// let (t, j) = (5, 9);
    /// assert_eq!(p.output_frequency(t, j), p.output_frequency(t, 0) | p.output_frequency(0, j));
    /// ```
    pub fn output_frequency(&self, t: usize, j: usize) -> usize {
        if self.in_time() {
            let rounds = self.kernel_round_sizes();
            if rounds.is_empty() {
                return t + j * self.threads_per_item();
            }
            return round_position(self.len, self.values_per_thread, &rounds, 0, t, j);
        }
        Order::BitReversed.index(self.output_position(t, j), self.len)
    }

    /// Row position of value `j` of an item's thread `t` after a direct pass's last round
    /// (`Round<LAST_ROUND>` in `ntt_pass.cuh`: group `g = j / G` starts at `base(t, g)`, its
    /// values `D` apart); by decimation in frequency the value is frequency `bitrev(position)`
    /// ([`NttPass::output_frequency`] for either kind of direct pass). Positions are bit
    /// placements of `t` and `j` on disjoint bits, so `position(t, j) = position(t, 0) |
    /// position(0, j)`.
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 22, NttKind::Cyclic).unwrap())
    ///     .with_orders(Order::Natural, Order::BitReversed);
    /// let p = &plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().passes[0];
    /// let (t, j) = (5, 9);
    /// assert_eq!(p.output_position(t, j), p.output_position(t, 0) | p.output_position(0, j));
    /// ```
    pub fn output_position(&self, t: usize, j: usize) -> usize {
        let rounds = self.kernel_round_sizes();
        match rounds.len().checked_sub(1) {
            Some(last) => round_position(self.len, self.values_per_thread, &rounds, last, t, j),
            None => t + j * self.threads_per_item(),
        }
    }

    /// Whether the four-step twiddle `ω_root^{m·k}` comes from two tables indexed by the
    /// thread and by the value slot (`k = k_thread | k_slot`, both laid out `[·][m]`: one load
    /// per thread and one per value, neighbouring items of a tile at neighbouring entries)
    /// rather than from the exponent's high and low bits (two scattered loads per value): direct
    /// passes whose twiddle dimension counts a power of two and whose two tables stay within
    /// 2^21 entries.
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 22, NttKind::Cyclic).unwrap())
    ///     .with_orders(Order::Natural, Order::BitReversed);
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
    /// assert!(s.passes[0].slot_twiddles() && !s.passes[1].slot_twiddles());
    /// ```
    pub fn slot_twiddles(&self) -> bool {
        match self.twiddle {
            Some(tw) if self.direct() => {
                let items = self.dims.get(tw.dim).map_or(0, |d| d.count);
                items.is_power_of_two()
                    && (self.threads_per_item() + self.values_per_thread) * items <= 1 << 21
            }
            _ => false,
        }
    }

    /// Threads per block.
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 4096, NttKind::Cyclic).unwrap());
    /// assert!(plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().passes[0].threads() <= 1024);
    /// ```
    pub fn threads(&self) -> usize {
        self.concurrent_items() * self.threads_per_item()
    }

    /// Padding of an item's shared-memory row in staged passes (and the rows' sizing in the
    /// planner): one word after every `2^pad_shift(word_bytes)` (32 four-byte or 16 eight-byte
    /// words: one pass over the banks). Direct passes of several rounds take the layout with
    /// the fewest bank conflicts instead ([`NttPass::row_layout`]).
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 64, NttKind::Cyclic).unwrap());
    /// assert_eq!(plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().passes[0].pad_shift(4), 5);
    /// ```
    pub fn pad_shift(&self, word_bytes: usize) -> u32 {
        if word_bytes == 4 {
            5
        } else {
            4
        }
    }

    /// Words from one item's shared-memory row to the next: `len`, its padding, and where
    /// neighbouring threads take neighbouring items, a skew that puts the tile's items on
    /// different banks (`32 / (items · words per bank slot)`; the bank model: 160 instead of
    /// 1024 wavefronts for 8 items of 2048 u32 samples).
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 64, NttKind::Cyclic).unwrap());
    /// assert_eq!(plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().passes[0].row_stride(4), 66);
    /// ```
    pub fn row_stride(&self, word_bytes: usize) -> usize {
        let words = self.len + (self.len >> self.pad_shift(word_bytes));
        let skew = if self.items_fastest_in || self.items_fastest_out {
            (32 / (self.items_per_tile * word_bytes / 4).max(1)).max(1)
        } else {
            0
        };
        words + skew
    }

    /// The layout of the items' shared-memory rows ([`super::row_layout::direct_row_layout`]:
    /// direct passes of several rounds take the one with the fewest bank conflicts).
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 10, NttKind::Cyclic).unwrap()).batch(64);
    /// let p = &plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().passes[0];
    /// assert!(p.row_layout(4).row >= 1024);
    /// ```
    pub fn row_layout(&self, word_bytes: usize) -> super::row_layout::RowLayout {
        super::row_layout::direct_row_layout(self, word_bytes)
    }

    /// Dynamic shared memory of one block for words of `word_bytes` bytes.
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 20, NttKind::Cyclic).unwrap());
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
    /// assert!(s.passes.iter().all(|p| p.shared_bytes(4) <= 160 * 1024));
    /// ```
    pub fn shared_bytes(&self, word_bytes: usize) -> usize {
        self.items_per_tile * self.row_layout(word_bytes).row * word_bytes
    }

    /// Tiles (blocks) of the pass.
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 20, NttKind::Cyclic).unwrap());
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
    /// assert!(s.passes.iter().all(|p| p.tiles() * p.items_per_tile >= p.items()));
    /// ```
    pub fn tiles(&self) -> usize {
        self.items().div_ceil(self.items_per_tile)
    }
}

/// Threads a block aims for.
const TARGET_THREADS: usize = 512;

/// Fewest threads of a row pass's block that [`NttScheduleOptions::min_row_tiles`] shrinks
/// tiles to (the measured gains, `bench/results/2026-11-27-ntt-tiles/`, had 128 or more).
const ROW_TILE_MIN_THREADS: usize = 128;

/// Most bytes of shared memory a tile may take.
const TILE_BYTES: usize = 160 * 1024;

/// A whole NTT plan in one direction: the batch, the arithmetic and the passes.
///
/// ```
/// use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 16, NttKind::Cyclic).unwrap());
/// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
/// println!("{s}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NttSchedule {
    /// The transforms.
    pub batch: NttBatch,
    /// The direction this schedule computes.
    pub direction: Direction,
    /// Word and modular arithmetic.
    pub arithmetic: NttArithmetic,
    /// The passes, first to last.
    pub passes: Vec<NttPass>,
    /// Blocks of the thread-block cluster that runs passes 0 and 1 as one kernel (their
    /// intermediate in distributed shared memory: [`super::cluster_fusion`]), or 0: one kernel
    /// per pass.
    pub cluster: usize,
}

/// Scalar weight applied to each element by a pass: the twist `(gψ)^j` (negacyclic ψ, coset g:
/// [`NttSpec::twist`]) before the first pass of a forward transform, `(gψ)^{−j}` and the scale
/// `n⁻¹` after the last pass of an inverse (j the natural coefficient index).
///
/// ```
/// assert_ne!(tensorfft::ntt::schedule::WeightSide::Input, tensorfft::ntt::schedule::WeightSide::Output);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WeightSide {
    /// No weight.
    None,
    /// `base^n · scale` on the inputs, `n` the natural input index.
    Input,
    /// `base^k · scale` on the outputs, `k` the natural output index.
    Output,
}

impl NttSchedule {
    /// Which weight pass `index` applies (see [`WeightSide`]).
    ///
    /// ```
    /// use tensorfft::ntt::{schedule::{plan_ntt_schedule, WeightSide}, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 20, NttKind::Negacyclic).unwrap());
    /// let f = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
    /// assert_eq!((f.weight_side(0), f.weight_side(1)), (WeightSide::Input, WeightSide::None));
    /// let i = plan_ntt_schedule(&b, 4, tensorfft::Direction::Inverse).unwrap();
    /// assert_eq!((i.weight_side(0), i.weight_side(1)), (WeightSide::None, WeightSide::Output));
    /// ```
    pub fn weight_side(&self, index: usize) -> WeightSide {
        let spec = self.batch.spec(0);
        match self.direction {
            Direction::Forward if index == 0 && self.batch.twisted() => WeightSide::Input,
            Direction::Inverse
                if index + 1 == self.passes.len()
                    && (self.batch.twisted() || spec.scales_inverse()) =>
            {
                WeightSide::Output
            }
            _ => WeightSide::None,
        }
    }

    /// `(base, scale)` of the weight of limb `l` (see [`WeightSide`]): `(gψ, 1)` forward,
    /// `((gψ)⁻¹, n⁻¹ or 1)` inverse, with `gψ` = [`NttSpec::twist`] (1 for a plain cyclic
    /// transform).
    ///
    /// ```
    /// use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 4, NttKind::Cyclic).unwrap());
    /// let i = plan_ntt_schedule(&b, 4, tensorfft::Direction::Inverse).unwrap();
    /// let m = b.spec(0).modulus();
    /// assert_eq!(i.weight(0), (1, m.inv(4).unwrap()));
    /// ```
    pub fn weight(&self, l: usize) -> (u64, u64) {
        let spec = self.batch.spec(l);
        let m = spec.modulus();
        // ψ (1 for cyclic transforms) times the coset generator.
        let psi = spec.twist();
        match self.direction {
            Direction::Forward => (psi, 1),
            Direction::Inverse => {
                let scale = if spec.scales_inverse() {
                    m.inv(spec.n() as u64 % m.value()).unwrap_or(1)
                } else {
                    1
                };
                (m.inv(psi).unwrap_or(1), scale)
            }
        }
    }

    /// The root of unity of order `order` (dividing `n`) of limb `l` in this direction.
    ///
    /// ```
    /// use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 8, NttKind::Cyclic).unwrap());
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
    /// let m = b.spec(0).modulus();
    /// assert_eq!(m.pow(s.root(0, 4), 2), m.value() - 1);
    /// ```
    pub fn root(&self, l: usize, order: usize) -> u64 {
        let spec = self.batch.spec(l);
        let w = spec.root(self.direction);
        spec.modulus().pow(w, (spec.n() / order) as u64)
    }

    /// The block-synchronous baseline of the same schedule (seed 000): every pass synchronizes
    /// its block after each radix-2 stage instead of running `log2(values_per_thread)` stages
    /// in registers between barriers. Same passes, tiles, loads and stores; its exchanges wait
    /// on the whole block even where an item's threads fit one warp
    /// ([`NttPass::block_barriers`], `Cfg::BLOCK_BARRIERS` in `ntt_pass.cuh`).
    ///
    /// ```
    /// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 12, NttKind::Cyclic).unwrap());
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().block_synchronous();
    /// assert!(s.passes.iter().all(|p| p.round_stages == 1 && p.block_barriers));
    /// ```
    pub fn block_synchronous(mut self) -> Self {
        for p in &mut self.passes {
            p.round_stages = 1;
            p.even_rounds = false;
            p.block_barriers = true;
            p.shuffle_stages = 0;
        }
        self
    }

    /// The same schedule with the last round of each direct, sample-contiguous pass (threads of
    /// an item in consecutive lanes) run as warp-shuffle butterflies (seed 000's warp-shuffle-XOR
    /// exchanges): its stages, of butterfly distance below the item's threads and below 32
    /// lanes, exchange through `__shfl_xor_sync` instead of a shared-memory round and a barrier.
    /// Other passes are unchanged. Same passes, tiles, roots and results (bit for bit). By
    /// decimation in time the shuffled stages come first, and the pass loads its groups at a
    /// stride of 2^k samples instead of 16 bytes at a time (the planner takes none there).
    ///
    /// ```
    /// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 10, NttKind::Cyclic).unwrap())
    ///     .with_orders(Order::Natural, Order::BitReversed)
    ///     .batch(64);
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().warp_shuffles();
    /// // 1024 = 16 values x 64 threads: rounds of 4 + 4 stages, then 2 between lanes.
    /// assert_eq!(s.passes[0].shuffle_stages, 2);
    /// ```
    pub fn warp_shuffles(mut self) -> Self {
        for p in &mut self.passes {
            p.shuffle_stages = p.shuffle_tail();
        }
        self
    }

    /// The same schedule with every round exchanged through shared memory: no warp-shuffle
    /// butterflies, not even where the planner chose them (rows of 128 … 512 in 32-bit words).
    ///
    /// ```
    /// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 8, NttKind::Cyclic).unwrap())
    ///     .with_orders(Order::Natural, Order::BitReversed)
    ///     .batch(64);
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
    /// assert_eq!(s.passes[0].shuffle_stages, 4); // the planner's choice for rows of 256
    /// assert_eq!(s.without_warp_shuffles().passes[0].shuffle_stages, 0);
    /// ```
    pub fn without_warp_shuffles(mut self) -> Self {
        for p in &mut self.passes {
            p.shuffle_stages = 0;
        }
        self
    }

    /// Source and destination of every pass, in place or out of place (see
    /// [`crate::plan::schedule::pass_buffers`]).
    ///
    /// ```
    /// use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// use tensorfft::plan::schedule::Buffer;
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 20, NttKind::Cyclic).unwrap());
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap(); // natural orders
    /// // The last pass writes its outputs transposed: in place, the first pass goes to scratch.
    /// assert_eq!(s.buffers(true), vec![(Buffer::Input, Buffer::Scratch(0)), (Buffer::Scratch(0), Buffer::Output)]);
    /// ```
    pub fn buffers(&self, in_place: bool) -> Vec<(Buffer, Buffer)> {
        let safe: Vec<bool> = self.passes.iter().map(|p| p.in_place_safe()).collect();
        pass_buffers(&safe, true, in_place)
    }

    /// Source and destination of every kernel the GPU launches: those of [`Self::buffers`], or
    /// for passes fused on a cluster one pair from the input to the output (a cluster reads its
    /// whole transform before it writes any of it, so it runs in place without scratch).
    ///
    /// ```
    /// use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// use tensorfft::ntt::cluster_fusion::fuse_on_cluster;
    /// use tensorfft::plan::schedule::Buffer;
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 13, NttKind::Cyclic).unwrap()); // natural orders
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
    /// assert_eq!(s.kernel_buffers(true), s.buffers(true));
    /// let f = fuse_on_cluster(&s, 4).unwrap();
    /// assert_eq!(f.kernel_buffers(true), vec![(Buffer::Input, Buffer::Output)]);
    /// assert_eq!((s.scratch_elements(), f.scratch_elements()), (1 << 13, 0));
    /// ```
    pub fn kernel_buffers(&self, in_place: bool) -> Vec<(Buffer, Buffer)> {
        if self.cluster > 1 && self.passes.len() == 2 {
            return vec![(Buffer::Input, Buffer::Output)];
        }
        self.buffers(in_place)
    }

    /// Scratch elements a GPU execution needs (in place or out of place, whichever needs more;
    /// [`Self::kernel_buffers`]).
    ///
    /// ```
    /// use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 20, NttKind::Cyclic).unwrap());
    /// let nr = b.clone().with_orders(Order::Natural, Order::BitReversed);
    /// assert_eq!(plan_ntt_schedule(&nr, 4, tensorfft::Direction::Forward).unwrap().scratch_elements(), 0);
    /// assert_eq!(plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().scratch_elements(), 1 << 20);
    /// ```
    pub fn scratch_elements(&self) -> usize {
        scratch_count(&[self.kernel_buffers(false), self.kernel_buffers(true)]) * self.batch.len()
    }
}

impl fmt::Display for NttSchedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let spec = self.batch.spec(0);
        let (a, b) = spec.orders();
        let (from, to) = match self.direction {
            Direction::Forward => (a, b),
            Direction::Inverse => (b, a),
        };
        write!(
            f,
            "ntt {} {:?} {:?}{} n={} limbs={} transforms={} {:?}->{:?} passes={}{}",
            self.arithmetic.name(),
            self.direction,
            spec.kind(),
            match (0..self.batch.limb_count())
                .map(|l| self.batch.spec(l).coset())
                .find(|&g| g != 1)
            {
                Some(g) => format!(" coset={g}"),
                None => String::new(),
            },
            spec.n(),
            self.batch.limb_count(),
            self.batch.transforms(),
            from,
            to,
            self.passes.len(),
            if self.cluster > 1 {
                format!(
                    " (passes 0 and 1 fused on clusters of {} blocks)",
                    self.cluster
                )
            } else {
                String::new()
            }
        )?;
        for (i, p) in self.passes.iter().enumerate() {
            let dims: Vec<String> = p
                .dims
                .iter()
                .map(|d| format!("{}@{}/{}", d.count, d.in_stride, d.out_stride))
                .collect();
            write!(
                f,
                "\n  pass {i}: len {} samples @{}/{} {:?}->{:?} items [{}] tile {} threads {}{}",
                p.len,
                p.sample_in,
                p.sample_out,
                p.local_in,
                p.local_out,
                dims.join(", "),
                p.items_per_tile,
                p.threads(),
                match p.twiddle {
                    Some(t) => format!(" twiddle w_{}^(m{}·k)", t.root, t.dim),
                    None => String::new(),
                }
            )?;
        }
        Ok(())
    }
}

/// Largest NTT of a single-pass plan, by word size: 4096 `u32` or 2048 `u64` samples per item
/// (16 KB).
fn max_pass_len(word_bytes: usize) -> usize {
    16 * 1024 / word_bytes
}

/// Row (contiguous) pass bound of `u64` words, and of `u32` words except where
/// [`max_row_bits`] and [`pass_lengths`] take [`LONG_ROW_BITS`] (a row: 2^13 words, 32 KB per
/// item for `u32`; H200, `2026-11-24-h200-ntt-bench.json`: BabyBear 2^24 as 2^11 × 2^13
/// 0.241 ms against 0.310 ms as 2^12 × 2^12 with 16-byte column rows) and longest strided pass
/// (a column: tiles of 8 items, 32 or 64 contiguous bytes per sample row, must fit shared
/// memory). `u64` rows were held at 2^11 while the 64-bit arithmetic dominated (Goldilocks 2^24
/// as 2^11 × 2^13 0.90 ms against 0.79 ms in three passes); with the carry-chain Goldilocks
/// arithmetic two passes win (`2026-11-25-h200-ntt-goldilocks/ntt-row13-ab.txt`: 2^23 0.297 ms
/// against 0.318, 2^24 0.567 against 0.630).
const ROW_MAX_BITS: usize = 13;
const COLUMN_MAX_BITS: usize = 11;

/// Longest row (contiguous) pass the planner takes by word size and the row pass's kind: 2^14
/// `u32` words (64 KB per item) where the row pass is staged (bit-reversed input read into
/// shared memory: the first pass of bit-reversed → bit-reversed plans, or of bit-reversed →
/// natural with [`NttScheduleOptions::staged_reversed_input`]; 16 values per thread, 1024
/// threads), 2^13 where it is direct (`row_direct`: natural input, and bit-reversed input to
/// natural output by decimation in time), and 2^13 `u64` words. Where rows of
/// 2^14 save a pass the choice turns (the planner's pass lengths). H200, BabyBear, staged rows
/// (`bench/results/2026-11-27-ntt-long-rows/`): 2^24 RN as 2^14 × 2^10 0.335 ms against
/// 0.377 ms as 2^13 × 2^11 (× 4: 1.262 against 1.488 ms); 2^25 RN in three passes 0.655 ms
/// against 0.867 ms in two. Direct rows: 2^24 NR as 2^10 × 2^14 0.164 ms against 0.139 ms as
/// 2^11 × 2^13, 2^25 NR in two passes 0.321 ms against 0.377 ms in three; by decimation in time
/// (`bench/results/2026-11-27-ntt-in-time/`) 2^24 RN as 2^13 × 2^11 0.1413 ms against 0.146 ms
/// as 2^14 × 2^10, 2^25 RN in two passes 0.293 ms against 0.395 ms in three.
///
/// ```
/// use tensorfft::ntt::schedule::max_row_bits;
/// assert_eq!((max_row_bits(4, false), max_row_bits(4, true), max_row_bits(8, false)), (14, 13, 13));
/// ```
pub fn max_row_bits(word_bytes: usize, row_direct: bool) -> usize {
    if word_bytes == 4 && !row_direct {
        LONG_ROW_BITS
    } else {
        ROW_MAX_BITS
    }
}

/// Longest rows of 32-bit words (2^14 points).
const LONG_ROW_BITS: usize = 14;

/// Longest row any plan takes: 2^14 `u32` words, 2^13 `u64` words (explicit bounds above it are
/// held to it).
fn longest_row_bits(word_bytes: usize) -> usize {
    if word_bytes == 4 {
        LONG_ROW_BITS
    } else {
        ROW_MAX_BITS
    }
}

/// Columns of 32-bit words the planner prefers: 2^10 points, where the row pass can take the
/// bit (H200, `bench/results/2026-11-27-ntt-tiles/`: BabyBear 2^22 × 16 as 2^10 × 2^12 0.473 ms
/// against 0.504 ms as 2^11 × 2^11, whose columns have tiles of 8 items, 32 contiguous bytes per
/// sample row, where 2^10 columns take 16, 64 bytes; Goldilocks 2^22 lost with 2^10 columns,
/// 0.122 against 0.118 ms).
///
/// ```
/// use tensorfft::ntt::schedule::preferred_column_bits;
/// assert_eq!((preferred_column_bits(4), preferred_column_bits(8)), (10, 11));
/// ```
pub fn preferred_column_bits(word_bytes: usize) -> usize {
    if word_bytes == 4 {
        10
    } else {
        COLUMN_MAX_BITS
    }
}

/// Splits `n` into pass lengths: one pass up to `single_max`; else as equal as possible, then
/// bits moved from columns longer than the preferred length to the row pass (up to `row_bits`,
/// by default [`max_row_bits`], turned where 2^14 32-bit words save a pass), all at most
/// `cap`. `column_bits`: the columns' bound and
/// preferred bits (by default [`COLUMN_MAX_BITS`] and [`preferred_column_bits`]). The row pass
/// (contiguous samples) is last for natural input (`row_last`), first otherwise; `row_direct`:
/// it reads straight from device memory (not staged through shared memory, [`max_row_bits`]).
fn pass_lengths(
    n: usize,
    word_bytes: usize,
    cap: usize,
    column_bits: Option<(usize, usize)>,
    row_bits: Option<usize>,
    row_last: bool,
    row_direct: bool,
) -> Vec<usize> {
    let (column_max, column_pref) =
        column_bits.unwrap_or((COLUMN_MAX_BITS, preferred_column_bits(word_bytes)));
    let single_max = max_pass_len(word_bytes);
    let bits = n.trailing_zeros() as usize;
    let cap_bits = (cap.max(2).trailing_zeros() as usize).max(1);
    if bits <= cap_bits.min(single_max.trailing_zeros() as usize) {
        return vec![n];
    }
    let col_max = column_max.max(1).min(cap_bits);
    let col_pref = column_pref.max(1).min(col_max);
    let count = |row_max: usize| {
        if bits <= row_max + col_max {
            2
        } else {
            1 + (bits - row_max).div_ceil(col_max)
        }
        .max(bits.div_ceil(cap_bits))
    };
    // 32-bit rows of 2^14: direct only where they save a pass, staged only where they do not
    // (H200, BabyBear 2^25 RN staged in two passes 0.867 ms against 0.655 ms in three).
    let saves_a_pass =
        word_bytes == 4 && count(LONG_ROW_BITS.min(cap_bits)) < count(ROW_MAX_BITS.min(cap_bits));
    let longest = longest_row_bits(word_bytes);
    let row_max = match row_bits {
        Some(b) => b.min(longest),
        None if saves_a_pass == row_direct => longest,
        None => ROW_MAX_BITS,
    }
    .max(1)
    .min(cap_bits);
    let passes = count(row_max);
    // Even split; the row pass (index 0 here) takes the larger parts.
    let mut parts: Vec<usize> = (0..passes)
        .map(|i| bits / passes + usize::from(i < bits % passes))
        .collect();
    for i in 1..passes {
        while parts[i] > col_pref && parts[0] < row_max {
            parts[i] -= 1;
            parts[0] += 1;
        }
    }
    let mut out: Vec<usize> = parts.into_iter().map(|b| 1usize << b).collect();
    if row_last {
        out.reverse();
    }
    out
}

/// Plans `batch` in `direction` for data words of `word_bytes` bytes (4: `u32`, 8: `u64`).
/// The forward direction maps the spec's input order to its output order, the inverse the
/// other way round.
///
/// ```
/// use tensorfft::ntt::{schedule::plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 24, NttKind::Cyclic).unwrap())
///     .with_orders(Order::Natural, Order::BitReversed);
/// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
/// assert_eq!(s.passes.iter().map(|p| p.len).collect::<Vec<_>>(), vec![2048, 8192]);
/// ```
pub fn plan_ntt_schedule(
    batch: &NttBatch,
    word_bytes: usize,
    direction: Direction,
) -> Result<NttSchedule> {
    plan_ntt_schedule_with(batch, word_bytes, direction, &NttScheduleOptions::default())
}

/// Planner knobs beyond the batch: a bound on pass lengths (tests reach the three- and
/// four-pass geometry at small sizes with it) and the number of tiles (blocks) a pass should
/// have at least, so one small transform still spreads over the device (the GPU plan asks for
/// two per multiprocessor); tiles shrink down to 32 contiguous bytes per sample row (columns) or
/// one item (rows) for it.
///
/// ```
/// let o = tensorfft::ntt::schedule::NttScheduleOptions::default();
/// assert_eq!(o.min_tiles, 0);
/// assert_eq!(o.max_column_len, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NttScheduleOptions {
    /// Passes of at most this many points (a power of two, at least 2).
    pub max_pass_len: usize,
    /// Tiles each pass should have at least: tiles shrink down to 32 contiguous bytes per
    /// sample row (columns) or one item (rows) for it.
    pub min_tiles: usize,
    /// Tiles each contiguous (row) pass should have at least, beyond `min_tiles`: its tiles
    /// shrink further while a block keeps at least 128 threads.
    pub min_row_tiles: usize,
    /// Strided (column) passes of at most this many points (a power of two, at least 2), the
    /// bits they give up going to the contiguous row pass, up to its own bound. `None`: the
    /// planner's choice, columns of at most 2^11 points, and 2^10 for 32-bit words where the
    /// row pass can take the bit without a pass more ([`preferred_column_bits`]).
    pub max_column_len: Option<usize>,
    /// Contiguous (row) passes of at most this many points (a power of two, at least 2; held to
    /// the longest row, 2^14 `u32` or 2^13 `u64` words); `None`:
    /// [`max_row_bits`], turned where 2^14 32-bit words save a pass (direct rows take them
    /// there, staged rows do not). A shorter bound moves bits to the columns (and may add a
    /// pass).
    pub max_row_len: Option<usize>,
    /// Passes of bit-reversed local input and natural local output staged through shared
    /// memory both ways (the plans before decimation in time; for A/B measurements) instead of
    /// direct by decimation in time ([`NttPass::in_time`]).
    pub staged_reversed_input: bool,
}

impl Default for NttScheduleOptions {
    fn default() -> Self {
        NttScheduleOptions {
            max_pass_len: 1 << 30,
            min_tiles: 0,
            min_row_tiles: 0,
            max_column_len: None,
            max_row_len: None,
            staged_reversed_input: false,
        }
    }
}

/// [`plan_ntt_schedule`] with passes of at most `max_pass_len` points (a power of two, at least
/// 2; smaller than the default, it plans more passes: how tests reach the three- and four-pass
/// geometry at small sizes).
///
/// ```
/// use tensorfft::ntt::{schedule::plan_ntt_schedule_limited, NttBatch, NttKind, NttSpec, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 9, NttKind::Cyclic).unwrap());
/// let s = plan_ntt_schedule_limited(&b, 4, tensorfft::Direction::Forward, 8).unwrap();
/// assert_eq!(s.passes.len(), 3);
/// ```
pub fn plan_ntt_schedule_limited(
    batch: &NttBatch,
    word_bytes: usize,
    direction: Direction,
    max_pass_len: usize,
) -> Result<NttSchedule> {
    let options = NttScheduleOptions {
        max_pass_len,
        ..Default::default()
    };
    plan_ntt_schedule_with(batch, word_bytes, direction, &options)
}

/// The longest NTT a schedule takes: 2^32 points (Goldilocks' two-adicity; the kernels form the
/// four-step twiddle's exponent, below the transform length, in 32 bits). Longer transforms of a
/// prime with the roots for them are refused with a typed error.
///
/// ```
/// use tensorfft::ntt::{is_prime, plan_ntt_schedule, NttBatch, NttKind, NttSpec};
/// use tensorfft::{Direction, Error};
/// let n = 1usize << 33;
/// let p = (1u64..).map(|k| (k << 34) + 1).find(|&p| is_prime(p)).unwrap(); // p ≡ 1 mod 2^34
/// let b = NttBatch::new(NttSpec::new(p, n, NttKind::Cyclic).unwrap());
/// let err = plan_ntt_schedule(&b, 8, Direction::Forward).unwrap_err();
/// assert!(matches!(err, Error::Unsupported { .. }));
/// ```
pub const MAX_NTT_LEN: u64 = 1 << 32;

/// [`plan_ntt_schedule`] with [`NttScheduleOptions`].
///
/// ```
/// use tensorfft::ntt::schedule::{plan_ntt_schedule_with, NttScheduleOptions};
/// use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 16, NttKind::Cyclic).unwrap());
/// let o = NttScheduleOptions { min_tiles: 264, ..Default::default() };
/// let s = plan_ntt_schedule_with(&b, 4, tensorfft::Direction::Forward, &o).unwrap();
/// assert!(s.passes.iter().all(|p| p.tiles() >= 32));
/// ```
pub fn plan_ntt_schedule_with(
    batch: &NttBatch,
    word_bytes: usize,
    direction: Direction,
    options: &NttScheduleOptions,
) -> Result<NttSchedule> {
    let max_pass_len = options.max_pass_len;
    if !max_pass_len.is_power_of_two() || max_pass_len < 2 {
        return Err(Error::InvalidSize(format!(
            "a pass length bound of {max_pass_len} (a power of two, at least 2)"
        )));
    }
    for (what, bound) in [
        ("column", options.max_column_len),
        ("row", options.max_row_len),
    ] {
        if let Some(m) = bound {
            if !m.is_power_of_two() || m < 2 {
                return Err(Error::InvalidSize(format!(
                    "a {what} pass length bound of {m} (a power of two, at least 2)"
                )));
            }
        }
    }
    let arithmetic = NttArithmetic::for_moduli(&batch.moduli(), word_bytes)?;
    let n = batch.n();
    // The kernels form the four-step twiddle's exponent in 32 bits (ntt_pass.cuh).
    if n as u64 > MAX_NTT_LEN {
        return Err(Error::unsupported(
            format!("an NTT of {n} points"),
            "NTT lengths up to 2^32",
        ));
    }
    let (a, b) = batch.spec(0).orders();
    let (from, to) = match direction {
        Direction::Forward => (a, b),
        Direction::Inverse => (b, a),
    };
    // Decimation in frequency stores rows bit-reversed: the larger passes go where samples are
    // contiguous (last for natural input, first for bit-reversed input).
    let column_bits = options
        .max_column_len
        .map(|m| (m.trailing_zeros() as usize, m.trailing_zeros() as usize));
    let lens = pass_lengths(
        n,
        word_bytes,
        max_pass_len,
        column_bits,
        options.max_row_len.map(|m| m.trailing_zeros() as usize),
        from == Order::Natural,
        // The row pass is direct but for bit-reversed input staged (to bit-reversed output, or
        // by the option).
        from == Order::Natural || (to == Order::Natural && !options.staged_reversed_input),
    );
    let count = lens.len();
    let transforms = NttDim::plain(batch.transforms(), n);
    let mut passes = Vec::with_capacity(count);
    let mut done = 1usize; // A_j
    for (j, &len) in lens.iter().enumerate() {
        let rest = n / (done * len); // S_j
        let (first, last) = (j == 0, j + 1 == count);
        let geometry = Geometry {
            n,
            len,
            done,
            rest,
            last,
            transforms,
        };
        // Bit-reversed → bit-reversed: after its first pass, the passes of natural input.
        let natural_layout = from == Order::Natural || !first && to == Order::BitReversed;
        let mut pass = if natural_layout {
            geometry.natural_input_pass()
        } else {
            geometry.reversed_input_pass()
        };
        if from == Order::Natural && to == Order::Natural && last {
            // The last pass writes digit k_j at stride A_j, its items (the rows, natural
            // coordinates) at stride 1.
            pass.local_out = Order::Natural;
            pass.sample_out = done;
            pass.dims[1].out_stride = 1;
            pass.dims[1].out_bit_reversed = false;
            pass.items_fastest_out = done > 1;
        }
        if from == Order::BitReversed && to == Order::BitReversed && first {
            // The first pass writes like a natural-input pass: k_0 bit-reversed at stride S_0,
            // n'' natural at stride 1.
            pass.local_out = Order::BitReversed;
            pass.sample_out = rest;
            pass.dims[1].out_stride = 1;
            pass.dims[1].out_bit_reversed = false;
            pass.items_fastest_out = rest > 1;
        }
        if batch.is_interleaved() && batch.transforms() > 1 {
            interleave(&mut pass, batch.transforms());
        }
        pass.decimation_in_time = !options.staged_reversed_input
            && pass.local_in == Order::BitReversed
            && pass.local_out == Order::Natural;
        configure_tile(&mut pass, word_bytes);
        // Spread one small transform over the device: smaller tiles, down to 32 contiguous
        // bytes per sample row for columns, one item for rows.
        let columns = pass.items_fastest_in || pass.items_fastest_out;
        let floor = if columns { (32 / word_bytes).max(1) } else { 1 };
        while pass.tiles() < options.min_tiles && pass.items_per_tile / 2 >= floor {
            pass.items_per_tile /= 2;
        }
        // Rows: further, while blocks keep at least ROW_TILE_MIN_THREADS threads.
        while !columns
            && pass.tiles() < options.min_row_tiles
            && pass.items_per_tile / 2 >= 1
            && pass.threads() / 2 >= ROW_TILE_MIN_THREADS
        {
            pass.items_per_tile /= 2;
        }
        passes.push(pass);
        done *= len;
    }
    // Bit-reversed → bit-reversed in one pass: the single pass reads and writes bit-reversed.
    if count == 1 && from == Order::BitReversed && to == Order::BitReversed {
        passes[0].local_out = Order::BitReversed;
    }
    for pass in &mut passes {
        if shuffles_pay(pass, word_bytes) {
            pass.shuffle_stages = pass.shuffle_tail();
        }
    }
    Ok(NttSchedule {
        batch: batch.clone(),
        direction,
        arithmetic,
        passes,
        cluster: 0,
    })
}

/// Whether the planner runs `pass`'s last round as warp-shuffle butterflies: 32-bit words in a
/// row pass of 128, 256 or 512 points (16 values per thread; a last round of 3 or 4 stages
/// between 8, 16 or 32 lanes), whose last shared-memory exchange the shuffles replace.
/// Measured on the H200: rows of 256 (`bench/NOTES.md` steps 52 and 54,
/// `bench/results/2026-11-25-h200-ntt-warp-shuffles/` and `…-smp-strides/ntt-rows256.txt`):
/// BabyBear and KoalaBear 2^8 × 262 144 1.09–1.14× in four runs, 2^8 × 4096 1.05–1.10×,
/// 2^16 × 1024 1.03–1.04×; rows of 128 and 512 (step 83,
/// `bench/results/2026-11-26-h200-ntt-shuffle-sweep/`, BabyBear, 2^26 words per row, two
/// runs): 2^7 1.21–1.22×, 2^9 1.05–1.07×, 2^13 1.09–1.10×, 2^14 1.09×, 2^17 1.03×, 2^18
/// 1.02–1.03×. Slower: rows of 64 (2 stages, 0.83×), 1024 (0.69–0.70×), 2048 and 4096 (32
/// values per thread, 0.72–0.88×), and every 64-bit row (Goldilocks 0.86–1.01×). Never by
/// decimation in time (`bench/results/2026-11-27-ntt-in-time-final/`: BabyBear RN rows of 128 /
/// 256 / 512, 2^26 words, 0.88 / 0.90 / 0.90× with shuffles; its loads of the last round's
/// contiguous groups leave in 16-byte pieces without them, at stride 2^k with them).
pub(crate) fn shuffles_pay(pass: &NttPass, word_bytes: usize) -> bool {
    word_bytes == 4
        && matches!(pass.len, 128 | 256 | 512)
        && !pass.in_time()
        && pass.shuffle_tail() >= 3
}

/// Interleaved columns: every element distance times the number of transforms, the transforms
/// at distance 1 and first among the dimensions (neighbouring threads on neighbouring columns).
fn interleave(pass: &mut NttPass, transforms: usize) {
    let t = pass.transform_dim;
    for (d, dim) in pass.dims.iter_mut().enumerate() {
        if d == t {
            dim.in_stride = 1;
            dim.out_stride = 1;
        } else {
            dim.in_stride *= transforms;
            dim.out_stride *= transforms;
        }
    }
    pass.sample_in *= transforms;
    pass.sample_out *= transforms;
    let dim = pass.dims.remove(t);
    pass.dims.insert(0, dim);
    if let Some(tw) = &mut pass.twiddle {
        if tw.dim < t {
            tw.dim += 1;
        }
    }
    pass.transform_dim = 0;
    pass.items_fastest_in = true;
    pass.items_fastest_out = true;
}

/// Where pass `j` of a schedule sits: `n`, its length `L_j`, the points done before it (`A_j`)
/// and after it (`S_j`), and the transforms dimension.
struct Geometry {
    n: usize,
    len: usize,
    done: usize,
    rest: usize,
    last: bool,
    transforms: NttDim,
}

impl Geometry {
    /// Natural input: digit n_j at stride S_j; items n'' (stride 1, the twiddle's m), then the
    /// rows of finished digits (stride N/A_j, stored bit-reversed); in place.
    fn natural_input_pass(&self) -> NttPass {
        let mut inner = NttDim::plain(self.rest, 1);
        inner.in_weight = 1;
        let mut rows = NttDim::reversed(self.done, self.n / self.done);
        rows.out_weight = 1;
        NttPass {
            len: self.len,
            dims: vec![inner, rows, self.transforms],
            sample_in: self.rest,
            sample_out: self.rest,
            sample_in_weight: self.rest,
            sample_out_weight: self.done,
            local_in: Order::Natural,
            local_out: Order::BitReversed,
            twiddle: (!self.last).then_some(NttTwiddle {
                dim: 0,
                root: self.n / self.done,
            }),
            transform_dim: 2,
            items_per_tile: 1,
            values_per_thread: 1,
            round_stages: 1,
            even_rounds: false,
            block_barriers: false,
            shuffle_stages: 0,
            items_fastest_in: self.rest > 1,
            items_fastest_out: self.rest > 1,
            decimation_in_time: false,
        }
    }

    /// Bit-reversed input: digit n_j in a bit-reversed run of L_j at stride A_j; items: the
    /// finished digits (stride 1), then n'' (stride A_j L_j, stored bit-reversed, the twiddle's
    /// m); in place.
    fn reversed_input_pass(&self) -> NttPass {
        let mut finished = NttDim::plain(self.done, 1);
        finished.out_weight = 1;
        let mut inner = NttDim::reversed(self.rest, self.done * self.len);
        inner.in_weight = 1;
        NttPass {
            len: self.len,
            dims: vec![finished, inner, self.transforms],
            sample_in: self.done,
            sample_out: self.done,
            sample_in_weight: self.rest,
            sample_out_weight: self.done,
            local_in: Order::BitReversed,
            local_out: Order::Natural,
            twiddle: (!self.last).then_some(NttTwiddle {
                dim: 1,
                root: self.n / self.done,
            }),
            transform_dim: 2,
            items_per_tile: 1,
            values_per_thread: 1,
            round_stages: 1,
            even_rounds: false,
            block_barriers: false,
            shuffle_stages: 0,
            items_fastest_in: self.done > 1,
            items_fastest_out: self.done > 1,
            decimation_in_time: false,
        }
    }
}

/// `stages` radix-2 stages in the fewest rounds of at most `most`: `most` per round and the rest
/// last, or (`even`) as evenly as possible, the longer first.
fn split_rounds(stages: u32, most: u32, even: bool) -> Vec<u32> {
    if stages == 0 || most == 0 {
        return Vec::new();
    }
    let rounds = stages.div_ceil(most);
    (0..rounds)
        .map(|k| {
            if even {
                stages / rounds + u32::from(k < stages % rounds)
            } else if k + 1 < rounds {
                most
            } else {
                stages - (rounds - 1) * most
            }
        })
        .collect()
}

/// Whether a direct pass of `len` points in rounds of at most `round_stages` stages spreads them
/// evenly: where the plain split leaves one stage for its last round (2048 = 5 + 5 + 1 stages
/// of 32-bit words, 1024 = 3 + 3 + 3 + 1 and 8192 = 3 + 3 + 3 + 3 + 1 of Goldilocks' 8 values
/// per thread), whose groups of two samples each take their own addresses. Measured on an H100
/// (`bench/results/2026-11-25-h100-ntt-lean-butterflies/`, BabyBear): rows and columns of 2048
/// in 4 + 4 + 3 went from 100 to 64 registers, 2^11 x 32 768 0.392 -> 0.283 ms, 2^22 x 16 0.780
/// -> 0.643 ms (H200: 1.33x and 1.18x; Goldilocks 2^20 and 2^24, whose row passes are evened,
/// 1.05x and 1.02x with the rest of step 59); but 1024 as 4 + 3 + 3 (2^10 x 65 536 0.253 ->
/// 0.306 ms) and 4096 as 4 + 4 + 4 (2^12 x 16 384 0.303 -> 0.364 ms) lost against 4 + 4 + 2 and
/// 5 + 5 + 2. Staged passes (whose last round stores to shared memory) keep the plain split.
///
/// ```
/// use tensorfft::ntt::schedule::even_rounds_pay;
/// assert!(even_rounds_pay(2048, 5) && even_rounds_pay(1024, 3));
/// assert!(!even_rounds_pay(4096, 5) && !even_rounds_pay(1024, 4));
/// ```
pub fn even_rounds_pay(len: usize, round_stages: u32) -> bool {
    let stages = len.trailing_zeros();
    round_stages > 1 && stages > round_stages && stages % round_stages == 1
}

/// Values per thread, items per tile and the load/store mappings of a pass.
fn configure_tile(pass: &mut NttPass, word_bytes: usize) {
    let lead = pass
        .dims
        .iter()
        .find(|d| d.count > 1)
        .map_or(1, |d| d.count);
    let items = pass.items();
    // A row's bytes before the tile is known (the skew is at most 32 words).
    let row_bytes = |p: &NttPass| (p.len + (p.len >> p.pad_shift(word_bytes)) + 32) * word_bytes;
    if pass.direct() {
        if pass.items_fastest_in {
            // Column groups of 64 bytes: as many values per thread as that many items need
            // within 512 threads, at most 32 u32 or 16 u64 (H200: Goldilocks 2^22 0.148 ms
            // against 0.179 ms with 32 u64 per thread, `2026-11-25-h200-ntt-goldilocks/`).
            let group = (64 / word_bytes).min(lead).max(1);
            let most = if word_bytes == 4 { 32 } else { 16 };
            // A power of two (column counts of interleaved batches need not be one).
            let values = prev_power_of_two((group * pass.len / 512).clamp(8, most)).min(pass.len);
            pass.values_per_thread = values;
            let fit = (TILE_BYTES / row_bytes(pass)).max(1);
            let tile = group.min(512 * values / pass.len).min(fit).max(1);
            pass.items_per_tile = prev_power_of_two(tile);
        } else {
            // Rounds of 16 u32 samples (4 stages between exchanges), 8 u64; at most 512
            // threads per item. u32 rows of 2048 … 8192: 32 values per thread (H200, BabyBear
            // one transform: 2^22 0.0583 -> 0.0515 ms with rows of 2048, 2^24 0.240 -> 0.205 ms
            // with rows of 8192; rows of 1024 and shorter measured slower with 32,
            // `2026-11-25-h200-ntt-goldilocks/ntt-v32-ab.txt`, NOTES steps 40, 44 and 49).
            // Rows of 1024 by decimation in time take 32 too: one warp per item, whose two
            // rounds exchange once with a warp barrier (H200, BabyBear RN 2^10 x 65 536 1.09x,
            // one 2^20 1.26x; by decimation in frequency 0.67x,
            // `2026-11-28-h200-ntt-warp-exchanges/`, NOTES step 117).
            let base = match word_bytes {
                4 if (2048..=8192).contains(&pass.len)
                    || (pass.len == 1024 && pass.decimation_in_time) =>
                {
                    32
                }
                4 => 16,
                _ => 8,
            };
            pass.values_per_thread = pass.len.min(base.max(pass.len / 512));
            let per_item = pass.len / pass.values_per_thread;
            let fit = (TILE_BYTES / row_bytes(pass)).max(1);
            let tile = (TARGET_THREADS / per_item).clamp(1, fit);
            pass.items_per_tile = prev_power_of_two(tile.min(items.next_power_of_two()));
        }
        pass.round_stages = pass.values_per_thread.trailing_zeros();
        pass.even_rounds = even_rounds_pay(pass.len, pass.round_stages);
        return;
    }
    // 8 values per thread, 16 for rows of 2^14 (1024 threads).
    pass.values_per_thread = pass.len.min(8.max(pass.len / 1024));
    pass.round_stages = pass.values_per_thread.trailing_zeros();
    let threads_per_item = pass.len / pass.values_per_thread;
    let tile = if pass.items_fastest_in || pass.items_fastest_out {
        // Column groups: 16 items (64 bytes of u32, 128 of u64) per sample row where they fit.
        let fit = (TILE_BYTES / row_bytes(pass)).max(1);
        let group = 16usize.min(fit).min(lead);
        group.max((TARGET_THREADS / threads_per_item).min(fit))
    } else {
        (TARGET_THREADS / threads_per_item).clamp(1, (TILE_BYTES / row_bytes(pass)).max(1))
    };
    pass.items_per_tile = prev_power_of_two(tile.min(items.next_power_of_two()));
}

fn prev_power_of_two(x: usize) -> usize {
    if x <= 1 {
        1
    } else {
        1 << (usize::BITS - 1 - x.leading_zeros())
    }
}
