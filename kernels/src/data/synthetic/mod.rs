//! A seeded synthetic data set with a known answer: a few informative features, noisy
//! copies of some of them (redundant), and pure noise, with a 4-class target.
//!
//! Generation: `m` latent features `z_i`, uniform over 8 levels, independent; a score
//! `Σ w_i z_i + e` (weights `m, m-1, .., 1`, `e` uniform noise as strong as the weakest
//! weight's range); the target is the score's quartile (4 classes). So each `z_i` is
//! informative on its own, and the informative features are independent of each other.
//! A *copy* of `z_i` keeps `z_i`'s value with probability 0.85 (first copy) or 0.7 (the
//! second) and is uniform otherwise: relevant, but almost all of its information is
//! already in `z_i`. MRMR should take every `z_i` before any copy; ranking by relevance
//! alone would take the copies of the strong `z_i` before the weak `z_i`.

use super::{ColumnKind, DataError, Dataset, SplitMix64};
use crate::Codes;

/// Levels of every feature.
pub const FEATURE_LEVELS: usize = 8;
/// Classes of the target.
pub const CLASSES: usize = 4;

/// What a synthetic column is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Role {
    /// Latent feature `rank` (0 = largest weight) of the target's score.
    Informative {
        /// 0 for the strongest.
        rank: usize,
    },
    /// A noisy copy of the informative feature at column `of`.
    Copy {
        /// The column copied.
        of: usize,
        /// The probability of keeping the original value.
        keep: f64,
    },
    /// Uniform noise, independent of everything.
    Noise,
}

/// The generated set and each column's role (the planted answer).
pub struct Synthetic {
    /// The data, features named `f00`, `f01`, ...
    pub data: Dataset,
    /// The role of each feature column.
    pub roles: Vec<Role>,
}

impl Synthetic {
    /// The informative columns, strongest first.
    pub fn informative(&self) -> Vec<usize> {
        let mut inf: Vec<(usize, usize)> = (self.roles.iter().enumerate())
            .filter_map(|(j, r)| match r {
                Role::Informative { rank } => Some((*rank, j)),
                _ => None,
            })
            .collect();
        inf.sort_unstable();
        inf.into_iter().map(|(_, j)| j).collect()
    }
}

/// `n` samples, `p` features, everything fixed by `seed`.
///
/// Layout for `p` features: `m = clamp(p / 6, 1, 5)` informative, two copies of each of
/// the (up to) three strongest while columns remain, the rest noise; column positions
/// shuffled by the seed. Errors: `n == 0` or `p == 0`.
pub fn generate(n: usize, p: usize, seed: u64) -> Result<Synthetic, DataError> {
    if n == 0 || p == 0 {
        return Err(DataError::Invalid(format!(
            "the synthetic set needs n ≥ 1 and p ≥ 1 (got n = {n}, p = {p})"
        )));
    }
    let mut rng = SplitMix64::new(seed);
    let roles = plan(p, &mut rng);
    let m = roles.iter().filter(|r| matches!(r, Role::Informative { .. })).count();
    let mut codes = vec![0u8; n * p];
    // Informative columns first: the target and the copies are built from them.
    let mut score = vec![0u32; n];
    for (j, role) in roles.iter().enumerate() {
        if let Role::Informative { rank } = *role {
            let weight = (m - rank) as u32;
            let col = &mut codes[j * n..(j + 1) * n];
            for (c, s) in col.iter_mut().zip(&mut score) {
                *c = rng.below(FEATURE_LEVELS as u64) as u8;
                *s += weight * u32::from(*c);
            }
        }
    }
    for s in &mut score {
        *s += rng.below(FEATURE_LEVELS as u64) as u32;
    }
    let target = quartiles(&score);
    for (j, role) in roles.iter().enumerate() {
        match *role {
            Role::Informative { .. } => {}
            Role::Copy { of, keep } => {
                for i in 0..n {
                    let v = if rng.unit() < keep {
                        codes[of * n + i]
                    } else {
                        rng.below(FEATURE_LEVELS as u64) as u8
                    };
                    codes[j * n + i] = v;
                }
            }
            Role::Noise => {
                codes[j * n..(j + 1) * n].iter_mut().for_each(|c| *c = rng.below(FEATURE_LEVELS as u64) as u8)
            }
        }
    }
    let data = Dataset {
        target_name: "class".to_string(),
        target: Codes::column_u8(target, CLASSES)?,
        feature_names: (0..p).map(|j| format!("f{j:02}")).collect(),
        features: Codes::from_u8(codes, n, p, FEATURE_LEVELS)?,
        feature_kinds: vec![ColumnKind::Generated { levels: FEATURE_LEVELS }; p],
    };
    Ok(Synthetic { data, roles })
}

/// Each column's role, positions shuffled; copies name the column they copy.
pub(super) fn plan(p: usize, rng: &mut SplitMix64) -> Vec<Role> {
    let m = (p / 6).clamp(1, 5);
    let mut slots: Vec<usize> = (0..p).collect();
    rng.shuffle(&mut slots);
    let mut roles = vec![Role::Noise; p];
    for rank in 0..m {
        roles[slots[rank]] = Role::Informative { rank };
    }
    let mut next = m;
    for rank in 0..m.min(3) {
        for keep in [0.85, 0.7] {
            if next < p {
                roles[slots[next]] = Role::Copy { of: slots[rank], keep };
                next += 1;
            }
        }
    }
    roles
}

/// The quartile (0..4) of each score, from the scores' own histogram: scores are small
/// integers, so one counting pass finds the cut points exactly.
fn quartiles(score: &[u32]) -> Vec<u8> {
    let max = score.iter().copied().max().unwrap_or(0) as usize;
    let mut hist = vec![0usize; max + 1];
    for &s in score {
        hist[s as usize] += 1;
    }
    // class_of[s]: how many quarter marks the cumulative count below s has passed.
    let n = score.len();
    let mut class_of = vec![0u8; max + 1];
    let mut below = 0usize;
    for (s, &count) in hist.iter().enumerate() {
        class_of[s] = ((below * CLASSES) / n.max(1)).min(CLASSES - 1) as u8;
        below += count;
    }
    score.iter().map(|&s| class_of[s as usize]).collect()
}

mod continuous;
pub use continuous::{Continuous, continuous};
