//! Fields to typed columns: the types from a probe of the first records, then each
//! piece of the file parsed into its own column parts (numbers straight into `f64`,
//! labels into codes with a per-piece dictionary), merged in file order.

use super::fields::{Field, Flow, MAX_FIELD, for_each_field, trim};
use super::number::fast_decimal;
use super::numeric::plain_numbers;
pub(super) use crate::data::builder::Builder as Part;
use crate::data::encode::is_integer;

/// Records the probe types columns from.
const PROBE_RECORDS: usize = 1_000;

/// What a column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Numbers,
    Labels,
}

/// A problem in a piece: where its record starts (a byte offset into the piece) and
/// which field (1-based; 0 for the record as a whole).
#[derive(Debug)]
pub(super) struct Problem {
    pub(super) record_start: usize,
    pub(super) column: usize,
    pub(super) message: String,
}

/// Each column's kind from the first records of `bytes`: numbers where most values
/// parse as numbers, labels otherwise. Typing by the majority (not by the first row)
/// means a stray word in a numeric column is reported where it is, as a bad number.
pub(super) fn probe(bytes: &[u8], n_cols: usize) -> Vec<Kind> {
    let mut numbers = vec![(0usize, 0usize); n_cols];
    let mut records = 0;
    let _ = for_each_field(bytes, |f: Field<'_>| -> Result<Flow, ()> {
        let t = trim(f.bytes);
        if let (Some(count), false) = (numbers.get_mut(f.index), t.is_empty()) {
            let is_number = std::str::from_utf8(t).is_ok_and(|s| s.parse::<f64>().is_ok());
            *count = (count.0 + usize::from(is_number), count.1 + usize::from(!is_number));
        }
        records += usize::from(f.record_end);
        Ok(if records >= PROBE_RECORDS { Flow::Stop } else { Flow::More })
    });
    numbers
        .iter()
        .map(|&(num, text)| if num > 0 && num >= text { Kind::Numbers } else { Kind::Labels })
        .collect()
}

/// Parses whole records into `parts` (one per column, empty, of the columns' kinds):
/// plain numeric records by the fast scan, the rest (from the first record it declines)
/// field by field.
pub(super) fn parse_piece(bytes: &[u8], parts: &mut [Part], discrete: bool) -> Result<(), Problem> {
    let all_numbers = parts.iter().all(|p| matches!(p, Part::Numbers(_)));
    let done = if all_numbers && memchr::memchr(b'"', bytes).is_none() {
        plain_numbers(bytes, parts, discrete)
    } else {
        0
    };
    parse_fields(&bytes[done..], parts, discrete)
        .map_err(|p| Problem { record_start: p.record_start + done, ..p })
}

/// [`parse_piece`]'s general path: every field through [`for_each_field`].
pub(super) fn parse_fields(bytes: &[u8], parts: &mut [Part], discrete: bool) -> Result<(), Problem> {
    let n_cols = parts.len();
    for_each_field(bytes, |f| {
        let problem =
            |column: usize, message: String| Problem { record_start: f.record_start, column, message };
        if f.truncated {
            return Err(problem(f.index + 1, format!("a field longer than {MAX_FIELD} bytes")));
        }
        if f.index >= n_cols {
            let message = format!("expected {n_cols} fields like the header, found more");
            return Err(problem(f.index + 1, message));
        }
        if f.record_end && f.index + 1 < n_cols {
            if f.index == 0 && trim(f.bytes).is_empty() {
                return Ok(Flow::More); // a blank line
            }
            return Err(problem(
                0,
                format!("expected {n_cols} fields like the header, found {}", f.index + 1),
            ));
        }
        push(&mut parts[f.index], f.bytes, discrete).map_err(|m| problem(f.index + 1, m))?;
        Ok(Flow::More)
    })
}

