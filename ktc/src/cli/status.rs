//! Judging every entry of the store: current, superseded, stale or invalid (the rules
//! are in the module docs of `ktc::cli`).

use super::context::Ctx;
use crate::provenance::{FieldChange, KernelIdentity, Provenance};
use crate::store::Listed;
use crate::{Entry, hw_fingerprint_for};
use std::collections::{BTreeMap, HashMap};

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

/// Every entry file of the store, sorted by path, judged.
pub(crate) fn judge(ctx: &Ctx) -> Vec<Judged> {
    let host = host_fingerprints(ctx);
    let mut judged: Vec<Judged> = ctx
        .cache
        .list()
        .into_iter()
        .map(|listed| {
            let status = match &listed.entry {
                Err(reason) => Status::Invalid(reason.clone()),
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
    let tuner = ctx.tuner(&entry.kernel);
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
