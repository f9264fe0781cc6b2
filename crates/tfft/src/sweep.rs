//! The cases `tfft check` runs: every supported 1D length, a sample of 2D and 3D shapes, each
//! with several batch sizes, and one batch of more than 2^32 elements.

use crate::shape::elements;
use tensorfft::{Direction, IoMode, Precision, Tuning};

/// One check: a shape, a batch, what to run.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub precision: Precision,
    /// Extents of one transform, slowest first.
    pub dims: Vec<usize>,
    pub batch: usize,
    /// Out-of-place runs, each compared with the oracle.
    pub directions: Vec<Direction>,
    /// Also run in place and compare bits with the out-of-place results.
    pub in_place: bool,
    /// Also run forward then inverse with 1/N normalization and compare with the input.
    pub round_trip: bool,
    /// The plans' tuning (default: the planner's choices).
    pub tuning: Tuning,
}

impl Case {
    /// Elements of one transform.
    pub fn n(&self) -> usize {
        self.dims.iter().product()
    }

    /// Elements of the whole batch.
    pub fn total(&self) -> usize {
        self.n() * self.batch
    }
}

/// Largest batch of a case in elements: 2^27 (2^26 in f64), as the bench rows.
pub fn batch_cap(p: Precision) -> usize {
    if p == Precision::F64 {
        1 << 26
    } else {
        1 << 27
    }
}

/// Batch sizes for transforms of `n` elements: 1, a prime, and a large batch of about 2^24
/// (quick: 2^22) elements, at least 4 transforms where the cap allows, never more than
/// [`batch_cap`] elements. The prime is the largest of 1009, 13, 5, 3 that keeps the batch at
/// about that size.
///
/// ```text
/// batches(4096, Precision::F32, false) == (vec![1, 1009, 4096], 1009)
/// batches(1 << 26, Precision::F32, false) == (vec![1, 2, 3], 3)
/// ```
pub fn batches(n: usize, p: Precision, quick: bool) -> (Vec<usize>, usize) {
    let target: usize = if quick { 1 << 22 } else { 1 << 24 };
    let large = target.max(4 * n).min(batch_cap(p)) / n;
    let prime = [1009, 13, 5, 3]
        .into_iter()
        .find(|&q| q * n <= target)
        .unwrap_or(3);
    let mut v = vec![1, prime, large.max(1)];
    v.sort_unstable();
    v.dedup();
    (v, prime)
}

/// 1D lengths: every power of two from 2 to 2^26 (f16: 2^27); quick: to 2^20.
pub fn lengths_1d(p: Precision, quick: bool) -> Vec<usize> {
    let max_log2 = match (quick, p) {
        (true, _) => 20,
        (false, Precision::F16) => 27,
        (false, _) => 26,
    };
    (1..=max_log2).map(|b| 1usize << b).collect()
}

/// 2D shapes: every extent from 2 to 8192 appears, square and not, both orientations.
pub fn shapes_2d(p: Precision, quick: bool) -> Vec<Vec<usize>> {
    let mut v: Vec<Vec<usize>> = if quick {
        vec![
            vec![2, 2],
            vec![4, 256],
            vec![64, 4096],
            vec![4096, 64],
            vec![256, 256],
            vec![1024, 1024],
        ]
    } else {
        vec![
            vec![2, 2],
            vec![4, 256],
            vec![8, 16],
            vec![32, 128],
            vec![128, 32],
            vec![2, 8192],
            vec![8192, 2],
            vec![64, 4096],
            vec![4096, 64],
            vec![256, 256],
            vec![512, 512],
            vec![1024, 1024],
            vec![2048, 8192],
            vec![8192, 8192],
        ]
    };
    // 8192 x 8192 is 2^26 elements: f16 and f32 only.
    v.retain(|d| p != Precision::F64 || d[..] != [8192, 8192]);
    v
}

