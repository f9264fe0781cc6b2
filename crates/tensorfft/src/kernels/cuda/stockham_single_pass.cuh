// Single-pass Stockham FFT: each thread block owns B whole transforms of length N, reads them once
// from device memory, runs every radix stage in registers with shared-memory exchanges between
// stages (self-sorting Stockham order, no bit-reversal pass), and writes them once.
//
// Stage s has radix R and span NS (the product of the earlier radices). Butterfly j in [0, N/R)
// reads x[j + r*N/R], multiplies by the twiddle w_{NS*R}^{(j mod NS)*r}, runs a radix-R DFT and
// writes y[(j / NS)*NS*R + (j mod NS) + r*NS]. Each of the T threads of a transform owns E
// registers, i.e. E/R butterflies per stage.
//
// Device-memory traffic goes one of two ways (Cfg::STAGED; strided passes choose for loads and
// stores separately, Cfg::STAGED_IN and Cfg::STAGED_OUT):
//  * direct: the first stage gathers straight from device memory and the last stage scatters
//    straight to it. Butterflies are dealt to threads in runs of V consecutive j, so each access
//    is a V-element vector and consecutive threads touch consecutive vectors (coalesced).
//  * staged: the block copies its contiguous tile between device and shared memory with 16-byte
//    vectors, and every stage works from shared memory. Used for short transforms, where a
//    transform is too short for direct accesses to fill whole sectors.
//
// With Cfg::TENSOR, radix-16 stages run on the tensor cores (dft_tensor_cores.cuh): a warp's
// 32 threads hold the 16 samples of 32 butterflies, lane (g, q) holding samples 2q, 2q+1, 2q+8,
// 2q+9 of four butterflies, in runs of 4 consecutive butterflies per thread where the stage
// touches device memory (16-byte accesses) and 8 apart otherwise. Other stages run on the CUDA
// cores as above. With Cfg::SPLIT as well (F32Split), each tensor-core DFT splits its f32
// samples and the DFT matrix into two f16 halves (dft16_split_tensor_cores), or with
// Cfg::SPLIT_TF32 into two TF32 halves (dft16_tf32x3_tensor_cores).
//
// Shared memory is padded to spread the strided accesses of the Stockham exchange over the
// banks: buffer X (read by stage X) maps position i to i + A*(i >> a) + B*(i >> b) with
// Cfg::PAD[X] = {a, A, b, B}. The padding is additive over positions with disjoint bits, which
// keeps the per-thread-base-plus-constant addressing of the tensor-core stages.
#pragma once

template <typename Real>
struct Real2Of;
template <>
struct Real2Of<float> {
    typedef float2 Type;
};
template <>
struct Real2Of<double> {
    typedef double2 Type;
};
// Packed half arithmetic on pairs of items (strided_paired_half.cuh) reads the f32 tables.
template <class F>
struct Real2Of<Pk2<F>> {
    typedef float2 Type;
};

template <typename Bits, int V>
struct alignas(sizeof(Bits) * V) BitsVec {
    Bits e[V];
};

// A device-memory load of one 4-, 8-, 16- or 32-byte value. With STREAM it does not allocate in
// L1 (ld.global.L1::no_allocate): the data is read once, and L1 is left to the twiddle tables.
template <bool STREAM, typename T>
__device__ __forceinline__ T load_data(const T* p) {
    if constexpr (!STREAM) {
        return *p;
    } else if constexpr (sizeof(T) == 32) {
        // Runs of four f32 complex values (tensor-core stages of F32Split): two 16-byte loads.
        T r;
        const uint4* src = reinterpret_cast<const uint4*>(p);
        uint4* dst = reinterpret_cast<uint4*>(&r);
        dst[0] = load_data<true>(src);
        dst[1] = load_data<true>(src + 1);
        return r;
    } else if constexpr (sizeof(T) == 16) {
        uint4 r;
        asm("ld.global.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
            : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
            : "l"(p));
        return *reinterpret_cast<const T*>(&r);
    } else if constexpr (sizeof(T) == 8) {
        uint2 r;
        asm("ld.global.L1::no_allocate.v2.u32 {%0, %1}, [%2];" : "=r"(r.x), "=r"(r.y) : "l"(p));
        return *reinterpret_cast<const T*>(&r);
    } else {
        static_assert(sizeof(T) == 4, "4-, 8-, 16- or 32-byte loads");
        unsigned int r;
        asm("ld.global.L1::no_allocate.u32 %0, [%1];" : "=r"(r) : "l"(p));
        return *reinterpret_cast<const T*>(&r);
    }
}

