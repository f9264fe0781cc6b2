//! Caller's choices that shape a plan: normalization and tuning overrides.

/// Transform direction. Forward uses the kernel e^{-2πi nk/N}.
///
/// ```
/// assert_eq!(tensorfft::Direction::Forward.sign(), -1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// e^{-2πi nk/N}.
    Forward,
    /// e^{+2πi nk/N}.
    Inverse,
}

impl Direction {
    /// The sign of the exponent: -1 forward, +1 inverse.
    ///
    /// ```
    /// assert_eq!(tensorfft::Direction::Inverse.sign(), 1);
    /// ```
    pub fn sign(self) -> i32 {
        match self {
            Direction::Forward => -1,
            Direction::Inverse => 1,
        }
    }
}

/// Scaling of a plan's transforms, as NumPy's and PyTorch's `norm` modes. The default, like
/// FFTW and cuFFT, is none: a forward and an inverse transform multiply the data by N. Every
/// scaled mode scales inside the kernels, stage by stage (1/radix, or 1/√radix for `Ortho`), so
/// no intermediate outgrows the input: an f16 transform of inputs in range never overflows in
/// the scaled direction.
///
/// ```
/// use tensorfft::{Direction, Normalization, PlanOptions};
/// let opts = PlanOptions { normalization: Normalization::InverseByN, ..Default::default() };
/// assert_eq!(opts.normalization.factor(Direction::Inverse, 8), 0.125);
/// assert_eq!(Normalization::Ortho.factor(Direction::Forward, 16), 0.25);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Normalization {
    /// No scaling in either direction (NumPy's "backward" for the forward transform only).
    #[default]
    None,
    /// The inverse transform is scaled by 1/N, so inverse(forward(x)) == x (NumPy's "backward").
    InverseByN,
    /// The forward transform is scaled by 1/N, the inverse not (NumPy's "forward").
    ForwardByN,
    /// Both directions are scaled by 1/√N: the transforms are unitary (NumPy's "ortho").
    Ortho,
}

impl Normalization {
    /// The factor applied to the output of a transform of length `n` in `dir`.
    ///
    /// ```
    /// use tensorfft::{Direction, Normalization};
    /// assert_eq!(Normalization::None.factor(Direction::Inverse, 8), 1.0);
    /// assert_eq!(Normalization::ForwardByN.factor(Direction::Forward, 8), 0.125);
    /// ```
    pub fn factor(self, dir: Direction, n: usize) -> f64 {
        match self.stage_scale(dir) {
            StageScale::None => 1.0,
            StageScale::Radix => 1.0 / n as f64,
            StageScale::RootRadix => 1.0 / (n as f64).sqrt(),
        }
    }

    /// How every stage of a kernel in `dir` scales its outputs.
    ///
    /// ```
    /// use tensorfft::{Direction, Normalization, StageScale};
    /// assert_eq!(Normalization::InverseByN.stage_scale(Direction::Forward), StageScale::None);
    /// assert_eq!(Normalization::Ortho.stage_scale(Direction::Inverse), StageScale::RootRadix);
    /// ```
    pub fn stage_scale(self, dir: Direction) -> StageScale {
        match (self, dir) {
            (Normalization::InverseByN, Direction::Inverse)
            | (Normalization::ForwardByN, Direction::Forward) => StageScale::Radix,
            (Normalization::Ortho, _) => StageScale::RootRadix,
            _ => StageScale::None,
        }
    }

    /// A short tag for kernel names and cache keys ("" when unscaled).
    ///
    /// ```
    /// assert_eq!(tensorfft::Normalization::InverseByN.tag(), "_isc");
    /// ```
    pub fn tag(self) -> &'static str {
        match self {
            Normalization::None => "",
            Normalization::InverseByN => "_isc",
            Normalization::ForwardByN => "_fsc",
            Normalization::Ortho => "_osc",
        }
    }
}

/// What one radix-R stage of a kernel multiplies its outputs by.
///
/// ```
/// use tensorfft::StageScale;
/// assert_eq!(StageScale::Radix.factor(16), 1.0 / 16.0);
/// assert_eq!(StageScale::RootRadix.factor(16), 0.25);
/// assert_eq!(StageScale::RootRadix.code(), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StageScale {
    /// 1.
    None,
    /// 1/R (exact: a power of two).
    Radix,
    /// 1/√R (exact for R = 4, 16, 64, ...; rounded to the arithmetic's precision otherwise).
    RootRadix,
}

impl StageScale {
    /// The factor for a stage of radix `radix`.
    ///
    /// ```
    /// assert_eq!(tensorfft::StageScale::None.factor(8), 1.0);
    /// ```
    pub fn factor(self, radix: usize) -> f64 {
        match self {
            StageScale::None => 1.0,
            StageScale::Radix => 1.0 / radix as f64,
            StageScale::RootRadix => 1.0 / (radix as f64).sqrt(),
        }
    }

