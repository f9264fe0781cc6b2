// Programmatic dependent launch (sm_90): every kernel's entry point first lets the next kernel
// of its stream start launching, then waits for the kernels before it.
//
// A kernel launched with the programmatic-stream-serialization attribute may begin while the
// kernel before it on the stream still runs; `griddepcontrol.wait` blocks until that kernel has
// completed and its memory operations are visible, so nothing a pass reads or writes is touched
// before it. `griddepcontrol.launch_dependents` lets the next kernel's blocks be scheduled once
// every block of this grid has issued it (or exited): they take the multiprocessors this grid
// frees and wait there, so the launch latency between two passes overlaps this pass's tail.
// Without the attribute both instructions do nothing, and so they are compiled out below sm_90.

__device__ __forceinline__ void overlap_next_launch_then_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
// Modular arithmetic of the NTT kernels. Every policy keeps values fully reduced in [0, p) and
// multiplies by table constants that come with a precomputed companion (ntt/tables.rs):
//  - Shoup32: u32 words, p < 2^31. w' = floor(w 2^32 / p); q = hi(a w'), r = a w - q p lies in
//    [0, 2p) and 2p < 2^32, so the wrapped 32-bit arithmetic is exact; one conditional subtract.
//  - Shoup64: the same with u64 words, p < 2^63.
//  - Shoup32Full: u32 words, 2^31 < p < 2^32, where 2p no longer fits a word: a sum may carry out
//    of 32 bits (tested as s < a), and the product's remainder r in [0, 2p) is formed in 64 bits.
//  - Goldilocks: p = 2^64 - 2^32 + 1, products reduced with 2^64 = 2^32 - 1 and 2^96 = -1 (mod p);
//    no companion.
// Where 2p fits the word, a difference enters a product unreduced (difference_times below).
// Shoup's additions use the unsigned-minimum trick (Shoup32Full compares instead, its sums may carry): for s = a + b < 2p, min(s, s - p) is s - p when s >= p
// (else s - p wraps above s); for d = a - b (wrapping when a < b), min(d, d + p).

typedef unsigned int u32;
typedef unsigned long long u64;

template <class T>
__device__ __forceinline__ T umin(T a, T b) { return a < b ? a : b; }

__device__ __forceinline__ u32 mul_hi(u32 a, u32 b) { return __umulhi(a, b); }
__device__ __forceinline__ u64 mul_hi(u64 a, u64 b) { return __umul64hi(a, b); }

// Shoup arithmetic in words W (u32: p < 2^31, u64: p < 2^63).
template <class W>
struct Shoup {
    typedef W Word;
    // A product's remainder stays in [0, 2p) for any multiplicand below 2^bits, and 2p fits the
    // word: a difference may go into a product unreduced (difference_times).
    static constexpr bool LAZY_DIFFERENCE = true;
    Word p;
    __device__ __forceinline__ Word add(Word a, Word b) const {
        Word s = a + b;
        return umin(s, s - p);
    }
    __device__ __forceinline__ Word sub(Word a, Word b) const {
        Word d = a - b;
        return umin(d, d + p);
    }
    // a * w mod p for a table constant w with companion ws = floor(w 2^bits / p).
    __device__ __forceinline__ Word mul(Word a, Word w, Word ws) const {
        Word q = mul_hi(a, ws);
        Word r = a * w - q * p;
        return umin(r, r - p);
    }
};
typedef Shoup<u32> Shoup32;
typedef Shoup<u64> Shoup64;

