//! `ktc push`, `ktc pull` and `ktc remote ls`: share entries with a fleet through the
//! remote named by `--remote` or `KTC_REMOTE` (`s3://bucket/prefix`, `file:///path`).
//!
//! JSON shapes: push and pull print `{"transferred": [KEY], "already_present": [KEY],
//! "rejected": [{"key": KEY, "reason": TEXT}]}`; `remote ls` prints `{"entries": [KEY],
//! "other": [OBJECT]}`, a KEY being `fingerprint/kernel/code_version/name.json`.

use super::args::{RemoteArgs, RemoteCommand, SyncArgs};
use super::context::{Ctx, Failure};
use crate::remote::{self, RemoteBackend, RemoteUrl, SyncFilter, SyncReport};
use serde_json::json;
use std::fmt::Write;

/// Which way a transfer goes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Direction {
    Push,
    Pull,
}

pub(crate) fn sync(ctx: &Ctx, args: &SyncArgs, direction: Direction) -> Result<String, Failure> {
    let backend = open(args.remote.as_deref())?;
    let report = match direction {
        // A push offers every local fingerprint unless one was named.
        Direction::Push => remote::push(
            &ctx.cache,
            backend.as_ref(),
            &SyncFilter { fingerprint: ctx.fingerprint.clone(), kernel: args.kernel.clone() },
        ),
        // A pull takes this host's tunings (or the named fingerprint's).
        Direction::Pull => remote::pull(
            &ctx.cache,
            backend.as_ref(),
            &SyncFilter { kernel: args.kernel.clone(), ..SyncFilter::this_host(&ctx.cache) },
        ),
    }
    .map_err(|e| Failure::error(format!("{e}; check the remote's address, credentials and reachability")))?;
    let text = if ctx.json { report_json(&report) } else { format!("{}: {report}\n", backend.location()) };
    if report.rejected.is_empty() {
        Ok(text)
    } else {
        Err(Failure {
            code: 1,
            message: format!("{} entr(ies) rejected; see the reasons above", report.rejected.len()),
            output: text,
        })
    }
}

pub(crate) fn run(ctx: &Ctx, args: &RemoteArgs) -> Result<String, Failure> {
    match &args.command {
        RemoteCommand::Ls(a) => {
            let backend = open(a.remote.as_deref())?;
            let filter = SyncFilter { fingerprint: ctx.fingerprint.clone(), kernel: a.kernel.clone() };
            let list = remote::list_remote(backend.as_ref(), &filter)
                .map_err(|e| Failure::error(format!("{e}; check the remote's address and credentials")))?;
            if ctx.json {
                let entries: Vec<String> = list.entries.iter().map(ToString::to_string).collect();
                return Ok(Ctx::json_text(&json!({"entries": entries, "other": list.other})));
            }
            let mut out = format!("{}: {} entr(ies)\n", backend.location(), list.entries.len());
            for key in &list.entries {
                let _ = writeln!(out, "  {key}");
            }
            for other in &list.other {
                let _ = writeln!(out, "  not an entry: {other}");
            }
            Ok(out)
        }
    }
}

fn open(url: Option<&str>) -> Result<Box<dyn RemoteBackend>, Failure> {
    let opened = match url {
        Some(url) => RemoteUrl::parse(url).and_then(|u| remote::open(&u, remote::remote_timeout())).map(Some),
        None => remote::from_env(),
    };
    match opened {
        Ok(Some(backend)) => Ok(backend),
        Ok(None) => Err(Failure::usage(
            "no remote: pass --remote s3://BUCKET/PREFIX or file:///PATH, or set KTC_REMOTE",
        )),
        Err(e) => Err(Failure::usage(format!("{e}; a remote is s3://BUCKET/PREFIX or file:///PATH"))),
    }
}

fn report_json(report: &SyncReport) -> String {
    let rejected: Vec<_> =
        report.rejected.iter().map(|r| json!({"key": r.key, "reason": r.reason})).collect();
    Ctx::json_text(&json!({
        "transferred": report.transferred,
        "already_present": report.already_present,
        "rejected": rejected,
    }))
}
