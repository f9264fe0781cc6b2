//! Executable GPU NTT plans: the forward and inverse [`NttSchedule`]s of an [`NttBatch`], each
//! pass's compiled kernel and constant tables, the moduli and the plan's scratch.

use super::buffer::DeviceBuffer;
use super::launch::KernelArgs;
use super::module_cache::ModuleOrigin;
use super::plan::RawBuffer;
use super::runtime::Gpu;
use crate::element::DeviceData;
use crate::error::{Error, Result};
use crate::kernels::ntt_source::NttKernelSource;
use crate::ntt::cluster_fusion::{fuse_on_cluster, planned_fusion};
use crate::ntt::schedule::{plan_ntt_schedule_with, NttSchedule, NttScheduleOptions};
use crate::ntt::tables::{device_pairs, TableLayout};
use crate::ntt::NttBatch;
use crate::plan::schedule::Buffer;
use crate::plan::Direction;
use cudarc::driver::sys::CUfunction_attribute;
use cudarc::driver::{CudaFunction, CudaSlice, CudaStream, DevicePtr, DeviceRepr, LaunchConfig};
use std::sync::{Arc, OnceLock};

#[path = "ntt_pointwise.rs"]
mod pointwise;
#[path = "ntt_product_transform.rs"]
mod product_transform;

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

/// A word of NTT data: `u32` (primes below 2^32) or `u64` (primes below 2^63, Goldilocks).
///
/// ```
/// use tensorfft::gpu::ntt_plan::NttWord;
/// assert_eq!(<u32 as NttWord>::from_u64(7), 7u32);
/// assert_eq!(<u64 as NttWord>::BYTES, 8);
/// ```
pub trait NttWord: sealed::Sealed + DeviceData + Into<u64> + PartialEq {
    /// Bytes per word.
    const BYTES: usize;
    /// Truncates a `u64` (the caller knows it fits).
    fn from_u64(v: u64) -> Self;
}

impl NttWord for u32 {
    const BYTES: usize = 4;
    fn from_u64(v: u64) -> Self {
        v as u32
    }
}

impl NttWord for u64 {
    const BYTES: usize = 8;
    fn from_u64(v: u64) -> Self {
        v
    }
}

/// Options of an NTT plan.
///
/// ```
/// let o = tensorfft::gpu::ntt_plan::NttPlanOptions { block_synchronous: true, ..Default::default() };
/// assert!(o.max_pass_len.is_none());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NttPlanOptions {
    /// Run the block-synchronous baseline (a block barrier after every radix-2 stage) instead
    /// of several stages in registers between barriers; it has no warp-shuffle stages,
    /// whatever `warp_shuffles` says, and stages its passes of bit-reversed input through
    /// shared memory (as `staged_reversed_input`).
    pub block_synchronous: bool,
    /// Passes of at most this many points (more passes; for tests of the multi-pass geometry).
    pub max_pass_len: Option<usize>,
    /// Where the last round of stages of direct row passes (the first, by decimation in time)
    /// runs as warp-shuffle butterflies instead of a shared-memory exchange (same results, bit
    /// for bit); ignored by the block-synchronous baseline.
    pub warp_shuffles: WarpShuffles,
    /// Blocks per thread-block cluster for two-pass schedules whose passes fuse into one kernel
    /// ([`crate::ntt::cluster_fusion`]; sm_90): `None` the planner's choice
    /// ([`crate::ntt::cluster_fusion::planned_cluster`]), `Some(0)` never, `Some(c)` clusters
    /// of `c` blocks where the schedule fuses on them. The block-synchronous baseline never
    /// fuses.
    pub cluster_blocks: Option<usize>,
    /// Launch each pass as a programmatic dependent launch (sm_90), as
    /// [`crate::Tuning::dependent_launch`] does for FFT plans: `None` or `Some(true)` on where
    /// the device has it, `Some(false)` plain launches. Same results either way.
    pub dependent_launch: Option<bool>,
    /// Strided (column) passes of at most this many points (rounded up to a power of two);
    /// `None`: the planner's choice, at most 2^11 and 2^10 for 32-bit words where the row pass
    /// takes the bit ([`crate::ntt::schedule::preferred_column_bits`]). Shorter columns move
    /// bits to the contiguous row pass (and may add a pass where the row pass is already at its
    /// longest).
    pub max_column_len: Option<usize>,
    /// Contiguous (row) passes of at most this many points (rounded up to a power of two);
    /// `None`: the planner's choice ([`crate::ntt::schedule::max_row_bits`]): 2^14 for 32-bit
    /// words where the row pass is staged (bit-reversed input to bit-reversed output, or
    /// `staged_reversed_input`), else 2^13, turned where 2^14 saves a pass; bounds above 2^14
    /// (`u32`) or 2^13 (`u64`) are held to it. Shorter rows move bits to the columns (and may
    /// add a pass).
    pub max_row_len: Option<usize>,
    /// Tiles (blocks) every pass should have at least, per multiprocessor; `None`:
    /// [`TILES_PER_SM`]. Tiles shrink (down to 32 contiguous bytes per sample row of a column,
    /// one row of a row pass) until a pass has that many, so one transform spreads over more,
    /// smaller blocks.
    pub tiles_per_sm: Option<usize>,
    /// Tiles per multiprocessor contiguous (row) passes should have at least, beyond that:
    /// their tiles shrink further while blocks keep 128 threads; `None`: [`ROW_TILES_PER_SM`].
    pub row_tiles_per_sm: Option<usize>,
    /// Stage passes of bit-reversed local input and natural local output through shared memory
    /// both ways (the plans before decimation in time, for A/B measurements) instead of running
    /// them direct by decimation in time ([`crate::ntt::schedule::NttPass::in_time`]). Same
    /// results, bit for bit.
    pub staged_reversed_input: bool,
}

