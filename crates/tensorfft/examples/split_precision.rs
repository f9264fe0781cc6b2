//! Relative L2 error against the f64 oracle of the F32Split models (`cpu::split_dft`) beside the
//! fp32 and fp16 paths, on random data and across dynamic ranges:
//! `cargo run --release --example split_precision [MAX_LOG_N]`.

#[path = "../tests/support/split_inputs.rs"]
mod split_inputs;

use num_complex::Complex;
use split_inputs::{range_cases, uniform};
use tensorfft::cpu::split_dft::{forward_errors, SplitScheme};

fn errors(x: &[Complex<f32>]) -> Vec<f64> {
    forward_errors(x, &SplitScheme::ALL)
}

fn row(label: &str, e: &[f64]) {
    let cells: Vec<String> = e.iter().map(|v| format!("{v:>10.2e}")).collect();
    println!("{label:<28} {}", cells.join(" "));
}

fn main() {
    let max_log: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(16);
    let names: Vec<String> = SplitScheme::ALL
        .iter()
        .map(|s| format!("{:>10}", s.name()))
        .collect();
    println!("{:<28} {}", "case", names.join(" "));
    for log_n in (8..=max_log).step_by(2) {
        let x = uniform(1 << log_n, log_n as u64);
        row(&format!("uniform N=2^{log_n}"), &errors(&x));
    }
    let base = uniform(4096, 2026);
    for scale in [1e-40f32, 1e-30, 1e-10, 1e10, 1e30] {
        let x: Vec<Complex<f32>> = base.iter().map(|c| c * scale).collect();
        row(&format!("scaled {scale:e} N=4096"), &errors(&x));
    }
    for (label, x) in range_cases(&base, 2027) {
        row(&format!("{label} N=4096"), &errors(&x));
    }
}