/// 3D shapes: every extent from 2 to 512 appears (and 1024 along the contiguous axis).
pub fn shapes_3d(p: Precision, quick: bool) -> Vec<Vec<usize>> {
    let mut v: Vec<Vec<usize>> = if quick {
        vec![
            vec![2, 2, 2],
            vec![4, 512, 8],
            vec![64, 64, 64],
            vec![16, 256, 1024],
        ]
    } else {
        vec![
            vec![2, 2, 2],
            vec![32, 16, 2],
            vec![4, 512, 8],
            vec![16, 256, 1024],
            vec![64, 64, 64],
            vec![128, 128, 128],
            vec![256, 256, 256],
            vec![512, 512, 512],
        ]
    };
    // 512^3 is 2^27 elements: f16 and f32 only.
    v.retain(|d| p != Precision::F64 || d[..] != [512, 512, 512]);
    v
}

/// The batch of more than 2^32 elements (f16, N = 2^20, 4100 transforms = 4.3e9 elements):
/// 64-bit indexing everywhere, checked on a sample of 8 transforms.
pub fn beyond_2_32() -> Case {
    Case {
        precision: Precision::F16,
        dims: vec![1 << 20],
        batch: 4100,
        directions: vec![Direction::Forward],
        in_place: false,
        round_trip: false,
        tuning: Tuning::default(),
    }
}

/// The precisions of the shape sweep (F32Split has cases of its own).
const SWEPT_PRECISIONS: [Precision; 4] = [
    Precision::F16,
    Precision::BF16,
    Precision::F32,
    Precision::F64,
];

/// `dims` in precision `p` at each batch of [`batches`], forward and inverse with a round trip,
/// in place at the prime batch; none when the extents overflow.
fn batched_cases(p: Precision, dims: Vec<usize>, quick: bool, tuning: Tuning) -> Vec<Case> {
    let Some(n) = elements(&dims) else {
        return Vec::new();
    };
    let (batches, prime) = batches(n, p, quick);
    batches
        .into_iter()
        .map(|batch| Case {
            precision: p,
            dims: dims.clone(),
            batch,
            directions: vec![Direction::Forward, Direction::Inverse],
            in_place: batch == prime,
            round_trip: true,
            tuning,
        })
        .collect()
}

/// The whole sweep (`quick`: fewer shapes, smaller batches, nothing beyond 2^31 elements).
pub fn sweep(quick: bool) -> Vec<Case> {
    let mut cases = Vec::new();
    for p in SWEPT_PRECISIONS {
        let lines = lengths_1d(p, quick).into_iter().map(|n| vec![n]);
        let shapes = lines.chain(shapes_2d(p, quick)).chain(shapes_3d(p, quick));
        for dims in shapes {
            cases.extend(batched_cases(p, dims, quick, Tuning::default()));
        }
    }
    if !quick {
        // More than 2^31 elements with a short transform: batches far above 65 535.
        cases.push(Case {
            precision: Precision::F16,
            dims: vec![16],
            batch: (1 << 27) + 1,
            directions: vec![Direction::Forward],
            in_place: false,
            round_trip: true,
            tuning: Tuning::default(),
        });
        cases.push(beyond_2_32());
    }
    cases.extend(tensor_core_pass_cases(quick));
    cases.extend(f32split_cases(quick));
    cases.extend(f16_tensor_core_cases(quick));
    cases.extend(warp_shuffle_cases(quick));
    cases.extend(cluster_variants());
    cases.extend(table_twiddle_variants());
    cases.extend(bf16_packed_cases(quick));
    cases.extend(bf16_tensor_core_cases(quick));
    cases
}

