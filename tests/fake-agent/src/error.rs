//! The fake's own failure: misuse (bad scenario, bad environment) or an I/O error it cannot
//! continue after. Both end the run with [`MISUSE_EXIT_CODE`] and a `fake-agent: …` line.

use std::fmt;
use std::io;
use std::path::Path;

/// Exit code of a run that failed because the fake was misused or broke, never one a scenario
/// chose.
pub(crate) const MISUSE_EXIT_CODE: i32 = 2;

/// A failure of the fake itself, with a message that names what to fix.
#[derive(Debug)]
pub(crate) struct Error(String);

impl Error {
    /// An error with the given message.
    pub(crate) fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }

    /// Wraps an I/O error on `path` with what was being done (`"reading"`, `"writing"`, …).
    pub(crate) fn io(action: &str, path: &Path, source: &io::Error) -> Self {
        Self(format!("{action} {}: {source}", path.display()))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}
