// The two passes of an NTT schedule fused into one kernel on a thread-block cluster (sm_90;
// ntt/cluster_fusion.rs): the CLUSTER blocks of a cluster take one transform of N = LEN0 · LEN1
// words, so it crosses device memory once each way instead of twice.
//
//  1. Block r runs the first pass on items r·TILE0 … of the transform (Cfg0::TILE = LEN1 /
//     CLUSTER, loaded from device memory) and stores each output word, whose index in
//     the transform is i, into the shared memory of block i / CHUNK at slot i mod CHUNK (CHUNK =
//     N / CLUSTER words after the exchange rows of every block).
//  2. Cluster barrier: every block's slots are written.
//  3. Block r runs the second pass on items r·TILE1 … (Cfg1::TILE = LEN0 / CLUSTER), whose
//     inputs are exactly words r·CHUNK … (r + 1)·CHUNK - 1 of the transform (the planner checks
//     it): they are read from its own shared memory and the outputs go to device memory.
//
// Both passes are the passes of the unfused schedule (ntt_pass.cuh, direct or staged) retiled so
// each block takes 1/CLUSTER of both passes' items on the same threads: same stages, roots,
// twiddles and rounds, the same results bit for bit. Blocks of cluster c take transform c (transforms at
// distance N). Every block reads its whole input before the barrier and writes after it, and a
// cluster owns its transform: the kernel runs in place. A factor (ntt_pass.cuh, InputFactor)
// multiplies the first pass's inputs as they are read, so it too is read before the barrier.
#pragma once

// Stores a first-pass output of index i of the cluster's transform (origin: the transform's
// first word) into the shared memory of the block that holds it.
template <class Word, int LOG_CHUNK>
struct ClusterSink {
    static constexpr bool GLOBAL = false;
    unsigned chunk;  // shared address of the chunk (the same in every block)
    u64 origin;
    // Every block of the cluster is running (the wait of the kernel's first, relaxed arrival)
    // before any block writes another's shared memory.
    __device__ __forceinline__ void ready() const { cluster_wait(); }
    __device__ __forceinline__ void put(u64 i, Word v) const {
        const unsigned r = (unsigned)(i - origin);
        const unsigned slot = r & ((1u << LOG_CHUNK) - 1);
        store_cluster(cluster_address(chunk + slot * (unsigned)sizeof(Word), r >> LOG_CHUNK), v);
    }
};

__host__ __device__ constexpr int log2_exact(int x) { return x <= 1 ? 0 : 1 + log2_exact(x / 2); }

template <class Cfg0, class Cfg1, int CLUSTER, int CHUNK_OFFSET>
struct NttClusterPasses {
    using P0 = NttPass<Cfg0>;
    using P1 = NttPass<Cfg1>;
    using Word = typename P0::Word;
    static constexpr int N = Cfg0::LEN * Cfg1::LEN;
    static constexpr int CHUNK = N / CLUSTER;
    static constexpr int LOG_CHUNK = Cfg0::LOG_LEN + Cfg1::LOG_LEN - log2_exact(CLUSTER);
    static_assert(Cfg0::TILE * CLUSTER == Cfg1::LEN && Cfg1::TILE * CLUSTER == Cfg0::LEN,
                  "each block takes 1/CLUSTER of both passes' items");
    static_assert(P0::THREADS == P1::THREADS, "both passes run on the block's threads");
    static_assert((1 << LOG_CHUNK) == CHUNK && CHUNK_OFFSET % 16 == 0, "chunks of 2^k words, 16-byte aligned");

    __device__ static void run(const Word* __restrict__ in, Word* __restrict__ out, const Word* __restrict__ tables0,
                               const Word* __restrict__ tables1, const Word* __restrict__ moduli,
                               const NttGeometry& g0, const NttGeometry& g1,
                               const typename P0::Factor& f = typename P0::Factor{}) {
        extern __shared__ __align__(16) unsigned char smem_raw[];
        Word* chunk = reinterpret_cast<Word*>(smem_raw + CHUNK_OFFSET);
        cluster_arrive_relaxed();
        const u64 origin = (u64)cluster_index() * N;
        const ClusterSink<Word, LOG_CHUNK> sink{shared_address(chunk), origin};
        P0::run_to(in, 0, sink, tables0, moduli, g0, f);
        cluster_arrive();  // step 2: this block's stores into the cluster are done
        cluster_wait();    // and everyone's have landed
        P1::run_to(chunk, origin + (u64)cluster_rank() * CHUNK, GlobalSink<Word>{out}, tables1, moduli, g1);
    }
};
