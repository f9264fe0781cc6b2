//! Chooses a [`Schedule`] for a shape: one pass per axis where the axis fits a block, Stockham
//! passes of radix up to [`DEFAULT_MAX_PASS_LEN`] where it does not. Pure data in, data out.

use super::cluster_pass::{ClusterPass, MAX_CLUSTER_BLOCKS};
use super::options::{ExchangeFormat, IoMode, Layout, Normalization, PlanOptions, Strides, Tuning};
use super::planner::{
    max_len, max_len_tuned, plan_c2c_recipe, MAX_SHARED_BYTES, MAX_THREADS_PER_BLOCK,
};
use super::precision::Precision;
use super::recipe::Recipe;
use super::schedule::{Pass, PassKernel, Schedule};
use super::shape::Shape;
use super::strided_pass::{strided_exchange, ItemDim, PassTwiddle, StridedPass, MAX_ITEM_DIMS};
use crate::error::{Error, Result};

/// Longest axis a plan accepts (2^28), memory permitting.
pub const MAX_AXIS_LEN: usize = 1 << 28;
/// Most dimensions of a transform.
pub const MAX_RANK: usize = 3;
/// Longest DFT of one strided pass unless [`Tuning::max_pass_len`] says otherwise.
pub const DEFAULT_MAX_PASS_LEN: usize = 1024;
/// Shared memory of one strided-pass tile (unpadded) unless [`Tuning::pass_tile_bytes`] says
/// otherwise; a block holds two, so three blocks fit a multiprocessor.
pub const DEFAULT_PASS_TILE_BYTES: usize = 32 * 1024;
/// Threads a strided pass aims for per block.
const PASS_THREADS: usize = 256;
/// Most items of one tile.
const MAX_ITEMS_PER_TILE: usize = 256;
/// Most shared memory of a directly loaded f32 tile widened to 256-byte rows (`pass_recipe`):
/// a pass of 256 (32 items), not one of 512, whose 128 KB tile runs one block per SM.
const F32_WIDE_TILE_BYTES: usize = 64 * 1024;
/// Shortest axis the single-pass tensor-core kernels take (F16 and BF16 opt-in, F32Split); a
/// schedule runs shorter ones on the CUDA cores (F32Split and BF16 in f32).
const MIN_TENSOR_LEN: usize = 256;

