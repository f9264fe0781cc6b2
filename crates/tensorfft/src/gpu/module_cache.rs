//! Compiled kernel modules, cached by key in memory and as CUBIN files on disk, so a second
//! process skips NVRTC.

use super::nvrtc::compile_cubin;
use crate::error::{Error, Result};
use cudarc::driver::{CudaContext, CudaModule};
use cudarc::nvrtc::Ptx;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The directory of the on-disk cache: `$TFFT_CACHE_DIR`, else `$XDG_CACHE_HOME/tensorfft`, else
/// `$HOME/.cache/tensorfft`, else a folder under the system's temporary directory.
///
/// ```
/// assert!(tensorfft::gpu::module_cache::cache_dir().ends_with("tensorfft") || std::env::var("TFFT_CACHE_DIR").is_ok());
/// ```
pub fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("TFFT_CACHE_DIR") {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("tensorfft");
    }
    if let Some(h) = std::env::var_os("HOME") {
        return PathBuf::from(h).join(".cache").join("tensorfft");
    }
    std::env::temp_dir().join("tensorfft")
}

/// Where a module came from, for reporting plan-creation cost.
///
/// ```
/// assert_ne!(tensorfft::gpu::module_cache::ModuleOrigin::Memory, tensorfft::gpu::module_cache::ModuleOrigin::Compiled);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModuleOrigin {
    /// Already loaded in this process.
    Memory,
    /// Read from the on-disk CUBIN cache.
    Disk,
    /// Compiled with NVRTC now.
    Compiled,
}

/// Memory and disk cache of compiled modules for one context.
///
/// ```no_run
/// # fn main() -> tensorfft::Result<()> {
/// let gpu = tensorfft::Gpu::new(0)?;
/// let src = "extern \"C\" __global__ void k(float* x) { x[0] = 1.0f; }";
/// let (_module, _origin) = gpu.modules().get_or_compile(src, "k", gpu.arch(), gpu.nvrtc_version())?;
/// # Ok(()) }
/// ```
pub struct ModuleCache {
    ctx: Arc<CudaContext>,
    loaded: Mutex<HashMap<String, Arc<CudaModule>>>,
    dir: PathBuf,
}

impl ModuleCache {
    /// An empty cache for `ctx`, backed by [`cache_dir`].
    ///
    /// ```no_run
    /// let ctx = cudarc::driver::CudaContext::new(0).unwrap();
    /// let _cache = tensorfft::gpu::module_cache::ModuleCache::new(ctx);
    /// ```
    pub fn new(ctx: Arc<CudaContext>) -> Self {
        ModuleCache {
            ctx,
            loaded: Mutex::new(HashMap::new()),
            dir: cache_dir(),
        }
    }

    /// The cache key: a hash of the source, the architecture and NVRTC's version.
    ///
    /// ```
    /// let a = tensorfft::gpu::module_cache::ModuleCache::key("x", "sm_90", (13, 0));
    /// assert_ne!(a, tensorfft::gpu::module_cache::ModuleCache::key("x", "sm_80", (13, 0)));
    /// ```
    pub fn key(source: &str, arch: &str, nvrtc: (i32, i32)) -> String {
        let mut h = Sha256::new();
        h.update(source.as_bytes());
        h.update(b"\0");
        h.update(arch.as_bytes());
        h.update(format!("\0nvrtc {}.{}", nvrtc.0, nvrtc.1).as_bytes());
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The loaded module for `source`, compiling and caching it if needed.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let (_m, origin) = gpu.modules().get_or_compile("extern \"C\" __global__ void k() {}", "k", "sm_90", (13, 0)).unwrap();
    /// println!("{origin:?}");
    /// ```
    pub fn get_or_compile(
        &self,
        source: &str,
        name: &str,
        arch: &str,
        nvrtc: (i32, i32),
    ) -> Result<(Arc<CudaModule>, ModuleOrigin)> {
        let key = Self::key(source, arch, nvrtc);
        let mut loaded = self
            .loaded
            .lock()
            .map_err(|_| Error::Driver("module cache lock poisoned".into()))?;
        if let Some(m) = loaded.get(&key) {
            return Ok((m.clone(), ModuleOrigin::Memory));
        }
        let path = self.dir.join(format!("{key}.cubin"));
        let (cubin, origin) = match std::fs::read(&path) {
            Ok(bytes) if !bytes.is_empty() => (bytes, ModuleOrigin::Disk),
            _ => {
                let cubin = compile_cubin(source, name, arch)?;
                self.store(&path, &cubin);
                (cubin, ModuleOrigin::Compiled)
            }
        };
        let module = self.ctx.load_module(Ptx::from_binary(cubin))?;
        loaded.insert(key, module.clone());
        Ok((module, origin))
    }

    /// Compiles `source` into the disk cache unless it is there already, without loading it
    /// (so many modules can be compiled on several threads before a sweep loads them). Returns
    /// whether NVRTC ran.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let ran = gpu.modules().precompile("extern \"C\" __global__ void k() {}", "k", "sm_90", (13, 0)).unwrap();
    /// # let _ = ran;
    /// ```
    pub fn precompile(
        &self,
        source: &str,
        name: &str,
        arch: &str,
        nvrtc: (i32, i32),
    ) -> Result<bool> {
        let key = Self::key(source, arch, nvrtc);
        let path = self.dir.join(format!("{key}.cubin"));
        if std::fs::metadata(&path).is_ok_and(|m| m.len() > 0) {
            return Ok(false);
        }
        let cubin = compile_cubin(source, name, arch)?;
        self.store(&path, &cubin);
        Ok(true)
    }

    /// [`ModuleCache::precompile`] of every `(source, name)` on all cores (NVRTC programs are
    /// independent); returns how many NVRTC compiled. The first error stops nothing else and is
    /// returned.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// let k = ("extern \"C\" __global__ void k() {}".to_string(), "k".to_string());
    /// let ran = gpu.modules().precompile_all(&[k], "sm_90", (13, 0)).unwrap();
    /// # let _ = ran;
    /// ```
    pub fn precompile_all(
        &self,
        kernels: &[(String, String)],
        arch: &str,
        nvrtc: (i32, i32),
    ) -> Result<usize> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let results: Vec<Result<usize>> = std::thread::scope(|s| {
            let workers: Vec<_> = kernels
                .chunks(kernels.len().div_ceil(threads).max(1))
                .map(|chunk| {
                    s.spawn(move || {
                        let mut ran = 0;
                        for (source, name) in chunk {
                            if self.precompile(source, name, arch, nvrtc)? {
                                ran += 1;
                            }
                        }
                        Ok(ran)
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| {
                    w.join()
                        .unwrap_or_else(|_| Err(Error::Driver("a compile thread panicked".into())))
                })
                .collect()
        });
        results.into_iter().sum()
    }

    /// Writes a CUBIN atomically; the disk cache is an optimisation, so failures only cost a
    /// recompilation in the next process.
    fn store(&self, path: &std::path::Path, cubin: &[u8]) {
        if std::fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&tmp, cubin).is_ok() && std::fs::rename(&tmp, path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }

    /// The cache directory of this cache.
    ///
    /// ```no_run
    /// # let gpu = tensorfft::Gpu::new(0).unwrap();
    /// println!("{}", gpu.modules().dir().display());
    /// ```
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }
}
