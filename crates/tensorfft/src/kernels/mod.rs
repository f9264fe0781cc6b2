//! CUDA C++ kernel templates (`cuda/*.cuh`) and their instantiation per recipe.

pub mod instantiate;

pub use instantiate::KernelSource;
