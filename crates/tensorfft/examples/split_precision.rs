//! Relative L2 error against the f64 oracle of the F32Split models (`cpu::split_dft`) beside the
//! fp32 and fp16 paths, on random data and across dynamic ranges:
//! `cargo run --release --example split_precision [MAX_LOG_N]`.

use num_complex::Complex;
use rand::{Rng, SeedableRng};
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
    let mut rng = rand::rngs::StdRng::seed_from_u64(2026);
    let names: Vec<String> = SplitScheme::ALL
        .iter()
        .map(|s| format!("{:>10}", s.name()))
        .collect();
    println!("{:<28} {}", "case", names.join(" "));
    let uniform = |n: usize, rng: &mut rand::rngs::StdRng| -> Vec<Complex<f32>> {
        (0..n)
            .map(|_| {
                Complex::new(
                    rng.random_range(-1.0f32..1.0),
                    rng.random_range(-1.0f32..1.0),
                )
            })
            .collect()
    };
    for log_n in (8..=max_log).step_by(2) {
        let x = uniform(1 << log_n, &mut rng);
        row(&format!("uniform N=2^{log_n}"), &errors(&x));
    }
    let n = 4096;
    let base = uniform(n, &mut rng);
    for scale in [1e-40f32, 1e-30, 1e-10, 1e10, 1e30] {
        let x: Vec<Complex<f32>> = base.iter().map(|c| c * scale).collect();
        row(&format!("scaled {scale:e} N=4096"), &errors(&x));
    }
    let mixed: Vec<Complex<f32>> = base
        .iter()
        .map(|c| c * 10f32.powf(rng.random_range(-20.0f32..0.0)))
        .collect();
    row("magnitudes 1e-20..1 N=4096", &errors(&mixed));
    let halves: Vec<Complex<f32>> = base
        .iter()
        .enumerate()
        .map(|(i, c)| if i % 2 == 0 { c * 1e-12 } else { *c })
        .collect();
    row("alternate 1e-12 / 1 N=4096", &errors(&halves));
    let spikes: Vec<Complex<f32>> = (0..n)
        .map(|i| {
            if i % 97 == 0 {
                Complex::new(3.0e4, -1.0)
            } else {
                Complex::new(0.0, 0.0)
            }
        })
        .collect();
    row("zeros and spikes N=4096", &errors(&spikes));
}
