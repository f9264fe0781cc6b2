//! Compiles every kernel instantiation the planner can emit, for sm_90, with NVRTC — no GPU
//! needed. CI installs NVRTC from PyPI and sets TFFT_REQUIRE_NVRTC=1 so this can never be
//! skipped there; elsewhere a missing NVRTC skips it with a loud message.

use tensorfft::gpu::{libraries, nvrtc};
use tensorfft::kernels::KernelSource;
use tensorfft::plan::planner::supported_lengths;
use tensorfft::{plan_c2c_recipe, PlanOptions, Precision, Recipe, Shape, Tuning};

/// Default recipes for every supported length and precision, plus every tuning variant `tfft
/// bench --variants` times, each with and without 1/N normalization.
fn all_recipes() -> Vec<Recipe> {
    let mut out = Vec::new();
    for p in [Precision::F16, Precision::F32, Precision::F64] {
        for n in supported_lengths(p) {
            let mut tunings = vec![Tuning::default()];
            tunings.extend(Tuning::sweep());
            for tuning in tunings {
                let opts = PlanOptions::tuned(tuning);
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
    // NVRTC programs are independent: compile on every core.
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let failures: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = recipes
            .chunks(recipes.len().div_ceil(threads))
            .map(|chunk| {
                s.spawn(move || {
                    let mut failed = Vec::new();
                    for r in chunk {
                        let k = KernelSource::single_pass(r);
                        match nvrtc::compile_cubin(&k.source, &k.stem, "sm_90") {
                            Ok(cubin) if cubin.len() > 100 => {}
                            Ok(_) => failed.push(format!("{r}: empty cubin")),
                            Err(e) => failed.push(format!("{r}: {e}")),
                        }
                    }
                    failed
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| {
                w.join()
                    .unwrap_or_else(|_| vec!["a compile worker panicked".into()])
            })
            .collect()
    });
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