// u32 words for primes between 2^31 and 2^32 (see the top of this file).
struct Shoup32Full {
    typedef u32 Word;
    static constexpr bool LAZY_DIFFERENCE = false;  // x - y + p may pass 2^32
    Word p;
    __device__ __forceinline__ Word add(Word a, Word b) const {
        const Word s = a + b;  // a + b < 2p < 2^33: the true sum is s, or s + 2^32 when s < a
        return (s < a || s >= p) ? s - p : s;
    }
    __device__ __forceinline__ Word sub(Word a, Word b) const {
        const Word d = a - b;
        return a < b ? d + p : d;
    }
    __device__ __forceinline__ Word mul(Word a, Word w, Word ws) const {
        const u32 q = __umulhi(a, ws);
        const u64 r = (u64)a * w - (u64)q * p;  // in [0, 2p)
        return (Word)(r >= p ? r - p : r);
    }
};

// Goldilocks in 32-bit halves with the carry chain (add.cc / addc / subc), so every carry and
// borrow folds in as an add or subtract of its all-ones mask instead of a 64-bit compare and
// select (2^64 = EPSILON and 2^96 = -1 mod p). These kernels are bound by the ALU pipe (half
// rate): a butterfly (add, sub, product) takes 27 ALU and 11 multiply-add instructions in SASS,
// against 41 and 11 for the same arithmetic written with 64-bit compares and selects.
struct Goldilocks {
    typedef u64 Word;
    static constexpr bool LAZY_DIFFERENCE = false;  // the product wants inputs below p
    Word p;  // 0xFFFFFFFF00000001, kept for a uniform interface
    static constexpr u64 EPSILON = 0xFFFFFFFFull;  // 2^64 mod p

    static __device__ __forceinline__ u64 join(u32 lo, u32 hi) { return ((u64)hi << 32) | lo; }
    static __device__ __forceinline__ u32 low(u64 x) { return (u32)x; }
    static __device__ __forceinline__ u32 high(u64 x) { return (u32)(x >> 32); }

    // s (with carry c, 0 or 1, from an earlier sum) reduced into [0, p) given s + c 2^64 < 2p:
    // s + EPSILON when there was a carry (no wrap then) or when s >= p (the add wraps exactly
    // then, as p + EPSILON = 2^64), else s.
    static __device__ __forceinline__ u64 canonical(u32 s0, u32 s1, u32 c) {
        u32 u0, u1, over;
        asm("add.cc.u32 %0, %3, 0xFFFFFFFF;\n\t"
            "addc.cc.u32 %1, %4, 0;\n\t"
            "addc.u32 %2, %5, 0;"
            : "=&r"(u0), "=&r"(u1), "=&r"(over)
            : "r"(s0), "r"(s1), "r"(c));
        return over ? join(u0, u1) : join(s0, s1);
    }

    // a + b in 32-bit halves (s0, s1) and its carry c (0 or 1).
    static __device__ __forceinline__ void sum(Word a, Word b, u32& s0, u32& s1, u32& c) {
        asm("add.cc.u32 %0, %3, %5;\n\t"
            "addc.cc.u32 %1, %4, %6;\n\t"
            "addc.u32 %2, 0, 0;"
            : "=&r"(s0), "=&r"(s1), "=&r"(c)
            : "r"(low(a)), "r"(high(a)), "r"(low(b)), "r"(high(b)));
    }

    // a + b for a, b in [0, p).
    __device__ __forceinline__ Word add(Word a, Word b) const {
        u32 s0, s1, c;
        sum(a, b, s0, s1, c);
        return canonical(s0, s1, c);
    }

    // a - b for a, b in [0, p): on a borrow the wrapped difference plus p, which is the
    // difference minus EPSILON (mod 2^64) and cannot wrap again.
    __device__ __forceinline__ Word sub(Word a, Word b) const {
        u32 d0, d1, m;
        asm("sub.cc.u32 %0, %3, %5;\n\t"
            "subc.cc.u32 %1, %4, %6;\n\t"
            "subc.u32 %2, 0, 0;\n\t"
            "sub.cc.u32 %0, %0, %2;\n\t"
            "subc.u32 %1, %1, 0;"
            : "=&r"(d0), "=&r"(d1), "=&r"(m)
            : "r"(low(a)), "r"(high(a)), "r"(low(b)), "r"(high(b)));
        return join(d0, d1);
    }

