//! The shared display of several sweeps' progress bars; the bars themselves are drawn
//! by the sweep (`sweep/progress.rs`).

/// A group of progress bars shown together, one line per sweep, each line labelled
/// (`sum on cpu`). Cloning shares the display. Without the `progress` feature it shows
/// nothing.
#[derive(Clone, Default)]
pub struct ProgressGroup {
    #[cfg(feature = "progress")]
    pub(crate) multi: indicatif::MultiProgress,
    pub(crate) label: Option<String>,
}

impl std::fmt::Debug for ProgressGroup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProgressGroup").field("label", &self.label).finish_non_exhaustive()
    }
}

impl ProgressGroup {
    /// A new, empty group.
    pub fn new() -> Self {
        ProgressGroup::default()
    }

    /// The same group, with `label` as the prefix of the next sweep's line.
    pub fn labelled(&self, label: impl Into<String>) -> Self {
        ProgressGroup { label: Some(label.into()), ..self.clone() }
    }
}
