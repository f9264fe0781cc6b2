// Radix-16 DFTs on the tensor cores: a warp computes the 16-point DFTs of 32 butterflies at once
// as the complex matrix product Y = X F, where row b of X holds the 16 samples of butterfly b and
// F[r][k] = exp(DIR 2 pi i r k / 16). X is rounded to f16, F is f16, products accumulate in f32
// (mma.sync m16n8k16). The complex product is four real products:
//   Re Y = Re X Re F + Im X (-Im F),   Im Y = Re X Im F + Im X Re F.
//
// Fragment layout (PTX ISA, m16n8k16 .f16, lane = 4 g + q): A registers hold (row g, cols 2q,
// 2q+1), (row g+8, same cols), (row g, cols 2q+8, 2q+9), (row g+8, same); B registers hold
// (k 2q..2q+1, col g), (k 2q+8..2q+9, col g); C/D hold (row g, cols 2q, 2q+1), (row g+8, same).
//
// A thread's 16 values are slots i*4 + s, i, s in [0, 4): row slot i is row g + 8 (i % 2) of
// A tile i / 2, and sample slot s is column 2q + (s % 2) + 8 (s / 2). The outputs come back in
// the same slots with the column read as the output frequency k, so the caller's indexing is the
// same before and after the DFT.
#pragma once

// Two f32 values rounded to a packed f16x2 (lo in the low half).
__device__ __forceinline__ unsigned pack_half2(float lo, float hi) {
    unsigned r;
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}

// D = A B + C for one 16x16 (A, f16) by 16x8 (B, f16) tile with f32 accumulators.
__device__ __forceinline__ void mma_16x8x16(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1,
                                            const float (&c)[4]) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%10, %11, %12, %13};"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "f"(c[0]), "f"(c[1]), "f"(c[2]),
          "f"(c[3]));
}

// This lane's B fragments of the 16-point DFT matrix: [n tile][register].
struct Dft16Fragments {
    unsigned re[2][2];
    unsigned im[2][2];
    unsigned neg_im[2][2];
};

// Lane (g, q)'s sample column of slot s (also its output frequency): a per-lane part 2q plus a
// per-slot part with disjoint bits.
__device__ __forceinline__ constexpr int tensor_sample_offset(int s) { return (s & 1) + 8 * ((s >> 1) & 1); }
__device__ __forceinline__ int tensor_sample(int s) { return 2 * (int)(threadIdx.x & 3) + tensor_sample_offset(s); }

template <int DIR>
__device__ __forceinline__ Dft16Fragments dft16_fragments() {
    const int g = (int)(threadIdx.x & 31) >> 2;
    const int q = (int)(threadIdx.x & 3);
    Dft16Fragments f;
#pragma unroll
    for (int nt = 0; nt < 2; ++nt) {
        const int k = 8 * nt + g;
#pragma unroll
        for (int reg = 0; reg < 2; ++reg) {
            float c[2], s[2];
#pragma unroll
            for (int u = 0; u < 2; ++u) {
                const int r = 2 * q + u + 8 * reg;
                sincospif((float)(2 * DIR * ((r * k) & 15)) / 16.0f, &s[u], &c[u]);
            }
            f.re[nt][reg] = pack_half2(c[0], c[1]);
            f.im[nt][reg] = pack_half2(s[0], s[1]);
            f.neg_im[nt][reg] = pack_half2(-s[0], -s[1]);
        }
    }
    return f;
}

// The 16-point DFTs of the warp's 32 butterflies; v is this lane's 16 slots (see above).
__device__ __forceinline__ void dft16_tensor_cores(Cx<float> (&v)[16], const Dft16Fragments& f) {
    const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
    for (int mt = 0; mt < 2; ++mt) {
        unsigned ar[4], ai[4];
#pragma unroll
        for (int reg = 0; reg < 4; ++reg) {
            const int slot = (2 * mt + (reg & 1)) * 4 + 2 * (reg >> 1);
            ar[reg] = pack_half2(v[slot].re, v[slot + 1].re);
            ai[reg] = pack_half2(v[slot].im, v[slot + 1].im);
        }
#pragma unroll
        for (int nt = 0; nt < 2; ++nt) {
            float yr[4], yi[4];
            mma_16x8x16(yr, ar, f.re[nt][0], f.re[nt][1], zero);
            mma_16x8x16(yr, ai, f.neg_im[nt][0], f.neg_im[nt][1], yr);
            mma_16x8x16(yi, ar, f.im[nt][0], f.im[nt][1], zero);
            mma_16x8x16(yi, ai, f.re[nt][0], f.re[nt][1], yi);
            // d0, d1: row g (slot row 2 mt), d2, d3: row g + 8 (slot row 2 mt + 1); columns
            // 8 nt + 2q + u are sample slot 2 nt + u.
#pragma unroll
            for (int h = 0; h < 2; ++h) {
#pragma unroll
                for (int u = 0; u < 2; ++u) v[(2 * mt + h) * 4 + 2 * nt + u] = cx(yr[2 * h + u], yi[2 * h + u]);
            }
        }
    }
}
