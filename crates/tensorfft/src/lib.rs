//! tensorfft: fast Fourier transforms on NVIDIA GPUs.
//!
//! A plan fixes shape, precision and options, chooses the algorithm once (a [`Schedule`] of
//! passes, each kernel configured by a [`Recipe`]), compiles its CUDA kernels with NVRTC and runs
//! them many times. A CPU reference executor runs the same schedule, so everything but the GPU
//! itself is tested without one.
//!
//! ```no_run
//! use tensorfft::{Gpu, Precision, Shape};
//! use num_complex::Complex;
//! # fn main() -> tensorfft::Result<()> {
//! let gpu = Gpu::new(0)?;
//! let plan = gpu.plan_c2c(&Shape::new([4096]).batch(8), Precision::F32)?;
//! let x = vec![Complex::new(1.0f32, 0.0); 4096 * 8];
//! let mut data = gpu.upload(&x)?;
//! plan.forward(&mut data)?;
//! let y = gpu.download(&data)?;
//! assert!((y[0].re - 4096.0).abs() < 1e-2);
//! # Ok(()) }
//! ```
#![warn(missing_docs)]

pub mod cpu;
pub mod element;
pub mod error;
pub mod gpu;
pub mod kernels;
pub mod ntt;
pub mod plan;

pub use element::Element;
pub use error::{Error, Result};
pub use gpu::ntt_plan::GpuNttPlan;
pub use gpu::{DeviceBuffer, Gpu, GpuPlan, RawBuffer};
pub use plan::{
    plan_c2c_recipe, plan_c2c_schedule, Direction, ExchangeFormat, IoMode, Layout, Normalization,
    PlanOptions, Precision, Recipe, Schedule, Shape, StageScale, Strides, Tuning, TwiddleSource,
    Wisdom, WisdomEntry, WisdomKey,
};
