// Radix-16 DFTs on the tensor cores: a warp computes the 16-point DFTs of 32 butterflies at once
// as the complex matrix product Y = X F, where row b of X holds the 16 samples of butterfly b and
// F[r][k] = exp(DIR 2 pi i r k / 16). X is rounded to f16, F is f16, products accumulate in f32
// (mma.sync m16n8k16). The complex product is four real products:
//   Re Y = Re X Re F + Im X (-Im F),   Im Y = Re X Im F + Im X Re F.
//
// BF16 (Cfg::Packed::Format = BF16Format) runs the same products in bf16 (mma.sync m16n8k16
// .bf16, sm_80): samples and F rounded to bf16, the same f32 accumulators and fragment layout.
//
// Fragment layout (PTX ISA, m16n8k16 .f16 and .bf16, lane = 4 g + q): A registers hold (row g, cols 2q,
// 2q+1), (row g+8, same cols), (row g, cols 2q+8, 2q+9), (row g+8, same); B registers hold
// (k 2q..2q+1, col g), (k 2q+8..2q+9, col g); C/D hold (row g, cols 2q, 2q+1), (row g+8, same).
//
// A thread's 16 values are slots i*4 + s, i, s in [0, 4): row slot i is row g + 8 (i % 2) of
// A tile i / 2, and sample slot s is column 2q + (s % 2) + 8 (s / 2). The outputs come back in
// the same slots with the column read as the output frequency k, so the caller's indexing is the
// same before and after the DFT.
#pragma once

// Two f32 values rounded to a packed pair of the operand format F (f16 or bf16; lo in the low
// half).
template <class F>
__device__ __forceinline__ unsigned pack_operands(float lo, float hi) {
    return pk2_pack<F>(lo, hi).b;
}

// The same in f16 (the split products' halves).
__device__ __forceinline__ unsigned pack_half2(float lo, float hi) { return pack_operands<F16Format>(lo, hi); }

// D = A B + C for one 16x16 (A) by 16x8 (B) tile of format F (f16 or bf16) with f32
// accumulators.
template <class F = F16Format>
__device__ __forceinline__ void mma_16x8x16(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1,
                                            const float (&c)[4]) {
    if constexpr (F::BF16) {
        asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
            "{%10, %11, %12, %13};"
            : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "f"(c[0]), "f"(c[1]), "f"(c[2]),
              "f"(c[3]));
    } else {
        asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
            "{%10, %11, %12, %13};"
            : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "f"(c[0]), "f"(c[1]), "f"(c[2]),
              "f"(c[3]));
    }
}

// This lane's B fragments of the 16-point DFT matrix: [n tile][register] (f16 or bf16 pairs).
struct Dft16Fragments {
    unsigned re[2][2];
    unsigned im[2][2];
    unsigned neg_im[2][2];
};

// Lane (g, q)'s sample column of slot s (also its output frequency): a per-lane part 2q plus a
// per-slot part with disjoint bits.
__device__ __forceinline__ constexpr int tensor_sample_offset(int s) { return (s & 1) + 8 * ((s >> 1) & 1); }
__device__ __forceinline__ int tensor_sample(int s) { return 2 * (int)(threadIdx.x & 3) + tensor_sample_offset(s); }

// Entry (r, k) of the 16-point DFT matrix, exp(DIR 2 pi i r k / 16), as its cosine and sine in
// f32: every B-fragment table below (f16, split f16, TF32) starts from these values.
template <int DIR>
__device__ __forceinline__ void dft16_entry(int r, int k, float& c, float& s) {
    sincospif((float)(2 * DIR * ((r * k) & 15)) / 16.0f, &s, &c);
}

template <int DIR, class F = F16Format>
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
                dft16_entry<DIR>(2 * q + u + 8 * reg, k, c[u], s[u]);
            }
            f.re[nt][reg] = pack_operands<F>(c[0], c[1]);
            f.im[nt][reg] = pack_operands<F>(s[0], s[1]);
            f.neg_im[nt][reg] = pack_operands<F>(-s[0], -s[1]);
        }
    }
    return f;
}

