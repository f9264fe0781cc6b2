//! Compiles every kernel instantiation the planner can emit, for sm_90, with NVRTC — no GPU
//! needed (strided passes: one per family, the kernels that differ only in their baked-in
//! sample distances being the same code with other immediates). CI installs NVRTC from PyPI
//! and sets TFFT_REQUIRE_NVRTC=1 so this can never be skipped there; elsewhere a missing NVRTC
//! skips it with a loud message.

#[path = "support/every_core.rs"]
mod every_core;

use every_core::problems_on_every_core;
use tensorfft::gpu::{libraries, nvrtc};
use tensorfft::kernels::KernelSource;
use tensorfft::plan::planner::supported_lengths;
use tensorfft::plan::schedule::PassKernel;
use tensorfft::plan::schedule_planner::MAX_AXIS_LEN;
use tensorfft::Schedule;
use tensorfft::{
    plan_c2c_recipe, plan_c2c_schedule, Layout, Normalization, PlanOptions, Precision, Recipe,
    Shape, Strides, Tuning,
};

/// Default recipes for every supported length and precision, plus every tuning variant `tfft
/// bench --variants` times, and the default recipe under every normalization.
fn all_recipes() -> Vec<Recipe> {
    let mut out = Vec::new();
    for p in [
        Precision::F16,
        Precision::BF16,
        Precision::F32,
        Precision::F32Split,
        Precision::F64,
    ] {
        for n in supported_lengths(p) {
            let mut tunings = vec![Tuning::default()];
            // BF16's tensor-core kernels are F16's with bf16 operands: F16 compiles every
            // launch-shape variant of them, BF16 its default kernels and the per-stage one
            // (and, below, the normalized ones).
            let is_bf16 = p == Precision::BF16;
            tunings.extend(
                Tuning::sweep()
                    .into_iter()
                    .filter(|t| !(is_bf16 && t.tensor_cores == Some(true))),
            );
            if is_bf16 {
                for pairs in [None, Some(false)] {
                    tunings.push(Tuning {
                        tensor_cores: Some(true),
                        tensor_pairs: pairs,
                        ..Default::default()
                    });
                }
            }
            // And the multi-pass variants `tfft tune` times (their single passes of rows).
            tunings.extend(Tuning::pass_sweep());
            for tuning in tunings {
                let opts = PlanOptions::tuned(tuning);
                if let Ok(r) = plan_c2c_recipe(&Shape::new([n]), p, &opts) {
                    if !out.contains(&r) {
                        out.push(r);
                    }
                }
            }
            // Every normalization's stage scaling on the default recipe, and the scales of the
            // warp-shuffle kernel and of the tensor-core stages (F16 256: in one warp).
            let shuffles = Tuning {
                warp_shuffles: Some(true),
                ..Default::default()
            };
            let tensor = Tuning {
                tensor_cores: Some(true),
                ..Default::default()
            };
            for (normalization, tuning) in [
                (Normalization::InverseByN, Tuning::default()),
                (Normalization::ForwardByN, Tuning::default()),
                (Normalization::Ortho, Tuning::default()),
                (Normalization::ForwardByN, shuffles),
                (Normalization::Ortho, shuffles),
                (Normalization::ForwardByN, tensor),
                (Normalization::Ortho, tensor),
            ] {
                let opts = PlanOptions {
                    normalization,
                    tuning,
                    ..Default::default()
                };
                if let Ok(r) = plan_c2c_recipe(&Shape::new([n]), p, &opts) {
                    if !out.contains(&r) {
                        out.push(r);
                    }
                }
            }
        }
    }
    out
}

/// A strided or cluster kernel's name without its compile-time sample distances (the `smp…`
/// parts): kernels that differ only there are the same code with other immediate offsets.
fn family(stem: &str) -> String {
    stem.split('_')
        .filter(|part| !part.starts_with("smp"))
        .collect::<Vec<_>>()
        .join("_")
}

/// Adds `k` unless a kernel of its family is there.
fn push_family(out: &mut Vec<KernelSource>, k: KernelSource) {
    if !out.iter().any(|o| family(&o.stem) == family(&k.stem)) {
        out.push(k);
    }
}

/// The strided-pass and cluster kernels of `precision`'s schedule for `shape` with `opts`, one
/// per kernel family.
fn push_schedule_kernels(
    out: &mut Vec<KernelSource>,
    shape: &Shape,
    precision: Precision,
    opts: &PlanOptions,
) {
    let s = plan_c2c_schedule(shape, precision, opts)
        .unwrap_or_else(|e| panic!("{:?} {precision:?}: {e}", shape.dims()));
    push_pass_kernels(out, &s);
}

