// One pass of an NTT schedule (ntt/schedule.rs): for each item (a line of Cfg::LEN samples), an
// NTT over samples geo.sample_in apart, written geo.sample_out apart, its outputs multiplied by
// the four-step twiddle w_root^(m k), the first pass's inputs or the last pass's outputs by a
// weight (the twist (g psi)^j of a negacyclic or coset transform, the inverse's scale):
// Cfg::WEIGHT 1 (inputs) and 2 (outputs) look each power up in two tables; 3 (outputs: the
// scale n^-1 of a plain cyclic inverse, the same for every word of a limb) multiplies by the
// high table's first entry, loaded once.
//
// A block takes a tile of Cfg::TILE consecutive items into shared memory (neighbouring threads
// on neighbouring items when the items are the contiguous side, else on neighbouring samples),
// placing sample s (natural local index) at row position s. Each item's NTT is a radix-2
// decimation in frequency run in rounds: a thread holds Cfg::VALUES samples in registers and
// runs up to Cfg::ROUND_STAGES (at most log2(VALUES)) stages on them, then the item's threads
// exchange through shared memory (Cfg::ROUND_SIZES: the planner's split,
// NttPass::kernel_round_sizes), waiting on their warp where an item fits one, else on the block
// (exchange_barrier). With one stage per round that is the block-synchronous baseline of seed
// 000: a block barrier after every radix-2 stage. The store reads frequency k from row
// position bitrev(k), multiplies, and writes in the output order.
// Direct passes skip the shared memory on the way in and out: run_direct_to, for natural local
// input and bit-reversed local output (where the decimation in frequency leaves them), and for
// its mirror image (Cfg::IN_TIME: bit-reversed local input, natural local output, a decimation
// in time, the rounds and their stages last to first).
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
    int log_count[2];      // log2 of count[0] and count[1] (-1: not a power of two)
    int in_rev_bits[3];    // bits reversed to find an input position (0: natural)
    int out_rev_bits[3];   // and an output position
    int tw_dim;            // item dimension of m (-1: no twiddle)
    int tw_lo_bits;        // exponent bits read from the low twiddle table (Cfg::SLOT_TWIDDLE:
                           // log2 of the items along tw_dim, the tables' row length)
    int wt_lo_bits;        // index bits read from the low weight table
    int transform_dim;     // the dimension that counts the transforms
};

// 16 bytes of words from registers to a 16-byte aligned address.
__device__ __forceinline__ void store16(u32* p, const u32* v) {
    *reinterpret_cast<uint4*>(p) = make_uint4(v[0], v[1], v[2], v[3]);
}
__device__ __forceinline__ void store16(u64* p, const u64* v) {
    *reinterpret_cast<ulonglong2*>(p) = make_ulonglong2(v[0], v[1]);
}

// 16 bytes of words from a 16-byte aligned address into registers.
__device__ __forceinline__ void load16(const u32* p, u32* v) {
    const uint4 x = *reinterpret_cast<const uint4*>(p);
    v[0] = x.x, v[1] = x.y, v[2] = x.z, v[3] = x.w;
}
__device__ __forceinline__ void load16(const u64* p, u64* v) {
    const ulonglong2 x = *reinterpret_cast<const ulonglong2*>(p);
    v[0] = x.x, v[1] = x.y;
}

__device__ __forceinline__ u64 reverse_bits(u64 c, int bits) {
    return bits == 0 ? c : (u64)(__brevll(c) >> (64 - bits));
}


// A factor multiplying a pass's input word for word (Cfg::Factor: a product policy of
// ntt_pointwise.cuh, or NoFactor): the pointwise product fused into the first pass of a
// transform, which then computes the NTT of in · factor. The factor lies in the input's layout
// (word i multiplies input word i) and its word i is reduced by the modulus of word i's limb.
struct NoFactor {};
template <class Product>
struct InputFactor {
    const typename Product::Word* words;
    const Product* limbs;  // per-limb constants
};
template <>
struct InputFactor<NoFactor> {};

// Where a pass's outputs go by default: device memory at `out` (ntt_cluster.cuh has the other
// sink, the shared memory of the blocks of a cluster, with `put(index, word)` instead of `out`).
template <class Word>
struct GlobalSink {
    static constexpr bool GLOBAL = true;
    Word* out;
    __device__ __forceinline__ void ready() const {}
};

// The device memory a sink writes, or null for a sink that stores elsewhere.
template <class Word, class Sink>
__device__ __forceinline__ Word* sink_memory(const Sink& sink) {
    if constexpr (Sink::GLOBAL) return sink.out;
    else return nullptr;
}