// Output tile nt (columns 8 nt .. 8 nt + 7) of the complex product Y = A F for a 16 x 16 A in
// A registers (real and imaginary parts): Re Y = Ar Re F + Ai (-Im F), Im Y = Ar Im F + Ai Re F.
template <class F = F16Format>
__device__ __forceinline__ void times_dft16(float (&yr)[4], float (&yi)[4], const unsigned (&ar)[4],
                                            const unsigned (&ai)[4], const Dft16Fragments& f, int nt) {
    const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    mma_16x8x16<F>(yr, ar, f.re[nt][0], f.re[nt][1], zero);
    mma_16x8x16<F>(yr, ai, f.neg_im[nt][0], f.neg_im[nt][1], yr);
    mma_16x8x16<F>(yi, ar, f.im[nt][0], f.im[nt][1], zero);
    mma_16x8x16<F>(yi, ai, f.re[nt][0], f.re[nt][1], yi);
}

// The same product with (-Ai) Im F in place of Ai (-Im F) (exact: a sign): a kernel that uses
// only this form never holds the -Im F fragments (four registers). The sign bits are bit 15 of
// each half in f16 and bf16 alike.
template <class F = F16Format>
__device__ __forceinline__ void times_dft16_negating(float (&yr)[4], float (&yi)[4], const unsigned (&ar)[4],
                                                     const unsigned (&ai)[4], const Dft16Fragments& f, int nt) {
    const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    const unsigned an[4] = {ai[0] ^ 0x80008000u, ai[1] ^ 0x80008000u, ai[2] ^ 0x80008000u, ai[3] ^ 0x80008000u};
    mma_16x8x16<F>(yr, ar, f.re[nt][0], f.re[nt][1], zero);
    mma_16x8x16<F>(yr, an, f.im[nt][0], f.im[nt][1], yr);
    mma_16x8x16<F>(yi, ar, f.im[nt][0], f.im[nt][1], zero);
    mma_16x8x16<F>(yi, ai, f.re[nt][0], f.re[nt][1], yi);
}

// The 16-point DFTs of the warp's 32 butterflies; v is this lane's 16 slots (see above).
template <class F = F16Format>
__device__ __forceinline__ void dft16_tensor_cores(Cx<float> (&v)[16], const Dft16Fragments& f) {
#pragma unroll
    for (int mt = 0; mt < 2; ++mt) {
        unsigned ar[4], ai[4];
#pragma unroll
        for (int reg = 0; reg < 4; ++reg) {
            const int slot = (2 * mt + (reg & 1)) * 4 + 2 * (reg >> 1);
            ar[reg] = pack_operands<F>(v[slot].re, v[slot + 1].re);
            ai[reg] = pack_operands<F>(v[slot].im, v[slot + 1].im);
        }
#pragma unroll
        for (int nt = 0; nt < 2; ++nt) {
            float yr[4], yi[4];
            times_dft16<F>(yr, yi, ar, ai, f, nt);
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

// ---------------------------------------------------------------------------------------------
// F32Split: fp32-accurate 16-point DFTs from f16 products (after seed 003, Algorithm 1). Each
// butterfly's 16 samples x (a row of X) are split as x = s (hi + 2^-12 lo), where s is the power
// of two at or above the row's largest component, hi = f16(x / s) and lo = f16(2^12 (x / s - hi))
// (|x / s - hi| <= 2^-12, half an f16 ulp below 1, so |lo| <= 1); the DFT matrix as
// F = Fhi + 2^-12 Flo with Fhi = f16(F) and Flo = f16(2^12 (F - Fhi)). Then
//   F x = s (Fhi hi + 2^-12 (Flo hi + Fhi lo)),
// dropping 2^-24 Flo lo: twelve m16n8k16 products per 16x8 output tile instead of four, each
// accumulated in f32. The scale is a power of two, so scaling is exact, and x - s hi is exact in
// f32; the one scale per row (seed 003 scales the residual by its own maximum, one more
// reduction across the quad) loses nothing measurable: lo's absolute error stays below 2^-24 s.
// cpu::split_dft (SplitScheme::Fp16Scaled) models the same arithmetic for the reference
// executor.

// f16 rounding of x, back in f32.
__device__ __forceinline__ float round_to_half(float x) {
    float r;
    asm("{ .reg .f16 h; cvt.rn.f16.f32 h, %1; cvt.f32.f16 %0, h; }" : "=f"(r) : "f"(x));
    return r;
}

// The two f16 halves of h (lo in the low half), back in f32.
__device__ __forceinline__ void unpack_half2(unsigned h, float& lo, float& hi) {
    asm("{ .reg .f16 a, b; mov.b32 {a, b}, %2; cvt.f32.f16 %0, a; cvt.f32.f16 %1, b; }"
        : "=f"(lo), "=f"(hi)
        : "r"(h));
}

// The largest of x over the four lanes of a quad (the lanes that share a row of X).
__device__ __forceinline__ float quad_max(float x) {
    x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 1));
    return fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 2));
}

