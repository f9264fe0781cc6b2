//! A plan as a schedule: an ordered list of passes, each one kernel launch over the whole batch.
//! The GPU plan launches them on its stream; the CPU reference executor runs the same list pass
//! by pass.

use super::cluster_pass::ClusterPass;
use super::error_bound::error_bound;
use super::options::{Direction, ExchangeFormat, Layout, Normalization, Strides};
use super::precision::Precision;
use super::recipe::Recipe;
use super::strided_pass::StridedPass;
use std::fmt;

/// Where a pass reads or writes.
///
/// ```
/// use tensorfft::plan::schedule::Buffer;
/// assert_ne!(Buffer::Input, Buffer::Scratch(0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Buffer {
    /// The caller's input (never written by an out-of-place execution).
    Input,
    /// The caller's output (the same buffer as the input when executed in place).
    Output,
    /// Scratch buffer `k` of the plan, dense, as many elements as the whole batch.
    Scratch(u8),
}

/// The kernel of one pass.
///
/// ```
/// use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::PassKernel};
/// let s = plan_c2c_schedule(&Shape::new([1024]).batch(4), Precision::F32, &PlanOptions::default()).unwrap();
/// assert!(matches!(s.passes[0].kernel, PassKernel::SinglePass { batch: 4, .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PassKernel {
    /// Whole contiguous transforms of `recipe.n` elements, `batch` of them back to back, each
    /// read once and written once by one block (the single-pass Stockham kernel).
    SinglePass {
        /// The kernel configuration.
        recipe: Recipe,
        /// Number of transforms.
        batch: usize,
    },
    /// A DFT over strided items (see [`StridedPass`]).
    Strided(StridedPass),
    /// Two Stockham passes of one axis on a thread-block cluster (see [`ClusterPass`]).
    Cluster(Box<ClusterPass>),
}

impl PassKernel {
    /// DFT length of the pass.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
    /// let s = plan_c2c_schedule(&Shape::new([32, 64]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert_eq!((s.passes[0].kernel.len(), s.passes[1].kernel.len()), (64, 32));
    /// ```
    pub fn len(&self) -> usize {
        match self {
            PassKernel::SinglePass { recipe, .. } => recipe.n,
            PassKernel::Strided(p) => p.len(),
            PassKernel::Cluster(c) => c.len(),
        }
    }

    /// Never true: every pass transforms at least two samples.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
    /// let s = plan_c2c_schedule(&Shape::new([8]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert!(!s.passes[0].kernel.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The recipe of the DFT inside the kernel (for a strided pass, the DFT of one item; for a
    /// cluster pass, that of its first pass).
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
    /// let s = plan_c2c_schedule(&Shape::new([8]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert_eq!(s.passes[0].kernel.recipe().n, 8);
    /// ```
    pub fn recipe(&self) -> &Recipe {
        match self {
            PassKernel::SinglePass { recipe, .. } => recipe,
            PassKernel::Strided(p) => &p.inner,
            PassKernel::Cluster(c) => &c.first.inner,
        }
    }

    /// Whether every block writes exactly the elements it reads (the pass may run in place).
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
    /// let s = plan_c2c_schedule(&Shape::new([8]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert!(s.passes[0].kernel.in_place_safe());
    /// ```
    pub fn in_place_safe(&self) -> bool {
        match self {
            // A cluster reads all of its group before any block writes (cluster barrier).
            PassKernel::SinglePass { .. } | PassKernel::Cluster(_) => true,
            PassKernel::Strided(p) => p.in_place_safe(),
        }
    }

    /// Dynamic shared memory of one block, in bytes.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
    /// let s = plan_c2c_schedule(&Shape::new([64, 64]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert!(s.passes.iter().all(|p| p.kernel.shared_bytes() > 0));
    /// ```
    pub fn shared_bytes(&self) -> usize {
        match self {
            PassKernel::SinglePass { recipe, .. } => recipe.shared_bytes(),
            PassKernel::Strided(p) => p.shared_bytes(),
            PassKernel::Cluster(c) => c.shared_bytes(),
        }
    }

    /// Threads per block.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
    /// let s = plan_c2c_schedule(&Shape::new([64, 64]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert!(s.passes.iter().all(|p| p.kernel.threads_per_block() <= 1024));
    /// ```
    pub fn threads_per_block(&self) -> usize {
        self.recipe().threads_per_block()
    }
}

/// One pass: a kernel and the axis of the transform it belongs to.
///
/// ```
/// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
/// let s = plan_c2c_schedule(&Shape::new([16, 1 << 18]), Precision::F32, &PlanOptions::default()).unwrap();
/// assert_eq!(s.passes.iter().filter(|p| p.axis == 1).count(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pass {
    /// The kernel.
    pub kernel: PassKernel,
    /// The dimension (index into the shape's dims) this pass transforms.
    pub axis: usize,
}