    // a w for a, w in [0, p): the 128-bit product x3 2^96 + x2 2^64 + (x1 2^32 + x0) is
    // congruent to E + B with E = (x1 2^32 + x0) - x3 (plus p on a borrow: minus EPSILON, no
    // wrap as E >= 2^64 - 2^32 then) and B = x2 EPSILON = x2 2^32 - x2 < 2^64 - 2^33 + 2; their
    // sum is below 2p and is reduced as in add.
    __device__ __forceinline__ Word mul(Word a, Word w, Word) const {
        const u64 lo = a * w;
        const u64 hi = __umul64hi(a, w);
        u32 r0, r1, c;
        asm("{\n\t"
            ".reg .u32 e0, e1, m, b0, b1;\n\t"
            "sub.cc.u32 e0, %3, %6;\n\t"
            "subc.cc.u32 e1, %4, 0;\n\t"
            "subc.u32 m, 0, 0;\n\t"
            "sub.cc.u32 e0, e0, m;\n\t"
            "subc.u32 e1, e1, 0;\n\t"
            "sub.cc.u32 b0, 0, %5;\n\t"
            "subc.u32 b1, %5, 0;\n\t"
            "add.cc.u32 %0, e0, b0;\n\t"
            "addc.cc.u32 %1, e1, b1;\n\t"
            "addc.u32 %2, 0, 0;\n\t"
            "}"
            : "=&r"(r0), "=&r"(r1), "=&r"(c)
            : "r"(low(lo)), "r"(high(lo)), "r"(low(hi)), "r"(high(hi)));
        return canonical(r0, r1, c);
    }
};

// Goldilocks with part of the ALU work moved to the integer multiply-add pipe (also half rate,
// and a third busy in the kernels above): canonical sums add EPSILON as over * 0xFFFFFFFF and
// products reduce with one wide multiply-add, so a butterfly takes 19 ALU and 18 multiply-add
// instructions. It needs a few more registers: kernels that reach 64 registers with Goldilocks
// (direct column passes of 16 values per thread, rows of 8192) went to 68-74 and one
// 512-thread block per multiprocessor, and lost (H200, Goldilocks 2^24 0.565 -> 0.643 ms);
// the others gained (2^10 x 65536 0.862 -> 0.798 ms, the 2048-point row pass of 2^22 70 -> 63
// us; bench/NOTES.md step 40). The planner picks it per pass (ntt_source.rs).
struct GoldilocksWide : Goldilocks {
    // s (with carry c, 0 or 1, from an earlier sum) reduced into [0, p) given s + c 2^64 < 2p:
    // s + EPSILON when there was a carry (no wrap then) or when s >= p (the add wraps exactly
    // then, as p + EPSILON = 2^64), else s. Only the add's carry is formed; the EPSILON is then
    // added as over * 0xFFFFFFFF with a multiply-add (the integer multiply pipe, which has room
    // while the ALU pipe bounds these kernels) instead of two selects.
    static __device__ __forceinline__ u64 canonical_by_mad(u32 s0, u32 s1, u32 c) {
        u32 r0, r1, over;
        asm("{\n\t"
            ".reg .u32 t;\n\t"
            "add.cc.u32 t, %3, 0xFFFFFFFF;\n\t"
            "addc.cc.u32 t, %4, 0;\n\t"
            "addc.u32 %2, %5, 0;\n\t"
            "mad.lo.cc.u32 %0, %2, 0xFFFFFFFF, %3;\n\t"
            "addc.u32 %1, %4, 0;\n\t"
            "}"
            : "=&r"(r0), "=&r"(r1), "=&r"(over)
            : "r"(s0), "r"(s1), "r"(c));
        return join(r0, r1);
    }