/// Plans a batched 1D, 2D or 3D complex-to-complex transform as a schedule of passes. Axes are
/// transformed last to first; an axis whose elements are contiguous and that fits one block runs
/// the single-pass kernel, every other axis strided passes (one if it is at most
/// [`DEFAULT_MAX_PASS_LEN`] long, else a Stockham pass per factor).
///
/// ```
/// use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};
/// let s = plan_c2c_schedule(&Shape::new([64, 64, 64]), Precision::F16, &PlanOptions::default()).unwrap();
/// assert_eq!(s.passes.len(), 3);
/// assert!(plan_c2c_schedule(&Shape::new([3000]), Precision::F32, &PlanOptions::default()).is_err());
/// ```
pub fn plan_c2c_schedule(
    shape: &Shape,
    precision: Precision,
    options: &PlanOptions,
) -> Result<Schedule> {
    shape.total_elements()?;
    let dims = shape.dims();
    if dims.len() > MAX_RANK {
        return Err(Error::unsupported(
            format!("{}-dimensional transform {dims:?}", dims.len()),
            "1D, 2D and 3D transforms",
        ));
    }
    for &n in dims {
        if !n.is_power_of_two() || !(2..=MAX_AXIS_LEN).contains(&n) {
            return Err(Error::unsupported(
                format!("extent {n} in {dims:?}"),
                &format!("powers of two from 2 to {MAX_AXIS_LEN} along every axis"),
            ));
        }
    }
    let batch = shape.batch_count();
    // Normalization is set below, for every pass.
    let pass_options = PlanOptions {
        normalization: Normalization::None,
        ..*options
    };
    let total: usize = dims.iter().product();
    let dense = Strides::dense(total);
    let (src, dst) = (
        options.layout.input.unwrap_or(dense),
        options.layout.output.unwrap_or(dense),
    );
    // Dense strides given explicitly are the dense layout.
    let layout = Layout {
        input: Some(src).filter(|&s| s != dense),
        output: Some(dst).filter(|&s| s != dense),
    };
    for (side, st) in [("input", src), ("output", dst)] {
        if !st.is_injective(total, batch) {
            return Err(Error::unsupported(
                format!(
                    "{side} layout {st:?} for {batch} transforms of {dims:?} (elements overlap)"
                ),
                "strides and distances under which no two elements share an address",
            ));
        }
        if st.extent(total, batch) == usize::MAX {
            return Err(Error::InvalidSize(format!(
                "{side} layout {st:?} overflows usize"
            )));
        }
    }
    // The single-pass kernel reads and writes dense transforms; other layouts run every axis as
    // strided passes, the first reading the caller's input layout, the last writing the output
    // layout, the others dense intermediates.
    let all_dense = src == dense && dst == dense;
    // At most what one block transforms (the single-pass limit); a power of two or the one below.
    let max_pass = options
        .tuning
        .max_pass_len
        .unwrap_or(DEFAULT_MAX_PASS_LEN)
        .clamp(2, max_len(precision));
    // (axis, pass length, span) of every pass, or the single-pass kernel's axis (span 0).
    let mut steps: Vec<(usize, usize, usize)> = Vec::new();
    for axis in (0..dims.len()).rev() {
        let n = dims[axis];
        let inner: usize = dims[axis + 1..].iter().product();
        // A tuned maximum pass length also splits axes the single-pass kernel could take.
        let single_max = max_len(precision).min(options.tuning.max_pass_len.unwrap_or(usize::MAX));
        if all_dense && inner == 1 && n <= single_max {
            steps.push((axis, n, 0));
            continue;
        }
        let mut ns = 1;
        for len in axis_pass_lengths(precision, &options.tuning, n, inner, max_pass) {
            steps.push((axis, len, ns));
            ns *= len;
        }
    }
    let mut passes = Vec::with_capacity(steps.len());
    for (i, &(axis, len, ns)) in steps.iter().enumerate() {
        let n = dims[axis];
        let inner: usize = dims[axis + 1..].iter().product();
        let outer: usize = dims[..axis].iter().product();
        let kernel = if ns == 0 {
            // A single pass longer than the tensor-core kernels take (F16 32768) runs on the CUDA
            // cores, and so does one shorter (F32Split in f32, as accurate).
            let mut single_options = pass_options;
            let too_short = n < MIN_TENSOR_LEN;
            if n > max_len_tuned(precision, &options.tuning) || too_short {
                single_options.tuning.tensor_cores = None;
                single_options.tuning.tensor_pairs = None;
                // BF16 with the tensor cores asked for computes what they cannot take in f32
                // (as its strided passes), not in bf16x2.
                if precision == Precision::BF16 && options.tuning.tensor_cores == Some(true) {
                    single_options.tuning.half_arithmetic =
                        options.tuning.half_arithmetic.or(Some(false));
                }
            }
            let single_precision = if precision == Precision::F32Split && too_short {
                Precision::F32
            } else {
                precision
            };
            let recipe = plan_c2c_recipe(
                &Shape::new([n]).batch(outer * batch),
                single_precision,
                &single_options,
            )?;
            PassKernel::SinglePass {
                recipe,
                batch: outer * batch,
            }
        } else {
            let geometry = AxisGeometry {
                n,
                inner,
                outer,
                batch,
                src: if i == 0 { src } else { dense },
                dst: if i + 1 == steps.len() { dst } else { dense },
            };
            PassKernel::Strided(stockham_pass(
                precision,
                &options.tuning,
                &geometry,
                len,
                ns,
            )?)
        };
        passes.push(Pass { kernel, axis });
    }
    // A contiguous axis of exactly two Stockham passes runs them as one kernel on a cluster.
    if all_dense && options.tuning.cluster_blocks != Some(0) {
        let last = dims.len() - 1;
        let axis_passes: Vec<usize> = (0..passes.len())
            .filter(|&i| passes[i].axis == last)
            .collect();
        if let [i, j] = axis_passes[..] {
            if let (PassKernel::Strided(a), PassKernel::Strided(b)) =
                (&passes[i].kernel, &passes[j].kernel)
            {
                if let Some(c) = cluster_pair(precision, &options.tuning, a, b)? {
                    passes[i].kernel = PassKernel::Cluster(Box::new(c));
                    passes.remove(j);
                }
            }
        }
    }
    // A normalized direction scales in every pass, by 1/(its length) (or its square root):
    // the scales multiply to 1/(product of the extents), and no intermediate grows beyond the
    // data's magnitude times the length transformed so far (f16 would overflow if the last
    // pass scaled alone).
    let normalization = options.normalization;
    if normalization != Normalization::None {
        for pass in &mut passes {
            match &mut pass.kernel {
                PassKernel::SinglePass { recipe, .. } => recipe.normalization = normalization,
                PassKernel::Strided(p) => p.normalization = normalization,
                PassKernel::Cluster(c) => {
                    c.first.normalization = normalization;
                    c.second.normalization = normalization;
                }
            }
        }
    }
    Ok(Schedule {
        dims: dims.to_vec(),
        layout,
        batch,
        precision,
        normalization: options.normalization,
        passes,
    })
}

/// The pass lengths of an axis of length `n` whose later axes hold `inner` elements: the
/// fewest of at most `max_pass` ([`pass_lengths`]), except that an f32 or f16 axis of 2048 or
/// 4096 other than the contiguous one is a single pass (its tile capped at
/// [`LONG_PASS_TILE_BYTES`]: 4 to 16 items) unless the tuning sets the pass length. H200, twice
/// each (`bench/results/2026-11-25-h200-probe-long-passes*.txt`, `multipass_probe`): f32 2048²
/// 32.7% of copy -> 40.1%, 4096² 32.4% -> 35.2% (cuFFT 34.5%), 4096 x 64 33.0% -> 36.3%; f16
/// 2048² 32.3% -> 36.7%, 4096² 27.2% -> 32.5%. Longer or contiguous axes lose: f32 8192² (two
/// items per tile) 31.9% -> 24.5%, 1D 2^22 as 2048 x 2048 32.4% -> 30.4%, 2^24 as 4096 x 4096
/// 30.5% -> 25.7%. Passes come longest first but where [`Tuning::shortest_pass_first`] (or its
/// default, [`shortest_first_by_default`] for contiguous axes) reverses them; the tensor-core
/// split and the single long-column pass keep their order whatever the tuning.
fn axis_pass_lengths(
    precision: Precision,
    tuning: &Tuning,
    n: usize,
    inner: usize,
    max_pass: usize,
) -> Vec<usize> {
    let long_column = tuning.max_pass_len.is_none()
        && inner > 1
        && matches!(precision, Precision::F32 | Precision::F16)
        && (2048..=4096).contains(&n);
    if long_column {
        vec![n]
    } else if tensor_pass(precision, tuning, max_pass) {
        tensor_pass_lengths(n, max_pass)
    } else {
        let mut lens = pass_lengths(n, max_pass);
        if tuning
            .shortest_pass_first
            .unwrap_or(inner == 1 && shortest_first_by_default(precision, &lens))
        {
            lens.reverse();
        }
        lens
    }
}

