//! Accuracy bounds: the relative L2 error a recipe must stay under against the f64 oracle.

use super::options::ExchangeFormat;
use super::precision::Precision;
use super::recipe::Recipe;

/// Bound on ‖y − y_exact‖ / ‖y_exact‖ for one transform of `recipe`, where the input is exactly
/// representable in the storage precision.
///
/// It adds, each with a factor of one unit roundoff: the final rounding to the storage
/// precision, one rounding per shared-memory exchange in the exchange format, and log2 N levels
/// of arithmetic in the compute precision (f16 in packed half arithmetic, which also rounds its
/// twiddles to f16: one more per stage; twiddles formed with a constant root: two more per
/// factor), and two roundings to the operand format (f16, bf16
/// for BF16; samples and DFT matrix) per tensor-core stage (F32Split: eight f32 unit roundoffs per such stage). Measured errors are
/// several times smaller (rounding errors add as a random walk, the bound adds them
/// linearly); a wrong twiddle or index gives errors of order one.
///
/// ```
/// use tensorfft::{plan::error_bound::error_bound, plan_c2c_recipe, PlanOptions, Precision, Shape};
/// let r = plan_c2c_recipe(&Shape::new([4096]), Precision::F32, &PlanOptions::default()).unwrap();
/// assert!(error_bound(&r) < 2e-6);
/// ```
pub fn error_bound(recipe: &Recipe) -> f64 {
    let log_n = (recipe.n as f64).log2();
    let u_store = recipe.precision.unit_roundoff();
    let u_compute = match recipe.precision {
        Precision::F64 => Precision::F64.unit_roundoff(),
        Precision::F16 if recipe.half_arithmetic => Precision::F16.unit_roundoff(),
        Precision::BF16 if recipe.half_arithmetic => Precision::BF16.unit_roundoff(),
        _ => Precision::F32.unit_roundoff(),
    };
    let u_exchange = match recipe.exchange {
        ExchangeFormat::F16 => Precision::F16.unit_roundoff(),
        ExchangeFormat::BF16 => Precision::BF16.unit_roundoff(),
        ExchangeFormat::F32 => Precision::F32.unit_roundoff(),
        ExchangeFormat::F64 => Precision::F64.unit_roundoff(),
    };
    let exchanges = recipe.radices.len().saturating_sub(1) as f64;
    // Tensor-core stages round their samples and the DFT matrix to f16 (bf16).
    let tensor_stages = if recipe.tensor_cores {
        recipe.radices.iter().filter(|&&r| r == 16).count() as f64
    } else {
        0.0
    };
    // Per tensor-core stage: two f16 roundings (samples and DFT matrix), or with F32Split the
    // f16 rounding of the residual halves and the dropped Flo lo term, each about 2^-22 of the
    // vector's largest sample (the model in cpu::split_dft measures fp32-level errors).
    let tensor_unit = match recipe.precision {
        Precision::F32Split => 8.0 * Precision::F32.unit_roundoff(),
        // bf16 products (mma.sync .bf16): samples and matrix rounded to bf16.
        Precision::BF16 => 2.0 * Precision::BF16.unit_roundoff(),
        _ => 2.0 * Precision::F16.unit_roundoff(),
    };
    // Packed half arithmetic reads its twiddles rounded to its format: one more rounding per
    // stage.
    let twiddle_roundings = if recipe.half_arithmetic {
        exchanges
    } else {
        0.0
    };
    // Derived twiddles are products of up to log2(R) loaded ones: up to log2(R) - 1 more
    // roundings per stage with twiddles.
    let derived_roundings: f64 = if recipe.derived_twiddles {
        recipe
            .radices
            .iter()
            .skip(1)
            .map(|&r| (r.trailing_zeros() as f64 - 1.0).max(0.0))
            .sum()
    } else {
        0.0
    };
    // Twiddles formed with a constant root (a rounded constant and a product): the last stage's
    // runs of butterflies (`Recipe::last_stage_run_width`), and the last stage of the one-warp
    // tensor-core kernels of 512 and 1024 (the lane's root times a constant per slot).
    let one_warp_last_stage = recipe.tensor_pair_warp()
        && recipe.radices.len() > 2
        && recipe.precision != Precision::F32Split;
    // With derived twiddles a derived one is a product of up to log2(R) such rows.
    let constant_roots = if recipe.last_stage_run_width().is_some() {
        let last = recipe.radices.last().copied().unwrap_or(1);
        let rows = if recipe.derived_twiddles {
            f64::from(last.trailing_zeros().max(1))
        } else {
            1.0
        };
        2.0 * rows
    } else if one_warp_last_stage {
        2.0
    } else {
        0.0
    };
    u_store
        + u_exchange * exchanges
        + u_compute * constant_roots
        + u_compute * derived_roundings
        + u_compute * twiddle_roundings
        + u_compute * (log_n + 1.0)
        + tensor_unit * tensor_stages
}
