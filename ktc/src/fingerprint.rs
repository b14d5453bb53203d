//! The hardware fingerprint: the cache's partition key, so that a tuning measured on one
//! machine never serves another.
//!
//! Shape: `cpu_<cpu-slug>_gpu_<gpu-slug>_cc<X.Y>`, or `cpu_<cpu-slug>_gpu_none` where
//! there is no usable GPU (no driver, no device, ordinal out of range). The CPU slug is
//! the model, its CPUID family and model where the brand names no model number, and
//! the logical CPUs a thread pool gets (`intel-xeon-fam6-mod167-2cpu`). Every part is
//! lower case `[a-z0-9.-]`, the separators are `_`, so the whole string is one safe path
//! component. `KTC_FINGERPRINT` overrides it (for fleets of identical machines and tests).

mod cpu_part;

use std::sync::LazyLock;

use crate::cuda;

/// The environment variable that overrides the computed fingerprint.
const OVERRIDE_VAR: &str = "KTC_FINGERPRINT";

/// The longest override accepted, in bytes.
const OVERRIDE_MAX_LEN: usize = 200;

/// This host's fingerprint for GPU ordinal 0, computed once per process.
///
/// With `KTC_FINGERPRINT` set to a slug-safe value (`[A-Za-z0-9._-]`, at most 200
/// characters, not `.` or `..`) that value is returned as-is; an unsafe value is ignored
/// with one warning.
///
/// ```
/// let fp = ktc::hw_fingerprint();
/// assert!(fp.starts_with("cpu_") || std::env::var_os("KTC_FINGERPRINT").is_some());
/// // Same string, same allocation, on every call.
/// assert!(std::ptr::eq(fp, ktc::hw_fingerprint()));
/// ```
pub fn hw_fingerprint() -> &'static str {
    static FINGERPRINT: LazyLock<String> = LazyLock::new(|| hw_fingerprint_for(0));
    &FINGERPRINT
}

/// The fingerprint for GPU ordinal `device`: on a multi-GPU host each device has its own
/// (two different GPUs need two tunings). An ordinal with no GPU behind it gives the
/// `_gpu_none` form.
///
/// Identical GPUs (same name, compute capability, SMs and memory) share one
/// fingerprint, so they are tuned once and share the entry. With `KTC_FINGERPRINT`
/// set, device 0 and every device identical to it get the override, and another device
/// `d` gets `<override>_dev<d>`.
///
/// ```
/// let fp = ktc::hw_fingerprint_for(0);
/// assert_eq!(fp, ktc::hw_fingerprint());
/// // No host has this many GPUs.
/// if std::env::var_os("KTC_FINGERPRINT").is_none() {
///     assert!(ktc::hw_fingerprint_for(4096).ends_with("_gpu_none"));
/// }
/// ```
pub fn hw_fingerprint_for(device: usize) -> String {
    match override_value() {
        Some(fp) => device_override(&fp, device),
        None => computed_fingerprint(device),
    }
}

/// The fingerprint `fp` stands for on `device`: itself for device 0 and devices
/// identical to it, `<fp>_dev<d>` for another GPU.
pub(crate) fn device_override(fp: &str, device: usize) -> String {
    if device == 0
        || (cuda::gpu_summary(device).is_some() && cuda::gpu_summary(device) == cuda::gpu_summary(0))
    {
        fp.to_owned()
    } else {
        format!("{fp}_dev{device}")
    }
}

/// Of the devices with these summaries (by ordinal), the first of each distinct GPU:
/// identical GPUs are tuned once. An ordinal without a summary counts as distinct.
///
/// ```text
/// [H200, H200, A100] -> [0, 2]
/// ```
pub(crate) fn distinct_devices(summaries: &[Option<crate::GpuSummary>]) -> Vec<usize> {
    (0..summaries.len())
        .filter(|&d| summaries[d].is_none() || !summaries[..d].contains(&summaries[d]))
        .collect()
}

