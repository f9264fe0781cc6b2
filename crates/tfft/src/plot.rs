//! PNG plot of a bench report: % of the device copy against N, tensorfft and cuFFT, per precision.

use crate::bench::BenchReport;
use plotters::prelude::*;
use std::path::Path;
use std::process::ExitCode;

const FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

fn plot_err(e: impl std::fmt::Display) -> tensorfft::Error {
    tensorfft::Error::Io(std::io::Error::other(format!("plot: {e}")))
}

pub fn from_json_file(json: &Path, png: &Path) -> Result<ExitCode, tensorfft::Error> {
    let text = std::fs::read_to_string(json)?;
    let report: BenchReport = serde_json::from_str(&text).map_err(plot_err)?;
    draw(&report, png)?;
    println!("wrote {}", png.display());
    Ok(ExitCode::SUCCESS)
}

pub fn draw(report: &BenchReport, path: &Path) -> Result<(), tensorfft::Error> {
    plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
        .map_err(|_| plot_err("font"))?;
    let root = BitMapBackend::new(path, (1000, 620)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_err)?;
    let device = report
        .meta
        .get("device")
        .and_then(|d| d.as_str())
        .unwrap_or("GPU");
    let max_lg = report
        .rows
        .iter()
        .map(|r| (r.n as f64).log2())
        .fold(4.0, f64::max);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("Batched 1D C2C, 2^27 elements: % of device copy ({device})"),
            ("sans-serif", 22),
        )
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(55)
        .build_cartesian_2d(3.5f64..max_lg + 0.5, 0f64..110f64)
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .x_desc("log2 N")
        .y_desc("% of device-to-device copy bandwidth")
        .label_style(("sans-serif", 15))
        .draw()
        .map_err(plot_err)?;
    let series = [
        ("f32", true, RGBColor(31, 119, 180)),
        ("f32", false, RGBColor(140, 180, 220)),
        ("f16", true, RGBColor(214, 39, 40)),
        ("f16", false, RGBColor(240, 150, 150)),
        ("f64", true, RGBColor(44, 160, 44)),
        ("f64", false, RGBColor(150, 210, 150)),
    ];
    for (prec, ours, color) in series {
        let pts: Vec<(f64, f64)> = report
            .rows
            .iter()
            .filter(|r| r.precision == prec)
            .filter_map(|r| {
                let y = if ours {
                    Some(r.tfft_pct_copy)
                } else {
                    r.cufft_pct_copy
                };
                y.map(|y| ((r.n as f64).log2(), y))
            })
            .collect();
        if pts.is_empty() {
            continue;
        }
        let label = format!("{} {}", if ours { "tensorfft" } else { "cuFFT" }, prec);
        let style = ShapeStyle {
            color: color.to_rgba(),
            filled: true,
            stroke_width: if ours { 3 } else { 2 },
        };
        chart
            .draw_series(LineSeries::new(pts.clone(), style))
            .map_err(plot_err)?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 4, style)))
            .map_err(plot_err)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .label_font(("sans-serif", 15))
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(plot_err)?;
    root.present().map_err(plot_err)?;
    Ok(())
}
