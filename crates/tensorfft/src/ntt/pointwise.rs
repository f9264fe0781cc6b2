//! Pointwise products of NTT batches: `out[w] = a[w] · b[w] mod p` with `p` the modulus of word
//! `w`'s limb, the step between the forward transforms and the inverse of a polynomial product
//! (cyclic or negacyclic, as the batch's transforms are). [`pointwise_reference`] computes it on
//! the CPU; the GPU kernel (`kernels/cuda/ntt_pointwise.cuh`, run by
//! `GpuNttPlan::pointwise_mul`) reduces with the per-limb constants of [`PointwiseProduct`].
//! Its Barrett and Montgomery reductions are modelled here operation for operation, so CI tests
//! them against exact arithmetic without a GPU (keep them in step with the `.cuh` by hand); the
//! Goldilocks product is the transforms' own reduction (`Goldilocks::reduce`), which `tfft ntt
//! check` tests on the device, and is computed exactly here.

use super::schedule::{NttArithmetic, NttBatch};
use super::Modulus;
use crate::{Error, Result};

/// How the kernel reduces a product `a · b` (`a, b < p`) for one limb, with that limb's
/// constants. The variants mirror the device structs of `ntt_pointwise.cuh`.
///
/// ```
/// use tensorfft::ntt::pointwise::PointwiseProduct;
/// use tensorfft::ntt::{Modulus, BABY_BEAR, FHE_62, GOLDILOCKS};
/// for p in [BABY_BEAR, FHE_62, GOLDILOCKS] {
///     let (f, m) = (PointwiseProduct::for_modulus(p).unwrap(), Modulus::new(p).unwrap());
///     assert_eq!(f.mul(p - 1, p - 2), m.mul(p - 1, p - 2));
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointwiseProduct {
    /// `u32` words, odd `p < 2^31` (BabyBear, KoalaBear): two Montgomery reductions with
    /// `R = 2^32`, `a·b = redc(redc(a·b) · (R² mod p))`. `redc(t)` for `t < p·2^32`: `m =
    /// t·(−p⁻¹) mod 2^32`, `u = (t + m·p) / 2^32 < 2p < 2^32`, one conditional subtraction —
    /// four instructions where Barrett in 64 bits takes about twice as many (the factor of a
    /// transform of a product is multiplied inside a pass that is bound by its instructions).
    Montgomery32 {
        /// The prime.
        p: u64,
        /// `−p⁻¹ mod 2^32`.
        neg_inv: u64,
        /// `2^64 mod p`.
        r2: u64,
    },
    /// `u32` words, odd `p < 2^32` (with a limb above 2^31): Barrett with `mu = ⌊2^64 / p⌋`. `x = a·b < 2^64`, `q =
    /// hi(x·mu)` is `⌊x / p⌋` or one less, so `x − q·p < 2p` (in 64 bits); one conditional
    /// subtraction.
    Barrett32 {
        /// The prime.
        p: u64,
        /// `⌊2^64 / p⌋`.
        mu: u64,
    },
    /// `u64` words, odd `p < 2^63`: two Montgomery reductions with `R = 2^64`,
    /// `a·b = redc(redc(a·b) · (R² mod p))`.
    Montgomery64 {
        /// The prime.
        p: u64,
        /// `−p⁻¹ mod 2^64`.
        neg_inv: u64,
        /// `2^128 mod p`.
        r2: u64,
    },
    /// The Goldilocks prime with its own reduction of the 128-bit product (the transforms';
    /// [`PointwiseProduct::mul`] computes it exactly instead of modelling it).
    Goldilocks,
}

