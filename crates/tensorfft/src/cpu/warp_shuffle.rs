//! The warp-shuffle kernel (`warp_shuffle_fft.cuh`) on the CPU: the same radix-E register DFT,
//! four-step twiddles from the same table, normalization scale, and radix-2
//! decimation-in-frequency stages between lanes, in the compute precision `R`.

use crate::cpu::radix_dft::dft_in_place;
use crate::plan::twiddles::warp_shuffle_twiddles;
use crate::plan::Recipe;
use num_complex::Complex;
use num_traits::Float;

/// Transforms one transform `x` (natural order, compute precision) in place as the warp-shuffle
/// kernel of `recipe` does; `scale` is the normalized direction's factor (1 when unscaled), which
/// the kernel applies once with the four-step twiddle.
///
/// ```
/// use num_complex::Complex;
/// use tensorfft::{cpu::warp_shuffle::transform, plan_c2c_recipe, PlanOptions, Precision, Shape, Tuning};
/// let opts = PlanOptions::tuned(Tuning { warp_shuffles: Some(true), ..Default::default() });
/// let r = plan_c2c_recipe(&Shape::new([16]), Precision::F32, &opts).unwrap();
/// let mut x = vec![Complex::new(0.0f32, 0.0); 16];
/// x[1] = Complex::new(1.0, 0.0);
/// transform(&r, -1, None, &mut x);
/// // X[k] = e^{-2πik/16}
/// assert!((x[4].im + 1.0).abs() < 1e-6 && x[4].re.abs() < 1e-6);
/// ```
pub fn transform<R: Float>(recipe: &Recipe, sign: i32, scale: Option<f64>, x: &mut [Complex<R>]) {
    let (n, e, l) = (
        recipe.n,
        recipe.elements_per_thread,
        recipe.threads_per_transform,
    );
    let table: Vec<Complex<R>> = warp_shuffle_twiddles(recipe)
        .into_iter()
        .map(|w| {
            let w = if sign > 0 { w.conj() } else { w };
            Complex::new(
                R::from(w.re).unwrap_or_else(R::nan),
                R::from(w.im).unwrap_or_else(R::nan),
            )
        })
        .collect();
    let s = scale.map(|s| R::from(s).unwrap_or_else(R::one));
    // lanes[l][k1]: lane l's values after its register DFT and four-step twiddle.
    let mut lanes: Vec<Vec<Complex<R>>> = (0..l)
        .map(|lane| {
            let mut v: Vec<Complex<R>> = (0..e).map(|k| x[lane + l * k]).collect();
            dft_in_place(&mut v, sign);
            for (k1, vk) in v.iter_mut().enumerate().skip(1) {
                *vk = *vk * table[k1 * l + lane];
            }
            if let Some(s) = s {
                v.iter_mut()
                    .for_each(|c| *c = Complex::new(c.re * s, c.im * s));
            }
            v
        })
        .collect();
    // Radix-2 stages between lanes, half-distance L/2 down to 1.
    let mut h = l / 2;
    while h >= 1 {
        let before = lanes.clone();
        for (lane, v) in lanes.iter_mut().enumerate() {
            let partner = &before[lane ^ h];
            let upper = lane & h != 0;
            let w = table[n + (lane & (h - 1)) * (l / (2 * h))];
            for (vk, &o) in v.iter_mut().zip(partner) {
                // The kernel: o + sign · v, then (upper lanes, h > 1) times w.
                let d = if upper {
                    Complex::new(o.re - vk.re, o.im - vk.im)
                } else {
                    Complex::new(o.re + vk.re, o.im + vk.im)
                };
                *vk = if upper && h > 1 { d * w } else { d };
            }
        }
        h /= 2;
    }
    // Lane l holds frequencies k1 + E · bitrev(l).
    let bits = l.trailing_zeros();
    for (lane, v) in lanes.iter().enumerate() {
        let k2 = lane.reverse_bits() >> (usize::BITS - bits);
        x[e * k2..e * (k2 + 1)].copy_from_slice(v);
    }
}
