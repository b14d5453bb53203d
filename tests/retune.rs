//! `retune_all`: every registered kernel × every device it can run on, in one pass.
//! This binary links two kernels of its own: one CPU-only, one with a CUDA variant.

use ktc::sweep::SweepOptions;
use ktc::{Device, RetuneOptions, retune_all};
use std::time::Duration;

/// CPU-only.
#[ktc::tunable(axes(n = data.len()), sweep(n = [64, 4096]))]
pub mod halve {
    /// A grid point's inputs.
    #[inputs]
    pub fn inputs(n: usize) -> (Vec<u32>, Vec<u32>) {
        ((0..n as u32).collect(), vec![0; n])
    }

    /// The reference.
    #[variant(reference)]
    pub fn serial(data: &[u32], out: &mut [u32]) {
        for (o, d) in out.iter_mut().zip(data) {
            *o = d / 2;
        }
    }

    /// A shift instead of a division.
    #[variant]
    pub fn shifted(data: &[u32], out: &mut [u32]) {
        for (o, d) in out.iter_mut().zip(data) {
            *o = d >> 1;
        }
    }
}

// The `scale` fixture registers a kernel with a CUDA variant; the tests find it by name.
#[path = "fixtures/scale.rs"]
pub mod fixture;

fn options(dir: &std::path::Path, kernels: &[&str]) -> RetuneOptions {
    RetuneOptions {
        kernels: kernels.iter().map(|k| k.to_string()).collect(),
        sweep: SweepOptions {
            budget: Some(Duration::from_secs(2)),
            cache_dir: Some(dir.to_path_buf()),
            fingerprint: Some("retune-host".into()),
            progress: false,
            ..SweepOptions::default()
        },
    }
}

#[test]
fn every_registered_kernel_is_tuned_on_every_device() {
    let dir = tempfile::tempdir().unwrap();
    let summary = retune_all(&options(dir.path(), &[]));
    assert!(summary.is_success(), "{summary}");
    let registered = ktc::discover_kernels();
    assert_eq!(registered.len(), 2, "this binary links `halve` and `scale`");
    for tuner in registered {
        let devices: Vec<Device> =
            summary.outcomes.iter().filter(|o| o.kernel == tuner.name).map(|o| o.device).collect();
        assert_eq!(devices, ktc::devices_for(tuner), "{}", tuner.name);
    }
    let cuda = ktc::capability_available(ktc::Capability::Cuda);
    let halve: Vec<_> = summary.outcomes.iter().filter(|o| o.kernel == "halve").collect();
    assert_eq!(halve.len(), 1, "a CPU-only kernel runs once");
    assert_eq!((halve[0].device, halve[0].fingerprint.as_str()), (Device::Cpu, "retune-host"));
    let entry = &halve[0].result.as_ref().unwrap().entry;
    assert!(entry.excluded.is_empty(), "{:?}", entry.excluded);
    for o in summary.outcomes.iter().filter(|o| o.kernel == "scale") {
        let report = o.result.as_ref().unwrap();
        assert!(report.entry_path.starts_with(dir.path().join(&o.fingerprint).join("scale")));
        let gpu: Vec<_> = report.entry.excluded.iter().filter(|e| e.variant == "gpu").collect();
        match &cuda {
            Err(reason) => {
                assert_eq!(o.device, Device::Cpu, "without CUDA, `scale` is tuned on the CPU");
                assert_eq!(gpu.len(), 1, "{:?}", report.entry.excluded);
                assert_eq!(gpu[0].reason, reason.to_string());
            }
            Ok(()) => assert!(matches!(o.device, Device::Cuda(_)) && gpu.is_empty()),
        }
    }
    let text = summary.to_string();
    assert!(text.contains("halve on cpu (retune-host)"), "{text}");
    if let Err(reason) = &cuda {
        assert!(text.contains(&format!("excluded gpu: {reason}")), "{text}");
    }
}

#[test]
fn the_filter_picks_kernels_and_reports_unknown_names() {
    let dir = tempfile::tempdir().unwrap();
    let summary = retune_all(&options(dir.path(), &["halve", "no_such_kernel"]));
    let tuned: Vec<&str> = summary.outcomes.iter().map(|o| o.kernel).collect();
    assert_eq!(tuned, ["halve"]);
    assert_eq!(summary.unknown, ["no_such_kernel"]);
    assert!(!summary.is_success(), "an unknown name is not a success");
    assert!(summary.to_string().contains("no registered kernel is named `no_such_kernel`"));
}
