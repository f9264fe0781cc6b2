//! PNG plot of a bench report: % of the device copy against the elements per transform (log2),
//! tensorfft and cuFFT, one series per precision and rank (1D lines, 2D triangles, 3D squares).

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
    let root = BitMapBackend::new(path, (1100, 680)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_err)?;
    let device = report
        .meta
        .get("device")
        .and_then(|d| d.as_str())
        .unwrap_or("GPU");
    let lg = |r: &crate::bench::BenchRow| (r.n.max(1) as f64).log2();
    let max_lg = report.rows.iter().map(lg).fold(4.0, f64::max);
    let min_lg = report.rows.iter().map(lg).fold(4.0, f64::min);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("Batched C2C, 2^27 elements (f64 2^26): % of device copy ({device})"),
            ("sans-serif", 22),
        )
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(55)
        // Room on the right for the legend.
        .build_cartesian_2d(min_lg - 0.5..max_lg + 5.5, 0f64..110f64)
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .x_desc("log2 of the elements per transform (N, Ny·Nx, Nz·Ny·Nx)")
        .y_desc("% of device-to-device copy bandwidth")
        .label_style(("sans-serif", 15))
        .draw()
        .map_err(plot_err)?;
    let colors = [
        ("f32", RGBColor(31, 119, 180), RGBColor(140, 180, 220)),
        ("f16", RGBColor(214, 39, 40), RGBColor(240, 150, 150)),
        ("f64", RGBColor(44, 160, 44), RGBColor(150, 210, 150)),
    ];
    for (prec, strong, light) in colors {
        for rank in 1..=crate::shape::MAX_RANK {
            for ours in [true, false] {
                let mut pts: Vec<(f64, f64)> = report
                    .rows
                    .iter()
                    .filter(|r| r.precision == prec && r.dims().len() == rank)
                    .filter_map(|r| {
                        let y = if ours {
                            Some(r.tfft_pct_copy)
                        } else {
                            r.cufft_pct_copy
                        };
                        y.map(|y| (lg(r), y))
                    })
                    .collect();
                if pts.is_empty() {
                    continue;
                }
                pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                let label = format!(
                    "{} {prec} {rank}D",
                    if ours { "tensorfft" } else { "cuFFT" }
                );
                let color = if ours { strong } else { light };
                let style = ShapeStyle {
                    color: color.to_rgba(),
                    filled: true,
                    stroke_width: if ours { 3 } else { 2 },
                };
                chart
                    .draw_series(LineSeries::new(pts.clone(), style))
                    .map_err(plot_err)?
                    .label(label)
                    .legend(move |(x, y)| {
                        EmptyElement::at((x, y))
                            + PathElement::new(vec![(0, 0), (24, 0)], style)
                            + marker(rank, (12, 0), style)
                    });
                chart
                    .draw_series(
                        pts.iter()
                            .map(|&p| EmptyElement::at(p) + marker(rank, (0, 0), style)),
                    )
                    .map_err(plot_err)?;
            }
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font(("sans-serif", 15))
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(plot_err)?;
    root.present().map_err(plot_err)?;
    Ok(())
}

/// The marker of a rank at `at` (pixels from the element's anchor): circles for 1D, triangles
/// for 2D, squares for 3D.
fn marker<DB: DrawingBackend>(
    rank: usize,
    at: (i32, i32),
    style: ShapeStyle,
) -> DynElement<'static, DB, (i32, i32)> {
    let (x, y) = at;
    match rank {
        1 => Circle::new(at, 4, style).into_dyn(),
        2 => TriangleMarker::new(at, 6, style).into_dyn(),
        _ => Rectangle::new([(x - 4, y - 4), (x + 4, y + 4)], style).into_dyn(),
    }
}
