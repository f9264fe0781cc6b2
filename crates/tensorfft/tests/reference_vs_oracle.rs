//! The CPU reference executor, running each recipe exactly as the GPU does, against the f64
//! oracle for every supported length and precision, on fresh random data.

mod common;
use common::{random, widen};

use half::f16;
use num_complex::Complex;
use tensorfft::cpu::oracle::{oracle_c2c, relative_l2};
use tensorfft::cpu::reference::execute;
use tensorfft::plan::error_bound::error_bound;
use tensorfft::plan::planner::{max_len_tuned, supported_lengths};
use tensorfft::{
    plan_c2c_recipe, Direction, Element, ExchangeFormat, Normalization, PlanOptions, Precision,
    Recipe, Shape, Tuning, TwiddleSource,
};

/// Forward, inverse and normalized round trip of `recipe` on `batch` random transforms.
fn check_recipe<T: Element>(recipe: &Recipe, batch: usize) {
    let n = recipe.n;
    let x: Vec<T> = random(n * batch);
    let xw = widen(&x);
    let bound = error_bound(recipe);
    for dir in [Direction::Forward, Direction::Inverse] {
        let y = execute(recipe, dir, Normalization::None, &x).unwrap();
        let want = oracle_c2c_batched(&xw, n, dir, Normalization::None);
        let err = relative_l2(&widen(&y), &want);
        assert!(
            err <= bound,
            "{recipe} {dir:?}: error {err:.3e} > bound {bound:.3e}"
        );
    }
    let y = execute(recipe, Direction::Forward, Normalization::None, &x).unwrap();
    let back = execute(recipe, Direction::Inverse, Normalization::InverseByN, &y).unwrap();
    let err = relative_l2(&widen(&back), &xw);
    assert!(
        err <= 2.0 * bound,
        "{recipe} round trip: error {err:.3e} > {:.3e}",
        2.0 * bound
    );
    // The scaled forward and the unitary modes scale stage by stage (1/R, 1/sqrt R).
    for (norm, dir) in [
        (Normalization::ForwardByN, Direction::Forward),
        (Normalization::Ortho, Direction::Forward),
        (Normalization::Ortho, Direction::Inverse),
    ] {
        let y = execute(recipe, dir, norm, &x).unwrap();
        let want = oracle_c2c_batched(&xw, n, dir, norm);
        let err = relative_l2(&widen(&y), &want);
        assert!(
            err <= bound,
            "{recipe} {dir:?} {norm:?}: error {err:.3e} > bound {bound:.3e}"
        );
    }
}

fn oracle_c2c_batched(
    x: &[Complex<f64>],
    n: usize,
    dir: Direction,
    norm: Normalization,
) -> Vec<Complex<f64>> {
    x.chunks(n)
        .flat_map(|c| oracle_c2c(c, n, dir, norm))
        .collect()
}

fn sweep<T: Element>(tuning: Tuning) {
    for n in supported_lengths(T::PRECISION) {
        let opts = PlanOptions::tuned(tuning);
        let recipe = match plan_c2c_recipe(&Shape::new([n]), T::PRECISION, &opts) {
            Ok(r) => r,
            // A tuning override may ask for more threads per block than a GPU has.
            Err(tensorfft::Error::DeviceLimit(_)) if tuning != Tuning::default() => continue,
            // Tensor-core stages need whole warps per transform (N >= 512) and at most 1024
            // threads of 16 values (N <= 16384; a schedule runs 32768 on the CUDA cores).
            Err(tensorfft::Error::Unsupported { .. })
                if tuning.tensor_cores == Some(true)
                    && (n < 512 || n > max_len_tuned(T::PRECISION, &tuning)) =>
            {
                continue
            }
            // Packed half arithmetic needs two pairs of values (N >= 4).
            Err(tensorfft::Error::Unsupported { .. })
                if tuning.half_arithmetic == Some(true) && n < 4 =>
            {
                continue
            }
            Err(e) => panic!("N={n}: {e}"),
        };
        check_recipe::<T>(&recipe, if n <= 1024 { 5 } else { 2 });
    }
}

#[test]
fn c2c_f32_all_lengths_match_oracle() {
    sweep::<Complex<f32>>(Tuning::default());
}

#[test]
fn c2c_f16_all_lengths_match_oracle() {
    sweep::<Complex<f16>>(Tuning::default());
}

