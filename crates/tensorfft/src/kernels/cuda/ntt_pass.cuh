// One pass of an NTT schedule (ntt/schedule.rs): for each item (a line of Cfg::LEN samples), an
// NTT over samples geo.sample_in apart, written geo.sample_out apart, its outputs multiplied by
// the four-step twiddle w_root^(m k), the first pass's inputs or the last pass's outputs by a
// weight (negacyclic twist, inverse scale).
//
// A block takes a tile of Cfg::TILE consecutive items into shared memory (neighbouring threads
// on neighbouring items when the items are the contiguous side, else on neighbouring samples),
// placing sample s (natural local index) at row position s. Each item's NTT is a radix-2
// decimation in frequency run in rounds: a thread holds Cfg::VALUES samples in registers and
// runs Cfg::ROUND_STAGES (at most log2(VALUES)) stages on them, then the block exchanges through
// shared memory. With one stage per round that is the block-synchronous baseline of seed 000:
// a barrier after every radix-2 stage. The store
// reads frequency k from row position bitrev(k), multiplies, and writes in the output order.
#pragma once

// Run-time geometry (the same layout as NttGeometry in gpu/ntt_plan.rs).
struct NttGeometry {
    u64 count[3];          // coordinates along each item dimension (the last: transforms)
    u64 in_stride[3];      // element distance between neighbouring positions, input
    u64 out_stride[3];     // and output
    u64 in_weight[3];      // contribution of a coordinate to the natural input index
    u64 out_weight[3];     // and to the natural output index
    u64 sample_in;         // element distance between an item's samples, input
    u64 sample_out;        // and output
    u64 sample_in_weight;  // natural input index step of one local sample
    u64 sample_out_weight; // natural output index step of one local frequency
    u64 items;             // product of the counts
    u64 limbs;             // moduli; transform t uses limb t mod limbs
    u64 entries;           // table entries per limb
    u64 tw_mask;           // root - 1 of the four-step twiddle
    u64 tw_hi;             // entry of the high twiddle table
    u64 tw_lo;             // entry of the low twiddle table
    u64 wt_hi;             // entry of the high weight table
    u64 wt_lo;             // entry of the low weight table
    int log_count[2];      // log2 of count[0] and count[1]
    int in_rev_bits[3];    // bits reversed to find an input position (0: natural)
    int out_rev_bits[3];   // and an output position
    int tw_dim;            // item dimension of m (-1: no twiddle)
    int tw_lo_bits;        // exponent bits read from the low twiddle table
    int wt_lo_bits;        // index bits read from the low weight table
    int pad_;
};

__device__ __forceinline__ u64 reverse_bits(u64 c, int bits) {
    return bits == 0 ? c : (u64)(__brevll(c) >> (64 - bits));
}

// Row position of local index i: one padding word after every 2^PAD_SHIFT.
template <int PAD_SHIFT>
__device__ __forceinline__ int padded(int i) { return (int)((unsigned)i + ((unsigned)i >> PAD_SHIFT)); }

template <class Cfg>
struct NttPass {
    using A = typename Cfg::Arith;
    using Word = typename A::Word;
    static constexpr int LEN = Cfg::LEN;
    static constexpr int LOG_LEN = Cfg::LOG_LEN;
    static constexpr int VALUES = Cfg::VALUES;
    static constexpr int LOG_VALUES = Cfg::LOG_VALUES;
    static constexpr int TILE = Cfg::TILE;
    static constexpr int THREADS = Cfg::THREADS;
    static constexpr int PER_ITEM = LEN / VALUES;   // threads per item
    static constexpr int CONCURRENT = THREADS / PER_ITEM;
    static constexpr int ROW = LEN + (LEN >> Cfg::PAD_SHIFT);

    // Per-item data of the current tile.
    struct Items {
        u64 base_in[TILE];
        u64 base_out[TILE];
        u64 m[TILE];        // twiddle coordinate
        u64 weight[TILE];   // natural index contribution of the item (input or output side)
        u64 table[TILE];    // first table entry of the item's limb
        Word p[TILE];
    };

