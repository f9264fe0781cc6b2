//! Run metadata recorded with every check and bench report.

use serde::Serialize;
use tensorfft::Gpu;

/// Where and when a report was produced.
#[derive(Serialize, Clone, Debug)]
pub struct RunMeta {
    pub tool: String,
    pub git_commit: String,
    pub date_utc: String,
    pub device: String,
    pub compute_capability: String,
    pub multiprocessors: i32,
    pub driver_version: String,
    pub nvrtc_version: String,
    pub seed: u64,
}

impl RunMeta {
    pub fn new(gpu: &Gpu, seed: u64) -> Self {
        let info = gpu.info();
        let (nm, nn) = gpu.nvrtc_version();
        RunMeta {
            tool: format!("tfft {}", env!("CARGO_PKG_VERSION")),
            git_commit: env!("TFFT_GIT_COMMIT").to_string(),
            date_utc: now_utc(),
            device: info.name.clone(),
            compute_capability: format!(
                "{}.{}",
                info.compute_capability.0, info.compute_capability.1
            ),
            multiprocessors: info.multiprocessors,
            driver_version: format!(
                "{}.{}",
                info.driver_version / 1000,
                (info.driver_version % 1000) / 10
            ),
            nvrtc_version: format!("{nm}.{nn}"),
            seed,
        }
    }
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// Writes a report as pretty JSON and says so.
pub fn write_json(path: &std::path::Path, report: &impl Serialize) -> std::io::Result<()> {
    std::fs::write(
        path,
        serde_json::to_string_pretty(report).unwrap_or_default(),
    )?;
    println!("wrote {}", path.display());
    Ok(())
}

/// Success when nothing failed.
pub fn exit_code(ok: bool) -> std::process::ExitCode {
    if ok {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