__device__ __forceinline__ void sincospi_real(float x, float* s, float* c) { sincospif(x, s, c); }
__device__ __forceinline__ void sincospi_real(double x, double* s, double* c) { sincospi(x, s, c); }

// Physical position of logical position i in shared-memory buffer X (padding Cfg::PAD[X]).
template <class Cfg, int X>
__device__ __forceinline__ constexpr int padded_position(int i) {
    constexpr int SA = Cfg::PAD[X][0], MA = Cfg::PAD[X][1], SB = Cfg::PAD[X][2], MB = Cfg::PAD[X][3];
    return i + MA * (i >> SA) + MB * (i >> SB);
}

template <int R0, int... RADICES>
__device__ __forceinline__ constexpr int first_radix() {
    return R0;
}

// Runs the radix stages of kernel K (SinglePass or PairedHalfSinglePass) in order. Stage STAGE
// has radix R and span NS (the product of the earlier radices) and reads its twiddles at TWOFF;
// it is also given the next stage's radix, span, twiddle offset and whether that one is the last,
// so that it can start loading the next stage's twiddles.
template <class K, int STAGE, int NS, int TWOFF, int R, int... REST>
__device__ __forceinline__ void run_stages(const typename K::Ctx& c, typename K::Value (&v)[K::E],
                                           typename K::Value (&tw)[K::E]) {
    constexpr int TWOFFN = TWOFF + K::template twiddle_table_len<R, NS>();
    if constexpr (sizeof...(REST) > 0) {
        K::template stage<STAGE, R, NS, TWOFF, STAGE == 0, false, first_radix<REST...>(), NS * R, TWOFFN,
                          sizeof...(REST) == 1>(c, v, tw);
        run_stages<K, STAGE + 1, NS * R, TWOFFN, REST...>(c, v, tw);
    } else {
        K::template stage<STAGE, R, NS, TWOFF, STAGE == 0, true, 0, 0, 0, false>(c, v, tw);
    }
}

// Grid-stride loop over the tiles of K::B transforms (the host launches one block per tile, or a
// persistent grid). With K::PREFETCH it is software-pipelined: the device-memory loads of tile
// g + gridDim.x are issued before tile g is computed. K supplies the registers that hold a tile
// between its loads and its first use (Tile), the loads (load_tile), their conversion to the
// first stage's values (begin_tile) and what follows the last stage (end_tile).
template <class K, int... RADICES>
__device__ __forceinline__ void run_tiles(typename K::Ctx& c, u64 batch) {
    constexpr int R0 = first_radix<RADICES...>();
    const u64 groups = (batch + K::B - 1) / K::B;
    u64 group = blockIdx.x;
    if (group >= groups) return;
    typename K::Tile tile;
    K::select_group(c, group, batch);
    if constexpr (K::PREFETCH) K::template load_tile<R0>(c, tile);
    for (; group < groups; group += gridDim.x) {
        K::select_group(c, group, batch);
        if constexpr (!K::PREFETCH) K::template load_tile<R0>(c, tile);
        typename K::Value v[K::E];
        K::begin_tile(tile, v);
        const u64 next = group + gridDim.x;
        if (K::PREFETCH && next < groups) {
            typename K::Ctx cn = c;
            K::select_group(cn, next, batch);
            K::template load_tile<R0>(cn, tile);
        }
        typename K::Value tw[K::E];  // stage 0 has no twiddles; it starts loading stage 1's
        run_stages<K, 0, 1, 0, RADICES...>(c, v, tw);
        K::template end_tile<sizeof...(RADICES)>(c);
    }
}

// The barrier around a stage's shared-memory exchange: the block's, or (Cfg::WARP_SYNC, where
// each transform's threads lie within one warp and only they touch its shared memory) the
// warp's, which also orders the warp's shared-memory accesses. Staged copies between device and
// shared memory cross transforms: their kernels never have WARP_SYNC (instantiate.rs), and
// neither do blocks of fewer than 32 threads (the planner's Recipe::warp_exchange), so the full
// mask names lanes that exist.
template <class Cfg>
__device__ __forceinline__ void exchange_barrier() {
    if constexpr (Cfg::WARP_SYNC) {
        __syncwarp();
    } else {
        __syncthreads();
    }
}

template <class Cfg>
struct SinglePass {
    typedef typename Cfg::Store Store;
    typedef typename Cfg::Exchange Xch;
    typedef typename Store::Real Real;
    typedef Cx<Real> C;
    typedef C Value;  // what a thread's registers hold per value slot (run_tiles)
    typedef typename Store::Bits Bits;
    typedef typename Xch::Bits XBits;

