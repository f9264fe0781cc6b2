//! The constant tables of an NTT pass, per limb: the local stage roots (one table per radix-2
//! stage, so that the lanes of a warp read neighbouring entries), the four-step twiddle's
//! high and low tables, and the weight's high and low tables. Every entry is a pair (value, Shoup
//! companion `⌊value · 2^bits / p⌋`), the form the GPU multiplies with; the CPU executor reads
//! the values.

use super::schedule::{NttArithmetic, NttPass, NttSchedule, WeightSide};

/// Offsets (in entries) of a pass's tables inside one limb's block, and the block's size.
///
/// ```
/// use tensorfft::ntt::{schedule::plan_ntt_schedule, tables::TableLayout, NttBatch, NttKind, NttSpec, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 20, NttKind::Cyclic).unwrap());
/// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
/// let t = TableLayout::of(&s, 0);
/// assert_eq!(t.twiddle_hi, s.passes[0].len - 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableLayout {
    /// The local roots start at entry 0: stage `s` (butterfly half-distance `len/2^(s+1)`) has
    /// its own table of `ω_len^(e·2^s)`, `e < len/2^(s+1)`, at [`stage_roots`]`(len, s)`
    /// (`len − 1` entries in all). A stage's lanes take consecutive `e`, so a warp's root loads
    /// touch consecutive entries instead of entries `2^s` apart in one table of `ω_len^e`.
    pub local: usize,
    /// High twiddle table `ω_root^{h·2^lo_bits}`, or with slot twiddles
    /// ([`NttPass::slot_twiddles`]) the thread table `ω_root^{m·k_t}`, laid out `[t][m]`.
    pub twiddle_hi: usize,
    /// Low twiddle table `ω_root^l`, or with slot twiddles the slot table `ω_root^{m·k_j}`,
    /// laid out `[j][m]` (`k_t = output_frequency(t, 0)`, `k_j = output_frequency(0, j)`:
    /// [`NttPass::output_frequency`]).
    pub twiddle_lo: usize,
    /// Items `m` along the twiddle's dimension with slot twiddles (the tables' row length); 0
    /// with the high and low tables.
    pub twiddle_items: usize,
    /// High weight table `scale · base^{h·2^weight_lo_bits}`.
    pub weight_hi: usize,
    /// Low weight table `base^l`.
    pub weight_lo: usize,
    /// Bits of the weight index looked up in the low table.
    pub weight_lo_bits: u32,
    /// Entries per limb.
    pub entries: usize,
}

impl TableLayout {
    /// The layout of pass `index` of `schedule`.
    ///
    /// ```
    /// # use tensorfft::ntt::{schedule::plan_ntt_schedule, tables::TableLayout, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 10, NttKind::Negacyclic).unwrap());
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
    /// let t = TableLayout::of(&s, 0);
    /// assert_eq!(t.entries - t.weight_hi, 64); // 32 high and 32 low weights
    /// ```
    pub fn of(schedule: &NttSchedule, index: usize) -> Self {
        let pass = &schedule.passes[index];
        let local = (pass.len - 1).max(1);
        let (tw_hi, tw_lo, twiddle_items) = match pass.twiddle {
            Some(t) if pass.slot_twiddles() => {
                let items = pass.dims[t.dim].count;
                (
                    pass.threads_per_item() * items,
                    pass.values_per_thread * items,
                    items,
                )
            }
            Some(t) => (t.root >> t.lo_bits(), 1usize << t.lo_bits(), 0),
            None => (0, 0, 0),
        };
        let n = schedule.batch.n();
        let weight_lo_bits = n.trailing_zeros().div_ceil(2);
        let (wt_hi, wt_lo) = match schedule.weight_side(index) {
            WeightSide::None => (0, 0),
            _ => (n >> weight_lo_bits, 1usize << weight_lo_bits),
        };
        TableLayout {
            local: 0,
            twiddle_hi: local,
            twiddle_lo: local + tw_hi,
            twiddle_items,
            weight_hi: local + tw_hi + tw_lo,
            weight_lo: local + tw_hi + tw_lo + wt_hi,
            weight_lo_bits,
            entries: local + tw_hi + tw_lo + wt_hi + wt_lo,
        }
    }
}