    // a + b for a, b in [0, p).
    __device__ __forceinline__ Word add(Word a, Word b) const {
        u32 s0, s1, c;
        sum(a, b, s0, s1, c);
        return canonical_by_mad(s0, s1, c);
    }

    // a w for a, w in [0, p): the 128-bit product x3 2^96 + x2 2^64 + lo is congruent to
    // lo + x2 EPSILON - x3 = lo + W - EPSILON with W = x2 EPSILON + (EPSILON - x3) (one wide
    // multiply-add; below 2^64 as x2 EPSILON + EPSILON <= 2^64 - 2^32). With S = lo + W: on a
    // carry, S + 2^64 - EPSILON = S + p, so S itself (below p); otherwise S - EPSILON, which is
    // below p, and on a borrow that plus p, i.e. minus EPSILON once more (no second borrow).
    __device__ __forceinline__ Word mul(Word a, Word w, Word) const {
        const u64 lo = a * w;
        const u64 hi = __umul64hi(a, w);
        const u64 wide = (u64)high(hi) ^ EPSILON;  // EPSILON - x3
        u32 r0, r1;
        asm("{\n\t"
            ".reg .u64 v;\n\t"
            ".reg .u32 v0, v1, s0, s1, c, m;\n\t"
            "mad.wide.u32 v, %4, 0xFFFFFFFF, %5;\n\t"
            "mov.b64 {v0, v1}, v;\n\t"
            "add.cc.u32 s0, %2, v0;\n\t"
            "addc.cc.u32 s1, %3, v1;\n\t"
            "addc.u32 c, 0, 0;\n\t"
            "sub.u32 m, c, 1;\n\t"
            "sub.cc.u32 s0, s0, m;\n\t"
            "subc.cc.u32 s1, s1, 0;\n\t"
            "subc.u32 m, 0, 0;\n\t"
            "sub.cc.u32 %0, s0, m;\n\t"
            "subc.u32 %1, s1, 0;\n\t"
            "}"
            : "=&r"(r0), "=&r"(r1)
            : "r"(low(lo)), "r"(high(lo)), "r"(low(hi)), "l"(wide));
        return join(r0, r1);
    }
};

// A table entry: the value and its companion, adjacent in memory (ntt/tables.rs).
template <class A>
struct Constant {
    typename A::Word w, ws;
};

template <class A>
__device__ __forceinline__ Constant<A> load_constant(const typename A::Word* table, u64 index) {
    Constant<A> c;
    if constexpr (sizeof(typename A::Word) == 4) {
        uint2 v = __ldg(reinterpret_cast<const uint2*>(table) + index);
        c.w = v.x;
        c.ws = v.y;
    } else {
        ulonglong2 v = __ldg(reinterpret_cast<const ulonglong2*>(table) + index);
        c.w = v.x;
        c.ws = v.y;
    }
    return c;
}

template <class A>
__device__ __forceinline__ typename A::Word mul_constant(const A& a, typename A::Word x, Constant<A> c) {
    return a.mul(x, c.w, c.ws);
}