/// BF16 on the tensor cores (`Tuning::tensor_cores`, opt-in; bf16 products, F16's kernels): the
/// warp-resident pair at 256 with one, two and four transforms per warp, every length 512 …
/// 16384 on its default kernel, 1024 with 16 values per thread, the per-stage kernel at 4096,
/// and multi-pass shapes with the tensor cores asked for (2^17, 2^20, 1024², 8 × 1024 × 4,
/// 64³: contiguous single passes on the tensor cores, strided passes in f32). Last in the
/// sweep, after the packed BF16 cases.
pub fn bf16_tensor_core_cases(quick: bool) -> Vec<Case> {
    let p = Precision::BF16;
    let tensor = |e: Option<usize>, pairs: Option<bool>| Tuning {
        tensor_cores: Some(true),
        elements_per_thread: e,
        tensor_pairs: pairs,
        ..Default::default()
    };
    // One warp per 256-point transform group (8, 16, 32 values per thread), and 1024 with 16
    // values per thread (the pair before a Stockham stage).
    let widths = [(256, 8), (256, 16), (256, 32), (1024, 16)]
        .into_iter()
        .flat_map(move |(n, e)| batched_cases(p, vec![n], quick, tensor(Some(e), None)));
    let defaults =
        (9..=14).flat_map(move |b| batched_cases(p, vec![1 << b], quick, tensor(None, None)));
    let per_stage = batched_cases(p, vec![4096], quick, tensor(None, Some(false)));
    let passes = [
        vec![1 << 17],
        vec![1 << 20],
        vec![1024, 1024],
        vec![8, 1024, 4],
        vec![64, 64, 64],
    ]
    .into_iter()
    .flat_map(move |dims| batched_cases(p, dims, quick, tensor(None, None)));
    widths
        .chain(defaults)
        .chain(per_stage)
        .chain(passes)
        .collect()
}

/// BF16 in packed bf16x2 arithmetic (`Tuning::half_arithmetic`) where the default computes in
/// f32: N = 4 … 64, with the batches of the other 1D cases (from 128 the default cases run
/// packed). After the other cases (then BF16 on the tensor cores), so that the positions of
/// the cases before them stay put.
pub fn bf16_packed_cases(quick: bool) -> Vec<Case> {
    let t = Tuning {
        half_arithmetic: Some(true),
        ..Default::default()
    };
    (2..=6)
        .flat_map(move |b| batched_cases(Precision::BF16, vec![1 << b], quick, t))
        .collect()
}

/// F32Split (f32 data, split f16 products on the tensor cores): every length it takes, 256 to
/// 16384, with the batches of the other 1D cases, on its default kernels and on the other form
/// of each length: the stage pair (`Tuning::tensor_pairs`; at 256 with one, two and four
/// transforms per warp, at 1024 also in one warp with 32 values per thread) or the per-stage
/// kernel, and from 4096 with every radix-16 stage on the tensor cores.
pub fn f32split_cases(quick: bool) -> Vec<Case> {
    let p = Precision::F32Split;
    let pairs = |on: bool, e: Option<usize>| Tuning {
        tensor_pairs: Some(on),
        elements_per_thread: e,
        ..Default::default()
    };
    let defaults =
        (8..=14).flat_map(move |b| batched_cases(p, vec![1 << b], quick, Tuning::default()));
    let pair_kernels =
        (9..=14).flat_map(move |b| batched_cases(p, vec![1 << b], quick, pairs(true, None)));
    let per_stage =
        (9..=14).flat_map(move |b| batched_cases(p, vec![1 << b], quick, pairs(false, None)));
    let shapes = [(256, 8), (256, 32), (1024, 32)]
        .into_iter()
        .flat_map(move |(n, e)| batched_cases(p, vec![n], quick, pairs(true, Some(e))));
    // From 4096 every radix-16 stage on the tensor cores (the default runs two).
    let all_stages = (12..=14).flat_map(move |b| {
        let t = Tuning {
            tensor_stages: Some(3),
            ..Default::default()
        };
        batched_cases(p, vec![1 << b], quick, t)
    });
    defaults
        .chain(pair_kernels)
        .chain(per_stage)
        .chain(shapes)
        .chain(all_stages)
        .collect()
}

