//! How the calls a sweep or a verify times follow each other: the call pattern a
//! tuning fits.

use std::fmt;
use std::time::Duration;

/// How the timed calls of a sweep or a verify follow each other.
///
/// A parallel variant's cost depends on it. Called in a loop, its helper threads are
/// awake and it can beat a serial variant from a few thousand elements up. Called now
/// and then, each call finds them asleep: on the 2-vCPU development VM a woken thread
/// ran 1–7 ms late (`cargo run --release --example parallel_capacity`), and one
/// `discretize` call at 5 672 values × 8 bins after a 20 ms pause took 25–33 µs with
/// the loop-tuned `par_lookup/4` against 17–24 µs with serial `lookup`. A kernel called
/// now and then is tuned for that pattern with [`CallPattern::AfterPause`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CallPattern {
    /// Back to back: each timed sample is a batch of calls of one candidate, after a
    /// warm-up call, as timeit and criterion measure (a kernel in a hot loop).
    #[default]
    InALoop,
    /// Each timed sample is one call, made after the process sat idle this long (a
    /// kernel called now and then). Between [`CallPattern::MIN_PAUSE`] and
    /// [`CallPattern::MAX_PAUSE`].
    AfterPause(Duration),
}

impl CallPattern {
    /// The shortest pause: below it, a thread pool's workers may still be awake.
    pub const MIN_PAUSE: Duration = Duration::from_millis(1);
    /// The longest pause: each sample sleeps this long, so a sweep of a few thousand
    /// samples takes minutes already at a second.
    pub const MAX_PAUSE: Duration = Duration::from_secs(1);

    /// A pause given in milliseconds (a command line's or the environment's), or why
    /// it is refused; `0` is [`CallPattern::InALoop`].
    pub fn from_millis(ms: f64) -> Result<CallPattern, String> {
        if ms == 0.0 {
            return Ok(CallPattern::InALoop);
        }
        let min = CallPattern::MIN_PAUSE.as_secs_f64() * 1e3;
        let max = CallPattern::MAX_PAUSE.as_secs_f64() * 1e3;
        if ms.is_finite() && (min..=max).contains(&ms) {
            Ok(CallPattern::AfterPause(Duration::from_secs_f64(ms / 1e3)))
        } else {
            Err(format!("a pause is 0 (calls in a loop) or {min}–{max} ms, not {ms}"))
        }
    }

    /// The pattern an entry records (`after_pause_us`), clamped into the allowed range:
    /// a hostile entry cannot make a verify sleep for hours.
    pub fn recorded(after_pause_us: Option<u64>) -> CallPattern {
        match after_pause_us {
            None | Some(0) => CallPattern::InALoop,
            Some(us) => CallPattern::AfterPause(
                Duration::from_micros(us).clamp(CallPattern::MIN_PAUSE, CallPattern::MAX_PAUSE),
            ),
        }
    }

    /// What an entry records: the pause in microseconds, `None` in a loop.
    pub fn to_recorded(self) -> Option<u64> {
        match self {
            CallPattern::InALoop => None,
            CallPattern::AfterPause(pause) => Some(pause.as_micros().try_into().unwrap_or(u64::MAX)),
        }
    }

    /// The pause before each timed call, if any.
    pub fn pause(self) -> Option<Duration> {
        match self {
            CallPattern::InALoop => None,
            CallPattern::AfterPause(pause) => Some(pause),
        }
    }

    /// `KTC_SWEEP_AFTER_PAUSE_MS`, where it is set and valid (`0`: in a loop); `None`
    /// where it is unset or invalid (with a warning), so the kernel's declared pattern
    /// holds.
    pub(crate) fn from_env() -> Option<CallPattern> {
        let raw = std::env::var("KTC_SWEEP_AFTER_PAUSE_MS").ok()?;
        match raw.trim().parse::<f64>().map_err(|e| e.to_string()).and_then(CallPattern::from_millis) {
            Ok(pattern) => Some(pattern),
            Err(why) => {
                crate::warn::warn_once(format!(
                    "KTC_SWEEP_AFTER_PAUSE_MS={raw} ignored ({why}); calls are timed as the kernel declares"
                ));
                None
            }
        }
    }

    /// The pattern `#[tunable(after_pause_ms = ms)]` declares, evaluated where the
    /// macro puts it, in the kernel's `static` descriptor: a pause outside
    /// [`CallPattern::MIN_PAUSE`]..=[`CallPattern::MAX_PAUSE`] fails to compile there.
    #[doc(hidden)]
    pub const fn declared(ms: f64) -> CallPattern {
        let (min, max) =
            (CallPattern::MIN_PAUSE.as_millis() as f64, CallPattern::MAX_PAUSE.as_millis() as f64);
        assert!(ms >= min && ms <= max, "`after_pause_ms` takes a pause of 1 to 1000 ms");
        CallPattern::AfterPause(Duration::from_micros((ms * 1e3) as u64))
    }
}

impl fmt::Display for CallPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallPattern::InALoop => f.write_str("calls in a loop"),
            CallPattern::AfterPause(pause) => write!(f, "one call after each {} ms pause", millis(*pause)),
        }
    }
}

/// A pause in milliseconds, as short as it reads exactly (`20`, `2.5`).
pub(crate) fn millis(pause: Duration) -> String {
    let ms = pause.as_secs_f64() * 1e3;
    let text = format!("{ms:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_parse_within_the_range_and_zero_is_a_loop() {
        assert_eq!(CallPattern::from_millis(0.0), Ok(CallPattern::InALoop));
        assert_eq!(CallPattern::from_millis(20.0), Ok(CallPattern::AfterPause(Duration::from_millis(20))));
        assert_eq!(CallPattern::from_millis(2.5), Ok(CallPattern::AfterPause(Duration::from_micros(2_500))));
        // What `#[tunable(after_pause_ms = ...)]` compiles to, at the ends of its range.
        assert_eq!(CallPattern::declared(2.5), CallPattern::AfterPause(Duration::from_micros(2_500)));
        assert_eq!(CallPattern::declared(1.0), CallPattern::AfterPause(CallPattern::MIN_PAUSE));
        assert_eq!(CallPattern::declared(1000.0), CallPattern::AfterPause(CallPattern::MAX_PAUSE));
        for bad in [0.5, 1_001.0, -3.0, f64::NAN, f64::INFINITY] {
            assert!(CallPattern::from_millis(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_recorded_pause_reads_back_and_a_hostile_one_is_clamped() {
        let twenty = CallPattern::AfterPause(Duration::from_millis(20));
        assert_eq!(CallPattern::recorded(twenty.to_recorded()), twenty);
        assert_eq!(CallPattern::recorded(CallPattern::InALoop.to_recorded()), CallPattern::InALoop);
        assert_eq!(CallPattern::recorded(Some(0)), CallPattern::InALoop);
        assert_eq!(CallPattern::recorded(Some(u64::MAX)), CallPattern::AfterPause(CallPattern::MAX_PAUSE));
        assert_eq!(CallPattern::recorded(Some(3)), CallPattern::AfterPause(CallPattern::MIN_PAUSE));
    }

    #[test]
    fn the_pattern_reads_as_words() {
        assert_eq!(CallPattern::InALoop.to_string(), "calls in a loop");
        let pause = CallPattern::AfterPause(Duration::from_micros(2_500));
        assert_eq!(pause.to_string(), "one call after each 2.5 ms pause");
        assert_eq!(
            CallPattern::AfterPause(Duration::from_millis(20)).to_string(),
            "one call after each 20 ms pause"
        );
    }
}
