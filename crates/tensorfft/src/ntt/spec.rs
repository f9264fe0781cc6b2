//! What an NTT computes: modulus, length, cyclic or negacyclic, element orders, scaling.

use super::modulus::Modulus;
use crate::error::{Error, Result};
use crate::plan::Direction;

/// Cyclic (`X_k = Σ x_j ω^{jk}`, products mod `X^N − 1`) or negacyclic (`X_k = Σ x_j ψ^{j(2k+1)}`
/// with `ψ² = ω`, products mod `X^N + 1`, as FHE schemes use).
///
/// ```
/// assert_ne!(tensorfft::ntt::NttKind::Cyclic, tensorfft::ntt::NttKind::Negacyclic);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NttKind {
    /// Roots of `X^N − 1`.
    Cyclic,
    /// Roots of `X^N + 1` (the 2N-th root ψ folded into the transform).
    Negacyclic,
}

/// Order of the elements of an array: natural, or bit-reversed index (FHE pipelines stay in
/// bit-reversed order between transforms).
///
/// ```
/// assert_eq!(tensorfft::ntt::Order::BitReversed.index(1, 8), 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// Element `k` at position `k`.
    Natural,
    /// Element `k` at position `bitrev(k)`.
    BitReversed,
}

impl Order {
    /// Position of element `k` of an `n`-element array (`n` a power of two).
    ///
    /// ```
    /// use tensorfft::ntt::Order;
    /// assert_eq!((Order::Natural.index(3, 8), Order::BitReversed.index(3, 8)), (3, 6));
    /// ```
    pub fn index(self, k: usize, n: usize) -> usize {
        match self {
            Order::Natural => k,
            Order::BitReversed if n <= 1 => k,
            Order::BitReversed => k.reverse_bits() >> (usize::BITS - n.trailing_zeros()),
        }
    }
}

/// One NTT: a prime modulus, a power-of-two length, cyclic or negacyclic, the order of the
/// forward transform's input and output (the inverse maps the output order back to the input
/// order, so `inverse(forward(x)) == x`), and whether the inverse scales by `N⁻¹`.
///
/// ```
/// use tensorfft::ntt::{NttKind, NttSpec, Order, BABY_BEAR};
/// // sppark's NR: natural in, bit-reversed out.
/// let spec = NttSpec::new(BABY_BEAR, 1 << 20, NttKind::Cyclic).unwrap()
///     .with_orders(Order::Natural, Order::BitReversed);
/// assert_eq!(spec.n(), 1 << 20);
/// assert!(NttSpec::new(BABY_BEAR, 1 << 28, NttKind::Cyclic).is_err()); // two-adicity 27
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NttSpec {
    modulus: Modulus,
    n: usize,
    kind: NttKind,
    input_order: Order,
    output_order: Order,
    scale_inverse: bool,
    omega: u64,
    psi: u64,
    coset: u64,
}

impl NttSpec {
    /// A transform of `n` points modulo `p` (natural orders, inverse scaled by `N⁻¹`). Errors:
    /// `p` not an odd prime, `n` not a power of two ≥ 2, no root of unity of order `n` (cyclic)
    /// or `2n` (negacyclic) modulo `p`.
    ///
    /// ```
    /// use tensorfft::ntt::{NttKind, NttSpec, GOLDILOCKS};
    /// assert!(NttSpec::new(GOLDILOCKS, 1 << 22, NttKind::Negacyclic).is_ok());
    /// assert!(NttSpec::new(GOLDILOCKS, 3, NttKind::Cyclic).is_err());
    /// assert!(NttSpec::new(GOLDILOCKS - 2, 8, NttKind::Cyclic).is_err());
    /// ```
    pub fn new(p: u64, n: usize, kind: NttKind) -> Result<Self> {
        let modulus = Modulus::new(p)?;
        if n < 2 || !n.is_power_of_two() {
            return Err(Error::NotPowerOfTwo { n });
        }
        let (omega, psi) = match kind {
            NttKind::Cyclic => (modulus.root_of_unity(n as u64)?, 1),
            NttKind::Negacyclic => {
                let psi = modulus.root_of_unity(2 * n as u64)?;
                (modulus.mul(psi, psi), psi)
            }
        };
        Ok(NttSpec {
            modulus,
            n,
            kind,
            input_order: Order::Natural,
            output_order: Order::Natural,
            scale_inverse: true,
            omega,
            psi,
            coset: 1,
        })
    }

