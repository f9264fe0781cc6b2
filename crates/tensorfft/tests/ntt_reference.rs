//! The CPU NTTs against their definition and against schoolbook polynomial products, exactly,
//! on fresh random data (values in [0, p), and p − 1 everywhere), for the ZK and FHE presets.

use proptest::prelude::*;
use rand::Rng;
use tensorfft::ntt::{
    fast_ntt, is_prime, naive_ntt, ntt_friendly_primes, Modulus, NttKind, NttSpec, Order,
    BABY_BEAR, FHE_62, GOLDILOCKS, KOALA_BEAR,
};
use tensorfft::{Direction, Error};

const PRESETS: [u64; 4] = [BABY_BEAR, KOALA_BEAR, GOLDILOCKS, FHE_62];
const ORDERS: [(Order, Order); 4] = [
    (Order::Natural, Order::Natural),
    (Order::Natural, Order::BitReversed),
    (Order::BitReversed, Order::Natural),
    (Order::BitReversed, Order::BitReversed),
];

fn random_values(p: u64, len: usize) -> Vec<u64> {
    let mut rng = rand::rng();
    (0..len).map(|_| rng.random_range(0..p)).collect()
}

#[test]
fn presets_are_the_published_primes() {
    for (p, adicity) in [
        (BABY_BEAR, 27),
        (KOALA_BEAR, 24),
        (GOLDILOCKS, 32),
        (FHE_62, 19),
    ] {
        assert!(is_prime(p), "{p}");
        assert_eq!(Modulus::new(p).unwrap().two_adicity(), adicity, "{p}");
    }
    assert_eq!(BABY_BEAR, 15 * (1 << 27) + 1);
    assert_eq!(KOALA_BEAR, 127 * (1 << 24) + 1);
    assert_eq!(GOLDILOCKS, u64::MAX - (1u64 << 32) + 2);
    assert_eq!(ntt_friendly_primes(62, 1 << 17, 1).unwrap(), vec![FHE_62]);
    // Not prime: Carmichael numbers, squares, even numbers.
    for n in [561u64, 41041, 1 << 40, 65537 * 65537, 3_215_031_751] {
        assert!(!is_prime(n), "{n}");
    }
}

#[test]
fn roots_have_exact_order() {
    for p in PRESETS {
        let m = Modulus::new(p).unwrap();
        for k in 1..=m.two_adicity() {
            let w = m.root_of_unity(1 << k).unwrap();
            assert_eq!(m.pow(w, 1 << k), 1);
            assert_eq!(
                m.pow(w, 1 << (k - 1)),
                p - 1,
                "order of the root of order 2^{k} mod {p}"
            );
        }
        assert!(matches!(
            m.root_of_unity(1 << (m.two_adicity() + 1)),
            Err(Error::NoRootOfUnity { .. })
        ));
    }
}

