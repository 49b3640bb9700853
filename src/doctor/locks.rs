//! Doctor's state checks: the state folder private (0700) and writable, and no session record
//! locked by a running gateway.

use std::path::Path;
use std::path::PathBuf;

use super::Check;
use crate::session::store::SESSIONS_DIR;
use crate::state;

pub(super) fn check_state_folder() -> Check {
    const NAME: &str = "State folder";
    let dir = match state::state_dir_path() {
        Ok(dir) => dir,
        Err(error) => {
            return Check::fail(
                NAME,
                error.to_string(),
                format!("set {} to a folder you own", crate::env::STATE_DIR_ENV),
            );
        }
    };
    let existed = match std::fs::symlink_metadata(&dir) {
        Ok(meta) if meta.file_type().is_symlink() || !meta.is_dir() => {
            return Check::fail(
                NAME,
                format!("{} is a symlink or not a folder", dir.display()),
                format!(
                    "point {} at a real folder you own, or remove {}",
                    crate::env::STATE_DIR_ENV,
                    dir.display()
                ),
            );
        }
        Ok(meta) => {
            if let Some(mode) = crate::platform::mode(&meta).map(|mode| mode & 0o777)
                && mode != 0o700
            {
                return Check::fail(
                    NAME,
                    format!(
                        "{} has mode {mode:04o}; records and tokens need 0700",
                        dir.display()
                    ),
                    format!("chmod 700 '{}'", dir.display()),
                );
            }
            true
        }
        Err(_) => false,
    };
    let probe = dir.join(format!(".doctor-probe.{}", std::process::id()));
    let written = state::ensure_private_dir(&dir)
        .and_then(|()| state::write_private_atomic(&probe, b"multi-cursor doctor"));
    let _ = std::fs::remove_file(&probe);
    match written {
        Ok(()) if existed => Check::pass(
            NAME,
            format!(
                "{} ({}, writable)",
                dir.display(),
                crate::platform::PRIVATE_DIR
            ),
        ),
        Ok(()) => Check::pass(
            NAME,
            format!(
                "{} (created, {}, writable)",
                dir.display(),
                crate::platform::PRIVATE_DIR
            ),
        ),
        Err(error) => Check::fail(
            NAME,
            format!("cannot write in {}: {error}", dir.display()),
            format!(
                "make {} writable by you, or set {} to a folder you own",
                dir.display(),
                crate::env::STATE_DIR_ENV
            ),
        ),
    }
}

/// A session record's lock currently held by a running process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HeldLock {
    /// The `<record>.lock` file.
    pub path: PathBuf,
    /// The owner's pid, as written in the lock file.
    pub pid: Option<u32>,
}

/// The `*.lock` files in `sessions` that some process holds right now (an OS lock, as a
/// gateway holds one while it owns a Claude session). Each is probed with a shared,
/// non-blocking lock that is released at once.
pub(crate) fn held_session_locks(sessions: &Path) -> std::io::Result<Vec<HeldLock>> {
    let entries = match std::fs::read_dir(sessions) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(error),
    };
    let mut held = Vec::new();
    for entry in entries {
        let path = entry?.path();
        if path.extension().is_none_or(|e| e != "lock") {
            continue;
        }
        if let Ok(Some(holder)) = crate::session::lock::holder(&path) {
            held.push(HeldLock {
                path,
                pid: holder.pid,
            });
        }
    }
    held.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(held)
}

pub(super) fn check_session_locks() -> Check {
    const NAME: &str = "Session locks";
    let Ok(dir) = state::state_dir_path() else {
        return Check::fail(
            NAME,
            "no state folder",
            format!("set {}", crate::env::STATE_DIR_ENV),
        );
    };
    let sessions = dir.join(SESSIONS_DIR);
    match held_session_locks(&sessions) {
        Ok(held) if held.is_empty() => Check::pass(NAME, "no session record is locked"),
        Ok(held) => {
            let described: Vec<String> = held
                .iter()
                .map(|lock| match lock.pid {
                    Some(pid) => format!(
                        "{} held by pid {pid}{}",
                        lock.path.display(),
                        crate::cursor::process::command_line(pid)
                            .map(|c| format!(" ({c})"))
                            .unwrap_or_default()
                    ),
                    None => format!(
                        "{} held by a process that wrote no pid",
                        lock.path.display()
                    ),
                })
                .collect();
            let pids: Vec<String> = held
                .iter()
                .filter_map(|l| l.pid.map(|p| p.to_string()))
                .collect();
            Check::fail(
                NAME,
                described.join("; "),
                format!(
                    "a running multi-cursor gateway owns {}; finish that Claude Code session first{}",
                    if held.len() == 1 {
                        "that session"
                    } else {
                        "those sessions"
                    },
                    if pids.is_empty() {
                        String::new()
                    } else {
                        format!(", or end it with `kill {}` if it is stuck", pids.join(" "))
                    }
                ),
            )
        }
        Err(error) => Check::fail(
            NAME,
            format!("cannot read {}: {error}", sessions.display()),
            format!("make {} readable by you", sessions.display()),
        ),
    }
}
