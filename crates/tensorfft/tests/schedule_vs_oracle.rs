//! Multi-pass schedules (long 1D, 2D, 3D) run by the CPU reference executor, pass by pass as the
//! GPU runs them, against the f64 oracle on fresh random data: forward, inverse, normalized round
//! trip, in place and out of place.

use half::f16;
use num_complex::Complex;
use rand::Rng;
use tensorfft::cpu::oracle::{oracle_c2c, relative_l2};
use tensorfft::cpu::reference::execute_schedule;
use tensorfft::plan::schedule::PassKernel;
use tensorfft::{
    plan_c2c_schedule, Direction, Element, Normalization, PlanOptions, Precision, Schedule, Shape,
    Tuning,
};

fn random<T: Element>(len: usize) -> Vec<T> {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| {
            T::from_c64(Complex::new(
                rng.random_range(-1.0..=1.0),
                rng.random_range(-1.0..=1.0),
            ))
        })
        .collect()
}

fn widen<T: Element>(x: &[T]) -> Vec<Complex<f64>> {
    x.iter().map(|e| e.to_c64()).collect()
}

/// The n-D DFT of every transform of a batch: rustfft in f64 along each axis.
fn oracle_nd(x: &[Complex<f64>], dims: &[usize], dir: Direction) -> Vec<Complex<f64>> {
    let mut y = x.to_vec();
    let total: usize = dims.iter().product();
    for axis in 0..dims.len() {
        let n = dims[axis];
        let inner: usize = dims[axis + 1..].iter().product();
        for t in y.chunks_mut(total) {
            for o in 0..total / (n * inner) {
                for c in 0..inner {
                    let at = |k: usize| o * n * inner + k * inner + c;
                    let line: Vec<Complex<f64>> = (0..n).map(|k| t[at(k)]).collect();
                    let f = oracle_c2c(&line, n, dir, Normalization::None);
                    for (k, v) in f.into_iter().enumerate() {
                        t[at(k)] = v;
                    }
                }
            }
        }
    }
    y
}

fn check_schedule<T: Element>(dims: &[usize], batch: usize, tuning: Tuning) -> Schedule {
    let shape = Shape::from_dims(dims).batch(batch);
    let s = plan_c2c_schedule(&shape, T::PRECISION, &PlanOptions::tuned(tuning)).unwrap();
    let x: Vec<T> = random(s.len());
    let xw = widen(&x);
    let bound = s.error_bound();
    for dir in [Direction::Forward, Direction::Inverse] {
        let want = oracle_nd(&xw, dims, dir);
        for in_place in [false, true] {
            let y = execute_schedule(&s, dir, &x, in_place).unwrap();
            let err = relative_l2(&widen(&y), &want);
            assert!(
                err <= bound,
                "{s}\n{dir:?} in_place={in_place}: error {err:.3e} > bound {bound:.3e}"
            );
        }
    }
    let opts = PlanOptions {
        normalization: Normalization::InverseByN,
        tuning,
        ..Default::default()
    };
    let sn = plan_c2c_schedule(&shape, T::PRECISION, &opts).unwrap();
    let y = execute_schedule(&sn, Direction::Forward, &x, false).unwrap();
    let back = execute_schedule(&sn, Direction::Inverse, &y, true).unwrap();
    let err = relative_l2(&widen(&back), &xw);
    assert!(
        err <= 2.0 * bound,
        "{sn}\nround trip: error {err:.3e} > {:.3e}",
        2.0 * bound
    );
    s
}

fn strided_passes(s: &Schedule) -> usize {
    s.passes
        .iter()
        .filter(|p| matches!(p.kernel, PassKernel::Strided(_)))
        .count()
}

#[test]
fn long_1d_two_and_three_passes() {
    // Small pass lengths force two and three Stockham passes on lengths a CPU test can afford.
    for (n, max_pass, passes) in [(256, 16, 2), (4096, 16, 3), (1 << 14, 1024, 2)] {
        let tuning = Tuning {
            max_pass_len: Some(max_pass),
            ..Default::default()
        };
        let s = check_schedule::<Complex<f32>>(&[n], 3, tuning);
        assert_eq!(s.passes.len(), passes, "{s}");
        assert_eq!(strided_passes(&s), passes);
        check_schedule::<Complex<f64>>(&[n], 2, tuning);
        check_schedule::<Complex<f16>>(&[n], 2, tuning);
    }
}

#[test]
fn long_1d_default_plan() {
    let s = check_schedule::<Complex<f32>>(&[1 << 16], 1, Tuning::default());
    assert_eq!(s.passes.len(), 2, "{s}");
    check_schedule::<Complex<f16>>(&[1 << 16], 1, Tuning::default());
}

#[test]
fn two_dimensional() {
    for dims in [[2, 2], [4, 256], [64, 32], [32, 64], [128, 2], [2, 128]] {
        let s = check_schedule::<Complex<f32>>(&dims, 3, Tuning::default());
        assert_eq!(s.passes.len(), 2, "{s}");
        check_schedule::<Complex<f16>>(&dims, 2, Tuning::default());
        check_schedule::<Complex<f64>>(&dims, 2, Tuning::default());
    }
    // A long column axis split into Stockham passes, and a long row axis.
    let tuning = Tuning {
        max_pass_len: Some(8),
        ..Default::default()
    };
    let s = check_schedule::<Complex<f32>>(&[64, 16], 2, tuning);
    assert_eq!(s.passes.len(), 4, "{s}");
    let s = check_schedule::<Complex<f32>>(&[4, 1 << 15], 1, Tuning::default());
    assert_eq!(s.passes.len(), 3, "{s}");
    // f16: the normalized inverse of 2^18 forward outputs (peaks near 10^3) would overflow
    // (65 504) inside the row pass if only outputs were scaled; every stage scales by 1/radix.
    check_schedule::<Complex<f16>>(&[1024, 256], 1, Tuning::default());
}

#[test]
fn three_dimensional() {
    for dims in [[2, 2, 2], [4, 8, 16], [16, 8, 4], [8, 64, 2]] {
        let s = check_schedule::<Complex<f32>>(&dims, 2, Tuning::default());
        assert_eq!(s.passes.len(), 3, "{s}");
        check_schedule::<Complex<f16>>(&dims, 1, Tuning::default());
        check_schedule::<Complex<f64>>(&dims, 1, Tuning::default());
    }
}

#[test]
fn refusals_are_typed() {
    let opts = PlanOptions::default();
    for shape in [
        Shape::new([3, 4]),
        Shape::new([4, 4, 4, 4]),
        Shape::new([1 << 29]),
        Shape::new([4, 1]),
    ] {
        let e = plan_c2c_schedule(&shape, Precision::F32, &opts).unwrap_err();
        assert!(matches!(e, tensorfft::Error::Unsupported { .. }), "{e}");
    }
    let e = plan_c2c_schedule(&Shape::new([4, 0]), Precision::F32, &opts).unwrap_err();
    assert!(matches!(e, tensorfft::Error::InvalidSize(_)), "{e}");
}
