// Single-pass Stockham FFT for F16 or BF16 data in packed half arithmetic
// (Recipe::half_arithmetic; Cfg::Packed is H2 or BH2).
//
// Each thread holds E pairs: sample r of two neighbouring butterflies 2i and 2i + 1 of a stage,
// one in each half of f16x2 (bf16x2) registers (half2_arithmetic.cuh), so every add, multiply and fma of
// the radix-R DFTs and twiddle products serves two butterflies. The stage structure is that of
// stockham_single_pass.cuh with pairs of butterflies in place of butterflies:
//  * thread t's k-th pair of a stage is pair i = VW*(t + (k/VW)*T) + k%VW: runs of VW
//    consecutive pairs where the stage touches device memory (2 VW consecutive complex values
//    per access), single pairs elsewhere;
//  * sample r of pair i sits at positions 2i + r*N/R and 2i + 1 + r*N/R;
//  * when NS >= 2 both butterflies share j / NS, so their outputs are neighbours too, and their
//    twiddles (m = 2i mod NS and m + 1) are one 8-byte entry of the table, laid out [r][m / 2]
//    with the two real parts in the first word and the two imaginary parts in the second.
// Shared memory therefore holds each aligned pair of positions (2q, 2q + 1) as one 8-byte
// register pair, (re_2q, re_2q+1), (im_2q, im_2q+1): every exchange is one 8-byte store and one
// 8-byte load per pair with no conversion, except the first stage's stores (NS == 1), whose two
// butterflies land R apart; there a thread pairs samples 2s and 2s + 1 of one butterfly with
// byte permutes. Device memory holds interleaved complex halves (re low, im high): the loads of
// the first stage and the stores of the last stage permute once per value.
//
// Every position is a bit placement of (thread part) + (slot part) with disjoint bits, so the
// padding splits the same way: addresses are a per-thread base plus compile-time offsets.
//
// Only direct device-memory access is implemented: the first stage loads from device memory and
// the last stores to it.
//
// The inverse runs the forward arithmetic on values whose real and imaginary parts trade places
// on the way in and out (swap_parts: i conj(x)), since IDFT(x) = swap(DFT(swap(x))): the swap is a
// choice of register, so both directions run the forward's instructions (the inverse with
// conjugated twiddles and inverse rotations issued as many, but ran 2.5% slower at N = 16384 and
// 6% slower at 32768 on the H200; bench/NOTES.md step 109).
#pragma once

template <class Cfg>
struct PairedHalfSinglePass {
    typedef unsigned int Bits;        // one complex value of two 16-bit floats
    typedef typename Cfg::Packed H;  // H2 (f16 pairs) or BH2 (bf16 pairs)
    typedef Cx<H> P;                 // the same sample of two butterflies
    typedef P Value;            // run_tiles

    static constexpr int N = Cfg::N;
    static constexpr int E = Cfg::E;  // pairs per thread
    static constexpr int T = Cfg::T;
    static constexpr int B = Cfg::B;
    static constexpr int V = Cfg::V;  // pairs per run in the stages that touch device memory
    static constexpr int DIR = -1;                     // the arithmetic is the forward transform's
    static constexpr bool SWAP_PARTS = Cfg::DIR > 0;  // the inverse: swap_parts in and out
    static constexpr bool PREFETCH = Cfg::PREFETCH;
    static constexpr int SMEM_STRIDE = Cfg::SMEM_STRIDE;
    static_assert(2 * T * E == N, "threads per transform times values per thread must be N");
    static_assert(!Cfg::STAGED, "packed half arithmetic reads and writes device memory directly");
    static_assert(V == 1 || V == 2, "a run of V pairs must fit one 16-byte access");

    struct Ctx {
        const Bits* in;
        Bits* out;
        const uint2* twiddles;
        Bits* smem;  // this transform's shared-memory slice
        u64 gbase;   // element offset of this transform in device memory
        int t;       // thread index within the transform
        bool valid;  // false for the padding transforms of the last tile
    };

    // A value entering or leaving the kernel: parts swapped for the inverse (see the top).
    static __device__ __forceinline__ P oriented(P x) {
        if constexpr (SWAP_PARTS) return swap_parts(x);
        return x;
    }

    // Two interleaved complex values (a, b) as one pair register set, oriented: the part the
    // arithmetic uses first is also formed first. This is the form measured in step 109;
    // swap_parts after joining (same instruction count, another schedule) was compiled but not
    // timed.
    static __device__ __forceinline__ P join_oriented(Bits a, Bits b) {
        if constexpr (SWAP_PARTS) {
            const H im = H::from_bits(low_halves(a, b));
            const H re = H::from_bits(high_halves(a, b));
            return cx(re, im);
        }
        return cx(H::from_bits(low_halves(a, b)), H::from_bits(high_halves(a, b)));
    }

    template <int X>
    static __device__ __forceinline__ constexpr int padded(int i) {
        return padded_position<Cfg, X>(i);
    }

