//! The tensor-core radix-16 DFT of the GPU kernels, emulated on the CPU: samples and the DFT
//! matrix rounded to f16, products exact (an f16 product fits in f32), sums in f32, the real and
//! imaginary halves of the complex product accumulated in two steps as the two `mma.sync`
//! instructions do.

use crate::cpu::split_dft::{dft16_model, SplitScheme};
use half::{bf16, f16};
use num_complex::Complex;
use num_traits::Float;

/// The 16-bit operand format of the tensor-core products: f16 (F16 data) or bf16 (BF16 data,
/// `mma.sync … .bf16`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TensorOperands {
    /// IEEE half: 10 fraction bits.
    F16,
    /// bfloat16: 7 fraction bits, f32's exponent range.
    BF16,
}

impl TensorOperands {
    /// `x` rounded (through f32, as the kernels' `cvt` from f32 does) to the format, in f64.
    ///
    /// ```
    /// use tensorfft::cpu::tensor_dft::TensorOperands;
    /// assert_eq!(TensorOperands::F16.round(1.0 + 1.0 / 4096.0), 1.0);
    /// assert_eq!(TensorOperands::BF16.round(1.0 + 1.0 / 512.0), 1.0);
    /// assert_eq!(TensorOperands::BF16.round(1.0 + 1.0 / 128.0), 1.0 + 1.0 / 128.0);
    /// ```
    pub fn round(self, x: f64) -> f64 {
        match self {
            TensorOperands::F16 => f16::from_f32(x as f32).to_f64(),
            TensorOperands::BF16 => bf16::from_f32(x as f32).to_f64(),
        }
    }
}

/// One entry of the DFT matrix, `e^{sign 2πi rk/16}` rounded through f32 to the operand format
/// as the kernels do.
fn matrix_entry(rk: usize, sign: i32, format: TensorOperands) -> (f64, f64) {
    let angle = 2.0 * std::f64::consts::PI * (rk % 16) as f64 / 16.0;
    let (s, c) = angle.sin_cos();
    (format.round(c), format.round(sign as f64 * s))
}

/// In-place 16-point DFT as the tensor cores compute it with f16 operands; `sign` is -1
/// forward, +1 inverse.
///
/// ```
/// use num_complex::Complex;
/// let mut v = vec![Complex::new(0.5f32, 0.0); 16];
/// tensorfft::cpu::tensor_dft::dft16_tensor_emulated(&mut v, -1);
/// assert!((v[0].re - 8.0).abs() < 1e-6 && v[3].norm() < 1e-3);
/// ```
pub fn dft16_tensor_emulated<R: Float>(v: &mut [Complex<R>], sign: i32) {
    dft16_tensor_emulated_in(v, sign, TensorOperands::F16);
}

/// In-place 16-point DFT as the tensor cores compute it with operands in `format`: samples
/// and the DFT matrix rounded to it, products exact (a product of two f16 or two bf16 values
/// fits in f32), sums in f32, the real and imaginary halves accumulated in two steps as the
/// two `mma.sync` instructions do.
///
/// ```
/// use num_complex::Complex;
/// use tensorfft::cpu::tensor_dft::{dft16_tensor_emulated_in, TensorOperands};
/// let x: Vec<Complex<f32>> = (0..16).map(|i| Complex::new((i as f32 * 0.37).sin(), 0.25)).collect();
/// let (mut a, mut b) = (x.clone(), x.clone());
/// dft16_tensor_emulated_in(&mut a, -1, TensorOperands::F16);
/// dft16_tensor_emulated_in(&mut b, -1, TensorOperands::BF16);
/// let diff: f32 = a.iter().zip(&b).map(|(p, q)| (p - q).norm()).fold(0.0, f32::max);
/// assert!(diff > 1e-4 && diff < 0.1);
/// ```
pub fn dft16_tensor_emulated_in<R: Float>(v: &mut [Complex<R>], sign: i32, format: TensorOperands) {
    debug_assert_eq!(v.len(), 16);
    let to_op = |x: R| format.round(x.to_f64().unwrap_or(f64::NAN));
    let x: Vec<(f64, f64)> = v.iter().map(|c| (to_op(c.re), to_op(c.im))).collect();
    let round32 = |a: f64| R::from(a as f32).unwrap_or_else(R::nan);
    for (k, out) in v.iter_mut().enumerate() {
        let (mut rr, mut ri, mut ir, mut ii) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
        for (r, &(xr, xi)) in x.iter().enumerate() {
            let (fr, fi) = matrix_entry(r * k, sign, format);
            rr += xr * fr;
            ri += xi * -fi;
            ir += xr * fi;
            ii += xi * fr;
        }
        let re = (rr as f32 as f64) + ri;
        let im = (ir as f32 as f64) + ii;
        *out = Complex::new(round32(re), round32(im));
    }
}

/// In-place 16-point DFT as the F32Split tensor-core stages compute it: samples and DFT matrix
/// split into two halves, three products accumulated in f32 — scaled f16 halves
/// ([`SplitScheme::Fp16Scaled`], the default kernels) or TF32 halves ([`SplitScheme::Tf32x3`],
/// `Tuning::tf32_split`) of [`crate::cpu::split_dft`]; `sign` is -1 forward, +1 inverse.
///
/// ```
/// use num_complex::Complex;
/// use tensorfft::cpu::split_dft::SplitScheme;
/// for scheme in [SplitScheme::Fp16Scaled, SplitScheme::Tf32x3] {
///     let mut v: Vec<Complex<f32>> = (0..16).map(|i| Complex::new(1.0 + i as f32 / 3.0, 0.0)).collect();
///     let sum: f32 = v.iter().map(|c| c.re).sum();
///     tensorfft::cpu::tensor_dft::dft16_split_emulated(&mut v, -1, scheme);
///     assert!((v[0].re - sum).abs() < 1e-5 * sum);
/// }
/// ```
pub fn dft16_split_emulated<R: Float>(v: &mut [Complex<R>], sign: i32, scheme: SplitScheme) {
    debug_assert_eq!(v.len(), 16);
    let to32 = |x: R| x.to_f32().unwrap_or(f32::NAN);
    let mut x: Vec<Complex<f32>> = v
        .iter()
        .map(|c| Complex::new(to32(c.re), to32(c.im)))
        .collect();
    dft16_model(&mut x, sign, scheme);
    for (out, c) in v.iter_mut().zip(x) {
        *out = Complex::new(
            R::from(c.re).unwrap_or_else(R::nan),
            R::from(c.im).unwrap_or_else(R::nan),
        );
    }
}