// The exponent of the smallest power of two at or above m >= 0, clamped to [-126, 126] so that
// 2^e and 2^-e are both normal floats (for m below 2^-126 the scale is 2^-126, still >= m).
__device__ __forceinline__ int split_exponent(float m) {
    const unsigned u = __float_as_uint(m);
    const int e = (int)(u >> 23) - 127 + ((u & 0x7fffffu) != 0u);
    return min(max(e, -126), 126);
}

__device__ __forceinline__ float power_of_two(int e) { return __uint_as_float((unsigned)(127 + e) << 23); }

// This lane's B fragments of Fhi and Flo (scaled by 2^12) for one n tile (output columns
// 8 nt .. 8 nt + 7), with Im F also negated for the real part's product
// (Re Y = Re X Re F + Im X (-Im F)).
struct SplitFragments {
    unsigned hi_re[2], hi_im[2], hi_neg_im[2];
    unsigned lo_re[2], lo_im[2], lo_neg_im[2];
};

// The kernels keep every lane's split fragments in shared memory and load one n tile's for each
// use (12 registers live instead of 24 for both n tiles: the split needs them for its own
// temporaries; holding them all spilled 0.3-1 KB per thread at 64-80 registers). Lane l's
// fragments of n tile nt are the uint4s [nt][0..2][l], so the loads are conflict-free.
__device__ __forceinline__ uint4* split_fragment_table() {
    __shared__ uint4 table[2][3][32];
    return &table[0][0][0];
}

// Fills the table (the first warp) and waits for it: every thread of the block calls this once,
// before its first tensor-core stage.
template <int DIR>
__device__ __forceinline__ void store_split_fragments() {
    if (threadIdx.x < 32) {
        const int g = (int)threadIdx.x >> 2;
        const int q = (int)(threadIdx.x & 3);
#pragma unroll
        for (int nt = 0; nt < 2; ++nt) {
            const int k = 8 * nt + g;
            unsigned w[12];  // per reg: hi re, hi im, hi -im, lo re, lo im, lo -im
#pragma unroll
            for (int reg = 0; reg < 2; ++reg) {
                float c[2], s[2], ch[2], sh[2];
#pragma unroll
                for (int u = 0; u < 2; ++u) {
                    dft16_entry<DIR>(2 * q + u + 8 * reg, k, c[u], s[u]);
                    ch[u] = round_to_half(c[u]);
                    sh[u] = round_to_half(s[u]);
                }
                w[0 + reg] = pack_half2(ch[0], ch[1]);
                w[2 + reg] = pack_half2(sh[0], sh[1]);
                w[4 + reg] = pack_half2(-sh[0], -sh[1]);
                w[6 + reg] = pack_half2(4096.0f * (c[0] - ch[0]), 4096.0f * (c[1] - ch[1]));
                w[8 + reg] = pack_half2(4096.0f * (s[0] - sh[0]), 4096.0f * (s[1] - sh[1]));
                w[10 + reg] = pack_half2(4096.0f * (sh[0] - s[0]), 4096.0f * (sh[1] - s[1]));
            }
            uint4* t = split_fragment_table() + nt * 96 + threadIdx.x;
            t[0] = make_uint4(w[0], w[1], w[2], w[3]);
            t[32] = make_uint4(w[4], w[5], w[6], w[7]);
            t[64] = make_uint4(w[8], w[9], w[10], w[11]);
        }
    }
    __syncthreads();
}

__device__ __forceinline__ SplitFragments load_split_fragments(int nt) {
    const uint4* t = split_fragment_table() + nt * 96 + (threadIdx.x & 31);
    const uint4 a = t[0], b = t[32], c = t[64];
    SplitFragments f;
    f.hi_re[0] = a.x, f.hi_re[1] = a.y, f.hi_im[0] = a.z, f.hi_im[1] = a.w;
    f.hi_neg_im[0] = b.x, f.hi_neg_im[1] = b.y, f.lo_re[0] = b.z, f.lo_re[1] = b.w;
    f.lo_im[0] = c.x, f.lo_im[1] = c.y, f.lo_neg_im[0] = c.z, f.lo_neg_im[1] = c.w;
    return f;
}

