// Packed half-precision arithmetic: H2 holds two f16 values, one per half of a 32-bit register,
// and every operation works on both halves at once (HADD2, HMUL2, HFMA2). Cx<H2> then holds two
// complex values as (re_a, re_b), (im_a, im_b), so the generic radix-R DFT of dft_registers.cuh
// runs two butterflies per instruction stream.
//
// add/sub/mul carry no rounding modifier, so ptxas may fuse a multiply and an add into one fma
// (PTX ISA, "Half precision floating-point instructions"); each result is rounded to f16.
#pragma once

struct H2 {
    unsigned int b;
};

__device__ __forceinline__ H2 h2_bits(unsigned int b) {
    H2 r;
    r.b = b;
    return r;
}

__device__ __forceinline__ H2 operator+(H2 a, H2 b) {
    unsigned int d;
    asm("add.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a.b), "r"(b.b));
    return h2_bits(d);
}

__device__ __forceinline__ H2 operator-(H2 a, H2 b) {
    unsigned int d;
    asm("sub.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a.b), "r"(b.b));
    return h2_bits(d);
}

__device__ __forceinline__ H2 operator*(H2 a, H2 b) {
    unsigned int d;
    asm("mul.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a.b), "r"(b.b));
    return h2_bits(d);
}

__device__ __forceinline__ H2 operator-(H2 a) {
    unsigned int d;
    asm("neg.f16x2 %0, %1;" : "=r"(d) : "r"(a.b));
    return h2_bits(d);
}

// a * b + c with one rounding.
__device__ __forceinline__ H2 h2_fma(H2 a, H2 b, H2 c) {
    unsigned int d;
    asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(a.b), "r"(b.b), "r"(c.b));
    return h2_bits(d);
}

// f32 rounded to f16 in both halves.
__device__ __forceinline__ H2 h2_splat(float x) {
    unsigned int d;
    asm("cvt.rn.f16x2.f32 %0, %1, %1;" : "=r"(d) : "f"(x));
    return h2_bits(d);
}

// Two f32 values rounded to f16, `lo` in the low half (the first of a pair), `hi` in the high.
__device__ __forceinline__ H2 h2_pack(float lo, float hi) {
    unsigned int d;
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(hi), "f"(lo));
    return h2_bits(d);
}

// A constant (a stage's twiddle, a scale) rounded to f16 in both halves.
template <>
struct RealFrom<H2> {
    static __device__ __forceinline__ H2 of(float x) { return h2_splat(x); }
    static __device__ __forceinline__ H2 of(double x) { return h2_splat((float)x); }
};

// f16 bits of a double, rounded to nearest even; for compile-time constants in the normal range.
__device__ __forceinline__ constexpr unsigned int half_bits_of(double x) {
    unsigned int sign = x < 0 ? 0x8000u : 0u;
    double a = x < 0 ? -x : x;
    if (a == 0.0) return sign;
    int e = 0;
    while (a >= 2.0) {
        a /= 2.0;
        ++e;
    }
    while (a < 1.0) {
        a *= 2.0;
        --e;
    }
    const double f = (a - 1.0) * 1024.0;
    unsigned int m = (unsigned int)f;
    const double rem = f - (double)m;
    if (rem > 0.5 || (rem == 0.5 && (m & 1u))) ++m;
    if (m == 1024u) {
        m = 0;
        ++e;
    }
    return sign | ((unsigned int)(e + 15) << 10) | m;
}

// cos(2 pi k / 16) as f16 bits, evaluated by the compiler (a static constexpr member is a
// constant expression), then selected like cos16() once the DFT loops are unrolled; k in [0, 16).
template <int K>
struct HalfCos16 {
    static constexpr unsigned int bits = half_bits_of(cos16(K));
};

__device__ __forceinline__ constexpr unsigned int half_cos16(int k) {
    return k == 0 ? HalfCos16<0>::bits : k == 1 ? HalfCos16<1>::bits : k == 2 ? HalfCos16<2>::bits
         : k == 3 ? HalfCos16<3>::bits : k == 4 ? HalfCos16<4>::bits : k == 5 ? HalfCos16<5>::bits
         : k == 6 ? HalfCos16<6>::bits : k == 7 ? HalfCos16<7>::bits : k == 8 ? HalfCos16<8>::bits
         : k == 9 ? HalfCos16<9>::bits : k == 10 ? HalfCos16<10>::bits : k == 11 ? HalfCos16<11>::bits
         : k == 12 ? HalfCos16<12>::bits : k == 13 ? HalfCos16<13>::bits : k == 14 ? HalfCos16<14>::bits
                   : HalfCos16<15>::bits;
}

// Both halves set to the f16 constant with these bits.
__device__ __forceinline__ constexpr H2 h2_const(unsigned int half_bits) { return H2{half_bits | (half_bits << 16)}; }

// a * (c + i s) for the f16 constants with bits c_bits and s_bits: a multiply and an fma per
// component.
__device__ __forceinline__ Cx<H2> rotate_by_constant(Cx<H2> a, unsigned int c_bits, unsigned int s_bits) {
    const H2 c = h2_const(c_bits);
    const H2 s = h2_const(s_bits);
    const H2 neg_s = h2_const(s_bits ^ 0x8000u);
    return cx(h2_fma(a.re, c, a.im * neg_s), h2_fma(a.re, s, a.im * c));
}

// rot16 (complex.cuh) for two values at once: multiplications by 1, -1 and +-i are swaps and
// sign flips; the eighth roots take one add and one multiply per component, the others a
// multiply and an fma.
template <int DIR>
__device__ __forceinline__ Cx<H2> rot16(Cx<H2> a, int k) {
    k &= 15;
    if ((k & 3) == 0) return rot16_quarter<DIR>(a, k);
    // s = DIR * sin(2 pi k / 16) = DIR * cos(2 pi (k + 12) / 16); negation flips the sign bit.
    const unsigned int c_bits = half_cos16(k);
    const unsigned int s_bits = half_cos16((k + 12) & 15) ^ (DIR < 0 ? 0x8000u : 0u);
    if ((k & 3) == 2) {
        // |c| == |s| == sqrt(1/2)
        const H2 h = h2_const(c_bits);
        if (c_bits == s_bits) return cx(h * (a.re - a.im), h * (a.re + a.im));
        return cx(h * (a.re + a.im), h * (a.im - a.re));
    }
    return rotate_by_constant(a, c_bits, s_bits);
}

// cos(2 pi k / 32) as f16 bits for odd k (even k are rot16's), evaluated by the compiler.
template <int K>
struct HalfCos32 {
    static constexpr unsigned int bits = half_bits_of(cos32(K));
};

__device__ __forceinline__ constexpr unsigned int half_cos32(int k) {
    return k == 1 ? HalfCos32<1>::bits : k == 3 ? HalfCos32<3>::bits : k == 5 ? HalfCos32<5>::bits
         : k == 7 ? HalfCos32<7>::bits : k == 9 ? HalfCos32<9>::bits : k == 11 ? HalfCos32<11>::bits
         : k == 13 ? HalfCos32<13>::bits : k == 15 ? HalfCos32<15>::bits : k == 17 ? HalfCos32<17>::bits
         : k == 19 ? HalfCos32<19>::bits : k == 21 ? HalfCos32<21>::bits : k == 23 ? HalfCos32<23>::bits
         : k == 25 ? HalfCos32<25>::bits : k == 27 ? HalfCos32<27>::bits : k == 29 ? HalfCos32<29>::bits
                   : HalfCos32<31>::bits;
}

// rot32 (complex.cuh) for two values at once: even k are rot16's; odd k a multiply and an fma
// per component.
template <int DIR>
__device__ __forceinline__ Cx<H2> rot32(Cx<H2> a, int k) {
    k &= 31;
    if ((k & 1) == 0) return rot16<DIR>(a, k >> 1);
    // s = DIR * sin(2 pi k / 32) = DIR * cos(2 pi (k + 24) / 32); negation flips the sign bit.
    const unsigned int c_bits = half_cos32(k);
    const unsigned int s_bits = half_cos32((k + 24) & 31) ^ (DIR < 0 ? 0x8000u : 0u);
    return rotate_by_constant(a, c_bits, s_bits);
}

// a * w (DIR < 0) or a * conj(w) (DIR > 0): the table holds forward twiddles.
template <int DIR>
__device__ __forceinline__ Cx<H2> twiddle_mul(Cx<H2> a, Cx<H2> w) {
    if constexpr (DIR < 0) {
        return cx(h2_fma(a.re, w.re, -(a.im * w.im)), h2_fma(a.re, w.im, a.im * w.re));
    } else {
        return cx(h2_fma(a.re, w.re, a.im * w.im), h2_fma(a.im, w.re, -(a.re * w.im)));
    }
}

// The product of two forward twiddles of a pair of butterflies (derived twiddles).
__device__ __forceinline__ Cx<H2> twiddle_product(Cx<H2> a, Cx<H2> b) { return twiddle_mul<-1>(a, b); }

// Interleaved complex f16 (re low, im high) of two values <-> one Cx<H2>: two byte permutes.
__device__ __forceinline__ unsigned int low_halves(unsigned int a, unsigned int b) {
    unsigned int d;
    asm("prmt.b32 %0, %1, %2, 0x5410;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}

__device__ __forceinline__ unsigned int high_halves(unsigned int a, unsigned int b) {
    unsigned int d;
    asm("prmt.b32 %0, %1, %2, 0x7632;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}

// i conj(x): real and imaginary parts trade places (no instruction: a choice of register).
__device__ __forceinline__ Cx<H2> swap_parts(Cx<H2> x) { return cx(x.im, x.re); }

__device__ __forceinline__ Cx<H2> join_pair(unsigned int a, unsigned int b) {
    return cx(h2_bits(low_halves(a, b)), h2_bits(high_halves(a, b)));
}

__device__ __forceinline__ void split_pair(Cx<H2> x, unsigned int& a, unsigned int& b) {
    a = low_halves(x.re.b, x.im.b);
    b = high_halves(x.re.b, x.im.b);
}
