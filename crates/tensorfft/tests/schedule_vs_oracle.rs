//! Multi-pass schedules (long 1D, 2D, 3D) run by the CPU reference executor, pass by pass as the
//! GPU runs them, against the f64 oracle on fresh random data: forward, inverse, normalized round
//! trip, in place and out of place.

mod common;
use common::{random, widen};

use half::f16;
use num_complex::Complex;
use tensorfft::cpu::oracle::{oracle_c2c_nd, relative_l2};
use tensorfft::cpu::reference::execute_schedule;
use tensorfft::plan::schedule::PassKernel;
use tensorfft::{
    plan_c2c_schedule, Direction, Element, Layout, Normalization, PlanOptions, Precision, Schedule,
    Shape, Strides, Tuning,
};

/// The n-D DFT of every transform of a batch (the library's f64 oracle, transform by transform).
fn oracle_nd(x: &[Complex<f64>], dims: &[usize], dir: Direction) -> Vec<Complex<f64>> {
    let total: usize = dims.iter().product();
    x.chunks(total)
        .flat_map(|t| oracle_c2c_nd(t, dims, dir, Normalization::None))
        .collect()
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
    // The scaled forward and the unitary modes, every pass scaling its stages.
    for (norm, dir) in [
        (Normalization::ForwardByN, Direction::Forward),
        (Normalization::Ortho, Direction::Inverse),
    ] {
        let opts = PlanOptions {
            normalization: norm,
            tuning,
            ..Default::default()
        };
        let so = plan_c2c_schedule(&shape, T::PRECISION, &opts).unwrap();
        let y = execute_schedule(&so, dir, &x, false).unwrap();
        let total: usize = dims.iter().product();
        let want: Vec<Complex<f64>> = xw
            .chunks(total)
            .flat_map(|t| oracle_c2c_nd(t, dims, dir, norm))
            .collect();
        let err = relative_l2(&widen(&y), &want);
        assert!(
            err <= bound,
            "{so}\n{dir:?} {norm:?}: error {err:.3e} > bound {bound:.3e}"
        );
    }
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
            cluster_blocks: Some(0),
            ..Default::default()
        };
        let s = check_schedule::<Complex<f32>>(&[n], 3, tuning);
        assert_eq!(s.passes.len(), passes, "{s}");
        assert_eq!(strided_passes(&s), passes);
        check_schedule::<Complex<f64>>(&[n], 2, tuning);
        check_schedule::<Complex<f16>>(&[n], 2, tuning);
        check_schedule::<Complex<half::bf16>>(&[n], 2, tuning);
    }
}

#[test]
fn long_1d_default_plan() {
    // 2^15: two Stockham passes fused on a cluster of 8 blocks; 2^16 two passes.
    let s = check_schedule::<Complex<f32>>(&[1 << 15], 1, Tuning::default());
    assert_eq!(s.passes.len(), 1, "{s}");
    assert!(matches!(&s.passes[0].kernel, PassKernel::Cluster(c) if c.cluster == 8));
    check_schedule::<Complex<f16>>(&[1 << 16], 1, Tuning::default());
    let s = check_schedule::<Complex<f32>>(&[1 << 18], 1, Tuning::default());
    assert_eq!(strided_passes(&s), 2, "{s}");
}

#[test]
fn passes_shortest_first() {
    // Uneven splits in both orders (longest first, the default but for long f64 axes, and
    // shortest first): 2^11 as 16 x 16 x 8 or 8 x 16 x 16, 2^13 as 128 x 64 or 64 x 128.
    for (n, max_pass) in [(1 << 11, 16), (1 << 13, 128)] {
        for shortest_pass_first in [false, true] {
            let tuning = Tuning {
                max_pass_len: Some(max_pass),
                cluster_blocks: Some(0),
                shortest_pass_first: Some(shortest_pass_first),
                ..Default::default()
            };
            let s = check_schedule::<Complex<f64>>(&[n], 2, tuning);
            let lens: Vec<usize> = s
                .passes
                .iter()
                .map(|p| match &p.kernel {
                    PassKernel::Strided(sp) => sp.len(),
                    _ => panic!("{s}"),
                })
                .collect();
            let mut sorted = lens.clone();
            sorted.sort_unstable();
            if !shortest_pass_first {
                sorted.reverse();
            }
            assert_eq!(lens, sorted, "{s}");
            assert_ne!(lens.first(), lens.last(), "{s}");
            check_schedule::<Complex<f32>>(&[n], 2, tuning);
            check_schedule::<Complex<f16>>(&[n], 2, tuning);
            check_schedule::<Complex<half::bf16>>(&[n], 2, tuning);
            // A strided (non-contiguous) axis of uneven passes: the columns of 2^11 x 8.
            check_schedule::<Complex<f64>>(&[n, 8], 1, tuning);
        }
    }
    // Shortest first on a cluster pass: f32 2^15 as 128 then 256 on one cluster.
    let tuning = Tuning {
        shortest_pass_first: Some(true),
        ..Default::default()
    };
    let s = check_schedule::<Complex<f32>>(&[1 << 15], 2, tuning);
    let PassKernel::Cluster(c) = &s.passes[0].kernel else {
        panic!("{s}")
    };
    assert!(c.first.len() < c.second.len(), "{s}");
}

