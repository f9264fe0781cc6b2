//! Executable GPU plans: a schedule of passes, each pass's compiled kernels and twiddle tables,
//! and the plan's scratch memory.

use super::buffer::DeviceBuffer;
use super::launch::KernelArgs;
use super::module_cache::ModuleOrigin;
use super::runtime::Gpu;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::kernels::KernelSource;
use crate::plan::schedule::{Buffer, PassKernel, Schedule};
use crate::plan::strided_pass::{StridedPass, MAX_ITEM_DIMS};
use crate::plan::twiddles::stage_twiddles_stored;
use crate::plan::{plan_c2c_schedule, Direction, PlanOptions, Precision, Recipe, Shape};
use cudarc::driver::sys::CUfunction_attribute;
use cudarc::driver::{CudaFunction, CudaSlice, CudaStream, DevicePtr, DeviceRepr, LaunchConfig};
use half::{bf16, f16};
use num_complex::Complex;
use std::sync::Arc;
use std::time::Instant;

/// Device memory the caller owns, for [`GpuPlan::execute_raw`]: `len` elements of the plan's
/// precision from `address`.
///
/// ```
/// let b = tensorfft::RawBuffer { address: 0x7f00_0000_0000, len: 1024 };
/// assert_eq!(b.len, 1024);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawBuffer {
    /// Device address of element 0.
    pub address: u64,
    /// Elements addressable from `address`.
    pub len: usize,
}

impl RawBuffer {
    /// One past the last byte, refused when it overflows.
    fn end(&self, element_bytes: usize) -> Result<u64> {
        (self.len as u64)
            .checked_mul(element_bytes as u64)
            .and_then(|n| self.address.checked_add(n))
            .ok_or_else(|| {
                Error::InvalidSize(format!(
                    "{} elements from {:#x} leave the address space",
                    self.len, self.address
                ))
            })
    }

    /// Refuses a null address or one that is not 16-byte aligned (the kernels' vector accesses).
    pub(crate) fn check_aligned(&self, side: &str) -> Result<()> {
        if self.address == 0 || !self.address.is_multiple_of(16) {
            return Err(Error::unsupported(
                format!("{side} at {:#x}, not 16-byte aligned", self.address),
                "buffers at 16-byte aligned addresses (as CUDA, PyTorch and CuPy allocate them)",
            ));
        }
        Ok(())
    }

    /// Whether the byte ranges of two buffers intersect.
    pub(crate) fn overlaps(&self, other: &RawBuffer, element_bytes: usize) -> Result<bool> {
        Ok(self.address < other.end(element_bytes)? && other.address < self.end(element_bytes)?)
    }
}

/// How long plan creation took, and whether NVRTC ran.
///
/// ```no_run
/// # let gpu = tensorfft::Gpu::new(0).unwrap();
/// let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]), tensorfft::Precision::F32).unwrap();
/// println!("{:.1} ms ({:?})", plan.creation().ms, plan.creation().origin);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PlanCreation {
    /// Wall-clock milliseconds from planning to loaded kernels.
    pub ms: f64,
    /// Where the kernel module came from.
    pub origin: ModuleOrigin,
    /// Whether the plan took a tuning other than the caller's from the handle's wisdom
    /// ([`Gpu::set_wisdom`]; entries recording that the default wins leave it false).
    pub from_wisdom: bool,
}

/// A batched 1D, 2D or 3D complex-to-complex transform on one GPU: create once, execute many
/// times. Its [`Schedule`] of passes is launched on the plan's stream.
///
/// Dense buffers hold exactly the product of the extents times the batch; buffers of a strided
/// layout at least its extent ([`Schedule::input_extent`]). Any other buffer, or a buffer of
/// another precision, is refused with an error before anything is queued, leaving it untouched.
///
/// ```no_run
/// use num_complex::Complex;
/// use tensorfft::{Gpu, Normalization, PlanOptions, Precision, Shape};
/// # fn main() -> tensorfft::Result<()> {
/// let gpu = Gpu::new(0)?;
/// let opts = PlanOptions { normalization: Normalization::InverseByN, ..Default::default() };
/// let plan = gpu.plan_c2c_with(&Shape::new([4096]).batch(32), Precision::F32, &opts)?;
/// let x: Vec<Complex<f32>> = (0..4096 * 32).map(|i| Complex::new((i % 7) as f32, 0.0)).collect();
/// let mut data = gpu.upload(&x)?;
/// plan.forward(&mut data)?;
/// plan.inverse(&mut data)?;
/// let back = gpu.download(&data)?;
/// assert!((back[3].re - x[3].re).abs() < 1e-4);
/// # Ok(()) }
/// ```
pub struct GpuPlan {
    gpu: Gpu,
    schedule: Schedule,
    passes: Vec<GpuPass>,
    /// Scratch buffers of the schedule, each as large as the whole batch.
    scratch: Vec<CudaSlice<u8>>,
    /// The stream the passes are queued on (the handle's stream unless the caller sets one).
    stream: Arc<CudaStream>,
    creation: PlanCreation,
    /// Passes launch as programmatic dependent launches ([`crate::Tuning::dependent_launch`]).
    dependent_launch: bool,
}

/// Whether a pass's (first) kernel stores its last stage straight to device memory: the
/// single-pass kernels where their recipe says so, strided passes that do not stage their
/// stores, cluster passes never (their second pass's table is laid out separately).
fn stores_directly(kernel: &PassKernel) -> bool {
    match kernel {
        PassKernel::SinglePass { recipe, .. } => recipe.single_pass_stores_directly(),
        PassKernel::Strided(sp) => !sp.staged_out(),
        PassKernel::Cluster(_) => false,
    }
}

/// One pass on the device: its kernels, twiddle tables and launch shape.
struct GpuPass {
    forward_fn: CudaFunction,
    inverse_fn: CudaFunction,
    /// The in-block stages' twiddles.
    twiddles: TwiddleTable,
    /// Strided passes: the four-step twiddle's high table followed by its low table.
    pass_twiddles: Option<TwiddleTable>,
    /// Cluster passes: the second pass's stage twiddles and four-step twiddle tables.
    second: Option<(TwiddleTable, TwiddleTable)>,
    /// Whether the kernel copies its input in 16-byte pieces (a cluster pass's landing buffer),
    /// so the input address must be 16-byte aligned.
    aligned_input: bool,
    launch: PassLaunch,
    threads: u32,
    shared_bytes: u32,
    /// Blocks the device keeps resident at once (resident blocks per SM times SMs).
    max_grid: usize,
}

