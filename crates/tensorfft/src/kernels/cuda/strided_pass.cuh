// Strided pass of a multi-pass plan: for each item (one line of N samples, Cfg::N), a DFT over
// samples sample_in(geo) apart, multiplied first by an optional four-step twiddle, written
// sample_out(geo) apart (compile-time distances Cfg::SAMPLE_IN / SAMPLE_OUT where the plan
// bakes them in, so the samples of an item sit at immediate offsets from one address). Items
// are enumerated by up to five nested dimensions (fastest first) with their own input and
// output strides, so one template serves the Stockham passes of long 1D transforms, the column
// axes of 2D and 3D transforms and strided layouts.
//
// A block takes tiles of Cfg::G consecutive items, neighbouring threads on neighbouring items.
// Directly loaded passes (Cfg::STAGED_IN false): each thread loads its first-stage samples
// straight into registers, applies the twiddle there, and runs the single-pass kernel's stages.
// Gathered passes (the items' samples, not the items, are contiguous): a persistent grid copies
// a tile's G x N values into shared memory asynchronously (cp.async, two tiles in flight),
// applies the twiddle in shared memory and transforms the items Cfg::B at a time. The last stage
// stores straight from registers, or (Cfg::STAGED_OUT) leaves the tile in shared memory for a
// cooperative store in output order. Shared-memory gathers and stores walk the tile with
// neighbouring threads on neighbouring items when the fastest item dimension has the smaller
// stride (column groups: each sample row of the tile is G consecutive elements), else on
// neighbouring samples; so device-memory accesses are coalesced whichever side is contiguous.
//
// Tensor-core stages (Cfg::TENSOR: radix-16 DFTs as mma.sync products, dft_tensor_cores.cuh)
// need a warp's 32 butterflies in one item, so such passes always gather and stage their
// tiles (the device-memory walk is the same either way) and put an item's T threads
// side by side: thread x computes item x / T of the round, as the single-pass kernel does.
#pragma once

// Run-time geometry of a strided pass (plan/strided_pass.rs; the same layout as the Rust struct).
struct PassGeometry {
    u64 count[5];       // items along each dimension (1 for unused ones)
    u64 in_stride[5];   // element distance between neighbouring items, input
    u64 out_stride[5];  // and output
    // Element distance between an item's samples, input and output (where the kernel has them
    // as compile-time constants, Cfg::SAMPLE_IN and Cfg::SAMPLE_OUT, those are used).
    u64 sample_in;
    u64 sample_out;
    u64 items;          // product of the counts
    u64 tw_mask;        // root - 1 of the four-step twiddle (root a power of two)
    u64 tw_lo_offset;   // complex offset of the low twiddle table in pass_twiddles
    u64 tw_mid_offset;  // and of the middle one (Cfg::TWIDDLE_LEVELS == 3)
    int tw_dim;         // item dimension whose coordinate is m
    int tw_lo_bits;     // exponent bits read from the low table (and from the middle one)
};

// Asynchronous copies from device to shared memory (cp.async, sm_80+): issued without registers
// to hold the data, so a thread can have all of its tile's loads in flight at once (addresses:
// shared_address, cluster_memory.cuh). Before sm_80 each copy is a plain load and store,
// complete when issued, and the commit and wait are empty (every wait is followed by a block
// barrier before the tile is read).

template <int BYTES>
__device__ __forceinline__ void copy_async(void* smem, const void* gmem) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    struct alignas(BYTES) Chunk {
        unsigned char b[BYTES];
    };
    *static_cast<Chunk*>(smem) = *static_cast<const Chunk*>(gmem);
#else
    if constexpr (BYTES == 16) {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(shared_address(smem)), "l"(gmem) : "memory");
    } else {
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(shared_address(smem)), "l"(gmem), "n"(BYTES)
                     : "memory");
    }
#endif
}

