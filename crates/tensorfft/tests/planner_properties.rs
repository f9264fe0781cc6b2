//! Property tests: any shape, precision and tuning yields a valid recipe (single pass) or
//! schedule (passes) or a typed error.

use proptest::prelude::*;
use tensorfft::plan::planner::{max_len, MAX_RADIX, MAX_SHARED_BYTES, MAX_THREADS_PER_BLOCK};
use tensorfft::plan::schedule::{Buffer, PassKernel};
use tensorfft::plan::strided_pass::{StridedPass, MAX_ITEM_DIMS};
use tensorfft::{
    plan_c2c_recipe, plan_c2c_schedule, Error, ExchangeFormat, IoMode, Layout, PlanOptions,
    Precision, Shape, Strides, Tuning, TwiddleSource,
};

fn precision() -> impl Strategy<Value = Precision> {
    prop_oneof![
        Just(Precision::F16),
        Just(Precision::BF16),
        Just(Precision::F32),
        Just(Precision::F32Split),
        Just(Precision::F64)
    ]
}

fn tuning() -> impl Strategy<Value = Tuning> {
    (
        proptest::option::of(0usize..40),
        proptest::option::of(0usize..300),
        proptest::option::of(prop_oneof![Just(IoMode::Direct), Just(IoMode::Staged)]),
        proptest::option::of(prop_oneof![
            Just(TwiddleSource::Table),
            Just(TwiddleSource::Computed)
        ]),
        proptest::option::of(prop_oneof![
            Just(ExchangeFormat::F16),
            Just(ExchangeFormat::F32),
            Just(ExchangeFormat::F64)
        ]),
        proptest::option::of(0usize..20),
        proptest::option::of(0usize..40),
        proptest::option::of(any::<bool>()),
        proptest::option::of(any::<bool>()),
        proptest::option::of(any::<bool>()),
        proptest::option::of(any::<bool>()),
        (
            proptest::option::of(any::<bool>()),
            proptest::option::of(any::<bool>()),
            proptest::option::of(any::<bool>()),
            proptest::option::of(any::<bool>()),
            proptest::option::of(any::<bool>()),
            proptest::option::of(any::<bool>()),
        ),
    )
        .prop_map(
            |(
                e,
                b,
                io,
                tw,
                x,
                max_radix,
                min_blocks,
                prefetch,
                twiddles_ahead,
                persistent,
                tensor_cores,
                (
                    half_arithmetic,
                    stream_loads,
                    derived_twiddles,
                    warp_exchange,
                    warp_shuffles,
                    tensor_pairs,
                ),
            )| {
                Tuning {
                    tensor_pairs,
                    warp_exchange,
                    warp_shuffles,
                    tensor_cores,
                    half_arithmetic,
                    stream_loads,
                    derived_twiddles,
                    twiddles_ahead,
                    persistent,
                    prefetch,
                    max_radix,
                    min_blocks_per_sm: min_blocks,
                    elements_per_thread: e,
                    transforms_per_block: b,
                    io,
                    twiddles: tw,
                    exchange: x,
                    ..Default::default()
                }
            },
        )
}

