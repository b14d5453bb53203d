//! CSV reading: a header line, then one sample per line (RFC 4180: comma-separated,
//! fields may be double-quoted, `""` inside quotes is a quote, quoted fields may hold
//! line breaks; `\n` or `\r\n`; a UTF-8 byte-order mark is dropped; blank lines are
//! skipped).
//!
//! The file is read in blocks of [`BLOCK`] bytes; each block is cut at record
//! boundaries into pieces that csv-core parses in parallel (rayon), numbers straight
//! into `f64` columns and labels into codes, a field at a time: no record, line or
//! field is ever allocated whole, so memory stays the decoded columns plus one block,
//! and a malformed line fails at its first excess field.
//!
//! Each column's type comes from its first 1 000 records: numbers
//! where most values are numbers, text labels otherwise. [`load`] then makes them
//! discrete ([`crate::data::encode`]). Every error says where: line (the header is
//! line 1) and column.

mod columns;
mod fields;
mod number;
mod numeric;
mod split;
mod swar;

use std::fs::File;
use std::io::Read;
use std::path::Path;

use rayon::prelude::*;

use self::columns::{Kind, Part, Problem, check_partial, parse_piece, probe};
use self::fields::{Flow, for_each_field, trim};
use super::encode::{EncodeOptions, encode};
use super::table::{Column, Table};
use super::{DataError, Dataset};
use crate::Floats;

/// Bytes read per block: large enough to keep both cores busy, small next to the
/// decoded columns.
pub const BLOCK: usize = 32 << 20;

/// How to read a CSV into a [`Dataset`].
#[derive(Clone, Debug)]
pub struct CsvOptions {
    /// The target column's header name.
    pub target: String,
    /// Bins for columns that are binned (`1..=256`).
    pub bins: usize,
    /// Treat every numeric column as discrete codes (an error where one is not).
    pub discrete: bool,
}

/// Reads and encodes the CSV at `path`.
pub fn load(path: &Path, options: &CsvOptions) -> Result<Dataset, DataError> {
    let table = read(path, options.discrete, &|_, _| {})?;
    encode(table, &options.target, EncodeOptions { bins: options.bins, discrete: options.discrete })
}

/// Parses and encodes CSV text.
///
/// ```
/// use ktc_kernels::data::csv::{CsvOptions, parse};
///
/// let text = "pixel,weight,label\n0,1.5,cat\n255,2.25,dog\n0,0.5,cat\n";
/// let options = CsvOptions { target: "label".into(), bins: 2, discrete: false };
/// let data = parse(text, &options)?;
/// assert_eq!(data.feature_names, ["pixel", "weight"]);
/// assert_eq!((data.n_samples(), data.target.bins()), (3, 2));
/// # Ok::<(), ktc_kernels::data::DataError>(())
/// ```
pub fn parse(text: &str, options: &CsvOptions) -> Result<Dataset, DataError> {
    let table = read_from(text.as_bytes(), text.len() as u64, options.discrete, &|_, _| {})?;
    encode(table, &options.target, EncodeOptions { bins: options.bins, discrete: options.discrete })
}

/// Reads the CSV at `path` into a [`Table`] (no binning yet), calling
/// `progress(bytes_read, file_size)` after each block. With `discrete`, a numeric
/// value that is not an integer is an error at its line and column.
pub fn read(path: &Path, discrete: bool, progress: &(dyn Fn(u64, u64) + Sync)) -> Result<Table, DataError> {
    let io = |e: std::io::Error| DataError::Io { path: path.to_path_buf(), message: e.to_string() };
    let file = File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    read_from(file, size, discrete, progress).map_err(|e| match e {
        DataError::Io { message, .. } => DataError::Io { path: path.to_path_buf(), message },
        other => other,
    })
}

/// The reader's state between blocks.
struct Reader {
    /// Line number of the block's first byte.
    line: usize,
    names: Vec<String>,
    kinds: Vec<Kind>,
    columns: Vec<Part>,
    /// Each piece's column parts, reused from block to block.
    pieces: Vec<Vec<Part>>,
    discrete: bool,
    /// The file's size (0 when unknown), to reserve the columns' memory once.
    size: u64,
}