    // Dimensions 0 and 1 count powers of two (shifts and masks); the last counts transforms.
    __device__ static void describe(const NttGeometry& g, u64 item, Items& it, int slot, const Word* moduli) {
        u64 c[3];
        c[0] = item & (g.count[0] - 1);
        c[1] = (item >> g.log_count[0]) & (g.count[1] - 1);
        c[2] = item >> (g.log_count[0] + g.log_count[1]);
        u64 base_in = 0, base_out = 0, weight = 0;
#pragma unroll
        for (int d = 0; d < 3; ++d) {
            base_in += reverse_bits(c[d], g.in_rev_bits[d]) * g.in_stride[d];
            base_out += reverse_bits(c[d], g.out_rev_bits[d]) * g.out_stride[d];
            weight += c[d] * (Cfg::WEIGHT == 1 ? g.in_weight[d] : g.out_weight[d]);
        }
        const u64 limb = g.limbs == 1 ? 0 : (c[2] < 0xFFFFFFFFull ? (u32)c[2] % (u32)g.limbs : c[2] % g.limbs);
        it.base_in[slot] = base_in;
        it.base_out[slot] = base_out;
        it.weight[slot] = weight;
        it.m[slot] = g.tw_dim == 0 ? c[0] : g.tw_dim == 1 ? c[1] : g.tw_dim == 2 ? c[2] : 0;
        it.table[slot] = limb * g.entries;
        it.p[slot] = moduli[limb];
    }

    // x * hi[i >> lo_bits] * lo[i & (2^lo_bits - 1)]: a power from two tables.
    __device__ static Word times_power(const A& a, Word x, const Word* t, u64 hi, u64 lo, int lo_bits, u64 i) {
        x = mul_constant(a, x, load_constant<A>(t, hi + (i >> lo_bits)));
        return mul_constant(a, x, load_constant<A>(t, lo + (i & ((1ull << lo_bits) - 1))));
    }

    __device__ static void run(const Word* __restrict__ in, Word* __restrict__ out, const Word* __restrict__ tables,
                               const Word* __restrict__ moduli, const NttGeometry& g) {
        if constexpr (Cfg::DIRECT) {
            run_direct(in, out, tables, moduli, g);
        } else {
            run_staged(in, out, tables, moduli, g);
        }
    }

    // Any local orders: the tile goes through shared memory on the way in and out.
    __device__ static void run_staged(const Word* __restrict__ in, Word* __restrict__ out,
                                      const Word* __restrict__ tables, const Word* __restrict__ moduli,
                                      const NttGeometry& g) {
        extern __shared__ __align__(16) unsigned char smem_raw[];
        Word* rows = reinterpret_cast<Word*>(smem_raw);
        __shared__ Items it;
        const u64 first = (u64)blockIdx.x * TILE;
        const int tid = threadIdx.x;
        for (int slot = tid; slot < TILE; slot += THREADS) {
            if (first + slot < g.items) {
                describe(g, first + slot, it, slot, moduli);
            }
        }
        __syncthreads();

        // Load: natural local index s at row position s.
#pragma unroll 4
        for (int e = tid; e < TILE * LEN; e += THREADS) {
            const int item = Cfg::ITEMS_FAST_IN ? e % TILE : e / LEN;
            const int r = Cfg::ITEMS_FAST_IN ? e / TILE : e % LEN;
            if (first + item >= g.items) continue;
            Word x = in[it.base_in[item] + (u64)r * g.sample_in];
            const int s = Cfg::REV_IN ? (int)reverse_bits(r, LOG_LEN) : r;
            if constexpr (Cfg::WEIGHT == 1) {
                A a{it.p[item]};
                const u64 n = (u64)s * g.sample_in_weight + it.weight[item];
                x = times_power(a, x, tables + 2 * it.table[item], g.wt_hi, g.wt_lo, g.wt_lo_bits, n);
            }
            rows[item * ROW + padded<Cfg::PAD_SHIFT>(s)] = x;
        }
        __syncthreads();

        // Decimation in frequency, VALUES samples per thread per round.
        for (int base = 0; base < TILE; base += CONCURRENT) {
            const int item = base + tid / PER_ITEM;
            const int t = tid % PER_ITEM;
            const bool live = first + item < g.items;
            A a{live ? it.p[item] : Word(1)};
            const Word* roots = tables + 2 * (live ? it.table[item] : 0);
            Word* row = rows + item * ROW;
#pragma unroll
            for (int s0 = 0; s0 < LOG_LEN; s0 += Cfg::ROUND_STAGES) {
                round(a, roots, row, t, s0, live);
                __syncthreads();
            }
        }

        // Store: frequency k sits at row position bitrev(k).
#pragma unroll 4
        for (int e = tid; e < TILE * LEN; e += THREADS) {
            const int item = Cfg::ITEMS_FAST_OUT ? e % TILE : e / LEN;
            const int q = Cfg::ITEMS_FAST_OUT ? e / TILE : e % LEN;
            if (first + item >= g.items) continue;
            const int k = Cfg::REV_OUT ? (int)reverse_bits(q, LOG_LEN) : q;
            Word y = rows[item * ROW + padded<Cfg::PAD_SHIFT>((int)reverse_bits(k, LOG_LEN))];
            if constexpr (Cfg::TWIDDLE || Cfg::WEIGHT == 2) {
                A a{it.p[item]};
                const Word* t = tables + 2 * it.table[item];
                if constexpr (Cfg::TWIDDLE) {
                    const u64 ex = (it.m[item] * (u64)k) & g.tw_mask;
                    y = times_power(a, y, t, g.tw_hi, g.tw_lo, g.tw_lo_bits, ex);
                }
                if constexpr (Cfg::WEIGHT == 2) {
                    const u64 kk = (u64)k * g.sample_out_weight + it.weight[item];
                    y = times_power(a, y, t, g.wt_hi, g.wt_lo, g.wt_lo_bits, kk);
                }
            }
            out[it.base_out[item] + (u64)q * g.sample_out] = y;
        }
    }