    /// The kernels' compile-time code: 0 none, 1 1/R, 2 1/√R.
    ///
    /// ```
    /// assert_eq!(tensorfft::StageScale::Radix.code(), 1);
    /// ```
    pub fn code(self) -> u32 {
        match self {
            StageScale::None => 0,
            StageScale::Radix => 1,
            StageScale::RootRadix => 2,
        }
    }
}

/// Where the elements of one side (input or output) of a batched transform live, in the spirit
/// of `cufftPlanMany` with the embedding equal to the transform's dimensions: element
/// `(b, i_0, …, i_{d-1})` of transform `b` is at `b·dist + lin(i)·stride`, where `lin` is the
/// row-major linear index within one transform.
///
/// ```
/// use tensorfft::Strides;
/// // A length-64 transform along axis 0 of a 64 x 32 x 16 array, for each of the 512 columns:
/// let along_axis0 = Strides { stride: 32 * 16, dist: 1 };
/// assert_eq!(along_axis0.extent(64, 512), 64 * 512);
/// assert_eq!(Strides::dense(64).extent(64, 3), 192);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Strides {
    /// Distance between neighbouring elements of a transform (in row-major order), in elements.
    pub stride: usize,
    /// Distance between the first elements of neighbouring transforms, in elements.
    pub dist: usize,
}

impl Strides {
    /// Contiguous transforms of `n` elements back to back.
    ///
    /// ```
    /// assert_eq!(tensorfft::Strides::dense(8), tensorfft::Strides { stride: 1, dist: 8 });
    /// ```
    pub fn dense(n: usize) -> Self {
        Strides { stride: 1, dist: n }
    }

    /// Elements a buffer must hold for `batch` transforms of `n` elements (one past the last
    /// element addressed), or `usize::MAX` on overflow.
    ///
    /// ```
    /// assert_eq!(tensorfft::Strides { stride: 2, dist: 100 }.extent(4, 2), 107);
    /// ```
    pub fn extent(&self, n: usize, batch: usize) -> usize {
        let last = (batch.saturating_sub(1))
            .checked_mul(self.dist)
            .and_then(|a| {
                n.saturating_sub(1)
                    .checked_mul(self.stride)
                    .and_then(|b| a.checked_add(b))
            });
        last.and_then(|l| l.checked_add(1)).unwrap_or(usize::MAX)
    }

    /// Whether no two elements of `batch` transforms of `n` elements share an address: either
    /// the transforms do not interleave (`dist` beyond the last element of a transform), or
    /// they interleave completely (`stride` beyond the last transform).
    ///
    /// ```
    /// use tensorfft::Strides;
    /// assert!(Strides { stride: 4, dist: 1 }.is_injective(8, 4));
    /// assert!(!Strides { stride: 2, dist: 3 }.is_injective(8, 4));
    /// ```
    pub fn is_injective(&self, n: usize, batch: usize) -> bool {
        let stride_ok = self.stride >= 1 || n == 1;
        if batch == 1 {
            return stride_ok;
        }
        let columns = (batch - 1)
            .checked_mul(self.dist)
            .is_some_and(|span| self.stride > span);
        stride_ok && self.dist >= 1 && (self.dist >= self.extent(n, 1) || columns)
    }
}

/// The memory layout of a plan's input and output; `None` is dense (transforms of
/// `prod(dims)` contiguous elements, back to back).
///
/// ```
/// use tensorfft::{Layout, Strides};
/// let l = Layout { input: Some(Strides { stride: 512, dist: 1 }), output: None };
/// assert!(!l.is_dense());
/// assert!(Layout::default().is_dense());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Layout {
    /// Where the input lives.
    pub input: Option<Strides>,
    /// Where the output lives.
    pub output: Option<Strides>,
}

impl Layout {
    /// Whether both sides are dense (`None`).
    ///
    /// ```
    /// assert!(tensorfft::Layout::default().is_dense());
    /// ```
    pub fn is_dense(&self) -> bool {
        self.input.is_none() && self.output.is_none()
    }
}

/// How device memory is read and written by a single-pass kernel.
///
/// ```
/// assert_ne!(tensorfft::IoMode::Staged, tensorfft::IoMode::Direct);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum IoMode {
    /// The first stage reads device memory and the last writes it, with per-thread vectors.
    Direct,
    /// The block copies its tile through shared memory with 16-byte vectors.
    Staged,
}

