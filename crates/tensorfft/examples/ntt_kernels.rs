//! Writes the NTT pass kernels of a plan as `.cu` files and, where NVRTC loads, `.cubin` files
//! (for SASS inspection), and prints the
//! schedule and each kernel's registers and spills (the last: passes 0 and 1 fused on a cluster,
//! where the planner fuses them; then the inverse's first pass, and the first kernels of both
//! directions with a factor on their inputs, `execute_product_into`'s): `cargo run --example ntt_kernels -- DIR LOG_N [u32|u32f|u64|goldilocks] [NR|NN|RN|RR]`
//! (u32: BabyBear; u32f: 3·2^30 + 1, above 2^31; u64: the 62-bit FHE prime).

use tensorfft::gpu::nvrtc::{compile_cubin, resource_report};
use tensorfft::kernels::ntt_source::NttKernelSource;
use tensorfft::ntt::{plan_ntt_schedule, NttBatch, NttKind, Order, BABY_BEAR, FHE_62, GOLDILOCKS};
use tensorfft::Direction;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| "/tmp/ntt_kernels".into());
    let log_n: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let (p, word) = match args.get(3).map(String::as_str) {
        Some("u64") => (FHE_62, 8),
        Some("goldilocks") => (GOLDILOCKS, 8),
        Some("u32f") => (tensorfft::ntt::PRIME_32, 4),
        _ => (BABY_BEAR, 4),
    };
    let order = |c: u8| {
        if c == b'N' {
            Order::Natural
        } else {
            Order::BitReversed
        }
    };
    let o = args
        .get(4)
        .map(|s| s.as_bytes().to_vec())
        .unwrap_or(b"NR".to_vec());
    let batch = NttBatch::limbs(&[p], 1 << log_n, NttKind::Cyclic)
        .expect("modulus")
        .with_orders(order(o[0]), order(o[1]))
        .batch(((1usize << 26) >> log_n).max(1));
    let s = plan_ntt_schedule(&batch, word, Direction::Forward).expect("plan");
    println!("{s}");
    std::fs::create_dir_all(&dir).expect("mkdir");
    // And the kernel of the two passes fused on a cluster, where the planner fuses them.
    let fused = tensorfft::ntt::cluster_fusion::planned_fusion(&s);
    if let Some(f) = &fused {
        println!("{f}");
    }
    let inverse = plan_ntt_schedule(&batch, word, Direction::Inverse).expect("plan");
    let product = tensorfft::ntt::pointwise::limb_products(&batch, word).expect("limbs")[0];
    let kernels = (0..s.passes.len())
        .map(|i| NttKernelSource::pass(&s, i))
        .chain(fused.iter().map(NttKernelSource::fused))
        .chain([
            NttKernelSource::pass(&inverse, 0),
            NttKernelSource::first_times_factor(&s, product),
            NttKernelSource::first_times_factor(&inverse, product),
        ]);
    for (i, k) in kernels.enumerate() {
        std::fs::write(format!("{dir}/pass{i}.cu"), &k.source).expect("write");
        // With NVRTC on the library path, the CUBIN too (for `cuobjdump -sass`).
        match compile_cubin(&k.source, &format!("pass{i}"), "sm_90") {
            Ok(cubin) => std::fs::write(format!("{dir}/pass{i}.cubin"), cubin).expect("write"),
            Err(e) => eprintln!("pass {i}: no CUBIN ({e})"),
        }
        // And the assembler's registers, spills and stack.
        if let Ok(report) = resource_report(&k.source, &format!("pass{i}"), "sm_90") {
            println!("pass {i} {}: {}", k.entry, report.trim());
        }
    }
}
