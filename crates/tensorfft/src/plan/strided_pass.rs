//! One pass of a multi-pass plan that reads and writes strided data: for each *item* (one line
//! of samples), a DFT of length `len` over samples `sample_stride_in` apart, optionally
//! multiplied first by a four-step twiddle, written `sample_stride_out` apart.
//!
//! Items are enumerated by up to [`MAX_ITEM_DIMS`] nested dimensions, fastest first, each with an
//! element stride in the input and in the output. A thread block takes `items_per_tile`
//! consecutive items and their samples as one tile: when the fastest item dimension has unit
//! stride, every sample row of the tile is `items_per_tile` consecutive elements (a column
//! group), so device-memory accesses stay coalesced however far apart the samples are.
//!
//! Every pass of the plans is one such kernel: a radix-`len` Stockham stage of a long 1D
//! transform (the items are the butterflies `j = m + NS q` and the batch; the twiddle is
//! `w_{NS·len}^{m·r}`), or a whole axis of a 2D/3D transform (the items are the other axes).

use super::options::ExchangeFormat;
use super::precision::Precision;
use super::recipe::Recipe;
use super::tile_layout::tile_layout;
use super::twiddles::forward_twiddle;
use num_complex::Complex;
use std::fmt;

/// Largest number of item dimensions a pass may have.
pub const MAX_ITEM_DIMS: usize = 5;

/// One dimension of a pass's items: how many, and how far apart in elements.
///
/// ```
/// let d = tensorfft::plan::strided_pass::ItemDim { count: 4, in_stride: 1, out_stride: 1 };
/// assert_eq!(d.count, 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ItemDim {
    /// Number of items along this dimension.
    pub count: usize,
    /// Element distance between neighbouring items in the input.
    pub in_stride: usize,
    /// Element distance between neighbouring items in the output.
    pub out_stride: usize,
}

/// The four-step twiddle of a pass: sample `r` of an item whose coordinate along item dimension
/// `dim` is `m` is multiplied by `e^{∓2πi (m r mod root) / root}` before the DFT.
///
/// ```
/// let t = tensorfft::plan::strided_pass::PassTwiddle { dim: 0, root: 1 << 20 };
/// assert_eq!(t.lo_bits(), 10);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PassTwiddle {
    /// The item dimension whose coordinate is `m`.
    pub dim: usize,
    /// The order of the root of unity (`NS · len` of the Stockham stage).
    pub root: usize,
}

impl PassTwiddle {
    /// Bits of the exponent read from the low table; the rest index the high table. Twiddles
    /// are products `hi[k >> lo_bits] · lo[k & (2^lo_bits − 1)]` of two tables of about
    /// `sqrt(root)` entries each, computed in f64 and rounded once.
    ///
    /// ```
    /// let t = tensorfft::plan::strided_pass::PassTwiddle { dim: 0, root: 8 };
    /// assert_eq!(t.lo_bits(), 2);
    /// ```
    pub fn lo_bits(&self) -> u32 {
        self.root.trailing_zeros().div_ceil(2)
    }

    /// The forward (`e^{-2πik/root}`) high table followed by the low table, computed in f64:
    /// [`PassTwiddle::table_in_levels`] of two levels.
    ///
    /// ```
    /// let t = tensorfft::plan::strided_pass::PassTwiddle { dim: 0, root: 16 };
    /// let w = t.table();
    /// assert_eq!(w.len(), t.hi_len() + (1 << t.lo_bits()));
    /// let k = 5; // hi[k >> 2] * lo[k & 3] = w^5
    /// let p = w[k >> 2] * w[t.hi_len() + (k & 3)];
    /// assert!((p - tensorfft::plan::twiddles::forward_twiddle(5, 16)).norm() < 1e-15);
    /// ```
    pub fn table(&self) -> Vec<Complex<f64>> {
        self.table_in_levels(2)
    }

    /// Entries of the high table.
    ///
    /// ```
    /// let t = tensorfft::plan::strided_pass::PassTwiddle { dim: 0, root: 8 };
    /// assert_eq!(t.hi_len(), 2);
    /// ```
    pub fn hi_len(&self) -> usize {
        self.root >> self.lo_bits()
    }

