//! The one error type of the library.

use crate::plan::Precision;

/// Everything that can go wrong when planning or executing a transform.
///
/// A call that returns an error has not touched the caller's buffers.
///
/// ```
/// use tensorfft::{plan_c2c_recipe, Error, Precision, Shape, PlanOptions};
/// let err = plan_c2c_recipe(&Shape::new([3000]), Precision::F32, &PlanOptions::default()).unwrap_err();
/// assert!(matches!(err, Error::Unsupported { .. }));
/// ```
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The shape, transform or precision is valid but not implemented yet.
    #[error("unsupported: {what} (supported: {supported})")]
    Unsupported {
        /// What was asked for.
        what: String,
        /// What is supported instead.
        supported: String,
    },
    /// A size is zero, or a product of sizes overflows.
    #[error("invalid size: {0}")]
    InvalidSize(String),
    /// A buffer's length does not match the plan.
    #[error("buffer length mismatch: the plan needs {expected} elements, the buffer has {actual}")]
    LengthMismatch {
        /// Elements the plan reads or writes.
        expected: usize,
        /// Elements in the buffer given.
        actual: usize,
    },
    /// A buffer's element type does not match the plan's precision.
    #[error("precision mismatch: the plan is {plan:?}, the buffer holds {buffer:?}")]
    PrecisionMismatch {
        /// The plan's precision.
        plan: Precision,
        /// The precision of the buffer's elements.
        buffer: Precision,
    },
    /// No CUDA driver or no GPU.
    #[error("no GPU available: {0}")]
    NoGpu(String),
    /// A CUDA library (libcuda, libnvrtc, libcufft) could not be loaded.
    #[error(
        "CUDA library {library} not found (set LD_LIBRARY_PATH, e.g. to /usr/local/cuda/lib64)"
    )]
    MissingLibrary {
        /// The library's name.
        library: &'static str,
    },
    /// NVRTC rejected a kernel; the log says why.
    #[error("NVRTC failed to compile {kernel}: {message}\n{log}")]
    Compile {
        /// The kernel's name.
        kernel: String,
        /// NVRTC's status.
        message: String,
        /// NVRTC's program log.
        log: String,
    },
    /// The device ran out of memory.
    #[error("out of device memory: {0}")]
    OutOfMemory(String),
    /// Any other CUDA driver error.
    #[error("CUDA driver error: {0}")]
    Driver(String),
    /// The recipe needs more than the device offers (shared memory, threads).
    #[error("device limit exceeded: {0}")]
    DeviceLimit(String),
    /// The plan was created with external scratch and needs it for this execution.
    #[error("the plan needs {elements} elements of caller-supplied scratch (PlanOptions::external_scratch)")]
    ScratchRequired {
        /// Scratch elements the plan needs.
        elements: usize,
    },
    /// An NTT modulus that is not an odd prime.
    #[error("modulus {modulus} is not an odd prime")]
    ModulusNotPrime {
        /// The modulus given.
        modulus: u64,
    },
    /// No root of unity of the order a transform needs exists modulo the prime (the length, or
    /// twice it for a negacyclic transform, exceeds the largest power of two dividing `p − 1`).
    #[error("no root of unity of order {order} modulo {modulus}")]
    NoRootOfUnity {
        /// The modulus.
        modulus: u64,
        /// The order asked for.
        order: u64,
    },
    /// A length that must be a power of two is not.
    #[error("length {n} is not a power of two (at least 2)")]
    NotPowerOfTwo {
        /// The length given.
        n: usize,
    },
    /// NTT input values must lie in `[0, p)`.
    #[error("NTT input {value} at index {index} is not below the modulus {modulus}")]
    NotReduced {
        /// Index of the first offending value.
        index: usize,
        /// The value.
        value: u64,
        /// The modulus of its limb.
        modulus: u64,
    },
    /// A wisdom file that cannot be read or parsed (`Wisdom::load`, `Wisdom::from_json`).
    #[error("invalid wisdom: {0}")]
    InvalidWisdom(String),
    /// A file-system error (the on-disk kernel cache, writing a wisdom file).
    #[error("I/O: {0}")]
    Io(#[from] std::io::Error),
}

impl Error {
    /// An [`Error::Unsupported`] naming what was asked and what is supported instead.
    pub(crate) fn unsupported(what: String, supported: &str) -> Self {
        Error::Unsupported {
            what,
            supported: supported.to_string(),
        }
    }
}

/// `Result` with the library's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl From<cudarc::driver::DriverError> for Error {
    fn from(e: cudarc::driver::DriverError) -> Self {
        use cudarc::driver::sys::CUresult;
        match e.0 {
            CUresult::CUDA_ERROR_OUT_OF_MEMORY => Error::OutOfMemory(format!("{e:?}")),
            CUresult::CUDA_ERROR_NO_DEVICE | CUresult::CUDA_ERROR_NOT_INITIALIZED => {
                Error::NoGpu(format!("{e:?}"))
            }
            _ => Error::Driver(format!("{e:?}")),
        }
    }
}
