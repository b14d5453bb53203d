//! The hardware fingerprint: stable, slug-safe, overridable, and computed without
//! panicking on a host with no CUDA at all.
//!
//! Tests that depend on the environment re-run themselves as a child process that
//! prints the fingerprints it computes (the shared `child` helper), so `KTC_FINGERPRINT`
//! changes never leak into other tests running in parallel threads.

use std::path::Path;

use ktc::{
    Capability, Unavailable, capability_available, hw_fingerprint, hw_fingerprint_for, normalize_cpu_model,
};

#[path = "../../tests/support/child.rs"]
mod child;

/// What a child process saw.
struct ChildReport {
    fp0: String,
    fp1: String,
    stderr: String,
}

/// Runs the calling test `test` again in a fresh process, where it prints what
/// [`print_fingerprints`] prints; `override_value` sets `KTC_FINGERPRINT` (None removes it).
fn run_child(test: &str, override_value: Option<&str>) -> ChildReport {
    run_child_with(test, |cmd| {
        match override_value {
            Some(v) => cmd.env("KTC_FINGERPRINT", v),
            None => cmd.env_remove("KTC_FINGERPRINT"),
        };
    })
}

/// [`run_child`] with the child's environment set by `configure`.
fn run_child_with(test: &str, configure: impl FnOnce(&mut std::process::Command)) -> ChildReport {
    let out = child::spawn(test, configure);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let field = |key: &str| {
        stdout
            .lines()
            // The test harness prints `test NAME ... ` on the first output line.
            .find_map(|l| l.split_once(key).map(|(_, v)| v.trim()))
            .unwrap_or_else(|| panic!("no `{key}` line in child output:\n{stdout}\n{stderr}"))
            .to_owned()
    };
    ChildReport { fp0: field("KTC_FP0="), fp1: field("KTC_FP1="), stderr }
}

/// The child part of every multi-process test: the fingerprints of devices 0 and 1.
fn print_fingerprints() {
    println!("KTC_FP0={}", hw_fingerprint());
    println!("KTC_FP1={}", hw_fingerprint_for(1));
}

/// The computed (not overridden) fingerprint's characters: `[a-z0-9._-]`, non-empty.
fn assert_slug_safe(fp: &str) {
    assert!(!fp.is_empty());
    for c in fp.chars() {
        assert!(
            c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-'),
            "{c:?} in fingerprint {fp:?}"
        );
    }
}

/// Checks the documented shape by hand: `cpu_<slug>_gpu_none` or
/// `cpu_<slug>_gpu_<slug>_cc<digits>.<digits>`, slugs made of `[a-z0-9-]`.
fn assert_shape(fp: &str) {
    assert_slug_safe(fp);
    let rest = fp.strip_prefix("cpu_").unwrap_or_else(|| panic!("{fp:?} lacks cpu_"));
    let (cpu, gpu) = rest.split_once("_gpu_").unwrap_or_else(|| panic!("{fp:?} lacks _gpu_"));
    let is_slug = |s: &str| {
        !s.is_empty()
            && !s.starts_with('-')
            && !s.ends_with('-')
            && !s.contains("--")
            && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    assert!(is_slug(cpu), "cpu part {cpu:?} of {fp:?}");
    if gpu != "none" {
        let (name, cc) = gpu.rsplit_once("_cc").unwrap_or_else(|| panic!("{fp:?} lacks _cc"));
        assert!(is_slug(name), "gpu part {name:?} of {fp:?}");
        let (major, minor) = cc.split_once('.').unwrap_or_else(|| panic!("cc {cc:?} of {fp:?}"));
        for n in [major, minor] {
            assert!(!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()), "cc {cc:?} of {fp:?}");
        }
    }
}

#[test]
fn stable_across_calls() {
    let first = hw_fingerprint();
    for _ in 0..3 {
        assert_eq!(hw_fingerprint(), first);
        assert!(std::ptr::eq(hw_fingerprint(), first), "computed once, same allocation");
    }
    assert_eq!(hw_fingerprint_for(0), first);
    assert_eq!(hw_fingerprint_for(1), hw_fingerprint_for(1));
}

#[test]
fn stable_across_processes() {
    if child::is_child() {
        return print_fingerprints();
    }
    let a = run_child("stable_across_processes", None);
    let b = run_child("stable_across_processes", None);
    assert_eq!(a.fp0, b.fp0);
    assert_eq!(a.fp1, b.fp1);
    if std::env::var_os("KTC_FINGERPRINT").is_none() {
        assert_eq!(a.fp0, hw_fingerprint(), "child and parent agree");
    }
}