/// F16 on the tensor cores (`Tuning::tensor_cores`, opt-in) on random data with the 1D
/// batches: the warp-resident kernel at 256 with one, two and four transforms per warp, at 512
/// and 1024 (their defaults), the pair kernel with Stockham stages after it at 2048 … 16384
/// (their defaults; input staged through shared memory and loaded directly at 2048 … 8192) and at
/// 1024 with 16 values per thread, the per-stage tensor-core kernels at 4096, 8192 and 16384,
/// and 32768 and 65536 with the tensor cores asked for, whose passes run on the CUDA cores.
pub fn f16_tensor_core_cases(quick: bool) -> Vec<Case> {
    let tensor = |e: Option<usize>| Tuning {
        tensor_cores: Some(true),
        elements_per_thread: e,
        ..Default::default()
    };
    // The per-stage kernels, and the pair with its input staged through shared memory (the
    // default) and loaded directly at 2048 … 8192.
    let pairs = |on: bool| Tuning {
        tensor_pairs: Some(on),
        ..tensor(None)
    };
    let pairs_io = |io: IoMode| Tuning {
        io: Some(io),
        ..pairs(true)
    };
    let p = Precision::F16;
    [(256, 8), (256, 16), (256, 32), (1024, 16)]
        .into_iter()
        .flat_map(|(n, e)| batched_cases(p, vec![n], quick, tensor(Some(e))))
        .chain(
            [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536]
                .into_iter()
                .flat_map(|n| batched_cases(p, vec![n], quick, tensor(None))),
        )
        .chain(
            [4096, 8192, 16384]
                .into_iter()
                .flat_map(|n| batched_cases(p, vec![n], quick, pairs(false))),
        )
        .chain([2048, 4096, 8192].into_iter().flat_map(|n| {
            [IoMode::Staged, IoMode::Direct]
                .into_iter()
                .flat_map(move |io| batched_cases(p, vec![n], quick, pairs_io(io)))
        }))
        .collect()
}

/// Multi-pass plans whose strided passes run radix-16 stages on the tensor cores (those of 512
/// and more): F16 with `Tuning::tensor_cores` and F32Split, long 1D (2^15 … 2^22, 2^24 in the
/// full sweep), 2D (columns of 512 … 4096, 4096² in the full sweep) and 3D shapes (a
/// 1024-point middle axis, 64³, 512³ in the full sweep), with the batches of their shapes.
pub fn tensor_core_pass_cases(quick: bool) -> Vec<Case> {
    let mut shapes: Vec<Vec<usize>> = vec![
        vec![1 << 15],
        vec![1 << 17],
        vec![1 << 20],
        vec![1 << 22],
        vec![64, 64],
        vec![512, 256],
        vec![1024, 1024],
        // Column passes of 2048 and 4096: the stage pair, then CUDA-core and tensor-core tails.
        vec![2048, 16],
        vec![4096, 64],
        vec![8, 1024, 4],
        vec![64, 64, 64],
    ];
    if !quick {
        shapes.extend([vec![1 << 24], vec![4096, 4096], vec![512, 512, 512]]);
    }
    let tensor = Tuning {
        tensor_cores: Some(true),
        ..Default::default()
    };
    [
        (Precision::F16, tensor),
        (Precision::F32Split, Tuning::default()),
    ]
    .into_iter()
    .flat_map(|(p, t)| {
        shapes
            .clone()
            .into_iter()
            .flat_map(move |dims| batched_cases(p, dims, quick, t))
    })
    .collect()
}

/// The warp-shuffle kernel forced on (`Tuning::warp_shuffles`; by default only at a few short
/// lengths): every length it takes,
/// 4 … 1024, in f16, bf16, f32 and f64 with the 1D batches, and as the contiguous axis of a 2D
/// and a 3D shape (batch 3).
pub fn warp_shuffle_cases(quick: bool) -> Vec<Case> {
    let tuning = Tuning {
        warp_shuffles: Some(true),
        ..Default::default()
    };
    let mut cases = Vec::new();
    for p in SWEPT_PRECISIONS {
        for b in 2..=10 {
            cases.extend(batched_cases(p, vec![1 << b], quick, tuning));
        }
        cases.push(variant(p, vec![64, 256], tuning));
        cases.push(variant(p, vec![4, 512, 8], tuning));
    }
    cases
}

