//! Transforms of pointwise products on the device: the NTT (either direction) of `a · b`, with
//! the product taken as the first kernel reads its input (`InputFactor` in
//! `kernels/cuda/ntt_pass.cuh`). `pointwise_mul` followed by a transform reads the two factors
//! and writes their product once more than this does; the step after the forward transforms of
//! a polynomial product (`inverse` of `A · B`) and before the forward transform of a coset
//! (`a · (g^i)`) are the two uses. The first kernel of each direction with the factor is
//! compiled on first use and kept by the plan; the other passes run their usual kernels.

use super::{GpuNttPlan, NttWord};
use crate::error::{Error, Result};
use crate::gpu::buffer::DeviceBuffer;
use crate::gpu::plan::RawBuffer;
use crate::kernels::ntt_source::NttKernelSource;
use crate::ntt::pointwise::limb_products;
use crate::plan::Direction;
use cudarc::driver::sys::CUfunction_attribute;
use cudarc::driver::{CudaFunction, CudaStream, LaunchConfig};

/// A direction's first kernel with a factor on its inputs, and the limbs' constants it reads.
pub(crate) struct FactorKernel {
    pub(super) function: CudaFunction,
    pub(super) limbs: DeviceBuffer<u64>,
}

impl<W: NttWord> GpuNttPlan<W> {
    /// `out = NTT_dir(a · b)`: the transform in direction `dir` of the pointwise product of `a`
    /// and `b` (word `w` reduced modulo its limb's modulus, as [`GpuNttPlan::pointwise_mul`]),
    /// the same words as `pointwise_mul` then [`GpuNttPlan::execute_into`], in one trip over
    /// device memory fewer. Neither factor is written. Values must be below their limb's
    /// modulus (unchecked here). Refused before anything is queued: a buffer whose length is not
    /// [`GpuNttPlan::len`]. The first call in a direction compiles its kernel.
    ///
    /// ```no_run
    /// use tensorfft::ntt::{NttBatch, NttKind, Order, BABY_BEAR};
    /// use tensorfft::Direction;
    /// # fn main() -> tensorfft::Result<()> {
    /// let gpu = tensorfft::Gpu::new(0)?;
    /// let batch = NttBatch::limbs(&[BABY_BEAR], 1 << 10, NttKind::Negacyclic)?
    ///     .with_orders(Order::Natural, Order::BitReversed);
    /// let plan = gpu.plan_ntt::<u32>(&batch)?;
    /// let (mut a, mut b) = (gpu.upload(&vec![1u32; 1 << 10])?, gpu.upload(&vec![2u32; 1 << 10])?);
    /// plan.forward(&mut a)?;
    /// plan.forward(&mut b)?;
    /// let mut c = gpu.alloc::<u32>(1 << 10)?;
    /// // c = a·b mod (X^1024 + 1, BabyBear): the product and the inverse in one.
    /// plan.execute_product_into(Direction::Inverse, &a, &b, &mut c)?;
    /// # Ok(()) }
    /// ```
    pub fn execute_product_into(
        &self,
        dir: Direction,
        a: &DeviceBuffer<W>,
        b: &DeviceBuffer<W>,
        out: &mut DeviceBuffer<W>,
    ) -> Result<()> {
        for len in [a.len(), b.len(), out.len()] {
            self.check_len(len)?;
        }
        let kernel = self.factor_kernel(dir)?;
        let pa = a.device_address(&self.stream);
        let pb = b.device_address(&self.stream);
        let po = out.device_address_mut(&self.stream);
        self.run_on(&self.stream, dir, pa, po, false, Some((pb, kernel)))
    }