/// The strided-pass and cluster kernels of `s`, one per kernel family (single passes are
/// `all_recipes`' part).
fn push_pass_kernels(out: &mut Vec<KernelSource>, s: &Schedule) {
    for pass in &s.passes {
        if !matches!(pass.kernel, PassKernel::SinglePass { .. }) {
            push_family(out, KernelSource::pass(&pass.kernel));
        }
    }
}

/// The strided-pass and cluster kernels of every 1D length up to 2^28, every 2D shape with extents 2 … 8192
/// and a sample of 3D shapes, each with and without 1/N normalization; one per kernel family
/// (the item geometry is a run-time argument; the sample distances only change immediates).
fn all_strided_kernels() -> Vec<KernelSource> {
    let mut shapes: Vec<Vec<usize>> = Vec::new();
    let pow = |lo: u32, hi: u32| (lo..=hi).map(|b| 1usize << b).collect::<Vec<_>>();
    for n in pow(1, MAX_AXIS_LEN.trailing_zeros()) {
        shapes.push(vec![n]);
    }
    for ny in pow(1, 13) {
        for nx in [2, 64, 8192] {
            shapes.push(vec![ny, nx]);
        }
    }
    for n in pow(1, 9) {
        shapes.push(vec![n, n, n]);
        shapes.push(vec![n, 4, 2]);
    }
    // Strided layouts: columns (items fastest), padded transforms (both ends gathered).
    let layouts = [
        Layout::default(),
        Layout {
            input: Some(Strides { stride: 4, dist: 1 }),
            output: Some(Strides { stride: 4, dist: 1 }),
        },
        Layout {
            input: Some(Strides {
                stride: 1,
                dist: 1 << 29,
            }),
            output: None,
        },
    ];
    let mut out: Vec<KernelSource> = Vec::new();
    for p in [
        Precision::F16,
        Precision::BF16,
        Precision::F32,
        Precision::F64,
    ] {
        for (dims, layout) in shapes
            .iter()
            .flat_map(|d| layouts.iter().map(move |l| (d, *l)))
        {
            if !layout.is_dense() && dims.iter().product::<usize>() > 1 << 20 {
                continue;
            }
            for normalization in [Normalization::None, Normalization::InverseByN] {
                let opts = PlanOptions {
                    normalization,
                    layout,
                    ..Default::default()
                };
                let batch = if layout.is_dense() { 1 } else { 4 };
                push_schedule_kernels(&mut out, &Shape::from_dims(dims).batch(batch), p, &opts);
            }
        }
    }
    // The scaled forward and the unitary modes (stage scale 1/R in the forward kernels, 1/sqrt R
    // in both), and bf16 data: a sample of multi-pass shapes in every precision.
    for p in [
        Precision::F16,
        Precision::BF16,
        Precision::F32,
        Precision::F64,
    ] {
        for dims in [
            vec![1usize << 15],
            vec![1 << 20],
            vec![1 << 24],
            vec![1024, 1024],
            vec![64, 64, 64],
        ] {
            for normalization in [
                Normalization::None,
                Normalization::InverseByN,
                Normalization::ForwardByN,
                Normalization::Ortho,
            ] {
                let opts = PlanOptions {
                    normalization,
                    ..Default::default()
                };
                push_schedule_kernels(&mut out, &Shape::from_dims(&dims), p, &opts);
            }
        }
    }
    // Strided passes with tensor-core stages: F16 (opt-in) and F32Split, every shape above with
    // the dense layout and the strided ones, unnormalized, 1/N, and unitary; and BF16 with the
    // tensor cores asked for, whose strided passes compute in f32 (unpaired).
    let tensor = Tuning {
        tensor_cores: Some(true),
        ..Default::default()
    };
    for (p, tuning) in [
        (Precision::F16, tensor),
        (Precision::BF16, tensor),
        (Precision::F32Split, Tuning::default()),
    ] {
        for (dims, layout) in shapes
            .iter()
            .flat_map(|d| layouts.iter().map(move |l| (d, *l)))
        {
            if !layout.is_dense() && dims.iter().product::<usize>() > 1 << 20 {
                continue;
            }
            for normalization in [
                Normalization::None,
                Normalization::InverseByN,
                Normalization::Ortho,
            ] {
                let opts = PlanOptions {
                    normalization,
                    layout,
                    tuning,
                    ..Default::default()
                };
                let batch = if layout.is_dense() { 1 } else { 4 };
                push_schedule_kernels(&mut out, &Shape::from_dims(dims).batch(batch), p, &opts);
            }
        }
    }
    // Strided passes with derived twiddles (opt-in).
    for p in [Precision::F16, Precision::F32, Precision::F64] {
        for n in [1usize << 16, 1 << 20, 1 << 24] {
            let opts = PlanOptions::tuned(Tuning {
                derived_twiddles: Some(true),
                cluster_blocks: Some(0),
                ..Default::default()
            });
            let s = plan_c2c_schedule(&Shape::new([n]), p, &opts)
                .unwrap_or_else(|e| panic!("{n} {p:?}: {e}"));
            for pass in &s.passes {
                if let PassKernel::Strided(sp) = &pass.kernel {
                    let k = KernelSource::strided_pass(sp);
                    push_family(&mut out, k);
                }
            }
        }
    }
    // The multi-pass variants `tfft tune` times (`Tuning::pass_sweep`) on a sample of shapes,
    // as `tfft tune` and a wisdom file would plan them (every variant of the tuned shapes of
    // `bench/results/2026-11-29-h200-tune/`; the kernel families are shared by precision).
    for p in [Precision::F16, Precision::F32, Precision::F64] {
        for dims in [vec![1usize << 20], vec![1024, 1024]] {
            for tuning in Tuning::pass_sweep() {
                let Ok(s) =
                    plan_c2c_schedule(&Shape::from_dims(&dims), p, &PlanOptions::tuned(tuning))
                else {
                    continue;
                };
                push_pass_kernels(&mut out, &s);
            }
        }
    }
    // Cluster passes off the default path: landing buffers (every element size), clusters of 2
    // and 4 blocks; each case must fuse.
    let cluster = |blocks, max_pass, prefetch| Tuning {
        cluster_blocks: Some(blocks),
        max_pass_len: max_pass,
        prefetch: Some(prefetch),
        ..Default::default()
    };
    for (p, n, tuning) in [
        (Precision::F16, 1 << 16, cluster(8, None, true)),
        (Precision::F32, 1 << 16, cluster(8, None, true)),
        (Precision::F32, 1 << 15, cluster(4, None, true)),
        (Precision::F64, 1 << 15, cluster(8, None, true)),
        (Precision::F64, 1 << 14, cluster(4, None, true)),
        (Precision::F16, 1 << 15, cluster(4, Some(256), true)),
        (Precision::F16, 1 << 14, cluster(2, Some(128), false)),
        (Precision::F32, 1 << 14, cluster(2, Some(128), false)),
        (Precision::F64, 1 << 14, cluster(2, Some(128), false)),
    ] {
        let s = plan_c2c_schedule(&Shape::new([n]), p, &PlanOptions::tuned(tuning))
            .unwrap_or_else(|e| panic!("{n} {p:?}: {e}"));
        let PassKernel::Cluster(cp) = &s.passes[0].kernel else {
            panic!("{n} {p:?} {tuning:?} did not fuse: {s}")
        };
        let k = KernelSource::cluster_pass(cp);
        push_family(&mut out, k);
    }
    out
}

