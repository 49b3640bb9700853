//! Which scenario a turn replays: `FAKE_AGENT_SCENARIO` as a file, or — when it names a
//! directory — the k-th file of that directory in sorted name order, k counted across runs in a
//! counter file (the last file repeats once the sequence is exhausted).
//!
//! The counter file gains one byte per counted run under an exclusive lock, so concurrent runs
//! each get their own k.

use std::fs;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;

use crate::config;
use crate::error::Error;

/// The scenario file this turn replays, or `None` for the default stream.
pub(crate) fn scenario() -> Result<Option<PathBuf>, Error> {
    let Some(path) = config::path(config::SCENARIO) else {
        return Ok(None);
    };
    if !path.is_dir() {
        return Ok(Some(path));
    }
    let files = sequence_files(&path)?;
    let index = next_index(&counter_path()?)?;
    let chosen = usize::try_from(index)
        .ok()
        .and_then(|index| files.get(index))
        .or(files.last())
        .cloned();
    Ok(chosen)
}

/// The regular files of `dir` (hidden files skipped), sorted by name.
fn sequence_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let entries = fs::read_dir(dir).map_err(|error| Error::io("listing", dir, &error))?;
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|error| Error::io("listing", dir, &error))?;
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        if !hidden && entry.path().is_file() {
            files.push(entry.path());
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(Error::new(format!(
            "{} names the directory {}, which holds no scenario files",
            config::SCENARIO,
            dir.display()
        )));
    }
    Ok(files)
}

/// The counter file: `FAKE_AGENT_COUNTER`, else `<FAKE_AGENT_LOG>.count`.
fn counter_path() -> Result<PathBuf, Error> {
    if let Some(path) = config::path(config::COUNTER) {
        return Ok(path);
    }
    if let Some(log) = config::path(config::LOG) {
        let mut path = log.into_os_string();
        path.push(".count");
        return Ok(PathBuf::from(path));
    }
    Err(Error::new(format!(
        "{} names a directory; set {} or {} so runs can be counted",
        config::SCENARIO,
        config::COUNTER,
        config::LOG
    )))
}

/// Counts this run: returns how many runs were counted before it (0 for the first).
fn next_index(path: &Path) -> Result<u64, Error> {
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|error| Error::io("opening counter", path, &error))?;
    file.lock()
        .map_err(|error| Error::io("locking counter", path, &error))?;
    let before = file
        .metadata()
        .map_err(|error| Error::io("reading counter", path, &error))?
        .len();
    file.write_all(b"\n")
        .map_err(|error| Error::io("writing counter", path, &error))?;
    Ok(before)
}