/// Tiles per multiprocessor every pass of an NTT plan has at least, where its items allow:
/// one small transform spread over the device (bench/NOTES.md step 40).
pub const TILES_PER_SM: usize = 2;

/// Tiles per multiprocessor a contiguous (row) pass of an NTT plan has at least, where its
/// items allow and blocks keep 128 threads: one transform's rows on more, smaller blocks run
/// less in lockstep (H200, `bench/results/2026-11-27-ntt-tiles/final-ab/`, against
/// [`TILES_PER_SM`]: BabyBear 2^24 0.1495 → 0.1382 ms, 2^21 × 4 1.13×, Goldilocks 2^22
/// 0.1176 → 0.1129 ms, 2^19 × 4 1.11×).
pub const ROW_TILES_PER_SM: usize = 8;

/// Where an NTT plan uses warp-shuffle butterflies (seed 000's warp-shuffle-XOR exchanges).
///
/// ```
/// use tensorfft::gpu::ntt_plan::{NttPlanOptions, WarpShuffles};
/// let o = NttPlanOptions { warp_shuffles: WarpShuffles::Never, ..Default::default() };
/// assert_ne!(o, NttPlanOptions::default()); // the default is the planner's choice
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum WarpShuffles {
    /// The planner's choice: 32-bit rows of 128, 256 and 512 points, where they replace the
    /// last shared-memory exchange (measured faster there on the H200, slower elsewhere).
    #[default]
    Planned,
    /// Every direct row pass whose last round can run between lanes
    /// ([`NttSchedule::warp_shuffles`]).
    Everywhere,
    /// None ([`NttSchedule::without_warp_shuffles`]).
    Never,
}

impl WarpShuffles {
    /// `schedule` with this choice applied.
    ///
    /// ```
    /// use tensorfft::gpu::ntt_plan::WarpShuffles;
    /// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 10, NttKind::Cyclic).unwrap())
    ///     .with_orders(Order::Natural, Order::BitReversed)
    ///     .batch(64);
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
    /// assert_eq!(WarpShuffles::Planned.apply(s.clone()), s);
    /// assert!(WarpShuffles::Everywhere.apply(s).passes.iter().any(|p| p.shuffle_stages > 0));
    /// ```
    pub fn apply(self, schedule: NttSchedule) -> NttSchedule {
        match self {
            WarpShuffles::Planned => schedule,
            WarpShuffles::Everywhere => schedule.warp_shuffles(),
            WarpShuffles::Never => schedule.without_warp_shuffles(),
        }
    }
}

/// The run-time geometry of a pass, laid out as `NttGeometry` in `ntt_pass.cuh`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
struct NttGeometry {
    count: [u64; 3],
    in_stride: [u64; 3],
    out_stride: [u64; 3],
    in_weight: [u64; 3],
    out_weight: [u64; 3],
    sample_in: u64,
    sample_out: u64,
    sample_in_weight: u64,
    sample_out_weight: u64,
    items: u64,
    limbs: u64,
    entries: u64,
    tw_mask: u64,
    tw_hi: u64,
    tw_lo: u64,
    wt_hi: u64,
    wt_lo: u64,
    log_count: [i32; 2],
    in_rev_bits: [i32; 3],
    out_rev_bits: [i32; 3],
    tw_dim: i32,
    tw_lo_bits: i32,
    wt_lo_bits: i32,
    transform_dim: i32,
}

// SAFETY: a plain `repr(C)` struct of integers, passed by value as a kernel parameter whose C++
// declaration has the same fields in the same order.
unsafe impl DeviceRepr for NttGeometry {}

