//! Dropping the regions and conditions of a draft table that change no grid point's
//! answer.

use super::grid::{Draft, Grid};

impl Grid<'_> {
    /// Drops regions and conditions that do not change any grid point's answer, until
    /// none can go. The last region stays (it is, and remains, the catch-all).
    pub(super) fn simplify(&self, drafts: &mut Vec<Draft>) {
        let mut first: Vec<usize> = (0..self.point_count()).map(|p| self.first_match(drafts, p, 0)).collect();
        loop {
            let mut changed = false;
            let mut r = 0;
            while r + 1 < drafts.len() {
                if self.try_remove(drafts, &mut first, r) {
                    changed = true;
                } else {
                    r += 1;
                }
            }
            for r in 0..drafts.len() {
                for a in 0..self.sizes.len() {
                    changed |= self.try_drop_condition(drafts, &mut first, r, a);
                }
            }
            if !changed {
                break;
            }
        }
        // Regions after a catch-all answer nothing (the ones before the last are already
        // gone); the last would stay without this.
        if let Some(i) = drafts.iter().position(|d| d.when.iter().all(Option::is_none)) {
            drafts.truncate(i + 1);
        }
    }

    fn first_match(&self, drafts: &[Draft], flat: usize, from: usize) -> usize {
        (from..drafts.len()).find(|&r| self.contains(&drafts[r], flat)).unwrap_or(drafts.len())
    }

    /// Removes region `r` when every point it answers falls to a later region with the
    /// same winner.
    fn try_remove(&self, drafts: &mut Vec<Draft>, first: &mut [usize], r: usize) -> bool {
        let winner = drafts[r].winner;
        let mut moved = Vec::new();
        for (p, &f) in first.iter().enumerate() {
            if f == r {
                let next = self.first_match(drafts, p, r + 1);
                if drafts.get(next).is_none_or(|d| d.winner != winner) {
                    return false;
                }
                moved.push((p, next));
            }
        }
        for (p, next) in moved {
            first[p] = next;
        }
        drafts.remove(r);
        for f in first.iter_mut().filter(|f| **f > r) {
            *f -= 1;
        }
        true
    }

    /// Drops region `r`'s condition on axis `a` when every point it would newly take
    /// already has the region's winner.
    fn try_drop_condition(&self, drafts: &mut [Draft], first: &mut [usize], r: usize, a: usize) -> bool {
        if drafts[r].when[a].is_none() {
            return false;
        }
        let mut wider = drafts[r].clone();
        wider.when[a] = None;
        let mut taken = Vec::new();
        for (p, &f) in first.iter().enumerate() {
            if f > r && self.contains(&wider, p) {
                if drafts.get(f).map(|d| d.winner) != Some(wider.winner) {
                    return false;
                }
                taken.push(p);
            }
        }
        for p in taken {
            first[p] = r;
        }
        drafts[r] = wider;
        true
    }
}