// One 16x8 complex output tile: Re += Ar Fre + Ai (-Fim), Im += Ar Fim + Ai Fre.
__device__ __forceinline__ void complex_mma(float (&yr)[4], float (&yi)[4], const unsigned (&ar)[4],
                                            const unsigned (&ai)[4], const unsigned (&fre)[2],
                                            const unsigned (&fim)[2], const unsigned (&fneg_im)[2]) {
    mma_16x8x16(yr, ar, fre[0], fre[1], yr);
    mma_16x8x16(yr, ai, fneg_im[0], fneg_im[1], yr);
    mma_16x8x16(yi, ar, fim[0], fim[1], yi);
    mma_16x8x16(yi, ai, fre[0], fre[1], yi);
}

// Splits two values already divided by their scale into packed f16 halves: hi = f16(x) (one
// instruction for the pair, read back), lo = f16(2^12 (x - hi)) (x - hi is exact in f32; 2^12
// times it fits f16's range).
__device__ __forceinline__ void split_half2(float x0, float x1, unsigned& hi, unsigned& lo) {
    hi = pack_half2(x0, x1);
    float h0, h1;
    unpack_half2(hi, h0, h1);
    lo = pack_half2(4096.0f * (x0 - h0), 4096.0f * (x1 - h1));
}

// Splits row slot i of this lane's values (slots 4i..4i+3, one butterfly's row of X shared with
// the quad's lanes) into packed f16 halves: hi and lo real and imaginary parts of the two column
// pairs, and the row's scale.
struct SplitRow {
    unsigned hr[2], hi[2], lr[2], li[2];
    float scale;
};

__device__ __forceinline__ SplitRow split_row(const Cx<float> (&v)[16], int i) {
    SplitRow row;
    float m = 0.0f;
#pragma unroll
    for (int s = 0; s < 4; ++s) m = fmaxf(m, fmaxf(fabsf(v[4 * i + s].re), fabsf(v[4 * i + s].im)));
    const int e = split_exponent(quad_max(m));
    row.scale = power_of_two(e);
    const float inv = power_of_two(-e);
#pragma unroll
    for (int p = 0; p < 2; ++p) {
        const Cx<float> x0 = v[4 * i + 2 * p], x1 = v[4 * i + 2 * p + 1];
        split_half2(x0.re * inv, x1.re * inv, row.hr[p], row.lr[p]);
        split_half2(x0.im * inv, x1.im * inv, row.hi[p], row.li[p]);
    }
    return row;
}

