//! The shared-memory row layouts of the NTT passes (`ntt/row_layout.rs`) on every pass the
//! planner emits for lengths 2 … 2^24 (u32) and 2 … 2^22 (u64), every order pair, one
//! transform and batches, tiles as planned and as spread on an H200: the kernel's address
//! arithmetic holds for them (a group's sample `base + j D` sits at the base's position plus
//! that of `j D`), they fit the device, and the bank model never rates them worse than one
//! word of padding after every 32 four-byte (16 eight-byte) words.

use tensorfft::ntt::row_layout::{plain_row_layout, ExchangeGeometry};
use tensorfft::ntt::schedule::{plan_ntt_schedule_with, NttPass, NttScheduleOptions};
use tensorfft::ntt::{NttBatch, NttKind, Order, BABY_BEAR, GOLDILOCKS};
use tensorfft::Direction;

/// Every pass of the sweep, with its word size.
fn passes() -> Vec<(NttPass, usize)> {
    let orders = [Order::Natural, Order::BitReversed];
    let mut out: Vec<(NttPass, usize)> = Vec::new();
    for (p, word, max_log) in [(BABY_BEAR, 4, 24), (GOLDILOCKS, 8, 22)] {
        for log_n in 1..=max_log {
            for &a in &orders {
                for &b in &orders {
                    for batch in [1usize, 64] {
                        let Ok(spec) = NttBatch::limbs(&[p], 1 << log_n, NttKind::Cyclic) else {
                            continue;
                        };
                        let spec = spec.with_orders(a, b).batch(batch);
                        for (min_tiles, min_row_tiles) in [(0, 0), (264, 0), (264, 1056)] {
                            let o = NttScheduleOptions {
                                min_tiles,
                                min_row_tiles,
                                ..Default::default()
                            };
                            let s = plan_ntt_schedule_with(&spec, word, Direction::Forward, &o)
                                .expect("plan");
                            for pass in [s.clone(), s.warp_shuffles()]
                                .iter()
                                .flat_map(|s| s.passes.iter())
                            {
                                if !out.iter().any(|(q, w)| q == pass && *w == word) {
                                    out.push((pass.clone(), word));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn group_positions_add_up_in_every_round() {
    for (pass, word) in passes() {
        let layout = pass.row_layout(word);
        let rounds = pass.kernel_round_sizes();
        let per_item = pass.len / pass.values_per_thread;
        let mut s0 = 0;
        for &r in &rounds {
            let g_len = 1usize << r;
            let d = pass.len >> (s0 + r);
            for t in 0..per_item {
                for g in 0..pass.values_per_thread / g_len {
                    let group = t + g * per_item;
                    let base = (group / d) * (d * g_len) + group % d;
                    for j in 0..g_len {
                        assert_eq!(
                            layout.position(base + j * d),
                            layout.position(base) + layout.position(j * d),
                            "{pass:?}: round of {r} stages, thread {t}, group {g}, value {j}"
                        );
                    }
                }
            }
            s0 += r;
        }
    }
}

#[test]
fn rows_hold_their_items_and_fit_the_device() {
    for (pass, word) in passes() {
        let layout = pass.row_layout(word);
        assert!(
            layout.row > layout.position(pass.len - 1),
            "{pass:?}: row {layout:?}"
        );
        // 227 KB of shared memory per block on sm_90.
        assert!(pass.shared_bytes(word) <= 227 * 1024, "{pass:?}");
    }
}

#[test]
fn chosen_layouts_are_never_worse_than_one_word_per_bank_sweep() {
    let mut better = 0;
    let mut direct = 0;
    for (pass, word) in passes() {
        if !pass.direct() {
            continue;
        }
        let g = ExchangeGeometry::of(&pass, word);
        if g.exchanges() == 0 {
            continue;
        }
        direct += 1;
        let plain = plain_row_layout(&pass, word);
        let (chosen, old) = (g.wavefronts(&pass.row_layout(word)), g.wavefronts(&plain));
        assert!(chosen <= old, "{pass:?}: {chosen} > {old}");
        assert!(chosen >= g.ideal_wavefronts(), "{pass:?}");
        better += usize::from(chosen < old);
    }
    // Most direct passes of several rounds had conflicts to remove.
    assert!(direct > 20 && better * 3 > direct, "{better} of {direct}");
}
