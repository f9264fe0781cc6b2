// Strided pass of F16 or BF16 data in packed half arithmetic (Cfg::Packed: H2 or BH2), two
// neighbouring items per lane.
//
// Where neighbouring items are neighbours in device memory (the fastest item dimension has unit
// stride, an even count, and every other distance is even), sample k of items 2p and 2p + 1 is
// one aligned 8-byte word. A thread loads it once and keeps it as Cx<H> (H = H2 or BH2): the
// real parts of both items in one f16x2 (bf16x2) register, the imaginary parts in another. Both
// items run the same stages with the same stage twiddles, so the generic stages of
// stockham_single_pass.cuh (SinglePass with Real = H) serve two items per instruction: every
// add, multiply and fma is one packed instruction (half2_arithmetic.cuh), and shared memory
// holds one 8-byte pair per sample, so the
// tile of G pair slots has the layout of an f32 tile of G items. Only the four-step twiddle
// differs between the two items (m and m + 1 along the twiddle dimension); it is formed from
// the double tables for each, stepped in f32 and rounded into the two halves.
//
// Device memory: direct loads of the pairs; the last stage stores pairs straight from registers
// where the outputs of neighbouring items are neighbours, else the tile is left in shared
// memory and each thread stores sample k of both items of a slot (samples fastest: a warp writes
// 32 consecutive samples of each item). Geometry (PassGeometry) counts 4-byte complex elements, as
// for every strided pass; the pair kernel halves what it addresses as 8-byte words.
#pragma once

// Sample k of two neighbouring items, in device memory: two interleaved complex 16-bit values.
template <class H>
struct StorePairOf {
    typedef uint2 Bits;
    typedef H Real;
    static __device__ __forceinline__ Cx<H> unpack(Bits b) {
        return cx(H::from_bits(low_halves(b.x, b.y)), H::from_bits(high_halves(b.x, b.y)));
    }
    static __device__ __forceinline__ Bits pack(Cx<H> v) {
        Bits b;
        split_pair(v, b.x, b.y);
        return b;
    }
};
typedef StorePairOf<H2> StoreF16Pair;
typedef StorePairOf<BH2> StoreBF16Pair;

// The same pair in shared memory: the two real parts, then the two imaginary parts.
template <class H>
struct ExchangePairOf {
    typedef uint2 Bits;
    typedef H Real;
    static __device__ __forceinline__ Cx<H> unpack(Bits b) { return cx(H::from_bits(b.x), H::from_bits(b.y)); }
    static __device__ __forceinline__ Bits pack(Cx<H> v) { return make_uint2(v.re.b, v.im.b); }
};
typedef ExchangePairOf<H2> ExchangeF16Pair;
typedef ExchangePairOf<BH2> ExchangeBF16Pair;

template <class Cfg>
struct StridedPairedHalf {
    typedef SinglePass<Cfg> K;   // the stages, on pairs of items
    typedef StridedPass<Cfg> P;  // item enumeration, four-step twiddle tables, tile positions
    typedef typename Cfg::Packed H;
    typedef Cx<H> C;
    typedef typename K::Bits Bits;
    typedef typename K::XBits XBits;

    static constexpr int N = Cfg::N;
    static constexpr int E = Cfg::E;
    static constexpr int G = Cfg::G;  // pair slots per tile, one round
    static constexpr int THREADS = K::THREADS;
    static constexpr u64 INVALID = ~0ull;
    static_assert(!Cfg::STAGED_IN && G == Cfg::B, "pairs are loaded straight into registers, one round per tile");
    static_assert(!Cfg::STAGED_OUT || !Cfg::STORE_ITEMS_FASTEST, "staged stores write each item's samples together");
    static_assert((G * N) % THREADS == 0, "a staged store deals whole tiles");
    static_assert(Cfg::SAMPLE_IN % 2 == 0 && (Cfg::STAGED_OUT || Cfg::SAMPLE_OUT % 2 == 0),
                  "pairs are addressed as 8-byte words");

    // Where the first item of each slot of a tile starts, and its twiddle coordinate.
    struct Offsets {
        u64 in[G];
        u64 out[G];
        u64 m[G];
    };

    static __device__ __forceinline__ void locate(Offsets& o, u64 tile, const PassGeometry& geo) {
        for (int i = threadIdx.x; i < G; i += THREADS) {
            const u64 item = 2 * (tile * G + i);
            u64 a, c, m;
            P::locate_item(geo, item, a, c, m);
            o.in[i] = item < geo.items ? a : INVALID;
            o.out[i] = c;
            o.m[i] = m;
        }
    }