/// Where twiddle factors come from on the GPU.
///
/// ```
/// assert_ne!(tensorfft::TwiddleSource::Table, tensorfft::TwiddleSource::Computed);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum TwiddleSource {
    /// A table of e^{-2πik/N}, computed in f64 and rounded once, read through the L1 cache.
    Table,
    /// `sincospi` in the kernel.
    Computed,
}

/// Format of the values exchanged between stages through shared memory.
///
/// ```
/// assert_ne!(tensorfft::ExchangeFormat::F16, tensorfft::ExchangeFormat::F32);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ExchangeFormat {
    /// Complex half: half the shared memory, one rounding to f16 per exchange (none where a
    /// single stage only stages inputs and outputs, the F16 default up to 8 points).
    F16,
    /// Complex bfloat16 (bf16 data's strided passes, which exchange in the storage format, and
    /// its single stages of at most 8 points, which only stage inputs and outputs).
    BF16,
    /// Complex f32.
    F32,
    /// Complex f64.
    F64,
}

impl ExchangeFormat {
    /// Bytes of one exchanged complex value.
    ///
    /// ```
    /// assert_eq!(tensorfft::ExchangeFormat::F16.bytes(), 4);
    /// ```
    pub fn bytes(self) -> usize {
        match self {
            ExchangeFormat::F16 | ExchangeFormat::BF16 => 4,
            ExchangeFormat::F32 => 8,
            ExchangeFormat::F64 => 16,
        }
    }
}