    // Pair index of thread t's k-th pair in a stage with runs of VW pairs.
    template <int VW>
    static __device__ __forceinline__ int pair_index(int t, int k) {
        return VW * (t + (k / VW) * T) + k % VW;
    }

    // Stockham destination of sample 0 of butterfly j in a stage of radix R and span NS: a bit
    // placement (log2 R zero bits inserted at bit log2 NS), additive over disjoint bits.
    template <int R, int NS>
    static __device__ __forceinline__ constexpr int destination(int j) {
        return (j / NS) * NS * R + (j % NS);
    }

    // Length of a stage's twiddle table in 8-byte entries; stages with NS == 1 have none.
    template <int R, int NS>
    static __device__ __forceinline__ constexpr int twiddle_table_len() {
        return NS == 1 ? 0 : NS * R / 2;
    }

    template <int R, int NS, int TWOFF, int VW>
    static __device__ __forceinline__ void load_twiddles(const Ctx& c, P (&tw)[E]) {
        constexpr int BF = E / R;
        const uint2* row = c.twiddles + TWOFF + (2 * pair_index<VW>(c.t, 0)) % NS / 2;
#pragma unroll
        for (int k = 0; k < BF; ++k) {
            const int m = (2 * pair_index<VW>(0, k)) % NS;
#pragma unroll
            for (int r = 1; r < R; ++r) {
                if (Cfg::DERIVED_TW && (r & (r - 1)) != 0) continue;  // derive_twiddles()
                const uint2 w = __ldg(row + r * (NS / 2) + m / 2);
                tw[k * R + r] = cx(H::from_bits(w.x), H::from_bits(w.y));
            }
        }
    }

    // Cfg::DERIVED_TW: only the power-of-two rows r of a stage's table are loaded; the others
    // are f16x2 (bf16x2) products of them (derive_twiddle_products, dft_registers.cuh), formed
    // when the stage uses them, as in stockham_single_pass.cuh: a radix-16 stage reads 4 rows
    // instead of 15, for one packed complex product (two butterflies, 16-bit roundings) per
    // derived one.
    template <int R>
    static __device__ __forceinline__ void derive_twiddles(P (&tw)[E]) {
        if constexpr (Cfg::DERIVED_TW) derive_twiddle_products<R>(tw);
    }

    // One Stockham stage; RN/NSN/TWOFFN/LASTN describe the next stage (RN == 0: none), whose
    // twiddles this stage starts loading into tw.
    template <int STAGE, int R, int NS, int TWOFF, bool FIRST, bool LAST, int RN, int NSN, int TWOFFN, bool LASTN>
    static __device__ __forceinline__ void stage(const Ctx& c, P (&v)[E], P (&tw)[E]) {
        constexpr int BF = E / R;
        constexpr int STRIDE = N / R;
        constexpr int VW = (FIRST || LAST) ? V : 1;
        static_assert(BF % VW == 0, "the run width must divide the pairs per thread");

        // Gather (the first stage's values come from load_tile()).
        if constexpr (!FIRST) {
            const Bits* src = c.smem + padded<STAGE>(2 * pair_index<VW>(c.t, 0));
#pragma unroll
            for (int k = 0; k < BF; ++k) {
#pragma unroll
                for (int r = 0; r < R; ++r) {
                    const uint2 x =
                        *reinterpret_cast<const uint2*>(src + padded<STAGE>(2 * pair_index<VW>(0, k) + r * STRIDE));
                    v[k * R + r] = cx(H::from_bits(x.x), H::from_bits(x.y));
                }
            }
        }

        if constexpr (NS > 1) {
            if constexpr (!Cfg::TW_AHEAD) load_twiddles<R, NS, TWOFF, VW>(c, tw);
            derive_twiddles<R>(tw);
#pragma unroll
            for (int i = 0; i < E; ++i)
                if (i % R != 0) v[i] = twiddle_mul<DIR>(v[i], tw[i]);
        }
        if constexpr (Cfg::TW_AHEAD && RN > 0) load_twiddles<RN, NSN, TWOFFN, LASTN ? V : 1>(c, tw);

        // SCALE: every stage scales by 1/R (exact) or 1/sqrt(R) before its DFT, so the 16-bit
        // sums inside the butterflies never outgrow the input (scaling after them would
        // overflow f16 at inputs near 65 504 / R; bf16 has f32's range).
        if constexpr (Cfg::SCALE != 0) {
            const H s = RealFrom<H>::of((float)stage_scale<R, Cfg::SCALE>());
#pragma unroll
            for (int i = 0; i < E; ++i) v[i] = cx(v[i].re * s, v[i].im * s);
        }
#pragma unroll
        for (int k = 0; k < BF; ++k) dft_in_registers<R, DIR>(&v[k * R]);

        if constexpr (LAST) {
            // NS * R == N: butterfly j's outputs land at j + r * STRIDE, a run of 2 VW values.
            if (c.valid) {
#pragma unroll
                for (int k = 0; k < BF; k += VW) {
                    const int i = pair_index<VW>(c.t, k);
#pragma unroll
                    for (int r = 0; r < R; ++r) {
                        BitsVec<Bits, 2 * VW> y;
#pragma unroll
                        for (int u = 0; u < VW; ++u)
                            split_pair(oriented(v[(k + u) * R + r]), y.e[2 * u], y.e[2 * u + 1]);
                        *reinterpret_cast<BitsVec<Bits, 2 * VW>*>(c.out + c.gbase + 2 * i + r * STRIDE) = y;
                    }
                }
            }
        } else {
            exchange_barrier<Cfg>();  // everyone has gathered before the exchange buffer is overwritten
            Bits* dst = c.smem + padded<STAGE + 1>(destination<R, NS>(2 * pair_index<VW>(c.t, 0)));
#pragma unroll
            for (int k = 0; k < BF; ++k) {
                const int jk = destination<R, NS>(2 * pair_index<VW>(0, k));
                if constexpr (NS == 1) {
                    // Butterfly 2i's outputs go to 2i R + r and 2i+1's to (2i+1) R + r: pair
                    // samples 2s and 2s + 1 of each butterfly into one 8-byte store.
#pragma unroll
                    for (int s = 0; s < R; s += 2) {
                        const P x = v[k * R + s], y = v[k * R + s + 1];
                        *reinterpret_cast<uint2*>(dst + padded<STAGE + 1>(jk + s)) =
                            make_uint2(low_halves(x.re.b, y.re.b), low_halves(x.im.b, y.im.b));
                        *reinterpret_cast<uint2*>(dst + padded<STAGE + 1>(jk + R + s)) =
                            make_uint2(high_halves(x.re.b, y.re.b), high_halves(x.im.b, y.im.b));
                    }
                } else {
#pragma unroll
                    for (int r = 0; r < R; ++r)
                        *reinterpret_cast<uint2*>(dst + padded<STAGE + 1>(jk + r * NS)) =
                            make_uint2(v[k * R + r].re.b, v[k * R + r].im.b);
                }
            }
            exchange_barrier<Cfg>();
        }
    }

