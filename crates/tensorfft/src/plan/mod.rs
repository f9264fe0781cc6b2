//! Planning: shapes, precisions and options in; a [`Schedule`] of passes (plain data) out, each
//! pass's kernel configured by a [`Recipe`].

pub mod bank_conflicts;
pub mod cluster_pass;
pub mod error_bound;
pub mod options;
pub mod padding;
pub mod planner;
pub mod precision;
pub mod recipe;
pub mod schedule;
pub mod schedule_planner;
pub mod shape;
pub mod strided_pass;
pub mod tile_layout;
pub mod twiddles;
pub mod warp_shuffles;
pub mod wisdom;

pub use options::{
    Direction, ExchangeFormat, IoMode, Layout, Normalization, PlanOptions, StageScale, Strides,
    Tuning, TwiddleSource,
};
pub use planner::plan_c2c_recipe;
pub use precision::Precision;
pub use recipe::Recipe;
pub use schedule::Schedule;
pub use schedule_planner::plan_c2c_schedule;
pub use shape::Shape;
pub use wisdom::{Wisdom, WisdomEntry, WisdomKey};
