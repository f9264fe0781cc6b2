//! GPU side: runtime (context, stream, device properties), NVRTC and the module cache, device
//! buffers, executable plans, timing, and the cuFFT baseline used by `tfft bench`.

pub mod buffer;
pub mod cufft_baseline;
pub(crate) mod launch;
pub mod libraries;
pub mod module_cache;
pub mod ntt_plan;
pub mod nvrtc;
pub mod plan;
pub mod runtime;
pub mod timer;

pub use buffer::DeviceBuffer;
pub use plan::{GpuPlan, RawBuffer};
pub use runtime::{DeviceInfo, Gpu};
