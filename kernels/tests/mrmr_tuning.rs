//! Tune on first use, as the MRMR example does it: the first look sweeps and writes an
//! entry, the second finds that entry.

use ktc::KernelTuningCache;
use ktc_kernels::discretize;
use ktc_kernels::mrmr::{TuningStatus, ensure_tuned};

#[test]
fn first_use_tunes_then_later_uses_find_the_entry() {
    let dir = tempfile::tempdir().unwrap();
    let cache = KernelTuningCache::open(dir.path()).unwrap().with_fingerprint("test-mrmr-first-use");
    let tuner = discretize::Variant::kernel();
    let written = match ensure_tuned(&cache, tuner, false).unwrap() {
        TuningStatus::Tuned { reason, path, table } => {
            assert!(reason.starts_with("no tuning for `discretize` on test-mrmr-first-use"), "{reason}");
            assert!(!table.is_empty());
            path
        }
        found => panic!("an empty store has no tuning: {found:?}"),
    };
    assert!(written.starts_with(dir.path().join("test-mrmr-first-use").join("discretize")), "{written:?}");
    assert!(written.is_file());
    match ensure_tuned(&cache, tuner, false).unwrap() {
        TuningStatus::Found { path } => assert_eq!(path, written),
        other => panic!("the entry just written was not found: {other:?}"),
    }
}