__device__ __forceinline__ void copy_async_commit() {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

template <int PENDING>
__device__ __forceinline__ void copy_async_wait() {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;" ::"n"(PENDING) : "memory");
#endif
}

// The cooperative store of a G x N tile, walked in runs that keep a thread on one item: with
// items fastest and THREADS a multiple of G, thread t stays on item t % G and steps THREADS / G
// samples; with samples fastest and N a multiple of THREADS, the block covers each item in
// N / THREADS rows of THREADS neighbouring samples. Either way the thread's device address
// advances by a constant per value and, the step being a power of two above the thread's first
// sample, the padded shared-memory position is a per-thread base plus a compile-time offset
// (padding is additive over disjoint bits): the run costs a load, a store and an add per value,
// where the general walk locates item and sample of every value. Other tiles take the general
// walk.
template <int G, int N, int THREADS, bool ITEMS_FASTEST>
struct ItemRuns {
    static __host__ __device__ constexpr bool pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }
    static constexpr int STEP = ITEMS_FASTEST ? THREADS / G : THREADS;  // sample step of a run
    static constexpr bool APPLIES =
        ITEMS_FASTEST ? (THREADS % G == 0 && pow2(STEP) && N % STEP == 0) : (pow2(THREADS) && N % THREADS == 0);
    static constexpr int RUNS = ITEMS_FASTEST ? 1 : G;  // runs per thread
    static constexpr int VALUES = APPLIES ? N / STEP : 0;  // values per run
    static __device__ __forceinline__ int item(int run) { return ITEMS_FASTEST ? (int)threadIdx.x % G : run; }
    static __device__ __forceinline__ int first_sample() { return ITEMS_FASTEST ? (int)threadIdx.x / G : (int)threadIdx.x; }
};

// The precision the four-step twiddle powers of a direct pass are stepped in: f32 for 2-byte
// data (about R0 f32 roundings, ~1e-6, far below the storage's), double for f32 data.
template <bool NARROW_DATA>
struct TwiddleStep {
    typedef double T;
};
template <>
struct TwiddleStep<true> {
    typedef float T;
};

template <class Cfg>
struct StridedPass {
    typedef SinglePass<Cfg> K;
    typedef typename K::Store Store;
    typedef typename K::Xch Xch;
    typedef typename K::Real Real;
    typedef typename K::C C;
    typedef typename K::Bits Bits;
    typedef typename K::XBits XBits;

    static constexpr int N = Cfg::N;
    static constexpr int G = Cfg::G;
    static constexpr int PER_ROUND = Cfg::B;
    static constexpr int THREADS = K::THREADS;
    static constexpr int TILE = G * N;
    static constexpr int PER_THREAD = (TILE + THREADS - 1) / THREADS;
    static constexpr int BUFFER = G * Cfg::ITEM_STRIDE;  // one tile in shared memory, in elements
    static constexpr u64 INVALID = ~0ull;
    static_assert(G % PER_ROUND == 0, "a tile holds whole rounds of items");
    static_assert(sizeof(Bits) == sizeof(XBits), "strided passes exchange in the storage format");
    static_assert(!Cfg::TENSOR || (Cfg::STAGED_IN && Cfg::STAGED_OUT),
                  "tensor-core stages take their items' threads side by side: staged tiles only");

    // The item of the round a thread computes and its index within the item: items side by side
    // on the tensor cores (a warp's butterflies in one item), else neighbouring threads on
    // neighbouring items (coalesced direct loads and stores).
    // Both in unsigned arithmetic: signed division and remainder of the thread index (their
    // extra instructions and lost range) made the f32 2^20 and f64 passes spill (bench/NOTES.md
    // step 99).
    static __device__ __forceinline__ int round_item() {
        return (int)(Cfg::TENSOR ? threadIdx.x / (unsigned)K::T : threadIdx.x % (unsigned)PER_ROUND);
    }
    static __device__ __forceinline__ int item_thread() {
        return (int)(Cfg::TENSOR ? threadIdx.x % (unsigned)K::T : threadIdx.x / (unsigned)PER_ROUND);
    }

    // Where the items of a tile start (two tiles: the one computed and the one being loaded).
    struct Offsets {
        u64 in[2][G];
        u64 out[2][G];
        u64 m[2][G];
    };

    // Item i and sample k of the e-th value of a tile, in the access order of a load or store.
    template <bool ITEMS_FASTEST>
    static __device__ __forceinline__ void tile_position(int e, int& i, int& k) {
        if constexpr (ITEMS_FASTEST) {
            i = e % G;
            k = e / G;
        } else {
            i = e / N;
            k = e % N;
        }
    }

    static __device__ __forceinline__ bool exists(int e) { return TILE % THREADS == 0 || e < TILE; }

