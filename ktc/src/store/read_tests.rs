//! The lookup's relisting when files vanish under it, with the listing scripted: a
//! reader racing gc is not reproducible on demand, the listing it saw is.

use super::name::Key;
use super::read::newest_valid_listed;
use super::{KernelTuningCache, Region};
use crate::decision::DecisionTable;
use crate::{Axis, KernelIdentity, Provenance};
use std::path::PathBuf;

#[test]
fn files_that_vanish_after_the_listing_make_the_lookup_list_again() {
    let dir = tempfile::tempdir().unwrap();
    let cache = KernelTuningCache::open(dir.path()).unwrap().with_fingerprint("fp");
    let provenance = Provenance::current(&KernelIdentity::UNSPECIFIED);
    let table = DecisionTable { axes: vec![Axis::numeric("n")], regions: vec![Region::new("serial")] };
    let kept = cache.write_table_with("k", &provenance, table).unwrap();
    let folder = kept.parent().unwrap().to_owned();
    // The first listing names two files gc removed since; the second what gc kept.
    let gone: Vec<PathBuf> =
        ["20000101T000000.000000Z-0000000000000001.json", "20000101T000000.000000Z-0000000000000002.json"]
            .iter()
            .map(|n| folder.join(n))
            .collect();
    let mut listings = vec![vec![kept.clone()], gone];
    let code_version = provenance.code_version();
    let key = Key { fingerprint: "fp", kernel: "k", code_version: &code_version };
    let mut skipped = Vec::new();
    let found = newest_valid_listed(|_| listings.pop().unwrap_or_default(), key, None, &mut skipped);
    assert_eq!(found.map(|(path, _)| path), Some(kept));
    assert!(skipped.is_empty(), "a vanished file is not invalid: {skipped:?}");
}

#[test]
fn a_folder_without_vanished_files_is_listed_once() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("20000101T000000.000000Z-0000000000000001.json");
    std::fs::write(&garbage, b"{").unwrap();
    let key = Key { fingerprint: "fp", kernel: "k", code_version: "cv" };
    let (mut listings, mut skipped) = (0, Vec::new());
    let found = newest_valid_listed(
        |_| {
            listings += 1;
            vec![garbage.clone()]
        },
        key,
        None,
        &mut skipped,
    );
    assert!(found.is_none());
    assert_eq!((listings, skipped.len()), (1, 1), "{skipped:?}");
}
