//! Random test data and oracle comparisons shared by `demo`, `check` and `bench`.
//!
//! A case's input is random in [-1, 1]. Up to [`WHOLE_INPUT_MAX`] elements it is drawn whole on
//! the host; beyond that (batches of more than 2^32 elements would need tens of GB of host
//! memory) one random block of [`TILE_BLOCK`] elements is drawn and uploaded again and again into
//! consecutive slices of the device buffer, so element `i` of the batch is `block[i % TILE_BLOCK]`.
//! The block length is odd, so transforms of any power-of-two size start at different offsets of
//! it and hold different data. The oracle reads the sampled transforms from the same block: it
//! sees exactly what the GPU saw.

use num_complex::Complex;
use rand::{Rng, SeedableRng};
use tensorfft::cpu::oracle::{oracle_c2c_nd, relative_l2};
use tensorfft::{DeviceBuffer, Direction, Element, Gpu, Normalization};

/// Inputs up to this many elements are drawn whole on the host.
pub const WHOLE_INPUT_MAX: usize = 1 << 28;
/// Elements of the random block larger inputs repeat (odd: coprime with every power of two).
pub const TILE_BLOCK: usize = (1 << 26) - 1;
/// Elements read back from the device at a time by the whole-buffer checks.
const READ_CHUNK: usize = 1 << 26;
/// Elements of all sampled transforms together that the oracle is run on, per check.
const SAMPLE_BUDGET: usize = 1 << 23;

/// A seed that differs between runs (fresh data every time), printed so a failure can be replayed.
pub fn fresh_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    (t as u64) ^ ((t >> 64) as u64) ^ (std::process::id() as u64) << 32
}

