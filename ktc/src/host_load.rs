//! How busy the machine was while something was measured: the share of its CPU time
//! the hypervisor stole, and the share other processes used.
//!
//! On a virtual machine whose host is shared, a virtual CPU is sometimes not run for
//! milliseconds at a time, and the guest's kernel counts that time as stolen. A
//! parallel candidate then waits for its stolen half: in one sweep of
//! `joint_hist_batched` on the 2-CPU development VM, `par_pairs` at 1 000 000 samples ×
//! 30 features ran 5.0 ms a call against `pairs`' 8.3 ms in a look without steal, and
//! 6.4 ms against 6.6 ms in a look while 20 ms were stolen. Other processes on the same
//! machine (a build beside the sweep) take cores the same way, and the hypervisor does
//! not count that: a tuning of `joint_hist_batched` taken while `cargo` built on both
//! cores chose `pairs` where, once the build had finished, `par_pairs` ran 1.4–1.6×
//! faster, with 0.4% stolen.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The machine's CPU time so far, in clock ticks, as `/proc/stat` and
/// `/proc/self/stat` count it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuTimes {
    /// Time stolen from this machine's CPUs (`steal`).
    stolen: u64,
    /// Time its CPUs ran anything: user, nice, system, irq and softirq.
    busy: u64,
    /// All of its CPUs' time: the above, idle, iowait and steal.
    total: u64,
    /// This process's own CPU time, every thread's (`utime` and `stime`).
    own: u64,
}

/// The shares of the machine's CPU time, over some span, that the hypervisor stole and
/// that processes other than this one used, each 0 to 1. Stored in an entry (what its
/// sweep measured under) and in a verify's report.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct HostLoad {
    /// The share stolen by the hypervisor.
    pub stolen: f64,
    /// The share other processes used (this process's threads not counted, whatever
    /// they ran: tests running beside a sweep in one test binary count as its own).
    pub other: f64,
}

impl CpuTimes {
    /// The counts now; `None` where the system keeps none (not Linux, a kernel without
    /// the `steal` column, or `/proc` not readable).
    pub fn now() -> Option<CpuTimes> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let own = std::fs::read_to_string("/proc/self/stat").ok()?;
        CpuTimes::parse(stat.lines().next()?, &own)
    }

    /// `/proc/stat`'s summary line, `cpu  user nice system idle iowait irq softirq steal
    /// …`, and this process's `/proc/self/stat`.
    fn parse(summary: &str, own: &str) -> Option<CpuTimes> {
        let mut fields = summary.split_whitespace();
        (fields.next()? == "cpu").then_some(())?;
        // guest and guest_nice (after steal) are already counted in user and nice.
        let counts: Vec<u64> = fields.take(8).map(str::parse).collect::<Result<_, _>>().ok()?;
        let counts: [u64; 8] = counts.try_into().ok()?;
        let [user, nice, system, _idle, _iowait, irq, softirq, steal] = counts;
        Some(CpuTimes {
            stolen: steal,
            busy: user + nice + system + irq + softirq,
            total: counts.iter().sum(),
            own: own_ticks(own)?,
        })
    }
}

/// `utime + stime` from a `/proc/PID/stat` line. The command name (second field) is in
/// parentheses and may hold spaces and parentheses itself, so fields are counted from
/// the last `)`: state is the first after it, utime the 12th, stime the 13th.
fn own_ticks(stat: &str) -> Option<u64> {
    let after = &stat[stat.rfind(')')? + 1..];
    let mut fields = after.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(utime + stime)
}

impl HostLoad {
    /// From this load on, a sweep warns that its tuning may not fit the machine once it is
    /// quiet. Taken while `cargo` built on both cores of the development VM, a tuning of
    /// `joint_hist_batched` chose `pairs` at points where `par_pairs` ran 1.4–1.6× faster
    /// afterwards (4 of 24 points flagged by `ktc verify`). The same set-up again (the
    /// README's main command while a release build of ktc ran) measured 55.7% used by
    /// other processes; with nothing else started, 0.5% over ten seconds and up to 8.6%
    /// over single seconds (the kernel's own threads, `kdamond` among them). The stolen
    /// share is higher than verify's notice: the sweep's further looks absorb a few
    /// percent (of ten benchmark sweeps, the eight with 1.3–7.0% stolen kept the regret
    /// geomean within 1.03 and the worst within 1.35; the two with 25% and 27% measured
    /// worst regrets of 1.37 and 2.86).
    pub(crate) const BUSY_SWEEP: HostLoad = HostLoad { stolen: 0.10, other: 0.10 };

    /// The load between two readings; `None` when no machine time passed in between or
    /// the counts went back.
    pub fn between(earlier: &CpuTimes, later: &CpuTimes) -> Option<HostLoad> {
        let total = later.total.checked_sub(earlier.total).filter(|&t| t > 0)? as f64;
        let stolen = later.stolen.checked_sub(earlier.stolen)? as f64;
        let busy = later.busy.checked_sub(earlier.busy)?;
        let own = later.own.checked_sub(earlier.own)?;
        // The process's ticks and the machine's are sampled apart, so they may disagree
        // by a tick or two.
        let other = busy.saturating_sub(own) as f64;
        Some(HostLoad { stolen: stolen / total, other: (other / total).min(1.0) })
    }

