//! PNG plot of an NTT bench report: on the left the time of one transform against log2 N (log
//! scale), on the right the % of the device copy per pass of the batched rows; tensorfft in
//! strong colours, the block-synchronous baseline in light ones, one colour per field.

use crate::ntt_bench::NttBenchRow;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use serde::Deserialize;
use std::path::Path;
use std::process::ExitCode;

const FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

fn plot_err(e: impl std::fmt::Display) -> tensorfft::Error {
    tensorfft::Error::Io(std::io::Error::other(format!("plot: {e}")))
}

#[derive(Deserialize)]
struct Report {
    meta: serde_json::Value,
    rows: Vec<NttBenchRow>,
}

/// Draws the plot of a JSON report written by `tfft ntt bench --json`.
pub fn from_json_file(json: &Path, png: &Path) -> Result<ExitCode, tensorfft::Error> {
    let text = std::fs::read_to_string(json)?;
    let report: Report = serde_json::from_str(&text).map_err(plot_err)?;
    let device = report
        .meta
        .get("device")
        .and_then(|d| d.as_str())
        .unwrap_or("GPU")
        .to_string();
    draw(&report.rows, &device, png)?;
    println!("wrote {}", png.display());
    Ok(ExitCode::SUCCESS)
}

const FIELDS: [(&str, RGBColor, RGBColor); 4] = [
    ("babybear", RGBColor(31, 119, 180), RGBColor(150, 190, 225)),
    (
        "koalabear",
        RGBColor(148, 103, 189),
        RGBColor(200, 180, 225),
    ),
    ("goldilocks", RGBColor(214, 39, 40), RGBColor(240, 150, 150)),
    ("fhe62", RGBColor(44, 160, 44), RGBColor(150, 210, 150)),
];

/// Draws `rows` (natural-order, contiguous rows only) to `path`.
pub fn draw(rows: &[NttBenchRow], device: &str, path: &Path) -> Result<(), tensorfft::Error> {
    plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
        .map_err(|_| plot_err("font"))?;
    let root = BitMapBackend::new(path, (1300, 620)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_err)?;
    let (left, right) = root.split_horizontally(650);
    let plain = |r: &&NttBenchRow| r.orders == "NR" && !r.interleaved && r.limbs == 1;
    let single: Vec<&NttBenchRow> = rows
        .iter()
        .filter(plain)
        .filter(|r| r.transforms == 1)
        .collect();
    let batched: Vec<&NttBenchRow> = rows
        .iter()
        .filter(plain)
        .filter(|r| r.transforms > 1)
        .collect();
    let (lo, hi) = rows.iter().fold((f64::MAX, 0f64), |(a, b), r| {
        (
            a.min(r.tfft_ms.min(r.baseline_ms)),
            b.max(r.tfft_ms.max(r.baseline_ms)),
        )
    });
    let mut chart = ChartBuilder::on(&left)
        .caption(
            format!("NTT, one transform, NR ({device})"),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(9.5f64..24.5f64, (lo.max(1e-4) * 0.8..hi * 1.25).log_scale())
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .x_desc("log2 N")
        .y_desc("ms (median of event-timed runs)")
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(plot_err)?;
    series(&mut chart, &single, |r| r.tfft_ms, |r| r.baseline_ms)?;
    let mut chart = ChartBuilder::on(&right)
        .caption(
            "NTT, batches of 2^26 words: % of copy per pass",
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(9.5f64..24.5f64, 0f64..100f64)
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .x_desc("log2 N")
        .y_desc("% of device copy, per pass")
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(plot_err)?;
    series(
        &mut chart,
        &batched,
        |r| r.pct_copy_per_pass,
        |r| r.pct_copy_per_pass * r.tfft_ms / r.baseline_ms,
    )?;
    root.present().map_err(plot_err)?;
    Ok(())
}

/// One line per field for tensorfft (`ours`) and the baseline (`base`), with a legend.
fn series<'a, DB: DrawingBackend + 'a, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, Y>>,
    rows: &[&NttBenchRow],
    ours: impl Fn(&NttBenchRow) -> f64,
    base: impl Fn(&NttBenchRow) -> f64,
) -> Result<(), tensorfft::Error> {
    for (field, strong, light) in FIELDS {
        let mine: Vec<&&NttBenchRow> = rows.iter().filter(|r| r.field == field).collect();
        if mine.is_empty() {
            continue;
        }
        for (is_ours, color) in [(true, strong), (false, light)] {
            // One point per length (the first row of it), in order of length.
            let mut pts: Vec<(f64, f64)> = Vec::new();
            for r in &mine {
                let x = r.log_n as f64;
                if !pts.iter().any(|p| p.0 == x) {
                    pts.push((x, if is_ours { ours(r) } else { base(r) }));
                }
            }
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            let style = ShapeStyle {
                color: color.to_rgba(),
                filled: true,
                stroke_width: if is_ours { 3 } else { 2 },
            };
            let label = format!("{field} {}", if is_ours { "tensorfft" } else { "baseline" });
            chart
                .draw_series(LineSeries::new(pts.clone(), style))
                .map_err(plot_err)?
                .label(label)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], style));
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 3, style)))
                .map_err(plot_err)?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font(("sans-serif", 13))
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(plot_err)?;
    Ok(())
}
