//! `tfft bench`: tensorfft against cuFFT and a device-to-device copy, in one process, on the same
//! device buffers; median of event-timed runs after warm-up; errors against the f64 oracle.

use crate::data::{
    device_all_finite, download_samples, fits_device, fresh_seed, oracle_error, sample_count,
    sample_transforms, CaseInput,
};
use crate::plan_info::{describe, describe_cpu, PlanDescription};
use crate::report::RunMeta;
use crate::shape::{elements, shape_text};
use crate::{CaseArgs, Suite};
use half::f16;
use num_complex::Complex;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::process::ExitCode;
use tensorfft::gpu::cufft_baseline::CufftPlan;
use tensorfft::gpu::timer::EventTimer;
use tensorfft::{
    DeviceBuffer, Direction, Element, Error, Gpu, Normalization, PlanOptions, Precision, Shape,
    Tuning,
};

/// Elements per row: the batched shapes of the cuFFT anchors (2^27 complex values).
const ELEMENTS: usize = 1 << 27;
/// Warm-up before each measurement: at least this many calls ...
const WARMUP: usize = 3;
/// ... and at least this long (host time, the queue drained every few calls), as METHOD.md
/// asks (triton's `do_bench` warms up for 25 ms). It did not narrow the spread of ~10 µs rows
/// between processes (bench/NOTES.md step 86): that spread is not a clock ramp.
const WARMUP_MS: f64 = 25.0;
/// log2 of the 1D lengths of the cuFFT anchors (`cufft-h200.json`), powers of two up to 2^26.
const ANCHOR_1D: [u32; 13] = [4, 6, 8, 10, 12, 13, 14, 16, 18, 20, 22, 24, 26];
/// Extents of the square 2D shapes of the anchors.
const ANCHOR_2D: [usize; 5] = [256, 512, 1024, 4096, 8192];
/// Extents of the cubic 3D shapes of the anchors.
const ANCHOR_3D: [usize; 4] = [64, 128, 256, 512];

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
    /// Extents of one transform, slowest first (absent from reports before 2D and 3D: `[n]`).
    #[serde(default)]
    pub shape: Vec<usize>,
    /// Elements of one transform (the product of `shape`).
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
    /// Whether the timed plan launched its passes as programmatic dependent launches (absent,
    /// so false, in reports before they existed).
    #[serde(default)]
    pub dependent_launch: bool,
    /// Whether the timed plan took its tuning from a wisdom file (`tfft bench --wisdom`).
    #[serde(default)]
    pub from_wisdom: bool,
}

impl BenchRow {
    /// Extents of one transform (`[n]` for rows of reports that predate `shape`).
    pub fn dims(&self) -> Vec<usize> {
        if self.shape.is_empty() {
            vec![self.n]
        } else {
            self.shape.clone()
        }
    }
}

/// A whole bench report.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct BenchReport {
    pub meta: serde_json::Value,
    pub reps: usize,
    pub rows: Vec<BenchRow>,
}

/// Total elements of a row: 2^27, f64 2^26 (the cuFFT anchors' batched shapes).
pub(crate) fn row_elements(p: Precision) -> usize {
    if p == Precision::F64 {
        ELEMENTS / 2
    } else {
        ELEMENTS
    }
}

/// Rows of a suite: precision, extents, batch (total elements as the anchors: 2^27, f64 2^26,
/// at least one transform).
fn suite_rows(suite: Suite) -> Vec<(Precision, Vec<usize>, usize)> {
    let shapes: Vec<(Precision, Vec<usize>)> = match suite {
        Suite::Smoke => vec![
            (Precision::F32, vec![256]),
            (Precision::F32, vec![4096]),
            (Precision::F32, vec![1024, 1024]),
            (Precision::F32, vec![64, 64, 64]),
            (Precision::F16, vec![256]),
            (Precision::F16, vec![4096]),
        ],
        Suite::Full => [
            Precision::F32,
            Precision::F16,
            Precision::BF16,
            Precision::F64,
        ]
        .into_iter()
        .flat_map(|p| {
            let lines = ANCHOR_1D.iter().map(|&lg| vec![1usize << lg]);
            let images = ANCHOR_2D.iter().map(|&n| vec![n, n]);
            let volumes = ANCHOR_3D.iter().map(|&n| vec![n, n, n]);
            lines.chain(images).chain(volumes).map(move |d| (p, d))
        })
        // F32Split: the anchor lengths of its single pass (256 to 16384), beside cuFFT fp32.
        .chain(
            ANCHOR_1D
                .iter()
                .filter(|&&lg| (8..=14).contains(&lg))
                .map(|&lg| (Precision::F32Split, vec![1usize << lg])),
        )
        .collect(),
    };
    shapes
        .into_iter()
        .map(|(p, dims)| {
            let n = elements(&dims).unwrap_or(usize::MAX);
            (p, dims, (row_elements(p) / n).max(1))
        })
        .collect()
}