/// Every NTT pass kernel of lengths 2 … 2^24 (u32) and 2 … 2^22 (u64, Goldilocks), every order
/// pair, cyclic and negacyclic, both directions, contiguous and interleaved columns (64 and
/// 100), tiles as planned and as spread on an H100 and an H200, their block-synchronous
/// baselines, and the kernels of passes 0 and 1 fused on clusters; one per kernel name.
fn all_ntt_kernels() -> Vec<KernelSource> {
    use tensorfft::kernels::ntt_source::NttKernelSource;
    use tensorfft::ntt::cluster_fusion::fuse_on_cluster;
    use tensorfft::ntt::schedule::{plan_ntt_schedule_with, NttScheduleOptions};
    use tensorfft::ntt::{NttBatch, NttKind, Order, BABY_BEAR, FHE_62, GOLDILOCKS};
    use tensorfft::Direction;
    let orders = [Order::Natural, Order::BitReversed];
    let mut batches = Vec::new();
    // A 32-bit prime (u32 words above 2^31: `Shoup32Full`) on a sample of the u32 geometries.
    let p32 = tensorfft::ntt::PRIME_32;

    for (p, word, max_log) in [
        // 2^25: rows of 2^14 (two passes).
        (BABY_BEAR, 4, 25),
        (p32, 4, 20),
        (FHE_62, 8, 18),
        (GOLDILOCKS, 8, 22),
    ] {
        for log_n in 1..=max_log {
            if p == p32 && ![3, 8, 11, 12, 13, 16, 20].contains(&log_n) {
                continue;
            }
            for kind in [NttKind::Cyclic, NttKind::Negacyclic] {
                for (a, b) in orders
                    .iter()
                    .flat_map(|&a| orders.iter().map(move |&b| (a, b)))
                {
                    let Ok(batch) = NttBatch::limbs(&[p], 1 << log_n, kind) else {
                        continue;
                    };
                    let batch = batch.with_orders(a, b);
                    if log_n >= 8 {
                        batches.push((batch.clone().batch(64).interleaved(true), word));
                        batches.push((batch.clone().batch(100).interleaved(true), word));
                    }
                    batches.push((batch, word));
                }
            }
        }
    }
    let mut out: Vec<KernelSource> = Vec::new();
    for (batch, word) in &batches {
        for dir in [Direction::Forward, Direction::Inverse] {
            // The plain schedule, the GPU plans' tiles on 114 and 132 multiprocessors (two per
            // multiprocessor, rows eight), the same without the row rule, 2^11 columns
            // (`NttPlanOptions::max_column_len`) and rows of up to 2^14 in either order
            // (`NttPlanOptions::max_row_len`).
            for (min_tiles, min_row_tiles, max_column_len, max_row_len) in [
                (0, 0, None, None),
                (228, 912, None, None),
                (264, 1056, None, None),
                (228, 0, None, None),
                (264, 0, Some(2048), None),
                (264, 1056, None, Some(16384)),
            ] {
                let o = NttScheduleOptions {
                    min_tiles,
                    min_row_tiles,
                    max_column_len,
                    max_row_len,
                    ..Default::default()
                };
                let s = plan_ntt_schedule_with(batch, *word, dir, &o).unwrap();
                // Warp-shuffle butterflies (`NttPlanOptions::warp_shuffles`: everywhere, or
                // nowhere, not even in the planner's rows of 128 … 512) change only direct row
                // passes, whose kernels min_tiles 0 already covers.
                let shuffled = (min_tiles == 0)
                    .then(|| [s.clone().warp_shuffles(), s.clone().without_warp_shuffles()])
                    .into_iter()
                    .flatten();
                // Passes 0 and 1 fused on clusters of 2, 4, 8 and 16 blocks, where they fuse (the
                // fused passes do not depend on min_tiles), with either warp-shuffle choice.
                let fused = (min_tiles == 0)
                    .then(|| [2, 4, 8, 16].map(|c| fuse_on_cluster(&s, c)))
                    .into_iter()
                    .flatten()
                    .flatten()
                    .flat_map(|f| {
                        [
                            f.clone().warp_shuffles(),
                            f.clone().without_warp_shuffles(),
                            f,
                        ]
                    });
                // The GPU plans' baseline and `staged_reversed_input`: passes of bit-reversed
                // input staged instead of in time (on the GPU plans' tiles).
                let staged = (min_tiles > 0 && max_column_len.is_none() && max_row_len.is_none())
                    .then(|| {
                        let o = NttScheduleOptions {
                            staged_reversed_input: true,
                            ..o
                        };
                        let t = plan_ntt_schedule_with(batch, *word, dir, &o).unwrap();
                        [t.clone(), t.block_synchronous()]
                    })
                    .into_iter()
                    .flatten();
                let passes = [s.clone(), s.block_synchronous()]
                    .into_iter()
                    .chain(shuffled)
                    .chain(staged)
                    .flat_map(|sched| {
                        (0..sched.passes.len())
                            .map(|i| NttKernelSource::pass(&sched, i))
                            .collect::<Vec<_>>()
                    });
                for k in fused.map(|f| NttKernelSource::fused(&f)).chain(passes) {
                    if !out.iter().any(|o| o.stem == k.entry) {
                        out.push(KernelSource {
                            source: k.source,
                            stem: k.entry,
                            threads_per_block: k.threads,
                            shared_bytes: k.shared_bytes,
                        });
                    }
                }
            }
        }
    }
    out.extend(pointwise_kernels());
    out.extend(factor_kernels());
    out
}