/// Whether a contiguous axis split into `lens` (longest first) runs its passes shortest first
/// unless the tuning says otherwise: f64 axes of three or more passes whose longest is 512
/// (1D 2^25 and 2^26; 2^27 splits evenly; 2^28, 1024 × 512 × 512, and strided axes are not
/// measured and keep longest first), so the last pass (the four-step twiddle of the whole
/// axis) is a long one. H200, `multipass_probe`
/// alternating, twice (`bench/results/2026-11-28-h200-short-pass-first/`): f64 2^26 as 256 ×
/// 512 × 512 1.773 / 1.772 ms against 1.912 / 1.906 as 512 × 512 × 256 (ncu per pass: the
/// last pass 643 µs as 512 points against 744 µs as 256), 2^25 × 2 1.801 / 1.790 against
/// 1.879 / 1.866. Lose or tie: f64 2^22 (256 × 128 × 128) +0.7%, f32 2^22 +1.7%, f32 2^26
/// +0.4%, f16 2^26 +9%, f32 2^21 level (`bench/NOTES.md` step 103).
fn shortest_first_by_default(precision: Precision, lens: &[usize]) -> bool {
    precision == Precision::F64 && lens.len() >= 3 && lens.first() == Some(&512)
}

/// The pass lengths of an axis of length `n` whose passes may run on the tensor cores (those of
/// at least 512, [`tensor_pass`]): as few as [`pass_lengths`] gives, each `max_pass` long but the
/// first, which takes the rest (2^22 as 4 x 1024 x 1024, where [`pass_lengths`] gives 256 x 128
/// x 128 and no pass for the tensor cores).
///
/// ```
/// use tensorfft::plan::schedule_planner::tensor_pass_lengths;
/// assert_eq!(tensor_pass_lengths(1 << 22, 1024), vec![4, 1024, 1024]);
/// assert_eq!(tensor_pass_lengths(1 << 20, 1024), vec![1024, 1024]);
/// assert_eq!(tensor_pass_lengths(1 << 11, 1024), vec![2, 1024]);
/// ```
pub fn tensor_pass_lengths(n: usize, max_pass: usize) -> Vec<usize> {
    let bits = n.trailing_zeros() as usize;
    let max_bits = (max_pass.max(2).ilog2() as usize).max(1);
    let count = bits.div_ceil(max_bits).max(1);
    let first = bits - (count - 1) * max_bits;
    std::iter::once(1usize << first)
        .chain(std::iter::repeat_n(1usize << max_bits, count - 1))
        .collect()
}

/// Splits an axis of length `n` (a power of two) into the fewest pass lengths of at most
/// `max_pass`, as even as possible, longer ones first (so the first pass's length, the span of
/// the second, covers a tile's items).
///
/// ```
/// use tensorfft::plan::schedule_planner::pass_lengths;
/// assert_eq!(pass_lengths(1 << 20, 1024), vec![1024, 1024]);
/// assert_eq!(pass_lengths(1 << 21, 1024), vec![128, 128, 128]);
/// assert_eq!(pass_lengths(1 << 15, 1024), vec![256, 128]);
/// assert_eq!(pass_lengths(512, 1024), vec![512]);
/// ```
pub fn pass_lengths(n: usize, max_pass: usize) -> Vec<usize> {
    let bits = n.trailing_zeros() as usize;
    let max_bits = (max_pass.max(2).ilog2() as usize).max(1);
    let count = bits.div_ceil(max_bits).max(1);
    (0..count)
        .map(|p| 1usize << (bits / count + usize::from(p < bits % count)))
        .collect()
}

/// An axis of a batched transform: its length `n`, the product `inner` of the later extents
/// and `outer` of the earlier ones, the batch, and the layouts a pass reads and writes.
struct AxisGeometry {
    n: usize,
    inner: usize,
    outer: usize,
    batch: usize,
    src: Strides,
    dst: Strides,
}

