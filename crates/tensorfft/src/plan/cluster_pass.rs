//! Two Stockham passes of one axis fused into one kernel on a thread-block cluster (sm_90): the
//! `cluster` blocks of a cluster share one group of transforms through distributed shared
//! memory, so the data is read from and written to device memory once instead of twice.
//!
//! An axis of length `N = L0 · L1` runs as the first Stockham pass (items `q < L1`, DFTs of
//! length `L0` over samples `L1` apart) and the second (items `m < L0`, DFTs of length `L1`
//! after the four-step twiddle `w_N^{m r}`); the second pass's item `m` reads sample `q` from
//! output `m` of the first pass's item `q`. Block `b` of a cluster runs the first pass for items
//! `b·L1/C … (b+1)·L1/C − 1` and leaves their outputs in its shared memory; after a cluster
//! barrier it gathers the second pass's items `b·L0/C …` from the shared memory of every block
//! of the cluster, and after a second barrier (everyone has gathered) it runs the second pass
//! and stores. Both passes are exactly the [`StridedPass`]es of the unfused schedule, with
//! `L1/C` and `L0/C` items per block, so the CPU reference runs them one after the other.

use super::strided_pass::{ItemDim, StridedPass};
use std::fmt;

/// Largest cluster the planner uses (the portable limit of sm_90; 16 needs an opt-in).
pub const MAX_CLUSTER_BLOCKS: usize = 8;

/// A pair of Stockham passes of one axis on a thread-block cluster.
///
/// ```
/// use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
/// let s = plan_c2c_schedule(&Shape::new([1 << 15]).batch(2), Precision::F32, &PlanOptions::default()).unwrap();
/// let PassKernel::Cluster(c) = &s.passes[0].kernel else { panic!("2^15 runs on a cluster") };
/// assert_eq!(c.len(), 1 << 15);
/// assert_eq!(c.groups(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClusterPass {
    /// The first pass (`first.inner.transforms_per_block` items per block, no twiddle).
    pub first: StridedPass,
    /// The second pass (`second.inner.transforms_per_block` items per block, the twiddle).
    pub second: StridedPass,
    /// Blocks per cluster.
    pub cluster: usize,
    /// Whether each block copies the next group's input into a landing buffer in shared memory
    /// asynchronously while it transforms the current one (else the first pass loads straight
    /// into registers).
    pub landing: bool,
    /// Whether the grid holds only the clusters resident at once, each looping over groups,
    /// rather than one cluster per group.
    pub persistent: bool,
}

