// Warp-shuffle FFT (seed 000's shuffle-XOR butterflies): a transform of N = E * L values held by
// L consecutive lanes of a warp (L = 2 ... 32), E values per lane, with no shared memory and no
// barrier. Used where the plan asks for it (Tuning::warp_shuffles); the single-pass Stockham
// kernel (stockham_single_pass.cuh) is the default.
//
// Lane l loads x[l + L e] (e < E): in every load instruction the L lanes of a transform read L
// consecutive elements. With n = l + L e and k = k1 + E k2 (k1 < E, k2 < L),
//   X[k1 + E k2] = sum_l w_L^(l k2) * w_N^(l k1) * sum_e x[l + L e] w_E^(e k1),
// so each lane runs a radix-E DFT in registers (dft_registers.cuh) and multiplies value k1 by the
// four-step twiddle w_N^(l k1); then the L lanes run, for every k1, a length-L DFT across lanes
// as log2(L) radix-2 decimation-in-frequency stages. At half-distance H the partner of lane l is
// lane l ^ H (one __shfl_xor_sync per real): the lower lane keeps a + b, the upper one
// (a - b) w_2H^(l mod H). The stages leave frequency k2 = bitrev(l) in lane l, which stores its
// E values X[k1 + E bitrev(l)] as contiguous vectors of V elements.
//
// Twiddle table (plan::twiddles::stage_twiddles): w_N^(l k1) laid out [k1][l] (N values, the
// lanes of one k1 read neighbouring entries), then w_L^j for j < L/2, forward; the inverse
// kernel conjugates. A normalized direction scales each value once, with its four-step twiddle,
// by Cfg::SCALE_FACTOR (1/N or 1/sqrt(N)).
#pragma once

template <class Cfg>
struct WarpShuffleFft {
    typedef typename Cfg::Store Store;
    typedef typename Store::Bits Bits;
    typedef typename Store::Real Real;
    typedef Cx<Real> C;
    typedef typename Real2Of<Real>::Type Real2;
    static constexpr int N = Cfg::N;
    static constexpr int E = Cfg::E;
    static constexpr int L = Cfg::T;  // lanes per transform
    static constexpr int B = Cfg::B;  // transforms per block
    static constexpr int V = Cfg::V;  // elements per vector store
    static constexpr int DIR = Cfg::DIR;
    static constexpr int THREADS = L * B;
    static_assert(E * L == N, "N = E * L");
    static_assert(L >= 2 && L <= 32 && (L & (L - 1)) == 0, "2 to 32 lanes per transform, a power of two");
    static_assert(THREADS % 32 == 0, "whole warps: every lane takes part in the shuffles");
    static_assert(E % V == 0, "whole vectors per lane");

    static __device__ __forceinline__ C twiddle(const Real* table, int i) {
        const Real2 w = reinterpret_cast<const Real2*>(table)[i];
        return cx(w.x, DIR < 0 ? w.y : -w.y);
    }

    static __device__ __forceinline__ C shuffle_xor(C x, int mask) {
        return cx(__shfl_xor_sync(0xffffffffu, x.re, mask), __shfl_xor_sync(0xffffffffu, x.im, mask));
    }

    // Lane l reads x[l + L e]; lanes past the batch compute on zeros (they still shuffle).
    static __device__ __forceinline__ void load(const Bits* in, u64 base, bool valid, int lane, C (&v)[E]) {
#pragma unroll
        for (int e = 0; e < E; ++e)
            v[e] = valid ? Store::unpack(load_data<Cfg::STREAM_LOADS>(in + base + lane + L * e))
                         : cx(RealFrom<Real>::of(0.0), RealFrom<Real>::of(0.0));
    }

    // Value k1 times w_N^(lane k1), and the normalized direction's scale.
    static __device__ __forceinline__ void four_step_twiddle(const Real* table, int lane, C (&v)[E]) {
#pragma unroll
        for (int k1 = 1; k1 < E; ++k1) v[k1] = cmul(v[k1], twiddle(table, k1 * L + lane));
        if constexpr (Cfg::SCALE != 0) {
#pragma unroll
            for (int k1 = 0; k1 < E; ++k1) v[k1] = cscale(v[k1], RealFrom<Real>::of(Cfg::SCALE_FACTOR));
        }
    }

    // Radix-2 DIF stage at half-distance H between lanes: lower lane a + b, upper (a - b) w.
    template <int H>
    static __device__ __forceinline__ void shuffle_stage(const Real* table, int lane, C (&v)[E]) {
        const bool upper = (lane & H) != 0;
        const Real sign = upper ? RealFrom<Real>::of(-1.0) : RealFrom<Real>::of(1.0);
        C w = cx(RealFrom<Real>::of(1.0), RealFrom<Real>::of(0.0));
        // w_2H^(l mod H) = w_L^((l mod H) L / 2H); 1 on the lower lanes and when H = 1.
        if constexpr (H > 1) {
            const C t = twiddle(table, N + (lane & (H - 1)) * (L / (2 * H)));
            if (upper) w = t;
        }
#pragma unroll
        for (int e = 0; e < E; ++e) {
            const C o = shuffle_xor(v[e], H);
            // Lower lane (holds a, partner b): b + a. Upper lane (holds b, partner a): a - b.
            const C d = cx(o.re + sign * v[e].re, o.im + sign * v[e].im);
            if constexpr (H > 1) {
                v[e] = cmul(d, w);
            } else {
                v[e] = d;
            }
        }
    }

    template <int H>
    static __device__ __forceinline__ void shuffle_stages(const Real* table, int lane, C (&v)[E]) {
        if constexpr (H >= 1) {
            shuffle_stage<H>(table, lane, v);
            shuffle_stages<H / 2>(table, lane, v);
        }
    }

    // Lane l holds X[k1 + E bitrev(l)], k1 < E: E contiguous elements, stored as vectors.
    static __device__ __forceinline__ void store(Bits* out, u64 base, int lane, const C (&v)[E]) {
        constexpr int LOG_L = L == 2 ? 1 : L == 4 ? 2 : L == 8 ? 3 : L == 16 ? 4 : 5;
        const int k2 = (int)(__brev((unsigned)lane) >> (32 - LOG_L));
        BitsVec<Bits, V>* dst = reinterpret_cast<BitsVec<Bits, V>*>(out + base + (u64)E * k2);
#pragma unroll
        for (int u = 0; u < E / V; ++u) {
            BitsVec<Bits, V> x;
#pragma unroll
            for (int i = 0; i < V; ++i) x.e[i] = Store::pack(v[u * V + i]);
            dst[u] = x;
        }
    }

    static __device__ __forceinline__ void run(const Bits* in, Bits* out, const Real* twiddles, u64 batch) {
        const int lane = (int)threadIdx.x % L;
        // The loop bound is the same for the whole block, so whole warps stay converged.
        for (u64 group = blockIdx.x; group * B < batch; group += gridDim.x) {
            const u64 transform = group * B + threadIdx.x / L;
            const bool valid = transform < batch;
            const u64 base = transform * (u64)N;
            C v[E];
            load(in, base, valid, lane, v);
            dft_in_registers<E, DIR>(v);
            four_step_twiddle(twiddles, lane, v);
            shuffle_stages<L / 2>(twiddles, lane, v);
            if (valid) store(out, base, lane, v);
        }
    }
};
