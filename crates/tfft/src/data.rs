//! Random test data and oracle comparisons shared by `demo`, `check` and `bench`.

use num_complex::Complex;
use rand::{Rng, SeedableRng};
use tensorfft::cpu::oracle::{oracle_c2c, relative_l2};
use tensorfft::{Direction, Element, Normalization};

/// A seed that differs between runs (fresh data every time), printed so a failure can be replayed.
pub fn fresh_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    (t as u64) ^ ((t >> 64) as u64) ^ (std::process::id() as u64) << 32
}

/// `len` values with real and imaginary parts uniform in [-1, 1], rounded to `T`. Filled in
/// parallel chunks so that gigabyte batches stay quick.
pub fn random<T: Element>(len: usize, seed: u64) -> Vec<T> {
    let mut out = vec![T::from_c64(Complex::new(0.0, 0.0)); len];
    let chunk = 1 << 20;
    std::thread::scope(|s| {
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        let per = out.len().div_ceil(threads).div_ceil(chunk) * chunk;
        for (t, part) in out.chunks_mut(per.max(chunk)).enumerate() {
            s.spawn(move || {
                let mut rng = rand::rngs::StdRng::seed_from_u64(
                    seed ^ (t as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                );
                for v in part.iter_mut() {
                    *v = T::from_c64(Complex::new(
                        rng.random_range(-1.0..=1.0),
                        rng.random_range(-1.0..=1.0),
                    ));
                }
            });
        }
    });
    out
}

/// Indices of up to `count` transforms spread over a batch, always including the first and last.
pub fn sample_transforms(batch: usize, count: usize) -> Vec<usize> {
    if batch <= count {
        return (0..batch).collect();
    }
    let mut v: Vec<usize> = (0..count).map(|i| i * (batch - 1) / (count - 1)).collect();
    v.dedup();
    v
}

/// Relative L2 error of the sampled transforms of `output` against the oracle applied to the
/// same transforms of `input`.
pub fn sampled_error<T: Element>(
    input: &[T],
    output: &[T],
    n: usize,
    dir: Direction,
    norm: Normalization,
    samples: &[usize],
) -> f64 {
    let mut got = Vec::with_capacity(samples.len() * n);
    let mut want = Vec::with_capacity(samples.len() * n);
    for &b in samples {
        let x: Vec<Complex<f64>> = input[b * n..(b + 1) * n]
            .iter()
            .map(|e| e.to_c64())
            .collect();
        want.extend(oracle_c2c(&x, n, dir, norm));
        got.extend(output[b * n..(b + 1) * n].iter().map(|e| e.to_c64()));
    }
    relative_l2(&got, &want)
}

/// Relative L2 error of sampled transforms of `output` against `input` itself (round trips).
pub fn sampled_identity_error<T: Element>(
    input: &[T],
    output: &[T],
    n: usize,
    samples: &[usize],
) -> f64 {
    let pick = |v: &[T]| -> Vec<Complex<f64>> {
        samples
            .iter()
            .flat_map(|&b| v[b * n..(b + 1) * n].iter().map(|e| e.to_c64()))
            .collect()
    };
    relative_l2(&pick(output), &pick(input))
}

/// Whether every element of `v` is finite (no poison left, no overflow).
pub fn all_finite<T: Element>(v: &[T]) -> bool {
    v.iter().all(|e| {
        let c = e.to_c64();
        c.re.is_finite() && c.im.is_finite()
    })
}
