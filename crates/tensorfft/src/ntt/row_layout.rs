//! Shared-memory layouts of the rows of direct NTT passes, chosen with a bank model.
//!
//! A direct pass (`ntt_pass.cuh`, `run_direct_to`; by decimation in time, its rounds in the reverse
//! order) runs its radix-2 stages in rounds; between two rounds every thread stores its
//! values into its item's shared-memory row in the one round's pattern and loads them back in
//! the other's (the model counts both, so it serves either order). The row's layout puts sample `i` at
//! word `i + c1 (i >> s1) + c2 (i >> s2)`, rows `row` words apart. The padding is a sum of
//! terms over power-of-two chunks, so the position of a group's sample `base + j D` is the
//! base's plus that of `j D` (the kernel adds compile-time offsets to one per-group address;
//! see `Round` in the kernel). One layout serves every exchange of a pass: a thread's store of
//! the next exchange may overlap another thread's load of this one, which is safe only where
//! both find each sample at the same word. The planner takes the layout with the fewest
//! shared-memory wavefronts over all the pass's stores and loads (ties: one term before two,
//! then fewer padding words), from a model of the banks: 32 banks of four bytes; a warp's
//! access takes as many wavefronts as the most lanes that meet in one bank (four-byte words)
//! or in one pair of banks (eight-byte words, at least two).
//!
//! ```
//! use tensorfft::ntt::row_layout::{direct_row_layout, ExchangeGeometry, RowLayout};
//! use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
//! let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 24, NttKind::Cyclic).unwrap())
//!     .with_orders(Order::Natural, Order::BitReversed);
//! let pass = &plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().passes[0];
//! let g = ExchangeGeometry::of(pass, 4);
//! // Columns of 2048 in rounds of 4 + 4 + 3 stages: free of bank conflicts, against 1.75
//! // times the wavefronts with one word of padding after every 32.
//! let plain = RowLayout::plain(2048, 5, pass.row_stride(4) - 2048 - 64);
//! assert_eq!(g.wavefronts(&direct_row_layout(pass, 4)), g.ideal_wavefronts());
//! assert_eq!(4 * g.wavefronts(&plain), 7 * g.ideal_wavefronts());
//! ```

use super::schedule::{round_position, NttPass};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// Where an exchange puts an item's samples in shared memory: sample `i` at word
/// `i + c1 (i >> s1) + c2 (i >> s2)` of the item's row (terms with `c = 0` add nothing), rows
/// `row` words apart.
///
/// ```
/// use tensorfft::ntt::row_layout::RowLayout;
/// let l = RowLayout { terms: [(1, 5), (0, 0)], row: 1056 };
/// assert_eq!((l.position(31), l.position(32)), (31, 33));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RowLayout {
    /// Padding terms `(c, s)`: `c` words after every `2^s` samples.
    pub terms: [(u32, u32); 2],
    /// Words from one item's row to the next.
    pub row: usize,
}

impl RowLayout {
    /// The word of sample `i` within its item's row.
    ///
    /// ```
    /// use tensorfft::ntt::row_layout::RowLayout;
    /// let l = RowLayout { terms: [(2, 5), (4, 7)], row: 1200 };
    /// assert_eq!(l.position(128), 128 + 2 * 4 + 4);
    /// ```
    pub fn position(&self, i: usize) -> usize {
        i + self
            .terms
            .iter()
            .map(|&(c, s)| c as usize * (i >> s))
            .sum::<usize>()
    }

    /// One word after every `2^pad_shift` samples, and `skew` words between rows: the layout
    /// of the staged passes and the rows' sizing ([`NttPass::row_stride`]).
    ///
    /// ```
    /// use tensorfft::ntt::row_layout::RowLayout;
    /// assert_eq!(RowLayout::plain(1024, 5, 0).row, 1056);
    /// ```
    pub fn plain(len: usize, pad_shift: u32, skew: usize) -> Self {
        RowLayout {
            terms: [(1, pad_shift), (0, 0)],
            row: len + (len >> pad_shift) + skew,
        }
    }
}

