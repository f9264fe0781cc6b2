//! The library's typed errors as Python exceptions: `ValueError` for bad shapes, sizes,
//! lengths and buffers, `NotImplementedError` for what is not supported, `RuntimeError` for
//! CUDA (out of memory included), NVRTC and missing-GPU failures.

use pyo3::exceptions::{PyNotImplementedError, PyRuntimeError, PyValueError};
use pyo3::PyErr;
use tensorfft::Error;

/// Maps a library error to the Python exception a `torch.fft` user expects.
pub fn to_py(e: Error) -> PyErr {
    let message = e.to_string();
    match e {
        Error::Unsupported { .. } => PyNotImplementedError::new_err(message),
        Error::InvalidSize(_)
        | Error::LengthMismatch { .. }
        | Error::PrecisionMismatch { .. }
        | Error::ScratchRequired { .. }
        | Error::NotPowerOfTwo { .. }
        | Error::ModulusNotPrime { .. }
        | Error::NoRootOfUnity { .. }
        | Error::NotReduced { .. }
        | Error::InvalidWisdom(_) => PyValueError::new_err(message),
        _ => PyRuntimeError::new_err(message),
    }
}
