//! The GPU runtime: one CUDA context and stream per [`Gpu`], its properties, and its module cache.

use super::buffer::DeviceBuffer;
use super::libraries::{driver_present, nvrtc_present};
use super::module_cache::ModuleCache;
use super::nvrtc;
use crate::element::DeviceData;
use crate::error::{Error, Result};
use crate::plan::Wisdom;
use cudarc::driver::sys::CUdevice_attribute as Attr;
use cudarc::driver::{CudaContext, CudaStream};
use std::sync::{Arc, RwLock};

/// Properties of the device that plans and reports use.
///
/// ```no_run
/// let gpu = tensorfft::Gpu::new(0).unwrap();
/// println!("{} SMs", gpu.info().multiprocessors);
/// ```
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    /// Marketing name, e.g. "NVIDIA H200".
    pub name: String,
    /// Compute capability (major, minor).
    pub compute_capability: (i32, i32),
    /// Streaming multiprocessors.
    pub multiprocessors: i32,
    /// Shared memory a block may opt in to, in bytes.
    pub shared_per_block_optin: i32,
    /// Shared memory per multiprocessor, in bytes.
    pub shared_per_multiprocessor: i32,
    /// L2 cache size in bytes.
    pub l2_bytes: i32,
    /// Whether thread-block clusters can be launched.
    pub cluster_launch: bool,
    /// Global memory in bytes.
    pub total_memory: usize,
    /// CUDA driver version as reported by `cuDriverGetVersion` (e.g. 13000).
    pub driver_version: i32,
}

struct GpuInner {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    info: DeviceInfo,
    arch: &'static str,
    nvrtc_version: (i32, i32),
    modules: ModuleCache,
    /// Tuning measured per device (`tfft tune`), consulted by every plan of this handle.
    wisdom: RwLock<Option<Arc<Wisdom>>>,
}

/// One GPU: a CUDA context, a stream that all of this handle's work runs on, and a kernel cache.
/// Cloning is cheap and shares all three.
///
/// ```no_run
/// use tensorfft::{Gpu, Precision, Shape};
/// # fn main() -> tensorfft::Result<()> {
/// let gpu = Gpu::new(0)?;
/// let plan = gpu.plan_c2c(&Shape::new([1024]).batch(4), Precision::F32)?;
/// let y = plan.forward_host(&vec![num_complex::Complex::new(0.5f32, 0.0); 4096])?;
/// assert_eq!(y.len(), 4096);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Gpu {
    inner: Arc<GpuInner>,
}

