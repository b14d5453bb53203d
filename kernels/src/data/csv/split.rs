//! Record boundaries without parsing: a line break ends a record unless it is inside
//! quotes, and it is inside quotes exactly when an odd number of `"` precede it (a
//! quoted field opens and closes with one each, and `""` inside adds two). This lets
//! a block be cut into pieces that parse independently, in parallel.
//!
//! A stray `"` inside an unquoted field (which csv-core reads as a plain character)
//! breaks the parity; the cut points then only become fewer (worst case: the whole
//! rest of the file in one piece), never wrong for a file without such quotes.

use memchr::{memchr, memchr_iter, memchr2_iter, memrchr, memrchr2_iter};

fn quotes(bytes: &[u8]) -> usize {
    memchr_iter(b'"', bytes).count()
}

/// The end (just past its line break) of the first complete record, if any.
pub(super) fn first_record_end(bytes: &[u8]) -> Option<usize> {
    let mut inside = false;
    for i in memchr2_iter(b'\n', b'"', bytes) {
        match bytes[i] {
            b'"' => inside = !inside,
            _ if !inside => return Some(i + 1),
            _ => {}
        }
    }
    None
}

/// The end of the last complete record (0 when there is none).
pub(super) fn last_record_end(bytes: &[u8]) -> usize {
    if memchr(b'"', bytes).is_none() {
        return memrchr(b'\n', bytes).map_or(0, |i| i + 1);
    }
    let total = quotes(bytes);
    let mut after = 0;
    for i in memrchr2_iter(b'\n', b'"', bytes) {
        match bytes[i] {
            b'"' => after += 1,
            _ if (total - after).is_multiple_of(2) => return i + 1,
            _ => {}
        }
    }
    0
}

/// Where the record with a quote that never closes starts, when `bytes` (the file's
/// last block) holds one: an odd number of quotes in all.
pub(super) fn unterminated(bytes: &[u8]) -> Option<usize> {
    (!quotes(bytes).is_multiple_of(2)).then(|| last_record_end(bytes))
}

/// Cut points splitting `bytes` (whole records) into about `parts` pieces of whole
/// records: `0`, the inner cuts, `bytes.len()`.
pub(super) fn pieces(bytes: &[u8], parts: usize) -> Vec<usize> {
    let len = bytes.len();
    let quoted = memchr(b'"', bytes).is_some();
    let mut cuts = vec![0];
    let (mut pos, mut seen) = (0usize, 0usize);
    for i in 1..parts.max(1) {
        let target = (i * len / parts).max(pos);
        if quoted {
            seen += quotes(&bytes[pos..target]);
        }
        pos = target;
        loop {
            let Some(k) = memchr(b'\n', &bytes[pos..]) else {
                pos = len;
                break;
            };
            if quoted {
                seen += quotes(&bytes[pos..pos + k]);
            }
            pos += k + 1;
            if seen.is_multiple_of(2) {
                break;
            }
        }
        if pos >= len {
            break;
        }
        cuts.push(pos);
    }
    cuts.push(len);
    cuts
}

/// The 1-based line of the record starting at `offset`, `first_line` being the line of
/// `bytes[0]`: line breaks before it, and any blank lines it starts with.
pub(super) fn line_at(bytes: &[u8], offset: usize, first_line: usize) -> usize {
    let offset = offset.min(bytes.len());
    let mut line = first_line + memchr_iter(b'\n', &bytes[..offset]).count();
    for &b in &bytes[offset..] {
        match b {
            b'\n' => line += 1,
            b'\r' => {}
            _ => break,
        }
    }
    line
}
