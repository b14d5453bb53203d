//! Which provenance fields differ between a stored entry and this build, named so a
//! warning says what changed (`source: src/joint_hist/cpu.rs changed`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Provenance;

/// One provenance field that differs between a stored entry and this build/host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldChange {
    /// The field name, as in [`Provenance`]; for one source file `source: <path>`, for
    /// one dependency `dependency: <name>`.
    pub field: String,
    /// The stored value (`none` where absent).
    pub old: String,
    /// The current value (`none` where absent).
    pub new: String,
}

impl std::fmt::Display for FieldChange {
    /// `field: old → new`; a source file reads `source: src/x.rs changed` (or `added`,
    /// `removed`): its hashes say nothing to a reader.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.field.starts_with("source: ") {
            let what = match (self.old.as_str(), self.new.as_str()) {
                ("none", _) => "added",
                (_, "none") => "removed",
                _ => "changed",
            };
            return write!(f, "{} {what}", self.field);
        }
        write!(f, "{}: {} → {}", self.field, self.old, self.new)
    }
}

/// The most changes a one-line summary names.
const SUMMARY_MAX: usize = 6;

/// The changes as one line for a warning or a listing: the first few, then how many
/// more. An entry written before a field existed differs in every key of it (every
/// dependency `none → …`), hundreds of changes that would bury the line.
pub(crate) fn summarize_changes(changes: &[FieldChange]) -> String {
    let shown: Vec<String> = changes.iter().take(SUMMARY_MAX).map(ToString::to_string).collect();
    match changes.len().saturating_sub(SUMMARY_MAX) {
        0 => shown.join("; "),
        more => format!("{}; and {more} more (`ktc list --json` names them all)", shown.join("; ")),
    }
}

pub(super) fn changes(current: &Provenance, stored: &Provenance) -> Vec<FieldChange> {
    let mut changes = Vec::new();
    let mut check = |field: &str, old: &str, new: &str| {
        if old != new {
            changes.push(FieldChange { field: field.to_owned(), old: old.to_owned(), new: new.to_owned() });
        }
    };
    let (s, c) = (stored, current);
    check("ktc_version", &s.ktc_version, &c.ktc_version);
    check("kernel_crate", &s.kernel_crate, &c.kernel_crate);
    check("kernel_crate_version", &s.kernel_crate_version, &c.kernel_crate_version);
    check("source_hash", &s.source_hash, &c.source_hash);
    check("rustc_version", &s.rustc_version, &c.rustc_version);
    check("build_profile", &s.build_profile, &c.build_profile);
    check("cuda_driver", &or_none(&s.cuda_driver), &or_none(&c.cuda_driver));
    check("nvrtc", &or_none(&s.nvrtc), &or_none(&c.nvrtc));
    if s.gpu != c.gpu {
        let (mut old, mut new) = (or_none(&s.gpu), or_none(&c.gpu));
        if old == new {
            // Differ below the summary's rounding: show everything.
            (old, new) = (format!("{:?}", s.gpu), format!("{:?}", c.gpu));
        }
        changes.push(FieldChange { field: "gpu".to_owned(), old, new });
    }
    map_changes(&mut changes, "source", &s.sources, &c.sources);
    map_changes(&mut changes, "dependency", &s.dependencies, &c.dependencies);
    let none = |v: &str| if v.is_empty() { "none".to_owned() } else { v.to_owned() };
    for (field, old, new) in
        [("target_features", &s.target_features, &c.target_features), ("features", &s.features, &c.features)]
    {
        if old != new {
            changes.push(FieldChange { field: field.to_owned(), old: none(old), new: none(new) });
        }
    }
    changes
}

/// One change per key added, removed or changed, as `<what>: <key>`.
fn map_changes(
    changes: &mut Vec<FieldChange>,
    what: &str,
    old: &BTreeMap<String, String>,
    new: &BTreeMap<String, String>,
) {
    let keys: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    for key in keys {
        let (o, n) = (old.get(key), new.get(key));
        if o != n {
            changes.push(FieldChange {
                field: format!("{what}: {key}"),
                old: o.cloned().unwrap_or_else(|| "none".to_owned()),
                new: n.cloned().unwrap_or_else(|| "none".to_owned()),
            });
        }
    }
}

/// A value's display form, `"none"` where absent.
fn or_none<T: std::fmt::Display>(value: &Option<T>) -> String {
    value.as_ref().map_or_else(|| "none".to_owned(), T::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_names_the_first_changes_and_counts_the_rest() {
        let change = |i: usize| FieldChange {
            field: format!("dependency: d{i}"),
            old: "none".into(),
            new: "1".into(),
        };
        let few: Vec<FieldChange> = (0..2).map(change).collect();
        assert_eq!(summarize_changes(&few), "dependency: d0: none → 1; dependency: d1: none → 1");
        let many: Vec<FieldChange> = (0..300).map(change).collect();
        let line = summarize_changes(&many);
        assert!(line.starts_with("dependency: d0: none → 1; "), "{line}");
        assert!(line.contains("d5: none → 1; and 294 more"), "{line}");
        assert!(!line.contains("d6:"), "{line}");
    }
}