impl Gpu {
    /// Opens device `ordinal`. Fails with [`Error::NoGpu`] or [`Error::MissingLibrary`] rather
    /// than panicking when there is no driver, no device, or no NVRTC.
    ///
    /// ```no_run
    /// match tensorfft::Gpu::new(0) {
    ///     Ok(gpu) => println!("{}", gpu.info().name),
    ///     Err(e) => println!("no GPU: {e}"),
    /// }
    /// ```
    pub fn new(ordinal: usize) -> Result<Self> {
        if !driver_present() {
            return Err(Error::NoGpu(
                "the CUDA driver library (libcuda.so) is not installed".into(),
            ));
        }
        if !nvrtc_present() {
            return Err(Error::MissingLibrary {
                library: "libnvrtc",
            });
        }
        // The driver library is present (checked above); cuInit is idempotent.
        cudarc::driver::result::init().map_err(|e| Error::NoGpu(format!("cuInit: {e:?}")))?;
        let count = CudaContext::device_count().map_err(|e| Error::NoGpu(format!("{e:?}")))?;
        if count <= 0 || ordinal >= count as usize {
            return Err(Error::NoGpu(format!(
                "device {ordinal} requested, {count} present"
            )));
        }
        let ctx = CudaContext::new(ordinal)?;
        // One stream per handle: ordering is the stream's, so cudarc's per-buffer events are not needed.
        // SAFETY: all work of this handle runs on its single stream.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.new_stream()?;
        let attr = |a| ctx.attribute(a);
        let compute_capability = ctx.compute_capability()?;
        let mut driver_version = 0;
        // SAFETY: valid out-pointer; the driver is initialised.
        unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut driver_version) }.result()?;
        let info = DeviceInfo {
            name: ctx.name()?,
            compute_capability,
            multiprocessors: attr(Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            shared_per_block_optin: attr(
                Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            )?,
            shared_per_multiprocessor: attr(
                Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
            )?,
            l2_bytes: attr(Attr::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)?,
            cluster_launch: attr(Attr::CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH)? != 0,
            total_memory: ctx.total_mem()?,
            driver_version,
        };
        let arch = arch_name(compute_capability)?;
        let nvrtc_version = nvrtc::version()?;
        let modules = ModuleCache::new(ctx.clone());
        Ok(Gpu {
            inner: Arc::new(GpuInner {
                ctx,
                stream,
                info,
                arch,
                nvrtc_version,
                modules,
                wisdom: RwLock::new(None),
            }),
        })
    }

    /// Makes every later plan of this handle (and of its clones) consult `wisdom`: a plan whose
    /// device name, precision, extents, batch and asked tuning match an entry is made with the
    /// entry's tuning under the caller's own choices, and with the caller's options alone if
    /// that fails. `None` forgets it. Plans made before keep their kernels.
    ///
    /// ```no_run
    /// let gpu = tensorfft::Gpu::new(0)?;
    /// gpu.set_wisdom(Some(tensorfft::Wisdom::load("wisdom.json")?));
    /// # Ok::<(), tensorfft::Error>(())
    /// ```
    pub fn set_wisdom(&self, wisdom: Option<Wisdom>) {
        let mut slot = match self.inner.wisdom.write() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        *slot = wisdom.map(Arc::new);
    }

    /// The wisdom this handle's plans consult, if any ([`Gpu::set_wisdom`]).
    ///
    /// ```no_run
    /// assert!(tensorfft::Gpu::new(0)?.wisdom().is_none());
    /// # Ok::<(), tensorfft::Error>(())
    /// ```
    pub fn wisdom(&self) -> Option<Arc<Wisdom>> {
        match self.inner.wisdom.read() {
            Ok(g) => g.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Device properties.
    ///
    /// ```no_run
    /// println!("{:?}", tensorfft::Gpu::new(0).unwrap().info());
    /// ```
    pub fn info(&self) -> &DeviceInfo {
        &self.inner.info
    }

    /// Whether plans on this device launch their passes as programmatic dependent launches
    /// when asked for `requested` (`Tuning::dependent_launch`, `NttPlanOptions::dependent_launch`):
    /// on by default, and only where the device has them (sm_90 and newer).
    ///
    /// ```no_run
    /// let gpu = tensorfft::Gpu::new(0).unwrap();
    /// assert!(!gpu.dependent_launch(Some(false)));
    /// assert_eq!(gpu.dependent_launch(None), gpu.info().compute_capability >= (9, 0));
    /// ```
    pub fn dependent_launch(&self, requested: Option<bool>) -> bool {
        requested.unwrap_or(true) && self.info().compute_capability >= (9, 0)
    }

    /// The NVRTC target, e.g. `sm_90`.
    ///
    /// ```no_run
    /// assert!(tensorfft::Gpu::new(0).unwrap().arch().starts_with("sm_"));
    /// ```
    pub fn arch(&self) -> &'static str {
        self.inner.arch
    }

    /// NVRTC's version (major, minor).
    ///
    /// ```no_run
    /// println!("{:?}", tensorfft::Gpu::new(0).unwrap().nvrtc_version());
    /// ```
    pub fn nvrtc_version(&self) -> (i32, i32) {
        self.inner.nvrtc_version
    }

    /// The compiled-module cache.
    ///
    /// ```no_run
    /// println!("{}", tensorfft::Gpu::new(0).unwrap().modules().dir().display());
    /// ```
    pub fn modules(&self) -> &ModuleCache {
        &self.inner.modules
    }

    /// The CUDA context.
    ///
    /// ```no_run
    /// let _ctx = tensorfft::Gpu::new(0).unwrap().context().clone();
    /// ```
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.inner.ctx
    }

    /// The stream all of this handle's work is queued on.
    ///
    /// ```no_run
    /// tensorfft::Gpu::new(0).unwrap().stream().synchronize().unwrap();
    /// ```
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.inner.stream
    }

    /// A new stream of this handle's context, e.g. for [`crate::GpuPlan::set_stream`].
    ///
    /// ```no_run
    /// let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let s = gpu.new_stream().unwrap();
    /// s.synchronize().unwrap();
    /// ```
    pub fn new_stream(&self) -> Result<Arc<CudaStream>> {
        Ok(self.inner.ctx.new_stream()?)
    }

    /// A stream another library owns (PyTorch's `torch.cuda.current_stream().cuda_stream`,
    /// CuPy's `cupy.cuda.get_current_stream().ptr`; 0 is the legacy default stream), to queue
    /// plans on with [`crate::GpuPlan::set_stream`] or [`crate::GpuPlan::execute_raw`].
    /// Dropping it leaves the stream alone.
    ///
    /// # Safety
    ///
    /// `handle` must be a stream of this handle's context (the device's primary context, which
    /// PyTorch and CuPy use too) that outlives the returned value and all work queued on it.
    ///
    /// ```no_run
    /// let gpu = tensorfft::Gpu::new(0).unwrap();
    /// // SAFETY: 0 is the legacy default stream, which always exists.
    /// let legacy = unsafe { gpu.borrow_stream(0) };
    /// legacy.synchronize().unwrap();
    /// ```
    pub unsafe fn borrow_stream(&self, handle: usize) -> Arc<CudaStream> {
        // SAFETY: the caller guarantees the stream belongs to this context and outlives its use.
        unsafe {
            self.inner
                .ctx
                .wrap_borrowed_stream(handle as cudarc::driver::sys::CUstream)
        }
    }

    /// Waits for all queued work; reports asynchronous kernel faults.
    ///
    /// ```no_run
    /// tensorfft::Gpu::new(0).unwrap().synchronize().unwrap();
    /// ```
    pub fn synchronize(&self) -> Result<()> {
        self.inner.stream.synchronize()?;
        Ok(())
    }

    /// A zero-filled device buffer of `len` elements.
    ///
    /// ```no_run
    /// let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let b = gpu.alloc::<num_complex::Complex<f32>>(1024).unwrap();
    /// assert_eq!(b.len(), 1024);
    /// ```
    pub fn alloc<T: DeviceData>(&self, len: usize) -> Result<DeviceBuffer<T>> {
        DeviceBuffer::zeros(&self.inner.stream, len)
    }

    /// Copies host data into a new device buffer.
    ///
    /// ```no_run
    /// let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let b = gpu.upload(&[num_complex::Complex::new(1.0f32, 2.0)]).unwrap();
    /// assert_eq!(gpu.download(&b).unwrap()[0].im, 2.0);
    /// ```
    pub fn upload<T: DeviceData>(&self, host: &[T]) -> Result<DeviceBuffer<T>> {
        let mut b = DeviceBuffer::zeros(&self.inner.stream, host.len())?;
        b.copy_from_host(&self.inner.stream, host)?;
        Ok(b)
    }

    /// Copies host data into an existing buffer of the same length.
    ///
    /// ```no_run
    /// let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let mut b = gpu.alloc::<num_complex::Complex<f32>>(1).unwrap();
    /// gpu.upload_into(&[num_complex::Complex::new(1.0f32, 2.0)], &mut b).unwrap();
    /// ```
    pub fn upload_into<T: DeviceData>(
        &self,
        host: &[T],
        buffer: &mut DeviceBuffer<T>,
    ) -> Result<()> {
        buffer.copy_from_host(&self.inner.stream, host)
    }

    /// Copies host data into elements `offset .. offset + host.len()` of `buffer`, e.g. to fill
    /// a buffer larger than the host's memory block by block. A range outside the buffer is
    /// [`Error::InvalidSize`] and copies nothing.
    ///
    /// ```no_run
    /// use num_complex::Complex;
    /// let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let mut b = gpu.alloc::<Complex<f32>>(8).unwrap();
    /// let block = [Complex::new(1.0f32, 0.0); 4];
    /// gpu.upload_at(&block, &mut b, 0).unwrap();
    /// gpu.upload_at(&block, &mut b, 4).unwrap();
    /// assert!(gpu.upload_at(&block, &mut b, 6).is_err());
    /// ```
    pub fn upload_at<T: DeviceData>(
        &self,
        host: &[T],
        buffer: &mut DeviceBuffer<T>,
        offset: usize,
    ) -> Result<()> {
        buffer.copy_from_host_at(&self.inner.stream, host, offset)
    }

    /// Copies elements `offset .. offset + len` of a device buffer to a new host vector (waits
    /// for queued work). A range outside the buffer is [`Error::InvalidSize`].
    ///
    /// ```no_run
    /// let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let b = gpu.upload(&[num_complex::Complex::new(1.0f32, 2.0); 8]).unwrap();
    /// assert_eq!(gpu.download_range(&b, 6, 2).unwrap().len(), 2);
    /// ```
    pub fn download_range<T: DeviceData>(
        &self,
        buffer: &DeviceBuffer<T>,
        offset: usize,
        len: usize,
    ) -> Result<Vec<T>> {
        buffer.range_to_host(&self.inner.stream, offset, len)
    }

    /// Free and total device memory in bytes, as the driver reports them now.
    ///
    /// ```no_run
    /// let (free, total) = tensorfft::Gpu::new(0).unwrap().memory_info().unwrap();
    /// assert!(free <= total);
    /// ```
    pub fn memory_info(&self) -> Result<(usize, usize)> {
        Ok(self.inner.ctx.mem_get_info()?)
    }

    /// Copies a device buffer to a new host vector (waits for queued work).
    ///
    /// ```no_run
    /// let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let b = gpu.alloc::<num_complex::Complex<f64>>(3).unwrap();
    /// assert_eq!(gpu.download(&b).unwrap().len(), 3);
    /// ```
    pub fn download<T: DeviceData>(&self, buffer: &DeviceBuffer<T>) -> Result<Vec<T>> {
        buffer.to_host(&self.inner.stream)
    }

    /// Fills a buffer with NaN (every byte 0xFF is a NaN in f16, f32 and f64), so elements a
    /// kernel fails to write are caught.
    ///
    /// ```no_run
    /// let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let mut b = gpu.alloc::<num_complex::Complex<f32>>(2).unwrap();
    /// gpu.poison(&mut b).unwrap();
    /// assert!(gpu.download(&b).unwrap()[0].re.is_nan());
    /// ```
    pub fn poison<T: DeviceData>(&self, buffer: &mut DeviceBuffer<T>) -> Result<()> {
        buffer.fill_bytes(&self.inner.stream, 0xFF)
    }

    /// Device-to-device copy of `src` into `dst` (same length), queued on the stream.
    ///
    /// ```no_run
    /// let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let a = gpu.alloc::<num_complex::Complex<f32>>(8).unwrap();
    /// let mut b = gpu.alloc::<num_complex::Complex<f32>>(8).unwrap();
    /// gpu.copy(&a, &mut b).unwrap();
    /// ```
    pub fn copy<T: DeviceData>(
        &self,
        src: &DeviceBuffer<T>,
        dst: &mut DeviceBuffer<T>,
    ) -> Result<()> {
        dst.copy_from_device(&self.inner.stream, src)
    }
}

fn arch_name(cc: (i32, i32)) -> Result<&'static str> {
    Ok(match cc {
        (9, 0) => "sm_90",
        (8, 0) => "sm_80",
        (8, 6) => "sm_86",
        (8, 7) => "sm_87",
        (8, 9) => "sm_89",
        (10, 0) => "sm_100",
        (12, 0) => "sm_120",
        (7, 5) => "sm_75",
        other => {
            return Err(Error::Unsupported {
                what: format!("compute capability {}.{}", other.0, other.1),
                supported: "sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_120".into(),
            })
        }
    })
}
