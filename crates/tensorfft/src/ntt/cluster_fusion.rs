//! The two passes of an NTT schedule fused into one kernel on a thread-block cluster (sm_90;
//! `kernels/cuda/ntt_cluster.cuh`): the cluster's blocks take one transform, the first pass
//! leaves its outputs in the shared memory of the block whose second-pass items read them
//! (distributed shared memory), and the data crosses device memory once each way instead of
//! twice. The passes are the schedule's own, retiled so each block takes `1 / blocks` of both
//! passes' items on the same threads: same stages, roots and twiddles, so the CPU executor's
//! pass-by-pass results are the fused kernel's too.

use super::schedule::{even_rounds_pay, shuffles_pay, NttPass, NttSchedule};
use super::Order;

/// Most shared memory a fused kernel's block may take: the first pass's exchange rows (reused
/// by the second) and its chunk of the transform (the sm_90 limit is 227 KB per block).
pub const MAX_FUSED_SHARED_BYTES: usize = 200 * 1024;

/// Most blocks of a cluster: 16, sm_90's non-portable cluster size (8 is the portable one; the
/// GPU plan allows more on the kernel, and runs the passes unfused where the device refuses).
pub const MAX_CLUSTER_BLOCKS: usize = 16;

/// Words each thread holds in registers in a fused pass: 16 `u32` or 8 `u64` (the planner's
/// rounds of 4 or 3 stages).
fn fused_values(word_bytes: usize) -> usize {
    if word_bytes == 4 {
        16
    } else {
        8
    }
}

/// `schedule` with its two passes fused on clusters of `blocks` blocks, where that can be done:
/// transforms at distance `n` (not interleaved), `blocks` a power of two from 2 to
/// [`MAX_CLUSTER_BLOCKS`] dividing both pass lengths, 32 … 1024 threads (whole warps), the
/// second pass's items of block `r` reading exactly words `r · n / blocks …` of the transform
/// (its items counted by input position: bit-reversed rows in order of their rows), and the
/// shared memory within
/// [`MAX_FUSED_SHARED_BYTES`]. Else `None`. Direct passes (natural local input, bit-reversed
/// local output) and staged ones (through shared memory both ways: natural outputs,
/// bit-reversed inputs) both fuse; bit-reversed → natural does not (its second pass's items
/// are columns, whose inputs are no contiguous chunk of a block).
///
/// ```
/// use tensorfft::ntt::cluster_fusion::fuse_on_cluster;
/// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 16, NttKind::Cyclic).unwrap())
///     .with_orders(Order::Natural, Order::BitReversed)
///     .batch(4);
/// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
/// let f = fuse_on_cluster(&s, 8).unwrap();
/// assert_eq!(f.cluster, 8);
/// assert_eq!(f.passes[0].threads(), f.passes[1].threads());
/// assert_eq!(f.passes[0].tiles(), 4 * 8);
/// ```
pub fn fuse_on_cluster(schedule: &NttSchedule, blocks: usize) -> Option<NttSchedule> {
    let word_bytes = schedule.arithmetic.word_bytes();
    if schedule.passes.len() != 2
        || !blocks.is_power_of_two()
        || !(2..=MAX_CLUSTER_BLOCKS).contains(&blocks)
    {
        return None;
    }
    // Decimation in time (bit-reversed input to natural output): the second pass's items are
    // columns, whose inputs are no contiguous chunk of a block (`inputs_in_chunks` would refuse
    // them too).
    if schedule.passes.iter().any(|p| p.in_time()) {
        return None;
    }
    let n = schedule.batch.n();
    let (len0, len1) = (schedule.passes[0].len, schedule.passes[1].len);
    if len0 * len1 != n || len0 % blocks != 0 || len1 % blocks != 0 {
        return None;
    }
    let values = fused_values(word_bytes);
    let mut passes = Vec::with_capacity(2);
    for (pass, tile) in schedule.passes.iter().zip([len1 / blocks, len0 / blocks]) {
        let t = pass.transform_dim;
        let dim = pass.dims.get(t)?;
        let plain = t + 1 == pass.dims.len()
            && (dim.count == 1 || (dim.in_stride == n && dim.out_stride == n))
            && !dim.in_bit_reversed
            && !dim.out_bit_reversed;
        if !plain || pass.len < values || pass.items() != tile * blocks * dim.count {
            return None;
        }
        let mut p = pass.clone();
        p.values_per_thread = values;
        p.round_stages = values.trailing_zeros();
        p.even_rounds = even_rounds_pay(p.len, p.round_stages);
        p.items_per_tile = tile;
        p.shuffle_stages = 0;
        if shuffles_pay(&p, word_bytes) {
            p.shuffle_stages = p.shuffle_tail();
        }
        passes.push(p);
    }
    let threads = passes[0].threads();
    if threads != passes[1].threads() || threads % 32 != 0 || !(32..=1024).contains(&threads) {
        return None;
    }
    let chunk = n / blocks;
    if !outputs_cover_transform(&passes[0], n) || !inputs_in_chunks(&passes[1], chunk, blocks) {
        return None;
    }
    let fused = NttSchedule {
        passes,
        cluster: blocks,
        ..schedule.clone()
    };
    (fused_shared_bytes(&fused) <= MAX_FUSED_SHARED_BYTES).then_some(fused)
}

