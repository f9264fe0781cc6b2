//! cuFFT as the baseline `tfft bench` compares against, on the same stream and buffers.
//!
//! f32 and f64 go through cudarc's cuFFT bindings. cudarc has no half-precision entry points, so
//! f16 uses our own binding of `cufftXtMakePlanMany` / `cufftXtExec` with `CUDA_C_16F`.

use super::buffer::DeviceBuffer;
use super::libraries::cufft_present;
use super::runtime::Gpu;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::plan::{Direction, Precision};
use cudarc::cufft::{result as cufft, sys};
use std::ffi::{c_int, c_longlong, c_void};
use std::sync::OnceLock;

const CUDA_C_16F: c_int = 6;

type XtMakePlanMany = unsafe extern "C" fn(
    plan: sys::cufftHandle,
    rank: c_int,
    n: *mut c_longlong,
    inembed: *mut c_longlong,
    istride: c_longlong,
    idist: c_longlong,
    inputtype: c_int,
    onembed: *mut c_longlong,
    ostride: c_longlong,
    odist: c_longlong,
    outputtype: c_int,
    batch: c_longlong,
    work_size: *mut usize,
    executiontype: c_int,
) -> sys::cufftResult;

type XtExec = unsafe extern "C" fn(
    plan: sys::cufftHandle,
    input: *mut c_void,
    output: *mut c_void,
    direction: c_int,
) -> sys::cufftResult;

struct XtApi {
    make_plan_many: XtMakePlanMany,
    exec: XtExec,
    _lib: libloading::Library,
}

fn xt_api() -> Result<&'static XtApi> {
    static API: OnceLock<std::result::Result<XtApi, String>> = OnceLock::new();
    API.get_or_init(|| {
        for name in cudarc::get_lib_name_candidates("cufft") {
            // SAFETY: loading cuFFT runs no initialisers with preconditions of ours.
            let Ok(lib) = (unsafe { libloading::Library::new(&name) }) else {
                continue;
            };
            // SAFETY: the symbol types match cuFFT's documented C signatures.
            let api = unsafe {
                let make = lib
                    .get::<XtMakePlanMany>(b"cufftXtMakePlanMany\0")
                    .map(|s| *s);
                let exec = lib.get::<XtExec>(b"cufftXtExec\0").map(|s| *s);
                match (make, exec) {
                    (Ok(make_plan_many), Ok(exec)) => Some((make_plan_many, exec)),
                    _ => None,
                }
            };
            if let Some((make_plan_many, exec)) = api {
                return Ok(XtApi {
                    make_plan_many,
                    exec,
                    _lib: lib,
                });
            }
        }
        Err("libcufft with cufftXtMakePlanMany".to_string())
    })
    .as_ref()
    .map_err(|_| Error::MissingLibrary {
        library: "libcufft",
    })
}

fn cufft_err(what: &str, e: impl std::fmt::Debug) -> Error {
    Error::Driver(format!("cuFFT {what}: {e:?}"))
}

/// A cuFFT plan for a batched 1D C2C transform, bound to a [`Gpu`]'s stream.
///
/// ```no_run
/// use tensorfft::{gpu::cufft_baseline::CufftPlan, Direction, Gpu, Precision};
/// let gpu = Gpu::new(0).unwrap();
/// let plan = CufftPlan::new(&gpu, 1024, 16, Precision::F16).unwrap();
/// let x = gpu.alloc::<num_complex::Complex<half::f16>>(1024 * 16).unwrap();
/// let mut y = gpu.alloc::<num_complex::Complex<half::f16>>(1024 * 16).unwrap();
/// plan.execute(Direction::Forward, &x, &mut y).unwrap();
/// ```
pub struct CufftPlan {
    gpu: Gpu,
    handle: sys::cufftHandle,
    precision: Precision,
    len: usize,
}

