//! `tfft ntt bench`: tensorfft NTTs against the block-synchronous baseline (seed 000: a block
//! barrier after every radix-2 stage, same passes and data type) and a device copy of the same
//! bytes, in one process; median of event-timed in-place runs after warm-up, on random data,
//! the timed plan's output checked bit for bit against the CPU on one transform.

use crate::bench::time_runs;
use crate::data::fresh_seed;
use crate::ntt_check::ntt_data;
use crate::report::RunMeta;
use serde::Serialize;
use std::path::Path;
use std::process::ExitCode;
use tensorfft::gpu::ntt_plan::{GpuNttPlan, NttPlanOptions, NttWord, WarpShuffles};
use tensorfft::gpu::DeviceBuffer;
use tensorfft::ntt::{
    fast_ntt, ntt_friendly_primes, Modulus, NttBatch, NttKind, Order, BABY_BEAR, FHE_62,
    GOLDILOCKS, KOALA_BEAR, PRIME_32,
};
use tensorfft::{Direction, Error, Gpu};

/// One bench row.
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct NttBenchRow {
    pub field: String,
    pub word_bits: usize,
    pub n: usize,
    pub log_n: u32,
    pub transforms: usize,
    pub limbs: usize,
    pub kind: String,
    pub orders: String,
    /// Interleaved columns (a row-major matrix).
    #[serde(default)]
    pub interleaved: bool,
    pub direction: String,
    /// Trips through device memory: kernels, a fused pair of passes counting once.
    pub passes: usize,
    pub bytes: usize,
    pub copy_ms: f64,
    pub tfft_ms: f64,
    pub tfft_ms_min: f64,
    pub tfft_ms_max: f64,
    /// Elements transformed per second (all transforms).
    pub elements_per_s: f64,
    /// One read and one write of the data (a copy) over the transform's time.
    pub pct_copy: f64,
    /// The same per pass: each pass reads and writes the data once.
    pub pct_copy_per_pass: f64,
    pub baseline_ms: f64,
    pub speedup_vs_baseline: f64,
    /// The timed plan's output of transform 0 equals the CPU transform.
    pub exact: bool,
    pub schedule: String,
    /// sppark's time for the same single transform on this GPU, where measured
    /// (`sppark_anchor`: H200; one transform, cyclic, NR or NN).
    #[serde(default)]
    pub sppark_ms: Option<f64>,
    /// sppark's time over ours.
    #[serde(default)]
    pub vs_sppark: Option<f64>,
    /// Whether the timed plan runs warp-shuffle butterflies (the planner's choice: 32-bit rows
    /// of 128 … 512).
    #[serde(default)]
    pub shuffles_in_plan: bool,
    /// The same plan with the other warp-shuffle choice (`NttPlanOptions::warp_shuffles`):
    /// without them where the planner chose them, else with them in the last round of every
    /// direct row pass where that changes a pass: its time.
    #[serde(default)]
    pub shuffles_ms: Option<f64>,
    /// Whether that plan's transform 0 equals the CPU transform too.
    #[serde(default)]
    pub shuffles_exact: Option<bool>,
    /// Blocks per cluster where the timed plan runs its two passes as one fused kernel (else 0).
    #[serde(default)]
    pub cluster: usize,
    /// The same plan unfused (`NttPlanOptions::cluster_blocks = Some(0)`), where the timed plan
    /// is fused: its time.
    #[serde(default)]
    pub unfused_ms: Option<f64>,
    /// Whether that plan's transform 0 equals the CPU transform too.
    #[serde(default)]
    pub unfused_exact: Option<bool>,
    /// Whether the timed plans launched their passes as programmatic dependent launches
    /// (absent, so false, in reports before they existed).
    #[serde(default)]
    pub dependent_launch: bool,
    /// The plan's pointwise product of two batches (`GpuNttPlan::pointwise_mul`, out of place):
    /// its time (absent in reports before it existed).
    #[serde(default)]
    pub pointwise_ms: Option<f64>,
    /// The product's two reads and one write over the copy's read and write: `1.5 · copy_ms /
    /// pointwise_ms`, in %.
    #[serde(default)]
    pub pointwise_pct_copy: Option<f64>,
    /// Whether the product's first words (up to 2^16) equal the CPU's.
    #[serde(default)]
    pub pointwise_exact: Option<bool>,
    /// The row's transform of the same product with the product fused into its first kernel
    /// (`GpuNttPlan::execute_product_into`, out of place): its time, to set against
    /// `pointwise_ms + tfft_ms` (absent in reports before it existed).
    #[serde(default)]
    pub product_ms: Option<f64>,
    /// Whether that transform's transform 0 equals the CPU's.
    #[serde(default)]
    pub product_exact: Option<bool>,
    /// The plan's inverse transform (in place, as `tfft_ms`; the fused products run out of
    /// place, which for NR rows runs the same passes, and for NN rows skips the scratch's
    /// copy-back an in-place transposing plan has): its time.
    #[serde(default)]
    pub inverse_ms: Option<f64>,
    /// The inverse of the product, fused as `product_ms` is (a polynomial product's last step),
    /// to set against `pointwise_ms + inverse_ms`; its transform 0 is checked with the product's
    /// (`product_exact`).
    #[serde(default)]
    pub inverse_product_ms: Option<f64>,
}

