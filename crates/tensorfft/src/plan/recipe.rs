//! A plan as plain data: everything the GPU kernel and the CPU reference executor need.

use super::options::{ExchangeFormat, IoMode, TwiddleSource};
use super::padding::Padding;
use super::precision::Precision;
use std::fmt;

/// The single-pass kernel configuration of a batched 1D complex transform: a whole plan for
/// short transforms, one pass of a [`crate::Schedule`] or the in-block DFT of a strided pass.
///
/// The GPU instantiates its kernel template from these fields; the CPU reference executor runs
/// the same stages, twiddles and roundings from them.
///
/// ```
/// use tensorfft::{plan_c2c_recipe, PlanOptions, Precision, Shape};
/// let r = plan_c2c_recipe(&Shape::new([4096]), Precision::F32, &PlanOptions::default()).unwrap();
/// assert_eq!(r.radices.iter().product::<usize>(), 4096);
/// println!("{r}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Recipe {
    /// Transform length.
    pub n: usize,
    /// Storage precision.
    pub precision: Precision,
    /// Radix of each stage, first to last; the product is `n`.
    pub radices: Vec<usize>,
    /// Complex values each thread holds in registers.
    pub elements_per_thread: usize,
    /// Threads cooperating on one transform (`n / elements_per_thread`).
    pub threads_per_transform: usize,
    /// Transforms per thread block.
    pub transforms_per_block: usize,
    /// Device-memory access scheme.
    pub io: IoMode,
    /// Elements per thread-level vector access in [`IoMode::Direct`] (1 in staged mode).
    pub vector_width: usize,
    /// Twiddle source on the GPU.
    pub twiddles: TwiddleSource,
    /// Format of inter-stage values in shared memory.
    pub exchange: ExchangeFormat,
    /// Blocks per multiprocessor the kernel is compiled to fit (0: the compiler's choice).
    pub min_blocks_per_sm: usize,
    /// Whether the next tile's loads are issued before the current tile is computed.
    pub prefetch: bool,
    /// How its kernels scale every stage ([`crate::Normalization::stage_scale`]: 1/radix in
    /// the scaled direction, or 1/√radix both ways), so the transform is scaled as the plan's
    /// normalization says.
    pub normalization: crate::Normalization,
    /// Whether each stage's twiddles are loaded during the previous stage.
    pub twiddles_ahead: bool,
    /// Whether the grid is persistent (resident blocks × SMs) or one block per tile.
    pub persistent: bool,
    /// Whether radix-16 stages run on the tensor cores (f16 inputs, bf16 for BF16; f32
    /// accumulation).
    pub tensor_cores: bool,
    /// Whether an F32Split plan's tensor-core products are three TF32 products (3xTF32,
    /// `mma.sync` m16n8k8) instead of three products of scaled fp16 halves.
    pub tf32_split: bool,
    /// Whether an F16 plan computes in packed f16x2 arithmetic: each thread holds
    /// `elements_per_thread / 2` pairs of neighbouring butterflies' samples.
    pub half_arithmetic: bool,
    /// Whether device-memory loads of the data skip L1 allocation (`ld.global.L1::no_allocate`):
    /// each tile is read once, and L1 then keeps the twiddle tables.
    pub stream_loads: bool,
    /// Whether only the power-of-two rows of each stage's twiddles are read from the table, the
    /// others formed as products of two of them (fewer loads, one more rounding each).
    pub derived_twiddles: bool,
    /// Whether the single-pass kernel's exchanges between stages synchronize the warp
    /// (`__syncwarp`) instead of the block: each transform's threads are one warp or part of
    /// one (at most 32 threads per transform), and only they touch its shared memory. Strided
    /// and cluster passes, whose items' threads are spread over the block, keep block barriers.
    pub warp_exchange: bool,
    /// Whether the transform runs on the warp-shuffle kernel (`warp_shuffle_fft.cuh`): radices
    /// `[E, 2, 2, …]`, the first a radix-E DFT in each thread's registers, the others radix-2
    /// stages between the `threads_per_transform` lanes of a warp through `__shfl_xor_sync`;
    /// no shared memory.
    pub warp_shuffles: bool,
    /// Whether an F16 (BF16) tensor-core plan runs its first two radix-16 stages as one register pair
    /// (`tensor_pair_fft.cuh`): each 256-point unit's first product's accumulators, twiddled, are
    /// the second product's operand, with no shared-memory exchange between them. N = 256 … 1024
    /// run wholly in a warp ([`Recipe::tensor_pair_warp`]); others (1024 with 16 values per
    /// thread, 2048 … 16384) spread a transform over several warps and continue with the
    /// Stockham stages from shared memory (and stage their input there,
    /// [`Recipe::staged_pair_input`]). The arithmetic is that of the two tensor-core stages
    /// (f32 exchange), so the CPU reference runs the same stages either way.
    pub tensor_pair: bool,
    /// Padding of each shared-memory buffer, indexed by the stage that reads it: 0 is the input
    /// tile of staged access, `radices.len()` the output tile, the others the exchanges.
    pub paddings: Vec<Padding>,
}

