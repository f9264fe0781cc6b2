// Complex arithmetic in registers. Kernels need no CUDA headers: everything here is plain C++.
#pragma once

typedef unsigned long long u64;

template <typename T>
struct Cx {
    T re, im;
};

template <typename T>
__device__ __forceinline__ Cx<T> cx(T re, T im) {
    Cx<T> r;
    r.re = re;
    r.im = im;
    return r;
}

template <typename T>
__device__ __forceinline__ Cx<T> operator+(Cx<T> a, Cx<T> b) { return cx(a.re + b.re, a.im + b.im); }

template <typename T>
__device__ __forceinline__ Cx<T> operator-(Cx<T> a, Cx<T> b) { return cx(a.re - b.re, a.im - b.im); }

template <typename T>
__device__ __forceinline__ Cx<T> cmul(Cx<T> a, Cx<T> b) {
    return cx(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}

template <typename T>
__device__ __forceinline__ Cx<T> cscale(Cx<T> a, T s) { return cx(a.re * s, a.im * s); }

// The product of two twiddles (derive_twiddle_products in dft_registers.cuh); packed half
// arithmetic overloads it for pairs (half2_arithmetic.cuh).
template <typename T>
__device__ __forceinline__ Cx<T> twiddle_product(Cx<T> a, Cx<T> b) { return cmul(a, b); }

// A float or double constant in the compute type T (a conversion; packed half arithmetic
// specializes it to round into both halves, half2_arithmetic.cuh).
template <typename T>
struct RealFrom {
    template <typename S>
    static __device__ __forceinline__ T of(S x) {
        return (T)x;
    }
};

// What a radix-R stage multiplies its outputs by in a normalized direction: SCALE 1 is 1/R
// (exact), SCALE 2 is 1/sqrt(R) (exact for R = 4, 16, 64), anything else 1.
template <int R, int SCALE>
__device__ __forceinline__ constexpr double stage_scale() {
    return SCALE == 1 ? 1.0 / R
         : SCALE != 2 ? 1.0
         : R == 2 ? 0.70710678118654752440 : R == 4 ? 0.5 : R == 8 ? 0.35355339059327376220
         : R == 16 ? 0.25 : R == 32 ? 0.17677669529663688110 : R == 64 ? 0.125
         : R == 128 ? 0.08838834764831844055 : 1.0 / 16.0;
}

// cos and sin of 2*pi*k/16, k in [0, 16). Evaluated at compile time once loops are unrolled.
__device__ __forceinline__ constexpr double cos16(int k) {
    return k == 0 ? 1.0 : k == 1 ? 0.92387953251128675613 : k == 2 ? 0.70710678118654752440
         : k == 3 ? 0.38268343236508977173 : k == 4 ? 0.0 : k == 5 ? -0.38268343236508977173
         : k == 6 ? -0.70710678118654752440 : k == 7 ? -0.92387953251128675613 : k == 8 ? -1.0
         : k == 9 ? -0.92387953251128675613 : k == 10 ? -0.70710678118654752440
         : k == 11 ? -0.38268343236508977173 : k == 12 ? 0.0 : k == 13 ? 0.38268343236508977173
         : k == 14 ? 0.70710678118654752440 : 0.92387953251128675613;
}

__device__ __forceinline__ constexpr double sin16(int k) { return cos16((k + 12) & 15); }

// a * exp(DIR * 2*pi*i * k / 16) for k in {0, 4, 8, 12}: multiplications by 1, -1 and +-i are
// sign flips and swaps. DIR = -1 forward, +1 inverse.
template <int DIR, typename T>
__device__ __forceinline__ Cx<T> rot16_quarter(Cx<T> a, int k) {
    if (k == 0) return a;
    if (k == 8) return cx(-a.re, -a.im);
    if (k == 4) return DIR < 0 ? cx(a.im, -a.re) : cx(-a.im, a.re);
    return DIR < 0 ? cx(-a.im, a.re) : cx(a.im, -a.re);
}

// a * exp(DIR * 2*pi*i * k / 16): quarter turns as rot16_quarter; the eighth roots use two
// multiplications instead of four.
template <int DIR, typename T>
__device__ __forceinline__ Cx<T> rot16(Cx<T> a, int k) {
    k &= 15;
    if ((k & 3) == 0) return rot16_quarter<DIR>(a, k);
    const T c = (T)cos16(k);
    const T s = (T)(DIR * sin16(k));
    if ((k & 3) == 2) {
        // |c| == |s| == sqrt(1/2)
        const T h = c;
        const T sgn = (s == c) ? (T)1 : (T)-1;
        return cx(h * (a.re - sgn * a.im), h * (sgn * a.re + a.im));
    }
    return cx(a.re * c - a.im * s, a.re * s + a.im * c);
}

// cos(2*pi*k/32), k in [0, 32), from the first-quadrant values by symmetry.
__device__ __forceinline__ constexpr double cos32(int k) {
    k &= 31;
    if (k > 16) k = 32 - k;
    const bool neg = k > 8;
    const int q = neg ? 16 - k : k;
    const double c = q == 0 ? 1.0 : q == 1 ? 0.98078528040323044913 : q == 2 ? 0.92387953251128675613
                   : q == 3 ? 0.83146961230254523708 : q == 4 ? 0.70710678118654752440
                   : q == 5 ? 0.55557023301960222474 : q == 6 ? 0.38268343236508977173
                   : q == 7 ? 0.19509032201612826785 : 0.0;
    return neg ? -c : c;
}

// cos and sin of x for |x| <= pi / 4 (Taylor series to x^24 and x^25, double).
__device__ __forceinline__ constexpr double taylor_cos(double x) {
    double term = 1.0, sum = 1.0;
    for (int i = 1; i <= 12; ++i) {
        term *= -x * x / ((2 * i - 1) * (2 * i));
        sum += term;
    }
    return sum;
}

__device__ __forceinline__ constexpr double taylor_sin(double x) {
    double term = x, sum = x;
    for (int i = 1; i <= 12; ++i) {
        term *= -x * x / ((2 * i) * (2 * i + 1));
        sum += term;
    }
    return sum;
}

// cos(2*pi*k/n) for n a power of two, any k: reduced exactly to the first octant, then a Taylor
// series. Evaluated at compile time once loops are unrolled.
__device__ __forceinline__ constexpr double cos_turns(int k, int n) {
    k &= n - 1;
    if (k > n / 2) k = n - k;
    const bool neg = k > n / 4;
    if (neg) k = n / 2 - k;
    const double pi = 3.14159265358979323846;
    const double c = k > n / 8 ? taylor_sin(2.0 * pi * (n / 4 - k) / n) : taylor_cos(2.0 * pi * k / n);
    return neg ? -c : c;
}

// The forward root w_n^k = exp(-2*pi*i * k / n) (its conjugate for DIR = +1) as a constant of
// the compute type: for exponents known at compile time. (sin(2*pi*k/n) = cos(2*pi*(4k - n)/(4n)).)
template <int DIR, typename T>
__device__ __forceinline__ Cx<T> constant_root(int k, int n) {
    return cx(RealFrom<T>::of(cos_turns(k, n)), RealFrom<T>::of(DIR * cos_turns(4 * k - n, 4 * n)));
}

// a * exp(DIR * 2*pi*i * k / 32): even k are the sixteenths of rot16.
template <int DIR, typename T>
__device__ __forceinline__ Cx<T> rot32(Cx<T> a, int k) {
    k &= 31;
    if ((k & 1) == 0) return rot16<DIR>(a, k >> 1);
    const T c = (T)cos32(k);
    const T s = (T)(DIR * cos32((k + 24) & 31));
    return cx(a.re * c - a.im * s, a.re * s + a.im * c);
}
