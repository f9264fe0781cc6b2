//! Polynomial products on the GPU: cyclic (mod X^N − 1) and negacyclic (mod X^N + 1) products of
//! random polynomials in three RNS limbs, by forward NTTs on the GPU (natural → bit-reversed,
//! so no permutation runs), pointwise products (here on the host), and the inverse NTT on the GPU
//! (bit-reversed → natural, scaled by N⁻¹); compared with the schoolbook product modulo each
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
        // Two polynomials per limb: transforms 0..3 are a, 3..6 are b.
        let batch = NttBatch::limbs(&moduli, n, kind)?
            .with_orders(Order::Natural, Order::BitReversed)
            .batch(2);
        let plan = gpu.plan_ntt::<u32>(&batch)?;
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let x: Vec<u32> = (0..batch.len())
            .map(|i| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s % moduli[(i / n) % moduli.len()]) as u32
            })
            .collect();
        let mut d = gpu.upload(&x)?;
        plan.forward(&mut d)?;
        let f = gpu.download(&d)?;
        // Pointwise a·b per limb into the first half; the second half is unused.
        let limbs = moduli.len();
        let mut prod = vec![0u32; batch.len()];
        for l in 0..limbs {
            let m = Modulus::new(moduli[l])?;
            for k in 0..n {
                let (a, b) = (f[l * n + k], f[(limbs + l) * n + k]);
                prod[l * n + k] = m.mul(a as u64, b as u64) as u32;
            }
        }
        gpu.upload_into(&prod, &mut d)?;
        plan.inverse(&mut d)?;
        let c = gpu.download(&d)?;
        let mut wrong = 0;
        for l in 0..limbs {
            let m = Modulus::new(moduli[l])?;
            let a: Vec<u64> = x[l * n..(l + 1) * n].iter().map(|&v| v as u64).collect();
            let b: Vec<u64> = x[(limbs + l) * n..(limbs + l + 1) * n]
                .iter()
                .map(|&v| v as u64)
                .collect();
            let want = schoolbook(m, &a, &b, kind);
            wrong += want
                .iter()
                .zip(&c[l * n..(l + 1) * n])
                .filter(|&(&w, &g)| w != g as u64)
                .count();
        }
        println!(
            "{kind:?} products of degree < {n} in {limbs} limbs on {}: {}",
            gpu.info().name,
            if wrong == 0 {
                "equal to the schoolbook product".to_string()
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
