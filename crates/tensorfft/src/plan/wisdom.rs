//! Wisdom: tuning choices measured on one device by `tfft tune`, stored as JSON and applied when
//! a plan for the same problem is made on a device of the same name (as FFTW's wisdom files).
//! An entry's tuning changes how a plan runs; a plan whose error bound it would raise (a
//! hand-written entry asking for other arithmetic, say) does not take it.
//!
//! The planner's defaults were chosen by measurements on the H200; other devices (an H100
//! measured different best launch shapes for several kernels, bench/NOTES.md steps 70, 74) can
//! carry their own. An entry answers one problem *as the caller asks for it*: device, precision,
//! extents, batch and the caller's own [`Tuning`] (usually the default, or only
//! `tensor_cores`). Wisdom is about how a plan runs: `tfft tune` keeps a variant only if its
//! error bound is no larger than the default's, it is accurate to that bound and within 10% of
//! the default's measured error; a plan never takes an entry that would raise its error bound;
//! and the caller's explicit choices always win over an entry's ([`Tuning::or`]).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::options::{PlanOptions, Tuning};
use super::precision::Precision;
use super::schedule_planner::plan_c2c_schedule;
use super::shape::Shape;
use crate::error::{Error, Result};

/// The problem a [`WisdomEntry`] answers. Direction and normalization are not part of it: an
/// entry applies to both directions and every normalization of the problem (`tfft tune` times
/// and checks the forward, unnormalized transform; a plan never takes an entry whose error
/// bound is larger than the default's).
///
/// ```
/// use tensorfft::{Precision, Tuning, WisdomKey};
/// let k = WisdomKey::new("NVIDIA H200", Precision::F32, &[4096], 32768, Tuning::default());
/// assert_eq!(k.dims, vec![4096]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WisdomKey {
    /// The device's name as the driver reports it (`DeviceInfo::name`, e.g. "NVIDIA H200").
    pub device: String,
    /// Precision of the transform.
    pub precision: Precision,
    /// Extents of one transform.
    pub dims: Vec<usize>,
    /// Transforms per execution.
    pub batch: usize,
    /// The tuning the caller asks for (the planner's default when empty).
    #[serde(default)]
    pub asked: Tuning,
}

impl WisdomKey {
    /// A key from its parts.
    ///
    /// ```
    /// let k = tensorfft::WisdomKey::new("GPU", tensorfft::Precision::F16, &[256, 256], 8, Default::default());
    /// assert_eq!(k.batch, 8);
    /// ```
    pub fn new(
        device: &str,
        precision: Precision,
        dims: &[usize],
        batch: usize,
        asked: Tuning,
    ) -> Self {
        WisdomKey {
            device: device.to_string(),
            precision,
            dims: dims.to_vec(),
            batch,
            asked,
        }
    }
}

/// One measured choice: the tuning that ran `key`'s problem fastest, with the measurements
/// behind it.
///
/// ```
/// use tensorfft::{Precision, Tuning, WisdomEntry, WisdomKey};
/// let e = WisdomEntry {
///     key: WisdomKey::new("NVIDIA H200", Precision::F32, &[64], 1 << 21, Tuning::default()),
///     tuning: Tuning { min_blocks_per_sm: Some(2), ..Default::default() },
///     ms: 0.52, default_ms: 0.53, rel_l2: 8e-8, default_rel_l2: 8e-8,
///     plan: "c2c f32 shape=[64] ...".into(),
/// };
/// assert!(e.speedup() > 1.0);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WisdomEntry {
    /// The problem.
    pub key: WisdomKey,
    /// The tuning to plan it with (the caller's own choices are kept over it).
    pub tuning: Tuning,
    /// Median milliseconds of one execution with `tuning` when it was measured.
    pub ms: f64,
    /// Median milliseconds of the planner's default in the same measurement.
    pub default_ms: f64,
    /// Relative L2 error of `tuning` against the f64 oracle.
    pub rel_l2: f64,
    /// Relative L2 error of the default.
    pub default_rel_l2: f64,
    /// The plan `tuning` gave, as printed (for people reading the file).
    #[serde(default)]
    pub plan: String,
}

