//! Numeric precisions of data and arithmetic.

/// How complex data is stored and computed.
///
/// ```
/// use tensorfft::Precision;
/// assert_eq!(Precision::F16.complex_bytes(), 4);
/// assert_eq!(Precision::F32.complex_bytes(), 8);
/// ```
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    /// Complex half (interleaved `f16` pairs). Arithmetic in f32 registers.
    F16,
    /// Complex bfloat16 (interleaved `bf16` pairs, 4 bytes), for data kept in bf16 by deep
    /// learning pipelines. Arithmetic and shared-memory exchanges in f32; every device-memory
    /// store rounds to bf16 (8 significant bits).
    BF16,
    /// Complex f32, arithmetic on CUDA cores.
    F32,
    /// Complex f32 data (the same buffers as [`Precision::F32`]) whose radix-16 DFTs run on the
    /// fp16 tensor cores with fp32 accuracy: each 16-sample vector and the DFT matrix are split
    /// into two f16 halves with per-vector power-of-two scaling, three products accumulated in
    /// f32: single passes of 256 to 16384 and strided passes of 512 and more; shorter passes
    /// of multi-pass shapes, and single passes under 256, compute in f32.
    F32Split,
    /// Complex f64.
    F64,
}

impl Precision {
    /// Bytes of one complex element in device memory.
    ///
    /// ```
    /// assert_eq!(tensorfft::Precision::F64.complex_bytes(), 16);
    /// ```
    pub fn complex_bytes(self) -> usize {
        match self {
            Precision::F16 | Precision::BF16 => 4,
            Precision::F32 | Precision::F32Split => 8,
            Precision::F64 => 16,
        }
    }

    /// The precision of the elements a plan of this precision reads and writes
    /// ([`crate::Element::PRECISION`]): F32Split plans take f32 buffers.
    ///
    /// ```
    /// use tensorfft::Precision;
    /// assert_eq!(Precision::F32Split.storage(), Precision::F32);
    /// assert_eq!(Precision::F16.storage(), Precision::F16);
    /// ```
    pub fn storage(self) -> Precision {
        match self {
            Precision::F32Split => Precision::F32,
            p => p,
        }
    }

    /// Unit roundoff of the storage format (half an ulp at 1).
    ///
    /// ```
    /// assert!(tensorfft::Precision::F32.unit_roundoff() < 1e-7);
    /// ```
    pub fn unit_roundoff(self) -> f64 {
        match self {
            Precision::F16 => 2f64.powi(-11),
            Precision::BF16 => 2f64.powi(-8),
            Precision::F32 | Precision::F32Split => 2f64.powi(-24),
            Precision::F64 => 2f64.powi(-53),
        }
    }

    /// Lower-case name used in kernel names, tables and JSON (`f16`, `f32`, …).
    ///
    /// ```
    /// assert_eq!(tensorfft::Precision::F16.name(), "f16");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Precision::F16 => "f16",
            Precision::BF16 => "bf16",
            Precision::F32 => "f32",
            Precision::F32Split => "f32split",
            Precision::F64 => "f64",
        }
    }

    /// Parses [`Precision::name`]'s output.
    ///
    /// ```
    /// assert_eq!(tensorfft::Precision::parse("f32"), Some(tensorfft::Precision::F32));
    /// ```
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "f16" | "fp16" | "half" => Some(Precision::F16),
            "bf16" | "bfloat16" => Some(Precision::BF16),
            "f32" | "fp32" | "float" => Some(Precision::F32),
            "f32split" | "f32-split" => Some(Precision::F32Split),
            "f64" | "fp64" | "double" => Some(Precision::F64),
            _ => None,
        }
    }
}
