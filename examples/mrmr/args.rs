//! The example's command line (clap).

use std::path::PathBuf;

use clap::Parser;
use ktc_kernels::mrmr::Criterion;

/// Selects features by MRMR with the tuned kernels: reads the data (a seeded synthetic
/// set with planted informative and redundant features, or a CSV / Parquet file), bins
/// it with the tuned `discretize` kernel and selects with the tuned joint-histogram
/// kernel, printing the time of each stage. Tunes both kernels on first use.
#[derive(Debug, Parser)]
#[command(name = "mrmr", override_usage = "cargo run --release --example mrmr -- [OPTIONS]")]
pub(crate) struct Args {
    /// Samples of the synthetic set [default: 1000000; 20000 with --quick]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "file_source")]
    pub(crate) n: Option<u64>,
    /// Features of the synthetic set
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "file_source")]
    pub(crate) p: u64,
    /// Seed of the synthetic set
    #[arg(long, default_value_t = 42, conflicts_with = "file_source")]
    pub(crate) seed: u64,
    /// A CSV file with a header line
    #[arg(long, group = "file_source", value_name = "PATH")]
    pub(crate) csv: Option<PathBuf>,
    /// A Parquet file
    #[arg(long, group = "file_source", value_name = "PATH")]
    pub(crate) parquet: Option<PathBuf>,
    /// A CSV or Parquet file, by its extension (.parquet / .pq, anything else CSV)
    #[arg(long, group = "file_source", value_name = "PATH")]
    pub(crate) file: Option<PathBuf>,
    /// The file's target column (required with a file)
    #[arg(long, value_name = "COLUMN", requires = "file_source")]
    pub(crate) target: Option<String>,
    /// Quantile bins for numeric columns that are not codes already
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub(crate) bins: u16,
    /// Treat every numeric column of a file as integer codes
    #[arg(long)]
    pub(crate) discrete: bool,
    /// Features to select
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) select: u64,
    /// mid or miq
    #[arg(long, default_value = "mid")]
    pub(crate) criterion: Criterion,
    /// Small sizes, one timing repetition
    #[arg(long)]
    pub(crate) quick: bool,
    /// Afterwards, run the same selection with every fixed histogram variant and
    /// compare them with the tuned dispatch
    #[arg(long)]
    pub(crate) compare: bool,
}

/// Where the data comes from.
pub(crate) enum Source {
    Synthetic { n: usize, p: usize, seed: u64 },
    Csv(PathBuf),
    Parquet(PathBuf),
}

impl Args {
    pub(crate) fn source(&self) -> Source {
        let by_extension = |path: &PathBuf| match path.extension().and_then(|e| e.to_str()) {
            Some("parquet" | "pq") => Source::Parquet(path.clone()),
            _ => Source::Csv(path.clone()),
        };
        match (&self.csv, &self.parquet, &self.file) {
            (Some(path), _, _) => Source::Csv(path.clone()),
            (_, Some(path), _) => Source::Parquet(path.clone()),
            (_, _, Some(path)) => by_extension(path),
            _ => Source::Synthetic {
                n: self.n.unwrap_or(if self.quick { 20_000 } else { 1_000_000 }) as usize,
                p: self.p as usize,
                seed: self.seed,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        super::Args::command().debug_assert();
    }
}