// (x - y) c for x, y in [0, p), the lower output of a decimation-in-frequency butterfly. Shoup's
// product (q = hi(a ws), r = a w - q p) has r in [0, 2p) for every a below 2^bits, as
// a w / p - q < a / 2^bits + 1 < 2; so where 2p fits the word (A::LAZY_DIFFERENCE) the product
// takes x - y + p, in (0, 2p), unreduced: one add instead of a subtract and a minimum
// (model and test: shoup_difference_times in ntt/word_arithmetic.rs).
template <class A>
__device__ __forceinline__ typename A::Word difference_times(const A& a, typename A::Word x, typename A::Word y,
                                                             Constant<A> c) {
    if constexpr (A::LAZY_DIFFERENCE) {
        return a.mul(x - y + a.p, c.w, c.ws);
    } else {
        return a.mul(a.sub(x, y), c.w, c.ws);
    }
}
// One pass of an NTT schedule (ntt/schedule.rs): for each item (a line of Cfg::LEN samples), an
// NTT over samples geo.sample_in apart, written geo.sample_out apart, its outputs multiplied by
// the four-step twiddle w_root^(m k), the first pass's inputs or the last pass's outputs by a
// weight (negacyclic twist, inverse scale).
//
// A block takes a tile of Cfg::TILE consecutive items into shared memory (neighbouring threads
// on neighbouring items when the items are the contiguous side, else on neighbouring samples),
// placing sample s (natural local index) at row position s. Each item's NTT is a radix-2
// decimation in frequency run in rounds: a thread holds Cfg::VALUES samples in registers and
// runs up to Cfg::ROUND_STAGES (at most log2(VALUES)) stages on them, then the block exchanges
// through shared memory (Cfg::ROUND_SIZES: the planner's split, NttPass::kernel_round_sizes). With one
// stage per round that is the block-synchronous baseline of seed 000: a barrier after every
// radix-2 stage. The store
// reads frequency k from row position bitrev(k), multiplies, and writes in the output order.

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

