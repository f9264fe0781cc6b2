//! Wisdom files (`tfft tune`, `Gpu::set_wisdom`): the format round-trips, bad files are typed
//! errors, an entry answers only its own problem, and every tuning `tfft tune` may store plans a
//! valid schedule (or is refused with a typed error) whose CPU reference run matches the f64
//! oracle.

mod common;
use common::{random, widen};

use half::f16;
use num_complex::Complex;
use tensorfft::cpu::oracle::{oracle_c2c_nd, relative_l2};
use tensorfft::cpu::reference::execute_schedule;
use tensorfft::{
    plan_c2c_schedule, Direction, Element, Error, Layout, Normalization, PlanOptions, Precision,
    Shape, Strides, Tuning, Wisdom, WisdomEntry, WisdomKey,
};

const DEVICE: &str = "NVIDIA H200";

fn entry(dims: &[usize], batch: usize, asked: Tuning, tuning: Tuning) -> WisdomEntry {
    WisdomEntry {
        key: WisdomKey::new(DEVICE, Precision::F32, dims, batch, asked),
        tuning,
        ms: 0.5,
        default_ms: 0.6,
        rel_l2: 1e-7,
        default_rel_l2: 1e-7,
        plan: "test".into(),
    }
}

fn items(n: usize) -> Tuning {
    Tuning {
        items_per_tile: Some(n),
        ..Default::default()
    }
}

#[test]
fn files_round_trip_and_list_only_chosen_fields() {
    let mut w = Wisdom::new();
    w.insert(entry(&[1024, 1024], 128, Tuning::default(), items(16)));
    let tc = Tuning {
        tensor_cores: Some(true),
        ..Default::default()
    };
    w.insert(entry(&[4096], 32768, tc, tc.or(items(4))));
    let path = std::env::temp_dir().join(format!("tfft-wisdom-{}.json", std::process::id()));
    w.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains("null"), "{text}");
    assert!(text.contains("\"items_per_tile\": 16"), "{text}");
    assert!(text.contains("\"precision\": \"f32\""), "{text}");
    assert_eq!(Wisdom::load(&path).unwrap(), w);
    std::fs::remove_file(&path).ok();
}

#[test]
fn bad_files_are_typed_errors() {
    let bad = |text: &str| matches!(Wisdom::from_json(text), Err(Error::InvalidWisdom(_)));
    assert!(bad("not json"));
    assert!(bad("{\"version\": 2, \"entries\": []}"));
    assert!(bad("{\"version\": 1, \"entries\": [], \"extra\": 0}"));
    // A tuning field this library does not know (a file from another version).
    let mut w = Wisdom::new();
    w.insert(entry(&[64], 8, Tuning::default(), items(8)));
    let unknown = w
        .to_json()
        .replace("\"items_per_tile\"", "\"items_per_tyle\"");
    assert!(bad(&unknown));
    // Two entries for one key.
    let one = w.to_json();
    let e = serde_json_entry(&one);
    let twice = one.replace(&e, &format!("{e},\n{e}"));
    assert!(bad(&twice), "{twice}");
    let missing = std::env::temp_dir().join("tfft-wisdom-that-does-not-exist.json");
    match Wisdom::load(&missing) {
        Err(Error::InvalidWisdom(m)) => assert!(m.contains("does-not-exist"), "{m}"),
        other => panic!("{other:?}"),
    }
}

/// The text of the first (only) entry object of a pretty-printed file.
fn serde_json_entry(text: &str) -> String {
    let start = text.find("\"entries\": [").unwrap() + "\"entries\": [".len();
    let end = text.rfind(']').unwrap();
    text[start..end].trim().to_string()
}

