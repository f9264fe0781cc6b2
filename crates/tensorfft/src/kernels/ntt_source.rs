//! Instantiates the NTT pass template (`cuda/ntt_pass.cuh`) for one pass of an [`NttSchedule`]:
//! a configuration struct of compile-time constants and one `extern "C"` entry point.

use crate::ntt::cluster_fusion::{chunk_offset, fused_shared_bytes};
use crate::ntt::pointwise::PointwiseProduct;
use crate::ntt::schedule::{NttArithmetic, NttPass, NttSchedule, WeightSide};
use crate::ntt::Order;

const NTT_ARITHMETIC: &str = include_str!("cuda/ntt_arithmetic.cuh");
const NTT_PASS: &str = include_str!("cuda/ntt_pass.cuh");
const CLUSTER_MEMORY: &str = include_str!("cuda/cluster_memory.cuh");
const NTT_CLUSTER: &str = include_str!("cuda/ntt_cluster.cuh");
const DEPENDENT_LAUNCH: &str = include_str!("cuda/dependent_launch.cuh");
const NTT_POINTWISE: &str = include_str!("cuda/ntt_pointwise.cuh");

/// CUDA C++ source of one NTT pass kernel and its entry point.
///
/// ```
/// use tensorfft::kernels::ntt_source::NttKernelSource;
/// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 20, NttKind::Cyclic).unwrap());
/// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
/// let k = NttKernelSource::pass(&s, 0);
/// assert!(k.source.contains(&k.entry) && k.source.contains("Shoup32"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NttKernelSource {
    /// Full translation unit; needs no CUDA headers.
    pub source: String,
    /// The entry point.
    pub entry: String,
    /// Threads per block.
    pub threads: usize,
    /// Dynamic shared memory per block, in bytes.
    pub shared_bytes: usize,
}

impl NttKernelSource {
    /// The kernel of pass `index` of `schedule`.
    ///
    /// ```
    /// # use tensorfft::kernels::ntt_source::NttKernelSource;
    /// # use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, GOLDILOCKS};
    /// let b = NttBatch::new(NttSpec::new(GOLDILOCKS, 1 << 12, NttKind::Negacyclic).unwrap());
    /// let s = plan_ntt_schedule(&b, 8, tensorfft::Direction::Inverse).unwrap();
    /// // The last pass of an inverse multiplies its outputs by ψ^(-k) / n.
    /// let last = s.passes.len() - 1;
    /// assert!(NttKernelSource::pass(&s, last).source.contains("WEIGHT = 2"));
    /// ```
    pub fn pass(schedule: &NttSchedule, index: usize) -> Self {
        Self::from_config(&PassConfig::of(schedule, index, false))
    }

