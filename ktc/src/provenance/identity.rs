//! What the `#[tunable]` macro knows about a kernel at compile time: its crate, the
//! token hashes of that crate's sources, the resolved versions of its dependencies, and
//! how the crate was compiled (captured in the kernel's own crate, not in ktc).

/// The kernel's own identity, known at compile time (the `#[tunable]` macro fills it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelIdentity {
    /// The defining crate's name (`CARGO_PKG_NAME`).
    pub crate_name: &'static str,
    /// The defining crate's version (`CARGO_PKG_VERSION`).
    pub crate_version: &'static str,
    /// A hash of the `#[tunable]` module's tokens (and its attribute).
    pub source_hash: &'static str,
    /// `(path, token hash)` of every `.rs` file under the crate's `src/`, path relative
    /// to the crate root: the code the variants call outside their module. Comments and
    /// formatting do not count.
    pub sources: &'static [(&'static str, &'static str)],
    /// `(name, version)` of every package the crate depends on, transitively, as
    /// resolved in the `Cargo.lock` found above the crate (empty without one).
    pub dependencies: &'static [(&'static str, &'static str)],
    /// Each feature the kernel's package declares and whether this build enabled it.
    pub features: &'static [(&'static str, bool)],
    /// How the kernel's crate was compiled.
    pub build: BuildInfo,
}

/// How a crate was compiled, as far as it shapes the machine code. Filled by
/// [`build_info!`](crate::build_info) expanded in that crate, so it describes the
/// kernel's crate even where ktc was compiled differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildInfo {
    /// `debug` (debug assertions on: `cargo test`, `cargo build`) or `release`.
    pub profile: &'static str,
    /// Each known target feature and whether the crate was compiled with it enabled.
    pub target_features: &'static [(&'static str, bool)],
}

impl BuildInfo {
    /// How ktc itself was compiled: the identity of kernels that declared none.
    pub const KTC: BuildInfo = crate::build_info!();

    /// The enabled target features, comma-separated in list order (`sse2,avx,avx2`).
    pub fn enabled_features(&self) -> String {
        let on: Vec<&str> = self.target_features.iter().filter(|(_, on)| *on).map(|(f, _)| *f).collect();
        on.join(",")
    }
}

/// The [`BuildInfo`] of the crate this expands in: its `debug_assertions` and target
/// features (`cfg!` is evaluated where the macro expands, so in the kernel's crate).
#[doc(hidden)]
#[macro_export]
macro_rules! build_info {
    () => {
        $crate::BuildInfo {
            profile: if ::core::cfg!(debug_assertions) { "debug" } else { "release" },
            target_features: $crate::__target_features!(
                // x86 / x86_64
                "sse2",
                "sse3",
                "ssse3",
                "sse4.1",
                "sse4.2",
                "popcnt",
                "avx",
                "avx2",
                "fma",
                "bmi1",
                "bmi2",
                "lzcnt",
                "f16c",
                "avx512f",
                "avx512bw",
                "avx512vl",
                "avx512dq",
                "avx512vnni",
                // aarch64
                "neon",
                "sve",
                "sve2",
                "dotprod",
                "fp16",
                "lse",
            ),
        }
    };
}

/// `&[(feature, cfg!(target_feature = feature)), ...]`.
#[doc(hidden)]
#[macro_export]
macro_rules! __target_features {
    ($($f:literal),* $(,)?) => {
        &[$(($f, ::core::cfg!(target_feature = $f))),*]
    };
}

impl KernelIdentity {
    /// The enabled features, comma-separated in name order (`cuda,default`).
    pub fn enabled_features(&self) -> String {
        let on: Vec<&str> = self.features.iter().filter(|(_, on)| *on).map(|(f, _)| *f).collect();
        on.join(",")
    }

    /// The identity of a kernel that declared none: provenance then covers ktc, rustc,
    /// CUDA and the GPU only.
    pub const UNSPECIFIED: KernelIdentity = KernelIdentity::new("unspecified", "0", "");

    /// An identity from its parts, with no source files or dependencies and ktc's own
    /// build; usable in a `static`. The `#[tunable]` macro fills every field instead.
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
        KernelIdentity {
            crate_name,
            crate_version,
            source_hash,
            sources: &[],
            dependencies: &[],
            features: &[],
            build: BuildInfo::KTC,
        }
    }
}
