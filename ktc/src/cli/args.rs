//! The command line's shape (clap derive). A new subcommand is a new [`Command`]
//! variant and a file beside this one.

use crate::job::{CallPattern, VerifyOptions};
use clap::{Parser, Subcommand};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Inspect, maintain and (from a binary that links kernels) re-tune a ktc tuning cache.
#[derive(Debug, Parser)]
#[command(name = "ktc", version, about, long_about = None)]
pub(crate) struct Cli {
    /// The store folder [default: $KTC_CACHE_DIR, else the user cache folder's `ktc`].
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) cache_dir: Option<PathBuf>,
    /// Read and write under this fingerprint instead of this host's.
    #[arg(long, global = true, value_name = "FP")]
    pub(crate) fingerprint: Option<String>,
    /// Print machine-readable JSON (shapes documented in `ktc::cli`).
    #[arg(long, global = true)]
    pub(crate) json: bool,
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// This host's fingerprint per device, the provenance stamp and the linked kernels.
    Fingerprint,
    /// Every entry of the store: current, superseded, stale (which fields) or invalid (why).
    List,
    /// A kernel's decision table and the sweep's measurements.
    Show(KernelArg),
    /// Which region and variant a call with these axis values takes, and why.
    Explain(ExplainArgs),
    /// Remove superseded and stale entries and stray temp files.
    Gc(GcArgs),
    /// Write every valid entry (or one kernel's) into one JSON bundle.
    Export(ExportArgs),
    /// Add the entries of a bundle: each is validated, none overwrites.
    Import(ImportArgs),
    /// Draw time vs problem size per variant, the chosen variant shaded, as SVG.
    Plot(PlotArgs),
    /// Sweep the linked kernels on every device (only from a binary that links kernels).
    Retune(RetuneArgs),
    /// Regret of a kernel's entry at sampled off-grid sizes (from a binary that links it).
    Verify(VerifyArgs),
    /// Upload local entries to the remote (never overwriting one there).
    Push(SyncArgs),
    /// Download this host's entries from the remote, each validated, none overwriting.
    Pull(SyncArgs),
    /// Inspect the remote.
    Remote(RemoteArgs),
}

/// Arguments of `push` and `pull`.
#[derive(Debug, clap::Args)]
pub(crate) struct SyncArgs {
    /// Only this kernel's entries.
    #[arg(long)]
    pub(crate) kernel: Option<String>,
    /// The remote [default: $KTC_REMOTE], `s3://BUCKET/PREFIX` or `file:///PATH`.
    #[arg(long, value_name = "URL")]
    pub(crate) remote: Option<String>,
}

/// Arguments of `remote`.
#[derive(Debug, clap::Args)]
pub(crate) struct RemoteArgs {
    #[command(subcommand)]
    pub(crate) command: RemoteCommand,
}

/// The `remote` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum RemoteCommand {
    /// The entries the remote holds (of `--fingerprint` where given).
    Ls(SyncArgs),
}

/// A kernel name.
#[derive(Debug, clap::Args)]
pub(crate) struct KernelArg {
    /// The kernel's name (its module's name).
    pub(crate) kernel: String,
}

/// Arguments of `explain`.
#[derive(Debug, clap::Args)]
pub(crate) struct ExplainArgs {
    /// The kernel's name.
    pub(crate) kernel: String,
    /// An axis value, `NAME=VALUE` (repeat for each axis).
    #[arg(long = "axis", value_name = "NAME=VALUE", value_parser = parse_axis)]
    pub(crate) axes: Vec<(String, String)>,
}

/// Arguments of `gc`.
#[derive(Debug, clap::Args)]
pub(crate) struct GcArgs {
    /// Report what would be removed; remove nothing.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Valid entries kept per (fingerprint, kernel, code version).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub(crate) keep: usize,
}

/// Arguments of `export`.
#[derive(Debug, clap::Args)]
pub(crate) struct ExportArgs {
    /// The bundle file to write (replaced if it exists).
    #[arg(long, value_name = "FILE")]
    pub(crate) out: PathBuf,
    /// Only this kernel's entries.
    #[arg(long)]
    pub(crate) kernel: Option<String>,
}

/// Arguments of `import`.
#[derive(Debug, clap::Args)]
pub(crate) struct ImportArgs {
    /// The bundle file, as `export` writes it.
    pub(crate) file: PathBuf,
}

/// Arguments of `plot`.
#[derive(Debug, clap::Args)]
pub(crate) struct PlotArgs {
    /// The kernel's name.
    pub(crate) kernel: String,
    /// The SVG file to write.
    #[arg(long, value_name = "FILE")]
    pub(crate) out: PathBuf,
}

