// Packed half-precision arithmetic: Pk2<F> holds two 16-bit floats of format F (f16 or bf16),
// one per half of a 32-bit register, and every operation works on both halves at once (HADD2,
// HMUL2, HFMA2; their .BF16 forms for bf16). Cx<Pk2<F>> then holds two complex values as
// (re_a, re_b), (im_a, im_b), so the generic radix-R DFT of dft_registers.cuh runs two
// butterflies per instruction stream. H2 is the f16 pair, BH2 the bf16 pair.
//
// add/sub/mul carry no rounding modifier, so ptxas may fuse a multiply and an add into one fma
// (PTX ISA, "Half precision floating-point instructions"); each result is rounded to the format.
// bf16x2 add, sub and mul are sm_90 instructions; before sm_90 they are fmas with 1, -1 and -0.
#pragma once

// The two 16-bit formats: f16 (10 mantissa bits) and bf16 (7, f32's exponent range).
struct F16Format {
    static constexpr bool BF16 = false;
};
struct BF16Format {
    static constexpr bool BF16 = true;
};

template <class F>
struct Pk2 {
    typedef F Format;
    unsigned int b;
    static __device__ __forceinline__ Pk2 from_bits(unsigned int bits) {
        Pk2 r;
        r.b = bits;
        return r;
    }
};
typedef Pk2<F16Format> H2;
typedef Pk2<BF16Format> BH2;

// Both halves of bf16 constants (bit patterns) for the fallbacks before sm_90.
constexpr unsigned int BF16X2_ONE = 0x3F803F80u, BF16X2_MINUS_ONE = 0xBF80BF80u, BF16X2_MINUS_ZERO = 0x80008000u;

// a * b + c with one rounding.
template <class F>
__device__ __forceinline__ Pk2<F> h2_fma(Pk2<F> a, Pk2<F> b, Pk2<F> c) {
    unsigned int d;
    if constexpr (F::BF16) {
        asm("fma.rn.bf16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(a.b), "r"(b.b), "r"(c.b));
    } else {
        asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(a.b), "r"(b.b), "r"(c.b));
    }
    return Pk2<F>::from_bits(d);
}

template <class F>
__device__ __forceinline__ Pk2<F> operator+(Pk2<F> a, Pk2<F> b) {
    unsigned int d;
    if constexpr (F::BF16) {
#if __CUDA_ARCH__ >= 900
        asm("add.bf16x2 %0, %1, %2;" : "=r"(d) : "r"(a.b), "r"(b.b));
#else
        return h2_fma(a, Pk2<F>::from_bits(BF16X2_ONE), b);
#endif
    } else {
        asm("add.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a.b), "r"(b.b));
    }
    return Pk2<F>::from_bits(d);
}

template <class F>
__device__ __forceinline__ Pk2<F> operator-(Pk2<F> a, Pk2<F> b) {
    unsigned int d;
    if constexpr (F::BF16) {
#if __CUDA_ARCH__ >= 900
        asm("sub.bf16x2 %0, %1, %2;" : "=r"(d) : "r"(a.b), "r"(b.b));
#else
        return h2_fma(b, Pk2<F>::from_bits(BF16X2_MINUS_ONE), a);
#endif
    } else {
        asm("sub.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a.b), "r"(b.b));
    }
    return Pk2<F>::from_bits(d);
}

template <class F>
__device__ __forceinline__ Pk2<F> operator*(Pk2<F> a, Pk2<F> b) {
    unsigned int d;
    if constexpr (F::BF16) {
#if __CUDA_ARCH__ >= 900
        asm("mul.bf16x2 %0, %1, %2;" : "=r"(d) : "r"(a.b), "r"(b.b));
#else
        return h2_fma(a, b, Pk2<F>::from_bits(BF16X2_MINUS_ZERO));
#endif
    } else {
        asm("mul.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a.b), "r"(b.b));
    }
    return Pk2<F>::from_bits(d);
}

template <class F>
__device__ __forceinline__ Pk2<F> operator-(Pk2<F> a) {
    unsigned int d;
    if constexpr (F::BF16) {
        asm("neg.bf16x2 %0, %1;" : "=r"(d) : "r"(a.b));
    } else {
        asm("neg.f16x2 %0, %1;" : "=r"(d) : "r"(a.b));
    }
    return Pk2<F>::from_bits(d);
}

// Two f32 values rounded to the format, `lo` in the low half (the first of a pair), `hi` in the
// high. (f16 before sm_80, where cvt.rn.f16x2.f32 does not exist: two f16 conversions.)
template <class F>
__device__ __forceinline__ Pk2<F> pk2_pack(float lo, float hi) {
    unsigned int d;
    if constexpr (F::BF16) {
        asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(hi), "f"(lo));
    } else {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
        unsigned short l, h;
        asm("cvt.rn.f16.f32 %0, %1;" : "=h"(l) : "f"(lo));
        asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(hi));
        d = (unsigned int)l | ((unsigned int)h << 16);
#else
        asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(hi), "f"(lo));
#endif
    }
    return Pk2<F>::from_bits(d);
}