impl ClusterPass {
    /// Length of the fused axis (`L0 · L1`).
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([1 << 15]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Cluster(c) = &s.passes[0].kernel else { panic!() };
    /// assert_eq!(c.len(), c.first.len() * c.second.len());
    /// ```
    pub fn len(&self) -> usize {
        self.first.len() * self.second.len()
    }

    /// Never true: the axis has at least four samples.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([1 << 15]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Cluster(c) = &s.passes[0].kernel else { panic!() };
    /// assert!(!c.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Groups of transforms (one cluster each): the transforms of the axis in the batch.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// let s = plan_c2c_schedule(&Shape::new([1 << 15]).batch(5), Precision::F32, &PlanOptions::default()).unwrap();
    /// let PassKernel::Cluster(c) = &s.passes[0].kernel else { panic!() };
    /// assert_eq!(c.groups(), 5);
    /// ```
    pub fn groups(&self) -> usize {
        self.first.items() / self.second.len()
    }

    /// Threads per block (the same in both passes).
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([1 << 15]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Cluster(c) = &s.passes[0].kernel else { panic!() };
    /// assert_eq!(c.threads_per_block(), c.second.threads_per_block());
    /// ```
    pub fn threads_per_block(&self) -> usize {
        self.first.threads_per_block()
    }

    /// Dynamic shared memory of a block: the larger of the two passes' tiles (the first pass's
    /// outputs stay in it until every block of the cluster has gathered them).
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([1 << 15]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Cluster(c) = &s.passes[0].kernel else { panic!() };
    /// assert!(c.shared_bytes() >= (1 << 15) / c.cluster * 8);
    /// ```
    pub fn shared_bytes(&self) -> usize {
        let landing = if self.landing {
            self.first.inner.transforms_per_block
                * self.first.len()
                * self.first.inner.precision.complex_bytes()
        } else {
            0
        };
        self.landing_offset() + landing
    }

    /// Byte offset of the landing buffer in a block's shared memory: after the exchange tiles
    /// (the larger of the two passes'), 16-byte aligned.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([1 << 15]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Cluster(c) = &s.passes[0].kernel else { panic!() };
    /// assert_eq!(c.landing_offset() % 16, 0);
    /// ```
    pub fn landing_offset(&self) -> usize {
        let tile = |p: &StridedPass| {
            p.inner.transforms_per_block * p.item_stride() * p.inner.exchange.bytes()
        };
        tile(&self.first)
            .max(tile(&self.second))
            .next_multiple_of(16)
    }

    /// Whether the two passes fit one cluster kernel: items split evenly over the blocks, the
    /// same threads per block in both, direct (items-fastest) loads in the first pass and stores
    /// in the second, and the second pass's items reading the first's outputs as described in
    /// the module documentation.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([1 << 15]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Cluster(c) = &s.passes[0].kernel else { panic!() };
    /// assert!(c.is_consistent());
    /// ```
    pub fn is_consistent(&self) -> bool {
        let (a, b, c) = (&self.first, &self.second, self.cluster);
        let (l0, l1) = (a.len(), b.len());
        let qa = a.inner.transforms_per_block;
        let qb = b.inner.transforms_per_block;
        let bytes = a.inner.precision.complex_bytes();
        let chunk = 16 / bytes;
        // The landing buffer copies 16-byte pieces: rows of whole pieces, 16-byte aligned.
        let landing_fits = qa.is_multiple_of(chunk)
            && a.dims[0].in_stride == 1
            && (a.sample_stride_in * bytes).is_multiple_of(16)
            && a.dims
                .get(1)
                .is_none_or(|d| (d.in_stride * bytes).is_multiple_of(16));
        (2..=MAX_CLUSTER_BLOCKS).contains(&c)
            && (!self.landing || landing_fits)
            && qa * c == l1
            && qb * c == l0
            && a.items_per_tile == qa
            && b.items_per_tile == qb
            && a.threads_per_block() == b.threads_per_block()
            && a.inner.elements_per_thread == b.inner.elements_per_thread
            && a.inner.exchange == b.inner.exchange
            && a.twiddle.is_none()
            && b.twiddle.is_some_and(|t| t.dim == 0 && t.root == l0 * l1)
            && a.load_items_fastest()
            && a.staged_out()
            && b.store_items_fastest()
            && a.dims[0].count == l1
            && a.dims[0].out_stride == l0 * a.sample_stride_out
            && b.dims[0].count == l0
            && b.dims[0].in_stride == a.sample_stride_out
            && b.sample_stride_in == l0 * b.dims[0].in_stride
            && a.items() / l1 == b.items() / l0
            && a.dims[1..] == b.dims[1..]
            // The intermediate of group g sits where the first pass writes it and the second
            // reads it (the CPU reference runs the two passes through memory).
            && a.dims[1..].iter().all(|d| d.in_stride == d.out_stride)
            && groups_fold(&a.dims[1..])
    }

    /// A short name of the kernel configuration.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
    /// # let s = plan_c2c_schedule(&Shape::new([1 << 15]), Precision::F32, &PlanOptions::default()).unwrap();
    /// # let PassKernel::Cluster(c) = &s.passes[0].kernel else { panic!() };
    /// assert!(c.kernel_stem().starts_with("tfft_cluster8_"));
    /// ```
    pub fn kernel_stem(&self) -> String {
        format!(
            "tfft_cluster{}{}_{}__{}",
            self.cluster,
            if self.landing { "l" } else { "" },
            self.first.kernel_stem().trim_start_matches("tfft_strided_"),
            self.second
                .kernel_stem()
                .trim_start_matches("tfft_strided_")
        )
    }
}

/// Whether item dimensions `dims` (the groups) step evenly: each dimension's strides are the
/// previous one's times its count, so group `g` starts at `g` times the first's strides.
fn groups_fold(dims: &[ItemDim]) -> bool {
    dims.windows(2).all(|w| {
        w[1].in_stride == w[0].in_stride * w[0].count
            && w[1].out_stride == w[0].out_stride * w[0].count
    })
}

impl fmt::Display for ClusterPass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cluster of {} blocks, {} threads, smem={}B{}, one read and one write of {} x {}:\n    first  {}\n    second {}",
            self.cluster,
            self.threads_per_block(),
            self.shared_bytes(),
            if self.landing { " (landing buffer)" } else { "" },
            self.first.len(),
            self.second.len(),
            self.first,
            self.second
        )
    }
}