    // Registers holding a tile's first-stage values between their loads and their first use, as
    // raw interleaved halves: raw[2 idx] and raw[2 idx + 1] are the two butterflies of slot idx.
    struct Tile {
        Bits raw[2 * E];
    };

    // The first stage's values (radix R0) of this thread's transform.
    template <int R0>
    static __device__ __forceinline__ void load_tile(const Ctx& c, Tile& tile) {
        Bits(&raw)[2 * E] = tile.raw;
        constexpr int BF = E / R0;
        constexpr int STRIDE = N / R0;
        if (!c.valid) {
#pragma unroll
            for (int i = 0; i < 2 * E; ++i) raw[i] = 0u;
            return;
        }
#pragma unroll
        for (int k = 0; k < BF; k += V) {
            const int i = pair_index<V>(c.t, k);
#pragma unroll
            for (int r = 0; r < R0; ++r) {
                const BitsVec<Bits, 2 * V> x = load_data<Cfg::STREAM_LOADS>(
                    reinterpret_cast<const BitsVec<Bits, 2 * V>*>(c.in + c.gbase + 2 * i + r * STRIDE));
#pragma unroll
                for (int u = 0; u < V; ++u) {
                    raw[2 * ((k + u) * R0 + r)] = x.e[2 * u];
                    raw[2 * ((k + u) * R0 + r) + 1] = x.e[2 * u + 1];
                }
            }
        }
    }

    static __device__ __forceinline__ void select_group(Ctx& c, u64 group, u64 batch) {
        const u64 transform = group * B + threadIdx.x / T;
        c.gbase = transform * (u64)N;
        c.valid = transform < batch;
    }

    // run_tiles hooks: pairs of loaded values become packed registers; nothing follows the last
    // stage (it stores to device memory itself).
    static __device__ __forceinline__ void begin_tile(const Tile& tile, P (&v)[E]) {
#pragma unroll
        for (int i = 0; i < E; ++i) v[i] = join_oriented(tile.raw[2 * i], tile.raw[2 * i + 1]);
    }

    template <int X>
    static __device__ __forceinline__ void end_tile(const Ctx&) {}

    template <int... RADICES>
    static __device__ __forceinline__ void run(const Bits* in, Bits* out, const float* twiddles, u64 batch) {
        extern __shared__ float4 tfft_smem[];
        Ctx c;
        c.in = in;
        c.out = out;
        c.twiddles = reinterpret_cast<const uint2*>(twiddles);
        c.smem = reinterpret_cast<Bits*>(tfft_smem) + (threadIdx.x / T) * SMEM_STRIDE;
        c.t = threadIdx.x % T;
        run_tiles<PairedHalfSinglePass, RADICES...>(c, batch);
    }
};