template <class Cfg>
struct NttPass {
    using A = typename Cfg::Arith;
    using Word = typename A::Word;
    using Factor = InputFactor<typename Cfg::Factor>;
    static constexpr bool FACTOR = Cfg::FACTOR;
    static_assert(!FACTOR || !Cfg::ITEMS_BY_INPUT,
                  "a factor multiplies the device-memory inputs of a schedule's first pass");
    static constexpr int LEN = Cfg::LEN;
    static constexpr int LOG_LEN = Cfg::LOG_LEN;
    static constexpr int VALUES = Cfg::VALUES;
    static constexpr int LOG_VALUES = Cfg::LOG_VALUES;
    static constexpr int TILE = Cfg::TILE;
    static constexpr int THREADS = Cfg::THREADS;
    static constexpr int PER_ITEM = LEN / VALUES;   // threads per item
    static constexpr int CONCURRENT = THREADS / PER_ITEM;
    static constexpr int ROW = Cfg::ROW;  // words from one item's row to the next
    // The rows' layout (ntt/row_layout.rs): C1 words after every 2^S1 samples and C2 after
    // every 2^S2 (C = 0: no term).
    static constexpr int C1 = Cfg::ROW_TERMS[0], S1 = Cfg::ROW_TERMS[1];
    static constexpr int C2 = Cfg::ROW_TERMS[2], S2 = Cfg::ROW_TERMS[3];
    // Row position of local index i.
    __host__ __device__ static constexpr int position(int i) {
        return (int)((unsigned)i + (unsigned)C1 * ((unsigned)i >> S1) + (unsigned)C2 * ((unsigned)i >> S2));
    }
    // The last SHUFFLE stages run between the lanes of a warp (warp-shuffle butterflies): the
    // rounds cover the first LOG_LEN - SHUFFLE stages.
    static constexpr int SHUFFLE = Cfg::SHUFFLE_STAGES;
    static constexpr int ROUNDS_LEN = LOG_LEN - SHUFFLE;
    // The rounds before the shuffle tail, as the planner split them (Cfg::ROUND_SIZES).
    static constexpr int ROUND_COUNT = sizeof(Cfg::ROUND_SIZES) / sizeof(int);
    static constexpr int LAST_ROUND = ROUND_COUNT - 1;
    __host__ __device__ static constexpr int round_start(int k) {
        int s = 0;
        for (int i = 0; i < k; ++i) s += Cfg::ROUND_SIZES[i];
        return s;
    }
    __host__ __device__ static constexpr bool rounds_fit() {
        for (int i = 0; i < ROUND_COUNT; ++i) {
            if (Cfg::ROUND_SIZES[i] < 1 || Cfg::ROUND_SIZES[i] > Cfg::ROUND_STAGES) return false;
        }
        return round_start(ROUND_COUNT) == ROUNDS_LEN;
    }
    static_assert(Cfg::ROUND_STAGES <= LOG_VALUES && rounds_fit(),
                  "rounds of 1 .. ROUND_STAGES stages covering the stages before the shuffle tail");
    static constexpr bool UNIT_SAMPLES = Cfg::SAMPLE_IN == 1 && Cfg::SAMPLE_OUT == 1;
    // Direct row passes of at most 32 threads per item: item = tid / PER_ITEM puts each item's
    // threads on lanes of one warp (PER_ITEM, a power of two, divides 32), and an exchange
    // between rounds touches only its item's row, so it waits for the warp, not the block.
    // The block-synchronous baseline (NttSchedule::block_synchronous, Cfg::BLOCK_BARRIERS)
    // keeps the block barrier after every stage, as seed 000 defines it.
    static constexpr bool WARP_ITEMS =
        Cfg::DIRECT && !Cfg::ITEMS_FAST_IN && PER_ITEM <= 32 && !Cfg::BLOCK_BARRIERS;
    // The wait between storing one round's values and loading the next round's: the warp's
    // lanes (those the block has: a block of fewer than 32 threads is one partial warp) where
    // items are warp-local, else the block.
    // The lanes a block's first warp has: every lane from 32 threads on, the first THREADS in a
    // smaller block (the mask of its warp barriers and shuffles names only lanes that exist).
    static constexpr unsigned LANES = THREADS >= 32 ? 0xFFFFFFFFu : (1u << THREADS) - 1u;
    __device__ __forceinline__ static void exchange_barrier() {
        if constexpr (WARP_ITEMS) {
            __syncwarp(LANES);
        } else {
            __syncthreads();
        }
    }
    static_assert(!Cfg::IN_TIME || (Cfg::DIRECT && Cfg::REV_IN && !Cfg::REV_OUT),
                  "decimation in time: a direct pass of bit-reversed input and natural output");
    static_assert(SHUFFLE == 0 || (Cfg::DIRECT && !Cfg::ITEMS_FAST_IN && (1 << SHUFFLE) <= PER_ITEM &&
                                   SHUFFLE <= 5 && SHUFFLE < LOG_LEN),
                  "warp-shuffle stages need a direct pass with an item's threads in consecutive lanes");

    // Per-item data of the current tile.
    struct Items {
        u64 base_in[TILE];
        u64 base_out[TILE];
        u64 m[TILE];        // twiddle coordinate
        u64 weight[TILE];   // natural index contribution of the item (input or output side)
        u64 table[TILE];    // first table entry of the item's limb
        u32 limb[TILE];
        Word p[TILE];
    };

    // Coordinates of an item: dimensions 0 and 1 by shifts and masks where they count powers of
    // two (log_count >= 0), else by division; the last takes the rest.
    __device__ static void describe(const NttGeometry& g, u64 item, Items& it, int slot, const Word* moduli) {
        u64 c[3];
        u64 f = item;
#pragma unroll
        for (int d = 0; d < 2; ++d) {
            if (g.log_count[d] >= 0) {
                c[d] = f & (g.count[d] - 1);
                f >>= g.log_count[d];
            } else {
                c[d] = f % g.count[d];
                f /= g.count[d];
            }
        }
        c[2] = f;
        if constexpr (Cfg::ITEMS_BY_INPUT) {
            // Item numbers count input positions (a fused second pass: ntt_cluster.cuh).
            c[0] = reverse_bits(c[0], g.in_rev_bits[0]);
            c[1] = reverse_bits(c[1], g.in_rev_bits[1]);
        }
        u64 base_in = 0, base_out = 0, weight = 0;
#pragma unroll
        for (int d = 0; d < 3; ++d) {
            base_in += reverse_bits(c[d], g.in_rev_bits[d]) * g.in_stride[d];
            base_out += reverse_bits(c[d], g.out_rev_bits[d]) * g.out_stride[d];
            weight += c[d] * (Cfg::WEIGHT == 1 ? g.in_weight[d] : g.out_weight[d]);
        }
        const u64 t = g.transform_dim == 0 ? c[0] : g.transform_dim == 1 ? c[1] : c[2];
        const u64 limb = g.limbs == 1 ? 0 : (t < 0xFFFFFFFFull ? (u32)t % (u32)g.limbs : t % g.limbs);
        it.base_in[slot] = base_in;
        it.base_out[slot] = base_out;
        it.weight[slot] = weight;
        it.m[slot] = g.tw_dim == 0 ? c[0] : g.tw_dim == 1 ? c[1] : g.tw_dim == 2 ? c[2] : 0;
        it.table[slot] = limb * g.entries;
        it.limb[slot] = (u32)limb;
        it.p[slot] = moduli[limb];
    }

