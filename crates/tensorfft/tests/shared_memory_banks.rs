//! The bank-conflict model on the planner's default recipes: tensor-core plans (whose paddings
//! were searched for it) must be conflict-free, and no plan may be worse than 4-way.

use tensorfft::plan::bank_conflicts::{shared_wavefronts, staged_pair_wavefronts};
use tensorfft::plan::planner::supported_lengths;
use tensorfft::{plan_c2c_recipe, IoMode, PlanOptions, Precision, Shape, Tuning};

#[test]
fn tensor_core_exchanges_are_free_of_bank_conflicts() {
    let opts = PlanOptions::tuned(Tuning {
        tensor_cores: Some(true),
        ..Default::default()
    });
    let tensor_lengths: Vec<usize> = supported_lengths(Precision::F16)
        .into_iter()
        // 16 values per thread in one block of at most 1024 threads: N = 512 … 16384.
        .filter(|&n| (512..=16384).contains(&n))
        .collect();
    assert_eq!(tensor_lengths.len(), 6);
    for n in tensor_lengths {
        let r = plan_c2c_recipe(&Shape::new([n]), Precision::F16, &opts).unwrap();
        assert!(r.tensor_cores && r.radices.len() >= 2);
        for b in shared_wavefronts(&r) {
            assert_eq!(b.wavefronts, b.ideal, "N={n} buffer {}: {b:?}", b.buffer);
        }
    }
}

#[test]
fn staged_pair_inputs_are_free_of_bank_conflicts() {
    // The stage pair's staged input buffer (F16 1024 … 16384 on the tensor cores with 16 values
    // per thread): stores and reads conflict-free at 1024 … 8192; at 16384 the stores take twice the ideal (no padding
    // of the searched form does better, `padding::staged_pair_padding`).
    let opts = PlanOptions::tuned(Tuning {
        tensor_cores: Some(true),
        io: Some(IoMode::Staged),
        ..Default::default()
    });
    for n in [1024, 2048, 4096, 8192, 16384] {
        let opts = PlanOptions::tuned(Tuning {
            elements_per_thread: Some(16),
            ..opts.tuning
        });
        let r = plan_c2c_recipe(&Shape::new([n]), Precision::F16, &opts).unwrap();
        assert!(r.staged_pair_input(), "{r}");
        let t = staged_pair_wavefronts(&r);
        assert!(t.ideal > 0);
        let limit = if n == 16384 { 3 * t.ideal / 2 } else { t.ideal };
        assert!(t.wavefronts <= limit, "N={n}: {t:?}");
    }
}

#[test]
fn default_plans_stay_within_four_way_conflicts() {
    for p in [Precision::F16, Precision::F32, Precision::F64] {
        for n in supported_lengths(p) {
            let r = plan_c2c_recipe(&Shape::new([n]), p, &PlanOptions::default()).unwrap();
            for b in shared_wavefronts(&r) {
                println!(
                    "{p:?} N={n} buffer {}: {} / {}",
                    b.buffer, b.wavefronts, b.ideal
                );
                assert!(b.wavefronts <= 4 * b.ideal, "{p:?} N={n}: {b:?}");
            }
        }
    }
}

