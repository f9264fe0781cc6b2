//! The progress bar of long sweeps. Its output is drawn only on a terminal, so everything that
//! matters is also printed with `println!` at the end of a run.

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
