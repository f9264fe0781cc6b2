// Pointwise products of two NTT batches (issue 9): out[w] = a[w] b[w] mod the modulus of word
// w's limb, the step between the forward transforms and the inverse of a polynomial product.
// Neither factor is a table constant, so the products here reduce with per-limb constants
// instead of Shoup companions (ntt_arithmetic.cuh). Every policy takes a, b in [0, p) and
// returns a fully reduced word; ntt/pointwise.rs models Barrett and Montgomery operation for
// operation (tested against exact arithmetic in CI) and computes the constants the kernels read.
#pragma once

// u32 words, odd p < 2^31: two Montgomery products with R = 2^32, a b = redc(redc(a b) R^2 mod p).
// redc(t) for t < p 2^32: m = t (-p^-1) mod 2^32 makes t + m p (below p 2^32 + 2^32 p < 2^64)
// divisible by 2^32, u = (t + m p) / 2^32 < 2p < 2^32, and min(u, u - p) reduces it (u - p
// wraps above u when u < p). The fields are u64, as the table of every policy holds them.
struct MontgomeryProduct32 {
    typedef u32 Word;
    u64 p, neg_inv, r2;  // p, -p^-1 mod 2^32, 2^64 mod p
    __device__ __forceinline__ u32 redc(u64 t) const {
        const u32 m = (u32)t * (u32)neg_inv;
        const u32 u = (u32)((t + (u64)m * (u32)p) >> 32);
        return min(u, u - (u32)p);
    }
    __device__ __forceinline__ u32 mul(u32 a, u32 b) const { return redc((u64)redc((u64)a * b) * (u32)r2); }
};

// u32 words, any odd p < 2^32: x = a b < p^2 < 2^64, mu = floor(2^64 / p). q = hi(x mu) is
// floor(x / p) or one less (x mu / 2^64 > x / p - x / 2^64 > x / p - 1), so x - q p lies in
// [0, 2p), formed in 64 bits (2p may pass 2^32), and one conditional subtract reduces it.
struct BarrettProduct32 {
    typedef u32 Word;
    u64 p, mu;
    __device__ __forceinline__ u32 mul(u32 a, u32 b) const {
        const u64 x = (u64)a * b;
        const u64 r = x - __umul64hi(x, mu) * p;
        return (u32)(r >= p ? r - p : r);
    }
};

// u64 words, odd p < 2^63: two Montgomery products with R = 2^64, a b = redc(redc(a b) R^2 mod p).
// redc(t) for t = hi 2^64 + lo < p 2^64: m = lo (-p^-1) mod 2^64 makes t + m p divisible by
// 2^64; lo + (m p mod 2^64) is 0 when lo is 0 and 2^64 otherwise, so (t + m p) / 2^64 =
// hi + hi(m p) + (lo != 0), below 2p < 2^64; one conditional subtract reduces it.
struct MontgomeryProduct64 {
    typedef u64 Word;
    u64 p, neg_inv, r2;  // p, -p^-1 mod 2^64, 2^128 mod p
    __device__ __forceinline__ u64 redc(u64 lo, u64 hi) const {
        const u64 m = lo * neg_inv;
        const u64 u = hi + __umul64hi(m, p) + (lo != 0 ? 1ull : 0ull);
        return u >= p ? u - p : u;
    }
    __device__ __forceinline__ u64 mul(u64 a, u64 b) const {
        const u64 ab = redc(a * b, __umul64hi(a, b));  // a b / R mod p
        return redc(ab * r2, __umul64hi(ab, r2));      // a b mod p
    }
};

// The Goldilocks prime: its own reduction of the 128-bit product (ntt_arithmetic.cuh).
struct GoldilocksProduct {
    typedef u64 Word;
    u64 p;  // 2^64 - 2^32 + 1, kept for a uniform table
    __device__ __forceinline__ u64 mul(u64 a, u64 b) const { return Goldilocks::reduce(a * b, __umul64hi(a, b)); }
};

// V neighbouring words as one aligned access.
template <class W, int V>
struct alignas(sizeof(W) * V) WordVector {
    W w[V];
};

// Cfg: Product (a policy above), V (words per access), LIMBS, LOG_N (log2 of the transform
// length), TRANSFORMS (transforms of the batch), INTERLEAVED (word i of transform t at
// i TRANSFORMS + t instead of t n + i). Transform t uses limb t mod LIMBS.
template <class Cfg>
struct NttPointwise {
    typedef typename Cfg::Product Product;
    typedef typename Product::Word Word;
    static constexpr int V = Cfg::V;
    typedef WordVector<Word, V> Vec;

    static __device__ __forceinline__ u64 limb_of(u64 w) {
        const u64 t = Cfg::INTERLEAVED ? w % (u64)Cfg::TRANSFORMS : w >> Cfg::LOG_N;
        return t % (u64)Cfg::LIMBS;
    }

    // Vectors [0, vectors) of the batch, grid-stride.
    static __device__ __forceinline__ void run(const Word* a, const Word* b, Word* out, const Product* limbs,
                                               u64 vectors) {
        const u64 stride = (u64)gridDim.x * blockDim.x;
        const Product only = limbs[0];
        for (u64 v = (u64)blockIdx.x * blockDim.x + threadIdx.x; v < vectors; v += stride) {
            const Vec x = reinterpret_cast<const Vec*>(a)[v];
            const Vec y = reinterpret_cast<const Vec*>(b)[v];
            Vec z;
#pragma unroll
            for (int i = 0; i < V; ++i) {
                const Product m = Cfg::LIMBS == 1 ? only : limbs[limb_of(v * V + i)];
                z.w[i] = m.mul(x.w[i], y.w[i]);
            }
            reinterpret_cast<Vec*>(out)[v] = z;
        }
    }
};