__device__ __forceinline__ u64 reverse_bits(u64 c, int bits) {
    return bits == 0 ? c : (u64)(__brevll(c) >> (64 - bits));
}


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

    // The four-step twiddle's exponent (m k) mod root. The root is at most 2^32 (the largest
    // two-adicity, Goldilocks'), so tw_mask < 2^32 and the product's low 32 bits suffice.
    __device__ static u32 twiddle_exponent(const NttGeometry& g, u64 m, u64 k) {
        return ((u32)m * (u32)k) & (u32)g.tw_mask;
    }

    __device__ static void run(const Word* __restrict__ in, Word* __restrict__ out, const Word* __restrict__ tables,
                               const Word* __restrict__ moduli, const NttGeometry& g) {
        if constexpr (Cfg::DIRECT) {
            run_direct(in, out, tables, moduli, g);
        } else {
            run_staged(in, out, tables, moduli, g);
        }
    }

    // run_direct_to or run_staged_to, as the pass is.
    template <class Sink>
    __device__ static void run_to(const Word* __restrict__ in, u64 in_origin, const Sink& sink,
                                  const Word* __restrict__ tables, const Word* __restrict__ moduli,
                                  const NttGeometry& g) {
        if constexpr (Cfg::DIRECT) {
            run_direct_to(in, in_origin, sink, tables, moduli, g);
        } else {
            run_staged_to(in, in_origin, sink, tables, moduli, g);
        }
    }

    // Any local orders: the tile goes through shared memory on the way in and out.
    __device__ static void run_staged(const Word* __restrict__ in, Word* __restrict__ out,
                                      const Word* __restrict__ tables, const Word* __restrict__ moduli,
                                      const NttGeometry& g) {
        run_staged_to(in, 0, GlobalSink<Word>{out}, tables, moduli, g);
    }

    // run_staged with its loads at `in` minus `in_origin` and its outputs to `sink` (as
    // run_direct_to).
    template <class Sink>
    __device__ static void run_staged_to(const Word* __restrict__ in, u64 in_origin, const Sink& sink,
                                         const Word* __restrict__ tables, const Word* __restrict__ moduli,
                                         const NttGeometry& g) {
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
            Word x = in[(it.base_in[item] - in_origin) + (u64)r * (Cfg::SAMPLE_IN ? Cfg::SAMPLE_IN : g.sample_in)];
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
            if constexpr (Cfg::TWIDDLE || Cfg::WEIGHT == 2) {
                A a{it.p[item]};
                const Word* t = tables + 2 * it.table[item];
                if constexpr (Cfg::TWIDDLE) {
                    const u32 ex = twiddle_exponent(g, it.m[item], (u64)k);
                    y = times_power(a, y, t, g.tw_hi, g.tw_lo, g.tw_lo_bits, ex);
                }
                if constexpr (Cfg::WEIGHT == 2) {
                    const u64 kk = (u64)k * g.sample_out_weight + it.weight[item];
                    y = times_power(a, y, t, g.wt_hi, g.wt_lo, g.wt_lo_bits, kk);
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

    // The radix-2 stages of round K on the thread's values. The pair (i, i + h) of stage s takes
    // the root w_LEN^((i mod h) << s), entry i mod h of the stage's table: neighbouring lanes
    // (neighbouring i) read neighbouring entries. Within a group, i mod h is
    // (base mod D) + (j mod (h/D)) D, so each stage's roots sit at compile-time offsets from one
    // per-group address. The pass's
    // last stage (D = 1, h = 1) has the root 1 throughout: no product. (Its other butterflies
    // of root 1, j mod h = 0 in a last round, are not skipped: that let ptxas schedule rows of
    // 4096 and 8192 into 86 registers instead of 64, one 512-thread block per multiprocessor.)
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
                    if (Rd::D == 1 && half == 1) {
                        v[j + half] = a.sub(x, y);
                    } else {
                        const Constant<A> w = load_constant<A>(w_base, (u64)((jj & (half - 1)) * Rd::D));
                        v[j + half] = difference_times(a, x, y, w);
                    }
                }
            }
        }
    }

    template <int K>
    __device__ __forceinline__ static void load_row(const Word* row, Word (&v)[VALUES], int t) {
        using Rd = Round<K>;
#pragma unroll
        for (int g = 0; g < Rd::GROUPS; ++g) {
            const Word* p = row + position(Rd::base(t, g));
#pragma unroll
            for (int jj = 0; jj < Rd::G; ++jj) v[g * Rd::G + jj] = p[Rd::row_offset(jj)];
        }
    }

    template <int K>
    __device__ __forceinline__ static void store_row(Word* row, const Word (&v)[VALUES], int t) {
        using Rd = Round<K>;
#pragma unroll
        for (int g = 0; g < Rd::GROUPS; ++g) {
            Word* p = row + position(Rd::base(t, g));
#pragma unroll
            for (int jj = 0; jj < Rd::G; ++jj) p[Rd::row_offset(jj)] = v[g * Rd::G + jj];
        }
    }

    // Rounds K, K + 1, ..., LAST_ROUND through the item's shared-memory row: each stores the
    // previous round's values, waits for the block, loads its own and runs its stages. Returns
    // (in v) the last round's values.
    template <int K>
    __device__ __forceinline__ static void exchange_rounds(const A& a, const Word* roots, Word* row, Word (&v)[VALUES],
                                                           int t, bool live) {
        if constexpr (K <= LAST_ROUND) {
            if (live) store_row<K - 1>(row, v, t);
            __syncthreads();
            if (live) {
                load_row<K>(row, v, t);
                stages<K>(a, roots, v, t);
            }
            exchange_rounds<K + 1>(a, roots, row, v, t, live);
        }
    }

    // Radix-2 stage LOG_LEN - 1 - B (butterfly half-distance 2^B) between lanes. After the
    // rounds, sample i = base + j D of a thread has D = 2^SHUFFLE and base mod D = t mod D
    // (Round::base), so bit B of every sample the thread holds is bit B of t, and the partner
    // sample i ^ 2^B sits in the same register of lane ^ 2^B. Each lane computes its half of
    // the butterfly: x + y (bit clear) or (x - y) w with the lower index's root
    // w_LEN^((i mod 2^B) << s) = w_LEN^((t mod 2^B) << s), entry t mod 2^B of stage s's table
    // (bit set; w = 1 for B = 0). Every
    // lane of the warp takes part (items' threads are aligned groups of consecutive lanes).
    template <int B>
    __device__ __forceinline__ static void shuffle_stage(const A& a, const Word* roots, Word (&v)[VALUES], int t) {
        constexpr int H = 1 << B;
        constexpr int S = LOG_LEN - 1 - B;
        const bool upper = (t >> B) & 1;
        Constant<A> w{};
        if constexpr (B > 0) w = load_constant<A>(roots, (u64)(stage_roots(S) + (t & (H - 1))));
#pragma unroll
        for (int j = 0; j < VALUES; ++j) {
            const Word other = __shfl_xor_sync(0xffffffffu, v[j], H);
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

    // Natural local input and bit-reversed local output (decimation in frequency leaves frequency
    // k at position bitrev(k), which is where it belongs): the first round reads its samples
    // straight from device memory and the last round writes straight back, so shared memory only
    // carries the exchanges between rounds. The TILE items are computed at once; neighbouring
    // threads take neighbouring items (Cfg::ITEMS_FAST_IN: the items are the contiguous side) or
    // neighbouring samples.
    __device__ static void run_direct(const Word* __restrict__ in, Word* __restrict__ out,
                                      const Word* __restrict__ tables, const Word* __restrict__ moduli,
                                      const NttGeometry& g_) {
        run_direct_to(in, 0, GlobalSink<Word>{out}, tables, moduli, g_);
    }

    // run_direct with its loads at `in` minus `in_origin` (a fused pass's input in shared memory:
    // ntt_cluster.cuh) and its outputs to `sink` (GlobalSink: device memory; a cluster sink:
    // another block's shared memory).
    template <class Sink>
    __device__ static void run_direct_to(const Word* __restrict__ in, u64 in_origin, const Sink& sink,
                                         const Word* __restrict__ tables, const Word* __restrict__ moduli,
                                         const NttGeometry& g_) {
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
        auto sample_in = [&](int) -> u64 { return Cfg::SAMPLE_IN ? Cfg::SAMPLE_IN : g_.sample_in; };
        auto sample_out = [&](int) -> u64 { return Cfg::SAMPLE_OUT ? Cfg::SAMPLE_OUT : g_.sample_out; };
        Word* row = rows + item * ROW;
        using R0 = Round<0>;
        using RL = Round<LAST_ROUND>;
        Word v[VALUES];
        if (live) {
            const Word* src0 = in + (it.base_in[item] - in_origin) + (u64)R0::base(t, 0) * sample_in(0);
#pragma unroll
            for (int g = 0; g < R0::GROUPS; ++g) {
                const int b = R0::base(t, g);
                const Word* src = R0::STEP ? src0 + (u64)(g * R0::STEP) * sample_in(g)
                                           : in + (it.base_in[item] - in_origin) + (u64)b * sample_in(g);
#pragma unroll
                for (int jj = 0; jj < R0::G; ++jj) {
                    const int j = g * R0::G + jj;
                    v[j] = src[(u64)R0::offset(jj) * sample_in(g)];
                    if constexpr (Cfg::WEIGHT == 1) {
                        const u64 n = (u64)(b + R0::offset(jj)) * g_.sample_in_weight + it.weight[item];
                        v[j] = times_power(a, v[j], tab, g_.wt_hi, g_.wt_lo, g_.wt_lo_bits, n);
                    }
                }
            }
            stages<0>(a, tab, v, t);
        }
        exchange_rounds<1>(a, tab, row, v, t, live);
        if constexpr (SHUFFLE > 0) shuffle_stages<SHUFFLE - 1>(a, tab, v, t);
        sink.ready();
        if (!live) return;
        // Position i = base + j D holds frequency k = bitrev(i) = bitrev(base) | bitrev(j D).
        Word* __restrict__ const out = sink_memory<Word>(sink);
        Word* const dst0 = Sink::GLOBAL ? out + it.base_out[item] + (u64)RL::base(t, 0) * sample_out(0) : nullptr;
        // Slot twiddles (ntt/tables.rs): w^(m k) = w^(m k_t) w^(m k_j), k = k_t | k_j, from a
        // table [t][m] (one load per thread) and a table [j][m] (one per value; the items of a
        // tile are neighbouring m, so a warp reads neighbouring entries).
        [[maybe_unused]] Constant<A> thread_power{};
        if constexpr (Cfg::TWIDDLE && Cfg::SLOT_TWIDDLE)
            thread_power = load_constant<A>(tab, g_.tw_hi + ((u64)t << g_.tw_lo_bits) + it.m[item]);
#pragma unroll
        for (int g = 0; g < RL::GROUPS; ++g) {
            const int b = RL::base(t, g);
            const u64 kb = reverse_bits(b, LOG_LEN);
            Word* dst = !Sink::GLOBAL ? nullptr
                        : RL::STEP        ? dst0 + (u64)(g * RL::STEP) * sample_out(g)
                                          : out + it.base_out[item] + (u64)b * sample_out(g);
#pragma unroll
            for (int jj = 0; jj < RL::G; ++jj) {
                const int j = g * RL::G + jj;
                const u64 k = kb | reverse_bits(RL::offset(jj), LOG_LEN);
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
                }
            }
            // Contiguous groups (unit samples, D = 1) leave in 16-byte pieces: one store
            // instruction per 16 bytes instead of one per word.
            constexpr int VEC = 16 / sizeof(Word);
            if constexpr (!Sink::GLOBAL) {
#pragma unroll
                for (int jj = 0; jj < RL::G; ++jj)
                    sink.put(it.base_out[item] + (u64)(b + RL::offset(jj)) * sample_out(g), v[g * RL::G + jj]);
            } else if constexpr (UNIT_SAMPLES && RL::D == 1 && RL::G % VEC == 0) {
#pragma unroll
                for (int jj = 0; jj < RL::G; jj += VEC) store16(dst + jj, &v[g * RL::G + jj]);
            } else {
#pragma unroll
                for (int jj = 0; jj < RL::G; ++jj) dst[(u64)RL::offset(jj) * sample_out(g)] = v[g * RL::G + jj];
            }
        }
    }
};

