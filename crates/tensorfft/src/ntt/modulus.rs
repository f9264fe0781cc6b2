//! Arithmetic modulo a prime below 2^64: the CPU side of the NTT (reference executor, twiddle
//! tables, root finding). Products go through `u128`, so every modulus up to Goldilocks
//! (2^64 − 2^32 + 1) is exact; the GPU kernels use Montgomery or Shoup forms of the same values.

use crate::error::{Error, Result};

/// A prime modulus `p` with `2 < p < 2^64`.
///
/// ```
/// use tensorfft::ntt::Modulus;
/// let m = Modulus::new(tensorfft::ntt::BABY_BEAR).unwrap();
/// assert_eq!(m.mul(m.value() - 1, m.value() - 1), 1); // (-1)·(-1) = 1
/// assert!(Modulus::new(15).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Modulus {
    p: u64,
}

impl Modulus {
    /// The modulus `p`, after checking that it is an odd prime.
    ///
    /// ```
    /// assert!(tensorfft::ntt::Modulus::new(tensorfft::ntt::GOLDILOCKS).is_ok());
    /// ```
    pub fn new(p: u64) -> Result<Self> {
        if p <= 2 || !is_prime(p) {
            return Err(Error::ModulusNotPrime { modulus: p });
        }
        Ok(Modulus { p })
    }

    /// The value of `p`.
    ///
    /// ```
    /// assert_eq!(tensorfft::ntt::Modulus::new(17).unwrap().value(), 17);
    /// ```
    pub fn value(&self) -> u64 {
        self.p
    }

    /// The largest `k` with `2^k` dividing `p − 1`: transforms (cyclic) of up to `2^k` points
    /// and negacyclic ones of up to `2^(k−1)` exist modulo `p`.
    ///
    /// ```
    /// assert_eq!(tensorfft::ntt::Modulus::new(tensorfft::ntt::BABY_BEAR).unwrap().two_adicity(), 27);
    /// ```
    pub fn two_adicity(&self) -> u32 {
        (self.p - 1).trailing_zeros()
    }

    /// `(a + b) mod p` for `a, b < p`.
    ///
    /// ```
    /// assert_eq!(tensorfft::ntt::Modulus::new(17).unwrap().add(16, 5), 4);
    /// ```
    pub fn add(&self, a: u64, b: u64) -> u64 {
        let s = a as u128 + b as u128;
        (if s >= self.p as u128 {
            s - self.p as u128
        } else {
            s
        }) as u64
    }

    /// `(a − b) mod p` for `a, b < p`.
    ///
    /// ```
    /// assert_eq!(tensorfft::ntt::Modulus::new(17).unwrap().sub(3, 5), 15);
    /// ```
    pub fn sub(&self, a: u64, b: u64) -> u64 {
        if a >= b {
            a - b
        } else {
            (a as u128 + self.p as u128 - b as u128) as u64
        }
    }

    /// `(a · b) mod p`.
    ///
    /// ```
    /// assert_eq!(tensorfft::ntt::Modulus::new(17).unwrap().mul(5, 7), 1);
    /// ```
    pub fn mul(&self, a: u64, b: u64) -> u64 {
        ((a as u128 * b as u128) % self.p as u128) as u64
    }

    /// `a^e mod p`.
    ///
    /// ```
    /// assert_eq!(tensorfft::ntt::Modulus::new(17).unwrap().pow(3, 16), 1); // Fermat
    /// ```
    pub fn pow(&self, a: u64, mut e: u64) -> u64 {
        let mut base = a % self.p;
        let mut acc = 1 % self.p;
        while e > 0 {
            if e & 1 == 1 {
                acc = self.mul(acc, base);
            }
            base = self.mul(base, base);
            e >>= 1;
        }
        acc
    }

    /// The inverse of `a` (`a^(p−2)`), or `None` for `a ≡ 0`.
    ///
    /// ```
    /// let m = tensorfft::ntt::Modulus::new(17).unwrap();
    /// assert_eq!(m.mul(5, m.inv(5).unwrap()), 1);
    /// assert!(m.inv(0).is_none());
    /// ```
    pub fn inv(&self, a: u64) -> Option<u64> {
        let a = a % self.p;
        (a != 0).then(|| self.pow(a, self.p - 2))
    }

    /// A primitive root of unity of order `order` (a power of two): the same one on every call
    /// (from the smallest `x ≥ 2` whose `(p − 1)/2^k`-th power has order exactly `2^k`, `k` the
    /// two-adicity, raised to the power `2^k / order`), or [`Error::NoRootOfUnity`] when `order`
    /// does not divide `2^k`.
    ///
    /// ```
    /// let m = tensorfft::ntt::Modulus::new(tensorfft::ntt::BABY_BEAR).unwrap();
    /// let w = m.root_of_unity(1 << 10).unwrap();
    /// assert_eq!(m.pow(w, 1 << 10), 1);
    /// assert_eq!(m.pow(w, 1 << 9), m.value() - 1);
    /// assert!(m.root_of_unity(1 << 28).is_err());
    /// ```
    pub fn root_of_unity(&self, order: u64) -> Result<u64> {
        let k = self.two_adicity();
        if !order.is_power_of_two() || order.trailing_zeros() > k {
            return Err(Error::NoRootOfUnity {
                modulus: self.p,
                order,
            });
        }
        let odd = (self.p - 1) >> k;
        // x^odd has order 2^k exactly when its 2^(k-1)-th power is -1; half of all x qualify.
        let y = (2..self.p)
            .map(|x| self.pow(x, odd))
            .find(|&y| self.pow(y, 1u64 << (k - 1)) == self.p - 1)
            .ok_or(Error::NoRootOfUnity {
                modulus: self.p,
                order,
            })?;
        Ok(self.pow(y, 1u64 << (k - order.trailing_zeros())))
    }
}

/// Whether `n` is prime: Miller–Rabin with the first twelve primes as bases, which is exact for
/// every 64-bit `n`.
///
/// ```
/// use tensorfft::ntt::is_prime;
/// assert!(is_prime(tensorfft::ntt::GOLDILOCKS) && is_prime(2) && !is_prime(1) && !is_prime(561));
/// ```
pub fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    for &b in &BASES {
        if n.is_multiple_of(b) {
            return n == b;
        }
    }
    let mulmod = |a: u64, b: u64| ((a as u128 * b as u128) % n as u128) as u64;
    let powmod = |mut a: u64, mut e: u64| {
        let mut acc = 1u64;
        while e > 0 {
            if e & 1 == 1 {
                acc = mulmod(acc, a);
            }
            a = mulmod(a, a);
            e >>= 1;
        }
        acc
    };
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    BASES.iter().all(|&a| {
        let mut x = powmod(a, d);
        if x == 1 || x == n - 1 {
            return true;
        }
        for _ in 1..s {
            x = mulmod(x, x);
            if x == n - 1 {
                return true;
            }
        }
        false
    })
}
