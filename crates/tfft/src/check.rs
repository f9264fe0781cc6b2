//! `tfft check`: every supported 1D length and a sample of 2D and 3D shapes on the GPU, several
//! batch sizes, forward, inverse, in place and round trip, against the f64 oracle on a sample of
//! transforms of each batch, with outputs poisoned (NaN) before each run and checked whole for
//! elements left unwritten; strided layouts (`check_layouts`) and the tensor-core kernels on
//! basis vectors (`check_basis`).

use crate::data::{
    device_all_finite, device_bits_equal, download_samples, fits_device, fresh_seed, oracle_error,
    sample_count, sample_transforms, CaseInput,
};
use crate::plan_info::{describe, error_bound};
use crate::report::RunMeta;
use crate::shape::shape_text;
use crate::sweep::{sweep, Case};
use crate::CaseArgs;
use half::f16;
use num_complex::Complex;
use serde::Serialize;
use std::path::Path;
use std::process::ExitCode;
use tensorfft::cpu::oracle::relative_l2;
use tensorfft::plan::schedule::Buffer;
use tensorfft::{Direction, Element, Error, Gpu, Normalization, PlanOptions, Precision, Shape};

/// One checked property of one case.
#[derive(Serialize, Clone, Debug)]
pub struct CheckRow {
    pub precision: &'static str,
    /// Extents of one transform, slowest first.
    pub shape: Vec<usize>,
    /// Elements of one transform (the product of `shape`).
    pub n: usize,
    pub batch: usize,
    pub test: &'static str,
    pub rel_l2: f64,
    pub bound: f64,
    pub pass: bool,
    pub recipe: String,
}

impl CheckRow {
    /// A row for `test` of `batch` transforms of extents `shape`: `err` against `bound`.
    pub fn new(
        precision: Precision,
        shape: &[usize],
        batch: usize,
        test: &'static str,
        err: f64,
        bound: f64,
        recipe: String,
    ) -> Self {
        CheckRow {
            precision: precision.name(),
            shape: shape.to_vec(),
            n: shape.iter().product(),
            batch,
            test,
            rel_l2: err,
            bound,
            pass: err <= bound,
            recipe,
        }
    }
}

#[derive(Serialize)]
struct CheckReport {
    meta: RunMeta,
    rows: Vec<CheckRow>,
    failures: usize,
    /// Cases not run, with the reason (device memory).
    skipped: Vec<String>,
}

/// What one case gave: its rows, or why it was not run.
enum Outcome {
    Rows(Vec<CheckRow>),
    Skipped(String),
}

fn case_name(c: &Case) -> String {
    format!(
        "{} {} batch={}{}",
        c.precision.name(),
        shape_text(&c.dims),
        c.batch,
        if c.tuning == tensorfft::Tuning::default() {
            ""
        } else {
            " (tuned)"
        }
    )
}

/// Which part of the sweep to run.
pub struct SweepFilter {
    /// The quick subset.
    pub quick: bool,
    /// Only these precisions (all when empty).
    pub precisions: Vec<Precision>,
    /// Only shapes of these ranks (all when empty).
    pub ranks: Vec<usize>,
    /// Only the strided-layout cases (no shape sweep).
    pub layouts_only: bool,
    /// Only the tensor-core basis-vector cases (no shape sweep, no layouts).
    pub basis_only: bool,
    /// Only the warp-shuffle cases (`Tuning::warp_shuffles`; no layouts, no basis vectors).
    pub warp_shuffles_only: bool,
    /// Only the cases that ask for packed half arithmetic (`Tuning::half_arithmetic`: BF16 in
    /// bf16x2; no layouts, no basis vectors).
    pub half_arithmetic_only: bool,
    /// Only the tensor-core cases: F16 and BF16 on `mma.sync` and F32Split, random data and basis
    /// vectors (no layouts).
    pub tensor_cores_only: bool,
    /// Only this part of the sweep; the layouts and basis vectors run in part 0.
    pub shard: crate::shard::Shard,
    /// Only the cases at these positions of the sweep (after the other filters, before the
    /// shard), and then no layouts or basis vectors (all cases when empty): how a sweep cut
    /// short by a time limit is finished.
    pub positions: Vec<usize>,
}

