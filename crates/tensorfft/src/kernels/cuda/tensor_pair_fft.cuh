// 256-, 512- and 1024-point transforms on the tensor cores with both radix-16 stages in one
// warp's registers (seed 002's merged radix-256 kernel; issue 10): no shared memory, no barrier.
//
// Write x[n], n = m + 16 k, as the 16 x 16 matrix X^T[k][m] (column m: the samples of the first
// Stockham stage's butterfly m). The first stage is Y^T = F X^T, with the DFT matrix F as the A
// operand and the samples as the B operand, so the accumulators hold Y^T[r][m] (row r: the
// first stage's frequency, column m: its butterfly) in the C layout of mma.sync m16n8k16. The
// second stage's butterfly r takes sample m = Y^T[r][m] times w_256^(r m), and
// Z = (W o Y^T) F, W[r][m] = w_256^(r m): the C layout of two neighbouring 16 x 8 tiles is the A
// layout of a 16 x 16 tile, so the accumulators, twiddled in f32 and rounded to f16, are the
// second product's A operand as they are (no exchange, no transpose). Z[r][k] is frequency
// r + 16 k. This is the arithmetic of two tensor-core Stockham stages of radix 16 with an f32
// exchange (stockham_single_pass.cuh, emulated by cpu::reference): the same roundings, the same
// twiddles, the same products in the same order.
//
// Fragment maps (PTX ISA, m16n8k16 .f16, lane = 4 g + q), for one transform:
//  - B operand of the first product, n tile nt (butterflies m = 8 nt + g): registers (k 2q,
//    2q + 1) and (k 2q + 8, 2q + 9), so the lane loads x[g + 8 nt + 16 (2q + u + 8 reg)].
//  - The first product's accumulators, tile nt: (r g, m 8 nt + 2q + u) and (r g + 8, same).
//  - The second product's outputs, tile nt: (r g + 8 h, k 8 nt + 2q + u), frequency
//    g + 8 h + 16 (8 nt + 2q + u).
// Every address is the lane's base g + 32 q plus a compile-time offset. F is symmetric, so the
// A fragments of F (first product) are the B fragments (second product) with the registers
// reordered: A (row g + 8 i, cols 2q + 8 j ..) = B[n tile i][register j]. The -Im F products
// take the negated data instead (-Im X Im F, exact), so the -Im F fragments are never held:
// 1024 compiles to 128 registers without spills (24 bytes with them; H200 84.2% of the copy
// against 82.3%, 512 96.5% against 95.3%, NOTES step 71).
//
// N = 256 R with R = 2 or 4 (Stockham radices [16, 16, R]): a warp holds one transform and
// its R stride-R subsequences (units) x[a + R n], a < R, each a 256-point transform as above
// (stages 0 and 1 of the plan act on the units separately). The lane loads the R units'
// samples at one position as one vector (they are neighbours), and holds every unit's
// frequency c at the same slot, so the last stage, twiddle w_N^(c a) and a radix-R DFT over
// the units (dft_registers.cuh), runs within the lane; frequency c + 256 d is stored for each d.
// Its twiddle w_N^(c a) is the lane's w_N^(base a), read from the plan's [a][c] table of that
// stage once per transform, times a compile-time constant per slot (last_stage).
//
// N = 1024 ... 16384 with 16 values per thread (Stockham radices [16, 16, ...], T = N / 16
// threads: the plan's Tuning::tensor_pairs): the transform's N / 256 stride-(N / 256) units are
// spread over its warps, two neighbouring units per warp (one 8-byte load per position; the
// warps of a block together read whole sectors, from L1). Each unit's two stages run as above; the outputs go to
// shared memory at the Stockham positions 256 a + c of stage 1's output (buffer 2, the plan's
// padding), and the remaining stages run as the Stockham kernel's (SinglePass::stage in
// stockham_single_pass.cuh: tensor-core radix 16, CUDA-core radix 2 / 4 / 8), the last one
// storing to device memory. The pair replaces two shared-memory exchanges and two barriers.
// With Cfg::STAGED_IN the block first copies its tile into a shared-memory buffer of its own
// with 16-byte loads, and the warps read their units from there (run_staged).
//
// For R = 1 a warp holds U = 32 / T transforms (the plan's T = 32, 16 or 8 threads per
// transform, E = 8 U values per thread): independent products in flight for the same fragments
// and twiddles.
// Twiddle table (plan::twiddles::stage_twiddles): w_256^(r m) of each lane's 8 accumulators,
// [slot pair][lane][2] (one 16-byte load of 512 consecutive bytes per warp instruction), slot
// s = 4 nt + 2 h + u for (r g + 8 h, m 8 nt + 2q + u); the inverse kernel conjugates.
#pragma once

// R neighbouring complex f16 words as one vector (one load instruction).
template <int R>
struct UnitWords;
template <>
struct UnitWords<1> {
    typedef unsigned Type;
};
template <>
struct UnitWords<2> {
    typedef uint2 Type;
};
template <>
struct UnitWords<4> {
    typedef uint4 Type;
};