    /// The same transform with the forward input and output in the given orders.
    ///
    /// ```
    /// use tensorfft::ntt::{NttKind, NttSpec, Order, KOALA_BEAR};
    /// let s = NttSpec::new(KOALA_BEAR, 16, NttKind::Cyclic).unwrap().with_orders(Order::BitReversed, Order::Natural);
    /// assert_eq!(s.orders(), (Order::BitReversed, Order::Natural));
    /// ```
    pub fn with_orders(mut self, input: Order, output: Order) -> Self {
        self.input_order = input;
        self.output_order = output;
        self
    }

    /// The same transform with the inverse scaled by `N⁻¹` or not.
    ///
    /// ```
    /// use tensorfft::ntt::{NttKind, NttSpec, BABY_BEAR};
    /// assert!(!NttSpec::new(BABY_BEAR, 8, NttKind::Cyclic).unwrap().with_inverse_scaling(false).scales_inverse());
    /// ```
    pub fn with_inverse_scaling(mut self, scale: bool) -> Self {
        self.scale_inverse = scale;
        self
    }

    /// The modulus.
    ///
    /// ```
    /// use tensorfft::ntt::{NttKind, NttSpec, BABY_BEAR};
    /// assert_eq!(NttSpec::new(BABY_BEAR, 8, NttKind::Cyclic).unwrap().modulus().value(), BABY_BEAR);
    /// ```
    pub fn modulus(&self) -> Modulus {
        self.modulus
    }

    /// The length `N`.
    ///
    /// ```
    /// use tensorfft::ntt::{NttKind, NttSpec, BABY_BEAR};
    /// assert_eq!(NttSpec::new(BABY_BEAR, 8, NttKind::Cyclic).unwrap().n(), 8);
    /// ```
    pub fn n(&self) -> usize {
        self.n
    }

    /// Cyclic or negacyclic.
    ///
    /// ```
    /// use tensorfft::ntt::{NttKind, NttSpec, BABY_BEAR};
    /// assert_eq!(NttSpec::new(BABY_BEAR, 8, NttKind::Negacyclic).unwrap().kind(), NttKind::Negacyclic);
    /// ```
    pub fn kind(&self) -> NttKind {
        self.kind
    }

    /// The forward transform's input and output orders.
    ///
    /// ```
    /// use tensorfft::ntt::{NttKind, NttSpec, Order, BABY_BEAR};
    /// assert_eq!(NttSpec::new(BABY_BEAR, 8, NttKind::Cyclic).unwrap().orders(), (Order::Natural, Order::Natural));
    /// ```
    pub fn orders(&self) -> (Order, Order) {
        (self.input_order, self.output_order)
    }

    /// Whether the inverse scales by `N⁻¹`.
    ///
    /// ```
    /// use tensorfft::ntt::{NttKind, NttSpec, BABY_BEAR};
    /// assert!(NttSpec::new(BABY_BEAR, 8, NttKind::Cyclic).unwrap().scales_inverse());
    /// ```
    pub fn scales_inverse(&self) -> bool {
        self.scale_inverse
    }

    /// The primitive `N`-th root of unity ω the transform uses.
    ///
    /// ```
    /// use tensorfft::ntt::{NttKind, NttSpec, BABY_BEAR};
    /// let s = NttSpec::new(BABY_BEAR, 8, NttKind::Cyclic).unwrap();
    /// assert_eq!(s.modulus().pow(s.omega(), 8), 1);
    /// ```
    pub fn omega(&self) -> u64 {
        self.omega
    }

    /// The primitive `2N`-th root ψ of a negacyclic transform (`ψ² = ω`); 1 for cyclic ones.
    ///
    /// ```
    /// use tensorfft::ntt::{NttKind, NttSpec, BABY_BEAR};
    /// let s = NttSpec::new(BABY_BEAR, 8, NttKind::Negacyclic).unwrap();
    /// assert_eq!(s.modulus().pow(s.psi(), 8), BABY_BEAR - 1);
    /// ```
    pub fn psi(&self) -> u64 {
        self.psi
    }