/// Strided and cluster passes with per-stage twiddle tables instead of the default derived
/// twiddles (`Tuning::derived_twiddles = Some(false)`), f16 and f32: two passes (2^20, 1024²)
/// and a cluster (f32 2^15 by default, f16 2^16 on 8 blocks when asked: its pairs of items run
/// two passes by default), against the oracle, in place and round trip, with an odd batch.
pub fn table_twiddle_variants() -> Vec<Case> {
    let tuning = Tuning {
        derived_twiddles: Some(false),
        ..Default::default()
    };
    let f16_cluster = Tuning {
        cluster_blocks: Some(8),
        ..tuning
    };
    [Precision::F16, Precision::F32]
        .into_iter()
        .flat_map(|p| {
            let cluster = if p == Precision::F32 {
                variant(p, vec![1 << 15], tuning)
            } else {
                variant(p, vec![1 << 16], f16_cluster)
            };
            [vec![1usize << 20], vec![1024, 1024]]
                .map(|dims| variant(p, dims, tuning))
                .into_iter()
                .chain([cluster])
        })
        .collect()
}

/// A case off the default path: batch 3, both directions, in place and round trip.
fn variant(precision: Precision, dims: Vec<usize>, tuning: Tuning) -> Case {
    Case {
        precision,
        dims,
        batch: 3,
        directions: vec![Direction::Forward, Direction::Inverse],
        in_place: true,
        round_trip: true,
        tuning,
    }
}