/// What differs between the launches of the two kernel templates.
enum PassLaunch {
    /// The single-pass kernel over `batch` transforms, in tiles of `per_block`.
    SinglePass {
        batch: usize,
        per_block: usize,
        persistent: bool,
    },
    /// The strided-pass kernel over `tiles` tiles: one block each, or a persistent grid for
    /// gathered (software-pipelined) tiles.
    Strided {
        geometry: PassGeometry,
        tiles: usize,
        persistent: bool,
    },
    /// The cluster kernel: `groups` groups of transforms, one cluster of `cluster` blocks each,
    /// or (`persistent`) the resident clusters looping over them.
    Cluster {
        first: PassGeometry,
        second: PassGeometry,
        groups: usize,
        cluster: usize,
        persistent: bool,
    },
}

/// A twiddle table on the device: a stage table in the kernel's compute precision, or a pass
/// table (always f64).
enum TwiddleTable {
    F32(DeviceBuffer<Complex<f32>>),
    F64(DeviceBuffer<Complex<f64>>),
    /// Packed half arithmetic: entry `2p` holds the real parts of values `2p` and `2p + 1` of
    /// the table, entry `2p + 1` their imaginary parts (8 bytes per pair of butterflies).
    F16Pairs(DeviceBuffer<Complex<f16>>),
    /// The same for packed bf16x2 arithmetic.
    BF16Pairs(DeviceBuffer<Complex<half::bf16>>),
}

impl TwiddleTable {
    fn device_address(&self, stream: &cudarc::driver::CudaStream) -> u64 {
        match self {
            TwiddleTable::F32(t) => t.device_address(stream),
            TwiddleTable::F64(t) => t.device_address(stream),
            TwiddleTable::F16Pairs(t) => t.device_address(stream),
            TwiddleTable::BF16Pairs(t) => t.device_address(stream),
        }
    }
}

/// The run-time geometry of a strided pass, laid out as `PassGeometry` in `strided_pass.cuh`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct PassGeometry {
    count: [u64; MAX_ITEM_DIMS],
    in_stride: [u64; MAX_ITEM_DIMS],
    out_stride: [u64; MAX_ITEM_DIMS],
    sample_in: u64,
    sample_out: u64,
    items: u64,
    tw_mask: u64,
    tw_lo_offset: u64,
    tw_mid_offset: u64,
    tw_dim: i32,
    tw_lo_bits: i32,
}

// SAFETY: a plain `repr(C)` struct of integers, passed by value as a kernel parameter whose C++
// declaration has the same fields in the same order.
unsafe impl DeviceRepr for PassGeometry {}

impl PassGeometry {
    fn of(pass: &StridedPass) -> Self {
        let mut g = PassGeometry {
            count: [1; MAX_ITEM_DIMS],
            in_stride: [0; MAX_ITEM_DIMS],
            out_stride: [0; MAX_ITEM_DIMS],
            sample_in: pass.sample_stride_in as u64,
            sample_out: pass.sample_stride_out as u64,
            items: pass.items() as u64,
            tw_mask: 0,
            tw_lo_offset: 0,
            tw_mid_offset: 0,
            tw_dim: -1,
            tw_lo_bits: 0,
        };
        for (d, dim) in pass.dims.iter().enumerate() {
            g.count[d] = dim.count as u64;
            g.in_stride[d] = dim.in_stride as u64;
            g.out_stride[d] = dim.out_stride as u64;
        }
        if let Some(t) = pass.twiddle {
            g.tw_mask = t.root as u64 - 1;
            let levels = t.levels(pass.twiddle_levels());
            g.tw_lo_offset = levels.offset(0) as u64;
            g.tw_mid_offset = if levels.count == 3 {
                levels.offset(1) as u64
            } else {
                0
            };
            g.tw_dim = t.dim as i32;
            g.tw_lo_bits = levels.bits as i32;
        }
        g
    }
}

impl Gpu {
    /// Plans a batched 1D, 2D or 3D complex-to-complex transform with default options.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let plan = gpu.plan_c2c(&tensorfft::Shape::new([4096]).batch(32768), tensorfft::Precision::F32).unwrap();
    /// # let _ = plan;
    /// ```
    pub fn plan_c2c(&self, shape: &Shape, precision: Precision) -> Result<GpuPlan> {
        self.plan_c2c_with(shape, precision, &PlanOptions::default())
    }

    /// Plans a batched 1D, 2D or 3D complex-to-complex transform with `options`. With wisdom
    /// set ([`Gpu::set_wisdom`]) an entry for this device and problem may choose the launch
    /// ([`crate::Wisdom::options_for`]; [`PlanCreation::from_wisdom`] says whether it did).
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let opts = tensorfft::PlanOptions::default();
    /// let plan = gpu.plan_c2c_with(&tensorfft::Shape::new([64]), tensorfft::Precision::F16, &opts).unwrap();
    /// # let _ = plan;
    /// ```
    pub fn plan_c2c_with(
        &self,
        shape: &Shape,
        precision: Precision,
        options: &PlanOptions,
    ) -> Result<GpuPlan> {
        // Wisdom (`Gpu::set_wisdom`) is advice on how a plan runs: an entry whose tuning the
        // planner or this device refuses, or whose plan has a larger error bound than the
        // caller's options give (a hand-written entry may ask for other arithmetic), leaves the
        // caller's options to decide. Other failures (memory, driver, NVRTC) are reported.
        let advised = self
            .wisdom()
            .and_then(|w| w.options_for(&self.info().name, shape, precision, options));
        if let Some(tuned) = advised {
            match self.plan_c2c_unadvised(shape, precision, &tuned) {
                Ok(mut plan) => {
                    plan.creation.from_wisdom = true;
                    return Ok(plan);
                }
                Err(Error::Unsupported { .. } | Error::DeviceLimit(_) | Error::InvalidSize(_)) => {}
                Err(e) => return Err(e),
            }
        }
        self.plan_c2c_unadvised(shape, precision, options)
    }