/// First kernels with a factor on their inputs (`InputFactor` in `ntt_pass.cuh`,
/// `GpuNttPlan::execute_product_into`): every reduction, direct passes in frequency and in
/// time, staged passes (natural to natural), the GPU plans' tiles and passes fused on clusters.
fn factor_kernels() -> Vec<KernelSource> {
    use tensorfft::kernels::ntt_source::NttKernelSource;
    use tensorfft::ntt::cluster_fusion::fuse_on_cluster;
    use tensorfft::ntt::pointwise::limb_products;
    use tensorfft::ntt::schedule::{plan_ntt_schedule_with, NttScheduleOptions};
    use tensorfft::ntt::{NttBatch, NttKind, Order, BABY_BEAR, FHE_62, GOLDILOCKS, PRIME_32};
    use tensorfft::Direction;
    let (nat, rev) = (Order::Natural, Order::BitReversed);
    let mut out: Vec<KernelSource> = Vec::new();
    for (p, word, logs) in [
        (BABY_BEAR, 4, &[4u32, 10, 14, 16, 22][..]),
        (PRIME_32, 4, &[10, 16][..]),
        (FHE_62, 8, &[10, 16][..]),
        (GOLDILOCKS, 8, &[10, 14, 16, 22][..]),
    ] {
        for &log_n in logs {
            for (kind, (a, b)) in [
                (NttKind::Cyclic, (nat, rev)),
                (NttKind::Negacyclic, (nat, rev)),
                (NttKind::Cyclic, (nat, nat)),
            ] {
                let batch = NttBatch::limbs(&[p], 1 << log_n, kind)
                    .unwrap()
                    .with_orders(a, b);
                let product = limb_products(&batch, word).unwrap()[0];
                for dir in [Direction::Forward, Direction::Inverse] {
                    let o = NttScheduleOptions {
                        min_tiles: 264,
                        min_row_tiles: 1056,
                        ..Default::default()
                    };
                    let s = plan_ntt_schedule_with(&batch, word, dir, &o).unwrap();
                    let fused = [4, 8].map(|c| fuse_on_cluster(&s, c));
                    for sched in std::iter::once(s.clone()).chain(fused.into_iter().flatten()) {
                        let k = NttKernelSource::first_times_factor(&sched, product);
                        if !out.iter().any(|o| o.stem == k.entry) {
                            out.push(KernelSource {
                                source: k.source,
                                stem: k.entry,
                                threads_per_block: k.threads,
                                shared_bytes: k.shared_bytes,
                            });
                        }
                    }
                }
            }
        }
    }
    for kind in [
        "_fmontgomeryproduct32",
        "_fbarrettproduct32",
        "_fmontgomeryproduct64",
        "_fgoldilocksproduct",
    ] {
        assert!(
            out.iter().any(|k| k.stem.ends_with(kind)),
            "no {kind} kernel"
        );
    }
    assert!(out.iter().any(|k| k.stem.starts_with("ntt_cluster")));
    out
}