// A constant (a stage's twiddle, a scale) rounded to the format in both halves.
template <class F>
struct RealFrom<Pk2<F>> {
    static __device__ __forceinline__ Pk2<F> of(float x) { return pk2_pack<F>(x, x); }
    static __device__ __forceinline__ Pk2<F> of(double x) { return pk2_pack<F>((float)x, (float)x); }
};

// The bits of a double in a format of MANT mantissa bits and exponent bias BIAS, rounded to
// nearest even; for compile-time constants in the normal range.
__device__ __forceinline__ constexpr unsigned int small_float_bits_of(double x, int mant, int bias) {
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
    const unsigned int one = 1u << mant;
    const double f = (a - 1.0) * (double)one;
    unsigned int m = (unsigned int)f;
    const double rem = f - (double)m;
    if (rem > 0.5 || (rem == 0.5 && (m & 1u))) ++m;
    if (m == one) {
        m = 0;
        ++e;
    }
    return sign | ((unsigned int)(e + bias) << mant) | m;
}

// The format's bits of a double (f16: 10 mantissa bits, bias 15; bf16: 7, bias 127).
template <class F>
__device__ __forceinline__ constexpr unsigned int packed_bits_of(double x) {
    return F::BF16 ? small_float_bits_of(x, 7, 127) : small_float_bits_of(x, 10, 15);
}

// cos(2 pi k / 16) as the format's bits, evaluated by the compiler (a static constexpr member is a
// constant expression), then selected like cos16() once the DFT loops are unrolled; k in [0, 16).
template <class F, int K>
struct PackedCos16 {
    static constexpr unsigned int bits = packed_bits_of<F>(cos16(K));
};

template <class F>
__device__ __forceinline__ constexpr unsigned int packed_cos16(int k) {
    return k == 0 ? PackedCos16<F, 0>::bits : k == 1 ? PackedCos16<F, 1>::bits : k == 2 ? PackedCos16<F, 2>::bits
         : k == 3 ? PackedCos16<F, 3>::bits : k == 4 ? PackedCos16<F, 4>::bits : k == 5 ? PackedCos16<F, 5>::bits
         : k == 6 ? PackedCos16<F, 6>::bits : k == 7 ? PackedCos16<F, 7>::bits : k == 8 ? PackedCos16<F, 8>::bits
         : k == 9 ? PackedCos16<F, 9>::bits : k == 10 ? PackedCos16<F, 10>::bits : k == 11 ? PackedCos16<F, 11>::bits
         : k == 12 ? PackedCos16<F, 12>::bits : k == 13 ? PackedCos16<F, 13>::bits : k == 14 ? PackedCos16<F, 14>::bits
                   : PackedCos16<F, 15>::bits;
}

// Both halves set to the constant with these bits (of either format).
template <class F>
__device__ __forceinline__ constexpr Pk2<F> pk2_const(unsigned int bits) {
    return Pk2<F>{bits | (bits << 16)};
}

// a * (c + i s) for the constants with bits c_bits and s_bits: a multiply and an fma per
// component.
template <class F>
__device__ __forceinline__ Cx<Pk2<F>> rotate_by_constant(Cx<Pk2<F>> a, unsigned int c_bits, unsigned int s_bits) {
    const Pk2<F> c = pk2_const<F>(c_bits);
    const Pk2<F> s = pk2_const<F>(s_bits);
    const Pk2<F> neg_s = pk2_const<F>(s_bits ^ 0x8000u);
    return cx(h2_fma(a.re, c, a.im * neg_s), h2_fma(a.re, s, a.im * c));
}

