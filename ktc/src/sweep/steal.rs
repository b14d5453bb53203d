//! The share of this machine's CPU time the hypervisor took while something was
//! measured.
//!
//! On a virtual machine whose host is shared, a virtual CPU is sometimes not run for
//! milliseconds at a time, and the guest's kernel counts that time as stolen. A
//! parallel candidate then waits for its stolen half: in one sweep of
//! `joint_hist_batched` on the 2-CPU development VM, `par_pairs` at 1 000 000 samples ×
//! 30 features ran 5.0 ms a call against `pairs`' 8.3 ms in a look without steal, and
//! 6.4 ms against 6.6 ms in a look while 20 ms were stolen. A verify's flags, or a
//! benchmark's misses, measured while the host stole a few percent may be the host's.

/// The machine's CPU time so far, in clock ticks, as `/proc/stat` counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuTimes {
    /// Time stolen from this machine's CPUs (`steal`).
    stolen: u64,
    /// All of its CPUs' time: user, nice, system, idle, iowait, irq, softirq and steal.
    total: u64,
}

impl CpuTimes {
    /// The counts now; `None` where the system keeps none (not Linux, a kernel without
    /// the `steal` column, or `/proc` not readable).
    pub fn now() -> Option<CpuTimes> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        CpuTimes::parse(stat.lines().next()?)
    }

    /// The share of the CPU time since `earlier` that was stolen (0 to 1); `None` when
    /// no time was counted in between.
    pub fn stolen_share_since(&self, earlier: &CpuTimes) -> Option<f64> {
        let total = self.total.checked_sub(earlier.total).filter(|&t| t > 0)?;
        let stolen = self.stolen.saturating_sub(earlier.stolen);
        Some(stolen as f64 / total as f64)
    }

    /// The share of the CPU time from `earlier` (a reading of [`CpuTimes::now`]) until
    /// now that was stolen; `None` where either reading is missing.
    pub fn stolen_share_from(earlier: Option<CpuTimes>) -> Option<f64> {
        CpuTimes::now()?.stolen_share_since(&earlier?)
    }

    /// `/proc/stat`'s summary line, `cpu  user nice system idle iowait irq softirq steal …`.
    fn parse(line: &str) -> Option<CpuTimes> {
        let mut fields = line.split_whitespace();
        (fields.next()? == "cpu").then_some(())?;
        let counts: Vec<u64> = fields.take(8).map(str::parse).collect::<Result<_, _>>().ok()?;
        // guest and guest_nice (after steal) are already counted in user and nice.
        (counts.len() == 8).then(|| CpuTimes { stolen: counts[7], total: counts.iter().sum() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_line_gives_steal_and_the_total_without_guest_time() {
        let line = "cpu  5412593 0 564892 3010807 316654 0 3780 30166 7 9";
        assert_eq!(CpuTimes::parse(line), Some(CpuTimes { stolen: 30166, total: 9_338_892 }));
        assert_eq!(CpuTimes::parse("cpu0 2567158 0 271531 1729717 84708 0 568 15304 0 0"), None);
        assert_eq!(CpuTimes::parse("cpu  1 2 3 4 5 6 7"), None, "a kernel without the column");
        assert_eq!(CpuTimes::parse("cpu  1 2 3 4 5 6 7 x"), None);
    }

    #[test]
    fn the_share_is_of_the_time_counted_in_between() {
        let earlier = CpuTimes { stolen: 100, total: 10_000 };
        let later = CpuTimes { stolen: 150, total: 11_000 };
        assert_eq!(later.stolen_share_since(&earlier), Some(0.05));
        assert_eq!(earlier.stolen_share_since(&earlier), None, "no time in between");
        assert_eq!(earlier.stolen_share_since(&later), None, "counts that went back");
    }

    #[test]
    fn this_machine_reads_its_counts_where_it_keeps_them() {
        // Linux has counted steal since 2.6.11; elsewhere there is nothing to read.
        if cfg!(target_os = "linux") {
            assert!(CpuTimes::now().is_some(), "no steal column in /proc/stat");
        } else {
            assert_eq!(CpuTimes::now(), None);
        }
    }
}