/// The Stockham pass of length `len` and span `ns` along an axis. Butterfly `j = m + ns q`
/// reads samples `j + r n/len` and writes `q ns len + m + r ns` (in units of the axis's element
/// distance), after the twiddle `w_{ns len}^{m r}`. Item dimensions are ordered by input stride,
/// so the fastest has unit stride wherever the layout has one.
fn stockham_pass(
    precision: Precision,
    tuning: &Tuning,
    axis: &AxisGeometry,
    len: usize,
    ns: usize,
) -> Result<StridedPass> {
    let AxisGeometry {
        n,
        inner,
        outer,
        batch,
        src,
        dst,
    } = *axis;
    // Element distances along the axis, in the input and the output. Saturating: the strides of
    // dimensions with more than one item lie within the layout's extent (checked by the
    // planner); the others are never used.
    let (a, b) = (
        inner.saturating_mul(src.stride),
        inner.saturating_mul(dst.stride),
    );
    // (count, in stride, out stride, whether it is the twiddle's m)
    let mut all = [
        (inner, src.stride, dst.stride, false),
        (ns, a, b, ns > 1),
        (
            n / (len * ns),
            ns.saturating_mul(a),
            (ns * len).saturating_mul(b),
            false,
        ),
        (outer, n.saturating_mul(a), n.saturating_mul(b), false),
        (batch, src.dist, dst.dist, false),
    ];
    all.sort_by_key(|d| d.1);
    let mut dims: Vec<ItemDim> = Vec::new();
    let mut twiddle = None;
    for &(count, in_stride, out_stride, is_m) in all.iter().filter(|d| d.0 > 1) {
        if is_m {
            twiddle = Some(PassTwiddle {
                dim: dims.len(),
                root: ns * len,
            });
        }
        dims.push(ItemDim {
            count,
            in_stride,
            out_stride,
        });
    }
    if dims.is_empty() {
        dims.push(ItemDim {
            count: 1,
            in_stride: 1,
            out_stride: 1,
        });
    }
    debug_assert!(dims.len() <= MAX_ITEM_DIMS);
    let sample_stride_in = (n / len).saturating_mul(a);
    let sample_stride_out = ns.saturating_mul(b);
    let tensor = tensor_pass(precision, tuning, len);
    // F32Split passes too short for tensor-core stages compute in f32 (as accurate).
    let precision = if precision == Precision::F32Split && !tensor {
        Precision::F32
    } else {
        precision
    };
    // Items whose neighbours are contiguous are loaded straight into registers; others, and
    // every tensor-core pass, are gathered through shared memory.
    let items_fastest = dims[0].in_stride < sample_stride_in;
    let gathered = !items_fastest || tensor;
    // Pairs compute in f16 (bf16): `half_arithmetic: Some(false)` (f32 arithmetic) turns them
    // off too, and a tile must hold a whole pair.
    // BF16 with the tensor cores asked for computes its strided passes in f32 (see
    // `tensor_pass`), not in bf16x2.
    let paired = matches!(precision, Precision::F16 | Precision::BF16)
        && !tensor
        && tuning.paired_items != Some(false)
        && tuning.half_arithmetic != Some(false)
        && !(precision == Precision::BF16 && tuning.tensor_cores == Some(true))
        && tuning.items_per_tile.is_none_or(|g| g >= 2)
        && pairs_of_items(&dims, gathered, sample_stride_in, sample_stride_out);
    let access = PassAccess {
        gathered,
        paired,
        tensor,
        items_fastest,
        stores_items_fastest: dims[0].out_stride < sample_stride_out,
        twiddled: twiddle.is_some(),
        run_items: if dims[0].in_stride == 1 {
            dims[0].count
        } else {
            1
        },
    };
    let (inner_recipe, items_per_tile) = pass_recipe(precision, tuning, len, &access)?;
    let pass = StridedPass {
        inner: inner_recipe,
        items_per_tile,
        dims,
        sample_stride_in,
        sample_stride_out,
        twiddle,
        normalization: Normalization::None,
        item_stride: 0,
        // * f64 items of 512 and more store from registers where their outputs are contiguous
        //   (H200, against staging through shared memory, twice each; bench/NOTES.md step 35):
        //   f64 2^18 41.5% of copy against 39.8%, 2^20 35.0% against 32.8%; shorter items
        //   lose (f64 2^15, items of 256: 45.2% against 46.6%; 2^22: 28.3% against 28.8%),
        //   and so do f32 (2^20 34.8% against 35.6%) and f16 (2^20 15.7% against 20.3%).
        direct_store: precision == Precision::F64 && len >= 512,
        paired,
    }
    .with_tile_layout();
    let smem = pass.shared_bytes() + pass.static_shared_bytes();
    if smem > MAX_SHARED_BYTES {
        return Err(Error::DeviceLimit(format!(
            "{smem} bytes of shared memory per block for {pass} (at most {MAX_SHARED_BYTES})"
        )));
    }
    Ok(pass)
}

/// Whether a directly loaded pass can take its items in pairs (`StridedPass::paired`): sample k
/// of items 2p and 2p + 1 must be one aligned 8-byte word in the input (unit stride between
/// neighbouring items, an even count of them, every other distance even), and likewise in the
/// output where the last stage stores straight from registers (staged stores write each item's
/// samples on their own).
fn pairs_of_items(
    dims: &[ItemDim],
    gathered: bool,
    sample_stride_in: usize,
    sample_stride_out: usize,
) -> bool {
    let even = |x: usize| x.is_multiple_of(2);
    let Some((first, rest)) = dims.split_first() else {
        return false;
    };
    let store_direct = first.out_stride < sample_stride_out;
    !gathered
        && first.in_stride == 1
        && first.count >= 2
        && even(first.count)
        && even(sample_stride_in)
        && rest.iter().all(|d| even(d.in_stride))
        && (!store_direct
            || (first.out_stride == 1
                && even(sample_stride_out)
                && rest.iter().all(|d| even(d.out_stride))))
}

