//! The dispatcher's runtime half: a decision table loaded once, compiled for lookup,
//! with every region mapped to a variant that can run here.
//!
//! Generated `call` functions keep a [`Dispatch`] in a `OnceLock` and call
//! [`Dispatch::choose`] on every call: the [`CompiledTable`]'s lookup (a binary search
//! per axis into a flat grid of cells), then a match on the variant index.
//! [`Dispatch::explain`] runs the same lookup. Everything that can fail — no store, no entry, a stale or
//! invalid entry, a variant whose capability is missing — is settled before the first
//! call, by [`Dispatch::load`] (the policy lives in [`resolve`](crate::resolve)) or
//! here in [`Dispatch::from_entry`] and [`Dispatch::fallback`], which never panic and
//! warn once. This module depends on the decision table and the registry only.

mod device;

use crate::decision::{AxisValue, CompiledTable, DecisionTable, Region};
use crate::entry::Entry;
use crate::registry::KernelInfo;
use crate::warn::warn_once;
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
    kernel: &'static KernelInfo,
    index: CompiledTable,
    /// Per cell of `index`: its region's entry of `choices`, so the hot path reads the
    /// decision in one load after the lookup.
    cells: Box<[(usize, usize)]>,
    /// Per region: (variant index, block size or 0).
    choices: Box<[(usize, usize)]>,
    /// The fallback's (variant index, block size), for a query no region contains
    /// (only possible in a table built by hand without a catch-all).
    none: (usize, usize),
    /// Per region: why its variant was replaced by the fallback, if it was.
    rerouted: Box<[Option<String>]>,
    regions: Vec<Region>,
    entry: Option<PathBuf>,
    fallback_reason: Option<String>,
    /// The host's other GPUs, for calls on them (`None`: one GPU or none).
    devices: Option<Box<device::Devices>>,
}

impl Dispatch {
    /// Dispatch from a validated entry: regions whose variant cannot run here (a
    /// missing capability) are rerouted to the fallback, with one warning.
    pub fn from_entry(kernel: &'static KernelInfo, path: PathBuf, entry: &Entry) -> Dispatch {
        let table = entry.table();
        let index = match CompiledTable::compile(&table) {
            Ok(index) => index,
            Err(e) => return Dispatch::fallback(kernel, format!("invalid table in {}: {e}", path.display())),
        };
        let fallback = kernel.fallback_index();
        let mut choices = Vec::with_capacity(table.regions.len());
        let mut rerouted = Vec::with_capacity(table.regions.len());
        for region in &table.regions {
            let found = kernel.variants.iter().position(|v| v.name == region.variant);
            let (choice, why) = match found {
                Some(i) => match kernel.unavailable_reason(i) {
                    None => ((i, region.block_size.unwrap_or(0)), None),
                    Some(reason) => {
                        let why = format!("`{}` is unavailable here: {reason}", region.variant);
                        warn_once(format!(
                            "{}: {why}; using `{}` instead",
                            kernel.name, kernel.variants[fallback].name
                        ));
                        ((fallback, default_block(kernel, fallback)), Some(why))
                    }
                },
                // The store validated the entry against the kernel's schema, so this is
                // only reachable for an entry built by hand; fall back all the same.
                None => (
                    (fallback, default_block(kernel, fallback)),
                    Some(format!("unknown variant `{}`", region.variant)),
                ),
            };
            choices.push(choice);
            rerouted.push(why);
        }
        let none = (fallback, default_block(kernel, fallback));
        Dispatch {
            kernel,
            cells: cell_choices(&index, &choices, none),
            index,
            choices: choices.into_boxed_slice(),
            none,
            rerouted: rerouted.into_boxed_slice(),
            regions: table.regions,
            entry: Some(path),
            fallback_reason: None,
            devices: None,
        }
    }