    /// `acc = NTT_dir(acc · b)`, in place (see [`GpuNttPlan::execute_product_into`]).
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 4, NttKind::Cyclic).unwrap())).unwrap();
    /// let mut acc = gpu.upload(&[3u32, 0, 0, 0]).unwrap();
    /// let b = gpu.upload(&[5u32, 7, 7, 7]).unwrap();
    /// plan.execute_product_in_place(tensorfft::Direction::Forward, &mut acc, &b).unwrap();
    /// assert_eq!(gpu.download(&acc).unwrap(), vec![15; 4]);
    /// ```
    pub fn execute_product_in_place(
        &self,
        dir: Direction,
        acc: &mut DeviceBuffer<W>,
        b: &DeviceBuffer<W>,
    ) -> Result<()> {
        self.check_len(acc.len())?;
        self.check_len(b.len())?;
        let kernel = self.factor_kernel(dir)?;
        let pb = b.device_address(&self.stream);
        let pa = acc.device_address_mut(&self.stream);
        self.run_on(&self.stream, dir, pa, pa, true, Some((pb, kernel)))
    }

    /// Uploads, validates (every value below its limb's modulus), transforms the product and
    /// downloads.
    ///
    /// ```no_run
    /// # use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// # let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 4, NttKind::Cyclic).unwrap())).unwrap();
    /// let y = plan.execute_product_host(tensorfft::Direction::Inverse, &[4, 4, 4, 4], &[1, 2, 3, 4]).unwrap();
    /// assert_eq!(y, plan.inverse_host(&[4, 8, 12, 16]).unwrap());
    /// ```
    pub fn execute_product_host(&self, dir: Direction, a: &[W], b: &[W]) -> Result<Vec<W>> {
        self.host_binary(a, b, |acc, b| self.execute_product_in_place(dir, acc, b))
    }

    /// [`GpuNttPlan::execute_product_into`] between device memory the caller owns (PyTorch or
    /// CuPy tensors), queued on the caller's `stream`; `out` may be `a` (in place), and `b` only
    /// where all three are the same buffer (a square in place: the first kernel reads each word
    /// of the factor with the input word at its offset, before anything is written there).
    /// As for [`GpuNttPlan::execute_raw`], executions of one plan must not overlap on
    /// different streams. Refused before anything is queued: a null or not 16-byte aligned
    /// address, a length other than [`GpuNttPlan::len`], an output that overlaps `a` without
    /// being it, an output that overlaps `b` otherwise.
    ///
    /// # Safety
    ///
    /// Each [`RawBuffer`] must describe `len` words of the plan's type in device memory of this
    /// plan's context, alive and not used by other work until the transform queued on `stream`
    /// has finished; `stream` must belong to the plan's context.
    ///
    /// ```no_run
    /// use tensorfft::ntt::{NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let plan = gpu.plan_ntt::<u32>(&NttBatch::new(NttSpec::new(BABY_BEAR, 1024, NttKind::Cyclic).unwrap())).unwrap();
    /// let x = gpu.upload(&vec![2u32; 1024]).unwrap();
    /// let w = gpu.upload(&vec![3u32; 1024]).unwrap();
    /// // SAFETY: `x` and `w` hold 1024 words and outlive the synchronisation below.
    /// unsafe { plan.execute_product_raw(tensorfft::Direction::Forward, x.raw(), w.raw(), x.raw(), gpu.stream()) }.unwrap();
    /// gpu.synchronize().unwrap();
    /// ```
    pub unsafe fn execute_product_raw(
        &self,
        dir: Direction,
        a: RawBuffer,
        b: RawBuffer,
        out: RawBuffer,
        stream: &CudaStream,
    ) -> Result<()> {
        for (side, r) in [("product a", a), ("product b", b), ("NTT output", out)] {
            r.check_aligned(side)?;
            self.check_len(r.len)?;
        }
        let in_place = a.address == out.address;
        if !in_place && a.overlaps(&out, W::BYTES)? {
            return Err(Error::InvalidSize(
                "NTT output overlaps factor a without being it".into(),
            ));
        }
        let square_in_place = in_place && b.address == out.address;
        if !square_in_place && b.overlaps(&out, W::BYTES)? {
            return Err(Error::InvalidSize(
                "NTT output overlaps factor b, which the transform reads until its first pass ends"
                    .into(),
            ));
        }
        let kernel = self.factor_kernel(dir)?;
        self.run_on(
            stream,
            dir,
            a.address,
            out.address,
            in_place,
            Some((b.address, kernel)),
        )
    }

    /// Direction `dir`'s first kernel with a factor, compiled and loaded on first use.
    fn factor_kernel(&self, dir: Direction) -> Result<&FactorKernel> {
        let slot = &self.factor_first[match dir {
            Direction::Forward => 0,
            Direction::Inverse => 1,
        }];
        if let Some(k) = slot.get() {
            return Ok(k);
        }
        let plan = self.direction(dir);
        let schedule = &plan.schedule;
        let products = limb_products(&schedule.batch, W::BYTES)?;
        let product = *products
            .first()
            .ok_or_else(|| Error::Driver(format!("no limbs in {schedule}")))?;
        let source = NttKernelSource::first_times_factor(schedule, product);
        let first = plan
            .passes
            .first()
            .ok_or_else(|| Error::Driver(format!("no passes in {schedule}")))?;
        let gpu = &self.gpu;
        let (module, _origin) = gpu.modules().get_or_compile(
            &source.source,
            &source.entry,
            gpu.arch(),
            gpu.nvrtc_version(),
        )?;
        let function = module.load_function(&source.entry)?;
        function.set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            source.shared_bytes as i32,
        )?;
        let resident = if schedule.cluster > 1 {
            if schedule.cluster > 8 {
                function.set_attribute(
                    CUfunction_attribute::CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
                    1,
                )?;
            }
            let cfg = LaunchConfig {
                grid_dim: (schedule.cluster as u32, 1, 1),
                block_dim: (first.threads, 1, 1),
                shared_mem_bytes: first.shared_bytes,
            };
            function.occupancy_max_active_clusters(cfg, gpu.stream())?
        } else {
            function.occupancy_max_active_blocks_per_multiprocessor(
                first.threads,
                first.shared_bytes as usize,
                None,
            )? as u32
        };
        if source.threads as u32 != first.threads
            || source.shared_bytes as u32 != first.shared_bytes
        {
            return Err(Error::Driver(format!(
                "the first kernel of {schedule} with a factor has another launch shape than without"
            )));
        }
        if resident == 0 {
            return Err(Error::DeviceLimit(format!(
                "the first kernel of {schedule} with a factor cannot be resident"
            )));
        }
        let kernel = FactorKernel {
            function,
            limbs: self.limb_table(products)?,
        };
        // Two threads racing here compile the same kernel; the first one stored is kept.
        let _ = slot.set(kernel);
        slot.get()
            .ok_or_else(|| Error::Driver("the factor kernel was not kept".into()))
    }
}
