//! The warp-shuffle kernel (`warp_shuffle_fft.cuh`) on the CPU: the same radix-E register DFT,
//! four-step twiddles from the same table, normalization scale, and radix-2
//! decimation-in-frequency stages between lanes, in the compute precision `R`.

use crate::cpu::radix_dft::dft_in_place;
use crate::cpu::reference::{conj_if, to_real};
use crate::plan::twiddles::warp_shuffle_twiddles;
use crate::plan::{Recipe, StageScale};
use num_complex::Complex;
use num_traits::Float;

/// One direction of a warp-shuffle recipe, ready to transform: its twiddle table in the compute
/// precision (conjugated for the inverse, as the kernel reads it) and its one scale factor.
///
/// ```
/// use num_complex::Complex;
/// use tensorfft::{cpu::warp_shuffle::WarpShuffle, plan_c2c_recipe, PlanOptions, Precision, Shape, StageScale, Tuning};
/// let opts = PlanOptions::tuned(Tuning { warp_shuffles: Some(true), ..Default::default() });
/// let r = plan_c2c_recipe(&Shape::new([16]), Precision::F32, &opts).unwrap();
/// let mut x = vec![Complex::new(0.0f32, 0.0); 16];
/// x[1] = Complex::new(1.0, 0.0);
/// WarpShuffle::<f32>::new(&r, -1, StageScale::None).transform(&mut x);
/// // X[k] = e^{-2πik/16} for every k
/// for (k, v) in x.iter().enumerate() {
///     let a = -2.0 * std::f32::consts::PI * k as f32 / 16.0;
///     assert!((v.re - a.cos()).abs() < 1e-6 && (v.im - a.sin()).abs() < 1e-6);
/// }
/// ```
pub struct WarpShuffle<'a, R> {
    recipe: &'a Recipe,
    sign: i32,
    table: Vec<Complex<R>>,
    scale: Option<R>,
}

impl<'a, R: Float> WarpShuffle<'a, R> {
    /// The kernel of `recipe` in the direction of `sign` (−1 forward), scaling as `scale` says
    /// for the whole transform (1/N or 1/√N, once, with the four-step twiddle).
    pub fn new(recipe: &'a Recipe, sign: i32, scale: StageScale) -> Self {
        let table = warp_shuffle_twiddles(recipe)
            .into_iter()
            .map(|w| to_real(conj_if(w, sign)))
            .collect();
        let scale = (scale != StageScale::None)
            .then(|| R::from(scale.factor(recipe.n)).unwrap_or_else(R::nan));
        WarpShuffle {
            recipe,
            sign,
            table,
            scale,
        }
    }

    /// Transforms one transform `x` (natural order, compute precision) in place, step for step
    /// as the kernel does.
    pub fn transform(&self, x: &mut [Complex<R>]) {
        let (n, e, l) = (
            self.recipe.n,
            self.recipe.elements_per_thread,
            self.recipe.threads_per_transform,
        );
        let table = &self.table;
        // lanes[l][k1]: lane l's values after its register DFT and four-step twiddle.
        let mut lanes: Vec<Vec<Complex<R>>> = (0..l)
            .map(|lane| {
                let mut v: Vec<Complex<R>> = (0..e).map(|k| x[lane + l * k]).collect();
                dft_in_place(&mut v, self.sign);
                for (k1, vk) in v.iter_mut().enumerate().skip(1) {
                    *vk = *vk * table[k1 * l + lane];
                }
                if let Some(s) = self.scale {
                    v.iter_mut().for_each(|c| *c = *c * s);
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
                    // Lower lane (holds a, partner b): b + a; upper (holds b, partner a): a − b,
                    // times w when h > 1.
                    *vk = match (upper, h > 1) {
                        (false, _) => o + *vk,
                        (true, false) => o - *vk,
                        (true, true) => (o - *vk) * w,
                    };
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
}
