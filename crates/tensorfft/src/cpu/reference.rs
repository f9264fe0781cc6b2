//! The CPU reference executor: runs a [`Recipe`] stage for stage as the GPU kernel does (same
//! radices, Stockham indexing, twiddle table, register DFT network, exchange and storage
//! roundings), so planner and arithmetic are tested without a GPU.

use crate::cpu::radix_dft::dft_in_place;
use crate::cpu::split_dft::SplitScheme;
use crate::cpu::tensor_dft::{dft16_split_emulated, dft16_tensor_emulated_in, TensorOperands};
use crate::cpu::warp_shuffle::WarpShuffle;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::plan::schedule::{Buffer, PassKernel, Schedule};
use crate::plan::strided_pass::StridedPass;
use crate::plan::twiddles::{forward_table, forward_twiddle};
use crate::plan::{Direction, ExchangeFormat, Normalization, Precision, Recipe, StageScale};
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
    if T::PRECISION != recipe.precision.storage() {
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
    let scale = normalization.stage_scale(dir);
    let out = match recipe.precision {
        Precision::F64 => run::<f64, T>(recipe, dir, scale, input),
        // Packed half arithmetic: every add and multiply rounds to f16 (the `half` crate computes
        // each operation in f32 and rounds), twiddles and DFT constants are f16.
        Precision::F16 if recipe.half_arithmetic => run::<f16, T>(recipe, dir, scale, input),
        // Packed bf16x2 arithmetic: the same with bf16 roundings.
        Precision::BF16 if recipe.half_arithmetic => {
            run::<half::bf16, T>(recipe, dir, scale, input)
        }
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
        ExchangeFormat::BF16 => {
            let q = |v: R| {
                R::from(half::bf16::from_f32(v.to_f32().unwrap_or(f32::NAN)).to_f32())
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
    // Compute values are exact in f64; for f16 and bf16 storage round from f32 as the GPU does.
    let re = x.re.to_f64().unwrap_or(f64::NAN);
    let im = x.im.to_f64().unwrap_or(f64::NAN);
    if T::PRECISION == Precision::F16 {
        let q = |v: f64| f16::from_f32(v as f32).to_f64();
        T::from_c64(Complex::new(q(re), q(im)))
    } else if T::PRECISION == Precision::BF16 {
        let q = |v: f64| half::bf16::from_f32(v as f32).to_f64();
        T::from_c64(Complex::new(q(re), q(im)))
    } else {
        T::from_c64(Complex::new(re, im))
    }
}

/// The recipe's twiddle table (`e^{∓2πik/n}`) in the compute precision `R`.
fn compute_table<R: Float>(n: usize, sign: i32) -> Vec<Complex<R>> {
    forward_table(n)
        .into_iter()
        .map(|w| to_real(if sign > 0 { w.conj() } else { w }))
        .collect()
}

/// `e^{sign·2πi·k/n}` rounded to the compute precision: the kernels' compile-time constant roots
/// (`constant_root` in `complex.cuh`).
fn constant_root<R: Float>(k: usize, n: usize, sign: i32) -> Complex<R> {
    let w = forward_twiddle(k, n);
    to_real(if sign > 0 { w.conj() } else { w })
}

pub(crate) fn to_real<R: Float>(w: Complex<f64>) -> Complex<R> {
    Complex::new(
        R::from(w.re).unwrap_or_else(R::nan),
        R::from(w.im).unwrap_or_else(R::nan),
    )
}

/// Runs the stages of `recipe` on one transform held in `x` (compute precision); the result is
/// left in `x`. Every exchange between stages rounds to the exchange format; so does the last
/// stage's output when `round_last` (kernels that keep it in shared memory before storing).
/// `scale` (a normalized direction) scales every stage's outputs by 1/radix or 1/√radix, rounded
/// to the compute precision, as the kernels do; packed half arithmetic (`scale_first`) scales
/// every stage's inputs instead (f16 sums would overflow after the DFT).
#[allow(clippy::too_many_arguments)]
fn transform<R: Float>(
    recipe: &Recipe,
    scale_first: bool,
    sign: i32,
    table: &[Complex<R>],
    round_last: bool,
    scale: StageScale,
    x: &mut Vec<Complex<R>>,
    y: &mut Vec<Complex<R>>,
) {
    let n = recipe.n;
    let stages = recipe.radices.len();
    let mut v: Vec<Complex<R>> = Vec::with_capacity(32);
    let mut tw: Vec<Complex<R>> = Vec::with_capacity(32);
    let mut ns = 1;
    let run_width = recipe.last_stage_run_width();
    for (s, &radix) in recipe.radices.iter().enumerate() {
        let stride = n / radix;
        // The last stage's runs of butterflies (`Recipe::last_stage_run_width`): the u-th takes
        // the run's first one's twiddles times the constant root w^(u r), rounded.
        let run = run_width.filter(|_| s + 1 == stages).unwrap_or(1);
        for j in 0..stride {
            v.clear();
            v.extend((0..radix).map(|r| x[j + r * stride]));
            if ns > 1 {
                let u = j % run;
                let base = ((j - u) % ns) * (n / (ns * radix));
                let derived = recipe.derived_twiddles && !(recipe.tensor_cores && radix == 16);
                tw.clear();
                tw.push(Complex::new(R::one(), R::zero()));
                for r in 1..radix {
                    let w = if derived && !r.is_power_of_two() {
                        // The kernel's product of two loaded rows (derive_twiddles).
                        let h = 1 << (usize::BITS - 1 - r.leading_zeros());
                        tw[r - h] * tw[h]
                    } else if u != 0 {
                        table[base * r] * constant_root::<R>(u * r, ns * radix, sign)
                    } else {
                        table[base * r]
                    };
                    tw.push(w);
                }
                for (vr, &w) in v.iter_mut().zip(&tw).skip(1) {
                    *vr = *vr * w;
                }
            }
            // Packed half arithmetic scales before the DFT (f16 sums would overflow after it),
            // the other kernels after it.
            let scale_by = |v: &mut Vec<Complex<R>>| {
                if scale != StageScale::None {
                    let s = R::from(scale.factor(radix)).unwrap_or_else(R::one);
                    v.iter_mut()
                        .for_each(|x| *x = Complex::new(x.re * s, x.im * s));
                }
            };
            if scale_first {
                scale_by(&mut v);
            }
            if recipe.tensor_cores && radix == 16 {
                if recipe.precision == Precision::F32Split {
                    let scheme = if recipe.tf32_split {
                        SplitScheme::Tf32x3
                    } else {
                        SplitScheme::Fp16Scaled
                    };
                    dft16_split_emulated(&mut v, sign, scheme);
                } else if recipe.precision == Precision::BF16 {
                    dft16_tensor_emulated_in(&mut v, sign, TensorOperands::BF16);
                } else {
                    dft16_tensor_emulated_in(&mut v, sign, TensorOperands::F16);
                }
            } else {
                dft_in_place(&mut v, sign);
            }
            if !scale_first {
                scale_by(&mut v);
            }
            let dst = (j / ns) * ns * radix + j % ns;
            // The tensor-core stage pair keeps its first stage's outputs in f32 registers.
            let exchanged = !(recipe.tensor_pair && s == 0);
            for (r, &vr) in v.iter().enumerate() {
                y[dst + r * ns] = if exchanged && (s + 1 < stages || round_last) {
                    exchange_round(vr, recipe.exchange)
                } else {
                    vr
                };
            }
        }
        std::mem::swap(x, y);
        ns *= radix;
    }
}

fn run<R: Float, T: Element>(
    recipe: &Recipe,
    dir: Direction,
    scale: StageScale,
    input: &[T],
) -> Vec<T> {
    let mut out = Vec::with_capacity(input.len());
    single_pass::<R, T>(recipe, dir.sign(), scale, input, &mut out);
    out
}

/// The single-pass kernel on the CPU: every transform of `input`, appended to `out`.
fn single_pass<R: Float, T: Element>(
    recipe: &Recipe,
    sign: i32,
    scale: StageScale,
    input: &[T],
    out: &mut Vec<T>,
) {
    let n = recipe.n;
    let mut x: Vec<Complex<R>> = vec![Complex::new(R::zero(), R::zero()); n];
    if recipe.warp_shuffles {
        let kernel = WarpShuffle::<R>::new(recipe, sign, scale);
        for t in input.chunks_exact(n) {
            for (xi, &e) in x.iter_mut().zip(t) {
                *xi = to_compute(e);
            }
            kernel.transform(&mut x);
            out.extend(x.iter().map(|&c| from_compute::<R, T>(c)));
        }
        return;
    }
    let table = compute_table::<R>(n, sign);
    let mut y = x.clone();
    for t in input.chunks_exact(n) {
        for (xi, &e) in x.iter_mut().zip(t) {
            *xi = to_compute(e);
        }
        transform(
            recipe,
            recipe.half_arithmetic,
            sign,
            &table,
            false,
            scale,
            &mut x,
            &mut y,
        );
        out.extend(x.iter().map(|&c| from_compute::<R, T>(c)));
    }
}

/// A strided pass on the CPU, as the kernel runs it: each item's samples gathered, multiplied
/// by the pass twiddle (the product of two or three f64 table levels, `StridedPass::twiddle_levels`,
/// rounded once, or for direct loads of
/// 2-byte data stepped in f32 from such products), rounded into the exchange format, transformed
/// by the inner recipe (each stage scaled by `scale`), rounded again and stored. Passes on pairs
/// of items compute in f16 (`R = f16`); their stage twiddles round f64 → f16 here and f64 → f32
/// → f16 in the kernel, which agree for every root up to 4096 (the longest such pass).
fn strided_pass<R: Float, T: Element>(
    pass: &StridedPass,
    sign: i32,
    scale: StageScale,
    src: &[T],
    dst: &mut [T],
) {
    let recipe = &pass.inner;
    let n = recipe.n;
    let table = compute_table::<R>(n, sign);
    // The kernels form each pass twiddle from a product of the f64 table levels. f32 data and
    // gathered tiles: in double (a power of such products, whose error stays far below f32's),
    // rounded once to the compute precision; here the f64 product, rounded. Direct loads of
    // 2-byte data (f16, bf16, pairs): the product for butterfly j and the step between its
    // first-stage samples rounded to f32, then stepped in f32 (`f32_steps`, as modelled here up
    // to the kernel's fused multiply-adds).
    // Gathered tensor-core tiles step along each thread's runs (`tile_twiddle_span`), the same
    // way with the run's step in place of the first stage's span.
    let two_byte = pass.paired || matches!(recipe.precision, Precision::F16 | Precision::BF16);
    let (f32_steps, first_span) = match pass.tile_twiddle_span() {
        Some(span) => (two_byte, span),
        None => (
            !pass.staged_in() && two_byte,
            recipe.radices.first().map_or(n, |&r0| n / r0),
        ),
    };
    // The kernel's table (two or three levels), in the plan's direction.
    let levels = pass.twiddle.map(|t| t.levels(pass.twiddle_levels()));
    let pass_table: Vec<Complex<f64>> = pass
        .twiddle_table()
        .into_iter()
        .map(|w| conj_if(w, sign))
        .collect();
    let mut x: Vec<Complex<R>> = vec![Complex::new(R::zero(), R::zero()); n];
    let mut y = x.clone();
    for item in 0..pass.items() {
        let (mut rest, mut in_off, mut out_off, mut m) = (item, 0, 0, 0);
        for (d, dim) in pass.dims.iter().enumerate() {
            let c = rest % dim.count;
            rest /= dim.count;
            in_off += c * dim.in_stride;
            out_off += c * dim.out_stride;
            if pass.twiddle.is_some_and(|t| t.dim == d) {
                m = c;
            }
        }
        for (k, xk) in x.iter_mut().enumerate() {
            let mut v = to_compute::<R, T>(src[in_off + k * pass.sample_stride_in]);
            if let Some(levels) = levels {
                let product = |e: usize| levels.power(&pass_table, e);
                let w = if f32_steps {
                    // Sample k = j + r · first_span: butterfly j's power, then r steps.
                    let to_f32 = |w: Complex<f64>| Complex::new(w.re as f32, w.im as f32);
                    let step = to_f32(product(m * first_span));
                    let mut w = to_f32(product(m * (k % first_span)));
                    for _ in 0..k / first_span {
                        w *= step;
                    }
                    Complex::new(f64::from(w.re), f64::from(w.im))
                } else {
                    product(m * k)
                };
                v = v * to_real::<R>(w);
            }
            // Gathered tiles sit in shared memory (the exchange format) before the first stage;
            // direct loads keep the twiddled value in registers.
            *xk = if pass.staged_in() {
                exchange_round(v, recipe.exchange)
            } else {
                v
            };
        }
        transform(
            recipe,
            pass.paired,
            sign,
            &table,
            true,
            scale,
            &mut x,
            &mut y,
        );
        for (k, &c) in x.iter().enumerate() {
            dst[out_off + k * pass.sample_stride_out] = from_compute::<R, T>(c);
        }
    }
}

/// A strided pass in its compute precision.
fn run_strided<T: Element>(
    p: &StridedPass,
    sign: i32,
    scale: StageScale,
    src: &[T],
    dst: &mut [T],
) {
    match p.inner.precision {
        Precision::F64 => strided_pass::<f64, T>(p, sign, scale, src, dst),
        // Pairs of items in packed half arithmetic: every operation rounds to f16.
        Precision::F16 if p.paired => strided_pass::<f16, T>(p, sign, scale, src, dst),
        Precision::BF16 if p.paired => strided_pass::<half::bf16, T>(p, sign, scale, src, dst),
        _ => strided_pass::<f32, T>(p, sign, scale, src, dst),
    }
}

pub(crate) fn conj_if(w: Complex<f64>, sign: i32) -> Complex<f64> {
    if sign > 0 {
        w.conj()
    } else {
        w
    }
}

/// Runs `schedule` pass by pass on the CPU, with the buffers the GPU plan uses: the input, the
/// output (the input itself when `in_place`) and scratch, each pass reading and writing the
/// storage format. Scratch and an out-of-place output start as NaN, so elements no pass writes
/// show up.
///
/// ```
/// use num_complex::Complex;
/// use tensorfft::{cpu::reference::execute_schedule, plan_c2c_schedule, Direction, PlanOptions, Precision, Shape};
/// let s = plan_c2c_schedule(&Shape::new([4, 1 << 12]), Precision::F32, &PlanOptions::default()).unwrap();
/// let x = vec![Complex::new(1.0f32, 0.0); 1 << 14];
/// let y = execute_schedule(&s, Direction::Forward, &x, false).unwrap();
/// assert!((y[0].re - 16384.0).abs() < 1e-2 && y[1].norm() < 1e-2);
/// ```
pub fn execute_schedule<T: Element>(
    schedule: &Schedule,
    dir: Direction,
    input: &[T],
    in_place: bool,
) -> Result<Vec<T>> {
    if T::PRECISION != schedule.precision.storage() {
        return Err(Error::PrecisionMismatch {
            plan: schedule.precision,
            buffer: T::PRECISION,
        });
    }
    let len = schedule.len();
    if input.len() != schedule.input_extent() {
        return Err(Error::LengthMismatch {
            expected: schedule.input_extent(),
            actual: input.len(),
        });
    }
    if in_place {
        schedule.check_in_place()?;
    }
    let nan = T::from_c64(Complex::new(f64::NAN, f64::NAN));
    // Buffers: 0 input, 1 output, 2.. scratch. Dense intermediates use the output buffer only
    // when its layout is dense (`Schedule::buffers`).
    let mut bufs: Vec<Vec<T>> = vec![input.to_vec(), Vec::new()];
    bufs[1] = if in_place {
        Vec::new()
    } else {
        vec![nan; schedule.output_extent()]
    };
    for _ in 0..schedule.scratch_buffers() {
        bufs.push(vec![nan; len]);
    }
    let slot = |b: Buffer| match b {
        Buffer::Input => 0,
        Buffer::Output if in_place => 0,
        Buffer::Output => 1,
        Buffer::Scratch(k) => 2 + k as usize,
    };
    let sign = dir.sign();
    let scale = schedule.normalization.stage_scale(dir);
    for (pass, (src, dst)) in schedule.passes.iter().zip(schedule.buffers(in_place)) {
        let (si, di) = (slot(src), slot(dst));
        let source = if si == di {
            bufs[si].clone()
        } else {
            std::mem::take(&mut bufs[si])
        };
        match &pass.kernel {
            PassKernel::SinglePass { recipe, .. } => {
                let mut out = Vec::with_capacity(len);
                match recipe.precision {
                    Precision::F64 => single_pass::<f64, T>(recipe, sign, scale, &source, &mut out),
                    Precision::F16 if recipe.half_arithmetic => {
                        single_pass::<f16, T>(recipe, sign, scale, &source, &mut out)
                    }
                    Precision::BF16 if recipe.half_arithmetic => {
                        single_pass::<half::bf16, T>(recipe, sign, scale, &source, &mut out)
                    }
                    _ => single_pass::<f32, T>(recipe, sign, scale, &source, &mut out),
                }
                bufs[di] = out;
            }
            PassKernel::Strided(p) => {
                let mut out = std::mem::take(&mut bufs[di]);
                if out.is_empty() {
                    out = if si == di {
                        source.clone()
                    } else {
                        vec![nan; len]
                    };
                }
                run_strided(p, sign, scale, &source, &mut out);
                bufs[di] = out;
            }
            // The two passes the cluster kernel fuses, the intermediate in the storage format
            // (the kernel keeps it in shared memory in the exchange format, which for strided
            // passes is the storage format).
            PassKernel::Cluster(c) => {
                let mut mid = vec![nan; len];
                run_strided(&c.first, sign, scale, &source, &mut mid);
                let mut out = std::mem::take(&mut bufs[di]);
                if out.is_empty() {
                    out = vec![nan; len];
                }
                run_strided(&c.second, sign, scale, &mid, &mut out);
                bufs[di] = out;
            }
        }
        if si != di {
            bufs[si] = source;
        }
    }
    Ok(std::mem::take(&mut bufs[slot(Buffer::Output)]))
}
