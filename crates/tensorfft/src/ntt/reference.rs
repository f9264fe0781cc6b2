//! CPU NTTs: the O(N²) definition (the oracle every other transform is compared with, exactly)
//! and an O(N log N) radix-2 transform for the sizes the definition cannot reach.

use super::spec::NttSpec;
use crate::error::Result;
use crate::plan::Direction;

/// The transform of every `N`-value block of `data` by its definition: forward
/// `X_k = Σ_j x_j (gψ)^j ω^{jk}` (ψ = 1 when cyclic, g the coset's generator, 1 without one),
/// inverse `x_j = s (gψ)^{−j} Σ_k X_k ω^{−jk}` (`s = N⁻¹` when the spec scales), in the spec's
/// orders. O(N²) per transform.
///
/// ```
/// use tensorfft::ntt::{naive_ntt, NttKind, NttSpec};
/// use tensorfft::Direction;
/// let s = NttSpec::new(17, 4, NttKind::Cyclic).unwrap();
/// let y = naive_ntt(&s, Direction::Forward, &[1, 0, 0, 0]).unwrap();
/// assert_eq!(y, vec![1, 1, 1, 1]);
/// assert_eq!(naive_ntt(&s, Direction::Inverse, &y).unwrap(), vec![1, 0, 0, 0]);
/// ```
pub fn naive_ntt(spec: &NttSpec, dir: Direction, data: &[u64]) -> Result<Vec<u64>> {
    transform_all(spec, dir, data, |m, w, x| {
        let n = x.len();
        let mut y = vec![0u64; n];
        for (k, yk) in y.iter_mut().enumerate() {
            let step = m.pow(w, k as u64);
            let mut wk = 1u64;
            let mut acc = 0u64;
            for &xj in x.iter() {
                acc = m.add(acc, m.mul(xj, wk));
                wk = m.mul(wk, step);
            }
            *yk = acc;
        }
        x.copy_from_slice(&y);
    })
}

/// The same transforms as [`naive_ntt`], bit for bit, in O(N log N): an iterative radix-2
/// Cooley–Tukey transform after a bit-reversal permutation, each stage's butterflies on every
/// core (up to 16 threads) from 2^14 points.
///
/// ```
/// use tensorfft::ntt::{fast_ntt, naive_ntt, NttKind, NttSpec, BABY_BEAR};
/// use tensorfft::Direction;
/// let s = NttSpec::new(BABY_BEAR, 64, NttKind::Negacyclic).unwrap();
/// let x: Vec<u64> = (0..128).map(|i| (i * 7919) % BABY_BEAR).collect();
/// assert_eq!(fast_ntt(&s, Direction::Forward, &x).unwrap(), naive_ntt(&s, Direction::Forward, &x).unwrap());
/// ```
pub fn fast_ntt(spec: &NttSpec, dir: Direction, data: &[u64]) -> Result<Vec<u64>> {
    transform_all(spec, dir, data, |m, w, x| {
        let n = x.len();
        let bits = n.trailing_zeros();
        for i in 0..n {
            let j = i.reverse_bits() >> (usize::BITS - bits);
            if i < j {
                x.swap(i, j);
            }
        }
        let threads = if n >= PARALLEL_FROM {
            std::thread::available_parallelism().map_or(1, |t| t.get().min(16))
        } else {
            1
        };
        let mut len = 2;
        while len <= n {
            // The stage's twiddles w_len^j, j < len / 2, by repeated products as before.
            let wl = m.pow(w, (n / len) as u64);
            let mut tw = Vec::with_capacity(len / 2);
            let mut wj = 1u64;
            for _ in 0..len / 2 {
                tw.push(wj);
                wj = m.mul(wj, wl);
            }
            stage(m, x, len, &tw, threads);
            len *= 2;
        }
    })
}

/// Transforms of at least this many points run their stages on several threads.
const PARALLEL_FROM: usize = 1 << 14;