/// What the bank model needs of a direct pass: its rounds (those before the warp-shuffle tail)
/// and how the block's threads map to items and samples.
///
/// ```
/// use tensorfft::ntt::row_layout::ExchangeGeometry;
/// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 10, NttKind::Cyclic).unwrap()).batch(64);
/// let g = ExchangeGeometry::of(&plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().passes[0], 4);
/// assert_eq!(g.exchanges(), g.rounds.len() - 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ExchangeGeometry {
    /// Points of each item.
    pub len: usize,
    /// Values per thread.
    pub values: usize,
    /// Stages of each round before the warp-shuffle tail (`NttPass::kernel_round_sizes`).
    pub rounds: Vec<u32>,
    /// Items of a block.
    pub tile: usize,
    /// Whether neighbouring threads take neighbouring items (columns).
    pub items_fast: bool,
    /// Bytes per word (4 or 8).
    pub word_bytes: usize,
}

impl ExchangeGeometry {
    /// The geometry of `pass` (a direct pass) for words of `word_bytes` bytes.
    ///
    /// ```
    /// use tensorfft::ntt::row_layout::ExchangeGeometry;
    /// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 12, NttKind::Cyclic).unwrap());
    /// let p = &plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().passes[0];
    /// assert_eq!(ExchangeGeometry::of(p, 4).len, 4096);
    /// ```
    pub fn of(pass: &NttPass, word_bytes: usize) -> Self {
        ExchangeGeometry {
            len: pass.len,
            values: pass.values_per_thread,
            rounds: pass.kernel_round_sizes(),
            tile: pass.items_per_tile,
            items_fast: pass.items_fastest_in,
            word_bytes,
        }
    }

    /// Exchanges: one between every two rounds.
    ///
    /// ```
    /// # use tensorfft::ntt::row_layout::ExchangeGeometry;
    /// let g = ExchangeGeometry { len: 1024, values: 16, rounds: vec![4, 4, 2], tile: 8, items_fast: false, word_bytes: 4 };
    /// assert_eq!(g.exchanges(), 2);
    /// ```
    pub fn exchanges(&self) -> usize {
        self.rounds.len().saturating_sub(1)
    }

    fn threads_per_item(&self) -> usize {
        self.len / self.values
    }

    fn threads(&self) -> usize {
        self.tile * self.threads_per_item()
    }

    /// The samples thread `t` of an item holds in round `k`, in the order of its accesses
    /// ([`round_position`]).
    fn samples(&self, k: usize, t: usize) -> Vec<usize> {
        (0..self.values)
            .map(|j| round_position(self.len, self.values, &self.rounds, k, t, j))
            .collect()
    }

    /// Item and sample-thread of a block thread.
    fn lane(&self, tid: usize) -> (usize, usize) {
        if self.items_fast {
            (tid % self.tile, tid / self.tile)
        } else {
            let per_item = self.threads_per_item();
            (tid / per_item, tid % per_item)
        }
    }

    /// Wavefronts of one access (a warp's word per lane) without conflicts: one for four-byte
    /// words, two for eight-byte words.
    fn per_access(&self) -> usize {
        if self.word_bytes == 8 {
            2
        } else {
            1
        }
    }

    /// Shared-memory accesses of one round (one per value and warp).
    fn round_accesses(&self) -> usize {
        self.threads().div_ceil(32) * self.values
    }

    /// Wavefronts of every exchange without bank conflicts: a store and a load of every value
    /// by every warp per exchange.
    ///
    /// ```
    /// # use tensorfft::ntt::row_layout::ExchangeGeometry;
    /// let g = ExchangeGeometry { len: 1024, values: 16, rounds: vec![4, 4, 2], tile: 8, items_fast: false, word_bytes: 4 };
    /// assert_eq!(g.ideal_wavefronts(), 2 * 2 * 16 * 16);
    /// ```
    pub fn ideal_wavefronts(&self) -> usize {
        2 * self.exchanges() * self.round_accesses() * self.per_access()
    }

