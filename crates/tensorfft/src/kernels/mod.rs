//! CUDA C++ kernel templates (`cuda/*.cuh`) and their instantiation per recipe.

pub mod instantiate;
pub mod ntt_pointwise_source;
pub mod ntt_source;

pub use instantiate::KernelSource;
