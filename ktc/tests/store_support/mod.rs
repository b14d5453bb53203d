//! What the store tests share: a fixed fingerprint and kernel, provenance, a table and
//! its schema, and helpers to open the store and read its folders.
// Each test file that includes this uses a different part of it.
#![allow(dead_code)]

use ktc::{Axis, DecisionTable, KernelSchema, KernelTuningCache, LookupStatus, Provenance, Region};
use std::fs;
use std::path::{Path, PathBuf};

pub(crate) const FP: &str = "test-fp";
pub(crate) const KERNEL: &str = "joint_hist";

/// A well-formed entry file name newer than anything written today.
pub(crate) const FUTURE: &str = "29991231T235959.999999Z-0000000000000000.json";

pub(crate) fn prov(source_hash: &str) -> Provenance {
    Provenance {
        ktc_version: "0.1.0".into(),
        kernel_crate: "kernels".into(),
        kernel_crate_version: "1.0.0".into(),
        source_hash: source_hash.into(),
        rustc_version: "rustc 1.95.0".into(),
        build_profile: "release".into(),
        cuda_driver: None,
        nvrtc: None,
        gpu: None,
        ..Provenance::default()
    }
}

pub(crate) fn table() -> DecisionTable {
    DecisionTable {
        axes: vec![Axis::numeric("n")],
        regions: vec![Region::new("serial").at_most("n", 1000.0), Region::new("parallel").block_size(256)],
    }
}

pub(crate) fn schema() -> KernelSchema {
    KernelSchema {
        axes: vec![Axis::numeric("n")],
        variants: vec![("serial".into(), vec![]), ("parallel".into(), vec![128, 256, 512])],
    }
}

pub(crate) fn open(dir: &Path) -> KernelTuningCache {
    KernelTuningCache::open(dir).expect("open store").with_fingerprint(FP)
}

pub(crate) fn key_dir(cache: &KernelTuningCache, p: &Provenance) -> PathBuf {
    cache.root().join(FP).join(KERNEL).join(p.code_version())
}

pub(crate) fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
}

pub(crate) fn found_path(status: &LookupStatus) -> &Path {
    match status {
        LookupStatus::Found { path, .. } => path,
        other => panic!("expected Found, got {other:?}"),
    }
}
