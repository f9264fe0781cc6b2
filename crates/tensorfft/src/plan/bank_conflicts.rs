//! A model of the kernels' shared-memory accesses, to count bank conflicts without a GPU.
//!
//! It replays which logical position every lane of a warp gathers and scatters in each stage
//! (the same thread-to-value mapping as `stockham_single_pass.cuh`), pads it with the recipe's
//! padding of that buffer, and counts wavefronts: per warp instruction, the largest number of
//! distinct 4-byte words that fall in one of the 32 banks.

use super::options::IoMode;
use super::recipe::Recipe;
use super::twiddles::tensor_slot;

/// Shared-memory traffic of one exchange buffer for one transform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferTraffic {
    /// Index of the buffer: the stage that reads it.
    pub buffer: usize,
    /// Wavefronts of all warp instructions that touch it.
    pub wavefronts: usize,
    /// Wavefronts without any bank conflict.
    pub ideal: usize,
}

/// Butterfly `j` and sample `r` of thread `t`'s value slot `idx` in a stage of radix `radix`.
fn slot(recipe: &Recipe, radix: usize, vw: usize, t: usize, idx: usize) -> (usize, usize) {
    if recipe.tensor_cores && radix == 16 {
        tensor_slot(t, idx, vw == 4)
    } else {
        let k = idx / radix;
        (
            vw * (t + (k / vw) * recipe.threads_per_transform) + k % vw,
            idx % radix,
        )
    }
}

/// Wavefronts of the exchange buffers of `recipe` (buffers 1 … stages − 1, for one transform);
/// none for the warp-shuffle kernel, which exchanges between lanes without shared memory, and
/// the warp-resident tensor-core kernel, which exchanges nothing. The longer tensor-core pair
/// kernels beyond one warp (`Recipe::tensor_pair`) leave buffer 1 untouched and write buffer 2 from
/// the pair's accumulators ([`tensor_pair_position`]).
///
/// ```
/// use tensorfft::{plan::bank_conflicts::shared_wavefronts, plan_c2c_recipe, PlanOptions, Precision, Shape, Tuning};
/// let opts = PlanOptions::tuned(Tuning { tensor_cores: Some(true), ..Default::default() });
/// let r = plan_c2c_recipe(&Shape::new([4096]), Precision::F16, &opts).unwrap();
/// assert!(shared_wavefronts(&r).iter().all(|b| b.wavefronts == b.ideal));
/// ```
pub fn shared_wavefronts(recipe: &Recipe) -> Vec<BufferTraffic> {
    if recipe.warp_shuffles || recipe.tensor_pair_warp() {
        return Vec::new();
    }
    let n = recipe.n;
    let stages = recipe.radices.len();
    let words = recipe.exchange.bytes() / 4;
    let direct = recipe.io == IoMode::Direct;
    // The stage pair kernel's last stage stores directly whatever its input.
    let direct_out = direct || recipe.tensor_pair;
    let mut out: Vec<BufferTraffic> = (1..stages)
        .map(|buffer| BufferTraffic {
            buffer,
            wavefronts: 0,
            ideal: 0,
        })
        .collect();
    let mut ns = 1;
    for (s, &radix) in recipe.radices.iter().enumerate() {
        let (first, last) = (s == 0, s + 1 == stages);
        let tensor = recipe.tensor_cores && radix == 16;
        let vw = match ((first && direct) || (last && direct_out), tensor) {
            (true, true) => 4,
            (true, false) => recipe.vector_width,
            (false, _) => 1,
        };
        let stride = n / radix;
        for w in (0..recipe.threads_per_transform).step_by(32) {
            let lanes = w..(w + 32).min(recipe.threads_per_transform);
            // A shared-memory wavefront moves at most 128 bytes.
            let ideal_per_access = (lanes.len() * recipe.exchange.bytes()).div_ceil(128);
            for idx in 0..recipe.elements_per_thread {
                // Gather from buffer s, scatter into buffer s + 1.
                for (buffer, reads) in [(s, true), (s + 1, false)] {
                    if buffer == 0 || buffer == stages {
                        continue;
                    }
                    // The pair kernel's first two stages touch shared memory only where the
                    // second stores its outputs.
                    let pair = recipe.tensor_pair && s < 2;
                    if pair && (s == 0 || reads) {
                        continue;
                    }
                    let padding = recipe.paddings[buffer];
                    let mut banks: Vec<Vec<usize>> = vec![Vec::new(); 32];
                    for t in lanes.clone() {
                        let (j, r) = slot(recipe, radix, vw, t, idx);
                        let pos = if pair {
                            tensor_pair_position(t, idx)
                        } else if reads {
                            j + r * stride
                        } else {
                            (j / ns) * ns * radix + j % ns + r * ns
                        };
                        let phys = padding.apply(pos);
                        for word in phys * words..(phys + 1) * words {
                            let bank = &mut banks[word % 32];
                            if !bank.contains(&word) {
                                bank.push(word);
                            }
                        }
                    }
                    let traffic = &mut out[buffer - 1];
                    traffic.wavefronts += banks.iter().map(Vec::len).max().unwrap_or(0);
                    traffic.ideal += ideal_per_access;
                }
            }
        }
        ns *= radix;
    }
    out
}

