//! Fuzzed and hostile entries against parse, validate, compile and dispatch: a fixed
//! seed, at least 100 000 entries (1 000 000 with `KTC_STRESS=full`) within a time
//! budget, every tenth also through the store's own reading path; and hostile files
//! (FIFO, 100 MB, symbolic links, unknown variants, huge block sizes, a traversing
//! key) refused or skipped with a reason while the dispatcher keeps serving the valid
//! entry.

use ktc::{
    Axis, AxisInfo, AxisKind, AxisValue, ChoiceSource, CompiledTable, DecisionTable, Dispatch, Entry,
    GridValue, KernelIdentity, KernelInfo, KernelTuningCache, LookupStatus, Provenance, Region, VariantInfo,
};
use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const FP: &str = "fuzz-fp";

fn no_sweep(_: &ktc::sweep::SweepOptions) -> Result<ktc::sweep::SweepReport, ktc::Error> {
    Err(ktc::Error::NoCacheDir)
}

static TUNER: KernelInfo = KernelInfo {
    name: "fuzzed",
    module_path: "attacks_fuzz::fuzzed",
    identity: KernelIdentity::new("attacks-fuzz", "0.0.1", "feed"),
    axes: &[AxisInfo { name: "n", kind: AxisKind::Numeric, grid: &[GridValue::Int(1)] }],
    variants: &[
        VariantInfo { name: "serial", block_sizes: &[], requires: &[], reference: true, default: false },
        VariantInfo {
            name: "parallel",
            block_sizes: &[128, 256, 512],
            requires: &[],
            reference: false,
            default: false,
        },
    ],
    sweep: no_sweep,
    calls: ktc::sweep::CallPattern::InALoop,
};

/// xorshift64*: a fixed seed gives the same cases on every run and machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }
}

fn table() -> DecisionTable {
    DecisionTable {
        axes: vec![Axis::numeric("n")],
        regions: vec![Region::new("serial").at_most("n", 1000.0), Region::new("parallel").block_size(256)],
    }
}

fn hostile_value(rng: &mut Rng) -> Value {
    rng.pick(&[
        Value::Null,
        json!(0),
        json!(-1),
        json!(1u64 << 31),
        json!(u64::MAX),
        json!(1e300),
        json!(-1e-300),
        json!(""),
        json!("quantum"),
        json!("../../etc"),
        json!([]),
        json!({}),
        json!({"le": 5}),
        json!({"eq": "x"}),
        json!(true),
        json!("2026-11-30T08:99:99.000000Z"),
        json!({"stolen": 1e300, "other": -1}),
    ])
}

fn random_region(rng: &mut Rng) -> Value {
    let mut region =
        json!({"when": {}, "variant": rng.pick(&["serial", "parallel", "quantum", "", "serial "])});
    if rng.below(2) == 0 {
        region["block_size"] = rng.pick(&[json!(128), json!(256), json!(0), json!(1u64 << 31), json!(7)]);
    }
    for _ in 0..rng.below(3) {
        let axis = rng.pick(&["n", "n", "m"]);
        let cond = match rng.below(4) {
            0 => json!({"le": rng.below(5000)}),
            1 => json!({"le": rng.pick(&[0.5, 1e300, -3.0, 1e-300, 4096.0])}),
            2 => json!({"eq": "host"}),
            _ => hostile_value(rng),
        };
        region["when"][axis] = cond;
    }
    region
}

