// Modular arithmetic of the NTT kernels. Every policy keeps values fully reduced in [0, p) and
// multiplies by table constants that come with a precomputed companion (ntt/tables.rs):
//  - Shoup32: u32 words, p < 2^31. w' = floor(w 2^32 / p); q = hi(a w'), r = a w - q p lies in
//    [0, 2p) and 2p < 2^32, so the wrapped 32-bit arithmetic is exact; one conditional subtract.
//  - Shoup64: the same with u64 words, p < 2^63.
//  - Shoup32Full: u32 words, 2^31 < p < 2^32, where 2p no longer fits a word: a sum may carry out
//    of 32 bits (tested as s < a), and the product's remainder r in [0, 2p) is formed in 64 bits.
//  - Goldilocks: p = 2^64 - 2^32 + 1, products reduced with 2^64 = 2^32 - 1 and 2^96 = -1 (mod p);
//    no companion.
// Where 2p fits the word, a difference enters a product unreduced (difference_times below).
// Shoup's additions use the unsigned-minimum trick (Shoup32Full compares instead, its sums may carry): for s = a + b < 2p, min(s, s - p) is s - p when s >= p
// (else s - p wraps above s); for d = a - b (wrapping when a < b), min(d, d + p).
#pragma once

typedef unsigned int u32;
typedef unsigned long long u64;

template <class T>
__device__ __forceinline__ T umin(T a, T b) { return a < b ? a : b; }

__device__ __forceinline__ u32 mul_hi(u32 a, u32 b) { return __umulhi(a, b); }
__device__ __forceinline__ u64 mul_hi(u64 a, u64 b) { return __umul64hi(a, b); }

// Shoup arithmetic in words W (u32: p < 2^31, u64: p < 2^63).
template <class W>
struct Shoup {
    typedef W Word;
    // A product's remainder stays in [0, 2p) for any multiplicand below 2^bits, and 2p fits the
    // word: a difference may go into a product unreduced (difference_times).
    static constexpr bool LAZY_DIFFERENCE = true;
    static constexpr bool POW2_ROOTS = false;  // no shift products: they rest on Goldilocks' reduction
    Word p;
    __device__ __forceinline__ Word add(Word a, Word b) const {
        Word s = a + b;
        return umin(s, s - p);
    }
    __device__ __forceinline__ Word sub(Word a, Word b) const {
        Word d = a - b;
        return umin(d, d + p);
    }
    // a * w mod p for a table constant w with companion ws = floor(w 2^bits / p).
    __device__ __forceinline__ Word mul(Word a, Word w, Word ws) const {
        Word q = mul_hi(a, ws);
        Word r = a * w - q * p;
        return umin(r, r - p);
    }
};
typedef Shoup<u32> Shoup32;
typedef Shoup<u64> Shoup64;

// u32 words for primes between 2^31 and 2^32 (see the top of this file).
struct Shoup32Full {
    typedef u32 Word;
    static constexpr bool LAZY_DIFFERENCE = false;  // x - y + p may pass 2^32
    static constexpr bool POW2_ROOTS = false;
    Word p;
    __device__ __forceinline__ Word add(Word a, Word b) const {
        const Word s = a + b;  // a + b < 2p < 2^33: the true sum is s, or s + 2^32 when s < a
        return (s < a || s >= p) ? s - p : s;
    }
    __device__ __forceinline__ Word sub(Word a, Word b) const {
        const Word d = a - b;
        return a < b ? d + p : d;
    }
    __device__ __forceinline__ Word mul(Word a, Word w, Word ws) const {
        const u32 q = __umulhi(a, ws);
        const u64 r = (u64)a * w - (u64)q * p;  // in [0, 2p)
        return (Word)(r >= p ? r - p : r);
    }
};