// The fp32-accurate 16-point DFTs of the warp's 32 butterflies; v is this lane's 16 slots, in
// the layout of dft16_tensor_cores. A tile's output rows are its input rows, so the two A tiles
// run one after the other, and each output tile takes Fhi hi into v before 2^-12 (Flo hi +
// Fhi lo) is added with one rounding and the row's scale applied (exact): fewer live registers.
__device__ __forceinline__ void dft16_split_tensor_cores(Cx<float> (&v)[16]) {
#pragma unroll
    for (int mt = 0; mt < 2; ++mt) {
        const SplitRow rows[2] = {split_row(v, 2 * mt), split_row(v, 2 * mt + 1)};
        // A registers: reg = (row slot 2 mt + (reg & 1), column pair reg >> 1).
        unsigned ahr[4], ahi[4], alr[4], ali[4];
#pragma unroll
        for (int reg = 0; reg < 4; ++reg) {
            const SplitRow& row = rows[reg & 1];
            ahr[reg] = row.hr[reg >> 1];
            ahi[reg] = row.hi[reg >> 1];
            alr[reg] = row.lr[reg >> 1];
            ali[reg] = row.li[reg >> 1];
        }
#pragma unroll
        for (int nt = 0; nt < 2; ++nt) {
            const SplitFragments f = load_split_fragments(nt);
            // d0, d1: row g (row slot 2 mt), d2, d3: row g + 8 (row slot 2 mt + 1); columns
            // 8 nt + 2q + u are sample slot 2 nt + u.
            float yr[4] = {0.0f, 0.0f, 0.0f, 0.0f}, yi[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            complex_mma(yr, yi, ahr, ahi, f.hi_re, f.hi_im, f.hi_neg_im);
#pragma unroll
            for (int d = 0; d < 4; ++d) {
                v[(2 * mt + (d >> 1)) * 4 + 2 * nt + (d & 1)] = cx(yr[d], yi[d]);
                yr[d] = 0.0f;
                yi[d] = 0.0f;
            }
            complex_mma(yr, yi, ahr, ahi, f.lo_re, f.lo_im, f.lo_neg_im);
            complex_mma(yr, yi, alr, ali, f.hi_re, f.hi_im, f.hi_neg_im);
#pragma unroll
            for (int d = 0; d < 4; ++d) {
                const float scale = rows[d >> 1].scale;
                Cx<float>& y = v[(2 * mt + (d >> 1)) * 4 + 2 * nt + (d & 1)];
                y = cx(scale * fmaf(2.44140625e-4f, yr[d], y.re), scale * fmaf(2.44140625e-4f, yi[d], y.im));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// F32Split in three TF32 products (3xTF32, `Tuning::tf32_split`): x = big + small with
// big = tf32(x) and small = tf32(x - big) (x - big is exact in f32), the DFT matrix the same way,
// and F x ~ small Fbig + big Fsmall + big Fbig, the small terms first, all in one f32
// accumulator: TF32 keeps f32's exponent, so there is no per-row scale, no quad reduction and no
// rescaling of the outputs (subnormal inputs lose their low bits, cpu::split_dft). mma.sync
// m16n8k8 (.tf32) takes k = 8, so each 16-sample product is two instructions, one per half h of
// the samples. The k order within an instruction is free as long as A and B agree: lane (g, q)
// gives column q of half h its sample 2q + 8h and column q + 4 its sample 2q + 1 + 8h, which are
// the samples of slots 2h and 2h + 1 in the layout above (PTX ISA, m16n8k8 .tf32: A registers
// (row g, col q), (row g + 8, col q), (row g, col q + 4), (row g + 8, col q + 4); B registers
// (k q, col g), (k q + 4, col g); C/D as for m16n8k16). cpu::split_dft (SplitScheme::Tf32x3)
// models the same arithmetic for the reference executor.

// x rounded to TF32 (10 explicit significand bits, to nearest, ties away from zero), as its bits.
__device__ __forceinline__ unsigned to_tf32(float x) {
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
}

// D = A B + C for one 16x8 (A, TF32) by 8x8 (B, TF32) tile with f32 accumulators.
__device__ __forceinline__ void mma_16x8x8_tf32(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// This lane's TF32 B fragments of one n tile and one half of the samples: [part][register] with
// parts big Re F, big Im F, big -Im F, small Re F, small Im F, small -Im F.
struct Tf32Fragments {
    unsigned f[6][2];
};

// Lane l's fragments of (n tile nt, half h) are the uint4s [nt][h][0..2][l] of a 6 KB table
// (conflict-free loads, 12 registers live per use).
__device__ __forceinline__ uint4* tf32_fragment_table() {
    __shared__ uint4 table[2][2][3][32];
    return &table[0][0][0][0];
}

// Fills the table (the first warp) and waits for it: every thread of the block calls this once,
// before its first tensor-core stage.
template <int DIR>
__device__ __forceinline__ void store_tf32_fragments() {
    if (threadIdx.x < 32) {
        const int g = (int)threadIdx.x >> 2;
        const int q = (int)(threadIdx.x & 3);
#pragma unroll
        for (int nt = 0; nt < 2; ++nt) {
            const int k = 8 * nt + g;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                unsigned w[6][2];
#pragma unroll
                for (int u = 0; u < 2; ++u) {
                    float c, s;
                    dft16_entry<DIR>(2 * q + u + 8 * h, k, c, s);
                    const unsigned cb = to_tf32(c), sb = to_tf32(s);
                    w[0][u] = cb;
                    w[1][u] = sb;
                    w[2][u] = sb ^ 0x80000000u;
                    w[3][u] = to_tf32(c - __uint_as_float(cb));
                    w[4][u] = to_tf32(s - __uint_as_float(sb));
                    w[5][u] = w[4][u] ^ 0x80000000u;
                }
                uint4* t = tf32_fragment_table() + (nt * 2 + h) * 96 + threadIdx.x;
                t[0] = make_uint4(w[0][0], w[0][1], w[1][0], w[1][1]);
                t[32] = make_uint4(w[2][0], w[2][1], w[3][0], w[3][1]);
                t[64] = make_uint4(w[4][0], w[4][1], w[5][0], w[5][1]);
            }
        }
    }
    __syncthreads();
}

__device__ __forceinline__ Tf32Fragments load_tf32_fragments(int nt, int h) {
    const uint4* t = tf32_fragment_table() + (nt * 2 + h) * 96 + (threadIdx.x & 31);
    const uint4 a = t[0], b = t[32], c = t[64];
    Tf32Fragments f;
    f.f[0][0] = a.x, f.f[0][1] = a.y, f.f[1][0] = a.z, f.f[1][1] = a.w;
    f.f[2][0] = b.x, f.f[2][1] = b.y, f.f[3][0] = b.z, f.f[3][1] = b.w;
    f.f[4][0] = c.x, f.f[4][1] = c.y, f.f[5][0] = c.z, f.f[5][1] = c.w;
    return f;
}

// Re Y += Ar Re F + Ai (-Im F), Im Y += Ar Im F + Ai Re F for one half's A registers and one
// part of the matrix (0: big, 3: small).
__device__ __forceinline__ void complex_mma_tf32(float (&yr)[4], float (&yi)[4], const unsigned (&ar)[4],
                                                 const unsigned (&ai)[4], const Tf32Fragments& f, int part) {
    mma_16x8x8_tf32(yr, ar, f.f[part][0], f.f[part][1]);
    mma_16x8x8_tf32(yr, ai, f.f[part + 2][0], f.f[part + 2][1]);
    mma_16x8x8_tf32(yi, ar, f.f[part + 1][0], f.f[part + 1][1]);
    mma_16x8x8_tf32(yi, ai, f.f[part][0], f.f[part][1]);
}

// The fp32-accurate 16-point DFTs of the warp's 32 butterflies in 3xTF32; v is this lane's 16
// slots, in the layout of dft16_tensor_cores. As in dft16_split_tensor_cores, the two A tiles
// (row slots 2 mt, 2 mt + 1) run one after the other and their outputs replace their inputs.
__device__ __forceinline__ void dft16_tf32x3_tensor_cores(Cx<float> (&v)[16]) {
#pragma unroll
    for (int mt = 0; mt < 2; ++mt) {
        // A registers of half h: reg = (row slot 2 mt + (reg & 1), sample slot 2 h + (reg >> 1)).
        unsigned big_re[2][4], big_im[2][4], small_re[2][4], small_im[2][4];
#pragma unroll
        for (int h = 0; h < 2; ++h) {
#pragma unroll
            for (int reg = 0; reg < 4; ++reg) {
                const Cx<float> x = v[(2 * mt + (reg & 1)) * 4 + 2 * h + (reg >> 1)];
                big_re[h][reg] = to_tf32(x.re);
                big_im[h][reg] = to_tf32(x.im);
                small_re[h][reg] = to_tf32(x.re - __uint_as_float(big_re[h][reg]));
                small_im[h][reg] = to_tf32(x.im - __uint_as_float(big_im[h][reg]));
            }
        }
        float y[2][2][4];  // [n tile][re, im][register]
#pragma unroll
        for (int nt = 0; nt < 2; ++nt) {
#pragma unroll
            for (int d = 0; d < 4; ++d) y[nt][0][d] = y[nt][1][d] = 0.0f;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const Tf32Fragments f = load_tf32_fragments(nt, h);
                complex_mma_tf32(y[nt][0], y[nt][1], small_re[h], small_im[h], f, 0);
                complex_mma_tf32(y[nt][0], y[nt][1], big_re[h], big_im[h], f, 3);
            }
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const Tf32Fragments f = load_tf32_fragments(nt, h);
                complex_mma_tf32(y[nt][0], y[nt][1], big_re[h], big_im[h], f, 0);
            }
        }
        // d0, d1: row g (row slot 2 mt), d2, d3: row g + 8; columns 8 nt + 2q + u are sample
        // slot 2 nt + u.
#pragma unroll
        for (int nt = 0; nt < 2; ++nt) {
#pragma unroll
            for (int d = 0; d < 4; ++d) v[(2 * mt + (d >> 1)) * 4 + 2 * nt + (d & 1)] = cx(y[nt][0][d], y[nt][1][d]);
        }
    }
}