/// The cluster size the planner fuses a two-pass schedule on, or 0 (unfused), on blocks of about
/// 128 threads (2 … 8 blocks) where [`fuse_on_cluster`] accepts the schedule: natural →
/// bit-reversed (both passes direct) up to 2^15 `u32` or 2^13 `u64` words, natural → natural
/// (a staged second pass) up to 2^13 words of either; bit-reversed inputs never.
///
/// Measured against the same passes unfused (`bench/NOTES.md` step 84,
/// `bench/results/2026-11-27-ntt-cluster-fusion/`), on an H100: natural → bit-reversed
/// BabyBear 2^13 on 4 blocks 1.16× batched (2^26 words), 1.05× one transform; 2^14 on 8 blocks
/// 1.19× / 1.11×; 2^15 on 8 blocks 1.10× / 1.00×; Goldilocks 2^12 on 4 blocks 1.08× / 1.08×,
/// 2^13 on 8 blocks 1.04× / 1.03× (the 62-bit prime, 40 limbs: 1.07× and 1.14×). Longer
/// transforms lose: their blocks of 512 or more threads, or 16-block clusters, issue more
/// slowly than the two passes (BabyBear 2^16 batched 0.96–0.99×, 2^17 0.77–0.91×, Goldilocks
/// 2^14 0.90–0.99×, 2^16 0.74–0.78×). On an H200 natural → natural: BabyBear 2^13 1.13× / 1.10×
/// (one / batched), 2^14 1.02× / 0.78×, 2^15 0.90× / 0.75×; Goldilocks 2^12 1.22× / 1.11×, 2^13
/// 1.08× / 1.04×; bit-reversed → bit-reversed (a staged first pass) lost but for Goldilocks
/// 2^12 (BabyBear 2^13 … 2^15 0.83–0.99×, Goldilocks 2^13 0.89× / 1.01×).
///
/// ```
/// use tensorfft::ntt::cluster_fusion::planned_cluster;
/// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
/// let plan = |log_n: u32, out| {
///     let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1usize << log_n, NttKind::Cyclic).unwrap())
///         .with_orders(Order::Natural, out);
///     planned_cluster(&plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap())
/// };
/// let nr = |log_n: u32| plan(log_n, Order::BitReversed);
/// assert_eq!((nr(13), nr(14), nr(15), nr(16)), (4, 8, 8, 0));
/// assert_eq!((plan(13, Order::Natural), plan(14, Order::Natural)), (4, 0));
/// ```
pub fn planned_cluster(schedule: &NttSchedule) -> usize {
    planned_fusion(schedule).map_or(0, |fused| fused.cluster)
}