    /// The same transform on the coset `g·H` of the `N`-th roots of unity `H` (ZK provers'
    /// low-degree extensions): the forward transform evaluates the input polynomial at `g·ω^k`
    /// (negacyclic: `g·ψ·ω^k`), `X_k = Σ_j x_j (g ψ)^j ω^{jk}` (ψ = 1 for cyclic transforms), the
    /// inverse interpolates back; pointwise products of such spectra are products modulo
    /// `X^N − g^N` (negacyclic: `X^N + g^N`). `g` is taken modulo `p` and replaces an earlier
    /// coset; `g ≡ 1` is the plain transform. Errors: `g ≡ 0 (mod p)`.
    ///
    /// ```
    /// use tensorfft::ntt::{fast_ntt, NttKind, NttSpec, BABY_BEAR};
    /// use tensorfft::Direction;
    /// let s = NttSpec::new(BABY_BEAR, 4, NttKind::Cyclic).unwrap().with_coset(31).unwrap();
    /// // The polynomial 1 + X evaluated at 31·ω^k: 32 at k = 0.
    /// assert_eq!(fast_ntt(&s, Direction::Forward, &[1, 1, 0, 0]).unwrap()[0], 32);
    /// assert!(NttSpec::new(BABY_BEAR, 4, NttKind::Cyclic).unwrap().with_coset(BABY_BEAR).is_err());
    /// ```
    pub fn with_coset(mut self, g: u64) -> Result<Self> {
        let g = g % self.modulus.value();
        if g == 0 {
            return Err(Error::InvalidSize(format!(
                "a coset generator ≡ 0 mod {}",
                self.modulus.value()
            )));
        }
        self.coset = g;
        Ok(self)
    }

    /// The coset generator `g` (1: the plain transform).
    ///
    /// ```
    /// use tensorfft::ntt::{NttKind, NttSpec, GOLDILOCKS};
    /// assert_eq!(NttSpec::new(GOLDILOCKS, 8, NttKind::Cyclic).unwrap().coset(), 1);
    /// ```
    pub fn coset(&self) -> u64 {
        self.coset
    }

    /// The base `g·ψ` of the weights `(gψ)^j` the forward transform multiplies its inputs by
    /// (the inverse: `(gψ)^{-j}` on its outputs); 1 for a plain cyclic transform.
    ///
    /// ```
    /// use tensorfft::ntt::{NttKind, NttSpec, BABY_BEAR};
    /// let s = NttSpec::new(BABY_BEAR, 8, NttKind::Negacyclic).unwrap().with_coset(31).unwrap();
    /// assert_eq!(s.twist(), s.modulus().mul(s.psi(), 31));
    /// ```
    pub fn twist(&self) -> u64 {
        self.modulus.mul(self.psi, self.coset)
    }

    /// Checks that every value of `data` (whole transforms of `N` values) lies in `[0, p)`: the
    /// precondition of every transform, checked only when asked.
    ///
    /// ```
    /// use tensorfft::ntt::{NttKind, NttSpec};
    /// let s = NttSpec::new(17, 4, NttKind::Cyclic).unwrap();
    /// assert!(s.validate(&[0, 16, 3, 4]).is_ok());
    /// assert!(s.validate(&[0, 17, 3, 4]).is_err());
    /// assert!(s.validate(&[0, 1, 2]).is_err()); // not whole transforms
    /// ```
    pub fn validate(&self, data: &[u64]) -> Result<()> {
        if data.is_empty() || !data.len().is_multiple_of(self.n) {
            return Err(Error::LengthMismatch {
                expected: self.n * (data.len() / self.n).max(1),
                actual: data.len(),
            });
        }
        let p = self.modulus.value();
        match data.iter().position(|&v| v >= p) {
            Some(index) => Err(Error::NotReduced {
                index,
                value: data[index],
                modulus: p,
            }),
            None => Ok(()),
        }
    }

    /// The root a transform in direction `dir` multiplies by: ω forward, ω⁻¹ inverse.
    pub(crate) fn root(&self, dir: Direction) -> u64 {
        match dir {
            Direction::Forward => self.omega,
            Direction::Inverse => self.modulus.inv(self.omega).unwrap_or(1),
        }
    }
}
