//! `NttPlan`: the library's GPU number theoretic transforms on caller-owned device words.

use crate::devices::handle;
use crate::errors::to_py;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use tensorfft::gpu::ntt_plan::NttWord;
use tensorfft::ntt::{NttBatch, NttKind, Order};
use tensorfft::{Direction, GpuNttPlan, RawBuffer};

fn kind(name: &str) -> PyResult<NttKind> {
    match name {
        "cyclic" => Ok(NttKind::Cyclic),
        "negacyclic" => Ok(NttKind::Negacyclic),
        other => Err(PyValueError::new_err(format!(
            "kind {other:?}: expected 'cyclic' or 'negacyclic'"
        ))),
    }
}

fn order(name: &str) -> PyResult<Order> {
    match name {
        "natural" => Ok(Order::Natural),
        "bit_reversed" => Ok(Order::BitReversed),
        other => Err(PyValueError::new_err(format!(
            "order {other:?}: expected 'natural' or 'bit_reversed'"
        ))),
    }
}

/// A plan over 32-bit or 64-bit words.
enum Words {
    U32(GpuNttPlan<u32>),
    U64(GpuNttPlan<u64>),
}

/// The batch a plan describes, checked without a device.
#[allow(clippy::too_many_arguments)]
fn batch_of(
    moduli: &[u64],
    n: usize,
    kind_name: &str,
    batch: usize,
    input_order: &str,
    output_order: &str,
    scale_inverse: bool,
    interleaved: bool,
    coset: Option<u64>,
) -> PyResult<NttBatch> {
    if batch == 0 {
        return Err(PyValueError::new_err("batch must be at least 1"));
    }
    let b = NttBatch::limbs(moduli, n, kind(kind_name)?)
        .map_err(to_py)?
        .batch(batch)
        .interleaved(interleaved)
        .with_orders(order(input_order)?, order(output_order)?)
        .with_inverse_scaling(scale_inverse);
    match coset {
        Some(g) => b.with_coset(g).map_err(to_py),
        None => Ok(b),
    }
}

/// The friendliest word for `moduli`: 4 bytes when every prime is below 2^31 (values that fit an
/// `int32` too), else 8; `word="uint32"` takes primes up to 2^32.
fn word_bytes(moduli: &[u64], word: Option<&str>) -> PyResult<usize> {
    match word {
        Some("uint32") => Ok(4),
        Some("uint64") => Ok(8),
        Some(other) => Err(PyValueError::new_err(format!(
            "word {other:?}: expected 'uint32' or 'uint64'"
        ))),
        None => Ok(if moduli.iter().all(|&p| p < 1 << 31) {
            4
        } else {
            8
        }),
    }
}

/// `batch` transforms of `n` words per RNS limb (one modulus per limb; transform `t` uses limb
/// `t mod len(moduli)` and starts at word `t·n`, or runs down column `t` of a row-major
/// `n × transforms` matrix when `interleaved`), cyclic or negacyclic, with the given orders, on
/// the coset `g·H` when `coset` is `g`.
#[pyclass(module = "tensorfft._tensorfft", frozen)]
pub struct NttPlan {
    words: Words,
    gpu: tensorfft::Gpu,
    word_bytes: usize,
    len: usize,
    description: String,
}