// rot16 (complex.cuh) for two values at once: multiplications by 1, -1 and +-i are swaps and
// sign flips; the eighth roots take one add and one multiply per component, the others a
// multiply and an fma.
template <int DIR, class F>
__device__ __forceinline__ Cx<Pk2<F>> rot16(Cx<Pk2<F>> a, int k) {
    k &= 15;
    if ((k & 3) == 0) return rot16_quarter<DIR>(a, k);
    // s = DIR * sin(2 pi k / 16) = DIR * cos(2 pi (k + 12) / 16); negation flips the sign bit.
    const unsigned int c_bits = packed_cos16<F>(k);
    const unsigned int s_bits = packed_cos16<F>((k + 12) & 15) ^ (DIR < 0 ? 0x8000u : 0u);
    if ((k & 3) == 2) {
        // |c| == |s| == sqrt(1/2)
        const Pk2<F> h = pk2_const<F>(c_bits);
        if (c_bits == s_bits) return cx(h * (a.re - a.im), h * (a.re + a.im));
        return cx(h * (a.re + a.im), h * (a.im - a.re));
    }
    return rotate_by_constant(a, c_bits, s_bits);
}

// cos(2 pi k / 32) as the format's bits for odd k (even k are rot16's), evaluated by the
// compiler.
template <class F, int K>
struct PackedCos32 {
    static constexpr unsigned int bits = packed_bits_of<F>(cos32(K));
};

template <class F>
__device__ __forceinline__ constexpr unsigned int packed_cos32(int k) {
    return k == 1 ? PackedCos32<F, 1>::bits : k == 3 ? PackedCos32<F, 3>::bits : k == 5 ? PackedCos32<F, 5>::bits
         : k == 7 ? PackedCos32<F, 7>::bits : k == 9 ? PackedCos32<F, 9>::bits : k == 11 ? PackedCos32<F, 11>::bits
         : k == 13 ? PackedCos32<F, 13>::bits : k == 15 ? PackedCos32<F, 15>::bits : k == 17 ? PackedCos32<F, 17>::bits
         : k == 19 ? PackedCos32<F, 19>::bits : k == 21 ? PackedCos32<F, 21>::bits : k == 23 ? PackedCos32<F, 23>::bits
         : k == 25 ? PackedCos32<F, 25>::bits : k == 27 ? PackedCos32<F, 27>::bits : k == 29 ? PackedCos32<F, 29>::bits
                   : PackedCos32<F, 31>::bits;
}

// rot32 (complex.cuh) for two values at once: even k are rot16's; odd k a multiply and an fma
// per component.
template <int DIR, class F>
__device__ __forceinline__ Cx<Pk2<F>> rot32(Cx<Pk2<F>> a, int k) {
    k &= 31;
    if ((k & 1) == 0) return rot16<DIR>(a, k >> 1);
    // s = DIR * sin(2 pi k / 32) = DIR * cos(2 pi (k + 24) / 32); negation flips the sign bit.
    const unsigned int c_bits = packed_cos32<F>(k);
    const unsigned int s_bits = packed_cos32<F>((k + 24) & 31) ^ (DIR < 0 ? 0x8000u : 0u);
    return rotate_by_constant(a, c_bits, s_bits);
}

// a * w (DIR < 0) or a * conj(w) (DIR > 0): the table holds forward twiddles.
template <int DIR, class F>
__device__ __forceinline__ Cx<Pk2<F>> twiddle_mul(Cx<Pk2<F>> a, Cx<Pk2<F>> w) {
    if constexpr (DIR < 0) {
        return cx(h2_fma(a.re, w.re, -(a.im * w.im)), h2_fma(a.re, w.im, a.im * w.re));
    } else {
        return cx(h2_fma(a.re, w.re, a.im * w.im), h2_fma(a.im, w.re, -(a.re * w.im)));
    }
}

// The product of two forward twiddles of a pair of butterflies (derived twiddles).
template <class F>
__device__ __forceinline__ Cx<Pk2<F>> twiddle_product(Cx<Pk2<F>> a, Cx<Pk2<F>> b) {
    return twiddle_mul<-1>(a, b);
}

// Interleaved complex 16-bit floats (re low, im high) of two values <-> one Cx<Pk2<F>>: two byte
// permutes.
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
template <class F>
__device__ __forceinline__ Cx<Pk2<F>> swap_parts(Cx<Pk2<F>> x) {
    return cx(x.im, x.re);
}

template <class F>
__device__ __forceinline__ void split_pair(Cx<Pk2<F>> x, unsigned int& a, unsigned int& b) {
    a = low_halves(x.re.b, x.im.b);
    b = high_halves(x.re.b, x.im.b);
}