    // The tile's items described by its first threads, for the whole block.
    __device__ static void describe_tile(const NttGeometry& g, u64 first, Items& it, const Word* moduli) {
        for (int slot = threadIdx.x; slot < TILE; slot += THREADS) {
            if (first + slot < g.items) describe(g, first + slot, it, slot, moduli);
        }
        __syncthreads();
    }

    // x * hi[i >> lo_bits] * lo[i & (2^lo_bits - 1)]: a power from two tables.
    template <class I>
    __device__ static Word times_power(const A& a, Word x, const Word* t, u64 hi, u64 lo, int lo_bits, I i) {
        x = mul_constant(a, x, load_constant<A>(t, hi + (i >> lo_bits)));
        return mul_constant(a, x, load_constant<A>(t, lo + (i & ((I(1) << lo_bits) - 1))));
    }

    // x times word `index` of the factor (the offset x was read from), reduced by `product`
    // (the constants of x's limb).
    __device__ __forceinline__ static Word times_factor(const Factor& f, const typename Cfg::Factor& product, Word x,
                                                        u64 index) {
        if constexpr (FACTOR) {
            return product.mul(x, f.words[index]);
        } else {
            return x;
        }
    }

    // The four-step twiddle's exponent (m k) mod root. The root is at most 2^32 (the largest
    // two-adicity, Goldilocks'), so tw_mask < 2^32 and the product's low 32 bits suffice.
    __device__ static u32 twiddle_exponent(const NttGeometry& g, u64 m, u64 k) {
        return ((u32)m * (u32)k) & (u32)g.tw_mask;
    }

    __device__ static void run(const Word* __restrict__ in, Word* __restrict__ out, const Word* __restrict__ tables,
                               const Word* __restrict__ moduli, const NttGeometry& g, const Factor& f = Factor{}) {
        if constexpr (Cfg::DIRECT) {
            run_direct_to(in, 0, GlobalSink<Word>{out}, tables, moduli, g, f);
        } else {
            run_staged_to(in, 0, GlobalSink<Word>{out}, tables, moduli, g, f);
        }
    }

    // run_direct_to or run_staged_to, as the pass is.
    template <class Sink>
    __device__ static void run_to(const Word* __restrict__ in, u64 in_origin, const Sink& sink,
                                  const Word* __restrict__ tables, const Word* __restrict__ moduli,
                                  const NttGeometry& g, const Factor& f = Factor{}) {
        if constexpr (Cfg::DIRECT) {
            run_direct_to(in, in_origin, sink, tables, moduli, g, f);
        } else {
            run_staged_to(in, in_origin, sink, tables, moduli, g, f);
        }
    }

    // Any local orders: the tile goes through shared memory on the way in and out. Loads at
    // `in` minus `in_origin`, outputs to `sink` (as run_direct_to); each input word times the
    // factor's word at the same offset (FACTOR).
    template <class Sink>
    __device__ static void run_staged_to(const Word* __restrict__ in, u64 in_origin, const Sink& sink,
                                         const Word* __restrict__ tables, const Word* __restrict__ moduli,
                                         const NttGeometry& g, const Factor& f = Factor{}) {
        extern __shared__ __align__(16) unsigned char smem_raw[];
        Word* rows = reinterpret_cast<Word*>(smem_raw);
        __shared__ Items it;
        const u64 first = (u64)blockIdx.x * TILE;
        const int tid = threadIdx.x;
        describe_tile(g, first, it, moduli);

        // Load: natural local index s at row position s.
#pragma unroll 4
        for (int e = tid; e < TILE * LEN; e += THREADS) {
            const int item = Cfg::ITEMS_FAST_IN ? e % TILE : e / LEN;
            const int r = Cfg::ITEMS_FAST_IN ? e / TILE : e % LEN;
            if (first + item >= g.items) continue;
            const u64 at = (it.base_in[item] - in_origin) + (u64)r * (Cfg::SAMPLE_IN ? Cfg::SAMPLE_IN : g.sample_in);
            Word x = in[at];
            if constexpr (FACTOR) x = times_factor(f, f.limbs[it.limb[item]], x, at);
            const int s = Cfg::REV_IN ? (int)reverse_bits(r, LOG_LEN) : r;
            if constexpr (Cfg::WEIGHT == 1) {
                A a{it.p[item]};
                const u64 n = (u64)s * g.sample_in_weight + it.weight[item];
                x = times_power(a, x, tables + 2 * it.table[item], g.wt_hi, g.wt_lo, g.wt_lo_bits, n);
            }
            rows[item * ROW + position(s)] = x;
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
            staged_rounds<0>(a, roots, row, t, live);
        }

        // Store: frequency k sits at row position bitrev(k).
        sink.ready();
#pragma unroll 4
        for (int e = tid; e < TILE * LEN; e += THREADS) {
            const int item = Cfg::ITEMS_FAST_OUT ? e % TILE : e / LEN;
            const int q = Cfg::ITEMS_FAST_OUT ? e / TILE : e % LEN;
            if (first + item >= g.items) continue;
            const int k = Cfg::REV_OUT ? (int)reverse_bits(q, LOG_LEN) : q;
            Word y = rows[item * ROW + position((int)reverse_bits(k, LOG_LEN))];
            if constexpr (Cfg::TWIDDLE || Cfg::WEIGHT >= 2) {
                A a{it.p[item]};
                const Word* t = tables + 2 * it.table[item];
                if constexpr (Cfg::TWIDDLE) {
                    const u32 ex = twiddle_exponent(g, it.m[item], (u64)k);
                    y = times_power(a, y, t, g.tw_hi, g.tw_lo, g.tw_lo_bits, ex);
                }
                if constexpr (Cfg::WEIGHT == 2) {
                    const u64 kk = (u64)k * g.sample_out_weight + it.weight[item];
                    y = times_power(a, y, t, g.wt_hi, g.wt_lo, g.wt_lo_bits, kk);
                } else if constexpr (Cfg::WEIGHT == 3) {
                    y = mul_constant(a, y, load_constant<A>(t, g.wt_hi));
                }
            }
            const u64 o = it.base_out[item] + (u64)q * (Cfg::SAMPLE_OUT ? Cfg::SAMPLE_OUT : g.sample_out);
            if constexpr (Sink::GLOBAL) {
                sink.out[o] = y;
            } else {
                sink.put(o, y);
            }
        }
    }