impl SweepFilter {
    fn cases(&self) -> Vec<Case> {
        let cases = self.filtered();
        let cases = cases
            .into_iter()
            .enumerate()
            .filter(|(i, _)| self.positions.is_empty() || self.positions.contains(i))
            .map(|(_, c)| c)
            .collect();
        self.shard.keep(cases)
    }

    /// A position past the end of the filtered sweep, with the sweep's length.
    fn position_out_of_range(&self) -> Option<(usize, usize)> {
        let len = self.filtered().len();
        self.positions
            .iter()
            .find(|&&p| p >= len)
            .map(|&p| (p, len))
    }

    /// The sweep's cases after every filter but the positions and the shard.
    fn filtered(&self) -> Vec<Case> {
        if self.layouts_only || self.basis_only {
            return Vec::new();
        }
        sweep(self.quick)
            .into_iter()
            .filter(|c| self.precisions.is_empty() || self.precisions.contains(&c.precision))
            .filter(|c| self.ranks.is_empty() || self.ranks.contains(&c.dims.len()))
            .filter(|c| !self.warp_shuffles_only || c.tuning.warp_shuffles == Some(true))
            .filter(|c| !self.half_arithmetic_only || c.tuning.half_arithmetic == Some(true))
            .filter(|c| {
                !self.tensor_cores_only
                    || c.tuning.tensor_cores == Some(true)
                    || c.precision == Precision::F32Split
            })
            .collect()
    }
}

pub fn run(
    filter: &SweepFilter,
    case: &CaseArgs,
    json: Option<&Path>,
) -> Result<ExitCode, tensorfft::Error> {
    if let Some((position, len)) = filter.position_out_of_range() {
        eprintln!(
            "--cases: position {position} is past the sweep's {len} cases (0 … {})",
            len.saturating_sub(1)
        );
        return Ok(ExitCode::FAILURE);
    }
    let gpu = Gpu::new(0)?;
    let seed = fresh_seed();
    let cases = match case.dims() {
        Some(dims) => vec![Case {
            precision: case.precision,
            dims,
            batch: case.batch.unwrap_or(3),
            directions: vec![case.direction.into()],
            in_place: true,
            round_trip: true,
            tuning: tensorfft::Tuning::default(),
        }],
        None => filter.cases(),
    };
    println!(
        "tfft check on {} ({} cases, part {}, seed {seed})",
        gpu.info().name,
        cases.len(),
        filter.shard
    );
    let bar = crate::progress::bar(cases.len());
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        bar.set_message(case_name(c));
        let case_seed = seed.wrapping_add(i as u64);
        let (started, first_row) = (std::time::Instant::now(), rows.len());
        let result = match c.precision {
            Precision::F16 => check_case::<Complex<f16>>(&gpu, c, case_seed),
            Precision::BF16 => check_case::<Complex<half::bf16>>(&gpu, c, case_seed),
            Precision::F64 => check_case::<Complex<f64>>(&gpu, c, case_seed),
            _ => check_case::<Complex<f32>>(&gpu, c, case_seed),
        };
        match result {
            Ok(Outcome::Rows(mut r)) => rows.append(&mut r),
            Ok(Outcome::Skipped(why)) | Err(Error::OutOfMemory(why)) => {
                let line = format!("skipped {}: {why}", case_name(c));
                crate::progress::line(&bar, &line);
                skipped.push(line);
            }
            Err(e) => {
                crate::progress::line(&bar, format!("ERROR {}: {e}", case_name(c)));
                rows.push(CheckRow::new(
                    c.precision,
                    &c.dims,
                    c.batch,
                    "error",
                    f64::INFINITY,
                    0.0,
                    e.to_string(),
                ));
            }
        }
        // Redirected output (a device run under a time limit): one line per case as it ends,
        // so a run cut short still says how far it got and what failed.
        if bar.is_hidden() {
            let done = &rows[first_row..];
            let worst = done.iter().map(|r| r.rel_l2 / r.bound).fold(0.0, f64::max);
            let failed = done.iter().filter(|r| !r.pass).count();
            println!(
                "[{}/{}] {} {} (worst error/bound {worst:.2}, {:.1} s)",
                i + 1,
                cases.len(),
                case_name(c),
                if failed == 0 { "ok" } else { "FAILED" },
                started.elapsed().as_secs_f64()
            );
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    // The sweep also checks strided layouts, and the tensor-core kernels on basis vectors.
    if case.dims().is_none() && filter.shard.is_first() && filter.positions.is_empty() {
        let only_tuned = filter.warp_shuffles_only || filter.half_arithmetic_only;
        if !filter.basis_only && !only_tuned && !filter.tensor_cores_only {
            rows.extend(crate::check_layouts::rows(&gpu, seed));
        }
        if !filter.layouts_only
            && !only_tuned
            && (filter.ranks.is_empty() || filter.ranks.contains(&1))
        {
            let keep = |p| filter.precisions.is_empty() || filter.precisions.contains(&p);
            rows.extend(crate::check_basis::rows(&gpu, filter.quick, keep));
        }
    }
    if rows.is_empty() && skipped.is_empty() {
        if filter.shard.count > 1 {
            // A part of a split sweep may hold none of the filtered cases: not a failure.
            println!(
                "part {}: no case of the sweep passes these filters",
                filter.shard
            );
            return Ok(ExitCode::SUCCESS);
        }
        println!("nothing checked: no case of the sweep passes these filters");
        return Ok(ExitCode::FAILURE);
    }
    let failures = rows.iter().filter(|r| !r.pass).count();
    summarize(&rows);
    for s in &skipped {
        println!("{s}");
    }
    if let Some(path) = json {
        let report = CheckReport {
            meta: RunMeta::new(&gpu, seed),
            rows: rows.clone(),
            failures,
            skipped: skipped.clone(),
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
                "  {} {} batch={} {}: {:.3e} > {:.3e}  [{}]",
                r.precision,
                shape_text(&r.shape),
                r.batch,
                r.test,
                r.rel_l2,
                r.bound,
                r.recipe
            );
        }
        Ok(ExitCode::FAILURE)
    } else {
        println!(
            "PASSED: all {} checks ({} cases skipped)",
            rows.len(),
            skipped.len()
        );
        Ok(ExitCode::SUCCESS)
    }
}