/// The pointwise-product kernels (`ntt_pointwise.cuh`): every reduction (Montgomery with R = 2^32
/// in u32 words where every limb is below 2^31, Barrett in u32 words with a limb above, Montgomery
/// in u64 words for 62-bit and 32-bit primes, Goldilocks), one and several limbs, contiguous and
/// interleaved batches, 16- and 8-byte accesses.
fn pointwise_kernels() -> Vec<KernelSource> {
    use tensorfft::kernels::ntt_pointwise_source::{NttPointwiseSource, POINTWISE_THREADS};
    use tensorfft::ntt::{NttBatch, NttKind, BABY_BEAR, FHE_62, GOLDILOCKS, KOALA_BEAR, PRIME_32};
    let mut out: Vec<KernelSource> = Vec::new();
    let cases: [(&[u64], usize); 6] = [
        (&[BABY_BEAR], 4),
        (&[BABY_BEAR, KOALA_BEAR, PRIME_32], 4),
        (&[PRIME_32], 4),
        (&[FHE_62], 8),
        (&[BABY_BEAR, FHE_62], 8),
        (&[GOLDILOCKS], 8),
    ];
    for (moduli, word) in cases {
        for (n, batch) in [(1 << 10, 1), (2, 1), (2, 3)] {
            for interleaved in [false, true] {
                let b = NttBatch::limbs(moduli, n, NttKind::Cyclic)
                    .unwrap()
                    .batch(batch)
                    .interleaved(interleaved);
                let k = NttPointwiseSource::new(&b, word).unwrap();
                if !out.iter().any(|o| o.stem == k.entry) {
                    out.push(KernelSource {
                        source: k.source,
                        stem: k.entry,
                        threads_per_block: POINTWISE_THREADS,
                        shared_bytes: 0,
                    });
                }
            }
        }
    }
    assert!(
        out.iter().any(|k| k.stem.ends_with("_v2")) && out.iter().any(|k| k.stem.ends_with("_v4"))
    );
    for product in [
        "MontgomeryProduct32",
        "BarrettProduct32",
        "MontgomeryProduct64",
        "GoldilocksProduct",
    ] {
        assert!(
            out.iter().any(|k| k.stem.contains(product)),
            "no {product} kernel"
        );
    }
    out
}