#[test]
fn c2c_bf16_all_lengths_match_oracle() {
    sweep::<Complex<half::bf16>>(Tuning::default());
}

#[test]
fn c2c_f64_all_lengths_match_oracle() {
    sweep::<Complex<f64>>(Tuning::default());
}

#[test]
fn c2c_f16_with_f16_exchange_matches_oracle() {
    sweep::<Complex<f16>>(Tuning {
        exchange: Some(ExchangeFormat::F16),
        ..Default::default()
    });
}

#[test]
fn c2c_other_register_blockings_match_oracle() {
    for e in [2, 4, 8, 32] {
        sweep::<Complex<f32>>(Tuning {
            elements_per_thread: Some(e),
            ..Default::default()
        });
    }
}

#[test]
fn impulse_gives_flat_spectrum_exactly() {
    let recipe =
        plan_c2c_recipe(&Shape::new([4096]), Precision::F32, &PlanOptions::default()).unwrap();
    let mut x = vec![Complex::new(0.0f32, 0.0); 4096];
    x[0] = Complex::new(1.0, 0.0);
    let y = execute(&recipe, Direction::Forward, Normalization::None, &x).unwrap();
    assert!(y.iter().all(|v| *v == Complex::new(1.0, 0.0)));
}

#[test]
fn single_tone_lands_in_its_bin() {
    let n = 1024;
    let recipe =
        plan_c2c_recipe(&Shape::new([n]), Precision::F64, &PlanOptions::default()).unwrap();
    let k0 = 37;
    let x: Vec<Complex<f64>> = (0..n)
        .map(|i| Complex::from_polar(1.0, 2.0 * std::f64::consts::PI * (k0 * i) as f64 / n as f64))
        .collect();
    let y = execute(&recipe, Direction::Forward, Normalization::None, &x).unwrap();
    for (k, v) in y.iter().enumerate() {
        let want = if k == k0 { n as f64 } else { 0.0 };
        assert!(
            (v.re - want).abs() < 1e-9 && v.im.abs() < 1e-9,
            "bin {k}: {v}"
        );
    }
}

#[test]
fn wrong_precision_or_length_is_refused() {
    let recipe =
        plan_c2c_recipe(&Shape::new([16]), Precision::F32, &PlanOptions::default()).unwrap();
    let x64 = vec![Complex::new(0.0f64, 0.0); 16];
    assert!(matches!(
        execute(&recipe, Direction::Forward, Normalization::None, &x64),
        Err(tensorfft::Error::PrecisionMismatch { .. })
    ));
    let x = vec![Complex::new(0.0f32, 0.0); 15];
    assert!(matches!(
        execute(&recipe, Direction::Forward, Normalization::None, &x),
        Err(tensorfft::Error::LengthMismatch { .. })
    ));
}

#[test]
fn c2c_f16_f32_arithmetic_and_tensor_core_stages_match_oracle() {
    // f32 arithmetic on the CUDA cores (the default below N = 128, an option above) and the
    // tensor-core stages.
    for tensor_cores in [false, true] {
        sweep::<Complex<f16>>(Tuning {
            tensor_cores: Some(tensor_cores),
            half_arithmetic: Some(false),
            ..Default::default()
        });
    }
}

/// The F16 recipe of length `n` with `tuning`.
fn f16_recipe(n: usize, tuning: Tuning) -> Recipe {
    plan_c2c_recipe(
        &Shape::new([n]),
        Precision::F16,
        &PlanOptions::tuned(tuning),
    )
    .unwrap()
}

/// Forward relative L2 errors of recipes `a` and `b` (same length) on one random f16 batch.
fn forward_errors(a: &Recipe, b: &Recipe, batch: usize) -> (f64, f64) {
    let n = a.n;
    let x: Vec<Complex<f16>> = random(n * batch);
    let want = oracle_c2c_batched(&widen(&x), n, Direction::Forward, Normalization::None);
    let err = |r: &Recipe| {
        let y = execute(r, Direction::Forward, Normalization::None, &x).unwrap();
        relative_l2(&widen(&y), &want)
    };
    (err(a), err(b))
}

/// F16 with f32 arithmetic on the CUDA cores.
fn f32_arithmetic() -> Tuning {
    Tuning {
        tensor_cores: Some(false),
        half_arithmetic: Some(false),
        ..Default::default()
    }
}

