//! Twiddle factors, computed once in f64 and shared by the GPU table and the CPU reference.

use super::recipe::Recipe;
use num_complex::Complex;

/// `e^{-2πik/n}` for `k` in `0..n`, computed in f64 from an exactly reduced angle.
///
/// ```
/// let w = tensorfft::plan::twiddles::forward_table(4);
/// assert!((w[1].im + 1.0).abs() < 1e-15 && w[1].re.abs() < 1e-15);
/// ```
pub fn forward_table(n: usize) -> Vec<Complex<f64>> {
    (0..n).map(|k| forward_twiddle(k, n)).collect()
}

/// The kernels' twiddle table for `recipe`: for every stage with span `ns > 1` (the product of
/// the earlier radices) and radix `r_len`, the values `e^{-2πi m r / (ns r_len)}` the stage
/// multiplies sample `r` of butterfly `j` by (`m = j mod ns`), stages back to back.
///
/// * CUDA-core stages: an `r_len` × `ns` block laid out `[r][m]`, so that for a given `r` the
///   threads of a warp (consecutive `m`) read consecutive values.
/// * The second stage of the tensor-core pair kernel ([`Recipe::tensor_pair`]):
///   [`tensor_pair_twiddles`].
/// * Tensor-core stages: laid out in the order the lanes read them, `[warp block][slot pair]
///   [lane][2]`, where the warp block is `(butterfly base mod ns) / 32` (one block when
///   `ns < 32`): each warp instruction reads 512 consecutive bytes.
///
/// ```
/// use tensorfft::{plan::twiddles::stage_twiddles, plan_c2c_recipe, PlanOptions, Precision, Shape, Tuning};
/// let opts = PlanOptions::tuned(Tuning { max_radix: Some(4), ..Default::default() });
/// let r = plan_c2c_recipe(&Shape::new([16]), Precision::F32, &opts).unwrap();
/// let t = stage_twiddles(&r);
/// assert_eq!(t.len(), 16); // stage 2: 4 x 4
/// // r = 1, m = 1: e^{-2πi/16}
/// assert!((t[4 + 1].im + (2.0 * std::f64::consts::PI / 16.0).sin()).abs() < 1e-15);
/// ```
pub fn stage_twiddles(recipe: &Recipe) -> Vec<Complex<f64>> {
    stage_twiddles_stored(recipe, recipe.single_pass_stores_directly())
}

/// [`stage_twiddles`] for a kernel whose last stage stores straight to device memory
/// (`direct_store`: a last tensor-core stage then writes runs of four values per lane and reads
/// its twiddles in that order) or into shared memory (strided passes that stage their stores).
///
/// ```
/// use tensorfft::plan::twiddles::{stage_twiddles, stage_twiddles_stored};
/// use tensorfft::{plan_c2c_recipe, PlanOptions, Precision, Shape, Tuning};
/// let tc = PlanOptions::tuned(Tuning { tensor_cores: Some(true), ..Default::default() });
/// let r = plan_c2c_recipe(&Shape::new([4096]), Precision::F16, &tc).unwrap();
/// assert!(r.tensor_pair);
/// assert_eq!(stage_twiddles(&r), stage_twiddles_stored(&r, true));
/// assert_ne!(stage_twiddles(&r), stage_twiddles_stored(&r, false));
/// ```
pub fn stage_twiddles_stored(recipe: &Recipe, direct_store: bool) -> Vec<Complex<f64>> {
    let n = recipe.n;
    if recipe.warp_shuffles {
        return warp_shuffle_twiddles(recipe);
    }
    let stages = recipe.radices.len();
    let mut out = Vec::new();
    let mut ns = 1;
    for (s, &radix) in recipe.radices.iter().enumerate() {
        let scale = n / (ns * radix);
        if ns > 1 && recipe.tensor_pair && s == 1 {
            // The pair kernel's second stage; the stages after it (N >= 512) take the layouts
            // below.
            out.extend(tensor_pair_twiddles());
        } else if ns > 1 && recipe.tensor_cores && radix == 16 {
            let runs_of_4 = s + 1 == stages && direct_store;
            for block in 0..(ns / 32).max(1) {
                for pair in 0..8 {
                    for lane in 0..32 {
                        for idx in [2 * pair, 2 * pair + 1] {
                            let (j, r) = tensor_slot(block * 32 + lane, idx, runs_of_4);
                            out.push(forward_twiddle((j % ns) * r * scale, n));
                        }
                    }
                }
            }
        } else if ns > 1 {
            for r in 0..radix {
                out.extend((0..ns).map(|m| forward_twiddle(m * scale * r, n)));
            }
        }
        ns *= radix;
    }
    out
}

