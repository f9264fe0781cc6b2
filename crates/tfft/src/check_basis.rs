//! `tfft check`'s basis-vector cases: the tensor-core kernels (F16 and BF16 on `mma.sync`,
//! F32Split) transform impulses, one per transform of the batch, and every output must be the
//! matching
//! row of the DFT matrix, `y_k = a exp(∓2πi j k / N)` for the impulse `a` at `j`. The amplitude
//! `a` cycles through 1, i, -1, -i over the batch, so the imaginary parts of the tensor-core
//! products are exercised from the first stage on. A fragment element map that sent any input
//! sample to the wrong row or column of the tensor-core tiles would move some `j` onto another
//! frequency pattern, so transform `j` fails on its own (random data only shows such a
//! permutation as a raised error over the whole batch). Every output element is compared on
//! its own, against the plan's relative bound: an impulse meets no cancellation (each butterfly
//! sees at most one non-zero input), so each output of modulus one carries at most the linear
//! sum of roundings the bound adds up. Every impulse position is checked up to N = 4096; above,
//! the first 1024, the last 512 and 512 spread by a multiplicative hash (every residue class of
//! the low bits and high positions).

use crate::check::CheckRow;
use num_complex::Complex;
use tensorfft::{Direction, Element, Gpu, IoMode, PlanOptions, Precision, Shape, Tuning};

/// One basis-vector case: a precision and length whose plan runs on the tensor cores.
#[derive(Clone, Copy, Debug)]
pub struct BasisCase {
    pub precision: Precision,
    pub n: usize,
    pub tuning: Tuning,
}

/// F16 with the tensor-core stages (opt-in) and F32Split (always on the tensor cores), every
/// length they take (256 … 16384; 256 with one, two and four transforms per warp), or fewer
/// when `quick`; F32Split also on the other form of each length from 512 (stage pair or
/// per-stage kernel) and from 4096 with every radix-16 stage on the tensor cores.
/// BF16 on the tensor cores (opt-in) at 256 and 1024 with 16 values per thread and the default
/// form of each length.
/// F16 256 runs the warp-resident kernel (both stages in one warp) with one, two and four
/// transforms per warp, 512 and 1024 by default (the last stage in each lane; 1024 also with 16
/// values per thread, the pair before a Stockham stage); 2048 … 16384 by default run the pair
/// kernel with Stockham stages after it (4096 and 8192 also the per-stage kernel, 4096 the pair
/// with its input staged and direct).
pub fn cases(quick: bool) -> Vec<BasisCase> {
    let lengths: Vec<usize> = if quick {
        vec![512, 4096, 16384]
    } else {
        (9..=14).map(|b| 1usize << b).collect()
    };
    let mut v: Vec<BasisCase> = [(256, 8), (256, 16), (256, 32), (1024, 16)]
        .into_iter()
        .map(|(n, e)| BasisCase {
            precision: Precision::F16,
            n,
            tuning: Tuning {
                tensor_cores: Some(true),
                elements_per_thread: Some(e),
                ..Default::default()
            },
        })
        .collect();
    v.extend([8, 16, 32].map(|e| BasisCase {
        precision: Precision::F32Split,
        n: 256,
        tuning: Tuning {
            elements_per_thread: Some(e),
            ..Default::default()
        },
    }));
    let tensor = Tuning {
        tensor_cores: Some(true),
        ..Default::default()
    };
    // 4096 and 8192 also on the per-stage tensor kernel (the stage pair is their default), and
    // the pair of 4096 with its input staged and direct.
    for (n, on, io) in [
        (4096, false, None),
        (8192, false, None),
        (4096, true, Some(IoMode::Staged)),
        (4096, true, Some(IoMode::Direct)),
    ] {
        v.push(BasisCase {
            precision: Precision::F16,
            n,
            tuning: Tuning {
                tensor_pairs: Some(on),
                io,
                ..tensor
            },
        });
    }
    // BF16 on the tensor cores (bf16 products, the same fragments): the one-warp pair of 256
    // with 16 values per thread and 1024 with 16 (the pair before a Stockham stage), then the
    // default forms of each length.
    for (n, e) in [(256, 16), (1024, 16)] {
        v.push(BasisCase {
            precision: Precision::BF16,
            n,
            tuning: Tuning {
                elements_per_thread: Some(e),
                ..tensor
            },
        });
    }
    for &n in &lengths {
        v.push(BasisCase {
            precision: Precision::F16,
            n,
            tuning: tensor,
        });
        v.push(BasisCase {
            precision: Precision::BF16,
            n,
            tuning: tensor,
        });
        v.push(BasisCase {
            precision: Precision::F32Split,
            n,
            tuning: Tuning::default(),
        });
        // F32Split's other forms of each length: the stage pair or the per-stage kernel, and
        // from 4096 every radix-16 stage on the tensor cores.
        if n >= 512 {
            for on in [false, true] {
                v.push(BasisCase {
                    precision: Precision::F32Split,
                    n,
                    tuning: Tuning {
                        tensor_pairs: Some(on),
                        ..Tuning::default()
                    },
                });
            }
        }
        if n >= 4096 {
            v.push(BasisCase {
                precision: Precision::F32Split,
                n,
                tuning: Tuning {
                    tensor_stages: Some(3),
                    ..Tuning::default()
                },
            });
        }
    }
    v
}