    // Element distances between an item's samples: the compile-time constants where the plan
    // baked them in (nonzero), else the run-time geometry.
    static __device__ __forceinline__ u64 sample_in(const PassGeometry& geo) {
        return Cfg::SAMPLE_IN ? (u64)Cfg::SAMPLE_IN : geo.sample_in;
    }
    static __device__ __forceinline__ u64 sample_out(const PassGeometry& geo) {
        return Cfg::SAMPLE_OUT ? (u64)Cfg::SAMPLE_OUT : geo.sample_out;
    }

    // w^e of the four-step twiddle in double: the product of a high and a low entry of the
    // double tables, or of a high, a middle and a low entry where the plan splits the exponent
    // in three (Cfg::TWIDDLE_LEVELS: f64 roots above 2^20, whose two tables would not stay in
    // L1), for the forward direction (e below the root, a power of two of at most 2^28).
    static __device__ __forceinline__ Cx<double> pass_root_power(const double2* table, const PassGeometry& geo,
                                                                 unsigned e) {
        if constexpr (Cfg::TWIDDLE_LEVELS == 3) {
            const unsigned bits = (unsigned)geo.tw_lo_bits, mask = (1u << bits) - 1;
            const double2 hi = __ldg(table + (e >> (2 * bits)));
            const double2 mid = __ldg(table + (unsigned)geo.tw_mid_offset + ((e >> bits) & mask));
            const double2 lo = __ldg(table + (unsigned)geo.tw_lo_offset + (e & mask));
            return cmul(cmul(cx(hi.x, hi.y), cx(mid.x, mid.y)), cx(lo.x, lo.y));
        } else {
            const double2 hi = __ldg(table + (e >> geo.tw_lo_bits));
            const double2 lo = __ldg(table + (unsigned)geo.tw_lo_offset + (e & ((1u << geo.tw_lo_bits) - 1)));
            return cmul(cx(hi.x, hi.y), cx(lo.x, lo.y));
        }
    }

    // A twiddle (double, or f32 steps) rounded once to the compute precision, in the kernel's
    // direction.
    template <class S>
    static __device__ __forceinline__ C round_twiddle(const Cx<S>& w) {
        return cx((Real)w.re, Cfg::DIR < 0 ? (Real)w.im : -(Real)w.im);
    }

    // A double table product in the precision S its powers are stepped in.
    template <class S>
    static __device__ __forceinline__ Cx<S> to_step(const Cx<double>& w) {
        return cx((S)w.re, (S)w.im);
    }

    // w^(m k) of the four-step twiddle. The root is a power of two of at most 2^28, so m k mod
    // root is the 32-bit product masked (unsigned arithmetic wraps modulo 2^32, a multiple of
    // the root): no 64-bit multiply per value.
    static __device__ __forceinline__ C pass_twiddle(const double* table, const PassGeometry& geo, unsigned mk) {
        return round_twiddle(pass_root_power(reinterpret_cast<const double2*>(table), geo, mk & (unsigned)geo.tw_mask));
    }

    // Input and output offsets of item `item` and its coordinate m along the twiddle dimension.
    static __device__ __forceinline__ void locate_item(const PassGeometry& geo, u64 item, u64& in, u64& out, u64& m) {
        u64 rest = item;
        in = 0;
        out = 0;
        m = 0;
#pragma unroll
        for (int d = 0; d < 5; ++d) {
            // Counts are powers of two but for a batch dimension: shifts, not 64-bit divisions
            // (a chain of ten of those held every tile's warps at the barrier).
            const u64 n = geo.count[d];
            u64 coord;
            if ((n & (n - 1)) == 0) {
                coord = rest & (n - 1);
                rest >>= __ffsll((long long)n) - 1;
            } else {
                coord = rest % n;
                rest /= n;
            }
            in += coord * geo.in_stride[d];
            out += coord * geo.out_stride[d];
            if (d == geo.tw_dim) m = coord;
        }
    }

    // The first G threads locate the items of `tile` (offsets of buffer b).
    static __device__ __forceinline__ void locate(Offsets& o, int b, u64 tile, const PassGeometry& geo) {
        for (int i = threadIdx.x; i < G; i += THREADS) {
            const u64 item = tile * G + i;
            u64 a, c, m;
            locate_item(geo, item, a, c, m);
            o.in[b][i] = item < geo.items ? a : INVALID;
            o.out[b][i] = c;
            o.m[b][i] = m;
        }
    }

