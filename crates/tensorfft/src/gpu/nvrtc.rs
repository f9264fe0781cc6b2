//! Run-time compilation of kernel sources to CUBIN with NVRTC.

use super::libraries::require_nvrtc;
use crate::error::{Error, Result};
use cudarc::nvrtc::sys as nv;
use std::ffi::{c_char, CStr, CString};

/// NVRTC's version as (major, minor).
///
/// ```no_run
/// let (major, _minor) = tensorfft::gpu::nvrtc::version().unwrap();
/// assert!(major >= 12);
/// ```
pub fn version() -> Result<(i32, i32)> {
    require_nvrtc()?;
    let (mut major, mut minor) = (0, 0);
    // SAFETY: NVRTC is loaded; the out-pointers are valid.
    unsafe { nv::nvrtcVersion(&mut major, &mut minor) }
        .result()
        .map_err(|e| Error::Driver(format!("nvrtcVersion: {e:?}")))?;
    Ok((major, minor))
}

/// Compiles `source` for `arch` (e.g. `sm_90`) to a CUBIN image.
///
/// ```no_run
/// let cubin = tensorfft::gpu::nvrtc::compile_cubin(
///     "extern \"C\" __global__ void k(float* x) { x[threadIdx.x] = 1.0f; }", "k", "sm_90").unwrap();
/// assert!(!cubin.is_empty());
/// ```
pub fn compile_cubin(source: &str, name: &str, arch: &str) -> Result<Vec<u8>> {
    compile(source, name, arch, &[]).map(|(cubin, _)| cubin)
}

/// The assembler's resource report of a kernel module (registers, spills, stack frame and
/// shared memory per entry point, `ptxas -v`), compiled for `arch` with no GPU needed.
///
/// ```no_run
/// let report = tensorfft::gpu::nvrtc::resource_report(
///     "extern \"C\" __global__ void k(float* x) { x[threadIdx.x] = 1.0f; }", "k", "sm_90").unwrap();
/// assert!(report.contains("registers"));
/// ```
pub fn resource_report(source: &str, name: &str, arch: &str) -> Result<String> {
    compile(source, name, arch, &["--ptxas-options=-v"]).map(|(_, log)| log)
}

/// Compiles `source` to a CUBIN with NVRTC and `extra` options; returns it and the log.
fn compile(source: &str, name: &str, arch: &str, extra: &[&str]) -> Result<(Vec<u8>, String)> {
    require_nvrtc()?;
    let fail = |message: String, log: String| Error::Compile {
        kernel: name.to_string(),
        message,
        log,
    };
    let src = CString::new(source)
        .map_err(|_| fail("source contains a NUL byte".into(), String::new()))?;
    let cname = CString::new(format!("{name}.cu"))
        .map_err(|_| fail("name contains a NUL byte".into(), String::new()))?;
    let options: Vec<CString> = [
        format!("--gpu-architecture={arch}"),
        "--std=c++17".to_string(),
    ]
    .into_iter()
    .chain(extra.iter().map(|o| o.to_string()))
    .filter_map(|o| CString::new(o).ok())
    .collect();
    let option_ptrs: Vec<*const c_char> = options.iter().map(|o| o.as_ptr()).collect();

    let mut prog: nv::nvrtcProgram = std::ptr::null_mut();
    // SAFETY: all pointers are valid NUL-terminated strings that outlive the calls; `prog` is
    // destroyed below on every path after creation.
    unsafe {
        nv::nvrtcCreateProgram(
            &mut prog,
            src.as_ptr(),
            cname.as_ptr(),
            0,
            std::ptr::null(),
            std::ptr::null(),
        )
        .result()
        .map_err(|e| fail(format!("nvrtcCreateProgram: {e:?}"), String::new()))?;
        let status = nv::nvrtcCompileProgram(prog, option_ptrs.len() as i32, option_ptrs.as_ptr());
        let log = program_log(prog);
        let out = match status.result() {
            Err(e) => Err(fail(format!("{e:?}"), log)),
            Ok(()) => {
                let mut size = 0usize;
                match nv::nvrtcGetCUBINSize(prog, &mut size).result() {
                    Err(e) => Err(fail(format!("nvrtcGetCUBINSize: {e:?}"), log)),
                    Ok(()) => {
                        let mut cubin = vec![0u8; size];
                        match nv::nvrtcGetCUBIN(prog, cubin.as_mut_ptr() as *mut c_char).result() {
                            Ok(()) => Ok((cubin, log)),
                            Err(e) => Err(fail(format!("nvrtcGetCUBIN: {e:?}"), log)),
                        }
                    }
                }
            }
        };
        let _ = nv::nvrtcDestroyProgram(&mut prog);
        out
    }
}

/// # Safety
/// `prog` must be a live NVRTC program.
unsafe fn program_log(prog: nv::nvrtcProgram) -> String {
    let mut size = 0usize;
    if nv::nvrtcGetProgramLogSize(prog, &mut size)
        .result()
        .is_err()
        || size == 0
    {
        return String::new();
    }
    let mut buf = vec![0 as c_char; size];
    if nv::nvrtcGetProgramLog(prog, buf.as_mut_ptr())
        .result()
        .is_err()
    {
        return String::new();
    }
    CStr::from_ptr(buf.as_ptr()).to_string_lossy().into_owned()
}
