//! `tfft ntt check`: GPU NTTs against the CPU transforms, bit for bit. Every case runs out of
//! place (output poisoned with all-ones words, above every modulus, so unwritten words fail) and
//! in place, on fresh random data or on p − 1 everywhere; the plan's pointwise product
//! (`GpuNttPlan::pointwise_mul`) against the CPU's, every word; and both directions of a
//! product with the product fused into the first kernel (`GpuNttPlan::execute_product_into`)
//! against the CPU transforms of the CPU's product.

use crate::data::fresh_seed;
use crate::report::RunMeta;
use serde::Serialize;
use std::path::Path;
use std::process::ExitCode;
use tensorfft::gpu::ntt_plan::{NttPlanOptions, NttWord, WarpShuffles};
use tensorfft::ntt::cluster_fusion::fuse_on_cluster;
use tensorfft::ntt::pointwise::pointwise_reference;
use tensorfft::ntt::{
    fast_ntt, ntt_friendly_primes, plan_ntt_schedule, NttBatch, NttKind, Order, BABY_BEAR, FHE_62,
    GOLDILOCKS, KOALA_BEAR, PRIME_32,
};
use tensorfft::{Direction, Error, Gpu};

/// One checked configuration.
#[derive(Clone, Debug)]
pub struct NttCase {
    /// Moduli, one per limb.
    pub moduli: Vec<u64>,
    /// Bytes per word (4 or 8).
    pub word: usize,
    pub log_n: u32,
    pub kind: NttKind,
    pub orders: (Order, Order),
    pub batch: usize,
    /// Inputs p − 1 everywhere instead of random.
    pub all_max: bool,
    /// Passes of at most this many points (the multi-pass geometry at small sizes).
    pub max_pass_len: Option<usize>,
    /// The block-synchronous baseline.
    pub baseline: bool,
    /// Interleaved columns (a row-major matrix).
    pub interleaved: bool,
    /// Where the last round of direct row passes runs as warp-shuffle butterflies.
    pub warp_shuffles: WarpShuffles,
    /// Blocks per cluster of fused passes (`NttPlanOptions::cluster_blocks`: `None` the
    /// planner's choice, `Some(0)` unfused).
    pub cluster_blocks: Option<usize>,
    /// The transforms on the coset `g·H` (`NttBatch::with_coset`; `None`: plain).
    pub coset: Option<u64>,
}

/// The result of one case in one direction.
#[derive(Serialize, Clone, Debug)]
pub struct NttCheckRow {
    pub case: String,
    pub direction: String,
    pub passes: usize,
    /// Transforms compared with the CPU (all, or a sample of large batches).
    pub compared: usize,
    /// Words that differ from the CPU result, out of place and in place.
    pub wrong_out_of_place: usize,
    pub wrong_in_place: usize,
    pub ok: bool,
}

#[derive(Serialize)]
struct NttCheckReport {
    meta: RunMeta,
    rows: Vec<NttCheckRow>,
}

fn order_name(o: Order) -> &'static str {
    match o {
        Order::Natural => "N",
        Order::BitReversed => "R",
    }
}

fn case_name(c: &NttCase) -> String {
    let p = match c.moduli[0] {
        BABY_BEAR => "babybear".to_string(),
        KOALA_BEAR => "koalabear".to_string(),
        GOLDILOCKS => "goldilocks".to_string(),
        FHE_62 => "fhe62".to_string(),
        PRIME_32 => "prime32".to_string(),
        p => format!("{}-bit", 64 - p.leading_zeros()),
    };
    format!(
        "{p} u{} 2^{} {:?} {}{} batch={} limbs={}{}{}{}",
        c.word * 8,
        c.log_n,
        c.kind,
        order_name(c.orders.0),
        order_name(c.orders.1),
        c.batch,
        c.moduli.len(),
        if c.all_max { " p-1" } else { "" },
        c.max_pass_len
            .map_or(String::new(), |m| format!(" max-pass={m}")),
        if c.baseline { " baseline" } else { "" },
    ) + if c.interleaved { " interleaved" } else { "" }
        + match c.warp_shuffles {
            WarpShuffles::Planned => "",
            WarpShuffles::Everywhere => " shuffles",
            WarpShuffles::Never => " no-shuffles",
        }
        + &match c.cluster_blocks {
            None => String::new(),
            Some(0) => " unfused".to_string(),
            Some(b) => format!(" cluster={b}"),
        }
        + &c.coset.map_or(String::new(), |g| format!(" coset={g}"))
}

