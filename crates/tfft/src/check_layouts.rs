//! `tfft check`'s strided-layout cases: transforms along a non-contiguous axis, interleaved
//! columns, padded transforms and outputs with gaps, in place and out of place. Every element of
//! the input extent is random (gaps too); each transform is compared with the f64 oracle, the
//! output's gaps must keep their poison (NaN) and an out-of-place input must be left unchanged.

use crate::check::CheckRow;
use crate::data::random;
use half::f16;
use num_complex::Complex;
use tensorfft::cpu::oracle::{oracle_c2c_nd, relative_l2};
use tensorfft::{
    Direction, Element, Gpu, Layout, Normalization, PlanOptions, Precision, Shape, Strides,
};

/// One layout case: the extents of a transform, the batch and the layout.
struct LayoutCase {
    name: &'static str,
    dims: Vec<usize>,
    batch: usize,
    layout: Layout,
}

fn cases() -> Vec<LayoutCase> {
    let axis0 = Strides {
        stride: 32 * 16,
        dist: 1,
    };
    let columns = Strides { stride: 8, dist: 1 };
    let every_other = Strides {
        stride: 2,
        dist: 2 * (1 << 16) + 5,
    };
    vec![
        LayoutCase {
            name: "axis 0 of 64x32x16",
            dims: vec![64],
            batch: 32 * 16,
            layout: Layout {
                input: Some(axis0),
                output: Some(axis0),
            },
        },
        LayoutCase {
            name: "8 interleaved columns of 65536",
            dims: vec![1 << 16],
            batch: 8,
            layout: Layout {
                input: Some(columns),
                output: Some(columns),
            },
        },
        LayoutCase {
            name: "padded 64x64 in, dense out",
            dims: vec![64, 64],
            batch: 5,
            layout: Layout {
                input: Some(Strides {
                    stride: 1,
                    dist: 64 * 64 + 3,
                }),
                output: None,
            },
        },
        LayoutCase {
            name: "dense in, every other element out (two passes)",
            dims: vec![1 << 16],
            batch: 2,
            layout: Layout {
                input: None,
                output: Some(every_other),
            },
        },
        LayoutCase {
            name: "every other element, in place (two passes)",
            dims: vec![1 << 16],
            batch: 2,
            layout: Layout {
                input: Some(every_other),
                output: Some(every_other),
            },
        },
    ]
}

fn positions(st: Strides, n: usize, batch: usize) -> Vec<usize> {
    (0..batch)
        .flat_map(|b| (0..n).map(move |i| b * st.dist + i * st.stride))
        .collect()
}

fn check_one<T: Element>(
    gpu: &Gpu,
    c: &LayoutCase,
    seed: u64,
) -> Result<Vec<CheckRow>, tensorfft::Error> {
    let n: usize = c.dims.iter().product();
    let opts = PlanOptions {
        layout: c.layout,
        ..Default::default()
    };
    let plan = gpu.plan_c2c_with(
        &Shape::from_dims(&c.dims).batch(c.batch),
        T::PRECISION,
        &opts,
    )?;
    let s = plan.schedule();
    let bound = s.error_bound();
    let src = c.layout.input.unwrap_or(Strides::dense(n));
    let dst = c.layout.output.unwrap_or(Strides::dense(n));
    let x: Vec<T> = random(s.input_extent(), seed);
    let gathered: Vec<Complex<f64>> = positions(src, n, c.batch)
        .iter()
        .map(|&p| x[p].to_c64())
        .collect();
    let want: Vec<Complex<f64>> = gathered
        .chunks(n)
        .flat_map(|t| oracle_c2c_nd(t, &c.dims, Direction::Forward, Normalization::None))
        .collect();
    let out_pos = positions(dst, n, c.batch);
    let mut inside = vec![false; s.output_extent()];
    out_pos.iter().for_each(|&p| inside[p] = true);
    let input = gpu.upload(&x)?;
    let mut rows = Vec::new();
    let row = |test: &'static str, err: f64, bound: f64| {
        CheckRow::new(
            T::PRECISION,
            &c.dims,
            c.batch,
            test,
            err,
            bound,
            format!("{}: {s}", c.name),
        )
    };
    // Out of place: the output's gaps keep their poison, the input is unchanged.
    let mut out = gpu.alloc::<T>(s.output_extent())?;
    gpu.poison(&mut out)?;
    plan.execute_into(Direction::Forward, &input, &mut out)?;
    let y = gpu.download(&out)?;
    let got: Vec<Complex<f64>> = out_pos.iter().map(|&p| y[p].to_c64()).collect();
    rows.push(row("layout, out of place", relative_l2(&got, &want), bound));
    let gaps_kept = y
        .iter()
        .zip(&inside)
        .all(|(v, &inn)| inn || v.to_c64().re.is_nan());
    let input_kept =
        bytemuck::cast_slice::<T, u8>(&gpu.download(&input)?) == bytemuck::cast_slice::<T, u8>(&x);
    let untouched = if gaps_kept && input_kept {
        0.0
    } else {
        f64::INFINITY
    };
    rows.push(row("layout, gaps and input untouched", untouched, 0.0));
    if c.layout.input == c.layout.output {
        let mut data = gpu.upload(&x)?;
        plan.execute_in_place(Direction::Forward, &mut data)?;
        let y = gpu.download(&data)?;
        let got: Vec<Complex<f64>> = out_pos.iter().map(|&p| y[p].to_c64()).collect();
        rows.push(row("layout, in place", relative_l2(&got, &want), bound));
        // In place, the caller's values between the layout's elements stay as they were.
        let gaps_kept = y
            .iter()
            .zip(&x)
            .zip(&inside)
            .all(|((a, b), &inn)| inn || bytemuck::bytes_of(a) == bytemuck::bytes_of(b));
        rows.push(row(
            "layout, in place, gaps untouched",
            if gaps_kept { 0.0 } else { f64::INFINITY },
            0.0,
        ));
    }
    Ok(rows)
}

/// The rows of every layout case in f16, bf16, f32 and f64 (an error becomes a failing row).
pub fn rows(gpu: &Gpu, seed: u64) -> Vec<CheckRow> {
    let mut out = Vec::new();
    for (i, c) in cases().iter().enumerate() {
        for p in [
            Precision::F16,
            Precision::BF16,
            Precision::F32,
            Precision::F64,
        ] {
            let s = seed.wrapping_add(1000 + i as u64);
            let r = match p {
                Precision::F16 => check_one::<Complex<f16>>(gpu, c, s),
                Precision::BF16 => check_one::<Complex<half::bf16>>(gpu, c, s),
                Precision::F64 => check_one::<Complex<f64>>(gpu, c, s),
                _ => check_one::<Complex<f32>>(gpu, c, s),
            };
            match r {
                Ok(mut rows) => out.append(&mut rows),
                Err(e) => out.push(CheckRow::new(
                    p,
                    &c.dims,
                    c.batch,
                    "layout error",
                    f64::INFINITY,
                    0.0,
                    format!("{}: {e}", c.name),
                )),
            }
        }
    }
    out
}