/// `len` values with real and imaginary parts uniform in [-1, 1], rounded to `T`. Filled in
/// parallel chunks so that gigabyte batches stay quick.
pub fn random<T: Element>(len: usize, seed: u64) -> Vec<T> {
    let mut out = vec![T::from_c64(Complex::new(0.0, 0.0)); len];
    let chunk = 1 << 20;
    std::thread::scope(|s| {
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        let per = out.len().div_ceil(threads).div_ceil(chunk) * chunk;
        for (t, part) in out.chunks_mut(per.max(chunk)).enumerate() {
            s.spawn(move || {
                let mut rng = rand::rngs::StdRng::seed_from_u64(
                    seed ^ (t as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                );
                for v in part.iter_mut() {
                    *v = T::from_c64(Complex::new(
                        rng.random_range(-1.0..=1.0),
                        rng.random_range(-1.0..=1.0),
                    ));
                }
            });
        }
    });
    out
}

/// The random input of one case: `len` elements, element `i` being `block[i % block.len()]`
/// (the block is the whole input up to [`WHOLE_INPUT_MAX`] elements).
///
/// ```text
/// let input = CaseInput::<Complex<f16>>::random((1 << 20) * 4100, seed); // 2^26 - 1 on the host
/// let d = input.upload(&gpu)?;                    // 17 GB on the device, block by block
/// let x = input.gather(1 << 20, &[0, 4099]);      // what the GPU saw, for the oracle
/// ```
pub struct CaseInput<T: Element> {
    block: Vec<T>,
    len: usize,
}

impl<T: Element> CaseInput<T> {
    /// Fresh random input of `len` elements from `seed`.
    pub fn random(len: usize, seed: u64) -> Self {
        let block_len = if len <= WHOLE_INPUT_MAX {
            len
        } else {
            TILE_BLOCK
        };
        Self::tiled(random(block_len, seed), len)
    }

    /// `block` repeated to `len` elements.
    pub fn tiled(block: Vec<T>, len: usize) -> Self {
        assert!(!block.is_empty(), "an input block of no elements");
        CaseInput { block, len }
    }

    /// The same input with every element multiplied by `factor` (rounded to `T`): the block
    /// is scaled, so a tiled input stays tiled.
    pub fn scaled(&self, factor: f64) -> Self {
        let block = self
            .block
            .iter()
            .map(|&e| T::from_c64(e.to_c64() * factor))
            .collect();
        CaseInput {
            block,
            len: self.len,
        }
    }

    /// Whether the input repeats a block (rather than being drawn whole).
    pub fn is_tiled(&self) -> bool {
        self.block.len() < self.len
    }

    /// The whole input, when it is drawn whole on the host.
    pub fn whole(&self) -> Option<&[T]> {
        (!self.is_tiled()).then_some(&self.block[..])
    }

    /// Elements `offset .. offset + len` of the input.
    pub fn range(&self, offset: usize, len: usize) -> Vec<T> {
        let b = self.block.len();
        let mut out = Vec::with_capacity(len);
        let mut i = offset % b;
        while out.len() < len {
            let take = (b - i).min(len - out.len());
            out.extend_from_slice(&self.block[i..i + take]);
            i = 0;
        }
        out
    }

    /// A new device buffer holding the input.
    pub fn upload(&self, gpu: &Gpu) -> tensorfft::Result<DeviceBuffer<T>> {
        if let Some(whole) = self.whole() {
            return gpu.upload(whole);
        }
        let mut buffer = gpu.alloc::<T>(self.len)?;
        self.upload_into(gpu, &mut buffer)?;
        Ok(buffer)
    }

    /// Copies the input into `buffer` (of the input's length), block by block.
    pub fn upload_into(&self, gpu: &Gpu, buffer: &mut DeviceBuffer<T>) -> tensorfft::Result<()> {
        if let Some(whole) = self.whole() {
            return gpu.upload_into(whole, buffer);
        }
        let b = self.block.len();
        for offset in (0..self.len).step_by(b) {
            let take = b.min(self.len - offset);
            gpu.upload_at(&self.block[..take], buffer, offset)?;
        }
        Ok(())
    }

    /// The sampled transforms of `n` elements each, widened to f64, back to back.
    pub fn gather(&self, n: usize, samples: &[usize]) -> Vec<Complex<f64>> {
        samples
            .iter()
            .flat_map(|&b| self.range(b * n, n).into_iter().map(|e| e.to_c64()))
            .collect()
    }
}

/// Indices of up to `count` transforms spread over a batch, always including the first and last.
///
/// ```text
/// sample_transforms(4100, 8) == [0, 585, 1171, 1756, 2342, 2927, 3513, 4099]
/// ```
pub fn sample_transforms(batch: usize, count: usize) -> Vec<usize> {
    if batch <= count {
        return (0..batch).collect();
    }
    if count <= 1 {
        return vec![0];
    }
    let mut v: Vec<usize> = (0..count).map(|i| i * (batch - 1) / (count - 1)).collect();
    v.dedup();
    v
}

/// How many transforms of `n` elements to check against the oracle: 64 of short ones, fewer of
/// long ones (8 of 2^20), at least 2.
///
/// ```text
/// (sample_count(4096), sample_count(1 << 20), sample_count(1 << 26)) == (64, 8, 2)
/// ```
pub fn sample_count(n: usize) -> usize {
    (SAMPLE_BUDGET / n.max(1)).clamp(2, 64)
}

/// The sampled transforms of `n` elements of a device buffer, widened to f64, back to back.
pub fn download_samples<T: Element>(
    gpu: &Gpu,
    buffer: &DeviceBuffer<T>,
    n: usize,
    samples: &[usize],
) -> tensorfft::Result<Vec<Complex<f64>>> {
    let mut out = Vec::with_capacity(samples.len() * n);
    for &b in samples {
        let t = gpu.download_range(buffer, b * n, n)?;
        out.extend(t.into_iter().map(|e| e.to_c64()));
    }
    Ok(out)
}

/// The oracle (`oracle_c2c_nd` over `dims`) applied to each transform of `x`, transforms
/// spread over the cores.
pub fn oracle_each(
    x: &[Complex<f64>],
    dims: &[usize],
    dir: Direction,
    norm: Normalization,
) -> Vec<Complex<f64>> {
    let n: usize = dims.iter().product();
    let mut want = vec![Complex::new(0.0, 0.0); x.len()];
    let threads = std::thread::available_parallelism()
        .map(|t| t.get())
        .unwrap_or(1);
    let per = (x.len() / n).div_ceil(threads).max(1) * n;
    std::thread::scope(|s| {
        for (src, dst) in x.chunks(per).zip(want.chunks_mut(per)) {
            s.spawn(move || {
                for (a, b) in src.chunks(n).zip(dst.chunks_mut(n)) {
                    b.copy_from_slice(&oracle_c2c_nd(a, dims, dir, norm));
                }
            });
        }
    });
    want
}

/// Relative L2 error of `got` (sampled output transforms, back to back) against the oracle
/// applied to `x` (the same transforms of the input).
pub fn oracle_error(
    x: &[Complex<f64>],
    got: &[Complex<f64>],
    dims: &[usize],
    dir: Direction,
    norm: Normalization,
) -> f64 {
    relative_l2(got, &oracle_each(x, dims, dir, norm))
}

/// Relative L2 error of the sampled transforms of host output `y` against the oracle applied to
/// the same transforms of host input `x` (both whole batches of `dims` transforms).
pub fn sampled_error<T: Element>(
    x: &[T],
    y: &[T],
    dims: &[usize],
    dir: Direction,
    norm: Normalization,
    samples: &[usize],
) -> f64 {
    let n: usize = dims.iter().product();
    let pick = |v: &[T]| -> Vec<Complex<f64>> {
        samples
            .iter()
            .flat_map(|&b| v[b * n..(b + 1) * n].iter().map(|e| e.to_c64()))
            .collect()
    };
    oracle_error(&pick(x), &pick(y), dims, dir, norm)
}

/// Whether every element of `v` is finite (no poison left, no overflow).
pub fn all_finite<T: Element>(v: &[T]) -> bool {
    v.iter().all(|e| {
        let c = e.to_c64();
        c.re.is_finite() && c.im.is_finite()
    })
}

/// Whether every element of a device buffer is finite, read back in chunks (so batches larger
/// than the host's memory can be checked whole).
pub fn device_all_finite<T: Element>(
    gpu: &Gpu,
    buffer: &DeviceBuffer<T>,
) -> tensorfft::Result<bool> {
    for offset in (0..buffer.len()).step_by(READ_CHUNK) {
        let len = READ_CHUNK.min(buffer.len() - offset);
        if !all_finite(&gpu.download_range(buffer, offset, len)?) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether two device buffers of the same length hold the same bits, read back in chunks.
pub fn device_bits_equal<T: Element>(
    gpu: &Gpu,
    a: &DeviceBuffer<T>,
    b: &DeviceBuffer<T>,
) -> tensorfft::Result<bool> {
    if a.len() != b.len() {
        return Ok(false);
    }
    for offset in (0..a.len()).step_by(READ_CHUNK) {
        let len = READ_CHUNK.min(a.len() - offset);
        let x = gpu.download_range(a, offset, len)?;
        let y = gpu.download_range(b, offset, len)?;
        if bytemuck::cast_slice::<T, u8>(&x) != bytemuck::cast_slice::<T, u8>(&y) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether `bytes` of new buffers fit the device's free memory now; `Err` holds the message to
/// print when they do not.
pub fn fits_device(gpu: &Gpu, bytes: usize) -> tensorfft::Result<Result<(), String>> {
    let (free, _total) = gpu.memory_info()?;
    let gib = |b: usize| b as f64 / (1u64 << 30) as f64;
    Ok(if bytes <= free {
        Ok(())
    } else {
        Err(format!(
            "needs about {:.1} GiB of device memory, {:.1} GiB free",
            gib(bytes),
            gib(free)
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiled_input_repeats_its_block_and_shifts_every_transform() {
        let block: Vec<Complex<f32>> = (0..7).map(|i| Complex::new(i as f32, 0.0)).collect();
        let input = CaseInput::tiled(block, 40);
        assert!(input.is_tiled() && input.whole().is_none());
        let all = input.range(0, 40);
        assert!(all.iter().enumerate().all(|(i, v)| v.re == (i % 7) as f32));
        assert_eq!(input.range(33, 5), all[33..38]);
        // Transforms of 4 start at different offsets of the odd block.
        let firsts: Vec<f64> = (0..7).map(|b| input.gather(4, &[b])[0].re).collect();
        let mut distinct = firsts.clone();
        distinct.sort_by(f64::total_cmp);
        distinct.dedup();
        assert_eq!(distinct.len(), firsts.len());
    }

    #[test]
    fn small_inputs_are_drawn_whole() {
        let input = CaseInput::<Complex<f32>>::random(1000, 5);
        assert_eq!(input.whole().map(|w| w.len()), Some(1000));
        assert!(input
            .whole()
            .is_some_and(|w| w.iter().all(|v| v.re.abs() <= 1.0)));
        assert_eq!(input.gather(10, &[3]), {
            let w = input.whole().unwrap_or_default();
            w[30..40].iter().map(|e| e.to_c64()).collect::<Vec<_>>()
        });
    }

    #[test]
    fn samples_cover_first_and_last() {
        assert_eq!(sample_transforms(3, 64), vec![0, 1, 2]);
        let s = sample_transforms(4100, 8);
        assert_eq!(s, [0, 585, 1171, 1756, 2342, 2927, 3513, 4099]);
        assert_eq!((s.len(), s[0], s[7]), (8, 0, 4099));
        assert_eq!(sample_transforms(5, 1), vec![0]);
        assert_eq!(sample_count(1 << 20), 8);
        assert_eq!((sample_count(16), sample_count(1 << 26)), (64, 2));
    }

    #[test]
    fn sampled_error_of_the_oracle_itself_is_zero() {
        let x: Vec<Complex<f64>> = random(3 * 32, 1);
        let dims = [4, 8];
        let y: Vec<Complex<f64>> = x
            .chunks(32)
            .flat_map(|t| oracle_c2c_nd(t, &dims, Direction::Inverse, Normalization::None))
            .collect();
        let err = sampled_error(
            &x,
            &y,
            &dims,
            Direction::Inverse,
            Normalization::None,
            &[0, 2],
        );
        assert_eq!(err, 0.0);
        let wrong = sampled_error(&x, &y, &dims, Direction::Forward, Normalization::None, &[1]);
        assert!(wrong > 0.1);
    }
}
