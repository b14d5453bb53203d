//! Refinement, verify and `retune --refine` end to end, on a fixture whose crossover is
//! known by construction: `per_item` costs 50 units per item, `fixed_cost` 20 000 units
//! plus one per item, so `per_item` wins below n ≈ 408 by up to 40× and loses above by
//! up to 16× — far beyond any noise, so where the decision flips is not a timing call.

use ktc::sweep::{SweepMode, SweepOptions};
use ktc::verify::{VerifyOptions, refine, verify};
use ktc::{AxisValue, Condition, DecisionTable, HostLoad, KernelTuningCache, Provenance, Region};
use std::time::Duration;

#[path = "support/burn.rs"]
mod cost;
use cost::burn;

/// The fixture: two variants with the same output and a crossover near n = 408.
#[ktc::tunable(axes(n = data.len()), sweep(n = [10, 10_000]))]
pub mod crossover {
    /// A grid point's inputs.
    #[inputs]
    pub fn inputs(n: usize) -> (Vec<u64>, Vec<u64>) {
        super::BUILT.with_borrow_mut(|built| built.push(n));
        ((0..n as u64).collect(), vec![0; 1])
    }

    /// The reference: cheap per call, dear per item.
    #[variant(reference)]
    pub fn per_item(data: &[u64], out: &mut [u64]) {
        super::burn(50 * data.len());
        out[0] = data.iter().sum();
    }

    /// Dear per call, cheap per item.
    #[variant]
    pub fn fixed_cost(data: &[u64], out: &mut [u64]) {
        super::burn(20_000 + data.len());
        out[0] = data.iter().sum();
    }
}

const TUNER: &ktc::KernelInfo = crossover::Variant::kernel();