/// Arguments of `retune`.
#[derive(Debug, clap::Args)]
pub(crate) struct RetuneArgs {
    /// Only these kernels [default: every linked kernel].
    pub(crate) kernels: Vec<String>,
    /// Full sweeps (more repetitions) instead of quick ones.
    #[arg(long)]
    pub(crate) full: bool,
    /// Time budget per kernel × device, in seconds [default: 14 quick, 600 full; after
    /// pauses, twice the grid's pauses on top].
    #[arg(long, value_name = "SECONDS", value_parser = parse_budget)]
    pub(crate) budget: Option<f64>,
    /// Verify each kernel's entry and re-sweep only around the points it gets wrong.
    #[arg(long)]
    pub(crate) refine: bool,
    /// Time one call after each pause of MS milliseconds (1–1000), for kernels called
    /// now and then; 0: calls in a loop [default: $KTC_SWEEP_AFTER_PAUSE_MS, else the
    /// kernel's `#[tunable(after_pause_ms = ...)]`, else 0].
    /// `--refine` keeps the entry's pattern.
    #[arg(long, value_name = "MS", value_parser = parse_pause, conflicts_with = "refine")]
    pub(crate) after_pause: Option<CallPattern>,
    /// How `--refine` verifies (only with `--refine`).
    #[command(flatten)]
    pub(crate) sampling: SamplingArgs,
}

/// Arguments of `verify`.
#[derive(Debug, clap::Args)]
pub(crate) struct VerifyArgs {
    /// The kernel (linked into this binary).
    pub(crate) kernel: String,
    /// What is sampled and flagged.
    #[command(flatten)]
    pub(crate) sampling: SamplingArgs,
    /// Time budget in seconds [default: twice the sweep's].
    #[arg(long, value_name = "SECONDS")]
    pub(crate) budget: Option<f64>,
    /// Time one call after each pause of MS milliseconds (1–1000); 0: calls in a loop
    /// [default: as the entry's sweep timed them].
    #[arg(long, value_name = "MS", value_parser = parse_pause)]
    pub(crate) after_pause: Option<CallPattern>,
}

/// How a verify samples and flags: `verify`'s, and `retune --refine`'s before it
/// re-sweeps, so that the refine can be given the settings of the verify that flagged.
#[derive(Debug, clap::Args)]
pub(crate) struct SamplingArgs {
    /// Sampled sizes to measure [default: 24].
    #[arg(long, value_parser = parse_points)]
    pub(crate) points: Option<usize>,
    /// Regret above which a point and its region are flagged [default: 1.10].
    #[arg(long, value_parser = parse_threshold)]
    pub(crate) threshold: Option<f64>,
    /// Seed of the sampled sizes [default: a fixed one, so runs compare like for like].
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Looks at every point, in passes over all points, merged [default: 3].
    #[arg(long, value_parser = parse_looks)]
    pub(crate) looks: Option<usize>,
    /// A point to measure instead of sampled ones, every axis once (repeat for more
    /// points), e.g. `--at n_samples=250000,n_features=12,pair_table=512,loc=host`.
    #[arg(long, value_name = "NAME=VALUE,...", value_parser = parse_point)]
    pub(crate) at: Vec<NamedPoint>,
}

/// A point by axis name, as `--at` gives it (numbers as integers, labels as strings).
pub(crate) type NamedPoint = BTreeMap<String, serde_json::Value>;

impl SamplingArgs {
    /// Whether any setting was given.
    pub(crate) fn any_given(&self) -> bool {
        self.points.is_some()
            || self.threshold.is_some()
            || self.seed.is_some()
            || self.looks.is_some()
            || !self.at.is_empty()
    }

    /// The given settings as command-line flags, each with a leading space: what to
    /// pass `retune --refine` so that its verify samples and judges as this one did.
    pub(crate) fn as_flags(&self) -> String {
        let mut flags = String::new();
        let given = [
            ("points", self.points.map(|v| v.to_string())),
            ("looks", self.looks.map(|v| v.to_string())),
            ("threshold", self.threshold.map(|v| v.to_string())),
            ("seed", self.seed.map(|v| v.to_string())),
        ];
        for (name, value) in given {
            if let Some(value) = value {
                flags.push_str(&format!(" --{name} {value}"));
            }
        }
        for point in &self.at {
            let pairs: Vec<String> = point
                .iter()
                .map(|(name, value)| match value {
                    serde_json::Value::String(label) => format!("{name}={label}"),
                    number => format!("{name}={number}"),
                })
                .collect();
            flags.push_str(&format!(" --at {}", pairs.join(",")));
        }
        flags
    }

    /// The verify options: the given settings, the defaults for the others.
    pub(crate) fn options(&self) -> VerifyOptions {
        let defaults = VerifyOptions::default();
        VerifyOptions {
            points: self.points.unwrap_or(defaults.points),
            threshold: self.threshold.unwrap_or(defaults.threshold),
            seed: self.seed.unwrap_or(defaults.seed),
            looks: self.looks.unwrap_or(defaults.looks),
            at: self.at.clone(),
            calls: None,
        }
    }
}

fn parse_axis(s: &str) -> Result<(String, String), BadArg> {
    match s.split_once('=') {
        Some((name, value)) if !name.is_empty() && !value.is_empty() => Ok((name.into(), value.into())),
        _ => Err(BadArg::Axis(s.into())),
    }
}