struct Cfg_ntt_u32d_l256_v8_r3_t16_c16_1101_tw2_w0_s256x256 {
    using Arith = Shoup32;
    static constexpr int LEN = 256;
    static constexpr int LOG_LEN = 8;
    static constexpr int VALUES = 8;
    static constexpr int LOG_VALUES = 3;
    static constexpr int ROUND_STAGES = 3;
    static constexpr int ROUND_SIZES[] = {3, 3, 2};
    static constexpr int SHUFFLE_STAGES = 0;
    static constexpr int TILE = 16;
    static constexpr int THREADS = 512;
    static constexpr int ROW_TERMS[4] = {1, 2, 1, 6};
    static constexpr int ROW = 322;
    static constexpr bool ITEMS_FAST_IN = true;
    static constexpr bool ITEMS_FAST_OUT = true;
    static constexpr bool ITEMS_BY_INPUT = false;
    static constexpr bool REV_IN = false;
    static constexpr bool REV_OUT = true;
    static constexpr bool TWIDDLE = true;
    static constexpr bool SLOT_TWIDDLE = true;
    static constexpr bool DIRECT = true;
    static constexpr u64 SAMPLE_IN = 256;
    static constexpr u64 SAMPLE_OUT = 256;
    static constexpr int WEIGHT = 0;
};
extern "C" __global__ void __launch_bounds__(512, 4) ntt_u32d_l256_v8_r3_t16_c16_1101_tw2_w0_s256x256(
    const Shoup32::Word* in, Shoup32::Word* out, const Shoup32::Word* tables,
    const Shoup32::Word* moduli, NttGeometry geometry) {
    overlap_next_launch_then_wait();
    NttPass<Cfg_ntt_u32d_l256_v8_r3_t16_c16_1101_tw2_w0_s256x256>::run(in, out, tables, moduli, geometry);
}
