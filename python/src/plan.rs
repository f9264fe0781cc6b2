//! `Plan`: a tensorfft plan executed on device pointers the caller owns, on the caller's stream.

use crate::devices::handle;
use crate::errors::to_py;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use tensorfft::{
    Direction, Element, Gpu, GpuPlan, Layout, Normalization, PlanOptions, Precision, RawBuffer,
    Shape, Strides, Tuning,
};

/// Parses a precision name as the Python package spells it.
fn precision(name: &str) -> PyResult<Precision> {
    match name {
        "f16" => Ok(Precision::F16),
        "f32" => Ok(Precision::F32),
        "f64" => Ok(Precision::F64),
        "bf16" => Ok(Precision::BF16),
        "f32split" => Ok(Precision::F32Split),
        other => Err(PyValueError::new_err(format!(
            "precision {other:?}: expected one of 'f16', 'f32', 'f64', 'bf16', 'f32split'"
        ))),
    }
}

/// Parses a normalization name: `'none'`, `'inverse_by_n'` (NumPy's "backward"),
/// `'forward_by_n'` ("forward") or `'ortho'`.
fn normalization(name: &str) -> PyResult<Normalization> {
    match name {
        "none" => Ok(Normalization::None),
        "inverse_by_n" => Ok(Normalization::InverseByN),
        "forward_by_n" => Ok(Normalization::ForwardByN),
        "ortho" => Ok(Normalization::Ortho),
        other => Err(PyValueError::new_err(format!(
            "normalization {other:?}: expected 'none', 'inverse_by_n', 'forward_by_n' or 'ortho'"
        ))),
    }
}

/// A layout from `(stride, dist)` pairs (`None`: dense).
fn layout(input: Option<(usize, usize)>, output: Option<(usize, usize)>) -> Layout {
    let strides = |s: Option<(usize, usize)>| s.map(|(stride, dist)| Strides { stride, dist });
    Layout {
        input: strides(input),
        output: strides(output),
    }
}

/// The precisions plans accept, by name (`'f16'`, `'f32'`, `'f64'`, `'bf16'`: complex bfloat16
/// pairs, `'f32split'`: complex64 data transformed on the fp16 tensor cores with fp32 accuracy).
#[pyfunction]
pub fn supported_precisions() -> Vec<&'static str> {
    vec!["f16", "f32", "f64", "bf16", "f32split"]
}

/// The tuning of a plan that asks for the tensor cores (`Tuning::tensor_cores`: F16 and BF16
/// radix-16 stages as `mma.sync` products) or sets packed half arithmetic (`Tuning::half_arithmetic`:
/// `False` computes F16 / BF16 in f32), or the planner's defaults.
fn tuning(tensor_cores: bool, half_arithmetic: Option<bool>) -> Tuning {
    Tuning {
        tensor_cores: tensor_cores.then_some(true),
        half_arithmetic,
        ..Default::default()
    }
}

/// The schedule of passes the library plans for `batch` transforms of `shape` (no GPU needed;
/// the device may fuse two passes on a thread-block cluster). `tensor_cores` asks for the F16
/// (BF16) tensor-core kernels; `half_arithmetic` sets packed half arithmetic (F16, BF16; `None`: the
/// planner's choice).
#[pyfunction]
#[pyo3(signature = (shape, *, batch = 1, precision = "f32", input_strides = None, output_strides = None,
                    tensor_cores = false, half_arithmetic = None))]
pub fn plan_schedule(
    shape: Vec<usize>,
    batch: usize,
    precision: &str,
    input_strides: Option<(usize, usize)>,
    output_strides: Option<(usize, usize)>,
    tensor_cores: bool,
    half_arithmetic: Option<bool>,
) -> PyResult<String> {
    let options = PlanOptions {
        layout: layout(input_strides, output_strides),
        tuning: tuning(tensor_cores, half_arithmetic),
        ..Default::default()
    };
    let schedule = tensorfft::plan_c2c_schedule(
        &Shape::from_dims(&shape).batch(batch),
        self::precision(precision)?,
        &options,
    )
    .map_err(to_py)?;
    Ok(schedule.to_string())
}

