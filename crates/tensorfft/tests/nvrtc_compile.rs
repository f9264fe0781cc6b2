//! Compiles every kernel instantiation the planner can emit, for sm_90, with NVRTC — no GPU
//! needed. CI installs NVRTC from PyPI and sets TFFT_REQUIRE_NVRTC=1 so this can never be
//! skipped there; elsewhere a missing NVRTC skips it with a loud message.

use tensorfft::gpu::{libraries, nvrtc};
use tensorfft::kernels::KernelSource;
use tensorfft::plan::planner::supported_lengths;
use tensorfft::{
    plan_c2c_recipe, IoMode, PlanOptions, Precision, Recipe, Shape, Tuning, TwiddleSource,
};

/// Default recipes for every supported length and precision, plus the tuning variants `tfft bench
/// --variants` can ask for.
fn all_recipes() -> Vec<Recipe> {
    let mut out = Vec::new();
    for p in [Precision::F16, Precision::F32, Precision::F64] {
        for n in supported_lengths(p) {
            let mut tunings = vec![Tuning::default()];
            for io in [IoMode::Direct, IoMode::Staged] {
                tunings.push(Tuning {
                    io: Some(io),
                    ..Default::default()
                });
            }
            tunings.push(Tuning {
                twiddles: Some(TwiddleSource::Computed),
                ..Default::default()
            });
            for e in [8, 32] {
                for io in [IoMode::Direct, IoMode::Staged] {
                    tunings.push(Tuning {
                        elements_per_thread: Some(e),
                        io: Some(io),
                        ..Default::default()
                    });
                }
            }
            for e in [16, 32] {
                tunings.push(Tuning {
                    elements_per_thread: Some(e),
                    max_radix: Some(8),
                    io: Some(IoMode::Direct),
                    ..Default::default()
                });
            }
            tunings.push(Tuning {
                exchange: Some(tensorfft::ExchangeFormat::F16),
                ..Default::default()
            });
            for min_blocks in [2, 3] {
                tunings.push(Tuning {
                    min_blocks_per_sm: Some(min_blocks),
                    ..Default::default()
                });
            }
            tunings.push(Tuning {
                prefetch: Some(false),
                ..Default::default()
            });
            tunings.push(Tuning {
                streaming: Some(true),
                ..Default::default()
            });
            tunings.push(Tuning {
                twiddles: Some(TwiddleSource::Table),
                ..Default::default()
            });
            for tuning in tunings {
                let opts = PlanOptions {
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

#[test]
fn every_instantiation_compiles_for_sm90() {
    if !libraries::nvrtc_present() {
        let required = std::env::var("TFFT_REQUIRE_NVRTC").is_ok_and(|v| v == "1");
        eprintln!("\n*** SKIPPED: NVRTC (libnvrtc.so.13) not found; kernel templates were NOT compiled. ***");
        eprintln!("*** Install it with `pip install nvidia-cuda-nvrtc==13.0.88` and add its lib dir to LD_LIBRARY_PATH. ***\n");
        assert!(!required, "TFFT_REQUIRE_NVRTC=1 but NVRTC is missing");
        return;
    }
    let (major, minor) = nvrtc::version().expect("nvrtc version");
    let recipes = all_recipes();
    let mut failures = Vec::new();
    for r in &recipes {
        let k = KernelSource::single_pass(r);
        match nvrtc::compile_cubin(&k.source, &k.stem, "sm_90") {
            Ok(cubin) => assert!(cubin.len() > 100, "{} produced an empty cubin", k.stem),
            Err(e) => failures.push(format!("{r}: {e}")),
        }
    }
    eprintln!(
        "NVRTC {major}.{minor}: compiled {} kernel modules for sm_90",
        recipes.len() - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        recipes.len(),
        failures.join("\n")
    );
}
