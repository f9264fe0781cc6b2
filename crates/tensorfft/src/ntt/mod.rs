//! Number theoretic transforms (issue 9), CPU side: prime moduli and their roots of unity,
//! NTT-friendly primes for ZK (BabyBear, KoalaBear, Goldilocks) and FHE, the description of a
//! transform ([`NttSpec`]: cyclic or negacyclic, natural or bit-reversed orders, inverse scaling)
//! and CPU transforms that define the results bit for bit: [`naive_ntt`] (O(N²), the oracle) and
//! [`fast_ntt`] (O(N log N)). GPU plans on the pass machinery of the FFT side come next.
//!
//! ```
//! use tensorfft::ntt::{fast_ntt, NttKind, NttSpec, BABY_BEAR};
//! use tensorfft::Direction;
//! // Multiply two polynomials modulo X^4 + 1 by pointwise products of negacyclic NTTs.
//! let s = NttSpec::new(BABY_BEAR, 4, NttKind::Negacyclic).unwrap();
//! let m = s.modulus();
//! let (a, b) = ([1, 2, 0, 0], [0, 0, 0, 1]); // (1 + 2X) · X^3 = X^3 + 2X^4 = X^3 − 2
//! let fa = fast_ntt(&s, Direction::Forward, &a).unwrap();
//! let fb = fast_ntt(&s, Direction::Forward, &b).unwrap();
//! let prod: Vec<u64> = fa.iter().zip(&fb).map(|(&x, &y)| m.mul(x, y)).collect();
//! assert_eq!(fast_ntt(&s, Direction::Inverse, &prod).unwrap(), vec![BABY_BEAR - 2, 0, 0, 1]);
//! ```

pub mod cluster_fusion;
pub mod executor;
pub mod modulus;
pub mod pointwise;
pub mod primes;
pub mod reference;
pub mod row_layout;
pub mod schedule;
pub mod spec;
pub mod tables;
pub mod word_arithmetic;

pub use modulus::{is_prime, Modulus};
pub use primes::{ntt_friendly_primes, BABY_BEAR, FHE_62, GOLDILOCKS, KOALA_BEAR, PRIME_32};
pub use reference::{fast_ntt, naive_ntt};
pub use schedule::{plan_ntt_schedule, NttBatch, NttSchedule};
pub use spec::{NttKind, NttSpec, Order};