/// One fuzzed entry: the valid base, a few structural mutations, and sometimes a
/// byte-level one on the text.
fn fuzzed(base: &Value, rng: &mut Rng) -> Vec<u8> {
    let mut v = base.clone();
    for _ in 0..1 + rng.below(3) {
        match rng.below(8) {
            0 => v["regions"] = Value::Array((0..rng.below(10)).map(|_| random_region(rng)).collect()),
            1 => {
                let i = rng.below(4);
                let region = random_region(rng);
                if let Some(r) = v.pointer_mut(&format!("/regions/{i}")) {
                    *r = region;
                }
            }
            2 => {
                v["axes"] = rng.pick(&[
                    json!([]),
                    json!([{"name": "n", "kind": "categorical"}]),
                    json!([{"name": "n", "kind": "numeric"}, {"name": "n", "kind": "numeric"}]),
                    json!([{"name": "m", "kind": "numeric"}]),
                ])
            }
            3 => {
                let field = rng.pick(&[
                    "schema",
                    "kernel",
                    "fingerprint",
                    "code_version",
                    "created",
                    "provenance",
                    "measurements",
                    "noise",
                    "load",
                    "state_margin",
                ]);
                v[field] = hostile_value(rng);
            }
            4 => {
                v["measurements"] = json!([{"point": {"n": hostile_value(rng)}, "variant": "serial", "median_ns": rng.pick(&[9e307, 1.0, -1.0]), "spread_ns": 0.0, "runs": 1}])
            }
            5 => {
                if let Some(o) = v.as_object_mut() {
                    let key = o.keys().nth(rng.below(o.len().max(1))).cloned();
                    key.map(|k| o.remove(&k));
                }
            }
            6 => {
                let bound = json!({"le": rng.pick(&[0.0, 1.0, 1e15, 1e308])});
                let when = v.pointer_mut("/regions/0/when").and_then(Value::as_object_mut);
                when.map(|o| o.insert("n".to_owned(), bound));
            }
            _ => {}
        }
    }
    let mut bytes = serde_json::to_vec(&v).unwrap();
    match rng.below(10) {
        0 => bytes.truncate(rng.below(bytes.len() + 1)),
        1 if !bytes.is_empty() => {
            let i = rng.below(bytes.len());
            bytes[i] = rng.next() as u8;
        }
        _ => {}
    }
    bytes
}

/// What the dispatcher does with an entry the store accepted: compile, then choose for
/// queries around every bound, always a declared variant with an allowed block size,
/// the same region as the plain first-match lookup.
fn dispatch(entry: &Entry, path: &Path, rng: &mut Rng) {
    let table = entry.table();
    let compiled = CompiledTable::compile(&table).expect("a table the store accepted compiles");
    let dispatch = Dispatch::from_entry(&TUNER, path.to_owned(), entry);
    for _ in 0..4 {
        let n = rng.pick(&[0u64, 1, 999, 1000, 1001, 4096, u64::MAX]);
        let query = [AxisValue::Int(n)];
        let expected = table.lookup(&[("n", AxisValue::Int(n))]).map(|(i, _)| i);
        assert_eq!(Some(compiled.find(&query)), expected, "compiled lookup differs at n={n}: {table:?}");
        let (variant, block) = dispatch.choose(&query);
        let declared = &TUNER.variants[variant];
        assert!(
            declared.block_sizes.is_empty() || declared.block_sizes.contains(&block),
            "{variant} {block}"
        );
    }
}

#[test]
fn fuzzed_entries_never_panic_and_never_serve_an_invalid_table() {
    let full = std::env::var("KTC_STRESS").is_ok_and(|v| v == "full");
    let (cases, budget) =
        if full { (1_000_000, Duration::from_secs(600)) } else { (100_000, Duration::from_secs(40)) };
    let dir = tempfile::tempdir().unwrap();
    let cache = KernelTuningCache::open(dir.path()).unwrap().with_fingerprint(FP);
    let provenance = Provenance::current(&TUNER.identity);
    let good = cache.write_table_with(TUNER.name, &provenance, table()).unwrap();
    let base: Value = serde_json::from_slice(&fs::read(&good).unwrap()).unwrap();
    let slot = good.with_file_name("20000101T000000.000000Z-0000000000000001.json");
    fs::remove_file(&good).unwrap();
    let schema = TUNER.schema();

    let mut rng = Rng(0x5eed_0000_2026_1130);
    let (mut valid, mut served, mut done) = (0usize, 0usize, 0usize);
    let start = Instant::now();
    while done < cases && start.elapsed() < budget {
        let bytes = fuzzed(&base, &mut rng);
        if let Ok(entry) = serde_json::from_slice::<Entry>(&bytes)
            && entry.table().validate(Some(&schema)).is_ok()
        {
            valid += 1;
            dispatch(&entry, &slot, &mut rng);
        }
        if done % 10 == 0 {
            // A new file, not a truncated one: ext4 flushes a file truncated and rewritten.
            let _ = fs::remove_file(&slot);
            fs::write(&slot, &bytes).unwrap();
            if let LookupStatus::Found { entry, path, .. } =
                cache.load_quiet(TUNER.name, &provenance, Some(&schema)).status
            {
                entry.table().validate(Some(&schema)).expect("the store served an invalid table");
                served += 1;
                dispatch(&entry, &path, &mut rng);
            }
        }
        done += 1;
    }
    println!(
        "{done} fuzzed entries in {:.1?}: {valid} valid tables, {served} served by the store",
        start.elapsed()
    );
    assert!(valid > 0 && served > 0, "the fuzzer must reach the valid paths too");
    if done < cases {
        println!("time budget of {budget:?} reached after {done} of {cases} entries");
    }
}