    // The rounds: round s0 runs stages s0 .. s0 + r - 1 (r = min(ROUND_STAGES, LOG_LEN - s0)) on
    // groups of 2^r samples d = LEN >> (s0 + r) apart; the thread's VALUES samples are VALUES >> r
    // such groups. positions() gives the local index of each of the thread's values.
    __device__ __forceinline__ static void positions(int t, int s0, int (&idx)[VALUES]) {
        const int r = LOG_LEN - s0 < Cfg::ROUND_STAGES ? LOG_LEN - s0 : Cfg::ROUND_STAGES;
        const int G = 1 << r;
        const int d = LEN >> (s0 + r);
#pragma unroll
        for (int j = 0; j < VALUES; ++j) {
            const int group = t + (j / G) * PER_ITEM;
            idx[j] = (group / d) * (d * G) + group % d + (j % G) * d;
        }
    }

    // The radix-2 stages of round s0 on the thread's values. The pair (i, i + h) of stage s takes
    // the root w_LEN^((i mod h) << s); within a group (base b, samples b + j d), i mod h is
    // (b mod d) + (j mod (h/d)) d, so each stage's roots sit at compile-time offsets from one
    // per-group address.
    __device__ __forceinline__ static void stages(const A& a, const Word* roots, Word (&v)[VALUES], int t, int s0) {
        const int r = LOG_LEN - s0 < Cfg::ROUND_STAGES ? LOG_LEN - s0 : Cfg::ROUND_STAGES;
        const int G = 1 << r;
        const int d = LEN >> (s0 + r);
#pragma unroll
        for (int u = 0; u < Cfg::ROUND_STAGES; ++u) {
            if (u >= r) break;
            const int half = G >> (u + 1);
            const int s = s0 + u;
#pragma unroll
            for (int j = 0; j < VALUES; ++j) {
                if ((j % G) & half) continue;
                const int lo = (t + (j / G) * PER_ITEM) & (d - 1);
                const int e = (lo + ((j % G) & (half - 1)) * d) << s;
                const Constant<A> w = load_constant<A>(roots, (u64)e);
                const Word x = v[j], y = v[j + half];
                v[j] = a.add(x, y);
                v[j + half] = mul_constant(a, a.sub(x, y), w);
            }
        }
    }

