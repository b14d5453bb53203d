//! What reading and writing share: the key folders, the entry file names, the time
//! rules for the stamps in names and in `created` (strict shape, a bounded clock skew),
//! and the rules every entry obeys wherever it comes from.

use super::invalid::{Ahead, EntryError};
use super::time::Utc;
use crate::entry::Entry;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Prefix of files still being written. Readers ignore them; `gc` removes old ones.
pub(crate) const TMP_PREFIX: &str = ".tmp-";

/// How far ahead of this host's clock an entry may be dated and still count: hosts that
/// share a store disagree by a little, never by this much. A later date would shadow
/// every newer entry until the clock caught up, so such entries are skipped.
pub(crate) const MAX_CLOCK_SKEW: Duration = Duration::from_secs(5 * 60);

/// The folder names an entry must repeat inside.
#[derive(Clone, Copy)]
pub(crate) struct Key<'a> {
    pub(crate) fingerprint: &'a str,
    pub(crate) kernel: &'a str,
    pub(crate) code_version: &'a str,
}

/// Whether `name` is an entry file name: `<yyyymmddThhmmss.ffffffZ>-<16 hex>.json` with
/// a real calendar date and time.
pub(crate) fn is_entry_file_name(name: &str) -> bool {
    let b = name.as_bytes();
    let hex = |r: std::ops::Range<usize>| b[r].iter().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'));
    // 20261130T032516.123456Z-9f2c41d07a3b55e8.json
    b.len() == 45
        && stamp_micros(&name[..23]).is_some()
        && &b[23..24] == b"-"
        && hex(24..40)
        && &b[40..] == b".json"
}

/// Microseconds since the epoch of a file stamp `20261130T032516.123456Z`; `None` for
/// any other shape or an impossible date or time.
pub(crate) fn stamp_micros(stamp: &str) -> Option<u64> {
    let b = stamp.as_bytes();
    if b.len() != 23 || b[8] != b'T' || b[15] != b'.' || b[22] != b'Z' {
        return None;
    }
    civil_micros(
        &stamp[0..4],
        &stamp[4..6],
        &stamp[6..8],
        &stamp[9..11],
        &stamp[11..13],
        &stamp[13..15],
        &stamp[16..22],
    )
}

/// Microseconds since the epoch of a `created` time as ktc writes it,
/// `2026-11-30T03:25:16.123456Z`; `None` for any other shape or an impossible date.
pub(crate) fn created_micros(created: &str) -> Option<u64> {
    let b = created.as_bytes();
    let seps = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':'), (19, b'.'), (26, b'Z')];
    if b.len() != 27 || seps.iter().any(|&(i, c)| b[i] != c) {
        return None;
    }
    let c = created;
    civil_micros(&c[0..4], &c[5..7], &c[8..10], &c[11..13], &c[14..16], &c[17..19], &c[20..26])
}

/// The file stamp of a `created` time (`2026-11-30T03:25:16.123456Z` →
/// `20261130T032516.123456Z`), when `created` passes [`check_created`]'s shape.
pub(crate) fn created_stamp(created: &str) -> Option<String> {
    created_micros(created).map(|micros| Utc::of(UNIX_EPOCH + Duration::from_micros(micros)).file_stamp())
}

/// `created` as the store accepts it: RFC 3339 UTC with microseconds, a real date,
/// not later than [`MAX_CLOCK_SKEW`] ahead of now.
pub(crate) fn check_created(created: &str) -> Result<(), EntryError> {
    let micros = created_micros(created).ok_or_else(|| EntryError::Created(created.to_owned()))?;
    if micros > latest_allowed() {
        return Err(EntryError::CreatedAhead { created: created.to_owned(), ahead: ahead() });
    }
    Ok(())
}

/// The rules every entry obeys wherever it comes from (written, imported, read, pulled):
/// `code_version` is the hash of its provenance, `created` a real UTC time not ahead
/// of this host's clock by more than the allowed skew, and at most
/// [`Entry::MAX_MEASUREMENTS`] measurements and exclusions.
pub(crate) fn check_entry(entry: &Entry) -> Result<(), EntryError> {
    let max = Entry::MAX_MEASUREMENTS;
    for (count, what) in [(entry.measurements.len(), "measurements"), (entry.excluded.len(), "exclusions")] {
        if count > max {
            return Err(EntryError::TooMany { count, what, max });
        }
    }
    let hash = entry.provenance.code_version();
    if entry.code_version != hash {
        return Err(EntryError::CodeVersion { found: entry.code_version.clone(), hash });
    }
    check_created(&entry.created)
}

