//! Recipes of the warp-shuffle kernel (`warp_shuffle_fft.cuh`, [`crate::Tuning::warp_shuffles`]):
//! a transform of N = E·L values on L lanes of a warp, a radix-E DFT in each lane's registers,
//! then log2(L) radix-2 stages between lanes through `__shfl_xor_sync`, with no shared memory.

use super::options::{ExchangeFormat, IoMode, PlanOptions, Tuning, TwiddleSource};
use super::planner::{check_blocks_per_sm, MAX_RADIX, MAX_THREADS_PER_BLOCK};
use super::precision::Precision;
use super::recipe::Recipe;
use crate::error::{Error, Result};

/// Most lanes one transform may use (a warp).
pub const MAX_LANES: usize = 32;

/// Values per lane for a transform of length `n` unless the tuning sets them: few radix-2 lane
/// stages (each costs every value two shuffles and a multiply on half the lanes) against few
/// registers. Measured on an H100 (`bench/results/2026-11-25-h100-warp-shuffles/`, bench/NOTES.md
/// step 57): f16 and bf16 best with up to 8 values per lane (N = 8: E = 4 on 2 lanes, 100% of
/// copy; N = 64: E = 8 94%, E = 4 88%); f32 with 4 (N = 32: E = 4 on 8 lanes 100%, E = 8 94%,
/// E = 16 56%), 2 up to N = 8; f64 with 4 (N = 16: E = 4 98%, E = 8 56%). At least N/32 (one
/// warp per transform).
///
/// ```
/// use tensorfft::{plan::warp_shuffles::default_values, Precision};
/// assert_eq!(default_values(32, Precision::F32), 4);
/// assert_eq!(default_values(8, Precision::F16), 4);
/// assert_eq!(default_values(16, Precision::F64), 4);
/// assert_eq!(default_values(1024, Precision::F64), 32);
/// ```
pub fn default_values(n: usize, precision: Precision) -> usize {
    let preferred = match precision.complex_bytes() {
        4 => 8,
        8 if n <= 8 => 2,
        _ => 4,
    };
    preferred.min(n / 2).max(n / MAX_LANES).max(1)
}

/// Whether the planner runs a length-`n` transform on the warp-shuffle kernel when the tuning
/// leaves the choice to it: where the kernel measured faster than the Stockham single pass by
/// more than the noise between runs (`bench/results/2026-11-25-h100-warp-shuffles/`,
/// bench/NOTES.md step 57), and only when no field of `tuning` shapes the single-pass kernel.
///
/// ```
/// use tensorfft::{plan::warp_shuffles::shuffles_by_default, Precision, Tuning};
/// assert!(shuffles_by_default(32, Precision::F32, &Tuning::default()));
/// assert!(shuffles_by_default(8, Precision::F16, &Tuning::default()));
/// assert!(!shuffles_by_default(256, Precision::F32, &Tuning::default()));
/// assert!(!shuffles_by_default(4, Precision::F64, &Tuning::default()));
/// let staged = Tuning { io: Some(tensorfft::IoMode::Staged), ..Default::default() };
/// assert!(!shuffles_by_default(8, Precision::F16, &staged));
/// let clusters = Tuning { cluster_blocks: Some(4), ..Default::default() };
/// assert!(shuffles_by_default(8, Precision::F16, &clusters));
/// let order = Tuning { shortest_pass_first: Some(false), ..Default::default() };
/// assert!(shuffles_by_default(32, Precision::F32, &order));
/// ```
pub fn shuffles_by_default(n: usize, precision: Precision, tuning: &Tuning) -> bool {
    // Fields of multi-pass plans leave the single-pass kernel to the planner; any other field
    // (a new one too) shapes it, and keeps the Stockham kernel.
    let single_pass_fields = Tuning {
        paired_items: None,
        max_pass_len: None,
        shortest_pass_first: None,
        pass_tile_bytes: None,
        items_per_tile: None,
        cluster_blocks: None,
        ..*tuning
    };
    single_pass_fields == Tuning::default() && measured_faster(n, precision)
}

