//! Shared-memory layout of a strided pass's tile: the padding of each buffer and the distance
//! between the tile's items, chosen with the bank-conflict model for that pass's threads.
//!
//! In a strided pass neighbouring threads work on neighbouring items, so a warp's access to a
//! buffer spans several items at once: where an item's slice starts modulo the 128-byte bank
//! period decides the conflicts as much as the padding inside it. The single pass's padding
//! (one element per 128 bytes, items an odd number of elements apart) measured 37 M conflicting
//! wavefronts of 96 M in the first pass of f32 2^20 (`bench/results/2026-11-24-h200-lsu/`).
//! [`tile_layout`] searches single-term paddings per buffer and the item distance modulo the
//! bank period, scoring each with [`strided_buffer_wavefronts`]: the fewest wavefronts, then the
//! least shared memory.

use super::bank_conflicts::strided_buffer_wavefronts;
use super::padding::Padding;
use super::recipe::Recipe;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// Paddings of a tile's buffers (`stages + 1`, first to last) and the element distance between
/// neighbouring items.
///
/// ```
/// use tensorfft::plan::padding::Padding;
/// let l = tensorfft::plan::tile_layout::TileLayout { paddings: vec![Padding::NONE; 3], item_stride: 1026 };
/// assert_eq!(l.item_stride % 16, 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileLayout {
    /// Padding of each buffer (buffer `s` is read by stage `s`).
    pub paddings: Vec<Padding>,
    /// Element distance between neighbouring items of the tile.
    pub item_stride: usize,
}

/// The layout of a strided pass's tile whose in-block DFT is `inner`, gathered into shared
/// memory first when `staged_in` and stored from it when `staged_out`: the fewest modelled
/// wavefronts over all buffers, then the shortest item distance, within an eighth of the item
/// plus one bank period of extra shared memory. Memoized: the search runs once per
/// configuration.
///
/// ```
/// use tensorfft::plan::{bank_conflicts::strided_buffer_wavefronts, tile_layout::tile_layout};
/// use tensorfft::{plan_c2c_recipe, PlanOptions, Precision, Shape, Tuning, IoMode, ExchangeFormat};
/// let opts = PlanOptions::tuned(Tuning { io: Some(IoMode::Staged), exchange: Some(ExchangeFormat::F32), ..Default::default() });
/// let mut inner = plan_c2c_recipe(&Shape::new([1024]), Precision::F32, &opts).unwrap();
/// inner.transforms_per_block = 8;
/// let l = tile_layout(&inner, false, true);
/// for (b, p) in l.paddings.iter().enumerate() {
///     let t = strided_buffer_wavefronts(&inner, b, *p, l.item_stride, false, true);
///     assert_eq!(t.wavefronts, t.ideal);
/// }
/// ```
pub fn tile_layout(inner: &Recipe, staged_in: bool, staged_out: bool) -> TileLayout {
    type Key = (usize, Vec<usize>, usize, usize, usize, bool, bool);
    static CACHE: OnceLock<Mutex<HashMap<Key, TileLayout>>> = OnceLock::new();
    let key = (
        inner.n,
        inner.radices.clone(),
        inner.elements_per_thread,
        inner.transforms_per_block,
        inner.exchange.bytes(),
        staged_in,
        staged_out,
    );
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(l) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return l;
    }
    let layout = search(inner, staged_in, staged_out);
    if let Ok(mut c) = cache.lock() {
        c.insert(key, layout.clone());
    }
    layout
}

fn search(inner: &Recipe, staged_in: bool, staged_out: bool) -> TileLayout {
    let n = inner.n;
    let stages = inner.radices.len();
    let bytes = inner.exchange.bytes();
    let period = 128 / bytes; // elements per bank period
    let budget = n + n / 8 + period;
    let candidates: Vec<Padding> = std::iter::once(Padding::NONE)
        .chain((1..=10u32).flat_map(|shift| {
            [1usize, 2, 4].map(move |mul| Padding {
                shift_a: shift,
                mul_a: mul,
                shift_b: 0,
                mul_b: 0,
            })
        }))
        .filter(|p| p.buffer_len(n) + period <= budget)
        .collect();
    // For items `res` elements apart modulo the bank period (only the residue matters to the
    // banks), each buffer's cheapest candidate; then the fewest wavefronts over the residues,
    // and the shortest item distance.
    (0..period)
        .map(|res| {
            let mut total = 0;
            let paddings: Vec<Padding> = (0..=stages)
                .map(|b| {
                    // A buffer the pass never touches costs nothing and keeps the first
                    // candidate, no padding.
                    let (wavefronts, pick) = candidates
                        .iter()
                        .map(|&p| {
                            let w =
                                strided_buffer_wavefronts(inner, b, p, res, staged_in, staged_out);
                            (w.wavefronts, p)
                        })
                        .min_by_key(|(w, p)| (*w, p.buffer_len(n)))
                        .unwrap_or((0, Padding::NONE));
                    total += wavefronts;
                    pick
                })
                .collect();
            let longest = paddings.iter().map(|p| p.buffer_len(n)).max().unwrap_or(n);
            let item_stride = longest + (res + period - longest % period) % period;
            (
                total,
                TileLayout {
                    paddings,
                    item_stride,
                },
            )
        })
        .min_by_key(|(total, l)| (*total, l.item_stride))
        .map(|(_, l)| l)
        .unwrap_or(TileLayout {
            paddings: vec![Padding::NONE; stages + 1],
            item_stride: n,
        })
}
