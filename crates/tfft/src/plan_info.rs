//! Every place the CLI reads what a plan is: its printable description (the schedule of
//! passes), the error bound it is checked against, the CPU-side planner that names tuning
//! variants, and the CPU reference executor.

use tensorfft::{Direction, Element, GpuPlan, PlanOptions, Precision, Shape};

/// What describes a plan: printable, comparable, and bounded in error.
pub type PlanDescription = tensorfft::Schedule;

/// The description of a GPU plan.
pub fn describe(plan: &GpuPlan) -> &PlanDescription {
    plan.schedule()
}

/// The description the CPU-side planner gives `shape` with `options` (nothing compiled).
pub fn describe_cpu(
    shape: &Shape,
    precision: Precision,
    options: &PlanOptions,
) -> tensorfft::Result<PlanDescription> {
    tensorfft::plan_c2c_schedule(shape, precision, options)
}

/// Bound on the relative L2 error of one transform of the plan against the f64 oracle.
pub fn error_bound(description: &PlanDescription) -> f64 {
    description.error_bound()
}

/// The CPU reference executor's forward or inverse transform of `input` (unnormalized).
pub fn run_reference<T: Element>(
    description: &PlanDescription,
    dir: Direction,
    input: &[T],
) -> tensorfft::Result<Vec<T>> {
    tensorfft::cpu::reference::execute_schedule(description, dir, input, false)
}