    // The rounds: round K runs stages S0 .. S0 + R - 1 (Cfg::ROUND_SIZES) on groups of G = 2^R
    // samples D = LEN >> (S0 + R) apart; the thread's VALUES samples are VALUES >> R such groups.
    // Value j of the thread is sample base(j / G) + (j mod G) D.
    template <int K>
    struct Round {
        static constexpr int S0 = round_start(K);
        static constexpr int R = Cfg::ROUND_SIZES[K];
        static constexpr int G = 1 << R;
        static constexpr int D = LEN >> (S0 + R);
        static constexpr int GROUPS = VALUES / G;
        // First sample of the thread's group g.
        __device__ __forceinline__ static int base(int t, int g) {
            const int group = t + g * PER_ITEM;
            return (group / D) * (D * G) + group % D;
        }
        // Where D divides PER_ITEM or every group is below D, base(t, g) = base(t, 0) + g STEP
        // (STEP 0: not linear), so per-group addresses are compile-time offsets from one.
        static constexpr int STEP = PER_ITEM % D == 0 ? PER_ITEM * G : D >= PER_ITEM * GROUPS ? PER_ITEM : 0;
        // Offset of value j from its group's base, in samples and in padded row words: within
        // every padding term's chunk of 2^s samples the base's position is below D or leaves
        // room for the whole group, so the padding of base + j D is the base's plus that of j D.
        __host__ __device__ static constexpr int offset(int j) { return (j % G) * D; }
        __host__ __device__ static constexpr int row_offset(int j) { return position(offset(j)); }
    };

    // Entry of stage s's root table (ntt/tables.rs: one table per stage, entry e = w_LEN^(e << s)
    // for e < LEN >> (s + 1), after the tables of the earlier stages).
    __host__ __device__ static constexpr int stage_roots(int s) { return LEN - (LEN >> s); }

    // Where the round's groups are contiguous (D = 1) the root index i of a pair is known at
    // compile time once the loops are unrolled; i = 0 is the root 1 (no product). With
    // Cfg::POW2_ROOT >= 0 (Goldilocks, A::POW2_ROOTS) 2^POW2_ROOT is this pass's primitive
    // 64th root of unity (ntt_source.rs; for passes shorter than 64 the one whose power of
    // 64 / LEN is w_LEN), so a stage s whose roots have order O = LEN >> s <= 64 takes root
    // i as 2^((64 / O) POW2_ROOT i mod 192). Returns the exponent c of pair i's root 2^c (0:
    // the root 1, in every field), or -1 where the table root is used (other rounds, other
    // roots of other fields, or an exponent mul_pow2 does not take).
    template <int D>
    __device__ __forceinline__ static int pow2_root_exponent(int s, int i) {
        if constexpr (A::POW2_ROOTS && D == 1 && Cfg::POW2_ROOT >= 0) {
            if (LOG_LEN - s > 6) return -1;
            const int c = (Cfg::POW2_ROOT * (64 >> (LOG_LEN - s)) * i) % 192;
            return pow2_product_fits(c) ? c : -1;
        } else if constexpr (D == 1) {
            return i == 0 ? 0 : -1;
        } else {
            return -1;
        }
    }

    // x 2^e for 0 <= e < 64 (e = 0: x itself). Other fields only reach it with e = 0 (the root
    // 1: pow2_root_exponent gives them no other exponent).
    __device__ __forceinline__ static Word times_pow2(const A&, Word x, int e) {
        if constexpr (A::POW2_ROOTS) return e == 0 ? x : mul_pow2<A>(x, e);
        else return x;
    }

