//! Pointwise products on the device for an NTT plan's batch (`kernels/cuda/ntt_pointwise.cuh`):
//! the step between the forward transforms and the inverse of a polynomial product, so the whole
//! product stays on the GPU. The kernel is compiled on first use (a plan that never multiplies
//! never compiles it) and kept by the plan.

use super::{GpuNttPlan, NttWord};
use crate::error::{Error, Result};
use crate::gpu::buffer::DeviceBuffer;
use crate::gpu::launch::KernelArgs;
use crate::gpu::plan::RawBuffer;
use crate::kernels::ntt_pointwise_source::{NttPointwiseSource, POINTWISE_THREADS};
use crate::ntt::pointwise::limb_products;
use cudarc::driver::{CudaFunction, CudaStream, LaunchConfig};

/// Blocks per multiprocessor of the grid-stride pointwise kernel (at most; fewer for short
/// batches): the 2048 threads an sm_90 multiprocessor holds, so the grid is one wave.
const BLOCKS_PER_SM: usize = 2048 / POINTWISE_THREADS;

/// The compiled pointwise kernel of a plan and its per-limb constants.
pub(crate) struct PointwiseKernel {
    function: CudaFunction,
    limbs: DeviceBuffer<u64>,
    words_per_access: usize,
}

impl<W: NttWord> GpuNttPlan<W> {
    /// `out[w] = a[w] · b[w] mod p` for every word `w` of the batch, `p` the modulus of `w`'s
    /// limb (transform `t` uses limb `t mod limbs`, in the batch's layout): between the forward
    /// transforms of two polynomials and the inverse of their product (cyclic or negacyclic, as
    /// the plan's transforms are; both factors in the forward output's order). Values must be
    /// below their limb's modulus (unchecked here, as for the transforms). Refused before anything
    /// is queued: a buffer whose length is not [`GpuNttPlan::len`]. The first call compiles the
    /// kernel.
    ///
    /// ```no_run
    /// use tensorfft::ntt::{NttBatch, NttKind, Order, BABY_BEAR};
    /// # fn main() -> tensorfft::Result<()> {
    /// let gpu = tensorfft::Gpu::new(0)?;
    /// // Natural in, bit-reversed out: the products need no permutation.
    /// let batch = NttBatch::limbs(&[BABY_BEAR], 1 << 10, NttKind::Negacyclic)?
    ///     .with_orders(Order::Natural, Order::BitReversed);
    /// let plan = gpu.plan_ntt::<u32>(&batch)?;
    /// let (mut a, mut b) = (gpu.upload(&vec![1u32; 1 << 10])?, gpu.upload(&vec![2u32; 1 << 10])?);
    /// let mut c = gpu.alloc::<u32>(1 << 10)?;
    /// plan.forward(&mut a)?;
    /// plan.forward(&mut b)?;
    /// plan.pointwise_mul(&a, &b, &mut c)?;
    /// plan.inverse(&mut c)?; // c = a·b mod (X^1024 + 1, BabyBear)
    /// # Ok(()) }
    /// ```
    pub fn pointwise_mul(
        &self,
        a: &DeviceBuffer<W>,
        b: &DeviceBuffer<W>,
        out: &mut DeviceBuffer<W>,
    ) -> Result<()> {
        for len in [a.len(), b.len(), out.len()] {
            self.check_len(len)?;
        }
        let kernel = self.pointwise_kernel()?;
        let (pa, pb) = (
            a.device_address(&self.stream),
            b.device_address(&self.stream),
        );
        let po = out.device_address_mut(&self.stream);
        self.launch_pointwise(kernel, &self.stream, pa, pb, po)
    }