impl NttGeometry {
    fn of(schedule: &NttSchedule, index: usize) -> Self {
        let pass = &schedule.passes[index];
        let layout = TableLayout::of(schedule, index);
        let mut g = NttGeometry {
            count: [1; 3],
            sample_in: pass.sample_in as u64,
            sample_out: pass.sample_out as u64,
            sample_in_weight: pass.sample_in_weight as u64,
            sample_out_weight: pass.sample_out_weight as u64,
            items: pass.items() as u64,
            limbs: schedule.batch.limb_count() as u64,
            entries: layout.entries as u64,
            tw_hi: layout.twiddle_hi as u64,
            tw_lo: layout.twiddle_lo as u64,
            wt_hi: layout.weight_hi as u64,
            wt_lo: layout.weight_lo as u64,
            tw_dim: -1,
            wt_lo_bits: layout.weight_lo_bits as i32,
            transform_dim: pass.transform_dim as i32,
            ..Default::default()
        };
        for (d, dim) in pass.dims.iter().enumerate().take(3) {
            let bits = dim.count.trailing_zeros() as i32;
            g.count[d] = dim.count as u64;
            if d < 2 {
                g.log_count[d] = if dim.count.is_power_of_two() {
                    bits
                } else {
                    -1
                };
            }
            g.in_stride[d] = dim.in_stride as u64;
            g.out_stride[d] = dim.out_stride as u64;
            g.in_weight[d] = dim.in_weight as u64;
            g.out_weight[d] = dim.out_weight as u64;
            g.in_rev_bits[d] = if dim.in_bit_reversed { bits } else { 0 };
            g.out_rev_bits[d] = if dim.out_bit_reversed { bits } else { 0 };
        }
        if let Some(t) = pass.twiddle {
            g.tw_dim = t.dim as i32;
            g.tw_mask = t.root as u64 - 1;
            g.tw_lo_bits = if layout.twiddle_items > 0 {
                layout.twiddle_items.trailing_zeros() as i32
            } else {
                t.lo_bits() as i32
            };
        }
        g
    }
}

/// Where a plan's kernels came from, given where two parts of it came from: compiled if either
/// was, else from disk if either was, else from memory.
fn merge(a: ModuleOrigin, b: ModuleOrigin) -> ModuleOrigin {
    match (a, b) {
        (ModuleOrigin::Compiled, _) | (_, ModuleOrigin::Compiled) => ModuleOrigin::Compiled,
        (ModuleOrigin::Disk, _) | (_, ModuleOrigin::Disk) => ModuleOrigin::Disk,
        _ => ModuleOrigin::Memory,
    }
}

/// One pass on the device.
struct GpuNttPass<W: NttWord> {
    function: CudaFunction,
    tables: DeviceBuffer<W>,
    geometry: NttGeometry,
    blocks: u32,
    threads: u32,
    shared_bytes: u32,
    /// A fused kernel's second pass: its tables and geometry.
    second: Option<(DeviceBuffer<W>, NttGeometry)>,
}

/// The passes of one direction.
struct DirectionPlan<W: NttWord> {
    schedule: NttSchedule,
    passes: Vec<GpuNttPass<W>>,
}

/// A batch of NTTs (one length, one or more RNS limbs, any number of transforms) on one GPU:
/// create once, execute many times, forward and inverse, in place or out of place. Buffers hold
/// [`NttBatch::len`] words; values must be below their limb's modulus (the precondition of every
/// transform; [`GpuNttPlan::forward_host`] validates, the device entry points do not).
///
/// ```no_run
/// use tensorfft::ntt::{NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
/// # fn main() -> tensorfft::Result<()> {
/// let gpu = tensorfft::Gpu::new(0)?;
/// let batch = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 20, NttKind::Cyclic)?)
///     .with_orders(Order::Natural, Order::BitReversed);
/// let plan = gpu.plan_ntt::<u32>(&batch)?;
/// let x: Vec<u32> = (0..1u32 << 20).collect();
/// let mut d = gpu.upload(&x)?;
/// plan.forward(&mut d)?;
/// plan.inverse(&mut d)?;
/// assert_eq!(gpu.download(&d)?, x);
/// # Ok(()) }
/// ```
pub struct GpuNttPlan<W: NttWord> {
    gpu: Gpu,
    forward: DirectionPlan<W>,
    inverse: DirectionPlan<W>,
    moduli: DeviceBuffer<W>,
    scratch: Option<CudaSlice<u8>>,
    stream: Arc<CudaStream>,
    origin: ModuleOrigin,
    /// Passes launch as programmatic dependent launches.
    dependent_launch: bool,
    /// The pointwise-product kernel, compiled on first use (`ntt_pointwise.rs`).
    pointwise: OnceLock<pointwise::PointwiseKernel>,
    /// The first kernels of the forward and inverse schedules with a factor on their inputs,
    /// compiled on first use (`ntt_product_transform.rs`).
    factor_first: [OnceLock<product_transform::FactorKernel>; 2],
}

