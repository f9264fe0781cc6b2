//! The planner's defaults for the shortest transforms of 2-byte data (bench/NOTES.md steps
//! 63–64): N = 4 in f16 and bf16 runs the Stockham kernel on one transform per thread with
//! direct loads and blocks that are not persistent (100.6–101.2% of the copy on an H200 and an
//! H100, against 87.6–95.2% for the warp-shuffle kernel); single stages of at most 8 points
//! stage through shared memory in the data's own format (exact); N = 8 keeps the shuffles.

use tensorfft::plan::options::{ExchangeFormat, IoMode};
use tensorfft::{plan_c2c_recipe, PlanOptions, Precision, Shape};

/// The 2-byte precisions and their own exchange formats.
const HALF_DATA: [(Precision, ExchangeFormat); 2] = [
    (Precision::F16, ExchangeFormat::F16),
    (Precision::BF16, ExchangeFormat::BF16),
];

fn default_recipe(n: usize, p: Precision) -> tensorfft::plan::recipe::Recipe {
    plan_c2c_recipe(&Shape::new([n]), p, &PlanOptions::default()).unwrap()
}

#[test]
fn four_points_of_half_data_load_one_transform_per_thread() {
    for (p, format) in HALF_DATA {
        let r = default_recipe(4, p);
        assert!(!r.warp_shuffles, "{p:?}: {r}");
        assert_eq!(
            (r.elements_per_thread, r.threads_per_transform),
            (4, 1),
            "{p:?}"
        );
        assert_eq!(r.io, IoMode::Direct, "{p:?}");
        assert!(!r.persistent && !r.half_arithmetic, "{p:?}: {r}");
        assert_eq!(r.exchange, format, "{p:?}");
    }
}

#[test]
fn single_stages_stage_in_the_data_format_and_eight_points_keep_the_shuffles() {
    for (p, format) in HALF_DATA {
        let r = default_recipe(2, p);
        assert_eq!((r.radices.len(), r.exchange), (1, format), "{p:?}: {r}");
        assert!(default_recipe(8, p).warp_shuffles, "{p:?}");
    }
    // f32 keeps f32 staging.
    assert_eq!(
        default_recipe(4, Precision::F32).exchange,
        ExchangeFormat::F32
    );
}