fn served_by_dispatch(cache: &KernelTuningCache) -> Option<PathBuf> {
    match Dispatch::load_from(&TUNER, cache).explain(&[AxisValue::Int(5000)]).source {
        ChoiceSource::Region { entry, .. } => Some(entry),
        ChoiceSource::Fallback { .. } => None,
    }
}

#[test]
fn hostile_entries_are_skipped_with_a_reason_and_the_valid_one_served() {
    let dir = tempfile::tempdir().unwrap();
    let cache = KernelTuningCache::open(dir.path()).unwrap().with_fingerprint(FP);
    let provenance = Provenance::current(&TUNER.identity);
    let good = cache.write_table_with(TUNER.name, &provenance, table()).unwrap();
    let text = fs::read_to_string(&good).unwrap();
    // The good entry's time stamp with a larger nonce: each sorts newer than it.
    let stamp = good.file_name().unwrap().to_str().unwrap()[..23].to_owned();
    let newer = |i: u32| good.with_file_name(format!("{stamp}-ffffffffffffff{i:02}.json"));
    let mut expected: Vec<(PathBuf, &str)> = Vec::new();
    type Edit = fn(&mut Value);
    let edits: [(&str, Edit); 3] = [
        ("unknown variant `quantum`", |v| v["regions"][0]["variant"] = "quantum".into()),
        ("block size Some(2147483648)", |v| v["regions"][1]["block_size"] = (1u64 << 31).into()),
        ("block size Some(0)", |v| v["regions"][1]["block_size"] = 0.into()),
    ];
    for (i, (reason, edit)) in edits.iter().enumerate() {
        let mut v: Value = serde_json::from_str(&text).unwrap();
        edit(&mut v);
        let path = newer(i as u32 + 1);
        fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
        expected.push((path, reason));
    }
    let huge = newer(4);
    fs::File::create(&huge).unwrap().set_len(100 << 20).unwrap();
    expected.push((huge, "larger than"));
    #[cfg(unix)]
    {
        let fifo = newer(5);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
        if made {
            expected.push((fifo, "special file"));
        } else {
            println!("no FIFO case: mkfifo is not available");
        }
        let link = newer(6);
        std::os::unix::fs::symlink(&good, &link).unwrap();
        expected.push((link, "symbolic link"));
    }

    let lookup = cache.load_quiet(TUNER.name, &provenance, Some(&TUNER.schema()));
    assert!(matches!(&lookup.status, LookupStatus::Found { path, .. } if *path == good), "{lookup:?}");
    for (path, reason) in &expected {
        let skipped =
            lookup.skipped.iter().find(|s| s.path == *path).unwrap_or_else(|| panic!("{path:?} not skipped"));
        assert!(skipped.reason.contains(reason), "{path:?}: {} lacks {reason}", skipped.reason);
    }
    assert_eq!(served_by_dispatch(&cache), Some(good.clone()));

    // A key that would leave the store is refused before anything is written.
    let mut entry = cache.new_entry(TUNER.name, &provenance, table());
    entry.kernel = "../../escape".into();
    assert!(cache.import_entry(&entry).is_err());
    assert!(!dir.path().join("escape").exists() && !dir.path().parent().unwrap().join("escape").exists());
}
