//! `tfft bench`: tensorfft against cuFFT and a device-to-device copy, in one process, on the same
//! device buffers; median of event-timed runs after warm-up; errors against the f64 oracle.

use crate::data::{all_finite, fresh_seed, random, sample_transforms, sampled_error};
use crate::report::RunMeta;
use crate::{CaseArgs, Suite};
use half::f16;
use num_complex::Complex;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::process::ExitCode;
use tensorfft::gpu::cufft_baseline::CufftPlan;
use tensorfft::gpu::timer::EventTimer;
use tensorfft::{
    DeviceBuffer, Direction, Element, Gpu, Normalization, PlanOptions, Precision, Shape, Tuning,
};

/// Elements per row: the batched shapes of the cuFFT anchors (2^27 complex values).
const ELEMENTS: usize = 1 << 27;
const WARMUP: usize = 3;

/// One timed alternative recipe of a row.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct VariantRow {
    pub recipe: String,
    pub ms: f64,
    pub pct_copy: f64,
    pub rel_l2: f64,
}

/// One benchmark row.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct BenchRow {
    pub precision: String,
    pub direction: String,
    pub n: usize,
    pub batch: usize,
    pub bytes: usize,
    pub copy_ms: f64,
    pub copy_gbs: f64,
    pub tfft_ms: f64,
    pub tfft_ms_min: f64,
    pub tfft_ms_max: f64,
    pub tfft_gbs: f64,
    pub tfft_pct_copy: f64,
    pub tfft_rel_l2: f64,
    pub cufft_ms: Option<f64>,
    pub cufft_gbs: Option<f64>,
    pub cufft_pct_copy: Option<f64>,
    pub cufft_rel_l2: Option<f64>,
    pub speedup_vs_cufft: Option<f64>,
    pub plan_ms: f64,
    pub plan_origin: String,
    pub recipe: String,
    pub variants: Vec<VariantRow>,
}

/// A whole bench report.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct BenchReport {
    pub meta: serde_json::Value,
    pub reps: usize,
    pub rows: Vec<BenchRow>,
}

fn suite_rows(suite: Suite) -> Vec<(Precision, usize)> {
    let pick = |p: Precision, lgs: &[u32]| {
        lgs.iter()
            .map(move |&l| (p, 1usize << l))
            .collect::<Vec<_>>()
    };
    match suite {
        Suite::Smoke => [
            pick(Precision::F32, &[8, 12]),
            pick(Precision::F16, &[8, 12]),
        ]
        .concat(),
        Suite::Full => [
            pick(Precision::F32, &[4, 6, 8, 10, 12, 13]),
            pick(Precision::F16, &[4, 6, 8, 10, 12, 13, 14]),
            pick(Precision::F64, &[4, 6, 8, 10, 12]),
        ]
        .concat(),
    }
}

