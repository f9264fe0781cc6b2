//! Instantiates the single-pass kernel template for a [`Recipe`]: a configuration struct of
//! compile-time constants plus one `extern "C"` entry point per direction.

use crate::plan::cluster_pass::ClusterPass;
use crate::plan::schedule::PassKernel;
use crate::plan::strided_pass::StridedPass;
use crate::plan::{
    Direction, ExchangeFormat, IoMode, Precision, Recipe, StageScale, TwiddleSource,
};

const COMPLEX: &str = include_str!("cuda/complex.cuh");
const PRECISION: &str = include_str!("cuda/precision.cuh");
const HALF2_ARITHMETIC: &str = include_str!("cuda/half2_arithmetic.cuh");
const DFT_REGISTERS: &str = include_str!("cuda/dft_registers.cuh");
const DFT_TENSOR_CORES: &str = include_str!("cuda/dft_tensor_cores.cuh");
const STOCKHAM_SINGLE_PASS: &str = include_str!("cuda/stockham_single_pass.cuh");
const STOCKHAM_PAIRED_HALF: &str = include_str!("cuda/stockham_paired_half.cuh");
const STRIDED_PASS: &str = include_str!("cuda/strided_pass.cuh");
const STRIDED_PAIRED_HALF: &str = include_str!("cuda/strided_paired_half.cuh");
const CLUSTER_MEMORY: &str = include_str!("cuda/cluster_memory.cuh");
const DEPENDENT_LAUNCH: &str = include_str!("cuda/dependent_launch.cuh");
const CLUSTER_PASS: &str = include_str!("cuda/cluster_pass.cuh");
const WARP_SHUFFLE_FFT: &str = include_str!("cuda/warp_shuffle_fft.cuh");
const TENSOR_PAIR_FFT: &str = include_str!("cuda/tensor_pair_fft.cuh");

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
        let mut source = prelude();
        // Packed half arithmetic: the kernel counts pairs of values per thread.
        let runner = if recipe.half_arithmetic {
            "PairedHalfSinglePass"
        } else {
            "SinglePass"
        };
        for dir in [Direction::Forward, Direction::Inverse] {
            let name = entry_name(&stem, dir);
            // The warp-shuffle kernel, the warp-resident tensor-core kernel or the Stockham
            // single pass, behind one entry point.
            let (cfg, call) = if recipe.warp_shuffles {
                (
                    warp_shuffle_config(&name, recipe, dir),
                    format!("WarpShuffleFft<Cfg_{name}>::run"),
                )
            } else {
                let scale = recipe.normalization.stage_scale(dir);
                let access = Access::single_pass(recipe);
                let call = if recipe.tensor_pair {
                    format!("TensorPairFft<Cfg_{name}>::run<{}>", radix_list(recipe))
                } else {
                    format!("{runner}<Cfg_{name}>::run<{}>", radix_list(recipe))
                };
                (config(&name, recipe, &access, dir, scale, ""), call)
            };
            source.push_str(&cfg);
            source.push_str(&format!(
                r#"extern "C" __global__ void __launch_bounds__({bounds}) {name}(
    const {store}::Bits* in, {store}::Bits* out, const {store}::Real* twiddles,
    unsigned long long batch) {{
    overlap_next_launch_then_wait();
    {call}(in, out, twiddles, batch);
}}
"#,
                bounds = launch_bounds(recipe),
            ));
        }
        KernelSource {
            source,
            stem,
            threads_per_block: recipe.threads_per_block(),
            shared_bytes: recipe.shared_bytes(),
        }
    }

    /// The strided-pass kernels (forward and inverse) for `pass`: its inner recipe's stages
    /// between a gather and a scatter of tiles of items (`strided_pass.cuh`).
    ///
    /// ```
    /// # use tensorfft::{kernels::KernelSource, plan_c2c_schedule, PlanOptions, Precision, Shape};
    /// # use tensorfft::plan::schedule::PassKernel;
    /// let s = plan_c2c_schedule(&Shape::new([64, 64]), Precision::F32, &PlanOptions::default()).unwrap();
    /// let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!("columns are strided") };
    /// assert!(KernelSource::strided_pass(p).source.contains("StridedPass<Cfg_"));
    /// // F16 columns of neighbouring items: pairs of items in packed half arithmetic.
    /// let s = plan_c2c_schedule(&Shape::new([64, 64]), Precision::F16, &PlanOptions::default()).unwrap();
    /// let PassKernel::Strided(p) = &s.passes[1].kernel else { panic!("columns are strided") };
    /// assert!(KernelSource::strided_pass(p).source.contains("StridedPairedHalf<Cfg_"));
    /// ```
    pub fn strided_pass(pass: &StridedPass) -> Self {
        let recipe = &pass.inner;
        let stem = pass.kernel_stem();
        let store = store_type(recipe.precision);
        let mut source = prelude();
        for dir in [Direction::Forward, Direction::Inverse] {
            let name = entry_name(&stem, dir);
            source.push_str(&strided_config(&name, pass, dir, ""));
            if pass.paired {
                // Packed half arithmetic on pairs of items: f16 or bf16 data, f32 stage twiddles.
                source.push_str(&format!(
                    r#"extern "C" __global__ void __launch_bounds__({bounds}) {name}(
    const unsigned* in, unsigned* out, const float* twiddles,
    const double* pass_twiddles, const PassGeometry geo) {{
    overlap_next_launch_then_wait();
    StridedPairedHalf<Cfg_{name}>::run<{radices}>(in, out, twiddles, pass_twiddles, geo);
}}
"#,
                    bounds = launch_bounds(recipe),
                    radices = radix_list(recipe),
                ));
                continue;
            }
            source.push_str(&format!(
                r#"extern "C" __global__ void __launch_bounds__({bounds}) {name}(
    const {store}::Bits* in, {store}::Bits* out, const {store}::Real* twiddles,
    const double* pass_twiddles, const PassGeometry geo) {{
    overlap_next_launch_then_wait();
    StridedPass<Cfg_{name}>::run<{radices}>(in, out, twiddles, pass_twiddles, geo);
}}
"#,
                bounds = launch_bounds(recipe),
                radices = radix_list(recipe),
            ));
        }
        KernelSource {
            source,
            stem,
            threads_per_block: pass.threads_per_block(),
            shared_bytes: pass.shared_bytes(),
        }
    }

    /// The kernels (forward and inverse) of one pass of a schedule, whichever its kind.
    ///
    /// ```
    /// # use tensorfft::{kernels::KernelSource, plan_c2c_schedule, PlanOptions, Precision, Shape};
    /// let s = plan_c2c_schedule(&Shape::new([1 << 20]), Precision::F32, &PlanOptions::default()).unwrap();
    /// assert!(s.passes.iter().all(|p| !KernelSource::pass(&p.kernel).source.is_empty()));
    /// ```
    pub fn pass(kernel: &PassKernel) -> Self {
        match kernel {
            PassKernel::SinglePass { recipe, .. } => Self::single_pass(recipe),
            PassKernel::Strided(sp) => Self::strided_pass(sp),
            PassKernel::Cluster(cp) => Self::cluster_pass(cp),
        }
    }

    /// The cluster kernels (forward and inverse) for `pass`: its two strided passes' stages
    /// with the first pass's outputs exchanged through distributed shared memory
    /// (`cluster_pass.cuh`), compiled for clusters of `pass.cluster` blocks.
    ///
    /// ```
    /// # use tensorfft::{kernels::KernelSource, plan_c2c_schedule, PlanOptions, Precision, Shape};
    /// # use tensorfft::plan::schedule::PassKernel;
    /// let s = plan_c2c_schedule(&Shape::new([1 << 15]), Precision::F32, &PlanOptions::default()).unwrap();
    /// let PassKernel::Cluster(c) = &s.passes[0].kernel else { panic!("2^15 runs on a cluster") };
    /// assert!(KernelSource::cluster_pass(c).source.contains("__cluster_dims__(8, 1, 1)"));
    /// ```
    pub fn cluster_pass(pass: &ClusterPass) -> Self {
        let stem = pass.kernel_stem();
        let store = store_type(pass.first.inner.precision);
        let mut source = prelude();
        let cluster = format!(
            "    static constexpr int CLUSTER = {};\n    static constexpr bool LANDING = {};\n    static constexpr int LANDING_OFFSET = {};\n",
            pass.cluster,
            pass.landing,
            pass.landing_offset()
        );
        for dir in [Direction::Forward, Direction::Inverse] {
            let name = entry_name(&stem, dir);
            let (a, b) = (format!("{name}_a"), format!("{name}_b"));
            source.push_str(&strided_config(&a, &pass.first, dir, &cluster));
            source.push_str(&strided_config(&b, &pass.second, dir, &cluster));
            source.push_str(&format!(
                r#"extern "C" __global__ void __cluster_dims__({cluster}, 1, 1) __launch_bounds__({bounds}) {name}(
    const {store}::Bits* in, {store}::Bits* out, const {store}::Real* twiddles_a,
    const {store}::Real* twiddles_b, const double* pass_twiddles_a,
    const double* pass_twiddles_b, const PassGeometry geo_a, const PassGeometry geo_b) {{
    overlap_next_launch_then_wait();
    ClusterPass<Cfg_{a}, Cfg_{b}>::run(Radices<{ra}>(), Radices<{rb}>(), in, out, twiddles_a, twiddles_b,
                                       pass_twiddles_a, pass_twiddles_b, geo_a, geo_b);
}}
"#,
                cluster = pass.cluster,
                bounds = launch_bounds(&pass.first.inner),
                ra = radix_list(&pass.first.inner),
                rb = radix_list(&pass.second.inner),
            ));
        }
        KernelSource {
            source,
            stem,
            threads_per_block: pass.threads_per_block(),
            shared_bytes: pass.shared_bytes(),
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

/// Every template of the module, in dependency order, without their `#pragma once` lines.
fn prelude() -> String {
    let mut source = String::new();
    for part in [
        DEPENDENT_LAUNCH,
        COMPLEX,
        PRECISION,
        HALF2_ARITHMETIC,
        DFT_REGISTERS,
        DFT_TENSOR_CORES,
        STOCKHAM_SINGLE_PASS,
        STOCKHAM_PAIRED_HALF,
        // The stage pair before the strided passes that run it.
        TENSOR_PAIR_FFT,
        CLUSTER_MEMORY,
        STRIDED_PASS,
        STRIDED_PAIRED_HALF,
        CLUSTER_PASS,
        WARP_SHUFFLE_FFT,
    ] {
        for line in part.lines().filter(|l| l.trim() != "#pragma once") {
            source.push_str(line);
            source.push('\n');
        }
    }
    source
}

/// How a kernel touches device memory: the single-pass kernel stages both ends or neither; a
/// strided pass chooses per end and reads samples at strides (compile-time or run-time).
/// Pairs of items in packed half arithmetic (`paired`) replace the storage and exchange types
/// and scale each stage before its DFT.
struct Access {
    staged_in: bool,
    staged_out: bool,
    strided: bool,
    paired: bool,
}

impl Access {
    fn single_pass(recipe: &Recipe) -> Self {
        let staged = recipe.io == IoMode::Staged;
        Access {
            staged_in: staged,
            // The stage pair kernel stages only its input.
            staged_out: staged && !recipe.staged_pair_input(),
            strided: false,
            paired: false,
        }
    }
}

/// The configuration struct `Cfg_{name}` of a strided pass: its inner recipe's constants, the
/// tile and access pattern, the sample distances where the pass bakes them in (so the loads and
/// stores of an item address its samples by immediate offsets; 0: from the run-time geometry),
/// then `extra` lines.
fn strided_config(name: &str, pass: &StridedPass, dir: Direction, extra: &str) -> String {
    let access = Access {
        staged_in: pass.staged_in(),
        staged_out: pass.staged_out(),
        strided: true,
        paired: pass.paired,
    };
    // 0: from the run-time geometry.
    let (sample_in, sample_out) = if pass.bakes_sample_distances() {
        (pass.sample_stride_in, pass.sample_stride_out)
    } else {
        (0, 0)
    };
    let lines = format!(
        "    static constexpr int G = {g};\n    static constexpr int ITEM_STRIDE = {stride};\n    static constexpr bool LOAD_ITEMS_FASTEST = {li};\n    static constexpr bool STORE_ITEMS_FASTEST = {si};\n    static constexpr bool PASS_TWIDDLE = {tw};\n    static constexpr int TWIDDLE_LEVELS = {levels};\n    static constexpr u64 SAMPLE_IN = {sample_in}ull;\n    static constexpr u64 SAMPLE_OUT = {sample_out}ull;\n{extra}",
        g = pass.slots_per_tile(),
        stride = pass.item_stride(),
        li = pass.load_items_fastest(),
        si = pass.store_items_fastest(),
        tw = pass.twiddle.is_some(),
        levels = pass.twiddle_levels(),
    );
    let scale = pass.normalization.stage_scale(dir);
    config(name, &pass.inner, &access, dir, scale, &lines)
}

/// The configuration struct `Cfg_{name}` of one entry point: the recipe's compile-time
/// constants, then `extra` lines.
fn config(
    name: &str,
    recipe: &Recipe,
    access: &Access,
    dir: Direction,
    scale: StageScale,
    extra: &str,
) -> String {
    let pads: Vec<String> = recipe
        .paddings
        .iter()
        .map(|p| format!("{{{}, {}, {}, {}}}", p.shift_a, p.mul_a, p.shift_b, p.mul_b))
        .collect();
    let exchange = match recipe.exchange {
        _ if access.paired && recipe.precision == Precision::BF16 => "ExchangeBF16Pair",
        _ if access.paired => "ExchangeF16Pair",
        ExchangeFormat::F16 => "StoreF16",
        ExchangeFormat::BF16 => "StoreBF16",
        ExchangeFormat::F32 => "StoreF32",
        ExchangeFormat::F64 => "StoreF64",
    };
    let store = if access.paired && recipe.precision == Precision::BF16 {
        "StoreBF16Pair"
    } else if access.paired {
        "StoreF16Pair"
    } else {
        store_type(recipe.precision)
    };
    // Packed half arithmetic: the kernel counts pairs of values per thread.
    let values = if recipe.half_arithmetic {
        recipe.elements_per_thread / 2
    } else {
        recipe.elements_per_thread
    };
    // The register pair type of packed half arithmetic (half2_arithmetic.cuh).
    let packed = if recipe.precision == Precision::BF16 {
        "BH2"
    } else {
        "H2"
    };
    format!(
        r#"
struct Cfg_{name} {{
    typedef {store} Store;
    typedef {exchange} Exchange;
    typedef {packed} Packed;
    static constexpr int N = {n};
    static constexpr int E = {e};
    static constexpr int T = {t};
    static constexpr int B = {b};
    static constexpr int V = {v};
    static constexpr int DIR = {dir};
    static constexpr bool STAGED = {staged};
    static constexpr bool STAGED_IN = {staged_in};
    static constexpr bool STAGED_OUT = {staged_out};
    static constexpr bool STRIDED = {strided};
    static constexpr bool TW_TABLE = {table};
    static constexpr bool DERIVED_TW = {derived};
    static constexpr bool PREFETCH = {prefetch};
    static constexpr int MIN_BLOCKS = {min_blocks};
    static constexpr bool STREAM_LOADS = {stream_loads};
    static constexpr int SCALE = {scale};
    static constexpr bool SCALE_FIRST = {scale_first};
    static constexpr bool WARP_SYNC = {warp_sync};
    static constexpr bool TW_AHEAD = {tw_ahead};
    static constexpr bool TENSOR = {tensor};
    static constexpr bool SPLIT = {split};
    static constexpr bool SPLIT_TF32 = {split_tf32};
    static constexpr bool TENSOR_PAIR = {tensor_pair};
    static constexpr int SMEM_STRIDE = {smem_stride};
    static constexpr int PAD[{pad_len}][4] = {{{pads}}};
{extra}}};
"#,
        n = recipe.n,
        e = values,
        t = recipe.threads_per_transform,
        b = recipe.transforms_per_block,
        v = recipe.vector_width,
        dir = dir.sign(),
        staged = recipe.io == IoMode::Staged,
        staged_in = access.staged_in,
        staged_out = access.staged_out,
        strided = access.strided,
        table = recipe.twiddles == TwiddleSource::Table,
        derived = recipe.derived_twiddles,
        prefetch = recipe.prefetch,
        min_blocks = recipe.min_blocks_per_sm,
        stream_loads = recipe.stream_loads,
        tw_ahead = recipe.twiddles_ahead,
        scale = scale.code(),
        scale_first = access.paired,
        // Warp barriers only where each transform's threads alone touch its shared memory:
        // not strided passes (items' threads spread over the block), not staged copies.
        warp_sync =
            recipe.warp_exchange && !access.strided && !access.staged_in && !access.staged_out,
        tensor = recipe.tensor_cores,
        split = recipe.precision == Precision::F32Split,
        split_tf32 = recipe.tf32_split,
        tensor_pair = recipe.tensor_pair,
        smem_stride = recipe.shared_stride(),
        pad_len = recipe.paddings.len(),
        pads = pads.join(", "),
    )
}

/// The configuration struct `Cfg_{name}` of a warp-shuffle kernel (`warp_shuffle_fft.cuh`):
/// E values on each of T lanes, B transforms per block, vectors of V elements, and the
/// normalized direction's one scale factor (1/N or 1/√N, written exactly as an f64 literal).
fn warp_shuffle_config(name: &str, recipe: &Recipe, dir: Direction) -> String {
    let scale = recipe.normalization.stage_scale(dir);
    format!(
        r#"
struct Cfg_{name} {{
    typedef {store} Store;
    static constexpr int N = {n};
    static constexpr int E = {e};
    static constexpr int T = {t};
    static constexpr int B = {b};
    static constexpr int V = {v};
    static constexpr int DIR = {dir};
    static constexpr bool STREAM_LOADS = {stream_loads};
    static constexpr int SCALE = {code};
    static constexpr double SCALE_FACTOR = {factor:e};
}};
"#,
        store = store_type(recipe.precision),
        n = recipe.n,
        e = recipe.elements_per_thread,
        t = recipe.threads_per_transform,
        b = recipe.transforms_per_block,
        v = recipe.vector_width,
        dir = dir.sign(),
        stream_loads = recipe.stream_loads,
        code = scale.code(),
        factor = recipe.normalization.factor(dir, recipe.n),
    )
}

fn launch_bounds(recipe: &Recipe) -> String {
    let threads = recipe.threads_per_block();
    if recipe.min_blocks_per_sm > 0 {
        format!("{threads}, {}", recipe.min_blocks_per_sm)
    } else {
        threads.to_string()
    }
}

fn radix_list(recipe: &Recipe) -> String {
    let radices: Vec<String> = recipe.radices.iter().map(|r| r.to_string()).collect();
    radices.join(", ")
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
        Precision::BF16 => "StoreBF16",
        Precision::F32 | Precision::F32Split => "StoreF32",
        Precision::F64 => "StoreF64",
    }
}
