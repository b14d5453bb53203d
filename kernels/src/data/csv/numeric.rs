//! The common case at full speed: a piece with no quotes whose columns are all
//! numbers in plain decimal notation. One scan per record parses each number as it
//! finds its end, with no search for delimiters first. Anything else in a record
//! (spaces, exponents, long numbers, a blank line, a wrong field count, a bad value)
//! hands that record and the rest of the piece to the general path, which gives the
//! same values and reports errors exactly as always: this path only ever accepts what
//! the general path would accept, with the same result.

use super::number::POW10;
use super::swar::short_decimal;
use crate::data::builder::Builder as Part;
use crate::data::encode::is_integer;

/// Parses the leading records of `bytes` into `columns` (all numbers) while they are
/// plain; returns where the first record it did not take starts (`bytes.len()` when it
/// took them all), with every column holding exactly the records before it.
pub(super) fn plain_numbers(bytes: &[u8], columns: &mut [Part], discrete: bool) -> usize {
    let n_cols = columns.len();
    let mut pos = 0;
    'records: while pos < bytes.len() {
        let start = pos;
        for (j, column) in columns.iter_mut().enumerate() {
            let Part::Numbers(values) = column else { return start };
            let Some((value, end)) = decimal(bytes, pos) else {
                return rollback(columns, start, j);
            };
            if discrete && !is_integer(value) {
                return rollback(columns, start, j);
            }
            // The delimiter: a comma between fields, a line end after the last.
            let next = match (bytes.get(end), j + 1 == n_cols) {
                (Some(b','), false) => end + 1,
                (Some(b'\n'), true) => end + 1,
                (Some(b'\r'), true) if bytes.get(end + 1) == Some(&b'\n') => end + 2,
                (None, true) => end,
                _ => return rollback(columns, start, j),
            };
            values.push(value);
            pos = next;
        }
        continue 'records;
    }
    pos
}

/// Drops the `taken` values of the record that started at `start`; returns `start`.
fn rollback(columns: &mut [Part], start: usize, taken: usize) -> usize {
    for column in &mut columns[..taken] {
        if let Part::Numbers(values) = column {
            values.pop();
        }
    }
    start
}

/// `[-+]digits[.digits]` (at most 15 digits) at `bytes[pos..]`: the value (the
/// correctly rounded `m / 10^k`, as `number::fast_decimal` computes it) and where the
/// number ends.
#[inline]
fn decimal(bytes: &[u8], mut pos: usize) -> Option<(f64, usize)> {
    if let Some(short) = short_decimal(bytes, pos) {
        return Some(short);
    }
    let negative = match bytes.get(pos) {
        Some(b'-') => {
            pos += 1;
            true
        }
        Some(b'+') => {
            pos += 1;
            false
        }
        _ => false,
    };
    let (mut m, mut digits, mut places) = (0u64, 0usize, None::<usize>);
    while let Some(&b) = bytes.get(pos) {
        match b {
            b'0'..=b'9' => {
                m = m * 10 + u64::from(b - b'0');
                digits += 1;
                if let Some(p) = places.as_mut() {
                    *p += 1;
                }
                if digits > 15 {
                    return None;
                }
            }
            b'.' if places.is_none() => places = Some(0),
            _ => break,
        }
        pos += 1;
    }
    if digits == 0 {
        return None;
    }
    let v = m as f64 / POW10[places.unwrap_or(0)];
    Some((if negative { -v } else { v }, pos))
}
