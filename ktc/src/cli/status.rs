//! Judging every entry of the store: current, superseded, stale or invalid (the rules
//! are in the module docs of `ktc::cli`).

use super::context::{Ctx, Failure};
use crate::provenance::{FieldChange, KernelIdentity, Provenance};
use crate::store::Listed;
use crate::{Entry, hw_fingerprint_for};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// What an entry is to this binary.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Status {
    /// The entry the dispatcher (or, unlinked, the newest code version) would serve.
    Current,
    /// A valid entry of the current code version, older than the newest.
    Superseded,
    /// Built from another provenance: these fields differ (stored → expected).
    Stale(Vec<FieldChange>),
    /// Unreadable or invalid, and why.
    Invalid(String),
}

impl Status {
    /// `current`, `superseded`, `stale` or `invalid`.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Status::Current => "current",
            Status::Superseded => "superseded",
            Status::Stale(_) => "stale",
            Status::Invalid(_) => "invalid",
        }
    }
}

/// One listed file and its judgement.
pub(crate) struct Judged {
    pub(crate) listed: Listed,
    pub(crate) status: Status,
}

/// Every entry file of the store, sorted by path, judged. A linked kernel's entries
/// are validated against its schema, as its dispatcher does, so the entry called
/// current is the one it serves.
pub(crate) fn judge(ctx: &Ctx) -> Vec<Judged> {
    let host = host_fingerprints(ctx);
    let mut judged: Vec<Judged> = ctx
        .cache
        .list_with(&ctx.schemas())
        .into_iter()
        .map(|listed| {
            let status = match &listed.entry {
                Err(reason) => Status::Invalid(reason.to_string()),
                Ok(entry) => {
                    let changes = expected(ctx, &host, entry).provenance_changed(&entry.provenance);
                    if changes.is_empty() { Status::Current } else { Status::Stale(changes) }
                }
            };
            Judged { listed, status }
        })
        .collect();
    rank_newest(&mut judged);
    judged
}

/// The entry of `kernel` under this fingerprint that `list` judges current.
pub(crate) fn current_entry(ctx: &Ctx, kernel: &str) -> Result<(PathBuf, Entry), Failure> {
    let found = judge(ctx).into_iter().find(|j| {
        j.listed.kernel == kernel
            && j.listed.fingerprint == ctx.cache.fingerprint()
            && matches!(j.status, Status::Current)
    });
    match found.and_then(|j| j.listed.entry.ok().map(|e| (j.listed.path, e))) {
        Some(found) => Ok(found),
        None => Err(Failure::error(format!(
            "no current entry for `{kernel}` on {} in {}; `ktc list` shows what the store holds, \
             `retune {kernel}` (from a binary linking the kernel) or its crate's `cargo test` tunes it",
            ctx.cache.fingerprint(),
            ctx.cache.root().display()
        ))),
    }
}

/// This host's fingerprint per GPU ordinal (at least ordinal 0), and `--fingerprint`.
fn host_fingerprints(ctx: &Ctx) -> HashMap<String, usize> {
    let mut host: HashMap<String, usize> =
        (0..crate::cuda::device_count().max(1)).map(|d| (hw_fingerprint_for(d), d)).collect();
    if let Some(fp) = &ctx.fingerprint {
        host.insert(fp.clone(), 0);
    }
    host
}

/// The provenance `entry` should have, as far as this binary can know it.
fn expected(ctx: &Ctx, host: &HashMap<String, usize>, entry: &Entry) -> Provenance {
    let tuner = ctx.kernel(&entry.kernel);
    let identity = tuner.map_or(KernelIdentity::UNSPECIFIED, |t| t.identity);
    let ordinal = host.get(&entry.fingerprint).copied();
    let mut p = Provenance::for_device(&identity, ordinal.unwrap_or(0));
    let stored = &entry.provenance;
    if tuner.is_none() {
        p.kernel_crate.clone_from(&stored.kernel_crate);
        p.kernel_crate_version.clone_from(&stored.kernel_crate_version);
        p.source_hash.clone_from(&stored.source_hash);
        p.build_profile.clone_from(&stored.build_profile);
        p.sources.clone_from(&stored.sources);
        p.dependencies.clone_from(&stored.dependencies);
        p.target_features.clone_from(&stored.target_features);
        p.features.clone_from(&stored.features);
    }
    if ordinal.is_none() {
        p.cuda_driver.clone_from(&stored.cuda_driver);
        p.nvrtc.clone_from(&stored.nvrtc);
        p.gpu.clone_from(&stored.gpu);
    }
    p
}