impl WisdomEntry {
    /// How much faster the entry's tuning ran than the default (default_ms / ms).
    ///
    /// ```
    /// # use tensorfft::{Precision, Tuning, WisdomEntry, WisdomKey};
    /// # let e = WisdomEntry { key: WisdomKey::new("d", Precision::F32, &[64], 1, Tuning::default()),
    /// #     tuning: Tuning::default(), ms: 1.0, default_ms: 1.1, rel_l2: 0.0, default_rel_l2: 0.0, plan: String::new() };
    /// assert!((e.speedup() - 1.1).abs() < 1e-12);
    /// ```
    pub fn speedup(&self) -> f64 {
        self.default_ms / self.ms
    }
}

/// A set of [`WisdomEntry`]s, at most one per key; read and written as JSON.
///
/// ```
/// use tensorfft::{Precision, PlanOptions, Shape, Tuning, Wisdom, WisdomEntry, WisdomKey};
/// let mut w = Wisdom::default();
/// let key = WisdomKey::new("NVIDIA H200", Precision::F32, &[64], 1 << 21, Tuning::default());
/// let tuned = Tuning { min_blocks_per_sm: Some(2), ..Default::default() };
/// w.insert(WisdomEntry { key, tuning: tuned, ms: 0.52, default_ms: 0.53, rel_l2: 8e-8,
///     default_rel_l2: 8e-8, plan: String::new() });
/// let again = Wisdom::from_json(&w.to_json())?;
/// assert_eq!(again, w);
/// let shape = Shape::new([64]).batch(1 << 21);
/// let o = w.options_for("NVIDIA H200", &shape, Precision::F32, &PlanOptions::default()).unwrap();
/// assert_eq!(o.tuning.min_blocks_per_sm, Some(2));
/// assert!(w.options_for("NVIDIA H100 80GB HBM3", &shape, Precision::F32, &PlanOptions::default()).is_none());
/// # Ok::<(), tensorfft::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wisdom {
    /// Format version ([`Wisdom::VERSION`]).
    pub version: u32,
    /// The entries, one per key.
    pub entries: Vec<WisdomEntry>,
}

impl Default for Wisdom {
    fn default() -> Self {
        Wisdom::new()
    }
}

impl Wisdom {
    /// The file format this library reads and writes.
    pub const VERSION: u32 = 1;

    /// An empty set of the current version.
    ///
    /// ```
    /// assert!(tensorfft::Wisdom::new().entries.is_empty());
    /// ```
    pub fn new() -> Self {
        Wisdom {
            version: Self::VERSION,
            entries: Vec::new(),
        }
    }

    /// Parses a wisdom file's text. Malformed JSON, unknown fields (a file of another version)
    /// and entries that repeat a key are [`Error::InvalidWisdom`].
    ///
    /// ```
    /// assert!(tensorfft::Wisdom::from_json("{\"version\": 1, \"entries\": []}").is_ok());
    /// assert!(matches!(tensorfft::Wisdom::from_json("[1, 2]"), Err(tensorfft::Error::InvalidWisdom(_))));
    /// ```
    pub fn from_json(text: &str) -> Result<Self> {
        let invalid = |e: serde_json::Error| Error::InvalidWisdom(e.to_string());
        // The version first: a file of another version may have fields this one does not know.
        let value: serde_json::Value = serde_json::from_str(text).map_err(invalid)?;
        let version = value.get("version").and_then(serde_json::Value::as_u64);
        if version != Some(u64::from(Self::VERSION)) {
            return Err(Error::InvalidWisdom(format!(
                "version {} (this library reads version {})",
                version.map_or("missing".to_string(), |v| v.to_string()),
                Self::VERSION
            )));
        }
        let w: Wisdom = serde_json::from_value(value).map_err(invalid)?;
        for (i, e) in w.entries.iter().enumerate() {
            if w.entries[..i].iter().any(|o| o.key == e.key) {
                return Err(Error::InvalidWisdom(format!(
                    "two entries for {:?} {:?} x{} on {}",
                    e.key.precision, e.key.dims, e.key.batch, e.key.device
                )));
            }
        }
        Ok(w)
    }

    /// The set as pretty-printed JSON (fields a tuning leaves open are omitted).
    ///
    /// ```
    /// assert!(tensorfft::Wisdom::new().to_json().contains("\"version\": 1"));
    /// ```
    pub fn to_json(&self) -> String {
        let mut v = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        strip_nulls(&mut v);
        serde_json::to_string_pretty(&v).unwrap_or_default()
    }

