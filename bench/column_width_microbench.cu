// The column pass of 1024 x 1024 images as pure copies (no arithmetic): does it matter how
// wide each thread's accesses are? Tiles of 8 columns (64-byte rows 8 KB apart, as the f32
// column pass reads and writes them), 128 images (2^27 complex f32), against cudaMemcpy D2D.
//   w8:  each thread moves one column's 8-byte element per access (the pass today: 256 threads
//        with 32 accesses each, or 512 threads with 16).
//   w16: each thread moves two neighbouring columns' elements as one 16-byte access (half the
//        load and store instructions for the same bytes).
// Dynamic shared memory (unused) holds the residency at two blocks per multiprocessor, as the
// pass's registers do; a second setting (60 KB) lets three run.
// Build: nvcc -O3 -arch=sm_90 -o column_width column_width_microbench.cu
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

constexpr int NX = 1024, G = 8;
constexpr long IMAGE = (long)NX * NX, TOTAL = 128 * IMAGE, TILES = TOTAL / (G * NX);

// THREADS threads, 8-byte accesses: thread = (column j, row lane r0); PER = rows per thread.
template <int THREADS>
__global__ void __launch_bounds__(THREADS) w8(const float2* __restrict__ in, float2* __restrict__ out) {
    extern __shared__ float2 unused[];
    constexpr int PER = G * NX / THREADS, LANES = THREADS / G;
    const long b = blockIdx.x / (NX / G), c = blockIdx.x % (NX / G);
    const int j = threadIdx.x % G, r0 = threadIdx.x / G;
    const long base = b * IMAGE + c * G + j;
    float2 v[PER];
#pragma unroll
    for (int k = 0; k < PER; ++k) v[k] = in[base + (long)(r0 + k * LANES) * NX];
    if (threadIdx.x == 4096) unused[0] = v[0];
#pragma unroll
    for (int k = 0; k < PER; ++k) out[base + (long)(r0 + k * LANES) * NX] = v[k];
}

// THREADS threads, 16-byte accesses: thread = (column pair p, row lane r0).
template <int THREADS>
__global__ void __launch_bounds__(THREADS) w16(const float4* __restrict__ in, float4* __restrict__ out) {
    extern __shared__ float4 unused4[];
    constexpr int PAIRS = G / 2, PER = PAIRS * NX / THREADS, LANES = THREADS / PAIRS;
    const long b = blockIdx.x / (NX / G), c = blockIdx.x % (NX / G);
    const int p = threadIdx.x % PAIRS, r0 = threadIdx.x / PAIRS;
    const long base = (b * IMAGE + c * G) / 2 + p;  // in float4 (two complex f32)
    float4 v[PER];
#pragma unroll
    for (int k = 0; k < PER; ++k) v[k] = in[base + (long)(r0 + k * LANES) * (NX / 2)];
    if (threadIdx.x == 4096) unused4[0] = v[0];
#pragma unroll
    for (int k = 0; k < PER; ++k) out[base + (long)(r0 + k * LANES) * (NX / 2)] = v[k];
}

static float median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <class F>
static float time_ms(F launch) {
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int w = 0; w < 3; ++w) launch();
    std::vector<float> t;
    for (int r = 0; r < 15; ++r) {
        cudaEventRecord(e0);
        launch();
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        t.push_back(ms);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return median(t);
}

int main() {
    float2 *a, *b;
    cudaMalloc(&a, TOTAL * 8);
    cudaMalloc(&b, TOTAL * 8);
    cudaMemset(a, 1, TOTAL * 8);
    for (auto k : {(const void*)w8<256>, (const void*)w8<512>, (const void*)w16<128>, (const void*)w16<256>})
        cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 120000);
    for (int round = 0; round < 2; ++round) {
        const float copy = time_ms([&] { cudaMemcpy(b, a, TOTAL * 8, cudaMemcpyDeviceToDevice); });
        printf("round %d: copy %.4f ms\n", round, copy);
        for (int smem : {80000, 60000}) {
            const auto row = [&](const char* name, float ms) {
                printf("  smem %6d  %-26s %.4f ms  %.1f%% of copy\n", smem, name, ms, 100 * copy / ms);
            };
            row("w8, 256 threads x 32", time_ms([&] { w8<256><<<TILES, 256, smem>>>(a, b); }));
            row("w8, 512 threads x 16", time_ms([&] { w8<512><<<TILES, 512, smem>>>(a, b); }));
            row("w16, 128 threads x 32", time_ms([&] {
                    w16<128><<<TILES, 128, smem>>>((const float4*)a, (float4*)b);
                }));
            row("w16, 256 threads x 16", time_ms([&] {
                    w16<256><<<TILES, 256, smem>>>((const float4*)a, (float4*)b);
                }));
        }
    }
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
