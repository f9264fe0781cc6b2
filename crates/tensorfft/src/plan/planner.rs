//! Chooses a [`Recipe`] for a shape and precision: radices, work per thread, block shape, access
//! scheme. Pure data in, data out, so it is tested without a GPU.

use super::options::{ExchangeFormat, IoMode, PlanOptions, TwiddleSource};
use super::padding::{staged_pair_padding, tensor_exchange_paddings, Padding};
use super::precision::Precision;
use super::recipe::{shared_stride, tensor_pair_shape, Recipe};
use super::shape::Shape;
use crate::error::{Error, Result};

/// Largest radix the register DFTs implement (radix 32 on request through
/// [`crate::Tuning::max_radix`]; the default largest radix is [`DEFAULT_MAX_RADIX`]).
pub const MAX_RADIX: usize = 32;
/// Largest radix the planner uses unless told otherwise.
pub const DEFAULT_MAX_RADIX: usize = 16;
/// Shared memory a block may use by default on sm_90 (227 KiB opt-in limit).
pub const MAX_SHARED_BYTES: usize = 227 * 1024;
/// Threads a block may have.
pub const MAX_THREADS_PER_BLOCK: usize = 1024;

/// Longest transform the single-pass kernel takes (one 1024-thread block of 136–144 KiB of
/// shared memory per transform at the top lengths). Measured on the H200 against the two-pass
/// plans (bench/results/2026-11-24-h200-single-*.json): f32 16384 72.3% of copy against 43.8%
/// (cuFFT 70.2%), f64 8192 70.7% against 44.4% (cuFFT 72.0%), f16 32768 63.1% against 26.1%
/// (cuFFT 34.3%). Longer axes run as schedules of strided passes.
///
/// ```
/// assert_eq!(tensorfft::plan::planner::max_len(tensorfft::Precision::F32), 16384);
/// ```
pub fn max_len(precision: Precision) -> usize {
    match precision {
        Precision::F16 => 32768,
        // f32 exchanges: the shared memory of f32 data.
        Precision::F32 | Precision::BF16 | Precision::F32Split => 16384,
        Precision::F64 => 8192,
    }
}

/// Longest transform the single-pass kernel takes for `precision` with `tuning`: tensor-core
/// kernels hold 16 values per thread in blocks of at most 1024 threads, so F16 on the tensor
/// cores ([`crate::Tuning::tensor_cores`]) stops at 16384 (a schedule runs a longer single pass
/// on the CUDA cores, and its strided passes of 512 and more on the tensor cores); otherwise
/// [`max_len`].
///
/// ```
/// use tensorfft::{plan::planner::max_len_tuned, Precision, Tuning};
/// let tc = Tuning { tensor_cores: Some(true), ..Tuning::default() };
/// assert_eq!(max_len_tuned(Precision::F16, &tc), 16384);
/// assert_eq!(max_len_tuned(Precision::F16, &Tuning::default()), 32768);
/// ```
pub fn max_len_tuned(precision: Precision, tuning: &crate::Tuning) -> usize {
    if precision == Precision::F16 && tuning.tensor_cores == Some(true) {
        16 * MAX_THREADS_PER_BLOCK
    } else {
        max_len(precision)
    }
}

/// Whether F32Split transforms of `n` points run the tensor-core stage pair
/// (`tensor_pair_fft.cuh`, [`crate::Tuning::tensor_pairs`]) unless the tuning says otherwise:
/// in one warp at 256 (no per-stage kernel: 16 threads per transform) and 512 (H100 94.8–95.3%
/// of the copy against 87.6–88.7% per stage), and at 2048 on the persistent grid (85.5–86.1%
/// against 83.3–83.8% for the per-stage kernel on the same grid). Elsewhere the per-stage
/// kernel won on the H100: 1024 92.3% against 87.5% for the one-warp pair of 32 values per
/// thread and 81.9% for the pair before a Stockham stage, 4096 67.9% against 58.7%, 8192
/// 66.5% against 53.1% (`bench/results/2026-11-26-h100-f32split-pairs/`, bench/NOTES.md step
/// 77).
fn split_pairs_by_default(n: usize) -> bool {
    matches!(n, 256 | 512 | 2048)
}

/// Every length the single-pass planner ([`plan_c2c_recipe`]) accepts for `precision`, shortest
/// first. Schedules ([`crate::plan_c2c_schedule`]) take every power of two up to 2^28.
///
/// ```
/// let ns = tensorfft::plan::planner::supported_lengths(tensorfft::Precision::F16);
/// assert_eq!((ns[0], *ns.last().unwrap()), (2, 32768));
/// ```
pub fn supported_lengths(precision: Precision) -> Vec<usize> {
    (1..=30)
        .map(|b| 1usize << b)
        .take_while(|&n| n <= max_len(precision))
        .collect()
}

