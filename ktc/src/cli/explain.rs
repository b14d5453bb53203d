//! `ktc explain KERNEL --axis NAME=VALUE ...`: the region and variant a call takes and
//! why. For a linked kernel this is the dispatcher's own [`Dispatch::explain`]; for
//! another, the current entry's first region containing the values.

use super::args::ExplainArgs;
use super::context::{Ctx, Failure};
use crate::{AxisKind, AxisValue, ChoiceSource, Dispatch};
use serde_json::{Value, json};

/// What `explain` reports, in both output forms.
struct Explained {
    variant: Option<String>,
    block_size: Option<usize>,
    region: Option<(usize, String)>,
    entry: Option<std::path::PathBuf>,
    reason: Option<String>,
}

pub(crate) fn run(ctx: &Ctx, args: &ExplainArgs) -> Result<String, Failure> {
    let explained = match ctx.kernel(&args.kernel) {
        Some(tuner) => {
            let names: Vec<(&str, AxisKind)> = tuner.axes.iter().map(|a| (a.name, a.kind)).collect();
            let values = axis_values(&args.kernel, &names, &args.axes)?;
            let choice = Dispatch::load_from(tuner, &ctx.cache).explain(&values);
            let (region, entry, reason) = match choice.source {
                ChoiceSource::Region { entry, index, region } => (Some((index, region)), Some(entry), None),
                ChoiceSource::Fallback { reason } => (None, None, Some(reason)),
            };
            Explained {
                variant: Some(choice.variant.into()),
                block_size: choice.block_size,
                region,
                entry,
                reason,
            }
        }
        None => from_store(ctx, args)?,
    };
    Ok(render(ctx, &args.kernel, &explained))
}

fn from_store(ctx: &Ctx, args: &ExplainArgs) -> Result<Explained, Failure> {
    let (path, entry) = match super::status::current_entry(ctx, &args.kernel) {
        Ok(found) => found,
        Err(failure) => {
            return Ok(Explained {
                variant: None,
                block_size: None,
                region: None,
                entry: None,
                reason: Some(format!(
                    "{}; the dispatcher would use the kernel's fallback variant",
                    failure.message
                )),
            });
        }
    };
    let names: Vec<(&str, AxisKind)> = entry.axes.iter().map(|a| (a.name.as_str(), a.kind)).collect();
    let values = axis_values(&args.kernel, &names, &args.axes)?;
    let query: Vec<(&str, AxisValue<'_>)> = names.iter().map(|(n, _)| *n).zip(values).collect();
    let table = entry.table();
    Ok(match table.lookup(&query) {
        Some((index, region)) => Explained {
            variant: Some(region.variant.clone()),
            block_size: region.block_size,
            region: Some((index, region.to_string())),
            entry: Some(path),
            reason: None,
        },
        None => Explained {
            variant: None,
            block_size: None,
            region: None,
            entry: Some(path),
            reason: Some("no region contains these values (the table has no catch-all)".into()),
        },
    })
}

/// The values of `given`, in the order of `axes`; every axis needed, no other allowed.
fn axis_values<'a>(
    kernel: &str,
    axes: &[(&str, AxisKind)],
    given: &'a [(String, String)],
) -> Result<Vec<AxisValue<'a>>, Failure> {
    let expected: Vec<String> = axes.iter().map(|(n, _)| format!("--axis {n}=VALUE")).collect();
    if let Some((name, _)) = given.iter().find(|(name, _)| !axes.iter().any(|(n, _)| n == name)) {
        return Err(Failure::usage(format!("`{kernel}` has no axis `{name}`; give {}", expected.join(" "))));
    }
    axes.iter()
        .map(|(name, kind)| {
            let Some((_, raw)) = given.iter().rev().find(|(n, _)| n == name) else {
                return Err(Failure::usage(format!("missing axis `{name}`; give {}", expected.join(" "))));
            };
            match kind {
                AxisKind::Categorical => Ok(AxisValue::Cat(raw.as_str())),
                AxisKind::Numeric => parse_number(raw).ok_or_else(|| {
                    Failure::usage(format!("axis `{name}`: `{raw}` is not a number (e.g. {name}=1000000)"))
                }),
            }
        })
        .collect()
}

fn parse_number(raw: &str) -> Option<AxisValue<'static>> {
    let digits = raw.replace('_', "");
    if let Ok(v) = digits.parse::<u64>() {
        return Some(AxisValue::Int(v));
    }
    digits.parse::<f64>().ok().filter(|v| v.is_finite()).map(AxisValue::Num)
}

fn render(ctx: &Ctx, kernel: &str, e: &Explained) -> String {
    if ctx.json {
        return Ctx::json_text(&json!({
            "kernel": kernel,
            "fingerprint": ctx.cache.fingerprint(),
            "variant": e.variant,
            "block_size": e.block_size,
            "source": if e.region.is_some() { "region" } else { "fallback" },
            "region_index": e.region.as_ref().map(|(i, _)| *i),
            "region": e.region.as_ref().map(|(_, r)| Value::from(r.as_str())),
            "entry": e.entry,
            "reason": e.reason,
        }));
    }
    let variant = e.variant.as_deref().unwrap_or("its fallback variant");
    let block = e.block_size.map(|b| format!(", block {b}")).unwrap_or_default();
    let mut out = format!("{kernel} → {variant}{block}\n");
    if let Some((index, region)) = &e.region {
        out.push_str(&format!("  because region {index} matches: {region}\n"));
    }
    if let Some(reason) = &e.reason {
        out.push_str(&format!("  fallback: {reason}\n"));
    }
    if let Some(entry) = &e.entry {
        out.push_str(&format!("  entry: {}\n", entry.display()));
    }
    out
}
