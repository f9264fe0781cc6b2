// Pure traffic of the strided passes of a long f64 axis (16-byte elements, no arithmetic):
// tiles of G items x n samples, the samples `stride` elements apart in a batch of n * stride.
//   mode 0: load and store at the sample stride (a last Stockham pass: samples@S/S)
//   mode 1: load at the sample stride, store each item's n samples contiguous (a first pass:
//           samples@S/1, through shared memory)
//   mode 2: load each item's samples contiguous, store at the sample stride
//   mode 3: as mode 0, but each block takes two tiles half the grid apart (twice the bytes in
//           flight per thread at the same G-item rows: which of the two G = 16 changes matters)
// Against cudaMemcpy D2D of the same bytes. Modes 1 and 2 stage through shared memory as
// tile[i * n + s] (8-way bank conflicts for 16-byte elements; n = 512, G = 16 holds one block
// per SM), so they are not pure traffic; modes 0 and 3 use no shared memory. Question
// (bench/NOTES.md step 104): is the slow last pass of f64 2^24 / 2^26 (samples@S/S, 640-740 us
// against 560 for the others) its traffic?
// nvcc -O3 -arch=sm_90 -o stride_pattern_microbench stride_pattern_microbench.cu
#include <cstdio>
#include <cuda_runtime.h>

constexpr int THREADS = 256;

template <int N, int G, int MODE, bool STREAM>
__global__ void __launch_bounds__(THREADS) rows(const double2* __restrict__ in, double2* __restrict__ out,
                                                long stride) {
    extern __shared__ double2 tile[];  // n x G, only modes 1 and 2
    constexpr int n = N, per = N * G / THREADS;
    const long first_item = (long)blockIdx.x * G;
    const long b = first_item / stride, m0 = first_item % stride;
    const long base = b * stride * n;
    const int t = threadIdx.x;
    if (MODE == 3) {
        const int i = t % G, lane = t / G, lanes = THREADS / G;
        const long half = (long)gridDim.x * G;  // items of the first half of the batch set
        double2 v[2 * per];
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const long item = first_item + h * half, bb = item / stride, mm = item % stride;
#pragma unroll
            for (int k = 0; k < per; ++k) v[h * per + k] = in[bb * stride * n + (long)(lane + k * lanes) * stride + mm + i];
        }
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const long item = first_item + h * half, bb = item / stride, mm = item % stride;
#pragma unroll
            for (int k = 0; k < per; ++k) {
                double2* p = out + bb * stride * n + (long)(lane + k * lanes) * stride + mm + i;
                if (STREAM) __stcs(p, v[h * per + k]); else *p = v[h * per + k];
            }
        }
    } else if (MODE == 0) {
        const int i = t % G, lane = t / G, lanes = THREADS / G;
        double2 v[per];
#pragma unroll
        for (int k = 0; k < per; ++k) v[k] = in[base + (long)(lane + k * lanes) * stride + m0 + i];
#pragma unroll
        for (int k = 0; k < per; ++k) {
            double2* p = out + base + (long)(lane + k * lanes) * stride + m0 + i;
            if (STREAM) __stcs(p, v[k]); else *p = v[k];
        }
    } else if (MODE == 1) {
        const int i = t % G, lane = t / G, lanes = THREADS / G;
#pragma unroll
        for (int k = 0; k < per; ++k) {
            int s = lane + k * lanes;
            tile[i * n + s] = in[base + (long)s * stride + m0 + i];
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < per; ++k) {
            int j = t + k * THREADS;  // contiguous over the tile's G * n outputs
            double2* p = out + base + m0 * n + j;
            if (STREAM) __stcs(p, tile[j]); else *p = tile[j];
        }
    } else {
#pragma unroll
        for (int k = 0; k < per; ++k) {
            int j = t + k * THREADS;
            tile[j] = in[base + m0 * n + j];
        }
        __syncthreads();
        const int i = t % G, lane = t / G, lanes = THREADS / G;
#pragma unroll
        for (int k = 0; k < per; ++k) {
            int s = lane + k * lanes;
            double2* p = out + base + (long)s * stride + m0 + i;
            if (STREAM) __stcs(p, tile[i * n + s]); else *p = tile[i * n + s];
        }
    }
}