/// The sweep: sizes 2 … 2^24 (32-bit primes, `PRIME_32` above 2^31; BabyBear to 2^25) and
/// 2 … 2^24 (Goldilocks; the 62-bit prime to 2^19), both
/// kinds, every order pair; batches 1 / prime / large; limbs 1 / 3 / 40 (and BabyBear with
/// `PRIME_32`); p − 1 inputs; three-pass geometry; the baseline; cosets. `quick` keeps every size of
/// BabyBear and Goldilocks (both input orders up to 2^16, natural input above), a few sizes of
/// KoalaBear, `PRIME_32` and the FHE prime.
pub fn sweep(quick: bool) -> Vec<NttCase> {
    let orders = [
        (Order::Natural, Order::BitReversed),
        (Order::Natural, Order::Natural),
        (Order::BitReversed, Order::Natural),
        (Order::BitReversed, Order::BitReversed),
    ];
    let base = |moduli: Vec<u64>, word, log_n, kind, o| NttCase {
        moduli,
        word,
        log_n,
        kind,
        orders: o,
        batch: 1,
        all_max: false,
        max_pass_len: None,
        baseline: false,
        interleaved: false,
        warp_shuffles: WarpShuffles::Planned,
        cluster_blocks: None,
        coset: None,
    };
    let mut out = Vec::new();
    for (p, word, max_log) in [
        // BabyBear to 2^25: two passes with rows of 2^14.
        (BABY_BEAR, 4, 25),
        (KOALA_BEAR, 4, 24),
        (PRIME_32, 4, 24),
        // Goldilocks to 2^24: 2^23 and 2^24 run as two passes with rows of 2^12 and 2^13.
        (GOLDILOCKS, 8, 24),
        (FHE_62, 8, 19),
    ] {
        for log_n in 1..=max_log {
            for kind in [NttKind::Cyclic, NttKind::Negacyclic] {
                for (i, &o) in orders.iter().enumerate() {
                    if NttBatch::limbs(&[p], 1 << log_n, kind).is_err() {
                        continue;
                    }
                    // Quick: every size of BabyBear and Goldilocks (bit-reversed input orders up to
                    // 2^16), a few sizes of the other two fields.
                    let main_field = p == BABY_BEAR || p == GOLDILOCKS;
                    if quick
                        && ((main_field && log_n > 16 && i >= 2)
                            || (!main_field && ![4, 11, 12, 13, 17, 19].contains(&log_n)))
                    {
                        continue;
                    }
                    let mut c = base(vec![p], word, log_n, kind, o);
                    c.batch = match log_n {
                        0..=12 => 7,
                        13..=18 => 3,
                        _ => 1,
                    };
                    out.push(c);
                }
            }
        }
    }
    // Large batches and RNS limbs.
    for &o in &orders {
        let mut c = base(vec![BABY_BEAR], 4, 10, NttKind::Cyclic, o);
        c.batch = 4099;
        out.push(c);
        let mut c = base(vec![BABY_BEAR], 4, 20, NttKind::Cyclic, o);
        c.batch = if quick { 8 } else { 64 };
        out.push(c);
        for (bits, word, log_n, limbs) in [
            (30, 4, 12, 3),
            (30, 4, 12, 40),
            (60, 8, 16, 3),
            (60, 8, 16, 40),
        ] {
            if quick && limbs == 40 && log_n == 16 && o != orders[0] {
                continue;
            }
            let moduli = ntt_friendly_primes(bits, 1 << log_n, limbs).unwrap_or_default();
            if moduli.len() == limbs {
                let mut c = base(moduli, word, log_n, NttKind::Negacyclic, o);
                c.batch = 2;
                out.push(c);
            }
        }
        // p − 1 everywhere.
        for (p, word) in [
            (BABY_BEAR, 4),
            (KOALA_BEAR, 4),
            (PRIME_32, 4),
            (GOLDILOCKS, 8),
            (FHE_62, 8),
        ] {
            for log_n in [4, 12, 16, 18] {
                for kind in [NttKind::Cyclic, NttKind::Negacyclic] {
                    let mut c = base(vec![p], word, log_n, kind, o);
                    c.all_max = true;
                    out.push(c);
                }
            }
        }
        // Three and four passes at small sizes; the block-synchronous baseline.
        for (log_n, max) in [(12, 16), (14, 8), (16, 64)] {
            for (p, word) in [(BABY_BEAR, 4), (GOLDILOCKS, 8)] {
                let mut c = base(vec![p], word, log_n, NttKind::Negacyclic, o);
                c.max_pass_len = Some(max);
                c.batch = 2;
                out.push(c);
            }
        }
        for (p, word, log_n) in [
            (BABY_BEAR, 4, 12),
            (BABY_BEAR, 4, 22),
            (PRIME_32, 4, 16),
            (GOLDILOCKS, 8, 20),
        ] {
            let mut c = base(vec![p], word, log_n, NttKind::Cyclic, o);
            c.baseline = true;
            out.push(c);
        }
        // A limb above 2^31 beside one below: the whole plan on the full u32 arithmetic.
        let mut c = base(vec![BABY_BEAR, PRIME_32], 4, 12, NttKind::Negacyclic, o);
        c.batch = 3;
        out.push(c);
        // Warp-shuffle butterflies everywhere they apply (row passes of 256 … 8192 points, u32
        // and u64, batched and one transform, one with p − 1 inputs); and 32-bit rows of 256,
        // where the planner chooses them, once without.
        for (p, word, log_n, batch) in [
            (BABY_BEAR, 4, 8, 7),
            (BABY_BEAR, 4, 10, 64),
            (BABY_BEAR, 4, 20, 1),
            (KOALA_BEAR, 4, 23, 1),
            (PRIME_32, 4, 8, 7),
            (GOLDILOCKS, 8, 12, 3),
            (GOLDILOCKS, 8, 22, 1),
            (FHE_62, 8, 16, 5),
        ] {
            let mut c = base(vec![p], word, log_n, NttKind::Negacyclic, o);
            c.batch = batch;
            c.warp_shuffles = WarpShuffles::Everywhere;
            c.all_max = log_n == 10;
            out.push(c);
        }
        if o == orders[0] {
            // Natural in, bit-reversed out: the order whose forward rows of 256 take shuffles.
            let mut c = base(vec![BABY_BEAR], 4, 8, NttKind::Cyclic, o);
            c.batch = 7;
            c.warp_shuffles = WarpShuffles::Never;
            out.push(c);
        }
        // Two passes fused on clusters of 2, 4, 8 and 16 blocks, and unfused, where the planner
        // fuses (natural input to bit-reversed output, either direction): u32 and u64,
        // batched, RNS limbs, p − 1.
        for (moduli, word, log_n, batch, all_max) in [
            (vec![BABY_BEAR], 4, 13, 3, false),
            (vec![KOALA_BEAR], 4, 16, 5, true),
            (vec![BABY_BEAR], 4, 17, 2, false),
            (vec![GOLDILOCKS], 8, 12, 3, false),
            (vec![GOLDILOCKS], 8, 16, 2, true),
            (
                ntt_friendly_primes(60, 1 << 15, 3).unwrap_or_default(),
                8,
                15,
                2,
                false,
            ),
        ] {
            if moduli.is_empty() || (quick && o == orders[3]) {
                continue;
            }
            for blocks in [0, 2, 4, 8, 16] {
                // Cluster sizes a direction's schedule fuses on (the plan runs the others
                // unfused).
                let fuses = |b: usize| -> Option<()> {
                    let batch = NttBatch::limbs(&moduli, 1 << log_n, NttKind::Negacyclic)
                        .ok()?
                        .with_orders(o.0, o.1)
                        .batch(batch);
                    [Direction::Forward, Direction::Inverse]
                        .iter()
                        .filter_map(|&d| plan_ntt_schedule(&batch, word, d).ok())
                        .find_map(|s| fuse_on_cluster(&s, b).map(|_| ()))
                };
                if blocks > 0 && fuses(blocks).is_none() {
                    continue;
                }
                let mut c = base(moduli.clone(), word, log_n, NttKind::Negacyclic, o);
                c.batch = batch;
                c.all_max = all_max;
                c.cluster_blocks = Some(blocks);
                out.push(c);
            }
        }
        // Interleaved columns (row-major matrices): 64, 100, 3, 5 and 3 limbs × 5 columns
        // (column counts that are not powers of two once planned 12 or 20 values per thread).
        for (moduli, word, log_n, batch, kind) in [
            (vec![BABY_BEAR], 4, 20, 64, NttKind::Cyclic),
            (vec![BABY_BEAR], 4, 22, 3, NttKind::Cyclic),
            (vec![GOLDILOCKS], 8, 20, 5, NttKind::Negacyclic),
            (vec![BABY_BEAR], 4, 11, 100, NttKind::Negacyclic),
            (vec![GOLDILOCKS], 8, 16, 64, NttKind::Cyclic),
            (vec![KOALA_BEAR], 4, 22, 4, NttKind::Cyclic),
            (
                ntt_friendly_primes(60, 1 << 12, 3).unwrap_or_default(),
                8,
                12,
                5,
                NttKind::Negacyclic,
            ),
        ] {
            if moduli.is_empty() {
                continue;
            }
            let mut c = base(moduli, word, log_n, kind, o);
            c.batch = batch;
            c.interleaved = true;
            out.push(c);
        }
        // Transforms on a coset g·H (ZK low-degree extensions): one to two passes and a fused
        // pair, both kinds, u32 and u64, RNS limbs, an interleaved batch, p − 1.
        for (moduli, word, log_n, batch, g, interleaved, all_max) in [
            (vec![BABY_BEAR], 4, 4, 7, 31u64, false, false),
            (vec![BABY_BEAR], 4, 12, 3, 31, false, true),
            (vec![BABY_BEAR], 4, 14, 2, 31, false, false),
            (vec![BABY_BEAR], 4, 20, 1, 31, false, false),
            (vec![BABY_BEAR], 4, 16, 8, 31, true, false),
            (vec![KOALA_BEAR], 4, 22, 1, 3, false, false),
            (vec![GOLDILOCKS], 8, 10, 3, 7, false, false),
            (vec![GOLDILOCKS], 8, 16, 2, 7, false, true),
            (vec![GOLDILOCKS], 8, 22, 1, 7, false, false),
            (
                vec![BABY_BEAR, KOALA_BEAR, PRIME_32],
                4,
                12,
                2,
                5,
                false,
                false,
            ),
        ] {
            if quick && log_n >= 20 && o != orders[0] {
                continue;
            }
            for kind in [NttKind::Cyclic, NttKind::Negacyclic] {
                let mut c = base(moduli.clone(), word, log_n, kind, o);
                c.batch = batch;
                c.coset = Some(g);
                c.interleaved = interleaved;
                c.all_max = all_max;
                out.push(c);
            }
        }
    }
    out
}