/// Whether a strided pass of length `len` runs its radix-16 stages on the tensor cores: F32Split
/// passes, and F16 passes where the tuning asks for tensor cores, of 512 to 16384 samples (16
/// values per thread and whole warps per item). Shorter passes run on the CUDA cores (F32Split
/// ones in f32).
///
/// ```
/// # use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape, Tuning, plan::schedule::PassKernel};
/// let tc = PlanOptions::tuned(Tuning { tensor_cores: Some(true), ..Tuning::default() });
/// let s = plan_c2c_schedule(&Shape::new([1 << 20]), Precision::F16, &tc).unwrap();
/// let PassKernel::Strided(p) = &s.passes[0].kernel else { panic!() };
/// assert!(p.inner.tensor_cores && p.staged_in() && p.staged_out());
/// ```
pub fn tensor_pass(precision: Precision, tuning: &Tuning, len: usize) -> bool {
    let wanted = match precision {
        Precision::F32Split => tuning.tensor_cores != Some(false),
        Precision::F16 => tuning.tensor_cores == Some(true),
        // BF16 strided passes stay on the CUDA cores in f32 arithmetic when the tensor cores
        // are asked for: on the H200 the tensor-core passes were slower and less accurate
        // than f32 ones (2^20 17.4% of the copy at 5.0e-3 against 23.1% at 4.1e-3, 1024²
        // 26.6% at 4.4e-3 against 29.4% at 3.3e-3; `bench/results/2026-11-29-h200-bf16-tensor-cores/`,
        // bench/NOTES.md step 123).
        _ => false,
    };
    wanted && (512..=16 * MAX_THREADS_PER_BLOCK).contains(&len)
}

/// How a strided pass reaches its items: gathered through shared memory (else loaded straight
/// into registers), on pairs of items, with tensor-core stages, whether neighbouring items
/// are the neighbours in its input and output and how many of them in a row, and whether it
/// applies a four-step twiddle.
struct PassAccess {
    gathered: bool,
    paired: bool,
    tensor: bool,
    items_fastest: bool,
    /// Whether the tile is stored with neighbouring items fastest (rows of items in the
    /// output too), not each item's outputs contiguous.
    stores_items_fastest: bool,
    /// Whether the pass multiplies its input by a four-step twiddle.
    twiddled: bool,
    /// Items that are neighbours in the input (the fastest item dimension's count where its
    /// stride is one, else 1): the longest row of items a tile can read.
    run_items: usize,
}

/// Shared memory of a directly loaded strided pass's tile at most: the item counts the rows rule
/// asks for (64-byte rows, 128-byte rows of 16-byte elements stored as rows of items within 512
/// threads, 256-byte rows where `pass_recipe` widens f32 and f64 passes of 256) are halved
/// until the tile fits, so passes of 2048 and 4096 (f32: 8 and 4 items) run one block of 128 KiB
/// per multiprocessor.
pub const LONG_PASS_TILE_BYTES: usize = 128 * 1024;

/// Threads per block a cluster pass aims for.
const CLUSTER_THREADS: usize = 512;

