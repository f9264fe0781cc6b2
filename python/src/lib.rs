//! `tensorfft._tensorfft`: the compiled core of the `tensorfft` Python package.
//!
//! It exposes plans over raw device pointers and the caller's CUDA stream; the Python package
//! (`python/tensorfft`) turns PyTorch and CuPy tensors into those pointers, allocates outputs
//! and scratch with the caller's framework, and implements the `torch.fft`-style functions,
//! autograd and the plan cache.

mod devices;
mod errors;
mod ntt;
mod plan;

use pyo3::prelude::*;

/// The direction a Python `forward` flag names.
fn direction(forward: bool) -> tensorfft::Direction {
    if forward {
        tensorfft::Direction::Forward
    } else {
        tensorfft::Direction::Inverse
    }
}

/// The compiled module.
#[pymodule]
fn _tensorfft(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<plan::Plan>()?;
    m.add_class::<ntt::NttPlan>()?;
    m.add_function(wrap_pyfunction!(ntt::ntt_friendly_primes, m)?)?;
    m.add("BABY_BEAR", tensorfft::ntt::BABY_BEAR)?;
    m.add("KOALA_BEAR", tensorfft::ntt::KOALA_BEAR)?;
    m.add("GOLDILOCKS", tensorfft::ntt::GOLDILOCKS)?;
    m.add("FHE_62", tensorfft::ntt::FHE_62)?;
    m.add("PRIME_32", tensorfft::ntt::PRIME_32)?;
    m.add_function(wrap_pyfunction!(devices::gpu_status, m)?)?;
    m.add_function(wrap_pyfunction!(devices::device_name, m)?)?;
    m.add_function(wrap_pyfunction!(devices::set_wisdom, m)?)?;
    m.add_function(wrap_pyfunction!(plan::supported_precisions, m)?)?;
    m.add_function(wrap_pyfunction!(plan::plan_schedule, m)?)?;
    Ok(())
}
