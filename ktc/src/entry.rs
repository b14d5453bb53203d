//! The stored entry: one immutable JSON file per sweep result.

use crate::HostLoad;
use crate::decision::{Axis, DecisionTable, Region};
use crate::provenance::Provenance;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The entry format's schema number. An entry with another number is skipped, never
/// misread; fields added later carry `#[serde(default)]` so the number rarely moves.
pub const SCHEMA: u32 = 1;

/// One tuning result for (fingerprint, kernel, code_version).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The format's schema number ([`SCHEMA`]).
    pub schema: u32,
    /// The kernel's name.
    pub kernel: String,
    /// The hardware fingerprint the entry was measured on.
    pub fingerprint: String,
    /// `provenance.code_version()` at the time of writing.
    pub code_version: String,
    /// What the tuning depends on.
    pub provenance: Provenance,
    /// Creation time, RFC 3339 UTC with microseconds (`2026-11-30T03:25:16.123456Z`).
    pub created: String,
    /// The axes of the decision table.
    pub axes: Vec<Axis>,
    /// The regions of the decision table, first match wins.
    pub regions: Vec<Region>,
    /// The sweep's raw measurements, when the entry came from a sweep.
    #[serde(default)]
    pub measurements: Vec<Measurement>,
    /// Variants excluded by the sweep, with the reason.
    #[serde(default)]
    pub excluded: Vec<Exclusion>,
    /// Relative noise seen during the sweep (spread / median, the largest over winners).
    #[serde(default)]
    pub noise: Option<f64>,
    /// The command that reproduces the sweep.
    #[serde(default)]
    pub reproduce: Option<String>,
    /// How busy the machine was while the sweep measured (for `retune --refine`, the
    /// busier of the re-sweep and the entry it kept measurements from); `None` in
    /// entries written before it was recorded, or where the system keeps no count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<HostLoad>,
    /// How close to the fastest a candidate counted as tied, as a ratio (`1.21`: within
    /// 21%): what further looks at points moved close leads by on this host, so a lead
    /// within it was no evidence and the best fixed choice won. `None` where the sweep
    /// took too few further looks to tell (grid-only sweeps) and in older entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_margin: Option<f64>,
    /// The pause in microseconds before each timed call, where the sweep timed one call
    /// after each pause (see [`CallPattern`](crate::sweep::CallPattern)); `None`: calls
    /// in a loop, and older entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_pause_us: Option<u64>,
}

impl Entry {
    /// The most measurements, and the most exclusions, an entry may hold; one with more
    /// is rejected with the count wherever it comes from (written, read, pulled,
    /// imported). A sweep measures its grid and refined points (at most nine per grid
    /// point) for every candidate: a few thousand for real kernels. The limit bounds the
    /// work `show`, `plot` and `refine` do on a hostile entry, which the 16 MiB file cap
    /// alone would let hold ~280,000.
    pub const MAX_MEASUREMENTS: usize = 100_000;

    /// The decision table (axes and regions).
    pub fn table(&self) -> DecisionTable {
        DecisionTable { axes: self.axes.clone(), regions: self.regions.clone() }
    }
}

/// One timed (grid point, variant, block size) of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// The grid point, by axis name. Categorical values are stored as strings.
    pub point: BTreeMap<String, serde_json::Value>,
    /// The variant.
    pub variant: String,
    /// The block size, for variants that take one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_size: Option<usize>,
    /// Median run time in nanoseconds.
    pub median_ns: f64,
    /// Spread of the run times in nanoseconds (median absolute deviation).
    pub spread_ns: f64,
    /// How many timed runs the median is over.
    pub runs: u32,
    /// Every timed run in nanoseconds, in round order (the `k`-th runs of two variants at
    /// one point ran in the same round, back to back). Empty in entries written before
    /// runs were kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples_ns: Vec<u64>,
}

/// A variant a sweep did not consider, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exclusion {
    /// The variant.
    pub variant: String,
    /// The block size, where the exclusion is for one block size only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_size: Option<usize>,
    /// The grid point, where the exclusion is for one point only.
    #[serde(default)]
    pub point: Option<BTreeMap<String, serde_json::Value>>,
    /// Why: failed verification (with the first difference), capability missing, ...
    pub reason: String,
}
