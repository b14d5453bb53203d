//! A progress bar on long sweeps when stderr is a terminal; nothing otherwise. Bars of
//! one [`ProgressGroup`](super::ProgressGroup) stack as lines of one display (indicatif's `MultiProgress`).

use super::SweepOptions;
use std::io::IsTerminal;

/// Progress over a sweep's grid points.
pub(crate) struct Progress {
    #[cfg(feature = "progress")]
    bar: Option<indicatif::ProgressBar>,
    /// A grouped bar stays on screen when done, so the group reads as a summary.
    #[cfg(feature = "progress")]
    keep: bool,
}

impl Progress {
    pub(super) fn new(kernel: &str, total: u64, options: &SweepOptions) -> Progress {
        let shown = options.progress && std::io::stderr().is_terminal();
        let group = options.progress_group.as_ref();
        let label = group.and_then(|g| g.label.clone()).unwrap_or_else(|| kernel.to_owned());
        #[cfg(feature = "progress")]
        {
            let bar = shown.then(|| {
                let bar = indicatif::ProgressBar::new(total);
                let style = indicatif::ProgressStyle::with_template(
                    "{prefix} [{bar:30}] {pos}/{len} points {elapsed_precise} {msg}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
                bar.set_style(style.progress_chars("=> "));
                bar.set_prefix(format!("tuning {label}"));
                match group {
                    Some(g) => g.multi.add(bar),
                    None => bar,
                }
            });
            Progress { bar, keep: group.is_some() }
        }
        #[cfg(not(feature = "progress"))]
        {
            let _ = (label, total, shown, group);
            Progress {}
        }
    }

    pub(super) fn point_done(&self, _label: &str) {
        #[cfg(feature = "progress")]
        if let Some(bar) = &self.bar {
            bar.set_message(_label.to_string());
            bar.inc(1);
        }
    }

    /// Grows the bar by `n` points found on the way (refinement).
    pub(super) fn add_points(&self, _n: u64) {
        #[cfg(feature = "progress")]
        if let Some(bar) = &self.bar {
            bar.inc_length(_n);
        }
    }

    pub(super) fn finish(&self) {
        #[cfg(feature = "progress")]
        if let Some(bar) = &self.bar {
            if self.keep {
                bar.finish_with_message("done");
            } else {
                bar.finish_and_clear();
            }
        }
    }
}