/// Overrides of the planner's choices, for tuning and experiments. `None` lets the planner choose.
///
/// ```
/// use tensorfft::{IoMode, Tuning};
/// let t = Tuning { io: Some(IoMode::Staged), ..Default::default() };
/// assert_eq!(t.elements_per_thread, None);
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(default, deny_unknown_fields)]
pub struct Tuning {
    /// Complex values each thread holds in registers (a power of two, 2 … 32).
    pub elements_per_thread: Option<usize>,
    /// Transforms per thread block.
    pub transforms_per_block: Option<usize>,
    /// Device-memory access scheme.
    pub io: Option<IoMode>,
    /// Twiddle source.
    pub twiddles: Option<TwiddleSource>,
    /// Shared-memory exchange format (F16 plans only may choose [`ExchangeFormat::F16`]).
    pub exchange: Option<ExchangeFormat>,
    /// Largest radix per stage (2, 4, 8, 16 or 32; default 16); smaller end radices widen direct
    /// accesses, radix 32 saves an exchange when a thread holds 32 values.
    pub max_radix: Option<usize>,
    /// Blocks per multiprocessor the compiler must fit (caps registers per thread).
    pub min_blocks_per_sm: Option<usize>,
    /// Load the next tile while computing this one (costs a second tile of registers). Cluster
    /// passes: `Some(true)` copies the next group's input into a landing buffer in shared memory
    /// (and makes the grid persistent); measured slower, so it is off by default. The setting
    /// applies to every pass of the plan.
    pub prefetch: Option<bool>,
    /// Load each stage's twiddles one stage ahead (more registers, latency hidden in-thread).
    pub twiddles_ahead: Option<bool>,
    /// Launch a persistent grid (resident blocks × SMs) instead of one block per tile (cluster
    /// passes: the resident clusters loop over the groups; slower, bench/NOTES.md step 30).
    pub persistent: Option<bool>,
    /// Run radix-16 stages on the tensor cores: F16 and BF16 single passes of 256 … 16384 (one
    /// warp per transform up to 1024, beyond that a stage pair then Stockham stages; BF16 with
    /// bf16 products), and always for F32Split (`Some(false)` runs F32Split's strided passes in
    /// f32). In a schedule, F16 and F32Split strided passes of 512 … 16384 as well (gathered
    /// through shared memory), while shorter passes, single passes under 256 and an F16 single
    /// pass of 32768 (16 values per thread would take 2048 threads) stay on the CUDA cores;
    /// BF16's other passes (strided passes, single passes under 256) then compute in f32 (its
    /// tensor-core strided passes measured slower and less accurate). Off by default for F16
    /// and BF16: packed half arithmetic measured faster (bench/NOTES.md steps 70–75, 87, 123). BF16 on the H200: 256 … 8192 at 96 – 58% of the
    /// copy with errors near 3e-3, between packed bf16x2 (98%, 6–9e-3) and f32 arithmetic
    /// (90 – 54%, 1.7e-3).
    ///
    /// ```
    /// use tensorfft::{plan_c2c_recipe, PlanOptions, Precision, Shape, Tuning};
    /// let tc = PlanOptions::tuned(Tuning { tensor_cores: Some(true), ..Default::default() });
    /// let r = plan_c2c_recipe(&Shape::new([4096]), Precision::BF16, &tc).unwrap();
    /// assert!(r.tensor_cores && r.tensor_pair && !r.half_arithmetic);
    /// ```
    pub tensor_cores: Option<bool>,
    /// F16 and BF16 tensor-core plans of N = 2048 … 16384 (and 1024 with 16 values per thread): run the
    /// first two radix-16 stages as one
    /// register pair per 256-point unit (the first product's accumulators are the second's
    /// operand; `tensor_pair_fft.cuh`) before the remaining Stockham stages, instead of two
    /// stages with a shared-memory exchange between them. Same arithmetic either way. On by
    /// default; its input is staged through shared memory unless [`Tuning::io`] asks for
    /// [`IoMode::Direct`] (`Recipe::staged_pair_input`). N = 256 … 1024 always run as a pair
    /// (one warp per transform), where their shape allows it.
    ///
    /// F32Split takes the same pairs with split products (not with [`Tuning::tf32_split`]),
    /// loading its units directly: by default at 256 and 512 (one warp per transform) and
    /// 2048; its other lengths run the per-stage kernel unless this asks for the pair
    /// (bench/NOTES.md step 77).
    pub tensor_pairs: Option<bool>,
    /// F32Split only: form the tensor-core products from three TF32 products (3xTF32,
    /// `mma.sync` m16n8k8: x = big + small in TF32, the DFT matrix the same way) instead of
    /// scaled fp16 halves. TF32 keeps f32's exponent, so there is no per-vector scaling, but
    /// subnormal inputs lose their low bits (`cpu::split_dft`). Off by default.
    pub tf32_split: Option<bool>,
    /// Compute F16 (BF16) transforms in packed f16x2 (bf16x2) arithmetic, two butterflies per
    /// instruction (F16 and BF16 only; direct device-memory access, 16-bit exchange). On by
    /// default for both from N = 128, and in the strided passes that take pairs of items
    /// ([`Tuning::paired_items`]). Roughly halves the instructions per element; every add and
    /// multiply rounds to the 16-bit format, so the error is that of its arithmetic (F16:
    /// cuFFT's F16 class, about 1e-3, rather than 2–4e-4; BF16: 5e-3 – 1.2e-2 rather than
    /// 1.7–4e-3): `Some(false)` keeps f32 arithmetic.
    ///
    /// ```
    /// use tensorfft::{plan_c2c_recipe, PlanOptions, Precision, Shape, Tuning};
    /// let shape = Shape::new([4096]);
    /// assert!(plan_c2c_recipe(&shape, Precision::BF16, &PlanOptions::default())?.half_arithmetic);
    /// let f32_arithmetic = PlanOptions::tuned(Tuning { half_arithmetic: Some(false), ..Tuning::default() });
    /// assert!(!plan_c2c_recipe(&shape, Precision::BF16, &f32_arithmetic)?.half_arithmetic);
    /// # Ok::<(), tensorfft::Error>(())
    /// ```
    pub half_arithmetic: Option<bool>,
    /// Synchronize the exchanges between a single-pass kernel's stages per warp
    /// (`__syncwarp`) rather than per block, where each transform has at most 32 threads and
    /// the kernel reads and writes device memory directly (not staged). Default: on there,
    /// except f32 N = 64 (bench/NOTES.md step 47).
    pub warp_exchange: Option<bool>,
    /// Run a single-pass transform of N = E·L values on L lanes of a warp (2 … 32), E values
    /// each, with no shared memory: a radix-E DFT in registers, the four-step twiddle, then
    /// log2(L) radix-2 stages between lanes through `__shfl_xor_sync` (seed 000's shuffle
    /// butterflies; `warp_shuffle_fft.cuh`). F32, F64, F16 and BF16 (f64 arithmetic for F64, f32
    /// for the others), N = 4 …
    /// 1024, dense transforms (the rows of a multi-dimensional plan too). Default: on where it
    /// measured faster than the Stockham kernel (`plan::warp_shuffles::shuffles_by_default`:
    /// f32 N = 32; f16 8, 16; bf16 8) and no other single-pass field is set.
    pub warp_shuffles: Option<bool>,
    /// F32Split of N >= 4096: how many radix-16 stages run on the tensor cores (at least the
    /// first two, at most every radix-16 stage of [`crate::plan::planner::tensor_radices`]);
    /// the rest of N runs as CUDA-core stages of radix at most 8 in f32. Default: two (each
    /// split stage costs more than a CUDA-core stage and its exchange; bench/NOTES.md step 78).
    /// Other precisions refuse it.
    ///
    /// ```
    /// use tensorfft::{plan_c2c_recipe, PlanOptions, Precision, Shape, Tuning};
    /// let r = plan_c2c_recipe(&Shape::new([4096]), Precision::F32Split, &PlanOptions::default())?;
    /// assert_eq!(r.radices, vec![16, 16, 4, 4]);
    /// let all = PlanOptions::tuned(Tuning { tensor_stages: Some(3), ..Tuning::default() });
    /// assert_eq!(plan_c2c_recipe(&Shape::new([4096]), Precision::F32Split, &all)?.radices, vec![16, 16, 16]);
    /// # Ok::<(), tensorfft::Error>(())
    /// ```
    pub tensor_stages: Option<usize>,
    /// F16 (BF16) strided passes whose neighbouring items are neighbours in memory: compute two
    /// items per f16x2 (bf16x2) instruction (packed half arithmetic on pairs of items; every
    /// distance of the pass must be even). Default: on where the pass allows it (bench/NOTES.md step 45);
    /// `Some(false)`, or [`Tuning::half_arithmetic`] `Some(false)`, keeps f32 arithmetic in
    /// every strided pass.
    pub paired_items: Option<bool>,
    /// Load the data without allocating it in L1 (`ld.global.L1::no_allocate`), so that L1
    /// keeps the twiddle tables.
    pub stream_loads: Option<bool>,
    /// Read only the power-of-two rows of each stage's twiddle table and form the others as
    /// products (CUDA-core stages with table twiddles; in packed half arithmetic as f16x2 or
    /// bf16x2 products). Default: the single-pass kernel from N = 4096 (f32, f64) and from
    /// N = 8192 in packed half arithmetic (F16 measured, bench/NOTES.md step 108; BF16 takes the
    /// same rule); strided and cluster passes in f32 and f16 (bench/NOTES.md step 33).
    pub derived_twiddles: Option<bool>,
    /// Longest DFT of one strided pass of a multi-pass plan (a power of two; default 1024):
    /// longer axes are split into Stockham passes of at most this length.
    pub max_pass_len: Option<usize>,
    /// Order an axis's Stockham passes shortest first (f64 2^26 as 256 × 512 × 512 rather than
    /// 512 × 512 × 256): the shortest DFT is then the pass without a four-step twiddle and the
    /// last pass (the twiddle of the whole axis) a long one. Default: contiguous f64 axes of
    /// three or more passes whose longest is 512 (1D 2^25 and 2^26: −4% and −7% on the H200,
    /// `bench/NOTES.md` step 103); longest first otherwise. Ignored (either way) where an axis's
    /// passes are not the plain split: tensor-core passes (F32Split, F16 with
    /// [`Tuning::tensor_cores`]), which run their short pass first, and f32 / f16 columns of
    /// 2048 or 4096, one pass.
    ///
    /// ```
    /// use tensorfft::{plan_c2c_schedule, plan::schedule::PassKernel, PlanOptions, Precision, Shape, Tuning};
    /// let first_len = |p: Precision, t: Tuning| {
    ///     let s = plan_c2c_schedule(&Shape::new([1 << 26]), p, &PlanOptions::tuned(t)).unwrap();
    ///     let PassKernel::Strided(first) = &s.passes[0].kernel else { panic!() };
    ///     first.len()
    /// };
    /// assert_eq!(first_len(Precision::F64, Tuning::default()), 256);
    /// assert_eq!(first_len(Precision::F32, Tuning::default()), 512);
    /// let longest_first = Tuning { shortest_pass_first: Some(false), ..Tuning::default() };
    /// assert_eq!(first_len(Precision::F64, longest_first), 512);
    /// ```
    pub shortest_pass_first: Option<bool>,
    /// Shared memory of one gathered strided-pass tile, in bytes (default 32 KiB; such a block
    /// holds two tiles); sets their items per tile unless [`Tuning::items_per_tile`] does.
    pub pass_tile_bytes: Option<usize>,
    /// Items (lines) a strided pass loads, transforms and stores per tile (a power of two).
    pub items_per_tile: Option<usize>,
    /// Blocks per thread-block cluster for an axis of two Stockham passes fused into one kernel
    /// (2, 4 or 8; `Some(0)` never fuses). Default: the planner's choice where it measured
    /// faster than two passes: f32 2^15 (8 blocks) and f64 2^14 (4 blocks). f32 2^16 and f16
    /// 2^16 run two passes since those got faster (bench/NOTES.md steps 43 and 45; clusters of 16
    /// blocks lost too, step 137), and f16 2^15 is one single-pass kernel.
    ///
    /// ```
    /// use tensorfft::{plan_c2c_schedule, plan::schedule::PassKernel, PlanOptions, Precision, Shape, Tuning};
    /// let fused = |n: usize, p: Precision, t: Tuning| {
    ///     let s = plan_c2c_schedule(&Shape::new([n]), p, &PlanOptions::tuned(t)).unwrap();
    ///     matches!(s.passes[0].kernel, PassKernel::Cluster(_))
    /// };
    /// assert!(fused(1 << 15, Precision::F32, Tuning::default()));
    /// assert!(!fused(1 << 16, Precision::F32, Tuning::default()));
    /// assert!(fused(1 << 16, Precision::F32, Tuning { cluster_blocks: Some(8), ..Tuning::default() }));
    /// assert!(!fused(1 << 15, Precision::F32, Tuning { cluster_blocks: Some(0), ..Tuning::default() }));
    /// ```
    pub cluster_blocks: Option<usize>,
    /// Launch each pass as a programmatic dependent launch (sm_90; `cuLaunchKernelEx` with
    /// programmatic stream serialization): the next pass's blocks are scheduled while this
    /// pass's last blocks run, and wait for it on the device before they touch memory
    /// (`kernels/cuda/dependent_launch.cuh`), so the launch latency between passes, and
    /// between the plan and the kernel before it on the stream, overlaps the previous kernel.
    /// Same results either way. Default: on (sm_90 and newer; ignored before).
    pub dependent_launch: Option<bool>,
}

