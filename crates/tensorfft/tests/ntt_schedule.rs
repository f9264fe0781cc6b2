//! NTT schedules on the CPU executor against the CPU transforms, bit for bit: every order pair,
//! cyclic and negacyclic, both directions, one to three passes, u32 and u64 words, RNS limbs and
//! batches, inputs p − 1 everywhere.

use proptest::prelude::*;
use tensorfft::ntt::executor::execute;
use tensorfft::ntt::schedule::{
    plan_ntt_schedule_limited, plan_ntt_schedule_with, NttArithmetic, NttScheduleOptions,
};
use tensorfft::ntt::{
    fast_ntt, naive_ntt, ntt_friendly_primes, plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order,
    BABY_BEAR, FHE_62, GOLDILOCKS, KOALA_BEAR,
};
use tensorfft::Direction;

const ORDERS: [(Order, Order); 4] = [
    (Order::Natural, Order::Natural),
    (Order::Natural, Order::BitReversed),
    (Order::BitReversed, Order::Natural),
    (Order::BitReversed, Order::BitReversed),
];

/// Pseudo-random values below each limb's modulus (xorshift; `all_max` gives p − 1).
fn data(batch: &NttBatch, seed: u64, all_max: bool) -> Vec<u64> {
    let mut s = seed | 1;
    (0..batch.len())
        .map(|i| {
            let p = batch.spec(batch.locate(i).0).modulus().value();
            if all_max {
                return p - 1;
            }
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s % p
        })
        .collect()
}

/// The CPU transform of every transform of the batch, limb by limb (gathered from and scattered
/// back to interleaved columns where the batch has them).
fn expected(batch: &NttBatch, dir: Direction, x: &[u64], naive: bool) -> Vec<u64> {
    let n = batch.n();
    let mut out = vec![0u64; x.len()];
    for t in 0..batch.transforms() {
        let at = |i: usize| {
            if batch.is_interleaved() {
                i * batch.transforms() + t
            } else {
                t * n + i
            }
        };
        let column: Vec<u64> = (0..n).map(|i| x[at(i)]).collect();
        let spec = batch.spec(t);
        let y = if naive {
            naive_ntt(spec, dir, &column).unwrap()
        } else {
            fast_ntt(spec, dir, &column).unwrap()
        };
        for (i, v) in y.into_iter().enumerate() {
            out[at(i)] = v;
        }
    }
    out
}

fn check(batch: &NttBatch, word: usize, seed: u64, all_max: bool) {
    let x = data(batch, seed, all_max);
    for dir in [Direction::Forward, Direction::Inverse] {
        let s = plan_ntt_schedule(batch, word, dir).unwrap();
        let want = expected(batch, dir, &x, batch.n() <= 64);
        assert_eq!(execute(&s, &x).unwrap(), want, "{s}");
    }
}

#[test]
fn every_order_kind_and_size_up_to_two_passes_u32() {
    for log_n in 1..=14 {
        for &(a, b) in &ORDERS {
            for kind in [NttKind::Cyclic, NttKind::Negacyclic] {
                let batch = NttBatch::limbs(&[BABY_BEAR], 1 << log_n, kind)
                    .unwrap()
                    .with_orders(a, b)
                    .batch(if log_n < 8 { 3 } else { 1 });
                check(&batch, 4, log_n as u64, false);
            }
        }
    }
}

/// The staged passes of bit-reversed input (`staged_reversed_input`, the plans before
/// decimation in time and the block-synchronous baseline's) stay exact, one to three passes,
/// 32- and 64-bit words; the default plans of the same batches run in time.
#[test]
fn staged_reversed_input_stays_exact() {
    let staged = NttScheduleOptions {
        staged_reversed_input: true,
        ..Default::default()
    };
    let limited = NttScheduleOptions {
        max_pass_len: 1 << 6,
        ..staged
    };
    for (p, word, log_n, options) in [
        (BABY_BEAR, 4, 10, &staged),
        (BABY_BEAR, 4, 16, &staged),
        (BABY_BEAR, 4, 14, &limited),
        (GOLDILOCKS, 8, 13, &staged),
        (GOLDILOCKS, 8, 15, &limited),
    ] {
        for kind in [NttKind::Cyclic, NttKind::Negacyclic] {
            let batch = NttBatch::limbs(&[p], 1 << log_n, kind)
                .unwrap()
                .with_orders(Order::BitReversed, Order::Natural)
                .batch(2);
            let x = data(&batch, log_n as u64, false);
            for dir in [Direction::Forward, Direction::Inverse] {
                let s = plan_ntt_schedule_with(&batch, word, dir, options).unwrap();
                let reversed_in = |q: &&tensorfft::ntt::schedule::NttPass| {
                    q.local_in == Order::BitReversed && q.local_out == Order::Natural
                };
                assert!(
                    s.passes.iter().filter(reversed_in).all(|q| !q.direct()),
                    "{s}"
                );
                assert_eq!(
                    execute(&s, &x).unwrap(),
                    expected(&batch, dir, &x, false),
                    "{s}"
                );
                let d = plan_ntt_schedule(&batch, word, dir).unwrap();
                assert!(
                    d.passes.iter().filter(reversed_in).all(|q| q.in_time()),
                    "{d}"
                );
            }
        }
    }
}

