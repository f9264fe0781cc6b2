//! Element types of transform data: complex f16, bf16, f32 and f64.

use crate::plan::Precision;
use half::{bf16, f16};
use num_complex::Complex;

mod sealed {
    pub trait Sealed {}
    impl Sealed for num_complex::Complex<half::f16> {}
    impl Sealed for num_complex::Complex<half::bf16> {}
    impl Sealed for num_complex::Complex<f32> {}
    impl Sealed for num_complex::Complex<f64> {}
}

/// A complex element the library stores and transforms: `Complex<f16>`, `Complex<bf16>`,
/// `Complex<f32>` or `Complex<f64>`, interleaved (re, im) in memory.
///
/// ```
/// use tensorfft::Element;
/// use num_complex::Complex;
/// let x = <Complex<half::f16> as Element>::from_c64(Complex::new(1.0 / 3.0, 2.0));
/// assert!((x.to_c64().re - 1.0 / 3.0).abs() < 1e-3);
/// ```
pub trait Element:
    sealed::Sealed + bytemuck::Pod + Copy + Send + Sync + std::fmt::Debug + 'static
{
    /// The precision this element stores.
    const PRECISION: Precision;
    /// Widens to complex f64 exactly.
    fn to_c64(self) -> Complex<f64>;
    /// Rounds complex f64 to this element (round to nearest even per component).
    fn from_c64(c: Complex<f64>) -> Self;
}

impl Element for Complex<f16> {
    const PRECISION: Precision = Precision::F16;
    fn to_c64(self) -> Complex<f64> {
        Complex::new(self.re.to_f64(), self.im.to_f64())
    }
    fn from_c64(c: Complex<f64>) -> Self {
        Complex::new(f16::from_f64(c.re), f16::from_f64(c.im))
    }
}

impl Element for Complex<bf16> {
    const PRECISION: Precision = Precision::BF16;
    fn to_c64(self) -> Complex<f64> {
        Complex::new(self.re.to_f64(), self.im.to_f64())
    }
    fn from_c64(c: Complex<f64>) -> Self {
        Complex::new(bf16::from_f64(c.re), bf16::from_f64(c.im))
    }
}

impl Element for Complex<f32> {
    const PRECISION: Precision = Precision::F32;
    fn to_c64(self) -> Complex<f64> {
        Complex::new(self.re as f64, self.im as f64)
    }
    fn from_c64(c: Complex<f64>) -> Self {
        Complex::new(c.re as f32, c.im as f32)
    }
}

impl Element for Complex<f64> {
    const PRECISION: Precision = Precision::F64;
    fn to_c64(self) -> Complex<f64> {
        self
    }
    fn from_c64(c: Complex<f64>) -> Self {
        c
    }
}

mod sealed_data {
    pub trait Sealed {}
    impl<T: super::Element> Sealed for T {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

/// What a [`crate::DeviceBuffer`] can hold: the complex [`Element`]s of the FFTs and the `u32` /
/// `u64` words of the number theoretic transforms ([`crate::ntt`]).
///
/// ```
/// fn bytes<T: tensorfft::element::DeviceData>(n: usize) -> usize { n * std::mem::size_of::<T>() }
/// assert_eq!(bytes::<u32>(4), 16);
/// assert_eq!(bytes::<num_complex::Complex<f32>>(4), 32);
/// ```
pub trait DeviceData:
    sealed_data::Sealed + bytemuck::Pod + Copy + Send + Sync + std::fmt::Debug + 'static
{
}

impl<T: Element> DeviceData for T {}
impl DeviceData for u32 {}
impl DeviceData for u64 {}
