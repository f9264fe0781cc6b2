//! A model, in Rust, of the GPU kernels' `Shoup32Full` policy (`ntt_arithmetic.cuh`, u32 words
//! for primes above 2^31), operation for operation in wrapping `u32` / `u64` arithmetic, so its
//! algorithm is tested against exact arithmetic in CI without a GPU (edge values and a
//! pseudo-random spread of five primes; keep it in step with the `.cuh` by hand). The CPU
//! executor itself computes through `u128` ([`super::Modulus`]); every policy keeps values in
//! `[0, p)`, so both give the same words.

use super::schedule::NttArithmetic;
use super::tables::shoup_companion;

/// The `Shoup32Full` policy: `u32` words for primes `2^31 < p < 2^32`, where `2p` overflows a
/// word. Inputs in `[0, p)`; table constants `w < p` with companion `⌊w · 2^32 / p⌋`.
///
/// ```
/// use tensorfft::ntt::{ntt_friendly_primes, word_arithmetic::Shoup32Full, Modulus};
/// let p = ntt_friendly_primes(32, 1 << 15, 1).unwrap()[0];
/// let (a, m) = (Shoup32Full { p: p as u32 }, Modulus::new(p).unwrap());
/// let x = (p - 1) as u32;
/// assert_eq!(a.add(x, x) as u64, m.add(p - 1, p - 1)); // the sum carries out of 32 bits
/// assert_eq!(a.mul_by(x, x) as u64, m.mul(p - 1, p - 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shoup32Full {
    /// The prime.
    pub p: u32,
}

impl Shoup32Full {
    /// `a + b mod p`: the wrapped sum `s` stands for `s + 2^32` when it is below `a`.
    pub fn add(self, a: u32, b: u32) -> u32 {
        let s = a.wrapping_add(b);
        if s < a || s >= self.p {
            s.wrapping_sub(self.p)
        } else {
            s
        }
    }

    /// `a − b mod p`.
    pub fn sub(self, a: u32, b: u32) -> u32 {
        let d = a.wrapping_sub(b);
        if a < b {
            d.wrapping_add(self.p)
        } else {
            d
        }
    }

    /// `a · w mod p` for a table constant `w` and its companion `ws`: `q = hi(a · ws)`, and
    /// `a · w − q · p` in `[0, 2p)` formed in 64 bits.
    pub fn mul(self, a: u32, w: u32, ws: u32) -> u32 {
        let q = ((a as u64 * ws as u64) >> 32) as u32;
        let r = (a as u64 * w as u64).wrapping_sub(q as u64 * self.p as u64);
        (if r >= self.p as u64 {
            r - self.p as u64
        } else {
            r
        }) as u32
    }

    /// `a · w mod p` with `w`'s companion computed as the tables do.
    pub fn mul_by(self, a: u32, w: u32) -> u32 {
        let ws = shoup_companion(NttArithmetic::Shoup32Full, w as u64, self.p as u64);
        self.mul(a, w, ws as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::{ntt_friendly_primes, Modulus};

    /// Edge values and a pseudo-random spread of `[0, p)`.
    fn values(p: u64) -> Vec<u64> {
        let mut v: Vec<u64> = vec![
            0,
            1,
            2,
            p / 2,
            p / 2 + 1,
            p - 2,
            p - 1,
            1 << 31,
            (1 << 31) - 1,
        ];
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            v.push(s % p);
        }
        v.retain(|&x| x < p);
        v
    }

    #[test]
    fn matches_exact_arithmetic_for_32_bit_primes() {
        // 3·2^30 + 1 (two-adicity 30), the largest 32-bit primes ≡ 1 mod 2^16, and the smallest
        // prime above 2^31 that is ≡ 1 mod 2^11, at the other end of the range.
        let mut primes = vec![crate::ntt::PRIME_32];
        primes.extend(ntt_friendly_primes(32, 1 << 15, 3).unwrap());
        let low = (0..)
            .map(|k| (1u64 << 31) + (k << 11) + 1)
            .find(|&p| crate::ntt::is_prime(p))
            .unwrap();
        primes.push(low);
        for p in primes {
            assert!(p > 1 << 31 && p < 1 << 32);
            let (a, m) = (Shoup32Full { p: p as u32 }, Modulus::new(p).unwrap());
            let vs = values(p);
            for &x in &vs {
                for &y in &vs {
                    assert_eq!(
                        a.add(x as u32, y as u32) as u64,
                        m.add(x, y),
                        "{p}: {x} + {y}"
                    );
                    assert_eq!(
                        a.sub(x as u32, y as u32) as u64,
                        m.sub(x, y),
                        "{p}: {x} - {y}"
                    );
                    assert_eq!(
                        a.mul_by(x as u32, y as u32) as u64,
                        m.mul(x, y),
                        "{p}: {x} * {y}"
                    );
                }
            }
        }
    }
}
