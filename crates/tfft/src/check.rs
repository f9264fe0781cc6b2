//! `tfft check`: every supported (N, precision) on the GPU, several batch sizes, forward, inverse
//! and round trip, against the f64 oracle, with outputs poisoned before each run.

use crate::data::{
    all_finite, fresh_seed, random, sample_transforms, sampled_error, sampled_identity_error,
};
use crate::report::RunMeta;
use crate::CaseArgs;
use half::f16;
use num_complex::Complex;
use serde::Serialize;
use std::path::Path;
use std::process::ExitCode;
use tensorfft::plan::error_bound::error_bound;
use tensorfft::plan::planner::supported_lengths;
use tensorfft::{Direction, Element, Gpu, Normalization, PlanOptions, Precision, Shape};

#[derive(Serialize, Clone, Debug)]
struct CheckRow {
    precision: &'static str,
    n: usize,
    batch: usize,
    test: &'static str,
    rel_l2: f64,
    bound: f64,
    pass: bool,
    recipe: String,
}

#[derive(Serialize)]
struct CheckReport {
    meta: RunMeta,
    rows: Vec<CheckRow>,
    failures: usize,
}

struct Case {
    precision: Precision,
    n: usize,
    batch: usize,
    directions: Vec<Direction>,
    in_place: bool,
}

fn sweep(quick: bool) -> Vec<Case> {
    let mut cases = Vec::new();
    for p in [Precision::F16, Precision::F32, Precision::F64] {
        for n in supported_lengths(p) {
            let large = if quick { (1 << 22) / n } else { (1 << 24) / n };
            let prime = if n <= 2048 { 1009 } else { 13 };
            let batches = if quick {
                vec![1, 13, large]
            } else {
                vec![1, prime, large]
            };
            for batch in batches {
                cases.push(Case {
                    precision: p,
                    n,
                    batch,
                    directions: vec![Direction::Forward, Direction::Inverse],
                    in_place: batch == prime || batch == 13,
                });
            }
        }
    }
    if !quick {
        // More than 2^31 elements: exercises 64-bit indexing and batches far above 65 535.
        cases.push(Case {
            precision: Precision::F16,
            n: 16,
            batch: (1 << 27) + 1,
            directions: vec![Direction::Forward],
            in_place: false,
        });
    }
    cases
}