    /// Compiles the kernels of every pass of each `(shape, precision, options)` plan into the
    /// disk cache on all cores, without loading them, so that planning many of them (`tfft
    /// tune`'s variants, a sweep) afterwards takes them from the cache. Plans the planner
    /// refuses are skipped; returns how many kernels NVRTC compiled.
    ///
    /// ```no_run
    /// use tensorfft::{PlanOptions, Precision, Shape};
    /// let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let plans = [(Shape::new([1024, 1024]), Precision::F32, PlanOptions::default())];
    /// gpu.precompile_c2c(&plans).unwrap();
    /// ```
    pub fn precompile_c2c(&self, plans: &[(Shape, Precision, PlanOptions)]) -> Result<usize> {
        let mut kernels: Vec<(String, String)> = Vec::new();
        for (shape, precision, options) in plans {
            let Ok(schedule) = plan_c2c_schedule(shape, *precision, options) else {
                continue;
            };
            for pass in &schedule.passes {
                let k = KernelSource::pass(&pass.kernel);
                if !kernels.iter().any(|(source, _)| *source == k.source) {
                    kernels.push((k.source, k.stem));
                }
            }
        }
        self.modules()
            .precompile_all(&kernels, self.arch(), self.nvrtc_version())
    }

    /// [`Gpu::plan_c2c_with`] without the handle's wisdom.
    fn plan_c2c_unadvised(
        &self,
        shape: &Shape,
        precision: Precision,
        options: &PlanOptions,
    ) -> Result<GpuPlan> {
        let start = Instant::now();
        // Devices without thread-block clusters (before sm_90) run the two passes unfused unless
        // the caller asked for clusters (then the plan is refused below).
        let clusters = self.info().cluster_launch && self.info().compute_capability >= (9, 0);
        let mut options = *options;
        if !clusters && options.tuning.cluster_blocks.is_none() {
            options.tuning.cluster_blocks = Some(0);
        }
        let fused = |o: &PlanOptions| {
            plan_c2c_schedule(shape, precision, o).is_ok_and(|s| {
                s.passes
                    .iter()
                    .any(|p| matches!(p.kernel, PassKernel::Cluster(_)))
            })
        };
        match self.build_plan(shape, precision, &options, clusters, start) {
            // A cluster the device cannot hold (shared memory, occupancy) falls back to two
            // passes, unless the caller asked for clusters; other refusals stand.
            Err(Error::DeviceLimit(_))
                if options.tuning.cluster_blocks.is_none() && fused(&options) =>
            {
                options.tuning.cluster_blocks = Some(0);
                self.build_plan(shape, precision, &options, clusters, start)
            }
            built => built,
        }
    }

    /// Plans, compiles and loads every pass of a plan.
    fn build_plan(
        &self,
        shape: &Shape,
        precision: Precision,
        options: &PlanOptions,
        clusters: bool,
        start: Instant,
    ) -> Result<GpuPlan> {
        let schedule = plan_c2c_schedule(shape, precision, options)?;
        let cc = self.info().compute_capability;
        if cc < (8, 0) && schedule.needs_sm80() {
            return Err(Error::unsupported(
                format!(
                    "{precision:?} with {:?} on compute capability {}.{} (bf16 conversions or m16n8k16 tensor-core products)",
                    options.tuning, cc.0, cc.1
                ),
                "sm_80 or newer for BF16 and for tensor-core stages (F16 on the tensor cores, F32Split); F16, F32 and F64 on the CUDA cores run on sm_75",
            ));
        }
        let limit = self.info().shared_per_block_optin.max(0) as usize;
        let mut passes = Vec::with_capacity(schedule.passes.len());
        let mut origin = ModuleOrigin::Memory;
        for pass in &schedule.passes {
            let smem = pass.kernel.shared_bytes();
            if smem > limit {
                return Err(Error::DeviceLimit(format!(
                    "a pass of {schedule} needs {smem} bytes of shared memory per block; the device allows {limit}"
                )));
            }
            let mut second = None;
            let aligned_input = matches!(&pass.kernel, PassKernel::Cluster(c) if c.landing);
            let (kernel, launch, pass_twiddles) = match &pass.kernel {
                PassKernel::SinglePass { recipe, batch } => (
                    KernelSource::single_pass(recipe),
                    PassLaunch::SinglePass {
                        batch: *batch,
                        per_block: recipe.transforms_per_block,
                        persistent: recipe.persistent,
                    },
                    None,
                ),
                PassKernel::Strided(sp) => (
                    KernelSource::strided_pass(sp),
                    PassLaunch::Strided {
                        geometry: PassGeometry::of(sp),
                        tiles: sp.tiles(),
                        persistent: sp.staged_in(),
                    },
                    Some(self.pass_twiddle_table(sp)?),
                ),
                PassKernel::Cluster(cp) => {
                    if !clusters {
                        return Err(Error::unsupported(
                            format!("thread-block clusters on {} ({schedule})", self.arch()),
                            "sm_90 and newer for cluster passes (or Tuning::cluster_blocks = Some(0))",
                        ));
                    }
                    second = Some((
                        self.stage_twiddle_table(&cp.second.inner, !cp.second.staged_out())?,
                        self.pass_twiddle_table(&cp.second)?,
                    ));
                    (
                        KernelSource::cluster_pass(cp),
                        PassLaunch::Cluster {
                            first: PassGeometry::of(&cp.first),
                            second: PassGeometry::of(&cp.second),
                            groups: cp.groups(),
                            cluster: cp.cluster,
                            persistent: cp.persistent,
                        },
                        Some(self.pass_twiddle_table(&cp.first)?),
                    )
                }
            };
            let (module, o) = self.modules().get_or_compile(
                &kernel.source,
                &kernel.stem,
                self.arch(),
                self.nvrtc_version(),
            )?;
            // The slowest source of any pass describes the plan (compiled > disk > memory).
            origin = match (origin, o) {
                (ModuleOrigin::Compiled, _) | (_, ModuleOrigin::Compiled) => ModuleOrigin::Compiled,
                (ModuleOrigin::Disk, _) | (_, ModuleOrigin::Disk) => ModuleOrigin::Disk,
                _ => ModuleOrigin::Memory,
            };
            let forward_fn = module.load_function(&kernel.entry(Direction::Forward))?;
            let inverse_fn = module.load_function(&kernel.entry(Direction::Inverse))?;
            let mut resident = u32::MAX;
            for f in [&forward_fn, &inverse_fn] {
                f.set_attribute(
                    CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    smem as i32,
                )?;
                resident = resident.min(f.occupancy_max_active_blocks_per_multiprocessor(
                    kernel.threads_per_block as u32,
                    smem,
                    None,
                )?);
            }
            if resident == 0 {
                return Err(Error::DeviceLimit(format!(
                    "a pass of {schedule} cannot be resident on a multiprocessor"
                )));
            }
            // Cluster passes loop over groups on the clusters that fit the device at once.
            let mut max_grid = resident as usize * self.info().multiprocessors.max(1) as usize;
            if let PassLaunch::Cluster { cluster, .. } = &launch {
                let cfg = LaunchConfig {
                    grid_dim: (*cluster as u32, 1, 1),
                    block_dim: (kernel.threads_per_block as u32, 1, 1),
                    shared_mem_bytes: smem as u32,
                };
                let clusters = forward_fn.occupancy_max_active_clusters(cfg, self.stream())?;
                if clusters == 0 {
                    return Err(Error::DeviceLimit(format!(
                        "no cluster of a pass of {schedule} can be resident"
                    )));
                }
                max_grid = clusters as usize * cluster;
            }
            passes.push(GpuPass {
                forward_fn,
                inverse_fn,
                twiddles: self
                    .stage_twiddle_table(pass.kernel.recipe(), stores_directly(&pass.kernel))?,
                pass_twiddles,
                second,
                aligned_input,
                launch,
                threads: kernel.threads_per_block as u32,
                shared_bytes: smem as u32,
                max_grid,
            });
        }
        let scratch_bytes = schedule
            .len()
            .checked_mul(precision.complex_bytes())
            .ok_or_else(|| Error::InvalidSize(format!("{schedule} overflows usize bytes")))?;
        let owned_scratch = if options.external_scratch {
            0
        } else {
            schedule.scratch_buffers()
        };
        let scratch = (0..owned_scratch)
            .map(|_| self.stream().alloc_zeros::<u8>(scratch_bytes))
            .collect::<std::result::Result<Vec<_>, _>>()?;
        self.synchronize()?;
        Ok(GpuPlan {
            gpu: self.clone(),
            schedule,
            passes,
            scratch,
            stream: self.stream().clone(),
            creation: PlanCreation {
                ms: start.elapsed().as_secs_f64() * 1e3,
                origin,
                from_wisdom: false,
            },
            dependent_launch: self.dependent_launch(options.tuning.dependent_launch),
        })
    }