/// Turns a CPU brand string into the slug used in fingerprints: lower case, vendor kept,
/// marketing noise dropped (`(R)`, `(TM)`, `CPU`, `Processor`, the clock after `@`,
/// `16-Core`, `with Radeon Graphics`, Intel's `Core` brand word), every run of other
/// characters than `[a-z0-9]` turned into one `-`. An empty result is `"unknown"`.
///
/// ```
/// use ktc::normalize_cpu_model;
///
/// assert_eq!(normalize_cpu_model("Intel(R) Core(TM) i7-9700K CPU @ 3.60GHz"), "intel-i7-9700k");
/// assert_eq!(normalize_cpu_model("AMD Ryzen 9 5950X 16-Core Processor"), "amd-ryzen-9-5950x");
/// assert_eq!(normalize_cpu_model("Intel(R) Xeon(R) Platinum 8480+"), "intel-xeon-platinum-8480");
/// assert_eq!(normalize_cpu_model("Apple M2 Max"), "apple-m2-max");
/// assert_eq!(normalize_cpu_model(""), "unknown");
/// ```
pub fn normalize_cpu_model(model: &str) -> String {
    let lower = strip_marks(&model.to_lowercase());
    let tokens: Vec<&str> =
        lower.split(|c: char| c.is_whitespace() || c == ',' || c == '\0').filter(|t| !t.is_empty()).collect();
    let mut kept: Vec<&str> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let tok = tokens[i];
        let next = tokens.get(i + 1).copied();
        if tok == "@" {
            // "@ 3.60GHz" or "@ 3.60 GHz": the clock varies with the SKU's binning and
            // says nothing the model number does not.
            i += 1;
            if next.is_some_and(is_frequency) {
                i += 1;
            } else if next.is_some_and(is_number) && tokens.get(i + 1).is_some_and(|u| is_freq_unit(u)) {
                i += 2;
            }
            continue;
        }
        if tok.starts_with('@') || is_frequency(tok) {
            i += 1;
            continue;
        }
        if is_number(tok) && next.is_some_and(is_freq_unit) {
            i += 2;
            continue;
        }
        if (tok == "with" || tok == "w/") && tokens[i..].iter().any(|t| t.starts_with("graphics")) {
            break; // "with Radeon Graphics", "w/ Radeon 780M Graphics": the iGPU.
        }
        if is_ordinal(tok) && next == Some("gen") {
            i += 2; // "11th Gen Intel ...": the model number already says it.
            continue;
        }
        if tok == "core" && kept.last() == Some(&"intel") {
            i += 1; // Intel's brand word; "intel-i7-9700k" is the seed's form.
            continue;
        }
        if matches!(tok, "cpu" | "processor") || is_core_count(tok) {
            i += 1;
            continue;
        }
        kept.push(tok);
        i += 1;
    }
    let slug = slugify(&kept.join(" "), false);
    if slug.is_empty() { "unknown".to_owned() } else { slug }
}

/// The GPU name as a slug: `"NVIDIA GeForce RTX 4090"` → `"nvidia-geforce-rtx-4090"`.
fn normalize_gpu_name(name: &str) -> String {
    let slug = slugify(&strip_marks(&name.to_lowercase()), false);
    if slug.is_empty() { "unknown".to_owned() } else { slug }
}

/// The fingerprint this host computes for `device`, ignoring `KTC_FINGERPRINT`.
pub(crate) fn computed_fingerprint(device: usize) -> String {
    let cpu = &*CPU_SLUG;
    match cuda::gpu_summary(device) {
        Some(gpu) => {
            let cc = slugify(&gpu.compute_capability, true);
            let cc = if cc.is_empty() { "unknown".to_owned() } else { cc };
            format!("cpu_{cpu}_gpu_{}_cc{cc}", normalize_gpu_name(&gpu.name))
        }
        None => format!("cpu_{cpu}_gpu_none"),
    }
}

/// The override, if set, non-empty and slug-safe; an unsafe one is warned about once.
fn override_value() -> Option<String> {
    let raw = std::env::var_os(OVERRIDE_VAR)?;
    if raw.is_empty() {
        return None;
    }
    match raw.to_str() {
        Some(value) if is_safe_override(value) => Some(value.to_owned()),
        _ => {
            crate::warn_once(format!(
                "ignoring {OVERRIDE_VAR}={raw:?}: it must be 1 to {OVERRIDE_MAX_LEN} characters of \
                 [A-Za-z0-9._-] and not `.` or `..`; using the computed fingerprint"
            ));
            None
        }
    }
}