    /// The layout of a table of `levels` levels (clamped to 1 ..= 3, the counts the planner
    /// uses): see [`TwiddleLevels`]. Two levels index `lo_bits` bits below the top one.
    ///
    /// ```
    /// let t = tensorfft::plan::strided_pass::PassTwiddle { dim: 0, root: 1 << 25 };
    /// let l = t.levels(3);
    /// assert_eq!((l.count, l.bits, l.top_len()), (3, 9, 128));
    /// assert_eq!(t.levels(2).bits, t.lo_bits());
    /// ```
    pub fn levels(&self, levels: u32) -> TwiddleLevels {
        let count = levels.clamp(1, 3);
        let root_bits = self.root.trailing_zeros();
        TwiddleLevels {
            root: self.root,
            count,
            bits: root_bits.div_ceil(count),
        }
    }

    /// The forward twiddles as a table of `levels` levels (clamped to 1 ..= 3), the top level
    /// (high bits of the exponent) first: level `l` holds `w^(d 2^(l b))` for its digits `d`
    /// (`b` = [`TwiddleLevels::bits`]). Two levels are [`PassTwiddle::table`]; three keep
    /// every level within 1024 entries for roots up to 2^30, small enough to stay in L1 where
    /// every value reads them (f64 passes of roots above 2^20; `bench/NOTES.md` step 101).
    ///
    /// ```
    /// let t = tensorfft::plan::strided_pass::PassTwiddle { dim: 0, root: 1 << 12 };
    /// let w = t.table_in_levels(3);
    /// let e = 0b1011_0110_0101;
    /// let p = t.levels(3).power(&w, e);
    /// assert!((p - tensorfft::plan::twiddles::forward_twiddle(e, 1 << 12)).norm() < 1e-15);
    /// assert_eq!(w.len(), 16 + 16 + 16);
    /// ```
    pub fn table_in_levels(&self, levels: u32) -> Vec<Complex<f64>> {
        let l = self.levels(levels);
        (0..l.count)
            .rev()
            .flat_map(|d| {
                let len = if d + 1 == l.count {
                    l.top_len()
                } else {
                    1 << l.bits
                };
                (0..len).map(move |v| forward_twiddle(v << (l.bits * d), self.root))
            })
            .collect()
    }
}

/// The layout of a four-step twiddle table of one to three levels
/// ([`PassTwiddle::table_in_levels`]): the exponent `e < root` split into digits of `bits`
/// bits, the top digit taking what is left; the top level first in the table, the lowest digit
/// last. The kernels read the same layout from `PassGeometry` (`tw_lo_offset`, `tw_mid_offset`,
/// `tw_lo_bits`).
///
/// ```
/// let t = tensorfft::plan::strided_pass::PassTwiddle { dim: 0, root: 1 << 22 };
/// let l = t.levels(3);
/// assert_eq!((l.bits, l.top_len(), l.offset(1), l.offset(0)), (8, 64, 64, 64 + 256));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TwiddleLevels {
    /// The order of the root of unity (a power of two).
    pub root: usize,
    /// Levels: 1 ..= 3.
    pub count: u32,
    /// Exponent bits of each level below the top one.
    pub bits: u32,
}

impl TwiddleLevels {
    /// Entries of the top level: `root >> ((count − 1) · bits)`, at most `2^bits`.
    ///
    /// ```
    /// let t = tensorfft::plan::strided_pass::PassTwiddle { dim: 0, root: 1 << 26 };
    /// assert_eq!(t.levels(3).top_len(), 256);
    /// ```
    pub fn top_len(&self) -> usize {
        (self.root >> (self.bits * (self.count - 1))).max(1)
    }

    /// Offset of level `level` (0: the lowest digit) in the table.
    ///
    /// ```
    /// let t = tensorfft::plan::strided_pass::PassTwiddle { dim: 0, root: 1 << 26 };
    /// assert_eq!(t.levels(3).offset(2), 0);
    /// ```
    pub fn offset(&self, level: u32) -> usize {
        if level + 1 >= self.count {
            0
        } else {
            self.top_len() + (((self.count - 2 - level) as usize) << self.bits)
        }
    }