/// Whether NVRTC is there to compile with; without it the test is skipped (with a note), and
/// fails when `TFFT_REQUIRE_NVRTC=1` (CI installs NVRTC from PyPI and sets it).
fn nvrtc_or_skip() -> bool {
    if libraries::nvrtc_present() {
        return true;
    }
    eprintln!(
        "\n*** SKIPPED: NVRTC (libnvrtc.so.13) not found; kernel templates were NOT compiled. ***"
    );
    eprintln!("*** Install it with `pip install nvidia-cuda-nvrtc==13.0.88` and add its lib dir to LD_LIBRARY_PATH. ***\n");
    let required = std::env::var("TFFT_REQUIRE_NVRTC").is_ok_and(|v| v == "1");
    assert!(!required, "TFFT_REQUIRE_NVRTC=1 but NVRTC is missing");
    false
}

/// BF16's packed bf16x2 kernels before sm_90 (the library compiles for the device's
/// architecture, sm_80 and newer for bf16x2): `add/sub/mul.bf16x2` are sm_90 instructions, so
/// sm_80 takes the `fma.rn.bf16x2` forms (half2_arithmetic.cuh). A single pass and the strided
/// passes on pairs of items of 2^16.
#[test]
fn bf16_packed_kernels_compile_for_sm80() {
    if !nvrtc_or_skip() {
        return;
    }
    let single = plan_c2c_recipe(
        &Shape::new([4096]),
        Precision::BF16,
        &PlanOptions::default(),
    )
    .expect("BF16 4096");
    assert!(single.half_arithmetic);
    let mut kernels = vec![KernelSource::single_pass(&single)];
    let s = plan_c2c_schedule(
        &Shape::new([1 << 16]),
        Precision::BF16,
        &PlanOptions::default(),
    )
    .expect("BF16 2^16");
    for pass in &s.passes {
        if let PassKernel::Strided(sp) = &pass.kernel {
            assert!(sp.paired, "{s}");
            kernels.push(KernelSource::strided_pass(sp));
        }
    }
    assert!(kernels.len() >= 2);
    for k in &kernels {
        let cubin = nvrtc::compile_cubin(&k.source, &k.stem, "sm_80")
            .unwrap_or_else(|e| panic!("{}: {e}", k.stem));
        assert!(cubin.len() > 100, "{}", k.stem);
    }
}

