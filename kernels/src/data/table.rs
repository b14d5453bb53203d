//! A table as read from a file, before any binning: named columns of numbers or of
//! text labels, all of one length.

use crate::Floats;

/// One column as read.
#[derive(Clone, Debug, PartialEq)]
pub enum Column {
    /// Numbers, in row order.
    Numbers(Floats),
    /// Text labels: each row's label as an index into `labels`.
    Labels {
        /// The row's label, as an index into `labels`.
        codes: Vec<u32>,
        /// The distinct labels, in order of first appearance.
        labels: Vec<String>,
    },
}

impl Column {
    /// Rows.
    pub fn len(&self) -> usize {
        match self {
            Column::Numbers(v) => v.len(),
            Column::Labels { codes, .. } => codes.len(),
        }
    }

    /// Whether the column has no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Named columns of one length: what a reader produces and [`super::encode`] bins.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Column names, in file order, distinct.
    pub names: Vec<String>,
    /// The columns, in the order of `names`.
    pub columns: Vec<Column>,
}

impl Table {
    /// Rows (0 without columns).
    pub fn n_rows(&self) -> usize {
        self.columns.first().map_or(0, Column::len)
    }

    /// The index of the column named `name`.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }
}
