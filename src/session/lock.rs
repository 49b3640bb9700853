//! The OS file lock a gateway holds on `<record>.lock` while it owns an identity. The
//! operating system drops it when the process dies, so there is no stale-lock cleanup; the
//! file holds the owner's pid, for the message another gateway shows. The file is opened
//! without following a link and must be a regular file of this user: a lock that is a
//! symlink is refused, and its target is never written; so is one with a second name (a hard
//! link), whose other name the pid write would change.
//!
//! Windows locks are mandatory: while a gateway holds the lock, nobody else can read the file,
//! so there the pid is also kept in a sibling file, `<lock>.pid` ([`pid_file`]), which the busy
//! message and `doctor` read when the lock file itself says nothing.

use std::fs::File;
use std::fs::OpenOptions;
use std::fs::TryLockError;
use std::io::Read;
use std::path::Path;
use std::path::PathBuf;

use thiserror::Error;

/// Most bytes of a lock file read for its owner's pid (we write 21).
const MAX_LOCK_READ: u64 = 256;

/// Why a lock could not be taken.
#[derive(Debug, Error)]
pub enum LockError {
    #[error(
        "this Cursor session is in use by another multi-cursor gateway (pid {pid}); finish or close that Claude Code session first (lock {path})"
    )]
    Held { path: PathBuf, pid: String },
    #[error("could not open the session lock {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The lock file is a symlink, not a regular file, another user's, or has another name.
    #[error("the session lock cannot be used: {0}")]
    Refused(#[source] crate::state::StateError),
}

/// A held lock; dropping it releases the lock (the file stays).
#[derive(Debug)]
pub(crate) struct RecordLock {
    _file: File,
}

impl RecordLock {
    /// Takes the lock at `path` without waiting, writing our pid into it.
    pub(crate) fn acquire(path: &Path) -> Result<RecordLock, LockError> {
        let io = |source| LockError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = crate::state::open_state_file_to_write(
            path,
            crate::platform::private_file(
                OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create(true)
                    .truncate(false),
            ),
        )
        .map_err(|error| match error {
            crate::state::StateError::Io { source, .. } => io(source),
            refused => LockError::Refused(refused),
        })?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(LockError::Held {
                    path: path.to_path_buf(),
                    pid: holder_pid(&mut file, path)
                        .map_or_else(|| "unknown".to_string(), |pid| pid.to_string()),
                });
            }
            Err(TryLockError::Error(source)) => return Err(io(source)),
        }
        // The pid, padded to a fixed width and written in place: truncating the file to zero
        // and rewriting it makes ext4 flush it to disk (auto_da_alloc), ~4 ms per lock.
        let line = format!("{:<20}\n", std::process::id());
        crate::platform::write_all_at(&file, line.as_bytes(), 0).map_err(io)?;
        if file.metadata().map_err(io)?.len() != line.len() as u64 {
            file.set_len(line.len() as u64).map_err(io)?;
        }
        if crate::platform::LOCKS_ARE_MANDATORY {
            crate::state::write_private_atomic(&pid_file(path), line.as_bytes())
                .map_err(LockError::Refused)?;
        }
        Ok(RecordLock { _file: file })
    }
}

/// Where the pid of the lock `path`'s holder is also kept where locks are mandatory
/// (Windows): `<lock>.pid`.
pub(crate) fn pid_file(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".pid");
    PathBuf::from(name)
}

/// The holder's pid: from the locked `file` itself, else (a Windows lock cannot be read while
/// held) from its [`pid_file`].
fn holder_pid(file: &mut File, path: &Path) -> Option<u32> {
    let mut text = String::new();
    let _ = file.take(MAX_LOCK_READ).read_to_string(&mut text);
    first_number(&text).or_else(|| {
        let bytes = crate::state::read_state_file(&pid_file(path), MAX_LOCK_READ).ok()??;
        first_number(&String::from_utf8_lossy(&bytes))
    })
}

/// The first run of digits in a lock file's `text`: the owner's pid (padded, as we write it,
/// or inside another tool's JSON).
fn first_number(text: &str) -> Option<u32> {
    let start = text.find(|c: char| c.is_ascii_digit())?;
    let digits: String = text[start..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// A process holding a record's lock, found by [`holder`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Holder {
    /// The holder's pid, as its lock file says (`None` when the file does not say).
    pub pid: Option<u32>,
}

/// Whether some process holds the lock at `path` now (`Ok(None)`: nobody does). Probed with a
/// shared, non-blocking lock released at once; the file is only read, never created or
/// written, and never through a link. Used by `doctor`.
pub(crate) fn holder(path: &Path) -> std::io::Result<Option<Holder>> {
    let mut file =
        crate::state::open_state_file(path, OpenOptions::new().read(true)).map_err(|error| {
            match error {
                crate::state::StateError::Io { source, .. } => source,
                refused => std::io::Error::other(refused.to_string()),
            }
        })?;
    match file.try_lock_shared() {
        Ok(()) => {
            let _ = file.unlock();
            Ok(None)
        }
        Err(TryLockError::WouldBlock) => Ok(Some(Holder {
            pid: holder_pid(&mut file, path),
        })),
        Err(TryLockError::Error(error)) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_pids() {
        assert_eq!(first_number("4242                \n"), Some(4242));
        assert_eq!(first_number("{\"pid\":17}"), Some(17));
        assert_eq!(first_number(""), None);
    }

    #[test]
    fn a_symlinked_lock_is_refused_and_its_target_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, b"precious").unwrap();
        let path = dir.path().join("r.lock");
        crate::platform::testing::skip_unless!(crate::platform::testing::symlink_file(
            &victim, &path
        ));
        let refused = RecordLock::acquire(&path).unwrap_err();
        assert!(matches!(refused, LockError::Refused(_)), "{refused}");
        assert!(refused.to_string().contains("r.lock"), "{refused}");
        assert!(holder(&path).is_err());
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    }

    #[test]
    fn a_free_lock_has_no_holder_and_is_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.lock");
        assert!(holder(&path).is_err(), "no file: nothing to probe");
        std::fs::write(&path, b"").unwrap();
        assert_eq!(holder(&path).unwrap(), None);
        assert_eq!(std::fs::read(&path).unwrap(), b"", "probing never writes");
    }

    #[test]
    fn the_sibling_pid_names_the_holder_when_the_lock_says_nothing() {
        // What a held Windows lock looks like to another process: nothing readable in it.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.lock");
        std::fs::write(&path, b"").unwrap();
        let held = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        held.try_lock().unwrap();
        assert_eq!(holder(&path).unwrap(), Some(Holder { pid: None }));
        crate::state::write_private_atomic(&pid_file(&path), b"4242                \n").unwrap();
        assert_eq!(holder(&path).unwrap(), Some(Holder { pid: Some(4242) }));
        let refused = RecordLock::acquire(&path).unwrap_err();
        assert!(refused.to_string().contains("(pid 4242)"), "{refused}");
    }
}