#[test]
fn f64_twiddles_of_three_levels() {
    // The last pass of f64 2^21 reads its four-step twiddles (root 2^21) from a table of three
    // levels; the reference runs the kernel's products, checked here against the oracle.
    let n = 1 << 21;
    let shape = Shape::new([n]);
    let s = plan_c2c_schedule(&shape, Precision::F64, &PlanOptions::default()).unwrap();
    let PassKernel::Strided(last) = &s.passes.last().unwrap().kernel else {
        panic!("{s}")
    };
    assert_eq!(last.twiddle_levels(), 3, "{s}");
    let x: Vec<Complex<f64>> = random(n);
    let bound = s.error_bound();
    for dir in [Direction::Forward, Direction::Inverse] {
        let y = execute_schedule(&s, dir, &x, false).unwrap();
        let err = relative_l2(&y, &oracle_nd(&x, &[n], dir));
        assert!(
            err <= bound,
            "{s}\n{dir:?}: error {err:.3e} > bound {bound:.3e}"
        );
    }
}

/// The worst relative error of `s` on `x` over both directions, out of place.
fn worst_error<T: Element>(s: &Schedule, x: &[T], dims: &[usize]) -> f64 {
    let xw = widen(x);
    [Direction::Forward, Direction::Inverse]
        .into_iter()
        .map(|dir| {
            let y = execute_schedule(s, dir, x, false).unwrap();
            relative_l2(&widen(&y), &oracle_nd(&xw, dims, dir))
        })
        .fold(0.0, f64::max)
}

#[test]
fn f16_pairs_of_items() {
    pairs_of_items::<Complex<f16>>();
}

#[test]
fn bf16_pairs_of_items() {
    pairs_of_items::<Complex<half::bf16>>();
}