    /// The kernel that starts `schedule` with its input multiplied word for word by a factor
    /// (`product`: the reduction of the batch's limbs, [`crate::ntt::pointwise::limb_products`]):
    /// pass 0's kernel, or the fused kernel of passes 0 and 1 of a schedule on a cluster, taking
    /// two more arguments, the factor and the limbs' constants. The rest of the schedule runs
    /// its usual kernels, so the transform computes the NTT of `input · factor` in one pass
    /// fewer than a pointwise product and a transform.
    ///
    /// ```
    /// use tensorfft::kernels::ntt_source::NttKernelSource;
    /// use tensorfft::ntt::pointwise::limb_products;
    /// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 20, NttKind::Cyclic).unwrap());
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Inverse).unwrap();
    /// let product = limb_products(&b, 4).unwrap()[0];
    /// let k = NttKernelSource::first_times_factor(&s, product);
    /// assert!(k.source.contains("using Factor = MontgomeryProduct32"));
    /// assert_ne!(k.entry, NttKernelSource::pass(&s, 0).entry);
    /// ```
    pub fn first_times_factor(schedule: &NttSchedule, product: PointwiseProduct) -> Self {
        let factor = Some(product.device_struct());
        if schedule.cluster > 1 {
            Self::fused_with(schedule, factor)
        } else {
            let mut cfg = PassConfig::of(schedule, 0, false);
            cfg.set_factor(factor);
            Self::from_config(&cfg)
        }
    }

    /// The kernel for `pass` with `arithmetic` and weight side `weight` (0 none, 1 inputs,
    /// 2 outputs, 3 outputs by one constant per limb). It knows no roots, so Goldilocks kernels made here multiply by every root
    /// from the tables; [`NttKernelSource::pass`] also takes a last round's roots as shifts
    /// ([`pow2_root`]).
    ///
    /// ```
    /// # use tensorfft::kernels::ntt_source::NttKernelSource;
    /// # use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 10, NttKind::Cyclic).unwrap());
    /// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
    /// let k = NttKernelSource::instantiate(s.arithmetic, &s.passes[0], 0);
    /// assert_eq!(k.threads, s.passes[0].threads());
    /// ```
    pub fn instantiate(arithmetic: NttArithmetic, pass: &NttPass, weight: u8) -> Self {
        Self::from_config(&PassConfig::new(arithmetic, pass, weight, false))
    }

    /// The one-pass kernel of a configuration.
    fn from_config(cfg: &PassConfig) -> Self {
        let (pass, arithmetic) = (cfg.pass, cfg.arithmetic);
        let entry = cfg.entry.clone();
        let mut source = sources(&template_parts(cfg.factor, &[]));
        source.push_str(&cfg.definition(&format!("Cfg_{entry}")));
        let arith = cfg.arith;
        let (factor_params, factor_arg) = factor_signature(cfg.factor);
        source.push_str(&format!(
            r#"extern "C" __global__ void __launch_bounds__({bounds}) {entry}(
    const {arith}::Word* in, {arith}::Word* out, const {arith}::Word* tables,
    const {arith}::Word* moduli, NttGeometry geometry{factor_params}) {{
    overlap_next_launch_then_wait();
    NttPass<Cfg_{entry}>::run(in, out, tables, moduli, geometry{factor_arg});
}}
"#,
            bounds = launch_bounds(
                pass.threads(),
                register_budget(pass, arithmetic.word_bytes()),
                pass.shared_bytes(arithmetic.word_bytes())
            ),
        ));
        NttKernelSource {
            source,
            entry,
            threads: pass.threads(),
            shared_bytes: pass.shared_bytes(arithmetic.word_bytes()),
        }
    }

    /// The kernel of passes 0 and 1 of a fused schedule (`schedule.cluster` blocks per cluster;
    /// [`crate::ntt::cluster_fusion`], `cuda/ntt_cluster.cuh`).
    ///
    /// ```
    /// use tensorfft::kernels::ntt_source::NttKernelSource;
    /// use tensorfft::ntt::cluster_fusion::fuse_on_cluster;
    /// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
    /// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 16, NttKind::Cyclic).unwrap());
    /// let s = fuse_on_cluster(&plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap(), 8).unwrap();
    /// let k = NttKernelSource::fused(&s);
    /// assert!(k.source.contains("__cluster_dims__(8, 1, 1)"));
    /// assert_eq!(k.threads, s.passes[0].threads());
    /// ```
    pub fn fused(schedule: &NttSchedule) -> Self {
        Self::fused_with(schedule, None)
    }

    /// [`NttKernelSource::fused`], its first pass's inputs times a factor of device struct
    /// `factor` (`None`: no factor).
    fn fused_with(schedule: &NttSchedule, factor: Option<&'static str>) -> Self {
        let word = schedule.arithmetic.word_bytes();
        let mut first = PassConfig::of(schedule, 0, false);
        first.set_factor(factor);
        let second = PassConfig::of(schedule, 1, true);
        let cluster = schedule.cluster;
        let entry = format!("ntt_cluster{cluster}__{}__{}", first.entry, second.entry);
        let mut source = sources(&template_parts(factor, &[CLUSTER_MEMORY, NTT_CLUSTER]));
        source.push_str(&first.definition(&format!("Cfg0_{entry}")));
        source.push_str(&second.definition(&format!("Cfg1_{entry}")));
        let threads = schedule.passes[0].threads();
        let shared_bytes = fused_shared_bytes(schedule);
        let budget = schedule.passes[..2]
            .iter()
            .map(|p| register_budget(p, word))
            .max()
            .unwrap_or(32);
        let arith = first.arith;
        let (factor_params, factor_arg) = factor_signature(factor);
        source.push_str(&format!(
            r#"extern "C" __global__ void __cluster_dims__({cluster}, 1, 1) __launch_bounds__({bounds}) {entry}(
    const {arith}::Word* in, {arith}::Word* out, const {arith}::Word* tables0,
    const {arith}::Word* tables1, const {arith}::Word* moduli, NttGeometry geometry0,
    NttGeometry geometry1{factor_params}) {{
    overlap_next_launch_then_wait();
    NttClusterPasses<Cfg0_{entry}, Cfg1_{entry}, {cluster}, {offset}>::run(
        in, out, tables0, tables1, moduli, geometry0, geometry1{factor_arg});
}}
"#,
            bounds = launch_bounds(threads, budget, shared_bytes),
            offset = chunk_offset(schedule),
        ));
        NttKernelSource {
            source,
            entry,
            threads,
            shared_bytes,
        }
    }
}

