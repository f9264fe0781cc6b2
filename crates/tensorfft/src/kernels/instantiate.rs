//! Instantiates the single-pass kernel template for a [`Recipe`]: a configuration struct of
//! compile-time constants plus one `extern "C"` entry point per direction.

use crate::plan::{Direction, ExchangeFormat, IoMode, Precision, Recipe, TwiddleSource};

const COMPLEX: &str = include_str!("cuda/complex.cuh");
const PRECISION: &str = include_str!("cuda/precision.cuh");
const HALF2_ARITHMETIC: &str = include_str!("cuda/half2_arithmetic.cuh");
const DFT_REGISTERS: &str = include_str!("cuda/dft_registers.cuh");
const DFT_TENSOR_CORES: &str = include_str!("cuda/dft_tensor_cores.cuh");
const STOCKHAM_SINGLE_PASS: &str = include_str!("cuda/stockham_single_pass.cuh");
const STOCKHAM_PAIRED_HALF: &str = include_str!("cuda/stockham_paired_half.cuh");

/// CUDA C++ source of one kernel module and the names of its entry points.
///
/// ```
/// use tensorfft::{kernels::KernelSource, plan_c2c_recipe, Direction, PlanOptions, Precision, Shape};
/// let r = plan_c2c_recipe(&Shape::new([64]), Precision::F32, &PlanOptions::default()).unwrap();
/// let k = KernelSource::single_pass(&r);
/// assert!(k.source.contains(&k.entry(Direction::Forward)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KernelSource {
    /// Full translation unit (templates plus instantiation); needs no CUDA headers.
    pub source: String,
    /// Entry point name prefix; see [`KernelSource::entry`].
    pub stem: String,
    /// Threads per block the entries are compiled for.
    pub threads_per_block: usize,
    /// Dynamic shared memory per block, in bytes.
    pub shared_bytes: usize,
}

impl KernelSource {
    /// The single-pass Stockham kernels (forward and inverse) for `recipe`.
    ///
    /// ```
    /// # use tensorfft::{kernels::KernelSource, plan_c2c_recipe, PlanOptions, Precision, Shape};
    /// let r = plan_c2c_recipe(&Shape::new([4096]), Precision::F16, &PlanOptions::default()).unwrap();
    /// assert!(KernelSource::single_pass(&r).source.contains("StoreF16"));
    /// ```
    pub fn single_pass(recipe: &Recipe) -> Self {
        let stem = recipe.kernel_stem();
        let store = store_type(recipe.precision);
        let exchange = match recipe.exchange {
            ExchangeFormat::F16 => "StoreF16",
            ExchangeFormat::F32 => "StoreF32",
            ExchangeFormat::F64 => "StoreF64",
        };
        let radices: Vec<String> = recipe.radices.iter().map(|r| r.to_string()).collect();
        let radices = radices.join(", ");
        let mut source = String::new();
        for part in [
            COMPLEX,
            PRECISION,
            HALF2_ARITHMETIC,
            DFT_REGISTERS,
            DFT_TENSOR_CORES,
            STOCKHAM_SINGLE_PASS,
            STOCKHAM_PAIRED_HALF,
        ] {
            for line in part.lines().filter(|l| l.trim() != "#pragma once") {
                source.push_str(line);
                source.push('\n');
            }
        }
        let threads = recipe.threads_per_block();
        let pads: Vec<String> = recipe
            .paddings
            .iter()
            .map(|p| format!("{{{}, {}, {}, {}}}", p.shift_a, p.mul_a, p.shift_b, p.mul_b))
            .collect();
        let pads = pads.join(", ");
        // Packed half arithmetic: the kernel counts pairs of values per thread.
        let (runner, values) = if recipe.half_arithmetic {
            ("PairedHalfSinglePass", recipe.elements_per_thread / 2)
        } else {
            ("SinglePass", recipe.elements_per_thread)
        };
        for dir in [Direction::Forward, Direction::Inverse] {
            let name = entry_name(&stem, dir);
            source.push_str(&format!(
                r#"
struct Cfg_{name} {{
    typedef {store} Store;
    typedef {exchange} Exchange;
    static constexpr int N = {n};
    static constexpr int E = {e};
    static constexpr int T = {t};
    static constexpr int B = {b};
    static constexpr int V = {v};
    static constexpr int DIR = {dir};
    static constexpr bool STAGED = {staged};
    static constexpr bool TW_TABLE = {table};
    static constexpr bool DERIVED_TW = {derived};
    static constexpr bool PREFETCH = {prefetch};
    static constexpr bool STREAM_LOADS = {stream_loads};
    static constexpr bool SCALED = {scaled};
    static constexpr bool TW_AHEAD = {tw_ahead};
    static constexpr bool TENSOR = {tensor};
    static constexpr int SMEM_STRIDE = {smem_stride};
    static constexpr int PAD[{pad_len}][4] = {{{pads}}};
}};
extern "C" __global__ void __launch_bounds__({bounds}) {name}(
    const {store}::Bits* in, {store}::Bits* out, const {store}::Real* twiddles,
    unsigned long long batch, {store}::Real scale) {{
    {runner}<Cfg_{name}>::run<{radices}>(in, out, twiddles, batch, scale);
}}
"#,
                n = recipe.n,
                e = values,
                t = recipe.threads_per_transform,
                b = recipe.transforms_per_block,
                v = recipe.vector_width,
                dir = dir.sign(),
                staged = recipe.io == IoMode::Staged,
                table = recipe.twiddles == TwiddleSource::Table,
                derived = recipe.derived_twiddles,
                prefetch = recipe.prefetch,
                stream_loads = recipe.stream_loads,
                scaled = dir == Direction::Inverse && recipe.inverse_scaled,
                tw_ahead = recipe.twiddles_ahead,
                tensor = recipe.tensor_cores,
                smem_stride = recipe.shared_stride(),
                pad_len = recipe.paddings.len(),
                pads = pads,
                bounds = if recipe.min_blocks_per_sm > 0 {
                    format!("{threads}, {}", recipe.min_blocks_per_sm)
                } else {
                    threads.to_string()
                },
            ));
        }
        KernelSource {
            source,
            stem,
            threads_per_block: threads,
            shared_bytes: recipe.shared_bytes(),
        }
    }

    /// The entry point of the kernel for `dir`.
    ///
    /// ```
    /// # use tensorfft::{kernels::KernelSource, plan_c2c_recipe, Direction, PlanOptions, Precision, Shape};
    /// # let r = plan_c2c_recipe(&Shape::new([64]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert!(KernelSource::single_pass(&r).entry(Direction::Inverse).ends_with("_inv"));
    /// ```
    pub fn entry(&self, dir: Direction) -> String {
        entry_name(&self.stem, dir)
    }
}

fn entry_name(stem: &str, dir: Direction) -> String {
    match dir {
        Direction::Forward => format!("{stem}_fwd"),
        Direction::Inverse => format!("{stem}_inv"),
    }
}

fn store_type(p: Precision) -> &'static str {
    match p {
        Precision::F16 => "StoreF16",
        Precision::F32 | Precision::F32Split => "StoreF32",
        Precision::F64 => "StoreF64",
    }
}
