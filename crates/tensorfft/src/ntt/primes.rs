//! NTT-friendly primes: the presets ZK and FHE users ask for, and a finder for FHE moduli.

use super::modulus::is_prime;
use crate::error::{Error, Result};

/// BabyBear, 15·2^27 + 1 (31 bits, two-adicity 27): zero-knowledge proving (RISC Zero, SP1).
pub const BABY_BEAR: u64 = 2_013_265_921;
/// KoalaBear, 127·2^24 + 1 (31 bits, two-adicity 24): zero-knowledge proving (Plonky3).
pub const KOALA_BEAR: u64 = 2_130_706_433;
/// 3·2^30 + 1 (32 bits, two-adicity 30): a prime above 2^31 for `u32` words (the
/// `Shoup32Full` arithmetic), e.g. 32-bit RNS limbs.
pub const PRIME_32: u64 = 3_221_225_473;
/// Goldilocks, 2^64 − 2^32 + 1 (two-adicity 32): zero-knowledge proving (Plonky2).
pub const GOLDILOCKS: u64 = 0xFFFF_FFFF_0000_0001;
/// The largest 62-bit prime ≡ 1 mod 2^18 (two-adicity 19), for negacyclic FHE transforms of up
/// to 2^17 points: `ntt_friendly_primes(62, 1 << 17, 1)[0]`.
pub const FHE_62: u64 = 0x3FFF_FFFF_FFE8_0001;

/// The `count` largest primes of exactly `bits` bits with `p ≡ 1 (mod 2·n)`, the moduli of
/// negacyclic transforms of `n` points (RNS limbs of an FHE scheme), largest first. Errors when
/// `n` is not a power of two, `bits` is not in `2·log2(n) + 2 ..= 63`, or fewer exist.
///
/// ```
/// use tensorfft::ntt::{ntt_friendly_primes, Modulus};
/// let ps = ntt_friendly_primes(40, 1 << 16, 3).unwrap();
/// assert_eq!(ps.len(), 3);
/// for p in ps {
///     assert_eq!(p >> 39, 1); // 40 bits
///     assert_eq!(p % (1 << 17), 1);
///     assert!(Modulus::new(p).is_ok());
/// }
/// ```
pub fn ntt_friendly_primes(bits: u32, n: usize, count: usize) -> Result<Vec<u64>> {
    if !n.is_power_of_two() {
        return Err(Error::NotPowerOfTwo { n });
    }
    let step = 2 * n as u64;
    let min_bits = 2 * n.trailing_zeros() + 2;
    if !(min_bits..=63).contains(&bits) {
        return Err(Error::Unsupported {
            what: format!("{bits}-bit primes ≡ 1 mod {step}"),
            supported: format!("{min_bits} to 63 bits for n = {n}"),
        });
    }
    let (lo, hi) = (1u64 << (bits - 1), (1u64 << bits) - 1);
    let mut out = Vec::with_capacity(count);
    // The largest candidate ≡ 1 mod step below 2^bits, then down in steps.
    let mut p = (hi - 1) / step * step + 1;
    while out.len() < count && p > lo {
        if is_prime(p) {
            out.push(p);
        }
        p -= step;
    }
    if out.len() < count {
        return Err(Error::Unsupported {
            what: format!("{count} primes of {bits} bits ≡ 1 mod {step}"),
            supported: format!("{} of them", out.len()),
        });
    }
    Ok(out)
}