thread_local! {
    /// Every `n` the fixture's inputs were built for on this thread (a test's, as sweeps
    /// and verifies build on the caller), in order: one per measured point or look.
    static BUILT: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Sweeps and verifies are measurements: the tests here take turns rather than time
/// each other's runs (five at once on two cores starved every one of them).
static MEASURING: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn measuring() -> std::sync::MutexGuard<'static, ()> {
    MEASURING.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn options(dir: &std::path::Path, grid_only: bool) -> SweepOptions {
    SweepOptions {
        mode: SweepMode::Quick,
        budget: Some(Duration::from_secs(8)),
        cache_dir: Some(dir.to_path_buf()),
        fingerprint: Some("tuning-host".into()),
        progress: false,
        skip_push: true,
        grid_only,
        ..SweepOptions::default()
    }
}

fn measured_ns(entry: &ktc::Entry) -> Vec<u64> {
    let mut ns: Vec<u64> = entry.measurements.iter().map(|m| m.point["n"].as_u64().unwrap()).collect();
    ns.sort();
    ns.dedup();
    ns
}

fn choice(table: &DecisionTable, n: u64) -> String {
    table.lookup(&[("n", AxisValue::Int(n))]).unwrap().1.variant.clone()
}

#[test]
fn refinement_brackets_the_crossover_and_puts_the_bound_between() {
    let _turn = measuring();
    let dir = tempfile::tempdir().unwrap();
    let report = (TUNER.sweep)(&options(dir.path(), false)).unwrap();
    let entry = &report.entry;
    let table = entry.table();
    assert_eq!(entry.regions.len(), 2, "{table}");
    let Some(Condition::Le(bound)) = entry.regions[0].when.get("n").cloned() else { panic!("{table}") };
    assert_eq!(entry.regions[0].variant, "per_item", "{table}");
    assert!((100.0..2_000.0).contains(&bound), "the bound {bound} is far from the crossover near 408");
    let ns = measured_ns(entry);
    assert!(ns.len() > 2, "refinement measured between the grid points: {ns:?}");
    let below = ns.iter().copied().filter(|&n| (n as f64) < bound).max().unwrap();
    let above = ns.iter().copied().filter(|&n| (n as f64) > bound).min().unwrap();
    assert!(above as f64 / below as f64 <= 1.25, "bracket {below}..{above} around {bound}");
    assert_eq!(bound, (below as f64 * above as f64).sqrt().floor(), "the bound is the bracket's middle");
    // Every run is kept, in round order.
    assert!(entry.measurements.iter().all(|m| m.samples_ns.len() == m.runs as usize && m.runs >= 3));
}

#[test]
fn grid_only_keeps_the_grid_and_its_bounds() {
    let _turn = measuring();
    let dir = tempfile::tempdir().unwrap();
    let report = (TUNER.sweep)(&options(dir.path(), true)).unwrap();
    assert_eq!(measured_ns(&report.entry), vec![10, 10_000]);
    assert_eq!(
        report.entry.regions,
        vec![Region::new("per_item").at_most("n", 10.0), Region::new("fixed_cost")]
    );
}

#[test]
fn verify_measures_off_grid_points_and_compares_fixed_choices() {
    let _turn = measuring();
    let dir = tempfile::tempdir().unwrap();
    let options = options(dir.path(), false);
    let swept = (TUNER.sweep)(&options).unwrap();
    let report = verify(TUNER, &VerifyOptions { points: 6, ..VerifyOptions::default() }, &options).unwrap();
    assert_eq!(report.points.len(), 6);
    for p in &report.points {
        let n = p.point["n"].as_u64().unwrap();
        assert!(n > 10 && n < 10_000, "{n} is off the grid, inside its range");
        assert!(p.regret.is_finite() && p.regret >= 1.0, "{p:?}");
        assert_eq!(p.times_ns.len(), 2);
    }
    assert_eq!(report.fixed.len(), 2);
    assert!(report.geomean_regret >= 1.0 && report.worst_regret >= report.geomean_regret);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["points"].as_array().unwrap().len(), 6);
    // How busy the machine was is counted where the system keeps the counts, for the
    // verify and for the sweep (recorded in its entry, passed on to the report).
    let within = |l: &HostLoad| (0.0..=1.0).contains(&l.stolen) && (0.0..=1.0).contains(&l.other);
    assert_eq!(report.load.is_some(), cfg!(target_os = "linux"), "{report}");
    assert!(report.load.as_ref().is_none_or(within), "{report}");
    assert_eq!(swept.entry.load.is_some(), cfg!(target_os = "linux"));
    assert_eq!(report.entry_load, swept.entry.load);
    assert!(json["load"].is_object() || json["load"].is_null(), "{json}");
    assert!(json.as_object().unwrap().contains_key("entry_load"));
}

/// Busy loops in other processes, one per CPU, stopped when dropped.
struct OtherWork(Vec<std::process::Child>);

impl OtherWork {
    /// Starts the loops and returns once each has run: a spawned shell may not have
    /// been scheduled yet when a sweep of a few milliseconds ends (CI once counted no
    /// other work at all beside a 40 ms sweep).
    fn start() -> OtherWork {
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        let spin = || std::process::Command::new("sh").args(["-c", "while :; do :; done"]).spawn().unwrap();
        let work = OtherWork((0..cpus).map(|_| spin()).collect());
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !others_busy() {
            assert!(std::time::Instant::now() < deadline, "the busy loops never ran");
        }
        work
    }
}

/// Whether other processes used a third of the machine over the next 50 ms, as the
/// sweep counts it ([`HostLoad::since`]).
fn others_busy() -> bool {
    let before = ktc::CpuTimes::now();
    std::thread::sleep(Duration::from_millis(50));
    HostLoad::since(before).is_some_and(|load| load.other >= 0.3)
}