/// The CUDA-core kernels on sm_75 (Turing), where the library plans everything but BF16 and
/// tensor-core stages (`Schedule::needs_sm80`): gathered tiles copy with plain loads there
/// (no `cp.async`) and f16 pairs round with two `cvt.rn.f16.f32` (no `cvt.rn.f16x2.f32`). A
/// sample: single passes of each precision, two-pass 1D and 2D plans, f16 pairs of items, 3D,
/// and a gathered strided layout.
#[test]
fn cuda_core_kernels_compile_for_sm75() {
    if !nvrtc_or_skip() {
        return;
    }
    // Padded transforms: rows of 1024 samples 1030 apart, gathered through shared memory.
    let padded = Layout {
        input: Some(Strides {
            stride: 1,
            dist: 1030,
        }),
        output: None,
    };
    let f32_arithmetic = PlanOptions::tuned(Tuning {
        half_arithmetic: Some(false),
        ..Default::default()
    });
    let cases: Vec<(Precision, Vec<usize>, PlanOptions)> = vec![
        (Precision::F32, vec![4096], PlanOptions::default()),
        (Precision::F32, vec![8], PlanOptions::default()),
        (Precision::F16, vec![4096], PlanOptions::default()),
        (Precision::F16, vec![64], PlanOptions::default()),
        (Precision::F16, vec![4096], f32_arithmetic),
        (Precision::F64, vec![1024], PlanOptions::default()),
        (Precision::F32, vec![1 << 20], PlanOptions::default()),
        (Precision::F16, vec![1 << 20], PlanOptions::default()),
        (Precision::F32, vec![1024, 1024], PlanOptions::default()),
        (Precision::F16, vec![64, 64, 64], PlanOptions::default()),
        (
            Precision::F32,
            vec![1024],
            PlanOptions {
                layout: padded,
                ..Default::default()
            },
        ),
        (
            Precision::F16,
            vec![1024],
            PlanOptions {
                layout: padded,
                ..Default::default()
            },
        ),
    ];
    let mut gathered = 0;
    for (p, dims, opts) in cases {
        let s = plan_c2c_schedule(&Shape::from_dims(&dims).batch(3), p, &opts)
            .unwrap_or_else(|e| panic!("{p:?} {dims:?}: {e}"));
        assert!(!s.needs_sm80(), "{s}");
        for pass in &s.passes {
            let k = match &pass.kernel {
                PassKernel::Strided(sp) => {
                    gathered += usize::from(sp.staged_in());
                    KernelSource::strided_pass(sp)
                }
                PassKernel::SinglePass { recipe, .. } => KernelSource::single_pass(recipe),
                PassKernel::Cluster(_) => continue, // sm_90 only
            };
            let cubin = nvrtc::compile_cubin(&k.source, &k.stem, "sm_75")
                .unwrap_or_else(|e| panic!("{}: {e}", k.stem));
            assert!(cubin.len() > 100, "{}", k.stem);
        }
    }
    assert!(gathered >= 2, "the sample gathers no tile");
}

#[test]
fn every_instantiation_compiles_for_sm90() {
    if !nvrtc_or_skip() {
        return;
    }
    let (major, minor) = nvrtc::version().expect("nvrtc version");
    let mut kernels: Vec<(String, KernelSource)> = all_recipes()
        .iter()
        .map(|r| (r.to_string(), KernelSource::single_pass(r)))
        .collect();
    kernels.extend(
        all_strided_kernels()
            .into_iter()
            .map(|k| (k.stem.clone(), k)),
    );
    kernels.extend(all_ntt_kernels().into_iter().map(|k| (k.stem.clone(), k)));
    // For development: TFFT_NVRTC_FILTER=cluster compiles only kernels whose name contains it.
    if let Ok(filter) = std::env::var("TFFT_NVRTC_FILTER") {
        kernels.retain(|(_, k)| k.stem.contains(&filter));
        assert!(
            !kernels.is_empty(),
            "TFFT_NVRTC_FILTER={filter} matches no kernel"
        );
    }
    // NVRTC programs are independent: compile on every core.
    let failures = problems_on_every_core(&kernels, |(r, k)| {
        match nvrtc::compile_cubin(&k.source, &k.stem, "sm_90") {
            Ok(cubin) if cubin.len() > 100 => vec![],
            Ok(_) => vec![format!("{r}: empty cubin")],
            Err(e) => vec![format!("{r}: {e}")],
        }
    });
    eprintln!(
        "NVRTC {major}.{minor}: compiled {} kernel modules for sm_90",
        kernels.len() - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        kernels.len(),
        failures.join("\n")
    );
}

/// Every kernel is launched as a programmatic dependent launch on sm_90 (`gpu/launch.rs`): it may
/// start while the kernel before it on the stream still runs. That is safe only because each
/// entry point's first statement waits for that kernel (`dependent_launch.cuh`); no NVRTC needed.
#[test]
fn every_entry_point_first_waits_for_the_previous_kernel() {
    let recipes = all_recipes();
    let kernels = recipes
        .iter()
        .map(KernelSource::single_pass)
        .chain(all_strided_kernels())
        .chain(all_ntt_kernels());
    let mut checked = 0;
    for k in kernels {
        let entries = k.source.matches("__global__").count();
        let waiting = k
            .source
            .matches(") {\n    overlap_next_launch_then_wait();\n")
            .count();
        assert!(
            entries > 0 && waiting == entries,
            "{}: {entries} entry points, {waiting} of them wait first",
            k.stem
        );
        checked += 1;
    }
    assert!(checked > 1000, "only {checked} kernels enumerated");
}