/// The exponent c with 2^c the 64th root of unity of Goldilocks pass `index`, or `None`.
///
/// The 64th roots of unity mod p = 2^64 − 2^32 + 1 are the powers of 8 (2^96 ≡ −1), so the
/// kernel multiplies by the roots of its last stages with shifts (`mul_pow2` in
/// `ntt_arithmetic.cuh`). c is in [0, 192) with 2^c ≡ `ω_len^(len/64)`; for passes shorter than
/// 64 points it is c_len·len/64 with 2^c_len ≡ `ω_len`. `None` for the other fields (or limbs
/// with different roots, which one modulus cannot have). Panics if `index` is not a pass of
/// `schedule`.
///
/// ```
/// # use tensorfft::kernels::ntt_source::pow2_root;
/// # use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR, GOLDILOCKS};
/// let g = NttBatch::new(NttSpec::new(GOLDILOCKS, 1 << 12, NttKind::Cyclic).unwrap());
/// let s = plan_ntt_schedule(&g, 8, tensorfft::Direction::Forward).unwrap();
/// let c = pow2_root(&s, 0).unwrap();
/// assert!(c < 192 && c % 3 == 0 && (c / 3) % 2 == 1);
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 12, NttKind::Cyclic).unwrap());
/// assert_eq!(pow2_root(&plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap(), 0), None);
/// ```
pub fn pow2_root(schedule: &NttSchedule, index: usize) -> Option<u32> {
    if schedule.arithmetic != NttArithmetic::Goldilocks {
        return None;
    }
    let len = schedule.passes[index].len;
    let order = len.min(64);
    let mut found = None;
    for l in 0..schedule.batch.limb_count() {
        let m = schedule.batch.spec(l).modulus();
        // A primitive `order`-th root, then c_len with 2^c_len equal to it.
        let r = m.pow(schedule.root(l, len), (len / order) as u64);
        let c = (0..192u64).find(|&c| m.pow(2, c) == r)?;
        // A primitive root of order `order` is 8^k with k an odd multiple of 64 / order, so c
        // = 3k mod 192 is a multiple of step = 64 / order; the kernel's root of stage order O
        // is then 2^((c / step) (64 / O)).
        let step = 64 / order as u64;
        if c % step != 0 {
            return None;
        }
        let c64 = (c / step) as u32;
        match found {
            None => found = Some(c64),
            Some(f) if f == c64 => {}
            Some(_) => return None,
        }
    }
    found
}

/// `Cfg::WEIGHT` of pass `index`: 0 none, 1 inputs, 2 outputs (powers from two tables), 3
/// outputs by one constant per limb (the inverse of a plain cyclic transform, n⁻¹: the
/// weight's base is 1 on every limb; a coset's or a negacyclic inverse takes 2).
///
/// ```
/// # use tensorfft::kernels::ntt_source::NttKernelSource;
/// # use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 12, NttKind::Cyclic).unwrap());
/// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Inverse).unwrap();
/// assert!(NttKernelSource::pass(&s, s.passes.len() - 1).source.contains("WEIGHT = 3"));
/// ```
///
/// The block-synchronous baseline (passes with block barriers) keeps 2, so its times stay
/// comparable with earlier reports.
fn weight_code(schedule: &NttSchedule, index: usize) -> u8 {
    let base_one = || (0..schedule.batch.limb_count()).all(|l| schedule.weight(l).0 == 1);
    match schedule.weight_side(index) {
        WeightSide::None => 0,
        WeightSide::Input => 1,
        WeightSide::Output if !schedule.passes[index].block_barriers && base_one() => 3,
        WeightSide::Output => 2,
    }
}