pub fn run(
    suite: Suite,
    case: &CaseArgs,
    json: Option<&Path>,
    plot: Option<&Path>,
    variants: Option<&str>,
    reps: usize,
    only: &[Precision],
) -> Result<ExitCode, tensorfft::Error> {
    let gpu = Gpu::new(0)?;
    let seed = fresh_seed();
    let dir: Direction = case.direction.into();
    let rows_to_run: Vec<(Precision, usize, usize)> = match case.n {
        Some(n) => vec![(
            case.precision,
            n,
            case.batch.unwrap_or((ELEMENTS / n).max(1)),
        )],
        None => suite_rows(suite)
            .into_iter()
            .filter(|(p, _)| only.is_empty() || only.contains(p))
            .map(|(p, n)| {
                let total = if p == Precision::F64 {
                    ELEMENTS / 2
                } else {
                    ELEMENTS
                };
                (p, n, total / n)
            })
            .collect(),
    };
    println!(
        "tfft bench on {} ({} rows, {reps} timed runs each, seed {seed})",
        gpu.info().name,
        rows_to_run.len()
    );
    let bar = crate::progress::bar(rows_to_run.len());
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for (i, &(p, n, batch)) in rows_to_run.iter().enumerate() {
        bar.set_message(format!("{} N={n}", p.name()));
        let s = seed.wrapping_add(i as u64);
        let row = match p {
            Precision::F16 => bench_row::<Complex<f16>>(&gpu, n, batch, dir, reps, variants, s),
            Precision::F64 => bench_row::<Complex<f64>>(&gpu, n, batch, dir, reps, variants, s),
            _ => bench_row::<Complex<f32>>(&gpu, n, batch, dir, reps, variants, s),
        };
        match row {
            Ok(r) => {
                bar.println(row_line(&r));
                rows.push(r);
            }
            Err(e) => {
                let line = format!("ERROR {} N={n}: {e}", p.name());
                bar.println(&line);
                errors.push(line);
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let meta = serde_json::to_value(RunMeta::new(&gpu, seed)).unwrap_or_default();
    let report = BenchReport { meta, reps, rows };
    println!("\n{}", header());
    for r in &report.rows {
        println!("{}", row_line(r));
        let mut variants: Vec<&VariantRow> = r.variants.iter().collect();
        variants.sort_by(|a, b| a.ms.total_cmp(&b.ms));
        for v in variants {
            println!(
                "      variant {:.4} ms {:5.1}% err {:.2e}  {}",
                v.ms, v.pct_copy, v.rel_l2, v.recipe
            );
        }
    }
    for e in &errors {
        println!("{e}");
    }
    if let Some(path) = json {
        std::fs::write(
            path,
            serde_json::to_string_pretty(&report).unwrap_or_default(),
        )?;
        println!("wrote {}", path.display());
    }
    if let Some(path) = plot {
        crate::plot::draw(&report, path)?;
        println!("wrote {}", path.display());
    }
    Ok(if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn header() -> String {
    format!(
        "{:<4} {:>6} {:>8} | {:>8} {:>6} {:>6} {:>9} | {:>8} {:>6} {:>9} | {:>6} | {:>8}",
        "prec",
        "N",
        "batch",
        "tfft ms",
        "GB/s",
        "%copy",
        "err",
        "cufft ms",
        "%copy",
        "err",
        "speed",
        "plan ms"
    )
}

fn row_line(r: &BenchRow) -> String {
    let opt = |v: Option<f64>, w: usize, p: usize| {
        v.map(|x| format!("{x:>w$.p$}"))
            .unwrap_or_else(|| format!("{:>w$}", "-"))
    };
    let err = |v: Option<f64>| {
        v.map(|x| format!("{x:>9.2e}"))
            .unwrap_or_else(|| format!("{:>9}", "-"))
    };
    format!(
        "{:<4} {:>6} {:>8} | {:>8.4} {:>6.0} {:>6.1} {:>9.2e} | {} {} {} | {}x | {:>8.1}",
        r.precision,
        r.n,
        r.batch,
        r.tfft_ms,
        r.tfft_gbs,
        r.tfft_pct_copy,
        r.tfft_rel_l2,
        opt(r.cufft_ms, 8, 4),
        opt(r.cufft_pct_copy, 6, 1),
        err(r.cufft_rel_l2),
        opt(r.speedup_vs_cufft, 5, 2),
        r.plan_ms
    )
}

/// Median, min and max of `reps` event-timed runs of `f`, after warm-up.
fn time_runs(
    gpu: &Gpu,
    reps: usize,
    mut f: impl FnMut() -> Result<(), tensorfft::Error>,
) -> Result<(f64, f64, f64), tensorfft::Error> {
    for _ in 0..WARMUP {
        f()?;
    }
    gpu.synchronize()?;
    let timer = EventTimer::new(gpu)?;
    let mut ts = Vec::with_capacity(reps);
    for _ in 0..reps {
        ts.push(timer.time(gpu, &mut f)?);
    }
    ts.sort_by(f64::total_cmp);
    Ok((ts[ts.len() / 2], ts[0], ts[ts.len() - 1]))
}

/// Poisons `out`, runs `f` once, and measures the sampled error against the oracle.
fn accuracy<T: Element>(
    gpu: &Gpu,
    x: &[T],
    out: &mut DeviceBuffer<T>,
    n: usize,
    dir: Direction,
    samples: &[usize],
    f: impl FnOnce(&mut DeviceBuffer<T>) -> Result<(), tensorfft::Error>,
) -> Result<f64, tensorfft::Error> {
    gpu.poison(out)?;
    f(out)?;
    let y = gpu.download(out)?;
    Ok(if all_finite(&y) {
        sampled_error(x, &y, n, dir, Normalization::None, samples)
    } else {
        f64::INFINITY
    })
}

#[allow(clippy::too_many_arguments)]
fn bench_row<T: Element>(
    gpu: &Gpu,
    n: usize,
    batch: usize,
    dir: Direction,
    reps: usize,
    variants: Option<&str>,
    seed: u64,
) -> Result<BenchRow, tensorfft::Error> {
    let shape = Shape::new([n]).batch(batch);
    let len = shape.total_elements()?;
    let bytes = len * std::mem::size_of::<T>();
    let x: Vec<T> = random(len, seed);
    let input = gpu.upload(&x)?;
    let mut out = gpu.alloc::<T>(len)?;
    let samples = sample_transforms(batch, 64);
    let gbs = |ms: f64| 2.0 * bytes as f64 / ms / 1e6;

    let (copy_ms, _, _) = time_runs(gpu, reps, || gpu.copy(&input, &mut out))?;
    let copy_gbs = gbs(copy_ms);

    let plan = gpu.plan_c2c(&shape, T::PRECISION)?;
    let (tfft_ms, tfft_ms_min, tfft_ms_max) =
        time_runs(gpu, reps, || plan.execute_into(dir, &input, &mut out))?;
    let tfft_rel_l2 = accuracy(gpu, &x, &mut out, n, dir, &samples, |o| {
        plan.execute_into(dir, &input, o)
    })?;

    let cufft = CufftPlan::new(gpu, n, batch, T::PRECISION);
    let (cufft_ms, cufft_rel_l2) = match &cufft {
        Ok(c) => {
            let (ms, _, _) = time_runs(gpu, reps, || c.execute(dir, &input, &mut out))?;
            let err = accuracy(gpu, &x, &mut out, n, dir, &samples, |o| {
                c.execute(dir, &input, o)
            })?;
            (Some(ms), Some(err))
        }
        Err(e) => {
            eprintln!(
                "cuFFT baseline unavailable for {} N={n}: {e}",
                T::PRECISION.name()
            );
            (None, None)
        }
    };
    drop(cufft);

    let mut variant_rows = Vec::new();
    if let Some(matching) = variants {
        let mut seen = vec![plan.recipe().clone()];
        for tuning in Tuning::sweep() {
            let opts = PlanOptions::tuned(tuning);
            // Filter on the CPU-side recipe first, so skipped variants cost no compilation.
            match tensorfft::plan_c2c_recipe(&shape, T::PRECISION, &opts) {
                Ok(r) if r.to_string().contains(matching) => {}
                _ => continue,
            }
            let Ok(vplan) = gpu.plan_c2c_with(&shape, T::PRECISION, &opts) else {
                continue;
            };
            if seen.contains(vplan.recipe()) {
                continue;
            }
            seen.push(vplan.recipe().clone());
            let (ms, _, _) = time_runs(gpu, reps.min(20), || {
                vplan.execute_into(dir, &input, &mut out)
            })?;
            let err = accuracy(
                gpu,
                &x,
                &mut out,
                n,
                dir,
                &samples[..samples.len().min(8)],
                |o| vplan.execute_into(dir, &input, o),
            )?;
            let res = vplan
                .kernel_resources()
                .map(|(r, l, b)| format!(" regs={r} spill={l} blocks/SM={b}"))
                .unwrap_or_default();
            variant_rows.push(VariantRow {
                recipe: format!("{}{res}", vplan.recipe()),
                ms,
                pct_copy: 100.0 * gbs(ms) / copy_gbs,
                rel_l2: err,
            });
        }
    }

    Ok(BenchRow {
        precision: T::PRECISION.name().to_string(),
        direction: format!("{dir:?}").to_lowercase(),
        n,
        batch,
        bytes,
        copy_ms,
        copy_gbs,
        tfft_ms,
        tfft_ms_min,
        tfft_ms_max,
        tfft_gbs: gbs(tfft_ms),
        tfft_pct_copy: 100.0 * gbs(tfft_ms) / copy_gbs,
        tfft_rel_l2,
        cufft_ms,
        cufft_gbs: cufft_ms.map(gbs),
        cufft_pct_copy: cufft_ms.map(|ms| 100.0 * gbs(ms) / copy_gbs),
        cufft_rel_l2,
        speedup_vs_cufft: cufft_ms.map(|c| c / tfft_ms),
        plan_ms: plan.creation().ms,
        plan_origin: format!("{:?}", plan.creation().origin).to_lowercase(),
        recipe: format!(
            "{}{}",
            plan.recipe(),
            plan.kernel_resources()
                .map(|(r, l, b)| format!(" regs={r} spill={l} blocks/SM={b}"))
                .unwrap_or_default()
        ),
        variants: variant_rows,
    })
}
