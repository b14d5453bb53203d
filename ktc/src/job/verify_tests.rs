//! Tests of [`super`]: how a verify report reads and sums up.
use super::*;

fn point(n: u64, chosen: &str, region: usize, times: &[(&str, f64)]) -> VerifiedPoint {
    let times_ns: BTreeMap<String, f64> = times.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let (fastest, best) =
        times_ns.iter().min_by(|a, b| a.1.total_cmp(b.1)).map(|(k, v)| (k.clone(), *v)).unwrap();
    VerifiedPoint {
        point: BTreeMap::from([("n".to_string(), serde_json::Value::from(n))]),
        chosen: chosen.into(),
        region: Some(region),
        fastest,
        regret: times_ns[chosen] / best,
        look_regrets: vec![times_ns[chosen] / best],
        times_ns,
    }
}

#[test]
fn summary_flags_regions_and_compares_fixed_choices() {
    let points = vec![
        point(10, "a", 0, &[("a", 100.0), ("b", 200.0)]),
        point(20, "a", 0, &[("a", 150.0), ("b", 100.0)]),
        point(30, "b", 1, &[("a", 400.0), ("b", 100.0)]),
    ];
    let regions = ["n ≤ 25 → a".to_string(), "→ b".to_string()];
    let r = VerifyReport::new("k".into(), "e.json".into(), 1.1, points, &regions, vec![]);
    assert!((r.worst_regret - 1.5).abs() < 1e-12);
    assert!((r.geomean_regret - 1.5f64.powf(1.0 / 3.0)).abs() < 1e-12);
    assert_eq!(
        r.flagged,
        vec![FlaggedRegion { index: Some(0), region: regions[0].clone(), points: 1, worst_regret: 1.5 }]
    );
    assert!(!r.is_within());
    assert_eq!(r.fixed[0].candidate, "b");
    assert!((r.fixed[0].worst_speedup - 2.0 / 3.0).abs() < 1e-12);
    assert!((r.fixed[1].geomean_speedup - (1.0f64 * 4.0).powf(1.0 / 3.0)).abs() < 1e-12);
    assert!(r.to_string().contains("flagged region 0"));
}

#[test]
fn the_load_is_shown_and_warned_about_and_a_busy_sweep_named() {
    let points = vec![point(10, "a", 0, &[("a", 100.0), ("b", 200.0)])];
    let report = VerifyReport::new("k".into(), "e.json".into(), 1.1, points, &["→ a".to_string()], vec![]);
    let text = report.to_string();
    assert!(!text.contains("host:") && !text.contains("entry:"), "not counted: nothing said");
    let quiet = HostLoad { stolen: 0.004, other: 0.02 };
    let shown = VerifyReport { load: Some(quiet), entry_load: Some(quiet), ..report.clone() }.to_string();
    assert!(
        shown.contains(
            "host: while measuring, the hypervisor stole 0.4% and other processes used 2.0% of the CPU time\n"
        ),
        "{shown}"
    );
    assert!(!shown.contains("entry:"), "a quiet sweep needs no line: {shown}");
    let stolen = HostLoad { stolen: 0.044, other: 0.06 };
    let text = VerifyReport { load: Some(stolen), entry_load: Some(stolen), ..report.clone() }.to_string();
    assert!(text.contains("may be the host's"), "from 1% stolen: {text}");
    assert!(!text.contains("entry:"), "below the sweep's limit: {text}");
    let used = HostLoad { stolen: 0.0, other: 0.086 };
    let text = VerifyReport { load: Some(used), ..report.clone() }.to_string();
    assert!(!text.contains("may be the host's"), "an idle machine's kernel threads: {text}");
    let used = HostLoad { stolen: 0.0, other: 0.12 };
    let text = VerifyReport { load: Some(used), ..report.clone() }.to_string();
    assert!(text.contains("may be the host's"), "from 10% used by others: {text}");
    for busy in [HostLoad { stolen: 0.12, other: 0.0 }, HostLoad { stolen: 0.0, other: 0.38 }] {
        let text = VerifyReport { entry_load: Some(busy), ..report.clone() }.to_string();
        assert!(text.contains("entry: its sweep measured while the hypervisor stole"), "{text}");
        assert!(text.contains("may not fit a quiet machine: `ktc retune k` on one"), "{text}");
    }
}
