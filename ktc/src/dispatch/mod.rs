//! The dispatcher's runtime half: a decision table loaded once, compiled for lookup,
//! with every region mapped to a variant that can run here.
//!
//! Generated `call` functions keep a [`Dispatch`] in a `OnceLock` and call
//! [`Dispatch::choose`] on every call: a bucket search over a flat array, then a match
//! on the variant index. Everything that can fail — no store, no entry, a stale or
//! invalid entry, a variant whose capability is missing — is settled in
//! [`Dispatch::load`], which never panics and warns once.

mod device;
mod fast;

use crate::decision::{CompiledTable, DecisionTable, Region};
use crate::registry::Tuner;
use crate::remote::{Fetched, fetch_current};
use crate::store::{KernelTuningCache, LookupStatus};
use crate::{AxisValue, Entry, Provenance, warn_once};
use fast::FastTable;
use std::path::PathBuf;

/// Where a [`Choice`] came from.
#[derive(Clone, Debug, PartialEq)]
pub enum ChoiceSource {
    /// A region of a stored entry.
    Region {
        /// The entry file.
        entry: PathBuf,
        /// The region's index in the entry.
        index: usize,
        /// The region, as text (`n ≤ 1000 → serial`).
        region: String,
    },
    /// The fallback variant, and why no region was used.
    Fallback {
        /// Why dispatch fell back.
        reason: String,
    },
}

/// Which variant and block size a call takes, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The variant's name.
    pub variant: &'static str,
    /// The variant's index in the kernel's declaration order.
    pub variant_index: usize,
    /// The block size, for variants that take one.
    pub block_size: Option<usize>,
    /// The region or the fallback reason.
    pub source: ChoiceSource,
}

impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.variant)?;
        if let Some(b) = self.block_size {
            write!(f, ", block {b}")?;
        }
        match &self.source {
            ChoiceSource::Region { entry, index, region } => {
                write!(f, " (region {index}: {region}; entry {})", entry.display())
            }
            ChoiceSource::Fallback { reason } => write!(f, " (fallback: {reason})"),
        }
    }
}

/// A kernel's loaded decision, ready for the hot path.
#[derive(Debug)]
pub struct Dispatch {
    tuner: &'static Tuner,
    /// The fast path, where the table has its shape.
    fast: Option<FastTable>,
    index: CompiledTable,
    /// Per region: (variant index, block size or 0).
    choices: Box<[(usize, usize)]>,
    /// Per region: why its variant was replaced by the fallback, if it was.
    rerouted: Box<[Option<String>]>,
    regions: Vec<Region>,
    entry: Option<PathBuf>,
    fallback_reason: Option<String>,
    /// The host's other GPUs, for calls on them (`None`: one GPU or none).
    devices: Option<Box<device::Devices>>,
}

impl Dispatch {
    /// Loads the newest valid entry for this host and the tuner's code version from the
    /// default store (`KTC_CACHE_DIR` or the user cache folder). On a local miss, a
    /// remote named by `KTC_REMOTE` is asked (bounded by `KTC_REMOTE_TIMEOUT_MS`) and
    /// a valid entry found there is stored locally and used. With
    /// `KTC_TUNE_ON_MISS=1`, a missing or stale entry is tuned now. Never panics:
    /// anything that stops an entry from being used gives the fallback, warned once.
    pub fn load(tuner: &'static Tuner) -> Dispatch {
        match KernelTuningCache::load_or_create() {
            Ok(cache) => Dispatch::load_from(tuner, &cache),
            Err(e) => Dispatch::fallback(tuner, format!("tuning cache unavailable: {e}")),
        }
    }

    /// As [`load`](Dispatch::load), from a given store: the store's fingerprint serves
    /// device 0 (and host-resident inputs); another GPU of this host, when a call runs
    /// on it, loads the entry of its own fingerprint from the same store.
    pub fn load_from(tuner: &'static Tuner, cache: &KernelTuningCache) -> Dispatch {
        Dispatch::load_from_device(tuner, cache, 0).with_devices(tuner, cache)
    }