#[test]
fn tensor_core_recipes_use_radix_16_stages_and_stay_accurate() {
    // The f16 rounding of samples and DFT matrix costs accuracy, but within a small factor of the
    // f32-arithmetic stages (both are dominated by f16 storage).
    // N = 256, 512 and 1024 (with 32 values per thread) run both radix-16 stages in one warp
    // (`Recipe::tensor_pair_warp`; at 256 one, two or four transforms per warp), 1024 with 16
    // values per thread and 2048 … 16384 the same pair before the Stockham stages
    // (`Recipe::tensor_pair`); the reference runs the same stages.
    let tensor = |n: usize, e: Option<usize>| {
        f16_recipe(
            n,
            Tuning {
                tensor_cores: Some(true),
                elements_per_thread: e,
                ..Default::default()
            },
        )
    };
    let pairs = |n: usize, on: bool| {
        f16_recipe(
            n,
            Tuning {
                tensor_cores: Some(true),
                tensor_pairs: Some(on),
                ..Default::default()
            },
        )
    };
    // (N, recipe, in one warp, stage pair)
    let cases = [
        (256, tensor(256, Some(8)), true, true),
        (256, tensor(256, Some(16)), true, true),
        (256, tensor(256, Some(32)), true, true),
        (512, tensor(512, None), true, true),
        (1024, tensor(1024, None), true, true),
        (1024, tensor(1024, Some(16)), false, true),
        (2048, tensor(2048, None), false, true),
        (4096, tensor(4096, None), false, true),
        (4096, pairs(4096, false), false, false),
        (8192, tensor(8192, None), false, true),
        (8192, pairs(8192, false), false, false),
        (16384, tensor(16384, None), false, true),
        (16384, pairs(16384, false), false, false),
    ];
    for (n, tc, warp, pair) in cases {
        assert!(tc.tensor_cores && tc.radices.iter().filter(|&&r| r == 16).count() >= 2);
        assert_eq!(tc.tensor_pair_warp(), warp, "N={n}: {tc}");
        assert_eq!(tc.tensor_pair, pair, "N={n}: {tc}");
        let cc = f16_recipe(n, f32_arithmetic());
        assert!(!cc.tensor_cores && !cc.half_arithmetic);
        let (e_tc, e_cc) = forward_errors(&tc, &cc, 2);
        assert!(
            e_tc < 4.0 * e_cc && e_tc < 1e-3,
            "N={n}: tensor cores {e_tc:.2e}, CUDA cores {e_cc:.2e}"
        );
    }
}

#[test]
fn tensor_cores_are_refused_where_they_cannot_run() {
    let on = PlanOptions::tuned(Tuning {
        tensor_cores: Some(true),
        ..Default::default()
    });
    for (n, p) in [
        (4096, Precision::F32),
        (128, Precision::F16),
        (128, Precision::F32Split),
        (1024, Precision::F64),
    ] {
        assert!(
            matches!(
                plan_c2c_recipe(&Shape::new([n]), p, &on),
                Err(tensorfft::Error::Unsupported { .. })
            ),
            "{p:?} N={n}"
        );
    }
}

#[test]
fn c2c_f16_half_arithmetic_matches_oracle() {
    for e in [None, Some(4), Some(8), Some(16)] {
        sweep::<Complex<f16>>(Tuning {
            half_arithmetic: Some(true),
            elements_per_thread: e,
            ..Default::default()
        });
    }
}

#[test]
fn half_arithmetic_is_emulated_in_f16_and_stays_in_the_f16_class() {
    // The reference must really round every operation to f16: its error exceeds that of the
    // f32-arithmetic recipe, yet stays near f16's unit roundoff (cuFFT's F16 errors are 1-2e-3 on
    // this data, bench/results).
    for n in [256, 1024, 4096, 16384] {
        let h2 = f16_recipe(
            n,
            Tuning {
                half_arithmetic: Some(true),
                ..Default::default()
            },
        );
        assert!(h2.half_arithmetic && h2.elements_per_thread == 32);
        let f32_arith = f16_recipe(n, f32_arithmetic());
        assert!(!f32_arith.half_arithmetic);
        let (e_h2, e_f32) = forward_errors(&h2, &f32_arith, 4);
        assert!(
            e_h2 > 1.3 * e_f32 && e_h2 < 2e-3,
            "N={n}: half arithmetic {e_h2:.2e}, f32 arithmetic {e_f32:.2e}"
        );
    }
}