    /// The load from `earlier` (a reading of [`CpuTimes::now`]) until now; `None` where
    /// either reading is missing.
    pub fn since(earlier: Option<CpuTimes>) -> Option<HostLoad> {
        HostLoad::between(&earlier?, &CpuTimes::now()?)
    }

    /// Whether a sweep measured under this load may have chosen differently from one on
    /// the quiet machine (from 10% stolen or 10% used by other processes): the sweep
    /// warns, `show` advises a retune, `list` marks the entry and `verify` names it.
    pub fn spoils_a_tuning(&self) -> bool {
        self.reaches(&HostLoad::BUSY_SWEEP)
    }

    /// Whether either share reaches `limit`'s.
    pub fn reaches(&self, limit: &HostLoad) -> bool {
        self.stolen >= limit.stolen || self.other >= limit.other
    }
}

impl fmt::Display for HostLoad {
    /// `the hypervisor stole 4.4% and other processes used 38.0% of the CPU time`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the hypervisor stole {:.1}% and other processes used {:.1}% of the CPU time",
            self.stolen * 100.0,
            self.other * 100.0
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OWN: &str = "4242 (tq (1) x) R 1 4242 4242 0 -1 4194304 100 0 0 0 700 300 0 0 20 0 3 0 1 2 3";

    #[test]
    fn the_summary_line_gives_steal_busy_and_the_total_without_guest_time() {
        let line = "cpu  5412593 0 564892 3010807 316654 0 3780 30166 7 9";
        let times = CpuTimes::parse(line, OWN).expect("a summary line");
        assert_eq!(times, CpuTimes { stolen: 30166, busy: 5_981_265, total: 9_338_892, own: 1000 });
        let per_cpu = "cpu0 2567158 0 271531 1729717 84708 0 568 15304 0 0";
        assert_eq!(CpuTimes::parse(per_cpu, OWN), None);
        assert_eq!(CpuTimes::parse("cpu  1 2 3 4 5 6 7", OWN), None, "a kernel without the column");
        assert_eq!(CpuTimes::parse("cpu  1 2 3 4 5 6 7 x", OWN), None);
        assert_eq!(CpuTimes::parse(line, "4242 (tq) R 1 2"), None, "a short process line");
    }

    #[test]
    fn the_process_time_is_counted_after_its_name_whatever_the_name_holds() {
        assert_eq!(own_ticks(OWN), Some(1000));
        assert_eq!(own_ticks("1 (a) b) R 1 1 1 0 -1 0 0 0 0 0 5 6 0"), Some(11));
        assert_eq!(own_ticks("no parentheses"), None);
    }

    #[test]
    fn the_shares_are_of_the_time_counted_in_between() {
        let earlier = CpuTimes { stolen: 100, busy: 4_000, total: 10_000, own: 1_000 };
        let later = CpuTimes { stolen: 150, busy: 4_700, total: 11_000, own: 1_300 };
        assert_eq!(HostLoad::between(&earlier, &later), Some(HostLoad { stolen: 0.05, other: 0.4 }));
        assert_eq!(HostLoad::between(&earlier, &earlier), None, "no time in between");
        assert_eq!(HostLoad::between(&later, &earlier), None, "counts that went back");
        let own_ahead = CpuTimes { own: 1_800, ..later };
        assert_eq!(HostLoad::between(&earlier, &own_ahead).map(|l| l.other), Some(0.0));
    }

    #[test]
    fn a_load_reaches_a_limit_when_either_share_does() {
        let limit = HostLoad { stolen: 0.05, other: 0.1 };
        assert!(!HostLoad { stolen: 0.04, other: 0.09 }.reaches(&limit));
        assert!(HostLoad { stolen: 0.05, other: 0.0 }.reaches(&limit));
        assert!(HostLoad { stolen: 0.0, other: 0.3 }.reaches(&limit));
        let text = HostLoad { stolen: 0.044, other: 0.38 }.to_string();
        assert_eq!(text, "the hypervisor stole 4.4% and other processes used 38.0% of the CPU time");
    }

    #[test]
    fn this_machine_reads_its_counts_where_it_keeps_them() {
        // Linux has counted steal since 2.6.11; elsewhere there is nothing to read.
        if cfg!(target_os = "linux") {
            let before = CpuTimes::now().expect("no steal column in /proc/stat");
            // Some CPU time of this process's own, so it shows in `own`.
            let mut x = 0u64;
            let started = std::time::Instant::now();
            while started.elapsed() < std::time::Duration::from_millis(100) {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
            }
            let after = CpuTimes::now().expect("a second reading");
            assert!(after.own > before.own, "100 ms of work not counted as this process's");
            let load = HostLoad::between(&before, &after).expect("time passed");
            assert!((0.0..=1.0).contains(&load.stolen) && (0.0..=1.0).contains(&load.other), "{load:?}");
        } else {
            assert_eq!(CpuTimes::now(), None);
        }
    }
}