#[pymethods]
impl NttPlan {
    /// Plans the batch on device `device` (`word`: `'uint32'` (primes below 2^32), `'uint64'`,
    /// or `None`: `'uint32'` when every modulus is below 2^31, else `'uint64'`).
    #[new]
    #[pyo3(signature = (moduli, n, *, kind = "cyclic", batch = 1, input_order = "natural",
                        output_order = "natural", scale_inverse = true, interleaved = false,
                        word = None, device = 0, coset = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        moduli: Vec<u64>,
        n: usize,
        kind: &str,
        batch: usize,
        input_order: &str,
        output_order: &str,
        scale_inverse: bool,
        interleaved: bool,
        word: Option<&str>,
        device: usize,
        coset: Option<u64>,
    ) -> PyResult<Self> {
        let b = batch_of(
            &moduli,
            n,
            kind,
            batch,
            input_order,
            output_order,
            scale_inverse,
            interleaved,
            coset,
        )?;
        let bytes = word_bytes(&moduli, word)?;
        // Refuse what the planner refuses before opening a device.
        tensorfft::ntt::schedule::NttArithmetic::for_moduli(&moduli, bytes).map_err(to_py)?;
        let description = format!(
            "NttPlan(moduli={moduli:?}, n={n}, kind='{kind}', batch={batch}, input_order='{input_order}', output_order='{output_order}', scale_inverse={}, interleaved={}, word='uint{}'{})",
            if scale_inverse { "True" } else { "False" },
            if interleaved { "True" } else { "False" },
            bytes * 8,
            coset.map_or(String::new(), |g| format!(", coset={g}"))
        );
        let len = b.len();
        let (gpu, words) = py
            .detach(move || -> tensorfft::Result<(tensorfft::Gpu, Words)> {
                let gpu = handle(device)?;
                let words = if bytes == 4 {
                    Words::U32(gpu.plan_ntt::<u32>(&b)?)
                } else {
                    Words::U64(gpu.plan_ntt::<u64>(&b)?)
                };
                Ok((gpu, words))
            })
            .map_err(to_py)?;
        Ok(NttPlan {
            words,
            gpu,
            word_bytes: bytes,
            len,
            description,
        })
    }

    /// Transforms `input` into `output` (`(device address, words)`; the same address: in
    /// place) on the CUDA stream `stream`. Unchecked core of `tensorfft.ntt`: the addresses must
    /// be live device memory of the plan's device.
    #[pyo3(signature = (forward, input, output, stream))]
    fn execute_raw(
        &self,
        forward: bool,
        input: (u64, usize),
        output: (u64, usize),
        stream: usize,
    ) -> PyResult<()> {
        let dir = crate::direction(forward);
        let raw = |(address, len): (u64, usize)| RawBuffer { address, len };
        // SAFETY: the Python package passes the data pointers and lengths of live contiguous
        // tensors of this plan's device and that device's current stream (tensorfft/ntt.py);
        // the library checks lengths, alignment and overlaps.
        let result = unsafe {
            let stream = self.gpu.borrow_stream(stream);
            match &self.words {
                Words::U32(p) => p.execute_raw(dir, raw(input), raw(output), &stream),
                Words::U64(p) => p.execute_raw(dir, raw(input), raw(output), &stream),
            }
        };
        result.map_err(to_py)
    }

    /// Validates (every word below its limb's modulus), uploads, transforms and downloads
    /// little-endian words: the NumPy path.
    fn execute_host<'py>(
        &self,
        py: Python<'py>,
        forward: bool,
        input: &[u8],
    ) -> PyResult<Bound<'py, PyBytes>> {
        let dir = crate::direction(forward);
        let bytes = py
            .detach(|| match &self.words {
                Words::U32(p) => host(p, dir, input),
                Words::U64(p) => host(p, dir, input),
            })
            .map_err(to_py)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// `out = a · b` word by word modulo each word's limb (`(device address, words)` each; `out`
    /// may be `a` or `b`) on the CUDA stream `stream`. Unchecked core of
    /// `tensorfft.ntt.NttPlan.multiply`: the addresses must be live device memory of the plan's
    /// device.
    #[pyo3(signature = (a, b, out, stream))]
    fn pointwise_raw(
        &self,
        py: Python<'_>,
        a: (u64, usize),
        b: (u64, usize),
        out: (u64, usize),
        stream: usize,
    ) -> PyResult<()> {
        let raw = |(address, len): (u64, usize)| RawBuffer { address, len };
        let (a, b, out) = (raw(a), raw(b), raw(out));
        // The first product compiles its kernel (NVRTC): without the GIL.
        py.detach(|| {
            // SAFETY: as in execute_raw: data pointers and lengths of live contiguous tensors
            // of this plan's device and its current stream (tensorfft/ntt.py); the library
            // checks lengths, alignment and overlaps.
            unsafe {
                let stream = self.gpu.borrow_stream(stream);
                match &self.words {
                    Words::U32(p) => p.pointwise_mul_raw(a, b, out, &stream),
                    Words::U64(p) => p.pointwise_mul_raw(a, b, out, &stream),
                }
            }
        })
        .map_err(to_py)
    }

    /// Validates, uploads, multiplies word by word and downloads little-endian words: the NumPy
    /// path of `multiply`.
    fn pointwise_host<'py>(
        &self,
        py: Python<'py>,
        a: &[u8],
        b: &[u8],
    ) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = py
            .detach(|| match &self.words {
                Words::U32(p) => pointwise_host(p, a, b),
                Words::U64(p) => pointwise_host(p, a, b),
            })
            .map_err(to_py)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The transform in direction `forward` of `a · b` (word by word modulo each word's limb)
    /// into `out` (`(device address, words)` each; `out` may be `a`, never `b`) on the CUDA
    /// stream `stream`, the product taken by the first kernel. Unchecked core of
    /// `tensorfft.ntt.NttPlan.forward` / `inverse` with `times`: the addresses must be live
    /// device memory of the plan's device.
    #[pyo3(signature = (forward, a, b, out, stream))]
    fn product_raw(
        &self,
        py: Python<'_>,
        forward: bool,
        a: (u64, usize),
        b: (u64, usize),
        out: (u64, usize),
        stream: usize,
    ) -> PyResult<()> {
        let dir = crate::direction(forward);
        let raw = |(address, len): (u64, usize)| RawBuffer { address, len };
        let (a, b, out) = (raw(a), raw(b), raw(out));
        // The first call in a direction compiles its kernel (NVRTC): without the GIL.
        py.detach(|| {
            // SAFETY: as in execute_raw: data pointers and lengths of live contiguous tensors
            // of this plan's device and its current stream (tensorfft/ntt.py); the library
            // checks lengths, alignment and overlaps.
            unsafe {
                let stream = self.gpu.borrow_stream(stream);
                match &self.words {
                    Words::U32(p) => p.execute_product_raw(dir, a, b, out, &stream),
                    Words::U64(p) => p.execute_product_raw(dir, a, b, out, &stream),
                }
            }
        })
        .map_err(to_py)
    }

    /// Validates, uploads, transforms the product and downloads little-endian words: the NumPy
    /// path of `forward` / `inverse` with `times`.
    fn product_host<'py>(
        &self,
        py: Python<'py>,
        forward: bool,
        a: &[u8],
        b: &[u8],
    ) -> PyResult<Bound<'py, PyBytes>> {
        let dir = crate::direction(forward);
        let bytes = py
            .detach(|| match &self.words {
                Words::U32(p) => product_host(p, dir, a, b),
                Words::U64(p) => product_host(p, dir, a, b),
            })
            .map_err(to_py)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Words of a whole batch (every limb and transform).
    #[getter]
    fn len(&self) -> usize {
        self.len
    }

    /// 4 or 8.
    #[getter]
    fn word_bytes(&self) -> usize {
        self.word_bytes
    }

    /// The forward and inverse schedules of passes.
    #[getter]
    fn schedule(&self) -> String {
        match &self.words {
            Words::U32(p) => format!(
                "{}\n{}",
                p.schedule(Direction::Forward),
                p.schedule(Direction::Inverse)
            ),
            Words::U64(p) => format!(
                "{}\n{}",
                p.schedule(Direction::Forward),
                p.schedule(Direction::Inverse)
            ),
        }
    }

    fn __repr__(&self) -> String {
        self.description.clone()
    }
}