#[test]
fn computed_fingerprint_is_slug_safe() {
    if child::is_child() {
        return print_fingerprints();
    }
    let report = run_child("computed_fingerprint_is_slug_safe", None);
    assert_shape(&report.fp0);
    assert_shape(&report.fp1);
    // Same CPU part for every device.
    assert_eq!(cpu_part(&report.fp0), cpu_part(&report.fp1));
}

#[test]
fn override_is_honoured() {
    if child::is_child() {
        return print_fingerprints();
    }
    let report = run_child("override_is_honoured", Some("fleet-a100.v2_rack7"));
    assert_eq!(report.fp0, "fleet-a100.v2_rack7");
    // Device 1 shares the override where it is the same GPU as device 0.
    let gpu = |d| ktc::Provenance::for_device(&ktc::KernelIdentity::UNSPECIFIED, d).gpu;
    let same_gpu = gpu(1).is_some() && gpu(1) == gpu(0);
    assert_eq!(report.fp1, if same_gpu { "fleet-a100.v2_rack7" } else { "fleet-a100.v2_rack7_dev1" });
    assert!(!report.stderr.contains("KTC_FINGERPRINT"), "no warning for a safe value:\n{}", report.stderr);
}

#[test]
fn empty_override_means_computed() {
    if child::is_child() {
        return print_fingerprints();
    }
    assert_eq!(
        run_child("empty_override_means_computed", Some("")).fp0,
        run_child("empty_override_means_computed", None).fp0
    );
}

#[test]
fn unsafe_override_is_rejected_with_one_warning() {
    if child::is_child() {
        return print_fingerprints();
    }
    let computed = run_child("unsafe_override_is_rejected_with_one_warning", None);
    let long = "a".repeat(201);
    for bad in ["../../etc", "a b", "..", ".", "x/y", long.as_str()] {
        let report = run_child("unsafe_override_is_rejected_with_one_warning", Some(bad));
        assert_eq!(report.fp0, computed.fp0, "override {bad:?} must be ignored");
        assert_eq!(report.fp1, computed.fp1, "override {bad:?} must be ignored");
        let warnings = report.stderr.matches("ignoring KTC_FINGERPRINT").count();
        assert_eq!(warnings, 1, "one warning for {bad:?}, got:\n{}", report.stderr);
    }
}

/// On a host without CUDA nothing in cudarc may panic and the GPU part is `none`. The
/// child process computes it from scratch, so a panic there would fail the test.
#[test]
fn no_cuda_means_gpu_none_without_panic() {
    if child::is_child() {
        return print_fingerprints();
    }
    let available = capability_available(Capability::Cuda);
    let report = run_child("no_cuda_means_gpu_none_without_panic", None);
    let nvidia_host = Path::new("/proc/driver/nvidia").exists() || Path::new("/dev/nvidia0").exists();
    if !nvidia_host {
        let reason = available.as_ref().expect_err("no NVIDIA driver on this host");
        assert!(!reason.to_string().is_empty());
        assert!(report.fp0.ends_with("_gpu_none"), "{}", report.fp0);
    }
    match &available {
        Err(reason @ (Unavailable::NoDriver | Unavailable::NoDevice)) => {
            assert!(report.fp0.ends_with("_gpu_none"), "{reason}: {}", report.fp0);
        }
        Err(reason) => eprintln!("CUDA unavailable: {reason}"),
        Ok(()) => assert!(report.fp0.contains("_cc"), "a usable GPU has a cc part: {}", report.fp0),
    }
    // No host has this many GPUs.
    assert!(report.fp1.ends_with("_gpu_none") || report.fp1.contains("_cc"));
    assert!(run_child_for_ordinal_far_out_of_range().ends_with("_gpu_none"));
}

fn run_child_for_ordinal_far_out_of_range() -> String {
    if std::env::var_os("KTC_FINGERPRINT").is_some() {
        // Overridden in this environment: the computed form is checked by the children.
        return "_gpu_none".to_owned();
    }
    hw_fingerprint_for(1 << 20)
}

/// The CPU part between `cpu_` and `_gpu_`.
fn cpu_part(fp: &str) -> &str {
    fp.strip_prefix("cpu_").and_then(|rest| rest.split_once("_gpu_")).map_or(fp, |(cpu, _)| cpu)
}