/// The impulse positions checked for length `n` (sorted, distinct).
///
/// ```text
/// positions(512) == [0, 1, …, 511];  positions(16384).len() <= 2048
/// ```
pub fn positions(n: usize) -> Vec<usize> {
    if n <= 4096 {
        return (0..n).collect();
    }
    let mut v: Vec<usize> = (0..1024).chain(n - 512..n).collect();
    v.extend((0..512u64).map(|i| (i.wrapping_mul(2_654_435_761) % n as u64) as usize));
    v.sort_unstable();
    v.dedup();
    v
}

/// The amplitude of transform `b`'s impulse: i^b (exact in every precision).
pub fn amplitude(b: usize) -> Complex<f64> {
    [
        Complex::new(1.0, 0.0),
        Complex::new(0.0, 1.0),
        Complex::new(-1.0, 0.0),
        Complex::new(0.0, -1.0),
    ][b % 4]
}

/// Transform `b` of the batch is the impulse `amplitude(b)` at `positions[b]`.
pub fn impulses<T: Element>(n: usize, positions: &[usize]) -> Vec<T> {
    let zero = T::from_c64(Complex::new(0.0, 0.0));
    let mut x = vec![zero; n * positions.len()];
    for (b, &j) in positions.iter().enumerate() {
        x[b * n + j] = T::from_c64(amplitude(b));
    }
    x
}

/// `exp(∓2πi r / n)` for r in 0..n (minus forward): the entries of the DFT matrix of length n.
pub fn roots(n: usize, dir: Direction) -> Vec<Complex<f64>> {
    let sign = if dir == Direction::Forward { -1.0 } else { 1.0 };
    (0..n)
        .map(|r| Complex::from_polar(1.0, sign * 2.0 * std::f64::consts::PI * r as f64 / n as f64))
        .collect()
}

/// The largest error of one output element of `y` (the outputs of the impulses at `positions`,
/// back to back) against `amplitude(b) w^(j k)`, relative to its modulus one; infinite if any
/// output is not finite. `n` is a power of two, so `j k mod n` is a mask.
pub fn worst_error(y: &[Complex<f64>], n: usize, positions: &[usize], dir: Direction) -> f64 {
    let w = roots(n, dir);
    let mut worst: f64 = 0.0;
    for (b, &j) in positions.iter().enumerate() {
        let a = amplitude(b);
        for (k, got) in y[b * n..(b + 1) * n].iter().enumerate() {
            if !(got.re.is_finite() && got.im.is_finite()) {
                return f64::INFINITY;
            }
            let want = a * w[(j as u64).wrapping_mul(k as u64) as usize & (n - 1)];
            worst = worst.max((got - want).norm());
        }
    }
    worst
}

