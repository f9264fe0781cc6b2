// Does a pass that walks its tiles in reverse order read the previous pass's last writes from
// L2? Pure copies (no arithmetic), two passes back to back as a multi-pass plan runs them:
// pass A copies `in` to `mid` walking its tiles forward; pass B copies `mid` to `out` walking
// its tiles forward (as every pass does today) or backward (starting with the tiles pass A
// wrote last, which may still sit in the L2: 60 MiB on the H200). Pass B comes in two access patterns:
// contiguous tiles (as the second pass of a long 1D transform reads its rows), and the column
// groups of 1024 x 1024 images (64-byte rows 8 KB apart, as the column pass of a 2D plan).
// Times: CUDA events around each pass, medians over repetitions of the pair, both orders
// alternating. A second part times the column pass alone at 1 GiB with other tile orders
// (which column groups and images run side by side) and residencies (blocks per SM).
// Build: nvcc -O3 -arch=sm_90 -o l2_handoff l2_handoff_microbench.cu
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

constexpr int THREADS = 512, PER = 16;               // 64 KB tiles of 8-byte elements
constexpr long TILE = (long)THREADS * PER;            // elements per tile
constexpr int NX = 1024, G = 8;                       // images 1024 x 1024, column groups of 8
constexpr long IMAGE = (long)NX * NX;

__device__ __forceinline__ long tile_index(bool reverse, long tiles) {
    return reverse ? tiles - 1 - (long)blockIdx.x : (long)blockIdx.x;
}

// Contiguous tiles (each block one tile).
__global__ void __launch_bounds__(THREADS) copy_tiles(const float2* __restrict__ in, float2* __restrict__ out,
                                                       long tiles, bool reverse) {
    const long base = tile_index(reverse, tiles) * TILE;
    float2 v[PER];
#pragma unroll
    for (int k = 0; k < PER; ++k) v[k] = in[base + threadIdx.x + k * THREADS];
#pragma unroll
    for (int k = 0; k < PER; ++k) out[base + threadIdx.x + k * THREADS] = v[k];
}

// Column groups of 1024 x 1024 images: tile = (image, group of 8 columns), 64-byte rows both ways.
__global__ void __launch_bounds__(THREADS) copy_columns(const float2* __restrict__ in, float2* __restrict__ out,
                                                         long tiles, bool reverse) {
    const long t = tile_index(reverse, tiles);
    const long b = t / (NX / G), c = t % (NX / G);
    const int j = threadIdx.x % G, r0 = threadIdx.x / G;
    const long base = b * IMAGE + c * G + j;
    float2 v[PER];
#pragma unroll
    for (int k = 0; k < PER; ++k) v[k] = in[base + (long)(r0 + k * (THREADS / G)) * NX];
#pragma unroll
    for (int k = 0; k < PER; ++k) out[base + (long)(r0 + k * (THREADS / G)) * NX] = v[k];
}

// The column pass with a tile order: 0 natural (groups of an image fastest), 1 images fastest
// (concurrent tiles: one column group of many images), 2 even groups then odd groups of each
// image (concurrent tiles' 64-byte rows never share a 128-byte line), 3 groups in pairs 64
// apart (0, 64, 1, 65, ...).
__global__ void __launch_bounds__(THREADS) copy_columns_ordered(const float2* __restrict__ in, float2* __restrict__ out,
                                                                 long tiles, int order) {
    extern __shared__ float2 unused[];  // residency only
    const long t = blockIdx.x, groups = NX / G, images = tiles / groups;
    long b = t / groups, c = t % groups;
    if (order == 1) {
        b = t % images;
        c = t / images;
    } else if (order == 2) {
        c = (c % (groups / 2)) * 2 + c / (groups / 2);
    } else if (order == 3) {
        c = (c % 2) * (groups / 2) + c / 2;
    }
    const int j = threadIdx.x % G, r0 = threadIdx.x / G;
    const long base = b * IMAGE + c * G + j;
    float2 v[PER];
#pragma unroll
    for (int k = 0; k < PER; ++k) v[k] = in[base + (long)(r0 + k * (THREADS / G)) * NX];
    if (threadIdx.x == 1024) unused[0] = v[0];
#pragma unroll
    for (int k = 0; k < PER; ++k) out[base + (long)(r0 + k * (THREADS / G)) * NX] = v[k];
}

__global__ void fill(float2* a, long n) {
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
        a[i] = make_float2((float)(i & 0xffffff), (float)(i >> 24));
}

static float median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

struct PairTimes {
    float a, b;
};