/// Where the tensor-core pair kernel beyond one warp (two 256-point units per warp) stores value slot
/// `idx` of thread `t` of a transform in buffer 2: unit `a = 2w + idx / 8` (w: the warp), at
/// Stockham position `256 a + c`, where lane `4g + q`'s slot `4 nt + 2 h + u` holds frequency
/// `c = g + 8 h + 16 (8 nt + 2 q + u)` (`tensor_pair_fft.cuh`).
///
/// ```
/// use tensorfft::plan::bank_conflicts::tensor_pair_position;
/// // Warp 1, lane 5 (g = 1, q = 1), unit 1 of the warp (unit 3), slot 1 (u = 1): 768 + 1 + 48.
/// assert_eq!(tensor_pair_position(32 + 5, 9), 768 + 49);
/// ```
pub fn tensor_pair_position(t: usize, idx: usize) -> usize {
    let slot = idx % 8;
    let (nt, h, u) = (slot / 4, (slot / 2) % 2, slot % 2);
    256 * (2 * (t / 32) + idx / 8) + pair_lane_base(t % 32) + 8 * h + 128 * nt + 16 * u
}

/// The pair kernel's per-lane base `g + 32 q` of lane `4g + q` (its samples and outputs sit at
/// this base plus per-slot offsets, `tensor_pair_fft.cuh`).
fn pair_lane_base(lane: usize) -> usize {
    (lane >> 2) + 32 * (lane & 3)
}

/// Wavefronts of the stage pair kernel's staged input buffer (buffer 0 of a
/// [`Recipe::staged_pair_input`] plan, f16 words, `paddings[0]`), for one block's tile: the
/// 8-byte stores of the tile (two per 16-byte chunk, chunk `i·threads + tid`), then every
/// lane's 8-byte reads of its two units' samples (`tensor_pair_fft.cuh`, `unstage`). Empty
/// traffic for other plans.
///
/// ```
/// use tensorfft::plan::bank_conflicts::staged_pair_wavefronts;
/// use tensorfft::{plan_c2c_recipe, PlanOptions, Precision, Shape, Tuning};
/// let opts = PlanOptions::tuned(Tuning { tensor_cores: Some(true), ..Default::default() });
/// let r = plan_c2c_recipe(&Shape::new([4096]), Precision::F16, &opts).unwrap();
/// let t = staged_pair_wavefronts(&r);
/// assert!(t.ideal > 0 && t.wavefronts == t.ideal);
/// ```
pub fn staged_pair_wavefronts(recipe: &Recipe) -> BufferTraffic {
    let mut traffic = BufferTraffic {
        buffer: 0,
        wavefronts: 0,
        ideal: 0,
    };
    if !recipe.staged_pair_input() {
        return traffic;
    }
    let (n, b, t) = (
        recipe.n,
        recipe.transforms_per_block,
        recipe.threads_per_transform,
    );
    let pad = recipe.paddings[0];
    let stride = pad.buffer_len(n);
    let chunks = b * n / 4;
    // Stores: two 8-byte halves (words 0-1 and 2-3) of each 16-byte chunk.
    for first in (0..chunks).step_by(32) {
        for half in 0..2 {
            let lanes = first..(first + 32).min(chunks);
            traffic.ideal += (lanes.len() * 8).div_ceil(128);
            let words = lanes.map(|ci| {
                let e = 4 * ci + 2 * half;
                (e / n) * stride + pad.apply(e % n)
            });
            traffic.wavefronts += access_wavefronts(words.map(|w| w / 2), 2);
        }
    }
    // Reads: lane 4g + q of warp w, sample (nt, reg, u) of units 2w, 2w + 1, at offset
    // 8 nt + 128 reg + 16 u from the lane's base.
    let units = n / 256;
    for w in 0..t / 32 {
        for off in (0..8).map(|i| 8 * (i >> 2) + 128 * ((i >> 1) & 1) + 16 * (i & 1)) {
            let words = (0..32).map(|lane| pad.apply(2 * w + units * (pair_lane_base(lane) + off)));
            traffic.wavefronts += access_wavefronts(words.map(|w| w / 2), 2);
            traffic.ideal += 2;
        }
    }
    traffic
}

/// How the threads of a strided pass touch one buffer of its tile.
#[derive(Clone, Copy, Debug)]
struct StridedAccess {
    /// Radix and span of the stage, and whether it gathers (reads) rather than scatters.
    radix: usize,
    ns: usize,
    reads: bool,
}