#[test]
fn three_passes_and_u64_words() {
    // 2^13 u64 (2048-point passes) needs two passes; 2^25 u64 three; here 2^12 · 2^11 · …
    for &(a, b) in &ORDERS {
        for (p, word, log_n) in [
            (GOLDILOCKS, 8, 12),
            (FHE_62, 8, 15),
            (KOALA_BEAR, 4, 13),
            (BABY_BEAR, 8, 13),
        ] {
            let batch = NttBatch::limbs(&[p], 1 << log_n, NttKind::Negacyclic)
                .unwrap()
                .with_orders(a, b);
            check(&batch, word, p ^ log_n, false);
        }
    }
}

#[test]
fn schedules_of_three_and_four_passes_are_exact() {
    // Columns of at most 2^11, a row of at most 2^13 (2^14 for 32-bit words where it saves a
    // pass).
    let lens = |s: &tensorfft::ntt::NttSchedule| s.passes.iter().map(|p| p.len).collect::<Vec<_>>();
    let batch = NttBatch::limbs(&[GOLDILOCKS], 1 << 24, NttKind::Cyclic).unwrap();
    let s = plan_ntt_schedule(&batch, 8, Direction::Forward).unwrap();
    assert_eq!(lens(&s), vec![1 << 11, 1 << 13], "{s}");
    let batch = NttBatch::limbs(&[GOLDILOCKS], 1 << 25, NttKind::Cyclic).unwrap();
    let s = plan_ntt_schedule(&batch, 8, Direction::Forward).unwrap();
    assert_eq!(s.passes.len(), 3, "{s}");
    let bb = NttBatch::limbs(&[BABY_BEAR], 1 << 24, NttKind::Cyclic).unwrap();
    let b = plan_ntt_schedule(&bb, 4, Direction::Forward).unwrap();
    assert_eq!(lens(&b), vec![1 << 11, 1 << 13]);
    let bb = NttBatch::limbs(&[BABY_BEAR], 1 << 25, NttKind::Cyclic).unwrap();
    let b = plan_ntt_schedule(&bb, 4, Direction::Forward).unwrap();
    assert_eq!(lens(&b), vec![1 << 11, 1 << 14]);
    let bb = NttBatch::limbs(&[BABY_BEAR], 1 << 26, NttKind::Cyclic).unwrap();
    assert_eq!(
        plan_ntt_schedule(&bb, 4, Direction::Forward)
            .unwrap()
            .passes
            .len(),
        3
    );
    let two = NttBatch::limbs(&[GOLDILOCKS], 1 << 22, NttKind::Cyclic).unwrap();
    let s = plan_ntt_schedule(&two, 8, Direction::Forward).unwrap();
    assert_eq!(lens(&s), vec![1 << 11, 1 << 11]);
    assert_eq!(s.arithmetic, NttArithmetic::Goldilocks);
    // The same geometry at CPU-friendly sizes: passes of at most 8 or 16 points.
    for &(a, b) in &ORDERS {
        for kind in [NttKind::Cyclic, NttKind::Negacyclic] {
            for (log_n, max_len, passes) in [(9, 8, 3), (11, 8, 4), (10, 16, 3), (7, 2, 7)] {
                let batch = NttBatch::limbs(&[KOALA_BEAR, BABY_BEAR], 1 << log_n, kind)
                    .unwrap()
                    .with_orders(a, b)
                    .batch(2);
                let x = data(&batch, log_n as u64, false);
                for dir in [Direction::Forward, Direction::Inverse] {
                    let s = plan_ntt_schedule_limited(&batch, 4, dir, max_len).unwrap();
                    assert_eq!(s.passes.len(), passes);
                    assert_eq!(
                        execute(&s, &x).unwrap(),
                        expected(&batch, dir, &x, false),
                        "{s}"
                    );
                }
            }
        }
    }
}

