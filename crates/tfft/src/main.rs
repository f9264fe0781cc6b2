//! `tfft`: the tensorfft command line — demo, correctness sweep, benchmark against cuFFT, device
//! info.

mod bench;
mod check;
mod check_basis;
mod check_layouts;
mod data;
mod demo;
mod info;
mod ntt_bench;
mod ntt_check;
mod ntt_plot;
mod plan_info;
mod plot;
mod progress;
mod report;
mod shape;
mod shard;
mod sppark_anchor;
mod sweep;
mod tune;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;
use tensorfft::gpu::ntt_plan::NttPlanOptions;
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

/// One chosen case: `--shape 64x4096 --batch 3 --precision f16 --direction inverse`.
#[derive(clap::Args, Clone, Debug)]
pub struct CaseArgs {
    /// Shape of one transform, slowest axis first, e.g. `4096`, `64x4096`, `16x256x1024` (a
    /// single case instead of the sweep).
    #[arg(long, value_parser = parse_shape_arg, conflicts_with = "n")]
    pub shape: Option<ShapeArg>,
    /// Transform length of a 1D case: the same as `--shape N`.
    #[arg(long)]
    pub n: Option<usize>,
    /// Number of transforms for the single case (default: 2^27 elements in all in bench, 3 in
    /// check).
    #[arg(long)]
    pub batch: Option<usize>,
    /// Precision of the single case.
    #[arg(long, value_parser = parse_precision, default_value = "f32")]
    pub precision: Precision,
    /// Direction of the single case.
    #[arg(long, value_enum, default_value_t = Dir::Forward)]
    pub direction: Dir,
}

impl CaseArgs {
    /// The single case's extents, from `--shape` or `--n`; `None` runs the sweep or suite.
    pub fn dims(&self) -> Option<Vec<usize>> {
        match (&self.shape, self.n) {
            (Some(s), _) => Some(s.0.clone()),
            (None, Some(n)) => Some(vec![n]),
            (None, None) => None,
        }
    }
}

/// The extents given with `--shape`.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeArg(pub Vec<usize>);

fn parse_shape_arg(s: &str) -> Result<ShapeArg, String> {
    shape::parse_shape(s).map(ShapeArg)
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
    /// Two 1D lengths in f32 and f16, one 2D and one 3D shape in f32: a quick look.
    Smoke,
    /// Every power-of-two 1D length of the cuFFT anchors up to 2^26 and their 2D and 3D shapes,
    /// in f16, f32 and f64.
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
        /// A subset: smaller batches, fewer 2D and 3D shapes, nothing beyond 2^31 elements.
        #[arg(long)]
        quick: bool,
        #[command(flatten)]
        case: CaseArgs,
        /// Also write the results as JSON.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Only these precisions of the sweep (comma-separated, e.g. f32,f16).
        #[arg(long, value_delimiter = ',', value_parser = parse_precision)]
        only: Vec<Precision>,
        /// Only shapes of these ranks of the sweep (comma-separated, e.g. 2,3).
        #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u8).range(1..=3))]
        rank: Vec<u8>,
        /// Only the strided-layout cases of the sweep.
        #[arg(long, conflicts_with_all = ["shape", "n"])]
        layouts: bool,
        /// Only the tensor-core kernels on basis vectors (F32Split, F16 and BF16 on `mma.sync`).
        #[arg(long, conflicts_with_all = ["layouts", "shape", "n"])]
        basis: bool,
        /// Only the warp-shuffle kernels (`Tuning::warp_shuffles`, N = 4 … 1024).
        #[arg(long, conflicts_with_all = ["layouts", "basis", "shape", "n"])]
        warp_shuffles: bool,
        /// Only the cases that ask for packed half arithmetic (`Tuning::half_arithmetic`): BF16
        /// in bf16x2 at N = 4 … 64, where its default computes in f32.
        #[arg(long, conflicts_with_all = ["layouts", "basis", "warp_shuffles", "shape", "n"])]
        half_arithmetic: bool,
        /// Only the tensor-core kernels (F16 and BF16 on `mma.sync`, F32Split): random data and basis
        /// vectors.
        #[arg(long, conflicts_with_all = ["layouts", "basis", "warp_shuffles", "shape", "n"])]
        tensor_cores: bool,
        /// Only part K of M of the sweep (`0/4` … `3/4`): every M-th case from the K-th, so
        /// M processes or device calls together run it all; part 0 also runs the layouts and
        /// basis vectors.
        #[arg(long, default_value = "0/1", conflicts_with_all = ["shape", "n", "layouts", "basis"])]
        shard: shard::Shard,
        /// Only the cases at these positions of the sweep, from 0, comma-separated (after the
        /// other filters, before --shard; no layouts or basis vectors): finishes a sweep whose
        /// parts a time limit cut short.
        #[arg(long, value_delimiter = ',', conflicts_with_all = ["shape", "n", "layouts", "basis"])]
        cases: Vec<usize>,
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
        /// Draw % of copy against the elements per transform as a PNG.
        #[arg(long)]
        plot: Option<PathBuf>,
        /// Also time the planner's tuning variants for each 1D row.
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
        /// Launch the passes plainly, each after the previous kernel completes, instead of as
        /// programmatic dependent launches (sm_90; `Tuning::dependent_launch`), to compare.
        #[arg(long)]
        plain_launches: bool,
        /// The tensor cores asked for (`Tuning::tensor_cores`, opt-in): F16 radix-16 stages of
        /// the single-pass kernels from 256 and of every strided pass from 512 as `mma.sync`
        /// products; BF16 single passes from 256 likewise with bf16 products (its other passes
        /// in f32).
        #[arg(long)]
        tensor_cores: bool,
        /// Plan with the tuning of this wisdom file where it has an entry for the row's device,
        /// precision, shape, batch and asked tuning (written by `tfft tune`).
        #[arg(long)]
        wisdom: Option<PathBuf>,
    },
    /// Time the planner's tuning variants of each shape on this device and keep the fastest
    /// accurate one (within 10% of the default's error, 1% faster when re-timed against it) in
    /// a wisdom file, which `tfft bench --wisdom`, `Gpu::set_wisdom` and Python's
    /// `tensorfft.load_wisdom` apply.
    Tune {
        /// Shapes of one transform, comma-separated, e.g. `1024,4096,1024x1024`.
        #[arg(long, value_delimiter = ',', value_parser = parse_shape_arg, required = true)]
        shape: Vec<ShapeArg>,
        /// Transforms per execution (default: 2^27 elements in all, f64 2^26, as `tfft bench`).
        #[arg(long)]
        batch: Option<usize>,
        /// Precisions, comma-separated.
        #[arg(long, value_delimiter = ',', value_parser = parse_precision, default_value = "f32")]
        precision: Vec<Precision>,
        /// Tune the plans that ask for the tensor cores (`Tuning::tensor_cores`).
        #[arg(long)]
        tensor_cores: bool,
        /// The wisdom file to add the entries to (created if absent).
        #[arg(long, default_value = "wisdom.json")]
        wisdom: PathBuf,
        /// Timed runs per measurement (at least 10).
        #[arg(long, default_value_t = 20)]
        reps: usize,
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
    /// Number theoretic transforms: `tfft ntt check`, `tfft ntt bench`.
    Ntt {
        #[command(subcommand)]
        action: NttCommand,
    },
}

