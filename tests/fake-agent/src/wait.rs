//! Waiting: durations as scenarios spell them, sleeping forever, and the lifetime safety net.

use std::thread;
use std::time::Duration;

use crate::config;
use crate::error::Error;

/// Exit code when `FAKE_AGENT_MAX_LIFETIME_MS` ends a run (the code `timeout(1)` uses).
pub(crate) const LIFETIME_EXIT_CODE: i32 = 124;

/// How long to wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wait {
    /// A fixed time.
    For(Duration),
    /// Until the process is killed.
    Forever,
}

impl Wait {
    /// Parses `forever`, or a duration (see [`parse_duration`]).
    pub(crate) fn parse(text: &str) -> Result<Self, Error> {
        if text.trim().eq_ignore_ascii_case("forever") {
            Ok(Self::Forever)
        } else {
            parse_duration(text).map(Self::For)
        }
    }

    /// Blocks for the wait.
    pub(crate) fn sleep(self) {
        match self {
            Self::For(duration) => thread::sleep(duration),
            Self::Forever => sleep_forever(),
        }
    }
}

/// Parses `250` or `250ms` (milliseconds) or `2s` (seconds).
pub(crate) fn parse_duration(text: &str) -> Result<Duration, Error> {
    let text = text.trim();
    let (digits, unit_ms) = if let Some(ms) = text.strip_suffix("ms") {
        (ms, 1)
    } else if let Some(seconds) = text.strip_suffix('s') {
        (seconds, 1000)
    } else {
        (text, 1)
    };
    let count: u64 = digits.trim().parse().map_err(|_| {
        Error::new(format!(
            "{text:?} is not a duration (write 250, 250ms, 2s or forever)"
        ))
    })?;
    Ok(Duration::from_millis(count.saturating_mul(unit_ms)))
}

/// Sleeps until the process is killed.
pub(crate) fn sleep_forever() -> ! {
    loop {
        thread::sleep(Duration::from_secs(3600));
    }
}

/// Starts the `FAKE_AGENT_MAX_LIFETIME_MS` watchdog, when set: after that long the process exits
/// with [`LIFETIME_EXIT_CODE`] whatever it is doing (ignored signals included).
pub(crate) fn start_lifetime_watchdog() -> Result<(), Error> {
    let Some(limit) = config::number(config::MAX_LIFETIME)? else {
        return Ok(());
    };
    thread::spawn(move || {
        thread::sleep(Duration::from_millis(limit));
        eprintln!("fake-agent: {} ({limit} ms) reached", config::MAX_LIFETIME);
        std::process::exit(LIFETIME_EXIT_CODE);
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("250").ok(), Some(Duration::from_millis(250)));
        assert_eq!(
            parse_duration("250ms").ok(),
            Some(Duration::from_millis(250))
        );
        assert_eq!(parse_duration("2s").ok(), Some(Duration::from_secs(2)));
        assert!(parse_duration("soon").is_err());
        assert_eq!(Wait::parse("Forever").ok(), Some(Wait::Forever));
    }
}