    /// Reads a wisdom file ([`Error::InvalidWisdom`] names the path when it cannot be read).
    ///
    /// ```no_run
    /// let w = tensorfft::Wisdom::load("wisdom.json")?;
    /// # Ok::<(), tensorfft::Error>(())
    /// ```
    pub fn load(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::InvalidWisdom(format!("{}: {e}", path.display())))?;
        Self::from_json(&text).map_err(|e| match e {
            Error::InvalidWisdom(m) => Error::InvalidWisdom(format!("{}: {m}", path.display())),
            other => other,
        })
    }

    /// Writes the set to `path` as [`Wisdom::to_json`] (file-system failures are [`Error::Io`]).
    ///
    /// ```no_run
    /// tensorfft::Wisdom::new().save("wisdom.json")?;
    /// # Ok::<(), tensorfft::Error>(())
    /// ```
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        std::fs::write(path, self.to_json() + "\n").map_err(|e| {
            Error::Io(std::io::Error::new(
                e.kind(),
                format!("wisdom {}: {e}", path.display()),
            ))
        })
    }

    /// Adds `entry`, replacing the entry of the same key.
    ///
    /// ```
    /// # use tensorfft::{Precision, Tuning, Wisdom, WisdomEntry, WisdomKey};
    /// let mut w = Wisdom::new();
    /// let e = WisdomEntry { key: WisdomKey::new("d", Precision::F32, &[64], 1, Tuning::default()),
    ///     tuning: Tuning::default(), ms: 1.0, default_ms: 1.0, rel_l2: 0.0, default_rel_l2: 0.0, plan: String::new() };
    /// w.insert(e.clone());
    /// w.insert(e);
    /// assert_eq!(w.entries.len(), 1);
    /// ```
    pub fn insert(&mut self, entry: WisdomEntry) {
        match self.entries.iter_mut().find(|e| e.key == entry.key) {
            Some(slot) => *slot = entry,
            None => self.entries.push(entry),
        }
    }

    /// The entry of `key`, if any.
    ///
    /// ```
    /// # use tensorfft::{Precision, Tuning, Wisdom, WisdomKey};
    /// assert!(Wisdom::new().lookup(&WisdomKey::new("d", Precision::F32, &[64], 1, Tuning::default())).is_none());
    /// ```
    pub fn lookup(&self, key: &WisdomKey) -> Option<&WisdomEntry> {
        self.entries.iter().find(|e| &e.key == key)
    }

    /// The options to plan `shape` with on `device` when the caller asks for `options`: the
    /// caller's options with the entry's tuning under the caller's own choices. `None` when no
    /// entry answers (another device, shape, batch, precision or asked tuning), when the data
    /// is not dense (entries are measured on dense data), when the entry records that the
    /// default wins, or when the entry's plan would have a larger error bound than the
    /// caller's (or either does not plan).
    ///
    /// ```
    /// # use tensorfft::{PlanOptions, Precision, Shape, Wisdom};
    /// assert!(Wisdom::new().options_for("d", &Shape::new([64]), Precision::F32, &PlanOptions::default()).is_none());
    /// ```
    pub fn options_for(
        &self,
        device: &str,
        shape: &Shape,
        precision: Precision,
        options: &PlanOptions,
    ) -> Option<PlanOptions> {
        if !options.layout.is_dense() {
            return None;
        }
        let key = WisdomKey::new(
            device,
            precision,
            shape.dims(),
            shape.batch_count(),
            options.tuning,
        );
        let tuned = self.lookup(&key).map(|e| PlanOptions {
            tuning: options.tuning.or(e.tuning),
            ..*options
        })?;
        let bound =
            |o: &PlanOptions| plan_c2c_schedule(shape, precision, o).map(|s| s.error_bound());
        match (bound(&tuned), bound(options)) {
            (Ok(t), Ok(d)) if t <= d && tuned.tuning != options.tuning => Some(tuned),
            _ => None,
        }
    }
}

/// Removes `null` object members (open tuning choices) so the file lists only what was chosen.
fn strip_nulls(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(map) => {
            map.retain(|_, x| !x.is_null());
            map.values_mut().for_each(strip_nulls);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strip_nulls),
        _ => {}
    }
}