/// What a row gave: measurements, or why it was not run.
enum Outcome {
    Row(Box<BenchRow>),
    Skipped(String),
}

/// How the timed plans run, beside their defaults.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timed {
    /// Passes launched plainly, each after the previous kernel completes.
    pub plain_launches: bool,
    /// The tensor cores asked for (`Tuning::tensor_cores`: F16, BF16).
    pub tensor_cores: bool,
}

#[allow(clippy::too_many_arguments)]
pub fn run(
    suite: Suite,
    case: &CaseArgs,
    json: Option<&Path>,
    plot: Option<&Path>,
    variants: Option<&str>,
    reps: usize,
    only: &[Precision],
    timed: Timed,
    wisdom: Option<&Path>,
) -> Result<ExitCode, tensorfft::Error> {
    let gpu = Gpu::new(0)?;
    if let Some(path) = wisdom {
        gpu.set_wisdom(Some(tensorfft::Wisdom::load(path)?));
    }
    // The timed plans' options: the defaults, or plain launches (no programmatic dependent
    // launch between passes) for comparison, and the tensor cores (F16, BF16).
    let options = PlanOptions::tuned(Tuning {
        dependent_launch: timed.plain_launches.then_some(false),
        tensor_cores: timed.tensor_cores.then_some(true),
        ..Tuning::default()
    });
    let seed = fresh_seed();
    let dir: Direction = case.direction.into();
    let rows_to_run: Vec<(Precision, Vec<usize>, usize)> = match case.dims() {
        Some(dims) => {
            let n = elements(&dims).unwrap_or(usize::MAX);
            let batch = case.batch.unwrap_or((ELEMENTS / n).max(1));
            vec![(case.precision, dims, batch)]
        }
        None => suite_rows(suite)
            .into_iter()
            .filter(|(p, _, _)| only.is_empty() || only.contains(p))
            .collect(),
    };
    println!(
        "tfft bench on {} ({} rows, {reps} timed runs each, seed {seed}; {} launches{})",
        gpu.info().name,
        rows_to_run.len(),
        launch_mode(&gpu, options.tuning.dependent_launch),
        if timed.tensor_cores {
            "; tensor cores asked for (F16, BF16)"
        } else {
            ""
        }
    );
    let bar = crate::progress::bar(rows_to_run.len());
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    let mut skipped = Vec::new();
    for (i, (p, dims, batch)) in rows_to_run.iter().enumerate() {
        let name = format!("{} {} batch={batch}", p.name(), shape_text(dims));
        bar.set_message(name.clone());
        let s = seed.wrapping_add(i as u64);
        let (dims, batch) = (&dims[..], *batch);
        let row = match p {
            Precision::F16 => {
                bench_row::<Complex<f16>>(&gpu, *p, dims, batch, dir, reps, variants, s, &options)
            }
            Precision::BF16 => bench_row::<Complex<half::bf16>>(
                &gpu, *p, dims, batch, dir, reps, variants, s, &options,
            ),
            Precision::F64 => {
                bench_row::<Complex<f64>>(&gpu, *p, dims, batch, dir, reps, variants, s, &options)
            }
            Precision::F32 | Precision::F32Split => {
                bench_row::<Complex<f32>>(&gpu, *p, dims, batch, dir, reps, variants, s, &options)
            }
        };
        match row {
            Ok(Outcome::Row(r)) => {
                crate::progress::line(&bar, row_line(&r));
                rows.push(*r);
            }
            Ok(Outcome::Skipped(why)) | Err(Error::OutOfMemory(why)) => {
                let line = format!("skipped {name}: {why}");
                crate::progress::line(&bar, &line);
                skipped.push(line);
            }
            Err(e) => {
                let line = format!("ERROR {name}: {e}");
                crate::progress::line(&bar, &line);
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
    for line in skipped.iter().chain(&errors) {
        println!("{line}");
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
        "{:<4} {:>11} {:>8} | {:>8} {:>6} {:>6} {:>9} | {:>8} {:>6} {:>9} | {:>6} | {:>8}",
        "prec",
        "shape",
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
        "{:<4} {:>11} {:>8} | {:>8.4} {:>6.0} {:>6.1} {:>9.2e} | {} {} {} | {}x | {:>8.1}",
        r.precision,
        shape_text(&r.dims()),
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

/// How plans on `gpu` launch their passes when asked for `requested`, for report headers.
pub(crate) fn launch_mode(gpu: &Gpu, requested: Option<bool>) -> &'static str {
    if gpu.dependent_launch(requested) {
        "dependent"
    } else {
        "plain"
    }
}

/// Median, min and max of `reps` event-timed runs of `f`, after warm-up.
pub(crate) fn time_runs(
    gpu: &Gpu,
    reps: usize,
    mut f: impl FnMut() -> Result<(), tensorfft::Error>,
) -> Result<(f64, f64, f64), tensorfft::Error> {
    let start = std::time::Instant::now();
    let mut calls = 0;
    while calls < WARMUP || start.elapsed().as_secs_f64() * 1e3 < WARMUP_MS {
        f()?;
        calls += 1;
        if calls % 8 == 0 {
            gpu.synchronize()?;
        }
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

/// Poisons `out`, runs `f` once, and measures the sampled error against the oracle (infinite if
/// any element of the output is not finite). `x` holds the sampled input transforms.
pub(crate) fn accuracy<T: Element>(
    gpu: &Gpu,
    x: &[Complex<f64>],
    out: &mut DeviceBuffer<T>,
    dims: &[usize],
    dir: Direction,
    samples: &[usize],
    f: impl FnOnce(&mut DeviceBuffer<T>) -> Result<(), tensorfft::Error>,
) -> Result<f64, tensorfft::Error> {
    gpu.poison(out)?;
    f(out)?;
    if !device_all_finite(gpu, out)? {
        return Ok(f64::INFINITY);
    }
    let n: usize = dims.iter().product();
    let got = download_samples(gpu, out, n, samples)?;
    Ok(oracle_error(
        &x[..got.len()],
        &got,
        dims,
        dir,
        Normalization::None,
    ))
}

/// The plan's description with the forward kernel's registers, spills and residency.
fn plan_text(plan: &tensorfft::GpuPlan) -> String {
    format!(
        "{}{}",
        describe(plan),
        plan.kernel_resources()
            .map(|(r, l, b)| format!(" regs={r} spill={l} blocks/SM={b}"))
            .unwrap_or_default()
    )
}

/// One row of `precision` (`T` its storage; F32Split rows compare with cuFFT fp32).
#[allow(clippy::too_many_arguments)]
fn bench_row<T: Element>(
    gpu: &Gpu,
    precision: Precision,
    dims: &[usize],
    batch: usize,
    dir: Direction,
    reps: usize,
    variants: Option<&str>,
    seed: u64,
    options: &PlanOptions,
) -> Result<Outcome, tensorfft::Error> {
    let shape = Shape::from_dims(dims).batch(batch);
    let len = shape.total_elements()?;
    let n = shape.transform_elements()?;
    let bytes = len * std::mem::size_of::<T>();
    // Input and output, and scratch space for tensorfft and for cuFFT of up to the batch's size.
    if let Err(why) = fits_device(gpu, 4 * bytes)? {
        return Ok(Outcome::Skipped(why));
    }
    let data = CaseInput::<T>::random(len, seed);
    let input = data.upload(gpu)?;
    let mut out = gpu.alloc::<T>(len)?;
    let samples = sample_transforms(batch, sample_count(n));
    let x = data.gather(n, &samples);
    let gbs = |ms: f64| 2.0 * bytes as f64 / ms / 1e6;

    let (copy_ms, _, _) = time_runs(gpu, reps, || gpu.copy(&input, &mut out))?;
    let copy_gbs = gbs(copy_ms);

    let plan = gpu.plan_c2c_with(&shape, precision, options)?;
    let (tfft_ms, tfft_ms_min, tfft_ms_max) =
        time_runs(gpu, reps, || plan.execute_into(dir, &input, &mut out))?;
    let tfft_rel_l2 = accuracy(gpu, &x, &mut out, dims, dir, &samples, |o| {
        plan.execute_into(dir, &input, o)
    })?;

    let cufft = CufftPlan::new(gpu, dims, batch, T::PRECISION);
    let (cufft_ms, cufft_rel_l2) = match &cufft {
        Ok(c) => {
            let (ms, _, _) = time_runs(gpu, reps, || c.execute(dir, &input, &mut out))?;
            let err = accuracy(gpu, &x, &mut out, dims, dir, &samples, |o| {
                c.execute(dir, &input, o)
            })?;
            (Some(ms), Some(err))
        }
        Err(e) => {
            eprintln!(
                "cuFFT baseline unavailable for {} {}: {e}",
                T::PRECISION.name(),
                shape_text(dims)
            );
            (None, None)
        }
    };
    drop(cufft);

    let mut variant_rows = Vec::new();
    // Tuning variants are alternatives of the single-pass kernel: 1D rows only.
    if let (Some(matching), 1) = (variants, dims.len()) {
        let mut seen: Vec<PlanDescription> = vec![describe(&plan).clone()];
        for tuning in Tuning::sweep() {
            let opts = PlanOptions::tuned(Tuning {
                dependent_launch: options.tuning.dependent_launch,
                ..tuning
            });
            // Filter on the CPU-side description first, so skipped variants cost no compilation.
            match describe_cpu(&shape, precision, &opts) {
                Ok(r) if r.to_string().contains(matching) => {}
                _ => continue,
            }
            let Ok(vplan) = gpu.plan_c2c_with(&shape, precision, &opts) else {
                continue;
            };
            if seen.contains(describe(&vplan)) {
                continue;
            }
            seen.push(describe(&vplan).clone());
            let (ms, _, _) = time_runs(gpu, reps.min(20), || {
                vplan.execute_into(dir, &input, &mut out)
            })?;
            let err = accuracy(
                gpu,
                &x,
                &mut out,
                dims,
                dir,
                &samples[..samples.len().min(8)],
                |o| vplan.execute_into(dir, &input, o),
            )?;
            variant_rows.push(VariantRow {
                recipe: plan_text(&vplan),
                ms,
                pct_copy: 100.0 * gbs(ms) / copy_gbs,
                rel_l2: err,
            });
        }
    }

    Ok(Outcome::Row(Box::new(BenchRow {
        precision: precision.name().to_string(),
        direction: format!("{dir:?}").to_lowercase(),
        shape: dims.to_vec(),
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
        from_wisdom: plan.creation().from_wisdom,
        recipe: plan_text(&plan),
        variants: variant_rows,
        dependent_launch: plan.dependent_launch(),
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_suite_rows_hold_the_anchor_element_counts() {
        let rows = suite_rows(Suite::Full);
        for (p, dims, batch) in &rows {
            let total = elements(dims).unwrap_or(0) * batch;
            assert_eq!(
                total,
                row_elements(*p).max(elements(dims).unwrap_or(0)),
                "{dims:?}"
            );
        }
        for p in [
            Precision::F16,
            Precision::BF16,
            Precision::F32,
            Precision::F64,
        ] {
            let of = |rank: usize| {
                rows.iter()
                    .filter(|r| r.0 == p && r.1.len() == rank)
                    .count()
            };
            assert_eq!((of(1), of(2), of(3)), (13, 5, 4), "{p:?}");
        }
    }

    /// Every power-of-two shape cuFFT was measured on (up to 2^26 per 1D transform) is a row of
    /// the full suite with the same batch (f64 2D and 3D rows are ours alone). Reads the anchors
    /// from `../shared/anchors/cufft-h200.json` beside the checkout when it is there.
    #[test]
    fn full_suite_covers_the_cufft_anchors() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/anchors/cufft-h200.json"
        );
        let Ok(text) = std::fs::read_to_string(path) else {
            eprintln!("no anchors at {path}; skipped");
            return;
        };
        let anchors: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap_or_default();
        let rows = suite_rows(Suite::Full);
        let mut matched = 0;
        for a in &anchors {
            let kind = a["kind"].as_str().unwrap_or("");
            if !["1d", "2d", "3d"].contains(&kind) {
                continue;
            }
            let dims: Vec<usize> = a["dims"]
                .as_array()
                .map(|d| {
                    d.iter()
                        .filter_map(|v| v.as_u64())
                        .map(|v| v as usize)
                        .collect()
                })
                .unwrap_or_default();
            let n = elements(&dims).unwrap_or(0);
            if !dims.iter().all(|d| d.is_power_of_two()) || n > 1 << 26 {
                continue;
            }
            let p = match a["prec"].as_str() {
                Some("fp16") => Precision::F16,
                Some("fp32") => Precision::F32,
                _ => Precision::F64,
            };
            let batch = a["batch"].as_u64().unwrap_or(0) as usize;
            assert!(
                rows.contains(&(p, dims.clone(), batch)),
                "anchor {p:?} {dims:?} x {batch} is not a row"
            );
            matched += 1;
        }
        assert!(matched >= 40, "only {matched} anchors matched");
    }
}