/// Little-endian bytes as words of `W`.
fn words_of<W: NttWord>(input: &[u8]) -> tensorfft::Result<Vec<W>> {
    let size = std::mem::size_of::<W>();
    if !input.len().is_multiple_of(size) {
        return Err(tensorfft::Error::InvalidSize(format!(
            "{} bytes are not a whole number of {size}-byte words",
            input.len()
        )));
    }
    let mut words = vec![W::zeroed(); input.len() / size];
    bytemuck::cast_slice_mut::<W, u8>(&mut words).copy_from_slice(input);
    Ok(words)
}

fn pointwise_host<W: NttWord>(
    plan: &GpuNttPlan<W>,
    a: &[u8],
    b: &[u8],
) -> tensorfft::Result<Vec<u8>> {
    let out = plan.pointwise_mul_host(&words_of::<W>(a)?, &words_of::<W>(b)?)?;
    Ok(bytemuck::cast_slice::<W, u8>(&out).to_vec())
}

fn product_host<W: NttWord>(
    plan: &GpuNttPlan<W>,
    dir: Direction,
    a: &[u8],
    b: &[u8],
) -> tensorfft::Result<Vec<u8>> {
    let out = plan.execute_product_host(dir, &words_of::<W>(a)?, &words_of::<W>(b)?)?;
    Ok(bytemuck::cast_slice::<W, u8>(&out).to_vec())
}

fn host<W: NttWord>(
    plan: &GpuNttPlan<W>,
    dir: Direction,
    input: &[u8],
) -> tensorfft::Result<Vec<u8>> {
    let words = words_of::<W>(input)?;
    let out = match dir {
        Direction::Forward => plan.forward_host(&words)?,
        Direction::Inverse => plan.inverse_host(&words)?,
    };
    Ok(bytemuck::cast_slice::<W, u8>(&out).to_vec())
}

/// NTT-friendly primes (`p ≡ 1 mod 2n`) of `bits` bits, largest first, for FHE limbs.
#[pyfunction]
pub fn ntt_friendly_primes(bits: u32, n: usize, count: usize) -> PyResult<Vec<u64>> {
    tensorfft::ntt::ntt_friendly_primes(bits, n, count).map_err(to_py)
}
