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

/// Wavefronts of the exchange buffers of `recipe` (buffers 1 … stages − 1, for one transform).
///
/// ```
/// use tensorfft::{plan::bank_conflicts::shared_wavefronts, plan_c2c_recipe, PlanOptions, Precision, Shape, Tuning};
/// let opts = PlanOptions::tuned(Tuning { tensor_cores: Some(true), ..Default::default() });
/// let r = plan_c2c_recipe(&Shape::new([4096]), Precision::F16, &opts).unwrap();
/// assert!(shared_wavefronts(&r).iter().all(|b| b.wavefronts == b.ideal));
/// ```
pub fn shared_wavefronts(recipe: &Recipe) -> Vec<BufferTraffic> {
    let n = recipe.n;
    let stages = recipe.radices.len();
    let words = recipe.exchange.bytes() / 4;
    let direct = recipe.io == IoMode::Direct;
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
        let vw = match ((first || last) && direct, tensor) {
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
                    let padding = recipe.paddings[buffer];
                    let mut banks: Vec<Vec<usize>> = vec![Vec::new(); 32];
                    for t in lanes.clone() {
                        let (j, r) = slot(recipe, radix, vw, t, idx);
                        let pos = if reads {
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
