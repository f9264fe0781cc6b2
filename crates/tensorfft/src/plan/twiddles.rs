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

/// The kernels' twiddle table for `radices` (length `n` = their product): for every stage with
/// span `ns > 1` (the product of the earlier radices) and radix `r_len`, an `r_len` × `ns` block
/// laid out `[r][m]` holding `e^{-2πi m r / (ns r_len)}`, stages back to back. For a given `r`
/// the threads of a warp (consecutive `m`) read consecutive values.
///
/// ```
/// let t = tensorfft::plan::twiddles::stage_twiddles(&[4, 4]);
/// assert_eq!(t.len(), 16); // stage 2: 4 x 4
/// // r = 1, m = 1: e^{-2πi/16}
/// assert!((t[4 + 1].im + (2.0 * std::f64::consts::PI / 16.0).sin()).abs() < 1e-15);
/// ```
pub fn stage_twiddles(radices: &[usize]) -> Vec<Complex<f64>> {
    let n: usize = radices.iter().product();
    let mut out = Vec::new();
    let mut ns = 1;
    for &radix in radices {
        if ns > 1 {
            for r in 0..radix {
                out.extend((0..ns).map(|m| forward_twiddle(m * (n / (ns * radix)) * r, n)));
            }
        }
        ns *= radix;
    }
    out
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
