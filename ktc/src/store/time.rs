//! UTC time stamps without a date library: RFC 3339 for `Entry.created`, and a compact
//! sortable form for entry file names.

use std::time::{SystemTime, UNIX_EPOCH};

/// A UTC instant broken into civil fields, to the microsecond.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Utc {
    year: i64,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
    second: u32,
    micros: u32,
}

impl Utc {
    /// The civil UTC fields of `t`; instants before 1970 are clamped to the epoch.
    pub(crate) fn of(t: SystemTime) -> Self {
        let since = t.duration_since(UNIX_EPOCH).unwrap_or_default();
        let secs = since.as_secs();
        let (year, month, day) = civil_from_days((secs / 86_400) as i64);
        let in_day = secs % 86_400;
        Utc {
            year,
            month,
            day,
            hour: (in_day / 3600) as u32,
            minute: (in_day / 60 % 60) as u32,
            second: (in_day % 60) as u32,
            micros: since.subsec_micros(),
        }
    }

    /// `2026-11-30T03:25:16.123456Z`.
    pub(crate) fn rfc3339(&self) -> String {
        let Utc { year, month, day, hour, minute, second, micros } = *self;
        format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}.{micros:06}Z")
    }

    /// `20261130T032516.123456Z`: fixed width, so names sort by time as strings do.
    pub(crate) fn file_stamp(&self) -> String {
        let Utc { year, month, day, hour, minute, second, micros } = *self;
        format!("{year:04}{month:02}{day:02}T{hour:02}{minute:02}{second:02}.{micros:06}Z")
    }
}

/// The current UTC time as RFC 3339 with microseconds (`2026-11-30T03:25:16.123456Z`),
/// the format of [`Entry::created`](crate::Entry::created).
pub fn now_rfc3339() -> String {
    Utc::of(SystemTime::now()).rfc3339()
}

/// (year, month, day) of the day `days` after 1970-01-01, proleptic Gregorian
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(20_787), (2026, 11, 30));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn formats() {
        let t = UNIX_EPOCH + Duration::from_micros(1_796_009_116_123_456);
        let utc = Utc::of(t);
        assert_eq!(utc.rfc3339(), "2026-11-30T03:25:16.123456Z");
        assert_eq!(utc.file_stamp(), "20261130T032516.123456Z");
    }
}
