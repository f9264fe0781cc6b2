//! Shared-memory padding of the exchange buffers: where logical position `i` of a transform's
//! buffer sits, `i + mul_a·(i >> shift_a) + mul_b·(i >> shift_b)`.
//!
//! The padding spreads each warp's strided accesses over the 32 banks. It is additive over
//! positions with disjoint bits, so the kernels add a per-thread base and a compile-time offset
//! per value. Each exchange buffer (between two stages) has its own padding: the writer's scatter
//! and the reader's gather must agree, and the best choice depends on both.

use super::options::ExchangeFormat;

/// One buffer's padding function.
///
/// ```
/// use tensorfft::plan::padding::Padding;
/// let p = Padding { shift_a: 4, mul_a: 1, shift_b: 0, mul_b: 0 };
/// assert_eq!(p.apply(35), 37);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Padding {
    /// Shift of the first term.
    pub shift_a: u32,
    /// Multiplier of the first term.
    pub mul_a: usize,
    /// Shift of the second term.
    pub shift_b: u32,
    /// Multiplier of the second term (0: no second term).
    pub mul_b: usize,
}

impl Padding {
    /// No padding: position `i` stays at `i`.
    ///
    /// ```
    /// assert_eq!(tensorfft::plan::padding::Padding::NONE.apply(100), 100);
    /// ```
    pub const NONE: Padding = Padding {
        shift_a: 0,
        mul_a: 0,
        shift_b: 0,
        mul_b: 0,
    };

    /// One element per 128 bytes: the padding of the CUDA-core kernels.
    ///
    /// ```
    /// use tensorfft::{plan::padding::Padding, ExchangeFormat};
    /// assert_eq!(Padding::per_128_bytes(ExchangeFormat::F32).apply(16), 17);
    /// ```
    pub fn per_128_bytes(exchange: ExchangeFormat) -> Self {
        Padding {
            shift_a: (128 / exchange.bytes()).trailing_zeros(),
            mul_a: 1,
            shift_b: 0,
            mul_b: 0,
        }
    }

    /// Two f16 elements (8 bytes) per 128 bytes: the padding of packed-half-arithmetic plans,
    /// whose pairs of neighbouring values must stay adjacent and 8-byte aligned.
    ///
    /// ```
    /// use tensorfft::plan::padding::Padding;
    /// let p = Padding::pairs_per_128_bytes();
    /// assert_eq!((p.apply(30), p.apply(32), p.apply(64)), (30, 34, 68));
    /// ```
    pub fn pairs_per_128_bytes() -> Self {
        Padding {
            shift_a: 5,
            mul_a: 2,
            shift_b: 0,
            mul_b: 0,
        }
    }

    /// Physical position of logical position `i`.
    ///
    /// ```
    /// use tensorfft::plan::padding::Padding;
    /// let p = Padding { shift_a: 3, mul_a: 1, shift_b: 7, mul_b: 1 };
    /// assert_eq!(p.apply(128), 128 + 16 + 1);
    /// ```
    pub fn apply(&self, i: usize) -> usize {
        i + self.mul_a * (i >> self.shift_a) + self.mul_b * (i >> self.shift_b)
    }

    /// Length of a padded buffer holding `n` logical elements, up to the padded position of
    /// element `n`: buffers placed back to back keep the padding between them (transforms that
    /// share a block, whose strided accesses would otherwise meet in the same banks).
    ///
    /// ```
    /// use tensorfft::{plan::padding::Padding, ExchangeFormat};
    /// assert_eq!(Padding::per_128_bytes(ExchangeFormat::F32).buffer_len(16), 17);
    /// ```
    pub fn buffer_len(&self, n: usize) -> usize {
        self.apply(n)
    }
}

const fn pad(shift_a: u32, mul_a: usize, shift_b: u32, mul_b: usize) -> Padding {
    Padding {
        shift_a,
        mul_a,
        shift_b,
        mul_b,
    }
}

/// Paddings of the exchanges between the stages of a tensor-core plan of length `n` with f32
/// exchange and direct device-memory access (radices from
/// [`tensor_radices`](super::planner::tensor_radices)), one per exchange, first to last. Found
/// by an exhaustive search over two-term paddings of at most 19% extra memory, scoring each by
/// the bank-conflict model in [`shared_wavefronts`](super::bank_conflicts::shared_wavefronts):
/// every warp access is conflict-free. `None` where no table entry exists.
///
/// ```
/// let p = tensorfft::plan::padding::tensor_exchange_paddings(4096).unwrap();
/// assert_eq!(p.len(), 2);
/// ```
pub fn tensor_exchange_paddings(n: usize) -> Option<Vec<Padding>> {
    let table: &[Padding] = match n {
        512 => &[pad(6, 1, 7, 6), pad(3, 1, 0, 0)],
        1024 => &[pad(6, 1, 7, 2), pad(3, 1, 0, 0)],
        2048 => &[pad(6, 1, 7, 2), pad(4, 1, 5, 2)],
        4096 => &[pad(3, 1, 7, 1), pad(4, 2, 10, 1)],
        8192 => &[pad(4, 1, 8, 1), pad(3, 1, 8, 1), pad(5, 1, 7, 1)],
        16384 => &[pad(4, 1, 8, 1), pad(3, 1, 9, 1), pad(5, 1, 7, 1)],
        _ => return None,
    };
    Some(table.to_vec())
}

/// Padding of the stage pair kernel's staged input buffer (`tensor_pair_fft.cuh`, f16 words;
/// buffer 0 of a [`crate::Recipe::staged_pair_input`] plan): its tile arrives in 8-byte stores
/// of consecutive words and each lane reads two neighbouring units' samples (8 bytes) at
/// `2w + (n / 256)·(g + 32q + offset)`. Searched over `i + a·(i >> s) + b·(i >> t)`, counting
/// wavefronts as `bank_conflicts` does: conflict-free for both at 1024 … 8192; at 16384 the
/// reads are and the stores take twice the ideal (no candidate did better).
///
/// ```
/// let p = tensorfft::plan::padding::staged_pair_padding(4096);
/// assert_eq!(p.apply(4096), 4096 + 2 * 128 + 2 * 16);
/// ```
pub fn staged_pair_padding(n: usize) -> Padding {
    match n {
        // Four units 16 bytes apart: 56% more words, the only conflict-free candidate.
        ..=1024 => pad(2, 2, 6, 4),
        16384.. => pad(6, 2, 9, 2),
        _ => pad(5, 2, 8, 2),
    }
}
