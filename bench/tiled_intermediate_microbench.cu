// Two-pass 2D access patterns as pure copies (no arithmetic), against cudaMemcpy D2D: does a
// column-tiled intermediate beat the natural one? Images of 1024 x 1024 complex f32 (8-byte
// elements), 128 of them (2^27 elements), tiles of 64 KB on 512-thread blocks.
//   natural: pass A copies 8 whole rows per block (contiguous both ways); pass B copies a group
//            of 8 columns (64-byte rows 8 KB apart on both sides), as the column pass of a
//            1024 x 1024 plan reads and writes today.
//   tiled:   pass A reads 8 whole rows and writes them, through shared memory, into a layout
//            [image][column group][row][8] (512 contiguous bytes per column group); pass B reads
//            one column group's 64 KB contiguously and writes 64-byte rows of the natural
//            output. Half the 64-byte-row accesses of the natural pair.
// Build: nvcc -O3 -arch=sm_90 -o tiled tiled_intermediate_microbench.cu
#include <cstdio>
#include <cuda_runtime.h>

constexpr int NX = 1024, NY = 1024, G = 8, THREADS = 512, PER = G * NY / THREADS;
constexpr long IMAGE = (long)NX * NY;
constexpr int PITCH = NX + 8;  // shared row pitch (float2): conflict-free tiled reads

// Pass A, natural: block = 8 rows; a copy.
__global__ void __launch_bounds__(THREADS) rows_natural(const float2* __restrict__ in, float2* __restrict__ out) {
    const long base = (long)blockIdx.x * G * NX;
    float2 v[PER];
#pragma unroll
    for (int k = 0; k < PER; ++k) v[k] = in[base + threadIdx.x + k * THREADS];
#pragma unroll
    for (int k = 0; k < PER; ++k) out[base + threadIdx.x + k * THREADS] = v[k];
}

// Pass B, natural: block = (image, column group); 64-byte rows on both sides.
__global__ void __launch_bounds__(THREADS) columns_natural(const float2* __restrict__ in, float2* __restrict__ out) {
    const long b = blockIdx.x / (NX / G), c = blockIdx.x % (NX / G);
    const int j = threadIdx.x % G, r0 = threadIdx.x / G;
    const long base = b * IMAGE + c * G + j;
    float2 v[PER];
#pragma unroll
    for (int k = 0; k < PER; ++k) v[k] = in[base + (long)(r0 + k * (THREADS / G)) * NX];
#pragma unroll
    for (int k = 0; k < PER; ++k) out[base + (long)(r0 + k * (THREADS / G)) * NX] = v[k];
}

// Pass A, tiled: block = 8 rows r0 .. r0 + 7 of image b; writes [b][c][r][j].
__global__ void __launch_bounds__(THREADS) rows_to_tiled(const float2* __restrict__ in, float2* __restrict__ out) {
    extern __shared__ float2 tile[];
    const long b = blockIdx.x / (NY / G), r0 = (blockIdx.x % (NY / G)) * G;
    const long base = b * IMAGE + r0 * NX;
    float2 v[PER];
#pragma unroll
    for (int k = 0; k < PER; ++k) v[k] = in[base + threadIdx.x + k * THREADS];
#pragma unroll
    for (int k = 0; k < PER; ++k) {
        const int e = threadIdx.x + k * THREADS;
        tile[(e / NX) * PITCH + e % NX] = v[k];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < PER; ++k) {
        const int q = threadIdx.x + k * THREADS;
        const int c = q / (G * G), rr = (q % (G * G)) / G, j = q % G;
        out[b * IMAGE + (long)c * NY * G + (r0 + rr) * G + j] = tile[rr * PITCH + c * G + j];
    }
}