/// The schedule the planner runs instead of `schedule`: its two passes fused on the cluster of
/// [`planned_cluster`] blocks, or `None` where the planner keeps the passes apart.
///
/// ```
/// use tensorfft::ntt::cluster_fusion::planned_fusion;
/// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 14, NttKind::Cyclic).unwrap())
///     .with_orders(Order::Natural, Order::BitReversed);
/// let fused = planned_fusion(&plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap());
/// assert_eq!(fused.map(|f| (f.cluster, f.passes.len())), Some((8, 2)));
/// ```
pub fn planned_fusion(schedule: &NttSchedule) -> Option<NttSchedule> {
    let word_bytes = schedule.arithmetic.word_bytes();
    let n = schedule.batch.n();
    let longest = match schedule.passes.as_slice() {
        [a, b] => match (a.direct(), b.direct(), word_bytes) {
            (true, true, 4) => 1 << 15,
            (true, _, _) => 1 << 13,
            _ => return None,
        },
        _ => return None,
    };
    if n > longest {
        return None;
    }
    fuse_on_cluster(schedule, (n / (fused_values(word_bytes) * 128)).clamp(2, 8))
}

/// Byte offset of the chunk of the transform in a fused kernel's shared memory: after the
/// larger of the two passes' exchange rows, 16-byte aligned.
///
/// ```
/// use tensorfft::ntt::cluster_fusion::{chunk_offset, fuse_on_cluster};
/// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 14, NttKind::Cyclic).unwrap());
/// let f = fuse_on_cluster(&plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap(), 2).unwrap();
/// assert_eq!(chunk_offset(&f) % 16, 0);
/// ```
pub fn chunk_offset(schedule: &NttSchedule) -> usize {
    let w = schedule.arithmetic.word_bytes();
    let rows = schedule
        .passes
        .iter()
        .take(2)
        .map(|p| p.shared_bytes(w))
        .max()
        .unwrap_or(0);
    rows.div_ceil(16) * 16
}

/// Dynamic shared memory of a fused kernel's block: the exchange rows and the chunk.
///
/// ```
/// use tensorfft::ntt::cluster_fusion::{fuse_on_cluster, fused_shared_bytes};
/// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 16, NttKind::Cyclic).unwrap());
/// let f = fuse_on_cluster(&plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap(), 8).unwrap();
/// assert!(fused_shared_bytes(&f) >= (1 << 16) * 4 / 8);
/// ```
pub fn fused_shared_bytes(schedule: &NttSchedule) -> usize {
    let blocks = schedule.cluster.max(1);
    chunk_offset(schedule) + schedule.batch.n() / blocks * schedule.arithmetic.word_bytes()
}

/// Coordinates of item `i` of transform 0 (the transform dimension last, at coordinate 0); with
/// `by_input`, item `i` is the one at input position `i` along each dimension (its coordinate
/// bit-reversed where the input reverses it: `Cfg::ITEMS_BY_INPUT` in `ntt_pass.cuh`).
fn coordinates(pass: &NttPass, mut i: usize, by_input: bool) -> Vec<usize> {
    pass.dims
        .iter()
        .enumerate()
        .map(|(d, dim)| {
            if d == pass.transform_dim {
                0
            } else {
                let c = i % dim.count;
                i /= dim.count;
                if by_input && dim.in_bit_reversed {
                    Order::BitReversed.index(c, dim.count)
                } else {
                    c
                }
            }
        })
        .collect()
}

/// Items of one transform.
fn items_per_transform(pass: &NttPass) -> usize {
    pass.items() / pass.dims[pass.transform_dim].count.max(1)
}

/// Whether the outputs of transform 0 in `pass` are every index below `n` once.
fn outputs_cover_transform(pass: &NttPass, n: usize) -> bool {
    let mut seen = vec![false; n];
    for i in 0..items_per_transform(pass) {
        let c = coordinates(pass, i, false);
        let base: usize = pass
            .dims
            .iter()
            .zip(&c)
            .map(|(d, &c)| d.out_offset(c))
            .sum();
        for q in 0..pass.len {
            match seen.get_mut(base + q * pass.sample_out) {
                Some(s) if !*s => *s = true,
                _ => return false,
            }
        }
    }
    true
}