fn pairs_of_items<T: Element>() {
    // F16 (BF16) strided passes whose neighbouring items are neighbours in memory compute two
    // items per f16x2 (bf16x2) operation (every stage in the 16-bit format, scaled before its
    // DFT): within the schedule's bound in every direction and normalization, in place and out
    // of place, and within the 16-bit arithmetic's class of the f32-arithmetic passes' error
    // (4x: 16-bit operations and twiddles instead of f32 ones; measured 2.5x for f16 at 2^20
    // on the H200).
    let two_passes = Tuning {
        max_pass_len: Some(128),
        cluster_blocks: Some(0),
        ..Default::default()
    };
    for (dims, batch, tuning) in [
        (vec![1 << 14], 2, two_passes),
        (vec![32, 128], 3, Tuning::default()),
        (vec![8, 16, 64], 2, Tuning::default()),
    ] {
        let s = check_schedule::<T>(&dims, batch, tuning);
        let paired = s
            .passes
            .iter()
            .filter(|p| matches!(&p.kernel, PassKernel::Strided(sp) if sp.paired))
            .count();
        assert!(paired >= 1, "{s}");
        let unpaired = plan_c2c_schedule(
            &Shape::from_dims(&dims).batch(batch),
            T::PRECISION,
            &PlanOptions::tuned(Tuning {
                paired_items: Some(false),
                ..tuning
            }),
        )
        .unwrap();
        assert!(unpaired
            .passes
            .iter()
            .all(|p| !matches!(&p.kernel, PassKernel::Strided(sp) if sp.paired)));
        let x: Vec<T> = random(s.len());
        let (e_pairs, e_f32) = (
            worst_error(&s, &x, &dims),
            worst_error(&unpaired, &x, &dims),
        );
        assert!(
            e_pairs <= 4.0 * e_f32,
            "{s}\npairs {e_pairs:.3e} against f32 arithmetic {e_f32:.3e}"
        );
    }
    // f32 arithmetic asked for (`half_arithmetic: Some(false)`) and one-item tiles: no pairs.
    for tuning in [
        Tuning {
            half_arithmetic: Some(false),
            ..Default::default()
        },
        Tuning {
            items_per_tile: Some(1),
            ..Default::default()
        },
    ] {
        let s = check_schedule::<T>(&[64, 64], 1, tuning);
        assert!(
            s.passes
                .iter()
                .all(|p| !matches!(&p.kernel, PassKernel::Strided(sp) if sp.paired)),
            "{s}"
        );
    }
    // An odd number of interleaved columns has no pairs: f32 arithmetic, still right.
    let columns = Strides { stride: 5, dist: 1 };
    let s = plan_c2c_schedule(
        &Shape::new([4096]).batch(5),
        T::PRECISION,
        &PlanOptions {
            layout: Layout {
                input: Some(columns),
                output: Some(columns),
            },
            tuning: Tuning {
                max_pass_len: Some(64),
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .unwrap();
    assert!(s
        .passes
        .iter()
        .all(|p| !matches!(&p.kernel, PassKernel::Strided(sp) if sp.paired)));
}

#[test]
fn strided_passes_with_derived_twiddles() {
    // Strided passes whose stages read only the power-of-two rows of their twiddle tables.
    for (dims, max_pass) in [
        (vec![1 << 12], 64),
        (vec![1 << 12], 16),
        (vec![1 << 14], 128),
    ] {
        let tuning = Tuning {
            max_pass_len: Some(max_pass),
            derived_twiddles: Some(true),
            cluster_blocks: Some(0),
            ..Default::default()
        };
        let s = check_schedule::<Complex<f32>>(&dims, 3, tuning);
        assert!(
            s.passes.iter().any(|p| matches!(&p.kernel,
            PassKernel::Strided(sp) if sp.inner.derived_twiddles)),
            "{s}"
        );
        check_schedule::<Complex<f16>>(&dims, 2, tuning);
        check_schedule::<Complex<f64>>(&dims, 2, tuning);
    }
}

#[test]
fn cluster_passes() {
    // Pairs of Stockham passes fused on clusters of 2, 4 and 8 blocks (small pass lengths keep
    // the CPU reference fast), batched, 1D and the rows of a 2D transform.
    for (dims, max_pass, blocks) in [
        (vec![256], 16, 2),
        (vec![256], 16, 4),
        (vec![256], 16, 8),
        (vec![1 << 12], 64, 8),
        (vec![1 << 12], 128, 4),
        (vec![8, 256], 16, 4),
    ] {
        let tuning = Tuning {
            max_pass_len: Some(max_pass),
            cluster_blocks: Some(blocks),
            ..Default::default()
        };
        let s = check_schedule::<Complex<f32>>(&dims, 3, tuning);
        let PassKernel::Cluster(c) = &s.passes[0].kernel else {
            panic!("not fused: {s}")
        };
        assert_eq!(c.cluster, blocks, "{s}");
        assert!(c.is_consistent(), "{s}");
        check_schedule::<Complex<f16>>(&dims, 2, tuning);
        check_schedule::<Complex<f64>>(&dims, 2, tuning);
    }
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
        cluster_blocks: Some(0),
        ..Default::default()
    };
    let s = check_schedule::<Complex<f32>>(&[64, 16], 2, tuning);
    assert_eq!(s.passes.len(), 4, "{s}");
    // Column axes of 2048 and 4096 (f32, f16) are one strided pass of a few items per tile
    // (the tile within 128 KiB); other precisions and contiguous axes split them.
    for (dims, items) in [([2048, 4], 8), ([4096, 2], 4)] {
        let s = check_schedule::<Complex<f32>>(&dims, 1, Tuning::default());
        assert_eq!(s.passes.len(), 2, "{s}");
        let PassKernel::Strided(p) = &s.passes[1].kernel else {
            panic!("{s}")
        };
        assert_eq!((p.len(), p.items_per_tile), (dims[0], items), "{s}");
        assert!(p.shared_bytes() <= 140 * 1024, "{s}");
        let s = check_schedule::<Complex<f16>>(&dims, 1, Tuning::default());
        assert_eq!(s.passes.len(), 2, "{s}");
        let s = check_schedule::<Complex<f64>>(&dims, 1, Tuning::default());
        assert_eq!(s.passes.len(), 3, "{s}");
    }
    // The row axis of 2^15 runs on a cluster, the column axis as one strided pass.
    let s = check_schedule::<Complex<f32>>(&[4, 1 << 15], 1, Tuning::default());
    assert_eq!(s.passes.len(), 2, "{s}");
    assert!(matches!(s.passes[0].kernel, PassKernel::Cluster(_)), "{s}");
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

/// Positions of the elements of every transform in a layout, transform by transform.
fn positions(st: Strides, n: usize, batch: usize) -> Vec<usize> {
    (0..batch)
        .flat_map(|b| (0..n).map(move |i| b * st.dist + i * st.stride))
        .collect()
}

/// Runs a plan with `layout` on random data covering the whole input extent (gaps included)
/// and compares every transform with the oracle; elements outside the output layout must stay
/// unwritten (NaN in the reference executor's fresh output; the caller's values in place).
fn check_layout(dims: &[usize], batch: usize, layout: Layout, tuning: Tuning) -> Schedule {
    let n: usize = dims.iter().product();
    let opts = PlanOptions {
        layout,
        tuning,
        ..Default::default()
    };
    let s = plan_c2c_schedule(&Shape::from_dims(dims).batch(batch), Precision::F32, &opts).unwrap();
    let src = layout.input.unwrap_or(Strides::dense(n));
    let dst = layout.output.unwrap_or(Strides::dense(n));
    let x: Vec<Complex<f32>> = random(s.input_extent());
    let gathered: Vec<Complex<f64>> = positions(src, n, batch)
        .iter()
        .map(|&p| x[p].to_c64())
        .collect();
    let want = oracle_nd(&gathered, dims, Direction::Forward);
    let modes: &[bool] = if layout.input == layout.output {
        &[false, true]
    } else {
        &[false]
    };
    for &in_place in modes {
        let y = execute_schedule(&s, Direction::Forward, &x, in_place).unwrap();
        let out_pos = positions(dst, n, batch);
        let got: Vec<Complex<f64>> = out_pos.iter().map(|&p| y[p].to_c64()).collect();
        let err = relative_l2(&got, &want);
        assert!(
            err <= s.error_bound(),
            "{s}\nin_place={in_place}: error {err:.3e}"
        );
        let mut inside = vec![false; y.len()];
        out_pos.iter().for_each(|&p| inside[p] = true);
        for (p, v) in y.iter().enumerate() {
            let kept = if in_place {
                v.re.to_bits() == x[p].re.to_bits() && v.im.to_bits() == x[p].im.to_bits()
            } else {
                v.re.is_nan()
            };
            assert!(
                inside[p] || kept,
                "{s}\nin_place={in_place}: wrote outside the layout at {p}"
            );
        }
    }
    s
}

#[test]
fn strided_layouts() {
    // A transform along axis 0 of a 16 x 8 x 4 array, for each of its 32 columns, in place.
    let axis0 = Strides {
        stride: 32,
        dist: 1,
    };
    let both = Layout {
        input: Some(axis0),
        output: Some(axis0),
    };
    check_layout(&[16], 32, both, Tuning::default());
    // Columns of a row-major matrix (many columns, interleaved: the ZK layout), long enough for
    // three Stockham passes.
    let columns = Strides { stride: 4, dist: 1 };
    let tuning = Tuning {
        max_pass_len: Some(16),
        ..Default::default()
    };
    let s = check_layout(
        &[4096],
        4,
        Layout {
            input: Some(columns),
            output: Some(columns),
        },
        tuning,
    );
    assert_eq!(s.passes.len(), 3, "{s}");
    // Gapped layouts through three Stockham passes: the dense intermediates must not land in
    // the caller's gaps, out of place or in place.
    let gapped = Strides {
        stride: 2,
        dist: 2 * 4096 + 1,
    };
    let s = check_layout(
        &[4096],
        2,
        Layout {
            input: None,
            output: Some(gapped),
        },
        tuning,
    );
    assert_eq!(s.passes.len(), 3, "{s}");
    check_layout(
        &[4096],
        2,
        Layout {
            input: Some(gapped),
            output: Some(gapped),
        },
        tuning,
    );
    // Padded 2D transforms in, dense out; dense in, strided out with gaps.
    check_layout(
        &[8, 16],
        3,
        Layout {
            input: Some(Strides {
                stride: 1,
                dist: 8 * 16 + 5,
            }),
            output: None,
        },
        Tuning::default(),
    );
    check_layout(
        &[4, 8, 2],
        2,
        Layout {
            input: None,
            output: Some(Strides {
                stride: 3,
                dist: 3 * 64 + 7,
            }),
        },
        Tuning::default(),
    );
}

#[test]
fn layout_refusals_are_typed() {
    let overlapping = Layout {
        input: Some(Strides { stride: 2, dist: 3 }),
        output: None,
    };
    let opts = PlanOptions {
        layout: overlapping,
        ..Default::default()
    };
    let e = plan_c2c_schedule(&Shape::new([8]).batch(4), Precision::F32, &opts).unwrap_err();
    assert!(matches!(e, tensorfft::Error::Unsupported { .. }), "{e}");
    // In place needs one layout for input and output.
    let opts = PlanOptions {
        layout: Layout {
            input: Some(Strides {
                stride: 2,
                dist: 16,
            }),
            output: None,
        },
        ..Default::default()
    };
    let s = plan_c2c_schedule(&Shape::new([8]).batch(2), Precision::F32, &opts).unwrap();
    let x: Vec<Complex<f32>> = random(s.input_extent());
    let e = execute_schedule(&s, Direction::Forward, &x, true).unwrap_err();
    assert!(matches!(e, tensorfft::Error::Unsupported { .. }), "{e}");
}
