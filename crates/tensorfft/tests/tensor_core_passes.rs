//! Strided passes with tensor-core radix-16 stages (F16 with `Tuning::tensor_cores`, and every
//! F32Split pass of 512 samples and more), run by the CPU reference executor pass by pass as the
//! GPU runs them, against the f64 oracle on fresh random data: both directions, in place and out
//! of place, normalized round trips; F16 against the error of the CUDA-core passes, F32Split
//! against the f32 path.

mod common;
use common::{random, widen};

use half::f16;
use num_complex::Complex;
use tensorfft::cpu::oracle::{oracle_c2c_nd, relative_l2};
use tensorfft::cpu::reference::execute_schedule;
use tensorfft::plan::schedule::PassKernel;
use tensorfft::{
    plan_c2c_schedule, Direction, Element, Normalization, PlanOptions, Precision, Schedule, Shape,
    Tuning,
};

fn tensor_cores() -> Tuning {
    Tuning {
        tensor_cores: Some(true),
        ..Tuning::default()
    }
}

/// The worst relative L2 error of `precision`'s schedule for `dims` over both directions, in
/// place and out of place, and of its normalized round trip; every error within the
/// schedule's bound (the round trip within twice it).
fn worst_error<T: Element>(
    dims: &[usize],
    batch: usize,
    precision: Precision,
    tuning: Tuning,
    x: &[T],
) -> (Schedule, f64) {
    let shape = Shape::from_dims(dims).batch(batch);
    let s = plan_c2c_schedule(&shape, precision, &PlanOptions::tuned(tuning)).unwrap();
    let bound = s.error_bound();
    let xw = widen(x);
    let total: usize = dims.iter().product();
    let mut worst: f64 = 0.0;
    for dir in [Direction::Forward, Direction::Inverse] {
        let want: Vec<Complex<f64>> = xw
            .chunks(total)
            .flat_map(|t| oracle_c2c_nd(t, dims, dir, Normalization::None))
            .collect();
        for in_place in [false, true] {
            let y = execute_schedule(&s, dir, x, in_place).unwrap();
            let err = relative_l2(&widen(&y), &want);
            assert!(
                err <= bound,
                "{s}\n{dir:?} in_place={in_place}: error {err:.3e} > bound {bound:.3e}"
            );
            worst = worst.max(err);
        }
    }
    let opts = PlanOptions {
        normalization: Normalization::Ortho,
        tuning,
        ..Default::default()
    };
    let so = plan_c2c_schedule(&shape, precision, &opts).unwrap();
    let y = execute_schedule(&so, Direction::Forward, x, false).unwrap();
    let back = execute_schedule(&so, Direction::Inverse, &y, true).unwrap();
    let err = relative_l2(&widen(&back), &xw);
    assert!(
        err <= 2.0 * bound,
        "{so}\nround trip: {err:.3e} > {bound:.3e}"
    );
    (s, worst)
}

/// Strided passes of `s` with tensor-core stages, and all its strided passes.
fn tensor_passes(s: &Schedule) -> (usize, usize) {
    let strided: Vec<_> = s
        .passes
        .iter()
        .filter_map(|p| match &p.kernel {
            PassKernel::Strided(sp) => Some(sp),
            _ => None,
        })
        .collect();
    for p in &strided {
        if p.inner.tensor_cores {
            assert!(p.staged_in() && p.staged_out(), "{p}");
            assert_eq!(p.inner.elements_per_thread, 16, "{p}");
            assert!(p.inner.threads_per_transform.is_multiple_of(32), "{p}");
        }
    }
    let tc = strided.iter().filter(|p| p.inner.tensor_cores).count();
    (tc, strided.len())
}

#[test]
fn f16_strided_passes_run_on_the_tensor_cores_when_asked() {
    // (dims, batch, tensor-core strided passes, strided passes): 1D as 2 x 1024 and 4 x 512
    // (the second pass, with the four-step twiddle, on the tensor cores), columns of 512 over
    // contiguous rows of 2 and 64, and a 1024-point axis between two others.
    let cases: [(&[usize], usize, usize, usize); 5] = [
        (&[2048], 1, 1, 2),
        (&[2048], 2, 1, 2),
        (&[512, 2], 2, 1, 1),
        (&[512, 64], 1, 1, 1),
        (&[2, 1024, 4], 1, 1, 2),
    ];
    for (i, (dims, batch, tc, strided)) in cases.into_iter().enumerate() {
        let tuning = Tuning {
            // A tuned pass length splits axes the single-pass kernel would take.
            max_pass_len: [Some(1024), Some(512)].get(i).copied().flatten(),
            ..tensor_cores()
        };
        let total: usize = dims.iter().product::<usize>() * batch;
        let x: Vec<Complex<f16>> = random(total);
        let (s, tc_err) = worst_error(dims, batch, Precision::F16, tuning, &x);
        assert_eq!(tensor_passes(&s), (tc, strided), "{s}");
        // Items of 1024 and more run the stage pair in registers, shorter ones stage by stage.
        for p in s.passes.iter().filter_map(|p| match &p.kernel {
            PassKernel::Strided(sp) if sp.inner.tensor_cores => Some(sp),
            _ => None,
        }) {
            assert_eq!(p.inner.tensor_pair, p.len() >= 1024, "{p}");
            // The pair reads 8-byte pairs of f16 words: every item starts 8-byte aligned.
            assert!(
                !p.inner.tensor_pair || p.item_stride().is_multiple_of(2),
                "{p}"
            );
        }
        // The same data on the CUDA cores: the tensor cores' f32 accumulation is not less
        // accurate than f16 arithmetic (the single-pass kernels measured 0.3-0.4x cuFFT's error).
        let plain = Tuning {
            max_pass_len: tuning.max_pass_len,
            ..Tuning::default()
        };
        let (_, cuda_err) = worst_error(dims, batch, Precision::F16, plain, &x);
        assert!(
            tc_err <= 1.1 * cuda_err,
            "{s}\ntensor cores {tc_err:.3e} against CUDA cores {cuda_err:.3e}"
        );
    }
}