    // Direct loads: the four-step twiddle on the first stage's values (radix R0) of the item
    // whose twiddle coordinate is m: samples j + r N/R0 of butterfly j take w^(m j) w^(m N/R0)^r.
    // In float arithmetic the powers come from one table product per butterfly and one per
    // thread (two loads each, instead of two per value) and each twiddle is rounded once: f32
    // data steps them in double; 2-byte data (f16, bf16) steps them in f32, whose ~R0 roundings
    // (~1e-6) stay far below the storage's. f64 reads every twiddle from the tables.
    template <int R0>
    static __device__ __forceinline__ void twiddle_first_stage(const typename K::Ctx& c, C (&v)[Cfg::E],
                                                               const double* pass_twiddles, const PassGeometry& geo,
                                                               u64 m) {
        const double2* table = reinterpret_cast<const double2*>(pass_twiddles);
        const unsigned mask = (unsigned)geo.tw_mask;
        if constexpr (sizeof(Real) == 4) {
            typedef typename TwiddleStep<(sizeof(typename Store::Bits) < 8)>::T S;
            const Cx<S> step = to_step<S>(pass_root_power(table, geo, ((unsigned)m * (unsigned)(N / R0)) & mask));
#pragma unroll
            for (int k = 0; k < Cfg::E / R0; ++k) {
                const int j = K::template butterfly<Cfg::V>(c.t, k);
                Cx<S> w = to_step<S>(pass_root_power(table, geo, ((unsigned)m * (unsigned)j) & mask));
#pragma unroll
                for (int r = 0; r < R0; ++r) {
                    if (r > 0) w = cmul(w, step);
                    v[k * R0 + r] = cmul(v[k * R0 + r], round_twiddle(w));
                }
            }
        } else {
#pragma unroll
            for (int k = 0; k < Cfg::E / R0; ++k) {
                const int j = K::template butterfly<Cfg::V>(c.t, k);
#pragma unroll
                for (int r = 0; r < R0; ++r)
                    v[k * R0 + r] = cmul(v[k * R0 + r], pass_twiddle(pass_twiddles, geo, (unsigned)m * (unsigned)(j + r * (N / R0))));
            }
        }
    }

    // Whether a gathered tile's four-step twiddle is stepped along each thread's runs of values
    // (tensor-core passes, whose tiles the runs cover): one table product for a run's first
    // power and one for its step, then a complex product per value, where the per-value form
    // reads two f64 table entries per value (the second pass of f16 2^24 took 141 us against
    // 98 us for the first; bench/NOTES.md step 87). Steps in f32 for 2-byte data, in double for
    // f32 data, as the direct loads' twiddles.
    static __device__ __forceinline__ constexpr bool stepped_tile_twiddle() {
        return Cfg::TENSOR && ItemRuns<G, N, THREADS, Cfg::LOAD_ITEMS_FASTEST>::APPLIES;
    }

    // The four-step twiddle on a gathered tile (buffer b's items), walked in the runs of the
    // tile's loads: value s of a run is sample k0 + s STEP of item i, times w^(m (k0 + s STEP)).
    static __device__ __forceinline__ void twiddle_tile_in_runs(const Offsets& o, int b, XBits* buffer,
                                                                const double* pass_twiddles,
                                                                const PassGeometry& geo) {
        typedef ItemRuns<G, N, THREADS, Cfg::LOAD_ITEMS_FASTEST> Runs;
        typedef typename TwiddleStep<(sizeof(typename Store::Bits) < 8)>::T S;
        const double2* table = reinterpret_cast<const double2*>(pass_twiddles);
        const unsigned mask = (unsigned)geo.tw_mask;
#pragma unroll 1
        for (int run = 0; run < Runs::RUNS; ++run) {
            const int i = Runs::item(run);
            const int k0 = Runs::first_sample();
            const unsigned m = (unsigned)o.m[b][i];
            Cx<S> w = to_step<S>(pass_root_power(table, geo, (m * (unsigned)k0) & mask));
            const Cx<S> step = to_step<S>(pass_root_power(table, geo, (m * (unsigned)Runs::STEP) & mask));
            XBits* x = buffer + position<0>(i, k0);
#pragma unroll 4
            for (int s = 0; s < Runs::VALUES; ++s) {
                if (s > 0) w = cmul(w, step);
                XBits& v = x[K::template padded<0>(s * Runs::STEP)];
                v = Xch::pack(cmul(Xch::unpack(v), round_twiddle(w)));
            }
        }
    }

