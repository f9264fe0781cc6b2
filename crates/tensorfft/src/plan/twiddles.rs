//! Twiddle factors, computed once in f64 and shared by the GPU table and the CPU reference.

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

/// `e^{-2πik/n}`, with the angle reduced to the first octant so the result is accurate to f64.
///
/// ```
/// let w = tensorfft::plan::twiddles::forward_twiddle(1, 8);
/// assert!((w.re - 0.5f64.sqrt()).abs() < 1e-16);
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
