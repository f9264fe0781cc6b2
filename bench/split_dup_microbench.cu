// Memory-pattern ceiling of "split" single passes (NOTES step 66): a transform of N = S * M
// points computed by S independent blocks, block c reading all N inputs (S-fold reads, served by
// L2 after the first), forming the c-th decimation-in-frequency half y_c[j] = sum_s x[j + s M]
// w^(s c), exchanging it through shared memory as an M-point kernel would, and writing
// X[S k + c] (stride-S stores). No FFT arithmetic: this measures what the device-memory traffic
// allows against a device copy and against one block per M contiguous elements (S = 1).
//
//   nvcc -O3 -arch=sm_90 -o split_dup bench/split_dup_microbench.cu && ./split_dup
#include <cstdio>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

constexpr int THREADS = 512;

// Block `part` of S: its E values of y_part[j] = sum_s x[j + s M] w^(s part) (COMBINE; else
// x[j] alone), after one exchange through shared memory (an M-point kernel has several; this is
// the traffic floor), in transposed order.
template <typename T2, int M, int S, bool COMBINE>
__device__ __forceinline__ void load_and_exchange(const T2* x, int part, T2* smem, T2 (&v)[M / THREADS]) {
    constexpr int E = M / THREADS;
#pragma unroll
    for (int i = 0; i < E; ++i) {
        const int j = i * THREADS + threadIdx.x;
        T2 a = x[j];
#pragma unroll
        for (int s = 1; s < (COMBINE ? S : 1); ++s) {
            const T2 b = x[j + s * M];
            // w^(s part) of a 2- or 4-point DFT: +-1, +-i
            const int k = (s * part) % S * (4 / S);
            if (k == 0) { a.x += b.x; a.y += b.y; }
            else if (k == 1) { a.x += b.y; a.y -= b.x; }
            else if (k == 2) { a.x -= b.x; a.y -= b.y; }
            else { a.x -= b.y; a.y += b.x; }
        }
        v[i] = a;
    }
#pragma unroll
    for (int i = 0; i < E; ++i) {
        const int j = i * THREADS + threadIdx.x;
        smem[j + (j >> 5)] = v[i];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < E; ++i) {
        const int j = threadIdx.x * E + i;  // transposed order
        v[i] = smem[j + (j >> 5)];
    }
}

// MODE bit 0: combine the S inputs (else read one); bit 1: stride-S stores X[S k + part] (else
// contiguous, at part M + k).
template <typename T2, int M, int S, int MINB, int MODE>
__global__ void __launch_bounds__(THREADS, MINB) split_pass(const T2* __restrict__ in, T2* __restrict__ out) {
    extern __shared__ unsigned char smem_raw[];
    T2* smem = reinterpret_cast<T2*>(smem_raw);
    constexpr int E = M / THREADS;
    const int part = blockIdx.x % S;
    const size_t t = blockIdx.x / S;
    T2 v[E];
    load_and_exchange<T2, M, S, (MODE & 1) != 0>(in + t * (size_t)(S * M), part, smem, v);
    T2* y = out + t * (size_t)(S * M);
#pragma unroll
    for (int i = 0; i < E; ++i) {
        const int k = i * THREADS + threadIdx.x;
        if (MODE & 2) y[(size_t)S * k + part] = v[i]; else y[(size_t)part * M + k] = v[i];
    }
}

// The same with the outputs placed through distributed shared memory: the S blocks of a transform
// form a cluster, each leaves its X[S k + c] in its shared memory, and block c stores the
// contiguous X[c M .. c M + M) read from the S blocks (16-byte stores).
template <typename T2, int M, int S, int MINB>
__global__ void __launch_bounds__(THREADS, MINB) split_pass_cluster(const T2* __restrict__ in, T2* __restrict__ out) {
    extern __shared__ unsigned char smem_raw[];
    T2* smem = reinterpret_cast<T2*>(smem_raw);
    cg::cluster_group cluster = cg::this_cluster();
    constexpr int E = M / THREADS;
    const int part = (int)cluster.block_rank();
    const size_t t = blockIdx.x / S;
    T2 v[E];
    load_and_exchange<T2, M, S, true>(in + t * (size_t)(S * M), part, smem, v);
    __syncthreads();
    // Last stage's outputs into this block's shared memory (k in [0, M): X[S k + part]).
#pragma unroll
    for (int i = 0; i < E; ++i) {
        const int k = i * THREADS + threadIdx.x;
        smem[k + (k >> 5)] = v[i];
    }
    cluster.sync();
    T2* y = out + t * (size_t)(S * M) + (size_t)part * M;
#pragma unroll
    for (int i = 0; i < E; i += 2) {
        const int o = 2 * (i / 2 * THREADS + threadIdx.x);  // outputs o, o + 1 of this block
        T2 pair[2];
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const int g = part * M + o + u;
            const int k = g / S;
            const T2* src = cluster.map_shared_rank(smem, g % S);
            pair[u] = src[k + (k >> 5)];
        }
        *reinterpret_cast<float4*>(&y[o]) = *reinterpret_cast<const float4*>(pair);  // f32 only
    }
    cluster.sync();
}

