//! Why a data set could not be built: each message names the file, line and column
//! where there is one, so a bad CSV can be fixed without a debugger.

use std::fmt;
use std::path::PathBuf;

/// A data set that could not be read or built.
#[derive(Clone, Debug, PartialEq)]
pub enum DataError {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's message.
        message: String,
    },
    /// A cell or a line of a CSV is malformed.
    Csv {
        /// 1-based line number in the file (the header is line 1).
        line: usize,
        /// 1-based column number; 0 when the problem is the whole line.
        column: usize,
        /// The column's header name, when known.
        name: Option<String>,
        /// What is wrong.
        message: String,
    },
    /// The CSV has no header or no data rows, or too few columns.
    Empty(String),
    /// The requested target column is not in the header.
    UnknownTarget {
        /// The name asked for.
        target: String,
        /// The columns there are.
        available: Vec<String>,
    },
    /// A column has more distinct levels than the 256 a one-byte code holds.
    TooManyLevels {
        /// The column's name.
        column: String,
        /// Its distinct values.
        levels: usize,
        /// Text labels (too many to be a class), rather than numbers forced discrete.
        labels: bool,
    },
    /// A Parquet file or an Arrow batch could not be read or holds a column that
    /// cannot be used.
    Parquet {
        /// The column, when the problem is one column's.
        column: Option<String>,
        /// The row group (0-based), when the problem is in one.
        row_group: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// A parameter is out of its range (`--bins 0`, `--p 0`, ...).
    Invalid(String),
    /// The kernels refused the codes (a bug here if it happens: codes are built valid).
    Kernel(crate::Error),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io { path, message } => write!(f, "cannot read {}: {message}", path.display()),
            DataError::Csv { line, column: 0, message, .. } => write!(f, "line {line}: {message}"),
            DataError::Csv { line, column, name: Some(name), message } => {
                write!(f, "line {line}, column {column} (`{name}`): {message}")
            }
            DataError::Csv { line, column, name: None, message } => {
                write!(f, "line {line}, column {column}: {message}")
            }
            DataError::Empty(what) => f.write_str(what),
            DataError::UnknownTarget { target, available } => {
                write!(f, "no column named `{target}`; the columns are: {}", available.join(", "))
            }
            DataError::TooManyLevels { column, levels, labels: false } => write!(
                f,
                "column `{column}` has {levels} distinct values as a discrete column, more than 256; \
                 drop --discrete to bin it"
            ),
            DataError::TooManyLevels { column, levels, labels: true } => write!(
                f,
                "column `{column}` is text with {levels} distinct labels, more than the 256 a discrete \
                 column can have; drop it or map it to fewer classes"
            ),
            DataError::Parquet { column, row_group, message } => {
                f.write_str("parquet")?;
                if let Some(c) = column {
                    write!(f, ", column `{c}`")?;
                }
                if let Some(g) = row_group {
                    write!(f, ", row group {g}")?;
                }
                write!(f, ": {message}")
            }
            DataError::Invalid(what) => f.write_str(what),
            DataError::Kernel(e) => write!(f, "kernel input: {e}"),
        }
    }
}

impl std::error::Error for DataError {}

impl From<crate::Error> for DataError {
    fn from(e: crate::Error) -> Self {
        DataError::Kernel(e)
    }
}
