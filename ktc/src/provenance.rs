//! Provenance: what can change a kernel's behaviour or speed, and the `code_version`
//! hash of it that keys the cache.

use serde::{Deserialize, Serialize};

use crate::cuda;

/// The kernel's own identity, known at compile time (the `#[tunable]` macro fills it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelIdentity {
    /// The defining crate's name (`CARGO_PKG_NAME`).
    pub crate_name: &'static str,
    /// The defining crate's version (`CARGO_PKG_VERSION`).
    pub crate_version: &'static str,
    /// A hash of the kernel's source tokens.
    pub source_hash: &'static str,
}

/// A GPU's summary as recorded in provenance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuSummary {
    /// The device name as the driver reports it.
    pub name: String,
    /// Compute capability, `"major.minor"`.
    pub compute_capability: String,
    /// Streaming multiprocessors.
    pub sm_count: u32,
    /// Global memory in bytes.
    pub memory_bytes: u64,
}

/// Everything that can change a kernel's behaviour or speed. Its hash is the
/// [`code_version`](Provenance::code_version) that keys the cache.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// ktc's version.
    pub ktc_version: String,
    /// The kernel crate's name.
    pub kernel_crate: String,
    /// The kernel crate's version.
    pub kernel_crate_version: String,
    /// Hash of the kernel's source.
    pub source_hash: String,
    /// The rustc that built ktc (captured at build time).
    pub rustc_version: String,
    /// `debug` or `release` (whether debug assertions are on), so a tuning measured on
    /// an unoptimised `cargo test` build never serves a release build, nor the reverse.
    #[serde(default)]
    pub build_profile: String,
    /// CUDA driver version, `None` without CUDA.
    #[serde(default)]
    pub cuda_driver: Option<String>,
    /// NVRTC version, `None` without NVRTC.
    #[serde(default)]
    pub nvrtc: Option<String>,
    /// The GPU the tuning is for, `None` without one.
    #[serde(default)]
    pub gpu: Option<GpuSummary>,
}

/// One provenance field that differs between a stored entry and this build/host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldChange {
    /// The field name, as in [`Provenance`].
    pub field: String,
    /// The stored value (`none` where absent).
    pub old: String,
    /// The current value (`none` where absent).
    pub new: String,
}

impl std::fmt::Display for FieldChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} → {}", self.field, self.old, self.new)
    }
}

impl KernelIdentity {
    /// The identity of a kernel that declared none: provenance then covers ktc, rustc,
    /// CUDA and the GPU only.
    pub const UNSPECIFIED: KernelIdentity = KernelIdentity::new("unspecified", "0", "");

    /// An identity from its parts; usable in a `static`, as the `#[tunable]` macro does.
    ///
    /// ```
    /// use ktc::KernelIdentity;
    ///
    /// static ID: KernelIdentity =
    ///     KernelIdentity::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"), "3f2a9c");
    /// assert_eq!(ID.source_hash, "3f2a9c");
    /// ```
    pub const fn new(
        crate_name: &'static str,
        crate_version: &'static str,
        source_hash: &'static str,
    ) -> Self {
        KernelIdentity { crate_name, crate_version, source_hash }
    }
}

impl std::fmt::Display for GpuSummary {
    /// `NAME cc X.Y, N SMs, M GiB`, e.g. `NVIDIA H200 cc 9.0, 132 SMs, 139.8 GiB`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let gib = self.memory_bytes as f64 / f64::from(1u32 << 30);
        write!(f, "{} cc {}, {} SMs, {gib:.1} GiB", self.name, self.compute_capability, self.sm_count)
    }
}

impl Provenance {
    /// The provenance of `identity` as built and run here, for GPU ordinal 0.
    ///
    /// ```
    /// use ktc::{KernelIdentity, Provenance};
    ///
    /// let p = Provenance::current(&KernelIdentity::new("my-kernels", "1.2.0", "ab12"));
    /// assert_eq!(p.kernel_crate, "my-kernels");
    /// assert_eq!(p.ktc_version, env!("CARGO_PKG_VERSION"));
    /// ```
    pub fn current(identity: &KernelIdentity) -> Provenance {
        Provenance::for_device(identity, 0)
    }

