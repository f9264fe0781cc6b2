//! The f64 oracle every transform is judged against: rustfft in f64, and error measures.

use crate::plan::{Direction, Normalization};
use num_complex::Complex;
use rustfft::FftPlanner;

/// Batched 1D transform of length `n` in f64 (unnormalized, then `normalization` applied).
///
/// ```
/// use num_complex::Complex;
/// use tensorfft::{cpu::oracle::oracle_c2c, Direction, Normalization};
/// let x = vec![Complex::new(1.0, 0.0); 8];
/// let y = oracle_c2c(&x, 8, Direction::Forward, Normalization::None);
/// assert!((y[0].re - 8.0).abs() < 1e-12);
/// ```
pub fn oracle_c2c(
    input: &[Complex<f64>],
    n: usize,
    dir: Direction,
    normalization: Normalization,
) -> Vec<Complex<f64>> {
    let mut planner = FftPlanner::<f64>::new();
    let fft = match dir {
        Direction::Forward => planner.plan_fft_forward(n),
        Direction::Inverse => planner.plan_fft_inverse(n),
    };
    let mut out = input.to_vec();
    fft.process(&mut out);
    let f = normalization.factor(dir, n);
    if f != 1.0 {
        out.iter_mut().for_each(|x| *x *= f);
    }
    out
}

/// Relative L2 error ‖a − b‖ / ‖b‖; NaN or infinity anywhere gives infinity.
///
/// ```
/// use num_complex::Complex;
/// let b = vec![Complex::new(1.0, 0.0); 4];
/// assert_eq!(tensorfft::cpu::oracle::relative_l2(&b, &b), 0.0);
/// ```
pub fn relative_l2(a: &[Complex<f64>], b: &[Complex<f64>]) -> f64 {
    if a.len() != b.len() {
        return f64::INFINITY;
    }
    let mut num = 0.0;
    let mut den = 0.0;
    for (x, y) in a.iter().zip(b) {
        if !(x.re.is_finite() && x.im.is_finite()) {
            return f64::INFINITY;
        }
        num += (x - y).norm_sqr();
        den += y.norm_sqr();
    }
    if den == 0.0 {
        return if num == 0.0 { 0.0 } else { f64::INFINITY };
    }
    (num / den).sqrt()
}