// Pass B, tiled: block = (image, column group); reads 64 KB contiguously, writes 64-byte rows.
__global__ void __launch_bounds__(THREADS) tiled_to_columns(const float2* __restrict__ in, float2* __restrict__ out) {
    const long b = blockIdx.x / (NX / G), c = blockIdx.x % (NX / G);
    const long src = b * IMAGE + c * NY * G;
    float2 v[PER];
#pragma unroll
    for (int k = 0; k < PER; ++k) v[k] = in[src + threadIdx.x + k * THREADS];
#pragma unroll
    for (int k = 0; k < PER; ++k) {
        const int q = threadIdx.x + k * THREADS;
        out[b * IMAGE + (long)(q / G) * NX + c * G + q % G] = v[k];
    }
}

__global__ void fill(float2* a, long n) {
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
        a[i] = make_float2((float)(i & 0xffffff), (float)(i >> 24));
}

int SMEM = 0;
template <class K>
float time_kernel(K kernel, const float2* a, float2* b, long blocks) {
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int w = 0; w < 3; ++w) kernel<<<blocks, THREADS, SMEM>>>(a, b);
    cudaEventRecord(e0);
    for (int r = 0; r < 20; ++r) kernel<<<blocks, THREADS, SMEM>>>(a, b);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms;
    cudaEventElapsedTime(&ms, e0, e1);
    return ms / 20;
}

int main() {
    const long total = 128 * IMAGE;
    float2 *a, *b, *c;
    cudaMalloc(&a, total * 8);
    cudaMalloc(&b, total * 8);
    cudaMalloc(&c, total * 8);
    fill<<<1024, 256>>>(a, total);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int w = 0; w < 3; ++w) cudaMemcpy(b, a, total * 8, cudaMemcpyDeviceToDevice);
    cudaEventRecord(e0);
    for (int r = 0; r < 20; ++r) cudaMemcpy(b, a, total * 8, cudaMemcpyDeviceToDevice);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float copy;
    cudaEventElapsedTime(&copy, e0, e1);
    copy /= 20;
    printf("copy %.3f ms %.0f GB/s\n", copy, 2.0 * total * 8 / copy / 1e6);
    const long tiles = total / (G * NX);
    for (int smem : {G * PITCH * 8, 80000}) {
        SMEM = smem;
        printf("-- dynamic shared memory %d bytes per block\n", smem);
        for (int rep = 0; rep < 2; ++rep) {
            const float ra = time_kernel(rows_natural, a, b, tiles);
            const float cb = time_kernel(columns_natural, b, c, tiles);
            const float ta = time_kernel(rows_to_tiled, a, b, tiles);
            const float tb = time_kernel(tiled_to_columns, b, c, tiles);
            printf("natural: rows %.3f ms (%.1f%%) + columns %.3f ms (%.1f%%) = %.1f%% of copy\n", ra,
                   100 * copy / ra, cb, 100 * copy / cb, 100 * copy / (ra + cb));
            printf("tiled:   rows %.3f ms (%.1f%%) + columns %.3f ms (%.1f%%) = %.1f%% of copy\n", ta,
                   100 * copy / ta, tb, 100 * copy / tb, 100 * copy / (ta + tb));
        }
    }
    // The tiled pair must reproduce the natural pair's output (both are copies of a).
    cudaMemset(c, 0, total * 8);
    rows_to_tiled<<<tiles, THREADS, G * PITCH * 8>>>(a, b);
    tiled_to_columns<<<tiles, THREADS>>>(b, c);
    int same = 0;
    {
        float2* h = (float2*)malloc(total * 8);
        float2* g = (float2*)malloc(total * 8);
        cudaMemcpy(h, c, total * 8, cudaMemcpyDeviceToHost);
        cudaMemcpy(g, a, total * 8, cudaMemcpyDeviceToHost);
        same = 1;
        for (long i = 0; i < total; ++i) same &= (h[i].x == g[i].x && h[i].y == g[i].y);
    }
    printf("tiled output equals the input: %s; %s\n", same ? "yes" : "NO", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