impl Recipe {
    /// Threads per block.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_recipe, PlanOptions, Precision, Shape};
    /// let r = plan_c2c_recipe(&Shape::new([1024]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert!(r.threads_per_block() <= 1024);
    /// ```
    pub fn threads_per_block(&self) -> usize {
        self.threads_per_transform * self.transforms_per_block
    }

    /// Shared-memory length of one transform, in elements: the longest padded buffer.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_recipe, PlanOptions, Precision, Shape};
    /// let r = plan_c2c_recipe(&Shape::new([1024]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert_eq!(r.shared_stride(), 1024 + 64);
    /// ```
    pub fn shared_stride(&self) -> usize {
        shared_stride(self.n, &self.paddings)
    }

    /// Dynamic shared memory of one block, in bytes.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_recipe, PlanOptions, Precision, Shape};
    /// let r = plan_c2c_recipe(&Shape::new([1024]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert!(r.shared_bytes() >= 1024 * 8);
    /// ```
    pub fn shared_bytes(&self) -> usize {
        if self.warp_shuffles || self.tensor_pair_warp() {
            return 0;
        }
        let staging = if self.staged_pair_input() {
            self.paddings[0].buffer_len(self.n) * self.precision.complex_bytes()
        } else {
            0
        };
        self.transforms_per_block * (self.shared_stride() * self.exchange.bytes() + staging)
    }

    /// Whether the single-pass kernel of this recipe stores its last stage straight to device
    /// memory (direct access, and the stage pair whatever its input) rather than through shared
    /// memory. Strided passes decide for themselves (`StridedPass::staged_out`).
    ///
    /// ```
    /// use tensorfft::{plan_c2c_recipe, IoMode, PlanOptions, Precision, Shape, Tuning};
    /// let t = Tuning { io: Some(IoMode::Staged), ..Default::default() };
    /// let r = plan_c2c_recipe(&Shape::new([64]), Precision::F32, &PlanOptions::tuned(t)).unwrap();
    /// assert!(!r.single_pass_stores_directly());
    /// ```
    pub fn single_pass_stores_directly(&self) -> bool {
        self.io == IoMode::Direct || self.tensor_pair
    }

    /// Whether the stage pair kernel beyond one warp ([`Recipe::tensor_pair`] but not
    /// [`Recipe::tensor_pair_warp`]) stages its input:
    /// the block copies its tile into a shared-memory buffer of its own with 16-byte loads and
    /// the warps read their units' samples from there, instead of each lane loading its units
    /// from device memory (8 bytes of a sector). Its last stage stores directly either way.
    ///
    /// ```
    /// use tensorfft::{plan_c2c_recipe, IoMode, PlanOptions, Precision, Shape, Tuning};
    /// let t = Tuning { tensor_cores: Some(true), io: Some(IoMode::Staged), ..Default::default() };
    /// let r = plan_c2c_recipe(&Shape::new([4096]), Precision::F16, &PlanOptions::tuned(t)).unwrap();
    /// assert!(r.staged_pair_input() && r.shared_bytes() > 4096 * 8 + 4096 * 4);
    /// ```
    pub fn staged_pair_input(&self) -> bool {
        self.tensor_pair && !self.tensor_pair_warp() && self.io == IoMode::Staged
    }