    // The radix-2 stages of round K on the thread's values. The pair (i, i + h) of stage s takes
    // the root w_LEN^((i mod h) << s), entry i mod h of the stage's table: neighbouring lanes
    // (neighbouring i) read neighbouring entries. Within a group, i mod h is
    // (base mod D) + (j mod (h/D)) D, so each stage's roots sit at compile-time offsets from one
    // per-group address. The pass's
    // last stage (D = 1, h = 1) has the root 1 throughout: no product, and neither have the
    // other butterflies of root 1 in a round with D = 1 (j mod h = 0; pow2_root_exponent,
    // which also gives Goldilocks the other roots of such a round as shifts). (Skipping them
    // once let ptxas schedule rows of 4096 and 8192 into 86 registers instead of 64; with the
    // register budgets of the launch bounds the u32 kernels of 2 ... 2^24 compile with no more
    // spills than before, bench/NOTES.md step 114.)
    template <int K>
    __device__ __forceinline__ static void stages(const A& a, const Word* roots, Word (&v)[VALUES], int t) {
        using Rd = Round<K>;
#pragma unroll
        for (int u = 0; u < Rd::R; ++u) {
            const int half = Rd::G >> (u + 1);
            const int s = Rd::S0 + u;
            const Word* w_base0 = roots + 2 * (u64)(stage_roots(s) + (Rd::base(t, 0) & (Rd::D - 1)));
#pragma unroll
            for (int g = 0; g < Rd::GROUPS; ++g) {
                // Linear bases (Round::STEP): base mod D is group 0's plus (g STEP) mod D.
                const Word* w_base = Rd::STEP ? w_base0 + 2 * (u64)((g * Rd::STEP) & (Rd::D - 1))
                                              : roots + 2 * (u64)(stage_roots(s) + (Rd::base(t, g) & (Rd::D - 1)));
#pragma unroll
                for (int jj = 0; jj < Rd::G; ++jj) {
                    if (jj & half) continue;
                    const int j = g * Rd::G + jj;
                    const Word x = v[j], y = v[j + half];
                    v[j] = a.add(x, y);
                    const int c = pow2_root_exponent<Rd::D>(s, jj & (half - 1));
                    if (Rd::D == 1 && half == 1) {
                        v[j + half] = a.sub(x, y);
                    } else if (c >= 0) {
                        // (x - y) 2^c, and for c >= 96 (2^96 = -1) (y - x) 2^(c - 96).
                        v[j + half] = times_pow2(a, c >= 96 ? a.sub(y, x) : a.sub(x, y), c % 96);
                    } else {
                        const Constant<A> w = load_constant<A>(w_base, (u64)((jj & (half - 1)) * Rd::D));
                        v[j + half] = difference_times(a, x, y, w);
                    }
                }
            }
        }
    }

    // The mirror image of stages<K> (decimation in time, ntt/schedule.rs NttPass::in_time):
    // the same pairs and roots, the stages last to first, each pair (x, y) to (x + w y, x - w y).
    template <int K>
    __device__ __forceinline__ static void stages_in_time(const A& a, const Word* roots, Word (&v)[VALUES], int t) {
        using Rd = Round<K>;
#pragma unroll
        for (int u = Rd::R - 1; u >= 0; --u) {
            const int half = Rd::G >> (u + 1);
            const int s = Rd::S0 + u;
            const Word* w_base0 = roots + 2 * (u64)(stage_roots(s) + (Rd::base(t, 0) & (Rd::D - 1)));
#pragma unroll
            for (int g = 0; g < Rd::GROUPS; ++g) {
                const Word* w_base = Rd::STEP ? w_base0 + 2 * (u64)((g * Rd::STEP) & (Rd::D - 1))
                                              : roots + 2 * (u64)(stage_roots(s) + (Rd::base(t, g) & (Rd::D - 1)));
#pragma unroll
                for (int jj = 0; jj < Rd::G; ++jj) {
                    if (jj & half) continue;
                    const int j = g * Rd::G + jj;
                    const Word x = v[j];
                    Word y = v[j + half];
                    const int c = pow2_root_exponent<Rd::D>(s, jj & (half - 1));
                    if (Rd::D == 1 && half == 1) {
                    } else if (c >= 0) {
                        y = times_pow2(a, y, c % 96);
                    } else {
                        y = mul_constant(a, y, load_constant<A>(w_base, (u64)((jj & (half - 1)) * Rd::D)));
                    }
                    // 2^c y = -(2^(c - 96) y) for c >= 96.
                    const bool negated = c >= 96;
                    v[j] = negated ? a.sub(x, y) : a.add(x, y);
                    v[j + half] = negated ? a.add(x, y) : a.sub(x, y);
                }
            }
        }
    }

    // Row position of a group's first sample. Seen through, the compiler folds each value's
    // compile-time row offset into a 32-bit sum that it then sign-extends and scales, two
    // instructions per shared-memory access; made opaque (an empty asm), the offsets become the
    // accesses' immediates (BabyBear rows of 1024: 32 fewer instructions per 16 values). That
    // measured faster in decimation in time (inverses 2-4%) and with a factor (products 3-4%),
    // and 1-2% slower in the plain decimation in frequency, which keeps the folded sums
    // (H200, bench/NOTES.md step 134).
    __device__ __forceinline__ static u64 group_position(int base) {
        u64 p = (u64)position(base);
        if constexpr (Cfg::IN_TIME || FACTOR) asm("" : "+l"(p));
        return p;
    }

    template <int K>
    __device__ __forceinline__ static void load_row(const Word* row, Word (&v)[VALUES], int t) {
        using Rd = Round<K>;
#pragma unroll
        for (int g = 0; g < Rd::GROUPS; ++g) {
            const Word* p = row + group_position(Rd::base(t, g));
#pragma unroll
            for (int jj = 0; jj < Rd::G; ++jj) v[g * Rd::G + jj] = p[Rd::row_offset(jj)];
        }
    }

