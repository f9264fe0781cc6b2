//! A numerical model of the F32Split precision (issue 10): fp32 data whose radix-16 DFTs run
//! as products of 16-bit halves on the tensor cores, with fp32 accumulation, emulated on the CPU
//! so splittings can be judged against the f64 oracle and against the plain fp32 path in CI,
//! without a GPU. The reference executor runs the kernels' scheme through [`dft16_model`]
//! (`tensor_dft::dft16_split_emulated`).
//!
//! Two splittings ([`SplitScheme`]):
//! - [`SplitScheme::Fp16Scaled`] (after seed 003, Algorithm 1): per 16-sample vector,
//!   x = s (hi + 2^-12 lo) with s the power of two at or above the largest component of x (a
//!   power of two: the scaling is exact), hi = fp16(x / s) and lo = fp16(2^12 (x / s − hi)).
//!   The DFT matrix is split as F = Fhi + 2^-12 Flo the same way, and
//!   F x ≈ s (Fhi hi + 2^-12 (Flo hi + Fhi lo)): twelve `m16n8k16` products per complex
//!   output tile (three complex products). Seed 003 scales the residual by its own maximum;
//!   the fixed 2^-12 needs no second reduction and keeps lo's absolute error below 2^-24 s.
//!   This is the arithmetic of the F32Split kernels (`dft_tensor_cores.cuh`).
//! - [`SplitScheme::Tf32x3`]: x = big + small with big = tf32(x), small = tf32(x − big), the
//!   same for F, and F x ≈ small Fbig + big Fsmall + big Fbig (`m16n8k8` TF32 products, the
//!   small terms first). TF32 keeps fp32's exponent, so no scaling.
//!
//! The tensor cores are modelled as exact products summed and rounded to fp32 once per
//! instruction (k = 16 for fp16, 8 for TF32), then added to the fp32 accumulator; the
//! hardware's internal accumulation is not documented bit for bit, so GPU results match it to
//! rounding, not bit for bit.
//! [`transform_model`] runs a Stockham transform of radix-16 stages (plus one smaller last
//! radix on CUDA cores) with fp32 twiddles, as the kernels do.

use crate::cpu::oracle::{oracle_c2c, relative_l2};
use crate::cpu::radix_dft::dft_in_place;
use crate::plan::{Direction, Normalization};
use half::f16;
use num_complex::Complex;

/// How a radix-16 DFT's products are formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitScheme {
    /// fp32 butterflies on the CUDA cores (today's F32 path).
    F32,
    /// One fp16 product per term, samples rounded to fp16 unscaled (today's F16 tensor cores).
    Fp16,
    /// Two scaled fp16 halves of samples and matrix, three products.
    Fp16Scaled,
    /// Two TF32 halves of samples and matrix, three products.
    Tf32x3,
}

impl SplitScheme {
    /// Every scheme, for tables.
    ///
    /// ```
    /// assert_eq!(tensorfft::cpu::split_dft::SplitScheme::ALL.len(), 4);
    /// ```
    pub const ALL: [SplitScheme; 4] = [
        SplitScheme::F32,
        SplitScheme::Fp16,
        SplitScheme::Fp16Scaled,
        SplitScheme::Tf32x3,
    ];

    /// A short name.
    ///
    /// ```
    /// assert_eq!(tensorfft::cpu::split_dft::SplitScheme::Tf32x3.name(), "3xTF32");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            SplitScheme::F32 => "f32",
            SplitScheme::Fp16 => "fp16",
            SplitScheme::Fp16Scaled => "2xfp16",
            SplitScheme::Tf32x3 => "3xTF32",
        }
    }
}

/// The factor between the high and low f16 halves of [`SplitScheme::Fp16Scaled`] (2^12: the
/// residual of an f16 rounding below 1 is at most 2^-12).
const LO_SCALE: f64 = 4096.0;

fn to_f16(x: f64) -> f64 {
    f16::from_f64(x).to_f64()
}

/// fp32 rounded to TF32 (10 explicit significand bits, to nearest, ties away from zero, as
/// `cvt.rna.tf32.f32`).
fn to_tf32(x: f32) -> f32 {
    if !x.is_finite() {
        return x;
    }
    let bits = x.to_bits();
    let rounded = bits.wrapping_add(1 << 12) & !((1 << 13) - 1);
    f32::from_bits(rounded)
}

/// The smallest power of two at or above `m` (1 for m = 0).
fn power_at_or_above(m: f64) -> f64 {
    if m <= 0.0 || !m.is_finite() {
        return 1.0;
    }
    let e = m.log2().ceil();
    let p = 2f64.powf(e);
    if p < m {
        p * 2.0
    } else {
        p
    }
}

/// `e^{sign 2πi rk/16}` in fp32, as the kernels form it (`sincospif`).
fn matrix_f32(rk: usize, sign: i32) -> (f32, f32) {
    let angle = 2.0 * std::f64::consts::PI * (rk % 16) as f64 / 16.0;
    let (s, c) = angle.sin_cos();
    (c as f32, (sign as f64 * s) as f32)
}