// Goldilocks in 32-bit halves with the carry chain (add.cc / addc / subc), so every carry and
// borrow folds in as an add or subtract of its all-ones mask instead of a 64-bit compare and
// select (2^64 = EPSILON and 2^96 = -1 mod p). These kernels are bound by the ALU pipe (half
// rate): a butterfly (add, sub, product) takes 27 ALU and 11 multiply-add instructions in SASS,
// against 41 and 11 for the same arithmetic written with 64-bit compares and selects.
struct Goldilocks {
    typedef u64 Word;
    static constexpr bool LAZY_DIFFERENCE = false;  // the product wants inputs below p
    // The 64th roots of unity are the powers of 8 (2 has order 192: 2^96 = -1), so a product
    // by one of them is a product by 2^c: mul_pow2.
    static constexpr bool POW2_ROOTS = true;
    Word p;  // 0xFFFFFFFF00000001, kept for a uniform interface
    static constexpr u64 EPSILON = 0xFFFFFFFFull;  // 2^64 mod p

    static __device__ __forceinline__ u64 join(u32 lo, u32 hi) { return ((u64)hi << 32) | lo; }
    static __device__ __forceinline__ u32 low(u64 x) { return (u32)x; }
    static __device__ __forceinline__ u32 high(u64 x) { return (u32)(x >> 32); }

    // s (with carry c, 0 or 1, from an earlier sum) reduced into [0, p) given s + c 2^64 < 2p:
    // s + EPSILON when there was a carry (no wrap then) or when s >= p (the add wraps exactly
    // then, as p + EPSILON = 2^64), else s.
    static __device__ __forceinline__ u64 canonical(u32 s0, u32 s1, u32 c) {
        u32 u0, u1, over;
        asm("add.cc.u32 %0, %3, 0xFFFFFFFF;\n\t"
            "addc.cc.u32 %1, %4, 0;\n\t"
            "addc.u32 %2, %5, 0;"
            : "=&r"(u0), "=&r"(u1), "=&r"(over)
            : "r"(s0), "r"(s1), "r"(c));
        return over ? join(u0, u1) : join(s0, s1);
    }

    // a + b in 32-bit halves (s0, s1) and its carry c (0 or 1).
    static __device__ __forceinline__ void sum(Word a, Word b, u32& s0, u32& s1, u32& c) {
        asm("add.cc.u32 %0, %3, %5;\n\t"
            "addc.cc.u32 %1, %4, %6;\n\t"
            "addc.u32 %2, 0, 0;"
            : "=&r"(s0), "=&r"(s1), "=&r"(c)
            : "r"(low(a)), "r"(high(a)), "r"(low(b)), "r"(high(b)));
    }

    // a + b for a, b in [0, p).
    __device__ __forceinline__ Word add(Word a, Word b) const {
        u32 s0, s1, c;
        sum(a, b, s0, s1, c);
        return canonical(s0, s1, c);
    }

    // a - b for a, b in [0, p): on a borrow the wrapped difference plus p, which is the
    // difference minus EPSILON (mod 2^64) and cannot wrap again.
    __device__ __forceinline__ Word sub(Word a, Word b) const {
        u32 d0, d1, m;
        asm("sub.cc.u32 %0, %3, %5;\n\t"
            "subc.cc.u32 %1, %4, %6;\n\t"
            "subc.u32 %2, 0, 0;\n\t"
            "sub.cc.u32 %0, %0, %2;\n\t"
            "subc.u32 %1, %1, 0;"
            : "=&r"(d0), "=&r"(d1), "=&r"(m)
            : "r"(low(a)), "r"(high(a)), "r"(low(b)), "r"(high(b)));
        return join(d0, d1);
    }

    // a w for a, w in [0, p): the 128-bit product x3 2^96 + x2 2^64 + (x1 2^32 + x0) is
    // congruent to E + B with E = (x1 2^32 + x0) - x3 (plus p on a borrow: minus EPSILON, no
    // wrap as E >= 2^64 - 2^32 then) and B = x2 EPSILON = x2 2^32 - x2 < 2^64 - 2^33 + 2; their
    // sum is below 2p and is reduced as in add.
    __device__ __forceinline__ Word mul(Word a, Word w, Word) const { return reduce(a * w, __umul64hi(a, w)); }

