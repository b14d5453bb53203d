//! A grid point whose inputs cannot be built is skipped and recorded; the regions come
//! from the measured sub-grid.

use ktc::sweep::{FromGridValue, GridValueError, SweepMode, SweepOptions};
use ktc::{AxisValue, GridValue, Location};
use std::time::Duration;

/// A residency label that only `host` converts to, as device-resident inputs on a host
/// without a device.
#[derive(Clone, Copy, Debug)]
pub struct HostOnly;

impl FromGridValue for HostOnly {
    fn from_grid_value(value: GridValue) -> Result<Self, GridValueError> {
        match Location::from_grid_value(value)? {
            Location::Host => Ok(HostOnly),
            Location::Device => Err(GridValueError::custom("no device here")),
        }
    }
}

/// A fixture with a residency axis whose `device` points cannot be built.
#[ktc::tunable(axes(n = data.len(), loc = ktc::location(data)), sweep(n = [10, 1_000], loc = [host, device]))]
pub mod total {
    use super::HostOnly;

    /// A grid point's inputs; `loc = device` never gets here.
    #[inputs]
    pub fn inputs(n: usize, loc: HostOnly) -> (Vec<u64>,) {
        let HostOnly = loc;
        ((0..n as u64).collect(),)
    }

    /// The reference.
    #[variant(reference)]
    pub fn serial(data: &[u64]) -> u64 {
        data.iter().sum()
    }

    /// Two halves; same result.
    #[variant]
    pub fn halves(data: &[u64]) -> u64 {
        let (a, b) = data.split_at(data.len() / 2);
        serial(a) + serial(b)
    }
}

fn options(dir: &std::path::Path) -> SweepOptions {
    SweepOptions {
        mode: SweepMode::Quick,
        budget: Some(Duration::from_secs(3)),
        cache_dir: Some(dir.to_path_buf()),
        fingerprint: Some("skip-host".into()),
        progress: false,
        // The grid alone: refinement would add midpoints wherever noise makes the two
        // near-equal variants disagree, and this test counts the grid's measurements.
        grid_only: true,
        ..SweepOptions::default()
    }
}

#[test]
fn unbuildable_points_are_skipped_and_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let report = (total::Variant::kernel().sweep)(&options(dir.path())).unwrap();
    let entry = &report.entry;
    let skipped: Vec<_> = entry.excluded.iter().filter(|e| e.variant == "*").collect();
    assert_eq!(skipped.len(), 2, "one per device point: {:#?}", entry.excluded);
    for e in &skipped {
        let point = e.point.as_ref().expect("the point is recorded");
        assert_eq!(point["loc"], "device");
        assert!(e.reason.contains("no device here"), "{}", e.reason);
    }
    assert!(entry.measurements.iter().all(|m| m.point["loc"] == "host"));
    assert_eq!(entry.measurements.len(), 4, "two candidates × two host points");
    // Regions come from the measured host points; the table validates against the
    // kernel's schema and answers for them.
    let table = entry.table();
    for n in [10usize, 1_000] {
        let host = [("n", AxisValue::from(n)), ("loc", AxisValue::from(Location::Host))];
        assert!(table.lookup(&host).is_some(), "{table}");
    }
}
