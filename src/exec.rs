//! Finding executables: the PATH search and the "is it runnable" test shared by everything
//! that looks for a program (Cursor's agent, Claude Code, the doctor's checks).

use std::ffi::OsStr;
use std::path::Path;
use std::path::PathBuf;

/// The first runnable `name` in the folders of `path_var` (a PATH value).
pub(crate) fn search_path(name: &OsStr, path_var: Option<&OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path_var?)
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

/// A regular file with an execute bit.
pub(crate) fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// A user-configured program: a path (anything with a folder in it) that must be runnable, or
/// a bare name looked up on `path_var`.
pub(crate) fn resolve_configured(configured: &OsStr, path_var: Option<&OsStr>) -> Option<PathBuf> {
    let candidate = PathBuf::from(configured);
    if candidate.components().count() > 1 {
        is_executable(&candidate).then_some(candidate)
    } else {
        search_path(configured, path_var)
    }
}

/// An executable's identity for a cache of what it said: its canonical path, modification
/// time (ns) and size; `None` when it cannot be read.
pub fn fingerprint(path: &Path) -> Option<(String, i128, u64)> {
    use std::os::unix::fs::MetadataExt;
    let canonical = std::fs::canonicalize(path).ok()?;
    let meta = std::fs::metadata(&canonical).ok()?;
    let mtime_ns = i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec());
    Some((
        canonical.to_string_lossy().into_owned(),
        mtime_ns,
        meta.size(),
    ))
}