#[derive(Serialize)]
struct NttBenchReport {
    meta: RunMeta,
    reps: usize,
    rows: Vec<NttBenchRow>,
}

struct Row {
    field: &'static str,
    moduli: Vec<u64>,
    word: usize,
    log_n: u32,
    batch: usize,
    kind: NttKind,
    orders: (Order, Order),
    interleaved: bool,
}

/// `NR`, `NN`, `RN` or `RR`: input and output orders (N natural, R bit-reversed).
fn parse_orders(s: &str) -> Result<(Order, Order), Error> {
    let order = |c: char| match c {
        'N' | 'n' => Some(Order::Natural),
        'R' | 'r' => Some(Order::BitReversed),
        _ => None,
    };
    let mut chars = s.chars();
    match (
        chars.next().and_then(order),
        chars.next().and_then(order),
        chars.next(),
    ) {
        (Some(a), Some(b), None) => Ok((a, b)),
        _ => Err(Error::InvalidSize(format!(
            "orders {s:?} (NR, NN, RN or RR)"
        ))),
    }
}

fn field_name(p: u64) -> &'static str {
    match p {
        BABY_BEAR => "babybear",
        KOALA_BEAR => "koalabear",
        GOLDILOCKS => "goldilocks",
        FHE_62 => "fhe62",
        PRIME_32 => "prime32",
        _ => "fhe",
    }
}

/// The rows: one forward transform, natural in, bit-reversed out (sppark's NR), for N = 2^10 …
/// 2^24 and every field (the FHE prime up to its two-adicity); batches of 2^26 words (BabyBear,
/// Goldilocks); ZK columns (BabyBear 2^20 × 64, NR and natural order); FHE limbs (2^16 × 40
/// 62-bit primes, negacyclic, NR). `quick` keeps a few sizes.
fn rows(quick: bool) -> Vec<Row> {
    let nr = (Order::Natural, Order::BitReversed);
    let sizes: Vec<u32> = if quick {
        vec![10, 16, 20, 22, 24]
    } else {
        (10..=24).collect()
    };
    let mut out = Vec::new();
    for (p, word) in [
        (BABY_BEAR, 4),
        (KOALA_BEAR, 4),
        (GOLDILOCKS, 8),
        (FHE_62, 8),
    ] {
        for &log_n in &sizes {
            if NttBatch::limbs(&[p], 1 << log_n, NttKind::Cyclic).is_err() {
                continue;
            }
            out.push(Row {
                field: field_name(p),
                moduli: vec![p],
                word,
                log_n,
                batch: 1,
                kind: NttKind::Cyclic,
                orders: nr,
                interleaved: false,
            });
        }
    }
    for (p, word) in [(BABY_BEAR, 4), (GOLDILOCKS, 8)] {
        for &log_n in &sizes {
            out.push(Row {
                field: field_name(p),
                moduli: vec![p],
                word,
                log_n,
                batch: ((1usize << 26) >> log_n).max(1),
                kind: NttKind::Cyclic,
                orders: nr,
                interleaved: false,
            });
        }
    }
    for interleaved in [false, true] {
        for orders in [nr, (Order::Natural, Order::Natural)] {
            out.push(Row {
                field: "babybear",
                moduli: vec![BABY_BEAR],
                word: 4,
                log_n: 20,
                batch: 64,
                kind: NttKind::Cyclic,
                orders,
                interleaved,
            });
        }
    }
    if let Ok(moduli) = ntt_friendly_primes(62, 1 << 16, 40) {
        out.push(Row {
            field: "fhe62x40",
            moduli,
            word: 8,
            log_n: 16,
            batch: 1,
            kind: NttKind::Negacyclic,
            orders: nr,
            interleaved: false,
        });
    }
    out
}