    /// `w^e` (exponent taken modulo the root) from the table: the top level's entry times the
    /// next level's, and so on down to the lowest digit, as the kernels multiply them.
    ///
    /// # Panics
    ///
    /// If `table` is shorter than this layout's table.
    ///
    /// ```
    /// let t = tensorfft::plan::strided_pass::PassTwiddle { dim: 0, root: 1 << 26 };
    /// let (l, w) = (t.levels(3), t.table_in_levels(3));
    /// let e = 0x2_a5a5a5;
    /// assert_eq!(l.power(&w, e), w[e >> 18] * w[256 + ((e >> 9) & 511)] * w[768 + (e & 511)]);
    /// ```
    pub fn power(&self, table: &[Complex<f64>], e: usize) -> Complex<f64> {
        let e = e % self.root;
        let mask = (1usize << self.bits) - 1;
        let mut w = table[e >> (self.bits * (self.count - 1))];
        for level in (0..self.count - 1).rev() {
            w *= table[self.offset(level) + ((e >> (self.bits * level)) & mask)];
        }
        w
    }
}

/// A strided pass: the inner DFT's recipe, the tile, the item dimensions and the strides.
///
/// ```
/// use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
/// let s = plan_c2c_schedule(&Shape::new([256, 256]), Precision::F32, &PlanOptions::default()).unwrap();
/// assert_eq!(s.passes.len(), 2); // rows, then columns
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StridedPass {
    /// How one item's DFT runs inside the block: its radices, values per thread, threads per
    /// item, items computed at once (`transforms_per_block`), exchange format and paddings.
    /// `inner.n` is the DFT length.
    pub inner: Recipe,
    /// Consecutive items a block loads, transforms and stores as one tile (a multiple of
    /// `inner.transforms_per_block`).
    pub items_per_tile: usize,
    /// Item dimensions, fastest first.
    pub dims: Vec<ItemDim>,
    /// Element distance between an item's samples in the input.
    pub sample_stride_in: usize,
    /// Element distance between an item's outputs.
    pub sample_stride_out: usize,
    /// The four-step twiddle, if any.
    pub twiddle: Option<PassTwiddle>,
    /// How its kernels scale every stage (normalized plans; see [`crate::Normalization`]).
    pub normalization: crate::Normalization,
    /// Shared-memory distance between neighbouring items of a tile, in elements, at least the
    /// inner recipe's padded length ([`StridedPass::with_tile_layout`] sets it with the
    /// paddings).
    pub item_stride: usize,
    /// Whether the last stage stores straight from registers although each item's outputs are
    /// contiguous (no staging of the tile through shared memory): f64 items of 512 and more,
    /// whose 16-byte elements fill 64-byte segments from four neighbouring threads. Never in a
    /// cluster's first pass.
    pub direct_store: bool,
    /// F16 or BF16 in packed half arithmetic on pairs of neighbouring items
    /// (`strided_paired_half.cuh`): sample k of items 2p and 2p + 1 is one 8-byte word, computed
    /// as f16x2 (bf16x2), so the inner recipe describes one pair slot (f32-sized exchange
    /// elements, `transforms_per_block` slots per round) and a tile holds `items_per_tile / 2`
    /// slots. Every stage is scaled before its DFT and computes in the 16-bit format.
    pub paired: bool,
}

impl StridedPass {
    /// DFT length of one item.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([1 << 18]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Strided(p) = &s.passes[0].kernel else { panic!() };
    /// assert_eq!(p.len(), 512); // 2^18 = 512 x 512
    /// ```
    pub fn len(&self) -> usize {
        self.inner.n
    }