/// Worst error per precision and rank, with the largest error-to-bound ratio.
fn summarize(rows: &[CheckRow]) {
    println!(
        "{:<5} {:>4} {:>6} {:>12} {:>10} {:>10}  worst case",
        "prec", "rank", "checks", "worst err", "its bound", "max ratio"
    );
    for p in ["f16", "bf16", "f32", "f32split", "f64"] {
        for rank in 1..=crate::shape::MAX_RANK {
            let of: Vec<&CheckRow> = rows
                .iter()
                .filter(|r| r.precision == p && r.shape.len() == rank)
                .collect();
            let ratio = of
                .iter()
                .map(|r| r.rel_l2 / r.bound.max(f64::MIN_POSITIVE))
                .fold(0.0, f64::max);
            if let Some(w) = of.iter().max_by(|a, b| a.rel_l2.total_cmp(&b.rel_l2)) {
                println!(
                    "{:<5} {:>3}D {:>6} {:>12.3e} {:>10.1e} {:>10.2}  {} batch={} {}",
                    p,
                    rank,
                    of.len(),
                    w.rel_l2,
                    w.bound,
                    ratio,
                    shape_text(&w.shape),
                    w.batch,
                    w.test
                );
            }
        }
    }
}

/// Buffers of the batch's size a case holds at once, plus one per plan for scratch space (a
/// multi-pass plan's intermediate).
fn device_bytes<T: Element>(c: &Case) -> usize {
    let buffers = if c.in_place || c.round_trip { 3 } else { 2 };
    let plans = if c.round_trip { 2 } else { 1 };
    (buffers + plans) * c.total() * std::mem::size_of::<T>()
}