// The DFT matrix's fragments as the A operand (the first product): its rows g, g + 8 and
// columns 2q.., 2q + 8.. in the register order of m16n8k16, i.e. the B fragments of
// Dft16Fragments reordered (F is symmetric). An A operand takes four consecutive registers and a
// B operand two, and no one order serves both: with a single copy the assembler moves registers
// around the products (about 35-60 moves per tile in the one-warp kernels, 50 at 4096).
struct Dft16Rows {
    unsigned re[4];
    unsigned im[4];
};

// A copy of x the assembler cannot merge with x, so that it gets registers of its own: x xor a
// zero it cannot prove (threadIdx.x >> 10, blocks have at most 1024 threads; an opaque move is
// propagated away).
__device__ __forceinline__ unsigned separate_copy(unsigned x) { return x ^ (threadIdx.x >> 10); }

// SEPARATE: both orders in registers of their own (eight more live registers). The one-warp
// kernels take it: 7-11% fewer instructions per tile at 256 / 512 / 1024 (SASS; ncu, 1024 with
// 32 values per thread: 7.3% fewer executed), level on an H100, where these rows are bound by
// DRAM. Beyond one warp the kernels keep the moves: at 4096 the copy executes 8.6% fewer
// instructions, but on the H100 1024 with 16 values per thread measured 90.2-90.7% of the copy
// against 93.7-95.7% and 2048 92.3% against 94.0% (bench/NOTES.md step 75).
template <bool SEPARATE>
__device__ __forceinline__ Dft16Rows dft16_rows(const Dft16Fragments& f) {
    Dft16Rows a;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        a.re[i] = f.re[i & 1][i >> 1];
        a.im[i] = f.im[i & 1][i >> 1];
        if constexpr (SEPARATE) {
            a.re[i] = separate_copy(a.re[i]);
            a.im[i] = separate_copy(a.im[i]);
        }
    }
    return a;
}

// F32Split (Cfg::SPLIT): the split DFT matrix (dft_tensor_cores.cuh: Fhi and 2^12 Flo) as the
// first product's A operand, from the lanes' split fragment table in the same reordering.
struct SplitDft16Rows {
    unsigned hi_re[4], hi_im[4], lo_re[4], lo_im[4];
};

__device__ __forceinline__ SplitDft16Rows split_dft16_rows() {
    const SplitFragments f[2] = {load_split_fragments(0), load_split_fragments(1)};
    SplitDft16Rows a;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        a.hi_re[i] = f[i & 1].hi_re[i >> 1];
        a.hi_im[i] = f[i & 1].hi_im[i >> 1];
        a.lo_re[i] = f[i & 1].lo_re[i >> 1];
        a.lo_im[i] = f[i & 1].lo_im[i >> 1];
    }
    return a;
}

// R neighbouring complex words of 8 bytes (f32) as one vector of 8, 16 or 32 bytes.
template <typename Bits, int R>
struct UnitVector {
    typedef typename UnitWords<R>::Type Type;
};
template <int R>
struct UnitVector<float2, R> {
    typedef BitsVec<float2, R> Type;
};

template <class Cfg>
struct TensorPairFft {
    typedef typename Cfg::Store Store;
    typedef typename Store::Bits Bits;
    // The products' operand format: f16, or bf16 for BF16 data (the same fragments).
    typedef typename Cfg::Packed::Format Fmt;
    static constexpr int N = Cfg::N;
    static constexpr int T = Cfg::T;
    static constexpr int B = Cfg::B;
    static constexpr int UNITS = N / 256;            // 256-point units per transform
    static constexpr bool IN_WARP = T <= 32;         // the whole transform in one warp
    static constexpr int R = IN_WARP ? UNITS : 1;    // radix of an in-lane last stage (1: none)
    static constexpr int U = UNITS == 1 ? 32 / T : 1;  // transforms per warp
    static constexpr int S = IN_WARP ? U * R : 2;    // 256-point units per lane
    static constexpr int DIR = Cfg::DIR;
    static constexpr int THREADS = T * B;
    static_assert(Cfg::E * T == N && ((R == 1 && (T == 32 || T == 16 || T == 8)) || ((R == 2 || R == 4) && T == 32) ||
                                      (!IN_WARP && Cfg::E == 16 && Cfg::TENSOR && (!Cfg::STAGED_OUT || Cfg::STRIDED))),
                  "256 points, 8 per lane per transform, 512 / 1024 in one warp, or longer transforms with 16 "
                  "values per thread and direct stores (staged ones in strided passes)");
    static_assert(IN_WARP ? !Cfg::STAGED_IN : true, "one-warp kernels load directly");
    static_assert(THREADS % 32 == 0, "whole warps");
    static_assert(sizeof(Bits) == (Cfg::SPLIT ? 8 : 4), "complex f16 words, or f32 words for F32Split");
    static_assert(!(Cfg::SPLIT && (Cfg::STAGED_IN || Cfg::SPLIT_TF32)),
                  "F32Split pairs load directly and split into f16 halves");