/// Checks the start of a record too long for the block (its end not read yet): an
/// excess field fails here, long before the whole line would be in memory.
pub(super) fn check_partial(bytes: &[u8], n_cols: usize) -> Result<(), Problem> {
    for_each_field(bytes, |f| {
        let problem =
            |message: String| Problem { record_start: f.record_start, column: f.index + 1, message };
        if f.index >= n_cols {
            return Err(problem(format!("expected {n_cols} fields like the header, found more")));
        }
        if f.truncated || f.bytes.len() > MAX_FIELD {
            return Err(problem(format!("a field longer than {MAX_FIELD} bytes")));
        }
        Ok(Flow::More)
    })
}

fn push(part: &mut Part, raw: &[u8], discrete: bool) -> Result<(), String> {
    let t = trim(raw);
    if t.is_empty() {
        return Err("empty value".into());
    }
    if let (Part::Numbers(v), Some(x)) = (&mut *part, fast_decimal(t)) {
        if discrete && !is_integer(x) {
            return Err(format!("`{}` is not an integer code (--discrete)", String::from_utf8_lossy(t)));
        }
        v.push(x);
        return Ok(());
    }
    let text =
        std::str::from_utf8(t).map_err(|e| format!("invalid UTF-8 (at byte {})", e.valid_up_to() + 1))?;
    match part {
        Part::Numbers(v) => match text.parse::<f64>() {
            Ok(x) if !x.is_finite() => Err(format!("`{text}` is not a finite number")),
            Ok(x) if discrete && !is_integer(x) => {
                Err(format!("`{text}` is not an integer code (--discrete)"))
            }
            Ok(x) => {
                v.push(x);
                Ok(())
            }
            Err(_) => Err(format!("`{text}` is not a number, as most values of this column are")),
        },
        Part::Labels { .. } => {
            part.push_label(text);
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Part, parse_fields, parse_piece};
    use crate::data::SplitMix64;

    fn columns(n: usize) -> Vec<Part> {
        (0..n).map(|_| Part::new(true)).collect()
    }

    fn numbers(parts: &[Part]) -> Vec<Vec<u64>> {
        parts
            .iter()
            .map(|p| match p {
                Part::Numbers(v) => v.iter().map(|x| x.to_bits()).collect(),
                _ => vec![],
            })
            .collect()
    }

    /// Random numeric CSV pieces with quirks (spaces, exponents, long numbers, CRLF,
    /// blank lines, short and long records, junk): the fast scan plus the general path
    /// give exactly the general path's values and errors.
    #[test]
    fn the_fast_scan_changes_nothing() {
        let mut rng = SplitMix64::new(5);
        let tokens = [
            "0",
            "-1.25",
            "3.14159",
            "+7",
            "12345678901234567",
            " 4.5",
            "1e3",
            "-0.0",
            ".5",
            "x",
            "",
            "99.",
            "-",
        ];
        for case in 0..2_000 {
            let n_cols = 1 + rng.below(4) as usize;
            let mut text = String::new();
            for _ in 0..rng.below(6) {
                let fields = if rng.below(20) == 0 {
                    n_cols + 1
                } else if rng.below(20) == 0 {
                    1
                } else {
                    n_cols
                };
                let quirky = rng.below(4) == 0;
                let row: Vec<&str> = (0..fields)
                    .map(|_| {
                        if quirky {
                            tokens[rng.below(tokens.len() as u64) as usize]
                        } else {
                            tokens[rng.below(3) as usize + 1]
                        }
                    })
                    .collect();
                text.push_str(&row.join(","));
                text.push_str(if rng.below(5) == 0 { "\r\n" } else { "\n" });
            }
            let discrete = rng.below(3) == 0;
            let (mut fast, mut slow) = (columns(n_cols), columns(n_cols));
            let a = parse_piece(text.as_bytes(), &mut fast, discrete)
                .map_err(|p| (p.record_start, p.column, p.message));
            let b = parse_fields(text.as_bytes(), &mut slow, discrete)
                .map_err(|p| (p.record_start, p.column, p.message));
            assert_eq!(a, b, "case {case}: {text:?}");
            if a.is_ok() {
                assert_eq!(numbers(&fast), numbers(&slow), "case {case}: {text:?}");
            }
        }
    }
}