    // The four-step twiddle on the first stage's values (radix R0): item m and item m + dm
    // (dm = 1 when the twiddle runs along the pair's own dimension). The power of each
    // butterfly and the step between its R0 samples come from the double tables (one product
    // each, as in StridedPass::twiddle_first_stage) and are rounded to f32; the R0 - 1 steps
    // run in f32 (a relative error of about R0 f32 roundings, ~1e-6, far below the half the
    // twiddle is rounded into) and each twiddle is rounded once into its half.
    template <int R0>
    static __device__ __forceinline__ void twiddle_first_stage(const typename K::Ctx& c, C (&v)[E],
                                                               const double* pass_twiddles, const PassGeometry& geo,
                                                               u64 m) {
        const double2* table = reinterpret_cast<const double2*>(pass_twiddles);
        const unsigned mask = (unsigned)geo.tw_mask;
        const unsigned m0 = (unsigned)m;
        const unsigned m1 = m0 + (geo.tw_dim == 0 ? 1u : 0u);
        const Cx<float> step0 = P::template to_step<float>(P::pass_root_power(table, geo, (m0 * (unsigned)(N / R0)) & mask));
        const Cx<float> step1 = P::template to_step<float>(P::pass_root_power(table, geo, (m1 * (unsigned)(N / R0)) & mask));
        const float s = Cfg::DIR < 0 ? 1.0f : -1.0f;
#pragma unroll
        for (int k = 0; k < E / R0; ++k) {
            const int j = K::template butterfly<Cfg::V>(c.t, k);
            Cx<float> w0 = P::template to_step<float>(P::pass_root_power(table, geo, (m0 * (unsigned)j) & mask));
            Cx<float> w1 = P::template to_step<float>(P::pass_root_power(table, geo, (m1 * (unsigned)j) & mask));
#pragma unroll
            for (int r = 0; r < R0; ++r) {
                if (r > 0) {
                    w0 = cmul(w0, step0);
                    w1 = cmul(w1, step1);
                }
                const C w = cx(pk2_pack<typename H::Format>(w0.re, w1.re),
                               pk2_pack<typename H::Format>(s * w0.im, s * w1.im));
                v[k * R0 + r] = cmul(v[k * R0 + r], w);
            }
        }
    }

    // The staged store: sample k of both items of slot i, from the last stage's buffer.
    template <int LAST>
    static __device__ __forceinline__ void store_tile(const Offsets& o, const XBits* buffer, unsigned* out,
                                                      const PassGeometry& geo) {
        typedef ItemRuns<G, N, THREADS, false> Runs;
        if constexpr (Runs::APPLIES) {
#pragma unroll
            for (int i = 0; i < G; ++i) {
                if (o.in[i] == INVALID) continue;
                const int k0 = Runs::first_sample();
                const XBits* src = buffer + P::template position<LAST>(i, k0);
                unsigned* dst = out + o.out[i] + (u64)k0 * P::sample_out(geo);
                const u64 step = (u64)THREADS * P::sample_out(geo);
                const u64 second = geo.out_stride[0];
#pragma unroll
                for (int s = 0; s < Runs::VALUES; ++s, dst += step) {
                    unsigned a, b;
                    split_pair(Cfg::Exchange::unpack(src[K::template padded<LAST>(s * THREADS)]), a, b);
                    dst[0] = a;
                    dst[second] = b;
                }
            }
            return;
        }
#pragma unroll 4
        for (int it = 0; it < G * N / THREADS; ++it) {
            const int e = it * THREADS + (int)threadIdx.x;
            const int i = e / N;
            const int k = e % N;
            if (o.in[i] == INVALID) continue;
            unsigned a, b;
            split_pair(Cfg::Exchange::unpack(buffer[P::template position<LAST>(i, k)]), a, b);
            const u64 at = o.out[i] + (u64)k * P::sample_out(geo);
            out[at] = a;
            out[at + geo.out_stride[0]] = b;
        }
    }

    template <int R0, int... RADICES>
    static __device__ __forceinline__ void run(const unsigned* in, unsigned* out, const float* twiddles,
                                               const double* pass_twiddles, const PassGeometry& geo) {
        constexpr int LAST = 1 + sizeof...(RADICES);
        __shared__ Offsets o;
        XBits* smem = K::block_smem();
        typename K::Ctx c;
        c.in = reinterpret_cast<const Bits*>(in);
        c.out = reinterpret_cast<Bits*>(out);
        c.twiddles = reinterpret_cast<const H*>(twiddles);
        c.t = threadIdx.x / G;
        // Pairs are addressed as 8-byte words: the planner admits even sample distances, and
        // even output distances where the pairs are stored directly.
        c.sample_in = P::sample_in(geo) / 2;
        c.sample_out = P::sample_out(geo) / 2;
        const int slot = threadIdx.x % G;
        c.smem = smem + slot * Cfg::ITEM_STRIDE;
        const u64 tiles = (geo.items / 2 + G - 1) / G;
        for (u64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
            locate(o, tile, geo);
            __syncthreads();
            c.valid = o.in[slot] != INVALID;
            c.gbase = c.valid ? o.in[slot] / 2 : 0;
            c.gbase_out = o.out[slot] / 2;
            Bits raw[E];
            K::template load_direct<R0>(c, raw);
            C v[E];
#pragma unroll
            for (int i = 0; i < E; ++i) v[i] = Cfg::Store::unpack(raw[i]);
            if constexpr (Cfg::PASS_TWIDDLE) twiddle_first_stage<R0>(c, v, pass_twiddles, geo, o.m[slot]);
            C tw[E];
            run_stages<K, 0, 1, 0, R0, RADICES...>(c, v, tw);
            if constexpr (Cfg::STAGED_OUT) store_tile<LAST>(o, smem, out, geo);
            __syncthreads();  // the tile's offsets and shared memory are free again
        }
    }
};