    static constexpr int N = Cfg::N;
    static constexpr int E = Cfg::E;
    static constexpr int T = Cfg::T;
    static constexpr int B = Cfg::B;
    static constexpr int V = Cfg::V;
    static constexpr int DIR = Cfg::DIR;
    static constexpr bool PREFETCH = Cfg::PREFETCH;
    static constexpr int THREADS = T * B;
    static constexpr int SMEM_STRIDE = Cfg::SMEM_STRIDE;
    static_assert(T * E == N, "threads per transform times elements per thread must be N");

    template <int X>
    static __device__ __forceinline__ constexpr int padded(int i) {
        return padded_position<Cfg, X>(i);
    }

    // Whether buffer X's positions are padded once per butterfly: padded(i + r step) =
    // padded(i) + padded(r step), so a thread reaches its other values at compile-time offsets.
    // A strided pass takes it where step is a multiple of both terms' periods (H200: f32
    // 2^18-2^20 and 1024^2 +2-3%, f16 2^20 +5%; bench/NOTES.md step 35). In a single pass it
    // holds for every stage: a gather reads j + r step with j < step (step = N / R), a scatter
    // writes (j / NS) NS R + j mod NS + r NS (step = NS), and with powers of two the sum's bits
    // below each term's period 2^s never carry past it (tests/shared_memory_banks.rs,
    // single_pass_exchanges_split_over_the_padding), so each term splits over the sum. Single
    // passes take it only where one transform fills a 1024-thread block, one block per SM (f32
    // 16384: 21% fewer static instructions, 76.3 -> 77.0% of the copy forward, 74.5 -> 77.1%
    // inverse); elsewhere the same positions measured slower (f32 8192, two 512-thread blocks
    // per SM, 97.2 -> 90.6%; f64 8192 on one 512-thread block 74.8 -> 73.1%; H200,
    // bench/NOTES.md step 133).
    template <int X>
    static __device__ __forceinline__ constexpr bool additive(int step) {
        if (!Cfg::STRIDED) return T == 1024 && Cfg::MIN_BLOCKS <= 1;
        return step % (1 << Cfg::PAD[X][0]) == 0 && (Cfg::PAD[X][3] == 0 || step % (1 << Cfg::PAD[X][2]) == 0);
    }

    // Length of a stage's twiddle table (in complex values); stages with NS == 1 have none.
    template <int R, int NS>
    static __device__ __forceinline__ constexpr int twiddle_table_len() {
        return NS == 1 ? 0 : tensor_stage<R>() ? (NS < 32 ? 32 : NS) * 16 : NS * R;
    }

    struct Ctx {
        const Bits* in;
        Bits* out;
        const Real* twiddles;
        XBits* smem;  // this transform's shared-memory slice
        Dft16Fragments dft16;  // tensor-core stages: this lane's DFT-matrix fragments
        u64 gbase;    // element offset of this transform in device memory
        u64 gbase_out;   // Cfg::STRIDED: element offset of this transform's output
        u64 sample_in;   // Cfg::STRIDED: element distance between the transform's samples
        u64 sample_out;  // and between its outputs
        u64 tile;     // element offset of the block's tile
        u64 total;    // elements in the whole batch
        int t;        // thread index within the transform
        bool valid;   // false for the padding transforms of the last tile
    };