#[test]
fn columns_of_32_bit_words_prefer_1024_points_where_the_row_takes_the_bit() {
    let lens = |s: &tensorfft::ntt::NttSchedule| s.passes.iter().map(|p| p.len).collect::<Vec<_>>();
    let plan = |p: u64, word: usize, log_n: u32, (a, b): (Order, Order), o: &NttScheduleOptions| {
        let batch = NttBatch::limbs(&[p], 1 << log_n, NttKind::Cyclic)
            .unwrap()
            .with_orders(a, b);
        plan_ntt_schedule_with(&batch, word, Direction::Forward, o).unwrap()
    };
    let nr = (Order::Natural, Order::BitReversed);
    let rn = (Order::BitReversed, Order::Natural);
    let d = NttScheduleOptions::default();
    // The row pass (contiguous samples) is last for natural input, first for bit-reversed.
    assert_eq!(
        lens(&plan(BABY_BEAR, 4, 22, nr, &d)),
        vec![1 << 10, 1 << 12]
    );
    assert_eq!(
        lens(&plan(BABY_BEAR, 4, 22, rn, &d)),
        vec![1 << 12, 1 << 10]
    );
    assert_eq!(
        lens(&plan(BABY_BEAR, 4, 23, nr, &d)),
        vec![1 << 10, 1 << 13]
    );
    // Direct rows (natural input; bit-reversed to natural by decimation in time) are at their
    // longest at 2^13, and 2^11 columns stay rather than a third pass. Staged rows (the first
    // pass of RR, or of RN with `staged_reversed_input`) take 2^14 and the columns keep 2^10.
    // Explicit bounds override both.
    let rr = (Order::BitReversed, Order::BitReversed);
    let staged_option = NttScheduleOptions {
        staged_reversed_input: true,
        ..Default::default()
    };
    let staged_rows = |m: usize| NttScheduleOptions {
        max_row_len: Some(m),
        ..staged_option
    };
    for order in [nr, rn] {
        let s = plan(BABY_BEAR, 4, 24, order, &d);
        let mut expected = vec![1 << 11, 1 << 13];
        if order == rn {
            expected.reverse();
        }
        assert_eq!(lens(&s), expected, "{s}");
    }
    assert_eq!(
        lens(&plan(BABY_BEAR, 4, 24, rn, &staged_option)),
        vec![1 << 14, 1 << 10]
    );
    assert_eq!(
        lens(&plan(BABY_BEAR, 4, 24, rr, &d)),
        vec![1 << 14, 1 << 10]
    );
    let rows = |m: usize| NttScheduleOptions {
        max_row_len: Some(m),
        ..Default::default()
    };
    assert_eq!(
        lens(&plan(BABY_BEAR, 4, 24, nr, &rows(1 << 14))),
        vec![1 << 10, 1 << 14]
    );
    assert_eq!(
        lens(&plan(BABY_BEAR, 4, 24, rn, &rows(1 << 14))),
        vec![1 << 14, 1 << 10]
    );
    assert_eq!(
        lens(&plan(BABY_BEAR, 4, 24, rn, &staged_rows(1 << 13))),
        vec![1 << 13, 1 << 11]
    );
    // Where rows of 2^14 save a pass the choice turns: direct rows take them (two passes),
    // staged rows do not (three); explicit bounds override both, and bounds above the longest
    // row (2^14 words of 32 bits, 2^13 of 64) are held to it.
    assert_eq!(
        lens(&plan(BABY_BEAR, 4, 25, nr, &d)),
        vec![1 << 11, 1 << 14]
    );
    assert_eq!(
        lens(&plan(BABY_BEAR, 4, 25, rn, &d)),
        vec![1 << 14, 1 << 11]
    );
    assert_eq!(plan(BABY_BEAR, 4, 25, nr, &rows(1 << 13)).passes.len(), 3);
    assert_eq!(plan(BABY_BEAR, 4, 25, rn, &rows(1 << 13)).passes.len(), 3);
    assert_eq!(plan(BABY_BEAR, 4, 25, rn, &staged_option).passes.len(), 3);
    assert_eq!(plan(BABY_BEAR, 4, 25, rr, &d).passes.len(), 3);
    assert_eq!(
        lens(&plan(BABY_BEAR, 4, 25, rn, &staged_rows(1 << 14))),
        vec![1 << 14, 1 << 11]
    );
    assert_eq!(
        lens(&plan(BABY_BEAR, 4, 25, nr, &rows(1 << 20))),
        vec![1 << 11, 1 << 14]
    );
    let wide_columns = NttScheduleOptions {
        max_column_len: Some(1 << 9),
        max_row_len: Some(1 << 20),
        ..Default::default()
    };
    assert!(plan(GOLDILOCKS, 8, 24, nr, &wide_columns)
        .passes
        .iter()
        .all(|p| p.len <= 1 << 13));
    // A row of 2^14 with bit-reversed input runs direct by decimation in time: 32 values per
    // thread on 512 threads; staged (the option), 16 values per thread on 1024 threads.
    let in_time = plan(BABY_BEAR, 4, 25, rn, &d);
    assert!(in_time.passes.iter().all(|p| p.in_time()), "{in_time}");
    assert_eq!(
        (
            in_time.passes[0].len,
            in_time.passes[0].values_per_thread,
            in_time.passes[0].threads()
        ),
        (1 << 14, 32, 512),
        "{in_time}"
    );
    // Rows of 1024 32-bit words take 32 values per thread (one warp per item, whose rounds
    // exchange with a warp barrier) by decimation in time, 16 (two warps) by decimation in
    // frequency.
    let row_1024 = |order| {
        let p = plan(BABY_BEAR, 4, 10, order, &d);
        assert_eq!(p.passes.len(), 1, "{p}");
        (
            p.passes[0].in_time(),
            p.passes[0].values_per_thread,
            p.passes[0].threads_per_item(),
        )
    };
    assert_eq!(row_1024(rn), (true, 32, 32));
    assert_eq!(row_1024(nr), (false, 16, 64));
    // Staged (the option), the same row does not take 32 values: a staged pass (through shared
    // memory both ways, not by decimation in time) holds 8 per thread.
    let staged_1024 = plan(BABY_BEAR, 4, 10, rn, &staged_option);
    assert_eq!(
        (
            staged_1024.passes[0].in_time(),
            staged_1024.passes[0].values_per_thread
        ),
        (false, 8),
        "{staged_1024}"
    );
    // The block-synchronous baseline: rounds of one stage, every exchange on the block barrier
    // (the kernel's BLOCK_BARRIERS), also where an item's threads fit one warp; the planned
    // schedule never asks for it.
    let planned = plan(BABY_BEAR, 4, 9, nr, &d);
    let baseline = planned.clone().block_synchronous();
    for (s, block) in [(&planned, false), (&baseline, true)] {
        for (i, p) in s.passes.iter().enumerate() {
            assert_eq!(p.block_barriers, block, "{s}");
            let source = tensorfft::kernels::ntt_source::NttKernelSource::pass(s, i).source;
            assert!(source.contains(&format!("BLOCK_BARRIERS = {block}")), "{s}");
        }
    }
    let staged = plan(BABY_BEAR, 4, 24, rn, &staged_option);
    assert!(staged.passes.iter().all(|p| !p.direct()), "{staged}");
    assert_eq!(
        (
            staged.passes[0].values_per_thread,
            staged.passes[0].threads()
        ),
        (16, 1024),
        "{staged}"
    );
    // 64-bit words keep balanced passes; an explicit bound overrides the preference.
    assert_eq!(
        lens(&plan(GOLDILOCKS, 8, 22, nr, &d)),
        vec![1 << 11, 1 << 11]
    );
    let wide = NttScheduleOptions {
        max_column_len: Some(1 << 11),
        ..Default::default()
    };
    assert_eq!(
        lens(&plan(BABY_BEAR, 4, 22, nr, &wide)),
        vec![1 << 11, 1 << 11]
    );
    // The same move at a CPU-friendly size, against the CPU transforms: passes of at most 16
    // points, columns of at most 4.
    let small = NttScheduleOptions {
        max_pass_len: 16,
        max_column_len: Some(4),
        ..Default::default()
    };
    for &(a, b) in &ORDERS {
        let batch = NttBatch::limbs(&[BABY_BEAR], 1 << 6, NttKind::Negacyclic)
            .unwrap()
            .with_orders(a, b)
            .batch(3);
        let x = data(&batch, 6, false);
        for dir in [Direction::Forward, Direction::Inverse] {
            let s = plan_ntt_schedule_with(&batch, 4, dir, &small).unwrap();
            let mut got = lens(&s);
            got.sort_unstable();
            assert_eq!(got, vec![4, 16], "{s}");
            assert_eq!(
                execute(&s, &x).unwrap(),
                expected(&batch, dir, &x, false),
                "{s}"
            );
        }
    }
    let batch = NttBatch::limbs(&[BABY_BEAR], 1 << 10, NttKind::Cyclic).unwrap();
    for bad in [
        NttScheduleOptions {
            max_column_len: Some(48),
            ..Default::default()
        },
        NttScheduleOptions {
            max_row_len: Some(1),
            ..Default::default()
        },
    ] {
        assert!(plan_ntt_schedule_with(&batch, 4, Direction::Forward, &bad).is_err());
    }
}