/// Of the entries judged current, per (fingerprint, kernel): the newest file stays
/// current, older ones of its code version are superseded, and other code versions are
/// stale against it (which only happens where some fields could not be judged).
fn rank_newest(judged: &mut [Judged]) {
    let mut newest: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (i, j) in judged.iter().enumerate() {
        if j.status == Status::Current {
            let key = (j.listed.fingerprint.clone(), j.listed.kernel.clone());
            let slot = newest.entry(key).or_insert(i);
            if j.listed.path.file_name() > judged[*slot].listed.path.file_name() {
                *slot = i;
            }
        }
    }
    for ((fingerprint, kernel), best) in newest {
        let best_version = judged[best].listed.code_version.clone();
        let best_provenance = judged[best].listed.entry.as_ref().ok().map(|e| e.provenance.clone());
        for (i, j) in judged.iter_mut().enumerate() {
            let same_key = j.listed.fingerprint == fingerprint && j.listed.kernel == kernel;
            if i == best || !same_key || j.status != Status::Current {
                continue;
            }
            j.status = match (&j.listed.entry, &best_provenance) {
                (Ok(_), _) if j.listed.code_version == best_version => Status::Superseded,
                (Ok(e), Some(p)) => Status::Stale(p.provenance_changed(&e.provenance)),
                _ => Status::Superseded,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::args::GcArgs;
    use crate::registry::{AxisInfo, GridValue, KernelInfo, VariantInfo};
    use crate::{
        Axis, AxisKind, AxisValue, ChoiceSource, DecisionTable, Dispatch, KernelTuningCache, Region,
    };

    fn no_sweep(_: &crate::sweep::SweepOptions) -> Result<crate::sweep::SweepReport, crate::Error> {
        Err(crate::Error::NoCacheDir)
    }

    static TUNER: KernelInfo = KernelInfo {
        name: "judged",
        module_path: "status::tests::judged",
        identity: KernelIdentity::new("status-test", "0.0.1", "00ff"),
        axes: &[AxisInfo { name: "n", kind: AxisKind::Numeric, grid: &[GridValue::Int(1)] }],
        variants: &[
            VariantInfo { name: "serial", block_sizes: &[], requires: &[], reference: true, default: false },
            VariantInfo {
                name: "parallel",
                block_sizes: &[128, 256],
                requires: &[],
                reference: false,
                default: false,
            },
        ],
        sweep: no_sweep,
        calls: crate::job::CallPattern::InALoop,
    };

    fn served(cache: &KernelTuningCache) -> Option<PathBuf> {
        match Dispatch::load_from(&TUNER, cache).explain(&[AxisValue::Int(5000)]).source {
            ChoiceSource::Region { entry, .. } => Some(entry),
            ChoiceSource::Fallback { .. } => None,
        }
    }

    /// A valid entry, then a newer copy the kernel's schema refuses: list, show and gc
    /// see what the dispatcher sees.
    #[test]
    fn list_show_and_gc_agree_with_the_dispatcher() {
        let edits: [fn(&mut serde_json::Value); 2] = [
            |v| v["regions"][0]["variant"] = "quantum".into(),
            |v| v["regions"][1]["block_size"] = (1u64 << 31).into(),
        ];
        for edit in edits {
            let dir = tempfile::tempdir().unwrap();
            let cache = KernelTuningCache::open(dir.path()).unwrap().with_fingerprint("fp");
            let table = DecisionTable {
                axes: vec![Axis::numeric("n")],
                regions: vec![
                    Region::new("serial").at_most("n", 1000.0),
                    Region::new("parallel").block_size(256),
                ],
            };
            let provenance = Provenance::current(&TUNER.identity);
            let good = cache.write_table_with(TUNER.name, &provenance, table.clone()).unwrap();
            let bad = cache.write_table_with(TUNER.name, &provenance, table).unwrap();
            let mut value: serde_json::Value = serde_json::from_slice(&std::fs::read(&bad).unwrap()).unwrap();
            edit(&mut value);
            std::fs::write(&bad, serde_json::to_vec(&value).unwrap()).unwrap();

            let ctx = Ctx {
                cache: cache.clone(),
                fingerprint: Some("fp".into()),
                json: true,
                kernels: vec![&TUNER],
            };
            assert_eq!(served(&cache).as_ref(), Some(&good));
            assert_eq!(current_entry(&ctx, TUNER.name).unwrap().0, good, "show's current entry");
            let judged = judge(&ctx);
            let status = |p: &PathBuf| judged.iter().find(|j| j.listed.path == *p).unwrap().status.clone();
            assert_eq!(status(&good), Status::Current);
            assert!(matches!(status(&bad), Status::Invalid(_)), "{:?}", status(&bad));

            super::super::gc::run(&ctx, &GcArgs { dry_run: false, keep: 1 }).unwrap();
            assert!(good.exists(), "gc removed the entry in use");
            assert_eq!(served(&cache).as_ref(), Some(&good));
        }
    }
}
