//! The CPU reference executor: runs a [`Recipe`] stage for stage as the GPU kernel does (same
//! radices, Stockham indexing, twiddle table, register DFT network, exchange and storage
//! roundings), so planner and arithmetic are tested without a GPU.

use crate::cpu::radix_dft::dft_in_place;
use crate::cpu::tensor_dft::dft16_tensor_emulated;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::plan::twiddles::forward_table;
use crate::plan::{Direction, ExchangeFormat, Normalization, Precision, Recipe};
use half::f16;
use num_complex::Complex;
use num_traits::Float;

/// Runs `recipe` on `input` (a whole batch, `recipe.n` elements per transform) on the CPU.
///
/// ```
/// use num_complex::Complex;
/// use tensorfft::{cpu::reference::execute, plan_c2c_recipe, Direction, Normalization, PlanOptions, Precision, Shape};
/// let r = plan_c2c_recipe(&Shape::new([16]), Precision::F32, &PlanOptions::default()).unwrap();
/// let x = vec![Complex::new(1.0f32, 0.0); 16];
/// let y = execute(&r, Direction::Forward, Normalization::None, &x).unwrap();
/// assert!((y[0].re - 16.0).abs() < 1e-5);
/// ```
pub fn execute<T: Element>(
    recipe: &Recipe,
    dir: Direction,
    normalization: Normalization,
    input: &[T],
) -> Result<Vec<T>> {
    if T::PRECISION != recipe.precision {
        return Err(Error::PrecisionMismatch {
            plan: recipe.precision,
            buffer: T::PRECISION,
        });
    }
    if input.is_empty() || !input.len().is_multiple_of(recipe.n) {
        return Err(Error::LengthMismatch {
            expected: recipe.n * (input.len() / recipe.n).max(1),
            actual: input.len(),
        });
    }
    let scale = normalization.factor(dir, recipe.n);
    let out = match recipe.precision {
        Precision::F64 => run::<f64, T>(recipe, dir, scale, input),
        // Packed half arithmetic: every add and multiply rounds to f16 (the `half` crate computes
        // each operation in f32 and rounds), twiddles and DFT constants are f16.
        Precision::F16 if recipe.half_arithmetic => run::<f16, T>(recipe, dir, scale, input),
        _ => run::<f32, T>(recipe, dir, scale, input),
    };
    Ok(out)
}

/// Rounds a computed value the way the exchange through shared memory does.
fn exchange_round<R: Float>(x: Complex<R>, exchange: ExchangeFormat) -> Complex<R> {
    match exchange {
        ExchangeFormat::F16 => {
            let q = |v: R| {
                R::from(f16::from_f32(v.to_f32().unwrap_or(f32::NAN)).to_f32())
                    .unwrap_or_else(R::nan)
            };
            Complex::new(q(x.re), q(x.im))
        }
        ExchangeFormat::F32 | ExchangeFormat::F64 => x,
    }
}

fn to_compute<R: Float, T: Element>(x: T) -> Complex<R> {
    let c = x.to_c64();
    Complex::new(
        R::from(c.re).unwrap_or_else(R::nan),
        R::from(c.im).unwrap_or_else(R::nan),
    )
}

fn from_compute<R: Float, T: Element>(x: Complex<R>) -> T {
    // Compute values are exact in f64; for f16 storage round from f32 as the GPU does.
    let re = x.re.to_f64().unwrap_or(f64::NAN);
    let im = x.im.to_f64().unwrap_or(f64::NAN);
    if T::PRECISION == Precision::F16 {
        let q = |v: f64| f16::from_f32(v as f32).to_f64();
        T::from_c64(Complex::new(q(re), q(im)))
    } else {
        T::from_c64(Complex::new(re, im))
    }
}

fn run<R: Float, T: Element>(recipe: &Recipe, dir: Direction, scale: f64, input: &[T]) -> Vec<T> {
    let n = recipe.n;
    let sign = dir.sign();
    let table: Vec<Complex<R>> = forward_table(n)
        .into_iter()
        .map(|w| {
            let w = if sign > 0 { w.conj() } else { w };
            Complex::new(
                R::from(w.re).unwrap_or_else(R::nan),
                R::from(w.im).unwrap_or_else(R::nan),
            )
        })
        .collect();
    let scale_r = R::from(scale).unwrap_or_else(R::one);
    let stages = recipe.radices.len();
    let mut out = Vec::with_capacity(input.len());
    let mut x: Vec<Complex<R>> = vec![Complex::new(R::zero(), R::zero()); n];
    let mut y = x.clone();
    let mut v: Vec<Complex<R>> = Vec::with_capacity(16);
    let mut tw: Vec<Complex<R>> = Vec::with_capacity(32);
    for transform in input.chunks_exact(n) {
        for (xi, &e) in x.iter_mut().zip(transform) {
            *xi = to_compute(e);
        }
        let mut ns = 1;
        for (s, &radix) in recipe.radices.iter().enumerate() {
            let stride = n / radix;
            for j in 0..stride {
                v.clear();
                v.extend((0..radix).map(|r| x[j + r * stride]));
                if ns > 1 {
                    let base = (j % ns) * (n / (ns * radix));
                    let derived = recipe.derived_twiddles && !(recipe.tensor_cores && radix == 16);
                    tw.clear();
                    tw.push(Complex::new(R::one(), R::zero()));
                    for r in 1..radix {
                        let w = if derived && !r.is_power_of_two() {
                            // The kernel's product of two loaded rows (derive_twiddles).
                            let h = 1 << (usize::BITS - 1 - r.leading_zeros());
                            tw[r - h] * tw[h]
                        } else {
                            table[base * r]
                        };
                        tw.push(w);
                    }
                    for (vr, &w) in v.iter_mut().zip(&tw).skip(1) {
                        *vr = *vr * w;
                    }
                }
                if recipe.tensor_cores && radix == 16 {
                    dft16_tensor_emulated(&mut v, sign);
                } else {
                    dft_in_place(&mut v, sign);
                }
                let dst = (j / ns) * ns * radix + j % ns;
                for (r, &vr) in v.iter().enumerate() {
                    y[dst + r * ns] = if s + 1 < stages {
                        exchange_round(vr, recipe.exchange)
                    } else {
                        vr
                    };
                }
            }
            std::mem::swap(&mut x, &mut y);
            ns *= radix;
        }
        out.extend(
            x.iter()
                .map(|&c| from_compute::<R, T>(Complex::new(c.re * scale_r, c.im * scale_r))),
        );
    }
    out
}