    // The tensor-core stage pair's operands (Cfg::TENSOR_PAIR: F16 items of 1024 and more run
    // their first two radix-16 stages in registers, tensor_pair_fft.cuh): the DFT matrix's
    // fragments in both operand orders and the lane's unit base.
    struct PairOperands {
        Dft16Fragments f;
        Dft16Rows fa;
        int base;
    };
    static __device__ __forceinline__ PairOperands pair_operands() {
        PairOperands p{};
        if constexpr (Cfg::TENSOR_PAIR) {
            p.f = dft16_fragments<Cfg::DIR, typename Cfg::Packed::Format>();
            p.fa = dft16_rows<false>(p.f);
            p.base = TensorPairFft<Cfg>::lane_base();
        }
        return p;
    }

    template <int R0, int R1, int... REST>
    static __device__ __forceinline__ void pair_item(const typename K::Ctx& c, const Dft16Fragments& f,
                                                     const Dft16Rows& fa, int base) {
        static_assert(R0 == 16 && R1 == 16, "the pair runs the first two radix-16 stages");
        TensorPairFft<Cfg>::template transform_slice<REST...>(c, f, fa, base);
    }

    // Shared-memory position of sample k of tile item i in buffer X of a tile's buffer.
    template <int X>
    static __device__ __forceinline__ int position(int i, int k) {
        return i * Cfg::ITEM_STRIDE + K::template padded<X>(k);
    }

    // Issues the asynchronous copies of a located tile into buffer b (the first stage's layout).
    static __device__ __forceinline__ void issue_loads(const Offsets& o, int b, XBits* smem, const Bits* in,
                                                       const PassGeometry& geo) {
#pragma unroll 8
        for (int it = 0; it < PER_THREAD; ++it) {
            const int e = it * THREADS + (int)threadIdx.x;
            if (!exists(e)) continue;
            int i, k;
            tile_position<Cfg::LOAD_ITEMS_FASTEST>(e, i, k);
            XBits* dst = smem + b * BUFFER + position<0>(i, k);
            const u64 off = o.in[b][i];
            if (off != INVALID) {
                copy_async<sizeof(Bits)>(dst, in + off + (u64)k * sample_in(geo));
            } else {
                *dst = Xch::pack(cx((Real)0, (Real)0));
            }
        }
        copy_async_commit();
    }

    // Points the stage context at item i of the tile in buffer b: neighbouring threads work on
    // neighbouring items (so direct device-memory accesses of items-fastest passes coalesce).
    static __device__ __forceinline__ void select_item(typename K::Ctx& c, const Offsets& o, int b, int i,
                                                       XBits* buffer) {
        c.smem = buffer + i * Cfg::ITEM_STRIDE;
        c.gbase = o.in[b][i];
        c.gbase_out = o.out[b][i];
        c.valid = c.gbase != INVALID;
    }

    // The staged store: the last stage's buffer of the tile, out in the store order.
    template <int LAST>
    static __device__ __forceinline__ void store_tile(const typename K::Ctx& c, const Offsets& o, int b,
                                                      const XBits* buffer, Bits* out, const PassGeometry& geo) {
        typedef ItemRuns<G, N, THREADS, Cfg::STORE_ITEMS_FASTEST> Runs;
        if constexpr (Runs::APPLIES) {
#pragma unroll
            for (int run = 0; run < Runs::RUNS; ++run) {
                const int i = Runs::item(run);
                if (o.in[b][i] == INVALID) continue;
                const int k0 = Runs::first_sample();
                const XBits* src = buffer + position<LAST>(i, k0);
                Bits* dst = out + o.out[b][i] + (u64)k0 * sample_out(geo);
                const u64 step = (u64)Runs::STEP * sample_out(geo);
#pragma unroll
                for (int s = 0; s < Runs::VALUES; ++s, dst += step)
                    *dst = Store::pack(Xch::unpack(src[K::template padded<LAST>(s * Runs::STEP)]));
            }
            return;
        }
#pragma unroll 4
        for (int it = 0; it < PER_THREAD; ++it) {
            const int e = it * THREADS + (int)threadIdx.x;
            if (!exists(e)) continue;
            int i, k;
            tile_position<Cfg::STORE_ITEMS_FASTEST>(e, i, k);
            if (o.in[b][i] == INVALID) continue;
            const C y = Xch::unpack(buffer[position<LAST>(i, k)]);
            out[o.out[b][i] + (u64)k * sample_out(geo)] = Store::pack(y);
        }
    }

