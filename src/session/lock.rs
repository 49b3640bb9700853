//! The OS file lock a gateway holds on `<record>.lock` while it owns an identity (DESIGN §6).
//! The operating system drops it when the process dies, so there is no stale-lock cleanup; the
//! file holds the owner's pid, for the message another gateway shows.

use std::fs::File;
use std::fs::OpenOptions;
use std::fs::TryLockError;
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::path::PathBuf;

use thiserror::Error;

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
}

/// A held lock; dropping it releases the lock (the file stays).
#[derive(Debug)]
pub struct RecordLock {
    path: PathBuf,
    _file: File,
}

impl RecordLock {
    /// Takes the lock at `path` without waiting, writing our pid into it.
    pub fn acquire(path: &Path) -> Result<RecordLock, LockError> {
        let io = |source| LockError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut pid = String::new();
                let _ = file.read_to_string(&mut pid);
                let pid = pid.trim();
                return Err(LockError::Held {
                    path: path.to_path_buf(),
                    pid: if pid.is_empty() {
                        "unknown".to_string()
                    } else {
                        pid.to_string()
                    },
                });
            }
            Err(TryLockError::Error(source)) => return Err(io(source)),
        }
        // The pid, padded to a fixed width and written in place: truncating the file to zero
        // and rewriting it makes ext4 flush it to disk (auto_da_alloc), ~4 ms per lock.
        let line = format!("{:<20}\n", std::process::id());
        file.write_all_at(line.as_bytes(), 0).map_err(io)?;
        if file.metadata().map_err(io)?.len() != line.len() as u64 {
            file.set_len(line.len() as u64).map_err(io)?;
        }
        Ok(RecordLock {
            path: path.to_path_buf(),
            _file: file,
        })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Whether some process holds the lock at `path` now, and its pid if so. Used by `doctor` and
/// tests; takes and drops the lock when it is free.
pub fn holder(path: &Path) -> Option<String> {
    match RecordLock::acquire(path) {
        Err(LockError::Held { pid, .. }) => Some(pid),
        _ => None,
    }
}