/// Runs the sweep (or the given cases) and reports.
pub fn run(
    quick: bool,
    json: Option<&Path>,
    only_log_n: Option<u32>,
    only_field: Option<&str>,
    only_cosets: bool,
    warp_shuffles: bool,
    shard: crate::shard::Shard,
) -> Result<ExitCode, Error> {
    let gpu = Gpu::new(0)?;
    let seed = fresh_seed();
    let mut cases = sweep(quick);
    if warp_shuffles {
        // The baseline runs no shuffles, and the cases that turn them off stay as they are.
        for c in cases
            .iter_mut()
            .filter(|c| !c.baseline && c.warp_shuffles == WarpShuffles::Planned)
        {
            c.warp_shuffles = WarpShuffles::Everywhere;
        }
    }
    if let Some(l) = only_log_n {
        cases.retain(|c| c.log_n == l);
    }
    if let Some(f) = only_field {
        let f = f.to_ascii_lowercase();
        cases.retain(|c| case_name(c).starts_with(&f));
    }
    if only_cosets {
        cases.retain(|c| c.coset.is_some());
    }
    let cases = shard.keep(cases);
    println!(
        "tfft ntt check on {} ({} cases, part {shard}, seed {seed})",
        gpu.info().name,
        cases.len()
    );
    let t0 = std::time::Instant::now();
    let plans: Vec<_> = cases
        .iter()
        .filter_map(|c| case_batch(c).ok().map(|b| (b, c.word, case_options(c))))
        .collect();
    let compiled = gpu.precompile_ntt(&plans)?;
    println!(
        "compiled {compiled} kernels in {:.1} s (the rest were cached)",
        t0.elapsed().as_secs_f64()
    );
    let bar = crate::progress::bar(cases.len());
    let mut rows = Vec::new();
    let mut failures = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let name = case_name(c);
        bar.set_message(name.clone());
        let s = seed.wrapping_add(i as u64);
        let started = std::time::Instant::now();
        let result = match c.word {
            4 => check_case::<u32>(&gpu, c, s),
            _ => check_case::<u64>(&gpu, c, s),
        };
        match result {
            Ok(mut r) => {
                for row in &r {
                    if !row.ok {
                        let line = format!(
                            "FAIL {} {}: {} + {} wrong words",
                            row.case, row.direction, row.wrong_out_of_place, row.wrong_in_place
                        );
                        crate::progress::line(&bar, &line);
                        failures.push(line);
                    }
                }
                // Redirected output keeps a line per finished case, so a run cut by a time
                // limit still shows how far it got.
                if bar.is_hidden() && r.iter().all(|row| row.ok) {
                    println!(
                        "ok {name}: {} rows bit-exact (directions, the pointwise product, the directions of a product; {:.1} s)",
                        r.len(),
                        started.elapsed().as_secs_f64()
                    );
                }
                rows.append(&mut r);
            }
            Err(e) => {
                let line = format!("ERROR {name}: {e}");
                crate::progress::line(&bar, &line);
                failures.push(line);
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let passed = rows.iter().filter(|r| r.ok).count();
    let mut by_passes = std::collections::BTreeMap::new();
    for r in rows.iter().filter(|r| r.direction != "pointwise") {
        *by_passes.entry(r.passes).or_insert(0usize) += 1;
    }
    println!(
        "ntt check: {passed}/{} rows bit-exact (case-directions, pointwise products and transforms of products; {} failures); passes per plan: {by_passes:?}",
        rows.len(),
        failures.len()
    );
    for f in &failures {
        println!("{f}");
    }
    if let Some(path) = json {
        let report = NttCheckReport {
            meta: RunMeta::new(&gpu, seed),
            rows,
        };
        crate::report::write_json(path, &report)?;
    }
    Ok(crate::report::exit_code(failures.is_empty()))
}

/// Random words below each limb's modulus (p − 1 everywhere with `all_max`).
pub fn ntt_data<W: NttWord>(batch: &NttBatch, seed: u64, all_max: bool) -> Vec<W> {
    let mut s = seed | 1;
    (0..batch.len())
        .map(|i| {
            let p = batch.spec(batch.locate(i).0).modulus().value();
            if all_max {
                return W::from_u64(p - 1);
            }
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            W::from_u64(s % p)
        })
        .collect()
}

/// The plan options a case describes.
fn case_options(c: &NttCase) -> NttPlanOptions {
    NttPlanOptions {
        block_synchronous: c.baseline,
        max_pass_len: c.max_pass_len,
        warp_shuffles: c.warp_shuffles,
        cluster_blocks: c.cluster_blocks,
        ..NttPlanOptions::default()
    }
}

/// The batch a case describes.
pub fn case_batch(c: &NttCase) -> Result<NttBatch, Error> {
    let batch = NttBatch::limbs(&c.moduli, 1 << c.log_n, c.kind)?
        .with_orders(c.orders.0, c.orders.1)
        .batch(c.batch)
        .interleaved(c.interleaved);
    match c.coset {
        Some(g) => batch.with_coset(g),
        None => Ok(batch),
    }
}

fn check_case<W: NttWord>(gpu: &Gpu, c: &NttCase, seed: u64) -> Result<Vec<NttCheckRow>, Error> {
    let batch = case_batch(c)?;
    let plan = gpu.plan_ntt_with::<W>(&batch, &case_options(c))?;
    let x: Vec<W> = ntt_data(&batch, seed, c.all_max);
    let transforms = batch.transforms();
    // Every transform of small batches; the first, a middle one and the last of large ones
    // (each with its own limb).
    let sample: Vec<usize> = if transforms <= 8 {
        (0..transforms).collect()
    } else {
        let mut v = vec![0, transforms / 2, transforms - 1];
        v.extend(0..batch.limb_count().min(transforms));
        v.sort_unstable();
        v.dedup();
        v
    };
    let input = gpu.upload(&x)?;
    let mut rows = Vec::new();
    for dir in [Direction::Forward, Direction::Inverse] {
        let expected = expected_transforms(&batch, dir, &x, &sample)?;
        let mut out = gpu.alloc::<W>(batch.len())?;
        gpu.poison(&mut out)?;
        plan.execute_into(dir, &input, &mut out)?;
        let wrong_out = count_wrong(gpu, &out, &expected, &sample, &batch)?;
        let mut data = gpu.upload(&x)?;
        plan.execute_in_place(dir, &mut data)?;
        let wrong_in = count_wrong(gpu, &data, &expected, &sample, &batch)?;
        // The input of an out-of-place run is never written.
        let untouched = gpu.download(&input)? == x;
        rows.push(NttCheckRow {
            case: case_name(c),
            direction: format!("{dir:?}"),
            passes: plan.schedule(dir).passes.len(),
            compared: sample.len(),
            wrong_out_of_place: wrong_out + usize::from(!untouched),
            wrong_in_place: wrong_in,
            ok: wrong_out == 0 && wrong_in == 0 && untouched,
        });
    }
    rows.push(check_pointwise(gpu, c, &plan, &batch, &x, seed)?);
    rows.extend(check_product_transforms(
        gpu, c, &plan, &batch, &x, &sample, seed,
    )?);
    Ok(rows)
}

/// The second factor of a case's products: fresh random words (the input itself where every
/// input is p − 1).
fn second_factor<W: NttWord>(c: &NttCase, batch: &NttBatch, x: &[W], seed: u64) -> Vec<W> {
    if c.all_max {
        x.to_vec()
    } else {
        ntt_data(batch, seed ^ 0x5851_F42D_4C95_7F2D, false)
    }
}

/// The transforms of a product with the product fused into the first kernel
/// (`GpuNttPlan::execute_product_into`, `execute_product_in_place`), both directions, against
/// the CPU transforms of `pointwise_reference(x, y)` on the sampled transforms: out of place into
/// a poisoned buffer (both factors checked untouched), then in place.
fn check_product_transforms<W: NttWord>(
    gpu: &Gpu,
    c: &NttCase,
    plan: &tensorfft::gpu::ntt_plan::GpuNttPlan<W>,
    batch: &NttBatch,
    x: &[W],
    sample: &[usize],
    seed: u64,
) -> Result<Vec<NttCheckRow>, Error> {
    let y = second_factor(c, batch, x, seed);
    let wide = |v: &[W]| v.iter().map(|&w| w.into()).collect::<Vec<u64>>();
    let z: Vec<W> = pointwise_reference(batch, &wide(x), &wide(&y))?
        .into_iter()
        .map(W::from_u64)
        .collect();
    let (dx, dy) = (gpu.upload(x)?, gpu.upload(&y)?);
    let mut rows = Vec::new();
    for dir in [Direction::Forward, Direction::Inverse] {
        let expected = expected_transforms(batch, dir, &z, sample)?;
        let mut out = gpu.alloc::<W>(batch.len())?;
        gpu.poison(&mut out)?;
        plan.execute_product_into(dir, &dx, &dy, &mut out)?;
        let wrong_out = count_wrong(gpu, &out, &expected, sample, batch)?;
        let untouched = gpu.download(&dx)? == x && gpu.download(&dy)? == y;
        let mut data = gpu.upload(x)?;
        plan.execute_product_in_place(dir, &mut data, &dy)?;
        let wrong_in = count_wrong(gpu, &data, &expected, sample, batch)?;
        rows.push(NttCheckRow {
            case: case_name(c),
            direction: format!("{dir:?} of a product"),
            passes: plan.schedule(dir).passes.len(),
            compared: sample.len(),
            wrong_out_of_place: wrong_out + usize::from(!untouched),
            wrong_in_place: wrong_in,
            ok: wrong_out == 0 && wrong_in == 0 && untouched,
        });
    }
    Ok(rows)
}

/// The plan's pointwise product on the device (`GpuNttPlan::pointwise_mul`) against the CPU's
/// (`pointwise_reference`), every word: `x · y` out of place into a poisoned buffer (`x · x`
/// where every input is p − 1), then `y ·= x` in place.
fn check_pointwise<W: NttWord>(
    gpu: &Gpu,
    c: &NttCase,
    plan: &tensorfft::gpu::ntt_plan::GpuNttPlan<W>,
    batch: &NttBatch,
    x: &[W],
    seed: u64,
) -> Result<NttCheckRow, Error> {
    let y = second_factor(c, batch, x, seed);
    let wide = |v: &[W]| v.iter().map(|&w| w.into()).collect::<Vec<u64>>();
    let expected = pointwise_reference(batch, &wide(x), &wide(&y))?;
    let (dx, mut dy) = (gpu.upload(x)?, gpu.upload(&y)?);
    let mut out = gpu.alloc::<W>(batch.len())?;
    gpu.poison(&mut out)?;
    plan.pointwise_mul(&dx, &dy, &mut out)?;
    let differ = |got: Vec<W>| {
        got.iter()
            .zip(&expected)
            .filter(|&(&g, &e)| g.into() != e)
            .count()
    };
    let wrong_out = differ(gpu.download(&out)?) + usize::from(gpu.download(&dx)? != x);
    plan.pointwise_mul_assign(&mut dy, &dx)?;
    let wrong_in = differ(gpu.download(&dy)?);
    Ok(NttCheckRow {
        case: case_name(c),
        direction: "pointwise".into(),
        passes: 1,
        compared: batch.transforms(),
        wrong_out_of_place: wrong_out,
        wrong_in_place: wrong_in,
        ok: wrong_out == 0 && wrong_in == 0,
    })
}

/// The CPU transforms of the sampled transforms, computed on every core.
fn expected_transforms<W: NttWord>(
    batch: &NttBatch,
    dir: Direction,
    x: &[W],
    sample: &[usize],
) -> Result<Vec<Vec<u64>>, Error> {
    let n = batch.n();
    let results: Vec<Result<Vec<u64>, Error>> = std::thread::scope(|s| {
        let handles: Vec<_> = sample
            .iter()
            .map(|&t| {
                s.spawn(move || {
                    let xs: Vec<u64> = (0..n).map(|i| x[at(batch, t, i)].into()).collect();
                    fast_ntt(batch.spec(t), dir, &xs)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::Driver("CPU transform panicked".into())))
            })
            .collect()
    });
    results.into_iter().collect()
}

/// Where word `i` of transform `t` lives.
fn at(batch: &NttBatch, t: usize, i: usize) -> usize {
    if batch.is_interleaved() {
        i * batch.transforms() + t
    } else {
        t * batch.n() + i
    }
}

fn count_wrong<W: NttWord>(
    gpu: &Gpu,
    buffer: &tensorfft::DeviceBuffer<W>,
    expected: &[Vec<u64>],
    sample: &[usize],
    batch: &NttBatch,
) -> Result<usize, Error> {
    let n = batch.n();
    let whole = if batch.is_interleaved() {
        Some(gpu.download(buffer)?)
    } else {
        None
    };
    let mut wrong = 0;
    for (&t, want) in sample.iter().zip(expected) {
        let got = match &whole {
            Some(all) => (0..n).map(|i| all[at(batch, t, i)]).collect(),
            None => gpu.download_range(buffer, t * n, n)?,
        };
        wrong += got
            .iter()
            .zip(want)
            .filter(|&(&g, &w)| g.into() != w)
            .count();
    }
    Ok(wrong)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every case of both sweeps describes a valid batch (a field with the root it needs) and
    /// plans in both directions on the CPU side, with and without warp shuffles; the sweeps
    /// include warp-shuffle cases that change a pass.
    #[test]
    fn every_sweep_case_plans() {
        use tensorfft::ntt::schedule::plan_ntt_schedule;
        for quick in [true, false] {
            let cases = sweep(quick);
            let mut shuffled_passes = 0;
            for c in &cases {
                let batch = case_batch(c).unwrap_or_else(|e| panic!("{}: {e}", case_name(c)));
                let mut turned_off = false;
                for dir in [Direction::Forward, Direction::Inverse] {
                    let s = plan_ntt_schedule(&batch, c.word, dir)
                        .unwrap_or_else(|e| panic!("{}: {e}", case_name(c)));
                    turned_off |= WarpShuffles::Never.apply(s.clone()) != s;
                    if c.warp_shuffles == WarpShuffles::Everywhere {
                        shuffled_passes += c
                            .warp_shuffles
                            .apply(s)
                            .passes
                            .iter()
                            .filter(|p| p.shuffle_stages > 0)
                            .count();
                    }
                }
                // A case without shuffles must turn off the planner's choice in one direction
                // at least, or it checks nothing new.
                assert!(
                    c.warp_shuffles != WarpShuffles::Never || turned_off,
                    "{}",
                    case_name(c)
                );
            }
            assert!(shuffled_passes >= 7, "quick={quick}: {shuffled_passes}");
        }
    }
}