    /// The width of the runs of neighbouring butterflies whose last-stage twiddles the
    /// single-pass kernel forms as the run's first butterfly's times a constant: in a last stage
    /// that stores straight to device memory in vectors of [`Recipe::vector_width`] > 1
    /// elements, with table twiddles on the CUDA cores, the u-th butterfly of a run takes
    /// `w^(m r) · w^(u r)` (one more rounding of its twiddles than the table's) instead of
    /// reading the table (`load_twiddles` in `stockham_single_pass.cuh`; H200, bench/NOTES.md
    /// step 128: f32 8192 −0.8%, 16384 −2%, f16 64 −4% of the time). `None` for other kernels
    /// (packed half arithmetic, warp shuffles, the one-warp tensor-core kernels), F32Split
    /// (its errors are at f32's level), staged stores, and one-stage plans. The CPU reference
    /// forms them the same way.
    ///
    /// ```
    /// use tensorfft::{plan_c2c_recipe, IoMode, PlanOptions, Precision, Shape, Tuning};
    /// let r = plan_c2c_recipe(&Shape::new([8192]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert_eq!(r.last_stage_run_width(), Some(r.vector_width));
    /// let t = Tuning { io: Some(IoMode::Staged), ..Default::default() };
    /// let r = plan_c2c_recipe(&Shape::new([8192]), Precision::F32, &PlanOptions::tuned(t)).unwrap();
    /// assert_eq!(r.last_stage_run_width(), None);
    /// ```
    pub fn last_stage_run_width(&self) -> Option<usize> {
        let last = *self.radices.last()?;
        let ns = self.n / last;
        let applies = self.radices.len() >= 2
            && !self.warp_shuffles
            && !self.half_arithmetic
            && !self.tensor_pair_warp()
            && self.precision != Precision::F32Split
            && self.io == IoMode::Direct
            && self.vector_width > 1
            && self.twiddles == TwiddleSource::Table
            && !(self.tensor_cores && last == 16)
            && ns.is_multiple_of(self.vector_width);
        applies.then_some(self.vector_width)
    }

    /// Whether the plan runs on the warp-resident tensor-core kernel (`tensor_pair_fft.cuh`):
    /// F16 or BF16 on the tensor cores or F32Split (split products), with radices `[16, 16]` (N = 256, one, two or four transforms per
    /// warp) or `[16, 16, R]` with R = 2 or 4 (N = 512 or 1024, one transform per warp, 32
    /// threads): both radix-16 stages in one warp's registers (the first product's accumulators
    /// are the second's operand), 8 values per lane per 256-point unit, the last radix-R stage
    /// within each lane, no shared memory. The CPU reference runs the same stages (the last
    /// stage with the table's twiddles, which the F16 and BF16 kernels form as a lane's root
    /// times constants, within about 2 f32 ulps of them).
    ///
    /// ```
    /// use tensorfft::{plan_c2c_recipe, PlanOptions, Precision, Shape, Tuning};
    /// let opts = PlanOptions::tuned(Tuning { tensor_cores: Some(true), ..Default::default() });
    /// let r = plan_c2c_recipe(&Shape::new([256]), Precision::F16, &opts).unwrap();
    /// assert!(r.tensor_pair_warp() && r.shared_bytes() == 0);
    /// ```
    pub fn tensor_pair_warp(&self) -> bool {
        self.tensor_pair && tensor_pair_shape(self.n, self.threads_per_transform)
    }

