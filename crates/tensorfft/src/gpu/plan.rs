//! Executable GPU plans: a recipe, its compiled kernels and twiddle table.

use super::buffer::DeviceBuffer;
use super::module_cache::ModuleOrigin;
use super::runtime::Gpu;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::kernels::KernelSource;
use crate::plan::twiddles::stage_twiddles;
use crate::plan::{plan_c2c_recipe, Direction, PlanOptions, Precision, Recipe, Shape};
use cudarc::driver::sys::CUfunction_attribute;
use cudarc::driver::{CudaFunction, LaunchConfig, PushKernelArg};
use half::f16;
use num_complex::Complex;
use std::time::Instant;

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
}

/// A batched 1D complex-to-complex transform on one GPU: create once, execute many times.
///
/// Buffers hold `n * batch` elements of the plan's precision; any other buffer is refused with
/// an error before anything is queued, leaving it untouched.
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
    recipe: Recipe,
    batch: usize,
    forward_fn: CudaFunction,
    inverse_fn: CudaFunction,
    twiddles: TwiddleTable,
    /// Blocks of the persistent grid: resident blocks per SM times SMs.
    max_grid: usize,
    creation: PlanCreation,
}

/// The kernels' twiddle table on the device, in the plan's compute precision.
enum TwiddleTable {
    F32(DeviceBuffer<Complex<f32>>),
    F64(DeviceBuffer<Complex<f64>>),
    /// Packed half arithmetic: entry `2p` holds the real parts of values `2p` and `2p + 1` of
    /// the table, entry `2p + 1` their imaginary parts (8 bytes per pair of butterflies).
    F16Pairs(DeviceBuffer<Complex<f16>>),
}

impl TwiddleTable {
    fn device_address(&self, stream: &cudarc::driver::CudaStream) -> u64 {
        match self {
            TwiddleTable::F32(t) => t.device_address(stream),
            TwiddleTable::F64(t) => t.device_address(stream),
            TwiddleTable::F16Pairs(t) => t.device_address(stream),
        }
    }
}

impl Gpu {
    /// Plans a batched 1D complex-to-complex transform with default options.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let plan = gpu.plan_c2c(&tensorfft::Shape::new([4096]).batch(32768), tensorfft::Precision::F32).unwrap();
    /// # let _ = plan;
    /// ```
    pub fn plan_c2c(&self, shape: &Shape, precision: Precision) -> Result<GpuPlan> {
        self.plan_c2c_with(shape, precision, &PlanOptions::default())
    }

    /// Plans a batched 1D complex-to-complex transform with `options`.
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
        let start = Instant::now();
        let recipe = plan_c2c_recipe(shape, precision, options)?;
        let limit = self.info().shared_per_block_optin.max(0) as usize;
        if recipe.shared_bytes() > limit {
            return Err(Error::DeviceLimit(format!(
                "{} needs {} bytes of shared memory per block; the device allows {limit}",
                recipe,
                recipe.shared_bytes()
            )));
        }
        let kernel = KernelSource::single_pass(&recipe);
        let (module, origin) = self.modules().get_or_compile(
            &kernel.source,
            &kernel.stem,
            self.arch(),
            self.nvrtc_version(),
        )?;
        let forward_fn = module.load_function(&kernel.entry(Direction::Forward))?;
        let inverse_fn = module.load_function(&kernel.entry(Direction::Inverse))?;
        for f in [&forward_fn, &inverse_fn] {
            f.set_attribute(
                CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                recipe.shared_bytes() as i32,
            )?;
        }
        let mut table = stage_twiddles(&recipe);
        if table.is_empty() {
            // Single-stage plans read no twiddles; keep a valid pointer anyway.
            table.push(Complex::new(1.0, 0.0));
        }
        let twiddles = match precision {
            Precision::F64 => TwiddleTable::F64(self.upload(&table)?),
            _ if recipe.half_arithmetic => {
                if table.len() % 2 == 1 {
                    table.push(Complex::new(1.0, 0.0));
                }
                let pairs: Vec<Complex<f16>> = table
                    .chunks_exact(2)
                    .flat_map(|w| {
                        [
                            Complex::new(f16::from_f64(w[0].re), f16::from_f64(w[1].re)),
                            Complex::new(f16::from_f64(w[0].im), f16::from_f64(w[1].im)),
                        ]
                    })
                    .collect();
                TwiddleTable::F16Pairs(self.upload(&pairs)?)
            }
            _ => {
                let t32: Vec<Complex<f32>> = table
                    .iter()
                    .map(|w| Complex::new(w.re as f32, w.im as f32))
                    .collect();
                TwiddleTable::F32(self.upload(&t32)?)
            }
        };
        self.synchronize()?;
        let mut resident = u32::MAX;
        for f in [&forward_fn, &inverse_fn] {
            resident = resident.min(f.occupancy_max_active_blocks_per_multiprocessor(
                recipe.threads_per_block() as u32,
                recipe.shared_bytes(),
                None,
            )?);
        }
        if resident == 0 {
            return Err(Error::DeviceLimit(format!(
                "{recipe} cannot be resident on a multiprocessor"
            )));
        }
        let max_grid = resident as usize * self.info().multiprocessors.max(1) as usize;
        Ok(GpuPlan {
            gpu: self.clone(),
            recipe,
            batch: shape.batch_count(),
            forward_fn,
            inverse_fn,
            twiddles,
            max_grid,
            creation: PlanCreation {
                ms: start.elapsed().as_secs_f64() * 1e3,
                origin,
            },
        })
    }
}

