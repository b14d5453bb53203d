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

/// Calls `f` on every field of `input` (RFC 4180: commas, double quotes, `""` inside
/// quotes, `\n` or `\r\n` ends, line breaks inside quotes), stopping at its first error
/// or [`Flow::Stop`].
pub(super) fn for_each_field<E>(
    input: &[u8],
    mut f: impl FnMut(Field<'_>) -> Result<Flow, E>,
) -> Result<(), E> {
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