#[test]
fn an_entry_answers_only_its_own_problem() {
    let mut w = Wisdom::new();
    w.insert(entry(&[1024, 1024], 128, Tuning::default(), items(16)));
    let shape = Shape::new([1024, 1024]).batch(128);
    let f32 = Precision::F32;
    let plain = PlanOptions::default();
    let tuned = w.options_for(DEVICE, &shape, f32, &plain).unwrap();
    assert_eq!(tuned.tuning.items_per_tile, Some(16));
    assert_eq!(tuned.normalization, plain.normalization);
    // Another device, batch, shape, precision, or asked tuning: no answer.
    assert!(w.options_for("NVIDIA H100", &shape, f32, &plain).is_none());
    assert!(w
        .options_for(DEVICE, &Shape::new([1024, 1024]).batch(64), f32, &plain)
        .is_none());
    assert!(w
        .options_for(DEVICE, &Shape::new([1024, 512]).batch(128), f32, &plain)
        .is_none());
    assert!(w
        .options_for(DEVICE, &shape, Precision::F64, &plain)
        .is_none());
    let asked = PlanOptions::tuned(Tuning {
        tensor_cores: Some(true),
        ..Default::default()
    });
    assert!(w.options_for(DEVICE, &shape, f32, &asked).is_none());
    // Strided data: entries are measured on dense data.
    let strided = PlanOptions {
        layout: Layout {
            input: Some(Strides {
                stride: 1,
                dist: 1024 * 1024 + 64,
            }),
            output: None,
        },
        ..Default::default()
    };
    assert!(w.options_for(DEVICE, &shape, f32, &strided).is_none());
    // The normalization is the caller's, whatever the entry.
    let scaled = PlanOptions {
        normalization: Normalization::Ortho,
        ..Default::default()
    };
    let o = w.options_for(DEVICE, &shape, f32, &scaled).unwrap();
    assert_eq!(o.normalization, Normalization::Ortho);
    // A later entry of the same key replaces the first.
    w.insert(entry(&[1024, 1024], 128, Tuning::default(), items(4)));
    assert_eq!(w.entries.len(), 1);
    let o = w.options_for(DEVICE, &shape, f32, &plain).unwrap();
    assert_eq!(o.tuning.items_per_tile, Some(4));
}

#[test]
fn the_callers_choices_win_over_an_entrys() {
    let asked = Tuning {
        tensor_cores: Some(true),
        elements_per_thread: Some(16),
        ..Default::default()
    };
    let stored = Tuning {
        tensor_cores: Some(false),
        elements_per_thread: Some(32),
        persistent: Some(true),
        ..Default::default()
    };
    let t = asked.or(stored);
    assert_eq!(t.tensor_cores, Some(true));
    assert_eq!(t.elements_per_thread, Some(16));
    assert_eq!(t.persistent, Some(true));
    assert_eq!(Tuning::default().or(stored), stored);
    assert_eq!(stored.or(Tuning::default()), stored);
}

/// Every variant `tfft tune` may store, on a sample of shapes: a schedule or a typed refusal;
/// the schedules' CPU reference runs within their bounds of the oracle.
fn variants_plan_and_compute<T: Element>(dims: &[usize], batch: usize) {
    let shape = Shape::from_dims(dims).batch(batch);
    let total: usize = dims.iter().product();
    let mut seen = Vec::new();
    for variant in Tuning::sweep().into_iter().chain(Tuning::pass_sweep()) {
        let s = match plan_c2c_schedule(&shape, T::PRECISION, &PlanOptions::tuned(variant)) {
            Ok(s) => s,
            Err(Error::Unsupported { .. } | Error::DeviceLimit(_) | Error::InvalidSize(_)) => {
                continue
            }
            Err(e) => panic!("{dims:?} {variant:?}: {e}"),
        };
        if seen.contains(&s) {
            continue;
        }
        let x: Vec<T> = random(s.len());
        let xw = widen(&x);
        let want: Vec<Complex<f64>> = xw
            .chunks(total)
            .flat_map(|t| oracle_c2c_nd(t, dims, Direction::Forward, Normalization::None))
            .collect();
        let y = execute_schedule(&s, Direction::Forward, &x, false).unwrap();
        let err = relative_l2(&widen(&y), &want);
        assert!(
            err <= s.error_bound(),
            "{s}\nerror {err:.3e} > {:.3e}",
            s.error_bound()
        );
        seen.push(s);
    }
    assert!(seen.len() > 1, "{dims:?}: {} distinct plans", seen.len());
}

