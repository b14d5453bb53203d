//! The MRMR example's command line: a small hand-written parser (the example needs a
//! dozen flags, not a dependency), in the library so tests cover it.

use std::path::PathBuf;

use super::Criterion;

/// The usage text, printed with `--help` and after a bad flag.
pub const USAGE: &str = "\
usage: cargo run --release --example mrmr -- [OPTIONS]

Selects features by MRMR with the tuned joint-histogram kernel.

data (default: a seeded synthetic set with planted informative and redundant features):
  --n N              samples of the synthetic set (default 1000000; 20000 with --quick)
  --p P              features of the synthetic set (default 30)
  --seed S           seed of the synthetic set (default 42)
  --csv PATH         a CSV with a header line instead
  --target COLUMN    the CSV's target column (required with --csv)
  --bins B           quantile bins for non-discrete CSV columns (default 8, 1..=256)
  --discrete         treat every numeric CSV column as integer codes

selection:
  --select K         features to select (default 10)
  --criterion C      mid (default) or miq
  --quick            small sizes and one timing repetition
  --help             this text";

/// What to run.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Select features.
    Run(Args),
    /// Print [`USAGE`].
    Help,
}

/// Where the data comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// The seeded synthetic set.
    Synthetic {
        /// Samples.
        n: usize,
        /// Features.
        p: usize,
        /// Seed.
        seed: u64,
    },
    /// A CSV file.
    Csv {
        /// The file.
        path: PathBuf,
        /// The target column's name.
        target: String,
    },
}

/// The parsed options.
#[derive(Clone, Debug, PartialEq)]
pub struct Args {
    /// The data.
    pub source: Source,
    /// Features to select.
    pub select: usize,
    /// MID or MIQ.
    pub criterion: Criterion,
    /// Quantile bins for CSV columns that are binned.
    pub bins: usize,
    /// Treat every numeric CSV column as codes.
    pub discrete: bool,
    /// Small sizes, one timing repetition.
    pub quick: bool,
}

/// Parses the arguments after the program name. An error is a message for the user
/// (the example prints it with [`USAGE`] and exits with status 2).
///
/// ```
/// use ktc_kernels::mrmr::{Command, Criterion, Source, parse_args};
///
/// let cmd = parse_args(["--quick", "--criterion", "miq", "--p=12"].map(String::from))?;
/// let Command::Run(args) = cmd else { panic!("not help") };
/// assert_eq!(args.criterion, Criterion::Miq);
/// assert_eq!(args.source, Source::Synthetic { n: 20_000, p: 12, seed: 42 });
/// assert!(parse_args(["--bogus".to_string()]).is_err());
/// # Ok::<(), String>(())
/// ```
pub fn parse_args<I: IntoIterator<Item = String>>(args: I) -> Result<Command, String> {
    let mut raw = Raw::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value =
            || inline.clone().or_else(|| args.next()).ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--help" | "-h" => return Ok(Command::Help),
            "--quick" => raw.quick = true,
            "--discrete" => raw.discrete = true,
            "--n" => raw.n = Some(number(&flag, &value()?)?),
            "--p" => raw.p = Some(number(&flag, &value()?)?),
            "--seed" => raw.seed = Some(number(&flag, &value()?)?),
            "--select" => raw.select = Some(number(&flag, &value()?)?),
            "--bins" => raw.bins = Some(number(&flag, &value()?)?),
            "--csv" => raw.csv = Some(PathBuf::from(value()?)),
            "--target" => raw.target = Some(value()?),
            "--criterion" => raw.criterion = Some(value()?.parse()?),
            _ => return Err(format!("unknown argument `{arg}`")),
        }
        if inline.is_some() && matches!(flag.as_str(), "--quick" | "--discrete") {
            return Err(format!("{flag} takes no value"));
        }
    }
    raw.finish().map(Command::Run)
}

/// The flags as given, before defaults and cross-checks.
#[derive(Default)]
struct Raw {
    n: Option<u64>,
    p: Option<u64>,
    seed: Option<u64>,
    select: Option<u64>,
    bins: Option<u64>,
    csv: Option<PathBuf>,
    target: Option<String>,
    criterion: Option<Criterion>,
    quick: bool,
    discrete: bool,
}

impl Raw {
    fn finish(self) -> Result<Args, String> {
        let source = match (self.csv, self.target) {
            (Some(path), Some(target)) => {
                if self.n.is_some() || self.p.is_some() || self.seed.is_some() {
                    return Err(
                        "--n, --p and --seed describe the synthetic set; they do not apply with --csv".into(),
                    );
                }
                Source::Csv { path, target }
            }
            (Some(_), None) => return Err("--csv needs --target COLUMN".into()),
            (None, Some(_)) => return Err("--target applies to --csv only".into()),
            (None, None) => Source::Synthetic {
                n: positive("--n", self.n.unwrap_or(if self.quick { 20_000 } else { 1_000_000 }))?,
                p: positive("--p", self.p.unwrap_or(30))?,
                seed: self.seed.unwrap_or(42),
            },
        };
        let bins = positive("--bins", self.bins.unwrap_or(8))?;
        if bins > 256 {
            return Err(format!("--bins must be at most 256, got {bins}"));
        }
        Ok(Args {
            source,
            select: positive("--select", self.select.unwrap_or(10))?,
            criterion: self.criterion.unwrap_or_default(),
            bins,
            discrete: self.discrete,
            quick: self.quick,
        })
    }
}

fn number(flag: &str, value: &str) -> Result<u64, String> {
    value.replace('_', "").parse().map_err(|_| format!("{flag} expects a whole number, got `{value}`"))
}

fn positive(flag: &str, value: u64) -> Result<usize, String> {
    match usize::try_from(value) {
        Ok(v) if v > 0 => Ok(v),
        _ => Err(format!("{flag} must be a positive whole number, got {value}")),
    }
}