/// The templates a pass kernel includes: the arithmetic, the pointwise products where a factor
/// multiplies the input, the pass, then `extra`.
fn template_parts(factor: Option<&str>, extra: &[&'static str]) -> Vec<&'static str> {
    let mut parts = vec![DEPENDENT_LAUNCH, NTT_ARITHMETIC];
    if factor.is_some() {
        parts.push(NTT_POINTWISE);
    }
    parts.push(NTT_PASS);
    parts.extend_from_slice(extra);
    parts
}

/// The entry point's extra parameters and the run call's extra argument for a factor of device
/// struct `factor` (none: empty).
fn factor_signature(factor: Option<&str>) -> (String, String) {
    match factor {
        Some(f) => (
            format!(",\n    const {f}::Word* factor, const {f}* factor_limbs"),
            format!(", InputFactor<{f}>{{factor, factor_limbs}}"),
        ),
        None => (String::new(), String::new()),
    }
}

/// The templates `parts`, in order, without their `#pragma once` lines.
pub(crate) fn sources(parts: &[&str]) -> String {
    let mut source = String::new();
    for part in parts {
        for line in part.lines().filter(|l| l.trim() != "#pragma once") {
            source.push_str(line);
            source.push('\n');
        }
    }
    source
}

/// The compile-time configuration of one pass (`Cfg` in `ntt_pass.cuh`) and the entry name it
/// gives a one-pass kernel.
struct PassConfig<'a> {
    pass: &'a NttPass,
    arithmetic: NttArithmetic,
    arith: &'static str,
    entry: String,
    weight: u8,
    sample_in: usize,
    sample_out: usize,
    items_by_input: bool,
    /// `Cfg::POW2_ROOT`: c with 2^c the pass's 64th root of unity ([`pow2_root`]; none: -1).
    pow2_root: Option<u32>,
    /// `Cfg::Factor`: the device struct reducing a factor of the inputs (none: `NoFactor`).
    factor: Option<&'static str>,
}

impl<'a> PassConfig<'a> {
    /// Pass `index` of `schedule` with its weight side and Goldilocks shifts.
    fn of(schedule: &'a NttSchedule, index: usize, items_by_input: bool) -> Self {
        let weight = weight_code(schedule, index);
        PassConfig::new(
            schedule.arithmetic,
            &schedule.passes[index],
            weight,
            items_by_input,
        )
        .with_pow2_root(pow2_root(schedule, index))
    }

    /// The same configuration with its inputs times a factor (`Cfg::Factor`), named by it.
    fn set_factor(&mut self, factor: Option<&'static str>) {
        if let Some(f) = factor {
            self.entry.push_str(&format!("_f{}", f.to_lowercase()));
        }
        self.factor = factor;
    }

    fn new(arithmetic: NttArithmetic, pass: &'a NttPass, weight: u8, items_by_input: bool) -> Self {
        let wide = arithmetic == NttArithmetic::Goldilocks && wide_goldilocks_product(pass);
        let arith = match arithmetic {
            NttArithmetic::Shoup32 => "Shoup32",
            NttArithmetic::Shoup32Full => "Shoup32Full",
            NttArithmetic::Shoup64 => "Shoup64",
            NttArithmetic::Goldilocks if wide => "GoldilocksWide",
            NttArithmetic::Goldilocks => "Goldilocks",
        };
        let rev = |o: Order| o == Order::BitReversed;
        let unit = pass.sample_in == 1 && pass.sample_out == 1;
        // Compile-time sample distances where the batch does not change them (0: run time).
        let (sample_in, sample_out) = if unit || pass.fixed_sample_distances() {
            (pass.sample_in, pass.sample_out)
        } else {
            (0, 0)
        };
        let entry = format!(
            "ntt_{}{}{}{}_l{}_v{}_r{}{}_t{}_c{}_{}{}{}{}_tw{}_w{}{}{}",
            arithmetic.name(),
            if wide { "w" } else { "" },
            // d: direct by decimation in frequency, t: direct by decimation in time, s: staged.
            if pass.in_time() {
                "t"
            } else if pass.direct() {
                "d"
            } else {
                "s"
            },
            if unit { "u" } else { "" },
            pass.len,
            pass.values_per_thread,
            pass.round_stages,
            // e: even rounds; b: block barriers (the baseline).
            match (pass.even_rounds, pass.block_barriers) {
                (true, true) => "eb",
                (true, false) => "e",
                (false, true) => "b",
                (false, false) => "",
            },
            pass.items_per_tile,
            pass.concurrent_items(),
            u8::from(pass.items_fastest_in),
            u8::from(pass.items_fastest_out),
            u8::from(rev(pass.local_in)),
            u8::from(rev(pass.local_out)),
            // 0: none, 1: high and low tables, 2: slot twiddles.
            if pass.slot_twiddles() {
                2
            } else {
                u8::from(pass.twiddle.is_some())
            },
            weight,
            if pass.shuffle_stages > 0 {
                format!("_x{}", pass.shuffle_stages)
            } else {
                String::new()
            },
            if unit || sample_in == 0 {
                String::new()
            } else {
                format!("_s{sample_in}x{sample_out}")
            }
        );
        PassConfig {
            pass,
            arithmetic,
            arith,
            entry,
            weight,
            sample_in,
            sample_out,
            items_by_input,
            pow2_root: None,
            factor: None,
        }
    }

    /// The same configuration with `Cfg::POW2_ROOT = c` (Goldilocks; `None`: -1, no shifts),
    /// named by it: the forward and inverse kernels of a length differ in their roots (so
    /// Goldilocks compiles one kernel per direction).
    fn with_pow2_root(mut self, c: Option<u32>) -> Self {
        if let Some(c) = c {
            self.entry.push_str(&format!("_p{c}"));
        }
        self.pow2_root = c;
        self
    }

    /// The configuration struct, named `name`.
    fn definition(&self, name: &str) -> String {
        let pass = self.pass;
        let rev = |o: Order| o == Order::BitReversed;
        // The rows' layout (`ntt/row_layout.rs`), a function of the pass fields the name carries.
        let layout = pass.row_layout(self.arithmetic.word_bytes());
        format!(
            r#"
struct {name} {{
    using Arith = {arith};
    static constexpr int LEN = {len};
    static constexpr int LOG_LEN = {log_len};
    static constexpr int VALUES = {values};
    static constexpr int LOG_VALUES = {log_values};
    static constexpr int ROUND_STAGES = {round};
    static constexpr int ROUND_SIZES[] = {{{round_sizes}}};
    static constexpr int SHUFFLE_STAGES = {shuffle};
    static constexpr bool BLOCK_BARRIERS = {block_barriers};
    static constexpr int TILE = {tile};
    static constexpr int THREADS = {threads};
    static constexpr int ROW_TERMS[4] = {{{c1}, {s1}, {c2}, {s2}}};
    static constexpr int ROW = {row};
    static constexpr bool ITEMS_FAST_IN = {fast_in};
    static constexpr bool ITEMS_FAST_OUT = {fast_out};
    static constexpr bool ITEMS_BY_INPUT = {by_input};
    static constexpr bool REV_IN = {rev_in};
    static constexpr bool REV_OUT = {rev_out};
    static constexpr bool TWIDDLE = {twiddle};
    static constexpr bool SLOT_TWIDDLE = {slot_twiddle};
    static constexpr bool DIRECT = {direct};
    static constexpr bool IN_TIME = {in_time};
    static constexpr u64 SAMPLE_IN = {sample_in};
    static constexpr u64 SAMPLE_OUT = {sample_out};
    static constexpr int WEIGHT = {weight};
    static constexpr int POW2_ROOT = {pow2_root};
    using Factor = {factor};
    static constexpr bool FACTOR = {has_factor};
}};
"#,
            arith = self.arith,
            len = pass.len,
            log_len = pass.len.trailing_zeros(),
            values = pass.values_per_thread,
            log_values = pass.values_per_thread.trailing_zeros(),
            round = pass.round_stages,
            round_sizes = pass
                .kernel_round_sizes()
                .iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            shuffle = pass.shuffle_stages,
            block_barriers = pass.block_barriers,
            tile = pass.items_per_tile,
            threads = pass.threads(),
            c1 = layout.terms[0].0,
            s1 = layout.terms[0].1,
            c2 = layout.terms[1].0,
            s2 = layout.terms[1].1,
            row = layout.row,
            fast_in = pass.items_fastest_in,
            fast_out = pass.items_fastest_out,
            by_input = self.items_by_input,
            rev_in = rev(pass.local_in),
            rev_out = rev(pass.local_out),
            twiddle = pass.twiddle.is_some(),
            slot_twiddle = pass.slot_twiddles(),
            direct = pass.direct(),
            in_time = pass.in_time(),
            sample_in = self.sample_in,
            sample_out = self.sample_out,
            weight = self.weight,
            pow2_root = self.pow2_root.map_or(-1, i64::from),
            factor = self.factor.unwrap_or("NoFactor"),
            has_factor = self.factor.is_some(),
        )
    }
}

/// `__launch_bounds__` arguments of a pass kernel: its threads and, where more than one block
/// can reside on a multiprocessor, the blocks that a budget of [`register_budget`] registers
/// per thread leaves resident (bounded by the shared memory and by 2048 threads). Without the
/// second argument ptxas takes registers freely: with the per-stage root tables it gave rows of
/// 2048–8192 (32 values per thread) 80–88 registers, one 512-thread block per multiprocessor
/// instead of two, and those rows ran 5–10% slower than before the tables (bench/NOTES.md
/// step 67).
///
/// ```
/// use tensorfft::kernels::ntt_source::NttKernelSource;
/// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, Order, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 22, NttKind::Cyclic).unwrap())
///     .with_orders(Order::Natural, Order::BitReversed)
///     .batch(16);
/// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
/// // Rows of 2048 on 512 threads, 32 values each: 64 registers, two blocks.
/// assert!(NttKernelSource::pass(&s, 1).source.contains("__launch_bounds__(512, 2)"));
/// ```
fn launch_bounds(threads: usize, registers: usize, shared_bytes: usize) -> String {
    let threads = threads.max(1);
    let by_registers = 65536 / (threads * registers);
    let by_shared = 228 * 1024 / (shared_bytes + 1024 + 512);
    let blocks = by_registers.min(2048 / threads).min(by_shared).min(32);
    if blocks <= 1 {
        threads.to_string()
    } else {
        format!("{threads}, {blocks}")
    }
}

/// Registers per thread a pass kernel is given: one per byte of its values (a thread's words
/// and the arithmetic's temporaries), at least 32 and at most 64 — the range ptxas chose for
/// every pass on its own before the per-stage root tables (NVRTC 13, sm_90;
/// `bench/results/2026-11-26-h200-ntt-stage-roots/registers.txt`).
///
/// ```
/// use tensorfft::kernels::ntt_source::register_budget;
/// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, BABY_BEAR};
/// let b = NttBatch::new(NttSpec::new(BABY_BEAR, 1 << 22, NttKind::Cyclic).unwrap());
/// let s = plan_ntt_schedule(&b, 4, tensorfft::Direction::Forward).unwrap();
/// assert_eq!(register_budget(&s.passes[0], 4), 64);
/// ```
pub fn register_budget(pass: &NttPass, word_bytes: usize) -> usize {
    (pass.values_per_thread * word_bytes).clamp(32, 64)
}

/// Whether a Goldilocks pass runs the products and sums of `GoldilocksWide` (part of the ALU
/// work on the multiply-add pipe; ntt_arithmetic.cuh): every pass but those whose kernels it
/// takes past 64 registers, and so to one 512-thread block per multiprocessor — direct column
/// passes of 16 values per thread and rows of 8192 (NVRTC 13.0 for sm_90; H200 measurements in
/// bench/NOTES.md step 40).
///
/// ```
/// use tensorfft::kernels::ntt_source::{wide_goldilocks_product, NttKernelSource};
/// use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, NttSpec, GOLDILOCKS};
/// let b = NttBatch::new(NttSpec::new(GOLDILOCKS, 1 << 10, NttKind::Cyclic).unwrap());
/// let s = plan_ntt_schedule(&b, 8, tensorfft::Direction::Forward).unwrap();
/// assert!(wide_goldilocks_product(&s.passes[0]));
/// assert!(NttKernelSource::pass(&s, 0).source.contains("using Arith = GoldilocksWide;"));
/// ```
pub fn wide_goldilocks_product(pass: &NttPass) -> bool {
    let wide_columns = pass.direct() && pass.items_fastest_in && pass.values_per_thread >= 16;
    !wide_columns && pass.len < 8192
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::{plan_ntt_schedule, NttBatch, NttKind, Order, BABY_BEAR, FHE_62, GOLDILOCKS};
    use crate::Direction;

    /// `Cfg::POW2_ROOT` names every root the kernels take as a shift: for each Goldilocks pass
    /// (every length, both directions, cyclic and negacyclic), each stage whose roots have
    /// order O <= 64 and each pair index i, 2^((64 / O) c i mod 192) is the stage table's entry
    /// i (`ntt/tables.rs`, the roots the other rounds and the CPU executor use).
    #[test]
    fn pow2_roots_are_the_stage_roots() {
        let mut checked = 0;
        for log_n in 1..=20 {
            for kind in [NttKind::Cyclic, NttKind::Negacyclic] {
                for direction in [Direction::Forward, Direction::Inverse] {
                    let b = NttBatch::limbs(&[GOLDILOCKS, GOLDILOCKS], 1 << log_n, kind).unwrap();
                    let s = plan_ntt_schedule(&b, 8, direction).unwrap();
                    let m = b.spec(0).modulus();
                    for (index, pass) in s.passes.iter().enumerate() {
                        let c = pow2_root(&s, index).unwrap();
                        assert!(c < 192, "n 2^{log_n} pass {index}: {c}");
                        let table = crate::ntt::tables::pass_values(&s, index, 0);
                        let log_len = pass.len.trailing_zeros();
                        for st in log_len.saturating_sub(6)..log_len {
                            let order = pass.len >> st;
                            let start = crate::ntt::tables::stage_roots(pass.len, st);
                            for i in 0..order / 2 {
                                let e = ((64 / order) as u64 * c as u64 * i as u64) % 192;
                                assert_eq!(
                                    m.pow(2, e),
                                    table[start + i],
                                    "n 2^{log_n} pass {index} stage {st} i {i}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 1000);
        // Other fields: no shifts.
        let b = NttBatch::limbs(&[FHE_62], 1 << 10, NttKind::Cyclic).unwrap();
        assert_eq!(
            pow2_root(&plan_ntt_schedule(&b, 8, Direction::Forward).unwrap(), 0),
            None
        );
    }

    /// Every pass kernel's launch bounds ask for no more blocks than 2048 threads and the
    /// shared memory allow, and leave each thread at least its register budget.
    #[test]
    fn launch_bounds_keep_the_register_budget_and_fit_a_multiprocessor() {
        let mut checked = 0;
        for (p, word, max_log) in [(BABY_BEAR, 4, 24), (GOLDILOCKS, 8, 22), (FHE_62, 8, 17)] {
            for log_n in 1..=max_log {
                for (orders, batch) in [
                    ((Order::Natural, Order::BitReversed), 1),
                    ((Order::Natural, Order::Natural), 3),
                    ((Order::BitReversed, Order::Natural), 64),
                ] {
                    let b = NttBatch::limbs(&[p], 1 << log_n, NttKind::Cyclic)
                        .unwrap()
                        .with_orders(orders.0, orders.1)
                        .batch(batch);
                    let s = plan_ntt_schedule(&b, word, Direction::Forward).unwrap();
                    for (i, pass) in s.passes.iter().enumerate() {
                        let k = NttKernelSource::pass(&s, i);
                        let start = k.source.find("__launch_bounds__(").unwrap() + 18;
                        let args: Vec<usize> = k.source[start..]
                            .split(')')
                            .next()
                            .unwrap()
                            .split(',')
                            .map(|a| a.trim().parse().unwrap())
                            .collect();
                        assert_eq!(args[0], pass.threads(), "{s}");
                        let blocks = args.get(1).copied().unwrap_or(1);
                        assert!(blocks * args[0] <= 2048, "{s}");
                        assert!(
                            65536 / (blocks * args[0]) >= register_budget(pass, word),
                            "{s}"
                        );
                        assert!(blocks * (k.shared_bytes + 1024) <= 228 * 1024, "{s}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }
}