impl PointwiseProduct {
    /// The reduction for `p` in the words a batch's [`NttArithmetic`] uses: `u32` below 2^31
    /// ([`PointwiseProduct::Montgomery32`]) and below 2^32 ([`PointwiseProduct::Barrett32`]),
    /// else Goldilocks or Montgomery below 2^63. Errors: `p` even, below 3, or between 2^63 and
    /// 2^64 other than Goldilocks (no NTT plan takes those).
    ///
    /// ```
    /// use tensorfft::ntt::pointwise::PointwiseProduct;
    /// assert!(matches!(PointwiseProduct::for_modulus(tensorfft::ntt::KOALA_BEAR).unwrap(), PointwiseProduct::Montgomery32 { .. }));
    /// assert!(matches!(PointwiseProduct::for_modulus(tensorfft::ntt::PRIME_32).unwrap(), PointwiseProduct::Barrett32 { .. }));
    /// assert!(PointwiseProduct::for_modulus(1 << 40).is_err());
    /// ```
    pub fn for_modulus(p: u64) -> Result<Self> {
        if p < 3 || p.is_multiple_of(2) {
            return Err(Error::InvalidSize(format!(
                "pointwise products modulo {p}: an odd prime is needed"
            )));
        }
        if p == super::GOLDILOCKS {
            Ok(PointwiseProduct::Goldilocks)
        } else if p < 1 << 31 {
            Ok(Self::montgomery32(p))
        } else if p < 1 << 32 {
            Ok(PointwiseProduct::Barrett32 {
                p,
                mu: ((1u128 << 64) / p as u128) as u64,
            })
        } else if p < 1 << 63 {
            Ok(Self::montgomery(p))
        } else {
            Err(Error::unsupported(
                format!("pointwise products modulo {p}"),
                "primes below 2^63, and Goldilocks",
            ))
        }
    }

    /// Barrett constants of an odd `p < 2^32`.
    fn barrett32(p: u64) -> Self {
        PointwiseProduct::Barrett32 {
            p,
            mu: ((1u128 << 64) / p as u128) as u64,
        }
    }

    /// Montgomery constants of an odd `p < 2^31` with `R = 2^32`.
    fn montgomery32(p: u64) -> Self {
        // Newton's iteration for p⁻¹ mod 2^32, as in `montgomery`.
        let p32 = p as u32;
        let mut inv = p32;
        for _ in 0..4 {
            inv = inv.wrapping_mul(2u32.wrapping_sub(p32.wrapping_mul(inv)));
        }
        PointwiseProduct::Montgomery32 {
            p,
            neg_inv: inv.wrapping_neg() as u64,
            r2: ((1u128 << 64) % p as u128) as u64,
        }
    }

    /// Montgomery constants of an odd `p < 2^63`.
    fn montgomery(p: u64) -> Self {
        // Newton's iteration for p⁻¹ mod 2^64: each step doubles the correct low bits, and p
        // itself is right to 3 bits for odd p (p·p ≡ 1 mod 8).
        let mut inv = p;
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(inv)));
        }
        let r = ((1u128 << 64) % p as u128) as u64;
        PointwiseProduct::Montgomery64 {
            p,
            neg_inv: inv.wrapping_neg(),
            r2: ((r as u128 * r as u128) % p as u128) as u64,
        }
    }

    /// `a · b mod p` for `a, b < p`, by the kernel's algorithm.
    ///
    /// ```
    /// use tensorfft::ntt::pointwise::PointwiseProduct;
    /// let f = PointwiseProduct::for_modulus(tensorfft::ntt::FHE_62).unwrap();
    /// assert_eq!(f.mul(3, 5), 15);
    /// ```
    pub fn mul(self, a: u64, b: u64) -> u64 {
        match self {
            PointwiseProduct::Barrett32 { p, mu } => {
                let x = a * b;
                let q = ((x as u128 * mu as u128) >> 64) as u64;
                let r = x.wrapping_sub(q.wrapping_mul(p));
                if r >= p {
                    r - p
                } else {
                    r
                }
            }
            PointwiseProduct::Montgomery32 { p, neg_inv, r2 } => {
                // In the kernel's 32- and 64-bit operations: t < p·2^32 and m·p < 2^32·p, so
                // t + m·p < 2^64; its low 32 bits are zero.
                let redc = |t: u64| -> u64 {
                    let m = (t as u32).wrapping_mul(neg_inv as u32);
                    let u = ((t + m as u64 * p) >> 32) as u32;
                    u.min(u.wrapping_sub(p as u32)) as u64
                };
                redc(redc(a * b) * r2)
            }
            PointwiseProduct::Montgomery64 { p, neg_inv, r2 } => {
                let redc = |t: u128| -> u64 {
                    let (lo, hi) = (t as u64, (t >> 64) as u64);
                    let m = lo.wrapping_mul(neg_inv);
                    let u = hi
                        .wrapping_add(((m as u128 * p as u128) >> 64) as u64)
                        .wrapping_add(u64::from(lo != 0));
                    if u >= p {
                        u - p
                    } else {
                        u
                    }
                };
                redc(redc(a as u128 * b as u128) as u128 * r2 as u128)
            }
            PointwiseProduct::Goldilocks => {
                ((a as u128 * b as u128) % super::GOLDILOCKS as u128) as u64
            }
        }
    }

    /// The limb's constants as the kernel's table holds them: the device struct's `u64` fields
    /// in order (`p, mu`; `p, −p⁻¹, R² mod p`; `p`).
    ///
    /// ```
    /// use tensorfft::ntt::pointwise::PointwiseProduct;
    /// let f = PointwiseProduct::for_modulus(tensorfft::ntt::GOLDILOCKS).unwrap();
    /// assert_eq!(f.device_words(), vec![tensorfft::ntt::GOLDILOCKS]);
    /// ```
    pub fn device_words(self) -> Vec<u64> {
        match self {
            PointwiseProduct::Barrett32 { p, mu } => vec![p, mu],
            PointwiseProduct::Montgomery32 { p, neg_inv, r2 } => vec![p, neg_inv, r2],
            PointwiseProduct::Montgomery64 { p, neg_inv, r2 } => vec![p, neg_inv, r2],
            PointwiseProduct::Goldilocks => vec![super::GOLDILOCKS],
        }
    }

    /// The device struct's name in `ntt_pointwise.cuh`.
    ///
    /// ```
    /// use tensorfft::ntt::pointwise::PointwiseProduct;
    /// assert_eq!(PointwiseProduct::for_modulus(7).unwrap().device_struct(), "MontgomeryProduct32");
    /// ```
    pub fn device_struct(self) -> &'static str {
        match self {
            PointwiseProduct::Montgomery32 { .. } => "MontgomeryProduct32",
            PointwiseProduct::Barrett32 { .. } => "BarrettProduct32",
            PointwiseProduct::Montgomery64 { .. } => "MontgomeryProduct64",
            PointwiseProduct::Goldilocks => "GoldilocksProduct",
        }
    }
}