impl Gpu {
    /// Plans `batch` for words `W` with default options.
    ///
    /// ```no_run
    /// use tensorfft::ntt::{NttBatch, NttKind, NttSpec, GOLDILOCKS};
    /// let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let b = NttBatch::new(NttSpec::new(GOLDILOCKS, 1 << 16, NttKind::Cyclic).unwrap());
    /// let plan = gpu.plan_ntt::<u64>(&b).unwrap();
    /// # let _ = plan;
    /// ```
    pub fn plan_ntt<W: NttWord>(&self, batch: &NttBatch) -> Result<GpuNttPlan<W>> {
        self.plan_ntt_with(batch, &NttPlanOptions::default())
    }

    /// Plans `batch` for words `W` with `options`.
    ///
    /// ```no_run
    /// use tensorfft::gpu::ntt_plan::NttPlanOptions;
    /// use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 16, NttKind::Cyclic).unwrap());
    /// let opts = NttPlanOptions { block_synchronous: true, ..Default::default() };
    /// let baseline = gpu.plan_ntt_with::<u32>(&b, &opts).unwrap();
    /// # let _ = baseline;
    /// ```
    pub fn plan_ntt_with<W: NttWord>(
        &self,
        batch: &NttBatch,
        options: &NttPlanOptions,
    ) -> Result<GpuNttPlan<W>> {
        let mut origin = ModuleOrigin::Memory;
        let mut plan_direction = |dir| -> Result<DirectionPlan<W>> {
            let mut schedule = self.ntt_schedule(batch, W::BYTES, dir, options)?;
            let mut passes = Vec::with_capacity(schedule.passes.len());
            if schedule.cluster > 1 {
                match self.ntt_fused_pass::<W>(&schedule) {
                    Ok((pass, o)) => {
                        origin = merge(origin, o);
                        passes.push(pass);
                    }
                    // A cluster the device cannot hold runs unfused, unless the caller asked.
                    Err(Error::DeviceLimit(_)) if options.cluster_blocks.is_none() => {
                        let unfused = NttPlanOptions {
                            cluster_blocks: Some(0),
                            ..*options
                        };
                        schedule = self.ntt_schedule(batch, W::BYTES, dir, &unfused)?;
                    }
                    Err(e) => return Err(e),
                }
            }
            for index in passes.len() * 2..schedule.passes.len() {
                let (pass, o) = self.ntt_pass::<W>(&schedule, index)?;
                origin = merge(origin, o);
                passes.push(pass);
            }
            Ok(DirectionPlan { schedule, passes })
        };
        let forward = plan_direction(Direction::Forward)?;
        let inverse = plan_direction(Direction::Inverse)?;
        let moduli: Vec<W> = batch.moduli().into_iter().map(W::from_u64).collect();
        let moduli = self.upload(&moduli)?;
        let scratch_elements = forward
            .schedule
            .scratch_elements()
            .max(inverse.schedule.scratch_elements());
        let scratch = if scratch_elements > 0 {
            let bytes = scratch_elements
                .checked_mul(W::BYTES)
                .ok_or_else(|| Error::InvalidSize("NTT scratch overflows usize bytes".into()))?;
            Some(self.stream().alloc_zeros::<u8>(bytes)?)
        } else {
            None
        };
        self.synchronize()?;
        Ok(GpuNttPlan {
            gpu: self.clone(),
            forward,
            inverse,
            moduli,
            scratch,
            stream: self.stream().clone(),
            origin,
            dependent_launch: self.dependent_launch(options.dependent_launch),
            pointwise: OnceLock::new(),
            factor_first: [OnceLock::new(), OnceLock::new()],
        })
    }

    /// Compiles the kernels of every pass of `batch`'s two schedules into the disk cache on all
    /// cores, without loading them (a sweep over many plans then plans from the cache).
    /// Returns how many NVRTC compiled.
    ///
    /// ```no_run
    /// use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 20, NttKind::Cyclic).unwrap());
    /// gpu.precompile_ntt(&[(b, 4, Default::default())]).unwrap();
    /// ```
    pub fn precompile_ntt(&self, plans: &[(NttBatch, usize, NttPlanOptions)]) -> Result<usize> {
        let mut kernels: Vec<NttKernelSource> = Vec::new();
        for (batch, word, options) in plans {
            for dir in [Direction::Forward, Direction::Inverse] {
                let s = self.ntt_schedule(batch, *word, dir, options)?;
                let fused = (s.cluster > 1).then(|| NttKernelSource::fused(&s));
                let first = if fused.is_some() { 2 } else { 0 };
                for k in fused
                    .into_iter()
                    .chain((first..s.passes.len()).map(|i| NttKernelSource::pass(&s, i)))
                {
                    if !kernels.iter().any(|o| o.entry == k.entry) {
                        kernels.push(k);
                    }
                }
            }
        }
        let sources: Vec<(String, String)> =
            kernels.into_iter().map(|k| (k.source, k.entry)).collect();
        self.modules()
            .precompile_all(&sources, self.arch(), self.nvrtc_version())
    }