    /// The in-block stages' twiddle table of `recipe`, in its compute precision, for a kernel
    /// whose last stage stores straight to device memory or not (`direct_store`).
    fn stage_twiddle_table(&self, recipe: &Recipe, direct_store: bool) -> Result<TwiddleTable> {
        let mut table = stage_twiddles_stored(recipe, direct_store);
        if table.is_empty() {
            // Single-stage plans read no twiddles; keep a valid pointer anyway.
            table.push(Complex::new(1.0, 0.0));
        }
        Ok(match recipe.precision {
            Precision::F64 => TwiddleTable::F64(self.upload(&table)?),
            _ if recipe.half_arithmetic => {
                if table.len() % 2 == 1 {
                    table.push(Complex::new(1.0, 0.0));
                }
                if recipe.precision == Precision::BF16 {
                    TwiddleTable::BF16Pairs(self.upload(&twiddle_pairs(&table, bf16::from_f64))?)
                } else {
                    TwiddleTable::F16Pairs(self.upload(&twiddle_pairs(&table, f16::from_f64))?)
                }
            }
            _ => TwiddleTable::F32(self.upload(&to_f32(&table))?),
        })
    }

    /// The four-step twiddle tables of a strided pass (top level first, two or three levels:
    /// [`StridedPass::twiddle_levels`]), in f64 whatever the precision (the kernels form each
    /// twiddle from a product of the levels' entries in double; 2-byte data steps between a
    /// butterfly's samples in f32); one unit entry when the pass has no twiddle.
    fn pass_twiddle_table(&self, pass: &StridedPass) -> Result<TwiddleTable> {
        Ok(TwiddleTable::F64(self.upload(&pass.twiddle_table())?))
    }
}

/// A stage twiddle table in pairs for packed half arithmetic: entry `2p` holds the real parts of
/// twiddles `2p` and `2p + 1` rounded by `round`, entry `2p + 1` their imaginary parts.
fn twiddle_pairs<H: Copy>(table: &[Complex<f64>], round: fn(f64) -> H) -> Vec<Complex<H>> {
    table
        .chunks_exact(2)
        .flat_map(|w| {
            [
                Complex::new(round(w[0].re), round(w[1].re)),
                Complex::new(round(w[0].im), round(w[1].im)),
            ]
        })
        .collect()
}

fn to_f32(table: &[Complex<f64>]) -> Vec<Complex<f32>> {
    table
        .iter()
        .map(|w| Complex::new(w.re as f32, w.im as f32))
        .collect()
}

