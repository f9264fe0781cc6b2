//! Polynomial products on the GPU: cyclic (mod X^N − 1) and negacyclic (mod X^N + 1) products of
//! random polynomials in three RNS limbs, by forward NTTs on the GPU (natural → bit-reversed,
//! so no permutation runs), pointwise products on the GPU, and the inverse NTT on the GPU
//! (bit-reversed → natural, scaled by N⁻¹) — and again with the product fused into the inverse's
//! first kernel (`execute_product_into`); both compared with the schoolbook product modulo each
//! limb's prime. `cargo run --release --example ntt_polymul [LOG_N]` (default 10).

use tensorfft::ntt::{ntt_friendly_primes, Modulus, NttBatch, NttKind, Order};
use tensorfft::Gpu;

fn schoolbook(m: Modulus, a: &[u64], b: &[u64], kind: NttKind) -> Vec<u64> {
    let n = a.len();
    let mut out = vec![0u64; n];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            let term = m.mul(x, y);
            let k = (i + j) % n;
            out[k] = if i + j >= n && kind == NttKind::Negacyclic {
                m.sub(out[k], term)
            } else {
                m.add(out[k], term)
            };
        }
    }
    out
}

fn main() -> tensorfft::Result<()> {
    let log_n: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let n = 1usize << log_n;
    let gpu = Gpu::new(0)?;
    let moduli = ntt_friendly_primes(30, n, 3)?;
    for kind in [NttKind::Cyclic, NttKind::Negacyclic] {
        // One polynomial per limb in each buffer: a and b.
        let batch =
            NttBatch::limbs(&moduli, n, kind)?.with_orders(Order::Natural, Order::BitReversed);
        let plan = gpu.plan_ntt::<u32>(&batch)?;
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut random = || -> Vec<u32> {
            (0..batch.len())
                .map(|i| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    (s % moduli[i / n]) as u32
                })
                .collect()
        };
        let (xa, xb) = (random(), random());
        let (mut a, mut b) = (gpu.upload(&xa)?, gpu.upload(&xb)?);
        plan.forward(&mut a)?;
        plan.forward(&mut b)?;
        // Both spectra in bit-reversed order, multiplied where they lie: as the inverse reads
        // them, then by a product and an inverse.
        let mut fused = gpu.alloc::<u32>(a.len())?;
        plan.execute_product_into(tensorfft::Direction::Inverse, &a, &b, &mut fused)?;
        plan.pointwise_mul_assign(&mut a, &b)?;
        plan.inverse(&mut a)?;
        let c = gpu.download(&a)?;
        let fused = gpu.download(&fused)?;
        let limbs = moduli.len();
        let mut wrong = 0;
        for l in 0..limbs {
            let m = Modulus::new(moduli[l])?;
            let a: Vec<u64> = xa[l * n..(l + 1) * n].iter().map(|&v| v as u64).collect();
            let b: Vec<u64> = xb[l * n..(l + 1) * n].iter().map(|&v| v as u64).collect();
            let want = schoolbook(m, &a, &b, kind);
            for got in [&c, &fused] {
                wrong += want
                    .iter()
                    .zip(&got[l * n..(l + 1) * n])
                    .filter(|&(&w, &g)| w != g as u64)
                    .count();
            }
        }
        println!(
            "{kind:?} products of degree < {n} in {limbs} limbs on {}: {}",
            gpu.info().name,
            if wrong == 0 {
                "equal to the schoolbook product (product then inverse, and fused)".to_string()
            } else {
                format!("{wrong} coefficients differ")
            }
        );
        if wrong != 0 {
            std::process::exit(1);
        }
    }
    Ok(())
}