impl GpuPlan {
    /// The recipe this plan runs.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]), tensorfft::Precision::F32).unwrap();
    /// println!("{}", plan.recipe());
    /// ```
    pub fn recipe(&self) -> &Recipe {
        &self.recipe
    }

    /// Number of transforms per execution.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]).batch(3), tensorfft::Precision::F32).unwrap();
    /// assert_eq!(plan.batch(), 3);
    /// ```
    pub fn batch(&self) -> usize {
        self.batch
    }

    /// Elements a buffer for this plan holds (`n * batch`).
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]).batch(3), tensorfft::Precision::F32).unwrap();
    /// assert_eq!(plan.len(), 768);
    /// ```
    pub fn len(&self) -> usize {
        self.recipe.n * self.batch
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
    /// multiprocessor of the forward kernel.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_c2c(&tensorfft::Shape::new([256]), tensorfft::Precision::F32).unwrap();
    /// let (regs, spill, blocks) = plan.kernel_resources().unwrap();
    /// assert!(regs > 0 && spill == 0 && blocks > 0);
    /// ```
    pub fn kernel_resources(&self) -> Result<(i32, i32, u32)> {
        let f = &self.forward_fn;
        let blocks = f.occupancy_max_active_blocks_per_multiprocessor(
            self.recipe.threads_per_block() as u32,
            self.recipe.shared_bytes(),
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
        self.check::<T>(input.len())?;
        self.check::<T>(output.len())?;
        let stream = self.gpu.stream();
        let src = input.device_address(stream);
        let dst = output.device_address_mut(stream);
        self.launch(dir, src, dst)
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
        self.check::<T>(data.len())?;
        let ptr = data.device_address_mut(self.gpu.stream());
        self.launch(dir, ptr, ptr)
    }

    fn host<T: Element>(&self, dir: Direction, input: &[T]) -> Result<Vec<T>> {
        self.check::<T>(input.len())?;
        let mut data = self.gpu.upload(input)?;
        self.execute_in_place(dir, &mut data)?;
        self.gpu.download(&data)
    }

    fn check<T: Element>(&self, len: usize) -> Result<()> {
        if T::PRECISION != self.recipe.precision {
            return Err(Error::PrecisionMismatch {
                plan: self.recipe.precision,
                buffer: T::PRECISION,
            });
        }
        if len != self.len() {
            return Err(Error::LengthMismatch {
                expected: self.len(),
                actual: len,
            });
        }
        Ok(())
    }

    fn launch(&self, dir: Direction, src: u64, dst: u64) -> Result<()> {
        let r = &self.recipe;
        let stream = self.gpu.stream();
        let func = match dir {
            Direction::Forward => &self.forward_fn,
            Direction::Inverse => &self.inverse_fn,
        };
        let groups = self.batch.div_ceil(r.transforms_per_block);
        // A persistent grid loops over tiles; otherwise one block per tile.
        let grid = if r.persistent {
            groups.min(self.max_grid)
        } else {
            groups
        };
        let grid = grid.min(i32::MAX as usize) as u32;
        let cfg = LaunchConfig {
            grid_dim: (grid, 1, 1),
            block_dim: (r.threads_per_block() as u32, 1, 1),
            shared_mem_bytes: r.shared_bytes() as u32,
        };
        let batch = self.batch as u64;
        // The recipe records whether the inverse kernel scales; the factor is 1/N then.
        let scale = if dir == Direction::Inverse && r.inverse_scaled {
            1.0 / r.n as f64
        } else {
            1.0
        };
        let mut args = stream.launch_builder(func);
        args.arg(&src).arg(&dst);
        let tw = self.twiddles.device_address(stream);
        args.arg(&tw).arg(&batch);
        let scale32 = scale as f32;
        if r.precision == Precision::F64 {
            args.arg(&scale);
        } else {
            args.arg(&scale32);
        }
        // SAFETY: the arguments match the kernel's signature (two element pointers of the plan's
        // storage type checked by `check`, the twiddle table, the batch and the scale); buffers
        // hold exactly n * batch elements; the launch shape is the recipe's.
        unsafe { args.launch(cfg) }?;
        Ok(())
    }
}
