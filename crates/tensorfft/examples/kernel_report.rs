//! Prints the assembler's resource report (registers, spills, stack frame, shared memory) of
//! every pass kernel of each shape's plan, compiled with NVRTC for sm_90 — no GPU needed:
//! `cargo run --release --example kernel_report -- f32 65536 f16 256x256`. Tuning from the
//! environment as in `multipass_probe`: TFFT_MAX_PASS, TFFT_CLUSTER, TFFT_PREFETCH;
//! TFFT_DUMP=dir writes each kernel's source and CUBIN there (for `nvdisasm` / `cuobjdump -sass`).

#[path = "common/env_tuning.rs"]
mod env_tuning;

use tensorfft::gpu::nvrtc::{compile_cubin, resource_report};
use tensorfft::kernels::KernelSource;
use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};

fn main() {
    let opts = PlanOptions::tuned(env_tuning::tuning_from_env());
    let mut precision = Precision::F32;
    for arg in std::env::args().skip(1) {
        if let Some(p) = Precision::parse(&arg) {
            precision = p;
            continue;
        }
        let dims: Vec<usize> = arg.split('x').filter_map(|d| d.parse().ok()).collect();
        let schedule = match plan_c2c_schedule(&Shape::from_dims(&dims), precision, &opts) {
            Ok(s) => s,
            Err(e) => {
                println!("{dims:?}: {e}");
                continue;
            }
        };
        println!("{schedule}");
        for pass in &schedule.passes {
            let k = KernelSource::pass(&pass.kernel);
            if let Ok(dir) = std::env::var("TFFT_DUMP") {
                let path = std::path::Path::new(&dir).join(format!("{}.cu", k.stem));
                if let Err(e) = std::fs::write(&path, &k.source) {
                    println!("    {}: {e}", path.display());
                }
                let cubin = std::path::Path::new(&dir).join(format!("{}.cubin", k.stem));
                match compile_cubin(&k.source, &k.stem, "sm_90") {
                    Ok(bytes) => {
                        if let Err(e) = std::fs::write(&cubin, bytes) {
                            println!("    {}: {e}", cubin.display());
                        }
                    }
                    Err(e) => println!("    {e}"),
                }
            }
            match resource_report(&k.source, &k.stem, "sm_90") {
                Ok(log) => log
                    .lines()
                    .filter(|l| l.contains("Used") || l.contains("stack frame"))
                    .for_each(|l| println!("    {}", l.trim())),
                Err(e) => println!("    {e}"),
            }
        }
    }
}