    /// Shared-memory wavefronts of round `k`'s accesses (a store or a load of every value by
    /// every warp) under `layout`, by the bank model.
    ///
    /// ```
    /// use tensorfft::ntt::row_layout::{ExchangeGeometry, RowLayout};
    /// let g = ExchangeGeometry { len: 1024, values: 16, rounds: vec![4, 4, 2], tile: 8, items_fast: false, word_bytes: 4 };
    /// // One word after every 32: the middle round meets two lanes in each bank.
    /// let plain = RowLayout::plain(1024, 5, 0);
    /// assert_eq!((g.round_wavefronts(0, &plain), g.round_wavefronts(1, &plain)), (256, 512));
    /// ```
    pub fn round_wavefronts(&self, k: usize, layout: &RowLayout) -> usize {
        self.count_wavefronts(&self.accesses(k), layout)
    }

    /// The samples of round `k`'s accesses: for value v, the sample each thread of an item
    /// reads or writes (independent of the layout; computed once per search).
    fn accesses(&self, k: usize) -> Vec<Vec<usize>> {
        let by_thread: Vec<Vec<usize>> = (0..self.threads_per_item())
            .map(|t| self.samples(k, t))
            .collect();
        (0..self.values)
            .map(|v| by_thread.iter().map(|s| s[v]).collect())
            .collect()
    }

    /// Wavefronts of one round's `accesses` (every warp) under `layout`.
    fn count_wavefronts(&self, accesses: &[Vec<usize>], layout: &RowLayout) -> usize {
        let threads = self.threads();
        let keys = if self.word_bytes == 8 { 16 } else { 32 };
        let mut total = 0;
        for warp in (0..threads).step_by(32) {
            let lanes: Vec<(usize, usize)> = (warp..(warp + 32).min(threads))
                .map(|tid| self.lane(tid))
                .collect();
            for samples in accesses {
                let mut count = [0usize; 32];
                for &(item, t) in &lanes {
                    let word = item * layout.row + layout.position(samples[t]);
                    count[word % keys] += 1;
                }
                let most = count.iter().copied().max().unwrap_or(0);
                total += most.max(self.per_access());
            }
        }
        total
    }

    /// Wavefronts of all the pass's exchanges under `layout`: the first round's stores, the
    /// last round's loads, and the middle rounds' loads and stores.
    ///
    /// ```
    /// use tensorfft::ntt::row_layout::{ExchangeGeometry, RowLayout};
    /// let g = ExchangeGeometry { len: 1024, values: 16, rounds: vec![4, 4, 2], tile: 8, items_fast: false, word_bytes: 4 };
    /// assert_eq!(g.wavefronts(&RowLayout::plain(1024, 5, 0)), 256 + 2 * 512 + 256);
    /// ```
    pub fn wavefronts(&self, layout: &RowLayout) -> usize {
        let rounds: Vec<_> = (0..self.rounds.len()).map(|k| self.accesses(k)).collect();
        self.wavefronts_within(&rounds, layout, usize::MAX)
            .unwrap_or(0)
    }

    /// [`ExchangeGeometry::wavefronts`] of the rounds' `accesses`, or `None` as soon as the count
    /// passes `limit` (and for a pass of one round: no exchange).
    fn wavefronts_within(
        &self,
        accesses: &[Vec<Vec<usize>>],
        layout: &RowLayout,
        limit: usize,
    ) -> Option<usize> {
        let last = accesses.len().checked_sub(1).filter(|&l| l > 0)?;
        let mut total = 0;
        for (k, round) in accesses.iter().enumerate() {
            let uses = if k == 0 || k == last { 1 } else { 2 };
            total += uses * self.count_wavefronts(round, layout);
            if total > limit {
                return None;
            }
        }
        Some(total)
    }

    /// Blocks of this geometry's threads one multiprocessor holds by its shared memory (sm_90:
    /// 228 KB, 1 KB reserved per block) and by its 2048 threads, for rows `row` words apart.
    fn resident_blocks(&self, row: usize) -> usize {
        let bytes = self.tile * row * self.word_bytes + 1024;
        (228 * 1024 / bytes)
            .min(2048 / self.threads().max(1))
            .min(32)
    }

