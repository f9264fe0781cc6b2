//! Writes the CUBIN (compiled by NVRTC, no GPU needed) and CUDA source of one recipe, for
//! inspecting registers and SASS with `cuobjdump -sass` / `-res-usage`.
//!
//! `cargo run --release --example emit_cubin -- f32 4096 [elements_per_thread] [max_radix] [direct|staged|-] [tc|cc|-] [h2|-] [stream|-] [twd]`

use tensorfft::gpu::nvrtc::compile_cubin;
use tensorfft::kernels::KernelSource;
use tensorfft::{plan_c2c_recipe, IoMode, PlanOptions, Precision, Shape, Tuning};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let precision =
        Precision::parse(args.first().map(String::as_str).unwrap_or("f32")).ok_or("precision")?;
    let n: usize = args.get(1).map(|s| s.parse()).transpose()?.unwrap_or(4096);
    let e: Option<usize> = args.get(2).map(|s| s.parse()).transpose()?;
    let max_radix: Option<usize> = args.get(3).map(|s| s.parse()).transpose()?;
    let io = match args.get(4).map(String::as_str) {
        Some("staged") => Some(IoMode::Staged),
        Some("direct") => Some(IoMode::Direct),
        _ => None,
    };
    let tensor_cores = match args.get(5).map(String::as_str) {
        Some("tc") => Some(true),
        Some("cc") => Some(false),
        _ => None,
    };
    let half_arithmetic = args.get(6).filter(|s| *s != "-").map(|s| s == "h2");
    let stream_loads = args.get(7).filter(|s| *s != "-").map(|s| s == "stream");
    let derived_twiddles = args.get(8).map(|s| s == "twd");
    let tuning = Tuning {
        tensor_cores,
        half_arithmetic,
        elements_per_thread: e,
        max_radix,
        io,
        stream_loads,
        derived_twiddles,
        ..Default::default()
    };
    let recipe = plan_c2c_recipe(&Shape::new([n]), precision, &PlanOptions::tuned(tuning))?;
    let k = KernelSource::single_pass(&recipe);
    let cubin = compile_cubin(&k.source, &k.stem, "sm_90")?;
    std::fs::write(format!("{}.cubin", k.stem), cubin)?;
    std::fs::write(format!("{}.cu", k.stem), &k.source)?;
    println!("{recipe}\nwrote {}.cubin and {}.cu", k.stem, k.stem);
    Ok(())
}