impl Tuning {
    /// This tuning with every choice it leaves open (`None`) taken from `fallback`: how a
    /// caller's explicit choices are kept over a tuned variant's (`tfft tune`, [`crate::Wisdom`]).
    ///
    /// ```
    /// use tensorfft::Tuning;
    /// let asked = Tuning { tensor_cores: Some(true), ..Default::default() };
    /// let variant = Tuning { tensor_cores: Some(false), elements_per_thread: Some(16), ..Default::default() };
    /// let t = asked.or(variant);
    /// assert_eq!((t.tensor_cores, t.elements_per_thread), (Some(true), Some(16)));
    /// ```
    pub fn or(self, fallback: Tuning) -> Tuning {
        Tuning {
            elements_per_thread: self.elements_per_thread.or(fallback.elements_per_thread),
            transforms_per_block: self.transforms_per_block.or(fallback.transforms_per_block),
            io: self.io.or(fallback.io),
            twiddles: self.twiddles.or(fallback.twiddles),
            exchange: self.exchange.or(fallback.exchange),
            max_radix: self.max_radix.or(fallback.max_radix),
            min_blocks_per_sm: self.min_blocks_per_sm.or(fallback.min_blocks_per_sm),
            prefetch: self.prefetch.or(fallback.prefetch),
            twiddles_ahead: self.twiddles_ahead.or(fallback.twiddles_ahead),
            persistent: self.persistent.or(fallback.persistent),
            tensor_cores: self.tensor_cores.or(fallback.tensor_cores),
            tensor_pairs: self.tensor_pairs.or(fallback.tensor_pairs),
            tf32_split: self.tf32_split.or(fallback.tf32_split),
            half_arithmetic: self.half_arithmetic.or(fallback.half_arithmetic),
            warp_exchange: self.warp_exchange.or(fallback.warp_exchange),
            warp_shuffles: self.warp_shuffles.or(fallback.warp_shuffles),
            tensor_stages: self.tensor_stages.or(fallback.tensor_stages),
            paired_items: self.paired_items.or(fallback.paired_items),
            stream_loads: self.stream_loads.or(fallback.stream_loads),
            derived_twiddles: self.derived_twiddles.or(fallback.derived_twiddles),
            max_pass_len: self.max_pass_len.or(fallback.max_pass_len),
            shortest_pass_first: self.shortest_pass_first.or(fallback.shortest_pass_first),
            pass_tile_bytes: self.pass_tile_bytes.or(fallback.pass_tile_bytes),
            items_per_tile: self.items_per_tile.or(fallback.items_per_tile),
            cluster_blocks: self.cluster_blocks.or(fallback.cluster_blocks),
            dependent_launch: self.dependent_launch.or(fallback.dependent_launch),
        }
    }