/// A batched 1D, 2D or 3D complex-to-complex transform on one GPU (the library's `GpuPlan`),
/// created with caller-supplied scratch so that executions on different streams never share
/// memory. `input_strides` / `output_strides` are `(stride, dist)` pairs in elements
/// (`cufftPlanMany`'s layout with the embedding equal to the shape); `None` is dense.
#[pyclass(module = "tensorfft._tensorfft", frozen)]
pub struct Plan {
    plan: GpuPlan,
    gpu: Gpu,
    shape: Vec<usize>,
    batch: usize,
    precision: &'static str,
    normalization: String,
    input_strides: Option<(usize, usize)>,
    output_strides: Option<(usize, usize)>,
}

impl Plan {
    /// Executes on host bytes: upload, transform in place, download (dense plans only).
    fn host<T: Element>(&self, dir: Direction, input: &[u8]) -> tensorfft::Result<Vec<u8>> {
        let size = std::mem::size_of::<T>();
        if !input.len().is_multiple_of(size) {
            return Err(tensorfft::Error::InvalidSize(format!(
                "{} bytes are not a whole number of {size}-byte elements",
                input.len()
            )));
        }
        let mut host = vec![T::zeroed(); input.len() / size];
        bytemuck::cast_slice_mut::<T, u8>(&mut host).copy_from_slice(input);
        let mut data = self.gpu.upload(&host)?;
        let stream = self.plan.stream().clone();
        if self.plan.scratch_len() > 0 {
            let mut work = self.gpu.alloc::<T>(self.plan.scratch_len())?;
            self.plan
                .execute_in_place_with_scratch(dir, &mut data, &mut work)?;
        } else {
            self.plan.execute_in_place(dir, &mut data)?;
        }
        stream.synchronize()?;
        let out = self.gpu.download(&data)?;
        Ok(bytemuck::cast_slice::<T, u8>(&out).to_vec())
    }
}

