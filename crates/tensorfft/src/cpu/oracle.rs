//! The f64 oracle every transform is judged against: rustfft in f64 (1D and n-D), and error
//! measures.

use crate::plan::{Direction, Normalization};
use num_complex::Complex;
use rustfft::{Fft, FftPlanner};

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

/// Multi-dimensional transform of ONE array of `dims` (row-major: the last extent varies
/// fastest) in f64: rustfft along every axis, unnormalized, then `normalization` applied with
/// the factor for the total element count (`1 / prod(dims)` for an inverse with
/// [`Normalization::InverseByN`]). A batch is transformed by calling it once per transform.
///
/// Lines of an axis are transformed on all cores when the array is large.
///
/// # Panics
/// If `dims` is empty, holds a zero, or its product differs from `input.len()`.
///
/// ```
/// use num_complex::Complex;
/// use tensorfft::{cpu::oracle::oracle_c2c_nd, Direction, Normalization};
/// // A 2 x 4 image holding one complex exponential along the last axis, e^{2πi x/4}:
/// let x: Vec<Complex<f64>> = (0..8)
///     .map(|i| Complex::from_polar(1.0, 2.0 * std::f64::consts::PI * (i % 4) as f64 / 4.0))
///     .collect();
/// let y = oracle_c2c_nd(&x, &[2, 4], Direction::Forward, Normalization::None);
/// // All energy lands at (ky, kx) = (0, 1): 2 rows x 4 columns = 8.
/// assert!((y[1] - Complex::new(8.0, 0.0)).norm() < 1e-12);
/// assert!(y.iter().enumerate().all(|(i, v)| i == 1 || v.norm() < 1e-12));
/// // The inverse with 1/N normalization (N = 8) gives the image back.
/// let back = oracle_c2c_nd(&y, &[2, 4], Direction::Inverse, Normalization::InverseByN);
/// assert!(back.iter().zip(&x).all(|(a, b)| (a - b).norm() < 1e-12));
/// ```
pub fn oracle_c2c_nd(
    input: &[Complex<f64>],
    dims: &[usize],
    dir: Direction,
    normalization: Normalization,
) -> Vec<Complex<f64>> {
    assert!(
        !dims.is_empty() && dims.iter().all(|&d| d > 0),
        "oracle_c2c_nd: dimensions {dims:?} must be non-empty and non-zero"
    );
    let total: usize = dims.iter().product();
    assert_eq!(
        input.len(),
        total,
        "oracle_c2c_nd: {} elements given for dimensions {dims:?}",
        input.len()
    );
    let mut out = input.to_vec();
    let mut planner = FftPlanner::<f64>::new();
    for axis in 0..dims.len() {
        let n = dims[axis];
        if n == 1 {
            continue;
        }
        let fft = match dir {
            Direction::Forward => planner.plan_fft_forward(n),
            Direction::Inverse => planner.plan_fft_inverse(n),
        };
        // Elements between neighbours along `axis`; blocks of n * stride hold whole lines.
        let stride: usize = dims[axis + 1..].iter().product();
        transform_axis(&mut out, n, stride, fft.as_ref());
    }
    let f = normalization.factor(dir, total);
    if f != 1.0 {
        out.iter_mut().for_each(|x| *x *= f);
    }
    out
}

/// Transforms every line of length `n` and element stride `stride` of `data` (whose length is a
/// multiple of `n * stride`): contiguous lines in place, strided ones through a transposed copy
/// of each `n x stride` block. The work is shared out between threads when there is enough.
fn transform_axis(data: &mut [Complex<f64>], n: usize, stride: usize, fft: &dyn Fft<f64>) {
    let block = n * stride;
    let threads = if data.len() < 1 << 16 {
        1 // threads would cost more than they save
    } else {
        std::thread::available_parallelism()
            .map(|t| t.get())
            .unwrap_or(1)
    };
    if stride == 1 {
        let lines = data.len() / n;
        par_chunks_mut(data, lines.div_ceil(threads) * n, |_, part| {
            fft.process(part)
        });
    } else if data.len() / block >= threads {
        let blocks = data.len() / block;
        par_chunks_mut(data, blocks.div_ceil(threads) * block, |_, part| {
            for b in part.chunks_exact_mut(block) {
                transform_columns(b, n, stride, fft, 1);
            }
        });
    } else {
        for b in data.chunks_exact_mut(block) {
            transform_columns(b, n, stride, fft, threads);
        }
    }
}

/// One `n x stride` block (row-major): gathers its `stride` columns into contiguous lines,
/// transforms them, and scatters them back, each step split over `threads`.
fn transform_columns(
    b: &mut [Complex<f64>],
    n: usize,
    stride: usize,
    fft: &dyn Fft<f64>,
    threads: usize,
) {
    let mut lines = vec![Complex::new(0.0, 0.0); b.len()];
    let cols_per = stride.div_ceil(threads);
    {
        let b = &*b;
        par_chunks_mut(&mut lines, cols_per * n, |i, part| {
            let c0 = i * cols_per;
            for (c, line) in part.chunks_exact_mut(n).enumerate() {
                for (k, v) in line.iter_mut().enumerate() {
                    *v = b[k * stride + c0 + c];
                }
            }
            fft.process(part);
        });
    }
    let rows_per = n.div_ceil(threads);
    let lines = &lines;
    par_chunks_mut(b, rows_per * stride, |i, part| {
        let k0 = i * rows_per;
        for (k, row) in part.chunks_exact_mut(stride).enumerate() {
            for (c, v) in row.iter_mut().enumerate() {
                *v = lines[c * n + k0 + k];
            }
        }
    });
}