/// Reads CSV bytes from `source` (`size` bytes, for progress only). The next block is
/// read while the current one is parsed.
pub fn read_from(
    mut source: impl Read + Send,
    size: u64,
    discrete: bool,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Table, DataError> {
    let mut buf: Vec<u8> = Vec::with_capacity(BLOCK + (1 << 16));
    let mut done = 0u64;
    let mut eof = fill(&mut source, &mut buf, BLOCK)?;
    if buf.starts_with(b"\xEF\xBB\xBF") {
        buf.drain(..3);
        done += 3;
    }
    let end = loop {
        match split::first_record_end(&buf) {
            Some(end) => break end,
            None if eof => break buf.len(),
            None if buf.len() > 2 * BLOCK => {
                let message = format!("the header line is longer than {} MiB", (2 * BLOCK) >> 20);
                return Err(DataError::Csv { line: 1, column: 0, name: None, message });
            }
            None => eof = fill(&mut source, &mut buf, BLOCK)?,
        }
    };
    let names = header(&buf[..end])?;
    let line = 1 + memchr::memchr_iter(b'\n', &buf[..end]).count();
    let mut reader =
        Reader { line, names, kinds: Vec::new(), columns: Vec::new(), pieces: Vec::new(), discrete, size };
    buf.drain(..end);
    done += end as u64;
    // The buffer the next block is read into while `buf`'s is parsed; the two swap.
    let mut next: Vec<u8> = Vec::new();
    loop {
        let cut = if eof { buf.len() } else { split::last_record_end(&buf) };
        if cut == 0 && !eof {
            // One record longer than the block: fail fast if it has too many fields.
            check_partial(&buf, reader.names.len()).map_err(|p| reader.error(&buf, 0, p))?;
            eof = fill(&mut source, &mut buf, BLOCK)?;
            continue;
        }
        if eof && let Some(start) = split::unterminated(&buf) {
            return Err(reader.unterminated(&buf, start));
        }
        if eof {
            reader.line += reader.block(&buf[..cut])?;
            buf.drain(..cut);
        } else {
            // Reading is the kernel copying pages, parsing is both cores: side by side,
            // the read costs no wall time. A parse error wins over a read error, as
            // when they ran one after the other.
            let (parsed, read) = rayon::join(
                || reader.block(&buf[..cut]),
                || {
                    next.clear();
                    next.extend_from_slice(&buf[cut..]);
                    fill(&mut source, &mut next, BLOCK)
                },
            );
            reader.line += parsed?;
            eof = read?;
            std::mem::swap(&mut buf, &mut next);
        }
        done += cut as u64;
        progress(done, size);
        if eof && buf.is_empty() {
            break;
        }
    }
    Ok(reader.finish())
}

impl Reader {
    /// Parses one block of whole records, its pieces in parallel; the lines it holds.
    fn block(&mut self, bytes: &[u8]) -> Result<usize, DataError> {
        if bytes.is_empty() {
            return Ok(0);
        }
        let first = self.kinds.is_empty();
        if first {
            self.kinds = probe(bytes, self.names.len());
            self.columns = self.kinds.iter().map(|&k| Part::new(k == Kind::Numbers)).collect();
        }
        // Many small pieces: the last ones of a block finish close together, so no core
        // waits long for the slowest (with 4 per thread, that wait was ~5 ms a block).
        let cuts = split::pieces(bytes, rayon::current_num_threads() * 16);
        let new_piece = || self.kinds.iter().map(|&k| Part::new(k == Kind::Numbers)).collect();
        self.pieces.resize_with(cuts.len() - 1, new_piece);
        let discrete = self.discrete;
        // Each piece also counts its lines, for the next block's line numbers.
        let parsed: Vec<(Result<(), Problem>, usize)> = (cuts.par_windows(2).zip(self.pieces.par_iter_mut()))
            .map(|(w, parts)| {
                let piece = &bytes[w[0]..w[1]];
                (parse_piece(piece, parts, discrete), memchr::memchr_iter(b'\n', piece).count())
            })
            .collect();
        let mut lines = 0;
        for (w, (piece, piece_lines)) in cuts.windows(2).zip(parsed) {
            if let Err(p) = piece {
                return Err(self.error(bytes, w[0], p));
            }
            lines += piece_lines;
        }
        // The pieces' values onto the columns, in piece order, the columns in parallel.
        let mut by_column: Vec<Vec<&mut Part>> = self.columns.iter().map(|_| Vec::new()).collect();
        for parts in &mut self.pieces {
            for (column, part) in by_column.iter_mut().zip(parts.iter_mut()) {
                column.push(part);
            }
        }
        self.columns.par_iter_mut().zip(by_column).for_each(|(column, parts)| {
            parts.into_iter().for_each(|part| column.append_from(part));
        });
        if first && self.size > bytes.len() as u64 {
            // Room for the whole file's rows at this block's bytes per row (and a little
            // more), so the columns do not grow by doubling and copying.
            let rows = self.columns.first().map_or(0, Part::len) as f64;
            let expected = (rows * self.size as f64 / bytes.len() as f64 * 1.02) as usize;
            self.columns.iter_mut().for_each(|c| c.reserve(expected.saturating_sub(c.len())));
        }
        Ok(lines)
    }

    /// The error for a quoted field that runs to the end of the file, at the record it
    /// starts in and the field it opens.
    fn unterminated(&self, block: &[u8], start: usize) -> DataError {
        let mut column = 0;
        let _ = for_each_field(&block[start..], |f| -> Result<Flow, ()> {
            column = f.index + 1;
            Ok(if f.record_end { Flow::Stop } else { Flow::More })
        });
        let message = "unterminated quoted field".to_string();
        self.error(block, 0, Problem { record_start: start, column, message })
    }

    /// A piece's problem as an error with its line and column.
    fn error(&self, block: &[u8], piece_start: usize, p: Problem) -> DataError {
        let line = split::line_at(block, piece_start + p.record_start, self.line);
        let name = (p.column > 0).then(|| self.names.get(p.column - 1).cloned()).flatten();
        DataError::Csv { line, column: p.column, name, message: p.message }
    }

    fn finish(self) -> Table {
        let columns = self.columns.into_iter().map(Part::finish).collect();
        // A header without data rows: empty number columns.
        let columns = if self.kinds.is_empty() {
            self.names.iter().map(|_| Column::Numbers(Floats::from(Vec::<f64>::new()))).collect()
        } else {
            columns
        };
        Table { names: self.names, columns }
    }
}

/// The header's names: trimmed, valid UTF-8, distinct.
fn header(bytes: &[u8]) -> Result<Vec<String>, DataError> {
    let mut names: Vec<String> = Vec::new();
    let err = |column: usize, message: String| DataError::Csv { line: 1, column, name: None, message };
    for_each_field(bytes, |f| {
        let column = f.index + 1;
        if f.truncated {
            return Err(err(column, "a column name longer than 1 MiB".into()));
        }
        let name = std::str::from_utf8(trim(f.bytes))
            .map_err(|e| err(column, format!("invalid UTF-8 (at byte {})", e.valid_up_to() + 1)))?;
        if let Some(i) = names.iter().position(|n| n == name) {
            return Err(err(column, format!("duplicate column name `{name}` (also column {})", i + 1)));
        }
        names.push(name.to_string());
        Ok(if f.record_end { Flow::Stop } else { Flow::More })
    })?;
    if names.is_empty() || names.iter().all(String::is_empty) {
        return Err(DataError::Empty("the CSV is empty: no header line".into()));
    }
    Ok(names)
}

/// Reads up to `block` more bytes; whether the source is exhausted.
fn fill(source: &mut impl Read, buf: &mut Vec<u8>, block: usize) -> Result<bool, DataError> {
    let io = |e: std::io::Error| DataError::Io { path: Default::default(), message: e.to_string() };
    let got = source.by_ref().take(block as u64).read_to_end(buf).map_err(io)?;
    Ok(got < block)
}