    /// As [`load_from`](Dispatch::load_from), for CUDA device `device` only: the entry
    /// of the store's fingerprint for that device's provenance.
    pub fn load_from_device(tuner: &'static Tuner, cache: &KernelTuningCache, device: usize) -> Dispatch {
        let provenance = Provenance::for_device(&tuner.identity, device);
        let lookup = cache.load_quiet(tuner.name, &provenance, Some(&tuner.schema()));
        // One warning per cause: skipped files are named in the fallback's warning, or in
        // their own when a valid older entry is served.
        let skipped: Vec<String> = lookup.skipped.iter().map(|s| s.to_string()).collect();
        let skipped =
            if skipped.is_empty() { String::new() } else { format!("; skipped {}", skipped.join("; ")) };
        let miss_reason = match lookup.status {
            LookupStatus::Found { path, entry, .. } => {
                if !skipped.is_empty() {
                    warn_once(format!("{}: using {}{skipped}", tuner.name, path.display()));
                }
                return Dispatch::from_entry(tuner, path, &entry);
            }
            LookupStatus::Stale { path, changes, .. } => {
                let changes: Vec<String> = changes.iter().map(|c| c.to_string()).collect();
                format!("the tuning at {} is stale ({})", path.display(), changes.join("; "))
            }
            LookupStatus::Missing => format!(
                "no tuning for `{}` on {} (code version {}) in {}",
                tuner.name,
                cache.fingerprint(),
                provenance.code_version(),
                cache.root().display()
            ),
        } + &skipped;
        let schema = tuner.schema();
        let miss_reason = match fetch_current(cache, tuner.name, &provenance.code_version(), &schema) {
            Fetched::Entry { path, entry } => return Dispatch::from_entry(tuner, path, &entry),
            Fetched::NotConfigured => miss_reason,
            Fetched::Failed(why) => format!("{miss_reason}; {why}"),
        };
        if tune_on_miss() {
            return Dispatch::tune_now(tuner, cache, &miss_reason);
        }
        Dispatch::fallback(
            tuner,
            format!("{miss_reason}; run `cargo test` in the kernel's crate or set KTC_TUNE_ON_MISS=1"),
        )
    }

    fn tune_now(tuner: &'static Tuner, cache: &KernelTuningCache, miss_reason: &str) -> Dispatch {
        warn_once(format!("{miss_reason}; tuning `{}` now (KTC_TUNE_ON_MISS=1)", tuner.name));
        let options = crate::sweep::SweepOptions {
            cache_dir: Some(cache.root().to_path_buf()),
            fingerprint: Some(cache.fingerprint().to_string()),
            ..crate::sweep::SweepOptions::from_env()
        };
        match (tuner.sweep)(&options) {
            Ok(report) => Dispatch::from_entry(tuner, report.entry_path, &report.entry),
            Err(e) => Dispatch::fallback(tuner, format!("{miss_reason}; tuning on first use failed: {e}")),
        }
    }

    /// Dispatch from a validated entry: regions whose variant cannot run here (a
    /// missing capability) are rerouted to the fallback, with one warning.
    pub fn from_entry(tuner: &'static Tuner, path: PathBuf, entry: &Entry) -> Dispatch {
        let table = entry.table();
        let fallback = tuner.fallback_index();
        let mut choices = Vec::with_capacity(table.regions.len());
        let mut rerouted = Vec::with_capacity(table.regions.len());
        for region in &table.regions {
            let found = tuner.variants.iter().position(|v| v.name == region.variant);
            let (choice, why) = match found {
                Some(i) => match tuner.unavailable_reason(i) {
                    None => ((i, region.block_size.unwrap_or(0)), None),
                    Some(reason) => {
                        let why = format!("`{}` is unavailable here: {reason}", region.variant);
                        warn_once(format!(
                            "{}: {why}; using `{}` instead",
                            tuner.name, tuner.variants[fallback].name
                        ));
                        ((fallback, default_block(tuner, fallback)), Some(why))
                    }
                },
                // The store validated the entry against the tuner's schema, so this is
                // only reachable for an entry built by hand; fall back all the same.
                None => (
                    (fallback, default_block(tuner, fallback)),
                    Some(format!("unknown variant `{}`", region.variant)),
                ),
            };
            choices.push(choice);
            rerouted.push(why);
        }
        Dispatch {
            tuner,
            fast: FastTable::build(&table, |region| choices[region]),
            index: CompiledTable::compile(&table),
            choices: choices.into_boxed_slice(),
            rerouted: rerouted.into_boxed_slice(),
            regions: table.regions,
            entry: Some(path),
            fallback_reason: None,
            devices: None,
        }
    }

