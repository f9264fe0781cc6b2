//! One [`Gpu`] handle per device, shared by every plan of the process (one context — the
//! device's primary context, as PyTorch and CuPy use — and one kernel cache).

use crate::errors::to_py;
use pyo3::prelude::*;
use std::collections::HashMap;
use std::sync::Mutex;
use tensorfft::Gpu;

static HANDLES: Mutex<Option<HashMap<usize, Gpu>>> = Mutex::new(None);

/// The handle of device `ordinal`, opened on first use.
pub fn handle(ordinal: usize) -> tensorfft::Result<Gpu> {
    let mut guard = HANDLES
        .lock()
        .map_err(|_| tensorfft::Error::Driver("device table poisoned by a panic".into()))?;
    let table = guard.get_or_insert_with(HashMap::new);
    if let Some(gpu) = table.get(&ordinal) {
        return Ok(gpu.clone());
    }
    let gpu = Gpu::new(ordinal)?;
    table.insert(ordinal, gpu.clone());
    Ok(gpu)
}

/// `(True, "")` when device `ordinal` can be opened (driver, device and NVRTC present), else
/// `(False, why)`: the message a user without a GPU sees.
#[pyfunction]
#[pyo3(signature = (ordinal = 0))]
pub fn gpu_status(py: Python<'_>, ordinal: usize) -> (bool, String) {
    match py.detach(|| handle(ordinal)) {
        Ok(_) => (true, String::new()),
        Err(e) => (false, e.to_string()),
    }
}

/// The device's name and compute capability, e.g. `("NVIDIA H200", (9, 0))`.
#[pyfunction]
#[pyo3(signature = (ordinal = 0))]
pub fn device_name(py: Python<'_>, ordinal: usize) -> PyResult<(String, (i32, i32))> {
    let gpu = py.detach(|| handle(ordinal)).map_err(to_py)?;
    Ok((gpu.info().name.clone(), gpu.info().compute_capability))
}
