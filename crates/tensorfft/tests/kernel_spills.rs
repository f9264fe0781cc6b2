//! The pass kernels of `tfft bench --suite full` spill no more registers than they did when the
//! suite was last measured (NVRTC for sm_90, no GPU needed). A change that makes a shared pass
//! template spill slows whole families of plans without failing a correctness check: 37cbd04's
//! signed division of the thread index spilled 60 bytes in the twiddled pass of f32 2^20 and
//! cost 10% there (bench/NOTES.md step 99). CI sets TFFT_REQUIRE_NVRTC=1, so this cannot be
//! skipped there.

#[path = "support/every_core.rs"]
mod every_core;

use every_core::problems_on_every_core;
use tensorfft::gpu::{libraries, nvrtc};
use tensorfft::kernels::KernelSource;
use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};

/// The shapes of the full suite (1D lengths of the cuFFT anchors, 2D and 3D shapes).
const SUITE: &[&[usize]] = &[
    &[16],
    &[64],
    &[256],
    &[1024],
    &[4096],
    &[8192],
    &[16384],
    &[65536],
    &[1 << 18],
    &[1 << 20],
    &[1 << 22],
    &[1 << 24],
    &[1 << 26],
    &[256, 256],
    &[512, 512],
    &[1024, 1024],
    &[4096, 4096],
    &[8192, 8192],
    &[64, 64, 64],
    &[128, 128, 128],
    &[256, 256, 256],
    &[512, 512, 512],
];

/// Spill-store bytes of the suite's kernels as measured on 1085ca5 (NVRTC 13.0), where not
/// zero: (precision, shape, pass index, bytes of the worse direction). f64 2^26's twiddled
/// pass of 512 with two twiddle levels spills 8 bytes since its tiles hold 8 items (step 100;
/// measured on the H200 at 25.0% of the copy against 25.1% with 4 items and no spill); since
/// step 103 it is the second of 256 × 512 × 512 (root 2^17), and the last pass (512, three
/// levels) spills nothing (NVRTC 13.0, `kernel_report`, 2026-11-28).
const KNOWN_SPILLS: &[(Precision, &[usize], usize, usize)] = &[
    (Precision::F16, &[1 << 18], 1, 4),
    (Precision::F16, &[1 << 26], 1, 4),
    (Precision::F16, &[8192, 8192], 2, 52),
    (Precision::F64, &[16384], 0, 4),
    (Precision::F64, &[1 << 26], 1, 8),
];

/// The largest "N bytes spill stores" of the entry points in an assembler log.
fn spill_stores(log: &str) -> usize {
    log.lines()
        .filter_map(|l| {
            let (before, _) = l.split_once(" bytes spill stores")?;
            before
                .rsplit(|c: char| !c.is_ascii_digit())
                .next()?
                .parse()
                .ok()
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn spill_stores_reads_the_worst_entry() {
    let log = "ptxas info    : Compiling entry function 'a'\n\
               ptxas         .     64 bytes stack frame, 60 bytes spill stores, 60 bytes spill loads\n\
               ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";
    assert_eq!(spill_stores(log), 60);
    assert_eq!(spill_stores("no report"), 0);
}

#[test]
fn suite_kernels_spill_no_more_than_measured() {
    if !libraries::nvrtc_present() {
        let required = std::env::var("TFFT_REQUIRE_NVRTC").is_ok_and(|v| v == "1");
        eprintln!(
            "\n*** SKIPPED: NVRTC not found; the suite's register spills were NOT checked. ***\n"
        );
        assert!(!required, "TFFT_REQUIRE_NVRTC=1 but NVRTC is missing");
        return;
    }
    let mut kernels = Vec::new();
    for precision in [Precision::F32, Precision::F16, Precision::F64] {
        let elements: usize = if precision == Precision::F64 {
            1 << 26
        } else {
            1 << 27
        };
        for &dims in SUITE {
            let n: usize = dims.iter().product();
            let shape = Shape::from_dims(dims).batch((elements / n).max(1));
            let schedule = plan_c2c_schedule(&shape, precision, &PlanOptions::default())
                .unwrap_or_else(|e| panic!("{precision:?} {dims:?}: {e}"));
            for (index, pass) in schedule.passes.iter().enumerate() {
                let source = KernelSource::pass(&pass.kernel);
                let allowed = KNOWN_SPILLS
                    .iter()
                    .find(|&&(p, d, i, _)| p == precision && d == dims && i == index)
                    .map_or(0, |k| k.3);
                kernels.push((
                    format!("{precision:?} {dims:?} pass {index}"),
                    source,
                    allowed,
                ));
            }
        }
    }
    let problems =
        problems_on_every_core(&kernels, |(what, k, allowed)| match nvrtc::resource_report(
            &k.source, &k.stem, "sm_90",
        ) {
            Ok(log) => {
                let spilled = spill_stores(&log);
                if spilled > *allowed {
                    vec![format!(
                        "{what} ({}): {spilled} bytes of spill stores, measured {allowed}",
                        k.stem
                    )]
                } else {
                    vec![]
                }
            }
            Err(e) => vec![format!("{what}: {e}")],
        });
    eprintln!("checked the spills of {} suite kernels", kernels.len());
    assert!(
        problems.is_empty(),
        "kernels that spill more than when the suite was measured (bench/NOTES.md step 99):\n{}",
        problems.join("\n")
    );
}