// Pass A (contiguous, forward) then pass B (`columns` pattern or contiguous, forward or
// reverse), `reps` times; medians of each pass's event-timed span.
static PairTimes time_pair(const float2* in, float2* mid, float2* out, long elements, bool columns, bool reverse,
                           int reps) {
    const long tiles = elements / TILE;
    cudaEvent_t e[3];
    for (auto& x : e) cudaEventCreate(&x);
    std::vector<float> ta, tb;
    for (int r = 0; r < reps + 2; ++r) {
        cudaEventRecord(e[0]);
        copy_tiles<<<tiles, THREADS>>>(in, mid, tiles, false);
        cudaEventRecord(e[1]);
        if (columns)
            copy_columns<<<tiles, THREADS>>>(mid, out, tiles, reverse);
        else
            copy_tiles<<<tiles, THREADS>>>(mid, out, tiles, reverse);
        cudaEventRecord(e[2]);
        cudaEventSynchronize(e[2]);
        float a, b;
        cudaEventElapsedTime(&a, e[0], e[1]);
        cudaEventElapsedTime(&b, e[1], e[2]);
        if (r >= 2) {
            ta.push_back(a);
            tb.push_back(b);
        }
    }
    for (auto& x : e) cudaEventDestroy(x);
    return {median(ta), median(tb)};
}

static float copy_ms(const float2* a, float2* b, long elements) {
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int w = 0; w < 3; ++w) cudaMemcpy(b, a, elements * 8, cudaMemcpyDeviceToDevice);
    std::vector<float> t;
    for (int r = 0; r < 15; ++r) {
        cudaEventRecord(e0);
        cudaMemcpy(b, a, elements * 8, cudaMemcpyDeviceToDevice);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        t.push_back(ms);
    }
    return median(t);
}

int main() {
    const long max_elements = 1L << 27;  // 1 GiB
    float2 *a, *m, *o;
    cudaMalloc(&a, max_elements * 8);
    cudaMalloc(&m, max_elements * 8);
    cudaMalloc(&o, max_elements * 8);
    fill<<<1024, 256>>>(a, max_elements);
    cudaDeviceSynchronize();
    // 64 MiB (one 2^24 NTT of 32-bit words), 128 MiB, 256 MiB, 1 GiB (the FFT suite's rows).
    for (long elements : {1L << 23, 1L << 24, 1L << 25, 1L << 27}) {
        const float copy = copy_ms(a, o, elements);
        printf("== %ld MiB, copy %.4f ms\n", elements * 8 >> 20, copy);
        for (int columns = 0; columns < (elements % IMAGE == 0 ? 2 : 1); ++columns) {
            for (int round = 0; round < 2; ++round) {
                for (int reverse = 0; reverse < 2; ++reverse) {
                    const PairTimes t = time_pair(a, m, o, elements, columns, reverse, 15);
                    printf("%-11s B %-8s A %.4f ms  B %.4f ms (%.1f%% of copy)  pair %.1f%% of copy\n",
                           columns ? "columns" : "contiguous", reverse ? "reverse" : "forward", t.a, t.b,
                           100 * copy / t.b, 100 * copy / (t.a + t.b));
                }
            }
        }
    }
    // Column tile orders and residencies at 1 GiB (the column pass alone, back to back).
    {
        const long elements = max_elements, tiles = elements / TILE;
        const float copy = copy_ms(a, o, elements);
        cudaFuncSetAttribute(copy_columns_ordered, cudaFuncAttributeMaxDynamicSharedMemorySize, 120000);
        cudaEvent_t e0, e1;
        cudaEventCreate(&e0);
        cudaEventCreate(&e1);
        printf("== column pass alone, 1024 MiB, copy %.4f ms\n", copy);
        for (int round = 0; round < 2; ++round) {
            for (int smem : {0, 60000, 80000, 120000}) {
                for (int order = 0; order < 4; ++order) {
                    std::vector<float> t;
                    for (int r = 0; r < 12; ++r) {
                        cudaEventRecord(e0);
                        copy_columns_ordered<<<tiles, THREADS, smem>>>(m, o, tiles, order);
                        cudaEventRecord(e1);
                        cudaEventSynchronize(e1);
                        float ms;
                        cudaEventElapsedTime(&ms, e0, e1);
                        if (r >= 2) t.push_back(ms);
                    }
                    const float ms = median(t);
                    printf("smem %6d (%d blocks/SM; 4 by threads) order %d: %.4f ms (%.1f%% of copy)\n", smem,
                           smem ? std::min(4, 233472 / (smem + 1024)) : 4, order, ms, 100 * copy / ms);
                }
            }
        }
    }
    // Both orders copy every element: out must equal in.
    const long tiles = max_elements / TILE;
    cudaMemset(o, 0, max_elements * 8);
    copy_tiles<<<tiles, THREADS>>>(a, m, tiles, false);
    copy_columns<<<tiles, THREADS>>>(m, o, tiles, true);
    std::vector<float2> h(max_elements), g(max_elements);
    cudaMemcpy(h.data(), o, max_elements * 8, cudaMemcpyDeviceToHost);
    cudaMemcpy(g.data(), a, max_elements * 8, cudaMemcpyDeviceToHost);
    bool same = true;
    for (long i = 0; i < max_elements; ++i) same &= (h[i].x == g[i].x && h[i].y == g[i].y);
    printf("reverse column copy equals the input: %s; %s\n", same ? "yes" : "NO", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
