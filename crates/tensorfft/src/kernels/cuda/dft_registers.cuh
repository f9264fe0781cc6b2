// Radix-R DFT (R = 2, 4, 8, 16, 32) of R values held in registers: a radix-2 decimation-in-frequency
// network whose output order is bit-reversed, then a compile-time renaming back to natural order.
#pragma once

template <int R>
__device__ __forceinline__ constexpr int bit_reverse(int r) {
    int out = 0;
    for (int b = 1; b < R; b <<= 1) {
        out = (out << 1) | ((r & b) ? 1 : 0);
    }
    return out;
}

// Derived twiddles (Cfg::DERIVED_TW): for each of a thread's E / R butterflies, the twiddles of
// the samples r that are not powers of two become w^r = w^(r - h) w^h, h the highest power of
// two below r, from the loaded power-of-two rows (twiddle_product: a complex product of forward
// twiddles in the compute type, f16x2 pairs in packed half arithmetic).
template <int R, int E, typename P>
__device__ __forceinline__ void derive_twiddle_products(P (&tw)[E]) {
#pragma unroll
    for (int k = 0; k < E / R; ++k) {
#pragma unroll
        for (int r = 3; r < R; ++r) {
            if ((r & (r - 1)) == 0) continue;
            int h = 1;
            while (2 * h <= r) h *= 2;
            tw[k * R + r] = twiddle_product(tw[k * R + r - h], tw[k * R + h]);
        }
    }
}

// v[0..R): natural order in, natural order out; DIR = -1 forward, +1 inverse.
template <int R, int DIR, typename T>
__device__ __forceinline__ void dft_in_registers(Cx<T>* v) {
    static_assert(R == 2 || R == 4 || R == 8 || R == 16 || R == 32, "radix must be 2, 4, 8, 16 or 32");
#pragma unroll
    for (int half = R / 2; half >= 1; half >>= 1) {
#pragma unroll
        for (int start = 0; start < R; start += 2 * half) {
#pragma unroll
            for (int i = 0; i < half; ++i) {
                const Cx<T> a = v[start + i];
                const Cx<T> b = v[start + i + half];
                v[start + i] = a + b;
                if constexpr (R == 32) {
                    v[start + i + half] = rot32<DIR>(a - b, i * (16 / half));
                } else {
                    v[start + i + half] = rot16<DIR>(a - b, i * (8 / half));
                }
            }
        }
    }
    Cx<T> sorted[R];
#pragma unroll
    for (int r = 0; r < R; ++r) sorted[r] = v[bit_reverse<R>(r)];
#pragma unroll
    for (int r = 0; r < R; ++r) v[r] = sorted[r];
}