#[derive(Subcommand)]
enum NttCommand {
    /// Draw the plot of an NTT bench JSON file.
    Plot {
        /// JSON written by `tfft ntt bench --json`.
        json: PathBuf,
        /// Output PNG.
        png: PathBuf,
    },
    /// GPU NTTs against the CPU transforms, bit for bit: sizes 2 … 2^25 (BabyBear), 2 … 2^24
    /// (KoalaBear, PRIME_32, Goldilocks) and 2 … 2^19 (the 62-bit prime), cyclic and negacyclic, every order pair,
    /// batches, RNS limbs, p − 1, cosets; each case's pointwise product and transforms of products.
    Check {
        /// Every order pair up to 2^20, two of them above.
        #[arg(long)]
        quick: bool,
        /// Only cases of this log2 length.
        #[arg(long)]
        log_n: Option<u32>,
        /// Only cases of this field: babybear, koalabear, goldilocks, fhe62, prime32 (or e.g. "62-bit"
        /// for the FHE limbs).
        #[arg(long)]
        field: Option<String>,
        /// Only the cases on a coset g·H (`NttBatch::with_coset`).
        #[arg(long)]
        cosets: bool,
        /// Also write the results as JSON.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Every case with warp-shuffle butterflies in the last round of every direct row
        /// pass they apply to, not only where the planner chooses them (32-bit rows of 128 … 512);
        /// bit for bit the same results.
        #[arg(long)]
        warp_shuffles: bool,
        /// Only part K of M of the cases (`0/4` … `3/4`, after --log-n and --field): every
        /// M-th case from the K-th, so M processes or device calls together run them all.
        #[arg(long, default_value = "0/1")]
        shard: shard::Shard,
    },
    /// Time NTTs against the block-synchronous baseline and a device copy.
    Bench {
        /// A few sizes only.
        #[arg(long)]
        quick: bool,
        /// Write the results as JSON.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Draw one transform's time and the batched rows' % of copy per pass as a PNG.
        #[arg(long)]
        plot: Option<PathBuf>,
        /// Timed runs per measurement (at least 20).
        #[arg(long, default_value_t = 30)]
        reps: usize,
        /// A single row: log2 of the length (with --field, --batch).
        #[arg(long)]
        log_n: Option<u32>,
        /// Field of the single row: babybear, koalabear, goldilocks, fhe62, prime32 (3·2^30 + 1).
        #[arg(long, default_value = "babybear")]
        field: String,
        /// Transforms of the single row.
        #[arg(long, default_value_t = 1)]
        batch: usize,
        /// Blocks per cluster for the timed plans' fused passes (0: unfused; default: the
        /// planner's choice). Each fused row also times the plan unfused.
        #[arg(long)]
        cluster: Option<usize>,
        /// Orders of the single row: NR (natural in, bit-reversed out), NN, RN or RR.
        #[arg(long, default_value = "NR")]
        orders: String,
        /// Launch the passes plainly, each after the previous kernel completes, instead of as
        /// programmatic dependent launches (sm_90; `NttPlanOptions::dependent_launch`).
        #[arg(long)]
        plain_launches: bool,
        /// Column (strided) passes of at most this many points (`NttPlanOptions::max_column_len`;
        /// default: the planner's 2048, 1024 for 32-bit words where the row pass takes the bit).
        #[arg(long)]
        max_column: Option<usize>,
        /// Row (contiguous) passes of at most this many points (`NttPlanOptions::max_row_len`;
        /// default: the planner's, 8192, or 16384 for 32-bit words where that saves a pass; for
        /// staged rows, --staged-reversed or RR, the other way round).
        #[arg(long)]
        max_row: Option<usize>,
        /// Tiles (blocks) per multiprocessor each pass should have at least
        /// (`NttPlanOptions::tiles_per_sm`; default 2).
        #[arg(long, alias = "column-tiles-per-sm")]
        tiles_per_sm: Option<usize>,
        /// Tiles (blocks) per multiprocessor each row pass should have at least, while its
        /// blocks keep 128 threads (`NttPlanOptions::row_tiles_per_sm`; default 8).
        #[arg(long)]
        row_tiles_per_sm: Option<usize>,
        /// Stage passes of bit-reversed input and natural output through shared memory both
        /// ways instead of running them by decimation in time
        /// (`NttPlanOptions::staged_reversed_input`; for A/B measurements).
        #[arg(long)]
        staged_reversed: bool,
    },
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
        Command::Check {
            quick,
            case,
            json,
            only,
            rank,
            layouts,
            basis,
            warp_shuffles,
            half_arithmetic,
            tensor_cores,
            shard,
            cases,
        } => {
            let filter = check::SweepFilter {
                quick,
                precisions: only,
                ranks: rank.into_iter().map(usize::from).collect(),
                layouts_only: layouts,
                basis_only: basis,
                warp_shuffles_only: warp_shuffles,
                half_arithmetic_only: half_arithmetic,
                tensor_cores_only: tensor_cores,
                shard,
                positions: cases,
            };
            check::run(&filter, &case, json.as_deref())
        }
        Command::Bench {
            suite,
            case,
            json,
            plot,
            variants,
            variants_matching,
            reps,
            only,
            plain_launches,
            tensor_cores,
            wisdom,
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
            bench::Timed {
                plain_launches,
                tensor_cores,
            },
            wisdom.as_deref(),
        ),
        Command::Tune {
            shape,
            batch,
            precision,
            tensor_cores,
            wisdom,
            reps,
        } => {
            let rows: Vec<(Precision, Vec<usize>, usize)> = precision
                .iter()
                .flat_map(|&p| {
                    shape.iter().map(move |s| {
                        let n = shape::elements(&s.0).unwrap_or(usize::MAX);
                        let b = batch.unwrap_or((bench::row_elements(p) / n).max(1));
                        (p, s.0.clone(), b)
                    })
                })
                .collect();
            let asked = tensorfft::Tuning {
                tensor_cores: tensor_cores.then_some(true),
                ..Default::default()
            };
            tune::run(&rows, asked, reps.max(10), &wisdom)
        }
        Command::Plot { json, png } => plot::from_json_file(&json, &png),
        Command::Info => info::run(),
        Command::Ntt { action } => match action {
            NttCommand::Check {
                quick,
                log_n,
                field,
                cosets,
                json,
                warp_shuffles,
                shard,
            } => ntt_check::run(
                quick,
                json.as_deref(),
                log_n,
                field.as_deref(),
                cosets,
                warp_shuffles,
                shard,
            ),
            NttCommand::Bench {
                quick,
                json,
                plot,
                reps,
                log_n,
                field,
                batch,
                cluster,
                orders,
                plain_launches,
                max_column,
                max_row,
                tiles_per_sm,
                row_tiles_per_sm,
                staged_reversed,
            } => {
                let single = log_n.map(|l| (field, l, batch, orders));
                ntt_bench::run(
                    quick,
                    json.as_deref(),
                    plot.as_deref(),
                    reps.max(20),
                    single,
                    NttPlanOptions {
                        cluster_blocks: cluster,
                        dependent_launch: plain_launches.then_some(false),
                        max_column_len: max_column,
                        max_row_len: max_row,
                        tiles_per_sm,
                        row_tiles_per_sm,
                        staged_reversed_input: staged_reversed,
                        ..NttPlanOptions::default()
                    },
                )
            }
            NttCommand::Plot { json, png } => ntt_plot::from_json_file(&json, &png),
        },
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tfft: {e}");
            ExitCode::FAILURE
        }
    }
}