/// Plans a batched complex-to-complex transform. Anything not implemented yet is an
/// [`Error::Unsupported`] naming what is missing.
///
/// ```
/// use tensorfft::{plan_c2c_recipe, PlanOptions, Precision, Shape};
/// let r = plan_c2c_recipe(&Shape::new([8192]).batch(5), Precision::F32, &PlanOptions::default()).unwrap();
/// assert_eq!(r.n, 8192);
/// // F32Split runs its radix-16 stages on the tensor cores: 16 values per thread, whole warps.
/// assert!(plan_c2c_recipe(&Shape::new([8192]), Precision::F32Split, &PlanOptions::default())?.tensor_cores);
/// // 256 (16 threads per transform) runs both radix-16 stages in one warp (the stage pair).
/// assert!(plan_c2c_recipe(&Shape::new([256]), Precision::F32Split, &PlanOptions::default())?.tensor_pair_warp());
/// assert!(plan_c2c_recipe(&Shape::new([128]), Precision::F32Split, &PlanOptions::default()).is_err());
/// # Ok::<(), tensorfft::Error>(())
/// ```
pub fn plan_c2c_recipe(
    shape: &Shape,
    precision: Precision,
    options: &PlanOptions,
) -> Result<Recipe> {
    shape.total_elements()?;
    if shape.dims().len() != 1 {
        return Err(Error::unsupported(
            format!(
                "{}-dimensional transform {:?}",
                shape.dims().len(),
                shape.dims()
            ),
            "1D transforms",
        ));
    }
    let n = shape.dims()[0];
    let max = max_len(precision);
    if !n.is_power_of_two() || n < 2 || n > max {
        return Err(Error::unsupported(
            format!("length {n} in {precision:?}"),
            &format!("powers of two from 2 to {max} in {precision:?}"),
        ));
    }
    let tuned_max = max_len_tuned(precision, &options.tuning);
    if n > tuned_max {
        return Err(Error::unsupported(
            format!("one pass of length {n} in {precision:?} on the tensor cores"),
            &format!("at most {tuned_max} (16 values per thread, at most {MAX_THREADS_PER_BLOCK} threads); a schedule runs longer passes on the CUDA cores"),
        ));
    }
    let tuning = &options.tuning;
    if tuning.warp_shuffles == Some(true) {
        return super::warp_shuffles::warp_shuffle_recipe(n, precision, options);
    }
    if super::warp_shuffles::shuffles_by_default(n, precision, tuning) {
        if let Ok(r) = super::warp_shuffles::warp_shuffle_recipe(n, precision, options) {
            return Ok(r);
        }
    }
    let elem = precision.complex_bytes();

    // Packed half arithmetic by default for F16 from N = 128 (at N = 64 the f32-arithmetic
    // staged kernel measured 86.3% of copy against 85.1%) unless the tuning asks for something
    // it cannot do. BF16 in packed bf16x2 arithmetic from N = 128 too (H200,
    // `bench/results/2026-11-29-h200-bf16-packed/`, bench/NOTES.md steps 120-121): 128 / 256 /
    // 1024 / 4096 / 8192 / 16384 at 94.1 / 98.0 / 98.7 / 98.5 / 98.3 / 89.6% of the copy
    // against 86.6 / 89.3 / 72.3 / 67.4 / 54.3 / 43.4% in f32 arithmetic, relative L2 errors
    // 5.4e-3 – 9.0e-3 against 1.7e-3 (bf16's unit roundoff is 3.9e-3); at 64 the two tie
    // (85.3%, `2026-11-29-h200-baseline-barriers-bf16-128/`) and f32 stays.
    // `half_arithmetic: Some(false)` keeps f32.
    let half_possible = matches!(precision, Precision::F16 | Precision::BF16)
        && n >= 4
        && tuning.tensor_cores != Some(true)
        && tuning.io != Some(IoMode::Staged)
        && tuning.exchange != Some(ExchangeFormat::F32)
        && tuning.elements_per_thread.unwrap_or(32).min(n) >= 4;
    let half_arithmetic = tuning.half_arithmetic.unwrap_or(half_possible && n >= 128);
    if half_arithmetic && !half_possible {
        return Err(Error::unsupported(
            format!("packed half arithmetic for {precision:?} N={n} with {tuning:?}"),
            "F16 or BF16, N >= 4, at least 4 values per thread, direct access, 16-bit exchange, no tensor cores",
        ));
    }
    let e_default = match precision {
        // Packed half arithmetic: 16 pairs of values per thread.
        _ if half_arithmetic => 32,
        // F16 1024 on the tensor cores: the whole transform in one warp (`tensor_pair_fft.cuh`;
        // H200 82.6% of the copy against 49.6% for per-stage tensor-core stages with 16,
        // bench/results/2026-11-26-h200-tensor-pairs/).
        Precision::F16 | Precision::BF16 if n == 1024 && tuning.tensor_cores == Some(true) => 32,
        // F32Split 256: the one-warp pair with one transform per warp (H100 94.4% of the copy
        // against 92.0% with two; `bench/results/2026-11-26-h100-f32split-pairs/`).
        Precision::F32Split if n == 256 => 8,
        // A whole short transform per thread: one stage, staged copies.
        _ if n <= 16 => 16,
        // F64 8192: one 512-thread block per SM (128 registers, no spills) measured 74.1–74.2%
        // of the copy against 69.5–69.7% for 1024 threads with 8 values (H200, twice,
        // `bench/results/2026-11-26-h200-landing-buffer/probe-shapes.txt`; bench/NOTES.md
        // step 79).
        Precision::F64 if n == 8192 => 16,
        Precision::F64 => 8,
        _ => 16,
    };
    let e = tuning.elements_per_thread.unwrap_or(e_default).min(n);
    if !e.is_power_of_two() || !(2..=32).contains(&e) {
        return Err(Error::unsupported(
            format!("{e} elements per thread"),
            "powers of two from 2 to 32 (and at most N)",
        ));
    }
    // Values per thread that one radix stage may split into butterflies: pairs in packed half
    // arithmetic.
    let lanes = if half_arithmetic { e / 2 } else { e };
    let t = n / e;
    let max_radix = tuning.max_radix.unwrap_or(DEFAULT_MAX_RADIX);
    if !max_radix.is_power_of_two() || !(2..=MAX_RADIX).contains(&max_radix) {
        return Err(Error::unsupported(
            format!("maximum radix {max_radix}"),
            "2, 4, 8, 16 or 32",
        ));
    }
    // Tensor-core radix-16 stages: a warp holds the 16 samples of 32 butterflies, 16 values per
    // thread, so they need E = 16 and whole warps per transform.
    let split = precision == Precision::F32Split;
    let tf32_split = tuning.tf32_split.unwrap_or(false);
    // F16 N = 256, 512, 1024: both radix-16 stages in one warp's registers
    // (`tensor_pair_fft.cuh`): at 256 one, two or four transforms per warp (8, 16 or 32 values
    // per thread), at 512 and 1024 one (16 or 32 values per thread), the last stage in-lane.
    // F32Split runs the same pairs with split products (the same shapes; beyond one warp with
    // direct loads).
    // BF16 (opt-in) runs the same kernels with bf16 products (mma.sync .bf16).
    let pair_precision = matches!(
        precision,
        Precision::F16 | Precision::BF16 | Precision::F32Split
    ) && !tf32_split;
    let warp_pair_possible = pair_precision && max_radix == 16 && tensor_pair_shape(n, t);
    let per_stage_possible = matches!(
        precision,
        Precision::F16 | Precision::BF16 | Precision::F32Split
    ) && e == 16
        && max_radix == 16
        && t.is_multiple_of(32);
    // F16 N >= 1024 with 16 values per thread: the same pair for the first two stages of each
    // 256-point unit, two units per warp, then the Stockham stages from shared memory
    // (`tensor_pair_fft.cuh`).
    let long_pair_possible =
        pair_precision && n >= 1024 && per_stage_possible && !warp_pair_possible;
    let pair_possible = warp_pair_possible || long_pair_possible;
    // By default: with its input staged through shared memory (below) it measured faster than
    // the per-stage kernel at every length (bench/NOTES.md steps 72–73).
    let tensor_pair = tuning.tensor_pairs.unwrap_or(
        (warp_pair_possible || long_pair_possible)
            && (matches!(precision, Precision::F16 | Precision::BF16) || split_pairs_by_default(n)),
    );
    let tensor_possible = if tensor_pair {
        pair_possible
    } else {
        per_stage_possible
    };
    // F16: opt-in for now. The per-stage tensor-core kernels issue 47% fewer instructions but
    // are latency-bound (13 cycles per instruction at 4 warps per scheduler) and slower than the
    // CUDA-core kernels (bench/NOTES.md, step 11); the one-warp kernels of 256 / 512 / 1024 reach
    // 96 / 96 / 84% of the copy on the H200 against 98–99% for packed half arithmetic (steps
    // 70–71), the stage pairs of 2048 / 4096 / 8192 / 16384 78 / 74 / 56 / 36% (steps 72–73).
    // F32Split is the tensor-core path.
    let tensor_cores = tuning.tensor_cores.unwrap_or(split);
    if (tensor_cores && !tensor_possible) || (split && !tensor_cores) {
        return Err(Error::unsupported(
            format!("tensor-core stages for {precision:?} N={n} with {e} values per thread, maximum radix {max_radix} and {tuning:?}"),
            "F16 or BF16 (opt-in) or F32Split with 16 values per thread, maximum radix 16 and N >= 512; stage pairs (F16, BF16 or F32Split) also N = 256 with 8, 16 or 32 values per thread, 1024 with 32",
        ));
    }
    if tuning.tensor_pairs == Some(true) && !(tensor_cores && pair_possible) {
        return Err(Error::unsupported(
            format!("tensor-core stage pairs for {precision:?} N={n} with {e} values per thread and {tuning:?}"),
            "F16 or BF16 on the tensor cores, or F32Split (not 3xTF32): N = 256 with 8, 16 or 32 values per thread, 512 with 16, 1024 with 16 or 32, 2048 … 16384 with 16",
        ));
    }
    if split && tensor_cores && tensor_pair && tuning.io == Some(IoMode::Staged) {
        return Err(Error::unsupported(
            format!("staged input for the F32Split stage pair of N={n}"),
            "direct access (F32Split pairs load their units directly)",
        ));
    }
    let tensor_pair = tensor_cores && tensor_pair;
    if tf32_split && !split {
        return Err(Error::unsupported(
            format!("3xTF32 products for {precision:?}"),
            "F32Split only",
        ));
    }
    // F32Split from 4096: two radix-16 stages on the tensor cores, the rest on CUDA-core stages
    // of radix at most 8 (H100, `bench/results/2026-11-26-h100-f32split-pairs/run5-stages/`,
    // twice: 4096 71.0–71.7% of the copy against 67.0% with three split stages, 73.5–74.0% on
    // the persistent grid; 8192 70.2–70.6% against 65.7%; 16384 27.0% against 22.1%; errors
    // lower, 4096 1.62e-7 against 1.98e-7). Each split stage costs more issue slots than a
    // CUDA-core stage and its exchange (bench/NOTES.md step 78).
    if tuning.tensor_stages.is_some() && !split {
        return Err(Error::unsupported(
            format!("a count of tensor-core stages for {precision:?}"),
            "F32Split",
        ));
    }
    let tensor_stages = tuning.tensor_stages.or((split && n >= 4096).then_some(2));
    let radices = if tensor_cores {
        match tensor_stages {
            None => tensor_radices(n),
            Some(k) => {
                let all = tensor_radices(n);
                let sixteens = all.iter().filter(|&&r| r == 16).count();
                if !(2..=sixteens).contains(&k) {
                    return Err(Error::unsupported(
                        format!("{k} tensor-core stages for N={n}"),
                        &format!("2 … {sixteens} radix-16 stages on the tensor cores"),
                    ));
                }
                let mut r = vec![16; k];
                r.extend(choose_radices(n >> (4 * k), 8));
                r
            }
        }
    } else {
        choose_radices(n, lanes.min(max_radix))
    };

    let exchange = match (precision, tuning.exchange) {
        (Precision::F64, None | Some(ExchangeFormat::F64)) => ExchangeFormat::F64,
        (Precision::F64, Some(x)) => {
            return Err(Error::unsupported(
                format!("{x:?} exchange for F64"),
                "F64 exchange",
            ));
        }
        (_, Some(ExchangeFormat::F64)) => {
            return Err(Error::unsupported(
                "F64 exchange for 32-bit data".into(),
                "F32 or F16 exchange",
            ));
        }
        (Precision::F32 | Precision::F32Split, Some(ExchangeFormat::F16)) => {
            return Err(Error::unsupported(
                "F16 exchange for F32 data".into(),
                "F32 exchange",
            ));
        }
        (Precision::BF16, Some(ExchangeFormat::F16)) => {
            return Err(Error::unsupported(
                "F16 exchange for BF16 data".into(),
                "F32 or BF16 exchange",
            ));
        }
        (p, Some(ExchangeFormat::BF16)) if p != Precision::BF16 => {
            return Err(Error::unsupported(
                format!("BF16 exchange for {p:?} data"),
                "BF16 exchange for BF16 data only",
            ));
        }
        (_, Some(x)) => x,
        // One stage of at most 8 points in 2-byte data: shared memory only stages the input and
        // output, which are in that format anyway, so keeping it there is exact and halves the
        // staging (H200, `bench/results/2026-11-25-h200-warp-shuffles/` and
        // `2026-11-26-h200-warp-shuffles-rep2/`, staged persistent kernels: f16 N = 4 96.7 and
        // 97.0% of the copy against 57% with f32 staging, f16 8 89.6 and 89.4%, bf16 8 86.8%
        // against 45.1%; bench/NOTES.md step 63). N = 4 now loads directly (below) and stages
        // nothing; N = 2 and 8 (when the shuffle kernel is off) stage this way.
        (Precision::F16, None) if radices.len() == 1 && n <= 8 => ExchangeFormat::F16,
        (Precision::BF16, None) if radices.len() == 1 && n <= 8 => ExchangeFormat::BF16,
        // Half data keeps f32 intermediates while one transform fits in 64 KiB of shared memory
        // (tensor-core plans: always; they run one 1024-thread block per SM at N = 16384).
        (Precision::F16, None) if half_arithmetic => ExchangeFormat::F16,
        (Precision::BF16, None) if half_arithmetic => ExchangeFormat::BF16,
        (Precision::F16, None) if n * 8 > 64 * 1024 && !tensor_cores => ExchangeFormat::F16,
        _ => ExchangeFormat::F32,
    };

    // Vector width of the CUDA-core end stages' direct accesses (tensor-core stages always
    // access runs of 4).
    let cuda_core_ends = [radices[0], radices[radices.len() - 1]]
        .into_iter()
        .filter(|&r| !(tensor_cores && r == 16));
    // In packed half arithmetic the unit is a pair of values: runs of at most 2 pairs (16 bytes).
    let widest = if half_arithmetic { 2 } else { 16 / elem };
    let direct_width = cuda_core_ends.fold(widest, |w, r| w.min(lanes / r)).max(1);
    // Direct accesses should fill whole 32-byte sectors with one transform's threads in one
    // instruction; shorter transforms go through shared memory with 16-byte copies. The
    // exception: 4-point transforms of 2-byte data, one per thread, whose 16 bytes a thread
    // loads directly (4-byte loads; the warp's 512 contiguous bytes come from L1) on blocks
    // that are not persistent: f16 101.2% of the copy on an H200 and 100.7% on an H100, bf16
    // 101.1% and 100.8%, against 87.6–88.2% and 94.7–95.2% for the warp-shuffle kernel in the
    // same processes (`bench/results/2026-11-26-h200-tiny-half/`, `…-h100-tiny-half/`;
    // bench/NOTES.md step 64).
    let tiny_half = elem == 4 && n == 4 && t == 1 && !half_arithmetic;
    // The stage pair beyond one warp (1024 with 16 values per thread, 2048 … 16384) stages its
    // input (its lanes' 8-byte loads of units 16 bytes or more apart kept L1 at 92% of its
    // peak at 4096). H200
    // (`bench/results/2026-11-26-h200-tensor-pair-stages/staged/`, three runs): 2048 77.5–77.9%
    // of the copy against 75.7–76.3% direct, 4096 74.3–74.4% against 63.0%, 8192 56.0–56.3%
    // against 34.3% (per-stage 38.6%), 16384 35.9–36.1% against 29.0% (per-stage 31.8–32.1%).
    // H100 (`…-h100-tensor-pair-stages/`, two runs): 4096 94.3–95.0% against 88.7–88.8%, 8192
    // 78.2–78.5% against 48.2%, 16384 46.3% against 40.1%; 2048 there loses (94.2–95.6%
    // against 96.6–97.4%), the H200 decides.
    let long_pair = tensor_pair && !warp_pair_possible;
    // (F32Split's pairs load directly: their f32 units are 16 bytes per lane.)
    let io = tuning.io.unwrap_or(if long_pair && !split {
        IoMode::Staged
    } else if half_arithmetic || t * direct_width * elem >= 32 || tiny_half {
        IoMode::Direct
    } else {
        IoMode::Staged
    });
    let vector_width = match io {
        IoMode::Staged => 1,
        IoMode::Direct => direct_width,
    };
    // Tensor-core plans with f32 exchange and direct access use paddings searched to make every
    // exchange free of bank conflicts (see `padding.rs`); the rest one element per 128 bytes.
    let default_padding = if half_arithmetic {
        Padding::pairs_per_128_bytes()
    } else {
        Padding::per_128_bytes(exchange)
    };
    let mut paddings = vec![default_padding; radices.len() + 1];
    // (The stage pair's exchanges are those of the direct kernel whatever its input: it always
    // stores from the last stage directly.)
    if tensor_cores && exchange == ExchangeFormat::F32 && (io == IoMode::Direct || long_pair) {
        if let Some(table) = tensor_exchange_paddings(n).filter(|t| t.len() + 1 == radices.len()) {
            paddings[1..radices.len()].copy_from_slice(&table);
        }
    }
    // The stage pair's staged input: its own buffer of f16 words (`Recipe::staged_pair_input`),
    // padded so that both the 8-byte stores of the tile and the lanes' 8-byte reads of their
    // units are free of bank conflicts (`padding::staged_pair_padding`).
    if long_pair && io == IoMode::Staged {
        paddings[0] = staged_pair_padding(n);
    }
    let per_transform_smem = shared_stride(n, &paddings) * exchange.bytes();
    let b = match tuning.transforms_per_block {
        Some(b) => b,
        None => {
            // Aim for 256 threads per block, and no more than 48 KiB of shared memory per block
            // when several transforms share a block.
            let by_threads = (256 / t).max(1);
            // (The warp-resident tensor-core kernel uses no shared memory.)
            let by_smem = if tensor_pair && warp_pair_possible {
                by_threads
            } else {
                ((48 * 1024) / per_transform_smem).max(1)
            };
            by_threads.min(by_smem)
        }
    };
    // Threads per block, checked: `b` may come from a caller's (or a wisdom file's) tuning.
    let Some(block_threads) = t.checked_mul(b) else {
        return Err(Error::DeviceLimit(format!(
            "{b} transforms of {t} threads per block (at most {MAX_THREADS_PER_BLOCK} threads)"
        )));
    };
    if tensor_pair && warp_pair_possible && !block_threads.is_multiple_of(32) {
        return Err(Error::unsupported(
            format!("{b} transforms of {t} threads per block on the tensor cores"),
            "whole warps: blocks of a multiple of 32 threads",
        ));
    }
    if b == 0 || block_threads > MAX_THREADS_PER_BLOCK {
        return Err(Error::DeviceLimit(format!(
            "{b} transforms of {t} threads per block (at most {MAX_THREADS_PER_BLOCK} threads, at least 1 transform)"
        )));
    }
    let twiddles = tuning.twiddles.unwrap_or(TwiddleSource::Table);
    let threads = block_threads;
    // Launch shape, from the H200 sweeps in bench/results/2026-11-21-h200-*.json:
    // * f32/f64: one block per tile (not persistent), no register prefetch, registers capped so
    //   about 1024 threads are resident per multiprocessor: f32 4096 at 97.9% of copy against
    //   91.3% for the persistent, prefetching kernel (f32 8192: 88.6% against 76.4%).
    // * f16 is instruction-bound; there the persistent, software-pipelined grid is as fast or
    //   up to 1% faster, with two blocks of <= 256 threads per multiprocessor, and prefetching
    //   except for 1024-thread blocks (f16 16384: 45% of copy without, 39% with).
    // * f64 with 16 values per thread spills under a register cap, so it gets none.
    // * f16 N = 64 (4 threads per transform) is the exception: one block per tile with four
    //   256-thread blocks per SM measured 85.6% and 85.8% of copy in two runs against 82.5%.
    // * Packed half arithmetic halves the instructions, so f16 is memory-bound again and takes
    //   the f32 launch shape: one block per tile, no prefetch, 3 blocks of 256 threads per SM
    //   (f16 4096: 97.9% against 91.4% persistent; 8192: 94.5% against 82.0%;
    //   bench/results/2026-11-21-h200-h2-variants.json).
    let short_f16 = precision == Precision::F16 && n == 64;
    // * Packed half arithmetic at N = 16384 (two 512-thread blocks per SM): loading each stage's
    //   twiddles in that stage measured 83.4% of copy against 77.7% on the H200
    //   (bench/results/2026-11-21-h200-l2-prefetch-f16-16384.json, whose other variants these
    //   are) and 99.0% on the H100 (bench/results/2026-11-21-h100-nl1-f16-16384.json).
    //   With derived twiddles (step 108) the two tie (94.0-94.1% against 93.8-94.2%, three
    //   runs, bench/results/2026-11-28-h200-python-and-twiddles-ahead/ahead.txt); 32768 lost
    //   ahead (64.2% against 67.0%, one run, 2026-11-28-h200-f16-inverse-swap/log2.txt).
    // * Streaming loads (`Tuning::stream_loads`) stay opt-in: on the H200 they add 0.5% at
    //   f32 8192 and 1.5% at f16 16384, on the H100 they cost 3% at both (96.0% against 99.2%).
    let long_half = half_arithmetic && n >= 16384;
    // * F32Split (H100, `bench/results/2026-11-26-h100-f32split-pairs/`, three alternations,
    //   bench/NOTES.md step 77): the persistent, prefetching grid for the per-stage kernels of
    //   1024 and 8192 (92.3–92.7% of the copy against 85.3–85.5% one block per tile, 66.1–66.6
    //   against 56.8–57.3) and the pair of 2048 (85.5–86.1% against 79.0–79.4% per stage, one
    //   block per tile), and for the one-warp pair of 256 (94.4% against 86.9). 4096 with three
    //   split stages lost on it (65.5–65.9 against 68.4–68.5); with two (step 78) it wins
    //   (73.5–74.0 against 71.0–71.7).
    //   On the H200 (`bench/results/2026-11-26-h200-f32split-variants/`, `tfft bench
    //   --variants`, bench/NOTES.md step 80) the one-warp pair of 512 runs at 83.9% of the
    //   copy on the persistent grid against 67.8–69.4% one block per tile.
    let split_persistent = split
        && (matches!(n, 1024 | 2048 | 8192)
            || (n == 4096 && tensor_stages == Some(2))
            || (tensor_pair && warp_pair_possible && matches!(n, 256 | 512)));
    // * BF16 on the tensor cores runs F16's tensor-core kernels (bf16 products): their launch
    //   shape too.
    let bf16_tensor = precision == Precision::BF16 && tensor_cores;
    // * f32 N = 16384 (one 1024-thread block per SM): the persistent grid without prefetch,
    //   found by `tfft tune` on the H200 (bench/results/2026-11-29-h200-tune/, bench/NOTES.md
    //   step 124): 0.6937 against 0.7102 ms in its three alternations, then `tfft bench` with
    //   and without the wisdom, twice: 73.1 / 72.7% of the copy against 71.3 / 71.4%.
    let one_block_f32 =
        precision == Precision::F32 && !tensor_cores && n == 16384 && threads == 1024;
    let persistent = tuning.persistent.unwrap_or(
        (precision == Precision::F16 && !short_f16 && !half_arithmetic && !tiny_half)
            || split_persistent
            || bf16_tensor
            || one_block_f32,
    );
    // * f32 N = 64 (one block of 64 transforms per tile, 3 blocks per SM): issuing the tile's
    //   loads through the prefetch path measured 97.4% and 97.5% of copy (0.979× and 0.977×
    //   cuFFT) against 96.5% and 96.3% (0.969×, 0.966×); bench/results/2026-11-21-h200-f32-64-*.
    let short_f32 = precision == Precision::F32 && n == 64;
    // * The warp-resident tensor-core kernel with 32 values per thread (F16 1024) spills under
    //   its 128 registers when it prefetches: 63.4% of the copy against 82.7% without (H200,
    //   bench/results/2026-11-26-h200-tensor-pairs/widths/); at 256 and 512 prefetching wins
    //   (95.8–96.2% against 94.2–95.3%).
    let wide_pair = tensor_pair && warp_pair_possible && n == 1024;
    // * F32Split's stage pairs keep 128 registers for their split products: prefetching spills
    //   48–56 bytes and lost on the H200 (same run as above): 512 79.0% of the copy against
    //   83.9%, 2048 61.0–62.4% against 63.6–64.0%, 256 80.0–80.1% against 80.0–80.2%.
    let split_pair = split && tensor_pair;
    let prefetch = tuning.prefetch.unwrap_or(
        ((persistent && threads < 1024) || short_f16 || short_f32) && !wide_pair && !split_pair,
    );
    // * Derived twiddles (only the power-of-two rows of each stage's table are read, the others
    //   are products) for f32/f64 from N = 4096, where the tables outgrow L1: f32 8192 95.3% of
    //   copy against 88.5% (twice), f32 4096 97.6% against 97.3%, f64 4096 99.2% against 96.0%
    //   with per-stage twiddle loads; f32 1024 measured 96.7% against 97.1%
    //   (bench/results/2026-11-21-h200-twd-*.json). Errors: f32 8192 1.43e-7 against 1.27e-7
    //   (cuFFT 2.46e-7).
    // * The same in packed half arithmetic (f16x2 products) from N = 8192 (H200, `tfft bench`
    //   of the binaries before and after, alternating, twice,
    //   `bench/results/2026-11-28-h200-f16-derived-twiddles/`): f16 16384 forward 82.6-83.1%
    //   of copy -> 92.0-92.4%, inverse 81.2-81.4% -> 88.5-89.3%, 8192 92.2-93.8% -> 97.3-97.4%,
    //   32768 forward 63.2% -> 67.0%; errors 1.00-1.10e-3 -> 1.07-1.16e-3 (cuFFT fp16
    //   1.58-1.70e-3). 1024 / 2048 / 4096 level in the probe (98.4-99.6%): not taken. Since
    //   step 109 (the inverse as the forward on swapped parts) the 16384 inverse runs at the
    //   forward's 91.8-92.9%, 32768 at 67.9-68.0%.
    let derived_twiddles = tuning.derived_twiddles.unwrap_or(
        ((matches!(precision, Precision::F32 | Precision::F64) && n >= 4096)
            || (half_arithmetic && n >= 8192))
            && twiddles == TwiddleSource::Table,
    );
    if derived_twiddles && twiddles != TwiddleSource::Table {
        return Err(Error::unsupported(
            format!("derived twiddles with {tuning:?}"),
            "table twiddles",
        ));
    }
    let spills_when_capped = precision == Precision::F64 && e >= 16;
    let min_blocks_default = if split {
        // F32Split: 128 registers per thread (512 threads per SM), where its kernels up to
        // N = 8192 compile without spills (at 64-80 they spill 0.4-1 KB per thread).
        (512 / threads).max(1)
    } else if spills_when_capped {
        0
    } else if short_f16 && !persistent {
        4
    } else if persistent {
        if threads <= 256 {
            2
        } else {
            0
        }
    } else {
        (1024 / threads).clamp(1, 3)
    };
    let recipe = Recipe {
        n,
        precision,
        radices,
        elements_per_thread: e,
        threads_per_transform: t,
        transforms_per_block: b,
        io,
        vector_width,
        twiddles,
        exchange,
        min_blocks_per_sm: tuning.min_blocks_per_sm.unwrap_or(min_blocks_default),
        prefetch,
        normalization: options.normalization,
        twiddles_ahead: tuning
            .twiddles_ahead
            .unwrap_or(!(long_half || (precision == Precision::F64 && derived_twiddles))),
        persistent,
        tensor_cores,
        tensor_pair,
        tf32_split,
        half_arithmetic,
        stream_loads: tuning.stream_loads.unwrap_or(false),
        derived_twiddles,
        // * Warp barriers around the exchanges where a transform has at most 32 threads (H200,
        //   twice, `bench/results/2026-11-25-h200-warp-exchange/`): f16 128 87.4% of copy ->
        //   93.7%, f64 32 95.8% -> 97.5%, f32 128 96.8% -> 98.5%, f32 256 / 512 and f64 64 …
        //   256 +0.3-0.7%; f32 64 97.7% -> 97.3% keeps block barriers.
        //   Whole warps only: `__syncwarp` names all 32 lanes. Direct access only: staged
        //   kernels copy their tiles block-cooperatively (with warp barriers between their
        //   stages the first H200 sweep failed at N <= 32), so they keep block barriers.
        warp_exchange: tuning.warp_exchange.unwrap_or(!short_f32)
            && io == IoMode::Direct
            && t <= 32
            && (t * b).is_multiple_of(32),
        warp_shuffles: false,
        paddings,
    };
    check_blocks_per_sm(recipe.min_blocks_per_sm, recipe.threads_per_block())?;
    if recipe.tensor_pair_warp() && recipe.io != IoMode::Direct {
        return Err(Error::unsupported(
            format!(
                "the one-warp tensor-core kernel of N={n} with {:?} access",
                recipe.io
            ),
            "direct access (the pair kernels beyond one warp also stage their input)",
        ));
    }
    if recipe.io == IoMode::Staged && !(b * n).is_multiple_of((16 / elem).max(1)) {
        return Err(Error::unsupported(
            format!("staged access for a tile of {} elements", b * n),
            "tiles of whole 16-byte vectors",
        ));
    }
    if recipe.shared_bytes() > MAX_SHARED_BYTES {
        return Err(Error::DeviceLimit(format!(
            "{} bytes of shared memory per block (at most {MAX_SHARED_BYTES})",
            recipe.shared_bytes()
        )));
    }
    Ok(recipe)
}

