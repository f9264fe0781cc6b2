//! `tfft demo`: one transform, on the GPU if there is one, else on the CPU reference executor.

use crate::data::{fresh_seed, random, sample_transforms, sampled_error};
use crate::plan_info::{describe_cpu, error_bound, run_reference};
use half::f16;
use num_complex::Complex;
use std::process::ExitCode;
use std::time::Instant;
use tensorfft::gpu::timer::EventTimer;
use tensorfft::{Direction, Element, Gpu, Normalization, PlanOptions, Precision, Shape};

pub fn run(
    n: usize,
    batch: usize,
    precision: Precision,
    force_cpu: bool,
) -> Result<ExitCode, tensorfft::Error> {
    match precision {
        Precision::F16 => run_typed::<Complex<f16>>(n, batch, force_cpu),
        Precision::BF16 => run_typed::<Complex<half::bf16>>(n, batch, force_cpu),
        Precision::F64 => run_typed::<Complex<f64>>(n, batch, force_cpu),
        _ => run_typed::<Complex<f32>>(n, batch, force_cpu),
    }
}

fn run_typed<T: Element>(
    n: usize,
    batch: usize,
    force_cpu: bool,
) -> Result<ExitCode, tensorfft::Error> {
    let shape = Shape::new([n]).batch(batch);
    let recipe = describe_cpu(&shape, T::PRECISION, &PlanOptions::default())?;
    let x: Vec<T> = random(shape.total_elements()?, fresh_seed());
    let gpu = if force_cpu {
        None
    } else {
        Gpu::new(0)
            .map_err(|e| println!("no GPU ({e}); using the CPU reference executor"))
            .ok()
    };
    let (y, ms, backend) = match gpu {
        Some(gpu) => {
            let plan = gpu.plan_c2c(&shape, T::PRECISION)?;
            let input = gpu.upload(&x)?;
            let mut output = gpu.alloc::<T>(x.len())?;
            gpu.poison(&mut output)?;
            plan.forward_into(&input, &mut output)?; // warm-up
            let timer = EventTimer::new(&gpu)?;
            let ms = timer.time(&gpu, || plan.forward_into(&input, &mut output))?;
            (
                gpu.download(&output)?,
                ms,
                format!(
                    "GPU {} (plan created in {:.1} ms, {:?})",
                    gpu.info().name,
                    plan.creation().ms,
                    plan.creation().origin
                ),
            )
        }
        None => {
            let t = Instant::now();
            let y = run_reference(&recipe, Direction::Forward, &x)?;
            (
                y,
                t.elapsed().as_secs_f64() * 1e3,
                "CPU reference executor".to_string(),
            )
        }
    };
    let samples = sample_transforms(batch, 16);
    let err = sampled_error(
        &x,
        &y,
        &[n],
        Direction::Forward,
        Normalization::None,
        &samples,
    );
    let bound = error_bound(&recipe);
    println!("backend:   {backend}");
    println!(
        "transform: forward C2C {} N={n} batch={batch}",
        T::PRECISION.name()
    );
    println!("recipe:    {recipe}");
    println!(
        "time:      {ms:.3} ms ({:.1} GB/s read+write)",
        2.0 * (x.len() * std::mem::size_of::<T>()) as f64 / ms / 1e6
    );
    println!(
        "error:     {err:.3e} relative L2 vs f64 oracle on {} transforms (bound {bound:.1e})",
        samples.len()
    );
    Ok(if err <= bound {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
