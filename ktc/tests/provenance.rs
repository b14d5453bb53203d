//! Provenance: the code version is a stable short hash that moves with every field, and
//! `provenance_changed` names exactly the fields that moved.

use ktc::{FieldChange, GpuSummary, KernelIdentity, Provenance};

fn sample() -> Provenance {
    Provenance {
        ktc_version: "0.1.0".into(),
        kernel_crate: "mrmr-kernels".into(),
        kernel_crate_version: "1.2.3".into(),
        source_hash: "9f86d081884c7d65".into(),
        rustc_version: "rustc 1.95.0 (59807616e 2026-10-01)".into(),
        build_profile: "release".into(),
        cuda_driver: Some("12.8".into()),
        nvrtc: Some("12.8".into()),
        gpu: Some(GpuSummary {
            name: "NVIDIA H200".into(),
            compute_capability: "9.0".into(),
            sm_count: 132,
            memory_bytes: 150_105_227_264,
        }),
        sources: [("src/lib.rs", "0123456789abcdef"), ("src/cpu.rs", "fedcba9876543210")]
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .into(),
        dependencies: [("rayon", "1.12.0")].map(|(k, v)| (k.to_owned(), v.to_owned())).into(),
        target_features: "sse2,avx,avx2".into(),
        features: "cuda,default".into(),
    }
}

/// A field's name, as `provenance_changed` names it, and an edit of that field.
type FieldEdit = (&'static str, fn(&mut Provenance));

/// One edit per field.
fn edits() -> Vec<FieldEdit> {
    vec![
        ("ktc_version", |p| p.ktc_version = "0.2.0".into()),
        ("kernel_crate", |p| p.kernel_crate = "other".into()),
        ("kernel_crate_version", |p| p.kernel_crate_version = "1.2.4".into()),
        ("source_hash", |p| p.source_hash = "0000".into()),
        ("rustc_version", |p| p.rustc_version = "rustc 1.96.0".into()),
        ("build_profile", |p| p.build_profile = "debug".into()),
        ("cuda_driver", |p| p.cuda_driver = None),
        ("nvrtc", |p| p.nvrtc = Some("13.0".into())),
        ("gpu", |p| p.gpu.as_mut().unwrap().sm_count = 114),
        ("source: src/cpu.rs", |p| *p.sources.get_mut("src/cpu.rs").unwrap() = "0000".into()),
        ("source: src/gpu.rs", |p| drop(p.sources.insert("src/gpu.rs".into(), "1111".into()))),
        ("dependency: rayon", |p| *p.dependencies.get_mut("rayon").unwrap() = "1.13.0".into()),
        ("target_features", |p| p.target_features = "sse2".into()),
        ("features", |p| p.features = "default".into()),
    ]
}

fn is_code_version(v: &str) -> bool {
    v.len() == 16 && v.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[test]
fn code_version_is_stable_16_hex() {
    let p = sample();
    let v = p.code_version();
    assert!(is_code_version(&v), "{v:?}");
    assert_eq!(v, p.code_version());
    assert_eq!(v, p.clone().code_version());
    // Survives a trip through the entry format.
    let back: Provenance = serde_json::from_str(&serde_json::to_string_pretty(&p).unwrap()).unwrap();
    assert_eq!(back.code_version(), v);
}

#[test]
fn code_version_of_current_is_stable() {
    let id = KernelIdentity::new("k", "1.0.0", "abc");
    let a = Provenance::current(&id);
    let b = Provenance::current(&id);
    assert_eq!(a, b);
    assert!(is_code_version(&a.code_version()));
    assert_eq!(a.code_version(), b.code_version());
    assert_eq!(Provenance::for_device(&id, 0), a);
}

#[test]
fn code_version_changes_with_every_field() {
    let base = sample().code_version();
    let mut seen = std::collections::HashSet::from([base.clone()]);
    for (field, edit) in edits() {
        let mut p = sample();
        edit(&mut p);
        let v = p.code_version();
        assert_ne!(v, base, "editing {field} must change the code version");
        assert!(seen.insert(v), "editing {field} collided with another edit");
    }
}

#[test]
fn provenance_changed_lists_exactly_the_changed_field() {
    let stored = sample();
    assert!(stored.provenance_changed(&stored).is_empty());
    for (field, edit) in edits() {
        let mut current = sample();
        edit(&mut current);
        let changes = current.provenance_changed(&stored);
        assert_eq!(changes.len(), 1, "{field}: {changes:?}");
        assert_eq!(changes[0].field, field);
        assert_ne!(changes[0].old, changes[0].new, "{field}");
    }
}

#[test]
fn provenance_changed_old_and_new_values() {
    let stored = sample();
    let mut current = sample();
    current.kernel_crate_version = "2.0.0".into();
    current.cuda_driver = None;
    current.gpu = Some(GpuSummary {
        name: "NVIDIA GeForce RTX 4090".into(),
        compute_capability: "8.9".into(),
        sm_count: 128,
        memory_bytes: 24 << 30,
    });
    let changes = current.provenance_changed(&stored);
    let expect = |field: &str, old: &str, new: &str| FieldChange {
        field: field.into(),
        old: old.into(),
        new: new.into(),
    };
    assert_eq!(
        changes,
        vec![
            expect("kernel_crate_version", "1.2.3", "2.0.0"),
            expect("cuda_driver", "12.8", "none"),
            expect(
                "gpu",
                "NVIDIA H200 cc 9.0, 132 SMs, 139.8 GiB",
                "NVIDIA GeForce RTX 4090 cc 8.9, 128 SMs, 24.0 GiB"
            ),
        ]
    );
    assert_eq!(changes[1].to_string(), "cuda_driver: 12.8 → none");

    // GPU gone: "none" on the new side; many fields at once, in declaration order.
    let mut cpu_only = sample();
    cpu_only.gpu = None;
    cpu_only.nvrtc = None;
    cpu_only.ktc_version = "0.1.1".into();
    let fields: Vec<_> = cpu_only.provenance_changed(&stored).into_iter().map(|c| (c.field, c.new)).collect();
    assert_eq!(
        fields,
        [
            ("ktc_version".into(), "0.1.1".into()),
            ("nvrtc".into(), "none".into()),
            ("gpu".into(), "none".into())
        ]
    );
}

#[test]
fn source_and_dependency_changes_name_the_file_and_package() {
    let stored = sample();
    let mut current = sample();
    current.sources.insert("src/cpu.rs".into(), "0000".into());
    current.sources.remove("src/lib.rs");
    current.sources.insert("src/new.rs".into(), "2222".into());
    current.dependencies.insert("rayon".into(), "1.13.0".into());
    let shown: Vec<String> = current.provenance_changed(&stored).iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "source: src/cpu.rs changed",
            "source: src/lib.rs removed",
            "source: src/new.rs added",
            "dependency: rayon: 1.12.0 → 1.13.0",
        ]
    );
}