    /// The provenance of `identity` as built and run here, for GPU ordinal `ordinal`:
    /// ktc's version, the rustc that built ktc, the CUDA driver and NVRTC versions and
    /// that GPU's summary (each `None` where absent or built without the `cuda` feature).
    pub fn for_device(identity: &KernelIdentity, ordinal: usize) -> Provenance {
        Provenance {
            ktc_version: env!("CARGO_PKG_VERSION").to_owned(),
            kernel_crate: identity.crate_name.to_owned(),
            kernel_crate_version: identity.crate_version.to_owned(),
            source_hash: identity.source_hash.to_owned(),
            rustc_version: env!("KTC_RUSTC_VERSION").to_owned(),
            build_profile: build_profile().to_owned(),
            cuda_driver: cuda::driver_version(),
            nvrtc: cuda::nvrtc_version(),
            gpu: cuda::gpu_summary(ordinal),
        }
    }

    /// The short hash that keys the cache: the first 16 hex characters of BLAKE3 over the
    /// provenance's JSON form.
    ///
    /// That form is canonical: serde writes the fields in their declaration order, with
    /// no whitespace, and an absent optional field as `null`, so an old entry read back
    /// (missing fields default to `None`) hashes as it did when written. Renaming,
    /// reordering or adding a field changes every code version, which is the intent:
    /// a stale tuning is re-measured, never misread.
    ///
    /// ```
    /// use ktc::{KernelIdentity, Provenance};
    ///
    /// let p = Provenance::current(&KernelIdentity::UNSPECIFIED);
    /// let v = p.code_version();
    /// assert_eq!(v.len(), 16);
    /// assert!(v.bytes().all(|b| b.is_ascii_hexdigit()));
    /// assert_eq!(v, p.clone().code_version());
    /// ```
    pub fn code_version(&self) -> String {
        // Serialising plain strings and integers cannot fail.
        let json = serde_json::to_vec(self).expect("provenance serialises");
        let mut hex = blake3::hash(&json).to_hex().to_string();
        hex.truncate(16);
        hex
    }

    /// The fields in which `stored` (an entry's provenance) differs from `self` (the
    /// current one), in declaration order, with the stored value as `old` and the current
    /// one as `new` (`"none"` where absent). Empty when nothing changed.
    ///
    /// ```
    /// use ktc::{KernelIdentity, Provenance};
    ///
    /// let current = Provenance::current(&KernelIdentity::new("k", "1.1.0", "h2"));
    /// let mut stored = current.clone();
    /// stored.kernel_crate_version = "1.0.0".into();
    ///
    /// let changes = current.provenance_changed(&stored);
    /// assert_eq!(changes.len(), 1);
    /// assert_eq!(changes[0].field, "kernel_crate_version");
    /// assert_eq!((changes[0].old.as_str(), changes[0].new.as_str()), ("1.0.0", "1.1.0"));
    /// assert!(current.provenance_changed(&current).is_empty());
    /// ```
    pub fn provenance_changed(&self, stored: &Provenance) -> Vec<FieldChange> {
        let mut changes = Vec::new();
        let mut check = |field: &str, old: &str, new: &str| {
            if old != new {
                changes.push(FieldChange {
                    field: field.to_owned(),
                    old: old.to_owned(),
                    new: new.to_owned(),
                });
            }
        };
        check("ktc_version", &stored.ktc_version, &self.ktc_version);
        check("kernel_crate", &stored.kernel_crate, &self.kernel_crate);
        check("kernel_crate_version", &stored.kernel_crate_version, &self.kernel_crate_version);
        check("source_hash", &stored.source_hash, &self.source_hash);
        check("rustc_version", &stored.rustc_version, &self.rustc_version);
        check("build_profile", &stored.build_profile, &self.build_profile);
        check("cuda_driver", &or_none(&stored.cuda_driver), &or_none(&self.cuda_driver));
        check("nvrtc", &or_none(&stored.nvrtc), &or_none(&self.nvrtc));
        if stored.gpu != self.gpu {
            let (mut old, mut new) = (or_none(&stored.gpu), or_none(&self.gpu));
            if old == new {
                // Differ below the summary's rounding: show everything.
                (old, new) = (format!("{:?}", stored.gpu), format!("{:?}", self.gpu));
            }
            changes.push(FieldChange { field: "gpu".to_owned(), old, new });
        }
        changes
    }
}

/// A value's display form, `"none"` where absent.
fn or_none<T: std::fmt::Display>(value: &Option<T>) -> String {
    value.as_ref().map_or_else(|| "none".to_owned(), T::to_string)
}

/// The build profile as far as it changes speed: debug assertions on or off. Cargo
/// builds every crate of one build with the same profile, so ktc's own setting is the
/// kernel crate's too (barring per-package profile overrides).
pub fn build_profile() -> &'static str {
    if cfg!(debug_assertions) { "debug" } else { "release" }
}
