//! A model, in Rust, of the GPU kernels' `Shoup32Full` policy (`ntt_arithmetic.cuh`, u32 words
//! for primes above 2^31) and of the unreduced difference that `Shoup32` / `Shoup64` feed into a
//! product (`difference_times`), operation for operation in wrapping word arithmetic, so their
//! algorithms are tested against exact arithmetic in CI without a GPU (edge values and a
//! pseudo-random spread of several primes; keep it in step with the `.cuh` by hand). The CPU
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

/// `(x − y) · w mod p` as the `Shoup32` (`bits = 32`, `p < 2^31`) and `Shoup64` (`bits = 64`,
/// `p < 2^63`) kernels form it (`difference_times`): the difference enters Shoup's product
/// unreduced, as `a = x − y + p` in `(0, 2p)`; `q = hi(a · ws)`, and `r = a · w − q · p` lies in
/// `[0, 2p)` for every `a` below `2^bits` (`a · w / p − q < a / 2^bits + 1 < 2`), then one
/// conditional subtract — all in wrapping `bits`-bit words. `ws` is `w`'s companion
/// `⌊w · 2^bits / p⌋`.
///
/// ```
/// use tensorfft::ntt::{word_arithmetic::shoup_difference_times, Modulus, BABY_BEAR};
/// use tensorfft::ntt::{schedule::NttArithmetic, tables::shoup_companion};
/// let (p, w) = (BABY_BEAR, 31);
/// let ws = shoup_companion(NttArithmetic::Shoup32, w, p);
/// // x − y + p = 2p − 1, the largest multiplicand the kernel forms.
/// let m = Modulus::new(p).unwrap();
/// assert_eq!(shoup_difference_times(p, 32, p - 1, 0, w, ws), m.mul(p - 1, w));
/// ```
pub fn shoup_difference_times(p: u64, bits: u32, x: u64, y: u64, w: u64, ws: u64) -> u64 {
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let a = x.wrapping_sub(y).wrapping_add(p) & mask;
    let q = ((a as u128 * ws as u128) >> bits) as u64;
    let r = a.wrapping_mul(w).wrapping_sub(q.wrapping_mul(p)) & mask;
    r.min(r.wrapping_sub(p) & mask)
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

    #[test]
    fn unreduced_differences_enter_shoup_products_exactly() {
        use crate::ntt::schedule::NttArithmetic;
        use crate::ntt::tables::shoup_companion;
        // u32 words: BabyBear, KoalaBear and 2^31 − 1 (the largest prime below 2^31, where
        // 2p − 1 is the largest word the kernel forms); u64 words: the 62-bit FHE prime and the
        // largest 63-bit primes ≡ 1 mod 2^16.
        let mut cases: Vec<(u64, u32, NttArithmetic)> =
            [crate::ntt::BABY_BEAR, crate::ntt::KOALA_BEAR, (1 << 31) - 1]
                .iter()
                .map(|&p| (p, 32, NttArithmetic::Shoup32))
                .collect();
        cases.push((crate::ntt::FHE_62, 64, NttArithmetic::Shoup64));
        for p in ntt_friendly_primes(63, 1 << 15, 2).unwrap() {
            cases.push((p, 64, NttArithmetic::Shoup64));
        }
        for (p, bits, arithmetic) in cases {
            assert!(2 * p as u128 <= 1u128 << bits, "2p fits the word");
            let m = Modulus::new(p).unwrap();
            let vs = values(p);
            for &w in vs.iter().step_by(7) {
                let ws = shoup_companion(arithmetic, w, p);
                for &x in &vs {
                    for &y in vs.iter().step_by(3) {
                        assert_eq!(
                            shoup_difference_times(p, bits, x, y, w, ws),
                            m.mul(m.sub(x, y), w),
                            "{p}: ({x} - {y}) * {w}"
                        );
                    }
                }
            }
        }
    }
}