/// `NAME=VALUE,NAME=VALUE,...`: a value of digits (underscores allowed) is a number,
/// any other a label; a name given twice is refused.
fn parse_point(s: &str) -> Result<NamedPoint, BadArg> {
    let mut point = NamedPoint::new();
    for pair in s.split(',') {
        let (name, raw) = parse_axis(pair.trim()).map_err(|_| BadArg::Point(s.into()))?;
        let digits = raw.replace('_', "");
        let value = match digits.parse::<u64>() {
            Ok(n) => serde_json::Value::from(n),
            Err(_) => serde_json::Value::from(raw),
        };
        if point.insert(name, value).is_some() {
            return Err(BadArg::Point(s.into()));
        }
    }
    Ok(point)
}

fn parse_budget(s: &str) -> Result<f64, BadArg> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v < 1e9 => Ok(v),
        _ => Err(BadArg::Budget(s.into())),
    }
}

fn parse_points(s: &str) -> Result<usize, BadArg> {
    match s.parse::<usize>() {
        Ok(k) if (1..=10_000).contains(&k) => Ok(k),
        _ => Err(BadArg::Points(s.into())),
    }
}

fn parse_threshold(s: &str) -> Result<f64, BadArg> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 1.0 => Ok(v),
        _ => Err(BadArg::Threshold(s.into())),
    }
}

fn parse_pause(s: &str) -> Result<CallPattern, BadArg> {
    let pattern = s.parse::<f64>().ok().and_then(|ms| CallPattern::from_millis(ms).ok());
    pattern.ok_or_else(|| BadArg::Pause(s.into()))
}

fn parse_looks(s: &str) -> Result<usize, BadArg> {
    match s.parse::<usize>() {
        Ok(k) if (1..=100).contains(&k) => Ok(k),
        _ => Err(BadArg::Looks(s.into())),
    }
}

/// An argument value clap hands to one of the parsers above and it refuses (as given).
#[derive(Debug, thiserror::Error)]
pub(crate) enum BadArg {
    #[error("`{0}` is not NAME=VALUE, e.g. `n_samples=1000000`")]
    Axis(String),
    #[error("`{0}` is not a point NAME=VALUE,NAME=VALUE,... with each axis once, e.g. `n=1000,loc=host`")]
    Point(String),
    #[error("`{0}` is not a positive number of seconds")]
    Budget(String),
    #[error("`{0}` is not a number of points between 1 and 10000")]
    Points(String),
    #[error("`{0}` is not a number of looks between 1 and 100")]
    Looks(String),
    #[error("`{0}` is not a pause: 0 (calls in a loop) or 1 to 1000 milliseconds")]
    Pause(String),
    #[error("`{0}` is not a regret threshold, a number ≥ 1 such as 1.10")]
    Threshold(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_sampling_settings_read_back_as_the_flags_that_set_them() {
        let none = SamplingArgs { points: None, threshold: None, seed: None, looks: None, at: Vec::new() };
        assert_eq!(none.as_flags(), "");
        assert!(!none.any_given());
        let some = SamplingArgs {
            points: Some(12),
            threshold: Some(1.05),
            seed: Some(7),
            looks: None,
            at: Vec::new(),
        };
        assert_eq!(some.as_flags(), " --points 12 --threshold 1.05 --seed 7");
        let parsed = Cli::try_parse_from([
            "ktc",
            "verify",
            "k",
            "--points",
            "12",
            "--threshold",
            "1.05",
            "--seed",
            "7",
        ]);
        let Ok(Cli { command: Command::Verify(args), .. }) = parsed else { panic!("{parsed:?}") };
        assert_eq!(args.sampling.as_flags(), some.as_flags());
        assert_eq!(args.sampling.options().looks, VerifyOptions::default().looks);
    }

    #[test]
    fn at_points_parse_numbers_and_labels_and_read_back_as_flags() {
        let parsed = Cli::try_parse_from([
            "ktc",
            "verify",
            "k",
            "--at",
            "n_samples=250_000,loc=host",
            "--at",
            "n_samples=1063, loc=device",
        ]);
        let Ok(Cli { command: Command::Verify(args), .. }) = parsed else { panic!("{parsed:?}") };
        let options = args.sampling.options();
        assert_eq!(options.at.len(), 2);
        assert_eq!(options.at[0]["n_samples"], serde_json::json!(250_000));
        assert_eq!(options.at[0]["loc"], serde_json::json!("host"));
        assert_eq!(options.at[1]["loc"], serde_json::json!("device"));
        assert!(args.sampling.any_given());
        assert_eq!(
            args.sampling.as_flags(),
            " --at loc=host,n_samples=250000 --at loc=device,n_samples=1063"
        );
        for bad in ["n_samples", "n=1,n=2", "=3", "n=1,,loc=host"] {
            let refused = Cli::try_parse_from(["ktc", "verify", "k", "--at", bad]);
            assert!(refused.is_err(), "{bad}: {refused:?}");
        }
    }
}