// Best of 17 timed launches (after 3 warm-ups) of `launch`, each followed by a timed device copy
// of the same bytes; the copy's best in *copy_ms.
template <typename Launch>
float best_time(Launch launch, const void* in, void* out, size_t bytes, float* copy_ms) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    float best = 1e9f, best_copy = 1e9f;
    for (int rep = 0; rep < 20; ++rep) {
        cudaEventRecord(a);
        launch();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        if (rep > 2 && ms < best) best = ms;
        cudaEventRecord(a);
        cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        cudaEventElapsedTime(&ms, a, b);
        if (rep > 2 && ms < best_copy) best_copy = ms;
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) printf("error %s\n", cudaGetErrorString(e));
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    *copy_ms = best_copy;
    return best;
}

template <typename T2, int M, int S, int MINB>
float run_cluster(const T2* in, T2* out, size_t elems, size_t smem, float* copy_ms) {
    const int blocks = (int)(elems / M);
    auto k = split_pass_cluster<T2, M, S, MINB>;
    cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(THREADS);
    cfg.dynamicSmemBytes = smem;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = S;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return best_time([&] { cudaLaunchKernelEx(&cfg, k, in, out); }, in, out, elems * sizeof(T2), copy_ms);
}

template <typename T2, int M, int S, int MINB, int MODE = 3>
float run(const T2* in, T2* out, size_t elems, size_t smem, float* copy_ms) {
    const int blocks = (int)(elems / M);
    auto k = split_pass<T2, M, S, MINB, MODE>;
    cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    return best_time([&] { k<<<blocks, THREADS, smem>>>(in, out); }, in, out, elems * sizeof(T2), copy_ms);
}

template <typename T2, int M, int MINB>
void row(const char* name, const T2* in, T2* out, size_t elems) {
    const size_t smem = (size_t)(M + M / 32) * sizeof(T2) + 1024;
    float c1, c2, c4;
    const float t1 = run<T2, M, 1, MINB>(in, out, elems, smem, &c1);
    const float t2 = run<T2, M, 2, MINB>(in, out, elems, smem, &c2);
    const float t4 = run<T2, M, 4, MINB>(in, out, elems, smem, &c4);
    float ca, cb;
    const float ta = run<T2, M, 2, MINB, 1>(in, out, elems, smem, &ca);
    const float tb = run<T2, M, 2, MINB, 2>(in, out, elems, smem, &cb);
    printf("%s M=%d S=2 dup reads, contiguous stores %.1f%%; single reads, stride-2 stores %.1f%%\n", name, M, 100.0 * ca / ta, 100.0 * cb / tb);
    printf("%s M=%d smem=%zuB: S=1 %.3f ms (%.1f%% of copy %.3f), S=2 %.3f ms (%.1f%%), S=4 %.3f ms (%.1f%%)\n", name,
           M, smem, t1, 100.0 * c1 / t1, c1, t2, 100.0 * c2 / t2, t4, 100.0 * c4 / t4);
}

template <int M, int MINB>
void cluster_row(const float2* in, float2* out, size_t elems) {
    const size_t smem = (size_t)(M + M / 32) * sizeof(float2) + 1024;
    float c2, c4;
    const float t2 = run_cluster<float2, M, 2, MINB>(in, out, elems, smem, &c2);
    const float t4 = run_cluster<float2, M, 4, MINB>(in, out, elems, smem, &c4);
    printf("f32 M=%d cluster placement: S=2 %.3f ms (%.1f%% of copy), S=4 %.3f ms (%.1f%%)\n", M, t2, 100.0 * c2 / t2, t4,
           100.0 * c4 / t4);
}

int main() {
    const size_t bytes = 1ull << 30;
    void *in, *out;
    cudaMalloc(&in, bytes);
    cudaMalloc(&out, bytes);
    cudaMemset(in, 0x3c, bytes);
    cluster_row<8192, 2>((const float2*)in, (float2*)out, bytes / 8);
    cluster_row<8192, 3>((const float2*)in, (float2*)out, bytes / 8);
    cluster_row<4096, 3>((const float2*)in, (float2*)out, bytes / 8);
    row<float2, 8192, 2>("f32", (const float2*)in, (float2*)out, bytes / 8);
    row<float2, 4096, 3>("f32", (const float2*)in, (float2*)out, bytes / 8);
    row<double2, 4096, 2>("f64", (const double2*)in, (double2*)out, bytes / 16);
    row<double2, 2048, 3>("f64", (const double2*)in, (double2*)out, bytes / 16);
    return 0;
}