/// A complete plan: shape, precision, normalization and the passes in execution order.
///
/// ```
/// use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
/// let s = plan_c2c_schedule(&Shape::new([1 << 20]), Precision::F32, &PlanOptions::default()).unwrap();
/// assert_eq!(s.passes.len(), 2);
/// println!("{s}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Schedule {
    /// Dimensions of one transform, slowest first (row-major).
    pub dims: Vec<usize>,
    /// Number of transforms, back to back.
    pub batch: usize,
    /// Storage precision.
    pub precision: Precision,
    /// Scaling of the inverse.
    pub normalization: Normalization,
    /// Where the input and output live.
    pub layout: Layout,
    /// The passes, first to last.
    pub passes: Vec<Pass>,
}

impl Schedule {
    /// Whether the schedule's kernels need sm_80 or newer: BF16 data (its `cvt` to bf16x2) or
    /// tensor-core stages (`mma.sync` m16n8k16: F16 on the tensor cores, BF16's, F32Split).
    /// A GPU plan on an older device is refused with [`crate::Error::Unsupported`].
    ///
    /// ```
    /// use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, Tuning};
    /// let plan = |p, o: &PlanOptions| plan_c2c_schedule(&Shape::new([4096]), p, o).unwrap();
    /// let tc = PlanOptions::tuned(Tuning { tensor_cores: Some(true), ..Default::default() });
    /// assert!(!plan(Precision::F16, &PlanOptions::default()).needs_sm80());
    /// assert!(plan(Precision::F16, &tc).needs_sm80());
    /// assert!(plan(Precision::BF16, &PlanOptions::default()).needs_sm80());
    /// assert!(plan(Precision::F32Split, &PlanOptions::default()).needs_sm80());
    /// ```
    pub fn needs_sm80(&self) -> bool {
        self.precision == Precision::BF16
            || self.passes.iter().any(|p| match &p.kernel {
                PassKernel::Cluster(c) => c.first.inner.tensor_cores || c.second.inner.tensor_cores,
                k => k.recipe().tensor_cores,
            })
    }

    /// Elements of one transform.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
    /// let s = plan_c2c_schedule(&Shape::new([4, 8]).batch(3), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert_eq!(s.transform_len(), 32);
    /// ```
    pub fn transform_len(&self) -> usize {
        self.dims.iter().product()
    }

    /// Elements of the whole batch (the length of dense buffers, and of scratch buffers).
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
    /// let s = plan_c2c_schedule(&Shape::new([4, 8]).batch(3), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert_eq!(s.len(), 96);
    /// ```
    pub fn len(&self) -> usize {
        self.transform_len() * self.batch
    }

    /// Elements an input buffer must hold: [`Schedule::len`] for a dense input, else one past
    /// the last element the input layout addresses.
    ///
    /// ```
    /// use tensorfft::{plan_c2c_schedule, Layout, PlanOptions, Precision, Shape, Strides};
    /// let layout = Layout { input: Some(Strides { stride: 2, dist: 16 }), output: None };
    /// let opts = PlanOptions { layout, ..Default::default() };
    /// let s = plan_c2c_schedule(&Shape::new([8]).batch(3), Precision::F32, &opts).unwrap();
    /// assert_eq!((s.input_extent(), s.output_extent()), (47, 24));
    /// ```
    pub fn input_extent(&self) -> usize {
        self.side(self.layout.input)
            .extent(self.transform_len(), self.batch)
    }

    /// Elements an output buffer must hold (see [`Schedule::input_extent`]).
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
    /// let s = plan_c2c_schedule(&Shape::new([8]).batch(3), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert_eq!(s.output_extent(), 24);
    /// ```
    pub fn output_extent(&self) -> usize {
        self.side(self.layout.output)
            .extent(self.transform_len(), self.batch)
    }

    fn side(&self, strides: Option<Strides>) -> Strides {
        strides.unwrap_or(Strides::dense(self.transform_len()))
    }

    /// Never true: a schedule transforms at least two elements.
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
    /// let s = plan_c2c_schedule(&Shape::new([4]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert!(!s.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The factor pass `index` applies to its output in direction `dir`: a normalized inverse
    /// scales every pass by 1/(its length), so the factors multiply to 1/(product of the
    /// extents).
    ///
    /// ```
    /// use tensorfft::{plan_c2c_schedule, Direction, Normalization, PlanOptions, Precision, Shape};
    /// let opts = PlanOptions { normalization: Normalization::InverseByN, ..Default::default() };
    /// let s = plan_c2c_schedule(&Shape::new([4, 8]), Precision::F32, &opts).unwrap();
    /// assert_eq!(s.pass_scale(0, Direction::Inverse) * s.pass_scale(1, Direction::Inverse), 1.0 / 32.0);
    /// assert_eq!(s.pass_scale(0, Direction::Forward), 1.0);
    /// ```
    pub fn pass_scale(&self, index: usize, dir: Direction) -> f64 {
        match self.passes.get(index) {
            Some(p) => self.normalization.factor(dir, p.kernel.len()),
            None => 1.0,
        }
    }