    /// Dispatch that always takes the fallback variant, warning once with `reason`.
    pub fn fallback(tuner: &'static Tuner, reason: String) -> Dispatch {
        let fallback = tuner.fallback_index();
        warn_once(format!("{}: {reason}; using `{}`", tuner.name, tuner.variants[fallback].name));
        let table = DecisionTable {
            axes: tuner.schema().axes,
            regions: vec![Region::new(tuner.variants[fallback].name)],
        };
        let choice = (fallback, default_block(tuner, fallback));
        Dispatch {
            tuner,
            fast: FastTable::build(&table, |_| choice),
            index: CompiledTable::compile(&table),
            choices: vec![choice].into_boxed_slice(),
            rerouted: vec![None].into_boxed_slice(),
            regions: table.regions,
            entry: None,
            fallback_reason: Some(reason),
            devices: None,
        }
    }

    /// The variant index and block size (0 for variants without one) for a call whose
    /// axes take these values, in the kernel's axis order. The hot path: no
    /// allocation, lock, syscall or formatting.
    #[inline(always)]
    pub fn choose<const N: usize>(&self, axes: &[AxisValue<'_>; N]) -> (usize, usize) {
        let this = self.on_current_device();
        if let Some(fast) = &this.fast
            && let Some(choice) = fast.find(axes)
        {
            return choice;
        }
        this.choose_general(axes)
    }

    /// Tables or queries the fast path does not cover: floats, labels, many bounds.
    #[inline(never)]
    fn choose_general(&self, axes: &[AxisValue<'_>]) -> (usize, usize) {
        let region = self.index.find(axes);
        match self.choices.get(region) {
            Some(&choice) => choice,
            None => self.choices[self.choices.len() - 1],
        }
    }

    /// What [`choose`](Dispatch::choose) picks for these axis values, and why.
    pub fn explain(&self, axes: &[AxisValue<'_>]) -> Choice {
        let this = self.on_current_device();
        if !std::ptr::eq(this, self) {
            return this.explain(axes);
        }
        let region = self.index.find(axes).min(self.choices.len() - 1);
        let (variant_index, block) = self.choices[region];
        let variant = &self.tuner.variants[variant_index];
        let block_size = (!variant.block_sizes.is_empty()).then_some(block);
        let source = match (&self.entry, &self.fallback_reason, &self.rerouted[region]) {
            (_, Some(reason), _) => ChoiceSource::Fallback { reason: reason.clone() },
            (Some(entry), None, Some(why)) => ChoiceSource::Fallback {
                reason: format!("region {region} of {} chose {why}", entry.display()),
            },
            (Some(entry), None, None) => ChoiceSource::Region {
                entry: entry.clone(),
                index: region,
                region: self.regions[region].to_string(),
            },
            (None, None, _) => ChoiceSource::Fallback { reason: "no entry".into() },
        };
        Choice { variant: variant.name, variant_index, block_size, source }
    }

    /// The entry this dispatch reads from, if any.
    pub fn entry_path(&self) -> Option<&std::path::Path> {
        self.entry.as_deref()
    }

    /// Why this dispatch always falls back, if it does.
    pub fn fallback_reason(&self) -> Option<&str> {
        self.fallback_reason.as_deref()
    }
}

/// The block size a variant runs with when no table names one: its first declared.
fn default_block(tuner: &Tuner, variant: usize) -> usize {
    tuner.variants[variant].block_sizes.first().copied().unwrap_or(0)
}

fn tune_on_miss() -> bool {
    std::env::var("KTC_TUNE_ON_MISS").is_ok_and(|v| v == "1" || v.eq_ignore_ascii_case("true"))
}