/// One tensor-core instruction's contribution: the exact dot product of `k`-term chunks,
/// each chunk rounded to fp32 and added to the fp32 accumulator.
fn accumulate(acc: f32, terms: &[f64], k: usize) -> f32 {
    let mut acc = acc;
    for chunk in terms.chunks(k) {
        let s: f64 = chunk.iter().sum();
        acc = ((s as f32) as f64 + acc as f64) as f32;
    }
    acc
}

/// The real and imaginary parts of output k of a 16-point DFT whose samples are `(xr, xi)` and
/// matrix `m(r, k) = (re, im)`, as two chains of tensor-core products: Re = xr·Fre + xi·(−Fim),
/// Im = xr·Fim + xi·Fre, accumulated onto `(acc_re, acc_im)` in chunks of `kc`.
fn complex_mma(
    x: &[(f64, f64)],
    m: &dyn Fn(usize) -> (f64, f64),
    kc: usize,
    acc: (f32, f32),
) -> (f32, f32) {
    let n = x.len();
    let re_a: Vec<f64> = (0..n).map(|r| x[r].0 * m(r).0).collect();
    let re_b: Vec<f64> = (0..n).map(|r| x[r].1 * -m(r).1).collect();
    let im_a: Vec<f64> = (0..n).map(|r| x[r].0 * m(r).1).collect();
    let im_b: Vec<f64> = (0..n).map(|r| x[r].1 * m(r).0).collect();
    let re = accumulate(accumulate(acc.0, &re_a, kc), &re_b, kc);
    let im = accumulate(accumulate(acc.1, &im_a, kc), &im_b, kc);
    (re, im)
}

/// In-place 16-point DFT of fp32 samples under `scheme`; `sign` is −1 forward, +1 inverse.
///
/// ```
/// use num_complex::Complex;
/// use tensorfft::cpu::split_dft::{dft16_model, SplitScheme};
/// let mut v: Vec<Complex<f32>> = (0..16).map(|i| Complex::new(i as f32 / 7.0, 0.25)).collect();
/// let mut exact = v.clone();
/// dft16_model(&mut exact, -1, SplitScheme::F32);
/// dft16_model(&mut v, -1, SplitScheme::Fp16Scaled);
/// let err: f32 = v.iter().zip(&exact).map(|(a, b)| (a - b).norm()).sum();
/// assert!(err < 1e-5);
/// ```
pub fn dft16_model(v: &mut [Complex<f32>], sign: i32, scheme: SplitScheme) {
    debug_assert_eq!(v.len(), 16);
    match scheme {
        SplitScheme::F32 => dft_in_place(v, sign),
        SplitScheme::Fp16 => {
            let x: Vec<(f64, f64)> = v
                .iter()
                .map(|c| (to_f16(c.re as f64), to_f16(c.im as f64)))
                .collect();
            for (k, out) in v.iter_mut().enumerate() {
                let m = |r: usize| {
                    let (c, s) = matrix_f32(r * k, sign);
                    (to_f16(c as f64), to_f16(s as f64))
                };
                let (re, im) = complex_mma(&x, &m, 16, (0.0, 0.0));
                *out = Complex::new(re, im);
            }
        }
        SplitScheme::Fp16Scaled => {
            // One power-of-two scale per vector: x = s (hi + 2^-12 lo).
            let big = v
                .iter()
                .map(|c| c.re.abs().max(c.im.abs()) as f64)
                .fold(0.0, f64::max);
            let s = power_at_or_above(big);
            let hi: Vec<(f64, f64)> = v
                .iter()
                .map(|c| (to_f16(c.re as f64 / s), to_f16(c.im as f64 / s)))
                .collect();
            let lo: Vec<(f64, f64)> = v
                .iter()
                .zip(&hi)
                .map(|(c, h)| {
                    (
                        to_f16(LO_SCALE * (c.re as f64 / s - h.0)),
                        to_f16(LO_SCALE * (c.im as f64 / s - h.1)),
                    )
                })
                .collect();
            for (k, out) in v.iter_mut().enumerate() {
                let f_hi = |r: usize| {
                    let (c, s) = matrix_f32(r * k, sign);
                    (to_f16(c as f64), to_f16(s as f64))
                };
                let f_lo = |r: usize| {
                    let (c, s) = matrix_f32(r * k, sign);
                    let (hc, hs) = f_hi(r);
                    (
                        to_f16(LO_SCALE * (c as f64 - hc)),
                        to_f16(LO_SCALE * (s as f64 - hs)),
                    )
                };
                let a = complex_mma(&hi, &f_hi, 16, (0.0, 0.0));
                let b = complex_mma(&hi, &f_lo, 16, (0.0, 0.0));
                let b = complex_mma(&lo, &f_hi, 16, b);
                // s (a + 2^-12 b): one f32 rounding of the sum (an fma), the scale exact.
                let re = (a.0 as f64 + b.0 as f64 / LO_SCALE) as f32 as f64 * s;
                let im = (a.1 as f64 + b.1 as f64 / LO_SCALE) as f32 as f64 * s;
                *out = Complex::new(re as f32, im as f32);
            }
        }
        SplitScheme::Tf32x3 => {
            let big: Vec<(f64, f64)> = v
                .iter()
                .map(|c| (to_tf32(c.re) as f64, to_tf32(c.im) as f64))
                .collect();
            let small: Vec<(f64, f64)> = v
                .iter()
                .zip(&big)
                .map(|(c, b)| {
                    (
                        to_tf32((c.re as f64 - b.0) as f32) as f64,
                        to_tf32((c.im as f64 - b.1) as f32) as f64,
                    )
                })
                .collect();
            for (k, out) in v.iter_mut().enumerate() {
                let f_big = |r: usize| {
                    let (c, s) = matrix_f32(r * k, sign);
                    (to_tf32(c) as f64, to_tf32(s) as f64)
                };
                let f_small = |r: usize| {
                    let (c, s) = matrix_f32(r * k, sign);
                    (
                        to_tf32(c - to_tf32(c)) as f64,
                        to_tf32(s - to_tf32(s)) as f64,
                    )
                };
                let a = complex_mma(&small, &f_big, 8, (0.0, 0.0));
                let a = complex_mma(&big, &f_small, 8, a);
                let a = complex_mma(&big, &f_big, 8, a);
                *out = Complex::new(a.0, a.1);
            }
        }
    }
}

