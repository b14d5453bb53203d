//! What a sweep has measured so far ([`Sweeper`]), and what tuning and verifying both
//! use: the store, the round limits, points as entry maps and labels.

use super::harness::{Harness, InputsError};
use super::lattice::Cell;
use super::measure::{PointResult, Rounds, Timing, measure_point};
use super::nearby::{NEIGHBOURHOOD, nearest, ranked_nearby};
use super::plan::Plan;
use super::state::look_shifts;
use super::timing::{Timed, decide, look_of, near, ranked_overall, regrets};
use super::{SweepMode, SweepOptions};
use crate::entry::Exclusion;
use crate::registry::{GridValue, KernelInfo};
use crate::{Dispatch, Error, KernelTuningCache};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// What a sweep has measured so far.
pub(super) struct Sweeper<'a, H: Harness> {
    pub tuner: &'static KernelInfo,
    pub harness: &'a H,
    pub plan: Plan,
    /// The rounds per point and how the timed calls follow each other (the options',
    /// or for a verify the entry's unless the verify says otherwise).
    pub timing: Timing,
    pub live: Vec<bool>,
    pub excluded: Vec<Exclusion>,
    pub results: Vec<(Vec<GridValue>, PointResult)>,
    /// While verifying an entry, its dispatch: the candidate it chooses at a point
    /// stays in that point's race to the end (see [`Sweeper::kept_at`]).
    pub judged: Option<Arc<Dispatch>>,
    /// How far further looks at points moved their close runners-up against their
    /// winners (log units), one value per runner-up and look (see [`look_shifts`]).
    pub look_shifts: Vec<f64>,
    /// A lead the host's changing state can reverse (log units, see
    /// [`super::state`]): candidates this close to the fastest tie with it. Zero
    /// until the sweep's further looks are done.
    pub state_margin: f64,
}

impl<'a, H: Harness> Sweeper<'a, H> {
    pub(super) fn new(
        tuner: &'static KernelInfo,
        harness: &'a H,
        options: &SweepOptions,
    ) -> Result<Self, Error> {
        let plan = Plan::new(tuner)?;
        let live = vec![true; plan.candidates.len()];
        let excluded = plan.unavailable.clone();
        Ok(Sweeper {
            tuner,
            harness,
            plan,
            timing: Timing { rounds: limits(options).0, calls: options.calls.unwrap_or(tuner.calls) },
            live,
            excluded,
            results: Vec::new(),
            judged: None,
            look_shifts: Vec::new(),
            state_margin: 0.0,
        })
    }

    /// The sweep's time budget: the options', else the mode's plus, where every sample
    /// follows a pause, the pauses of [`PAUSED_GRIDS`] grids at the minimum rounds.
    ///
    /// Each sample after a pause costs the pause, and a loop sweep's budget does not
    /// cover them: `discretize` tuned after 20 ms pauses within the quick mode's 14 s
    /// measured its grid at the floor rounds and refined nothing (3 regions, `linear`
    /// up to 10 000 values), and a sporadic caller paid 16.4 µs a call at 5 672 values ×
    /// 8 bins against 12.5 for always `lookup`; with 45 s it wrote 7 regions and lost
    /// nothing to any fixed variant.
    pub(super) fn budget(&self, options: &SweepOptions) -> Duration {
        self.budget_of(options, 1, self.plan.points.len() * PAUSED_GRIDS as usize)
    }

    /// A budget: the options', else `modes` times the mode's default plus the pauses
    /// of `paused_points` points at the minimum rounds (none for calls in a loop).
    pub(super) fn budget_of(&self, options: &SweepOptions, modes: u32, paused_points: usize) -> Duration {
        let live = self.live.iter().filter(|&&l| l).count();
        budget(options, modes, pauses(self.timing, live), paused_points)
    }

    /// Measures one point within `cap`: the index of its result, or why its inputs
    /// could not be built.
    pub(super) fn measure(&mut self, point: &[GridValue], cap: Duration) -> Result<usize, InputsError> {
        let inputs = self.harness.build(point)?;
        let kept = self.kept_at(point);
        let result = measure_point(self.harness, &self.plan, &self.live, &inputs, self.timing, cap, kept);
        for (candidate, reason) in &result.failed {
            self.live[*candidate] = false;
            let exclusion = verification_failure(self.tuner, &self.plan, *candidate, point, reason);
            self.excluded.push(exclusion);
        }
        self.results.push((point.to_vec(), result));
        Ok(self.results.len() - 1)
    }

    /// The candidate the judged entry chooses at `point`, if one is being verified.
    ///
    /// Successive halving drops a candidate once it is clearly slower than the fastest,
    /// which is what a sweep wants (it only asks who wins) but not what `verify` wants:
    /// its result is the chosen candidate's cost over the fastest's, and a chosen one
    /// dropped after the minimum rounds had its cost from the few rounds where it
    /// looked worst. Kept, it is timed in every round the fastest is.
    fn kept_at(&self, point: &[GridValue]) -> Option<usize> {
        let dispatch = self.judged.as_ref()?;
        let axes: Vec<crate::AxisValue<'_>> = point.iter().map(|v| v.axis_value()).collect();
        let choice = dispatch.explain(&axes);
        self.plan
            .candidates
            .iter()
            .position(|c| c.variant == choice.variant_index && c.block_size == choice.block_size)
    }

