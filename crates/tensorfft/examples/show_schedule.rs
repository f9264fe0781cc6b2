//! Prints the schedule the planner chooses for each shape, with no GPU:
//! `cargo run --release --example show_schedule -- f32 65536 f16 256x256` (tuning from the
//! environment as in `multipass_probe`: common/env_tuning.rs).

#[path = "common/env_tuning.rs"]
mod env_tuning;

use tensorfft::{plan_c2c_schedule, PlanOptions, Precision, Shape};

fn main() {
    let mut precision = Precision::F32;
    for arg in std::env::args().skip(1) {
        if let Some(p) = Precision::parse(&arg) {
            precision = p;
            continue;
        }
        let dims: Vec<usize> = arg.split('x').filter_map(|d| d.parse().ok()).collect();
        match plan_c2c_schedule(
            &Shape::from_dims(&dims),
            precision,
            &PlanOptions::tuned(env_tuning::tuning_from_env()),
        ) {
            Ok(s) => println!("{s}\n  error bound {:.2e}", s.error_bound()),
            Err(e) => println!("{dims:?}: {e}"),
        }
    }
}