/// The warp-shuffle kernel's table (`warp_shuffle_fft.cuh`) for `n = E·L`: the four-step
/// twiddles `e^{-2πi l k1 / n}` laid out `[k1][l]` (`k1 < E`, `l < L`), then the lane stages'
/// `e^{-2πi j / L}` for `j < L/2`.
///
/// ```
/// use tensorfft::{plan::twiddles::warp_shuffle_twiddles, PlanOptions, Precision, Tuning};
/// let opts = PlanOptions::tuned(Tuning { warp_shuffles: Some(true), ..Default::default() });
/// let r = tensorfft::plan_c2c_recipe(&tensorfft::Shape::new([64]), Precision::F32, &opts).unwrap();
/// let (e, l) = (r.elements_per_thread, r.threads_per_transform);
/// let t = warp_shuffle_twiddles(&r);
/// assert_eq!(t.len(), 64 + l / 2);
/// // k1 = 1, l = 3: e^{-2πi·3/64}
/// assert!((t[l + 3].im + (2.0 * std::f64::consts::PI * 3.0 / 64.0).sin()).abs() < 1e-15);
/// # assert_eq!(e * l, 64);
/// ```
pub fn warp_shuffle_twiddles(recipe: &Recipe) -> Vec<Complex<f64>> {
    let (n, e, l) = (
        recipe.n,
        recipe.elements_per_thread,
        recipe.threads_per_transform,
    );
    let mut out: Vec<Complex<f64>> = (0..e)
        .flat_map(|k1| (0..l).map(move |lane| forward_twiddle(lane * k1, n)))
        .collect();
    out.extend((0..l / 2).map(|j| forward_twiddle(j * e, n)));
    out
}

/// The warp-resident tensor-core kernel's table (`tensor_pair_fft.cuh`, N = 256): the second
/// stage's twiddle `e^{-2πi r m / 256}` of each lane's eight accumulators, laid out
/// `[slot pair][lane][2]`, where lane `4g + q`'s slot `s = 4 nt + 2h + u` holds row
/// `r = g + 8h` (the first stage's frequency) and column `m = 8 nt + 2q + u` (its butterfly).
///
/// ```
/// let t = tensorfft::plan::twiddles::tensor_pair_twiddles();
/// assert_eq!(t.len(), 256);
/// // Slot pair 0 of lane 5 (g = 1, q = 1): slot 0 is (r 1, m 2).
/// let w = t[2 * 5];
/// assert!((w.im + (2.0 * std::f64::consts::PI * 2.0 / 256.0).sin()).abs() < 1e-15);
/// ```
pub fn tensor_pair_twiddles() -> Vec<Complex<f64>> {
    let mut out = Vec::with_capacity(256);
    for pair in 0..4 {
        for lane in 0..32 {
            let (g, q) = (lane >> 2, lane & 3);
            for s in [2 * pair, 2 * pair + 1] {
                let (nt, h, u) = (s / 4, (s / 2) % 2, s % 2);
                out.push(forward_twiddle((g + 8 * h) * (8 * nt + 2 * q + u), 256));
            }
        }
    }
    out
}

/// Butterfly and sample of value slot `idx` of thread `t` in a tensor-core stage (see
/// `dft_tensor_cores.cuh`): lane `4g + q` holds samples `2q, 2q+1, 2q+8, 2q+9` of four
/// butterflies, consecutive when the stage accesses device memory, else 8 apart.
pub(crate) fn tensor_slot(t: usize, idx: usize, runs_of_4: bool) -> (usize, usize) {
    let (g, q) = ((t & 31) >> 2, t & 3);
    let j = (t & !31)
        + if runs_of_4 {
            4 * g + idx / 4
        } else {
            g + 8 * (idx / 4)
        };
    let s = idx % 4;
    (j, 2 * q + (s & 1) + 8 * ((s >> 1) & 1))
}

/// `e^{-2πik/n}`, with the angle reduced to the first octant so the result is accurate to f64.
///
/// ```
/// let w = tensorfft::plan::twiddles::forward_twiddle(1, 8);
/// assert!((w.re - 0.5f64.sqrt()).abs() < 1e-15);
/// ```
pub fn forward_twiddle(k: usize, n: usize) -> Complex<f64> {
    let k = k % n;
    // Work in units of n/8 (octants) using exact integer arithmetic where possible.
    let (num, den) = (8 * k as u128, n as u128);
    let octant = (num / den) as u32;
    let frac = (num % den) as f64 / n as f64; // in [0, 1) octant units
    let quarter = std::f64::consts::FRAC_PI_4;
    // angle = (octant + frac) * pi/4, result = cos(angle) - i sin(angle)
    let (s, c) = match octant {
        0 => (frac * quarter).sin_cos(),
        1 => {
            let (s, c) = ((1.0 - frac) * quarter).sin_cos();
            (c, s)
        }
        2 => {
            let (s, c) = (frac * quarter).sin_cos();
            (c, -s)
        }
        3 => {
            let (s, c) = ((1.0 - frac) * quarter).sin_cos();
            (s, -c)
        }
        4 => {
            let (s, c) = (frac * quarter).sin_cos();
            (-s, -c)
        }
        5 => {
            let (s, c) = ((1.0 - frac) * quarter).sin_cos();
            (-c, -s)
        }
        6 => {
            let (s, c) = (frac * quarter).sin_cos();
            (-c, s)
        }
        _ => {
            let (s, c) = ((1.0 - frac) * quarter).sin_cos();
            (-s, c)
        }
    };
    Complex::new(c, -s)
}
