//! Building a [`Column`] while reading: numbers appended, labels interned, pieces of
//! a file (CSV pieces, Parquet row groups) appended in order.

use std::collections::HashMap;

use super::table::Column;
use crate::Floats;

/// One column being read: a piece's values, or the whole file's once pieces are
/// appended in order.
pub(crate) enum Builder {
    Numbers(Vec<f64>),
    Labels { codes: Vec<u32>, labels: Vec<String>, index: HashMap<String, u32> },
}

impl Builder {
    pub(crate) fn new(numbers: bool) -> Self {
        match numbers {
            true => Builder::Numbers(Vec::new()),
            false => Builder::Labels { codes: Vec::new(), labels: Vec::new(), index: HashMap::new() },
        }
    }

    /// Appends `other`'s values and empties it, keeping its memory for the next piece
    /// (fresh buffers per block would fault their pages in again every time).
    pub(crate) fn append_from(&mut self, other: &mut Builder) {
        match (self, other) {
            (Builder::Numbers(a), Builder::Numbers(b)) => {
                a.extend_from_slice(b);
                b.clear();
            }
            (Builder::Labels { codes, labels, index }, Builder::Labels { codes: c, labels: l, index: i }) => {
                let remap: Vec<u32> = l.drain(..).map(|label| intern(labels, index, label)).collect();
                codes.extend(c.iter().map(|&x| remap[x as usize]));
                c.clear();
                i.clear();
            }
            // Every piece is parsed with the same kinds.
            _ => {}
        }
    }

    /// Makes room for `additional` more values.
    pub(crate) fn reserve(&mut self, additional: usize) {
        match self {
            Builder::Numbers(v) => v.reserve(additional),
            Builder::Labels { codes, .. } => codes.reserve(additional),
        }
    }

    /// Values so far.
    pub(crate) fn len(&self) -> usize {
        match self {
            Builder::Numbers(v) => v.len(),
            Builder::Labels { codes, .. } => codes.len(),
        }
    }
}

impl Builder {
    /// Adds a label (a labels column; a no-op otherwise).
    pub(crate) fn push_label(&mut self, label: &str) {
        if let Builder::Labels { codes, labels, index } = self {
            let code = match index.get(label) {
                Some(&c) => c,
                None => intern(labels, index, label.to_string()),
            };
            codes.push(code);
        }
    }

    /// The finished column.
    pub(crate) fn finish(self) -> Column {
        match self {
            Builder::Numbers(v) => Column::Numbers(Floats::from(v)),
            Builder::Labels { codes, labels, .. } => Column::Labels { codes, labels },
        }
    }
}

fn intern(labels: &mut Vec<String>, index: &mut HashMap<String, u32>, label: String) -> u32 {
    if let Some(&code) = index.get(&label) {
        return code;
    }
    let code = labels.len() as u32;
    index.insert(label.clone(), code);
    labels.push(label);
    code
}