#[test]
fn fast_equals_the_definition_bit_for_bit() {
    for p in PRESETS {
        for log_n in 1..=9 {
            let n = 1usize << log_n;
            for kind in [NttKind::Cyclic, NttKind::Negacyclic] {
                for (input, output) in ORDERS {
                    for scale in [true, false] {
                        let s = NttSpec::new(p, n, kind)
                            .unwrap()
                            .with_orders(input, output)
                            .with_inverse_scaling(scale);
                        let x = random_values(p, 3 * n);
                        for dir in [Direction::Forward, Direction::Inverse] {
                            assert_eq!(
                                fast_ntt(&s, dir, &x).unwrap(),
                                naive_ntt(&s, dir, &x).unwrap(),
                                "{s:?} {dir:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn round_trips_on_several_threads() {
    // From 2^14 the stages run on several threads (`tests/ntt_schedule.rs` compares 2^14 with
    // the CPU executor, every order and kind).
    for p in PRESETS {
        let n = 1 << 16;
        let s = NttSpec::new(p, n, NttKind::Negacyclic)
            .unwrap()
            .with_orders(Order::Natural, Order::BitReversed);
        let x = random_values(p, n);
        let y = fast_ntt(&s, Direction::Forward, &x).unwrap();
        assert_ne!(y, x);
        assert_eq!(fast_ntt(&s, Direction::Inverse, &y).unwrap(), x);
    }
}

#[test]
fn round_trips_and_unscaled_inverse() {
    for p in PRESETS {
        for n in [2usize, 64, 1 << 12] {
            for kind in [NttKind::Cyclic, NttKind::Negacyclic] {
                for (input, output) in ORDERS {
                    let s = NttSpec::new(p, n, kind).unwrap().with_orders(input, output);
                    for x in [random_values(p, 2 * n), vec![p - 1; 2 * n]] {
                        let y = fast_ntt(&s, Direction::Forward, &x).unwrap();
                        assert_eq!(fast_ntt(&s, Direction::Inverse, &y).unwrap(), x);
                        let raw = s.with_inverse_scaling(false);
                        let m = s.modulus();
                        let back = fast_ntt(&raw, Direction::Inverse, &y).unwrap();
                        let want: Vec<u64> = x.iter().map(|&v| m.mul(v, n as u64)).collect();
                        assert_eq!(back, want);
                    }
                }
            }
        }
    }
}

/// The schoolbook product of `a` and `b` modulo `X^N − 1` (cyclic) or `X^N + 1`.
fn schoolbook(m: &Modulus, a: &[u64], b: &[u64], kind: NttKind) -> Vec<u64> {
    let n = a.len();
    let mut c = vec![0u64; n];
    for (i, &ai) in a.iter().enumerate() {
        for (j, &bj) in b.iter().enumerate() {
            let t = m.mul(ai, bj);
            let k = (i + j) % n;
            c[k] = if i + j >= n && kind == NttKind::Negacyclic {
                m.sub(c[k], t)
            } else {
                m.add(c[k], t)
            };
        }
    }
    c
}

#[test]
fn polynomial_products() {
    for p in PRESETS {
        let m = Modulus::new(p).unwrap();
        for n in [2usize, 8, 64, 256] {
            for kind in [NttKind::Cyclic, NttKind::Negacyclic] {
                // Bit-reversed spectra multiply pointwise just as natural ones do.
                for (input, output) in [ORDERS[0], ORDERS[1]] {
                    let s = NttSpec::new(p, n, kind).unwrap().with_orders(input, output);
                    for (a, b) in [
                        (random_values(p, n), random_values(p, n)),
                        (vec![p - 1; n], vec![p - 1; n]),
                    ] {
                        let fa = fast_ntt(&s, Direction::Forward, &a).unwrap();
                        let fb = fast_ntt(&s, Direction::Forward, &b).unwrap();
                        let prod: Vec<u64> =
                            fa.iter().zip(&fb).map(|(&x, &y)| m.mul(x, y)).collect();
                        assert_eq!(
                            fast_ntt(&s, Direction::Inverse, &prod).unwrap(),
                            schoolbook(&m, &a, &b, kind),
                            "{s:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn linearity() {
    for p in PRESETS {
        let m = Modulus::new(p).unwrap();
        let s = NttSpec::new(p, 1 << 10, NttKind::Negacyclic).unwrap();
        let (x, y) = (random_values(p, 1 << 10), random_values(p, 1 << 10));
        let a = random_values(p, 1)[0];
        let z: Vec<u64> = x
            .iter()
            .zip(&y)
            .map(|(&u, &v)| m.add(m.mul(a, u), v))
            .collect();
        let (fx, fy) = (
            fast_ntt(&s, Direction::Forward, &x).unwrap(),
            fast_ntt(&s, Direction::Forward, &y).unwrap(),
        );
        let want: Vec<u64> = fx
            .iter()
            .zip(&fy)
            .map(|(&u, &v)| m.add(m.mul(a, u), v))
            .collect();
        assert_eq!(fast_ntt(&s, Direction::Forward, &z).unwrap(), want);
    }
}

#[test]
fn refusals_are_typed() {
    assert!(matches!(
        NttSpec::new(BABY_BEAR + 2, 8, NttKind::Cyclic),
        Err(Error::ModulusNotPrime { .. })
    ));
    assert!(matches!(
        NttSpec::new(BABY_BEAR, 12, NttKind::Cyclic),
        Err(Error::NotPowerOfTwo { n: 12 })
    ));
    assert!(matches!(
        NttSpec::new(BABY_BEAR, 1, NttKind::Cyclic),
        Err(Error::NotPowerOfTwo { n: 1 })
    ));
    // Above the two-adicity: 2^28 cyclic, 2^27 negacyclic (needs a 2^28-th root).
    assert!(NttSpec::new(BABY_BEAR, 1 << 27, NttKind::Cyclic).is_ok());
    for (n, kind) in [(1 << 28, NttKind::Cyclic), (1 << 27, NttKind::Negacyclic)] {
        assert!(matches!(
            NttSpec::new(BABY_BEAR, n, kind),
            Err(Error::NoRootOfUnity { .. })
        ));
    }
    let s = NttSpec::new(KOALA_BEAR, 4, NttKind::Cyclic).unwrap();
    assert!(matches!(
        fast_ntt(&s, Direction::Forward, &[1, 2, 3]),
        Err(Error::LengthMismatch { .. })
    ));
    assert!(matches!(
        naive_ntt(&s, Direction::Forward, &[1, 2, KOALA_BEAR, 3]),
        Err(Error::NotReduced { index: 2, .. })
    ));
    assert!(ntt_friendly_primes(20, 1 << 12, 1).is_err()); // too few bits for 2N = 2^13
    assert!(ntt_friendly_primes(40, 3, 1).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// Any modulus and length give a valid spec or a typed error, never a panic.
    #[test]
    fn any_modulus_and_length_gives_a_spec_or_a_typed_error(
        p in prop_oneof![Just(BABY_BEAR), Just(KOALA_BEAR), Just(GOLDILOCKS), Just(FHE_62), any::<u64>()],
        n in prop_oneof![(0u32..40).prop_map(|b| 1usize << b), any::<usize>()],
        negacyclic in any::<bool>(),
    ) {
        let kind = if negacyclic { NttKind::Negacyclic } else { NttKind::Cyclic };
        match NttSpec::new(p, n, kind) {
            Ok(s) => {
                let m = s.modulus();
                prop_assert!(n.is_power_of_two() && n >= 2);
                prop_assert_eq!(m.pow(s.omega(), n as u64), 1);
                prop_assert_eq!(m.pow(s.omega(), n as u64 / 2), p - 1);
                if negacyclic {
                    prop_assert_eq!(m.mul(s.psi(), s.psi()), s.omega());
                }
            }
            Err(Error::ModulusNotPrime { .. } | Error::NotPowerOfTwo { .. } | Error::NoRootOfUnity { .. }) => {}
            Err(e) => prop_assert!(false, "unexpected error {e}"),
        }
    }
}

/// A transform on the coset g·H evaluates the input polynomial at g·ω^k (checked by Horner's
/// rule, independently of the transforms' code), round-trips in every order, and negacyclic
/// coset transforms evaluate at g·ψ·ω^k.
#[test]
fn coset_transforms_evaluate_on_the_coset() {
    for p in PRESETS {
        let m = Modulus::new(p).unwrap();
        for n in [2usize, 8, 64] {
            for kind in [NttKind::Cyclic, NttKind::Negacyclic] {
                for g in [7u64, p - 1] {
                    let s = NttSpec::new(p, n, kind).unwrap().with_coset(g).unwrap();
                    assert_eq!(s.coset(), g);
                    let x = random_values(p, n);
                    let y = fast_ntt(&s, Direction::Forward, &x).unwrap();
                    let base = m.mul(g, s.psi());
                    for (k, &yk) in y.iter().enumerate() {
                        let at = m.mul(base, m.pow(s.omega(), k as u64));
                        let horner = x.iter().rev().fold(0, |acc, &c| m.add(m.mul(acc, at), c));
                        assert_eq!(yk, horner, "p={p} n={n} {kind:?} g={g} k={k}");
                    }
                    assert_eq!(naive_ntt(&s, Direction::Forward, &x).unwrap(), y);
                    for (input, output) in ORDERS {
                        let so = s.with_orders(input, output);
                        let z = fast_ntt(&so, Direction::Forward, &x).unwrap();
                        assert_eq!(fast_ntt(&so, Direction::Inverse, &z).unwrap(), x);
                    }
                }
            }
        }
        // g ≡ 0 is refused; g ≡ 1 is the plain transform.
        let s = NttSpec::new(p, 8, NttKind::Cyclic).unwrap();
        assert!(s.with_coset(0).is_err() && s.with_coset(p).is_err());
        assert_eq!(s.with_coset(p + 1).unwrap(), s);
    }
}
