//! `tfft info`: what the device and the toolchain offer.

use std::process::ExitCode;
use tensorfft::gpu::{libraries, module_cache, nvrtc};
use tensorfft::Gpu;

pub fn run() -> Result<ExitCode, tensorfft::Error> {
    println!("kernel cache: {}", module_cache::cache_dir().display());
    match nvrtc::version() {
        Ok((a, b)) => println!("NVRTC:        {a}.{b}"),
        Err(e) => println!("NVRTC:        not available ({e})"),
    }
    println!(
        "cuFFT:        {}",
        if libraries::cufft_present() {
            "present"
        } else {
            "not found"
        }
    );
    match Gpu::new(0) {
        Ok(gpu) => {
            let i = gpu.info();
            println!("device 0:     {}", i.name);
            println!(
                "arch:         {} (compute capability {}.{})",
                gpu.arch(),
                i.compute_capability.0,
                i.compute_capability.1
            );
            println!("SMs:          {}", i.multiprocessors);
            println!(
                "memory:       {:.1} GiB",
                i.total_memory as f64 / (1u64 << 30) as f64
            );
            println!("L2:           {} MiB", i.l2_bytes >> 20);
            println!(
                "shared/block: {} KiB (opt-in)",
                i.shared_per_block_optin >> 10
            );
            println!("shared/SM:    {} KiB", i.shared_per_multiprocessor >> 10);
            println!(
                "clusters:     {}",
                if i.cluster_launch {
                    "supported"
                } else {
                    "not supported"
                }
            );
            println!(
                "driver:       {}.{}",
                i.driver_version / 1000,
                (i.driver_version % 1000) / 10
            );
        }
        Err(e) => println!("GPU:          none ({e})"),
    }
    Ok(ExitCode::SUCCESS)
}