fn check_case<T: Element>(gpu: &Gpu, c: &Case, seed: u64) -> Result<Outcome, tensorfft::Error> {
    if let Err(why) = fits_device(gpu, device_bytes::<T>(c))? {
        return Ok(Outcome::Skipped(why));
    }
    let shape = Shape::from_dims(&c.dims).batch(c.batch);
    let len = shape.total_elements()?;
    let n = c.n();
    let plan = gpu.plan_c2c_with(&shape, c.precision, &PlanOptions::tuned(c.tuning))?;
    let bound = error_bound(describe(&plan));
    let recipe = describe(&plan).to_string();
    let input = CaseInput::<T>::random(len, seed);
    let samples = sample_transforms(c.batch, sample_count(n));
    let x = input.gather(n, &samples);
    let d_input = input.upload(gpu)?;
    let mut out = gpu.alloc::<T>(len)?;
    // The third buffer: in-place data, then the round trip's intermediate.
    let mut spare = if c.in_place || c.round_trip {
        Some(gpu.alloc::<T>(len)?)
    } else {
        None
    };
    let mut rows = Vec::new();
    let mut row = |test: &'static str, err: f64, bound: f64| {
        rows.push(CheckRow::new(
            c.precision,
            &c.dims,
            c.batch,
            test,
            err,
            bound,
            recipe.clone(),
        ));
    };
    // The sampled error of a whole output, infinite if any element is not finite.
    let error_of = |out: &tensorfft::DeviceBuffer<T>, want: &dyn Fn(&[Complex<f64>]) -> f64| {
        Ok::<f64, tensorfft::Error>(if device_all_finite(gpu, out)? {
            want(&download_samples(gpu, out, n, &samples)?)
        } else {
            f64::INFINITY
        })
    };
    for &dir in &c.directions {
        gpu.poison(&mut out)?;
        plan.execute_into(dir, &d_input, &mut out)?;
        let err = error_of(&out, &|got| {
            oracle_error(&x, got, &c.dims, dir, Normalization::None)
        })?;
        let forward = dir == Direction::Forward;
        row(if forward { "forward" } else { "inverse" }, err, bound);
        // Multi-pass plans: caller-supplied scratch on a stream of the caller's must give the
        // same bits; a plan without scratch refuses (typed) exactly the executions that need it.
        if let (true, true, Some(data)) = (forward, plan.scratch_len() > 0, spare.as_mut()) {
            let external = PlanOptions {
                external_scratch: true,
                tuning: c.tuning,
                ..Default::default()
            };
            let mut ext = gpu.plan_c2c_with(&shape, c.precision, &external)?;
            let needs = describe(&ext)
                .buffers(false)
                .iter()
                .any(|&(a, b)| matches!(a, Buffer::Scratch(_)) || matches!(b, Buffer::Scratch(_)));
            let refused = matches!(
                ext.execute_into(dir, &d_input, data),
                Err(tensorfft::Error::ScratchRequired { .. })
            );
            row(
                "no scratch: typed refusal iff needed",
                if refused == needs { 0.0 } else { f64::INFINITY },
                0.0,
            );
            ext.set_stream(gpu.new_stream()?);
            let mut work = gpu.alloc::<T>(ext.scratch_len())?;
            gpu.poison(data)?;
            gpu.synchronize()?;
            ext.execute_into_with_scratch(dir, &d_input, data, &mut work)?;
            ext.stream().synchronize()?;
            let same = device_bits_equal(gpu, data, &out)?;
            row(
                "caller scratch + stream == own",
                if same { 0.0 } else { f64::INFINITY },
                0.0,
            );
        }
        // In place must give the same bits as out of place.
        if let (true, Some(data)) = (c.in_place, spare.as_mut()) {
            input.upload_into(gpu, data)?;
            plan.execute_in_place(dir, data)?;
            let same = device_bits_equal(gpu, data, &out)?;
            row(
                if forward {
                    "in place == out of place"
                } else {
                    "in place == out of place (inverse)"
                },
                if same { 0.0 } else { f64::INFINITY },
                0.0,
            );
        }
    }
    // Round trip with 1/N normalization (N: elements of one transform).
    if let (true, Some(mid)) = (c.round_trip, spare.as_mut()) {
        let normalized = PlanOptions {
            normalization: Normalization::InverseByN,
            tuning: c.tuning,
            ..Default::default()
        };
        let plan_norm = gpu.plan_c2c_with(&shape, c.precision, &normalized)?;
        gpu.poison(mid)?;
        plan_norm.forward_into(&d_input, mid)?;
        gpu.poison(&mut out)?;
        plan_norm.inverse_into(mid, &mut out)?;
        let err = error_of(&out, &|got| relative_l2(got, &x))?;
        row("round trip", err, 2.0 * bound);
        drop(plan_norm);
        // The scaled forward (NumPy's "forward") and the unitary mode ("ortho"), every stage
        // scaled by 1/R or 1/sqrt R in the kernels.
        for (norm, dir, test) in [
            (
                Normalization::ForwardByN,
                Direction::Forward,
                "forward, 1/N",
            ),
            (
                Normalization::Ortho,
                Direction::Inverse,
                "inverse, 1/sqrt N (ortho)",
            ),
        ] {
            let opts = PlanOptions {
                normalization: norm,
                tuning: c.tuning,
                ..Default::default()
            };
            let scaled = gpu.plan_c2c_with(&shape, c.precision, &opts)?;
            gpu.poison(&mut out)?;
            scaled.execute_into(dir, &d_input, &mut out)?;
            let err = error_of(&out, &|got| oracle_error(&x, got, &c.dims, dir, norm))?;
            row(test, err, bound);
        }
        // Inputs far from 1, each forward against the oracle: F32Split scales every 16-sample
        // vector by a power of two before splitting it, so inputs scaled by 2^-60 and 2^60 keep
        // their relative accuracy; f16 inputs near the top of its range (|x| up to 60 000:
        // components in ±42 000) never leave it forward-normalized (unscaled they overflow).
        let mut far: Vec<(f64, Normalization, &'static str)> = Vec::new();
        if c.precision == Precision::F32Split {
            far.push((
                2f64.powi(-60),
                Normalization::None,
                "forward, inputs x 2^-60",
            ));
            far.push((2f64.powi(60), Normalization::None, "forward, inputs x 2^60"));
        }
        if c.precision == Precision::F16 && n >= 64 && len <= 1 << 24 {
            far.push((
                42000.0,
                Normalization::ForwardByN,
                "forward, 1/N, |inputs| up to 60 000 (no overflow)",
            ));
        }
        for (factor, norm, test) in far {
            let scaled = input.scaled(factor);
            let xs = scaled.gather(n, &samples);
            scaled.upload_into(gpu, mid)?;
            let normalized = match norm {
                Normalization::None => None,
                _ => Some(gpu.plan_c2c_with(
                    &shape,
                    c.precision,
                    &PlanOptions {
                        normalization: norm,
                        tuning: c.tuning,
                        ..Default::default()
                    },
                )?),
            };
            gpu.poison(&mut out)?;
            normalized
                .as_ref()
                .unwrap_or(&plan)
                .execute_into(Direction::Forward, mid, &mut out)?;
            let err = error_of(&out, &|got| {
                oracle_error(&xs, got, &c.dims, Direction::Forward, norm)
            })?;
            row(test, err, bound);
        }
    }
    gpu.synchronize()?;
    Ok(Outcome::Rows(rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shard::Shard;

    fn filter(positions: Vec<usize>, shard: Shard) -> SweepFilter {
        SweepFilter {
            quick: true,
            precisions: Vec::new(),
            ranks: Vec::new(),
            layouts_only: false,
            basis_only: false,
            warp_shuffles_only: false,
            half_arithmetic_only: false,
            tensor_cores_only: false,
            shard,
            positions,
        }
    }

    /// `--cases` keeps exactly the cases at those positions of the sweep, and a shard splits
    /// them further.
    #[test]
    fn positions_pick_cases_of_the_sweep() {
        let whole = Shard { index: 0, count: 1 };
        let all: Vec<String> = filter(Vec::new(), whole)
            .cases()
            .iter()
            .map(case_name)
            .collect();
        assert!(all.len() > 20);
        let picked: Vec<String> = filter(vec![3, 7, 20], whole)
            .cases()
            .iter()
            .map(case_name)
            .collect();
        assert_eq!(
            picked,
            vec![all[3].clone(), all[7].clone(), all[20].clone()]
        );
        let second: Vec<String> = filter(vec![3, 7, 20], Shard { index: 1, count: 2 })
            .cases()
            .iter()
            .map(case_name)
            .collect();
        assert_eq!(second, vec![all[7].clone()]);
        assert_eq!(filter(vec![3, 7], whole).position_out_of_range(), None);
        assert_eq!(
            filter(vec![3, all.len()], whole).position_out_of_range(),
            Some((all.len(), all.len()))
        );
    }
}