fn check_one<T: Element>(gpu: &Gpu, c: &BasisCase) -> Result<Vec<CheckRow>, tensorfft::Error> {
    let pos = positions(c.n);
    let shape = Shape::new([c.n]).batch(pos.len());
    let plan = gpu.plan_c2c_with(&shape, c.precision, &PlanOptions::tuned(c.tuning))?;
    let s = plan.schedule();
    let bound = s.error_bound();
    let input = gpu.upload(&impulses::<T>(c.n, &pos))?;
    let mut out = gpu.alloc::<T>(c.n * pos.len())?;
    let mut rows = Vec::new();
    for dir in [Direction::Forward, Direction::Inverse] {
        gpu.poison(&mut out)?;
        plan.execute_into(dir, &input, &mut out)?;
        let y: Vec<Complex<f64>> = gpu
            .download(&out)?
            .into_iter()
            .map(|e| e.to_c64())
            .collect();
        rows.push(CheckRow::new(
            c.precision,
            &[c.n],
            pos.len(),
            if dir == Direction::Forward {
                "basis vectors, forward"
            } else {
                "basis vectors, inverse"
            },
            worst_error(&y, c.n, &pos, dir),
            bound,
            format!("{s}"),
        ));
    }
    Ok(rows)
}

/// The rows of every basis case whose precision `keep` accepts (an error becomes a failing row).
pub fn rows(gpu: &Gpu, quick: bool, keep: impl Fn(Precision) -> bool) -> Vec<CheckRow> {
    let mut out = Vec::new();
    for c in cases(quick).iter().filter(|c| keep(c.precision)) {
        let r = match c.precision {
            Precision::F16 => check_one::<Complex<half::f16>>(gpu, c),
            Precision::BF16 => check_one::<Complex<half::bf16>>(gpu, c),
            _ => check_one::<Complex<f32>>(gpu, c),
        };
        match r {
            Ok(mut rows) => out.append(&mut rows),
            Err(e) => out.push(CheckRow::new(
                c.precision,
                &[c.n],
                positions(c.n).len(),
                "basis vectors error",
                f64::INFINITY,
                0.0,
                e.to_string(),
            )),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::f16;
    use tensorfft::cpu::reference::execute_schedule;
    use tensorfft::plan::schedule::PassKernel;
    use tensorfft::{plan_c2c_schedule, Schedule};

    fn schedule(c: &BasisCase, batch: usize) -> Schedule {
        let shape = Shape::new([c.n]).batch(batch);
        plan_c2c_schedule(&shape, c.precision, &PlanOptions::tuned(c.tuning)).unwrap()
    }

    /// The reference executor's worst basis error and the bound, on a subset of the positions
    /// (the f16 emulation is slow in debug builds): the first 16 and every 61st.
    fn cpu_error<T: Element>(c: &BasisCase, dir: Direction) -> (f64, f64) {
        let pos: Vec<usize> = positions(c.n)
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| i < 16 || i % 61 == 0)
            .map(|(_, j)| j)
            .collect();
        let s = schedule(c, pos.len());
        let y = execute_schedule(&s, dir, &impulses::<T>(c.n, &pos), false).unwrap();
        let y: Vec<Complex<f64>> = y.into_iter().map(|e| e.to_c64()).collect();
        (worst_error(&y, c.n, &pos, dir), s.error_bound())
    }

    #[test]
    fn every_case_plans_on_the_tensor_cores() {
        for c in cases(false) {
            let s = schedule(&c, positions(c.n).len());
            assert!(
                matches!(&s.passes[..], [p] if matches!(&p.kernel,
                    PassKernel::SinglePass { recipe, .. } if recipe.tensor_cores)),
                "{s}"
            );
        }
        assert_eq!(cases(true).len(), 30);
    }

    #[test]
    fn positions_cover_low_and_high_indices() {
        assert_eq!(positions(512), (0..512).collect::<Vec<_>>());
        let p = positions(16384);
        assert!(p.len() <= 2048 && p.windows(2).all(|w| w[0] < w[1]));
        assert!(p.contains(&0) && p.contains(&1023) && p.contains(&16383));
        assert!(p.iter().any(|&j| (4096..15872).contains(&j)));
    }

    #[test]
    fn the_reference_executor_passes_the_basis_check() {
        // The CPU reference runs the same split and rounding as the kernels: its outputs of the
        // impulses are the DFT rows within the plan's bound, in both directions.
        for n in [256, 512, 1024] {
            let tensor = Tuning {
                tensor_cores: Some(true),
                ..Default::default()
            };
            let f16_case = BasisCase {
                precision: Precision::F16,
                n,
                tuning: tensor,
            };
            let split = BasisCase {
                precision: Precision::F32Split,
                n,
                tuning: Tuning::default(),
            };
            let bf16_case = BasisCase {
                precision: Precision::BF16,
                ..f16_case
            };
            for dir in [Direction::Forward, Direction::Inverse] {
                let (err, bound) = cpu_error::<Complex<f16>>(&f16_case, dir);
                assert!(err <= bound, "F16 N={n} {dir:?}: {err:.3e} > {bound:.3e}");
                let (err, bound) = cpu_error::<Complex<half::bf16>>(&bf16_case, dir);
                assert!(err <= bound, "BF16 N={n} {dir:?}: {err:.3e} > {bound:.3e}");
                // bf16 products: several times f16's error, far below a misplaced sample's.
                assert!(err > 1e-4 && err < 0.05, "BF16 N={n}: {err:.3e}");
                let (err, bound) = cpu_error::<Complex<f32>>(&split, dir);
                assert!(
                    err <= bound,
                    "F32Split N={n} {dir:?}: {err:.3e} > {bound:.3e}"
                );
                assert!(err < 1e-5, "F32Split N={n}: {err:.3e}");
            }
        }
    }

    #[test]
    fn a_misplaced_sample_fails() {
        // Outputs of the impulse at 1 where the check expects the impulse at 0 (a permuted
        // fragment map), the wrong direction, or a NaN left unwritten: far above any bound.
        let n = 512;
        let pos = [0usize, 1];
        let w = roots(n, Direction::Forward);
        let outputs = |impulse_at: [usize; 2], amplitudes: [usize; 2]| -> Vec<Complex<f64>> {
            (0..2)
                .flat_map(|b| {
                    let (j, a) = (impulse_at[b], amplitude(amplitudes[b]));
                    (0..n).map(move |k| (j, k, a))
                })
                .map(|(j, k, a)| a * w[(j * k) % n])
                .collect()
        };
        let right = outputs([0, 1], [0, 1]);
        assert!(worst_error(&right, n, &pos, Direction::Forward) < 1e-12);
        // The impulse at 1 where 0 was expected (a permuted fragment map), i where 1 was
        // expected (a swapped real and imaginary part), the wrong direction, a NaN left
        // unwritten: all fail, far above any bound.
        assert!(worst_error(&outputs([1, 1], [0, 1]), n, &pos, Direction::Forward) > 0.5);
        assert!(worst_error(&outputs([0, 1], [1, 1]), n, &pos, Direction::Forward) > 0.5);
        assert!(worst_error(&right, n, &pos, Direction::Inverse) > 0.5);
        let mut unwritten = right.clone();
        unwritten[n + 7] = Complex::new(f64::NAN, 0.0);
        assert_eq!(
            worst_error(&unwritten, n, &pos, Direction::Forward),
            f64::INFINITY
        );
        // One wrong element of 512 fails on its own (no dilution over the transform).
        let mut one_off = right.clone();
        one_off[300] += Complex::new(0.05, 0.0);
        assert!(worst_error(&one_off, n, &pos, Direction::Forward) > 0.04);
    }
}
