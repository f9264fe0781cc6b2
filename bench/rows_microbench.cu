// Strided-row copy: tiles of G items x N samples (8-byte elements), items contiguous, samples
// `stride` elements apart, as a strided pass reads and writes them; against cudaMemcpy D2D.
#include <cstdio>
#include <cuda_runtime.h>
template <int G, int PER>
__global__ void __launch_bounds__(512) rows(const float2* __restrict__ in, float2* __restrict__ out, int n, long stride, long items) {
    const int tid = threadIdx.x;
    const long tile = blockIdx.x;
    const int i = tid % G;          // item in tile
    const int t = tid / G;          // sample lane
    const int lanes = 512 / G;
    float2 v[PER];
    // which batch/tile: items = stride (row length) * batches
    const long item = tile * G + i;
    const long b = item / stride, m = item % stride;
    const long base = b * stride * n + m;
#pragma unroll
    for (int k = 0; k < PER; ++k) v[k] = in[base + (long)(t + k * lanes) * stride];
#pragma unroll
    for (int k = 0; k < PER; ++k) out[base + (long)(t + k * lanes) * stride] = v[k];
}
int SMEM = 0;
template <int G>
float run(const float2* a, float2* b, int n, long stride, long total) {
    long items = total / n;
    long tiles = items / G;
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    constexpr int PER = 1024 * G / 512;
    cudaFuncSetAttribute(rows<G, PER>, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);
    for (int w = 0; w < 3; ++w) rows<G, PER><<<tiles, 512, SMEM>>>(a, b, n, stride, items);
    cudaEventRecord(e0);
    for (int r = 0; r < 10; ++r) rows<G, PER><<<tiles, 512, SMEM>>>(a, b, n, stride, items);
    cudaEventRecord(e1); cudaEventSynchronize(e1);
    float ms; cudaEventElapsedTime(&ms, e0, e1);
    return ms / 10;
}
int main() {
    const long total = 1l << 27;  // elements
    const int n = 1024; const long stride = 1024;
    float2 *a, *b; cudaMalloc(&a, total * 8); cudaMalloc(&b, total * 8);
    cudaMemset(a, 1, total * 8);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    for (int w = 0; w < 3; ++w) cudaMemcpy(b, a, total * 8, cudaMemcpyDeviceToDevice);
    cudaEventRecord(e0);
    for (int r = 0; r < 10; ++r) cudaMemcpy(b, a, total * 8, cudaMemcpyDeviceToDevice);
    cudaEventRecord(e1); cudaEventSynchronize(e1);
    float cms; cudaEventElapsedTime(&cms, e0, e1); cms /= 10;
    printf("copy %.3f ms %.0f GB/s\n", cms, 2.0 * total * 8 / cms / 1e6);
    for (int smem : {0, 80000}) {
    SMEM = smem; printf("-- dynamic smem %d (blocks per SM %s)\n", smem, smem ? "<= 2" : "<= 4");
    float t4 = run<4>(a, b, n, stride, total), t8 = run<8>(a, b, n, stride, total), t16 = run<16>(a, b, n, stride, total), t32 = run<32>(a, b, n, stride, total);
    printf("rows of 32 B (G=4):  %.3f ms %.1f%% of copy\n", t4, 100 * cms / t4);
    printf("rows of 64 B (G=8):  %.3f ms %.1f%% of copy\n", t8, 100 * cms / t8);
    printf("rows of 128 B (G=16): %.3f ms %.1f%% of copy\n", t16, 100 * cms / t16);
    printf("rows of 256 B (G=32): %.3f ms %.1f%% of copy\n", t32, 100 * cms / t32);
    }
    cudaError_t err = cudaGetLastError(); printf("%s\n", cudaGetErrorString(err));
    return 0;
}
