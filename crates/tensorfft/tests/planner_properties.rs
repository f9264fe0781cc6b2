//! Property tests: any shape, precision and tuning yields a valid recipe or a typed error.

use proptest::prelude::*;
use tensorfft::plan::planner::{max_len, MAX_RADIX, MAX_SHARED_BYTES, MAX_THREADS_PER_BLOCK};
use tensorfft::{
    plan_c2c_recipe, Error, ExchangeFormat, IoMode, PlanOptions, Precision, Shape, Tuning,
    TwiddleSource,
};

fn precision() -> impl Strategy<Value = Precision> {
    prop_oneof![
        Just(Precision::F16),
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
                (half_arithmetic, stream_loads, derived_twiddles),
            )| {
                Tuning {
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
                for &radix in &r.radices {
                    prop_assert!((2..=MAX_RADIX).contains(&radix) && r.elements_per_thread % radix == 0);
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
                    prop_assert_eq!(p, Precision::F16);
                    prop_assert!(!r.tensor_cores);
                    prop_assert_eq!(r.io, IoMode::Direct);
                    prop_assert_eq!(r.exchange, ExchangeFormat::F16);
                    prop_assert!(r.vector_width <= 2);
                    for &radix in &r.radices {
                        prop_assert_eq!(lanes % radix, 0);
                    }
                }
                if r.derived_twiddles {
                    prop_assert!(!r.half_arithmetic);
                    prop_assert_eq!(r.twiddles, TwiddleSource::Table);
                }
                if r.tensor_cores {
                    prop_assert_eq!(p, Precision::F16);
                    prop_assert_eq!(r.elements_per_thread, 16);
                    prop_assert_eq!(r.threads_per_transform % 32, 0);
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