/// Strided passes of the planner's multi-pass plans (1D, 2D, 3D; f16, f32, f64).
fn strided_passes() -> Vec<tensorfft::plan::strided_pass::StridedPass> {
    use tensorfft::plan::schedule::PassKernel;
    let shapes: Vec<Vec<usize>> = vec![
        vec![1 << 11],
        vec![1 << 14],
        vec![1 << 16],
        vec![1 << 17],
        vec![1 << 18],
        vec![1 << 20],
        vec![1 << 22],
        vec![1 << 26],
        vec![256, 256],
        vec![1024, 1024],
        vec![64, 4096],
        vec![4096, 64],
        vec![64, 64, 64],
        vec![16, 256, 1024],
        vec![512, 512, 512],
    ];
    let mut out = Vec::new();
    for p in [Precision::F16, Precision::F32, Precision::F64] {
        for dims in &shapes {
            let s =
                tensorfft::plan_c2c_schedule(&Shape::from_dims(dims), p, &PlanOptions::default())
                    .unwrap();
            for pass in &s.passes {
                match &pass.kernel {
                    PassKernel::Strided(sp) => out.push(sp.clone()),
                    PassKernel::Cluster(c) => {
                        out.push(c.first.clone());
                        out.push(c.second.clone());
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

#[test]
fn strided_tiles_beat_the_single_pass_layout() {
    use tensorfft::plan::bank_conflicts::strided_buffer_wavefronts;
    use tensorfft::plan::padding::Padding;
    let (mut ours, mut old, mut ideal) = (0, 0, 0);
    for sp in strided_passes() {
        let stages = sp.inner.radices.len();
        let default = Padding::per_128_bytes(sp.inner.exchange);
        let old_stride = default.buffer_len(sp.inner.n) | 1;
        let (mut a, mut b, mut i) = (0, 0, 0);
        for buffer in 0..=stages {
            let t = strided_buffer_wavefronts(
                &sp.inner,
                buffer,
                sp.inner.paddings[buffer],
                sp.item_stride(),
                sp.staged_in(),
                sp.staged_out(),
            );
            let o = strided_buffer_wavefronts(
                &sp.inner,
                buffer,
                default,
                old_stride,
                sp.staged_in(),
                sp.staged_out(),
            );
            a += t.wavefronts;
            b += o.wavefronts;
            i += t.ideal;
        }
        println!(
            "{:?} N={} radices={:?} items={} in={} out={}: {a} (was {b}, ideal {i}) stride {} (was {old_stride})",
            sp.inner.precision,
            sp.inner.n,
            sp.inner.radices,
            sp.inner.transforms_per_block,
            sp.staged_in(),
            sp.staged_out(),
            sp.item_stride()
        );
        assert!(a <= b, "{sp}: {a} wavefronts against {b}");
        if sp.inner.precision == Precision::F32 {
            assert_eq!(a, i, "{sp}: f32 tiles are free of conflicts");
        }
        assert!(sp.item_stride() >= sp.inner.shared_stride());
        ours += a;
        old += b;
        ideal += i;
    }
    println!("all strided passes: {ours} wavefronts (was {old}, ideal {ideal})");
}

/// Whether a padding is additive over multiples of `step`, as the kernels decide it
/// (`additive<X>` in `stockham_single_pass.cuh`).
fn additive(p: tensorfft::plan::padding::Padding, step: usize) -> bool {
    step.is_multiple_of(1 << p.shift_a) && (p.mul_b == 0 || step.is_multiple_of(1 << p.shift_b))
}

/// The tile layout of every strided pass the planner makes keeps each item inside its slice:
/// every buffer's padded positions of 0 … n − 1 stay below the item distance (so items never
/// overlap, touched buffers or not), the tile fits the pass's shared memory, and wherever the
/// kernels pad a butterfly's base once (`additive`), the split position equals the padded one
/// for every sample a stage gathers or scatters.
#[test]
fn strided_tiles_index_inside_their_items() {
    let mut checked = 0;
    for sp in strided_passes() {
        let n = sp.inner.n;
        let stride = sp.item_stride();
        assert_eq!(sp.inner.paddings.len(), sp.inner.radices.len() + 1, "{sp}");
        for p in &sp.inner.paddings {
            assert!(p.apply(n - 1) < stride, "{sp}: {p:?} reaches past the item");
        }
        assert!(
            sp.slots_per_tile() * stride * sp.inner.exchange.bytes() <= sp.shared_bytes(),
            "{sp}"
        );
        for a in exchange_accesses(n, &sp.inner.radices) {
            let p = sp.inner.paddings[a.buffer];
            if additive(p, a.spacing) {
                assert!(a.splits(p), "{sp}: {a:?}");
                checked += a.radix;
            }
        }
    }
    assert!(checked > 0);
}

/// One butterfly's side of a Stockham exchange: the positions base + r·spacing (r < radix) of
/// buffer `buffer` (stage s gathers from buffer s and scatters into buffer s + 1).
#[derive(Debug)]
struct Access {
    buffer: usize,
    base: usize,
    spacing: usize,
    radix: usize,
}

impl Access {
    /// Whether padding `p` splits over the positions: each padded position is the padded base
    /// plus the padded offset, so a kernel may pad the base once.
    fn splits(&self, p: tensorfft::plan::padding::Padding) -> bool {
        (0..self.radix).all(|r| {
            p.apply(self.base + r * self.spacing) == p.apply(self.base) + p.apply(r * self.spacing)
        })
    }
}

/// The exchanges of a Stockham plan of length n, as the kernels make them: stage s gathers
/// j + r·(n / radix) from buffer s and scatters (j / ns)·ns·radix + j mod ns + r·ns into buffer
/// s + 1 (ns: the product of the earlier radices), for every j < n / radix.
fn exchange_accesses(n: usize, radices: &[usize]) -> Vec<Access> {
    let mut out = Vec::new();
    let mut ns = 1;
    for (stage, &radix) in radices.iter().enumerate() {
        let step = n / radix;
        for j in 0..step {
            out.push(Access {
                buffer: stage,
                base: j,
                spacing: step,
                radix,
            });
            out.push(Access {
                buffer: stage + 1,
                base: (j / ns) * ns * radix + j % ns,
                spacing: ns,
                radix,
            });
        }
        ns *= radix;
    }
    out
}

/// Single-pass kernels of one 1024-thread block pad a butterfly's base once at every stage
/// (`additive<X>` in `stockham_single_pass.cuh`, bench/NOTES.md step 133): a gather reads
/// j + r·(n / radix) with j < n / radix and a scatter writes (j / ns)·ns·radix + j mod ns + r·ns,
/// and with powers of two neither sum carries past a padding term's period, so the split
/// position equals the padded one. Checked for every single-pass plan of every precision, with
/// the default tuning and every variant of `Tuning::sweep` (the rule holds for them all; the
/// kernels use it where it measured faster), and for six padding forms on three radix chains.
#[test]
fn single_pass_exchanges_split_over_the_padding() {
    use tensorfft::plan::padding::Padding;
    let mut checked = 0usize;
    let mut check = |n: usize, radices: &[usize], paddings: &[Padding]| {
        for a in exchange_accesses(n, radices) {
            let pad = paddings[a.buffer];
            assert!(a.splits(pad), "N={n} radices={radices:?} {a:?} {pad:?}");
            checked += a.radix;
        }
    };
    for p in [
        Precision::F16,
        Precision::BF16,
        Precision::F32,
        Precision::F64,
        Precision::F32Split,
    ] {
        // The default plan and every tuning variant the bench and `tfft tune` sweep, each
        // distinct (radices, paddings) once.
        let tunings: Vec<Tuning> = std::iter::once(Tuning::default())
            .chain(Tuning::sweep())
            .collect();
        let mut seen = std::collections::HashSet::new();
        for n in supported_lengths(p) {
            for t in &tunings {
                let Ok(r) = plan_c2c_recipe(&Shape::new([n]), p, &PlanOptions::tuned(*t)) else {
                    continue;
                };
                if !seen.insert((n, r.radices.clone(), r.paddings.clone())) {
                    continue;
                }
                // Kernels without exchange buffers (warp shuffles) have no paddings.
                if r.paddings.len() == r.radices.len() + 1 {
                    check(n, &r.radices, &r.paddings);
                } else {
                    assert!(r.paddings.is_empty(), "{p:?} N={n}: {:?}", r.paddings);
                }
            }
        }
    }
    // Six padding forms (none, one term, two terms with periods up to 2^10) on three radix chains.
    for (n, radices) in [
        (16384, vec![8, 16, 16, 8]),
        (8192, vec![16, 16, 32]),
        (1024, vec![2, 4, 8, 16]),
    ] {
        for (sa, sb) in [(0, 0), (3, 0), (4, 0), (5, 8), (4, 9), (6, 10)] {
            let pad = Padding {
                shift_a: sa,
                mul_a: 1,
                shift_b: sb,
                mul_b: usize::from(sb > 0) * 3,
            };
            check(n, &radices, &vec![pad; radices.len() + 1]);
        }
    }
    println!("{checked} positions (gathers and scatters) split over the padding");
    assert!(checked > 1_000_000, "{checked}");
}