/// Two hosts with one CPU model but different core counts (VM sizes) tune differently,
/// so the thread count the parallel variants will use is part of the CPU part; it
/// follows rayon's own rule, so `RAYON_NUM_THREADS` moves it.
#[test]
fn cpu_count_is_part_of_the_fingerprint() {
    if child::is_child() {
        return print_fingerprints();
    }
    let computed = |threads: Option<&str>| {
        run_child_with("cpu_count_is_part_of_the_fingerprint", |cmd| {
            cmd.env_remove("KTC_FINGERPRINT").env_remove("RAYON_RS_NUM_CPUS");
            match threads {
                Some(n) => cmd.env("RAYON_NUM_THREADS", n),
                None => cmd.env_remove("RAYON_NUM_THREADS"),
            };
        })
        .fp0
    };
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let default = computed(None);
    assert_shape(&default);
    assert!(cpu_part(&default).ends_with(&format!("-{cpus}cpu")), "{default} on {cpus} CPUs");
    let three = computed(Some("3"));
    assert_shape(&three);
    assert!(cpu_part(&three).ends_with("-3cpu"), "{three}");
    // rayon reads 0 as "the default".
    assert_eq!(computed(Some("0")), default);
    // Only the count differs.
    let model = |fp: &str| cpu_part(fp).rsplit_once('-').unwrap().0.to_owned();
    assert_eq!(model(&three), model(&default));
}

#[test]
fn capability_names() {
    assert_eq!(Capability::Cuda.name(), "cuda");
    assert_eq!("cuda".parse::<Capability>(), Ok(Capability::Cuda));
    let err = "tpu".parse::<Capability>().unwrap_err();
    assert!(err.to_string().contains("`cuda`"), "{err}");
}

#[test]
fn normalize_cpu_model_table() {
    let table = [
        ("Intel(R) Core(TM) i7-9700K CPU @ 3.60GHz", "intel-i7-9700k"),
        ("AMD Ryzen 9 5950X 16-Core Processor", "amd-ryzen-9-5950x"),
        ("AMD EPYC 7763 64-Core Processor", "amd-epyc-7763"),
        ("Intel(R) Xeon(R) Platinum 8480+", "intel-xeon-platinum-8480"),
        ("Apple M2 Max", "apple-m2-max"),
        ("Neoverse-N1", "neoverse-n1"),
        ("", "unknown"),
        ("   ", "unknown"),
        ("CPU @ 2.0GHz", "unknown"),
        ("Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", "intel-xeon-e5-2680-v4"),
        ("Intel(R) Xeon(R) Gold 6248 CPU @ 2.50 GHz", "intel-xeon-gold-6248"),
        ("11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz", "intel-i7-1165g7"),
        ("Intel(R) Core(TM) Ultra 7 155H", "intel-ultra-7-155h"),
        ("AMD Ryzen 7 5800H with Radeon Graphics", "amd-ryzen-7-5800h"),
        ("AMD Ryzen 7 7840U w/ Radeon 780M Graphics", "amd-ryzen-7-7840u"),
        ("AMD Ryzen Threadripper PRO 5995WX 64-Cores", "amd-ryzen-threadripper-pro-5995wx-64-cores"),
        ("AMD Phenom(tm) II X4 965 Processor", "amd-phenom-ii-x4-965"),
        ("AMD Athlon(tm) 64 X2 Dual-Core Processor 4800+", "amd-athlon-64-x2-4800"),
        ("AMD Opteron(TM) Processor 6274", "amd-opteron-6274"),
        ("Intel(R) Pentium(R) CPU G4560 @ 3.50GHz", "intel-pentium-g4560"),
        ("QEMU Virtual CPU version 2.5+", "qemu-virtual-version-2-5"),
        ("  Intel(R)   Core(TM)2 Quad  CPU   Q6600  @ 2.40GHz\0\0", "intel-core2-quad-q6600"),
        ("ARMv8 Processor rev 1 (v8l)", "armv8-rev-1-v8l"),
        ("Ampere(R) Altra(R) Processor Q80-30 CPU @ 3.0GHz", "ampere-altra-q80-30"),
        ("Raspberry Pi 4 Model B Rev 1.4", "raspberry-pi-4-model-b-rev-1-4"),
    ];
    for (input, want) in table {
        assert_eq!(normalize_cpu_model(input), want, "input {input:?}");
    }
}

#[test]
fn normalize_cpu_model_output_is_slug() {
    for input in ["Ünïcödé CPU™ ©", "a//b__c..d", "---", "Intel® Core™ i9-13900K"] {
        let slug = normalize_cpu_model(input);
        assert!(!slug.is_empty() && !slug.starts_with('-') && !slug.ends_with('-') && !slug.contains("--"));
        assert!(slug.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'), "{slug:?}");
    }
    assert_eq!(normalize_cpu_model("Intel® Core™ i9-13900K"), "intel-i9-13900k");
}
