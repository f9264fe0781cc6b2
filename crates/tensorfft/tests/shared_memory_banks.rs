//! The bank-conflict model on the planner's default recipes: tensor-core plans (whose paddings
//! were searched for it) must be conflict-free, and no plan may be worse than 4-way.

use tensorfft::plan::bank_conflicts::shared_wavefronts;
use tensorfft::plan::planner::supported_lengths;
use tensorfft::{plan_c2c_recipe, PlanOptions, Precision, Shape, Tuning};

#[test]
fn tensor_core_exchanges_are_free_of_bank_conflicts() {
    let opts = PlanOptions::tuned(Tuning {
        tensor_cores: Some(true),
        ..Default::default()
    });
    let tensor_lengths: Vec<usize> = supported_lengths(Precision::F16)
        .into_iter()
        // 16 values per thread in one block of at most 1024 threads: N = 512 … 16384.
        .filter(|&n| (512..=16384).contains(&n))
        .collect();
    assert_eq!(tensor_lengths.len(), 6);
    for n in tensor_lengths {
        let r = plan_c2c_recipe(&Shape::new([n]), Precision::F16, &opts).unwrap();
        assert!(r.tensor_cores && r.radices.len() >= 2);
        for b in shared_wavefronts(&r) {
            assert_eq!(b.wavefronts, b.ideal, "N={n} buffer {}: {b:?}", b.buffer);
        }
    }
}

#[test]
fn default_plans_stay_within_four_way_conflicts() {
    for p in [Precision::F16, Precision::F32, Precision::F64] {
        for n in supported_lengths(p) {
            let r = plan_c2c_recipe(&Shape::new([n]), p, &PlanOptions::default()).unwrap();
            for b in shared_wavefronts(&r) {
                println!(
                    "{p:?} N={n} buffer {}: {} / {}",
                    b.buffer, b.wavefronts, b.ideal
                );
                assert!(b.wavefronts <= 4 * b.ideal, "{p:?} N={n}: {b:?}");
            }
        }
    }
}
