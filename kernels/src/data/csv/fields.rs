//! The one loop over csv-core that every pass shares: fields one at a time into a
//! small reused buffer, so no record (and no line) is ever held whole, and a pass can
//! stop at the first field that is wrong.

use csv_core::{ReadFieldResult, Reader};

/// The longest field kept (1 MiB): a number or a label is far shorter, and a longer
/// "field" is a file that is not the CSV it claims to be.
pub(super) const MAX_FIELD: usize = 1 << 20;

/// One field as the parser hands it over.
pub(super) struct Field<'a> {
    /// The field's bytes, unquoted.
    pub(super) bytes: &'a [u8],
    /// Its position in the record (0-based).
    pub(super) index: usize,
    /// Whether it is the record's last.
    pub(super) record_end: bool,
    /// Where its record starts in the input (before any blank lines it skipped).
    pub(super) record_start: usize,
    /// It was cut at [`MAX_FIELD`] bytes.
    pub(super) truncated: bool,
}

/// Whether a pass wants more fields.
pub(super) enum Flow {
    /// Go on.
    More,
    /// Stop here (a probe that has seen enough).
    Stop,
}

/// Calls `f` on every field of `input`, as [`parse_fields`]; input without a single
/// `"` (most numeric files) takes a path that only looks for commas and line breaks
/// (memchr), several times faster than the full state machine and, for such input,
/// the same fields: a `\r` before a line break stays in the last field, where every
/// caller trims it, and an empty line is a record of one empty field, which every
/// caller skips as csv-core skips the line.
pub(super) fn for_each_field<E>(input: &[u8], f: impl FnMut(Field<'_>) -> Result<Flow, E>) -> Result<(), E> {
    if memchr::memchr(b'"', input).is_none() { plain_fields(input, f) } else { parse_fields(input, f) }
}

/// The fields of input with no quotes: the bytes between commas and line breaks.
fn plain_fields<E>(input: &[u8], mut f: impl FnMut(Field<'_>) -> Result<Flow, E>) -> Result<(), E> {
    let (mut start, mut index, mut record_start) = (0usize, 0usize, 0usize);
    let mut ends = memchr::memchr2_iter(b',', b'\n', input);
    loop {
        let (end, record_end) = match ends.next() {
            Some(i) => (i, input[i] == b'\n'),
            // The input's end ends a last record only if one has begun (a comma after
            // the last line break makes an empty last field, as in csv-core).
            None if start == input.len() && index == 0 => return Ok(()),
            None => (input.len(), true),
        };
        let field = Field { bytes: &input[start..end], index, record_end, record_start, truncated: false };
        let flow = f(field)?;
        start = end + 1;
        if record_end {
            index = 0;
            record_start = start;
        } else {
            index += 1;
        }
        if let Flow::Stop = flow {
            return Ok(());
        }
        if start > input.len() {
            return Ok(());
        }
    }
}

/// Calls `f` on every field of `input` (RFC 4180: commas, double quotes, `""` inside
/// quotes, `\n` or `\r\n` ends, line breaks inside quotes), stopping at its first error
/// or [`Flow::Stop`].
fn parse_fields<E>(input: &[u8], mut f: impl FnMut(Field<'_>) -> Result<Flow, E>) -> Result<(), E> {
    let mut reader = Reader::new();
    let mut out = vec![0u8; 256];
    let (mut len, mut index, mut record_start) = (0usize, 0usize, 0usize);
    let mut rest = input;
    loop {
        let (result, nin, nout) = reader.read_field(rest, &mut out[len..]);
        rest = &rest[nin..];
        len += nout;
        let record_end = match result {
            // Input used up: the next call, with no input, tells the parser it ended.
            ReadFieldResult::InputEmpty => continue,
            ReadFieldResult::OutputFull if out.len() < MAX_FIELD => {
                out.resize(out.len() * 2, 0);
                continue;
            }
            ReadFieldResult::OutputFull => {
                let field =
                    Field { bytes: &out[..len], index, record_end: false, record_start, truncated: true };
                f(field)?;
                return Ok(());
            }
            ReadFieldResult::Field { record_end } => record_end,
            ReadFieldResult::End => return Ok(()),
        };
        let field = Field { bytes: &out[..len], index, record_end, record_start, truncated: false };
        let flow = f(field)?;
        len = 0;
        if record_end {
            index = 0;
            record_start = input.len() - rest.len();
        } else {
            index += 1;
        }
        if let Flow::Stop = flow {
            return Ok(());
        }
    }
}

/// The field without the spaces and tabs around it.
pub(super) fn trim(bytes: &[u8]) -> &[u8] {
    bytes.trim_ascii()
}

#[cfg(test)]
mod tests {
    use super::{Field, Flow, parse_fields, plain_fields};

    type Visit<'a> = &'a mut dyn FnMut(Field<'_>) -> Result<Flow, ()>;

    fn records(input: &[u8], each: fn(&[u8], Visit<'_>)) -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> = vec![Vec::new()];
        each(input, &mut |f: Field<'_>| {
            out.last_mut().unwrap().push(String::from_utf8_lossy(f.bytes.trim_ascii()).into_owned());
            if f.record_end {
                out.push(Vec::new());
            }
            Ok(Flow::More)
        });
        // Blank lines (one empty field) and the trailing empty record go, as callers drop them.
        out.retain(|r| !(r.is_empty() || r.len() == 1 && r[0].is_empty()));
        out
    }

    #[test]
    fn the_plain_path_splits_unquoted_input_as_csv_core_does() {
        let plain = |i: &[u8], f: Visit<'_>| plain_fields(i, f).unwrap();
        let full = |i: &[u8], f: Visit<'_>| parse_fields(i, f).unwrap();
        for input in [
            &b"a,b,y\n1,2,0\n3,4,1\n"[..],
            b"a,b\r\n1,2\r\n\r\n3,4",
            b"x\n\n\n1\n2",
            b"a, b ,c\n,,\n1,,2\n",
            b"",
            b"\n",
            b"1,2,",
            b"1,2\n3,",
        ] {
            assert_eq!(records(input, plain), records(input, full), "{}", String::from_utf8_lossy(input));
        }
    }
}