    /// Never true: a pass transforms at least two samples per item.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([64, 64]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!() };
    /// assert!(!p.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.inner.n == 0
    }

    /// Number of items.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([64, 32]).batch(3), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!() };
    /// assert_eq!(p.items(), 32 * 3);
    /// ```
    pub fn items(&self) -> usize {
        self.dims.iter().map(|d| d.count).product()
    }

    /// Tiles of `items_per_tile` items (the last may be partial).
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([64, 32]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!() };
    /// assert!(p.tiles() >= 1);
    /// ```
    pub fn tiles(&self) -> usize {
        self.items().div_ceil(self.items_per_tile)
    }

    /// Shared-memory slots of a tile: its items, or its pairs of items when `paired`.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// let s = plan_c2c_schedule(&Shape::new([1 << 20]), Precision::F16, &PlanOptions::default()).unwrap();
    /// let PassKernel::Strided(p) = &s.passes[0].kernel else { panic!() };
    /// assert!(p.paired && p.slots_per_tile() * 2 == p.items_per_tile);
    /// ```
    pub fn slots_per_tile(&self) -> usize {
        if self.paired {
            self.items_per_tile / 2
        } else {
            self.items_per_tile
        }
    }

    /// Threads per block.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([64, 32]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!() };
    /// assert!(p.threads_per_block() <= 1024);
    /// ```
    pub fn threads_per_block(&self) -> usize {
        self.inner.threads_per_block()
    }

    /// Whether the kernel gathers the tile into shared memory before the first stage
    /// (asynchronous copies, two tiles in flight) rather than loading each thread's samples
    /// straight into registers: when the items' samples, not the items, are contiguous, and
    /// for every pass with tensor-core stages (a warp's butterflies in one item).
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([64, 32]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!() };
    /// assert!(!p.staged_in());
    /// ```
    pub fn staged_in(&self) -> bool {
        !self.load_items_fastest() || self.inner.tensor_cores
    }

    /// Whether the last stage leaves the tile in shared memory for a cooperative store (the
    /// outputs of an item, not neighbouring items, are contiguous, and every pass with
    /// tensor-core stages).
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// let s = plan_c2c_schedule(&Shape::new([1 << 20]), Precision::F32, &PlanOptions::default()).unwrap();
    /// let PassKernel::Strided(p) = &s.passes[0].kernel else { panic!() };
    /// assert!(p.staged_out()); // the first Stockham pass writes each item's outputs together
    /// ```
    pub fn staged_out(&self) -> bool {
        (!self.store_items_fastest() && !self.direct_store) || self.inner.tensor_cores
    }

    /// Shared-memory distance between neighbouring items of a tile, in elements.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([64, 32]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!() };
    /// assert!(p.item_stride() >= p.inner.shared_stride());
    /// ```
    pub fn item_stride(&self) -> usize {
        self.item_stride
    }

    /// This pass with the tile's shared-memory layout chosen by the bank-conflict model for its
    /// threads ([`tile_layout`]): the inner recipe's paddings and the item distance.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([1 << 20]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Strided(p) = &s.passes[0].kernel else { panic!() };
    /// let q = p.clone().with_tile_layout();
    /// assert_eq!(&q, p); // the planner's passes have it already
    /// ```
    pub fn with_tile_layout(mut self) -> Self {
        if self.inner.tensor_cores {
            // A warp's accesses stay in one item, as in the single-pass kernel: its paddings
            // (the single-pass bank model of the tensor-core stages), and items an odd number
            // of elements apart so the tile walks with items fastest spread over the banks; the
            // stage pair reads 8-byte pairs of words, so its items start 8-byte aligned, two
            // words past a multiple of four (a walk with items fastest: two-way conflicts).
            let stride = self.inner.shared_stride();
            self.item_stride = if self.inner.tensor_pair {
                stride.next_multiple_of(4) + 2
            } else {
                stride | 1
            };
            return self;
        }
        let layout = tile_layout(&self.inner, self.staged_in(), self.staged_out());
        self.inner.paddings = layout.paddings;
        self.item_stride = layout.item_stride;
        self
    }

    /// Dynamic shared memory of a block: the tile in the exchange format, twice when it is
    /// gathered asynchronously (the next tile is loaded while this one is transformed).
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([64, 32]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!() };
    /// assert!(p.shared_bytes() >= p.items_per_tile * 64 * 8);
    /// ```
    pub fn shared_bytes(&self) -> usize {
        let buffers = if self.staged_in() { 2 } else { 1 };
        buffers * self.slots_per_tile() * self.item_stride() * self.inner.exchange.bytes()
    }

    /// Static shared memory of a block: where each item of the two tiles in flight starts
    /// (input and output offsets and the twiddle coordinate, 8 bytes each); for pairs of items,
    /// where each slot of the one tile starts.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([64, 32]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!() };
    /// assert_eq!(p.static_shared_bytes(), 48 * p.items_per_tile);
    /// ```
    pub fn static_shared_bytes(&self) -> usize {
        // The pair kernel keeps one tile's offsets, per slot.
        let tiles = if self.paired { 1 } else { 2 };
        3 * tiles * 8 * self.slots_per_tile()
    }

    /// The distance between the samples whose four-step twiddles a thread steps from one to
    /// the next, where the kernel steps them along its runs of a gathered tile (tensor-core
    /// passes whose tile the runs cover, `strided_pass.cuh`): `threads / items` with items
    /// fastest, the block's threads with samples fastest. Each thread's first power and the
    /// step come from the f64 tables; 2-byte data steps in f32, f32 data in double.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// let s = plan_c2c_schedule(&Shape::new([1 << 20]), Precision::F32Split, &PlanOptions::default()).unwrap();
    /// let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!() };
    /// assert_eq!(p.tile_twiddle_span(), Some(p.threads_per_block() / p.items_per_tile));
    /// ```
    pub fn tile_twiddle_span(&self) -> Option<usize> {
        let (threads, g, n) = (self.threads_per_block(), self.slots_per_tile(), self.len());
        let pow2 = |x: usize| x.is_power_of_two();
        let span = if self.load_items_fastest() {
            (threads.is_multiple_of(g) && pow2(threads / g) && n.is_multiple_of(threads / g))
                .then_some(threads / g)
        } else {
            (pow2(threads) && n.is_multiple_of(threads)).then_some(threads)
        };
        span.filter(|_| self.inner.tensor_cores && self.staged_in())
    }

    /// Levels of the four-step twiddle table (0 without a twiddle; see
    /// [`PassTwiddle::table_in_levels`]): three where every value reads the table (f64) and the
    /// root is above 2^20, two otherwise. H200, ncu of f64 2^26: the third pass (root 2^26, two
    /// tables of 128 KiB) took 1.51 ms and 9.9 GB of L2 traffic against 1.11 ms and 6.6 GB for
    /// the second (root 2^18). Three levels: H100 2^26 −2.1%, 2^24 −0.5%, 2^22 level; H200
    /// (same machine, alternating, twice) 2^26 −1.2%, 2^24 × 4 −0.7%; the threshold is a choice
    /// (2^21 and 2^23 are not timed); `bench/NOTES.md` steps 101 and 102.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// let levels = |p: Precision| {
    ///     let s = plan_c2c_schedule(&Shape::new([1 << 24]), p, &PlanOptions::default()).unwrap();
    ///     let PassKernel::Strided(last) = &s.passes.last().unwrap().kernel else { panic!() };
    ///     last.twiddle_levels()
    /// };
    /// assert_eq!(levels(Precision::F64), 3);
    /// assert_eq!(levels(Precision::F32), 2); // f32 steps its powers: two reads per butterfly
    /// ```
    pub fn twiddle_levels(&self) -> u32 {
        match self.twiddle {
            None => 0,
            Some(t) if self.inner.precision == Precision::F64 && t.root > 1 << 20 => 3,
            Some(_) => 2,
        }
    }

    /// The four-step twiddle table the kernel reads ([`PassTwiddle::table_in_levels`] with
    /// [`StridedPass::twiddle_levels`]); one unit entry without a twiddle.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// let s = plan_c2c_schedule(&Shape::new([1 << 26]), Precision::F64, &PlanOptions::default()).unwrap();
    /// let PassKernel::Strided(last) = &s.passes.last().unwrap().kernel else { panic!() };
    /// assert_eq!(last.twiddle_table().len(), 256 + 512 + 512);
    /// ```
    pub fn twiddle_table(&self) -> Vec<Complex<f64>> {
        match self.twiddle {
            Some(t) => t.table_in_levels(self.twiddle_levels()),
            None => vec![Complex::new(1.0, 0.0)],
        }
    }

    /// Whether a tile is loaded with items fastest (consecutive threads read neighbouring items)
    /// rather than samples fastest: whichever has the smaller stride.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([64, 32]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!() };
    /// assert!(p.load_items_fastest()); // columns: neighbouring items are neighbours in memory
    /// ```
    pub fn load_items_fastest(&self) -> bool {
        self.dims[0].in_stride < self.sample_stride_in
    }

    /// Whether a tile is stored with items fastest (see [`StridedPass::load_items_fastest`]).
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([64, 32]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!() };
    /// assert!(p.store_items_fastest());
    /// ```
    pub fn store_items_fastest(&self) -> bool {
        self.dims[0].out_stride < self.sample_stride_out
    }

    /// Whether every tile writes exactly the elements it reads, so the pass may run in place.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([64, 32]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!() };
    /// assert!(p.in_place_safe());
    /// ```
    pub fn in_place_safe(&self) -> bool {
        self.sample_stride_in == self.sample_stride_out
            && self.dims.iter().all(|d| d.in_stride == d.out_stride)
    }

    /// A short name of the kernel configuration. Where [`StridedPass::bakes_sample_distances`],
    /// the sample distances are compile-time constants of the kernel (its last part,
    /// `smp{in}x{out}`); the item counts and strides (and otherwise the sample distances) are a
    /// run-time argument, so passes that differ only in those share one kernel.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([64, 32]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!() };
    /// assert!(p.kernel_stem().starts_with("tfft_strided_"));
    /// ```
    pub fn kernel_stem(&self) -> String {
        format!(
            "tfft_strided_g{}_{}{}{}{}{}_{}{}",
            self.items_per_tile,
            if self.load_items_fastest() {
                "li"
            } else {
                "ls"
            },
            if self.staged_out() {
                "ss"
            } else if self.store_items_fastest() {
                "si"
            } else {
                "sd"
            },
            match self.twiddle_levels() {
                0 => "",
                2 => "_tw",
                _ => "_tw3",
            },
            match self.normalization {
                crate::Normalization::None => "",
                crate::Normalization::InverseByN => "_sc",
                crate::Normalization::ForwardByN => "_fsc",
                crate::Normalization::Ortho => "_osc",
            },
            if self.paired { "_pairs" } else { "" },
            self.inner.kernel_stem().trim_start_matches("tfft_c2c_"),
            if self.bakes_sample_distances() {
                format!("_smp{}x{}", self.sample_stride_in, self.sample_stride_out)
            } else {
                String::new()
            }
        )
    }

    /// Whether the kernel takes the sample distances as compile-time constants (every load and
    /// store of an item at an immediate offset; one kernel per pair of distances) rather than
    /// from the run-time geometry: all data but f32, whose passes measured the same either way
    /// on the H200 (f16 +3–4%, f64 +2%; `bench/NOTES.md` step 53) and keep sharing one kernel
    /// across shapes (fewer NVRTC compiles).
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// let s = plan_c2c_schedule(&Shape::new([1 << 20]), Precision::F16, &PlanOptions::default()).unwrap();
    /// let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!() };
    /// assert!(p.bakes_sample_distances() && p.kernel_stem().ends_with("_smp1024x1024"));
    /// let s = plan_c2c_schedule(&Shape::new([1 << 20]), Precision::F32, &PlanOptions::default()).unwrap();
    /// let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!() };
    /// assert!(!p.bakes_sample_distances() && !p.kernel_stem().contains("_smp"));
    /// ```
    pub fn bakes_sample_distances(&self) -> bool {
        self.inner.precision != Precision::F32
    }
}

