//! The Goldilocks sums, differences and products of `kernels/cuda/ntt_arithmetic.cuh`, step for
//! step on 32-bit halves with explicit carries (as the PTX `add.cc` / `addc` / `subc` /
//! `mad.wide` sequences compute them), against `u128` arithmetic modulo p. The GPU kernels are
//! checked bit for bit by `tfft ntt check` on the device; this keeps the derivations of both
//! variants (`Goldilocks` and `GoldilocksWide`) checked in CI, with no GPU.

use proptest::prelude::*;

const P: u64 = 0xFFFF_FFFF_0000_0001;
const EPSILON: u64 = 0xFFFF_FFFF;

/// `add.cc` / `addc` on 32-bit words: (sum, carry out).
fn addc(a: u32, b: u32, carry: u32) -> (u32, u32) {
    let s = a as u64 + b as u64 + carry as u64;
    (s as u32, (s >> 32) as u32)
}

/// `sub.cc` / `subc` on 32-bit words: (difference, borrow out).
fn subc(a: u32, b: u32, borrow: u32) -> (u32, u32) {
    let d = a as i64 - b as i64 - borrow as i64;
    (d as u32, u32::from(d < 0))
}

fn join(lo: u32, hi: u32) -> u64 {
    ((hi as u64) << 32) | lo as u64
}

fn halves(x: u64) -> (u32, u32) {
    (x as u32, (x >> 32) as u32)
}

/// `Goldilocks::canonical`: s + EPSILON when the earlier sum carried or when adding EPSILON
/// carries (s >= p), else s.
fn canonical(s0: u32, s1: u32, c: u32) -> u64 {
    let (u0, k) = addc(s0, 0xFFFF_FFFF, 0);
    let (u1, k) = addc(s1, 0, k);
    let (over, _) = addc(c, 0, k);
    if over != 0 {
        join(u0, u1)
    } else {
        join(s0, s1)
    }
}

/// `GoldilocksWide::canonical_by_mad`: the same, adding over * 0xFFFFFFFF.
fn canonical_by_mad(s0: u32, s1: u32, c: u32) -> u64 {
    let (_, k) = addc(s0, 0xFFFF_FFFF, 0);
    let (_, k) = addc(s1, 0, k);
    let (over, _) = addc(c, 0, k);
    let m = over as u64 * 0xFFFF_FFFF + s0 as u64; // mad.lo.cc
    let (r1, _) = addc(s1, 0, (m >> 32) as u32);
    join(m as u32, r1)
}

fn add(a: u64, b: u64, by_mad: bool) -> u64 {
    let ((a0, a1), (b0, b1)) = (halves(a), halves(b));
    let (s0, k) = addc(a0, b0, 0);
    let (s1, k) = addc(a1, b1, k);
    if by_mad {
        canonical_by_mad(s0, s1, k)
    } else {
        canonical(s0, s1, k)
    }
}

fn sub(a: u64, b: u64) -> u64 {
    let ((a0, a1), (b0, b1)) = (halves(a), halves(b));
    let (d0, k) = subc(a0, b0, 0);
    let (d1, k) = subc(a1, b1, k);
    let (m, _) = subc(0, 0, k);
    let (d0, k) = subc(d0, m, 0);
    let (d1, _) = subc(d1, 0, k);
    join(d0, d1)
}

/// `Goldilocks::mul`: the product reduced by `reduce`.
fn mul(a: u64, w: u64) -> u64 {
    reduce(a as u128 * w as u128)
}

/// `Goldilocks::reduce` of a 128-bit number x: E = lo - x3 (minus EPSILON on a borrow),
/// B = x2 EPSILON, E + B canonical.
fn reduce(x: u128) -> u64 {
    let (x0, x1) = halves(x as u64);
    let (x2, x3) = halves((x >> 64) as u64);
    let (e0, k) = subc(x0, x3, 0);
    let (e1, k) = subc(x1, 0, k);
    let (m, _) = subc(0, 0, k);
    let (e0, k) = subc(e0, m, 0);
    let (e1, _) = subc(e1, 0, k);
    let (b0, k) = subc(0, x2, 0);
    let (b1, _) = subc(x2, 0, k);
    let (r0, k) = addc(e0, b0, 0);
    let (r1, k) = addc(e1, b1, k);
    let (c, _) = addc(0, 0, k);
    canonical(r0, r1, c)
}

/// `GoldilocksWide::mul`: the product reduced by `reduce_wide`.
fn mul_wide(a: u64, w: u64) -> u64 {
    reduce_wide(a as u128 * w as u128)
}