fn dims() -> impl Strategy<Value = Vec<usize>> {
    prop_oneof![
        (0u32..16).prop_map(|b| vec![1usize << b]),
        proptest::collection::vec(0usize..20000, 1..4),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn any_shape_gives_valid_recipe_or_typed_error(
        dims in dims(), batch in prop_oneof![0usize..5, 1usize..(1 << 40)], p in precision(), tuning in tuning()
    ) {
        let shape = Shape::from_dims(&dims).batch(batch);
        let opts = PlanOptions::tuned(tuning);
        match plan_c2c_recipe(&shape, p, &opts) {
            Ok(r) => {
                prop_assert_eq!(dims.len(), 1);
                prop_assert!(batch > 0);
                prop_assert_eq!(r.n, dims[0]);
                prop_assert!(r.n.is_power_of_two() && r.n >= 2 && r.n <= max_len(p));
                prop_assert_eq!(r.radices.iter().product::<usize>(), r.n);
                prop_assert_eq!(r.threads_per_transform * r.elements_per_thread, r.n);
                prop_assert!(tuning.warp_shuffles != Some(false) || !r.warp_shuffles);
                prop_assert!(tuning.warp_shuffles != Some(true) || r.warp_shuffles);
                if r.warp_shuffles {
                    // A register DFT, then radix-2 stages between the lanes of one warp.
                    prop_assert!(tensorfft::plan::warp_shuffles::is_consistent(&r), "{}", r);
                    prop_assert!(r.n >= 4 && r.n <= 1024);
                    prop_assert!(p != Precision::F32Split);
                    prop_assert!(tuning.elements_per_thread.is_none_or(|e| e == r.elements_per_thread));
                    prop_assert!(r.elements_per_thread <= tuning.max_radix.unwrap_or(MAX_RADIX));
                    prop_assert!(r.transforms_per_block >= 1);
                    prop_assert!(r.threads_per_block() <= MAX_THREADS_PER_BLOCK);
                    prop_assert!(r.min_blocks_per_sm * r.threads_per_block() <= 2048);
                    // Whole vectors of at most 16 bytes per lane's store.
                    prop_assert!(r.vector_width * p.complex_bytes() <= 16.max(p.complex_bytes()));
                    return Ok(());
                }
                // (The one-warp stage pair spreads each 16-point DFT over a quad of lanes: 8
                // values per lane per 256-point unit.)
                for &radix in &r.radices {
                    prop_assert!(
                        (2..=MAX_RADIX).contains(&radix)
                            && (r.elements_per_thread % radix == 0 || r.tensor_pair_warp())
                    );
                }
                // Tensor-core stages access device memory in runs of 4 of their own; CUDA-core end
                // stages need whole vectors.
                let ends = [r.radices[0], r.radices[r.radices.len() - 1]];
                prop_assert!(r.vector_width >= 1);
                // Packed half arithmetic splits pairs of values, in runs of at most 16 bytes.
                let lanes = if r.half_arithmetic { r.elements_per_thread / 2 } else { r.elements_per_thread };
                for radix in ends.into_iter().filter(|&x| !(r.tensor_cores && x == 16)) {
                    prop_assert_eq!((lanes / radix) % r.vector_width, 0);
                }
                if r.half_arithmetic {
                    prop_assert!(matches!(p, Precision::F16 | Precision::BF16));
                    prop_assert!(!r.tensor_cores);
                    prop_assert_eq!(r.io, IoMode::Direct);
                    prop_assert_eq!(
                        r.exchange,
                        if p == Precision::BF16 { ExchangeFormat::BF16 } else { ExchangeFormat::F16 }
                    );
                    prop_assert!(r.vector_width <= 2);
                    for &radix in &r.radices {
                        prop_assert_eq!(lanes % radix, 0);
                    }
                }
                // Warp barriers only where a transform's threads share one warp, every warp of
                // the block is whole, and no staged copy crosses transforms.
                if r.warp_exchange {
                    prop_assert!(r.threads_per_transform <= 32);
                    prop_assert_eq!(r.threads_per_block() % 32, 0);
                    prop_assert_eq!(r.io, IoMode::Direct);
                }
                if r.derived_twiddles {
                    prop_assert_eq!(r.twiddles, TwiddleSource::Table);
                }
                // F32Split always runs its radix-16 stages on the tensor cores.
                prop_assert!(p != Precision::F32Split || r.tensor_cores);
                if r.tensor_cores {
                    prop_assert!(matches!(p, Precision::F16 | Precision::BF16 | Precision::F32Split));
                    if r.tensor_pair_warp() {
                        // One warp holds whole 256-point units: 256 (1, 2 or 4 transforms per
                        // warp), 512 and 1024 (one), whole warps per block, no dynamic shared
                        // memory (F32Split's DFT fragments sit in a static table).
                        prop_assert!(matches!(p, Precision::F16 | Precision::BF16 | Precision::F32Split));
                        prop_assert!(matches!(r.n, 256 | 512 | 1024));
                        prop_assert_eq!(r.elements_per_thread * 32 % 256, 0);
                        prop_assert_eq!(r.threads_per_block() % 32, 0);
                        prop_assert_eq!(r.shared_bytes(), 0);
                    } else {
                        prop_assert_eq!(r.elements_per_thread, 16);
                        prop_assert_eq!(r.threads_per_transform % 32, 0);
                    }
                }
                // Stage pairs: F16 or BF16 on the tensor cores or F32Split (not 3xTF32), the first two
                // radices 16; beyond one warp (1024 with 16 values per thread, 2048 … 16384),
                // two units per warp and the Stockham stages from shared memory after (F32Split:
                // loaded directly).
                if r.tensor_pair {
                    prop_assert!(r.tensor_cores);
                    prop_assert!(
                        matches!(p, Precision::F16 | Precision::BF16)
                            || (p == Precision::F32Split && !r.tf32_split)
                    );
                    prop_assert!(p != Precision::F32Split || r.io == IoMode::Direct);
                    prop_assert_eq!(&r.radices[..2], &[16, 16]);
                    if r.tensor_pair_warp() {
                        prop_assert_eq!(r.io, IoMode::Direct);
                    } else {
                        prop_assert!(r.n >= 1024);
                        prop_assert_eq!(r.elements_per_thread, 16);
                        prop_assert!(r.threads_per_transform > 32);
                        prop_assert!(r.shared_bytes() > 0);
                    }
                } else {
                    prop_assert!(!r.tensor_pair_warp());
                }
                if r.io == IoMode::Staged {
                    prop_assert_eq!(r.vector_width, 1);
                    prop_assert_eq!((r.transforms_per_block * r.n) % (16 / p.complex_bytes()), 0);
                }
                prop_assert!(r.vector_width * p.complex_bytes() <= 16);
                prop_assert!(r.threads_per_block() <= MAX_THREADS_PER_BLOCK);
                prop_assert!(r.transforms_per_block >= 1);
                prop_assert!(r.shared_bytes() <= MAX_SHARED_BYTES);
                if r.exchange == ExchangeFormat::F16 { prop_assert_eq!(p, Precision::F16); }
            }
            Err(Error::Unsupported { .. }) | Err(Error::DeviceLimit(_)) => {}
            Err(Error::InvalidSize(_)) => {
                prop_assert!(batch == 0 || dims.contains(&0) || dims.iter().try_fold(batch, |a, &d| a.checked_mul(d)).is_none());
            }
            Err(e) => prop_assert!(false, "unexpected error kind: {e}"),
        }
    }
}

#[test]
fn supported_power_of_two_lengths_plan_by_default() {
    for p in [Precision::F16, Precision::F32, Precision::F64] {
        for n in tensorfft::plan::planner::supported_lengths(p) {
            for batch in [1, 7919, 1 << 20] {
                let r = plan_c2c_recipe(&Shape::new([n]).batch(batch), p, &PlanOptions::default());
                assert!(r.is_ok(), "{p:?} N={n}: {r:?}");
            }
        }
    }
}

#[test]
fn non_power_of_two_and_multi_dim_are_unsupported_not_wrong() {
    for shape in [
        Shape::new([1000]),
        Shape::new([65536]),
        Shape::new([64, 64]),
        Shape::new([3]),
    ] {
        let r = plan_c2c_recipe(&shape, Precision::F32, &PlanOptions::default());
        assert!(
            matches!(r, Err(Error::Unsupported { .. })),
            "{shape:?}: {r:?}"
        );
    }
}

fn pass_tuning() -> impl Strategy<Value = Tuning> {
    (
        proptest::option::of((0u32..16).prop_map(|b| 1usize << b)),
        proptest::option::of((8u32..18).prop_map(|b| 1usize << b)),
        proptest::option::of(prop_oneof![
            (0u32..11).prop_map(|b| 1usize << b),
            0usize..2000
        ]),
        proptest::option::of(0usize..20),
        proptest::option::of(proptest::bool::ANY),
        proptest::option::of(proptest::bool::ANY),
    )
        .prop_map(
            |(
                max_pass_len,
                pass_tile_bytes,
                items_per_tile,
                cluster_blocks,
                prefetch,
                shortest_pass_first,
            )| Tuning {
                max_pass_len,
                pass_tile_bytes,
                items_per_tile,
                cluster_blocks,
                prefetch,
                shortest_pass_first,
                ..Default::default()
            },
        )
}

fn schedule_dims() -> impl Strategy<Value = Vec<usize>> {
    prop_oneof![
        proptest::collection::vec((1u32..9).prop_map(|b| 1usize << b), 1..4),
        (1u32..29).prop_map(|b| vec![1usize << b]),
        proptest::collection::vec(0usize..600, 1..5),
    ]
}

/// F16 on the tensor cores takes single passes up to 16384 (16 values per thread in at most
/// 1024 threads): a one-pass recipe of 32768 is refused with `Unsupported` (it was a device-limit
/// error), and a schedule of 32768 runs that pass on the CUDA cores, as its strided passes beyond.
#[test]
fn f16_tensor_core_schedules_beyond_16384_keep_their_cuda_core_passes() {
    let tc = PlanOptions::tuned(Tuning {
        tensor_cores: Some(true),
        tensor_pairs: Some(true),
        ..Tuning::default()
    });
    let r = plan_c2c_recipe(&Shape::new([32768]), Precision::F16, &tc);
    assert!(matches!(r, Err(Error::Unsupported { .. })), "{r:?}");
    let r = plan_c2c_recipe(&Shape::new([16384]), Precision::F16, &tc).unwrap();
    assert!(r.tensor_cores && r.tensor_pair);
    for n in [32768usize, 65536, 1 << 20] {
        let s = plan_c2c_schedule(&Shape::new([n]).batch(3), Precision::F16, &tc).unwrap();
        for pass in &s.passes {
            if let PassKernel::SinglePass { recipe, .. } = &pass.kernel {
                assert!(!recipe.tensor_cores && recipe.n == n, "{s}");
            }
        }
    }
}

/// Rows of items by precision (bench/NOTES.md steps 104-105): f32 passes of 256 take 256-byte
/// rows (32 items) where the input has them, passes of 512 keep their 16; f64 passes of 256
/// without a twiddle run 16 values per thread on 16 items, twiddled ones 8 on 8; f64 2^15 keeps
/// two passes (its cluster measured slower with the wider first pass); short rows of items and
/// paired f16 keep the earlier tiles; no directly loaded pass (f32, f64, f16, F32Split) exceeds
/// 512 threads.
#[test]
fn strided_passes_take_the_measured_rows_of_items() {
    let strided = |dims: &[usize], p: Precision| -> Vec<StridedPass> {
        let s = plan_c2c_schedule(&Shape::from_dims(dims), p, &PlanOptions::default()).unwrap();
        s.passes
            .iter()
            .filter_map(|pass| match &pass.kernel {
                PassKernel::Strided(sp) => Some(sp.clone()),
                _ => None,
            })
            .collect()
    };
    let rows = |dims: &[usize], p: Precision| -> Vec<(usize, usize, usize, bool)> {
        strided(dims, p)
            .iter()
            .map(|sp| {
                (
                    sp.len(),
                    sp.items_per_tile,
                    sp.inner.elements_per_thread,
                    sp.twiddle.is_some(),
                )
            })
            .collect()
    };
    let f32_2p24 = rows(&[1 << 24], Precision::F32);
    assert_eq!(f32_2p24.len(), 3);
    for (len, items, _, _) in f32_2p24 {
        assert_eq!((len, items), (256, 32));
    }
    for (len, items, _, _) in rows(&[1 << 26], Precision::F32) {
        assert_eq!(items, if len == 256 { 32 } else { 16 }, "pass of {len}");
    }
    let f64_2p24 = rows(&[1 << 24], Precision::F64);
    assert_eq!(f64_2p24.len(), 3);
    for (len, items, e, twiddled) in f64_2p24 {
        assert_eq!(len, 256);
        let want = if twiddled { (8, 8) } else { (16, 16) };
        assert_eq!((items, e), want, "twiddled: {twiddled}");
    }
    // f64 2^15: two passes, the first (256, no twiddle) on 16 values and 16 items.
    let f64_2p15 = rows(&[1 << 15], Precision::F64);
    assert_eq!(f64_2p15.len(), 2, "{f64_2p15:?}");
    assert_eq!((f64_2p15[0].0, f64_2p15[0].1, f64_2p15[0].2), (256, 16, 16));
    // Columns of 256 over rows of 16 (f32) and 8 (f64) items: the earlier 16 and 8 items.
    let short_f32 = rows(&[256, 16], Precision::F32);
    assert_eq!((short_f32[0].0, short_f32[0].1), (256, 16));
    let short_f64 = rows(&[256, 8], Precision::F64);
    assert_eq!(
        (short_f64[0].0, short_f64[0].1, short_f64[0].2),
        (256, 8, 8)
    );
    // Paired f16 passes of 256 keep 32 items (16 pairs); F32Split's passes of 256 are f32 ones.
    for (len, items, _, _) in rows(&[1 << 24], Precision::F16) {
        assert_eq!((len, items), (256, 32));
    }
    for dims in [
        vec![1usize << 24],
        vec![256, 256, 256],
        vec![1 << 20],
        vec![1024, 1024],
    ] {
        for p in [
            Precision::F32,
            Precision::F64,
            Precision::F16,
            Precision::F32Split,
        ] {
            for sp in strided(&dims, p).iter().filter(|sp| !sp.staged_in()) {
                assert!(sp.threads_per_block() <= 512, "{dims:?} {p:?}: {sp}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]
    /// Any shape gives a valid schedule or a typed error. A valid schedule's passes multiply to
    /// each extent, fit the device limits, end in the output and never write the input of an
    /// out-of-place execution; in small shapes every strided pass reads and writes each element
    /// exactly once.
    #[test]
    fn any_shape_gives_valid_schedule_or_typed_error(
        dims in schedule_dims(), batch in prop_oneof![0usize..4, 1usize..(1 << 40)], p in precision(), tuning in pass_tuning()
    ) {
        let shape = Shape::from_dims(&dims).batch(batch);
        match plan_c2c_schedule(&shape, p, &PlanOptions::tuned(tuning)) {
            Ok(s) => {
                prop_assert!(batch > 0 && (1..=3).contains(&dims.len()));
                prop_assert_eq!(s.len(), dims.iter().product::<usize>() * batch);
                for (axis, &n) in dims.iter().enumerate() {
                    let along: usize = s.passes.iter().filter(|q| q.axis == axis).map(|q| q.kernel.len()).product();
                    prop_assert_eq!(along, n);
                }
                for pass in &s.passes {
                    prop_assert!(pass.kernel.threads_per_block() <= MAX_THREADS_PER_BLOCK);
                    prop_assert!(pass.kernel.shared_bytes() <= MAX_SHARED_BYTES);
                    if let PassKernel::Cluster(cp) = &pass.kernel {
                        // A fused pair: consistent, within a portable cluster, on a contiguous
                        // axis of a dense plan.
                        prop_assert!(cp.is_consistent(), "{}", cp);
                        prop_assert!(!cp.first.inner.warp_shuffles && !cp.second.inner.warp_shuffles);
                        prop_assert!(s.layout.is_dense());
                        prop_assert_eq!(pass.axis, dims.len() - 1);
                        prop_assert_eq!(cp.groups() * cp.len(), s.len());
                    }
                    if let PassKernel::Strided(sp) = &pass.kernel {
                        prop_assert!(sp.dims.len() <= MAX_ITEM_DIMS);
                        prop_assert_eq!(sp.items() * sp.len(), s.len());
                        // Items' threads are spread over the block: block barriers, and stages on
                        // shared memory (the warp-shuffle kernel is a single pass only).
                        prop_assert!(!sp.inner.warp_exchange);
                        prop_assert!(!sp.inner.warp_shuffles);
                        prop_assert_eq!(sp.slots_per_tile() % sp.inner.transforms_per_block, 0);
                        if !sp.staged_in() {
                            prop_assert_eq!(sp.slots_per_tile(), sp.inner.transforms_per_block);
                        }
                        if sp.paired {
                            // Sample k of items 2p and 2p + 1 is one aligned 8-byte word.
                            let (first, rest) = (&sp.dims[0], &sp.dims[1..]);
                            prop_assert!(matches!(p, Precision::F16 | Precision::BF16));
                            prop_assert!(!sp.staged_in() && first.in_stride == 1 && first.count % 2 == 0);
                            prop_assert!(sp.sample_stride_in % 2 == 0 && rest.iter().all(|d| d.in_stride % 2 == 0));
                            prop_assert_eq!(sp.items_per_tile, 2 * sp.slots_per_tile());
                            if !sp.staged_out() {
                                prop_assert!(first.out_stride == 1 && sp.sample_stride_out % 2 == 0);
                                prop_assert!(rest.iter().all(|d| d.out_stride % 2 == 0));
                            }
                        }
                        if s.len() <= 1 << 16 {
                            for (stride, out) in [(sp.sample_stride_in, false), (sp.sample_stride_out, true)] {
                                let mut seen = vec![false; s.len()];
                                for item in 0..sp.items() {
                                    let (mut rest, mut base) = (item, 0);
                                    for d in &sp.dims {
                                        base += (rest % d.count) * if out { d.out_stride } else { d.in_stride };
                                        rest /= d.count;
                                    }
                                    for k in 0..sp.len() {
                                        let at = base + k * stride;
                                        prop_assert!(at < s.len() && !seen[at], "{} touches {} twice or out of range", sp, at);
                                        seen[at] = true;
                                    }
                                }
                            }
                        }
                    }
                }
                for in_place in [false, true] {
                    let b = s.buffers(in_place);
                    prop_assert_eq!(b[0].0, Buffer::Input);
                    prop_assert_eq!(b[b.len() - 1].1, Buffer::Output);
                    for (i, &(src, dst)) in b.iter().enumerate() {
                        if i > 0 { prop_assert_eq!(src, b[i - 1].1); }
                        if !in_place { prop_assert!(dst != Buffer::Input); }
                        let same = src == dst || (in_place && matches!((src, dst), (Buffer::Input, Buffer::Output) | (Buffer::Output, Buffer::Input)));
                        if same { prop_assert!(s.passes[i].kernel.in_place_safe()); }
                    }
                }
            }
            Err(Error::Unsupported { .. }) | Err(Error::DeviceLimit(_)) => {
                // Only tile overrides may ask for more than a block has.
                let tile_override = tuning.items_per_tile.is_some() || tuning.pass_tile_bytes.is_some();
                prop_assert!(p == Precision::F32Split || dims.len() > 3 || dims.iter().any(|&d| !d.is_power_of_two() || !(2..=1 << 28).contains(&d)) || tile_override, "refused a supported shape {:?}", dims);
            }
            Err(Error::InvalidSize(_)) => {
                prop_assert!(batch == 0 || dims.contains(&0) || dims.iter().try_fold(batch, |a, &d| a.checked_mul(d)).is_none());
            }
            Err(e) => prop_assert!(false, "unexpected error kind: {e}"),
        }
    }
}

/// A layout for `batch` transforms of `n` elements: dense, padded transforms, or interleaved
/// columns, with strides 1 … 3.
fn layout_side() -> impl Strategy<Value = Option<(usize, usize, bool)>> {
    proptest::option::of((1usize..4, 0usize..5, any::<bool>()))
}

fn strides_of(side: Option<(usize, usize, bool)>, n: usize, batch: usize) -> Option<Strides> {
    side.map(|(stride, pad, interleaved)| {
        if interleaved {
            // Columns: the transforms' elements interleave, `batch + pad` apart.
            Strides {
                stride: stride * (batch + pad),
                dist: stride,
            }
        } else {
            Strides {
                stride,
                dist: stride * (n - 1) + 1 + pad,
            }
        }
    })
}

/// Element positions of every transform in a layout.
fn positions(st: Strides, n: usize, batch: usize) -> Vec<usize> {
    (0..batch)
        .flat_map(|b| (0..n).map(move |i| b * st.dist + i * st.stride))
        .collect()
}

/// Addresses a strided pass touches on one side.
fn pass_addresses(sp: &tensorfft::plan::strided_pass::StridedPass, output: bool) -> Vec<usize> {
    let stride = if output {
        sp.sample_stride_out
    } else {
        sp.sample_stride_in
    };
    let mut out = Vec::new();
    for item in 0..sp.items() {
        let (mut rest, mut base) = (item, 0);
        for d in &sp.dims {
            let s = if output { d.out_stride } else { d.in_stride };
            base += (rest % d.count) * s;
            rest /= d.count;
        }
        out.extend((0..sp.len()).map(|k| base + k * stride));
    }
    out.sort_unstable();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]
    /// With strided layouts, the first pass reads exactly the input layout's elements, the last
    /// writes exactly the output layout's, and no pass writes a caller's buffer outside the
    /// output layout's elements (its gaps belong to the caller).
    #[test]
    fn layouts_touch_only_their_elements(
        dims in proptest::collection::vec((1u32..6).prop_map(|b| 1usize << b), 1..4),
        batch in 1usize..4,
        input in layout_side(),
        output in layout_side(),
        max_pass_len in proptest::option::of((1u32..5).prop_map(|b| 1usize << b)),
    ) {
        let n: usize = dims.iter().product();
        let layout = Layout { input: strides_of(input, n, batch), output: strides_of(output, n, batch) };
        let opts = PlanOptions { layout, tuning: Tuning { max_pass_len, ..Default::default() }, ..Default::default() };
        let s = plan_c2c_schedule(&Shape::from_dims(&dims).batch(batch), Precision::F32, &opts).unwrap();
        let dense = Strides::dense(n);
        let mut want_in = positions(layout.input.unwrap_or(dense), n, batch);
        let mut want_out = positions(layout.output.unwrap_or(dense), n, batch);
        want_in.sort_unstable();
        want_out.sort_unstable();
        let last = s.passes.len() - 1;
        if let PassKernel::Strided(first) = &s.passes[0].kernel {
            prop_assert_eq!(pass_addresses(first, false), want_in.clone());
        }
        if let PassKernel::Strided(end) = &s.passes[last].kernel {
            prop_assert_eq!(pass_addresses(end, true), want_out.clone());
        }
        for in_place in [false, true] {
            if in_place && s.check_in_place().is_err() {
                continue;
            }
            for (p, &(_, dst)) in s.buffers(in_place).iter().enumerate() {
                let caller = matches!(dst, Buffer::Output | Buffer::Input);
                if let (true, PassKernel::Strided(sp)) = (caller, &s.passes[p].kernel) {
                    let written = pass_addresses(sp, true);
                    prop_assert!(
                        written.iter().all(|a| want_out.binary_search(a).is_ok()),
                        "pass {} writes outside the output layout: {}", p, s
                    );
                }
            }
        }
    }
}

/// f32 16384 (one 1024-thread block per SM) runs on the persistent grid without prefetch
/// (`tfft tune` on the H200, bench/NOTES.md step 124); f32 8192 keeps one block per tile.
#[test]
fn f32_16384_runs_on_the_persistent_grid() {
    let r = plan_c2c_recipe(
        &Shape::new([16384]),
        Precision::F32,
        &PlanOptions::default(),
    )
    .unwrap();
    assert!(
        r.persistent && !r.prefetch && r.min_blocks_per_sm == 0,
        "{r}"
    );
    let r = plan_c2c_recipe(&Shape::new([8192]), Precision::F32, &PlanOptions::default()).unwrap();
    assert!(!r.persistent, "{r}");
    let asked = PlanOptions::tuned(Tuning {
        elements_per_thread: Some(8),
        ..Default::default()
    });
    let r = plan_c2c_recipe(&Shape::new([8192]), Precision::F32, &asked).unwrap();
    assert!(!r.persistent, "{r}");
}
