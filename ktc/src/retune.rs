//! Re-tuning every registered kernel on every device it can run on, in one pass.

use crate::job::{VerifiedPoint, VerifyReport};
use crate::registry::{KernelInfo, discover_kernels};
use crate::sweep::{SweepOptions, SweepReport};
use crate::{Capability, capability_available, hw_fingerprint_for};
use std::fmt;
use std::path::Path;

/// A device a kernel is tuned for: each has its own fingerprint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Device {
    /// The host CPU (kernels without CUDA variants, or any kernel where CUDA is absent).
    Cpu,
    /// One CUDA GPU, by ordinal.
    Cuda(usize),
}

impl fmt::Display for Device {
    /// `cpu` or `cuda:<ordinal>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Device::Cpu => f.write_str("cpu"),
            Device::Cuda(d) => write!(f, "cuda:{d}"),
        }
    }
}

impl Device {
    /// The GPU ordinal the device's entry records: the CPU's entries carry ordinal 0's
    /// provenance and fingerprint, the ones dispatch reads.
    pub fn ordinal(self) -> usize {
        match self {
            Device::Cpu => 0,
            Device::Cuda(d) => d,
        }
    }
}

/// What [`retune_all`] tunes and how.
#[derive(Clone, Debug, Default)]
pub struct RetuneOptions {
    /// Only kernels with these names; empty: every registered kernel.
    pub kernels: Vec<String>,
    /// Mode, budget (per kernel × device), store and progress of each sweep. Its
    /// `fingerprint`, when set, replaces this host's for device 0 and devices identical
    /// to it; another device `d` gets `<fingerprint>_dev<d>`, as `KTC_FINGERPRINT` does. `device` and
    /// `progress_group` are set per sweep.
    pub sweep: SweepOptions,
}

/// One kernel × device of a [`retune_all`] pass.
#[derive(Debug)]
pub struct RetuneOutcome {
    /// The kernel's name.
    pub kernel: &'static str,
    /// The device tuned for.
    pub device: Device,
    /// The fingerprint the entry is filed under.
    pub fingerprint: String,
    /// The sweep's report (the entry written, its regions and exclusions), or why it
    /// failed.
    pub result: Result<SweepReport, crate::Error>,
}

/// What a [`retune_all`] pass did.
#[derive(Debug, Default)]
pub struct RetuneSummary {
    /// One outcome per kernel × device, in tuning order.
    pub outcomes: Vec<RetuneOutcome>,
    /// Names in [`RetuneOptions::kernels`] that no registered kernel has.
    pub unknown: Vec<String>,
}

impl RetuneSummary {
    /// Whether every sweep wrote an entry and every requested name was found.
    pub fn is_success(&self) -> bool {
        self.unknown.is_empty() && self.outcomes.iter().all(|o| o.result.is_ok())
    }
}

/// The devices `kernel` is tuned for here: one per distinct GPU (identical GPUs share a
/// fingerprint and are tuned once, on the lowest ordinal) when it has a CUDA variant
/// and CUDA is present, else the CPU once (its CUDA variants are then reported
/// unavailable by the sweep).
pub fn devices_for(kernel: &KernelInfo) -> Vec<Device> {
    let wants_cuda = kernel.variants.iter().any(|v| v.requires.contains(&Capability::Cuda));
    if wants_cuda && capability_available(Capability::Cuda).is_ok() {
        let summaries: Vec<_> = (0..crate::cuda::device_count()).map(crate::cuda::gpu_summary).collect();
        let devices = crate::fingerprint::distinct_devices(&summaries);
        if !devices.is_empty() {
            return devices.into_iter().map(Device::Cuda).collect();
        }
    }
    vec![Device::Cpu]
}