#[test]
fn c2c_bf16_half_arithmetic_matches_oracle() {
    for e in [None, Some(4), Some(8), Some(16)] {
        sweep::<Complex<half::bf16>>(Tuning {
            half_arithmetic: Some(true),
            elements_per_thread: e,
            ..Default::default()
        });
    }
}

#[test]
fn bf16_half_arithmetic_is_emulated_in_bf16_and_stays_in_the_bf16_class() {
    // Packed bf16x2 arithmetic (the default from N = 128) rounds every operation to bf16 (8
    // significant bits): its error exceeds that of f32 arithmetic (bf16 only in storage), yet
    // stays within a few units of bf16's roundoff (3.9e-3).
    let bf16_recipe = |n: usize, half_arithmetic: Option<bool>| {
        let t = Tuning {
            half_arithmetic,
            ..Default::default()
        };
        plan_c2c_recipe(&Shape::new([n]), Precision::BF16, &PlanOptions::tuned(t)).unwrap()
    };
    for n in [256, 1024, 4096, 16384] {
        let packed = bf16_recipe(n, None);
        let f32_arith = bf16_recipe(n, Some(false));
        assert!(packed.half_arithmetic && packed.exchange == ExchangeFormat::BF16);
        assert!(!f32_arith.half_arithmetic);
        let x: Vec<Complex<half::bf16>> = random(n * 4);
        let want = oracle_c2c_batched(&widen(&x), n, Direction::Forward, Normalization::None);
        let err = |r: &Recipe| {
            let y = execute(r, Direction::Forward, Normalization::None, &x).unwrap();
            relative_l2(&widen(&y), &want)
        };
        let (e_packed, e_f32) = (err(&packed), err(&f32_arith));
        println!("N={n}: bf16x2 arithmetic {e_packed:.2e}, f32 arithmetic {e_f32:.2e}");
        assert!(
            e_packed > 1.3 * e_f32 && e_packed < 1.6e-2,
            "N={n}: bf16x2 arithmetic {e_packed:.2e}, f32 arithmetic {e_f32:.2e}"
        );
    }
}

#[test]
fn c2c_bf16_tensor_core_stages_match_oracle() {
    // bf16 products (mma.sync .bf16) on F16's kernels: the one-warp pairs (256 … 1024), the
    // pair before Stockham stages (2048 … 16384), and the per-stage kernel.
    for (pairs, e) in [(None, None), (Some(false), Some(16))] {
        sweep::<Complex<half::bf16>>(Tuning {
            tensor_cores: Some(true),
            tensor_pairs: pairs,
            elements_per_thread: e,
            ..Default::default()
        });
    }
}

#[test]
fn bf16_tensor_cores_sit_between_f32_and_bf16x2_arithmetic() {
    // The tensor-core stages round their samples and the DFT matrix to bf16 once per radix-16
    // stage and accumulate in f32: more error than f32 arithmetic (bf16 only in storage), less
    // than packed bf16x2 arithmetic (every operation rounded to bf16).
    let bf16_recipe = |n: usize, t: Tuning| {
        plan_c2c_recipe(&Shape::new([n]), Precision::BF16, &PlanOptions::tuned(t)).unwrap()
    };
    for n in [256, 1024, 4096] {
        let tensor = bf16_recipe(
            n,
            Tuning {
                tensor_cores: Some(true),
                ..Default::default()
            },
        );
        let packed = bf16_recipe(n, Tuning::default());
        let f32_arith = bf16_recipe(
            n,
            Tuning {
                half_arithmetic: Some(false),
                ..Default::default()
            },
        );
        assert!(tensor.tensor_cores && !tensor.half_arithmetic && packed.half_arithmetic);
        let x: Vec<Complex<half::bf16>> = random(n * 4);
        let want = oracle_c2c_batched(&widen(&x), n, Direction::Forward, Normalization::None);
        let err = |r: &Recipe| {
            let y = execute(r, Direction::Forward, Normalization::None, &x).unwrap();
            relative_l2(&widen(&y), &want)
        };
        let (e_tc, e_packed, e_f32) = (err(&tensor), err(&packed), err(&f32_arith));
        println!("N={n}: tensor cores {e_tc:.2e}, bf16x2 {e_packed:.2e}, f32 {e_f32:.2e}");
        assert!(
            e_tc > e_f32 && e_tc < e_packed,
            "N={n}: tensor cores {e_tc:.2e}, bf16x2 {e_packed:.2e}, f32 {e_f32:.2e}"
        );
    }
}