    template <int K>
    __device__ __forceinline__ static void store_row(Word* row, const Word (&v)[VALUES], int t) {
        using Rd = Round<K>;
#pragma unroll
        for (int g = 0; g < Rd::GROUPS; ++g) {
            Word* p = row + group_position(Rd::base(t, g));
#pragma unroll
            for (int jj = 0; jj < Rd::G; ++jj) p[Rd::row_offset(jj)] = v[g * Rd::G + jj];
        }
    }

    // Rounds K, K + 1, ..., LAST_ROUND through the item's shared-memory row: each stores the
    // previous round's values, waits (exchange_barrier), loads its own and runs its stages. Returns
    // (in v) the last round's values.
    template <int K>
    __device__ __forceinline__ static void exchange_rounds(const A& a, const Word* roots, Word* row, Word (&v)[VALUES],
                                                           int t, bool live) {
        if constexpr (K <= LAST_ROUND) {
            if (live) store_row<K - 1>(row, v, t);
            exchange_barrier();
            if (live) {
                load_row<K>(row, v, t);
                stages<K>(a, roots, v, t);
            }
            exchange_rounds<K + 1>(a, roots, row, v, t, live);
        }
    }

    // Rounds K, K - 1, ..., 0 of a decimation in time: each stores the values of round K + 1,
    // waits (exchange_barrier), loads its own and runs its stages (last to first). Returns (in v)
    // round 0's values.
    template <int K>
    __device__ __forceinline__ static void exchange_rounds_in_time(const A& a, const Word* roots, Word* row,
                                                                   Word (&v)[VALUES], int t, bool live) {
        if constexpr (K >= 0) {
            if (live) store_row<K + 1>(row, v, t);
            exchange_barrier();
            if (live) {
                load_row<K>(row, v, t);
                stages_in_time<K>(a, roots, v, t);
            }
            exchange_rounds_in_time<K - 1>(a, roots, row, v, t, live);
        }
    }

    // Radix-2 stage LOG_LEN - 1 - B (butterfly half-distance 2^B) between lanes. After the
    // rounds, sample i = base + j D of a thread has D = 2^SHUFFLE and base mod D = t mod D
    // (Round::base), so bit B of every sample the thread holds is bit B of t, and the partner
    // sample i ^ 2^B sits in the same register of lane ^ 2^B. Each lane computes its half of
    // the butterfly: x + y (bit clear) or (x - y) w with the lower index's root
    // w_LEN^((i mod 2^B) << s) = w_LEN^((t mod 2^B) << s), entry t mod 2^B of stage s's table
    // (bit set; w = 1 for B = 0). Every
    // lane of the warp takes part (items' threads are aligned groups of consecutive lanes; a
    // block of fewer than 32 threads shuffles among its LANES).
    template <int B>
    __device__ __forceinline__ static void shuffle_stage(const A& a, const Word* roots, Word (&v)[VALUES], int t) {
        constexpr int H = 1 << B;
        constexpr int S = LOG_LEN - 1 - B;
        const bool upper = (t >> B) & 1;
        Constant<A> w{};
        if constexpr (B > 0) w = load_constant<A>(roots, (u64)(stage_roots(S) + (t & (H - 1))));
#pragma unroll
        for (int j = 0; j < VALUES; ++j) {
            const Word other = __shfl_xor_sync(LANES, v[j], H);
            if (upper) {
                // This lane holds y, the partner x: (x - y) w.
                if constexpr (B > 0) {
                    v[j] = difference_times(a, other, v[j], w);
                } else {
                    v[j] = a.sub(other, v[j]);
                }
            } else {
                v[j] = a.add(v[j], other);
            }
        }
    }

    // The mirror image of shuffle_stage<B> in a decimation in time: the pair (x, y) to
    // (x + w y, x - w y). The upper lane forms w y from its own value and sends it; the lower
    // lane sends x.
    template <int B>
    __device__ __forceinline__ static void shuffle_stage_in_time(const A& a, const Word* roots, Word (&v)[VALUES],
                                                                 int t) {
        constexpr int H = 1 << B;
        constexpr int S = LOG_LEN - 1 - B;
        const bool upper = (t >> B) & 1;
        Constant<A> w{};
        if constexpr (B > 0) w = load_constant<A>(roots, (u64)(stage_roots(S) + (t & (H - 1))));
#pragma unroll
        for (int j = 0; j < VALUES; ++j) {
            Word mine = v[j];
            if constexpr (B > 0) {
                if (upper) mine = mul_constant(a, mine, w);
            }
            const Word other = __shfl_xor_sync(LANES, mine, H);
            v[j] = upper ? a.sub(other, mine) : a.add(mine, other);
        }
    }

    // Stages B, B + 1, ..., SHUFFLE - 1 between lanes, smallest distance first (decimation in
    // time).
    template <int B>
    __device__ __forceinline__ static void shuffle_stages_in_time(const A& a, const Word* roots, Word (&v)[VALUES],
                                                                  int t) {
        if constexpr (B < SHUFFLE) {
            shuffle_stage_in_time<B>(a, roots, v, t);
            shuffle_stages_in_time<B + 1>(a, roots, v, t);
        }
    }

    template <int B>
    __device__ __forceinline__ static void shuffle_stages(const A& a, const Word* roots, Word (&v)[VALUES], int t) {
        if constexpr (B >= 0) {
            shuffle_stage<B>(a, roots, v, t);
            shuffle_stages<B - 1>(a, roots, v, t);
        }
    }