#[test]
fn row_tiles_shrink_to_blocks_of_128_threads_for_one_transform() {
    let tiles = |log_n: u32, batch: usize, min_row_tiles: usize| {
        let b = NttBatch::limbs(&[BABY_BEAR], 1 << log_n, NttKind::Cyclic)
            .unwrap()
            .with_orders(Order::Natural, Order::BitReversed)
            .batch(batch);
        let o = NttScheduleOptions {
            min_tiles: 264,
            min_row_tiles,
            ..Default::default()
        };
        let s = plan_ntt_schedule_with(&b, 4, Direction::Forward, &o).unwrap();
        let row = s.passes.last().unwrap().clone();
        (row.items_per_tile, row.threads(), row.tiles())
    };
    // 2^24: rows of 8192 on 256 threads; two per tile on two tiles per multiprocessor, one on
    // eight (2048 tiles: as many as there are rows).
    assert_eq!(tiles(24, 1, 0), (2, 512, 1024));
    assert_eq!(tiles(24, 1, 1056), (1, 256, 2048));
    // 2^25: rows of 16384 on 512 threads, one per tile either way.
    assert_eq!(tiles(25, 1, 0), (1, 512, 2048));
    assert_eq!(tiles(25, 1, 1056), (1, 512, 2048));
    // 2^20: rows of 1024 on 64 threads; two per tile is the 128-thread floor.
    assert_eq!(tiles(20, 1, 1056).1, 128);
    // A batch with tiles enough keeps its tiles.
    assert_eq!(tiles(20, 64, 1056), tiles(20, 64, 0));
}