    // The 128-bit number hi 2^64 + lo reduced into [0, p) (the product's reduction above, which
    // holds for any hi and lo, not only products of values below p: mul_pow2 relies on it).
    static __device__ __forceinline__ Word reduce(u64 lo, u64 hi) {
        u32 r0, r1, c;
        asm("{\n\t"
            ".reg .u32 e0, e1, m, b0, b1;\n\t"
            "sub.cc.u32 e0, %3, %6;\n\t"
            "subc.cc.u32 e1, %4, 0;\n\t"
            "subc.u32 m, 0, 0;\n\t"
            "sub.cc.u32 e0, e0, m;\n\t"
            "subc.u32 e1, e1, 0;\n\t"
            "sub.cc.u32 b0, 0, %5;\n\t"
            "subc.u32 b1, %5, 0;\n\t"
            "add.cc.u32 %0, e0, b0;\n\t"
            "addc.cc.u32 %1, e1, b1;\n\t"
            "addc.u32 %2, 0, 0;\n\t"
            "}"
            : "=&r"(r0), "=&r"(r1), "=&r"(c)
            : "r"(low(lo)), "r"(high(lo)), "r"(low(hi)), "r"(high(hi)));
        return canonical(r0, r1, c);
    }
};

// Goldilocks with part of the ALU work moved to the integer multiply-add pipe (also half rate,
// and a third busy in the kernels above): canonical sums add EPSILON as over * 0xFFFFFFFF and
// products reduce with one wide multiply-add, so a butterfly takes 19 ALU and 18 multiply-add
// instructions. It needs a few more registers: kernels that reach 64 registers with Goldilocks
// (direct column passes of 16 values per thread, rows of 8192) went to 68-74 and one
// 512-thread block per multiprocessor, and lost (H200, Goldilocks 2^24 0.565 -> 0.643 ms);
// the others gained (2^10 x 65536 0.862 -> 0.798 ms, the 2048-point row pass of 2^22 70 -> 63
// us; bench/NOTES.md step 40). The planner picks it per pass (ntt_source.rs).
struct GoldilocksWide : Goldilocks {
    // s (with carry c, 0 or 1, from an earlier sum) reduced into [0, p) given s + c 2^64 < 2p:
    // s + EPSILON when there was a carry (no wrap then) or when s >= p (the add wraps exactly
    // then, as p + EPSILON = 2^64), else s. Only the add's carry is formed; the EPSILON is then
    // added as over * 0xFFFFFFFF with a multiply-add (the integer multiply pipe, which has room
    // while the ALU pipe bounds these kernels) instead of two selects.
    static __device__ __forceinline__ u64 canonical_by_mad(u32 s0, u32 s1, u32 c) {
        u32 r0, r1, over;
        asm("{\n\t"
            ".reg .u32 t;\n\t"
            "add.cc.u32 t, %3, 0xFFFFFFFF;\n\t"
            "addc.cc.u32 t, %4, 0;\n\t"
            "addc.u32 %2, %5, 0;\n\t"
            "mad.lo.cc.u32 %0, %2, 0xFFFFFFFF, %3;\n\t"
            "addc.u32 %1, %4, 0;\n\t"
            "}"
            : "=&r"(r0), "=&r"(r1), "=&r"(over)
            : "r"(s0), "r"(s1), "r"(c));
        return join(r0, r1);
    }

    // a + b for a, b in [0, p).
    __device__ __forceinline__ Word add(Word a, Word b) const {
        u32 s0, s1, c;
        sum(a, b, s0, s1, c);
        return canonical_by_mad(s0, s1, c);
    }

    // a w for a, w in [0, p): the 128-bit product x3 2^96 + x2 2^64 + lo is congruent to
    // lo + x2 EPSILON - x3 = lo + W - EPSILON with W = x2 EPSILON + (EPSILON - x3) (one wide
    // multiply-add; below 2^64 as x2 EPSILON + EPSILON <= 2^64 - 2^32). With S = lo + W: on a
    // carry, S + 2^64 - EPSILON = S + p, so S itself (below p); otherwise S - EPSILON, which is
    // below p, and on a borrow that plus p, i.e. minus EPSILON once more (no second borrow).
    __device__ __forceinline__ Word mul(Word a, Word w, Word) const { return reduce(a * w, __umul64hi(a, w)); }