    /// Dispatch that always takes the fallback variant, warning once with `reason`.
    pub fn fallback(kernel: &'static KernelInfo, reason: String) -> Dispatch {
        let fallback = kernel.fallback_index();
        warn_once(format!("{}: {reason}; using `{}`", kernel.name, kernel.variants[fallback].name));
        let table = DecisionTable {
            axes: kernel.schema().axes,
            regions: vec![Region::new(kernel.variants[fallback].name)],
        };
        let choice = (fallback, default_block(kernel, fallback));
        // One catch-all region over the kernel's own axes: always compiles.
        let index = CompiledTable::compile(&table).expect("a one-region table compiles");
        Dispatch {
            kernel,
            cells: cell_choices(&index, &[choice], choice),
            index,
            choices: vec![choice].into_boxed_slice(),
            none: choice,
            rerouted: vec![None].into_boxed_slice(),
            regions: table.regions,
            entry: None,
            fallback_reason: Some(reason),
            devices: None,
        }
    }

    /// The variant index and block size (0 for variants without one) for a call whose
    /// axes take these values, in the kernel's axis order: what
    /// [`choose_inline`](Dispatch::choose_inline) answers, for every table, query and
    /// device. No allocation, lock, syscall or formatting.
    #[inline]
    pub fn choose<const N: usize>(&self, axes: &[AxisValue<'_>; N]) -> (usize, usize) {
        let this = self.on_current_device();
        this.choice_of_cell(this.index.cell(axes))
    }

    /// The hot path: [`choose`](Dispatch::choose)'s answer where it needs nothing but
    /// what this struct holds inline (the usual table of a few numeric axes, integer
    /// axis values, every thread on device 0), else `None`, for the caller to call
    /// `choose` out of line. A generated `call` inlines this, so that its own code is
    /// a handful of compares, one load and a tail call to the variant, with no stack
    /// frame: whatever could need one lies behind the `None`.
    #[inline(always)]
    pub fn choose_inline<const N: usize>(&self, axes: &[AxisValue<'_>; N]) -> Option<(usize, usize)> {
        if crate::cuda::other_device_selected() {
            return None;
        }
        // The first half of `CompiledTable::cell`, which `choose` and `explain` run.
        self.index.small_cell(axes).map(|cell| self.choice_of_cell(cell))
    }

    /// The choice of the region of cell `cell`.
    #[inline(always)]
    fn choice_of_cell(&self, cell: usize) -> (usize, usize) {
        // `cells[c]` is `choice_in(region_of_cell(c))`, as `explain` reads it. Every
        // cell is in range by construction; the check is one predictable branch.
        self.cells.get(cell).copied().unwrap_or(self.none)
    }

    /// The choice for region `region` as [`CompiledTable::find`] returns it.
    #[inline(always)]
    fn choice_in(&self, region: usize) -> (usize, usize) {
        self.choices.get(region).copied().unwrap_or(self.none)
    }

    /// What [`choose`](Dispatch::choose) picks for these axis values, and why: the same
    /// lookup, then the region's description.
    pub fn explain(&self, axes: &[AxisValue<'_>]) -> Choice {
        let this = self.on_current_device();
        if !std::ptr::eq(this, self) {
            return this.explain(axes);
        }
        let region = self.index.find(axes);
        let (variant_index, block) = self.choice_in(region);
        let variant = &self.kernel.variants[variant_index];
        let block_size = (!variant.block_sizes.is_empty()).then_some(block);
        let rerouted = self.rerouted.get(region);
        let source = match (&self.entry, &self.fallback_reason, rerouted) {
            (_, Some(reason), _) => ChoiceSource::Fallback { reason: reason.clone() },
            (Some(_), None, None) => ChoiceSource::Fallback { reason: "no region contains the query".into() },
            (Some(entry), None, Some(Some(why))) => ChoiceSource::Fallback {
                reason: format!("region {region} of {} chose {why}", entry.display()),
            },
            (Some(entry), None, Some(None)) => ChoiceSource::Region {
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

/// Per cell of `index`, the choice of its region (`none` where no region contains it).
fn cell_choices(
    index: &CompiledTable,
    choices: &[(usize, usize)],
    none: (usize, usize),
) -> Box<[(usize, usize)]> {
    (0..index.cell_count()).map(|c| choices.get(index.region_of_cell(c)).copied().unwrap_or(none)).collect()
}

/// The block size a variant runs with when no table names one: its first declared.
fn default_block(kernel: &KernelInfo, variant: usize) -> usize {
    kernel.variants[variant].block_sizes.first().copied().unwrap_or(0)
}