/// The values (no companions) of pass `index`'s tables for limb `l`, laid out as
/// [`TableLayout`] says.
///
/// ```
/// use tensorfft::ntt::{schedule::plan_ntt_schedule, tables::pass_values, NttBatch, NttKind, NttSpec, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 8, NttKind::Cyclic).unwrap());
/// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
/// let v = pass_values(&s, 0, 0);
/// assert_eq!(v[0], 1); // ω^0
/// assert_eq!(b.spec(0).modulus().pow(v[2], 2), BABY_BEAR - 1); // ω_8^2 squared is −1
/// ```
pub fn pass_values(schedule: &NttSchedule, index: usize, l: usize) -> Vec<u64> {
    let layout = TableLayout::of(schedule, index);
    let pass: &NttPass = &schedule.passes[index];
    let m = schedule.batch.spec(l).modulus();
    let mut out = vec![0u64; layout.entries];
    let mut stage_root = schedule.root(l, pass.len);
    if pass.len < 2 {
        out[0] = 1;
    }
    for s in 0..pass.len.trailing_zeros() {
        let start = stage_roots(pass.len, s);
        powers(
            m,
            stage_root,
            1,
            &mut out[start..start + (pass.len >> (s + 1))],
        );
        stage_root = m.mul(stage_root, stage_root);
    }
    if let (Some(t), true) = (pass.twiddle, layout.twiddle_items > 0) {
        let w = schedule.root(l, t.root);
        let items = layout.twiddle_items;
        for th in 0..pass.threads_per_item() {
            let start = layout.twiddle_hi + th * items;
            let step = m.pow(w, pass.output_frequency(th, 0) as u64);
            powers(m, step, 1, &mut out[start..start + items]);
        }
        for j in 0..pass.values_per_thread {
            let start = layout.twiddle_lo + j * items;
            let step = m.pow(w, pass.output_frequency(0, j) as u64);
            powers(m, step, 1, &mut out[start..start + items]);
        }
    } else if let Some(t) = pass.twiddle {
        let w = schedule.root(l, t.root);
        powers(
            m,
            m.pow(w, 1 << t.lo_bits()),
            1,
            &mut out[layout.twiddle_hi..layout.twiddle_lo],
        );
        powers(m, w, 1, &mut out[layout.twiddle_lo..layout.weight_hi]);
    }
    if schedule.weight_side(index) != WeightSide::None {
        let (base, scale) = schedule.weight(l);
        powers(
            m,
            m.pow(base, 1 << layout.weight_lo_bits),
            scale,
            &mut out[layout.weight_hi..layout.weight_lo],
        );
        powers(m, base, 1, &mut out[layout.weight_lo..]);
    }
    out
}

/// Entry of the first root of stage `s`'s table in a pass of length `len` (a power of two):
/// `len − len/2^s`, after the tables of the earlier stages (`len/2`, `len/4`, … entries).
///
/// ```
/// use tensorfft::ntt::tables::stage_roots;
/// assert_eq!((0..4).map(|s| stage_roots(16, s)).collect::<Vec<_>>(), [0, 8, 12, 14]);
/// ```
pub fn stage_roots(len: usize, s: u32) -> usize {
    len - (len >> s)
}

/// `first · step^i` for every entry.
fn powers(m: super::Modulus, step: u64, first: u64, out: &mut [u64]) {
    let mut v = first;
    for o in out.iter_mut() {
        *o = v;
        v = m.mul(v, step);
    }
}

/// The Shoup companion of `w` modulo `p` for the arithmetic's word: `⌊w · 2^32 / p⌋` or
/// `⌊w · 2^64 / p⌋` (0 for Goldilocks, whose products need none).
///
/// ```
/// use tensorfft::ntt::{schedule::NttArithmetic, tables::shoup_companion};
/// assert_eq!(shoup_companion(NttArithmetic::Shoup32, 1, 3), (1u64 << 32) / 3);
/// ```
pub fn shoup_companion(arithmetic: NttArithmetic, w: u64, p: u64) -> u64 {
    match arithmetic {
        NttArithmetic::Shoup32 | NttArithmetic::Shoup32Full => ((w as u128) << 32) as u64 / p,
        NttArithmetic::Shoup64 => (((w as u128) << 64) / p as u128) as u64,
        NttArithmetic::Goldilocks => 0,
    }
}

/// Pass `index`'s tables for every limb as the kernel reads them: for each limb, for each
/// entry, the value and its companion (limb `l`'s block starts at pair `l · entries`).
///
/// ```
/// use tensorfft::ntt::{schedule::plan_ntt_schedule, tables::{device_pairs, TableLayout}, NttBatch, NttKind, BABY_BEAR, KOALA_BEAR};
/// let b = NttBatch::limbs(&[BABY_BEAR, KOALA_BEAR], 64, NttKind::Cyclic).unwrap();
/// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
/// assert_eq!(device_pairs(&s, 0).len(), 2 * 2 * TableLayout::of(&s, 0).entries);
/// ```
pub fn device_pairs(schedule: &NttSchedule, index: usize) -> Vec<u64> {
    let limbs = schedule.batch.limb_count();
    let mut out = Vec::new();
    for l in 0..limbs {
        let p = schedule.batch.spec(l).modulus().value();
        for v in pass_values(schedule, index, l) {
            out.push(v);
            out.push(shoup_companion(schedule.arithmetic, v, p));
        }
    }
    out
}