    // The twiddles of a whole stage (radix R, span NS, table at TWOFF, partition VW): for each of
    // the thread's butterflies k with j mod NS == m, tw[k*R + r] = w_{NS*R}^{m*r}, r >= 1.
    // Table mode: the stage's table is laid out [r][m], so for a given r the threads of a warp
    // (consecutive m) read consecutive values; in runs of VW > 1 neighbouring butterflies (a last
    // stage that stores directly) only the run's first reads them. Computed mode uses sincospi.
    // The previous stage calls this right after its own twiddle multiply, so the loads are in
    // flight during its DFT, its exchange and both barriers.
    template <int R, int NS, int TWOFF, int VW>
    static __device__ __forceinline__ void load_twiddles(const Ctx& c, C (&tw)[E]) {
        typedef typename Real2Of<Real>::Type R2;
        if constexpr (tensor_stage<R>() && Cfg::TW_TABLE) {
            // Lane order: [warp block][slot pair][lane] of two complex values (twiddles.rs).
            const float4* row = reinterpret_cast<const float4*>(reinterpret_cast<const R2*>(c.twiddles) + TWOFF) +
                                (NS >= 32 ? ((c.t & ~31) % NS) / 32 * 256 : 0) + (c.t & 31);
#pragma unroll
            for (int pair = 0; pair < 8; ++pair) {
                const float4 q = __ldg(row + pair * 32);
                tw[2 * pair] = cx(q.x, DIR < 0 ? q.y : -q.y);
                tw[2 * pair + 1] = cx(q.z, DIR < 0 ? q.w : -q.w);
            }
            return;
        }
        if constexpr (tensor_stage<R>()) {
            // Computed twiddles on the tensor cores.
            const int jt = tensor_thread_butterfly<VW>(c.t);
#pragma unroll
            for (int idx = 0; idx < E; ++idx) {
                const int m = (jt + tensor_slot_butterfly<VW>(idx)) % NS;
                const int r = tensor_sample(idx % 4);
                Real sn, cs;
                sincospi_real((Real)(2 * DIR) * (Real)(m * r) / (Real)(NS * R), &sn, &cs);
                tw[idx] = cx(cs, sn);
            }
        } else {
            constexpr int BF = E / R;
#pragma unroll
            for (int k = 0; k < BF; ++k) {
                const int m = butterfly<VW>(c.t, k) % NS;
                // In a run of VW neighbouring butterflies (VW divides NS, so the run never wraps)
                // the u-th one's twiddles are the first one's times the constant w^(u r)
                // (Recipe::last_stage_run_width; not for F32Split, whose errors are at f32's level).
                const int u = k % VW;
                constexpr bool RUN_ROOTS = Cfg::TW_TABLE && VW > 1 && NS % VW == 0 && !Cfg::SPLIT;
#pragma unroll
                for (int r = 1; r < R; ++r) {
                    if (Cfg::DERIVED_TW && (r & (r - 1)) != 0) continue;  // derived_twiddles()
                    if constexpr (RUN_ROOTS) {
                        if (u != 0) {
                            tw[k * R + r] = cmul(tw[(k - u) * R + r], constant_root<DIR, Real>(u * r, NS * R));
                            continue;
                        }
                    }
                    if constexpr (Cfg::TW_TABLE) {
                        const R2 q = __ldg(reinterpret_cast<const R2*>(c.twiddles) + TWOFF + r * NS + m);
                        tw[k * R + r] = cx(RealFrom<Real>::of(q.x), RealFrom<Real>::of(DIR < 0 ? q.y : -q.y));
                    } else {
                        Real sn, cs;
                        sincospi_real((Real)(2 * DIR) * (Real)(m * r) / (Real)(NS * R), &sn, &cs);
                        tw[k * R + r] = cx(cs, sn);
                    }
                }
            }
        }
    }

    // Cfg::DERIVED_TW: only the power-of-two rows r of a stage's twiddles are loaded; the others
    // are products w^r = w^(r - h) w^h (h the highest power of two in r), formed when the stage
    // uses them. A radix-8 stage loads 3 rows instead of 7, a radix-16 stage 4 instead of 15, at
    // the cost of one complex product (and rounding) per derived twiddle.
    template <int R>
    static __device__ __forceinline__ void derive_twiddles(C (&tw)[E]) {
        if constexpr (Cfg::DERIVED_TW && !tensor_stage<R>()) derive_twiddle_products<R>(tw);
    }

    // Whether a stage of radix R runs on the tensor cores.
    template <int R>
    static __device__ __forceinline__ constexpr bool tensor_stage() {
        return Cfg::TENSOR && R == 16;
    }

    // Partition width of a stage: vectors where it touches device memory directly (tensor-core
    // stages: runs of 4 butterflies per thread).
    template <int R, bool FIRST, bool LAST>
    static __device__ __forceinline__ constexpr int width() {
        return ((FIRST && !Cfg::STAGED_IN) || (LAST && !Cfg::STAGED_OUT)) ? (tensor_stage<R>() ? 4 : V) : 1;
    }

    // Tensor-core stages: butterfly j (within the transform) and sample r of thread t's value
    // slot idx = 4 i + s (see dft_tensor_cores.cuh). The warp's 32 butterflies are consecutive,
    // lane g holding 4 of them: consecutive with VW == 4, else 8 apart. Both split into a
    // per-thread part and a per-slot part with disjoint bits, j = jt + jc(idx) and
    // r = 2q + rc(s). Every index derived from (j, r) by placing their bits (Stockham positions,
    // padding) is then a per-thread base plus a compile-time constant per slot, so the unrolled
    // loops address shared memory with immediate offsets. (CUDA-core stages keep per-butterfly
    // addressing: the same split measured slower there, bench/NOTES.md step 11.)
    template <int VW>
    static __device__ __forceinline__ int tensor_thread_butterfly(int t) {
        const int g = (t & 31) >> 2;
        return (t & ~31) + (VW == 4 ? 4 * g : g);
    }

    template <int VW>
    static __device__ __forceinline__ constexpr int tensor_slot_butterfly(int idx) {
        return VW == 4 ? idx / 4 : 8 * (idx / 4);
    }