/// The two Stockham passes `a` and `b` of one contiguous axis as one [`ClusterPass`], if they
/// fit: `Tuning::cluster_blocks` blocks per cluster, else as many as give blocks of about
/// [`CLUSTER_THREADS`] threads (at most [`MAX_CLUSTER_BLOCKS`]); f32 takes the most blocks, up
/// to [`MAX_CLUSTER_BLOCKS`], that divide both lengths while blocks stay within
/// [`CLUSTER_THREADS`] threads. Each pass keeps its radices
/// and values per thread and takes `1/C` of the transform's items per block.
fn cluster_pair(
    precision: Precision,
    tuning: &Tuning,
    a: &StridedPass,
    b: &StridedPass,
) -> Result<Option<ClusterPass>> {
    // The cluster kernel has no tensor-core stages.
    if a.inner.tensor_cores || b.inner.tensor_cores || precision == Precision::F32Split {
        return Ok(None);
    }
    let n = a.len() * b.len();
    // Values per thread: the passes' own, or for F16 passes on pairs of items (whose slots count
    // pairs) the 16 of f16 passes in f32 arithmetic; the cluster kernel computes one item per
    // lane.
    // f64 clusters were measured with 8 values per thread: a first pass of 256 with 16 (step
    // 105's rule for two passes) does not carry over (f64 2^15 on a cluster of 4 blocks of 512
    // threads with 16 each ran at 0.61x the two passes; bench/NOTES.md step 105).
    let e = tuning.elements_per_thread.unwrap_or(if a.paired {
        16
    } else if precision == Precision::F64 {
        8
    } else {
        a.inner.elements_per_thread
    });
    let blocks = match tuning.cluster_blocks {
        Some(c) => c,
        // Where the cluster kernel, one cluster per group, measured faster than the two passes
        // (bench/NOTES.md steps 26 and 30; H200, 2^27 elements): f32 2^15 50.1% of copy against
        // 42.2%, 2^16 47.3% against 41.6%, f16 2^16 26.8% against 24.9%, f64 2^14 46.6%
        // against 42.9%. f64 2^15 (8 blocks) measured slower (43.5% against 46.2%, step 30)
        // and keeps two passes unless asked. After the tile layout and double pass twiddles
        // (step 33, `bench/results/2026-11-24-h200-probe-cluster.txt`): f32 2^15 on 8 blocks of
        // 256 threads 55.7% against 52.4% on 4 of 512 (two passes 48.8%); f64 2^14 on 4
        // blocks 52.6% against 50.6% on 8 (45.8%); f64 2^15 46.2% either way.
        // Since the strided passes' radix-32 stages (step 43) and f16 pairs of items (step 45),
        // two passes win at 2^16 (`bench/results/2026-11-25-h200-probe-f16-cluster.txt`, twice):
        // f16 44.0% against 31.6% on the cluster, f32 48.65% against 47.4% (f32 2^15: the
        // cluster 56.0% against 48.9%). f32 clusters stop at 2^15; f16 pairs never cluster.
        None if a.paired || b.paired => return Ok(None),
        None if precision == Precision::F64 && n > 4 * CLUSTER_THREADS * e => return Ok(None),
        None if precision == Precision::F32 && n > MAX_CLUSTER_BLOCKS * CLUSTER_THREADS * e / 2 => {
            return Ok(None)
        }
        None if precision == Precision::F32 => {
            // The most blocks (at most 8) that divide both passes' lengths.
            1 << a
                .len()
                .trailing_zeros()
                .min(b.len().trailing_zeros())
                .min(MAX_CLUSTER_BLOCKS.trailing_zeros())
        }
        None => (n / (CLUSTER_THREADS * e)).max(2),
    };
    if !blocks.is_power_of_two()
        || !(2..=MAX_CLUSTER_BLOCKS).contains(&blocks)
        || !a.len().is_multiple_of(blocks)
        || !b.len().is_multiple_of(blocks)
    {
        return Ok(None);
    }
    let threads = n / (blocks * e);
    if threads > MAX_THREADS_PER_BLOCK {
        return Ok(None);
    }
    // Registers capped so that two blocks of 512 threads (three of 256) share a multiprocessor:
    // the kernel is bound by instruction latency, and one block of 512 threads per
    // multiprocessor ran at 36% of copy against 59% for two (H100, f32 2^16, multipass_probe).
    let landing = tuning.prefetch == Some(true);
    // With a landing buffer one block fills a multiprocessor's shared memory: no cap.
    let min_blocks = tuning.min_blocks_per_sm.unwrap_or(match threads {
        _ if landing => 0,
        0..=256 => 3,
        257..=512 => 2,
        _ => 1,
    });
    let per_block = |p: &StridedPass, items: usize| -> Result<StridedPass> {
        let recipe = plan_c2c_recipe(
            &Shape::new([p.len()]),
            precision,
            &PlanOptions::tuned(Tuning {
                elements_per_thread: Some(e),
                transforms_per_block: Some(items),
                min_blocks_per_sm: Some(min_blocks),
                ..strided_base(precision, tuning)
            }),
        )?;
        Ok(StridedPass {
            inner: recipe,
            items_per_tile: items,
            // The first pass leaves its outputs in shared memory for the second; the cluster
            // kernel computes one item per lane.
            direct_store: false,
            paired: false,
            ..p.clone()
        }
        .with_tile_layout())
    };
    let (Ok(first), Ok(second)) = (
        per_block(a, b.len() / blocks),
        per_block(b, a.len() / blocks),
    ) else {
        return Ok(None);
    };
    let pass = ClusterPass {
        first,
        second,
        cluster: blocks,
        // The landing buffer doubles the shared memory, so one block fits a multiprocessor: it
        // measured slower (H100 f32 2^16: 35.7% of copy against 58.6%); opt-in.
        landing,
        // A landing buffer needs the loop over groups (it loads the next one).
        persistent: tuning.persistent == Some(true) || landing,
    };
    if !pass.is_consistent() || pass.shared_bytes() > MAX_SHARED_BYTES {
        return Ok(None);
    }
    Ok(Some(pass))
}

/// The tuning of every strided pass's inner DFT: staged through shared memory, f32 (f64)
/// arithmetic on the CUDA cores, the strided exchange format, one block per tile; derived
/// twiddles in f32 and f16 unless `tuning` says otherwise.
///
/// * Derived twiddles, H200, 2026-11-24 (`bench/results/2026-11-24-h200-probe-derived.txt`):
///   f32 2^18 37.5% of copy against 34.7%, 2^20 32.0% against 29.3%, 1024² 43.3% against
///   42.1%, 64³ 32.6% against 32.5%, f16 2^20 18.6% against 18.3%; errors f32 2^20 1.94e-7
///   against 1.67e-7 (cuFFT 3.09e-7). f64 not measured: its rule stays the single pass's.
fn strided_base(precision: Precision, tuning: &Tuning) -> Tuning {
    Tuning {
        derived_twiddles: tuning
            .derived_twiddles
            .or((precision != Precision::F64).then_some(true)),
        io: Some(IoMode::Staged),
        half_arithmetic: Some(false),
        tensor_cores: Some(false),
        // An item's threads are spread over the block (neighbouring threads on neighbouring
        // items): its exchanges need block barriers.
        warp_exchange: Some(false),
        exchange: Some(strided_exchange(precision)),
        persistent: Some(false),
        prefetch: Some(false),
        // Register blocking and launch shape: the caller's, for experiments.
        elements_per_thread: tuning.elements_per_thread,
        max_radix: tuning.max_radix,
        min_blocks_per_sm: tuning.min_blocks_per_sm,
        twiddles_ahead: tuning.twiddles_ahead,
        stream_loads: tuning.stream_loads,
        ..Default::default()
    }
}