/// Cluster passes off the default path, each against the oracle, in place and round trip: 2
/// blocks (2^14 as 128 x 128), a landing buffer on 4 blocks (2^15 as 256 x 128; f64 2^14), a
/// persistent grid of 8 blocks (2^16), for every precision, with an odd batch.
pub fn cluster_variants() -> Vec<Case> {
    let tuned = |max_pass, blocks, prefetch, persistent| Tuning {
        max_pass_len: max_pass,
        cluster_blocks: Some(blocks),
        prefetch: Some(prefetch),
        persistent: Some(persistent),
        ..Default::default()
    };
    let mut cases = Vec::new();
    for p in [Precision::F16, Precision::F32, Precision::F64] {
        // f64's landing buffer of 2^15 would not fit a block's shared memory: 2^14 there.
        let landing = if p == Precision::F64 {
            (1usize << 14, tuned(Some(128), 4, true, true))
        } else {
            (1 << 15, tuned(Some(256), 4, true, true))
        };
        for (n, tuning) in [
            (1usize << 14, tuned(Some(128), 2, false, false)),
            landing,
            (1 << 16, tuned(None, 8, false, true)),
        ] {
            cases.push(variant(p, vec![n], tuning));
        }
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_extent_appears() {
        for p in [Precision::F16, Precision::F32, Precision::F64] {
            let axes_2d: Vec<usize> = shapes_2d(p, false).concat();
            let axes_3d: Vec<usize> = shapes_3d(p, false).concat();
            for lg in 1..=13 {
                assert!(axes_2d.contains(&(1 << lg)), "2D {p:?} lacks {}", 1 << lg);
            }
            for lg in 1..=9 {
                assert!(axes_3d.contains(&(1 << lg)), "3D {p:?} lacks {}", 1 << lg);
            }
        }
    }

    #[test]
    fn batches_stay_under_the_cap_and_include_one_and_a_prime() {
        assert_eq!(
            batches(4096, Precision::F32, false),
            (vec![1, 1009, 4096], 1009)
        );
        assert_eq!(batches(1 << 26, Precision::F32, false), (vec![1, 2, 3], 3));
        assert_eq!(batches(1 << 26, Precision::F64, false), (vec![1, 3], 3));
        for p in [Precision::F16, Precision::F32, Precision::F64] {
            for quick in [false, true] {
                for lg in 1..=27 {
                    let n = 1usize << lg;
                    let (b, prime) = batches(n, p, quick);
                    assert_eq!(b[0], 1);
                    assert!(b.contains(&prime) && [1009, 13, 5, 3].contains(&prime));
                    let large = *b.last().unwrap_or(&0);
                    if n <= batch_cap(p) {
                        assert!(large * n <= batch_cap(p).max(prime * n), "{p:?} {n}: {b:?}");
                    }
                    assert!(b.windows(2).all(|w| w[0] < w[1]));
                }
            }
        }
    }

    #[test]
    fn full_sweep_has_the_large_cases_and_quick_is_smaller() {
        let full = sweep(false);
        let quick = sweep(true);
        assert!(quick.len() < full.len());
        assert!(full
            .iter()
            .any(|c| c.total() > 1 << 32 && c.precision == Precision::F16));
        assert!(quick.iter().all(|c| c.total() < 1 << 31));
        assert!(full.iter().any(|c| c.dims == [16, 256, 1024]));
        assert!(full.iter().any(|c| c.dims == [4096, 64] && c.batch > 1));
        assert!(full.iter().any(|c| c.in_place && c.dims.len() == 3));
        let ranks = |v: &[Case]| (1..=3).all(|r| v.iter().any(|c| c.dims.len() == r));
        assert!(ranks(&full) && ranks(&quick));
    }

    fn schedule(c: &Case) -> tensorfft::Schedule {
        let opts = tensorfft::PlanOptions::tuned(c.tuning);
        let shape = tensorfft::Shape::from_dims(&c.dims).batch(c.batch);
        tensorfft::plan_c2c_schedule(&shape, c.precision, &opts).unwrap()
    }

    #[test]
    fn table_twiddle_variants_run_strided_and_cluster_passes_on_tables() {
        use tensorfft::plan::schedule::PassKernel;
        let (mut strided, mut clusters) = (0, 0);
        for c in table_twiddle_variants() {
            for pass in &schedule(&c).passes {
                match &pass.kernel {
                    PassKernel::Strided(p) => {
                        assert!(!p.inner.derived_twiddles);
                        strided += 1;
                    }
                    PassKernel::Cluster(cp) => {
                        assert!(!cp.first.inner.derived_twiddles);
                        assert!(!cp.second.inner.derived_twiddles);
                        clusters += 1;
                    }
                    PassKernel::SinglePass { .. } => {}
                }
            }
        }
        assert!(strided > 0 && clusters > 0);
    }

    #[test]
    fn cluster_variants_fuse_on_clusters_off_the_default_path() {
        use tensorfft::plan::schedule::PassKernel;
        for c in cluster_variants() {
            let s = schedule(&c);
            let PassKernel::Cluster(cp) = &s.passes[0].kernel else {
                panic!("not fused: {s}")
            };
            assert_eq!(Some(cp.cluster), c.tuning.cluster_blocks);
            assert_eq!(cp.landing, c.tuning.prefetch == Some(true));
        }
    }

    #[test]
    fn warp_shuffle_cases_plan_shuffle_kernels() {
        use tensorfft::plan::schedule::PassKernel;
        let cases = warp_shuffle_cases(true);
        assert_eq!(
            cases.iter().filter(|c| c.dims.len() == 1).count(),
            4 * 9 * 3
        );
        for c in &cases {
            let s = schedule(c);
            let last = s.passes.iter().find(|p| p.axis + 1 == c.dims.len());
            match last.map(|p| &p.kernel) {
                Some(PassKernel::SinglePass { recipe, .. }) => {
                    assert!(tensorfft::plan::warp_shuffles::is_consistent(recipe), "{s}")
                }
                _ => panic!("no warp-shuffle pass: {s}"),
            }
        }
    }

    #[test]
    fn the_large_case_exceeds_2_32_elements() {
        let c = beyond_2_32();
        assert!(c.total() > 1usize << 32);
        assert_eq!(crate::data::sample_count(c.n()), 8);
    }
}
