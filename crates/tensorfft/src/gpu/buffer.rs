//! Device buffers of complex elements.

use crate::element::DeviceData;
use crate::error::{Error, Result};
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut};
use std::marker::PhantomData;
use std::sync::Arc;

/// `len` complex elements of type `T` in device memory.
///
/// ```no_run
/// use num_complex::Complex;
/// let gpu = tensorfft::Gpu::new(0).unwrap();
/// let buf = gpu.upload(&vec![Complex::new(0.0f32, 1.0); 16]).unwrap();
/// assert_eq!(buf.len(), 16);
/// assert_eq!(buf.num_bytes(), 128);
/// ```
pub struct DeviceBuffer<T: DeviceData> {
    bytes: CudaSlice<u8>,
    len: usize,
    _element: PhantomData<T>,
}

impl<T: DeviceData> DeviceBuffer<T> {
    pub(crate) fn zeros(stream: &Arc<CudaStream>, len: usize) -> Result<Self> {
        let n = len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or_else(|| Error::InvalidSize(format!("{len} elements overflow usize bytes")))?;
        if n == 0 {
            return Err(Error::InvalidSize("a device buffer of 0 elements".into()));
        }
        let bytes = stream.alloc_zeros::<u8>(n)?;
        Ok(DeviceBuffer {
            bytes,
            len,
            _element: PhantomData,
        })
    }

    /// Number of elements.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// assert_eq!(gpu.alloc::<num_complex::Complex<f32>>(5).unwrap().len(), 5);
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: empty buffers cannot be created.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// assert!(!gpu.alloc::<num_complex::Complex<f32>>(5).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Size in bytes.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// assert_eq!(gpu.alloc::<num_complex::Complex<half::f16>>(5).unwrap().num_bytes(), 20);
    /// ```
    pub fn num_bytes(&self) -> usize {
        self.len * std::mem::size_of::<T>()
    }

    /// This buffer as a [`crate::RawBuffer`], for [`crate::GpuPlan::execute_raw`] and foreign
    /// libraries. The address stays valid while the buffer lives; ordering is the caller's.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let b = gpu.alloc::<num_complex::Complex<f32>>(64).unwrap();
    /// assert_eq!(b.raw().len, 64);
    /// ```
    pub fn raw(&self) -> crate::RawBuffer {
        crate::RawBuffer {
            address: self.device_address(self.bytes.stream()),
            len: self.len,
        }
    }

    /// Raw device address, for kernel arguments and foreign libraries. All work is ordered on
    /// the owning [`crate::Gpu`]'s stream.
    pub(crate) fn device_address(&self, stream: &CudaStream) -> u64 {
        let (ptr, _sync) = self.bytes.device_ptr(stream);
        ptr
    }

    /// Raw device address for writing.
    pub(crate) fn device_address_mut(&mut self, stream: &CudaStream) -> u64 {
        let (ptr, _sync) = self.bytes.device_ptr_mut(stream);
        ptr
    }

    pub(crate) fn copy_from_host(&mut self, stream: &Arc<CudaStream>, host: &[T]) -> Result<()> {
        if host.len() != self.len {
            return Err(Error::LengthMismatch {
                expected: self.len,
                actual: host.len(),
            });
        }
        stream.memcpy_htod(bytemuck::cast_slice::<T, u8>(host), &mut self.bytes)?;
        Ok(())
    }

    /// Copies `host` into elements `offset .. offset + host.len()`.
    pub(crate) fn copy_from_host_at(
        &mut self,
        stream: &Arc<CudaStream>,
        host: &[T],
        offset: usize,
    ) -> Result<()> {
        let (start, end) = self.byte_range(offset, host.len())?;
        let mut view = self.bytes.slice_mut(start..end);
        stream.memcpy_htod(bytemuck::cast_slice::<T, u8>(host), &mut view)?;
        Ok(())
    }

    /// Copies elements `offset .. offset + len` to a new host vector (waits for queued work).
    pub(crate) fn range_to_host(
        &self,
        stream: &Arc<CudaStream>,
        offset: usize,
        len: usize,
    ) -> Result<Vec<T>> {
        let (start, end) = self.byte_range(offset, len)?;
        let mut out = vec![T::zeroed(); len];
        let view = self.bytes.slice(start..end);
        stream.memcpy_dtoh(&view, bytemuck::cast_slice_mut::<T, u8>(&mut out))?;
        stream.synchronize()?;
        Ok(out)
    }

    /// Byte range of elements `offset .. offset + len`, refused when it leaves the buffer or
    /// is empty.
    fn byte_range(&self, offset: usize, len: usize) -> Result<(usize, usize)> {
        match offset.checked_add(len) {
            Some(end) if len > 0 && end <= self.len => {
                let size = std::mem::size_of::<T>();
                Ok((offset * size, end * size))
            }
            _ => Err(Error::InvalidSize(format!(
                "elements {offset} .. {offset} + {len} of a buffer of {}",
                self.len
            ))),
        }
    }

    pub(crate) fn copy_from_device(
        &mut self,
        stream: &Arc<CudaStream>,
        src: &DeviceBuffer<T>,
    ) -> Result<()> {
        if src.len != self.len {
            return Err(Error::LengthMismatch {
                expected: self.len,
                actual: src.len,
            });
        }
        stream.memcpy_dtod(&src.bytes, &mut self.bytes)?;
        Ok(())
    }

    pub(crate) fn to_host(&self, stream: &Arc<CudaStream>) -> Result<Vec<T>> {
        let mut out = vec![T::zeroed(); self.len];
        stream.memcpy_dtoh(&self.bytes, bytemuck::cast_slice_mut::<T, u8>(&mut out))?;
        stream.synchronize()?;
        Ok(out)
    }

    pub(crate) fn fill_bytes(&mut self, stream: &Arc<CudaStream>, byte: u8) -> Result<()> {
        let ptr = self.device_address_mut(stream);
        // SAFETY: `ptr` addresses `num_bytes` bytes owned by this buffer; queued on `stream`.
        unsafe {
            cudarc::driver::result::memset_d8_async(ptr, byte, self.num_bytes(), stream.cu_stream())
        }?;
        Ok(())
    }
}
