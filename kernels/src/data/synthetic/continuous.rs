//! The synthetic set as a user's data would arrive: continuous feature columns (`f32`)
//! and an integer class column, to be binned like any file ([`crate::data::encode`]:
//! quantile edges by selection, the tuned `discretize` kernel).
//!
//! The same plan as the discrete set ([`super::generate`]): latent features `z_i`
//! uniform on `[0, 1)`, the class the quartile of `Σ w_i z_i + e`, copies that keep
//! `z_i`'s value with probability 0.85 or 0.7 (uniform otherwise), noise. Columns are
//! generated in parallel, each from its own seeded stream, so the set depends on the
//! seed alone, not on the thread count.

use rayon::prelude::*;

use super::super::table::{Column, Table};
use super::super::{DataError, SplitMix64};
use super::{CLASSES, Role, plan};
use crate::Floats;

/// A continuous synthetic table and each feature's role.
pub struct Continuous {
    /// Features `f00`, `f01`, … (`f32` numbers), then the target `class` (0..4).
    pub table: Table,
    /// The role of each feature column.
    pub roles: Vec<Role>,
}

/// A uniform `f32` in `[0, 1)` with 24 random bits.
fn unit(rng: &mut SplitMix64) -> f32 {
    (rng.next_u64() >> 40) as f32 * (1.0 / (1u32 << 24) as f32)
}

/// `n` samples of `p` continuous features and a 4-class target, fixed by `seed`.
/// Errors: `n == 0` or `p == 0`.
///
/// ```
/// use ktc_kernels::data::{EncodeOptions, encode, synthetic};
///
/// let set = synthetic::continuous(1_000, 12, 7)?;
/// let data = encode(set.table, "class", EncodeOptions { bins: 8, discrete: false })?;
/// assert_eq!((data.n_samples(), data.n_features(), data.target.bins()), (1_000, 12, 4));
/// # Ok::<(), ktc_kernels::data::DataError>(())
/// ```
pub fn continuous(n: usize, p: usize, seed: u64) -> Result<Continuous, DataError> {
    if n == 0 || p == 0 {
        return Err(DataError::Invalid(format!(
            "the synthetic set needs n ≥ 1 and p ≥ 1 (got n = {n}, p = {p})"
        )));
    }
    let mut master = SplitMix64::new(seed);
    let roles = plan(p, &mut master);
    let seeds: Vec<u64> = (0..=p).map(|_| master.next_u64()).collect();
    let uniform = |j: usize| -> Vec<f32> {
        let mut rng = SplitMix64::new(seeds[j]);
        (0..n).map(|_| unit(&mut rng)).collect()
    };
    // Informative columns first: the class and the copies are built from them.
    let mut columns: Vec<Option<Vec<f32>>> = (0..p)
        .into_par_iter()
        .map(|j| matches!(roles[j], Role::Informative { .. }).then(|| uniform(j)))
        .collect();
    let class = classes(&columns, &roles, n, seeds[p]);
    let filled: Vec<Vec<f32>> = (0..p)
        .into_par_iter()
        .map(|j| match roles[j] {
            Role::Informative { .. } => Vec::new(),
            Role::Copy { of, keep } => {
                let source = columns[of].as_deref().unwrap_or_default();
                let mut rng = SplitMix64::new(seeds[j]);
                source.iter().map(|&z| if rng.unit() < keep { z } else { unit(&mut rng) }).collect()
            }
            Role::Noise => uniform(j),
        })
        .collect();
    for (slot, made) in columns.iter_mut().zip(filled) {
        if slot.is_none() {
            *slot = Some(made);
        }
    }
    let mut names: Vec<String> = (0..p).map(|j| format!("f{j:02}")).collect();
    let mut cols: Vec<Column> =
        columns.into_iter().map(|c| Column::Numbers(Floats::from(c.unwrap_or_default()))).collect();
    names.push("class".into());
    cols.push(Column::Numbers(Floats::from(class)));
    Ok(Continuous { table: Table { names, columns: cols }, roles })
}

/// The class of each sample: the quartile (0..4) of `Σ w_i z_i + e`, weights
/// `m, m−1, …, 1` by informative rank, `e` uniform on `[0, 1)`.
fn classes(columns: &[Option<Vec<f32>>], roles: &[Role], n: usize, seed: u64) -> Vec<f32> {
    let m = roles.iter().filter(|r| matches!(r, Role::Informative { .. })).count();
    let mut rng = SplitMix64::new(seed);
    let mut score: Vec<f64> = (0..n).map(|_| f64::from(unit(&mut rng))).collect();
    for (col, role) in columns.iter().zip(roles) {
        if let (Some(z), Role::Informative { rank }) = (col, role) {
            let w = (m - rank) as f64;
            score.iter_mut().zip(z).for_each(|(s, &z)| *s += w * f64::from(z));
        }
    }
    let edges = crate::quantile_edges(&Floats::from(score.clone()), CLASSES).unwrap_or_default();
    score.iter().map(|&s| edges.iter().filter(|&&e| e <= s).count() as f32).collect()
}