/// The in-block DFT of one item of a strided pass of length `len`, and the items per tile. Items
/// loaded straight into registers: one round per tile of about 256 threads, or of rows of at
/// least 64 bytes (128 for 16-byte elements stored as rows of items while the block stays
/// within 512 threads: such f64 passes of 512 run 8 items on 512 threads; 256 for complex f32
/// where the tile stays within 64 KB and 512 threads: passes of 256 run 32 items; f64 passes
/// of 256 without a twiddle run 16 values per thread on 16 items). Gathered tiles: as
/// many items as fit [`Tuning::pass_tile_bytes`] of shared memory (default
/// [`DEFAULT_PASS_TILE_BYTES`], at most 256 items), computed about
/// 256 threads at a time.
fn pass_recipe(
    precision: Precision,
    tuning: &Tuning,
    len: usize,
    access: &PassAccess,
) -> Result<(Recipe, usize)> {
    let PassAccess {
        gathered,
        paired,
        tensor,
        items_fastest,
        stores_items_fastest,
        twiddled,
        run_items,
    } = *access;
    let mut base = strided_base(precision, tuning);
    if tensor {
        // Radix-16 products with 16 values per thread, whole warps per item; F16 items of 1024
        // and more run their first two stages as the stage pair in registers
        // (`tensor_pair_fft.cuh`), other items stage by stage.
        base.tensor_cores = Some(true);
        base.tensor_pairs = Some(precision == Precision::F16 && len >= 1024);
        base.elements_per_thread = Some(16);
        base.max_radix = Some(16);
    }
    if paired {
        // One slot holds a pair of items: 8-byte exchange elements (f16x2 real parts, then
        // imaginary parts), the layout of an f32 tile; f16 stage twiddles read whole rows.
        base.exchange = Some(ExchangeFormat::F32);
        base.derived_twiddles = Some(tuning.derived_twiddles.unwrap_or(false));
    }
    // f32 passes of 512 and 1024: 32 values per thread in radix-32 stages (a pass of 1024 has
    // one shared-memory exchange instead of two), 128 registers, two blocks per SM. H200, same
    // run, twice (`bench/results/2026-11-25-h200-probe-strided-e32.txt`, the tuning applied to
    // every kernel of the plan): f32 2^18 43.0% of copy -> 47.1%, 2^20 36.2% -> 39.2%, 512^3
    // 25.7% -> 30.9%; 1024^2 45.1% -> 44.3% and 64^3 32.5% -> 30.2%, where the single-pass
    // kernel of the rows lost with it (it keeps its own rule). f16 passes: flat (20.9-21.1%
    // at 2^20), unchanged.
    // F16 pairs of items of 512 and 1024 the same way, with radix-16 stages: H200, same runs,
    // twice (`bench/results/2026-11-25-h200-probe-pairs.txt`): f16 2^20 28.6% of copy (16 pairs
    // per thread, 64 registers) -> 31.7%, 2^18 37.8% -> 40.0%; radix-32 stages 30.5% / 34.1%
    // (spills at 2^18), one block per SM 26.7% / 33.5%. Shorter passes keep 16 per thread
    // (2^22, passes of 256 and 128: 31.1% against 27.1%).
    if (precision == Precision::F32 || paired)
        && (512..=1024).contains(&len)
        && tuning.elements_per_thread.is_none()
    {
        base.elements_per_thread = Some(32);
        base.max_radix = Some(tuning.max_radix.unwrap_or(if paired { 16 } else { 32 }));
        base.min_blocks_per_sm = Some(tuning.min_blocks_per_sm.unwrap_or(2));
    }
    // f64 passes of 256 without a twiddle: 16 values per thread on 16 items (256-byte rows,
    // 256 threads, 126 registers, two blocks per SM). H200, ncu per pass of f64 2^24 x 4 (the
    // first pass, samples 1 MiB apart, outputs contiguous per item): 529 us against 568 us with
    // 8 values on 8 items; its twiddled passes need 170 registers that way and lose (one block
    // per SM: 681 / 845 us against 541 / 663 us). `tfft bench` at 2^27 elements, alternating,
    // twice: 256³ −4.3%, 2^22 … 2^26 −2.0 to −2.4%, 256² −1.2%, 65536 −0.6% (step 105).
    // Only where the input has rows of 16 neighbouring items, and neither the values per thread
    // nor the items per tile are set by the tuning (the rule sets both).
    let wide_f64 = precision == Precision::F64
        && len == 256
        && !twiddled
        && !gathered
        && !tensor
        && run_items >= 16
        && tuning.elements_per_thread.is_none()
        && tuning.items_per_tile.is_none();
    if wide_f64 {
        base.elements_per_thread = Some(16);
        base.min_blocks_per_sm = Some(tuning.min_blocks_per_sm.unwrap_or(2));
    }
    let shape = Shape::new([len]);
    let first = plan_c2c_recipe(&shape, precision, &PlanOptions::tuned(base))?;
    // The budget counts the unpadded tile (the tile layout adds at most 1/8 and one bank period).
    let item_bytes = len * first.exchange.bytes();
    // Items per slot of the tile, and a slot's bytes in device memory.
    let per_slot = if paired { 2 } else { 1 };
    let slot_bytes = per_slot * precision.complex_bytes();
    let tile_bytes = tuning.pass_tile_bytes.unwrap_or(DEFAULT_PASS_TILE_BYTES);
    let fit = (tile_bytes / item_bytes).clamp(1, MAX_ITEMS_PER_TILE);
    let t = first.threads_per_transform;
    let slots = match tuning.items_per_tile {
        Some(g) if g.is_power_of_two() && g >= per_slot && g <= 1024 => g / per_slot,
        Some(g) => {
            return Err(Error::unsupported(
                format!("{g} items per tile"),
                "powers of two up to 1024",
            ))
        }
        // Tensor-core passes gather items that are neighbours in memory too: rows of 64 bytes
        // as for direct loads, unless the tuning sets the tile's bytes, while two tiles of
        // padded items fit (`StridedPass::with_tile_layout` takes the single-pass paddings, up
        // to 56% more for the stage pair's input, and two more elements).
        None if tensor && items_fastest && tuning.pass_tile_bytes.is_none() => {
            let padded_item = (first.shared_stride() + 2) * first.exchange.bytes();
            (64 / slot_bytes).min(prev_power_of_two(MAX_SHARED_BYTES / (2 * padded_item)))
        }
        None if gathered => 1 << fit.ilog2(),
        // At least 64 bytes of neighbouring items per sample row (f32 1024: 8 items in 512
        // threads measured 29.9% of copy for 2^20 against 22.7% with 4; H200, multipass_probe),
        // and 128 bytes for 16-byte elements (complex f64) stored as rows of items too, while
        // the block stays within 512 threads: with the default 8 values per thread that is
        // f64 passes of 512 (512³ 27.6 → 30.9% of the copy, 512² 45.8 → 48.4%; bench/NOTES.md
        // step 100). Where each item's outputs are contiguous (the first pass of a long 1D
        // transform), 64-byte rows: H200, f64 2^18 × 256 (512 × 512) 1.275 → 1.160 ms; ncu per
        // pass of f64 2^26 as it was then planned (512 × 512 × 256), the pass of 512 without a
        // twiddle 590 µs with 4 items against 682 µs with 8, the twiddled passes 667 / 809 µs
        // with 4 against 573 / 714 µs with 8 (step 102; since step 103 2^26 starts with its
        // pass of 256, 8 items either way).
        //
        // Complex f32 passes whose tile of 256-byte rows fits 64 KB take those rows where the
        // input has them (passes of 256: 32 items on 512 threads, 64 registers without spills
        // with or without a twiddle; passes of 128 and shorter had them already, passes of 512
        // would need 128 KB tiles): scattered 128-byte rows cost a pass its
        // DRAM rate where it stores them at a large sample distance (pure traffic, H200, 1 GiB
        // at a 1 MiB sample distance: 128-byte rows 81-84% of a copy, 256-byte rows 91-94%,
        // `bench/stride_pattern_microbench.cu`); f32 2^24 x 4 (256 x 256 x 256) 0.900 -> 0.863
        // ms, its last pass 293 -> 278 us, the first level; `tfft bench`, alternating, twice:
        // 2^24 −4.1%, 2^25 −4.5%, 256³ −4.2%, 2^26 −2.9%, 256² −1.9%, 2^22 level (step 104).
        None => (PASS_THREADS / t)
            .max(64 / slot_bytes)
            .max(if slot_bytes >= 16 && stores_items_fastest {
                (128 / slot_bytes).min(512 / t)
            } else {
                0
            })
            .max(if wide_f64 { 256 / slot_bytes } else { 0 })
            .max(if slot_bytes == 8 && !paired {
                (256 / slot_bytes)
                    .min(512 / t)
                    .min(prev_power_of_two(F32_WIDE_TILE_BYTES / item_bytes))
                    .min(prev_power_of_two(run_items))
            } else {
                0
            })
            .min(MAX_THREADS_PER_BLOCK / t)
            .min(prev_power_of_two(LONG_PASS_TILE_BYTES / item_bytes))
            .max(1),
    };
    let per_round = if tensor {
        // The whole tile at once where a block holds it (16 values per thread).
        (MAX_THREADS_PER_BLOCK / t).clamp(1, slots)
    } else if gathered {
        (PASS_THREADS / t).clamp(1, slots)
    } else {
        slots
    };
    let items_per_tile = slots * per_slot;
    let recipe = plan_c2c_recipe(
        &shape,
        precision,
        &PlanOptions::tuned(Tuning {
            transforms_per_block: Some(per_round),
            ..base
        }),
    )?;
    Ok((recipe, items_per_tile))
}

/// The largest power of two not above `x` (1 for 0).
fn prev_power_of_two(x: usize) -> usize {
    if x == 0 {
        1
    } else {
        1 << x.ilog2()
    }
}