#[test]
fn tuned_variants_of_multi_pass_shapes_match_the_oracle() {
    variants_plan_and_compute::<Complex<f32>>(&[1 << 15], 1);
    variants_plan_and_compute::<Complex<f32>>(&[64, 256], 2);
    variants_plan_and_compute::<Complex<f16>>(&[1 << 14], 2);
    variants_plan_and_compute::<Complex<f64>>(&[16, 16, 32], 1);
}

/// Tunings read from a file are untrusted: huge counts in any field give a plan or a typed
/// error, never a panic (an overflowing threads-per-block product once divided by zero).
#[test]
fn hostile_tunings_from_a_file_never_panic_the_planner() {
    let fields = [
        "elements_per_thread",
        "transforms_per_block",
        "max_radix",
        "min_blocks_per_sm",
        "tensor_stages",
        "max_pass_len",
        "pass_tile_bytes",
        "items_per_tile",
        "cluster_blocks",
    ];
    let values = [
        (1u64 << 31).to_string(),
        ((1u64 << 32) + 1).to_string(),
        (1u64 << 62).to_string(),
        (1u64 << 63).to_string(),
        u64::MAX.to_string(),
    ];
    let cases: [(&[usize], Precision); 6] = [
        (&[64], Precision::F16),
        (&[1024], Precision::F16),
        (&[1024], Precision::F32),
        (&[4096], Precision::F32Split),
        (&[1 << 20], Precision::F32),
        (&[1024, 1024], Precision::F64),
    ];
    for field in fields {
        for v in &values {
            let tuning: Tuning = serde_json::from_str(&format!("{{\"{field}\": {v}}}")).unwrap();
            for (dims, p) in cases {
                let shape = Shape::from_dims(dims).batch(3);
                match plan_c2c_schedule(&shape, p, &PlanOptions::tuned(tuning)) {
                    Ok(s) => assert!(!s.is_empty()),
                    Err(
                        Error::Unsupported { .. } | Error::DeviceLimit(_) | Error::InvalidSize(_),
                    ) => {}
                    Err(e) => panic!("{field}={v} {dims:?} {p:?}: {e}"),
                }
            }
        }
    }
}

/// A plan takes an entry only where it changes the launch without raising the error bound: an
/// entry that records the default, or asks for coarser arithmetic, is not taken.
#[test]
fn entries_never_raise_the_error_bound() {
    let shape = Shape::new([64]).batch(8);
    let f16 = Precision::F16;
    let plain = PlanOptions::default();
    let bound = |o: &PlanOptions| plan_c2c_schedule(&shape, f16, o).unwrap().error_bound();
    let with = |tuning: Tuning| {
        let mut w = Wisdom::new();
        let mut e = entry(&[64], 8, Tuning::default(), tuning);
        e.key.precision = f16;
        w.insert(e);
        w.options_for(DEVICE, &shape, f16, &plain)
    };
    // f16 N = 64 computes in f32 by default; packed half arithmetic has a larger bound.
    let coarse = Tuning {
        half_arithmetic: Some(true),
        ..Default::default()
    };
    assert!(bound(&PlanOptions::tuned(coarse)) > bound(&plain));
    assert!(with(coarse).is_none());
    // "The default wins" entries change nothing.
    assert!(with(Tuning::default()).is_none());
    // A launch-shape entry of the same bound is taken.
    let launch = Tuning {
        min_blocks_per_sm: Some(2),
        ..Default::default()
    };
    let o = with(launch).expect("a launch-shape entry");
    assert_eq!(bound(&o), bound(&plain));
}