impl fmt::Display for StridedPass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dims: Vec<String> = self
            .dims
            .iter()
            .map(|d| format!("{}@{}/{}", d.count, d.in_stride, d.out_stride))
            .collect();
        write!(
            f,
            "strided DFT {} radices={:?} E={} T={} {}/round={} items/tile={} samples@{}/{} items=[{}]{}{}{}{} smem={}B",
            self.inner.n,
            self.inner.radices,
            self.inner.elements_per_thread,
            self.inner.threads_per_transform,
            match (self.paired, self.inner.precision) {
                (false, _) => "items",
                (true, Precision::BF16) => "bf16x2 item pairs",
                (true, _) => "f16x2 item pairs",
            },
            self.inner.transforms_per_block,
            self.items_per_tile,
            self.sample_stride_in,
            self.sample_stride_out,
            dims.join(" "),
            match self.twiddle {
                Some(t) => format!(" twiddle(dim {}, root {})", t.dim, t.root),
                None => String::new(),
            },
            match self.normalization {
                crate::Normalization::None => "",
                crate::Normalization::InverseByN => " scaled",
                crate::Normalization::ForwardByN => " forward-scaled",
                crate::Normalization::Ortho => " ortho-scaled",
            },
            if self.staged_out() { " staged-store" } else { "" },
            if self.inner.tensor_cores {
                " tensor-cores"
            } else {
                ""
            },
            self.shared_bytes()
        )
    }
}

/// The exchange format of strided passes: f16 data keeps f16 in shared memory (the tile is
/// twice as tall for the same shared memory), the others their own precision.
pub(crate) fn strided_exchange(precision: Precision) -> ExchangeFormat {
    match precision {
        Precision::F16 => ExchangeFormat::F16,
        Precision::BF16 => ExchangeFormat::BF16,
        Precision::F64 => ExchangeFormat::F64,
        _ => ExchangeFormat::F32,
    }
}