#[test]
fn half_arithmetic_is_refused_where_it_cannot_run() {
    let refused = |p: Precision, n: usize, tuning: Tuning| {
        let t = Tuning {
            half_arithmetic: Some(true),
            ..tuning
        };
        matches!(
            plan_c2c_recipe(&Shape::new([n]), p, &PlanOptions::tuned(t)),
            Err(tensorfft::Error::Unsupported { .. })
        )
    };
    assert!(refused(Precision::F32, 4096, Tuning::default()));
    assert!(refused(Precision::F64, 1024, Tuning::default()));
    assert!(refused(Precision::F16, 2, Tuning::default()));
    assert!(refused(
        Precision::F16,
        4096,
        Tuning {
            tensor_cores: Some(true),
            ..Default::default()
        }
    ));
    assert!(refused(
        Precision::F16,
        4096,
        Tuning {
            io: Some(tensorfft::IoMode::Staged),
            ..Default::default()
        }
    ));
    assert!(refused(
        Precision::F16,
        4096,
        Tuning {
            exchange: Some(ExchangeFormat::F32),
            ..Default::default()
        }
    ));
}

#[test]
fn c2c_radix_32_stages_match_oracle() {
    let tuning = Tuning {
        elements_per_thread: Some(32),
        max_radix: Some(32),
        ..Default::default()
    };
    let r = plan_c2c_recipe(
        &Shape::new([8192]),
        Precision::F32,
        &PlanOptions::tuned(tuning),
    )
    .unwrap();
    assert_eq!(r.radices, vec![16, 32, 16]);
    sweep::<Complex<f32>>(tuning);
    sweep::<Complex<f64>>(tuning);
    sweep::<Complex<f16>>(Tuning {
        half_arithmetic: Some(false),
        ..tuning
    });
}

#[test]
fn c2c_derived_twiddles_match_oracle_and_cost_little_accuracy() {
    let derived = Tuning {
        derived_twiddles: Some(true),
        ..Default::default()
    };
    sweep::<Complex<f32>>(derived);
    sweep::<Complex<f64>>(derived);
    sweep::<Complex<f16>>(Tuning {
        half_arithmetic: Some(false),
        ..derived
    });
    // At f32 8192 the products really replace table values (the error changes) and cost less
    // than a factor 2 in error.
    let shape = Shape::new([8192]).batch(2);
    let x: Vec<Complex<f32>> = random(8192 * 2);
    let want = oracle_c2c_batched(&widen(&x), 8192, Direction::Forward, Normalization::None);
    let err = |tuning: Tuning| {
        let r = plan_c2c_recipe(&shape, Precision::F32, &PlanOptions::tuned(tuning)).unwrap();
        let got = execute(&r, Direction::Forward, Normalization::None, &x).unwrap();
        relative_l2(&widen(&got), &want)
    };
    let table_only = Tuning {
        derived_twiddles: Some(false),
        ..Default::default()
    };
    let (table, products) = (err(table_only), err(derived));
    assert!(
        products != table && products < 2.0 * table,
        "derived {products:e}, table {table:e}"
    );
    // Packed half arithmetic derives its twiddles as f16x2 products (every length, against the
    // oracle within the recipe's bound, which counts the extra roundings); at 8192 the products
    // replace table values and cost less than a factor 1.25 in error (1.06-1.08 measured) on
    // the same input.
    sweep::<Complex<f16>>(Tuning {
        half_arithmetic: Some(true),
        ..derived
    });
    let xh: Vec<Complex<f16>> = random(8192 * 2);
    let want = oracle_c2c_batched(&widen(&xh), 8192, Direction::Forward, Normalization::None);
    let half = |derived_twiddles| {
        let r = plan_c2c_recipe(
            &shape,
            Precision::F16,
            &PlanOptions::tuned(Tuning {
                derived_twiddles: Some(derived_twiddles),
                ..Default::default()
            }),
        )
        .unwrap();
        assert!(r.half_arithmetic);
        let got = execute(&r, Direction::Forward, Normalization::None, &xh).unwrap();
        relative_l2(&widen(&got), &want)
    };
    let (table, products) = (half(false), half(true));
    assert!(
        products != table && products < 1.25 * table,
        "f16 derived {products:e}, table {table:e}"
    );
    // Computed twiddles have no table rows to derive from.
    let r = plan_c2c_recipe(
        &Shape::new([1024]),
        Precision::F16,
        &PlanOptions::tuned(Tuning {
            twiddles: Some(TwiddleSource::Computed),
            ..derived
        }),
    );
    assert!(matches!(r, Err(tensorfft::Error::Unsupported { .. })));
}