    /// The schedule options of a plan on this device: the caller's pass-length bounds, and at
    /// least [`TILES_PER_SM`] / [`ROW_TILES_PER_SM`] tiles per multiprocessor (or the
    /// caller's counts).
    fn ntt_options(&self, options: &NttPlanOptions) -> NttScheduleOptions {
        let sms = self.info().multiprocessors.max(1) as usize;
        NttScheduleOptions {
            max_pass_len: options
                .max_pass_len
                .map_or(1 << 30, |m| m.max(2).next_power_of_two()),
            min_tiles: options.tiles_per_sm.unwrap_or(TILES_PER_SM) * sms,
            min_row_tiles: options.row_tiles_per_sm.unwrap_or(ROW_TILES_PER_SM) * sms,
            max_column_len: options
                .max_column_len
                .map(|m| m.clamp(2, 1 << 30).next_power_of_two()),
            max_row_len: options
                .max_row_len
                .map(|m| m.clamp(2, 1 << 30).next_power_of_two()),
            staged_reversed_input: options.staged_reversed_input,
        }
    }

    /// The schedule a plan with `options` runs on this device in direction `dir`: the
    /// planner's, with the warp-shuffle choice applied, or the block-synchronous baseline.
    fn ntt_schedule(
        &self,
        batch: &NttBatch,
        word_bytes: usize,
        dir: Direction,
        options: &NttPlanOptions,
    ) -> Result<NttSchedule> {
        let mut schedule_options = self.ntt_options(options);
        // The block-synchronous baseline (seed 000) stages the passes of bit-reversed input
        // through shared memory, as every plan did before decimation in time, so its times
        // stay comparable across results.
        schedule_options.staged_reversed_input |= options.block_synchronous;
        let s = plan_ntt_schedule_with(batch, word_bytes, dir, &schedule_options)?;
        if options.block_synchronous {
            return Ok(options.warp_shuffles.apply(s).block_synchronous());
        }
        let clusters = self.info().cluster_launch && self.info().compute_capability >= (9, 0);
        let fused = match options.cluster_blocks {
            _ if !clusters => None,
            None => planned_fusion(&s),
            Some(c) => fuse_on_cluster(&s, c),
        };
        let s = fused.unwrap_or(s);
        Ok(options.warp_shuffles.apply(s))
    }

    /// Compiles, loads and configures the fused kernel of passes 0 and 1 of `schedule` (its
    /// `cluster` blocks per cluster).
    fn ntt_fused_pass<W: NttWord>(
        &self,
        schedule: &NttSchedule,
    ) -> Result<(GpuNttPass<W>, ModuleOrigin)> {
        let kernel = NttKernelSource::fused(schedule);
        let (mut pass, origin) = self.ntt_kernel::<W>(schedule, 0, &kernel)?;
        if schedule.cluster > 8 {
            // Beyond the portable 8 blocks (sm_90 holds 16); the occupancy query below says
            // whether the device runs it.
            pass.function
                .set_attribute(
                    CUfunction_attribute::CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
                    1,
                )
                .map_err(|e| {
                    Error::DeviceLimit(format!("clusters of {} blocks: {e}", schedule.cluster))
                })?;
        }
        let cfg = LaunchConfig {
            grid_dim: (schedule.cluster as u32, 1, 1),
            block_dim: (kernel.threads as u32, 1, 1),
            shared_mem_bytes: kernel.shared_bytes as u32,
        };
        if pass
            .function
            .occupancy_max_active_clusters(cfg, self.stream())?
            == 0
        {
            return Err(Error::DeviceLimit(format!(
                "no cluster of {schedule} can be resident"
            )));
        }
        let pairs: Vec<W> = device_pairs(schedule, 1)
            .into_iter()
            .map(W::from_u64)
            .collect();
        pass.second = Some((self.upload(&pairs)?, NttGeometry::of(schedule, 1)));
        Ok((pass, origin))
    }

    /// Compiles, loads and configures pass `index` of `schedule`.
    fn ntt_pass<W: NttWord>(
        &self,
        schedule: &NttSchedule,
        index: usize,
    ) -> Result<(GpuNttPass<W>, ModuleOrigin)> {
        self.ntt_kernel(schedule, index, &NttKernelSource::pass(schedule, index))
    }

