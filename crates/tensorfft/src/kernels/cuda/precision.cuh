// Storage formats: how one complex element is kept in device memory and in shared memory, and how
// it converts to the compute type (Cx<float> or Cx<double>).
#pragma once

__device__ __forceinline__ float half_bits_to_float(unsigned short h) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
}

__device__ __forceinline__ unsigned short float_to_half_bits(float f) {
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}

// Complex f32: 8 bytes, computed in f32.
struct StoreF32 {
    typedef float2 Bits;
    typedef float Real;
    static __device__ __forceinline__ Cx<float> unpack(Bits b) { return cx(b.x, b.y); }
    static __device__ __forceinline__ Bits pack(Cx<float> v) { return make_float2(v.re, v.im); }
};

// Complex f16 (interleaved re, im halves): 4 bytes, computed in f32.
struct StoreF16 {
    typedef unsigned int Bits;
    typedef float Real;
    static __device__ __forceinline__ Cx<float> unpack(Bits b) {
        return cx(half_bits_to_float((unsigned short)(b & 0xffffu)),
                  half_bits_to_float((unsigned short)(b >> 16)));
    }
    static __device__ __forceinline__ Bits pack(Cx<float> v) {
        return (unsigned int)float_to_half_bits(v.re) | ((unsigned int)float_to_half_bits(v.im) << 16);
    }
};

__device__ __forceinline__ float bf16_bits_to_float(unsigned short h) {
    return __uint_as_float((unsigned int)h << 16);
}

__device__ __forceinline__ unsigned short float_to_bf16_bits(float f) {
    unsigned short h;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}

// Complex bfloat16 (interleaved re, im): 4 bytes, computed in f32 here (packed bf16x2
// arithmetic: the BH2 pairs of half2_arithmetic.cuh).
struct StoreBF16 {
    typedef unsigned int Bits;
    typedef float Real;
    static __device__ __forceinline__ Cx<float> unpack(Bits b) {
        return cx(bf16_bits_to_float((unsigned short)(b & 0xffffu)),
                  bf16_bits_to_float((unsigned short)(b >> 16)));
    }
    static __device__ __forceinline__ Bits pack(Cx<float> v) {
        return (unsigned int)float_to_bf16_bits(v.re) | ((unsigned int)float_to_bf16_bits(v.im) << 16);
    }
};

// Complex f64: 16 bytes, computed in f64.
struct StoreF64 {
    typedef double2 Bits;
    typedef double Real;
    static __device__ __forceinline__ Cx<double> unpack(Bits b) { return cx(b.x, b.y); }
    static __device__ __forceinline__ Bits pack(Cx<double> v) { return make_double2(v.re, v.im); }
};

// The widest plain vector of 16 bytes, used for staged copies between device and shared memory.
struct alignas(16) Vec16 {
    unsigned int w[4];
};