impl Drop for OtherWork {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A sweep beside other work records how busy the machine was in its entry (and warns:
/// the entry's load reaches the sweep's limit), so `show` and `verify` can say so.
#[test]
fn a_sweep_beside_other_processes_records_their_share_in_its_entry() {
    if !cfg!(target_os = "linux") {
        eprintln!("skipped: CPU time is read from /proc, which only Linux keeps");
        return;
    }
    let _turn = measuring();
    let dir = tempfile::tempdir().unwrap();
    let busy = {
        let _work = OtherWork::start();
        // Refined, not grid-only: hundreds of milliseconds rather than tens, so the
        // shares are counted over many of `/proc/stat`'s 10 ms ticks.
        (TUNER.sweep)(&options(dir.path(), false)).unwrap()
    };
    let load = busy.entry.load.expect("the load is counted on Linux");
    // One busy loop per CPU beside the sweep's own thread hold half the machine or more.
    assert!(load.other >= 0.3, "{load:?}");
    let read: ktc::Entry = serde_json::from_slice(&std::fs::read(&busy.entry_path).unwrap()).unwrap();
    assert_eq!(read.load, Some(load), "the load is stored with the entry");
}

/// Writes an entry (without measurements) that always picks `fixed_cost`, up to 40×
/// slower for small n; returns its path.
fn write_always_fixed_cost(dir: &std::path::Path) -> std::path::PathBuf {
    let cache = KernelTuningCache::open(dir).unwrap().with_fingerprint("tuning-host");
    let wrong =
        DecisionTable { axes: vec![ktc::Axis::numeric("n")], regions: vec![Region::new("fixed_cost")] };
    cache.write_table_with("crossover", &Provenance::current(&TUNER.identity), wrong).unwrap()
}

#[test]
fn refine_repairs_an_entry_that_is_wrong_below_the_crossover() {
    let _turn = measuring();
    let dir = tempfile::tempdir().unwrap();
    let options = options(dir.path(), false);
    let old = write_always_fixed_cost(dir.path());
    let verify_options = VerifyOptions { points: 8, ..VerifyOptions::default() };
    let refined = refine(TUNER, &verify_options, &options).unwrap();
    let verified = refined.verify.as_ref().unwrap();
    assert!(!verified.is_within(), "the wrong region is flagged: {verified}");
    assert_ne!(refined.entry_path, old, "a new entry is written");
    let table = refined.entry.table();
    assert_eq!(choice(&table, 20), "per_item", "{table}");
    assert_eq!(choice(&table, 10_000), "fixed_cost", "{table}");
    // The new entry is the one verify now reads, and it passes.
    let again = verify(TUNER, &verify_options, &options).unwrap();
    assert_eq!(again.entry, refined.entry_path);
}

#[test]
fn verify_looks_at_every_point_in_passes_over_all_points() {
    let _turn = measuring();
    let dir = tempfile::tempdir().unwrap();
    let options = options(dir.path(), false);
    write_always_fixed_cost(dir.path());
    BUILT.with_borrow_mut(Vec::clear);
    let looks = VerifyOptions { points: 6, looks: 3, ..VerifyOptions::default() };
    let report = verify(TUNER, &looks, &options).unwrap();
    let built = BUILT.with_borrow(Vec::clone);
    let sampled: Vec<usize> = report.points.iter().map(|p| p.point["n"].as_u64().unwrap() as usize).collect();
    // Every point's first look, then every point's second, then every third: a look
    // right after the one before would see the same state of the host.
    assert_eq!(built, [&sampled[..], &sampled[..], &sampled[..]].concat(), "{report}");
    // Merged looks still flag what is wrong at every look.
    assert!(!report.is_within(), "`fixed_cost` is up to 40× slower below n = 408: {report}");
    // Each look's own regret is kept beside the merged one, and says the same where
    // the choice is far off.
    assert!(report.points.iter().all(|p| p.look_regrets.len() == 3), "{report}");
    let far_off: Vec<_> = report.points.iter().filter(|p| p.point["n"].as_u64().unwrap() <= 100).collect();
    assert!(!far_off.is_empty(), "{report}");
    for p in far_off {
        assert!(p.look_regrets.iter().all(|&r| r > 2.0), "{:?}: {report}", p.look_regrets);
    }
    assert!(report.to_string().contains(" (looks "), "{report}");
}

#[test]
fn verify_at_given_points_measures_those_and_refuses_points_off_the_sweep() {
    let _turn = measuring();
    let dir = tempfile::tempdir().unwrap();
    let options = options(dir.path(), false);
    write_always_fixed_cost(dir.path());
    BUILT.with_borrow_mut(Vec::clear);
    let at = |n: serde_json::Value| std::collections::BTreeMap::from([("n".to_string(), n)]);
    let given =
        VerifyOptions { at: vec![at(50.into()), at(5_000.into())], looks: 1, ..VerifyOptions::default() };
    let report = verify(TUNER, &given, &options).unwrap();
    // Exactly the given points, in order, and nothing sampled.
    assert_eq!(BUILT.with_borrow(Vec::clone), [50, 5_000], "{report}");
    let measured: Vec<u64> = report.points.iter().map(|p| p.point["n"].as_u64().unwrap()).collect();
    assert_eq!(measured, [50, 5_000]);
    // `fixed_cost` is 20× slower at n = 50 and the faster one at 5 000.
    assert!(report.points[0].regret > 2.0 && !report.is_within(), "{report}");
    assert_eq!(report.points[1].fastest, "fixed_cost", "{report}");

    // A point outside the sweep's range, of another kernel's axes, or with an axis too
    // many is an error that says what the kernel takes; nothing is built.
    BUILT.with_borrow_mut(Vec::clear);
    let mut extra = at(50.into());
    extra.insert("loc".into(), "host".into());
    let other = std::collections::BTreeMap::from([("m".to_string(), serde_json::json!(50))]);
    for bad in [at(20_000.into()), at("50".into()), other, extra] {
        let options_bad = VerifyOptions { at: vec![at(50.into()), bad.clone()], ..VerifyOptions::default() };
        let error = verify(TUNER, &options_bad, &options).unwrap_err().to_string();
        assert!(error.contains("n 10..=10000"), "{bad:?}: {error}");
    }
    assert!(BUILT.with_borrow(Vec::is_empty));
}

/// Writes an entry of `crossover` that is wrong only at n ≤ 100 (`fixed_cost`, 10–40×
/// slower there) and right elsewhere: the store and the entry's path.
fn write_wrong_below_100(dir: &std::path::Path) -> (KernelTuningCache, std::path::PathBuf) {
    let cache = KernelTuningCache::open(dir).unwrap().with_fingerprint("tuning-host");
    let table = DecisionTable {
        axes: vec![ktc::Axis::numeric("n")],
        regions: vec![
            Region::new("fixed_cost").at_most("n", 100.0),
            Region::new("per_item").at_most("n", 408.0),
            Region::new("fixed_cost"),
        ],
    };
    let path = cache.write_table_with("crossover", &Provenance::current(&TUNER.identity), table).unwrap();
    (cache, path)
}

#[test]
fn refine_re_sweeps_the_flagged_region_and_keeps_the_others() {
    let _turn = measuring();
    let dir = tempfile::tempdir().unwrap();
    let options = options(dir.path(), false);
    write_wrong_below_100(dir.path());
    let verify_options = VerifyOptions { points: 12, ..VerifyOptions::default() };
    let refined = refine(TUNER, &verify_options, &options).unwrap();
    let verified = refined.verify.as_ref().unwrap();
    let flagged: Vec<Option<usize>> = verified.flagged.iter().map(|r| r.index).collect();
    assert_eq!(flagged, vec![Some(0)], "only the wrong region is flagged: {verified}");
    let table = refined.entry.table();
    assert_eq!(choice(&table, 20), "per_item", "the flagged region is re-swept: {table}");
    assert_eq!(choice(&table, 300), "per_item", "{table}");
    assert_eq!(choice(&table, 5_000), "fixed_cost", "{table}");
    // New points lie in the flagged region: the grid's (the entry kept no measurements)
    // and verify's flagged ones aside, nothing above n = 100 was measured.
    let flagged_ns: Vec<u64> = verified
        .points
        .iter()
        .filter(|p| p.regret > verified.threshold)
        .map(|p| p.point["n"].as_u64().unwrap())
        .collect();
    let new: Vec<u64> = measured_ns(&refined.entry)
        .into_iter()
        .filter(|n| ![10, 10_000].contains(n) && !flagged_ns.contains(n))
        .collect();
    assert!(new.iter().all(|&n| n <= 100), "measured outside the flagged region: {new:?}");
}

#[test]
fn points_an_earlier_verify_flagged_are_re_swept_whatever_the_refines_own_verify_finds() {
    let _turn = measuring();
    let dir = tempfile::tempdir().unwrap();
    let options = options(dir.path(), false);
    let (cache, wrong) = write_wrong_below_100(dir.path());
    let verify_options = VerifyOptions { points: 12, ..VerifyOptions::default() };
    let verified = verify(TUNER, &verify_options, &options).unwrap();
    assert!(!verified.is_within(), "{verified}");
    let recorded = verified.recorded.clone().expect("the flagged points are recorded");
    assert!(recorded.exists() && recorded.parent() == wrong.parent(), "{}", recorded.display());
    assert!(verified.to_string().contains("recorded in"), "{verified}");
    // The store still serves the entry: the record is no entry, valid or not.
    let listed = cache.list();
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert!(listed[0].entry.is_ok(), "{listed:?}");

    // A refine whose own verify flags nothing (a threshold no regret reaches) still
    // re-sweeps the recorded points' region.
    let lenient = VerifyOptions { threshold: 1_000.0, ..verify_options.clone() };
    let refined = refine(TUNER, &lenient, &options).unwrap();
    let report = refined.verify.as_ref().unwrap();
    assert!(report.flagged.is_empty(), "{report}");
    let earlier: Vec<u64> = report.earlier.iter().map(|p| p.point["n"].as_u64().unwrap()).collect();
    assert!(!earlier.is_empty() && earlier.iter().all(|&n| n <= 100), "{earlier:?}");
    assert_ne!(refined.entry_path, wrong, "a new entry");
    let table = refined.entry.table();
    assert_eq!(choice(&table, 20), "per_item", "the recorded points' region is re-swept: {table}");
    assert_eq!(choice(&table, 5_000), "fixed_cost", "{table}");

    // The new entry has no record of its own: the same refine keeps it.
    let again = refine(TUNER, &lenient, &options).unwrap();
    assert!(again.verify.as_ref().unwrap().earlier.is_empty());
    assert_eq!(again.entry_path, refined.entry_path, "kept");
}

#[test]
fn recorded_points_outside_the_sweep_or_its_axes_are_skipped_not_measured() {
    let _turn = measuring();
    let dir = tempfile::tempdir().unwrap();
    let options = options(dir.path(), false);
    let (_, entry) = write_wrong_below_100(dir.path());
    // A hostile record beside the entry (the name and shape `verify` writes): a size no
    // memory holds, one below the grid, an axis the kernel lacks, a label for a number.
    let name = entry.file_name().unwrap().to_str().unwrap();
    let stem = entry.file_stem().unwrap().to_str().unwrap();
    let record = serde_json::json!({
        "entry": name,
        "points": [{"n": 1_000_000_000_000_000u64}, {"n": 1}, {"m": 50}, {"n": "fifty"}],
    });
    std::fs::write(entry.with_file_name(format!("{stem}.flagged-hostile")), record.to_string()).unwrap();
    let lenient = VerifyOptions { points: 6, looks: 1, threshold: 1_000.0, ..VerifyOptions::default() };
    let refined = refine(TUNER, &lenient, &options).unwrap();
    assert!(refined.verify.as_ref().unwrap().earlier.is_empty());
    assert_eq!(refined.entry_path, entry, "nothing to re-sweep: kept");
}