    // One round through the shared-memory row of the item (the staged path).
    __device__ __forceinline__ static void round(const A& a, const Word* roots, Word* row, int t, int s0, bool live) {
        int idx[VALUES];
        positions(t, s0, idx);
        if (live) {
            Word v[VALUES];
#pragma unroll
            for (int j = 0; j < VALUES; ++j) v[j] = row[padded<Cfg::PAD_SHIFT>(idx[j])];
            stages(a, roots, v, t, s0);
#pragma unroll
            for (int j = 0; j < VALUES; ++j) row[padded<Cfg::PAD_SHIFT>(idx[j])] = v[j];
        }
    }

    // Natural local input and bit-reversed local output (decimation in frequency leaves frequency
    // k at position bitrev(k), which is where it belongs): the first round reads its samples
    // straight from device memory and the last round writes straight back, so shared memory only
    // carries the exchanges between rounds. The TILE items are computed at once; neighbouring
    // threads take neighbouring items (Cfg::ITEMS_FAST_IN: the items are the contiguous side) or
    // neighbouring samples.
    __device__ static void run_direct(const Word* __restrict__ in, Word* __restrict__ out,
                                      const Word* __restrict__ tables, const Word* __restrict__ moduli,
                                      const NttGeometry& g) {
        extern __shared__ __align__(16) unsigned char smem_raw[];
        Word* rows = reinterpret_cast<Word*>(smem_raw);
        __shared__ Items it;
        const u64 first = (u64)blockIdx.x * TILE;
        const int tid = threadIdx.x;
        for (int slot = tid; slot < TILE; slot += THREADS) {
            if (first + slot < g.items) {
                describe(g, first + slot, it, slot, moduli);
            }
        }
        __syncthreads();
        const int item = Cfg::ITEMS_FAST_IN ? tid % TILE : tid / PER_ITEM;
        const int t = Cfg::ITEMS_FAST_IN ? tid / TILE : tid % PER_ITEM;
        const bool live = first + item < g.items;
        const A a{live ? it.p[item] : Word(1)};
        const Word* tab = tables + 2 * (live ? it.table[item] : 0);
        Word* row = rows + item * ROW;
        Word v[VALUES];
        int idx[VALUES];
        positions(t, 0, idx);
        if (live) {
            const Word* src = in + it.base_in[item];
#pragma unroll
            for (int j = 0; j < VALUES; ++j) v[j] = src[(u64)idx[j] * g.sample_in];
            if constexpr (Cfg::WEIGHT == 1) {
#pragma unroll
                for (int j = 0; j < VALUES; ++j) {
                    const u64 n = (u64)idx[j] * g.sample_in_weight + it.weight[item];
                    v[j] = times_power(a, v[j], tab, g.wt_hi, g.wt_lo, g.wt_lo_bits, n);
                }
            }
            stages(a, tab, v, t, 0);
        }
#pragma unroll
        for (int s0 = Cfg::ROUND_STAGES; s0 < LOG_LEN; s0 += Cfg::ROUND_STAGES) {
            if (live) {
#pragma unroll
                for (int j = 0; j < VALUES; ++j) row[padded<Cfg::PAD_SHIFT>(idx[j])] = v[j];
            }
            __syncthreads();
            positions(t, s0, idx);
            if (live) {
#pragma unroll
                for (int j = 0; j < VALUES; ++j) v[j] = row[padded<Cfg::PAD_SHIFT>(idx[j])];
                stages(a, tab, v, t, s0);
            }
        }
        if (!live) return;
        Word* dst = out + it.base_out[item];
#pragma unroll
        for (int j = 0; j < VALUES; ++j) {
            const u64 k = reverse_bits(idx[j], LOG_LEN);
            Word y = v[j];
            if constexpr (Cfg::TWIDDLE) {
                const u64 ex = (it.m[item] * k) & g.tw_mask;
                y = times_power(a, y, tab, g.tw_hi, g.tw_lo, g.tw_lo_bits, ex);
            }
            if constexpr (Cfg::WEIGHT == 2) {
                const u64 kk = k * g.sample_out_weight + it.weight[item];
                y = times_power(a, y, tab, g.wt_hi, g.wt_lo, g.wt_lo_bits, kk);
            }
            dst[(u64)idx[j] * g.sample_out] = y;
        }
    }
};