    /// The multi-pass alternatives `tfft tune` times besides [`Tuning::sweep`]'s single-pass
    /// ones: items per strided tile, values per thread, blocks per multiprocessor, longest pass,
    /// pass order, cluster fusion, twiddle derivation and pairs of items, one choice at a time
    /// and items × values together.
    ///
    /// ```
    /// let v = tensorfft::Tuning::pass_sweep();
    /// assert!(v.iter().any(|t| t.items_per_tile == Some(16)));
    /// ```
    pub fn pass_sweep() -> Vec<Tuning> {
        let mut v = Vec::new();
        for items in [4, 8, 16, 32] {
            for e in [None, Some(8), Some(16), Some(32)] {
                v.push(Tuning {
                    items_per_tile: Some(items),
                    elements_per_thread: e,
                    ..Default::default()
                });
            }
        }
        for min_blocks in [2, 3, 4] {
            v.push(Tuning {
                min_blocks_per_sm: Some(min_blocks),
                ..Default::default()
            });
        }
        for max_pass in [256, 512, 2048] {
            v.push(Tuning {
                max_pass_len: Some(max_pass),
                ..Default::default()
            });
        }
        for first in [false, true] {
            v.push(Tuning {
                shortest_pass_first: Some(first),
                ..Default::default()
            });
        }
        for blocks in [0, 2, 4, 8] {
            v.push(Tuning {
                cluster_blocks: Some(blocks),
                ..Default::default()
            });
        }
        for derived in [false, true] {
            v.push(Tuning {
                derived_twiddles: Some(derived),
                ..Default::default()
            });
        }
        v.push(Tuning {
            paired_items: Some(false),
            ..Default::default()
        });
        v
    }