fn is_safe_override(value: &str) -> bool {
    !value.is_empty()
        && value.len() <= OVERRIDE_MAX_LEN
        && value != "."
        && value != ".."
        && value.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// Drops `(r)`, `(tm)`, `(c)`, `®`, `™` (input already lower case). A mark glues the
/// words around it: `Core(TM)2` is `core2`.
fn strip_marks(lower: &str) -> String {
    lower.replace("(r)", "").replace("(tm)", "").replace("(c)", "").replace(['®', '™'], "")
}

/// Every run of characters outside `[a-z0-9]` (and `.` if `keep_dot`) becomes one `-`;
/// leading and trailing `-` are trimmed.
fn slugify(s: &str, keep_dot: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() || (keep_dot && c == '.') {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

fn is_number(tok: &str) -> bool {
    !tok.is_empty()
        && tok.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && tok.bytes().any(|b| b.is_ascii_digit())
}

fn is_freq_unit(tok: &str) -> bool {
    matches!(tok, "ghz" | "mhz")
}

/// `3.60ghz`, `800mhz`.
fn is_frequency(tok: &str) -> bool {
    ["ghz", "mhz"].iter().any(|unit| tok.strip_suffix(unit).is_some_and(is_number))
}

/// `11th`, `2nd`, `3rd`, `1st`.
fn is_ordinal(tok: &str) -> bool {
    ["st", "nd", "rd", "th"].iter().any(|sfx| {
        tok.strip_suffix(sfx).is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// `16-core`, `quad-core`, `eight-core`.
fn is_core_count(tok: &str) -> bool {
    const WORDS: &[&str] =
        &["single", "dual", "triple", "quad", "hexa", "six", "octa", "eight", "ten", "twelve", "sixteen"];
    tok.strip_suffix("-core")
        .is_some_and(|n| (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) || WORDS.contains(&n))
}

/// The fingerprint's CPU part, computed once (see the `cpu_part` module).
static CPU_SLUG: LazyLock<String> = LazyLock::new(|| {
    cpu_part::cpu_part(&normalize_cpu_model(&cpu_model()), cpu_part::signature(), cpu_part::logical_cpus())
});

/// The CPU's brand string: CPUID on x86, else `/proc/cpuinfo` (or `sysctl` on macOS),
/// else `"unknown"`.
fn cpu_model() -> String {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    if let Some(brand) = raw_cpuid::CpuId::new().get_processor_brand_string() {
        let brand = brand.as_str().trim_matches(|c: char| c.is_whitespace() || c == '\0');
        if !brand.is_empty() {
            return brand.to_owned();
        }
    }
    if let Some(model) =
        std::fs::read_to_string("/proc/cpuinfo").ok().as_deref().and_then(cpu_model_from_cpuinfo)
    {
        return model;
    }
    #[cfg(target_os = "macos")]
    if let Ok(out) = std::process::Command::new("sysctl").args(["-n", "machdep.cpu.brand_string"]).output() {
        let brand = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if out.status.success() && !brand.is_empty() {
            return brand;
        }
    }
    "unknown".to_owned()
}

/// The model from `/proc/cpuinfo` text: the first of `model name`, `cpu model`, `Model`,
/// `Hardware` (in that order of preference), else the first core's ARM implementer and
/// part numbers. Keys are matched exactly: x86's numeric `model` line is not a name.
fn cpu_model_from_cpuinfo(text: &str) -> Option<String> {
    let value = |key: &str| {
        text.lines().find_map(|line| {
            let (k, v) = line.split_once(':')?;
            let v = v.trim();
            (k.trim() == key && !v.is_empty()).then(|| v.to_owned())
        })
    };
    for key in ["model name", "cpu model", "Model", "Hardware"] {
        if let Some(v) = value(key) {
            return Some(v);
        }
    }
    let implementer = value("CPU implementer")?;
    let part = value("CPU part").unwrap_or_default();
    let vendor = match implementer.to_lowercase().as_str() {
        "0x41" => "arm",
        "0x42" => "broadcom",
        "0x48" => "hisilicon",
        "0x4e" => "nvidia",
        "0x51" => "qualcomm",
        "0x61" => "apple",
        "0xc0" => "ampere",
        _ => return Some(format!("implementer {implementer} part {part}")),
    };
    let name = match (vendor, part.to_lowercase().as_str()) {
        ("arm", "0xd0c") => "Neoverse-N1".to_owned(),
        ("arm", "0xd40") => "Neoverse-V1".to_owned(),
        ("arm", "0xd49") => "Neoverse-N2".to_owned(),
        ("arm", "0xd4f") => "Neoverse-V2".to_owned(),
        _ => format!("{vendor} part {part}"),
    };
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpuinfo_x86_uses_model_name_not_model_number() {
        let text = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel\t\t: 85\n\
                    model name\t: Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz\n";
        assert_eq!(cpu_model_from_cpuinfo(text).as_deref(), Some("Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz"));
    }

    #[test]
    fn cpuinfo_arm_variants() {
        let pi =
            "processor\t: 0\nBogoMIPS\t: 108.00\nHardware\t: BCM2835\nModel\t\t: Raspberry Pi 4 Model B\n";
        assert_eq!(cpu_model_from_cpuinfo(pi).as_deref(), Some("Raspberry Pi 4 Model B"));
        let graviton = "processor\t: 0\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU part\t: 0xd0c\n";
        assert_eq!(cpu_model_from_cpuinfo(graviton).as_deref(), Some("Neoverse-N1"));
        let other = "CPU implementer\t: 0x41\nCPU part\t: 0xd03\n";
        assert_eq!(cpu_model_from_cpuinfo(other).as_deref(), Some("arm part 0xd03"));
        assert_eq!(cpu_model_from_cpuinfo("flags: fpu\n"), None);
    }

    #[test]
    fn override_safety() {
        assert!(is_safe_override("fleet-a100_v2.1"));
        assert!(is_safe_override(&"a".repeat(200)));
        for bad in ["", ".", "..", "a/b", "a b", "x\\y", "é", &"a".repeat(201)] {
            assert!(!is_safe_override(bad), "{bad:?}");
        }
    }

    #[test]
    fn gpu_names() {
        assert_eq!(normalize_gpu_name("NVIDIA H200"), "nvidia-h200");
        assert_eq!(normalize_gpu_name("NVIDIA GeForce RTX 4090"), "nvidia-geforce-rtx-4090");
        assert_eq!(normalize_gpu_name("Quadro(R) RTX 8000"), "quadro-rtx-8000");
        assert_eq!(normalize_gpu_name("  "), "unknown");
    }

    #[test]
    fn identical_gpus_are_tuned_once() {
        let gpu = |name: &str, sm_count| {
            Some(crate::GpuSummary {
                name: name.into(),
                compute_capability: "9.0".into(),
                sm_count,
                memory_bytes: 1 << 37,
            })
        };
        // A simulated host with two identical GPUs, then one with two different ones.
        assert_eq!(distinct_devices(&[gpu("NVIDIA H200", 132), gpu("NVIDIA H200", 132)]), [0]);
        assert_eq!(distinct_devices(&[gpu("NVIDIA H200", 132), gpu("NVIDIA H100", 132)]), [0, 1]);
        assert_eq!(distinct_devices(&[gpu("NVIDIA H200", 132), gpu("NVIDIA H200", 114)]), [0, 1]);
        assert_eq!(distinct_devices(&[gpu("A", 1), gpu("B", 1), gpu("A", 1), None]), [0, 1, 3]);
        assert!(distinct_devices(&[]).is_empty());
    }

    #[test]
    fn slug_keeps_dot_only_when_asked() {
        assert_eq!(slugify("9.0", true), "9.0");
        assert_eq!(slugify("--A..b--", false), "a-b");
    }
}
