//! `tfft tune`: time the planner's tuning variants of each problem on this device and keep the
//! fastest accurate one as wisdom (`tensorfft::Wisdom`), a JSON file that `tfft bench --wisdom`,
//! `Gpu::set_wisdom` and Python's `tensorfft.load_wisdom` apply to later plans of the same
//! problem on a device of the same name.
//!
//! A variant is kept only if it is accurate to its plan's error bound and within 10% of the
//! default's measured error, and only if it beats the default by at least 1% when both are
//! timed again, alternately, three times each (`CONFIRM_ROUNDS`); otherwise the entry records
//! that the default wins. The % of the copy it prints comes from copies timed in those same
//! rounds.

use crate::bench::{accuracy, time_runs};
use crate::data::{fits_device, fresh_seed, sample_count, sample_transforms, CaseInput};
use crate::plan_info::{describe, describe_cpu, PlanDescription};
use crate::shape::shape_text;
use half::f16;
use num_complex::Complex;
use std::path::Path;
use std::process::ExitCode;
use tensorfft::{
    DeviceBuffer, Direction, Element, Gpu, GpuPlan, PlanOptions, Precision, Shape, Tuning, Wisdom,
    WisdomEntry, WisdomKey,
};

/// Alternating re-timings of the default and the fastest variant before one is kept.
const CONFIRM_ROUNDS: usize = 3;
/// A variant must beat the default by this factor in the re-timing to be kept.
const MIN_GAIN: f64 = 1.01;
/// A variant's measured error may exceed the default's by this factor at most.
const ERROR_SLACK: f64 = 1.10;

/// What a tuned row found.
struct Tuned {
    entry: WisdomEntry,
    /// Candidates planned on the CPU side.
    variants: usize,
    /// Of those, refused on the device (limits, memory).
    refused: usize,
    /// Of those, outside the accuracy filter.
    inaccurate: usize,
    copy_ms: f64,
}

