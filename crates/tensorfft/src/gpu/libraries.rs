//! Checks that CUDA's shared libraries can be loaded before cudarc would panic on a missing one.

use crate::error::{Error, Result};

/// The CUDA driver library (`libcuda`) can be loaded.
///
/// ```
/// let _present: bool = tensorfft::gpu::libraries::driver_present();
/// ```
pub fn driver_present() -> bool {
    // SAFETY: only tries to dlopen the library names; no symbol is called.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// NVRTC (`libnvrtc`) can be loaded.
///
/// ```
/// let _present: bool = tensorfft::gpu::libraries::nvrtc_present();
/// ```
pub fn nvrtc_present() -> bool {
    // SAFETY: as above.
    unsafe { cudarc::nvrtc::sys::is_culib_present() }
}

/// cuFFT (`libcufft`) can be loaded.
///
/// ```
/// let _present: bool = tensorfft::gpu::libraries::cufft_present();
/// ```
pub fn cufft_present() -> bool {
    // SAFETY: as above.
    unsafe { cudarc::cufft::sys::is_culib_present() }
}

/// `Ok` if NVRTC can be loaded, else [`Error::MissingLibrary`].
///
/// ```
/// let _ = tensorfft::gpu::libraries::require_nvrtc();
/// ```
pub fn require_nvrtc() -> Result<()> {
    if nvrtc_present() {
        Ok(())
    } else {
        Err(Error::MissingLibrary {
            library: "libnvrtc",
        })
    }
}