#[test]
fn inputs_p_minus_one_everywhere() {
    for &(a, b) in &ORDERS {
        for (p, word) in [(BABY_BEAR, 4), (GOLDILOCKS, 8), (FHE_62, 8)] {
            let batch = NttBatch::limbs(&[p], 1 << 13, NttKind::Negacyclic)
                .unwrap()
                .with_orders(a, b)
                .batch(2);
            check(&batch, word, 0, true);
        }
    }
}

#[test]
fn rns_limbs_and_batches() {
    let ps = ntt_friendly_primes(30, 1 << 12, 3).unwrap();
    for &(a, b) in &ORDERS {
        let batch = NttBatch::limbs(&ps, 1 << 12, NttKind::Negacyclic)
            .unwrap()
            .with_orders(a, b)
            .batch(5);
        check(&batch, 4, 99, false);
        let unscaled = batch.clone().with_inverse_scaling(false);
        check(&unscaled, 8, 7, false);
    }
}

#[test]
fn interleaved_columns() {
    // Row-major matrices: 64 columns (a power of two) and 5 columns of 3 limbs (not one).
    let ps = ntt_friendly_primes(30, 1 << 12, 3).unwrap();
    for &(a, b) in &ORDERS {
        for kind in [NttKind::Cyclic, NttKind::Negacyclic] {
            let zk = NttBatch::limbs(&[BABY_BEAR], 1 << 11, kind)
                .unwrap()
                .with_orders(a, b)
                .batch(64)
                .interleaved(true);
            check(&zk, 4, 11, false);
            let fhe = NttBatch::limbs(&ps, 1 << 12, kind)
                .unwrap()
                .with_orders(a, b)
                .batch(5)
                .interleaved(true);
            check(&fhe, 8, 12, false);
            let x = data(&fhe, 3, false);
            for dir in [Direction::Forward, Direction::Inverse] {
                let s = plan_ntt_schedule_limited(&fhe, 4, dir, 16).unwrap();
                assert_eq!(s.passes.len(), 3);
                assert_eq!(
                    execute(&s, &x).unwrap(),
                    expected(&fhe, dir, &x, false),
                    "{s}"
                );
            }
        }
    }
}

