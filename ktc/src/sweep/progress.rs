//! A progress bar on long sweeps when stderr is a terminal; nothing otherwise.

use std::io::IsTerminal;

/// Progress over a sweep's (grid point × candidate) runs.
pub(crate) struct Progress {
    #[cfg(feature = "progress")]
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    pub(super) fn new(kernel: &str, total: u64, wanted: bool) -> Progress {
        let shown = wanted && std::io::stderr().is_terminal();
        #[cfg(feature = "progress")]
        {
            let bar = shown.then(|| {
                let bar = indicatif::ProgressBar::new(total);
                let style = indicatif::ProgressStyle::with_template(
                    "{prefix} [{bar:30}] {pos}/{len} points {elapsed_precise} {msg}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
                bar.set_style(style.progress_chars("=> "));
                bar.set_prefix(format!("tuning {kernel}"));
                bar
            });
            Progress { bar }
        }
        #[cfg(not(feature = "progress"))]
        {
            let _ = (kernel, total, shown);
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

    pub(super) fn finish(&self) {
        #[cfg(feature = "progress")]
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
