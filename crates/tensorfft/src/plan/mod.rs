//! Planning: shapes, precisions and options in; a [`Recipe`] (plain data) out.

pub mod bank_conflicts;
pub mod error_bound;
pub mod options;
pub mod padding;
pub mod planner;
pub mod precision;
pub mod recipe;
pub mod shape;
pub mod twiddles;

pub use options::{
    Direction, ExchangeFormat, IoMode, Normalization, PlanOptions, Tuning, TwiddleSource,
};
pub use planner::plan_c2c_recipe;
pub use precision::Precision;
pub use recipe::Recipe;
pub use shape::Shape;