/// A Stockham transform of length `n` (a power of two, at least 16) of fp32 samples: radix-16
/// stages under `scheme`, then one radix below 16 in fp32 if `n` is not a power of 16, with
/// fp32 twiddles (the f64 values rounded once) multiplied in fp32 before each stage but the
/// first. `sign` is −1 forward, +1 inverse; unnormalized.
///
/// ```
/// use num_complex::Complex;
/// use tensorfft::cpu::split_dft::{transform_model, SplitScheme};
/// let x: Vec<Complex<f32>> = (0..64).map(|i| Complex::new((i % 5) as f32, 0.0)).collect();
/// let y = transform_model(&x, -1, SplitScheme::Tf32x3);
/// let sum: f32 = x.iter().map(|c| c.re).sum();
/// assert!((y[0].re - sum).abs() < 1e-4);
/// ```
pub fn transform_model(x: &[Complex<f32>], sign: i32, scheme: SplitScheme) -> Vec<Complex<f32>> {
    let n = x.len();
    assert!(
        n.is_power_of_two() && n >= 16,
        "a power of two of at least 16"
    );
    let mut radices = Vec::new();
    let mut rest = n;
    while rest >= 16 {
        radices.push(16);
        rest /= 16;
    }
    if rest > 1 {
        radices.push(rest);
    }
    let mut a = x.to_vec();
    let mut b = vec![Complex::new(0.0f32, 0.0); n];
    let mut v = Vec::with_capacity(16);
    let mut ns = 1;
    for &radix in &radices {
        let stride = n / radix;
        for j in 0..stride {
            v.clear();
            v.extend((0..radix).map(|r| a[j + r * stride]));
            if ns > 1 {
                let base = (j % ns) * (n / (ns * radix));
                for (r, vr) in v.iter_mut().enumerate().skip(1) {
                    let angle = sign as f64 * 2.0 * std::f64::consts::PI * ((base * r) % n) as f64
                        / n as f64;
                    let w = Complex::new(angle.cos() as f32, angle.sin() as f32);
                    *vr *= w;
                }
            }
            if radix == 16 {
                dft16_model(&mut v, sign, scheme);
            } else {
                dft_in_place(&mut v, sign);
            }
            let dst = (j / ns) * ns * radix + j % ns;
            for (r, &vr) in v.iter().enumerate() {
                b[dst + r * ns] = vr;
            }
        }
        std::mem::swap(&mut a, &mut b);
        ns *= radix;
    }
    a
}

/// Relative L2 errors of the forward [`transform_model`] of `x` under each of `schemes`,
/// against the f64 oracle (computed once).
///
/// ```
/// use num_complex::Complex;
/// use tensorfft::cpu::split_dft::{forward_errors, SplitScheme};
/// let x: Vec<Complex<f32>> = (0..256).map(|i| Complex::new((i % 7) as f32, 1.0)).collect();
/// let e = forward_errors(&x, &[SplitScheme::F32, SplitScheme::Fp16Scaled]);
/// assert!(e[0] < 1e-6 && e[1] < 1e-6);
/// ```
pub fn forward_errors(x: &[Complex<f32>], schemes: &[SplitScheme]) -> Vec<f64> {
    let wide = |v: &[Complex<f32>]| -> Vec<Complex<f64>> {
        v.iter()
            .map(|c| Complex::new(c.re as f64, c.im as f64))
            .collect()
    };
    let want = oracle_c2c(&wide(x), x.len(), Direction::Forward, Normalization::None);
    schemes
        .iter()
        .map(|&s| relative_l2(&wide(&transform_model(x, -1, s)), &want))
        .collect()
}
