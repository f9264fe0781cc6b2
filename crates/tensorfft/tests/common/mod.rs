//! Helpers shared by the integration tests: fresh random data and widening to f64.

use num_complex::Complex;
use rand::Rng;
use tensorfft::Element;

/// `len` random complex values with both parts uniform in [-1, 1], rounded to `T`.
pub fn random<T: Element>(len: usize) -> Vec<T> {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| {
            T::from_c64(Complex::new(
                rng.random_range(-1.0..=1.0),
                rng.random_range(-1.0..=1.0),
            ))
        })
        .collect()
}

/// The values widened to complex f64.
#[allow(dead_code)] // not every test binary widens
pub fn widen<T: Element>(x: &[T]) -> Vec<Complex<f64>> {
    x.iter().map(|e| e.to_c64()).collect()
}
