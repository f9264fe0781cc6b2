//! Transform shapes: dimensions and batch.

use crate::error::{Error, Result};

/// The shape of a batched transform: its dimensions (slowest first) and how many transforms are
/// stored back to back.
///
/// ```
/// use tensorfft::Shape;
/// let s = Shape::new([4096]).batch(32768);
/// assert_eq!(s.dims(), &[4096]);
/// assert_eq!(s.batch_count(), 32768);
/// assert_eq!(s.total_elements().unwrap(), 4096 * 32768);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    dims: Vec<usize>,
    batch: usize,
}

impl Shape {
    /// A single transform with these dimensions.
    ///
    /// ```
    /// assert_eq!(tensorfft::Shape::new([8, 8]).dims().len(), 2);
    /// ```
    pub fn new<const D: usize>(dims: [usize; D]) -> Self {
        Shape {
            dims: dims.to_vec(),
            batch: 1,
        }
    }

    /// The same shape from a slice of dimensions.
    ///
    /// ```
    /// assert_eq!(tensorfft::Shape::from_dims(&[16]).dims(), &[16]);
    /// ```
    pub fn from_dims(dims: &[usize]) -> Self {
        Shape {
            dims: dims.to_vec(),
            batch: 1,
        }
    }

    /// Sets the number of transforms stored back to back.
    ///
    /// ```
    /// assert_eq!(tensorfft::Shape::new([16]).batch(3).batch_count(), 3);
    /// ```
    pub fn batch(mut self, batch: usize) -> Self {
        self.batch = batch;
        self
    }

    /// The dimensions, slowest varying first.
    ///
    /// ```
    /// assert_eq!(tensorfft::Shape::new([16]).dims(), &[16]);
    /// ```
    pub fn dims(&self) -> &[usize] {
        &self.dims
    }

    /// The number of transforms.
    ///
    /// ```
    /// assert_eq!(tensorfft::Shape::new([16]).batch_count(), 1);
    /// ```
    pub fn batch_count(&self) -> usize {
        self.batch
    }

    /// Elements of one transform, checked for zero sizes and overflow.
    ///
    /// ```
    /// assert!(tensorfft::Shape::new([0]).transform_elements().is_err());
    /// ```
    pub fn transform_elements(&self) -> Result<usize> {
        if self.dims.is_empty() {
            return Err(Error::InvalidSize(
                "a shape needs at least one dimension".into(),
            ));
        }
        self.dims.iter().try_fold(1usize, |acc, &d| {
            if d == 0 {
                return Err(Error::InvalidSize(format!(
                    "dimension of size 0 in {:?}",
                    self.dims
                )));
            }
            acc.checked_mul(d)
                .ok_or_else(|| Error::InvalidSize(format!("{:?} overflows usize", self.dims)))
        })
    }

    /// Elements of the whole batch, checked for zero sizes and overflow.
    ///
    /// ```
    /// assert!(tensorfft::Shape::new([16]).batch(0).total_elements().is_err());
    /// assert!(tensorfft::Shape::new([1 << 40]).batch(1 << 40).total_elements().is_err());
    /// ```
    pub fn total_elements(&self) -> Result<usize> {
        if self.batch == 0 {
            return Err(Error::InvalidSize("batch of 0 transforms".into()));
        }
        self.transform_elements()?
            .checked_mul(self.batch)
            .ok_or_else(|| {
                Error::InvalidSize(format!(
                    "{:?} x batch {} overflows usize",
                    self.dims, self.batch
                ))
            })
    }
}