    /// Refuses an in-place execution when input and output have different layouts.
    ///
    /// ```
    /// use tensorfft::{plan_c2c_schedule, Layout, PlanOptions, Precision, Shape, Strides};
    /// let layout = Layout { input: Some(Strides { stride: 2, dist: 16 }), output: None };
    /// let s = plan_c2c_schedule(&Shape::new([8]), Precision::F32, &PlanOptions { layout, ..Default::default() }).unwrap();
    /// assert!(s.check_in_place().is_err());
    /// ```
    pub fn check_in_place(&self) -> crate::Result<()> {
        if self.layout.input != self.layout.output {
            return Err(crate::Error::Unsupported {
                what: "in-place execution with different input and output layouts".into(),
                supported: "in place with one layout, or out of place".into(),
            });
        }
        Ok(())
    }

    /// Source and destination of every pass, for an execution in place (`input` and `output`
    /// the same buffer) or out of place (the input is never written). The last pass writes the
    /// output; passes that cannot run in place alternate between the output and scratch.
    ///
    /// ```
    /// use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, plan::schedule::Buffer};
    /// let s = plan_c2c_schedule(&Shape::new([1 << 18]), Precision::F32, &PlanOptions::default()).unwrap();
    /// // The last Stockham pass reads exactly what it writes, so it runs in place.
    /// assert_eq!(s.buffers(false), vec![(Buffer::Input, Buffer::Output), (Buffer::Output, Buffer::Output)]);
    /// assert_eq!(s.buffers(true), vec![(Buffer::Input, Buffer::Scratch(0)), (Buffer::Scratch(0), Buffer::Output)]);
    /// ```
    pub fn buffers(&self, in_place: bool) -> Vec<(Buffer, Buffer)> {
        let safe: Vec<bool> = self
            .passes
            .iter()
            .map(|p| p.kernel.in_place_safe())
            .collect();
        // Intermediates are dense: the output buffer may hold one only when its own layout is
        // dense (a strided output's gaps belong to the caller).
        pass_buffers(&safe, self.layout.output.is_none(), in_place)
    }

    /// Scratch buffers an execution needs (in place or out of place, whichever needs more).
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
    /// let s = plan_c2c_schedule(&Shape::new([1024]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert_eq!(s.scratch_buffers(), 0);
    /// ```
    pub fn scratch_buffers(&self) -> usize {
        scratch_count(&[self.buffers(false), self.buffers(true)])
    }

    /// Scratch elements the plan needs (see [`Schedule::scratch_buffers`]).
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
    /// let s = plan_c2c_schedule(&Shape::new([1 << 18]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert_eq!(s.scratch_elements(), 1 << 18); // in place only
    /// // A cluster pass reads its whole group before it writes: no scratch.
    /// let s = plan_c2c_schedule(&Shape::new([1 << 15]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert_eq!(s.scratch_elements(), 0);
    /// let s = plan_c2c_schedule(&Shape::new([1 << 22]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert_eq!(s.scratch_elements(), 1 << 22);
    /// ```
    pub fn scratch_elements(&self) -> usize {
        self.scratch_buffers() * self.len()
    }

    /// Bound on the relative L2 error of one transform against the exact result, for inputs
    /// exactly representable in the storage precision: the sum of the passes' bounds (each pass
    /// is a unitary map up to a scale, so the errors of the passes add), each strided pass with
    /// its extra roundings (the tile rounded into the exchange format after its twiddle, the
    /// output rounded before it is stored) and its two-table twiddle (three roundings).
    ///
    /// ```
    /// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
    /// let s = plan_c2c_schedule(&Shape::new([1 << 20]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert!(s.error_bound() < 1e-5);
    /// ```
    pub fn error_bound(&self) -> f64 {
        self.passes
            .iter()
            .map(|p| match &p.kernel {
                PassKernel::SinglePass { recipe, .. } => error_bound(recipe),
                PassKernel::Strided(s) => strided_error_bound(s),
                // The same two passes, the intermediate rounded into the same format.
                PassKernel::Cluster(c) => {
                    strided_error_bound(&c.first) + strided_error_bound(&c.second)
                }
            })
            .sum()
    }
}