/// Why an entry file name is dated too far ahead to count, if it is.
pub(crate) fn future_dated(name: &str) -> Option<EntryError> {
    let micros = name.get(..23).and_then(stamp_micros)?;
    (micros > latest_allowed())
        .then(|| EntryError::FutureDated { stamp: name[..23].to_owned(), ahead: ahead() })
}

fn ahead() -> Ahead {
    Ahead { skew_minutes: MAX_CLOCK_SKEW.as_secs() / 60, now: Utc::of(SystemTime::now()).rfc3339() }
}

/// Now plus the allowed skew, in microseconds since the epoch.
fn latest_allowed() -> u64 {
    micros_of(SystemTime::now() + MAX_CLOCK_SKEW)
}

pub(crate) fn micros_of(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).unwrap_or_default().as_micros().try_into().unwrap_or(u64::MAX)
}

/// Microseconds since the epoch of the given decimal fields, each checked.
fn civil_micros(y: &str, mo: &str, d: &str, h: &str, mi: &str, s: &str, us: &str) -> Option<u64> {
    let num = |t: &str| -> Option<u64> {
        (!t.is_empty() && t.bytes().all(|c| c.is_ascii_digit())).then(|| t.parse().ok()).flatten()
    };
    let (year, month, day) = (num(y)?, num(mo)?, num(d)?);
    let (hour, minute, second, micros) = (num(h)?, num(mi)?, num(s)?, num(us)?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let month_days = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let valid = (1970..=9999).contains(&year)
        && (1..=12).contains(&month)
        && day >= 1
        && day <= month_days[(month as usize).saturating_sub(1).min(11)]
        && hour < 24
        && minute < 60
        && second < 60;
    if !valid {
        return None;
    }
    let days = days_from_civil(year as i64, month as i64, day as i64) as u64;
    Some(((days * 86_400 + hour * 3600 + minute * 60 + second) * 1_000_000) + micros)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_round_trip_through_micros() {
        let t = UNIX_EPOCH + Duration::from_micros(1_796_009_116_123_456);
        let stamp = Utc::of(t).file_stamp();
        assert_eq!(stamp_micros(&stamp), Some(1_796_009_116_123_456));
        assert_eq!(created_micros(&Utc::of(t).rfc3339()), Some(1_796_009_116_123_456));
        assert_eq!(created_stamp("2026-11-30T03:25:16.123456Z").as_deref(), Some("20261130T032516.123456Z"));
        assert_eq!(stamp_micros("19700101T000000.000000Z"), Some(0));
        assert_eq!(created_micros("2000-02-29T23:59:59.999999Z").map(|m| m % 1_000_000), Some(999_999));
    }

    #[test]
    fn impossible_times_are_refused() {
        for bad in [
            "",
            "08:99:99",
            "2026-11-30T08:99:99.000000Z",
            "2026-02-29T00:00:00.000000Z",
            "2026-13-01T00:00:00.000000Z",
            "2026-11-30 03:25:16.123456Z",
            "2026-11-30T03:25:16Z",
            "+026-11-30T03:25:16.123456Z",
            "../../../../etc/passwd-xxxxxxxxxx",
        ] {
            assert_eq!(created_micros(bad), None, "{bad:?}");
            assert!(check_created(bad).is_err(), "{bad:?}");
        }
        assert!(!is_entry_file_name("20261399T032516.123456Z-9f2c41d07a3b55e8.json"));
        assert!(!is_entry_file_name("20261130T032516.123456Z-9f2c41d07a3b55eX.json"));
        assert!(is_entry_file_name("20261130T032516.123456Z-9f2c41d07a3b55e8.json"));
    }

    #[test]
    fn the_future_is_a_few_minutes_away() {
        let soon = Utc::of(SystemTime::now() + Duration::from_secs(60)).file_stamp();
        assert!(future_dated(&format!("{soon}-0000000000000000.json")).is_none());
        let later = Utc::of(SystemTime::now() + Duration::from_secs(600)).file_stamp();
        assert!(
            future_dated(&format!("{later}-0000000000000000.json")).unwrap().to_string().contains("ahead")
        );
        assert!(check_created(&Utc::of(SystemTime::now() + Duration::from_secs(600)).rfc3339()).is_err());
        assert!(check_created(&Utc::of(SystemTime::now()).rfc3339()).is_ok());
    }
}