    static __device__ __forceinline__ int tensor_thread_sample(int t) { return 2 * (t & 3); }

    // Stockham destination of sample r of butterfly j in a stage of radix R and span NS.
    template <int R, int NS>
    static __device__ __forceinline__ constexpr int destination(int j, int r) {
        return (j / NS) * NS * R + (j % NS) + r * NS;
    }

    // Whether slot idx may need a twiddle other than 1 (on the tensor cores sample 0 sits in a
    // different slot per lane, so every slot is multiplied).
    template <int R>
    static __device__ __forceinline__ constexpr bool twiddled(int idx) {
        return tensor_stage<R>() || idx % R != 0;
    }

    // Where sample (or output) idx of this thread's transform lives in device memory, as a
    // VW-element vector: contiguous transforms, or (Cfg::STRIDED, VW == 1) samples and outputs
    // c.sample_in / c.sample_out apart in a strided pass (compile-time constants where the pass
    // bakes them in, so these offsets become immediates).
    template <int VW>
    static __device__ __forceinline__ const BitsVec<Bits, VW>* in_at(const Ctx& c, int idx) {
        if constexpr (Cfg::STRIDED) {
            static_assert(VW == 1, "strided samples are accessed one at a time");
            return reinterpret_cast<const BitsVec<Bits, VW>*>(c.in + c.gbase + (u64)idx * c.sample_in);
        } else {
            return reinterpret_cast<const BitsVec<Bits, VW>*>(c.in + c.gbase + idx);
        }
    }

    template <int VW>
    static __device__ __forceinline__ BitsVec<Bits, VW>* out_at(const Ctx& c, int idx) {
        if constexpr (Cfg::STRIDED) {
            static_assert(VW == 1, "strided outputs are accessed one at a time");
            return reinterpret_cast<BitsVec<Bits, VW>*>(c.out + c.gbase_out + (u64)idx * c.sample_out);
        } else {
            return reinterpret_cast<BitsVec<Bits, VW>*>(c.out + c.gbase + idx);
        }
    }

    // Butterfly index of the k-th butterfly of thread t: in runs of VW consecutive j.
    template <int VW>
    static __device__ __forceinline__ int butterfly(int t, int k) {
        return VW * (t + (k / VW) * T) + (k % VW);
    }

    // A normalized direction's scale of a radix-R stage (SCALE: 1/R or 1/sqrt(R)) on every value.
    template <int R>
    static __device__ __forceinline__ void scale_stage(C (&v)[E]) {
        if constexpr (Cfg::SCALE != 0) {
#pragma unroll
            for (int i = 0; i < E; ++i) v[i] = cscale(v[i], RealFrom<Real>::of(stage_scale<R, Cfg::SCALE>()));
        }
    }