/// Primes above 2^31 in `u32` words plan the full arithmetic (`Shoup32Full`, whose word
/// operations `ntt::word_arithmetic` tests; the CPU executor computes exactly whatever the
/// arithmetic) on the passes BabyBear's plan of the same batch has, and those passes give the
/// transform.
#[test]
fn u32_words_take_primes_above_2_31() {
    use tensorfft::ntt::schedule::NttArithmetic;
    let p32 = tensorfft::ntt::PRIME_32;
    for (log_n, kind) in [
        (5, NttKind::Cyclic),
        (12, NttKind::Negacyclic),
        (14, NttKind::Cyclic),
    ] {
        for &(a, b) in &ORDERS {
            let batch = NttBatch::limbs(&[p32], 1 << log_n, kind)
                .unwrap()
                .with_orders(a, b);
            let s = plan_ntt_schedule(&batch, 4, Direction::Forward).unwrap();
            assert_eq!(s.arithmetic, NttArithmetic::Shoup32Full);
            let bb = NttBatch::limbs(&[BABY_BEAR], 1 << log_n, kind)
                .unwrap()
                .with_orders(a, b);
            let bb = plan_ntt_schedule(&bb, 4, Direction::Forward).unwrap();
            assert_eq!(bb.arithmetic, NttArithmetic::Shoup32);
            assert_eq!(s.passes, bb.passes);
            check(&batch, 4, log_n as u64, log_n == 12);
        }
    }
    // Mixed with a prime below 2^31, the plan takes the full arithmetic for every limb.
    let both = NttBatch::limbs(&[BABY_BEAR, p32], 1 << 10, NttKind::Negacyclic).unwrap();
    let s = plan_ntt_schedule(&both, 4, Direction::Forward).unwrap();
    assert_eq!(s.arithmetic, NttArithmetic::Shoup32Full);
    check(&both.batch(2), 4, 7, false);
}