/// The per-limb reductions of `batch` in words of `word_bytes` bytes (4 or 8; the words its
/// transforms take, [`NttArithmetic::for_moduli`]'s errors otherwise), all of one variant (one
/// kernel serves every limb): in 8-byte words Montgomery (or Goldilocks'), in 4-byte words
/// Montgomery where every limb is below 2^31, else Barrett.
///
/// ```
/// use tensorfft::ntt::pointwise::{limb_products, PointwiseProduct};
/// use tensorfft::ntt::{NttBatch, NttKind, BABY_BEAR, KOALA_BEAR, PRIME_32};
/// let b = NttBatch::limbs(&[BABY_BEAR, KOALA_BEAR], 16, NttKind::Cyclic).unwrap();
/// assert_eq!(limb_products(&b, 4).unwrap().len(), 2);
/// assert!(limb_products(&b, 2).is_err());
/// let mixed = NttBatch::limbs(&[BABY_BEAR, PRIME_32], 16, NttKind::Cyclic).unwrap();
/// assert!(limb_products(&mixed, 4).unwrap().iter().all(|f| matches!(f, PointwiseProduct::Barrett32 { .. })));
/// ```
pub fn limb_products(batch: &NttBatch, word_bytes: usize) -> Result<Vec<PointwiseProduct>> {
    let moduli = batch.moduli();
    NttArithmetic::for_moduli(&moduli, word_bytes)?;
    let below_2_31 = moduli.iter().all(|&p| p < 1 << 31);
    moduli
        .into_iter()
        .map(|p| match PointwiseProduct::for_modulus(p)? {
            // A 32-bit prime in 8-byte words: the Montgomery path takes any odd p < 2^63.
            PointwiseProduct::Barrett32 { .. } | PointwiseProduct::Montgomery32 { .. }
                if word_bytes == 8 =>
            {
                Ok(PointwiseProduct::montgomery(p))
            }
            // A limb above 2^31 in 4-byte words: Barrett for all.
            PointwiseProduct::Montgomery32 { .. } if !below_2_31 => {
                Ok(PointwiseProduct::barrett32(p))
            }
            f => Ok(f),
        })
        .collect()
}