    // Offset of the lane's sample (nt, reg, u) from its base g + 32 q.
    static __device__ __forceinline__ constexpr int sample_offset(int nt, int reg, int u) {
        return 8 * nt + 16 * u + 128 * reg;
    }
    // Offset of the lane's output (nt, h, u) from the same base.
    static __device__ __forceinline__ constexpr int output_offset(int nt, int h, int u) {
        return 8 * h + 128 * nt + 16 * u;
    }

    // The first product, Y^T = F X^T, for one transform whose words are raw[nt][reg][u], then
    // the twiddle (and a normalized direction's scale) on its accumulators, rounded into the
    // A fragments of the second product: a[0..3] as in the map above.
    static __device__ __forceinline__ void first_stage(const Dft16Rows& f, const Bits (&raw)[8],
                                                       const Cx<float> (&tw)[8], unsigned (&ar)[4],
                                                       unsigned (&ai)[4]) {
        const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        const unsigned(&fr)[4] = f.re;
        const unsigned(&fi)[4] = f.im;
#pragma unroll
        for (int nt = 0; nt < 2; ++nt) {
            // Samples (2q, 2q + 1) and (2q + 8, 2q + 9): real and imaginary halves paired.
            unsigned xr[2], xi[2], xn[2];
#pragma unroll
            for (int reg = 0; reg < 2; ++reg) {
                const Bits lo = raw[nt * 4 + reg * 2], hi = raw[nt * 4 + reg * 2 + 1];
                xr[reg] = __byte_perm(lo, hi, 0x5410);
                xi[reg] = __byte_perm(lo, hi, 0x7632);
                xn[reg] = xi[reg] ^ 0x80008000u;  // -Im, exact
            }
            float yr[4], yi[4];
            mma_16x8x16<Fmt>(yr, fr, xr[0], xr[1], zero);
            mma_16x8x16<Fmt>(yr, fi, xn[0], xn[1], yr);
            mma_16x8x16<Fmt>(yi, fi, xr[0], xr[1], zero);
            mma_16x8x16<Fmt>(yi, fr, xi[0], xi[1], yi);
            // Accumulator 2 h + u: (r g + 8 h, m 8 nt + 2q + u), twiddle slot 4 nt + 2 h + u.
            Cx<float> y[4];
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                y[i] = cx(yr[i], yi[i]);
                if constexpr (Cfg::SCALE != 0) y[i] = cscale(y[i], (float)stage_scale<16, Cfg::SCALE>());
                y[i] = cmul(y[i], tw[nt * 4 + i]);
            }
            // A registers: (row g, cols 8 nt + 2q ..) and (row g + 8, same).
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                ar[2 * nt + h] = pack_operands<Fmt>(y[2 * h].re, y[2 * h + 1].re);
                ai[2 * nt + h] = pack_operands<Fmt>(y[2 * h].im, y[2 * h + 1].im);
            }
        }
    }

    // The second product, Z = (W o Y^T) F, in f32: z[nt][h][u].
    static __device__ __forceinline__ void second_stage(const Dft16Fragments& f, const unsigned (&ar)[4],
                                                        const unsigned (&ai)[4], Cx<float> (&z)[8]) {
#pragma unroll
        for (int nt = 0; nt < 2; ++nt) {
            float yr[4], yi[4];
            times_dft16_negating<Fmt>(yr, yi, ar, ai, f, nt);
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                z[nt * 4 + i] = cx(yr[i], yi[i]);
                if constexpr (Cfg::SCALE != 0) z[nt * 4 + i] = cscale(z[nt * 4 + i], (float)stage_scale<16, Cfg::SCALE>());
            }
        }
    }

    // F32Split: the two products of one unit with split operands (dft_tensor_cores.cuh,
    // dft16_split_tensor_cores: x = s (hi + 2^-12 lo) with s the power of two at or above the
    // butterfly's largest component, F = Fhi + 2^-12 Flo, F x = s (Fhi hi + 2^-12 (Flo hi +
    // Fhi lo))), the arithmetic of two split tensor-core Stockham stages. First product:
    // butterfly m = 8 nt + g's samples are this tile's B column g, spread over the quad, so its
    // scale is the quad's; the accumulators' column 8 nt + 2q + u is butterfly 2q + u of the
    // tile, whose scale lane 4 (2q + u) holds. The -Im F products take -Im X (exact), as above.
    static __device__ __forceinline__ void split_first_stage(const SplitDft16Rows& f, const Bits (&raw)[8],
                                                             const Cx<float> (&tw)[8], Cx<float> (&y)[8]) {
        const int q = (int)(threadIdx.x & 3);
#pragma unroll
        for (int nt = 0; nt < 2; ++nt) {
            float m = 0.0f;
#pragma unroll
            for (int i = 0; i < 4; ++i) m = fmaxf(m, fmaxf(fabsf(raw[nt * 4 + i].x), fabsf(raw[nt * 4 + i].y)));
            const int e = split_exponent(quad_max(m));
            const float inv = power_of_two(-e);
            // B registers: samples (2q, 2q + 1) and (2q + 8, 2q + 9) of the butterfly.
            unsigned hr[2], hi[2], lr[2], li[2], hn[2], ln[2];
#pragma unroll
            for (int reg = 0; reg < 2; ++reg) {
                const Bits x0 = raw[nt * 4 + reg * 2], x1 = raw[nt * 4 + reg * 2 + 1];
                split_half2(x0.x * inv, x1.x * inv, hr[reg], lr[reg]);
                split_half2(x0.y * inv, x1.y * inv, hi[reg], li[reg]);
                hn[reg] = hi[reg] ^ 0x80008000u;
                ln[reg] = li[reg] ^ 0x80008000u;
            }
            float yr[4] = {0.0f, 0.0f, 0.0f, 0.0f}, yi[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            mma_16x8x16(yr, f.hi_re, hr[0], hr[1], yr);
            mma_16x8x16(yr, f.hi_im, hn[0], hn[1], yr);
            mma_16x8x16(yi, f.hi_im, hr[0], hr[1], yi);
            mma_16x8x16(yi, f.hi_re, hi[0], hi[1], yi);
            float cr[4] = {0.0f, 0.0f, 0.0f, 0.0f}, ci[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            mma_16x8x16(cr, f.lo_re, hr[0], hr[1], cr);
            mma_16x8x16(cr, f.lo_im, hn[0], hn[1], cr);
            mma_16x8x16(ci, f.lo_im, hr[0], hr[1], ci);
            mma_16x8x16(ci, f.lo_re, hi[0], hi[1], ci);
            mma_16x8x16(cr, f.hi_re, lr[0], lr[1], cr);
            mma_16x8x16(cr, f.hi_im, ln[0], ln[1], cr);
            mma_16x8x16(ci, f.hi_im, lr[0], lr[1], ci);
            mma_16x8x16(ci, f.hi_re, li[0], li[1], ci);
            const float scale[2] = {power_of_two(__shfl_sync(0xffffffffu, e, 8 * q)),
                                    power_of_two(__shfl_sync(0xffffffffu, e, 8 * q + 4))};
            // Accumulator 2 h + u: (r g + 8 h, m 8 nt + 2q + u), twiddle slot 4 nt + 2 h + u.
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const float s = scale[i & 1];
                Cx<float> v = cx(s * fmaf(2.44140625e-4f, cr[i], yr[i]), s * fmaf(2.44140625e-4f, ci[i], yi[i]));
                if constexpr (Cfg::SCALE != 0) v = cscale(v, (float)stage_scale<16, Cfg::SCALE>());
                y[nt * 4 + i] = cmul(v, tw[nt * 4 + i]);
            }
        }
    }

    // Second product: the twiddled accumulators are the A operand as they are; row g + 8 h
    // (butterfly r) is accumulators 2 h + u of both tiles, spread over the quad.
    static __device__ __forceinline__ void split_second_stage(const Cx<float> (&y)[8], Cx<float> (&z)[8]) {
        int e[2];
        unsigned ahr[4], ahi[4], alr[4], ali[4];
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            float m = 0.0f;
#pragma unroll
            for (int nt = 0; nt < 2; ++nt)
#pragma unroll
                for (int u = 0; u < 2; ++u) {
                    const Cx<float> v = y[nt * 4 + 2 * h + u];
                    m = fmaxf(m, fmaxf(fabsf(v.re), fabsf(v.im)));
                }
            e[h] = split_exponent(quad_max(m));
            const float inv = power_of_two(-e[h]);
#pragma unroll
            for (int nt = 0; nt < 2; ++nt) {
                const Cx<float> v0 = y[nt * 4 + 2 * h], v1 = y[nt * 4 + 2 * h + 1];
                split_half2(v0.re * inv, v1.re * inv, ahr[2 * nt + h], alr[2 * nt + h]);
                split_half2(v0.im * inv, v1.im * inv, ahi[2 * nt + h], ali[2 * nt + h]);
            }
        }
#pragma unroll
        for (int nt = 0; nt < 2; ++nt) {
            const SplitFragments f = load_split_fragments(nt);
            float yr[4] = {0.0f, 0.0f, 0.0f, 0.0f}, yi[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            complex_mma(yr, yi, ahr, ahi, f.hi_re, f.hi_im, f.hi_neg_im);
            float cr[4] = {0.0f, 0.0f, 0.0f, 0.0f}, ci[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            complex_mma(cr, ci, ahr, ahi, f.lo_re, f.lo_im, f.lo_neg_im);
            complex_mma(cr, ci, alr, ali, f.hi_re, f.hi_im, f.hi_neg_im);
#pragma unroll
            for (int d = 0; d < 4; ++d) {
                const float s = power_of_two(e[d >> 1]);
                Cx<float> v = cx(s * fmaf(2.44140625e-4f, cr[d], yr[d]), s * fmaf(2.44140625e-4f, ci[d], yi[d]));
                if constexpr (Cfg::SCALE != 0) v = cscale(v, (float)stage_scale<16, Cfg::SCALE>());
                z[nt * 4 + d] = v;
            }
        }
    }

    // Vectors of S words (the lane's S units' samples at one position), and the distance in
    // vectors between a unit's neighbouring samples.
    typedef typename UnitVector<Bits, UNITS == 1 ? 1 : S>::Type Vec;
    static constexpr int VEC_STEP = UNITS > 1 ? UNITS / S : 1;

    // The lane's base position g + 32 q in its units (every address is it plus a compile-time
    // offset).
    static __device__ __forceinline__ int lane_base() {
        const int lane = (int)(threadIdx.x & 31);
        return (lane >> 2) + 32 * (lane & 3);
    }

    // The warp's index within its transform (0 when a warp holds whole transforms).
    static __device__ __forceinline__ int warp_in_transform() { return (int)(threadIdx.x % T) / 32; }

    // f(slot, offset) for each of the lane's 8 sample positions of a unit: slot nt 4 + reg 2 + u
    // of its words, at sample_offset(nt, reg, u) from its base.
    template <class F>
    static __device__ __forceinline__ void each_sample(F&& f) {
#pragma unroll
        for (int nt = 0; nt < 2; ++nt)
#pragma unroll
            for (int reg = 0; reg < 2; ++reg)
#pragma unroll
                for (int u = 0; u < 2; ++u) f(nt * 4 + reg * 2 + u, sample_offset(nt, reg, u));
    }

    // The warp's first transform in group `group` (a block's B transforms).
    static __device__ __forceinline__ u64 first_transform(u64 group) {
        return group * B + (T >= 32 ? threadIdx.x / T : (threadIdx.x / 32) * U);
    }

    // The words of the warp's units for group `group` (zeros past the batch): raw[t][..] is
    // transform t (UNITS = 1) or unit a = S w + t of the warp's transform (w: the warp within
    // the transform), sample a + UNITS (base + offset).
    static __device__ __forceinline__ void load(const Bits* in, u64 group, u64 batch, int base, Bits (&raw)[S][8]) {
        const u64 first = first_transform(group);
#pragma unroll
        for (int t = 0; t < U; ++t) {
            const bool valid = first + t < batch;
            const Vec* src = reinterpret_cast<const Vec*>(in + (first + t) * (u64)N + S * warp_in_transform()) +
                             VEC_STEP * base;
            each_sample([&](int slot, int offset) {
                const Vec v = valid ? load_data<Cfg::STREAM_LOADS>(src + VEC_STEP * offset) : Vec{};
#pragma unroll
                for (int a = 0; a < S / U; ++a) raw[t * (S / U) + a][slot] = reinterpret_cast<const Bits*>(&v)[a];
            });
        }
    }

    // Stores transform t's outputs z[nt][h][u] (R = 1).
    static __device__ __forceinline__ void store(Bits* dst, const Cx<float> (&z)[8]) {
#pragma unroll
        for (int nt = 0; nt < 2; ++nt)
#pragma unroll
            for (int h = 0; h < 2; ++h)
#pragma unroll
                for (int u = 0; u < 2; ++u) dst[output_offset(nt, h, u)] = Store::pack(z[nt * 4 + h * 2 + u]);
    }

    // The last stage (R > 1): at each of the lane's slots, unit a's frequency c times w_N^(c a),
    // a radix-R DFT over the units, frequency c + 256 d stored. The lane's frequencies are
    // c = base + o with o a compile-time offset, so the twiddle is w_N^(a base) (read from the
    // stage's table [a][c] at `table`, R - 1 values per transform) times the constant
    // w_N^(a o): two products instead of a table read per slot and unit (24 8-byte L1 reads per
    // lane and transform at 1024 were its top stall; bench/NOTES.md step 127). The table's
    // twiddles are correctly rounded f32, these within about 2 f32 ulps: far below the f16
    // (bf16) rounding of the data. F32Split, whose error is at f32's level, reads the table.
    static constexpr bool CONSTANT_ROOTS = !Cfg::SPLIT;

    static __device__ __forceinline__ void last_stage(Bits* dst, const float* table, int base, Cx<float> (&z)[S][8]) {
        const float2* tw = reinterpret_cast<const float2*>(table) + base;
        Cx<float> lane_root[R];  // w_N^(a base); [0] unused
        if constexpr (CONSTANT_ROOTS) {
#pragma unroll
            for (int a = 1; a < R; ++a) {
                const float2 w = __ldg(tw + a * 256);
                lane_root[a] = cx(w.x, DIR < 0 ? w.y : -w.y);
            }
        }
#pragma unroll
        for (int nt = 0; nt < 2; ++nt)
#pragma unroll
            for (int h = 0; h < 2; ++h)
#pragma unroll
                for (int u = 0; u < 2; ++u) {
                    const int i = nt * 4 + h * 2 + u;
                    const int c = output_offset(nt, h, u);  // the slot's frequency is base + c
                    Cx<float> v[R];
#pragma unroll
                    for (int a = 0; a < R; ++a) {
                        v[a] = z[a][i];
                        if (a > 0 && CONSTANT_ROOTS) {
                            v[a] = cmul(v[a], lane_root[a]);
                            if ((a * c) % N != 0) v[a] = cmul(v[a], constant_root<DIR, float>(a * c, N));
                        } else if (a > 0) {
                            const float2 w = __ldg(tw + a * 256 + c);
                            v[a] = cmul(v[a], cx(w.x, DIR < 0 ? w.y : -w.y));
                        }
                    }
                    dft_in_registers<R, DIR>(v);
#pragma unroll
                    for (int d = 0; d < R; ++d) {
                        if constexpr (Cfg::SCALE != 0) v[d] = cscale(v[d], (float)stage_scale<R, Cfg::SCALE>());
                        dst[d * 256 + c] = Store::pack(v[d]);
                    }
                }
    }

    // Beyond one warp (!IN_WARP): the Stockham kernel that runs the stages after the pair.
    typedef SinglePass<Cfg> Tail;

    // Beyond one warp: the pair's outputs of the lane's units a = S w + t, frequency base +
    // offset, at Stockham position 256 a + c of buffer 2 (stage 1's output, the plan's padding).
    static __device__ __forceinline__ void exchange_out(typename Tail::XBits* smem, int base, const Cx<float> (&z)[S][8]) {
        typename Tail::XBits* dst = smem + Tail::template padded<2>(256 * S * warp_in_transform() + base);
#pragma unroll
        for (int t = 0; t < S; ++t)
#pragma unroll
            for (int nt = 0; nt < 2; ++nt)
#pragma unroll
                for (int h = 0; h < 2; ++h)
#pragma unroll
                    for (int u = 0; u < 2; ++u)
                        dst[Tail::template padded<2>(256 * t + output_offset(nt, h, u))] =
                            Tail::Xch::pack(z[t][nt * 4 + h * 2 + u]);
    }

    // Beyond one warp: stages 2 ... (radices R2, REST...) from shared memory, the last one to
    // device memory; with twiddles loaded ahead, stage 2's are loaded here (run_stages starts them).
    template <int R2, int... REST>
    static __device__ __forceinline__ void tail_stages(const typename Tail::Ctx& c) {
        Cx<float> v[16], tw[16];
        if constexpr (Cfg::TW_AHEAD)
            Tail::template load_twiddles<R2, 256, 256, Tail::template width<R2, false, sizeof...(REST) == 0>()>(c, tw);
        run_stages<Tail, 2, 256, 256, R2, REST...>(c, v, tw);
    }

    // Beyond one warp with Cfg::STAGED_IN: the block's tile goes device memory -> registers (16-byte
    // loads, Tail::load_staged) -> a shared-memory buffer of its own in the data's format (after
    // the B exchange buffers; the plan's padding of buffer 0, two 8-byte stores per 16 bytes),
    // and each warp reads its units' samples from there: the loads are whole sectors instead of
    // a quarter of one per lane.
    static __device__ __forceinline__ unsigned* staging(int transform) {
        return reinterpret_cast<unsigned*>(Tail::block_smem() + B * Cfg::SMEM_STRIDE) +
               transform * Tail::template padded<0>(N);
    }

    static __device__ __forceinline__ void stage_in(const Vec16 (&w)[Tail::CHUNKS_PER_THREAD]) {
#pragma unroll
        for (int it = 0; it < Tail::CHUNKS_PER_THREAD; ++it) {
            const int ci = it * THREADS + (int)threadIdx.x;
            if (!Tail::chunk_exists(ci)) continue;
            const int e = ci * 4;  // four complex f16 words per chunk
            uint2* dst = reinterpret_cast<uint2*>(staging(e / N) + Tail::template padded<0>(e % N));
            const uint4 v = *reinterpret_cast<const uint4*>(&w[it]);
            dst[0] = make_uint2(v.x, v.y);
            dst[1] = make_uint2(v.z, v.w);  // padded<0>(e + 2) = padded<0>(e) + 2: e % 4 == 0
        }
    }

    // The lane's samples of its two units (staged mode), as load() gathers them, from the
    // transform's staging buffer.
    static __device__ __forceinline__ void unstage(int base, Bits (&raw)[S][8]) {
        unstage_from(staging((int)(threadIdx.x / T)), base, raw);
    }

    // The same from a transform's samples at buffer 0's positions of `slice`.
    static __device__ __forceinline__ void unstage_from(const unsigned* slice, int base, Bits (&raw)[S][8]) {
        static_assert(S == 2, "two units per lane");
        const unsigned* src = slice + Tail::template padded<0>(S * warp_in_transform() + UNITS * base);
        each_sample([&](int slot, int offset) {
            const uint2 v = *reinterpret_cast<const uint2*>(src + Tail::template padded<0>(UNITS * offset));
            raw[0][slot] = v.x;
            raw[1][slot] = v.y;
        });
    }

    // The pair's twiddles of this lane (the table's first 4 x 32 float4s). Kernels whose launch
    // bounds leave 64 registers per thread (1024 threads per block, or per SM with
    // Cfg::MIN_BLOCKS) load them for each tile instead of holding them through the tail stages
    // (sixteen registers), with a load the compiler cannot hoist out of the loop. H100: 16384 (the
    // default, 1024 threads) spilled 96 bytes with them held and 24 without, 46.7 -> 49.5% of the
    // copy; the capped variants of 2048 / 4096 / 8192 without prefetch 61-63 -> 80-84%, 58-62 ->
    // 76-80%, 47-53 -> 58-61%, with prefetch 27-29 -> 62%, 36-39 -> 59-60%, 34-37 -> 54%. At 80
    // registers (three blocks of 256 threads) it helped the prefetching variants (4096 68.9 ->
    // 80.5%) and cost the others up to 3% (88.3 -> 85.4%); bench/NOTES.md step 76. F32Split
    // loads them for each unit (its split operands need the registers; step 77).
    static constexpr int RESIDENT_THREADS = THREADS * (Cfg::MIN_BLOCKS > 1 ? Cfg::MIN_BLOCKS : 1);
    static constexpr bool RELOAD_PAIR_TWIDDLES = (!IN_WARP && Cfg::STAGED_IN && RESIDENT_THREADS >= 1024) || Cfg::SPLIT;

    static __device__ __forceinline__ void pair_twiddles(const float* twiddles, Cx<float> (&tw)[8]) {
        const float4* row = reinterpret_cast<const float4*>(twiddles) + (threadIdx.x & 31);
#pragma unroll
        for (int pair = 0; pair < 4; ++pair) {
            float4 w;
            if constexpr (RELOAD_PAIR_TWIDDLES) {
                asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
                             : "=f"(w.x), "=f"(w.y), "=f"(w.z), "=f"(w.w)
                             : "l"(row + pair * 32));
            } else {
                w = __ldg(row + pair * 32);
            }
            tw[2 * pair] = cx(w.x, DIR < 0 ? w.y : -w.y);
            tw[2 * pair + 1] = cx(w.z, DIR < 0 ? w.w : -w.w);
        }
    }

    // The outputs z of the warp's units for group `group`: stored (one-warp kernels with
    // R = 1), through the in-lane last stage (R > 1), or through shared memory to the Stockham
    // stages after the pair (beyond one warp).
    template <int... REST>
    static __device__ __forceinline__ void finish(typename Tail::Ctx& c, Bits* out, const float* twiddles, u64 group,
                                                  u64 batch, int base, Cx<float> (&z)[S][8]) {
        const u64 first = first_transform(group);
        if constexpr (R == 1 && IN_WARP) {
#pragma unroll
            for (int t = 0; t < U; ++t) {
                if (first + t < batch) store(out + (first + t) * (u64)N + base, z[t]);
            }
        } else if constexpr (IN_WARP) {
            if (first < batch) last_stage(out + first * (u64)N + base, twiddles + 2 * 256, base, z);
        } else {
            Tail::select_group(c, group, batch);
            __syncthreads();  // the previous group's last stage has read shared memory
            exchange_out(c.smem, base, z);
            __syncthreads();
            tail_stages<REST...>(c);
        }
    }

    template <int... REST>
    static __device__ __forceinline__ void run_staged(typename Tail::Ctx& c, const Dft16Fragments& f, const Dft16Rows& fa,
                                                      const Cx<float> (&tw)[8], int base, u64 batch) {
        const u64 groups = (batch + B - 1) / B;
        u64 group = blockIdx.x;
        Vec16 chunks[Tail::CHUNKS_PER_THREAD];
        Tail::select_group(c, group, batch);
        if constexpr (Cfg::PREFETCH) Tail::load_staged(c, chunks);
        for (; group < groups; group += gridDim.x) {
            Tail::select_group(c, group, batch);
            if constexpr (!Cfg::PREFETCH) Tail::load_staged(c, chunks);
            // Every thread has passed the previous group's barrier after its reads of the staging
            // buffer, and the next barrier orders this group's exchange after the previous
            // group's last stage.
            stage_in(chunks);
            if constexpr (Cfg::PREFETCH) {
                if (group + gridDim.x < groups) {
                    typename Tail::Ctx cn = c;
                    Tail::select_group(cn, group + gridDim.x, batch);
                    Tail::load_staged(cn, chunks);
                }
            }
            __syncthreads();
            Bits raw[S][8];
            unstage(base, raw);
            unsigned ar[S][4], ai[S][4];
            if constexpr (RELOAD_PAIR_TWIDDLES) {
                Cx<float> twl[8];
                pair_twiddles(c.twiddles, twl);
#pragma unroll
                for (int t = 0; t < S; ++t) first_stage(fa, raw[t], twl, ar[t], ai[t]);
            } else {
#pragma unroll
                for (int t = 0; t < S; ++t) first_stage(fa, raw[t], tw, ar[t], ai[t]);
            }
            Cx<float> z[S][8];
#pragma unroll
            for (int a = 0; a < S; ++a) second_stage(f, ar[a], ai[a], z[a]);
            exchange_out(c.smem, base, z);
            __syncthreads();
            tail_stages<REST...>(c);
        }
    }

    // An item of a strided pass (strided_pass.cuh): the pair on the gathered, twiddled samples
    // at buffer 0's positions of the item's slice c.smem, its outputs into the same slice at
    // buffer 2's positions (after a block barrier: the two buffers share the slice), then the
    // tail stages, the last one into the slice for the pass's staged store.
    template <int... REST>
    static __device__ __forceinline__ void transform_slice(const typename Tail::Ctx& c, const Dft16Fragments& f,
                                                           const Dft16Rows& fa, int base) {
        static_assert(!IN_WARP && !Cfg::SPLIT && Cfg::STRIDED && Cfg::STAGED_IN && Cfg::STAGED_OUT,
                      "strided passes of F16 items of 1024 and more, gathered and stored through shared memory");
        static_assert(sizeof(typename Tail::XBits) == sizeof(unsigned), "f16 tiles");
        Bits raw[S][8];
        unstage_from(reinterpret_cast<const unsigned*>(c.smem), base, raw);
        Cx<float> tw[8];
        pair_twiddles(c.twiddles, tw);
        unsigned ar[S][4], ai[S][4];
#pragma unroll
        for (int t = 0; t < S; ++t) first_stage(fa, raw[t], tw, ar[t], ai[t]);
        Cx<float> z[S][8];
#pragma unroll
        for (int a = 0; a < S; ++a) second_stage(f, ar[a], ai[a], z[a]);
        __syncthreads();  // every lane has read its samples before the slices are overwritten
        exchange_out(c.smem, base, z);
        __syncthreads();
        tail_stages<REST...>(c);
    }

    template <int R0, int R1, int... REST>
    static __device__ __forceinline__ void run(const Bits* in, Bits* out, const float* twiddles, u64 batch) {
        static_assert(R0 == 16 && R1 == 16, "radices [16, 16, ...]");
        const int base = lane_base();
        // F32Split: the split fragments sit in a shared table (every thread takes part in
        // filling it, before any returns); the f16 fragments are left unused.
        if constexpr (Cfg::SPLIT) store_split_fragments<DIR>();
        const Dft16Fragments f = dft16_fragments<DIR, Fmt>();
        const Dft16Rows fa = dft16_rows<IN_WARP>(f);
        Cx<float> tw[8];
        if constexpr (!RELOAD_PAIR_TWIDDLES) pair_twiddles(twiddles, tw);
        const u64 groups = (batch + B - 1) / B;
        u64 group = blockIdx.x;
        if (group >= groups) return;
        typename Tail::Ctx c;
        if constexpr (!IN_WARP) {
            c.in = in;
            c.out = out;
            c.twiddles = twiddles;
            c.smem = Tail::block_smem() + (threadIdx.x / T) * Cfg::SMEM_STRIDE;
            c.dft16 = f;
            c.t = (int)(threadIdx.x % T);
            c.total = batch * (u64)N;
        }
        if constexpr (!IN_WARP && Cfg::STAGED_IN) {
            run_staged<REST...>(c, f, fa, tw, base, batch);
            return;
        }
        Bits raw[S][8];
        if constexpr (Cfg::PREFETCH) load(in, group, batch, base, raw);
        if constexpr (Cfg::SPLIT) {
            for (; group < groups; group += gridDim.x) {
                if constexpr (!Cfg::PREFETCH) load(in, group, batch, base, raw);
                // One unit at a time: its words give way to its outputs. The DFT matrix's
                // fragments and the pair's twiddles are loaded for each unit (shared memory, L1)
                // rather than held: 32 registers.
                Cx<float> z[S][8];
#pragma unroll
                for (int t = 0; t < S; ++t) {
                    Cx<float> y[8], twl[8];
                    pair_twiddles(twiddles, twl);
                    split_first_stage(split_dft16_rows(), raw[t], twl, y);
                    split_second_stage(y, z[t]);
                }
                if constexpr (Cfg::PREFETCH) {
                    if (group + gridDim.x < groups) load(in, group + gridDim.x, batch, base, raw);
                }
                finish<REST...>(c, out, twiddles, group, batch, base, z);
            }
        } else {
            for (; group < groups; group += gridDim.x) {
                if constexpr (!Cfg::PREFETCH) load(in, group, batch, base, raw);
                unsigned ar[S][4], ai[S][4];
#pragma unroll
                for (int t = 0; t < S; ++t) first_stage(fa, raw[t], tw, ar[t], ai[t]);
                // The next group's loads fly during the second products and the stores.
                if constexpr (Cfg::PREFETCH) {
                    if (group + gridDim.x < groups) load(in, group + gridDim.x, batch, base, raw);
                }
                if constexpr (R == 1 && IN_WARP) {
                    // Each transform's second product and stores in turn (fewer live registers).
                    const u64 first = first_transform(group);
#pragma unroll
                    for (int t = 0; t < U; ++t) {
                        Cx<float> z[8];
                        second_stage(f, ar[t], ai[t], z);
                        if (first + t < batch) store(out + (first + t) * (u64)N + base, z);
                    }
                } else {
                    Cx<float> z[S][8];
#pragma unroll
                    for (int a = 0; a < S; ++a) second_stage(f, ar[a], ai[a], z[a]);
                    finish<REST...>(c, out, twiddles, group, batch, base, z);
                }
            }
        }
    }
};