/// The lengths where the warp-shuffle kernel beat the Stockham single pass on an H100 in every
/// round (three for f16 and f32, two for bf16), % of a device copy, Stockham → shuffles
/// (bench/NOTES.md step 57): f16 N = 8 62.6 → 99.5, N = 16 95.7 → 100.5; bf16 N = 8 62.4 →
/// 99.6; f32 N = 32 87–93 → 100–103. Elsewhere the Stockham kernel is at the copy bandwidth
/// already (within ±1%; f64 everywhere; bf16 16 101.5 against 100.4 in its one round) or faster
/// (N ≥ 128 in 2-byte data, ≥ 512 in f32, ≥ 256 in f64, where 32 lanes must hold 8 or more
/// values). N = 4 in f16 and bf16 went back to the Stockham kernel once it loads one transform
/// per thread directly with its one stage in the data's format (bench/NOTES.md steps 63–64:
/// 100.6–101.2% of the copy on an H200 and an H100 against 87.6–95.2% on shuffles). On the H200
/// f16 N = 16 measured 2–3% slower on shuffles than on the Stockham kernel in two sessions
/// (steps 60 and 63); kept for its 5% on the H100.
fn measured_faster(n: usize, precision: Precision) -> bool {
    match precision {
        Precision::F32 => n == 32,
        Precision::F16 => matches!(n, 8 | 16),
        Precision::BF16 => n == 8,
        Precision::F64 | Precision::F32Split => false,
    }
}

/// The warp-shuffle recipe of a batched 1D transform of length `n`, or the typed reason it has
/// none: the length (4 … 1024, a power of two), the precision (F32, F64, F16 and BF16, computed
/// in f32 or f64) and the other tuning fields must allow it.
///
/// ```
/// use tensorfft::{plan::warp_shuffles::warp_shuffle_recipe, PlanOptions, Precision};
/// let r = warp_shuffle_recipe(256, Precision::F32, &PlanOptions::default()).unwrap();
/// assert_eq!((r.elements_per_thread, r.threads_per_transform), (8, 32));
/// assert_eq!(r.radices, vec![8, 2, 2, 2, 2, 2]);
/// assert_eq!(r.shared_bytes(), 0);
/// assert!(warp_shuffle_recipe(2, Precision::F32, &PlanOptions::default()).is_err());
/// assert!(warp_shuffle_recipe(256, Precision::F32Split, &PlanOptions::default()).is_err());
/// ```
pub fn warp_shuffle_recipe(
    n: usize,
    precision: Precision,
    options: &PlanOptions,
) -> Result<Recipe> {
    let tuning = &options.tuning;
    let unsupported = |what: String| {
        Err(Error::unsupported(
            what,
            "warp shuffles: F32, F64, F16 or BF16, N = 4 … 1024 as E values on each of 2 … 32 \
             lanes (E = 2 … 32, at most the tuning's max_radix), table twiddles, direct access, \
             the compute precision's exchange format; no tensor cores, 3xTF32, packed half \
             arithmetic, derived twiddles, twiddles ahead, prefetch, persistent grid or warp \
             exchange",
        ))
    };
    if !matches!(
        precision,
        Precision::F32 | Precision::F64 | Precision::F16 | Precision::BF16
    ) {
        return unsupported(format!("warp shuffles in {precision:?}"));
    }
    // The values live in registers of the compute precision: f64 for F64, f32 otherwise.
    let exchange = if precision == Precision::F64 {
        ExchangeFormat::F64
    } else {
        ExchangeFormat::F32
    };
    let conflicting = tuning.tensor_cores == Some(true)
        || tuning.half_arithmetic == Some(true)
        || tuning.tf32_split == Some(true)
        || tuning.derived_twiddles == Some(true)
        || tuning.twiddles_ahead == Some(true)
        || tuning.prefetch == Some(true)
        || tuning.persistent == Some(true)
        || tuning.warp_exchange == Some(true)
        || tuning.io == Some(IoMode::Staged)
        || tuning.twiddles == Some(TwiddleSource::Computed)
        || tuning.exchange.is_some_and(|x| x != exchange);
    if conflicting {
        return unsupported(format!("warp shuffles with {tuning:?}"));
    }
    // The register DFT's radix is the lane's count of values.
    let max_values = tuning.max_radix.unwrap_or(MAX_RADIX).min(MAX_RADIX);
    let e = match tuning.elements_per_thread {
        Some(e) if e > 0 && n.is_multiple_of(e) => e,
        Some(e) => return unsupported(format!("{e} values per lane for N={n}")),
        // The largest power of two within max_radix (a cap of 6 gives 4, not 6 lanes' worth
        // that do not divide N).
        None => default_values(n, precision).min(max_values.checked_ilog2().map_or(0, |l| 1 << l)),
    };
    // (A max_radix of 0 or 1 leaves e below 2: refused here, before it divides.)
    let lanes = n / e.max(1);
    if !n.is_power_of_two()
        || !e.is_power_of_two()
        || !(2..=MAX_LANES).contains(&lanes)
        || !(2..=max_values).contains(&e)
    {
        return unsupported(format!("N={n} as {e} values on each of {lanes} lanes"));
    }
    let b = tuning.transforms_per_block.unwrap_or((256 / lanes).max(1));
    let threads = b * lanes;
    if b == 0 || threads > MAX_THREADS_PER_BLOCK || !threads.is_multiple_of(32) {
        return Err(Error::DeviceLimit(format!(
            "{b} transforms of {lanes} lanes per block (whole warps, at most {MAX_THREADS_PER_BLOCK} threads)"
        )));
    }
    // Registers: a lane's values take 2 (f64: 4) per complex value. Up to 16 of them: four
    // blocks of 256 threads per SM (64 registers; ptxas: 26-61, no spills); up to 32: two (128
    // registers; 113-128 used, no spills); beyond: the compiler's choice (E = 32: 181-236 in
    // f32 / f16, one block per SM; f64 255 with 8-24 bytes of spills). Step 57's H100 run.
    let value_registers = e * 2 * if precision == Precision::F64 { 2 } else { 1 };
    let min_blocks_default = match value_registers {
        0..=16 => (1024 / threads).clamp(1, 4),
        17..=32 => (512 / threads).clamp(1, 2),
        _ => 0,
    };
    let min_blocks = tuning.min_blocks_per_sm.unwrap_or(min_blocks_default);
    check_blocks_per_sm(min_blocks, threads)?;
    let mut radices = vec![e];
    radices.extend(std::iter::repeat_n(2, lanes.trailing_zeros() as usize));
    Ok(Recipe {
        n,
        precision,
        radices,
        elements_per_thread: e,
        threads_per_transform: lanes,
        transforms_per_block: b,
        io: IoMode::Direct,
        // Each lane stores its E outputs as contiguous vectors of up to 16 bytes.
        vector_width: e.min((16 / precision.complex_bytes()).max(1)),
        twiddles: TwiddleSource::Table,
        exchange,
        min_blocks_per_sm: min_blocks,
        prefetch: false,
        normalization: options.normalization,
        twiddles_ahead: false,
        persistent: false,
        tensor_cores: false,
        tensor_pair: false,
        tf32_split: false,
        half_arithmetic: false,
        stream_loads: tuning.stream_loads.unwrap_or(false),
        derived_twiddles: false,
        warp_exchange: false,
        warp_shuffles: true,
        paddings: Vec::new(),
    })
}