    /// Compiles, loads and configures `kernel`, which starts with pass `index` of `schedule`.
    fn ntt_kernel<W: NttWord>(
        &self,
        schedule: &NttSchedule,
        index: usize,
        kernel: &NttKernelSource,
    ) -> Result<(GpuNttPass<W>, ModuleOrigin)> {
        let limit = self.info().shared_per_block_optin.max(0) as usize;
        if kernel.shared_bytes > limit {
            return Err(Error::DeviceLimit(format!(
                "pass {index} of {schedule} needs {} bytes of shared memory per block; the device allows {limit}",
                kernel.shared_bytes
            )));
        }
        let (module, origin) = self.modules().get_or_compile(
            &kernel.source,
            &kernel.entry,
            self.arch(),
            self.nvrtc_version(),
        )?;
        let function = module.load_function(&kernel.entry)?;
        function.set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            kernel.shared_bytes as i32,
        )?;
        let resident = function.occupancy_max_active_blocks_per_multiprocessor(
            kernel.threads as u32,
            kernel.shared_bytes,
            None,
        )?;
        if resident == 0 {
            return Err(Error::DeviceLimit(format!(
                "pass {index} of {schedule} cannot be resident on a multiprocessor"
            )));
        }
        let tiles = schedule.passes[index].tiles();
        if tiles > i32::MAX as usize {
            return Err(Error::InvalidSize(format!(
                "{tiles} tiles in pass {index} of {schedule}: more than a grid holds"
            )));
        }
        let pairs: Vec<W> = device_pairs(schedule, index)
            .into_iter()
            .map(W::from_u64)
            .collect();
        Ok((
            GpuNttPass {
                function,
                tables: self.upload(&pairs)?,
                geometry: NttGeometry::of(schedule, index),
                blocks: tiles as u32,
                threads: kernel.threads as u32,
                shared_bytes: kernel.shared_bytes as u32,
                second: None,
            },
            origin,
        ))
    }
}

/// Dropping a plan waits for the work queued in its context: products and transforms queued on
/// a caller's stream (`*_raw`) read the plan's tables, which are freed on the handle's stream,
/// unordered with the caller's.
impl<W: NttWord> Drop for GpuNttPlan<W> {
    fn drop(&mut self) {
        // Nothing to report from a destructor: a failed wait leaves the frees as they were.
        let _ = self.gpu.context().synchronize();
    }
}