#[test]
fn refusals_are_typed() {
    let big = NttBatch::limbs(&[FHE_62], 64, NttKind::Cyclic).unwrap();
    assert!(plan_ntt_schedule(&big, 4, Direction::Forward).is_err());
    // 2^32 + 15 is prime, but above every u32 word.
    let over = NttBatch::limbs(&[(1 << 32) + 15], 2, NttKind::Cyclic).unwrap();
    assert!(matches!(
        plan_ntt_schedule(&over, 4, Direction::Forward),
        Err(tensorfft::Error::Unsupported { .. })
    ));
    let g = NttBatch::limbs(&[GOLDILOCKS, FHE_62], 64, NttKind::Cyclic).unwrap();
    assert!(plan_ntt_schedule(&g, 8, Direction::Forward).is_err());
    assert!(NttBatch::limbs(&[BABY_BEAR], 1 << 28, NttKind::Cyclic).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Any accepted batch plans passes whose lengths multiply to n, whose tiles fit a block, and
    /// whose results equal the CPU transform.
    #[test]
    fn planned_schedules_are_valid(log_n in 1usize..=16, order in 0usize..4, nega in any::<bool>(),
                                   word in prop_oneof![Just(4usize), Just(8usize)], batch in 1usize..4,
                                   seed in any::<u64>()) {
        let (a, b) = ORDERS[order];
        let kind = if nega { NttKind::Negacyclic } else { NttKind::Cyclic };
        let batch = NttBatch::limbs(&[BABY_BEAR], 1 << log_n, kind).unwrap().with_orders(a, b).batch(batch);
        for dir in [Direction::Forward, Direction::Inverse] {
            let s = plan_ntt_schedule(&batch, word, dir).unwrap();
            prop_assert_eq!(s.passes.iter().map(|p| p.len).product::<usize>(), 1 << log_n);
            for p in &s.passes {
                prop_assert!(p.threads() <= 1024 && p.threads() >= 1);
                prop_assert!(p.shared_bytes(word) <= 160 * 1024);
                prop_assert_eq!(p.items_per_tile % p.concurrent_items(), 0);
            }
        }
        if log_n <= 12 {
            check(&batch, word, seed, false);
            // Tiles spread over a device of 132 multiprocessors (rows further, as the GPU plans
            // do): same results.
            let x = data(&batch, seed, false);
            for min_row_tiles in [0, 1056] {
                let o = NttScheduleOptions { min_tiles: 264, min_row_tiles, ..Default::default() };
                for dir in [Direction::Forward, Direction::Inverse] {
                    let s = plan_ntt_schedule_with(&batch, word, dir, &o).unwrap();
                    prop_assert!(s.passes.iter().all(|p| p.threads() <= 1024));
                    prop_assert_eq!(execute(&s, &x).unwrap(), expected(&batch, dir, &x, false));
                }
            }
        }
    }

    /// Any column count of an interleaved batch (row-major matrices: 3, 5, 6 … columns) and any
    /// length up to 2^24: every pass splits its items' samples evenly over power-of-two values
    /// per thread (the kernels index a thread's values by bits).
    #[test]
    fn interleaved_column_counts_give_whole_threads(log_n in 1usize..=24, columns in 1usize..=40,
                                                     word in prop_oneof![Just(4usize), Just(8usize)],
                                                     order in 0usize..4) {
        let (a, b) = ORDERS[order];
        let Ok(spec) = NttBatch::limbs(&[BABY_BEAR], 1 << log_n, NttKind::Cyclic) else { return Ok(()); };
        let batch = spec.with_orders(a, b).batch(columns).interleaved(true);
        for dir in [Direction::Forward, Direction::Inverse] {
            let s = plan_ntt_schedule(&batch, word, dir).unwrap();
            for p in &s.passes {
                prop_assert!(p.values_per_thread.is_power_of_two(), "{:?}", p);
                prop_assert_eq!(p.threads_per_item() * p.values_per_thread, p.len);
                prop_assert!(p.threads() <= 1024 && p.threads() >= 1);
            }
        }
    }
}

/// Slot twiddles (`NttPass::slot_twiddles`) rest on each direct pass's output positions being
/// bit placements of the thread and the value slot on disjoint bits that cover every local
/// frequency once: `w^(m k) = w^(m k_t) w^(m k_j)`.
#[test]
fn slot_twiddle_positions_split_into_thread_and_slot_bits() {
    let mut checked = 0;
    for log_n in 2..=24 {
        for (p, word) in [(BABY_BEAR, 4), (GOLDILOCKS, 8)] {
            // Natural input (decimation in frequency) and bit-reversed input (in time).
            for (interleaved, from, to) in [
                (false, Order::Natural, Order::BitReversed),
                (true, Order::Natural, Order::BitReversed),
                (false, Order::BitReversed, Order::Natural),
                (true, Order::BitReversed, Order::Natural),
            ] {
                let batch = NttBatch::limbs(&[p], 1 << log_n, NttKind::Cyclic)
                    .unwrap()
                    .with_orders(from, to)
                    .batch(3)
                    .interleaved(interleaved);
                let s = plan_ntt_schedule(&batch, word, Direction::Forward).unwrap();
                for pass in s.passes.iter().filter(|p| p.slot_twiddles()) {
                    assert_eq!(pass.in_time(), from == Order::BitReversed, "{s}");
                    let mut seen = vec![false; pass.len];
                    for t in 0..pass.threads_per_item() {
                        let a = pass.output_frequency(t, 0);
                        for j in 0..pass.values_per_thread {
                            let b = pass.output_frequency(0, j);
                            assert_eq!(a & b, 0, "{s}");
                            assert_eq!(pass.output_frequency(t, j), a | b, "{s}");
                            assert!(!std::mem::replace(&mut seen[a | b], true), "{s}");
                        }
                    }
                    assert!(seen.iter().all(|&x| x), "{s}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 40, "only {checked} passes with slot twiddles");
}

/// The planner runs warp-shuffle butterflies exactly in the 32-bit row passes of 128, 256 and
/// 512 points (their last round of 3 or 4 stages between lanes; H200, bench/NOTES.md steps 54
/// and 83), not in rows of 64 or 1024 and up, nor in 64-bit words. (Where the last stages
/// exchange does not change the CPU executor's results; the GPU kernels' bit-exactness with
/// and without shuffles is `tfft ntt check`'s.)
#[test]
fn warp_shuffles_where_the_h200_measured_them_faster() {
    let shuffled = |p: u64, word: usize, log_n: u32| -> Vec<(usize, u32)> {
        let b = NttBatch::new(NttSpec::new(p, 1 << log_n, NttKind::Cyclic).unwrap())
            .with_orders(Order::Natural, Order::BitReversed)
            .batch(((1usize << 20) >> log_n).max(1));
        let s = plan_ntt_schedule(&b, word, Direction::Forward).unwrap();
        s.passes
            .iter()
            .filter(|q| q.shuffle_stages > 0)
            .map(|q| (q.len, q.shuffle_stages))
            .collect()
    };
    assert_eq!(shuffled(BABY_BEAR, 4, 7), vec![(128, 3)]);
    assert_eq!(shuffled(BABY_BEAR, 4, 8), vec![(256, 4)]);
    assert_eq!(shuffled(BABY_BEAR, 4, 9), vec![(512, 3)]);
    assert_eq!(shuffled(BABY_BEAR, 4, 13), vec![(128, 3)]); // columns of 64, rows of 128
    assert_eq!(shuffled(BABY_BEAR, 4, 18), vec![(512, 3)]);
    for log_n in [6, 10, 11, 12, 20, 22] {
        assert!(shuffled(BABY_BEAR, 4, log_n).is_empty(), "2^{log_n}");
    }
    for log_n in [7, 8, 9, 13] {
        assert!(
            shuffled(GOLDILOCKS, 8, log_n).is_empty(),
            "Goldilocks 2^{log_n}"
        );
    }
    // Passes by decimation in time (bit-reversed input to natural output) keep their 16-byte
    // loads instead (shuffles measured 0.88-0.90x there), but take them on request.
    for log_n in [7, 8, 9, 13, 18] {
        let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << log_n, NttKind::Cyclic).unwrap())
            .with_orders(Order::BitReversed, Order::Natural)
            .batch(((1usize << 20) >> log_n).max(1));
        let s = plan_ntt_schedule(&b, 4, Direction::Forward).unwrap();
        assert!(s.passes.iter().all(|p| p.in_time()), "{s}");
        assert!(s.passes.iter().all(|p| p.shuffle_stages == 0), "{s}");
        let forced = s.clone().warp_shuffles();
        assert!(forced.passes.iter().any(|p| p.shuffle_stages > 0), "{s}");
        // The CPU executor does not run the lanes' exchanges, so this checks only what the
        // shuffles change in the plan's data: the rounds the slot twiddles' frequencies come
        // from (two-pass 2^13 and 2^18; the one-pass rows have no twiddle). The shuffled
        // kernels themselves are `tfft ntt check`'s (`WarpShuffles::Everywhere` cases).
        let x = data(&b, 7, false);
        assert_eq!(
            execute(&forced, &x).unwrap(),
            expected(&b, Direction::Forward, &x, false)
        );
    }
}

/// Coset transforms (`NttBatch::with_coset`) through the schedules: the weights (g·ψ)^j on the
/// first pass's inputs and their inverses on the last pass's outputs, one and two passes (and
/// three and four with short passes), every order, both kinds, u32 and u64 words, RNS limbs
/// (one of them with g ≡ 1: a plain transform beside a coset one), p − 1 everywhere.
#[test]
fn coset_batches_are_exact() {
    for (moduli, word, g) in [
        (vec![BABY_BEAR], 4, 31u64),
        (vec![GOLDILOCKS], 8, 7),
        (vec![BABY_BEAR, KOALA_BEAR], 4, 5),
        // ≡ 1 mod BabyBear, 2^27 − 2^24 mod KoalaBear.
        (vec![BABY_BEAR, KOALA_BEAR], 4, BABY_BEAR + 1),
    ] {
        for log_n in [1, 5, 10, 13, 16] {
            for &(a, b) in &ORDERS {
                for kind in [NttKind::Cyclic, NttKind::Negacyclic] {
                    let batch = NttBatch::limbs(&moduli, 1 << log_n, kind)
                        .unwrap()
                        .with_orders(a, b)
                        .batch(2)
                        .with_coset(g)
                        .unwrap();
                    assert!(batch.twisted());
                    check(&batch, word, log_n as u64 + g, log_n == 10);
                }
            }
        }
    }
    // Three and four passes of at most 16 points.
    for (p, word) in [(BABY_BEAR, 4), (GOLDILOCKS, 8)] {
        for (log_n, kind) in [(12, NttKind::Cyclic), (14, NttKind::Negacyclic)] {
            let batch = NttBatch::limbs(&[p], 1 << log_n, kind)
                .unwrap()
                .batch(2)
                .with_coset(7)
                .unwrap();
            let x = data(&batch, 3, false);
            for dir in [Direction::Forward, Direction::Inverse] {
                let s = plan_ntt_schedule_limited(&batch, word, dir, 16).unwrap();
                assert!(s.passes.len() >= 3, "{s}");
                assert_eq!(
                    execute(&s, &x).unwrap(),
                    expected(&batch, dir, &x, false),
                    "{s}"
                );
            }
        }
    }
}