    // One Stockham stage. RN/NSN/TWOFFN/LASTN describe the next stage (RN == 0: none), whose
    // twiddles this stage starts loading into tw.
    template <int STAGE, int R, int NS, int TWOFF, bool FIRST, bool LAST, int RN, int NSN, int TWOFFN, bool LASTN>
    static __device__ __forceinline__ void stage(const Ctx& c, C (&v)[E], C (&tw)[E]) {
        constexpr int BF = E / R;
        constexpr int STRIDE = N / R;
        constexpr bool FROM_GLOBAL = FIRST && !Cfg::STAGED_IN;
        constexpr bool TO_GLOBAL = LAST && !Cfg::STAGED_OUT;
        constexpr bool TENSOR = tensor_stage<R>();
        constexpr int VW = width<R, FIRST, LAST>();
        static_assert(TENSOR ? E == 16 && T % 32 == 0 : BF % VW == 0,
                      "tensor-core stages need 16 values per thread and whole warps per transform; "
                      "elsewhere the vector width must divide the butterflies per thread");

        // Gather (in direct mode the first stage's values are already in v, from load_direct()).
        if constexpr (!FROM_GLOBAL && !TENSOR) {
#pragma unroll
            for (int k = 0; k < BF; ++k) {
                const int j = butterfly<VW>(c.t, k);
                constexpr bool ADDITIVE = additive<STAGE>(STRIDE);
                const XBits* src = c.smem + (ADDITIVE ? padded<STAGE>(j) : 0);
#pragma unroll
                for (int r = 0; r < R; ++r)
                    v[k * R + r] = Xch::unpack(src[ADDITIVE ? padded<STAGE>(r * STRIDE) : padded<STAGE>(j + r * STRIDE)]);
            }
        } else if constexpr (!FROM_GLOBAL) {
            const XBits* src = c.smem + padded<STAGE>(tensor_thread_butterfly<VW>(c.t) + tensor_thread_sample(c.t) * STRIDE);
#pragma unroll
            for (int idx = 0; idx < E; ++idx)
                v[idx] = Xch::unpack(
                    src[padded<STAGE>(tensor_slot_butterfly<VW>(idx) + tensor_sample_offset(idx % 4) * STRIDE)]);
        }

        // Twiddles: loaded by the previous stage (TW_AHEAD, latency hidden in this thread) or
        // now (fewer live registers, latency hidden by other warps).
        if constexpr (NS > 1) {
            if constexpr (!Cfg::TW_AHEAD) load_twiddles<R, NS, TWOFF, VW>(c, tw);
            derive_twiddles<R>(tw);
#pragma unroll
            for (int i = 0; i < E; ++i)
                if (twiddled<R>(i)) v[i] = cmul(v[i], tw[i]);
        }
        if constexpr (Cfg::TW_AHEAD && RN > 0) load_twiddles<RN, NSN, TWOFFN, width<RN, false, LASTN>()>(c, tw);

        // Kernels of a normalized direction (SCALE) scale every stage by 1/R (exact: a power of
        // two) or 1/sqrt(R), so no intermediate outgrows the input (f16 would overflow if the
        // output alone were scaled). Packed half arithmetic (SCALE_FIRST) scales before the DFT,
        // whose f16 sums would overflow first.
        if constexpr (Cfg::SCALE_FIRST) scale_stage<R>(v);

        // Radix-R DFTs.
        if constexpr (TENSOR) {
            if constexpr (Cfg::SPLIT && Cfg::SPLIT_TF32)
                dft16_tf32x3_tensor_cores(v);
            else if constexpr (Cfg::SPLIT)
                dft16_split_tensor_cores(v);
            else
                dft16_tensor_cores<typename Cfg::Packed::Format>(v, c.dft16);
        } else {
#pragma unroll
            for (int k = 0; k < BF; ++k) dft_in_registers<R, DIR>(&v[k * R]);
        }
        if constexpr (!Cfg::SCALE_FIRST) scale_stage<R>(v);

        // Scatter.
        if constexpr (TO_GLOBAL && TENSOR) {
            // Runs of 4 consecutive butterflies: one 4-element vector per output frequency.
            if (c.valid) {
                const int j = tensor_thread_butterfly<4>(c.t);
#pragma unroll
                for (int s = 0; s < 4; ++s) {
                    BitsVec<Bits, 4> y;
#pragma unroll
                    for (int i = 0; i < 4; ++i) y.e[i] = Store::pack(v[i * 4 + s]);
                    *out_at<4>(c, j + tensor_sample(s) * STRIDE) = y;
                }
            }
        } else if constexpr (TO_GLOBAL) {
            // In the last stage NS * R == N, so butterfly j's outputs land at j + r * STRIDE.
            if (c.valid) {
#pragma unroll
                for (int k = 0; k < BF; k += VW) {
                    const int j = butterfly<VW>(c.t, k);
#pragma unroll
                    for (int r = 0; r < R; ++r) {
                        BitsVec<Bits, VW> y;
#pragma unroll
                        for (int u = 0; u < VW; ++u) y.e[u] = Store::pack(v[(k + u) * R + r]);
                        *out_at<VW>(c, j + r * STRIDE) = y;
                    }
                }
            }
        } else if constexpr (!TENSOR) {
            exchange_barrier<Cfg>();  // everyone has gathered before the exchange buffer is overwritten
#pragma unroll
            for (int k = 0; k < BF; ++k) {
                const int j = butterfly<VW>(c.t, k);
                const int dst = (j / NS) * NS * R + (j % NS);
                constexpr bool SPLIT = additive<STAGE + 1>(NS);
                XBits* to = c.smem + (SPLIT ? padded<STAGE + 1>(dst) : 0);
#pragma unroll
                for (int r = 0; r < R; ++r)
                    to[SPLIT ? padded<STAGE + 1>(r * NS) : padded<STAGE + 1>(dst + r * NS)] = Xch::pack(v[k * R + r]);
            }
            exchange_barrier<Cfg>();
        } else {
            __syncthreads();
            XBits* dst =
                c.smem + padded<STAGE + 1>(destination<R, NS>(tensor_thread_butterfly<VW>(c.t), tensor_thread_sample(c.t)));
#pragma unroll
            for (int idx = 0; idx < E; ++idx)
                dst[padded<STAGE + 1>(destination<R, NS>(tensor_slot_butterfly<VW>(idx), tensor_sample_offset(idx % 4)))] =
                    Xch::pack(v[idx]);
            __syncthreads();
        }
    }

