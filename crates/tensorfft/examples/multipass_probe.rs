//! A quick device probe of multi-pass plans, independent of the CLI: for each shape, plan, run
//! forward out of place and in place on fresh random data (outputs poisoned with NaN first),
//! compare a few transforms with the f64 oracle, and time the plan against a device copy of the
//! same bytes. `cargo run --release --example multipass_probe -- f32 1024x1024 65536 ...`
//! (2^27 elements per shape, f64 2^26; `TFFT_TOTAL` sets another count, e.g. a small one for
//! compute-sanitizer).

#[path = "common/env_tuning.rs"]
mod env_tuning;

use num_complex::Complex;
use tensorfft::cpu::oracle::{oracle_c2c_nd, relative_l2};
use tensorfft::gpu::timer::EventTimer;
use tensorfft::{Direction, Element, Gpu, Normalization, Precision, Shape};

fn median(gpu: &Gpu, f: &mut dyn FnMut() -> tensorfft::Result<()>) -> tensorfft::Result<f64> {
    let timer = EventTimer::new(gpu)?;
    for _ in 0..3 {
        f()?;
    }
    let mut v = Vec::new();
    for _ in 0..15 {
        v.push(timer.time(gpu, &mut *f)?);
    }
    v.sort_by(f64::total_cmp);
    Ok(v[v.len() / 2])
}

fn probe<T: Element>(
    gpu: &Gpu,
    precision: Precision,
    dims: &[usize],
    total: usize,
) -> tensorfft::Result<()> {
    let n: usize = dims.iter().product();
    let batch = (total / n).max(1);
    // Tuning from the environment, for experiments (common/env_tuning.rs).
    let opts = tensorfft::PlanOptions::tuned(env_tuning::tuning_from_env());
    let plan = gpu.plan_c2c_with(&Shape::from_dims(dims).batch(batch), precision, &opts)?;
    if std::env::var("TFFT_SHOW").is_ok() {
        println!("{}", plan.schedule());
    }
    let len = plan.len();
    let mut state = 0x9e3779b97f4a7c15u64 ^ (len as u64);
    let mut rnd = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let x: Vec<T> = (0..len)
        .map(|_| T::from_c64(Complex::new(rnd(), rnd())))
        .collect();
    let input = gpu.upload(&x)?;
    let mut out = gpu.alloc::<T>(len)?;
    // Accuracy: the first and last transform, out of place and in place.
    gpu.poison(&mut out)?;
    plan.execute_into(Direction::Forward, &input, &mut out)?;
    let y = gpu.download(&out)?;
    let mut inplace = gpu.upload(&x)?;
    plan.execute_in_place(Direction::Forward, &mut inplace)?;
    let yi = gpu.download(&inplace)?;
    let mut err: f64 = 0.0;
    for t in [0, batch - 1] {
        let r = t * n..(t + 1) * n;
        let xw: Vec<Complex<f64>> = x[r.clone()].iter().map(|e| e.to_c64()).collect();
        let want = oracle_c2c_nd(&xw, dims, Direction::Forward, Normalization::None);
        for got in [&y, &yi] {
            let g: Vec<Complex<f64>> = got[r.clone()].iter().map(|e| e.to_c64()).collect();
            err = err.max(relative_l2(&g, &want));
        }
    }
    let bound = plan.schedule().error_bound();
    let bytes = 2.0 * (len * std::mem::size_of::<T>()) as f64;
    let copy_ms = median(gpu, &mut || gpu.copy(&input, &mut out))?;
    let ms = median(gpu, &mut || {
        plan.execute_into(Direction::Forward, &input, &mut out)
    })?;
    let (regs, spill, blocks) = plan.kernel_resources()?;
    println!(
        "{} {:?} x{batch}: passes={} regs={regs} spill={spill} blocks/SM={blocks} err={err:.2e} bound={bound:.1e} {} | {ms:.3} ms, {:.0} GB/s, {:.1}% of copy ({:.0} GB/s)",
        precision.name(),
        dims,
        plan.schedule().passes.len(),
        if err <= bound { "ok" } else { "FAIL" },
        bytes / ms / 1e6,
        100.0 * copy_ms / ms,
        bytes / copy_ms / 1e6
    );
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let gpu = match Gpu::new(0) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("no GPU: {e}");
            std::process::exit(2);
        }
    };
    let mut precision = Precision::F32;
    for a in &args {
        if let Some(p) = Precision::parse(a) {
            precision = p;
            continue;
        }
        let dims: Vec<usize> = a.split('x').filter_map(|d| d.parse().ok()).collect();
        // Elements in all: TFFT_TOTAL, else 2^27 (f64 2^26).
        let total = std::env::var("TFFT_TOTAL")
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(if precision == Precision::F64 {
                1 << 26
            } else {
                1 << 27
            });
        let r = match precision {
            Precision::F16 => probe::<Complex<half::f16>>(&gpu, precision, &dims, total),
            Precision::BF16 => probe::<Complex<half::bf16>>(&gpu, precision, &dims, total),
            Precision::F64 => probe::<Complex<f64>>(&gpu, precision, &dims, total),
            Precision::F32 | Precision::F32Split => {
                probe::<Complex<f32>>(&gpu, precision, &dims, total)
            }
        };
        if let Err(e) = r {
            println!("{} {dims:?}: error {e}", precision.name());
        }
    }
}