    /// The layout with the fewest wavefronts among those that keep as many blocks per
    /// multiprocessor as `plain` (by shared memory and threads); `plain` among the candidates,
    /// so no pass gets worse than with it.
    fn best_layout(&self, plain: RowLayout) -> RowLayout {
        let log_len = self.len.trailing_zeros();
        let most_padding = self.len / 4 + 32;
        // Skews between rows matter where a warp spans several items.
        let skews: &[usize] = if self.items_fast || self.threads_per_item() < 32 {
            &[0, 1, 2, 4, 8, 16]
        } else {
            &[0]
        };
        let mut candidates: Vec<(usize, RowLayout)> = Vec::new();
        let mut push = |terms: [(u32, u32); 2], two: usize| {
            let words = RowLayout { terms, row: 0 }.position(self.len - 1) + 1;
            for &skew in skews {
                if words + skew - self.len <= most_padding {
                    candidates.push((
                        two,
                        RowLayout {
                            terms,
                            row: words + skew,
                        },
                    ));
                }
            }
        };
        for c in [1, 2, 4, 8] {
            for s in 2..log_len {
                push([(c, s), (0, 0)], 0);
            }
        }
        for c1 in [1, 2, 4] {
            for s1 in 2..=6.min(log_len) {
                for c2 in [1, 2, 4, 8] {
                    for s2 in s1 + 1..log_len {
                        push([(c1, s1), (c2, s2)], 1);
                    }
                }
            }
        }
        candidates.sort_by_key(|(two, l)| (*two, l.row));
        let ideal = self.ideal_wavefronts();
        let resident = self.resident_blocks(plain.row);
        let accesses: Vec<_> = (0..self.rounds.len()).map(|k| self.accesses(k)).collect();
        let Some(plain_cost) = self.wavefronts_within(&accesses, &plain, usize::MAX) else {
            return plain;
        };
        let mut best = (plain_cost, plain);
        for (_, layout) in candidates {
            if best.0 <= ideal {
                break;
            }
            if self.resident_blocks(layout.row) < resident {
                continue;
            }
            if let Some(cost) = self.wavefronts_within(&accesses, &layout, best.0 - 1) {
                best = (cost, layout);
            }
        }
        best.1
    }
}

/// The row layout of `pass` for words of `word_bytes` bytes: for a direct pass of two rounds
/// or more, the one with the fewest shared-memory wavefronts that keeps its blocks per
/// multiprocessor (remembered per geometry); else, and for the block-synchronous baseline, one
/// word after every `2^pad_shift` samples ([`NttPass::pad_shift`], [`NttPass::row_stride`]).
///
/// ```
/// use tensorfft::ntt::row_layout::direct_row_layout;
/// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 64, NttKind::Cyclic).unwrap());
/// let p = &plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().passes[0];
/// assert!(direct_row_layout(p, 4).row >= 64);
/// ```
pub fn direct_row_layout(pass: &NttPass, word_bytes: usize) -> RowLayout {
    static MEMO: OnceLock<Mutex<HashMap<(ExchangeGeometry, RowLayout), RowLayout>>> =
        OnceLock::new();
    let plain = plain_row_layout(pass, word_bytes);
    let geometry = ExchangeGeometry::of(pass, word_bytes);
    // The block-synchronous baseline (one stage per round) keeps the plain layout: it is the
    // reference the kernels are measured against.
    if !pass.direct() || geometry.exchanges() == 0 || pass.round_stages == 1 {
        return plain;
    }
    let key = (geometry, plain);
    let memo = MEMO.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(found) = memo.lock().ok().and_then(|m| m.get(&key).copied()) {
        return found;
    }
    let layout = key.0.best_layout(plain);
    if let Ok(mut m) = memo.lock() {
        m.insert(key, layout);
    }
    layout
}

/// The layout of staged passes and the planner's row sizing: one word after every
/// `2^pad_shift` samples and the rows `row_stride` words apart ([`NttPass::pad_shift`],
/// [`NttPass::row_stride`]).
///
/// ```
/// use tensorfft::ntt::row_layout::plain_row_layout;
/// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 64, NttKind::Cyclic).unwrap());
/// let p = &plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap().passes[0];
/// assert_eq!(plain_row_layout(p, 4).row, p.row_stride(4));
/// ```
pub fn plain_row_layout(pass: &NttPass, word_bytes: usize) -> RowLayout {
    RowLayout {
        terms: [(1, pass.pad_shift(word_bytes)), (0, 0)],
        row: pass.row_stride(word_bytes),
    }
}