    // Direct mode: issue the loads of the first stage's values (radix R0) of this thread's
    // transform into raw storage-format registers; they are unpacked one tile later, so the loads
    // of the next tile are in flight while the current one is computed.
    template <int R0>
    static __device__ __forceinline__ void load_direct(const Ctx& c, Bits (&raw)[E]) {
        constexpr int BF = E / R0;
        constexpr int STRIDE = N / R0;
        if (!c.valid) {
#pragma unroll
            for (int i = 0; i < E; ++i) raw[i] = Store::pack(cx(RealFrom<Real>::of(0.0), RealFrom<Real>::of(0.0)));
            return;
        }
        if constexpr (tensor_stage<R0>()) {
            // Runs of 4 consecutive butterflies: one 4-element vector per sample.
            const int j = tensor_thread_butterfly<4>(c.t);
#pragma unroll
            for (int s = 0; s < 4; ++s) {
                const BitsVec<Bits, 4> x = load_data<Cfg::STREAM_LOADS>(
                    in_at<4>(c, j + tensor_sample(s) * STRIDE));
#pragma unroll
                for (int i = 0; i < 4; ++i) raw[i * 4 + s] = x.e[i];
            }
        } else {
#pragma unroll
            for (int k = 0; k < BF; k += V) {
                const int j = butterfly<V>(c.t, k);
#pragma unroll
                for (int r = 0; r < R0; ++r) {
                    const BitsVec<Bits, V> x = load_data<Cfg::STREAM_LOADS>(
                        in_at<V>(c, j + r * STRIDE));
#pragma unroll
                    for (int u = 0; u < V; ++u) raw[(k + u) * R0 + r] = x.e[u];
                }
            }
        }
    }

    // Elements per 16-byte vector in device memory.
    static constexpr int VS = 16 / (int)sizeof(Bits);

    // Staged mode: the block's tile, device memory -> shared memory (exchange format). Every
    // thread issues all of its 16-byte loads before the first shared-memory store.
    static constexpr int CHUNKS = B * N / VS;
    static constexpr int CHUNKS_PER_THREAD = (CHUNKS + THREADS - 1) / THREADS;
    static_assert((B * N) % VS == 0, "staged mode needs whole 16-byte vectors per tile");
    static __device__ __forceinline__ bool chunk_exists(int ci) { return CHUNKS % THREADS == 0 || ci < CHUNKS; }

    // Whether the block's whole tile lies within the batch (every tile but a partial last one):
    // its copies then need no bounds per chunk, and their addresses are one base plus
    // compile-time offsets (the checks were 7.8% of the instructions the F16 tensor-core pair
    // executes at 4096, ncu; bench/NOTES.md step 75).
    static __device__ __forceinline__ bool whole_tile(const Ctx& c) { return c.tile + (u64)(B * N) <= c.total; }

    static __device__ __forceinline__ void load_staged(const Ctx& c, Vec16 (&w)[CHUNKS_PER_THREAD]) {
        if (whole_tile(c)) {
            const Vec16* src = reinterpret_cast<const Vec16*>(c.in + c.tile) + threadIdx.x;
#pragma unroll
            for (int it = 0; it < CHUNKS_PER_THREAD; ++it)
                if (chunk_exists(it * THREADS + (int)threadIdx.x))
                    w[it] = load_data<Cfg::STREAM_LOADS>(src + it * THREADS);
            return;
        }
#pragma unroll
        for (int it = 0; it < CHUNKS_PER_THREAD; ++it) {
            const int ci = it * THREADS + (int)threadIdx.x;
            const int e0 = ci * VS;
            const u64 g = c.tile + e0;
            if (!chunk_exists(ci)) {
                continue;
            } else if (g + VS <= c.total) {
                w[it] = load_data<Cfg::STREAM_LOADS>(reinterpret_cast<const Vec16*>(c.in + g));
            } else {
#pragma unroll
                for (int u = 0; u < VS; ++u) {
                    const Bits x = (g + u < c.total) ? c.in[g + u] : Store::pack(cx((Real)0, (Real)0));
                    reinterpret_cast<Bits*>(&w[it])[u] = x;
                }
            }
        }
    }

    static __device__ __forceinline__ void store_staged(const Vec16 (&w)[CHUNKS_PER_THREAD], XBits* smem_all) {
        __syncthreads();  // the previous tile's last reads of shared memory are done
#pragma unroll
        for (int it = 0; it < CHUNKS_PER_THREAD; ++it) {
            const int ci = it * THREADS + (int)threadIdx.x;
            const int e0 = ci * VS;
            if (!chunk_exists(ci)) continue;
#pragma unroll
            for (int u = 0; u < VS; ++u) {
                const int e = e0 + u;
                smem_all[(e / N) * SMEM_STRIDE + padded<0>(e % N)] =
                    Xch::pack(Store::unpack(reinterpret_cast<const Bits*>(&w[it])[u]));
            }
        }
        __syncthreads();
    }