    /// `acc[w] = acc[w] · b[w]` modulo each word's limb, in place (see
    /// [`GpuNttPlan::pointwise_mul`]).
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 1024, NttKind::Cyclic).unwrap())).unwrap();
    /// let mut acc = gpu.upload(&vec![3u32; 1024]).unwrap();
    /// let b = gpu.upload(&vec![5u32; 1024]).unwrap();
    /// plan.pointwise_mul_assign(&mut acc, &b).unwrap();
    /// assert_eq!(gpu.download(&acc).unwrap()[0], 15);
    /// ```
    pub fn pointwise_mul_assign(
        &self,
        acc: &mut DeviceBuffer<W>,
        b: &DeviceBuffer<W>,
    ) -> Result<()> {
        self.check_len(acc.len())?;
        self.check_len(b.len())?;
        let kernel = self.pointwise_kernel()?;
        let pb = b.device_address(&self.stream);
        let pa = acc.device_address_mut(&self.stream);
        self.launch_pointwise(kernel, &self.stream, pa, pb, pa)
    }

    /// Uploads, validates (every value below its limb's modulus), multiplies and downloads.
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 4, NttKind::Cyclic).unwrap())).unwrap();
    /// let p = BABY_BEAR as u32;
    /// assert_eq!(plan.pointwise_mul_host(&[p - 1, 2, 3, 4], &[p - 1, 2, 3, 4]).unwrap(), vec![1, 4, 9, 16]);
    /// ```
    pub fn pointwise_mul_host(&self, a: &[W], b: &[W]) -> Result<Vec<W>> {
        self.host_binary(a, b, |acc, b| self.pointwise_mul_assign(acc, b))
    }

    /// Validates `a` and `b` (every value below its limb's modulus), uploads them, runs `op` on
    /// the plan's stream with `a`'s copy as its accumulator, and downloads that: the `_host`
    /// entry points of the products.
    pub(super) fn host_binary(
        &self,
        a: &[W],
        b: &[W],
        op: impl FnOnce(&mut DeviceBuffer<W>, &DeviceBuffer<W>) -> Result<()>,
    ) -> Result<Vec<W>> {
        let batch = &self.forward.schedule.batch;
        batch.validate(a)?;
        batch.validate(b)?;
        let mut acc = self.gpu.upload(a)?;
        let b = self.gpu.upload(b)?;
        // The uploads and the download run on the handle's stream, `op` on the plan's (another
        // one after `set_stream`).
        self.gpu.synchronize()?;
        op(&mut acc, &b)?;
        self.stream.synchronize()?;
        self.gpu.download(&acc)
    }

    /// The per-limb constants of `products` on the device (`PointwiseProduct::device_words`),
    /// ready for any stream once this returns.
    pub(super) fn limb_table(
        &self,
        products: Vec<crate::ntt::pointwise::PointwiseProduct>,
    ) -> Result<DeviceBuffer<u64>> {
        let words: Vec<u64> = products
            .into_iter()
            .flat_map(|f| f.device_words())
            .collect();
        let table = self.gpu.upload(&words)?;
        // The upload is ordered on the handle's stream; a caller's stream must see it done.
        self.gpu.synchronize()?;
        Ok(table)
    }

    /// [`GpuNttPlan::pointwise_mul`] between device memory the caller owns (PyTorch or CuPy
    /// tensors), queued on the caller's `stream`; `out` may be `a` or `b` (in place). Refused
    /// before anything is queued: a null or not 16-byte aligned address, a length other than
    /// [`GpuNttPlan::len`], an output that overlaps a factor without being it.
    ///
    /// # Safety
    ///
    /// Each [`RawBuffer`] must describe `len` words of the plan's type in device memory of this
    /// plan's context, alive and not used by other work until the product queued on `stream`
    /// has finished; `stream` must belong to the plan's context. (Dropping the plan waits for
    /// the context's queued work, so its limb table outlives the product.)
    ///
    /// ```no_run
    /// use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 1024, NttKind::Cyclic).unwrap())).unwrap();
    /// let x = gpu.upload(&vec![2u32; 1024]).unwrap();
    /// // SAFETY: `x` holds 1024 words and outlives the synchronisation below.
    /// unsafe { plan.pointwise_mul_raw(x.raw(), x.raw(), x.raw(), gpu.stream()) }.unwrap();
    /// gpu.synchronize().unwrap();
    /// ```
    pub unsafe fn pointwise_mul_raw(
        &self,
        a: RawBuffer,
        b: RawBuffer,
        out: RawBuffer,
        stream: &CudaStream,
    ) -> Result<()> {
        for (side, r) in [("product a", a), ("product b", b), ("product output", out)] {
            r.check_aligned(side)?;
            self.check_len(r.len)?;
        }
        for factor in [a, b] {
            if out.address != factor.address && out.overlaps(&factor, W::BYTES)? {
                return Err(Error::InvalidSize(
                    "pointwise output overlaps a factor without being it".into(),
                ));
            }
        }
        let kernel = self.pointwise_kernel()?;
        self.launch_pointwise(kernel, stream, a.address, b.address, out.address)
    }

    /// The plan's pointwise kernel, compiled and loaded on first use.
    fn pointwise_kernel(&self) -> Result<&PointwiseKernel> {
        if let Some(k) = self.pointwise.get() {
            return Ok(k);
        }
        let batch = &self.forward.schedule.batch;
        let source = NttPointwiseSource::new(batch, W::BYTES)?;
        let limbs = self.limb_table(limb_products(batch, W::BYTES)?)?;
        let gpu = &self.gpu;
        let (module, _origin) = gpu.modules().get_or_compile(
            &source.source,
            &source.entry,
            gpu.arch(),
            gpu.nvrtc_version(),
        )?;
        let kernel = PointwiseKernel {
            function: module.load_function(&source.entry)?,
            limbs,
            words_per_access: source.words_per_access,
        };
        // Two threads racing here compile the same kernel; the first one stored is kept.
        let _ = self.pointwise.set(kernel);
        self.pointwise
            .get()
            .ok_or_else(|| Error::Driver("the pointwise kernel was not kept".into()))
    }

    fn launch_pointwise(
        &self,
        kernel: &PointwiseKernel,
        stream: &CudaStream,
        a: u64,
        b: u64,
        out: u64,
    ) -> Result<()> {
        let vectors = (self.len() / kernel.words_per_access) as u64;
        let sms = self.gpu.info().multiprocessors.max(1) as usize;
        let blocks = (vectors as usize)
            .div_ceil(POINTWISE_THREADS)
            .clamp(1, sms * BLOCKS_PER_SM);
        let cfg = LaunchConfig {
            grid_dim: (blocks as u32, 1, 1),
            block_dim: (POINTWISE_THREADS as u32, 1, 1),
            shared_mem_bytes: 0,
        };
        let limbs = kernel.limbs.device_address(stream);
        let mut args = KernelArgs::new();
        args.arg(&a).arg(&b).arg(&out).arg(&limbs).arg(&vectors);
        // SAFETY: the arguments match the entry point (`ntt_pointwise_source.rs`): three buffers
        // of `len` words of the plan's type (checked by the callers), the limbs' constants in
        // the device struct's layout (`PointwiseProduct::device_words`), and the number of
        // vectors of `words_per_access` words, which divides `len`.
        unsafe { args.launch(stream, &kernel.function, cfg, self.dependent_launch) }
    }
}