/// The warp-shuffle kernel's recipes (`Tuning::warp_shuffles`) on the CPU: every length it takes
/// (4 … 1024) in each precision it runs, with the default lanes and with every other count of
/// values per lane, against the oracle, normalized modes included.
fn warp_shuffle_sweep<T: Element>() {
    let mut checked = 0;
    for n in (2..=10).map(|b| 1usize << b) {
        for e in [None, Some(2), Some(4), Some(8), Some(16), Some(32)] {
            let opts = PlanOptions::tuned(Tuning {
                warp_shuffles: Some(true),
                elements_per_thread: e,
                ..Default::default()
            });
            let lanes = e.map(|e| n / e.min(n));
            let recipe = match plan_c2c_recipe(&Shape::new([n]), T::PRECISION, &opts) {
                Ok(r) => r,
                // E values on L = N/E lanes: L must be 2 … 32.
                Err(tensorfft::Error::Unsupported { .. })
                    if lanes.is_some_and(|l| !(2..=32).contains(&l)) =>
                {
                    continue
                }
                Err(err) => panic!("N={n} E={e:?}: {err}"),
            };
            assert!(
                tensorfft::plan::warp_shuffles::is_consistent(&recipe),
                "{recipe}"
            );
            check_recipe::<T>(&recipe, 3);
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} warp-shuffle recipes");
}

#[test]
fn c2c_warp_shuffles_match_oracle() {
    warp_shuffle_sweep::<Complex<f32>>();
    warp_shuffle_sweep::<Complex<f64>>();
    warp_shuffle_sweep::<Complex<f16>>();
    warp_shuffle_sweep::<Complex<half::bf16>>();
}

#[test]
fn warp_shuffles_are_refused_where_they_cannot_run() {
    let shuffles = |t: Tuning| {
        PlanOptions::tuned(Tuning {
            warp_shuffles: Some(true),
            ..t
        })
    };
    let plan =
        |n: usize, p: Precision, t: Tuning| plan_c2c_recipe(&Shape::new([n]), p, &shuffles(t));
    let refused = |r: tensorfft::Result<_>| matches!(r, Err(tensorfft::Error::Unsupported { .. }));
    assert!(refused(plan(2, Precision::F32, Tuning::default())));
    assert!(refused(plan(2048, Precision::F32, Tuning::default())));
    assert!(refused(plan(256, Precision::F32Split, Tuning::default())));
    let staged = Tuning {
        io: Some(tensorfft::IoMode::Staged),
        ..Default::default()
    };
    assert!(refused(plan(256, Precision::F32, staged)));
    let half = Tuning {
        half_arithmetic: Some(true),
        ..Default::default()
    };
    assert!(refused(plan(256, Precision::F16, half)));
    let sincos = Tuning {
        twiddles: Some(TwiddleSource::Computed),
        ..Default::default()
    };
    assert!(refused(plan(256, Precision::F32, sincos)));
    let f64_exchange = Tuning {
        exchange: Some(tensorfft::ExchangeFormat::F64),
        ..Default::default()
    };
    assert!(refused(plan(256, Precision::F32, f64_exchange)));
    assert!(plan(256, Precision::F64, f64_exchange).is_ok());
    let ahead = Tuning {
        twiddles_ahead: Some(true),
        ..Default::default()
    };
    assert!(refused(plan(256, Precision::F32, ahead)));
    // A largest radix caps the values per lane: the default lowers them, an explicit count
    // above it is refused.
    let radix4 = Tuning {
        max_radix: Some(4),
        ..Default::default()
    };
    assert_eq!(
        plan(64, Precision::F16, radix4)
            .map(|r| r.elements_per_thread)
            .ok(),
        Some(4)
    );
    let e8 = Tuning {
        elements_per_thread: Some(8),
        ..radix4
    };
    assert!(refused(plan(64, Precision::F16, e8)));
    // 64 lanes per transform: more than a warp.
    let e2 = Tuning {
        elements_per_thread: Some(2),
        ..Default::default()
    };
    assert!(refused(plan(128, Precision::F32, e2)));
    // 8 lanes x 3 transforms: not whole warps.
    let odd = Tuning {
        transforms_per_block: Some(3),
        ..Default::default()
    };
    assert!(matches!(
        plan(64, Precision::F16, odd),
        Err(tensorfft::Error::DeviceLimit(_))
    ));
}

/// i conj(x): real and imaginary parts trade places.
fn swap_parts(x: &[Complex<f16>]) -> Vec<Complex<f16>> {
    x.iter().map(|z| Complex::new(z.im, z.re)).collect()
}

#[test]
fn packed_half_inverse_is_the_forward_with_parts_swapped() {
    // stockham_paired_half.cuh computes the inverse as swap(DFT(swap(x))), swap(x) = i conj(x),
    // so that both directions run the same instructions. With every operation rounded on its
    // own (as the reference rounds), the swapped forward performs the inverse's operations on
    // the same operands up to sign, so the identity holds bit for bit; the per-stage scaling of
    // a normalized inverse is the forward's of the matching mode. This checks the reference
    // only (the GPU kernel is checked against the oracle by `tfft check --direction inverse`).
    let modes = [
        (Normalization::None, Normalization::None),
        (Normalization::InverseByN, Normalization::ForwardByN),
        (Normalization::Ortho, Normalization::Ortho),
    ];
    for n in [256, 1024, 4096, 8192, 16384, 32768] {
        let r = plan_c2c_recipe(
            &Shape::new([n]).batch(2),
            Precision::F16,
            &PlanOptions::default(),
        )
        .unwrap();
        assert!(r.half_arithmetic, "{r}");
        let x: Vec<Complex<f16>> = random(2 * n);
        for (inverse_mode, forward_mode) in modes {
            let inverse = execute(&r, Direction::Inverse, inverse_mode, &x).unwrap();
            let forward = execute(&r, Direction::Forward, forward_mode, &swap_parts(&x)).unwrap();
            let bits = |v: &[Complex<f16>]| -> Vec<(u16, u16)> {
                v.iter().map(|z| (z.re.to_bits(), z.im.to_bits())).collect()
            };
            assert!(
                bits(&swap_parts(&forward)) == bits(&inverse),
                "n = {n}, {inverse_mode:?}"
            );
        }
    }
}

/// The last stage's runs of neighbouring butterflies take their twiddles as the run's first
/// one's times a constant root (`Recipe::last_stage_run_width`) where the single-pass kernel
/// does: direct f32 and f16-on-f32 plans of two or more stages, not staged, F32Split, f64 or
/// packed-half ones; the error bound counts the extra roundings, and those recipes match the
/// oracle in both directions (the sweeps above run every length's default).
#[test]
fn last_stage_runs_take_constant_roots_where_the_kernel_does() {
    let plan = |n: usize, p: Precision, t: Tuning| {
        plan_c2c_recipe(&Shape::new([n]), p, &PlanOptions::tuned(t)).unwrap()
    };
    for n in [64, 1024, 8192, 16384] {
        let r = plan(n, Precision::F32, Tuning::default());
        assert_eq!(r.last_stage_run_width(), Some(r.vector_width), "{r}");
        check_recipe::<Complex<f32>>(&r, 3);
    }
    let f16_small = plan(64, Precision::F16, Tuning::default());
    assert!(f16_small.last_stage_run_width().is_some(), "{f16_small}");
    check_recipe::<Complex<f16>>(&f16_small, 5);
    let staged = Tuning {
        io: Some(tensorfft::IoMode::Staged),
        ..Default::default()
    };
    assert_eq!(
        plan(8192, Precision::F32, staged).last_stage_run_width(),
        None
    );
    assert_eq!(
        plan(4096, Precision::F64, Tuning::default()).last_stage_run_width(),
        None
    );
    assert_eq!(
        plan(8192, Precision::F32Split, Tuning::default()).last_stage_run_width(),
        None
    );
    let half = plan(4096, Precision::F16, Tuning::default());
    assert!(
        half.half_arithmetic && half.last_stage_run_width().is_none(),
        "{half}"
    );
}