#[test]
fn entries_without_the_new_fields_keep_their_code_version() {
    // An entry written before sources, dependencies and target features were recorded
    // reads back with them empty, and hashes as it did (they are not serialised empty).
    let old = Provenance {
        sources: Default::default(),
        dependencies: Default::default(),
        target_features: String::new(),
        features: String::new(),
        ..sample()
    };
    let json = serde_json::to_string(&old).unwrap();
    assert!(!json.contains("sources") && !json.contains("features"), "{json}");
    let back: Provenance = serde_json::from_str(&json).unwrap();
    assert_eq!(back.code_version(), old.code_version());
}

#[test]
fn gpu_change_below_summary_rounding_is_still_shown_distinctly() {
    let stored = sample();
    let mut current = sample();
    current.gpu.as_mut().unwrap().memory_bytes += 1024;
    let changes = current.provenance_changed(&stored);
    assert_eq!(changes.len(), 1);
    assert_ne!(changes[0].old, changes[0].new);
}

#[test]
fn serde_round_trip() {
    for p in [sample(), Provenance { cuda_driver: None, nvrtc: None, gpu: None, ..sample() }] {
        let json = serde_json::to_string(&p).unwrap();
        let back: Provenance = serde_json::from_str(&json).unwrap();
        assert_eq!(back, p);
    }
}

#[test]
fn old_json_without_optional_fields_parses() {
    let old = r#"{
        "ktc_version": "0.0.9",
        "kernel_crate": "mrmr-kernels",
        "kernel_crate_version": "1.0.0",
        "source_hash": "abcd",
        "rustc_version": "rustc 1.90.0"
    }"#;
    let p: Provenance = serde_json::from_str(old).unwrap();
    assert_eq!(p.kernel_crate_version, "1.0.0");
    assert_eq!((&p.cuda_driver, &p.nvrtc, &p.gpu), (&None, &None, &None));
    // Hashes as the same provenance written with explicit nulls.
    let explicit: Provenance = serde_json::from_str(&old.replace(
        "\"rustc_version\": \"rustc 1.90.0\"",
        "\"rustc_version\": \"rustc 1.90.0\", \"cuda_driver\": null, \"nvrtc\": null, \"gpu\": null",
    ))
    .unwrap();
    assert_eq!(p.code_version(), explicit.code_version());
}

#[test]
fn current_reflects_identity_and_build() {
    let p = Provenance::current(&KernelIdentity::new("my-kernels", "3.1.4", "feedbeef"));
    assert_eq!(p.kernel_crate, "my-kernels");
    assert_eq!(p.kernel_crate_version, "3.1.4");
    assert_eq!(p.source_hash, "feedbeef");
    assert_eq!(p.ktc_version, "0.1.0");
    assert!(p.rustc_version.starts_with("rustc ") || p.rustc_version == "unknown", "{}", p.rustc_version);
    if ktc::capability_available(ktc::Capability::Cuda).is_err()
        && !std::path::Path::new("/dev/nvidia0").exists()
    {
        assert_eq!(p.gpu, None);
    }
    // No host has this many GPUs.
    assert_eq!(Provenance::for_device(&KernelIdentity::UNSPECIFIED, 1 << 20).gpu, None);
}

#[test]
fn unspecified_identity() {
    const ID: KernelIdentity = KernelIdentity::UNSPECIFIED;
    assert_eq!((ID.crate_name, ID.crate_version, ID.source_hash), ("unspecified", "0", ""));
    let p = Provenance::current(&ID);
    assert_eq!(p.kernel_crate, "unspecified");
    assert_eq!(p.source_hash, "");
}