pub fn run(
    quick: bool,
    case: &CaseArgs,
    json: Option<&Path>,
) -> Result<ExitCode, tensorfft::Error> {
    let gpu = Gpu::new(0)?;
    let seed = fresh_seed();
    let cases = match case.n {
        Some(n) => vec![Case {
            precision: case.precision,
            n,
            batch: case.batch.unwrap_or(3),
            directions: vec![case.direction.into()],
            in_place: true,
        }],
        None => sweep(quick),
    };
    println!(
        "tfft check on {} ({} cases, seed {seed})",
        gpu.info().name,
        cases.len()
    );
    let bar = crate::progress::bar(cases.len());
    let mut rows = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        bar.set_message(format!(
            "{} N={} batch={}",
            c.precision.name(),
            c.n,
            c.batch
        ));
        let case_seed = seed.wrapping_add(i as u64);
        let result = match c.precision {
            Precision::F16 => check_case::<Complex<f16>>(&gpu, c, case_seed),
            Precision::F64 => check_case::<Complex<f64>>(&gpu, c, case_seed),
            _ => check_case::<Complex<f32>>(&gpu, c, case_seed),
        };
        match result {
            Ok(mut r) => rows.append(&mut r),
            Err(e) => {
                bar.println(format!(
                    "ERROR {} N={} batch={}: {e}",
                    c.precision.name(),
                    c.n,
                    c.batch
                ));
                rows.push(CheckRow {
                    precision: c.precision.name(),
                    n: c.n,
                    batch: c.batch,
                    test: "error",
                    rel_l2: f64::INFINITY,
                    bound: 0.0,
                    pass: false,
                    recipe: e.to_string(),
                });
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let failures = rows.iter().filter(|r| !r.pass).count();
    summarize(&rows);
    if let Some(path) = json {
        let report = CheckReport {
            meta: RunMeta::new(&gpu, seed),
            rows: rows.clone(),
            failures,
        };
        std::fs::write(
            path,
            serde_json::to_string_pretty(&report).unwrap_or_default(),
        )?;
    }
    if failures > 0 {
        println!("FAILED: {failures} of {} checks", rows.len());
        for r in rows.iter().filter(|r| !r.pass).take(20) {
            println!(
                "  {} N={} batch={} {}: {:.3e} > {:.3e}  [{}]",
                r.precision, r.n, r.batch, r.test, r.rel_l2, r.bound, r.recipe
            );
        }
        Ok(ExitCode::FAILURE)
    } else {
        println!("PASSED: all {} checks", rows.len());
        Ok(ExitCode::SUCCESS)
    }
}

fn summarize(rows: &[CheckRow]) {
    println!(
        "{:<5} {:>6} {:>12} {:>10} {:>10}  worst case",
        "prec", "checks", "worst err", "its bound", "max ratio"
    );
    for p in ["f16", "f32", "f64"] {
        let of: Vec<&CheckRow> = rows.iter().filter(|r| r.precision == p).collect();
        if of.is_empty() {
            continue;
        }
        let worst = of.iter().max_by(|a, b| a.rel_l2.total_cmp(&b.rel_l2));
        let ratio = of
            .iter()
            .map(|r| r.rel_l2 / r.bound.max(f64::MIN_POSITIVE))
            .fold(0.0, f64::max);
        if let Some(w) = worst {
            println!(
                "{:<5} {:>6} {:>12.3e} {:>10.1e} {:>10.2}  N={} batch={} {}",
                p,
                of.len(),
                w.rel_l2,
                w.bound,
                ratio,
                w.n,
                w.batch,
                w.test
            );
        }
    }
}

fn check_case<T: Element>(
    gpu: &Gpu,
    c: &Case,
    seed: u64,
) -> Result<Vec<CheckRow>, tensorfft::Error> {
    let shape = Shape::new([c.n]).batch(c.batch);
    let plan = gpu.plan_c2c(&shape, c.precision)?;
    let normalized = PlanOptions {
        normalization: Normalization::InverseByN,
        ..Default::default()
    };
    let plan_norm = gpu.plan_c2c_with(&shape, c.precision, &normalized)?;
    let bound = error_bound(plan.recipe());
    let recipe = plan.recipe().to_string();
    let x: Vec<T> = random(shape.total_elements()?, seed);
    let samples = sample_transforms(c.batch, 64);
    let input = gpu.upload(&x)?;
    let mut out = gpu.alloc::<T>(x.len())?;
    let mut rows = Vec::new();
    let mut row = |test: &'static str, err: f64, bound: f64| {
        rows.push(CheckRow {
            precision: c.precision.name(),
            n: c.n,
            batch: c.batch,
            test,
            rel_l2: err,
            bound,
            pass: err <= bound,
            recipe: recipe.clone(),
        });
    };
    let mut forward_result = None;
    for &dir in &c.directions {
        gpu.poison(&mut out)?;
        plan.execute_into(dir, &input, &mut out)?;
        let y = gpu.download(&out)?;
        let err = if all_finite(&y) {
            sampled_error(&x, &y, c.n, dir, Normalization::None, &samples)
        } else {
            f64::INFINITY
        };
        row(
            if dir == Direction::Forward {
                "forward"
            } else {
                "inverse"
            },
            err,
            bound,
        );
        if dir == Direction::Forward {
            forward_result = Some(y);
        }
    }
    // Round trip with 1/N normalization.
    let mut mid = gpu.alloc::<T>(x.len())?;
    gpu.poison(&mut mid)?;
    plan_norm.forward_into(&input, &mut mid)?;
    gpu.poison(&mut out)?;
    plan_norm.inverse_into(&mid, &mut out)?;
    let back = gpu.download(&out)?;
    let err = if all_finite(&back) {
        sampled_identity_error(&x, &back, c.n, &samples)
    } else {
        f64::INFINITY
    };
    row("round trip", err, 2.0 * bound);
    // In place must give the same bits as out of place.
    if let (true, Some(y)) = (c.in_place, forward_result) {
        let mut data = gpu.upload(&x)?;
        plan.forward(&mut data)?;
        let z = gpu.download(&data)?;
        let same = bytemuck::cast_slice::<T, u8>(&z) == bytemuck::cast_slice::<T, u8>(&y);
        row(
            "in place == out of place",
            if same { 0.0 } else { f64::INFINITY },
            0.0,
        );
    }
    gpu.synchronize()?;
    Ok(rows)
}
