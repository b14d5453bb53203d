//! A discrete data set: one target column and `p` feature columns of bin codes, with the
//! names and the way each column was made discrete.

use crate::Codes;

/// How a column became discrete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColumnKind {
    /// Integer values used as codes (each distinct value one level, in sorted order).
    Discrete {
        /// Distinct values.
        levels: usize,
    },
    /// Text labels, one level per distinct label (in sorted order).
    Labels {
        /// Distinct labels.
        levels: usize,
    },
    /// Real values binned at quantiles.
    Binned {
        /// Bins: every code is below it (bins between repeated quantiles stay empty).
        bins: usize,
    },
    /// Generated codes (the synthetic set).
    Generated {
        /// Levels of the code.
        levels: usize,
    },
}

impl ColumnKind {
    /// The number of codes a column of this kind uses.
    pub fn levels(&self) -> usize {
        match *self {
            ColumnKind::Discrete { levels }
            | ColumnKind::Labels { levels }
            | ColumnKind::Generated { levels } => levels,
            ColumnKind::Binned { bins } => bins,
        }
    }
}

/// A target and `p` features over the same `n` samples, all as bin codes.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// The target's name.
    pub target_name: String,
    /// The target: one column, `n` codes below `target.bins()`.
    pub target: Codes,
    /// The features' names, in column order.
    pub feature_names: Vec<String>,
    /// The features: `p` columns of `n` codes, column-major, below `features.bins()`.
    pub features: Codes,
    /// How each feature was made discrete, in column order.
    pub feature_kinds: Vec<ColumnKind>,
}

impl Dataset {
    /// Samples.
    pub fn n_samples(&self) -> usize {
        self.target.n_rows()
    }

    /// Features.
    pub fn n_features(&self) -> usize {
        self.features.n_cols()
    }
}