/// Sweeps every kernel in [`KERNELS`](crate::KERNELS) (or those named in
/// `options.kernels`) on every device it can run on, one after the other, and writes
/// one entry per kernel × device. A failed sweep is recorded and the pass goes on.
/// With progress on and stderr a terminal, each kernel × device gets a line of one
/// progress display.
pub fn retune_all(options: &RetuneOptions) -> RetuneSummary {
    let kernels: Vec<&'static KernelInfo> = discover_kernels()
        .into_iter()
        .filter(|t| options.kernels.is_empty() || options.kernels.iter().any(|k| k == t.name))
        .collect();
    let unknown =
        options.kernels.iter().filter(|k| !kernels.iter().any(|t| t.name == k.as_str())).cloned().collect();
    let group = options.sweep.progress_group.clone().unwrap_or_default();
    let mut outcomes = Vec::new();
    for kernel in kernels {
        for device in devices_for(kernel) {
            let fingerprint = fingerprint_for(options.sweep.fingerprint.as_deref(), device);
            let sweep = SweepOptions {
                fingerprint: Some(fingerprint.clone()),
                device: device.ordinal(),
                progress_group: Some(group.labelled(format!("{} on {device}", kernel.name))),
                ..options.sweep.clone()
            };
            let result = (kernel.sweep)(&sweep);
            outcomes.push(RetuneOutcome { kernel: kernel.name, device, fingerprint, result });
        }
    }
    RetuneSummary { outcomes, unknown }
}

fn fingerprint_for(given: Option<&str>, device: Device) -> String {
    match (given, device.ordinal()) {
        (Some(fp), d) => crate::fingerprint::device_override(fp, d),
        (None, d) => hw_fingerprint_for(d),
    }
}

impl fmt::Display for RetuneSummary {
    /// Per kernel × device: the entry written, the winners per region and the variants
    /// excluded with the reason; then the names that matched no kernel.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for o in &self.outcomes {
            writeln!(f, "{} on {} ({})", o.kernel, o.device, o.fingerprint)?;
            match &o.result {
                Ok(report) => {
                    if let Some(verified) = &report.verify {
                        write_refine_verdict(f, verified, &report.entry_path)?;
                    }
                    writeln!(f, "  entry: {}", report.entry_path.display())?;
                    for line in report.entry.table().to_string().lines() {
                        writeln!(f, "  {line}")?;
                    }
                    for e in &report.entry.excluded {
                        let block = e.block_size.map(|b| format!(", block {b}")).unwrap_or_default();
                        writeln!(f, "  excluded {}{block}: {}", e.variant, e.reason)?;
                    }
                }
                Err(e) => writeln!(f, "  failed: {e}")?,
            }
        }
        for name in &self.unknown {
            writeln!(f, "no registered kernel is named `{name}`")?;
        }
        Ok(())
    }
}

/// What `retune --refine`'s verify found, and whether it re-swept: a refine that keeps
/// the entry says so, with the figures, since a verify run just before may have
/// flagged a point that this one did not (a close call that the host's state decides).
fn write_refine_verdict(f: &mut fmt::Formatter<'_>, verified: &VerifyReport, entry: &Path) -> fmt::Result {
    writeln!(
        f,
        "  verified at {} points: regret geomean {:.3}, worst {:.3} (threshold {:.2})",
        verified.points.len(),
        verified.geomean_regret,
        verified.worst_regret,
        verified.threshold
    )?;
    for r in &verified.flagged {
        writeln!(f, "  flagged: {} ({} points, worst {:.3})", r.region, r.points, r.worst_regret)?;
    }
    for p in &verified.earlier {
        writeln!(f, "  flagged by an earlier verify: {} (regret now {:.3})", p.point_text(), p.regret)?;
    }
    // Flagged now or recorded by an earlier verify; a point both is counted once.
    let mut flagged: Vec<&VerifiedPoint> = verified.flagged_points().collect();
    for p in &verified.earlier {
        if !flagged.iter().any(|q| q.point == p.point) {
            flagged.push(p);
        }
    }
    let flagged = flagged.len();
    if verified.entry == entry {
        writeln!(
            f,
            "  no point above {:.2}: the entry is kept (a point flagged only by some verifies is a close \
             call; `--looks` and `--threshold` set how this verify judges)",
            verified.threshold
        )
    } else {
        writeln!(f, "  re-swept around the {flagged} flagged point(s), each measured where it lies")
    }
}