#[test]
fn bf16_strided_passes_compute_in_f32_when_the_tensor_cores_are_asked() {
    // BF16 with the tensor cores asked for: single passes of 256 and more on the tensor cores
    // (bf16 products), shorter ones and strided passes in f32 arithmetic (neither on the
    // tensor cores nor in bf16x2), below the default's error.
    // (dims, batch, longest pass)
    let cases: [(&[usize], usize, Option<usize>); 5] = [
        (&[2048], 2, Some(1024)),
        (&[512, 64], 1, Some(512)),
        (&[2, 1024, 4], 1, None),
        (&[128], 4, None),
        (&[128, 256], 1, None),
    ];
    for (dims, batch, max_pass_len) in cases {
        let tuning = Tuning {
            max_pass_len,
            ..tensor_cores()
        };
        let total: usize = dims.iter().product::<usize>() * batch;
        let x: Vec<Complex<half::bf16>> = random(total);
        let (s, tc_err) = worst_error(dims, batch, Precision::BF16, tuning, &x);
        assert_eq!(tensor_passes(&s).0, 0, "{s}");
        for p in &s.passes {
            match &p.kernel {
                PassKernel::Strided(sp) => assert!(!sp.paired && !sp.inner.half_arithmetic, "{s}"),
                PassKernel::SinglePass { recipe, .. } => {
                    assert_eq!(recipe.tensor_cores, recipe.n >= 256, "{s}");
                    assert!(!recipe.half_arithmetic, "{s}");
                }
                PassKernel::Cluster(_) => {}
            }
        }
        let plain = Tuning {
            max_pass_len,
            ..Tuning::default()
        };
        let (_, default_err) = worst_error(dims, batch, Precision::BF16, plain, &x);
        assert!(
            tc_err < default_err,
            "{s}\ntensor cores asked {tc_err:.3e} against the default {default_err:.3e}"
        );
    }
}

#[test]
fn f32split_runs_every_shape_with_fp32_accuracy() {
    // Multi-pass F32Split: passes of 512 and more on the tensor cores, shorter ones (and single
    // passes under 256) in f32. (dims, batch, tensor-core strided passes, strided passes.)
    let cases: [(&[usize], usize, usize, usize); 6] = [
        (&[64, 64], 2, 0, 1),
        (&[512, 32], 1, 1, 1),
        (&[32, 512], 1, 0, 1),
        (&[2, 1024, 2], 1, 1, 2),
        (&[1 << 11], 2, 1, 2),
        (&[1 << 15], 1, 1, 2),
    ];
    for (dims, batch, tc, strided) in cases {
        let total: usize = dims.iter().product::<usize>() * batch;
        let x: Vec<Complex<f32>> = random(total);
        let tuning = Tuning {
            max_pass_len: (dims == [1 << 11]).then_some(1024),
            ..Tuning::default()
        };
        let (s, split_err) = worst_error(dims, batch, Precision::F32Split, tuning, &x);
        assert_eq!(tensor_passes(&s), (tc, strided), "{s}");
        let (_, f32_err) = worst_error(dims, batch, Precision::F32, tuning, &x);
        // The bar is twice cuFFT fp32's error; our f32 path is at or below cuFFT's.
        assert!(
            split_err <= 2.0 * f32_err,
            "{s}\nF32Split {split_err:.3e} against f32 {f32_err:.3e}"
        );
    }
}

#[test]
fn f32split_1d_under_256_computes_in_f32() {
    let s = plan_c2c_schedule(
        &Shape::new([64]).batch(3),
        Precision::F32Split,
        &PlanOptions::default(),
    )
    .unwrap();
    let PassKernel::SinglePass { recipe, .. } = &s.passes[0].kernel else {
        panic!("{s}")
    };
    assert_eq!(recipe.precision, Precision::F32);
    let x: Vec<Complex<f32>> = random(64 * 3);
    worst_error(&[64], 3, Precision::F32Split, Tuning::default(), &x);
}

#[test]
fn tensor_core_passes_never_fuse_into_clusters() {
    // 2^15 and 2^16 run two strided passes (one of 1024 on the tensor cores) where f32 and f16
    // fuse them on a cluster.
    for (p, tuning) in [
        (Precision::F16, tensor_cores()),
        (Precision::F32Split, Tuning::default()),
    ] {
        for n in [1 << 15, 1 << 16, 1 << 20] {
            let s = plan_c2c_schedule(&Shape::new([n]), p, &PlanOptions::tuned(tuning)).unwrap();
            assert!(
                s.passes
                    .iter()
                    .all(|q| !matches!(q.kernel, PassKernel::Cluster(_))),
                "{s}"
            );
        }
    }
}
