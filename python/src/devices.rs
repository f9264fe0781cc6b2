//! One [`Gpu`] handle per device, shared by every plan of the process (one context — the
//! device's primary context, as PyTorch and CuPy use — and one kernel cache).

use crate::errors::to_py;
use pyo3::prelude::*;
use std::collections::HashMap;
use std::sync::Mutex;
use tensorfft::{Gpu, Wisdom};

static HANDLES: Mutex<Option<HashMap<usize, Gpu>>> = Mutex::new(None);
/// The wisdom every handle consults (`tensorfft.load_wisdom`), applied to handles opened later.
static WISDOM: Mutex<Option<Wisdom>> = Mutex::new(None);

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
    if let Ok(w) = WISDOM.lock() {
        gpu.set_wisdom(w.clone());
    }
    table.insert(ordinal, gpu.clone());
    Ok(gpu)
}

/// Makes every device's later plans consult the wisdom file at `path` (written by `tfft tune`),
/// or none (`None`); returns how many entries it holds. A file that cannot be read or parsed
/// raises `ValueError` and leaves the wisdom as it was.
#[pyfunction]
#[pyo3(signature = (path = None))]
pub fn set_wisdom(py: Python<'_>, path: Option<std::path::PathBuf>) -> PyResult<usize> {
    let wisdom = match path {
        Some(p) => Some(py.detach(|| Wisdom::load(&p)).map_err(to_py)?),
        None => None,
    };
    let count = wisdom.as_ref().map_or(0, |w| w.entries.len());
    let poisoned = || tensorfft::Error::Driver("wisdom table poisoned by a panic".into());
    *WISDOM.lock().map_err(|_| to_py(poisoned()))? = wisdom.clone();
    let handles = HANDLES.lock().map_err(|_| to_py(poisoned()))?;
    for gpu in handles.iter().flat_map(|t| t.values()) {
        gpu.set_wisdom(wisdom.clone());
    }
    Ok(count)
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
