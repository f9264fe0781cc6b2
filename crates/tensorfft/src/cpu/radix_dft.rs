//! The radix-R DFT of the GPU kernels (R = 2, 4, 8, 16, 32), on the CPU: the same radix-2
//! decimation-in-frequency network and the same rotation constants, in the same precision.

use num_complex::Complex;
use num_traits::Float;

/// `a * e^{sign * 2πi k/16}` with the kernels' exact special cases (k multiple of 4) and
/// constants rounded from f64.
fn rot16<R: Float>(a: Complex<R>, k: usize, sign: i32) -> Complex<R> {
    let k = k & 15;
    match k {
        0 => a,
        8 => -a,
        4 | 12 => {
            // multiply by ±i
            let s = if (k == 4) == (sign < 0) { -1.0 } else { 1.0 };
            let s = R::from(s).unwrap_or_else(R::one);
            Complex::new(-s * a.im, s * a.re)
        }
        _ => {
            let angle = 2.0 * std::f64::consts::PI * k as f64 / 16.0;
            let c = R::from(angle.cos()).unwrap_or_else(R::zero);
            let s = R::from(sign as f64 * angle.sin()).unwrap_or_else(R::zero);
            Complex::new(a.re * c - a.im * s, a.re * s + a.im * c)
        }
    }
}

/// `a * e^{sign * 2πi k/32}`: even `k` as [`rot16`], odd `k` with constants rounded from f64.
fn rot32<R: Float>(a: Complex<R>, k: usize, sign: i32) -> Complex<R> {
    let k = k & 31;
    if k.is_multiple_of(2) {
        return rot16(a, k / 2, sign);
    }
    let angle = 2.0 * std::f64::consts::PI * k as f64 / 32.0;
    let c = R::from(angle.cos()).unwrap_or_else(R::zero);
    let s = R::from(sign as f64 * angle.sin()).unwrap_or_else(R::zero);
    Complex::new(a.re * c - a.im * s, a.re * s + a.im * c)
}

/// In-place radix-`v.len()` DFT, natural order in and out; `sign` is -1 forward, +1 inverse.
///
/// ```
/// use num_complex::Complex;
/// let mut v = vec![Complex::new(1.0f64, 0.0); 4];
/// tensorfft::cpu::radix_dft::dft_in_place(&mut v, -1);
/// assert!((v[0].re - 4.0).abs() < 1e-12 && v[1].norm() < 1e-12);
/// ```
pub fn dft_in_place<R: Float>(v: &mut [Complex<R>], sign: i32) {
    let radix = v.len();
    debug_assert!(radix.is_power_of_two() && radix <= 32);
    let mut half = radix / 2;
    while half >= 1 {
        let mut start = 0;
        while start < radix {
            for i in 0..half {
                let a = v[start + i];
                let b = v[start + i + half];
                v[start + i] = a + b;
                v[start + i + half] = if radix == 32 {
                    rot32(a - b, i * (16 / half), sign)
                } else {
                    rot16(a - b, i * (8 / half), sign)
                };
            }
            start += 2 * half;
        }
        half /= 2;
    }
    let bits = radix.trailing_zeros();
    if bits > 0 {
        let sorted: Vec<Complex<R>> = (0..radix)
            .map(|r| v[r.reverse_bits() >> (usize::BITS - bits)])
            .collect();
        v.copy_from_slice(&sorted);
    }
}