    // The 128-bit number hi 2^64 + lo reduced into [0, p) by the product's reduction above
    // (valid for any hi and lo, as mul_pow2 needs).
    static __device__ __forceinline__ Word reduce(u64 lo, u64 hi) {
        const u64 wide = (u64)high(hi) ^ EPSILON;  // EPSILON - x3
        u32 r0, r1;
        asm("{\n\t"
            ".reg .u64 v;\n\t"
            ".reg .u32 v0, v1, s0, s1, c, m;\n\t"
            "mad.wide.u32 v, %4, 0xFFFFFFFF, %5;\n\t"
            "mov.b64 {v0, v1}, v;\n\t"
            "add.cc.u32 s0, %2, v0;\n\t"
            "addc.cc.u32 s1, %3, v1;\n\t"
            "addc.u32 c, 0, 0;\n\t"
            "sub.u32 m, c, 1;\n\t"
            "sub.cc.u32 s0, s0, m;\n\t"
            "subc.cc.u32 s1, s1, 0;\n\t"
            "subc.u32 m, 0, 0;\n\t"
            "sub.cc.u32 %0, s0, m;\n\t"
            "subc.u32 %1, s1, 0;\n\t"
            "}"
            : "=&r"(r0), "=&r"(r1)
            : "r"(low(lo)), "r"(high(lo)), "r"(low(hi)), "l"(wide));
        return join(r0, r1);
    }
};

// x 2^e mod p for Goldilocks (A = Goldilocks or GoldilocksWide), x in [0, p), 0 < e < 64: the
// 128-bit number x 2^e is two shifts, reduced as a product is. The callers pass compile-time
// exponents (their loops unrolled), so the shifts are constants. Roots 2^c with c mod 96 in
// [64, 96), where x 2^c would pass 2^128, are not taken (pow2_product_fits); 2^96 = -1 turns
// c >= 96 into a negation that the butterflies fold into their sums.
__device__ __forceinline__ constexpr bool pow2_product_fits(int c) { return c % 96 < 64; }

template <class A>
__device__ __forceinline__ u64 mul_pow2(u64 x, int e) {
    return A::reduce(x << e, x >> (64 - e));
}

// A table entry: the value and its companion, adjacent in memory (ntt/tables.rs).
template <class A>
struct Constant {
    typename A::Word w, ws;
};

template <class A>
__device__ __forceinline__ Constant<A> load_constant(const typename A::Word* table, u64 index) {
    Constant<A> c;
    if constexpr (sizeof(typename A::Word) == 4) {
        uint2 v = __ldg(reinterpret_cast<const uint2*>(table) + index);
        c.w = v.x;
        c.ws = v.y;
    } else {
        ulonglong2 v = __ldg(reinterpret_cast<const ulonglong2*>(table) + index);
        c.w = v.x;
        c.ws = v.y;
    }
    return c;
}

template <class A>
__device__ __forceinline__ typename A::Word mul_constant(const A& a, typename A::Word x, Constant<A> c) {
    return a.mul(x, c.w, c.ws);
}

// (x - y) c for x, y in [0, p), the lower output of a decimation-in-frequency butterfly. Shoup's
// product (q = hi(a ws), r = a w - q p) has r in [0, 2p) for every a below 2^bits, as
// a w / p - q < a / 2^bits + 1 < 2; so where 2p fits the word (A::LAZY_DIFFERENCE) the product
// takes x - y + p, in (0, 2p), unreduced: one add instead of a subtract and a minimum
// (model and test: shoup_difference_times in ntt/word_arithmetic.rs).
template <class A>
__device__ __forceinline__ typename A::Word difference_times(const A& a, typename A::Word x, typename A::Word y,
                                                             Constant<A> c) {
    if constexpr (A::LAZY_DIFFERENCE) {
        return a.mul(x - y + a.p, c.w, c.ws);
    } else {
        return a.mul(a.sub(x, y), c.w, c.ws);
    }
}
