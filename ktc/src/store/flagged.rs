//! Points a `verify` flagged, recorded beside the entry it verified, so that the next
//! `retune --refine` re-sweeps them even where its own verify does not flag them: a
//! point whose regret is a close call on a shared host is flagged by one verify and
//! not by the next (on the 2-core development VM, `joint_hist_batched` at 1 063 × 4 ×
//! 982 measured 1.148, then 1.055 in the refine's own verify, which kept the entry,
//! then 1.188).
//!
//! Each verify that flags writes its own file, `<entry stem>.flagged-<16 hex>` (never
//! `.json`, so no reader takes it for an entry): no file is rewritten, so two verifies
//! never lose each other's points. A new entry starts with none; `gc` removes an
//! entry's records with it.

use super::read_names;
use super::write::{nonce, write_temp};
use crate::error::Error;
use crate::warn::warn_once;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

/// A point, by axis name, as a verify reports it.
pub(crate) type Point = BTreeMap<String, serde_json::Value>;

/// The most points read from one entry's records: a hostile or runaway folder cannot
/// make a refine measure without end.
const MAX_POINTS: usize = 64;

/// The largest record file read (a verify's holds a few points).
const MAX_BYTES: u64 = 64 * 1024;

#[derive(Serialize, Deserialize)]
struct Record {
    /// The entry's file name: a record copied beside another entry is not its.
    entry: String,
    points: Vec<Point>,
}

/// The prefix of `entry`'s record files.
fn prefix(entry: &Path) -> Option<String> {
    let stem = entry.file_stem()?.to_str()?;
    Some(format!("{stem}.flagged-"))
}

/// Records `points` beside `entry` in a new file; returns its path.
pub(crate) fn record_flagged(entry: &Path, points: &[Point]) -> Result<PathBuf, Error> {
    let (Some(dir), Some(prefix), Some(name)) =
        (entry.parent(), prefix(entry), entry.file_name().and_then(|n| n.to_str()))
    else {
        let reason = std::io::Error::new(std::io::ErrorKind::InvalidInput, "not an entry file name");
        return Err(Error::io("record flagged points", entry, reason));
    };
    let record = Record { entry: name.to_string(), points: points.to_vec() };
    let bytes = serde_json::to_vec_pretty(&record)
        .map_err(|e| Error::io("record flagged points", entry, e.into()))?;
    let tmp = write_temp(dir, &bytes)?;
    let path = dir.join(format!("{prefix}{}", nonce()));
    let published = fs::rename(&tmp, &path).map_err(|e| Error::io("record flagged points", &path, e));
    if published.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    published.map(|()| path)
}

/// `entry`'s record files.
pub(crate) fn flagged_files(entry: &Path) -> Vec<PathBuf> {
    let (Some(dir), Some(prefix)) = (entry.parent(), prefix(entry)) else { return Vec::new() };
    let mut skipped = Vec::new();
    let mut files: Vec<PathBuf> = read_names(dir, &mut skipped)
        .into_iter()
        .filter(|(n, _)| n.starts_with(&prefix))
        .map(|(_, p)| p)
        .collect();
    files.sort();
    files
}

/// Every point recorded beside `entry`, each once, up to [`MAX_POINTS`]. A record that
/// cannot be read, is not JSON of the record's shape, or names another entry is
/// skipped with one warning: it costs a refine nothing but those points.
pub(crate) fn recorded_flagged(entry: &Path) -> Vec<Point> {
    let name = entry.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let mut points: Vec<Point> = Vec::new();
    for path in flagged_files(entry) {
        match read_record(&path) {
            Ok(record) if record.entry == name => {
                for p in record.points {
                    if points.len() < MAX_POINTS && !points.contains(&p) {
                        points.push(p);
                    }
                }
            }
            Ok(record) => {
                warn_once(format!(
                    "ignoring {}: it records points flagged for {}, not for {name}",
                    path.display(),
                    record.entry
                ));
            }
            Err(reason) => {
                warn_once(format!("ignoring {}: {reason}", path.display()));
            }
        }
    }
    points
}

fn read_record(path: &Path) -> Result<Record, String> {
    // Through links, before opening: a folder or a pipe under the name is no record
    // (opening a pipe would wait for a writer).
    let meta = fs::metadata(path).map_err(|e| format!("cannot read it: {e}"))?;
    if !meta.is_file() {
        return Err("not a file".into());
    }
    if meta.len() > MAX_BYTES {
        return Err(format!(
            "{} bytes, more than a record of flagged points holds ({MAX_BYTES})",
            meta.len()
        ));
    }
    let mut text = String::new();
    fs::File::open(path)
        .and_then(|f| f.take(MAX_BYTES).read_to_string(&mut text))
        .map_err(|e| format!("cannot read it: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("not a record of flagged points: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(n: u64) -> Point {
        BTreeMap::from([("n".to_string(), serde_json::Value::from(n))])
    }

    #[test]
    fn records_add_up_and_belong_to_their_entry() {
        let dir = tempfile::tempdir().unwrap();
        let entry = dir.path().join("20261201T000000.000000Z-0000000000000001.json");
        let other = dir.path().join("20261201T000000.000000Z-0000000000000002.json");
        assert!(recorded_flagged(&entry).is_empty());
        let first = record_flagged(&entry, &[point(10), point(20)]).unwrap();
        record_flagged(&entry, &[point(20), point(30)]).unwrap();
        record_flagged(&other, &[point(40)]).unwrap();
        assert!(!first.to_string_lossy().ends_with(".json"), "never read as an entry: {}", first.display());
        let mut got = recorded_flagged(&entry);
        got.sort_by_key(|p| p["n"].as_u64());
        assert_eq!(got, [point(10), point(20), point(30)]);
        assert_eq!(recorded_flagged(&other), [point(40)]);
        assert_eq!(flagged_files(&entry).len(), 2);
    }

    #[test]
    fn a_bad_record_is_skipped_and_the_others_still_count() {
        let dir = tempfile::tempdir().unwrap();
        let entry = dir.path().join("20261201T000000.000000Z-0000000000000001.json");
        record_flagged(&entry, &[point(10)]).unwrap();
        let stem = "20261201T000000.000000Z-0000000000000001";
        fs::write(dir.path().join(format!("{stem}.flagged-garbage")), b"{ not json").unwrap();
        fs::write(dir.path().join(format!("{stem}.flagged-huge")), vec![b' '; MAX_BYTES as usize + 1])
            .unwrap();
        // A record copied from another entry's folder names that entry.
        let copied = r#"{"entry": "20261130T000000.000000Z-0000000000000009.json", "points": [{"n": 99}]}"#;
        fs::write(dir.path().join(format!("{stem}.flagged-copied")), copied).unwrap();
        fs::create_dir(dir.path().join(format!("{stem}.flagged-folder"))).unwrap();
        assert_eq!(recorded_flagged(&entry), [point(10)]);
    }

    #[test]
    fn a_runaway_record_is_read_up_to_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let entry = dir.path().join("20261201T000000.000000Z-0000000000000001.json");
        let many: Vec<Point> = (0..MAX_POINTS as u64 + 10).map(point).collect();
        record_flagged(&entry, &many).unwrap();
        assert_eq!(recorded_flagged(&entry).len(), MAX_POINTS);
    }
}
