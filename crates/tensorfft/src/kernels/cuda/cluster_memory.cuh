// Thread-block cluster primitives (sm_90): the block's rank and cluster, split cluster barriers,
// and loads and stores to the shared memory of another block of the cluster (distributed shared
// memory), and the shared-window address of a pointer. Used by the FFT's strided and fused passes
// (strided_pass.cuh, cluster_pass.cuh) and the NTT's fused passes (ntt_cluster.cuh).
#pragma once

__device__ __forceinline__ unsigned cluster_rank() {
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

__device__ __forceinline__ unsigned cluster_index() {
    unsigned r;
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(r));
    return r;
}

__device__ __forceinline__ unsigned cluster_count() {
    unsigned r;
    asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(r));
    return r;
}

// Split cluster barrier: arrive releases this thread's earlier memory accesses (shared memory of
// other blocks included), wait acquires those of every thread of the cluster that arrived.
__device__ __forceinline__ void cluster_arrive() { asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory"); }

__device__ __forceinline__ void cluster_wait() { asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory"); }

// The cluster-window address of shared-memory address `local` (this block's) in block `rank`.
__device__ __forceinline__ unsigned cluster_address(unsigned local, unsigned rank) {
    unsigned a;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(a) : "r"(local), "r"(rank));
    return a;
}

// A 4-, 8- or 16-byte load from the shared memory of a block of this cluster.
template <typename T>
__device__ __forceinline__ T load_cluster(unsigned address) {
    if constexpr (sizeof(T) == 16) {
        uint4 r;
        asm volatile("ld.shared::cluster.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
                     : "r"(address));
        return *reinterpret_cast<const T*>(&r);
    } else if constexpr (sizeof(T) == 8) {
        uint2 r;
        asm volatile("ld.shared::cluster.v2.u32 {%0, %1}, [%2];" : "=r"(r.x), "=r"(r.y) : "r"(address));
        return *reinterpret_cast<const T*>(&r);
    } else {
        static_assert(sizeof(T) == 4, "4-, 8- or 16-byte loads");
        unsigned r;
        asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(r) : "r"(address));
        return *reinterpret_cast<const T*>(&r);
    }
}

// A 4- or 8-byte store to the shared memory of a block of this cluster. No "memory" clobber:
// with one, every store made the compiler reload what it held of shared memory (a fused NTT's
// item offsets, once per word); the cluster barrier (which has the clobber) orders these stores
// before any read of what they write.
__device__ __forceinline__ void store_cluster(unsigned address, unsigned v) {
    asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(address), "r"(v));
}
__device__ __forceinline__ void store_cluster(unsigned address, unsigned long long v) {
    asm volatile("st.shared::cluster.u64 [%0], %1;" ::"r"(address), "l"(v));
}

// Arrive at a cluster barrier without ordering memory: the first arrival of a kernel whose wait
// only needs every block of the cluster to be running (before any access to another block's
// shared memory).
__device__ __forceinline__ void cluster_arrive_relaxed() {
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
}

// The shared-memory address (shared window) of a pointer into this block's shared memory.
__device__ __forceinline__ unsigned shared_address(const void* p) {
    unsigned long long a;
    asm("cvta.to.shared.u64 %0, %1;" : "=l"(a) : "l"(p));
    return (unsigned)a;
}
