//! Inputs for the F32Split models, shared by `tests/split_precision_model.rs` and
//! `examples/split_precision.rs`: uniform random data and the dynamic-range cases.

use num_complex::Complex;
use rand::{Rng, SeedableRng};

/// `n` values with both parts uniform in [-1, 1), from `seed`.
pub fn uniform(n: usize, seed: u64) -> Vec<Complex<f32>> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            Complex::new(
                rng.random_range(-1.0f32..1.0),
                rng.random_range(-1.0f32..1.0),
            )
        })
        .collect()
}

/// Mixed magnitudes built from `base`: each value scaled by 10^u, u uniform in [-20, 0)
/// (from `seed`); every other value scaled by 1e-12; and zeros with spikes of 3e4 every 97
/// samples. Labelled for tables and messages.
pub fn range_cases(base: &[Complex<f32>], seed: u64) -> Vec<(&'static str, Vec<Complex<f32>>)> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mixed = base
        .iter()
        .map(|c| c * 10f32.powf(rng.random_range(-20.0f32..0.0)))
        .collect();
    let alternate = base
        .iter()
        .enumerate()
        .map(|(i, c)| if i % 2 == 0 { c * 1e-12 } else { *c })
        .collect();
    let spikes = (0..base.len())
        .map(|i| {
            if i % 97 == 0 {
                Complex::new(3.0e4, -1.0)
            } else {
                Complex::new(0.0, 0.0)
            }
        })
        .collect();
    vec![
        ("magnitudes 1e-20 … 1", mixed),
        ("alternating 1e-12 and 1", alternate),
        ("zeros and spikes", spikes),
    ]
}
