//! The progress bar of long sweeps. The bar is drawn only on a terminal; lines printed through
//! [`line`] appear either way (above the bar, or on standard output as they come when it is
//! redirected), so a run cut short by a time limit still leaves its finished rows.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar over `len` steps showing the current case as its message.
pub fn bar(len: usize) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Prints `text` above the bar, or straight to standard output when the bar is hidden (not a
/// terminal: indicatif drops `println` then).
pub fn line(bar: &ProgressBar, text: impl AsRef<str>) {
    if bar.is_hidden() {
        println!("{}", text.as_ref());
    } else {
        bar.println(text.as_ref());
    }
}
