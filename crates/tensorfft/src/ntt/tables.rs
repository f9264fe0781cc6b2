//! The constant tables of an NTT pass, per limb: the local stage roots, the four-step twiddle's
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
/// assert_eq!(t.twiddle_hi, s.passes[0].len / 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableLayout {
    /// The local roots `ω_len^e`, `e < len/2`, start at entry 0.
    pub local: usize,
    /// High twiddle table `ω_root^{h·2^lo_bits}`.
    pub twiddle_hi: usize,
    /// Low twiddle table `ω_root^l`.
    pub twiddle_lo: usize,
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
        let local = (pass.len / 2).max(1);
        let (tw_hi, tw_lo) = match pass.twiddle {
            Some(t) => (t.root >> t.lo_bits(), 1usize << t.lo_bits()),
            None => (0, 0),
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
    let local_root = schedule.root(l, pass.len);
    powers(m, local_root, 1, &mut out[..(pass.len / 2).max(1)]);
    if let Some(t) = pass.twiddle {
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