/// Whether `recipe` is a valid warp-shuffle recipe: `n = E·L` with the radices `[E, 2, 2, …]`,
/// whole warps per block, no shared memory.
///
/// ```
/// use tensorfft::{plan::warp_shuffles::{is_consistent, warp_shuffle_recipe}, PlanOptions, Precision};
/// assert!(is_consistent(&warp_shuffle_recipe(64, Precision::F16, &PlanOptions::default()).unwrap()));
/// ```
pub fn is_consistent(recipe: &Recipe) -> bool {
    let (e, l) = (recipe.elements_per_thread, recipe.threads_per_transform);
    recipe.warp_shuffles
        && e * l == recipe.n
        && (2..=MAX_LANES).contains(&l)
        && l.is_power_of_two()
        && recipe.radices.first() == Some(&e)
        && recipe.radices[1..].iter().all(|&r| r == 2)
        && 1usize << (recipe.radices.len() - 1) == l
        && recipe.threads_per_block().is_multiple_of(32)
        && e.is_multiple_of(recipe.vector_width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tuning;

    /// A radix bound of 0 or 1 leaves no values per lane: a typed refusal, not a division by
    /// zero (found by the planner's property test).
    #[test]
    fn a_radix_bound_below_two_is_refused() {
        for max_radix in [0, 1] {
            let options = PlanOptions::tuned(Tuning {
                warp_shuffles: Some(true),
                max_radix: Some(max_radix),
                ..Default::default()
            });
            for precision in [Precision::F32, Precision::F16] {
                assert!(matches!(
                    warp_shuffle_recipe(64, precision, &options),
                    Err(Error::Unsupported { .. })
                ));
                assert!(
                    crate::plan_c2c_recipe(&crate::Shape::new([64]), precision, &options).is_err()
                );
            }
        }
    }

    /// A radix bound that is not a power of two caps the values per lane at the power of two
    /// below it (found by the planner's property test: N = 16 with a bound of 6 had planned 6
    /// values on 2 lanes).
    #[test]
    fn a_radix_bound_between_powers_of_two_rounds_down() {
        for (n, max_radix, values) in [(16, 6, 4), (64, 12, 8), (256, 31, 16)] {
            let options = PlanOptions::tuned(Tuning {
                warp_shuffles: Some(true),
                max_radix: Some(max_radix),
                ..Default::default()
            });
            let r = warp_shuffle_recipe(n, Precision::F16, &options).unwrap();
            // At most the power of two below the bound (the default may take fewer).
            assert!(r.elements_per_thread.is_power_of_two() && r.elements_per_thread <= values);
            assert_eq!(r.elements_per_thread * r.threads_per_transform, n);
            assert!(is_consistent(&r));
        }
    }
}