#[pymethods]
impl Plan {
    /// Plans `batch` transforms of `shape` (1 to 3 power-of-two extents, row-major) in
    /// `precision` on device `device`, scaled as `normalization` says (inside the kernels,
    /// stage by stage, or once where a warp-shuffle kernel runs the whole transform): `'none'`,
    /// `'inverse_by_n'`, `'forward_by_n'` or `'ortho'`. `tensor_cores` asks for the F16 (BF16)
    /// tensor-core kernels (`Tuning::tensor_cores`); `half_arithmetic` sets packed half
    /// arithmetic (`Tuning::half_arithmetic`; `False`: F16 / BF16 computed in f32).
    #[new]
    #[pyo3(signature = (shape, *, batch = 1, precision = "f32", normalization = "none",
                        input_strides = None, output_strides = None, device = 0, tensor_cores = false,
                        half_arithmetic = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        shape: Vec<usize>,
        batch: usize,
        precision: &str,
        normalization: &str,
        input_strides: Option<(usize, usize)>,
        output_strides: Option<(usize, usize)>,
        device: usize,
        tensor_cores: bool,
        half_arithmetic: Option<bool>,
    ) -> PyResult<Self> {
        let prec = self::precision(precision)?;
        let norm = self::normalization(normalization)?;
        let name = match prec {
            Precision::F16 => "f16",
            Precision::F64 => "f64",
            Precision::BF16 => "bf16",
            Precision::F32Split => "f32split",
            Precision::F32 => "f32",
        };
        let options = PlanOptions {
            normalization: norm,
            external_scratch: true,
            layout: layout(input_strides, output_strides),
            tuning: tuning(tensor_cores, half_arithmetic),
        };
        let dims = shape.clone();
        // Shapes, sizes and layouts are refused with their typed errors before a device is
        // opened (the planner is plain data), so a machine without a GPU reports them too.
        tensorfft::plan_c2c_schedule(&Shape::from_dims(&dims).batch(batch), prec, &options)
            .map_err(to_py)?;
        let (gpu, plan) = py
            .detach(move || -> tensorfft::Result<(Gpu, GpuPlan)> {
                let gpu = handle(device)?;
                let plan =
                    gpu.plan_c2c_with(&Shape::from_dims(&dims).batch(batch), prec, &options)?;
                Ok((gpu, plan))
            })
            .map_err(to_py)?;
        Ok(Plan {
            plan,
            gpu,
            shape,
            batch,
            precision: name,
            normalization: normalization.to_string(),
            input_strides,
            output_strides,
        })
    }

    /// Transforms `input` into `output` (the same address: in place) on the CUDA stream
    /// `stream` (a `CUstream` handle; 0 is the legacy default stream). Each buffer is
    /// `(device address, elements addressable from it)`; `scratch` is required when
    /// `scratch_bytes` is not 0. Nothing is queued when the call is refused.
    ///
    /// This is the unchecked core of the Python functions: the addresses must be live device
    /// memory of this plan's device, unused by other work until the transform has run.
    #[pyo3(signature = (forward, input, output, scratch, stream))]
    fn execute_raw(
        &self,
        forward: bool,
        input: (u64, usize),
        output: (u64, usize),
        scratch: Option<(u64, usize)>,
        stream: usize,
    ) -> PyResult<()> {
        let dir = crate::direction(forward);
        let raw = |(address, len): (u64, usize)| RawBuffer { address, len };
        // SAFETY: the Python package passes the data pointers and storage lengths of live
        // tensors of this plan's device and the caller's current stream of that device (see
        // `tensorfft/_core.py`); the library checks lengths, alignment and overlaps.
        unsafe {
            let stream = self.gpu.borrow_stream(stream);
            self.plan
                .execute_raw(dir, raw(input), raw(output), scratch.map(raw), &stream)
        }
        .map_err(to_py)
    }

    /// Transforms host bytes (dense layout, `len(shape) * batch` elements of the plan's
    /// precision): upload, transform, download. The NumPy convenience path.
    fn execute_host<'py>(
        &self,
        py: Python<'py>,
        forward: bool,
        input: &[u8],
    ) -> PyResult<Bound<'py, PyBytes>> {
        if self.input_strides.is_some() || self.output_strides.is_some() {
            return Err(PyValueError::new_err(
                "host execution needs a plan with dense layouts",
            ));
        }
        let dir = crate::direction(forward);
        let bytes = py
            .detach(|| match self.precision {
                "f16" => self.host::<num_complex::Complex<half::f16>>(dir, input),
                "bf16" => self.host::<num_complex::Complex<half::bf16>>(dir, input),
                "f64" => self.host::<num_complex::Complex<f64>>(dir, input),
                _ => self.host::<num_complex::Complex<f32>>(dir, input),
            })
            .map_err(to_py)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Bytes of scratch an execution needs (0 for plans of one pass per axis).
    #[getter]
    fn scratch_bytes(&self) -> usize {
        self.plan.scratch_len() * self.plan.schedule().precision.complex_bytes()
    }

    /// Elements the input must span (its layout's extent).
    #[getter]
    fn input_extent(&self) -> usize {
        self.plan.schedule().input_extent()
    }

    /// Elements the output must span (its layout's extent).
    #[getter]
    fn output_extent(&self) -> usize {
        self.plan.schedule().output_extent()
    }

    /// The transform's extents.
    #[getter]
    fn shape(&self) -> Vec<usize> {
        self.shape.clone()
    }

    /// Transforms per execution.
    #[getter]
    fn batch(&self) -> usize {
        self.batch
    }

    /// `'f16'`, `'f32'`, `'f64'`, `'bf16'` or `'f32split'`.
    #[getter]
    fn precision(&self) -> &'static str {
        self.precision
    }

    /// `'none'`, `'inverse_by_n'`, `'forward_by_n'` or `'ortho'`.
    #[getter]
    fn normalization(&self) -> String {
        self.normalization.clone()
    }

    /// The plan's passes, as the library prints its schedule.
    #[getter]
    fn schedule(&self) -> String {
        self.plan.schedule().to_string()
    }

    /// Milliseconds plan creation took (NVRTC, or a hit in the kernel cache).
    #[getter]
    fn creation_ms(&self) -> f64 {
        self.plan.creation().ms
    }

    /// Whether the plan took its tuning from the loaded wisdom (`tensorfft.load_wisdom`).
    #[getter(from_wisdom)]
    fn tuned_by_wisdom(&self) -> bool {
        self.plan.creation().from_wisdom
    }

    fn __repr__(&self) -> String {
        format!(
            "Plan(shape={:?}, batch={}, precision='{}', normalization='{}', input_strides={:?}, output_strides={:?})",
            self.shape, self.batch, self.precision, self.normalization, self.input_strides, self.output_strides
        )
    }
}