/// Runs `f(index, chunk)` on consecutive chunks of `chunk` elements of `data`, one thread per
/// chunk (in the caller's thread when there is only one).
fn par_chunks_mut<F>(data: &mut [Complex<f64>], chunk: usize, f: F)
where
    F: Fn(usize, &mut [Complex<f64>]) + Sync,
{
    let chunk = chunk.max(1);
    if data.len() <= chunk {
        f(0, data);
        return;
    }
    std::thread::scope(|s| {
        for (i, part) in data.chunks_mut(chunk).enumerate() {
            let f = &f;
            s.spawn(move || f(i, part));
        }
    });
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    fn pseudo_random(len: usize, seed: u64) -> Vec<Complex<f64>> {
        let mut s = seed;
        let mut next = move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        (0..len).map(|_| Complex::new(next(), next())).collect()
    }

    /// The 2D DFT straight from its definition, O(N^2).
    fn naive_2d(x: &[Complex<f64>], ny: usize, nx: usize, sign: f64) -> Vec<Complex<f64>> {
        let mut y = vec![Complex::new(0.0, 0.0); ny * nx];
        for ky in 0..ny {
            for kx in 0..nx {
                let mut acc = Complex::new(0.0, 0.0);
                for j in 0..ny {
                    for i in 0..nx {
                        let phase = sign
                            * 2.0
                            * PI
                            * ((ky * j) as f64 / ny as f64 + (kx * i) as f64 / nx as f64);
                        acc += x[j * nx + i] * Complex::from_polar(1.0, phase);
                    }
                }
                y[ky * nx + kx] = acc;
            }
        }
        y
    }

    /// Row-column transform from the 1D oracle, one line at a time (no threads).
    fn separable(x: &[Complex<f64>], dims: &[usize], dir: Direction) -> Vec<Complex<f64>> {
        let mut y = x.to_vec();
        for axis in 0..dims.len() {
            let n = dims[axis];
            let stride: usize = dims[axis + 1..].iter().product();
            for base in (0..y.len()).filter(|i| (i / stride).is_multiple_of(n)) {
                let line: Vec<_> = (0..n).map(|k| y[base + k * stride]).collect();
                let t = oracle_c2c(&line, n, dir, Normalization::None);
                for (k, v) in t.into_iter().enumerate() {
                    y[base + k * stride] = v;
                }
            }
        }
        y
    }

    #[test]
    fn matches_naive_2d_dft() {
        for (ny, nx) in [(4, 8), (8, 2), (2, 2), (16, 16), (1, 8), (8, 1)] {
            let x = pseudo_random(ny * nx, (ny * 31 + nx) as u64);
            for (dir, sign) in [(Direction::Forward, -1.0), (Direction::Inverse, 1.0)] {
                let got = oracle_c2c_nd(&x, &[ny, nx], dir, Normalization::None);
                let err = relative_l2(&got, &naive_2d(&x, ny, nx, sign));
                assert!(err < 1e-13, "{ny}x{nx} {dir:?}: {err:e}");
            }
        }
    }

    #[test]
    fn normalization_divides_by_all_elements() {
        let x = pseudo_random(4 * 2 * 8, 7);
        let y = oracle_c2c_nd(
            &x,
            &[4, 2, 8],
            Direction::Forward,
            Normalization::InverseByN,
        );
        // No scaling forward; the inverse with 1/64 undoes it.
        assert!(relative_l2(&y, &separable(&x, &[4, 2, 8], Direction::Forward)) < 1e-14);
        let back = oracle_c2c_nd(
            &y,
            &[4, 2, 8],
            Direction::Inverse,
            Normalization::InverseByN,
        );
        assert!(relative_l2(&back, &x) < 1e-14);
    }

    #[test]
    fn one_dimension_is_the_1d_oracle() {
        let x = pseudo_random(1024, 3);
        let a = oracle_c2c_nd(&x, &[1024], Direction::Inverse, Normalization::InverseByN);
        let b = oracle_c2c(&x, 1024, Direction::Inverse, Normalization::InverseByN);
        assert_eq!(a, b);
    }

    #[test]
    fn threaded_axes_match_line_by_line() {
        // Above 2^16 elements: threads over lines, over blocks, and over the columns of one block.
        for dims in [
            vec![512, 256],
            vec![2, 64, 1024],
            vec![64, 32, 64],
            vec![1 << 17],
        ] {
            let total = dims.iter().product();
            let x = pseudo_random(total, total as u64);
            let got = oracle_c2c_nd(&x, &dims, Direction::Forward, Normalization::None);
            let err = relative_l2(&got, &separable(&x, &dims, Direction::Forward));
            assert!(err < 1e-14, "{dims:?}: {err:e}");
        }
    }

    #[test]
    #[should_panic(expected = "elements given")]
    fn refuses_a_length_that_is_not_the_product() {
        oracle_c2c_nd(
            &[Complex::new(0.0, 0.0); 6],
            &[2, 4],
            Direction::Forward,
            Normalization::None,
        );
    }
}
