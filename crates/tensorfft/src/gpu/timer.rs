//! Event-based timing of work on a [`Gpu`]'s stream.

use super::runtime::Gpu;
use crate::error::Result;
use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::CudaEvent;

/// A pair of timing events (created with `CU_EVENT_DEFAULT`, so they can be timed).
///
/// ```no_run
/// let gpu = tensorfft::Gpu::new(0).unwrap();
/// let timer = tensorfft::gpu::timer::EventTimer::new(&gpu).unwrap();
/// let ms = timer.time(&gpu, || Ok(())).unwrap();
/// assert!(ms >= 0.0);
/// ```
pub struct EventTimer {
    start: CudaEvent,
    stop: CudaEvent,
}

impl EventTimer {
    /// Two fresh timing events.
    ///
    /// ```no_run
    /// let _t = tensorfft::gpu::timer::EventTimer::new(&tensorfft::Gpu::new(0).unwrap()).unwrap();
    /// ```
    pub fn new(gpu: &Gpu) -> Result<Self> {
        let ctx = gpu.context();
        Ok(EventTimer {
            start: ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?,
            stop: ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?,
        })
    }

    /// Milliseconds of device time taken by the work `f` queues on the stream.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let timer = tensorfft::gpu::timer::EventTimer::new(&gpu).unwrap();
    /// let ms = timer.time(&gpu, || gpu.synchronize()).unwrap();
    /// # let _ = ms;
    /// ```
    pub fn time(&self, gpu: &Gpu, f: impl FnOnce() -> Result<()>) -> Result<f64> {
        self.start.record(gpu.stream())?;
        f()?;
        self.stop.record(gpu.stream())?;
        self.stop.synchronize()?;
        Ok(self.start.elapsed_ms(&self.stop)? as f64)
    }
}
