//! Warnings through the `log` facade, each distinct one at most once per process.
//!
//! A dispatcher that falls back warns on its first call only; a store that skips a bad
//! file names it once, however often it is read. Never on a hot path: the set is behind
//! a mutex.

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

static SEEN: OnceLock<Mutex<HashSet<String>>> = OnceLock::new();

/// Logs `message` at warn level unless the same message was logged before in this
/// process. Returns whether it was logged now.
///
/// Without a logger installed the `log` facade drops the record, so the message is
/// also written to stderr, prefixed `ktc warning:`, unless `KTC_QUIET=1`.
pub fn warn_once(message: impl Into<String>) -> bool {
    let message = message.into();
    let seen = SEEN.get_or_init(Default::default);
    let first = match seen.lock() {
        Ok(mut set) => set.insert(message.clone()),
        // A panic while holding the lock only loses dedup, never the warning.
        Err(poisoned) => poisoned.into_inner().insert(message.clone()),
    };
    if first {
        log::warn!(target: "ktc", "{message}");
        if log::max_level() < log::LevelFilter::Warn && std::env::var_os("KTC_QUIET").is_none_or(|v| v != "1")
        {
            eprintln!("ktc warning: {message}");
        }
    }
    first
}
