// Modular arithmetic of the NTT kernels. Every policy keeps values fully reduced in [0, p) and
// multiplies by table constants that come with a precomputed companion (ntt/tables.rs):
//  - Shoup32: u32 words, p < 2^31. w' = floor(w 2^32 / p); q = hi(a w'), r = a w - q p lies in
//    [0, 2p) and 2p < 2^32, so the wrapped 32-bit arithmetic is exact; one conditional subtract.
//  - Shoup64: the same with u64 words, p < 2^63.
//  - Goldilocks: p = 2^64 - 2^32 + 1, products reduced with 2^64 = 2^32 - 1 and 2^96 = -1 (mod p);
//    no companion.
// Additions use the unsigned-minimum trick: for s = a + b < 2p, min(s, s - p) is s - p when s >= p
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

struct Goldilocks {
    typedef u64 Word;
    Word p;  // 0xFFFFFFFF00000001, kept for a uniform interface
    static constexpr u64 EPSILON = 0xFFFFFFFFull;  // 2^64 mod p
    __device__ __forceinline__ Word add(Word a, Word b) const {
        Word s = a + b;
        if (s < a) s += EPSILON;  // carry: 2^64 = 2^32 - 1; s < 2^64 - 2^33 + 2 here, no overflow
        return s >= p ? s - p : s;
    }
    __device__ __forceinline__ Word sub(Word a, Word b) const {
        Word d = a - b;
        return a < b ? d - EPSILON : d;  // borrow: + p = - (2^32 - 1) mod 2^64
    }
    __device__ __forceinline__ Word mul(Word a, Word w, Word) const {
        u64 lo = a * w;
        u64 hi = __umul64hi(a, w);
        u64 hh = hi >> 32, hl = hi & EPSILON;
        // lo + 2^64 (hl + 2^32 hh) = lo - hh + hl (2^32 - 1)   (mod p)
        u64 t0 = lo - hh;
        if (lo < hh) t0 -= EPSILON;  // borrow: the wrapped value is >= 2^64 - 2^32, no underflow
        u64 t1 = hl * EPSILON;
        u64 r = t0 + t1;
        if (r < t1) r += EPSILON;  // carry
        return r >= p ? r - p : r;
    }
};

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
