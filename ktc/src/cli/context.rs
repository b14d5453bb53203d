//! What every subcommand gets: the store, the output format, the linked kernels; and
//! how a subcommand fails.

use super::args::Cli;
use crate::registry::{KernelInfo, discover_kernels};
use crate::{KernelSchema, KernelTuningCache};
use std::collections::BTreeMap;

/// Why a subcommand failed: the exit code, a message saying what to do next, and any
/// output to print before it (a partial import's report).
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) code: u8,
    pub(crate) message: String,
    pub(crate) output: String,
}

impl Failure {
    /// An error (exit 1).
    pub(crate) fn error(message: impl Into<String>) -> Self {
        Failure { code: 1, message: message.into(), output: String::new() }
    }

    /// Bad usage (exit 2).
    pub(crate) fn usage(message: impl Into<String>) -> Self {
        Failure { code: 2, message: message.into(), output: String::new() }
    }
}

impl From<crate::Error> for Failure {
    fn from(e: crate::Error) -> Self {
        Failure::error(e.to_string())
    }
}

/// The store and settings a subcommand runs with.
pub(crate) struct Ctx {
    /// The store, reading under the chosen fingerprint.
    pub(crate) cache: KernelTuningCache,
    /// `--fingerprint`, when given.
    pub(crate) fingerprint: Option<String>,
    /// `--json`.
    pub(crate) json: bool,
    /// The kernels linked into this binary.
    pub(crate) kernels: Vec<&'static KernelInfo>,
}

impl Ctx {
    pub(crate) fn new(cli: &Cli) -> Result<Ctx, Failure> {
        if let Some(fp) = &cli.fingerprint
            && !crate::store::is_slug(fp)
        {
            return Err(Failure::usage(format!(
                "--fingerprint `{fp}` is not a safe folder name: use letters, digits, `.`, `_`, `-`"
            )));
        }
        let cache = match &cli.cache_dir {
            Some(dir) => KernelTuningCache::open(dir),
            None => KernelTuningCache::load_or_create(),
        }
        .map_err(|e| Failure::error(format!("{e}; choose a writable store with --cache-dir DIR")))?;
        let cache = match &cli.fingerprint {
            Some(fp) => cache.with_fingerprint(fp.clone()),
            None => cache,
        };
        Ok(Ctx { cache, fingerprint: cli.fingerprint.clone(), json: cli.json, kernels: discover_kernels() })
    }

    /// The linked kernel named `kernel`, if any.
    pub(crate) fn kernel(&self, kernel: &str) -> Option<&'static KernelInfo> {
        self.kernels.iter().copied().find(|t| t.name == kernel)
    }

    /// The schema of every linked kernel, by name: what its dispatcher validates with.
    pub(crate) fn schemas(&self) -> BTreeMap<String, KernelSchema> {
        self.kernels.iter().map(|t| (t.name.to_owned(), t.schema())).collect()
    }

    /// `value` as pretty JSON text with a final newline.
    pub(crate) fn json_text(value: &serde_json::Value) -> String {
        let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
        text.push('\n');
        text
    }
}
