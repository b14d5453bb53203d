//! The registry without the macro: a hand-written `KernelInfo` and `Harness`, registered in
//! `ktc::KERNELS`, found by `discover_kernels()`, and swept by the runtime.

use ktc::sweep::{FromGridValue, Harness, InputsError, SweepMode, SweepOptions, SweepReport};
use ktc::{AxisInfo, AxisKind, GridValue, KERNELS, KernelIdentity, KernelInfo, VariantInfo};
use std::time::Duration;

/// Sums `data` one way or another; variant 1 takes a block size.
struct SumHarness;

impl Harness for SumHarness {
    type Inputs = (Vec<u64>,);
    type Ret = u64;
    type Output = u64;

    fn build(&self, point: &[GridValue]) -> Result<Self::Inputs, InputsError> {
        let [value] = point else { return Err(InputsError::Arity { expected: 1, found: point.len() }) };
        let n = u64::from_grid_value(*value).map_err(|source| InputsError::Axis { axis: "n", source })?;
        Ok(((0..n).collect(),))
    }

    fn run(&self, variant: usize, block_size: Option<usize>, inputs: &mut Self::Inputs) -> u64 {
        match (variant, block_size) {
            (1, Some(block)) => inputs.0.chunks(block).map(|c| c.iter().sum::<u64>()).sum(),
            _ => inputs.0.iter().sum(),
        }
    }

    fn output(&self, _inputs: Self::Inputs, ret: u64) -> u64 {
        ret
    }

    fn verify(&self, reference: &u64, candidate: &u64) -> Result<(), String> {
        if reference == candidate { Ok(()) } else { Err(format!("{candidate} ≠ {reference}")) }
    }
}

fn sweep(options: &SweepOptions) -> Result<SweepReport, ktc::Error> {
    ktc::sweep::run(&HAND_WRITTEN, &SumHarness, options)
}

#[ktc::__private::linkme::distributed_slice(ktc::KERNELS)]
#[linkme(crate = ktc::__private::linkme)]
static HAND_WRITTEN: KernelInfo = KernelInfo {
    name: "hand_written_sum",
    module_path: "registry::hand_written_sum",
    identity: KernelIdentity::new("registry-test", "0.0.1", "0123456789abcdef"),
    axes: &[AxisInfo {
        name: "n",
        kind: AxisKind::Numeric,
        grid: &[GridValue::Int(10), GridValue::Int(1000)],
    }],
    variants: &[
        VariantInfo { name: "serial", block_sizes: &[], requires: &[], reference: true, default: false },
        VariantInfo {
            name: "chunked",
            block_sizes: &[4, 64],
            requires: &[],
            reference: false,
            default: false,
        },
    ],
    sweep,
    calls: ktc::sweep::CallPattern::InALoop,
};

#[test]
fn a_hand_written_tuner_is_discovered() {
    let found: Vec<&KernelInfo> =
        ktc::discover_kernels().into_iter().filter(|t| t.name == "hand_written_sum").collect();
    assert_eq!(found.len(), 1, "registered once, found once");
    let tuner = found[0];
    assert_eq!(tuner.module_path, "registry::hand_written_sum");
    assert_eq!(tuner.reference_index(), 0);
    assert_eq!(tuner.fallback_index(), 0);
    let schema = tuner.schema();
    assert_eq!(schema.axes, vec![ktc::Axis::numeric("n")]);
    assert_eq!(schema.variants, vec![("serial".to_string(), vec![]), ("chunked".to_string(), vec![4, 64])]);
    assert!(KERNELS.iter().any(|t| std::ptr::eq(t, &HAND_WRITTEN)));
}

#[test]
fn its_sweep_writes_a_valid_entry() {
    let dir = tempfile::tempdir().unwrap();
    let options = SweepOptions {
        mode: SweepMode::Quick,
        budget: Some(Duration::from_secs(5)),
        cache_dir: Some(dir.path().to_path_buf()),
        fingerprint: Some("registry-host".into()),
        progress: false,
        ..SweepOptions::default()
    };
    let tuner = ktc::discover_kernels().into_iter().find(|t| t.name == "hand_written_sum").unwrap();
    let report = (tuner.sweep)(&options).unwrap();
    assert!(report.entry_path.starts_with(dir.path().join("registry-host").join("hand_written_sum")));
    report.entry.table().validate(Some(&tuner.schema())).unwrap();
    // Both grid points × three candidates (serial, chunked/4, chunked/64) were timed
    // (refinement may add points between them).
    let at_grid = |m: &&ktc::Measurement| [10, 1000].iter().any(|&n| m.point["n"] == n);
    assert_eq!(report.entry.measurements.iter().filter(at_grid).count(), 6);
}