    /// The alternatives `tfft bench --variants` times against the planner's choice; CI compiles
    /// every one of them for every length and precision (BF16's tensor-core ones, F16's kernels
    /// with bf16 operands, by their default and per-stage forms).
    ///
    /// ```
    /// assert!(tensorfft::Tuning::sweep().len() > 10);
    /// ```
    pub fn sweep() -> Vec<Tuning> {
        let mut v = Vec::new();
        for persistent in [false, true] {
            for min_blocks in [None, Some(2), Some(3), Some(4)] {
                for prefetch in [false, true] {
                    v.push(Tuning {
                        persistent: Some(persistent),
                        prefetch: Some(prefetch),
                        min_blocks_per_sm: min_blocks,
                        ..Default::default()
                    });
                }
            }
        }
        for e in [8, 32] {
            v.push(Tuning {
                elements_per_thread: Some(e),
                ..Default::default()
            });
        }
        // 32 values per thread in 256-thread blocks, registers capped for 2 or 3 blocks per SM
        // (cuFFT's f32 8192 kernel: 256 threads, 80 registers, 3 blocks per SM), with radix 32
        // (one exchange fewer) or at most 16.
        for (twiddles_ahead, max_radix) in [(false, 16), (true, 16), (false, 32), (true, 32)] {
            for min_blocks in [2, 3] {
                v.push(Tuning {
                    elements_per_thread: Some(32),
                    max_radix: Some(max_radix),
                    twiddles_ahead: Some(twiddles_ahead),
                    min_blocks_per_sm: Some(min_blocks),
                    persistent: Some(false),
                    prefetch: Some(false),
                    ..Default::default()
                });
            }
        }
        v.push(Tuning {
            max_radix: Some(8),
            ..Default::default()
        });
        v.push(Tuning {
            tf32_split: Some(true),
            ..Default::default()
        });
        // F32Split from 4096 with every radix-16 stage on the tensor cores (the default runs
        // two), on both grids.
        for (stages, persistent) in [(3, None), (3, Some(true)), (4, None)] {
            v.push(Tuning {
                tensor_stages: Some(stages),
                persistent,
                ..Default::default()
            });
        }
        v.push(Tuning {
            twiddles_ahead: Some(false),
            ..Default::default()
        });
        for io in [IoMode::Direct, IoMode::Staged] {
            v.push(Tuning {
                io: Some(io),
                ..Default::default()
            });
        }
        v.push(Tuning {
            twiddles: Some(TwiddleSource::Computed),
            ..Default::default()
        });
        v.push(Tuning {
            exchange: Some(ExchangeFormat::F16),
            ..Default::default()
        });
        v.push(Tuning {
            exchange: Some(ExchangeFormat::BF16),
            ..Default::default()
        });
        v.push(Tuning {
            tensor_cores: Some(false),
            ..Default::default()
        });
        for persistent in [false, true] {
            for prefetch in [false, true] {
                for min_blocks in [None, Some(2), Some(3), Some(4)] {
                    v.push(Tuning {
                        half_arithmetic: Some(true),
                        persistent: Some(persistent),
                        prefetch: Some(prefetch),
                        min_blocks_per_sm: min_blocks,
                        ..Default::default()
                    });
                }
            }
        }
        v.push(Tuning {
            half_arithmetic: Some(true),
            twiddles_ahead: Some(false),
            ..Default::default()
        });
        v.push(Tuning {
            half_arithmetic: Some(false),
            ..Default::default()
        });
        // Derived twiddles on and off (the default depends on N and precision) and streaming
        // loads, each with twiddles loaded ahead or per stage.
        for twiddles_ahead in [false, true] {
            for tuning in [
                Tuning {
                    derived_twiddles: Some(false),
                    ..Default::default()
                },
                Tuning {
                    derived_twiddles: Some(true),
                    ..Default::default()
                },
                Tuning {
                    stream_loads: Some(true),
                    ..Default::default()
                },
            ] {
                v.push(Tuning {
                    twiddles_ahead: Some(twiddles_ahead),
                    ..tuning
                });
            }
        }
        for persistent in [false, true] {
            for twiddles_ahead in [false, true] {
                for min_blocks in [None, Some(3), Some(4)] {
                    v.push(Tuning {
                        tensor_cores: Some(true),
                        persistent: Some(persistent),
                        prefetch: Some(false),
                        twiddles_ahead: Some(twiddles_ahead),
                        min_blocks_per_sm: min_blocks,
                        ..Default::default()
                    });
                }
            }
        }
        // F16 2048 … 16384 on the tensor cores: the per-stage kernel against the stage pair
        // (the default), and the pair with per-stage twiddle loads or one block per tile.
        v.push(Tuning {
            tensor_cores: Some(true),
            tensor_pairs: Some(false),
            ..Default::default()
        });
        v.push(Tuning {
            tensor_cores: Some(true),
            tensor_pairs: Some(true),
            twiddles_ahead: Some(false),
            ..Default::default()
        });
        v.push(Tuning {
            tensor_cores: Some(true),
            tensor_pairs: Some(true),
            persistent: Some(false),
            prefetch: Some(false),
            ..Default::default()
        });
        // The pair's input staged through shared memory, with and without prefetch.
        for (prefetch, min_blocks) in [
            (false, None),
            (true, None),
            (false, Some(2)),
            (true, Some(2)),
        ] {
            v.push(Tuning {
                tensor_cores: Some(true),
                tensor_pairs: Some(true),
                io: Some(IoMode::Staged),
                prefetch: Some(prefetch),
                min_blocks_per_sm: min_blocks,
                ..Default::default()
            });
        }
        // The warp-resident tensor-core kernel (F16 N = 256): one, two or four transforms per
        // warp, launch shapes.
        for e in [8, 16, 32] {
            for persistent in [false, true] {
                for prefetch in [false, true] {
                    for min_blocks in [None, Some(4)] {
                        v.push(Tuning {
                            tensor_cores: Some(true),
                            elements_per_thread: Some(e),
                            persistent: Some(persistent),
                            prefetch: Some(prefetch),
                            min_blocks_per_sm: min_blocks,
                            ..Default::default()
                        });
                    }
                }
            }
        }
        // 32 values per thread (N = 1024 in one warp) with more registers: one block of eight
        // warps, or three of four warps, per multiprocessor.
        for (blocks, transforms) in [(1, None), (3, Some(4))] {
            v.push(Tuning {
                tensor_cores: Some(true),
                elements_per_thread: Some(32),
                transforms_per_block: transforms,
                persistent: Some(true),
                prefetch: Some(false),
                min_blocks_per_sm: Some(blocks),
                ..Default::default()
            });
        }
        // Warp-shuffle kernels (N = 4 … 1024): off where they are the default, the default
        // lanes, other values per lane, and streaming loads.
        v.push(Tuning {
            warp_shuffles: Some(false),
            ..Default::default()
        });
        for e in [None, Some(4), Some(8), Some(16), Some(32)] {
            v.push(Tuning {
                warp_shuffles: Some(true),
                elements_per_thread: e,
                ..Default::default()
            });
        }
        v.push(Tuning {
            warp_shuffles: Some(true),
            stream_loads: Some(true),
            ..Default::default()
        });
        v
    }
}

impl PlanOptions {
    /// Default normalization with the planner choices overridden by `tuning`.
    ///
    /// ```
    /// use tensorfft::{PlanOptions, Tuning};
    /// let opts = PlanOptions::tuned(Tuning { tensor_cores: Some(true), ..Default::default() });
    /// assert_eq!(opts.tuning.tensor_cores, Some(true));
    /// ```
    pub fn tuned(tuning: Tuning) -> Self {
        PlanOptions {
            tuning,
            ..Default::default()
        }
    }
}

/// Everything a caller may choose for a plan besides shape, precision and direction.
///
/// ```
/// let opts = tensorfft::PlanOptions::default();
/// assert_eq!(opts.normalization, tensorfft::Normalization::None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PlanOptions {
    /// Scaling of the inverse.
    pub normalization: Normalization,
    /// Planner overrides.
    pub tuning: Tuning,
    /// The caller supplies the scratch memory (as `cufftSetWorkArea`): the plan allocates none
    /// and multi-pass executions take it through `execute_into_with_scratch` and
    /// `execute_in_place_with_scratch`.
    pub external_scratch: bool,
    /// Where input and output live (dense by default).
    pub layout: Layout,
}
