//! `tfft`: the tensorfft command line — demo, correctness sweep, benchmark against cuFFT, device
//! info.

mod bench;
mod check;
mod data;
mod demo;
mod info;
mod plot;
mod progress;
mod report;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;
use tensorfft::{Direction, Precision};

#[derive(Parser)]
#[command(
    name = "tfft",
    version,
    about = "tensorfft: FFTs on NVIDIA GPUs, checked against an f64 oracle and timed against cuFFT"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// One chosen case: `--n 4096 --batch 3 --precision f16 --direction inverse`.
#[derive(clap::Args, Clone, Debug)]
pub struct CaseArgs {
    /// Transform length (a single case instead of the sweep).
    #[arg(long)]
    pub n: Option<usize>,
    /// Number of transforms for the single case (default: 2^27 / n elements in bench, 3 in check).
    #[arg(long)]
    pub batch: Option<usize>,
    /// Precision of the single case.
    #[arg(long, value_parser = parse_precision, default_value = "f32")]
    pub precision: Precision,
    /// Direction of the single case.
    #[arg(long, value_enum, default_value_t = Dir::Forward)]
    pub direction: Dir,
}

/// Transform direction on the command line.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Dir {
    /// e^{-2πi nk/N}
    Forward,
    /// e^{+2πi nk/N}
    Inverse,
}

impl From<Dir> for Direction {
    fn from(d: Dir) -> Self {
        match d {
            Dir::Forward => Direction::Forward,
            Dir::Inverse => Direction::Inverse,
        }
    }
}

fn parse_precision(s: &str) -> Result<Precision, String> {
    Precision::parse(s).ok_or_else(|| format!("unknown precision {s:?} (f16, f32, f64)"))
}

/// Benchmark suites.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Suite {
    /// Two lengths per precision: a quick look.
    Smoke,
    /// Every supported power-of-two length of the cuFFT anchors, in f16, f32 and f64.
    Full,
}

#[derive(Subcommand)]
enum Command {
    /// Run one transform on the GPU if there is one, else on the CPU reference executor.
    Demo {
        /// Transform length.
        #[arg(long, default_value_t = 4096)]
        n: usize,
        /// Number of transforms.
        #[arg(long, default_value_t = 256)]
        batch: usize,
        /// Precision.
        #[arg(long, value_parser = parse_precision, default_value = "f32")]
        precision: Precision,
        /// Use the CPU reference executor even if a GPU is present.
        #[arg(long)]
        cpu: bool,
    },
    /// GPU correctness sweep against the f64 oracle.
    Check {
        /// Fewer batch sizes per length.
        #[arg(long)]
        quick: bool,
        #[command(flatten)]
        case: CaseArgs,
        /// Also write the results as JSON.
        #[arg(long)]
        json: Option<PathBuf>,
    },
    /// Time tensorfft against cuFFT and a device copy on the same buffers.
    Bench {
        /// Which sizes.
        #[arg(long, value_enum, default_value_t = Suite::Smoke)]
        suite: Suite,
        #[command(flatten)]
        case: CaseArgs,
        /// Write the results as JSON.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Draw % of copy against N as a PNG.
        #[arg(long)]
        plot: Option<PathBuf>,
        /// Also time the planner's tuning variants for each row.
        #[arg(long)]
        variants: bool,
        /// Only the variants whose recipe description contains this text (implies --variants),
        /// e.g. `half_arithmetic=true`.
        #[arg(long)]
        variants_matching: Option<String>,
        /// Timed runs per measurement (at least 20).
        #[arg(long, default_value_t = 30)]
        reps: usize,
        /// Only these precisions of the suite (comma-separated, e.g. f32,f16).
        #[arg(long, value_delimiter = ',', value_parser = parse_precision)]
        only: Vec<Precision>,
    },
    /// Draw the plot of a bench JSON file.
    Plot {
        /// Bench JSON written by `tfft bench --json`.
        json: PathBuf,
        /// Output PNG.
        png: PathBuf,
    },
    /// Device, multiprocessors, shared memory, clusters, NVRTC, kernel cache.
    Info,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Demo {
            n,
            batch,
            precision,
            cpu,
        } => demo::run(n, batch, precision, cpu),
        Command::Check { quick, case, json } => check::run(quick, &case, json.as_deref()),
        Command::Bench {
            suite,
            case,
            json,
            plot,
            variants,
            variants_matching,
            reps,
            only,
        } => bench::run(
            suite,
            &case,
            json.as_deref(),
            plot.as_deref(),
            match variants_matching {
                Some(text) => Some(text),
                None if variants => Some(String::new()),
                None => None,
            }
            .as_deref(),
            reps.max(20),
            &only,
        ),
        Command::Plot { json, png } => plot::from_json_file(&json, &png),
        Command::Info => info::run(),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tfft: {e}");
            ExitCode::FAILURE
        }
    }
}