/// Runs the rows and reports.
pub fn run(
    quick: bool,
    json: Option<&Path>,
    plot: Option<&Path>,
    reps: usize,
    single: Option<(String, u32, usize, String)>,
    options: NttPlanOptions,
) -> Result<ExitCode, Error> {
    let gpu = Gpu::new(0)?;
    let seed = fresh_seed();
    let rows_to_run = match single {
        Some((field, log_n, batch, orders)) => {
            let (p, word) = match field.as_str() {
                "koalabear" => (KOALA_BEAR, 4),
                "goldilocks" => (GOLDILOCKS, 8),
                "fhe62" => (FHE_62, 8),
                "prime32" => (PRIME_32, 4),
                _ => (BABY_BEAR, 4),
            };
            vec![Row {
                field: field_name(p),
                moduli: vec![p],
                word,
                log_n,
                batch,
                kind: NttKind::Cyclic,
                orders: parse_orders(&orders)?,
                interleaved: false,
            }]
        }
        None => rows(quick),
    };
    println!(
        "tfft ntt bench on {} ({} rows, {reps} timed runs each, seed {seed}; {} launches)",
        gpu.info().name,
        rows_to_run.len(),
        crate::bench::launch_mode(&gpu, options.dependent_launch)
    );
    println!("{}", header());
    let bar = crate::progress::bar(rows_to_run.len());
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for (i, r) in rows_to_run.iter().enumerate() {
        bar.set_message(format!("{} 2^{} x{}", r.field, r.log_n, r.batch));
        let s = seed.wrapping_add(i as u64);
        let row = match r.word {
            4 => bench_row::<u32>(&gpu, r, reps, s, &options),
            _ => bench_row::<u64>(&gpu, r, reps, s, &options),
        };
        match row {
            Ok(mut row) => {
                if row.transforms == 1 && row.kind == "cyclic" && !row.interleaved {
                    row.sppark_ms = crate::sppark_anchor::sppark_ms(
                        &gpu.info().name,
                        &row.field,
                        row.log_n,
                        &row.orders,
                    );
                    row.vs_sppark = row.sppark_ms.map(|s| s / row.tfft_ms);
                }
                crate::progress::line(&bar, row_line(&row));
                if !row.exact {
                    errors.push(format!(
                        "{} 2^{}: output differs from the CPU",
                        row.field, row.log_n
                    ));
                }
                if row.unfused_exact == Some(false) {
                    errors.push(format!(
                        "{} 2^{}: the unfused plan's output differs from the CPU",
                        row.field, row.log_n
                    ));
                }
                if row.product_exact == Some(false) {
                    errors.push(format!(
                        "{} 2^{}: a transform of a product differs from the CPU",
                        row.field, row.log_n
                    ));
                }
                if row.pointwise_exact == Some(false) {
                    errors.push(format!(
                        "{} 2^{}: the pointwise product differs from the CPU",
                        row.field, row.log_n
                    ));
                }
                if row.shuffles_exact == Some(false) {
                    errors.push(format!(
                        "{} 2^{}: the other warp-shuffle plan's output differs from the CPU",
                        row.field, row.log_n
                    ));
                }
                rows.push(row);
            }
            Err(e) => {
                let line = format!("ERROR {} 2^{}: {e}", r.field, r.log_n);
                crate::progress::line(&bar, &line);
                errors.push(line);
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    println!("\n{}", header());
    for r in &rows {
        println!("{}", row_line(r));
    }
    let against: Vec<&NttBenchRow> = rows.iter().filter(|r| r.vs_sppark.is_some()).collect();
    if !against.is_empty() {
        let behind: Vec<String> = against
            .iter()
            .filter(|r| r.vs_sppark < Some(1.0))
            .map(|r| {
                format!(
                    "{} 2^{} {:.2}x",
                    r.field,
                    r.log_n,
                    r.vs_sppark.unwrap_or(0.0)
                )
            })
            .collect();
        println!(
            "one transform against sppark (anchors of this GPU): {} of {} rows at least as fast; behind: {}",
            against.len() - behind.len(),
            against.len(),
            if behind.is_empty() { "none".to_string() } else { behind.join(", ") }
        );
    }
    for e in &errors {
        println!("{e}");
    }
    if let Some(path) = plot {
        crate::ntt_plot::draw(&rows, &gpu.info().name, path)?;
        println!("wrote {}", path.display());
    }
    if let Some(path) = json {
        let report = NttBenchReport {
            meta: RunMeta::new(&gpu, seed),
            reps,
            rows,
        };
        crate::report::write_json(path, &report)?;
    }
    Ok(crate::report::exit_code(errors.is_empty()))
}

fn header() -> String {
    format!(
        "{:<10} {:>3} {:>6} {:>6} {:>5} {:>4} {:>2} | {:>9} {:>9} {:>6} {:>6} | {:>9} {:>6} | {} | {:>18} | {:>17} | {:>18} | {:>34} | {}",
        "field",
        "bit",
        "log2 n",
        "cols",
        "kind",
        "ord",
        "P",
        "tfft ms",
        "Gelem/s",
        "%copy",
        "%/pass",
        "base ms",
        "speed",
        "exact",
        "shuffles",
        "fused vs unfused",
        "product ms %copy",
        "fused product: fwd, inv",
        "vs sppark"
    )
}

fn row_line(r: &NttBenchRow) -> String {
    format!(
        "{:<10} {:>3} {:>6} {:>6} {:>5} {:>4} {:>2} | {:>9.4} {:>9.2} {:>6.1} {:>6.1} | {:>9.4} {:>5.2}x | {} | {:>18} | {:>17} | {:>18} | {:>34} | {}",
        if r.interleaved { format!("{}/rows", r.field) } else { r.field.clone() },
        r.word_bits,
        r.log_n,
        r.transforms,
        &r.kind[..4.min(r.kind.len())],
        r.orders,
        r.passes,
        r.tfft_ms,
        r.elements_per_s / 1e9,
        r.pct_copy,
        r.pct_copy_per_pass,
        r.baseline_ms,
        r.speedup_vs_baseline,
        r.exact,
        // The other shuffle choice ("off" where the plan has them): its time, its speed
        // against the timed plan, and its exactness.
        r.shuffles_ms.map_or_else(String::new, |m| format!(
            "{} {:.4} {:.2}x{}",
            if r.shuffles_in_plan { "off" } else { "on" },
            m,
            r.tfft_ms / m,
            if r.shuffles_exact == Some(true) { "" } else { " WRONG" }
        )),
        // Fused on clusters of c blocks: the unfused plan's time and the speed-up over it.
        r.unfused_ms.map_or_else(String::new, |m| format!(
            "c{} {:.4} {:.2}x{}",
            r.cluster,
            m,
            m / r.tfft_ms,
            if r.unfused_exact == Some(true) { "" } else { " WRONG" }
        )),
        // The pointwise product: its time and % of the copy (two reads, one write).
        r.pointwise_ms.map_or_else(String::new, |m| format!(
            "{m:.4} {:.1}%{}",
            r.pointwise_pct_copy.unwrap_or(0.0),
            if r.pointwise_exact == Some(true) { "" } else { " WRONG" }
        )),
        // The transforms of the product with the product fused: times and speed-ups over the
        // product then the transform.
        fused_product_cell(r),
        r.vs_sppark
            .map_or_else(String::new, |v| format!("{v:.2}x ({:.4} ms)", r.sppark_ms.unwrap_or(0.0)))
    )
}

/// The fused products' cell of a row: the forward and inverse times, each with its speed-up
/// over the pointwise product followed by the transform.
fn fused_product_cell(r: &NttBenchRow) -> String {
    let (Some(pw), Some(fwd), Some(inv), Some(inv_plain)) = (
        r.pointwise_ms,
        r.product_ms,
        r.inverse_product_ms,
        r.inverse_ms,
    ) else {
        return String::new();
    };
    format!(
        "{fwd:.4} {:.2}x, {inv:.4} {:.2}x{}",
        (pw + r.tfft_ms) / fwd,
        (pw + inv_plain) / inv,
        if r.product_exact == Some(true) {
            ""
        } else {
            " WRONG"
        }
    )
}

/// Whether `plan`'s transform of `x` in direction `dir` (in `data`, in place) equals `want` on
/// transform 0 (its words `stride` apart); leaves `data` holding `x` again, for timing.
fn transform0_exact<W: NttWord>(
    gpu: &Gpu,
    plan: &GpuNttPlan<W>,
    dir: Direction,
    x: &[W],
    data: &mut DeviceBuffer<W>,
    stride: usize,
    want: &[u64],
) -> Result<bool, Error> {
    gpu.upload_into(x, data)?;
    plan.execute_in_place(dir, data)?;
    let all = gpu.download(data)?;
    gpu.upload_into(x, data)?;
    Ok(want
        .iter()
        .enumerate()
        .all(|(i, &w)| all[i * stride].into() == w))
}

/// One row; `options`: the timed plan's (its cluster size, or the planner's choice where
/// `None`, and its launches), which the compared plans share but for what they compare.
fn bench_row<W: NttWord>(
    gpu: &Gpu,
    r: &Row,
    reps: usize,
    seed: u64,
    options: &NttPlanOptions,
) -> Result<NttBenchRow, Error> {
    let batch = NttBatch::limbs(&r.moduli, 1 << r.log_n, r.kind)?
        .with_orders(r.orders.0, r.orders.1)
        .batch(r.batch)
        .interleaved(r.interleaved);
    let dir = Direction::Forward;
    let plan_with = |options: NttPlanOptions| gpu.plan_ntt_with::<W>(&batch, &options);
    let plan = plan_with(*options)?;
    // The comparisons keep the timed plan's launches; each changes one choice of the default.
    let launches = NttPlanOptions {
        dependent_launch: options.dependent_launch,
        ..Default::default()
    };
    let baseline = plan_with(NttPlanOptions {
        block_synchronous: true,
        ..launches
    })?;
    let x: Vec<W> = ntt_data(&batch, seed, false);
    let n = batch.n();
    // Correctness of the timed plan on transform 0, then times on the same buffer (the data
    // changes with every run; every run transforms random-looking values in [0, p)).
    let stride = if r.interleaved { batch.transforms() } else { 1 };
    let xs: Vec<u64> = (0..n).map(|i| x[i * stride].into()).collect();
    let want = fast_ntt(batch.spec(0), dir, &xs)?;
    let mut data = gpu.alloc::<W>(x.len())?;
    let exact = transform0_exact(gpu, &plan, dir, &x, &mut data, stride, &want)?;
    let (ms, ms_min, ms_max) = time_runs(gpu, reps, || plan.execute_in_place(dir, &mut data))?;
    gpu.upload_into(&x, &mut data)?;
    let (base_ms, _, _) = time_runs(gpu, reps, || baseline.execute_in_place(dir, &mut data))?;
    let mut other = gpu.alloc::<W>(batch.len())?;
    let (copy_ms, _, _) = time_runs(gpu, reps, || gpu.copy(&data, &mut other))?;
    // The other warp-shuffle choice, where it changes a pass: exactness of transform 0, then
    // the time on the same buffer.
    let (mut shuffles_ms, mut shuffles_exact) = (None, None);
    let shuffles_in_plan = plan
        .schedule(dir)
        .passes
        .iter()
        .any(|p| p.shuffle_stages > 0);
    let other_choice = if shuffles_in_plan {
        WarpShuffles::Never
    } else {
        WarpShuffles::Everywhere
    };
    if other_choice.apply(plan.schedule(dir).clone()) != *plan.schedule(dir) {
        let shuffled = plan_with(NttPlanOptions {
            warp_shuffles: other_choice,
            ..launches
        })?;
        shuffles_exact = Some(transform0_exact(
            gpu, &shuffled, dir, &x, &mut data, stride, &want,
        )?);
        shuffles_ms = Some(time_runs(gpu, reps, || shuffled.execute_in_place(dir, &mut data))?.0);
    }
    // Fused: the same plan unfused, exactness of transform 0 and time.
    let cluster = plan.schedule(dir).cluster;
    let (mut unfused_ms, mut unfused_exact) = (None, None);
    if cluster > 1 {
        let unfused = plan_with(NttPlanOptions {
            cluster_blocks: Some(0),
            ..launches
        })?;
        unfused_exact = Some(transform0_exact(
            gpu, &unfused, dir, &x, &mut data, stride, &want,
        )?);
        unfused_ms = Some(time_runs(gpu, reps, || unfused.execute_in_place(dir, &mut data))?.0);
    }
    // The pointwise product of two batches (x and a second random batch) out of place: its
    // first words against the CPU, then its time.
    let y: Vec<W> = ntt_data(&batch, seed ^ 0x5851_F42D_4C95_7F2D, false);
    let (dx, dy) = (gpu.upload(&x)?, gpu.upload(&y)?);
    plan.pointwise_mul(&dx, &dy, &mut other)?;
    let head = batch.len().min(1 << 16);
    let got = gpu.download_range(&other, 0, head)?;
    let moduli = batch
        .moduli()
        .into_iter()
        .map(Modulus::new)
        .collect::<Result<Vec<_>, Error>>()?;
    let pointwise_exact = got.iter().enumerate().all(|(w, &g)| {
        let m = &moduli[batch.locate(w).0 % moduli.len()];
        g.into() == m.mul(x[w].into(), y[w].into())
    });
    let (pointwise_ms, _, _) = time_runs(gpu, reps, || plan.pointwise_mul(&dx, &dy, &mut other))?;
    // The transforms of the product with the product fused: transform 0 of each direction
    // against the CPU, then their times, and the plain inverse's.
    let z: Vec<u64> = (0..n)
        .map(|i| moduli[0].mul(x[i * stride].into(), y[i * stride].into()))
        .collect();
    let mut product_exact = true;
    for d in [Direction::Forward, Direction::Inverse] {
        let want = fast_ntt(batch.spec(0), d, &z)?;
        gpu.poison(&mut other)?;
        plan.execute_product_into(d, &dx, &dy, &mut other)?;
        let all = gpu.download(&other)?;
        product_exact &= want
            .iter()
            .enumerate()
            .all(|(i, &w)| all[i * stride].into() == w);
    }
    let (product_ms, _, _) = time_runs(gpu, reps, || {
        plan.execute_product_into(dir, &dx, &dy, &mut other)
    })?;
    let (inverse_product_ms, _, _) = time_runs(gpu, reps, || {
        plan.execute_product_into(Direction::Inverse, &dx, &dy, &mut other)
    })?;
    gpu.upload_into(&x, &mut data)?;
    let (inverse_ms, _, _) = time_runs(gpu, reps, || {
        plan.execute_in_place(Direction::Inverse, &mut data)
    })?;
    let schedule = plan.schedule(dir);
    // Trips through device memory: a fused pair of passes is one.
    let passes = schedule.passes.len() - usize::from(cluster > 1);
    let pct = 100.0 * copy_ms / ms;
    Ok(NttBenchRow {
        field: r.field.to_string(),
        word_bits: W::BYTES * 8,
        n,
        log_n: r.log_n,
        transforms: batch.transforms(),
        limbs: batch.limb_count(),
        kind: format!("{:?}", r.kind).to_lowercase(),
        orders: format!(
            "{}{}",
            if r.orders.0 == Order::Natural {
                "N"
            } else {
                "R"
            },
            if r.orders.1 == Order::Natural {
                "N"
            } else {
                "R"
            }
        ),
        interleaved: r.interleaved,
        direction: format!("{dir:?}").to_lowercase(),
        passes,
        bytes: batch.len() * W::BYTES,
        copy_ms,
        tfft_ms: ms,
        tfft_ms_min: ms_min,
        tfft_ms_max: ms_max,
        elements_per_s: batch.len() as f64 / (ms * 1e-3),
        pct_copy: pct,
        pct_copy_per_pass: pct * passes as f64,
        baseline_ms: base_ms,
        speedup_vs_baseline: base_ms / ms,
        exact,
        schedule: schedule.to_string(),
        sppark_ms: None,
        vs_sppark: None,
        shuffles_in_plan,
        shuffles_ms,
        shuffles_exact,
        cluster,
        unfused_ms,
        unfused_exact,
        dependent_launch: plan.dependent_launch(),
        pointwise_ms: Some(pointwise_ms),
        pointwise_pct_copy: Some(150.0 * copy_ms / pointwise_ms),
        pointwise_exact: Some(pointwise_exact),
        product_ms: Some(product_ms),
        product_exact: Some(product_exact),
        inverse_ms: Some(inverse_ms),
        inverse_product_ms: Some(inverse_product_ms),
    })
}
