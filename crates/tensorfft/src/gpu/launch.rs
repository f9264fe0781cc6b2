//! Kernel launches through `cuLaunchKernelEx`, optionally as programmatic dependent launches
//! (sm_90): the kernel may start while the one before it on the stream finishes, and waits for
//! it inside (`kernels/cuda/dependent_launch.cuh`), so the launch latency between the passes of
//! a plan overlaps the previous pass.

use crate::error::Result;
use cudarc::driver::sys;
use cudarc::driver::{CudaFunction, CudaStream, DeviceRepr, LaunchConfig};
use std::ffi::c_void;
use std::marker::PhantomData;

/// The arguments of one kernel launch, each a reference to a value of the kernel's parameter
/// type, in the kernel's order.
pub(crate) struct KernelArgs<'a> {
    pointers: Vec<*mut c_void>,
    values: PhantomData<&'a ()>,
}

impl<'a> KernelArgs<'a> {
    /// No arguments yet.
    pub(crate) fn new() -> Self {
        KernelArgs {
            pointers: Vec::with_capacity(8),
            values: PhantomData,
        }
    }

    /// Appends the next argument (the value is read when the kernel is launched).
    pub(crate) fn arg<T: DeviceRepr>(&mut self, value: &'a T) -> &mut Self {
        self.pointers.push(value as *const T as *mut c_void);
        self
    }

    /// Queues `function` on `stream` with these arguments; `dependent` adds the
    /// programmatic-stream-serialization attribute (every kernel template waits for the
    /// previous kernel itself before it touches device memory).
    ///
    /// # Safety
    /// The arguments must match the kernel's parameters in number, order and type, and the
    /// launch shape must be one the kernel accepts.
    pub(crate) unsafe fn launch(
        &mut self,
        stream: &CudaStream,
        function: &CudaFunction,
        cfg: LaunchConfig,
        dependent: bool,
    ) -> Result<()> {
        stream.context().bind_to_thread()?;
        // SAFETY: an all-zero launch attribute is a valid (ignored) value of the C union.
        let mut attribute: sys::CUlaunchAttribute = unsafe { std::mem::zeroed() };
        attribute.id =
            sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
        attribute.value.programmaticStreamSerializationAllowed = 1;
        let config = sys::CUlaunchConfig {
            gridDimX: cfg.grid_dim.0,
            gridDimY: cfg.grid_dim.1,
            gridDimZ: cfg.grid_dim.2,
            blockDimX: cfg.block_dim.0,
            blockDimY: cfg.block_dim.1,
            blockDimZ: cfg.block_dim.2,
            sharedMemBytes: cfg.shared_mem_bytes,
            hStream: stream.cu_stream(),
            attrs: if dependent {
                &mut attribute
            } else {
                std::ptr::null_mut()
            },
            numAttrs: u32::from(dependent),
        };
        // SAFETY: `config` and `attribute` live across the call; the argument pointers refer to
        // values borrowed for 'a, laid out as the kernel's parameters (the caller's contract).
        unsafe {
            sys::cuLaunchKernelEx(
                &config,
                function.cu_function(),
                self.pointers.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        }
        .result()?;
        Ok(())
    }
}