    template <int K>
    __device__ __forceinline__ static void staged_rounds(const A& a, const Word* roots, Word* row, int t, bool live) {
        if constexpr (K <= LAST_ROUND) {
            if (live) {
                Word v[VALUES];
                load_row<K>(row, v, t);
                stages<K>(a, roots, v, t);
                store_row<K>(row, v, t);
            }
            __syncthreads();
            staged_rounds<K + 1>(a, roots, row, t, live);
        }
    }

    // Direct passes: the round next to the input reads its samples straight from device memory
    // and the round next to the output writes straight back, so shared memory only carries the
    // exchanges between rounds. The TILE items are computed at once; neighbouring threads take
    // neighbouring items (Cfg::ITEMS_FAST_IN: the items are the contiguous side) or neighbouring
    // samples.
    //  - Natural local input, bit-reversed local output (decimation in frequency leaves
    //    frequency k at position bitrev(k), which is where it belongs): round 0 reads, the
    //    rounds run first to last, then the warp-shuffle stages (Cfg::SHUFFLE_STAGES, the
    //    smallest distances), and the last round writes.
    //  - Bit-reversed local input, natural local output (Cfg::IN_TIME, the mirror image): the
    //    decimation in time works on the row as it lies in memory, position i holding sample
    //    bitrev(i). The last round's groups (values D apart from base(t, g); for D = 1 a
    //    contiguous run of G words per thread, read 16 bytes at a time) come straight from
    //    device memory, the warp-shuffle stages run first, the rounds last to first, and round
    //    0's values, position = frequency k, go straight back.
    // Loads at `in` minus `in_origin` (a fused pass's input in shared memory: ntt_cluster.cuh),
    // outputs to `sink` (GlobalSink: device memory; a cluster sink:
    // another block's shared memory); each input word times the factor's word at the same
    // offset (FACTOR).
    template <class Sink>
    __device__ static void run_direct_to(const Word* __restrict__ in, u64 in_origin, const Sink& sink,
                                         const Word* __restrict__ tables, const Word* __restrict__ moduli,
                                         const NttGeometry& g_, const Factor& f = Factor{}) {
        extern __shared__ __align__(16) unsigned char smem_raw[];
        Word* rows = reinterpret_cast<Word*>(smem_raw);
        __shared__ Items it;
        const u64 first = (u64)blockIdx.x * TILE;
        const int tid = threadIdx.x;
        describe_tile(g_, first, it, moduli);
        const int item = Cfg::ITEMS_FAST_IN ? tid % TILE : tid / PER_ITEM;
        const int t = Cfg::ITEMS_FAST_IN ? tid / TILE : tid % PER_ITEM;
        const bool live = first + item < g_.items;
        const A a{live ? it.p[item] : Word(1)};
        const Word* tab = tables + 2 * (live ? it.table[item] : 0);
        // Sample distances: compile-time constants where the plan fixed them (Cfg::SAMPLE_IN,
        // SAMPLE_OUT; 0: from the geometry), so the per-value addresses are immediate offsets
        // from one pointer instead of 64-bit products.
        auto sample_in = [&]() -> u64 { return Cfg::SAMPLE_IN ? Cfg::SAMPLE_IN : g_.sample_in; };
        auto sample_out = [&]() -> u64 { return Cfg::SAMPLE_OUT ? Cfg::SAMPLE_OUT : g_.sample_out; };
        Word* row = rows + item * ROW;
        // The rounds whose groups come from and go to device memory.
        using RI = Round<Cfg::IN_TIME ? LAST_ROUND : 0>;
        using RO = Round<Cfg::IN_TIME ? 0 : LAST_ROUND>;
        constexpr int VEC = 16 / sizeof(Word);
        Word v[VALUES];
        // The input weight of the value at position b + offset (natural local index: the
        // position, or in time its bit reversal).
        // The constants of the item's limb for the factor, once per thread (live threads: a dead
        // one's item has no limb), and x, read at src + offset, times the factor's word there.
        [[maybe_unused]] typename Cfg::Factor product{};
        if constexpr (FACTOR) {
            if (live) product = f.limbs[it.limb[item]];
        }
        auto scale = [&](Word x, const Word* src, u64 offset) -> Word {
            return times_factor(f, product, x, (u64)(src - in) + offset);
        };
        auto weigh = [&](int b, int jj, int j) {
            if constexpr (Cfg::WEIGHT == 1) {
                const u64 pos = (u64)(b + RI::offset(jj));
                const u64 s = Cfg::IN_TIME ? reverse_bits(pos, LOG_LEN) : pos;
                const u64 n = s * g_.sample_in_weight + it.weight[item];
                v[j] = times_power(a, v[j], tab, g_.wt_hi, g_.wt_lo, g_.wt_lo_bits, n);
            }
        };
        if (live) {
            const Word* src0 = in + (it.base_in[item] - in_origin) + (u64)RI::base(t, 0) * sample_in();
#pragma unroll
            for (int g = 0; g < RI::GROUPS; ++g) {
                const int b = RI::base(t, g);
                const Word* src = RI::STEP ? src0 + (u64)(g * RI::STEP) * sample_in()
                                           : in + (it.base_in[item] - in_origin) + (u64)b * sample_in();
                if constexpr (Cfg::IN_TIME) {
                    if constexpr (UNIT_SAMPLES && RI::D == 1 && RI::G % VEC == 0) {
                        // A contiguous run of G words: 16 bytes per load instruction.
#pragma unroll
                        for (int jj = 0; jj < RI::G; jj += VEC) {
                            load16(src + jj, &v[g * RI::G + jj]);
                            if constexpr (FACTOR) {
                                Word w[VEC];
                                load16(f.words + (src - in) + jj, w);
#pragma unroll
                                for (int k = 0; k < VEC; ++k) v[g * RI::G + jj + k] = product.mul(v[g * RI::G + jj + k], w[k]);
                            }
                        }
                    } else {
#pragma unroll
                        for (int jj = 0; jj < RI::G; ++jj) {
                            const u64 at = (u64)RI::offset(jj) * sample_in();
                            v[g * RI::G + jj] = scale(src[at], src, at);
                        }
                    }
#pragma unroll
                    for (int jj = 0; jj < RI::G; ++jj) weigh(b, jj, g * RI::G + jj);
                } else {
#pragma unroll
                    for (int jj = 0; jj < RI::G; ++jj) {
                        const u64 at = (u64)RI::offset(jj) * sample_in();
                        v[g * RI::G + jj] = scale(src[at], src, at);
                        weigh(b, jj, g * RI::G + jj);
                    }
                }
            }
            if constexpr (!Cfg::IN_TIME) stages<0>(a, tab, v, t);
        }
        if constexpr (Cfg::IN_TIME) {
            // The stages between lanes come first (every lane of the warp takes part), then the
            // kernel's last round.
            if constexpr (SHUFFLE > 0) shuffle_stages_in_time<0>(a, tab, v, t);
            if (live) stages_in_time<LAST_ROUND>(a, tab, v, t);
            exchange_rounds_in_time<LAST_ROUND - 1>(a, tab, row, v, t, live);
        } else {
            exchange_rounds<1>(a, tab, row, v, t, live);
            if constexpr (SHUFFLE > 0) shuffle_stages<SHUFFLE - 1>(a, tab, v, t);
        }
        sink.ready();
        if (!live) return;
        Word* __restrict__ const out = sink_memory<Word>(sink);
        Word* const dst0 = Sink::GLOBAL ? out + it.base_out[item] + (u64)RO::base(t, 0) * sample_out() : nullptr;
        // Slot twiddles (ntt/tables.rs, NttPass::output_frequency): w^(m k) = w^(m k_t) w^(m k_j),
        // k = k_t | k_j, from a table [t][m] (one load per thread) and a table [j][m] (one per
        // value; the items of a tile are neighbouring m, so a warp reads neighbouring entries).
        [[maybe_unused]] Constant<A> thread_power{};
        if constexpr (Cfg::TWIDDLE && Cfg::SLOT_TWIDDLE)
            thread_power = load_constant<A>(tab, g_.tw_hi + ((u64)t << g_.tw_lo_bits) + it.m[item]);
        // A constant output weight (the limb's n^-1), once per thread.
        [[maybe_unused]] Constant<A> out_scale{};
        if constexpr (Cfg::WEIGHT == 3) out_scale = load_constant<A>(tab, g_.wt_hi);
#pragma unroll
        for (int g = 0; g < RO::GROUPS; ++g) {
            const int b = RO::base(t, g);
            // In frequency, position i = base + j D holds frequency k = bitrev(i) = bitrev(base)
            // | bitrev(j D); in time, position k holds frequency k.
            const u64 kb = reverse_bits(b, LOG_LEN);
            Word* dst = !Sink::GLOBAL ? nullptr
                        : RO::STEP        ? dst0 + (u64)(g * RO::STEP) * sample_out()
                                          : out + it.base_out[item] + (u64)b * sample_out();
#pragma unroll
            for (int jj = 0; jj < RO::G; ++jj) {
                const int j = g * RO::G + jj;
                const u64 k = Cfg::IN_TIME ? (u64)(b + RO::offset(jj)) : kb | reverse_bits(RO::offset(jj), LOG_LEN);
                if constexpr (Cfg::TWIDDLE && Cfg::SLOT_TWIDDLE) {
                    v[j] = mul_constant(a, v[j], thread_power);
                    v[j] = mul_constant(a, v[j], load_constant<A>(tab, g_.tw_lo + ((u64)j << g_.tw_lo_bits) + it.m[item]));
                } else if constexpr (Cfg::TWIDDLE) {
                    const u32 ex = twiddle_exponent(g_, it.m[item], k);
                    v[j] = times_power(a, v[j], tab, g_.tw_hi, g_.tw_lo, g_.tw_lo_bits, ex);
                }
                if constexpr (Cfg::WEIGHT == 2) {
                    const u64 kk = k * g_.sample_out_weight + it.weight[item];
                    v[j] = times_power(a, v[j], tab, g_.wt_hi, g_.wt_lo, g_.wt_lo_bits, kk);
                } else if constexpr (Cfg::WEIGHT == 3) {
                    v[j] = mul_constant(a, v[j], out_scale);
                }
            }
            // Contiguous groups (unit samples, D = 1) leave in 16-byte pieces: one store
            // instruction per 16 bytes instead of one per word.
            if constexpr (!Sink::GLOBAL) {
#pragma unroll
                for (int jj = 0; jj < RO::G; ++jj)
                    sink.put(it.base_out[item] + (u64)(b + RO::offset(jj)) * sample_out(), v[g * RO::G + jj]);
            } else if constexpr (UNIT_SAMPLES && RO::D == 1 && RO::G % VEC == 0) {
#pragma unroll
                for (int jj = 0; jj < RO::G; jj += VEC) store16(dst + jj, &v[g * RO::G + jj]);
            } else {
#pragma unroll
                for (int jj = 0; jj < RO::G; ++jj) dst[(u64)RO::offset(jj) * sample_out()] = v[g * RO::G + jj];
            }
        }
    }
};
