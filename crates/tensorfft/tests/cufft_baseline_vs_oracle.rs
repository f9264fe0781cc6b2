//! The cuFFT baseline of rank 1, 2 and 3 in every precision against the n-D f64 oracle, and the
//! ranged device copies the check's large batches use. Needs a GPU and libcufft; without them
//! every test says so and passes (the CPU side of the oracle is tested in `cpu::oracle`).

mod common;
use common::random;

use half::f16;
use num_complex::Complex;
use tensorfft::cpu::oracle::{oracle_c2c_nd, relative_l2};
use tensorfft::gpu::cufft_baseline::CufftPlan;
use tensorfft::gpu::libraries::cufft_present;
use tensorfft::{Direction, Element, Error, Gpu, Normalization, Precision};

fn gpu() -> Option<Gpu> {
    match Gpu::new(0) {
        Ok(gpu) if cufft_present() => Some(gpu),
        Ok(_) => {
            eprintln!("libcufft not found: cuFFT baseline tests skipped");
            None
        }
        Err(e) => {
            eprintln!("no GPU ({e}): cuFFT baseline tests skipped");
            None
        }
    }
}

fn check_shape<T: Element>(gpu: &Gpu, dims: &[usize], batch: usize, bound: f64) {
    let n: usize = dims.iter().product();
    let x: Vec<T> = random(n * batch);
    let plan = CufftPlan::new(gpu, dims, batch, T::PRECISION).unwrap();
    assert_eq!(plan.len(), n * batch);
    let input = gpu.upload(&x).unwrap();
    let mut out = gpu.alloc::<T>(x.len()).unwrap();
    for dir in [Direction::Forward, Direction::Inverse] {
        gpu.poison(&mut out).unwrap();
        plan.execute(dir, &input, &mut out).unwrap();
        let y = gpu.download(&out).unwrap();
        for b in 0..batch {
            let t = |v: &[T]| -> Vec<Complex<f64>> {
                v[b * n..(b + 1) * n].iter().map(|e| e.to_c64()).collect()
            };
            let want = oracle_c2c_nd(&t(&x), dims, dir, Normalization::None);
            let err = relative_l2(&t(&y), &want);
            assert!(
                err < bound,
                "cuFFT {:?} {dims:?} batch {b} of {batch} {dir:?}: {err:e}",
                T::PRECISION
            );
        }
    }
}

#[test]
fn cufft_rank_1_2_3_matches_the_oracle() {
    let Some(gpu) = gpu() else { return };
    for dims in [
        vec![256],
        vec![8, 16],
        vec![64, 4],
        vec![4, 8, 16],
        vec![2, 32, 2],
    ] {
        check_shape::<Complex<f64>>(&gpu, &dims, 3, 1e-13);
        check_shape::<Complex<f32>>(&gpu, &dims, 3, 1e-5);
        check_shape::<Complex<f16>>(&gpu, &dims, 3, 1e-2);
    }
}

#[test]
fn cufft_refuses_bad_ranks_and_buffers_without_panicking() {
    let Some(gpu) = gpu() else { return };
    assert!(matches!(
        CufftPlan::new(&gpu, &[], 1, Precision::F32),
        Err(Error::Unsupported { .. })
    ));
    assert!(CufftPlan::new(&gpu, &[2, 2, 2, 2], 1, Precision::F32).is_err());
    assert!(CufftPlan::new(&gpu, &[16], 0, Precision::F32).is_err());
    let plan = CufftPlan::new(&gpu, &[4, 4], 2, Precision::F32).unwrap();
    let x = gpu.alloc::<Complex<f32>>(16).unwrap();
    let mut y = gpu.alloc::<Complex<f32>>(16).unwrap();
    assert!(matches!(
        plan.execute(Direction::Forward, &x, &mut y),
        Err(Error::LengthMismatch { .. })
    ));
}

#[test]
fn ranged_uploads_and_downloads_address_the_right_elements() {
    let Some(gpu) = gpu() else { return };
    let block: Vec<Complex<f32>> = (0..5).map(|i| Complex::new(i as f32, -1.0)).collect();
    let mut buf = gpu.alloc::<Complex<f32>>(12).unwrap();
    gpu.poison(&mut buf).unwrap();
    for offset in (0..12).step_by(5) {
        let take = 5.min(12 - offset);
        gpu.upload_at(&block[..take], &mut buf, offset).unwrap();
    }
    let all = gpu.download(&buf).unwrap();
    assert!(all.iter().enumerate().all(|(i, v)| v.re == (i % 5) as f32));
    assert_eq!(gpu.download_range(&buf, 7, 3).unwrap(), all[7..10]);
    assert!(gpu.upload_at(&block, &mut buf, 8).is_err());
    assert!(gpu.download_range(&buf, 11, 2).is_err());
    let (free, total) = gpu.memory_info().unwrap();
    assert!(free > 0 && free <= total);
}