/// Radices of a tensor-core plan: as many radix-16 stages as fit, then one CUDA-core stage for
/// the remaining factor (2, 4 or 8), last.
///
/// ```
/// use tensorfft::plan::planner::tensor_radices;
/// assert_eq!(tensor_radices(4096), vec![16, 16, 16]);
/// assert_eq!(tensor_radices(8192), vec![16, 16, 16, 2]);
/// ```
pub fn tensor_radices(n: usize) -> Vec<usize> {
    let bits = n.trailing_zeros() as usize;
    let mut radices = vec![16; bits / 4];
    if !bits.is_multiple_of(4) {
        radices.push(1 << (bits % 4));
    }
    radices
}

/// Splits `n` (a power of two) into the fewest stages of radix at most `max_radix`, as even as
/// possible, with the larger radices in the middle: the first and last radices set the vector
/// width of direct device-memory accesses (`elements_per_thread / radix`).
///
/// ```
/// use tensorfft::plan::planner::choose_radices;
/// assert_eq!(choose_radices(4096, 16), vec![16, 16, 16]);
/// assert_eq!(choose_radices(8192, 16), vec![8, 16, 8, 8]);
/// assert_eq!(choose_radices(16, 16), vec![16]);
/// ```
pub fn choose_radices(n: usize, max_radix: usize) -> Vec<usize> {
    let bits = n.trailing_zeros() as usize;
    let max_bits = max_radix.trailing_zeros() as usize;
    if bits == 0 {
        return vec![];
    }
    let stages = bits.div_ceil(max_bits);
    let base = bits / stages;
    let extra = bits % stages;
    // Give the extra bits to the middle stages first.
    let mut order: Vec<usize> = (0..stages).collect();
    let mid = (stages as f64 - 1.0) / 2.0;
    order.sort_by(|a, b| {
        let da = (*a as f64 - mid).abs();
        let db = (*b as f64 - mid).abs();
        da.partial_cmp(&db)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(b))
    });
    let mut stage_bits = vec![base; stages];
    for &s in order.iter().take(extra) {
        stage_bits[s] += 1;
    }
    stage_bits.iter().map(|&b| 1usize << b).collect()
}

/// The typed refusal of `min_blocks` resident blocks of `threads` threads per multiprocessor
/// beyond what sm_90 holds (2048 threads, 32 blocks).
pub(crate) fn check_blocks_per_sm(min_blocks: usize, threads: usize) -> Result<()> {
    if min_blocks > 32 || min_blocks * threads > 2048 {
        return Err(Error::DeviceLimit(format!(
            "{min_blocks} blocks of {threads} threads per multiprocessor (at most 2048 threads, 32 blocks)"
        )));
    }
    Ok(())
}
