//! Provenance: what can change a kernel's behaviour or speed, and the `code_version`
//! hash of it that keys the cache.

mod changes;
mod identity;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::cuda;
pub use crate::cuda::GpuSummary;
pub use changes::FieldChange;
pub(crate) use changes::summarize_changes;
pub use identity::{BuildInfo, KernelIdentity};

/// Everything that can change a kernel's behaviour or speed. Its hash is the
/// [`code_version`](Provenance::code_version) that keys the cache.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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
    /// `debug` or `release`: whether the kernel's crate was compiled with debug
    /// assertions, so a tuning measured on an unoptimised `cargo test` build never
    /// serves a release build, nor the reverse.
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
    /// Token hash of every source file of the kernel's crate, by path (`src/lib.rs`):
    /// a variant calling a helper outside its module retires its tuning when the helper
    /// changes. Empty in entries written before it was recorded.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sources: BTreeMap<String, String>,
    /// Resolved version of every package the kernel's crate depends on, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dependencies: BTreeMap<String, String>,
    /// The target features the kernel's crate was compiled with (`sse2,avx,avx2`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target_features: String,
    /// The kernel package's features enabled in this build (`cuda,default`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub features: String,
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
    /// ktc's version, the rustc that built ktc, how the kernel's crate was compiled, its
    /// sources and dependencies, the CUDA driver and NVRTC versions and that GPU's
    /// summary (each `None` where absent or built without the `cuda` feature).
    pub fn for_device(identity: &KernelIdentity, ordinal: usize) -> Provenance {
        Provenance {
            ktc_version: env!("CARGO_PKG_VERSION").to_owned(),
            kernel_crate: identity.crate_name.to_owned(),
            kernel_crate_version: identity.crate_version.to_owned(),
            source_hash: identity.source_hash.to_owned(),
            rustc_version: env!("KTC_RUSTC_VERSION").to_owned(),
            build_profile: identity.build.profile.to_owned(),
            cuda_driver: cuda::driver_version(),
            nvrtc: cuda::nvrtc_version(),
            gpu: cuda::gpu_summary(ordinal),
            sources: pairs(identity.sources),
            dependencies: pairs(identity.dependencies),
            target_features: identity.build.enabled_features(),
            features: identity.enabled_features(),
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
        changes::changes(self, stored)
    }
}

fn pairs(items: &[(&str, &str)]) -> BTreeMap<String, String> {
    items.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

/// ktc's own build profile: debug assertions on or off. A kernel's provenance records
/// its own crate's ([`BuildInfo::profile`]), which a per-package profile may set apart.
pub fn build_profile() -> &'static str {
    if cfg!(debug_assertions) { "debug" } else { "release" }
}