    /// Measures point `index` again and adds the new runs to its old ones, candidate by
    /// candidate: a second look, at another time, at a measurement a decision hangs on.
    /// On a shared host the second core can be taken away for the tens of milliseconds
    /// one point's rounds last, and every round of a parallel candidate there runs at
    /// serial speed; merged with a later look, such a point weighs what a call costs
    /// over both. Each look's own costs are kept too (`PointResult::looks`). Fails,
    /// changing nothing, where the inputs cannot be built.
    pub(super) fn remeasure(&mut self, index: usize, cap: Duration) -> Result<(), InputsError> {
        let point = self.results[index].0.clone();
        self.measure(&point, cap)?;
        let Some((_, again)) = self.results.pop() else { return Ok(()) };
        self.look_shifts.extend(look_shifts(&self.results[index].1.timed, &again.timed));
        let result = &mut self.results[index].1;
        if result.looks.is_empty() {
            result.looks.push(look_of(&result.timed));
        }
        result.looks.push(look_of(&again.timed));
        for t in &again.timed {
            if let Some(first) = result.timed.iter_mut().find(|f| f.candidate == t.candidate) {
                let mut samples = std::mem::take(&mut first.samples);
                samples.extend(&t.samples);
                *first = Timed::new(t.candidate, samples);
            }
        }
        result.elapsed += again.elapsed;
        Ok(())
    }

    /// Reorders the preference (who wins a tie) by how each candidate does as a fixed
    /// choice over the points measured so far, best first (see [`ranked_overall`]).
    /// Where candidates are within the noise of each other a point still takes one
    /// stable choice, and it is the one that is faster elsewhere. In 19 runs of `cargo
    /// bench --bench tuning_quality` with the reference first, `verify` found `serial`
    /// (2 runs) or `par_pairs` (3) chosen at 1 063 samples × 4 features where `pairs`
    /// was 1.16–1.25× faster; `serial` had tied with `pairs` at 1 000 × 5 in the sweep,
    /// and `pairs` ranks far above it over the grid.
    pub(super) fn rank_by_grid(&mut self) {
        let points: Vec<Vec<(usize, f64)>> =
            (0..self.results.len()).filter_map(|i| self.cell(i).ok()).map(|cell| cell.regrets).collect();
        self.plan.preference = ranked_overall(&points, &self.plan.preference);
    }

    /// The regrets of the points measured nearest to point `index`, itself first (see
    /// [`super::nearby`]): who wins a tie there.
    fn nearby(&self, index: usize) -> Vec<Vec<(usize, f64)>> {
        let points: Vec<&[GridValue]> = self.results.iter().map(|(p, _)| p.as_slice()).collect();
        let near = nearest(&points, &numeric_axes(self.tuner), index, NEIGHBOURHOOD);
        near.iter().map(|&i| regrets(&self.eligible(i))).collect()
    }

    /// The timed candidates at measured point `index` that are still live (none failed
    /// verification anywhere): the ones a decision there may choose.
    pub(super) fn eligible(&self, index: usize) -> Vec<Timed> {
        self.results[index].1.timed.iter().filter(|t| self.live[t.candidate]).cloned().collect()
    }

    /// The decision at measured point `index`: the winner first, then the candidates
    /// within the tolerance; an error when no candidate passed verification.
    pub(super) fn cell(&self, index: usize) -> Result<Cell, Error> {
        let (point, result) = &self.results[index];
        let eligible = self.eligible(index);
        // Ties go to the best fixed choice over the points nearby, the grid's preference
        // breaking what those leave equal.
        let nearby = self.nearby(index);
        let preference = ranked_nearby(&nearby, &self.plan.preference);
        let acceptable =
            decide(&eligible, &result.looks, &preference, self.state_margin).ok_or_else(|| Error::Sweep {
                kernel: self.tuner.name.into(),
                reason: format!("no candidate passed verification at {}", point_label(self.tuner, point)),
            })?;
        let regrets = regrets(&eligible);
        Ok(Cell {
            acceptable,
            near: near(&regrets),
            result: Some(index),
            regrets,
            took: result.elapsed,
            inferred_from: None,
        })
    }
}

pub(super) fn open_cache(options: &SweepOptions) -> Result<KernelTuningCache, Error> {
    let cache = match &options.cache_dir {
        Some(dir) => KernelTuningCache::open(dir)?,
        None => KernelTuningCache::load_or_create()?,
    };
    Ok(match &options.fingerprint {
        Some(fp) => cache.with_fingerprint(fp.clone()),
        None => cache,
    })
}

