// Two Stockham passes of one axis (N = LA * LB) fused into one kernel on a thread-block cluster
// (sm_90, plan/cluster_pass.rs): the cluster's CLUSTER blocks share one group of transforms
// through distributed shared memory, so the data crosses device memory once each way. By default
// the grid has one cluster per group; a persistent grid of resident clusters loops over the
// groups (the loop below serves both), and with a landing buffer (CfgA::LANDING, persistent only)
// the next group's input is copied into shared memory asynchronously while this one is
// transformed.
//
//  1. First pass: block b transforms items q = b*QA ... (b+1)*QA - 1 of the group (DFTs of
//     length LA over samples LB apart, loaded straight into registers, neighbouring threads on
//     neighbouring items) and leaves each item's outputs in its shared memory in natural order.
//  2. Cluster barrier: every block's first-pass outputs are in place.
//  3. Block b gathers the first-stage values of the second pass's items m = b*QB ... from the
//     shared memory of the blocks that hold them (sample q of item m is output m of first-pass
//     item q, in block q / QA), and arrives at a second cluster barrier.
//  4. Four-step twiddle w_N^(m r) in registers; once every block has gathered (the barrier's
//     wait), the second pass's stages reuse this block's shared memory, and the last stage
//     stores straight to device memory (neighbouring threads on neighbouring items).
//
// Both passes are the StridedPass configurations of the unfused schedule with QA = LB/CLUSTER and
// QB = LA/CLUSTER items per block, so they share its stages, twiddles and roundings. Item
// dimension 0 of both passes is the group's items (the twiddle's m in the second); dimension 1
// steps from group to group with the other dimensions folded into it (plan/cluster_pass.rs
// checks both), so the first pass finds its items' offsets without 64-bit divisions.
#pragma once

// threadIdx.x, read anew at each call: addresses derived from it inside the loop over groups are
// recomputed per group instead of being hoisted out of the loop and held in registers (which
// took 250 registers per thread).
__device__ __forceinline__ int thread_index() {
    unsigned t;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(t));
    return (int)t;
}

template <int... R>
struct Radices {};

template <class CfgA, class CfgB>
struct ClusterPass {
    typedef SinglePass<CfgA> KA;
    typedef SinglePass<CfgB> KB;
    typedef StridedPass<CfgA> SA;
    typedef StridedPass<CfgB> SB;
    typedef typename KA::Bits Bits;
    typedef typename KA::XBits XBits;
    typedef typename KA::Xch Xch;
    typedef typename KA::Real Real;
    typedef typename KA::C C;

    static constexpr int CLUSTER = CfgA::CLUSTER;
    static constexpr int LA = CfgA::N;  // first pass's DFT length
    static constexpr int LB = CfgB::N;  // second pass's
    static constexpr int QA = CfgA::B;  // first-pass items per block
    static constexpr int QB = CfgB::B;  // second-pass items per block
    static constexpr int E = CfgA::E;
    static_assert(QA * CLUSTER == LB && QB * CLUSTER == LA, "each block takes 1/CLUSTER of both passes' items");
    static_assert(KA::THREADS == KB::THREADS && CfgB::E == E, "both passes run on the same threads");
    static_assert(sizeof(XBits) == sizeof(typename KB::XBits), "one exchange format");
    static_assert(!CfgA::STAGED_IN && CfgA::STAGED_OUT && !CfgB::STAGED_IN && !CfgB::STAGED_OUT,
                  "direct loads in the first pass, first-pass outputs in shared memory, direct stores in the second");

    // With CfgA::LANDING the block's first-pass input of the next group is copied
    // asynchronously (cp.async, 16 bytes each) into a landing buffer after the exchange tiles
    // while the current group is transformed: row r holds sample r of the block's QA items (QA
    // consecutive elements in device memory).
    static constexpr int LANDING = QA * LA;  // elements
    static constexpr int CHUNK = 16 / (int)sizeof(Bits);
    static constexpr int CHUNKS = LANDING / CHUNK;
    static_assert(!CfgA::LANDING || QA % CHUNK == 0, "landing rows are whole 16-byte chunks");

    static __device__ __forceinline__ Bits* landing_buffer() {
        return reinterpret_cast<Bits*>(KA::block_smem()) + CfgA::LANDING_OFFSET / (int)sizeof(Bits);
    }

    static __device__ __forceinline__ void issue_landing(const Bits* in, const PassGeometry& geo, u64 g,
                                                         unsigned rank) {
        const u64 base = g * geo.in_stride[1] + (u64)(rank * QA) * geo.in_stride[0];
        Bits* landing = landing_buffer();
#pragma unroll 4
        for (int i = thread_index(); i < CHUNKS; i += KA::THREADS) {
            const int r = i / (QA / CHUNK);
            const int q = (i % (QA / CHUNK)) * CHUNK;
            copy_async<16>(landing + r * QA + q, in + base + (u64)r * SA::sample_in(geo) + q);
        }
        copy_async_commit();
    }