impl CufftPlan {
    /// Creates the cuFFT plan (n, batch) in `precision` on `gpu`'s stream.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let _p = tensorfft::gpu::cufft_baseline::CufftPlan::new(&gpu, 256, 4, tensorfft::Precision::F32).unwrap();
    /// ```
    pub fn new(gpu: &Gpu, n: usize, batch: usize, precision: Precision) -> Result<Self> {
        if !cufft_present() {
            return Err(Error::MissingLibrary {
                library: "libcufft",
            });
        }
        let len = n
            .checked_mul(batch)
            .ok_or_else(|| Error::InvalidSize(format!("{n} x {batch} overflows")))?;
        let too_big = || {
            Error::InvalidSize(format!(
                "cuFFT baseline: {n} x {batch} exceeds its int sizes"
            ))
        };
        gpu.context().bind_to_thread()?;
        let handle = match precision {
            Precision::F32 | Precision::F64 => {
                let kind = if precision == Precision::F32 {
                    sys::cufftType::CUFFT_C2C
                } else {
                    sys::cufftType::CUFFT_Z2Z
                };
                let n32 = c_int::try_from(n).map_err(|_| too_big())?;
                let b32 = c_int::try_from(batch).map_err(|_| too_big())?;
                cufft::plan_1d(n32, kind, b32).map_err(|e| cufft_err("plan_1d", e))?
            }
            Precision::F16 => {
                let api = xt_api()?;
                let handle = cufft::create().map_err(|e| cufft_err("create", e))?;
                let mut dims = [n as c_longlong];
                let mut work = 0usize;
                // SAFETY: a fresh handle; dims points to one valid length; null embeds mean
                // contiguous batches with the given distances.
                let status = unsafe {
                    (api.make_plan_many)(
                        handle,
                        1,
                        dims.as_mut_ptr(),
                        std::ptr::null_mut(),
                        1,
                        n as c_longlong,
                        CUDA_C_16F,
                        std::ptr::null_mut(),
                        1,
                        n as c_longlong,
                        CUDA_C_16F,
                        batch as c_longlong,
                        &mut work,
                        CUDA_C_16F,
                    )
                };
                if let Err(e) = status.result() {
                    // SAFETY: the handle was created above and is not used again.
                    unsafe {
                        let _ = cufft::destroy(handle);
                    }
                    return Err(cufft_err("cufftXtMakePlanMany(CUDA_C_16F)", e));
                }
                handle
            }
            Precision::F32Split => {
                return Err(Error::Unsupported {
                    what: "cuFFT baseline in F32Split".into(),
                    supported: "F16, F32, F64".into(),
                })
            }
        };
        // SAFETY: valid handle; the stream outlives the plan through `gpu`.
        unsafe { cufft::set_stream(handle, gpu.stream().cu_stream() as sys::cudaStream_t) }
            .map_err(|e| cufft_err("set_stream", e))?;
        Ok(CufftPlan {
            gpu: gpu.clone(),
            handle,
            precision,
            len,
        })
    }

    /// Runs the transform from `input` to `output` (which may not alias).
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = tensorfft::gpu::cufft_baseline::CufftPlan::new(&gpu, 256, 1, tensorfft::Precision::F32).unwrap();
    /// let x = gpu.alloc::<num_complex::Complex<f32>>(256).unwrap();
    /// let mut y = gpu.alloc::<num_complex::Complex<f32>>(256).unwrap();
    /// plan.execute(tensorfft::Direction::Forward, &x, &mut y).unwrap();
    /// ```
    pub fn execute<T: Element>(
        &self,
        dir: Direction,
        input: &DeviceBuffer<T>,
        output: &mut DeviceBuffer<T>,
    ) -> Result<()> {
        if T::PRECISION != self.precision {
            return Err(Error::PrecisionMismatch {
                plan: self.precision,
                buffer: T::PRECISION,
            });
        }
        for len in [input.len(), output.len()] {
            if len != self.len {
                return Err(Error::LengthMismatch {
                    expected: self.len,
                    actual: len,
                });
            }
        }
        let stream = self.gpu.stream();
        let src = input.device_address(stream);
        let dst = output.device_address_mut(stream);
        let direction = dir.sign();
        // SAFETY: both buffers hold the plan's element count of the plan's type.
        unsafe {
            match self.precision {
                Precision::F32 => {
                    cufft::exec_c2c(self.handle, src as *mut _, dst as *mut _, direction)
                }
                Precision::F64 => {
                    cufft::exec_z2z(self.handle, src as *mut _, dst as *mut _, direction)
                }
                _ => {
                    let api = xt_api()?;
                    (api.exec)(
                        self.handle,
                        src as *mut c_void,
                        dst as *mut c_void,
                        direction,
                    )
                    .result()
                }
            }
        }
        .map_err(|e| cufft_err("exec", e))
    }
}

impl Drop for CufftPlan {
    fn drop(&mut self) {
        // SAFETY: the handle is owned by this plan and destroyed once.
        unsafe {
            let _ = cufft::destroy(self.handle);
        }
    }
}