impl GpuPlan {
    /// The schedule of passes this plan runs.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([1 << 20]), tensorfft::Precision::F32).unwrap();
    /// println!("{}", plan.schedule());
    /// ```
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The recipe of the first pass's kernel (the whole plan for single-pass 1D plans).
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]), tensorfft::Precision::F32).unwrap();
    /// println!("{}", plan.recipe());
    /// ```
    pub fn recipe(&self) -> &Recipe {
        self.schedule.passes[0].kernel.recipe()
    }

    /// Whether the passes launch as programmatic dependent launches
    /// ([`crate::Tuning::dependent_launch`]; on by default on sm_90 and newer).
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let plan = gpu.plan_c2c(&tensorfft::Shape::new([1 << 20]), tensorfft::Precision::F32).unwrap();
    /// assert_eq!(plan.dependent_launch(), gpu.info().compute_capability >= (9, 0));
    /// ```
    pub fn dependent_launch(&self) -> bool {
        self.dependent_launch
    }

    /// Bytes of scratch memory the plan's executions use (zero for dense plans whose passes all
    /// run in place, such as one pass per axis; up to two batch-sized buffers otherwise): held by
    /// the plan, or supplied by the caller when the plan was created with
    /// [`PlanOptions::external_scratch`].
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let plan = gpu.plan_c2c(&tensorfft::Shape::new([1 << 20]), tensorfft::Precision::F32).unwrap();
    /// assert_eq!(plan.scratch_bytes(), 8 << 20);
    /// ```
    pub fn scratch_bytes(&self) -> usize {
        self.schedule.scratch_elements() * self.schedule.precision.complex_bytes()
    }

    /// Elements of caller-supplied scratch an execution needs (see
    /// [`GpuPlan::execute_into_with_scratch`]).
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let plan = gpu.plan_c2c(&tensorfft::Shape::new([1 << 22]), tensorfft::Precision::F32).unwrap();
    /// assert_eq!(plan.scratch_len(), 1 << 22);
    /// ```
    pub fn scratch_len(&self) -> usize {
        self.schedule.scratch_elements()
    }

    /// Queues this plan's executions on `stream` (as `cufftSetStream`), so plans on different
    /// streams run concurrently and a plan can sit in the caller's pipeline. Buffers must be
    /// ready on that stream; ordering against other streams is the caller's. The default is the
    /// [`Gpu`]'s stream. A plan's own scratch serves one execution at a time: executions of one
    /// plan must not overlap on different streams (use caller scratch, or a plan per stream).
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let mut plan = gpu.plan_c2c(&tensorfft::Shape::new([4096]).batch(64), tensorfft::Precision::F32).unwrap();
    /// plan.set_stream(gpu.new_stream().unwrap());
    /// let mut x = gpu.alloc::<num_complex::Complex<f32>>(4096 * 64).unwrap();
    /// plan.forward(&mut x).unwrap();
    /// plan.stream().synchronize().unwrap();
    /// ```
    pub fn set_stream(&mut self, stream: Arc<CudaStream>) {
        self.stream = stream;
    }

    /// The stream executions are queued on.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]), tensorfft::Precision::F32).unwrap();
    /// plan.stream().synchronize().unwrap();
    /// ```
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Out-of-place transform with caller-supplied scratch of [`GpuPlan::scratch_len`] elements
    /// (its contents are overwritten). A plan that holds scratch of its own uses the given
    /// buffer instead.
    ///
    /// ```no_run
    /// use tensorfft::{Direction, PlanOptions, Precision, Shape};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let opts = PlanOptions { external_scratch: true, ..Default::default() };
    /// let plan = gpu.plan_c2c_with(&Shape::new([1 << 22]), Precision::F32, &opts).unwrap();
    /// let x = gpu.alloc::<num_complex::Complex<f32>>(1 << 22).unwrap();
    /// let mut y = gpu.alloc::<num_complex::Complex<f32>>(1 << 22).unwrap();
    /// let mut work = gpu.alloc::<num_complex::Complex<f32>>(plan.scratch_len().max(1)).unwrap();
    /// plan.execute_into_with_scratch(Direction::Forward, &x, &mut y, &mut work).unwrap();
    /// ```
    pub fn execute_into_with_scratch<T: Element>(
        &self,
        dir: Direction,
        input: &DeviceBuffer<T>,
        output: &mut DeviceBuffer<T>,
        scratch: &mut DeviceBuffer<T>,
    ) -> Result<()> {
        self.check_into::<T>(input.len(), output.len())?;
        let stream = &self.stream;
        let work = self.check_scratch(scratch, stream)?;
        let src = input.device_address(stream);
        let dst = output.device_address_mut(stream);
        self.run_passes(dir, src, dst, false, Some(work))
    }

    /// In-place transform with caller-supplied scratch (see
    /// [`GpuPlan::execute_into_with_scratch`]).
    ///
    /// ```no_run
    /// use tensorfft::{Direction, PlanOptions, Precision, Shape};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let opts = PlanOptions { external_scratch: true, ..Default::default() };
    /// let plan = gpu.plan_c2c_with(&Shape::new([1 << 20]), Precision::F32, &opts).unwrap();
    /// let mut x = gpu.alloc::<num_complex::Complex<f32>>(1 << 20).unwrap();
    /// let mut work = gpu.alloc::<num_complex::Complex<f32>>(plan.scratch_len().max(1)).unwrap();
    /// plan.execute_in_place_with_scratch(Direction::Inverse, &mut x, &mut work).unwrap();
    /// ```
    pub fn execute_in_place_with_scratch<T: Element>(
        &self,
        dir: Direction,
        data: &mut DeviceBuffer<T>,
        scratch: &mut DeviceBuffer<T>,
    ) -> Result<()> {
        self.check_in_place::<T>(data.len())?;
        let work = self.check_scratch(scratch, &self.stream)?;
        let ptr = data.device_address_mut(&self.stream);
        self.run_passes(dir, ptr, ptr, true, Some(work))
    }

    /// The device address of caller scratch, after checking its type and length.
    fn check_scratch<T: Element>(
        &self,
        scratch: &mut DeviceBuffer<T>,
        stream: &CudaStream,
    ) -> Result<u64> {
        if T::PRECISION != self.schedule.precision.storage() {
            return Err(Error::PrecisionMismatch {
                plan: self.schedule.precision,
                buffer: T::PRECISION,
            });
        }
        let need = self.scratch_len();
        if scratch.len() < need {
            return Err(Error::LengthMismatch {
                expected: need,
                actual: scratch.len(),
            });
        }
        Ok(scratch.device_address_mut(stream))
    }

    /// Number of transforms per execution.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]).batch(3), tensorfft::Precision::F32).unwrap();
    /// assert_eq!(plan.batch(), 3);
    /// ```
    pub fn batch(&self) -> usize {
        self.schedule.batch
    }

    /// Elements a buffer for this plan holds (the product of the dimensions times the batch).
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]).batch(3), tensorfft::Precision::F32).unwrap();
    /// assert_eq!(plan.len(), 768);
    /// ```
    pub fn len(&self) -> usize {
        self.schedule.len()
    }

    /// Always false: plans have at least one element.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]), tensorfft::Precision::F32).unwrap();
    /// assert!(!plan.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Registers per thread, local-memory (spill) bytes per thread, and resident blocks per
    /// multiprocessor of the first pass's forward kernel.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]), tensorfft::Precision::F32).unwrap();
    /// let (regs, spill, blocks) = plan.kernel_resources().unwrap();
    /// assert!(regs > 0 && spill == 0 && blocks > 0);
    /// ```
    pub fn kernel_resources(&self) -> Result<(i32, i32, u32)> {
        let pass = &self.passes[0];
        let f = &pass.forward_fn;
        let blocks = f.occupancy_max_active_blocks_per_multiprocessor(
            pass.threads,
            pass.shared_bytes as usize,
            None,
        )?;
        Ok((f.num_regs()?, f.local_size_bytes()?, blocks))
    }

    /// Time spent creating the plan.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]), tensorfft::Precision::F32).unwrap();
    /// assert!(plan.creation().ms >= 0.0);
    /// ```
    pub fn creation(&self) -> PlanCreation {
        self.creation
    }

    /// In-place forward transform.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]), tensorfft::Precision::F32).unwrap();
    /// let mut d = gpu.alloc::<num_complex::Complex<f32>>(256).unwrap();
    /// plan.forward(&mut d).unwrap();
    /// ```
    pub fn forward<T: Element>(&self, data: &mut DeviceBuffer<T>) -> Result<()> {
        self.execute_in_place(Direction::Forward, data)
    }

    /// In-place inverse transform (scaled as the plan's [`crate::Normalization`] says).
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]), tensorfft::Precision::F32).unwrap();
    /// let mut d = gpu.alloc::<num_complex::Complex<f32>>(256).unwrap();
    /// plan.inverse(&mut d).unwrap();
    /// ```
    pub fn inverse<T: Element>(&self, data: &mut DeviceBuffer<T>) -> Result<()> {
        self.execute_in_place(Direction::Inverse, data)
    }

    /// Out-of-place forward transform.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]), tensorfft::Precision::F32).unwrap();
    /// let x = gpu.alloc::<num_complex::Complex<f32>>(256).unwrap();
    /// let mut y = gpu.alloc::<num_complex::Complex<f32>>(256).unwrap();
    /// plan.forward_into(&x, &mut y).unwrap();
    /// ```
    pub fn forward_into<T: Element>(
        &self,
        input: &DeviceBuffer<T>,
        output: &mut DeviceBuffer<T>,
    ) -> Result<()> {
        self.execute_into(Direction::Forward, input, output)
    }

    /// Out-of-place inverse transform.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]), tensorfft::Precision::F32).unwrap();
    /// let x = gpu.alloc::<num_complex::Complex<f32>>(256).unwrap();
    /// let mut y = gpu.alloc::<num_complex::Complex<f32>>(256).unwrap();
    /// plan.inverse_into(&x, &mut y).unwrap();
    /// ```
    pub fn inverse_into<T: Element>(
        &self,
        input: &DeviceBuffer<T>,
        output: &mut DeviceBuffer<T>,
    ) -> Result<()> {
        self.execute_into(Direction::Inverse, input, output)
    }

    /// Forward transform of host data: upload, transform, download.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([4]), tensorfft::Precision::F32).unwrap();
    /// let y = plan.forward_host(&[num_complex::Complex::new(1.0f32, 0.0); 4]).unwrap();
    /// assert_eq!(y[0].re, 4.0);
    /// ```
    pub fn forward_host<T: Element>(&self, input: &[T]) -> Result<Vec<T>> {
        self.host(Direction::Forward, input)
    }

    /// Inverse transform of host data.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([4]), tensorfft::Precision::F32).unwrap();
    /// let y = plan.inverse_host(&[num_complex::Complex::new(1.0f32, 0.0); 4]).unwrap();
    /// assert_eq!(y[0].re, 4.0);
    /// ```
    pub fn inverse_host<T: Element>(&self, input: &[T]) -> Result<Vec<T>> {
        self.host(Direction::Inverse, input)
    }

    /// Transform in `dir` from `input` to `output`.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]), tensorfft::Precision::F32).unwrap();
    /// let x = gpu.alloc::<num_complex::Complex<f32>>(256).unwrap();
    /// let mut y = gpu.alloc::<num_complex::Complex<f32>>(256).unwrap();
    /// plan.execute_into(tensorfft::Direction::Inverse, &x, &mut y).unwrap();
    /// ```
    pub fn execute_into<T: Element>(
        &self,
        dir: Direction,
        input: &DeviceBuffer<T>,
        output: &mut DeviceBuffer<T>,
    ) -> Result<()> {
        self.check_into::<T>(input.len(), output.len())?;
        let stream = &self.stream;
        let src = input.device_address(stream);
        let dst = output.device_address_mut(stream);
        self.run_passes(dir, src, dst, false, None)
    }

    /// In-place transform in `dir`.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]), tensorfft::Precision::F32).unwrap();
    /// let mut x = gpu.alloc::<num_complex::Complex<f32>>(256).unwrap();
    /// plan.execute_in_place(tensorfft::Direction::Forward, &mut x).unwrap();
    /// ```
    pub fn execute_in_place<T: Element>(
        &self,
        dir: Direction,
        data: &mut DeviceBuffer<T>,
    ) -> Result<()> {
        self.check_in_place::<T>(data.len())?;
        let ptr = data.device_address_mut(&self.stream);
        self.run_passes(dir, ptr, ptr, true, None)
    }

    /// Transform between device memory the caller owns (a PyTorch or CuPy tensor, a buffer of
    /// another library), queued on the caller's `stream` (see [`Gpu::borrow_stream`]). Input and
    /// output at the same address run in place; scratch (at least [`GpuPlan::scratch_len`]
    /// elements) is required when the plan was created with
    /// [`PlanOptions::external_scratch`] and needs it, and replaces the plan's own otherwise.
    ///
    /// Refused before anything is queued: a null or not 16-byte aligned address, a side
    /// shorter than its layout's extent (dense sides: exactly the batch), input and output
    /// that overlap without being the same buffer, scratch that overlaps either, in-place
    /// execution of a plan whose layouts differ, missing scratch.
    ///
    /// # Safety
    ///
    /// Each [`RawBuffer`] must describe `len` elements of the plan's precision in device memory
    /// of this plan's context, alive and not used by other work until the transform queued on
    /// `stream` has finished; `stream` must belong to the plan's context.
    ///
    /// ```no_run
    /// use tensorfft::{Direction, Precision, Shape};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let plan = gpu.plan_c2c(&Shape::new([1024]).batch(8), Precision::F32).unwrap();
    /// let x = gpu.alloc::<num_complex::Complex<f32>>(1024 * 8).unwrap();
    /// let data = x.raw();
    /// // SAFETY: `x` holds 8192 complex f32 and outlives the synchronisation below.
    /// unsafe { plan.execute_raw(Direction::Forward, data, data, None, gpu.stream()) }.unwrap();
    /// gpu.synchronize().unwrap();
    /// ```
    pub unsafe fn execute_raw(
        &self,
        dir: Direction,
        input: RawBuffer,
        output: RawBuffer,
        scratch: Option<RawBuffer>,
        stream: &CudaStream,
    ) -> Result<()> {
        let bytes = self.schedule.precision.complex_bytes();
        for (side, b) in [
            ("input", Some(input)),
            ("output", Some(output)),
            ("scratch", scratch),
        ] {
            if let Some(b) = b {
                b.check_aligned(side)?;
                b.end(bytes)?;
            }
        }
        let in_place = input.address == output.address;
        let layout = &self.schedule.layout;
        Self::check_side(
            input.len,
            self.schedule.input_extent(),
            layout.input.is_some(),
        )?;
        if in_place {
            self.schedule.check_in_place()?;
            if input.len != output.len {
                return Err(Error::LengthMismatch {
                    expected: input.len,
                    actual: output.len,
                });
            }
        } else {
            Self::check_side(
                output.len,
                self.schedule.output_extent(),
                layout.output.is_some(),
            )?;
            if input.overlaps(&output, bytes)? {
                return Err(Error::InvalidSize(
                    "input and output overlap without being the same buffer".into(),
                ));
            }
        }
        let work = match scratch {
            Some(w) => {
                if w.len < self.scratch_len() {
                    return Err(Error::LengthMismatch {
                        expected: self.scratch_len(),
                        actual: w.len,
                    });
                }
                if w.overlaps(&input, bytes)? || w.overlaps(&output, bytes)? {
                    return Err(Error::InvalidSize(
                        "scratch overlaps the input or the output".into(),
                    ));
                }
                Some(w.address)
            }
            None => None,
        };
        self.run_passes_on(stream, dir, input.address, output.address, in_place, work)
    }

    fn host<T: Element>(&self, dir: Direction, input: &[T]) -> Result<Vec<T>> {
        self.check_in_place::<T>(input.len())?;
        let mut data = self.gpu.upload(input)?;
        self.execute_in_place(dir, &mut data)?;
        self.gpu.download(&data)
    }

    fn check_precision<T: Element>(&self) -> Result<()> {
        if T::PRECISION != self.schedule.precision.storage() {
            return Err(Error::PrecisionMismatch {
                plan: self.schedule.precision,
                buffer: T::PRECISION,
            });
        }
        Ok(())
    }

    /// A dense side needs exactly the batch's elements; a strided one at least its extent.
    fn check_side(len: usize, extent: usize, strided: bool) -> Result<()> {
        if len < extent || (!strided && len != extent) {
            return Err(Error::LengthMismatch {
                expected: extent,
                actual: len,
            });
        }
        Ok(())
    }

    fn check_into<T: Element>(&self, input: usize, output: usize) -> Result<()> {
        self.check_precision::<T>()?;
        let layout = &self.schedule.layout;
        Self::check_side(input, self.schedule.input_extent(), layout.input.is_some())?;
        Self::check_side(
            output,
            self.schedule.output_extent(),
            layout.output.is_some(),
        )
    }

    fn check_in_place<T: Element>(&self, len: usize) -> Result<()> {
        self.check_precision::<T>()?;
        let layout = &self.schedule.layout;
        self.schedule.check_in_place()?;
        Self::check_side(len, self.schedule.input_extent(), layout.input.is_some())
    }

    /// Launches every pass on the plan's stream, each from and to the buffers the schedule
    /// assigns; scratch is the plan's own, or the caller's (`work`, scratch buffers back to back).
    fn run_passes(
        &self,
        dir: Direction,
        src: u64,
        dst: u64,
        in_place: bool,
        work: Option<u64>,
    ) -> Result<()> {
        self.run_passes_on(&self.stream, dir, src, dst, in_place, work)
    }

    /// [`GpuPlan::run_passes`] on `stream`.
    fn run_passes_on(
        &self,
        stream: &CudaStream,
        dir: Direction,
        src: u64,
        dst: u64,
        in_place: bool,
        work: Option<u64>,
    ) -> Result<()> {
        let scratch: Vec<u64> = match work {
            Some(base) => {
                let bytes = (self.schedule.len() * self.schedule.precision.complex_bytes()) as u64;
                (0..self.schedule.scratch_buffers() as u64)
                    .map(|k| base + k * bytes)
                    .collect()
            }
            None => self
                .scratch
                .iter()
                .map(|s| {
                    let (ptr, _sync) = s.device_ptr(stream);
                    ptr
                })
                .collect(),
        };
        let needs_scratch = self
            .schedule
            .buffers(in_place)
            .iter()
            .any(|&(a, b)| matches!(a, Buffer::Scratch(_)) || matches!(b, Buffer::Scratch(_)));
        if needs_scratch && scratch.len() < self.schedule.scratch_buffers() {
            return Err(Error::ScratchRequired {
                elements: self.schedule.scratch_elements(),
            });
        }
        let address = |b: Buffer| -> Result<u64> {
            match b {
                Buffer::Input => Ok(src),
                Buffer::Output => Ok(dst),
                Buffer::Scratch(k) => scratch.get(k as usize).copied().ok_or_else(|| {
                    Error::Driver(format!("scratch buffer {k} of {} missing", self.schedule))
                }),
            }
        };
        let buffers = self.schedule.buffers(in_place);
        // Refuse before anything is queued, so a refused call leaves every buffer untouched.
        for (pass, &(from, _)) in self.passes.iter().zip(&buffers) {
            if pass.aligned_input && address(from)? % 16 != 0 {
                return Err(Error::unsupported(
                    format!("input at {:#x}, not 16-byte aligned, for a cluster pass with a landing buffer", address(from)?),
                    "16-byte aligned buffers (as every buffer tensorfft allocates), or Tuning::prefetch off",
                ));
            }
        }
        for (pass, (from, to)) in self.passes.iter().zip(buffers) {
            self.launch(stream, pass, dir, address(from)?, address(to)?)?;
        }
        Ok(())
    }

    fn launch(
        &self,
        stream: &CudaStream,
        pass: &GpuPass,
        dir: Direction,
        src: u64,
        dst: u64,
    ) -> Result<()> {
        let func = match dir {
            Direction::Forward => &pass.forward_fn,
            Direction::Inverse => &pass.inverse_fn,
        };
        // A persistent grid holds what is resident at once and loops; otherwise one block per
        // tile (one cluster per group), within the grid limit, in whole clusters.
        let grid = |units: usize, per_unit: usize, persistent: bool| {
            let cap = if persistent {
                pass.max_grid
            } else {
                i32::MAX as usize / per_unit * per_unit
            };
            units.saturating_mul(per_unit).min(cap)
        };
        let blocks = match &pass.launch {
            PassLaunch::SinglePass {
                batch,
                per_block,
                persistent,
            } => grid(batch.div_ceil(*per_block), 1, *persistent),
            // Gathered strided passes run a persistent, software-pipelined grid.
            PassLaunch::Strided {
                tiles, persistent, ..
            } => grid(*tiles, 1, *persistent),
            PassLaunch::Cluster {
                groups,
                cluster,
                persistent,
                ..
            } => grid(*groups, *cluster, *persistent),
        };
        let cfg = LaunchConfig {
            grid_dim: (blocks.min(i32::MAX as usize) as u32, 1, 1),
            block_dim: (pass.threads, 1, 1),
            shared_mem_bytes: pass.shared_bytes,
        };
        let tw = pass.twiddles.device_address(stream);
        let mut args = KernelArgs::new();
        args.arg(&src).arg(&dst).arg(&tw);
        let batch;
        let pass_tw;
        let twiddles_b;
        let pass_tw_second;
        match &pass.launch {
            PassLaunch::SinglePass { batch: b, .. } => {
                batch = *b as u64;
                args.arg(&batch);
            }
            PassLaunch::Strided { geometry, .. } => {
                pass_tw = pass
                    .pass_twiddles
                    .as_ref()
                    .map(|t| t.device_address(stream))
                    .unwrap_or(0);
                args.arg(&pass_tw).arg(geometry);
            }
            PassLaunch::Cluster { first, second, .. } => {
                let (tw_b, pass_tw_b) = pass.second.as_ref().ok_or_else(|| {
                    Error::Driver("cluster pass without its second pass's tables".into())
                })?;
                twiddles_b = tw_b.device_address(stream);
                pass_tw = pass
                    .pass_twiddles
                    .as_ref()
                    .map(|t| t.device_address(stream))
                    .unwrap_or(0);
                pass_tw_second = pass_tw_b.device_address(stream);
                args.arg(&twiddles_b)
                    .arg(&pass_tw)
                    .arg(&pass_tw_second)
                    .arg(first)
                    .arg(second);
            }
        }
        // SAFETY: the arguments match the kernel's signature (two element pointers of the plan's
        // storage type, or scratch of the batch's size; the stage twiddle table; then the batch,
        // or the four-step table and the pass geometry). The caller's buffers were checked to
        // hold the layout's extent, and a pass addresses only elements of its layout (or dense
        // intermediates in a dense output or in scratch); the launch shape is the pass's.
        unsafe { args.launch(stream, func, cfg, self.dependent_launch) }?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pass_root_power` of `strided_pass.cuh`, index for index, from the geometry the plan
    /// hands the kernel: every index inside the table, and the product of the CPU reference's
    /// entries in its order.
    fn kernel_power(
        geo: &PassGeometry,
        levels: u32,
        table: &[Complex<f64>],
        e: usize,
    ) -> Complex<f64> {
        let e = (e as u64 & geo.tw_mask) as usize;
        let bits = geo.tw_lo_bits as usize;
        let mask = (1usize << bits) - 1;
        let at = |i: usize| {
            assert!(
                i < table.len(),
                "index {i} past the table ({})",
                table.len()
            );
            table[i]
        };
        let lo = at(geo.tw_lo_offset as usize + (e & mask));
        if levels == 3 {
            let hi = at(e >> (2 * bits));
            let mid = at(geo.tw_mid_offset as usize + ((e >> bits) & mask));
            hi * mid * lo
        } else {
            at(e >> bits) * lo
        }
    }

    #[test]
    fn geometry_indexes_the_twiddle_levels_as_the_reference_multiplies_them() {
        // Last passes of f64 lengths whose roots split evenly and unevenly into three levels
        // (2^21: 7 bits each; 2^22, 2^25, 2^26: a shorter top level), and two-level ones.
        for (log_n, want_levels) in [(16, 2), (20, 2), (21, 3), (22, 3), (25, 3), (26, 3)] {
            let shape = Shape::new([1usize << log_n]);
            let s = plan_c2c_schedule(&shape, Precision::F64, &PlanOptions::default()).unwrap();
            let PassKernel::Strided(pass) = &s.passes.last().unwrap().kernel else {
                panic!("{s}")
            };
            let t = pass.twiddle.unwrap();
            assert_eq!(pass.twiddle_levels(), want_levels, "{s}");
            let geo = PassGeometry::of(pass);
            let table = pass.twiddle_table();
            let levels = t.levels(want_levels);
            let exponents = (0..4096)
                .chain((0..t.root).step_by(t.root / 4096 + 7))
                .chain([t.root - 1, t.root / 2 + 1]);
            for e in exponents {
                let k = kernel_power(&geo, want_levels, &table, e);
                assert_eq!(k, levels.power(&table, e), "root {} e {e}", t.root);
                let exact = crate::plan::twiddles::forward_twiddle(e, t.root);
                assert!((k - exact).norm() < 1e-15, "root {} e {e}", t.root);
            }
        }
    }
}