/// One radix-2 stage of [`fast_ntt`] on `threads` threads: the butterflies of blocks of `len`
/// with twiddles `tw`, split into pieces of whole blocks, or of parts of one block's halves
/// where blocks are few.
fn stage(m: &super::Modulus, x: &mut [u64], len: usize, tw: &[u64], threads: usize) {
    let half = len / 2;
    let butterflies = |lo: &mut [u64], hi: &mut [u64], tw: &[u64]| {
        for ((a, b), &w) in lo.iter_mut().zip(hi.iter_mut()).zip(tw) {
            let t = m.mul(*b, w);
            let u = *a;
            *a = m.add(u, t);
            *b = m.sub(u, t);
        }
    };
    let blocks = |chunk: &mut [u64]| {
        for block in chunk.chunks_exact_mut(len) {
            let (lo, hi) = block.split_at_mut(half);
            butterflies(lo, hi, tw);
        }
    };
    if threads <= 1 {
        blocks(x);
        return;
    }
    let n = x.len();
    let per_thread = (n / 2).div_ceil(threads);
    std::thread::scope(|s| {
        if half <= per_thread {
            // Whole blocks per thread.
            let chunk = per_thread.div_ceil(half) * len;
            for c in x.chunks_mut(chunk) {
                s.spawn(move || blocks(c));
            }
        } else {
            // Few blocks: each block's halves in pieces.
            for block in x.chunks_exact_mut(len) {
                let (lo, hi) = block.split_at_mut(half);
                for ((l, h), t) in lo
                    .chunks_mut(per_thread)
                    .zip(hi.chunks_mut(per_thread))
                    .zip(tw.chunks(per_thread))
                {
                    s.spawn(move || butterflies(l, h, t));
                }
            }
        }
    });
}

/// Applies `dft(modulus, root, values)` (a natural-order cyclic DFT with `root`, in place) to
/// every transform of `data`, with the orders, the twist `(gψ)^j` (negacyclic, coset) and the
/// scaling around it.
fn transform_all(
    spec: &NttSpec,
    dir: Direction,
    data: &[u64],
    dft: impl Fn(&super::Modulus, u64, &mut [u64]),
) -> Result<Vec<u64>> {
    spec.validate(data)?;
    let m = spec.modulus();
    let n = spec.n();
    let (input_order, output_order) = spec.orders();
    // Forward reads the input order and writes the output order; the inverse the other way.
    let (from, to) = match dir {
        Direction::Forward => (input_order, output_order),
        Direction::Inverse => (output_order, input_order),
    };
    let w = spec.root(dir);
    // The negacyclic twist ψ^j times the coset's g^j (either may be 1).
    let twisted = spec.twist() != 1;
    let psi = match dir {
        Direction::Forward => spec.twist(),
        Direction::Inverse => m.inv(spec.twist()).unwrap_or(1),
    };
    let scale = match dir {
        Direction::Inverse if spec.scales_inverse() => m.inv(n as u64 % m.value()).unwrap_or(1),
        _ => 1,
    };
    let mut out = vec![0u64; data.len()];
    let mut x = vec![0u64; n];
    for (src, dst) in data.chunks_exact(n).zip(out.chunks_exact_mut(n)) {
        for (j, xj) in x.iter_mut().enumerate() {
            *xj = src[from.index(j, n)];
        }
        if twisted && dir == Direction::Forward {
            twist(m, psi, &mut x);
        }
        dft(&m, w, &mut x);
        if twisted && dir == Direction::Inverse {
            twist(m, psi, &mut x);
        }
        for (k, &xk) in x.iter().enumerate() {
            dst[to.index(k, n)] = m.mul(xk, scale);
        }
    }
    Ok(out)
}

/// `x_j ← x_j ψ^j`.
fn twist(m: super::Modulus, psi: u64, x: &mut [u64]) {
    let mut pj = 1u64;
    for xj in x.iter_mut() {
        *xj = m.mul(*xj, pj);
        pj = m.mul(pj, psi);
    }
}