/// A quick sweep's budget per kernel, refinement included. 14 s, not 12: with 12,
/// `joint_hist_batched`'s refinement sometimes ran out with wide brackets still open
/// where a wrong region costs 1.2–2.4× (`pairs` against `serial` between pair tables
/// 512 and 1 448, `n_features` between 1 and 5). Five alternating runs of `cargo bench
/// --bench tuning_quality` each: worst regret ≤ 1.15 in 4 of 5 with 14 s, 2 of 5 with
/// 12 s (one at 2.40, with 33 regions); the sweep stays within the 15 s it may take.
const QUICK_BUDGET: Duration = Duration::from_secs(14);

/// How many grids' pauses a sweep after pauses gets on top of its mode's budget: one
/// for the grid, one for the points refinement adds (see [`Sweeper::budget`]). Four
/// (`discretize` after 20 ms pauses: 54 s instead of 34) measured 24 points instead
/// of 16, and `ktc verify --points 20 --looks 1` after 20 ms pauses found regret
/// geomean 1.05 against 1.06, worst 1.35 against 1.23: no better within the noise of
/// single calls after a pause.
const PAUSED_GRIDS: u32 = 2;

/// Rounds per point and the kernel's default time budget for a mode, for calls in a
/// loop (the budget a sweep or verify takes: [`Sweeper::budget_of`]).
pub(super) fn limits(options: &SweepOptions) -> (Rounds, Duration) {
    match options.mode {
        SweepMode::Quick => (Rounds { min: 7, max: 31, floor: 3 }, QUICK_BUDGET),
        SweepMode::Full => (Rounds { min: 9, max: 301, floor: 5 }, Duration::from_secs(600)),
    }
}

/// See [`Sweeper::budget_of`]: `per_point` is one point's pauses.
fn budget(options: &SweepOptions, modes: u32, per_point: Duration, paused_points: usize) -> Duration {
    options.budget.unwrap_or_else(|| limits(options).1 * modes + per_point * paused_points as u32)
}

/// What `candidates` candidates' pauses take over `timing`'s minimum rounds.
fn pauses(timing: Timing, candidates: usize) -> Duration {
    let Some(pause) = timing.calls.pause() else { return Duration::ZERO };
    pause * candidates as u32 * timing.rounds.min
}

fn verification_failure(
    tuner: &KernelInfo,
    plan: &Plan,
    candidate: usize,
    point: &[GridValue],
    reason: &str,
) -> Exclusion {
    let c = plan.candidates[candidate];
    Exclusion {
        variant: tuner.variants[c.variant].name.to_string(),
        block_size: c.block_size,
        point: Some(point_map(tuner, point)),
        reason: format!(
            "output differs from the reference `{}`: {reason}",
            tuner.variants[tuner.reference_index()].name
        ),
    }
}

pub(super) fn point_map(tuner: &KernelInfo, point: &[GridValue]) -> BTreeMap<String, serde_json::Value> {
    tuner
        .axes
        .iter()
        .zip(point)
        .map(|(axis, v)| {
            let value = match v {
                GridValue::Int(n) => serde_json::Value::from(*n),
                GridValue::Label(l) => serde_json::Value::from(*l),
            };
            (axis.name.to_string(), value)
        })
        .collect()
}

/// Which of the tuner's axes are numeric (refinement splits them, and a cell's decision
/// answers towards its neighbours along them).
pub(super) fn numeric_axes(tuner: &KernelInfo) -> Vec<bool> {
    tuner.axes.iter().map(|a| a.kind == crate::AxisKind::Numeric).collect()
}

pub(super) fn point_label(tuner: &KernelInfo, point: &[GridValue]) -> String {
    let parts: Vec<String> =
        tuner.axes.iter().zip(point).map(|(axis, v)| format!("{}={v}", axis.name)).collect();
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::CallPattern;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_sweep_after_pauses_gets_its_grids_pauses_on_top_of_the_modes_budget() {
        let quick = SweepOptions { mode: SweepMode::Quick, ..SweepOptions::default() };
        let rounds = limits(&quick).0;
        let paused = Timing { rounds, calls: CallPattern::AfterPause(ms(20)) };
        // 10 candidates × 7 rounds × 20 ms = 1.4 s a point; 12 points, twice over.
        assert_eq!(pauses(paused, 10), ms(1_400));
        assert_eq!(
            budget(&quick, 1, pauses(paused, 10), 12 * PAUSED_GRIDS as usize),
            QUICK_BUDGET + ms(33_600)
        );
        let in_a_loop = Timing { rounds, calls: CallPattern::InALoop };
        assert_eq!(pauses(in_a_loop, 10), Duration::ZERO);
        assert_eq!(budget(&quick, 1, pauses(in_a_loop, 10), 12 * PAUSED_GRIDS as usize), QUICK_BUDGET);
        // A budget the user gave is the budget, pauses or not.
        let given = SweepOptions { budget: Some(ms(5_000)), ..quick };
        assert_eq!(budget(&given, 1, pauses(paused, 10), 12 * PAUSED_GRIDS as usize), ms(5_000));
    }
}