/// Whether block `r`'s items of transform 0 in `pass` (`items_per_tile` each, counted by input
/// position) read exactly the words `r · chunk … (r + 1) · chunk − 1`, for every `r < blocks`.
fn inputs_in_chunks(pass: &NttPass, chunk: usize, blocks: usize) -> bool {
    if items_per_transform(pass) != pass.items_per_tile * blocks {
        return false;
    }
    let mut seen = vec![false; chunk * blocks];
    for i in 0..items_per_transform(pass) {
        let r = i / pass.items_per_tile;
        let c = coordinates(pass, i, true);
        let base: usize = pass.dims.iter().zip(&c).map(|(d, &c)| d.in_offset(c)).sum();
        for s in 0..pass.len {
            let w = base + s * pass.sample_in;
            if w / chunk != r {
                return false;
            }
            match seen.get_mut(w) {
                Some(s) if !*s => *s = true,
                _ => return false,
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::executor::execute;
    use crate::ntt::schedule::plan_ntt_schedule;
    use crate::ntt::{fast_ntt, NttBatch, NttKind, Order, BABY_BEAR, FHE_62, GOLDILOCKS};
    use crate::Direction;

    const ORDERS: [(Order, Order); 4] = [
        (Order::Natural, Order::BitReversed),
        (Order::Natural, Order::Natural),
        (Order::BitReversed, Order::Natural),
        (Order::BitReversed, Order::BitReversed),
    ];

    /// Every two-pass schedule of 2^13 … 2^17 words (u32) and 2^12 … 2^16 (u64), every order
    /// pair and direction, batched, on every cluster size that fuses it: the fused passes keep
    /// the schedule's lengths, geometry and tables (only tiles, values per thread and rounds
    /// change), run on whole warps, and fit the shared memory.
    #[test]
    fn planned_fusions_keep_the_passes_and_fit_the_block() {
        let mut fused = 0;
        for (p, word, logs) in [(BABY_BEAR, 4, 13..=17), (GOLDILOCKS, 8, 12..=16)] {
            for log_n in logs {
                for orders in ORDERS {
                    for dir in [Direction::Forward, Direction::Inverse] {
                        let b = NttBatch::limbs(&[p], 1 << log_n, NttKind::Negacyclic)
                            .unwrap()
                            .with_orders(orders.0, orders.1)
                            .batch(3);
                        let s = plan_ntt_schedule(&b, word, dir).unwrap();
                        for c in [2, 4, 8, 16] {
                            let Some(f) = fuse_on_cluster(&s, c) else {
                                continue;
                            };
                            for (a, b) in s.passes.iter().zip(&f.passes) {
                                assert_eq!(
                                    (a.len, &a.dims, a.twiddle),
                                    (b.len, &b.dims, b.twiddle)
                                );
                                assert_eq!(
                                    (a.sample_in, a.sample_out),
                                    (b.sample_in, b.sample_out)
                                );
                                assert_eq!(b.tiles(), 3 * c, "{f}");
                            }
                            assert!(f.passes[0].threads() % 32 == 0);
                            assert!(fused_shared_bytes(&f) <= MAX_FUSED_SHARED_BYTES);
                            fused += 1;
                        }
                    }
                }
            }
        }
        // Natural input to bit-reversed output (forward NR, inverse RN) fuses at every size of
        // both words, on at least two cluster sizes.
        assert!(fused >= 2 * 5 * 2 * 2, "{fused}");
    }

    /// The planner fuses natural in, bit-reversed out at u32 2^13 … 2^15 (4, 8, 8 blocks) and
    /// u64 2^12 … 2^13 (4, 8), natural in and out at 2^13 and below, where they measured
    /// faster, and nothing longer; interleaved columns and one-pass or three-pass schedules
    /// never.
    #[test]
    fn which_schedules_fuse() {
        for (p, word, planned) in [
            (BABY_BEAR, 4, [(13, 4), (14, 8), (15, 8), (16, 0), (17, 0)]),
            (FHE_62, 8, [(12, 4), (13, 8), (14, 0), (15, 0), (16, 0)]),
        ] {
            for (log_n, blocks) in planned {
                let b = NttBatch::limbs(&[p], 1 << log_n, NttKind::Cyclic)
                    .unwrap()
                    .with_orders(Order::Natural, Order::BitReversed)
                    .batch(5);
                let s = plan_ntt_schedule(&b, word, Direction::Forward).unwrap();
                assert_eq!(planned_cluster(&s), blocks, "{s}");
                assert!(fuse_on_cluster(&s, 8).is_some(), "{s}");
                let i = plan_ntt_schedule(&b.clone().interleaved(true), word, Direction::Forward)
                    .unwrap();
                assert!(fuse_on_cluster(&i, 8).is_none(), "{i}");
                let nn = b.with_orders(Order::Natural, Order::Natural);
                let s = plan_ntt_schedule(&nn, word, Direction::Forward).unwrap();
                assert!(blocks == 0 || fuse_on_cluster(&s, 8).is_some(), "{s}");
                let nn_blocks = if log_n <= 13 { blocks } else { 0 };
                assert_eq!(planned_cluster(&s), nn_blocks, "{s}");
                let rr = nn.with_orders(Order::BitReversed, Order::BitReversed);
                let s = plan_ntt_schedule(&rr, word, Direction::Forward).unwrap();
                assert_eq!(planned_cluster(&s), 0, "{s}");
            }
        }
        let one = NttBatch::limbs(&[BABY_BEAR], 1 << 12, NttKind::Cyclic).unwrap();
        assert_eq!(
            planned_cluster(&plan_ntt_schedule(&one, 4, Direction::Forward).unwrap()),
            0
        );
        let big = NttBatch::limbs(&[BABY_BEAR], 1 << 22, NttKind::Cyclic).unwrap();
        let s = plan_ntt_schedule(&big, 4, Direction::Forward).unwrap();
        assert_eq!(planned_cluster(&s), 0, "{s}");
        assert!(fuse_on_cluster(&s, 8).is_none());
        assert!(fuse_on_cluster(&s, 3).is_none());
    }

    /// The fused schedule's passes, run by the CPU executor, give the reference transform:
    /// retiling changes no result.
    #[test]
    fn fused_passes_compute_the_transform() {
        let mut checked = 0;
        for (p, word, log_n, kind) in [
            (BABY_BEAR, 4, 14, NttKind::Cyclic),
            (FHE_62, 8, 13, NttKind::Negacyclic),
        ] {
            for orders in ORDERS {
                for dir in [Direction::Forward, Direction::Inverse] {
                    let b = NttBatch::limbs(&[p], 1 << log_n, kind)
                        .unwrap()
                        .with_orders(orders.0, orders.1);
                    let s = plan_ntt_schedule(&b, word, dir).unwrap();
                    let (from, to) = match dir {
                        Direction::Forward => orders,
                        Direction::Inverse => (orders.1, orders.0),
                    };
                    let fused = fuse_on_cluster(&s, 4);
                    // Bit-reversed → natural: the second pass's items are columns, whose
                    // inputs are not one contiguous chunk per block.
                    let reversed_to_natural = from == Order::BitReversed && to == Order::Natural;
                    assert_eq!(fused.is_none(), reversed_to_natural, "{s}");
                    let Some(f) = fused else {
                        continue;
                    };
                    let x: Vec<u64> = (0..b.n() as u64).map(|i| (i * 7919 + 3) % p).collect();
                    let got = execute(&f, &x).unwrap();
                    let want = fast_ntt(b.spec(0), dir, &x).unwrap();
                    assert_eq!(got, want, "{f}");
                    checked += 1;
                }
            }
        }
        // Every order pair and direction of both words but bit-reversed → natural.
        assert_eq!(checked, 12);
    }
}