/// Wavefronts of one warp-wide shared-memory access to distinct elements at `positions` (lane
/// order; `words` 4-byte words each, a power of two of at most 4). Counted strictly, as if the
/// warp were served in groups of `32 / words` lanes (128 bytes each: half warps for 8-byte
/// elements, quarter warps for 16-byte ones): per group, the most elements that start in one of
/// the bank period's `32 / words` slots.
fn access_wavefronts(positions: impl Iterator<Item = usize>, words: usize) -> usize {
    let slots = 32 / words;
    let mut counts = [0usize; 32];
    let mut total = 0;
    for (lane, pos) in positions.enumerate() {
        if lane % slots == 0 && lane > 0 {
            total += counts.iter().max().unwrap_or(&0);
            counts = [0; 32];
        }
        counts[pos % slots] += 1;
    }
    total + counts.into_iter().max().unwrap_or(0)
}

/// Wavefronts of buffer `buffer` of a strided pass's tile, whose inner DFT is `inner` (CUDA-core
/// stages), laid out with `padding` and items `item_stride` elements apart. The pass's thread
/// mapping: neighbouring threads on neighbouring items (`transforms_per_block` items at once),
/// `threads_per_transform` threads per item. Buffer 0 counts only when the tile is gathered
/// (`staged_in`: written in tile order, samples fastest, and read by the first stage), buffer
/// `stages` only when it is stored from shared memory (`staged_out`: written by the last stage,
/// read samples fastest); the others are the exchanges between stages.
///
/// ```
/// use tensorfft::plan::{bank_conflicts::strided_buffer_wavefronts, padding::Padding};
/// use tensorfft::{plan_c2c_schedule, plan::schedule::PassKernel, PlanOptions, Precision, Shape};
/// let s = plan_c2c_schedule(&Shape::new([1 << 20]), Precision::F32, &PlanOptions::default()).unwrap();
/// let PassKernel::Strided(p) = &s.passes[0].kernel else { panic!() };
/// let t = strided_buffer_wavefronts(&p.inner, 1, p.inner.paddings[1], p.item_stride(), false, true);
/// assert_eq!(t.wavefronts, t.ideal); // the planner's layout is free of conflicts
/// ```
pub fn strided_buffer_wavefronts(
    inner: &Recipe,
    buffer: usize,
    padding: super::padding::Padding,
    item_stride: usize,
    staged_in: bool,
    staged_out: bool,
) -> BufferTraffic {
    let n = inner.n;
    let stages = inner.radices.len();
    let words = inner.exchange.bytes() / 4;
    let items = inner.transforms_per_block;
    let t_per = inner.threads_per_transform;
    let threads = items * t_per;
    let ideal_per_access = (32 * inner.exchange.bytes()).div_ceil(128);
    let mut traffic = BufferTraffic {
        buffer,
        wavefronts: 0,
        ideal: 0,
    };
    // Buffer 0 is touched only by a gathered tile, buffer `stages` only by a staged store.
    if (buffer == 0 && !staged_in) || (buffer == stages && !staged_out) {
        return traffic;
    }
    // The stage before the buffer scatters into it, the stage after gathers from it.
    let mut accesses = Vec::new();
    let mut ns = 1;
    for (s, &radix) in inner.radices.iter().enumerate() {
        if s + 1 == buffer || s == buffer {
            accesses.push(StridedAccess {
                radix,
                ns,
                reads: s == buffer,
            });
        }
        ns *= radix;
    }
    for a in accesses {
        let stride = n / a.radix;
        for w in (0..threads).step_by(32) {
            for idx in 0..inner.elements_per_thread {
                let positions = (w..(w + 32).min(threads)).map(|tid| {
                    let (item, t) = (tid % items, tid / items);
                    let (j, r) = (t + (idx / a.radix) * t_per, idx % a.radix);
                    let pos = if a.reads {
                        j + r * stride
                    } else {
                        (j / a.ns) * a.ns * a.radix + j % a.ns + r * a.ns
                    };
                    item * item_stride + padding.apply(pos)
                });
                traffic.wavefronts += access_wavefronts(positions, words);
                traffic.ideal += ideal_per_access;
            }
        }
    }
    // Tile-order accesses, samples fastest: the gathered loads (buffer 0) and the staged store
    // (buffer `stages`), one round of items.
    if buffer == 0 || buffer == stages {
        let total = items * n;
        for w in (0..total).step_by(32) {
            let positions =
                (w..(w + 32).min(total)).map(|e| (e / n) * item_stride + padding.apply(e % n));
            traffic.wavefronts += access_wavefronts(positions, words);
            traffic.ideal += ideal_per_access;
        }
    }
    traffic
}