/// `GoldilocksWide::reduce` of a 128-bit number x: S = lo + x2 EPSILON + (EPSILON - x3) (one
/// wide multiply-add), then S on a carry, else S - EPSILON, minus EPSILON once more on a borrow.
fn reduce_wide(x: u128) -> u64 {
    let (l0, l1) = halves(x as u64);
    let (x2, x3) = halves((x >> 64) as u64);
    let v = x2 as u64 * 0xFFFF_FFFF + (!x3) as u64; // mad.wide.u32, below 2^64
    let (v0, v1) = halves(v);
    let (s0, k) = addc(l0, v0, 0);
    let (s1, k) = addc(l1, v1, k);
    let (c, _) = addc(0, 0, k);
    let m = c.wrapping_sub(1);
    let (s0, k) = subc(s0, m, 0);
    let (s1, k) = subc(s1, 0, k);
    let (m, _) = subc(0, 0, k);
    let (r0, k) = subc(s0, m, 0);
    let (r1, _) = subc(s1, 0, k);
    join(r0, r1)
}

fn reference(a: u64, b: u64) -> (u64, u64, u64) {
    let (a, b, p) = (a as u128, b as u128, P as u128);
    (
        ((a + b) % p) as u64,
        ((a + p - b) % p) as u64,
        (a * b % p) as u64,
    )
}

fn check(a: u64, b: u64) {
    let (s, d, m) = reference(a, b);
    assert_eq!(add(a, b, false), s, "add {a:#x} {b:#x}");
    assert_eq!(add(a, b, true), s, "add by mad {a:#x} {b:#x}");
    assert_eq!(sub(a, b), d, "sub {a:#x} {b:#x}");
    assert_eq!(mul(a, b), m, "mul {a:#x} {b:#x}");
    assert_eq!(mul_wide(a, b), m, "wide mul {a:#x} {b:#x}");
}

/// Values at the edges of the carries and borrows: 0, 1, p − 1, 2^32 ± 1, 2^63, …
const EDGES: [u64; 14] = [
    0,
    1,
    2,
    P - 1,
    P - 2,
    EPSILON,
    EPSILON + 1,
    1 << 32,
    3 << 32,
    1 << 63,
    (1 << 63) - 1,
    P - EPSILON,
    P / 2,
    P / 2 + 1,
];

#[test]
fn edge_values() {
    for &a in &EDGES {
        for &b in &EDGES {
            check(a, b);
        }
    }
    // Small products (x2 = x3 = 0).
    for a in 0..2000u64 {
        for b in [0, 1, 2, 3, EPSILON, EPSILON + 1, 1 << 32] {
            check(a, b);
        }
    }
}

/// Products u v 2^96 (a = u 2^48, b = v 2^48): lo = x2 = 0 and x3 = u v, so `mul`'s E borrows
/// and `mul_wide`'s S − EPSILON borrows — the paths random pairs reach with probability 2^-64.
#[test]
fn borrowing_products() {
    for u in (1..1u64 << 16).step_by(97) {
        for v in (1..1u64 << 16).step_by(89) {
            check(u << 48, v << 48);
        }
    }
}

proptest! {
    #[test]
    fn random_pairs(a in 0..P, b in 0..P) {
        check(a, b);
    }
}

/// `mul_pow2` (`ntt_arithmetic.cuh`): x 2^e for 0 < e < 64 as the 128-bit number
/// `(x >> (64 - e)) 2^64 + (x << e)`, reduced by either variant's `reduce`.
fn mul_pow2(x: u64, e: u32, wide: bool) -> u64 {
    let n = (((x >> (64 - e)) as u128) << 64) | (x << e) as u128;
    if wide {
        reduce_wide(n)
    } else {
        reduce(n)
    }
}

/// x 2^c mod p by u128 arithmetic.
fn pow2_reference(x: u64, c: u32) -> u64 {
    let mut r = x as u128 % P as u128;
    for _ in 0..c {
        r = (r << 1) % P as u128;
    }
    r as u64
}

/// The roots the NTT kernels take as shifts: 2^c for c mod 96 below 64, the rest of the 64th
/// roots (2^96 = -1) by negating (the butterflies swap their sum and difference), as
/// `ntt_pass.cuh`'s `stages` and `stages_in_time` do.
#[test]
fn power_of_two_roots() {
    assert_eq!(pow2_reference(1, 96), P - 1, "2^96 = -1");
    assert_eq!(pow2_reference(8, 63 * 3), 1, "8 is a 64th root of unity");
    for c in 0..192u32 {
        let e = c % 96;
        if e >= 64 {
            continue;
        }
        for &x in &EDGES {
            let want = pow2_reference(x, c);
            for wide in [false, true] {
                let y = if e == 0 { x } else { mul_pow2(x, e, wide) };
                let got = if c >= 96 { sub(0, y) } else { y };
                assert_eq!(got, want, "x {x:#x} c {c} wide {wide}");
            }
        }
    }
}

proptest! {
    #[test]
    fn random_power_of_two_products(x in 0..P, e in 1u32..64) {
        let want = pow2_reference(x, e);
        prop_assert_eq!(mul_pow2(x, e, false), want);
        prop_assert_eq!(mul_pow2(x, e, true), want);
    }
}
