//! cuFFT as the baseline `tfft bench` compares against, on the same stream and buffers.
//!
//! Rank 1, 2 and 3, batched, row-major and contiguous, through cuFFT's 64-bit plan interface. f32
//! and f64 go through cudarc's cuFFT bindings (`cufftMakePlanMany64`). cudarc has no
//! half-precision entry points, so f16 uses our own binding of `cufftXtMakePlanMany` /
//! `cufftXtExec` with `CUDA_C_16F`.

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

/// A cuFFT plan for a batched 1D, 2D or 3D C2C transform (row-major, contiguous, transforms
/// back to back), bound to a [`Gpu`]'s stream. Plans go through cuFFT's 64-bit interface
/// (`cufftMakePlanMany64`, and `cufftXtMakePlanMany` for f16), so batches of more than 2^31
/// elements work.
///
/// ```no_run
/// use tensorfft::{gpu::cufft_baseline::CufftPlan, Direction, Gpu, Precision};
/// let gpu = Gpu::new(0).unwrap();
/// let plan = CufftPlan::new(&gpu, &[1024], 16, Precision::F16).unwrap();
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
    /// Creates the cuFFT plan of `batch` transforms of `dims` (1 to 3 extents, slowest first,
    /// the last contiguous; `batch` transforms `prod(dims)` elements apart) in `precision` on
    /// `gpu`'s stream. A missing libcufft is [`Error::MissingLibrary`], a shape cuFFT refuses an
    /// error naming cuFFT's status; neither panics.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// use tensorfft::{gpu::cufft_baseline::CufftPlan, Precision};
    /// let _line = CufftPlan::new(&gpu, &[256], 4, Precision::F32).unwrap();
    /// let _image = CufftPlan::new(&gpu, &[64, 4096], 2, Precision::F64).unwrap();
    /// let _volume = CufftPlan::new(&gpu, &[64, 64, 64], 8, Precision::F16).unwrap();
    /// ```
    pub fn new(gpu: &Gpu, dims: &[usize], batch: usize, precision: Precision) -> Result<Self> {
        if !cufft_present() {
            return Err(Error::MissingLibrary {
                library: "libcufft",
            });
        }
        if dims.is_empty() || dims.len() > 3 {
            return Err(Error::Unsupported {
                what: format!("cuFFT baseline of rank {} ({dims:?})", dims.len()),
                supported: "rank 1, 2 and 3".into(),
            });
        }
        let overflow = || Error::InvalidSize(format!("{dims:?} x batch {batch} overflows"));
        let elements = dims
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(d))
            .ok_or_else(overflow)?;
        let len = elements.checked_mul(batch).ok_or_else(overflow)?;
        if len == 0 {
            return Err(Error::InvalidSize(format!(
                "cuFFT baseline of {dims:?} x batch {batch}: no elements"
            )));
        }
        let too_big = || {
            Error::InvalidSize(format!(
                "cuFFT baseline: {dims:?} x batch {batch} exceeds its 64-bit sizes"
            ))
        };
        let to_i64 = |v: usize| c_longlong::try_from(v).map_err(|_| too_big());
        let mut extents = dims
            .iter()
            .map(|&d| to_i64(d))
            .collect::<Result<Vec<c_longlong>>>()?;
        let rank = extents.len() as c_int;
        let dist = to_i64(elements)?;
        let batch64 = to_i64(batch)?;
        gpu.context().bind_to_thread()?;
        let handle = cufft::create().map_err(|e| cufft_err("create", e))?;
        let made = match precision {
            Precision::F32 | Precision::F64 => {
                let kind = if precision == Precision::F32 {
                    sys::cufftType::CUFFT_C2C
                } else {
                    sys::cufftType::CUFFT_Z2Z
                };
                // SAFETY: a fresh handle; `extents` holds `rank` valid lengths; null embeds mean
                // contiguous transforms `dist` elements apart (the strides are then ignored).
                unsafe {
                    cufft::make_plan_many64(
                        handle,
                        rank,
                        extents.as_mut_ptr(),
                        std::ptr::null_mut(),
                        1,
                        dist,
                        std::ptr::null_mut(),
                        1,
                        dist,
                        kind,
                        batch64,
                    )
                }
                .map(|_work| ())
                .map_err(|e| cufft_err("cufftMakePlanMany64", e))
            }
            Precision::F16 => xt_api().and_then(|api| {
                let mut work = 0usize;
                // SAFETY: as for f32 and f64 above; `work` is a valid out-pointer.
                unsafe {
                    (api.make_plan_many)(
                        handle,
                        rank,
                        extents.as_mut_ptr(),
                        std::ptr::null_mut(),
                        1,
                        dist,
                        CUDA_C_16F,
                        std::ptr::null_mut(),
                        1,
                        dist,
                        CUDA_C_16F,
                        batch64,
                        &mut work,
                        CUDA_C_16F,
                    )
                }
                .result()
                .map_err(|e| cufft_err("cufftXtMakePlanMany(CUDA_C_16F)", e))
            }),
            // cuFFT has no bf16 transform (nor an F32Split one).
            Precision::F32Split | Precision::BF16 => Err(Error::Unsupported {
                what: format!("cuFFT baseline in {precision:?}"),
                supported: "F16, F32, F64".into(),
            }),
        };
        let made = made.and_then(|()| {
            // SAFETY: valid handle; the stream outlives the plan through `gpu`.
            unsafe { cufft::set_stream(handle, gpu.stream().cu_stream() as sys::cudaStream_t) }
                .map_err(|e| cufft_err("set_stream", e))
        });
        if let Err(e) = made {
            // SAFETY: the handle was created above and is not used again.
            unsafe {
                let _ = cufft::destroy(handle);
            }
            return Err(e);
        }
        Ok(CufftPlan {
            gpu: gpu.clone(),
            handle,
            precision,
            len,
        })
    }

    /// Elements a buffer for this plan holds (`prod(dims) * batch`).
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let plan = tensorfft::gpu::cufft_baseline::CufftPlan::new(&gpu, &[8, 16], 3, tensorfft::Precision::F32).unwrap();
    /// assert_eq!(plan.len(), 384);
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: plans of no elements are refused.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let plan = tensorfft::gpu::cufft_baseline::CufftPlan::new(&gpu, &[8], 1, tensorfft::Precision::F32).unwrap();
    /// assert!(!plan.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Runs the transform from `input` to `output` (which may not alias).
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = tensorfft::gpu::cufft_baseline::CufftPlan::new(&gpu, &[256], 1, tensorfft::Precision::F32).unwrap();
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
