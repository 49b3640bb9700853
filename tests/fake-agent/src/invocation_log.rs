//! The invocation log: one JSON line per run appended to `FAKE_AGENT_LOG`, so tests can assert
//! the exact call. Environment variable names are logged, never their values.
//!
//! The line is written under an exclusive file lock in a single write and flushed before the
//! fake does anything else, so concurrent runs never interleave and a run killed later is still
//! logged.

use std::env;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

use serde::Serialize;

use crate::cli::Invocation;
use crate::config;
use crate::error::Error;
use crate::sys;

/// One log line. Field order is the documented order.
#[derive(Serialize)]
struct Entry<'a> {
    /// Arguments after the program name.
    argv: &'a [String],
    /// Sorted names of all environment variables.
    env_keys: Vec<String>,
    /// Whether `CURSOR_API_KEY` is set (to anything).
    cursor_api_key_present: bool,
    /// Everything read from stdin (empty when stdin was not read).
    stdin: &'a str,
    /// This process's id.
    pid: u32,
    /// This process's process-group id.
    pgid: i32,
    /// The working directory.
    cwd: String,
    /// What the invocation was: `turn`, `models`, `status`, `login`, `version`, `help`, …
    kind: &'a str,
    /// The scenario file a turn replays (`null` for the default stream and non-turns).
    scenario: Option<String>,
    /// The workspace's `.cursor/cli.json` as the run found it (the permissions the real CLI
    /// reads when it starts), `null` when there is none.
    cursor_cli_json: Option<String>,
}

/// What a turn logs beyond the command line.
pub(crate) struct TurnDetails<'a> {
    /// Everything read from stdin.
    pub stdin: &'a str,
    /// The scenario file chosen, if any.
    pub scenario: Option<&'a Path>,
}

/// Logs a non-turn invocation (stdin is not read).
pub(crate) fn record_simple(invocation: &Invocation, kind: &str) -> Result<(), Error> {
    record(
        invocation,
        kind,
        &TurnDetails {
            stdin: "",
            scenario: None,
        },
    )
}

/// Appends the log line when `FAKE_AGENT_LOG` is set.
pub(crate) fn record(
    invocation: &Invocation,
    kind: &str,
    details: &TurnDetails<'_>,
) -> Result<(), Error> {
    let Some(path) = config::path(config::LOG) else {
        return Ok(());
    };
    let entry = Entry {
        argv: &invocation.argv,
        env_keys: env_keys(),
        cursor_api_key_present: env::var_os(config::CURSOR_API_KEY).is_some(),
        stdin: details.stdin,
        pid: std::process::id(),
        pgid: sys::process_group(),
        cwd: env::current_dir()
            .map(|dir| dir.to_string_lossy().into_owned())
            .unwrap_or_default(),
        kind,
        scenario: details
            .scenario
            .map(|path| path.to_string_lossy().into_owned()),
        cursor_cli_json: invocation
            .value("--workspace")
            .map(std::path::PathBuf::from)
            .or_else(|| env::current_dir().ok())
            .and_then(|dir| std::fs::read_to_string(dir.join(".cursor").join("cli.json")).ok()),
    };
    let mut line = serde_json::to_vec(&entry)
        .map_err(|error| Error::new(format!("encoding the log line: {error}")))?;
    line.push(b'\n');
    append_locked(&path, &line)
}

/// Sorted, de-duplicated names of the environment variables.
fn env_keys() -> Vec<String> {
    let mut keys: Vec<String> = env::vars_os()
        .map(|(key, _)| key.to_string_lossy().into_owned())
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

/// Appends `bytes` to `path` in one write while holding an exclusive lock on the file.
pub(crate) fn append_locked(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|error| Error::io("opening", path, &error))?;
    file.lock()
        .map_err(|error| Error::io("locking", path, &error))?;
    file.write_all(bytes)
        .and_then(|()| file.flush())
        .map_err(|error| Error::io("appending to", path, &error))
}