impl<W: NttWord> GpuNttPlan<W> {
    /// The schedule of passes run in direction `dir`.
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 20, NttKind::Cyclic).unwrap())).unwrap();
    /// println!("{}", plan.schedule(tensorfft::Direction::Forward));
    /// ```
    pub fn schedule(&self, dir: Direction) -> &NttSchedule {
        &self.direction(dir).schedule
    }

    fn direction(&self, dir: Direction) -> &DirectionPlan<W> {
        match dir {
            Direction::Forward => &self.forward,
            Direction::Inverse => &self.inverse,
        }
    }

    /// Words of the whole batch (the length every buffer must have).
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 1024, NttKind::Cyclic).unwrap()).batch(8)).unwrap();
    /// assert_eq!(plan.len(), 8192);
    /// ```
    pub fn len(&self) -> usize {
        self.forward.schedule.batch.len()
    }

    /// Never true.
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 1024, NttKind::Cyclic).unwrap())).unwrap();
    /// assert!(!plan.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the passes launch as programmatic dependent launches
    /// ([`NttPlanOptions::dependent_launch`]; on by default on sm_90 and newer).
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 16, NttKind::Cyclic).unwrap())).unwrap();
    /// assert_eq!(plan.dependent_launch(), gpu.info().compute_capability >= (9, 0));
    /// ```
    pub fn dependent_launch(&self) -> bool {
        self.dependent_launch
    }

    /// Bytes of scratch the plan holds (zero when every pass runs in place: natural →
    /// bit-reversed and bit-reversed → natural orders).
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 1024, NttKind::Cyclic).unwrap())).unwrap();
    /// println!("{}", plan.scratch_bytes());
    /// ```
    pub fn scratch_bytes(&self) -> usize {
        self.scratch.as_ref().map_or(0, |s| s.len())
    }

    /// Whether NVRTC ran while planning (else the kernels came from the caches).
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 1024, NttKind::Cyclic).unwrap())).unwrap();
    /// println!("{:?}", plan.origin());
    /// ```
    pub fn origin(&self) -> ModuleOrigin {
        self.origin
    }

    /// Queues executions on `stream` instead of the [`Gpu`]'s (as `cufftSetStream`); the plan's
    /// scratch serves one execution at a time.
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let mut plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 1024, NttKind::Cyclic).unwrap())).unwrap();
    /// plan.set_stream(gpu.new_stream().unwrap());
    /// ```
    pub fn set_stream(&mut self, stream: Arc<CudaStream>) {
        self.stream = stream;
    }

    /// In-place forward transform.
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 1024, NttKind::Cyclic).unwrap())).unwrap();
    /// let mut d = gpu.upload(&vec![1u32; 1024]).unwrap();
    /// plan.forward(&mut d).unwrap();
    /// ```
    pub fn forward(&self, data: &mut DeviceBuffer<W>) -> Result<()> {
        self.execute_in_place(Direction::Forward, data)
    }

    /// In-place inverse transform.
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 1024, NttKind::Cyclic).unwrap())).unwrap();
    /// let mut d = gpu.upload(&vec![1u32; 1024]).unwrap();
    /// plan.inverse(&mut d).unwrap();
    /// ```
    pub fn inverse(&self, data: &mut DeviceBuffer<W>) -> Result<()> {
        self.execute_in_place(Direction::Inverse, data)
    }

    /// In-place transform in direction `dir`.
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 1024, NttKind::Cyclic).unwrap())).unwrap();
    /// let mut d = gpu.upload(&vec![1u32; 1024]).unwrap();
    /// plan.execute_in_place(tensorfft::Direction::Forward, &mut d).unwrap();
    /// ```
    pub fn execute_in_place(&self, dir: Direction, data: &mut DeviceBuffer<W>) -> Result<()> {
        self.check_len(data.len())?;
        let ptr = data.device_address_mut(&self.stream);
        self.run(dir, ptr, ptr, true)
    }

    /// Out-of-place transform in direction `dir`; `input` is not written.
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 1024, NttKind::Cyclic).unwrap())).unwrap();
    /// let x = gpu.upload(&vec![1u32; 1024]).unwrap();
    /// let mut y = gpu.alloc::<u32>(1024).unwrap();
    /// plan.execute_into(tensorfft::Direction::Forward, &x, &mut y).unwrap();
    /// ```
    pub fn execute_into(
        &self,
        dir: Direction,
        input: &DeviceBuffer<W>,
        output: &mut DeviceBuffer<W>,
    ) -> Result<()> {
        self.check_len(input.len())?;
        self.check_len(output.len())?;
        let src = input.device_address(&self.stream);
        let dst = output.device_address_mut(&self.stream);
        self.run(dir, src, dst, false)
    }

    /// Uploads, validates (every value below its limb's modulus), transforms and downloads.
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 4, NttKind::Cyclic).unwrap())).unwrap();
    /// assert_eq!(plan.forward_host(&[1, 0, 0, 0]).unwrap(), vec![1, 1, 1, 1]);
    /// ```
    pub fn forward_host(&self, input: &[W]) -> Result<Vec<W>> {
        self.host(Direction::Forward, input)
    }

    /// The inverse of [`GpuNttPlan::forward_host`].
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 4, NttKind::Cyclic).unwrap())).unwrap();
    /// assert_eq!(plan.inverse_host(&[1, 1, 1, 1]).unwrap(), vec![1, 0, 0, 0]);
    /// ```
    pub fn inverse_host(&self, input: &[W]) -> Result<Vec<W>> {
        self.host(Direction::Inverse, input)
    }

    fn host(&self, dir: Direction, input: &[W]) -> Result<Vec<W>> {
        self.forward.schedule.batch.validate(input)?;
        let mut data = self.gpu.upload(input)?;
        // The upload and the download run on the handle's stream, the transform on the plan's
        // (another one after `set_stream`).
        self.gpu.synchronize()?;
        self.execute_in_place(dir, &mut data)?;
        self.stream.synchronize()?;
        self.gpu.download(&data)
    }

    fn check_len(&self, len: usize) -> Result<()> {
        if len != self.len() {
            return Err(Error::LengthMismatch {
                expected: self.len(),
                actual: len,
            });
        }
        Ok(())
    }

    /// Transforms between device memory the caller owns (a PyTorch or CuPy tensor), queued on
    /// the caller's `stream` (see [`Gpu::borrow_stream`]); the same address on both sides runs
    /// in place. The plan's own scratch (natural → natural and bit-reversed → bit-reversed
    /// orders) serves one execution at a time: executions of one plan must not overlap on
    /// different streams. Refused before anything is queued: a null or not 16-byte aligned
    /// address, a length other than [`GpuNttPlan::len`], input and output that overlap without
    /// being the same buffer. Values must be below their limb's modulus (unchecked here).
    ///
    /// # Safety
    ///
    /// Each [`RawBuffer`] must describe `len` words of the plan's type in device memory of this
    /// plan's context, alive and not used by other work until the transform queued on `stream`
    /// has finished; `stream` must belong to the plan's context.
    ///
    /// ```no_run
    /// use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 1024, NttKind::Cyclic).unwrap())).unwrap();
    /// let x = gpu.upload(&vec![1u32; 1024]).unwrap();
    /// // SAFETY: `x` holds 1024 words and outlives the synchronisation below.
    /// unsafe { plan.execute_raw(tensorfft::Direction::Forward, x.raw(), x.raw(), gpu.stream()) }.unwrap();
    /// gpu.synchronize().unwrap();
    /// ```
    pub unsafe fn execute_raw(
        &self,
        dir: Direction,
        input: RawBuffer,
        output: RawBuffer,
        stream: &CudaStream,
    ) -> Result<()> {
        for (side, b) in [("NTT input", input), ("NTT output", output)] {
            b.check_aligned(side)?;
            self.check_len(b.len)?;
        }
        let in_place = input.address == output.address;
        if !in_place && input.overlaps(&output, W::BYTES)? {
            return Err(Error::InvalidSize(
                "NTT input and output overlap without being the same buffer".into(),
            ));
        }
        self.run_on(stream, dir, input.address, output.address, in_place, None)
    }

    fn run(&self, dir: Direction, src: u64, dst: u64, in_place: bool) -> Result<()> {
        self.run_on(&self.stream, dir, src, dst, in_place, None)
    }

    /// Queues the passes of direction `dir` on `stream`; with `factor` (its address and the
    /// direction's factor kernel) the first kernel multiplies its inputs by it.
    fn run_on(
        &self,
        stream: &CudaStream,
        dir: Direction,
        src: u64,
        dst: u64,
        in_place: bool,
        factor: Option<(u64, &product_transform::FactorKernel)>,
    ) -> Result<()> {
        let plan = self.direction(dir);
        let scratch = self.scratch.as_ref().map(|s| {
            let (ptr, _sync) = s.device_ptr(stream);
            ptr
        });
        let address = |b: Buffer| -> Result<u64> {
            match b {
                Buffer::Input => Ok(src),
                Buffer::Output => Ok(dst),
                Buffer::Scratch(0) => scratch
                    .ok_or_else(|| Error::Driver(format!("scratch of {} missing", plan.schedule))),
                Buffer::Scratch(k) => Err(Error::Driver(format!(
                    "scratch buffer {k} of {} (NTT plans hold one)",
                    plan.schedule
                ))),
            }
        };
        let buffers = plan.schedule.kernel_buffers(in_place);
        // Resolve every address before anything is queued.
        let addresses = buffers
            .iter()
            .map(|&(a, b)| Ok((address(a)?, address(b)?)))
            .collect::<Result<Vec<_>>>()?;
        if addresses.len() != plan.passes.len() {
            return Err(Error::Driver(format!(
                "{} kernels and {} buffer pairs in {}",
                plan.passes.len(),
                addresses.len(),
                plan.schedule
            )));
        }
        let moduli = self.moduli.device_address(stream);
        let factor_limbs = factor.map(|(_, k)| k.limbs.device_address(stream));
        for (index, (pass, (from, to))) in plan.passes.iter().zip(addresses).enumerate() {
            let cfg = LaunchConfig {
                grid_dim: (pass.blocks, 1, 1),
                block_dim: (pass.threads, 1, 1),
                shared_mem_bytes: pass.shared_bytes,
            };
            let tables = pass.tables.device_address(stream);
            let mut args = KernelArgs::new();
            args.arg(&from).arg(&to).arg(&tables);
            let second_tables;
            if let Some((t, geometry)) = &pass.second {
                second_tables = t.device_address(stream);
                args.arg(&second_tables)
                    .arg(&moduli)
                    .arg(&pass.geometry)
                    .arg(geometry);
            } else {
                args.arg(&moduli).arg(&pass.geometry);
            }
            let mut function = &pass.function;
            if let (0, Some((address, kernel)), Some(limbs)) = (index, &factor, &factor_limbs) {
                args.arg(address).arg(limbs);
                function = &kernel.function;
            }
            // SAFETY: the arguments match the kernel's signature (input and output words of the
            // plan's type, each holding the batch; the pass's tables (a fused kernel: both
            // passes') and the moduli; the geometry (both) by value; a factor kernel (the first
            // only): the factor, holding the batch, and its limbs' constants). A pass addresses
            // only elements of the batch, whose buffers were checked to hold exactly `len` words.
            unsafe { args.launch(stream, function, cfg, self.dependent_launch) }?;
        }
        Ok(())
    }
}