    // Staged mode: shared memory (buffer X, after the last stage) -> device memory, scaled.
    template <int X>
    static __device__ __forceinline__ void copy_out(const Ctx& c, const XBits* smem_all) {
        const bool whole = whole_tile(c);
        Vec16* dst = reinterpret_cast<Vec16*>(c.out + c.tile) + threadIdx.x;
#pragma unroll
        for (int it = 0; it < CHUNKS_PER_THREAD; ++it) {
            const int ci = it * THREADS + (int)threadIdx.x;
            const int e0 = ci * VS;
            if (!chunk_exists(ci)) continue;
            Vec16 w;
#pragma unroll
            for (int u = 0; u < VS; ++u) {
                const int e = e0 + u;
                reinterpret_cast<Bits*>(&w)[u] =
                    Store::pack(Xch::unpack(smem_all[(e / N) * SMEM_STRIDE + padded<X>(e % N)]));
            }
            const u64 g = c.tile + e0;
            if (whole) {
                dst[it * THREADS] = w;
            } else if (g + VS <= c.total) {
                *reinterpret_cast<Vec16*>(c.out + g) = w;
            } else {
#pragma unroll
                for (int u = 0; u < VS; ++u)
                    if (g + u < c.total) c.out[g + u] = reinterpret_cast<const Bits*>(&w)[u];
            }
        }
    }

    static __device__ __forceinline__ void select_group(Ctx& c, u64 group, u64 batch) {
        const u64 transform = group * B + threadIdx.x / T;
        c.tile = group * B * (u64)N;
        c.gbase = transform * (u64)N;
        c.valid = transform < batch;
    }

    // Registers holding a tile's device-memory values between its loads and its first use.
    struct Tile {
        Bits raw[Cfg::STAGED ? 1 : E];                    // direct: the first stage's values
        Vec16 chunks[Cfg::STAGED ? CHUNKS_PER_THREAD : 1];  // staged: 16-byte pieces of the tile
    };

    template <int R0>
    static __device__ __forceinline__ void load_tile(const Ctx& c, Tile& tile) {
        if constexpr (Cfg::STAGED) {
            load_staged(c, tile.chunks);
        } else {
            load_direct<R0>(c, tile.raw);
        }
    }

    // The whole block's shared memory (all B transforms' slices).
    static __device__ __forceinline__ XBits* block_smem() {
        extern __shared__ float4 tfft_smem[];
        return reinterpret_cast<XBits*>(tfft_smem);
    }

    // run_tiles hooks: a loaded tile becomes the first stage's values (staged: through shared
    // memory), and staged kernels copy the last stage's buffer out.
    static __device__ __forceinline__ void begin_tile(const Tile& tile, C (&v)[E]) {
        if constexpr (Cfg::STAGED) {
            store_staged(tile.chunks, block_smem());
        } else {
#pragma unroll
            for (int i = 0; i < E; ++i) v[i] = Store::unpack(tile.raw[i]);
        }
    }

    template <int X>
    static __device__ __forceinline__ void end_tile(const Ctx& c) {
        if constexpr (Cfg::STAGED) copy_out<X>(c, block_smem());
    }

    // The DFT-matrix fragments of the tensor-core stages: in this lane's registers (F16, BF16), or in
    // the block's shared table (F32Split; every thread calls this once, before its first stage).
    static __device__ __forceinline__ void prepare_tensor_cores(Ctx& c) {
        if constexpr (Cfg::TENSOR && Cfg::SPLIT && Cfg::SPLIT_TF32) store_tf32_fragments<DIR>();
        if constexpr (Cfg::TENSOR && Cfg::SPLIT && !Cfg::SPLIT_TF32) store_split_fragments<DIR>();
        if constexpr (Cfg::TENSOR && !Cfg::SPLIT) c.dft16 = dft16_fragments<DIR, typename Cfg::Packed::Format>();
    }

    template <int... RADICES>
    static __device__ __forceinline__ void run(const Bits* in, Bits* out, const Real* twiddles, u64 batch) {
        Ctx c;
        c.in = in;
        c.out = out;
        c.twiddles = twiddles;
        c.smem = block_smem() + (threadIdx.x / T) * SMEM_STRIDE;
        c.t = threadIdx.x % T;
        c.total = batch * (u64)N;
        prepare_tensor_cores(c);
        run_tiles<SinglePass, RADICES...>(c, batch);
    }
};