    template <int R0, int... RADICES>
    static __device__ __forceinline__ void run(const Bits* in, Bits* out, const Real* twiddles,
                                               const double* pass_twiddles, const PassGeometry& geo) {
        constexpr int LAST = 1 + sizeof...(RADICES);
        __shared__ Offsets o;
        XBits* smem = K::block_smem();
        typename K::Ctx c;
        c.in = in;
        c.out = out;
        c.twiddles = twiddles;
        c.t = item_thread();
        c.sample_in = sample_in(geo);
        c.sample_out = sample_out(geo);
        const int lane_item = round_item();
        const u64 tiles = (geo.items + G - 1) / G;
        u64 tile = blockIdx.x;
        if (tile >= tiles) return;
        K::prepare_tensor_cores(c);  // waited for by the first tile's barrier
        const PairOperands pair = pair_operands();
        if constexpr (!Cfg::STAGED_IN) {
            // One round per tile: each thread loads its first-stage samples straight into
            // registers, applies the twiddle there, and runs the stages.
            static_assert(G == PER_ROUND, "direct loads take one round of items per tile");
            for (; tile < tiles; tile += gridDim.x) {
                locate(o, 0, tile, geo);
                __syncthreads();
                select_item(c, o, 0, lane_item, smem);
                typename K::Bits raw[Cfg::E];
                K::template load_direct<R0>(c, raw);
                C v[Cfg::E];
#pragma unroll
                for (int i = 0; i < Cfg::E; ++i) v[i] = Store::unpack(raw[i]);
                if constexpr (Cfg::PASS_TWIDDLE) twiddle_first_stage<R0>(c, v, pass_twiddles, geo, o.m[0][lane_item]);
                C tw[Cfg::E];
                run_stages<K, 0, 1, 0, R0, RADICES...>(c, v, tw);
                if constexpr (Cfg::STAGED_OUT) store_tile<LAST>(c, o, 0, smem, out, geo);
                __syncthreads();  // the tile's offsets and shared memory are free again
            }
            return;
        }
        // Gathered tiles: a software pipeline over a persistent grid, the copies of the next tile
        // in flight while this one is transformed and stored.
        locate(o, 0, tile, geo);
        __syncthreads();
        issue_loads(o, 0, smem, in, geo);
        for (int b = 0; tile < tiles; tile += gridDim.x, b ^= 1) {
            const u64 next = tile + gridDim.x;
            if (next < tiles) {
                locate(o, b ^ 1, next, geo);
                __syncthreads();
                issue_loads(o, b ^ 1, smem, in, geo);
                copy_async_wait<1>();
            } else {
                copy_async_wait<0>();
            }
            __syncthreads();
            XBits* buffer = smem + b * BUFFER;

            // The four-step twiddle, applied in shared memory.
            if constexpr (Cfg::PASS_TWIDDLE && stepped_tile_twiddle()) {
                twiddle_tile_in_runs(o, b, buffer, pass_twiddles, geo);
                __syncthreads();
            } else if constexpr (Cfg::PASS_TWIDDLE) {
#pragma unroll 4
                for (int it = 0; it < PER_THREAD; ++it) {
                    const int e = it * THREADS + (int)threadIdx.x;
                    if (!exists(e)) continue;
                    int i, k;
                    tile_position<Cfg::LOAD_ITEMS_FASTEST>(e, i, k);
                    XBits* x = buffer + position<0>(i, k);
                    *x = Xch::pack(cmul(Xch::unpack(*x), pass_twiddle(pass_twiddles, geo, (unsigned)o.m[b][i] * (unsigned)k)));
                }
                __syncthreads();
            }

            // The items' DFTs, PER_ROUND at a time; staged stores find the last stage's output in
            // buffer LAST.
#pragma unroll 1
            for (int round = 0; round < G / PER_ROUND; ++round) {
                select_item(c, o, b, round * PER_ROUND + lane_item, buffer);
                if constexpr (Cfg::TENSOR_PAIR) {
                    pair_item<R0, RADICES...>(c, pair.f, pair.fa, pair.base);
                } else {
                    C v[Cfg::E];
                    C tw[Cfg::E];
                    run_stages<K, 0, 1, 0, R0, RADICES...>(c, v, tw);
                }
            }
            if constexpr (Cfg::STAGED_OUT) store_tile<LAST>(c, o, b, buffer, out, geo);
            __syncthreads();  // this tile's buffer and offsets are free for the tile after next
        }
    }
};