template <int N, int G, int MODE, bool STREAM>
float run(const double2* a, double2* b, long stride, long total, int min_smem) {
    long tiles = total / N / G / (MODE == 3 ? 2 : 1);
    int smem = MODE == 0 || MODE == 3 ? 0 : N * G * 16;
    smem = smem > min_smem ? smem : min_smem;
    auto k = rows<N, G, MODE, STREAM>;
    cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200000);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int w = 0; w < 3; ++w) k<<<tiles, THREADS, smem>>>(a, b, stride);
    cudaEventRecord(e0);
    for (int r = 0; r < 10; ++r) k<<<tiles, THREADS, smem>>>(a, b, stride);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms;
    cudaEventElapsedTime(&ms, e0, e1);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) printf("error %s\n", cudaGetErrorString(e));
    return ms / 10;
}

template <int N, int G>
void sweep(const double2* a, double2* b, long stride, long total, float cms) {
    // pad: at least this much shared memory per block, to hold ~3 blocks per SM as the f64 pass.
    const int n = N;
    for (int pad : {0, 70000}) {
        if (G == 8) {
            float t3 = run<N, G, 3, false>(a, b, stride, total, pad);
            printf("n=%4d stride=%7ld G=%2d pad=%5d | S/S two tiles per block %.3f ms %5.1f%%\n", n, stride, G, pad, t3, 100 * cms / t3);
        }
        float t[6] = {run<N, G, 0, false>(a, b, stride, total, pad), run<N, G, 0, true>(a, b, stride, total, pad),
                      run<N, G, 1, false>(a, b, stride, total, pad), run<N, G, 1, true>(a, b, stride, total, pad),
                      run<N, G, 2, false>(a, b, stride, total, pad), run<N, G, 2, true>(a, b, stride, total, pad)};
        printf("n=%4d stride=%7ld G=%2d pad=%5d | S/S %.3f ms %5.1f%% (cs %5.1f%%) | S/1 %.3f ms %5.1f%% (cs %5.1f%%) | 1/S %.3f ms %5.1f%% (cs %5.1f%%)\n",
               n, stride, G, pad, t[0], 100 * cms / t[0], 100 * cms / t[1], t[2], 100 * cms / t[2], 100 * cms / t[3],
               t[4], 100 * cms / t[4], 100 * cms / t[5]);
    }
}

int main() {
    const long total = 1l << 26;  // 16-byte elements: 1 GiB, as f64 2^26 and 2^24 x 4
    double2 *a, *b;
    cudaMalloc(&a, total * 16);
    cudaMalloc(&b, total * 16);
    cudaMemset(a, 1, total * 16);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int w = 0; w < 3; ++w) cudaMemcpy(b, a, total * 16, cudaMemcpyDeviceToDevice);
    cudaEventRecord(e0);
    for (int r = 0; r < 10; ++r) cudaMemcpy(b, a, total * 16, cudaMemcpyDeviceToDevice);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float cms;
    cudaEventElapsedTime(&cms, e0, e1);
    cms /= 10;
    printf("copy %.3f ms %.0f GB/s\n", cms, 2.0 * total * 16 / cms / 1e6);
    // f64 2^24 x 4: 256 x 256 x 256; 2^26: last pass 256 @ 2^18 (longest first) or 512 @ 2^17.
    for (long stride : {65536l, 262144l, 256l}) {
        sweep<256, 4>(a, b, stride, total, cms);
        sweep<256, 8>(a, b, stride, total, cms);
        sweep<256, 16>(a, b, stride, total, cms);
    }
    for (long stride : {131072l, 512l}) {
        sweep<512, 4>(a, b, stride, total, cms);
        sweep<512, 8>(a, b, stride, total, cms);
        sweep<512, 16>(a, b, stride, total, cms);
    }
    return 0;
}