/// Tunes `rows` (precision, extents, batch) with the caller's `asked` tuning, merges the
/// entries into the wisdom file at `path` (created if absent) and prints one line per row.
pub fn run(
    rows: &[(Precision, Vec<usize>, usize)],
    asked: Tuning,
    reps: usize,
    path: &Path,
) -> Result<ExitCode, tensorfft::Error> {
    let gpu = Gpu::new(0)?;
    let mut wisdom = if path.exists() {
        Wisdom::load(path)?
    } else {
        Wisdom::new()
    };
    let seed = fresh_seed();
    println!(
        "tfft tune on {} ({} rows, {reps} timed runs per variant, seed {seed}) -> {}",
        gpu.info().name,
        rows.len(),
        path.display()
    );
    println!(
        "{:<9} {:>14} {:>9} | {:>9} {:>6} | {:>9} {:>6} {:>7} | {:>12} chosen",
        "prec", "shape", "batch", "default", "%copy", "tuned", "%copy", "speed", "var/ref/inacc"
    );
    let mut failed = false;
    for (i, (p, dims, batch)) in rows.iter().enumerate() {
        let s = seed.wrapping_add(i as u64);
        let tuned = match p {
            Precision::F16 => tune_row::<Complex<f16>>(&gpu, *p, dims, *batch, asked, reps, s),
            Precision::BF16 => {
                tune_row::<Complex<half::bf16>>(&gpu, *p, dims, *batch, asked, reps, s)
            }
            Precision::F64 => tune_row::<Complex<f64>>(&gpu, *p, dims, *batch, asked, reps, s),
            Precision::F32 | Precision::F32Split => {
                tune_row::<Complex<f32>>(&gpu, *p, dims, *batch, asked, reps, s)
            }
        };
        match tuned {
            Ok(Some(t)) => {
                let e = &t.entry;
                let pct = |ms: f64| 100.0 * t.copy_ms / ms;
                println!(
                    "{:<9} {:>14} {:>9} | {:>9.4} {:>6.1} | {:>9.4} {:>6.1} {:>6.3}x | {:>12} {}",
                    p.name(),
                    shape_text(dims),
                    batch,
                    e.default_ms,
                    pct(e.default_ms),
                    e.ms,
                    pct(e.ms),
                    e.speedup(),
                    format!("{}/{}/{}", t.variants, t.refused, t.inaccurate),
                    if e.tuning == asked {
                        "the default".to_string()
                    } else {
                        e.plan.clone()
                    }
                );
                wisdom.insert(t.entry);
                // Saved row by row, so a time limit keeps what was measured.
                wisdom.save(path)?;
            }
            Ok(None) => println!(
                "{:<9} {:>14} {:>9} | skipped: does not fit the device",
                p.name(),
                shape_text(dims),
                batch
            ),
            Err(e) => {
                failed = true;
                println!(
                    "{:<9} {:>14} {:>9} | error: {e}",
                    p.name(),
                    shape_text(dims),
                    batch
                );
            }
        }
    }
    wisdom.save(path)?;
    println!("{} entries in {}", wisdom.entries.len(), path.display());
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The candidate tunings of a problem: every single-pass and multi-pass variant, each under the
/// caller's own choices, whose CPU-side plan differs from the default's and from the others'
/// and whose error bound is no larger than the default's.
pub fn candidates(
    shape: &Shape,
    precision: Precision,
    asked: Tuning,
) -> Vec<(Tuning, PlanDescription)> {
    let Ok(default) = describe_cpu(shape, precision, &PlanOptions::tuned(asked)) else {
        return Vec::new();
    };
    let bound = default.error_bound();
    let mut seen = vec![default];
    let mut out = Vec::new();
    for variant in Tuning::sweep().into_iter().chain(Tuning::pass_sweep()) {
        let tuning = asked.or(variant);
        let Ok(d) = describe_cpu(shape, precision, &PlanOptions::tuned(tuning)) else {
            continue;
        };
        // Plans with a larger error bound are other arithmetic, not another launch (and a plan
        // would not take them from wisdom: `Gpu::plan_c2c_with`).
        if seen.contains(&d) || d.error_bound() > bound {
            continue;
        }
        seen.push(d.clone());
        out.push((tuning, d));
    }
    out
}

/// Whether a variant's measured error is acceptable next to the default's.
fn accurate(err: f64, bound: f64, default_err: f64) -> bool {
    err.is_finite() && err <= bound && err <= default_err * ERROR_SLACK + f64::MIN_POSITIVE
}

/// Tunes one row; `None` when its buffers do not fit the device.
fn tune_row<T: Element>(
    gpu: &Gpu,
    precision: Precision,
    dims: &[usize],
    batch: usize,
    asked: Tuning,
    reps: usize,
    seed: u64,
) -> Result<Option<Tuned>, tensorfft::Error> {
    let shape = Shape::from_dims(dims).batch(batch);
    let len = shape.total_elements()?;
    let n = shape.transform_elements()?;
    let bytes = len.saturating_mul(std::mem::size_of::<T>());
    if fits_device(gpu, bytes.saturating_mul(4))?.is_err() {
        return Ok(None);
    }
    let data = CaseInput::<T>::random(len, seed);
    let input = data.upload(gpu)?;
    let mut out = gpu.alloc::<T>(len)?;
    let samples = sample_transforms(batch, sample_count(n).min(8));
    let x = data.gather(n, &samples);
    let dir = Direction::Forward;
    let error = |plan: &GpuPlan, out: &mut DeviceBuffer<T>| {
        accuracy(gpu, &x, out, dims, dir, &samples, |o| {
            plan.execute_into(dir, &input, o)
        })
    };

    let default_options = PlanOptions::tuned(asked);
    let default = gpu.plan_c2c_with(&shape, precision, &default_options)?;
    let default_err = error(&default, &mut out)?;
    let (mut default_ms, _, _) =
        time_runs(gpu, reps, || default.execute_into(dir, &input, &mut out))?;

    let candidates = candidates(&shape, precision, asked);
    // NVRTC on all cores first: most of a cold row's time is compiling the variants.
    let plans: Vec<(Shape, Precision, PlanOptions)> = candidates
        .iter()
        .map(|(t, _)| (shape.clone(), precision, PlanOptions::tuned(*t)))
        .collect();
    gpu.precompile_c2c(&plans)?;
    let mut best: Option<(f64, f64, Tuning, GpuPlan)> = None;
    let (mut refused, mut inaccurate) = (0, 0);
    for (tuning, _) in &candidates {
        // Refused by the device (shared memory, registers) or out of memory beside the
        // default's and the best plan's scratch: counted, not fatal.
        let Ok(plan) = gpu.plan_c2c_with(&shape, precision, &PlanOptions::tuned(*tuning)) else {
            refused += 1;
            continue;
        };
        let err = error(&plan, &mut out)?;
        if !accurate(err, describe(&plan).error_bound(), default_err) {
            inaccurate += 1;
            continue;
        }
        let (ms, _, _) = time_runs(gpu, reps, || plan.execute_into(dir, &input, &mut out))?;
        if best.as_ref().is_none_or(|b| ms < b.0) {
            best = Some((ms, err, *tuning, plan));
        }
    }

    // Confirm against the default, alternating, before keeping a variant; the copy is timed
    // again in the same rounds, since a minute of variants at full load can lower the clocks
    // (compute-bound rows measured up to 8% slower here than in a fresh `tfft bench`).
    let median = |mut t: Vec<f64>| {
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    };
    let mut chosen = (
        default_ms,
        default_err,
        asked,
        describe(&default).to_string(),
    );
    let (mut c, mut d, mut v) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..CONFIRM_ROUNDS {
        c.push(time_runs(gpu, reps, || gpu.copy(&input, &mut out))?.0);
        d.push(time_runs(gpu, reps, || default.execute_into(dir, &input, &mut out))?.0);
        if let Some((_, _, _, plan)) = &best {
            v.push(time_runs(gpu, reps, || plan.execute_into(dir, &input, &mut out))?.0);
        }
    }
    let copy_ms = median(c);
    default_ms = median(d);
    chosen.0 = default_ms;
    if let Some((_, err, tuning, plan)) = best {
        let variant_ms = median(v);
        if variant_ms * MIN_GAIN < default_ms {
            chosen = (variant_ms, err, tuning, describe(&plan).to_string());
        }
    }
    let (ms, rel_l2, tuning, plan) = chosen;
    Ok(Some(Tuned {
        entry: WisdomEntry {
            key: WisdomKey::new(&gpu.info().name, precision, dims, batch, asked),
            tuning,
            ms,
            default_ms,
            rel_l2,
            default_rel_l2: default_err,
            plan,
        },
        variants: candidates.len(),
        refused,
        inaccurate,
        copy_ms,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_keep_the_asked_choices_and_differ_from_the_default() {
        let shape = Shape::new([4096]).batch(8);
        let asked = Tuning {
            tensor_cores: Some(true),
            ..Default::default()
        };
        let default = describe_cpu(&shape, Precision::F16, &PlanOptions::tuned(asked)).unwrap();
        let c = candidates(&shape, Precision::F16, asked);
        assert!(c.len() > 3, "{}", c.len());
        for (t, d) in &c {
            assert_eq!(t.tensor_cores, Some(true));
            assert_ne!(d, &default);
        }
        for (i, (_, d)) in c.iter().enumerate() {
            assert!(c[..i].iter().all(|(_, o)| o != d), "duplicate plan {d}");
        }
    }

    #[test]
    fn multi_pass_shapes_have_pass_variants() {
        let shape = Shape::new([1024, 1024]).batch(2);
        let c = candidates(&shape, Precision::F32, Tuning::default());
        assert!(
            c.iter().any(|(t, _)| t.items_per_tile.is_some()),
            "{}",
            c.len()
        );
    }

    #[test]
    fn variants_less_accurate_than_the_default_are_refused() {
        assert!(accurate(1.0e-7, 1e-6, 1.0e-7));
        assert!(accurate(1.05e-7, 1e-6, 1.0e-7));
        assert!(!accurate(1.2e-7, 1e-6, 1.0e-7));
        assert!(!accurate(2e-6, 1e-6, 2e-6));
        assert!(!accurate(f64::NAN, 1e-6, 1e-7));
        assert!(!accurate(f64::INFINITY, 1e-6, 1e-7));
    }
}