/// `a · b` word by word modulo each word's limb (transform `t` uses limb `t mod limbs`; the
/// batch's layout says which transform a word belongs to, [`NttBatch::locate`]), exactly. Errors:
/// a length other than `batch.len()`, a value not below its limb's modulus.
///
/// ```
/// use tensorfft::ntt::{pointwise::pointwise_reference, NttBatch, NttKind, BABY_BEAR, KOALA_BEAR};
/// let b = NttBatch::limbs(&[BABY_BEAR, KOALA_BEAR], 2, NttKind::Cyclic).unwrap();
/// let x = [BABY_BEAR - 1, 2, KOALA_BEAR - 1, 3];
/// assert_eq!(pointwise_reference(&b, &x, &x).unwrap(), vec![1, 4, 1, 9]);
/// ```
pub fn pointwise_reference(batch: &NttBatch, a: &[u64], b: &[u64]) -> Result<Vec<u64>> {
    batch.validate(a)?;
    batch.validate(b)?;
    let moduli = batch
        .moduli()
        .into_iter()
        .map(Modulus::new)
        .collect::<Result<Vec<_>>>()?;
    Ok((0..a.len())
        .map(|w| moduli[batch.locate(w).0 % moduli.len()].mul(a[w], b[w]))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::{ntt_friendly_primes, NttKind};

    /// Edge values and a pseudo-random spread of `[0, p)`.
    fn values(p: u64) -> Vec<u64> {
        let mut v = vec![0, 1, 2, p / 2, p / 2 + 1, p - 2, p - 1];
        let mut s = 0x9E37_79B9_7F4A_7C15u64 ^ p;
        for _ in 0..120 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            v.push(s % p);
        }
        v
    }

    #[test]
    fn kernel_reductions_match_exact_arithmetic() {
        // Both ends of each word's range: small primes, BabyBear, KoalaBear, 2^31 − 1, primes
        // above 2^31 and the largest below 2^32, the 62-bit FHE prime, the largest 63-bit NTT
        // primes, Goldilocks; 32-bit primes also in 8-byte words (Montgomery).
        let mut primes = vec![
            3,
            5,
            crate::ntt::BABY_BEAR,
            crate::ntt::KOALA_BEAR,
            (1 << 31) - 1,
            crate::ntt::PRIME_32,
            4_294_967_291, // the largest prime below 2^32
            crate::ntt::FHE_62,
            crate::ntt::GOLDILOCKS,
        ];
        primes.extend(ntt_friendly_primes(63, 1 << 15, 2).unwrap());
        primes.extend(ntt_friendly_primes(40, 1 << 10, 1).unwrap());
        for p in primes {
            let m = Modulus::new(p).unwrap();
            // Montgomery with R = 2^32 and Barrett for primes below 2^31 (Barrett: in a batch
            // with a limb above 2^31), Montgomery with R = 2^64 in 8-byte words.
            let mut reductions = vec![];
            if p < 1 << 31 {
                reductions.push(PointwiseProduct::montgomery32(p));
            }
            if p < 1 << 32 {
                reductions.push(PointwiseProduct::barrett32(p));
            }
            let batch = NttBatch::new(crate::ntt::NttSpec::new(p, 2, NttKind::Cyclic).unwrap());
            reductions.push(limb_products(&batch, 8).unwrap()[0]);
            if p < 1 << 32 {
                reductions.push(limb_products(&batch, 4).unwrap()[0]);
            }
            for f in reductions {
                let vs = values(p);
                for &x in &vs {
                    for &y in &vs {
                        assert_eq!(f.mul(x, y), m.mul(x, y), "{p} ({f:?}): {x} * {y}");
                    }
                }
            }
        }
    }

    #[test]
    fn reference_follows_the_layout() {
        let moduli = [crate::ntt::BABY_BEAR, 97, 193];
        for interleaved in [false, true] {
            let b = NttBatch::limbs(&moduli, 4, NttKind::Negacyclic)
                .unwrap()
                .batch(2)
                .interleaved(interleaved);
            let x: Vec<u64> = (0..b.len() as u64).map(|w| w % 90 + 1).collect();
            let y = pointwise_reference(&b, &x, &x).unwrap();
            // Transform of word w written out as the kernel's limb_of does (n = 4, 6
            // transforms), not through NttBatch::locate, which the reference itself uses.
            for w in 0..b.len() {
                let t = if interleaved { w % 6 } else { w / 4 };
                assert_eq!(y[w], x[w] * x[w] % moduli[t % 3], "word {w}");
            }
            let mut bad = x.clone();
            bad[5] = 1 << 40;
            assert!(pointwise_reference(&b, &bad, &x).is_err());
            assert!(pointwise_reference(&b, &x[1..], &x[1..]).is_err());
        }
    }
}