/// Source and destination of each pass of a schedule whose passes can (`in_place_safe[p]`) or
/// cannot run in place: the last pass writes the output; passes that cannot run in place
/// alternate between the output (when `output_dense`: it may hold a dense intermediate) and
/// scratch; in place (`in_place`, input and output the same buffer), a first pass that cannot run
/// in place writes scratch. The FFT and NTT schedules both assign their buffers with it.
///
/// ```
/// use tensorfft::plan::schedule::{pass_buffers, Buffer};
/// assert_eq!(pass_buffers(&[true, false], true, true), vec![(Buffer::Input, Buffer::Scratch(0)), (Buffer::Scratch(0), Buffer::Output)]);
/// assert_eq!(pass_buffers(&[true], true, false), vec![(Buffer::Input, Buffer::Output)]);
/// ```
pub fn pass_buffers(
    in_place_safe: &[bool],
    output_dense: bool,
    in_place: bool,
) -> Vec<(Buffer, Buffer)> {
    let count = in_place_safe.len();
    let mut out = vec![(Buffer::Input, Buffer::Output); count];
    let mut loc = Buffer::Output;
    for p in (0..count).rev() {
        out[p].1 = loc;
        if p == 0 {
            break;
        }
        if !in_place_safe[p] {
            loc = match loc {
                Buffer::Output => Buffer::Scratch(0),
                Buffer::Scratch(0) if output_dense => Buffer::Output,
                Buffer::Scratch(0) => Buffer::Scratch(1),
                _ => Buffer::Scratch(0),
            };
        }
        out[p].0 = loc;
    }
    // In place, a first pass that cannot run in place must not write the input it reads.
    if in_place && count > 1 && out[0].1 == Buffer::Output && !in_place_safe[0] {
        let used = out
            .iter()
            .any(|&(a, b)| a == Buffer::Scratch(0) || b == Buffer::Scratch(0));
        let spare = Buffer::Scratch(u8::from(used));
        out[0].1 = spare;
        out[1].0 = spare;
    }
    out
}

/// Scratch buffers the given pass buffer assignments use (the most of any of them).
///
/// ```
/// use tensorfft::plan::schedule::{scratch_count, Buffer};
/// assert_eq!(scratch_count(&[vec![(Buffer::Input, Buffer::Scratch(1))], vec![]]), 2);
/// ```
pub fn scratch_count(assignments: &[Vec<(Buffer, Buffer)>]) -> usize {
    assignments
        .iter()
        .flatten()
        .flat_map(|&(a, b)| [a, b])
        .filter_map(|b| match b {
            Buffer::Scratch(k) => Some(k as usize + 1),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// Error bound of one strided pass: its inner DFT, the tile rounded into the exchange format
/// after its twiddle, the output rounded before it is stored, and the twiddle from two or three
/// table levels ([`StridedPass::twiddle_levels`]: the entries and the products between them,
/// three or five roundings).
fn strided_error_bound(s: &StridedPass) -> f64 {
    let u_exchange = match s.inner.exchange {
        ExchangeFormat::F16 => Precision::F16.unit_roundoff(),
        ExchangeFormat::BF16 => Precision::BF16.unit_roundoff(),
        ExchangeFormat::F32 => Precision::F32.unit_roundoff(),
        ExchangeFormat::F64 => Precision::F64.unit_roundoff(),
    };
    // Strided passes compute in f32, or f64 for f64 data, or f16 (bf16) on pairs of items (whose
    // stages count as packed half arithmetic: 16-bit operations and stage twiddles).
    let u_compute = match s.inner.precision {
        Precision::F64 => Precision::F64.unit_roundoff(),
        Precision::F16 if s.paired => Precision::F16.unit_roundoff(),
        Precision::BF16 if s.paired => Precision::BF16.unit_roundoff(),
        _ => Precision::F32.unit_roundoff(),
    };
    let twiddle = match s.twiddle_levels() {
        0 => 0.0,
        levels => f64::from(2 * levels - 1) * u_compute,
    };
    let inner = if s.paired {
        error_bound(&Recipe {
            half_arithmetic: true,
            ..s.inner.clone()
        })
    } else {
        error_bound(&s.inner)
    };
    inner + 2.0 * u_exchange + twiddle
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "c2c {} shape={:?} batch={} passes={}",
            self.precision.name(),
            self.dims,
            self.batch,
            self.passes.len()
        )?;
        for (i, p) in self.passes.iter().enumerate() {
            match &p.kernel {
                PassKernel::SinglePass { recipe, batch } => {
                    write!(f, "\n  pass {i} (axis {}): x{batch} {recipe}", p.axis)?
                }
                PassKernel::Strided(s) => write!(f, "\n  pass {i} (axis {}): {s}", p.axis)?,
                PassKernel::Cluster(c) => write!(f, "\n  pass {i} (axis {}): {c}", p.axis)?,
            }
        }
        Ok(())
    }
}
