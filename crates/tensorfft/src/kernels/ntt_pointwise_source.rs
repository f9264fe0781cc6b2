//! Instantiates the pointwise-product template (`cuda/ntt_pointwise.cuh`) for one NTT batch:
//! its reduction, its limbs and layout as compile-time constants, and one `extern "C"` entry.

use super::ntt_source::sources;
use crate::ntt::pointwise::limb_products;
use crate::ntt::NttBatch;
use crate::Result;

const NTT_ARITHMETIC: &str = include_str!("cuda/ntt_arithmetic.cuh");
const NTT_POINTWISE: &str = include_str!("cuda/ntt_pointwise.cuh");
const DEPENDENT_LAUNCH: &str = include_str!("cuda/dependent_launch.cuh");

/// Threads per block of the pointwise kernel (a grid-stride loop over vectors of words).
pub const POINTWISE_THREADS: usize = 256;

/// CUDA C++ source of the pointwise-product kernel of a batch, its entry point, and the words
/// per access (`out[w] = a[w] · b[w]` modulo word `w`'s limb; see `GpuNttPlan::pointwise_mul`).
///
/// ```
/// use tensorfft::kernels::ntt_pointwise_source::NttPointwiseSource;
/// use tensorfft::ntt::{NttBatch, NttKind, BABY_BEAR, KOALA_BEAR};
/// let b = NttBatch::limbs(&[BABY_BEAR, KOALA_BEAR], 1 << 10, NttKind::Cyclic).unwrap();
/// let k = NttPointwiseSource::new(&b, 4).unwrap();
/// assert!(k.source.contains(&k.entry) && k.entry.contains("MontgomeryProduct32"));
/// assert_eq!(k.words_per_access, 4);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NttPointwiseSource {
    /// Full translation unit; needs no CUDA headers.
    pub source: String,
    /// The entry point: `(const W* a, const W* b, W* out, const Product* limbs, u64 vectors)`.
    pub entry: String,
    /// Words per load and store (16 bytes where the batch's length allows).
    pub words_per_access: usize,
}

impl NttPointwiseSource {
    /// The kernel for `batch` in words of `word_bytes` bytes (4 or 8). Errors: the moduli and
    /// word size no transform of the batch takes ([`limb_products`]).
    ///
    /// ```
    /// use tensorfft::kernels::ntt_pointwise_source::NttPointwiseSource;
    /// use tensorfft::ntt::{NttBatch, NttKind, NttSpec, GOLDILOCKS};
    /// let b = NttBatch::new(NttSpec::new(GOLDILOCKS, 2, NttKind::Cyclic).unwrap()).batch(3).interleaved(true);
    /// let k = NttPointwiseSource::new(&b, 8).unwrap();
    /// assert!(k.source.contains("GoldilocksProduct") && k.source.contains("TRANSFORMS = 3"));
    /// assert_eq!(k.words_per_access, 2);
    /// ```
    pub fn new(batch: &NttBatch, word_bytes: usize) -> Result<Self> {
        let products = limb_products(batch, word_bytes)?;
        let product = products[0].device_struct();
        let len = batch.len();
        let widest = 16 / word_bytes;
        let v = [widest, widest / 2, 1]
            .into_iter()
            .find(|&v| v >= 1 && len.is_multiple_of(v))
            .unwrap_or(1);
        let limbs = batch.limb_count();
        let log_n = batch.n().trailing_zeros();
        let interleaved = batch.is_interleaved();
        // Contiguous batches do not depend on the transform count: one kernel serves them all.
        let transforms = if interleaved { batch.transforms() } else { 1 };
        let entry = format!(
            "tfft_ntt_pointwise_{product}_l{limbs}_n{log_n}_{}{transforms}_v{v}",
            if interleaved { "i" } else { "c" }
        );
        let mut source = sources(&[DEPENDENT_LAUNCH, NTT_ARITHMETIC, NTT_POINTWISE]);
        source.push_str(&format!(
            r#"struct Cfg_{entry} {{
    typedef {product} Product;
    static constexpr int V = {v};
    static constexpr u64 LIMBS = {limbs};
    static constexpr int LOG_N = {log_n};
    static constexpr u64 TRANSFORMS = {transforms};
    static constexpr bool INTERLEAVED = {interleaved};
}};
extern "C" __global__ void __launch_bounds__({POINTWISE_THREADS}) {entry}(
    const {product}::Word* a, const {product}::Word* b, {product}::Word* out, const {product}* limbs,
    u64 vectors) {{
    overlap_next_launch_then_wait();
    NttPointwise<Cfg_{entry}>::run(a, b, out, limbs, vectors);
}}
"#
        ));
        Ok(NttPointwiseSource {
            source,
            entry,
            words_per_access: v,
        })
    }
}