    // Step 1: the first pass of this block's items of group g; their outputs end in buffer
    // LAST (the stage count) of each item's shared-memory slice. With a landing buffer, the
    // loads of group `next` (if below `groups`) are issued once this group's are read.
    template <int... RA>
    static __device__ __forceinline__ void first(XBits* smem, const Bits* in, const Real* twiddles,
                                                 const double* pass_twiddles, const PassGeometry& geo, u64 g,
                                                 u64 next, u64 groups, unsigned rank) {
        constexpr int R0 = first_radix<RA...>();
        typename KA::Ctx c;
        const int tid = thread_index();
        const int lane = tid % QA;
        c.in = in;
        c.out = nullptr;
        c.twiddles = twiddles;
        c.t = tid / QA;
        c.smem = smem + lane * CfgA::ITEM_STRIDE;
        const int item = rank * QA + lane;  // item q of the group
        c.gbase = g * geo.in_stride[1] + (u64)item * geo.in_stride[0];
        c.gbase_out = 0;
        c.sample_in = SA::sample_in(geo);
        c.sample_out = 0;
        c.valid = true;
        Bits raw[E];
        if constexpr (CfgA::LANDING) {
            copy_async_wait<0>();
            __syncthreads();  // group g has landed
            const Bits* landing = landing_buffer();
#pragma unroll
            for (int k = 0; k < E / R0; ++k) {
                const int j = KA::template butterfly<CfgA::V>(c.t, k);
#pragma unroll
                for (int r = 0; r < R0; ++r) raw[k * R0 + r] = landing[(j + r * (LA / R0)) * QA + lane];
            }
            __syncthreads();  // everyone has read it: the landing buffer takes the next group
            if (next < groups) issue_landing(in, geo, next, rank);
        } else {
            KA::template load_direct<R0>(c, raw);
        }
        C v[E];
#pragma unroll
        for (int i = 0; i < E; ++i) v[i] = KA::Store::unpack(raw[i]);
        if constexpr (CfgA::PASS_TWIDDLE) SA::template twiddle_first_stage<R0>(c, v, pass_twiddles, geo, (u64)item);
        C tw[E];
        run_stages<KA, 0, 1, 0, RA...>(c, v, tw);
    }

    // Steps 3 and 4: the second pass of this block's items, gathered from the cluster's shared
    // memory (first-pass outputs in buffer LASTA), stored to device memory.
    template <int LASTA, int... RB>
    static __device__ __forceinline__ void second(XBits* smem, Bits* out, const Real* twiddles,
                                                  const double* pass_twiddles, const PassGeometry& geo, u64 g,
                                                  unsigned rank) {
        constexpr int R0 = first_radix<RB...>();
        constexpr int STRIDE = LB / R0;
        typename KB::Ctx c;
        const int tid = thread_index();
        const int lane = tid % QB;
        const int item = rank * QB + lane;  // item m of the group, output m of the first pass
        c.in = nullptr;
        c.out = out;
        c.twiddles = twiddles;
        c.t = tid / QB;
        c.smem = smem + lane * CfgB::ITEM_STRIDE;
        // The general item decomposition here (the first pass folds it): with the folded form
        // the compiler spilled 240 bytes per thread at 64 registers (f32 2^16).
        u64 unused, m;
        SB::locate_item(geo, g * LA + item, unused, c.gbase_out, m);
        c.gbase = 0;
        c.sample_in = 0;
        c.sample_out = SB::sample_out(geo);
        c.valid = true;
        // Sample s of item m: output m of first-pass item s, held by block s / QA.
        const unsigned column = shared_address(smem + KA::template padded<LASTA>(item));
        XBits raw[E];
#pragma unroll
        for (int k = 0; k < E / R0; ++k) {
            const int j = KB::template butterfly<CfgB::V>(c.t, k);
#pragma unroll
            for (int r = 0; r < R0; ++r) {
                const int s = j + r * STRIDE;
                const unsigned local = column + (unsigned)((s % QA) * CfgA::ITEM_STRIDE * (int)sizeof(XBits));
                raw[k * R0 + r] = load_cluster<XBits>(cluster_address(local, (unsigned)(s / QA)));
            }
        }
        cluster_arrive();  // this block has read what it needs of the others' shared memory
        C v[E];
#pragma unroll
        for (int i = 0; i < E; ++i) v[i] = Xch::unpack(raw[i]);
        if constexpr (CfgB::PASS_TWIDDLE) SB::template twiddle_first_stage<R0>(c, v, pass_twiddles, geo, m);
        cluster_wait();  // every block has: shared memory is free for the second pass's exchanges
        C tw[E];
        run_stages<KB, 0, 1, 0, RB...>(c, v, tw);
    }

    // One group of transforms per cluster and iteration (a grid of whole clusters).
    template <int... RA, int... RB>
    static __device__ __forceinline__ void run(Radices<RA...>, Radices<RB...>, const Bits* in, Bits* out,
                                               const Real* twiddles_a, const Real* twiddles_b,
                                               const double* pass_twiddles_a, const double* pass_twiddles_b,
                                               const PassGeometry& geo_a, const PassGeometry& geo_b) {
        XBits* smem = KA::block_smem();
        const unsigned rank = cluster_rank();
        const u64 groups = geo_a.items / LB;
        u64 g = cluster_index();
        if constexpr (CfgA::LANDING) {
            if (g < groups) issue_landing(in, geo_a, g, rank);
        }
        for (; g < groups; g += cluster_count()) {
            first<RA...>(smem, in, twiddles_a, pass_twiddles_a, geo_a, g, g + cluster_count(), groups, rank);
            cluster_arrive();  // step 2
            cluster_wait();
            second<sizeof...(RA), RB...>(smem, out, twiddles_b, pass_twiddles_b, geo_b, g, rank);
        }
    }
};