    /// A short name that identifies the kernel configuration, used in kernel names.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_recipe, PlanOptions, Precision, Shape};
    /// let r = plan_c2c_recipe(&Shape::new([256]), Precision::F16, &PlanOptions::default()).unwrap();
    /// assert!(r.kernel_stem().starts_with("tfft_c2c_f16_n256_"));
    /// ```
    pub fn kernel_stem(&self) -> String {
        let radices: Vec<String> = self.radices.iter().map(|r| r.to_string()).collect();
        format!(
            "tfft_c2c_{}_n{}_r{}_e{}_b{}_{}{}_{}_x{}_m{}{}{}{}{}{}{}{}{}{}{}{}",
            self.precision.name(),
            self.n,
            radices.join("x"),
            self.elements_per_thread,
            self.transforms_per_block,
            match self.io {
                IoMode::Direct => "direct",
                IoMode::Staged => "staged",
            },
            self.vector_width,
            match self.twiddles {
                TwiddleSource::Table => "twtable",
                TwiddleSource::Computed => "twsincos",
            },
            self.exchange.bytes() * 4,
            self.min_blocks_per_sm,
            if self.prefetch { "_pf" } else { "" },
            if self.twiddles_ahead { "_twa" } else { "" },
            self.normalization.tag(),
            if self.tensor_cores { "_tc" } else { "" },
            if self.tf32_split { "_tf32" } else { "" },
            if self.half_arithmetic { "_h2" } else { "" },
            if self.stream_loads { "_nl1" } else { "" },
            if self.derived_twiddles { "_twd" } else { "" },
            if self.warp_exchange { "_ws" } else { "" },
            if self.warp_shuffles { "_shfl" } else { "" },
            // (The F16 warp-resident pair kernels have no other form: no tag. F32Split's
            // share their shapes with its per-stage kernels.)
            if self.tensor_pair
                && (!self.tensor_pair_warp() || self.precision == Precision::F32Split)
            {
                "_tp"
            } else {
                ""
            },
        )
    }
}

/// Whether the warp-resident tensor-core kernel takes F16, BF16 (or F32Split) transforms of `n` points on
/// `threads_per_transform` threads: 256 with one, two or four transforms per warp, 512 and 1024
/// with one (their tensor-core radices are `[16, 16]`, `[16, 16, 2]`, `[16, 16, 4]`).
pub(crate) fn tensor_pair_shape(n: usize, threads_per_transform: usize) -> bool {
    match n {
        256 => matches!(threads_per_transform, 8 | 16 | 32),
        512 | 1024 => threads_per_transform == 32,
        _ => false,
    }
}

/// Shared-memory length of one transform of `n` values whose buffers are padded by `paddings`.
pub(crate) fn shared_stride(n: usize, paddings: &[Padding]) -> usize {
    paddings.iter().map(|p| p.buffer_len(n)).max().unwrap_or(n)
}

impl fmt::Display for Recipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "c2c {} N={} radices={:?} E={} T={} B={} io={:?}(V={}) twiddles={:?} exchange={:?} smem={}B minblocks={} prefetch={} twiddles_ahead={} persistent={} tensor_cores={} tensor_pair={} half_arithmetic={} stream_loads={} derived_twiddles={} warp_exchange={} warp_shuffles={}{}",
            self.precision.name(),
            self.n,
            self.radices,
            self.elements_per_thread,
            self.threads_per_transform,
            self.transforms_per_block,
            self.io,
            self.vector_width,
            self.twiddles,
            self.exchange,
            self.shared_bytes(),
            self.min_blocks_per_sm,
            self.prefetch,
            self.twiddles_ahead,
            self.persistent,
            self.tensor_cores,
            self.tensor_pair,
            self.half_arithmetic,
            self.stream_loads,
            self.derived_twiddles,
            self.warp_exchange,
            self.warp_shuffles,
            if self.tf32_split { " split=3xTF32" } else { "" },
        )
    }
}
