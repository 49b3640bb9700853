//! The state folder (records, locks, catalog cache) and private, atomic file writes.
//!
//! Every file we write here is 0600 inside a 0700 folder (on Windows: under `%LOCALAPPDATA%`,
//! whose per-user ACL the files inherit; see [`crate::platform`]), written to a temporary file,
//! fsynced, renamed over the target and the folder fsynced, so a crash leaves either the old or
//! the new bytes, never a mix.
//!
//! Files in the state folder are never read or written through a symlink: they are opened
//! with `O_NOFOLLOW` (on Windows `FILE_FLAG_OPEN_REPARSE_POINT`; `open_state_file`,
//! `read_state_file`, `check_state_file`) and refused, with their path, unless they are a
//! regular file of this user (the owner check is Unix's: Windows has no uid).

use crate::env::STATE_DIR_ENV;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;

use thiserror::Error;

/// Why the state folder or a state file could not be used.
#[derive(Debug, Error)]
pub enum StateError {
    #[error("no home directory to keep state in; set {STATE_DIR_ENV}")]
    NoHome,
    #[error("state folder {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "state folder {path} is a symlink or not a folder; point {STATE_DIR_ENV} at a real folder you own"
    )]
    NotAFolder { path: PathBuf },
    #[error(
        "state folder {path} belongs to uid {owner}, not to you (uid {me}); its records and tokens would be another user's to read or replace. Point {STATE_DIR_ENV} at a folder you own"
    )]
    ForeignOwner { path: PathBuf, owner: u32, me: u32 },
    #[error(
        "{path} is a symlink or not a regular file; multi-cursor never reads or writes a state file through a link. Move it out of the state folder"
    )]
    NotAFile { path: PathBuf },
    #[error(
        "{path} belongs to uid {owner}, not to you (uid {me}); multi-cursor only uses state files of its own user. Move it out of the state folder"
    )]
    ForeignFile { path: PathBuf, owner: u32, me: u32 },
    #[error(
        "{path} has {links} names (hard links); multi-cursor never writes a state file that another name shares. Move it out of the state folder"
    )]
    Linked { path: PathBuf, links: u64 },
    #[error(
        "{path} is {size} bytes, more than the {limit} bytes multi-cursor reads from such a file; it was left untouched. Move it out of the state folder"
    )]
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> StateError + '_ {
    move |source| StateError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The state folder: `$MULTI_CURSOR_STATE_DIR`, else the platform state (or data) folder for
/// `multi-cursor`. Created 0700 when missing; a symlink is refused.
pub(crate) fn state_dir() -> Result<PathBuf, StateError> {
    let dir = state_dir_path()?;
    ensure_private_dir(&dir)?;
    Ok(dir)
}

/// Where `state_dir` is, without creating or changing it (`multi-cursor doctor` inspects it
/// as it is).
pub fn state_dir_path() -> Result<PathBuf, StateError> {
    Ok(
        match std::env::var_os(STATE_DIR_ENV).filter(|v| !v.is_empty()) {
            Some(dir) => PathBuf::from(dir),
            None => {
                let dirs = directories::ProjectDirs::from("", "", "multi-cursor")
                    .ok_or(StateError::NoHome)?;
                dirs.state_dir()
                    .unwrap_or_else(|| dirs.data_local_dir())
                    .to_path_buf()
            }
        },
    )
}

/// Creates `dir` (and parents) with mode 0700 when missing; refuses a symlink, a non-folder
/// and a folder owned by another user (checked before its mode is touched, so another user's
/// folder is never changed, even by root); tightens an existing folder of ours to 0700.
pub fn ensure_private_dir(dir: &Path) -> Result<(), StateError> {
    match fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() || !meta.is_dir() => {
            return Err(StateError::NotAFolder {
                path: dir.to_path_buf(),
            });
        }
        Ok(meta) => {
            if let Some((owner, me)) = crate::platform::foreign_owner(&meta) {
                return Err(StateError::ForeignOwner {
                    path: dir.to_path_buf(),
                    owner,
                    me,
                });
            }
            if !crate::platform::is_private(&meta) {
                crate::platform::make_dir_private(dir).map_err(io_err(dir))?;
            }
        }
        Err(_) => {
            crate::platform::create_private_dir(dir, true).map_err(io_err(dir))?;
        }
    }
    Ok(())
}

/// Opens the state file `path` with `options` (plus `O_NOFOLLOW`, and `O_NONBLOCK` so a FIFO
/// cannot hang us) and checks that it is a regular file of this user. A symlink is refused
/// without being followed; so is any other kind of file, or another user's.
pub(crate) fn open_state_file(
    path: &Path,
    options: &mut fs::OpenOptions,
) -> Result<fs::File, StateError> {
    let file = crate::platform::no_follow(options)
        .open(path)
        .map_err(|error| {
            if crate::platform::is_link_refusal(&error) {
                StateError::NotAFile {
                    path: path.to_path_buf(),
                }
            } else {
                StateError::Io {
                    path: path.to_path_buf(),
                    source: error,
                }
            }
        })?;
    let meta = file.metadata().map_err(io_err(path))?;
    if !meta.is_file() {
        return Err(StateError::NotAFile {
            path: path.to_path_buf(),
        });
    }
    if let Some((owner, me)) = crate::platform::foreign_owner(&meta) {
        return Err(StateError::ForeignFile {
            path: path.to_path_buf(),
            owner,
            me,
        });
    }
    Ok(file)
}

/// [`open_state_file`] for a file we write in place (a lock, the ledger): also refused when it
/// has another name (a hard link), whose file the write would change too.
pub(crate) fn open_state_file_to_write(
    path: &Path,
    options: &mut fs::OpenOptions,
) -> Result<fs::File, StateError> {
    let file = open_state_file(path, options)?;
    let links = crate::platform::link_count(&file).map_err(io_err(path))?;
    if links > 1 {
        return Err(StateError::Linked {
            path: path.to_path_buf(),
            links,
        });
    }
    Ok(file)
}

/// Checks, without following a link, that the state file `path` is a regular file of this
/// user of at most `limit` bytes; `Ok(None)` when there is none, else its size.
pub(crate) fn check_state_file(path: &Path, limit: u64) -> Result<Option<u64>, StateError> {
    let file = match open_state_file(path, fs::OpenOptions::new().read(true)) {
        Ok(file) => file,
        Err(StateError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            return Ok(None);
        }
        Err(error) => return Err(error),
    };
    let size = file.metadata().map_err(io_err(path))?.len();
    if size > limit {
        return Err(StateError::TooLarge {
            path: path.to_path_buf(),
            size,
            limit,
        });
    }
    Ok(Some(size))
}

/// The bytes of the state file `path` (see [`check_state_file`]), read from the descriptor
/// that was checked; `Ok(None)` when there is none.
pub(crate) fn read_state_file(path: &Path, limit: u64) -> Result<Option<Vec<u8>>, StateError> {
    use std::io::Read;
    let file = match open_state_file(path, fs::OpenOptions::new().read(true)) {
        Ok(file) => file,
        Err(StateError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            return Ok(None);
        }
        Err(error) => return Err(error),
    };
    let size = file.metadata().map_err(io_err(path))?.len();
    if size > limit {
        return Err(StateError::TooLarge {
            path: path.to_path_buf(),
            size,
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io_err(path))?;
    if bytes.len() as u64 > limit {
        return Err(StateError::TooLarge {
            path: path.to_path_buf(),
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(Some(bytes))
}

/// Why a file named by a repository or the user (a rule, a settings layer, a `--settings`
/// file) was not read. The messages complete "… cannot be used: ".
#[derive(Debug, Error)]
pub(crate) enum ReadError {
    /// A FIFO, socket, device (`/dev/zero`, `/dev/stdin`) or folder: reading it could block
    /// forever or never end.
    #[error("it is not a regular file")]
    NotRegular,
    /// Over the reader's limit.
    #[error("it is larger than {} KiB", .limit / 1024)]
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The operating system refused.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Reads `path` (links followed: a settings file may be a dotfile link) when it is a regular
/// file of at most `limit` bytes. The file is opened non-blocking (a FIFO's open would
/// otherwise wait for a writer) and never as a controlling terminal, checked on the open
/// descriptor (so what was checked is what is read), and the read stops one byte past the
/// limit (a file that grows while being read). The one reader for every file whose name a
/// repository or the user decides.
pub(crate) fn read_regular_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let file = crate::platform::no_block(fs::OpenOptions::new().read(true)).open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular);
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(bytes)
}

/// Writes `bytes` to `path` atomically with mode 0600: temp file in the same folder, fsync,
/// rename, folder fsync. The temp file is removed when any step fails. On Windows the rename
/// is tried again for up to a second while another process holds `path` open
/// ([`crate::platform::replace_file`]).
pub(crate) fn write_private_atomic(path: &Path, bytes: &[u8]) -> Result<(), StateError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(
        ".{name}.{}.{:016x}.tmp",
        std::process::id(),
        crate::random::u64()
    ));
    let result = (|| {
        // create_new never follows a link (O_EXCL), and the rename replaces a link at `path`
        // itself, never its target.
        let mut file = crate::platform::no_follow(crate::platform::private_file(
            fs::OpenOptions::new().write(true).create_new(true),
        ))
        .open(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        crate::platform::replace_file(&tmp, path)?;
        crate::platform::sync_dir(dir)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(io_err(path))
}

/// Now as RFC 3339 in UTC to the whole second (`2025-11-30T08:05:09Z`), for status and records.
pub(crate) fn now_rfc3339() -> String {
    rfc3339(jiff::Timestamp::now())
}

/// `at` as RFC 3339 in UTC, cut to the whole second: records have always been written without a
/// fraction.
fn rfc3339(at: jiff::Timestamp) -> String {
    jiff::Timestamp::from_second(at.as_second())
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::testing;

    #[test]
    fn atomic_write_is_private_and_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state");
        ensure_private_dir(&state).unwrap();
        let file = state.join("x.json");
        write_private_atomic(&file, b"one").unwrap();
        write_private_atomic(&file, b"two").unwrap();
        assert_eq!(fs::read(&file).unwrap(), b"two");
        match (testing::mode_of(&state), testing::mode_of(&file)) {
            (Some(dir), Some(file)) => assert_eq!((dir, file), (0o700, 0o600)),
            _ => eprintln!("modes not checked: this system has no permission bits"),
        }
        assert_eq!(
            fs::read_dir(&state).unwrap().count(),
            1,
            "no temp file left"
        );
    }

    #[test]
    fn symlinked_state_dir_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        fs::create_dir(&real).unwrap();
        let link = dir.path().join("link");
        testing::skip_unless!(testing::symlink_dir(&real, &link));
        assert!(matches!(
            ensure_private_dir(&link),
            Err(StateError::NotAFolder { .. })
        ));
    }

    #[test]
    fn foreign_owned_state_dir_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let foreign = dir.path().join("foreign");
        fs::create_dir(&foreign).unwrap();
        if let Err(reason) = testing::set_mode(&foreign, 0o755) {
            eprintln!("skipped: {reason}");
            return;
        }
        let owner = match testing::give_to_nobody(&foreign) {
            Ok(owner) => owner,
            Err(reason) => {
                eprintln!("skipped: {reason}");
                return;
            }
        };
        let refused = ensure_private_dir(&foreign);
        assert!(
            matches!(refused, Err(StateError::ForeignOwner { owner: o, .. }) if o == owner),
            "{refused:?}"
        );
        assert_eq!(
            testing::mode_of(&foreign),
            Some(0o755),
            "another user's folder was changed"
        );
    }

    #[test]
    fn state_files_are_never_followed() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        fs::write(&real, b"{}").unwrap();
        let link = dir.path().join("link.json");
        testing::skip_unless!(testing::symlink_file(&real, &link));
        let refused = read_state_file(&link, 1024);
        assert!(
            matches!(refused, Err(StateError::NotAFile { .. })),
            "{refused:?}"
        );
        assert!(refused.unwrap_err().to_string().contains("link.json"));
        assert!(matches!(
            check_state_file(dir.path(), 1024),
            Err(StateError::NotAFile { .. })
        ));
        assert_eq!(read_state_file(&real, 1024).unwrap().unwrap(), b"{}");
        assert_eq!(
            read_state_file(&dir.path().join("none"), 1024).unwrap(),
            None
        );
        assert!(matches!(
            read_state_file(&real, 1),
            Err(StateError::TooLarge {
                size: 2,
                limit: 1,
                ..
            })
        ));
        assert_eq!(check_state_file(&real, 2).unwrap(), Some(2));
    }

    #[test]
    fn calendar() {
        let at = |s, ns| jiff::Timestamp::new(s, ns).unwrap();
        assert_eq!(rfc3339(at(0, 0)), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(at(20_422 * 86_400, 0)), "2025-11-30T00:00:00Z");
        assert_eq!(
            rfc3339(at(20_422 * 86_400 + 8 * 3600 + 5 * 60 + 9, 999_999_999)),
            "2025-11-30T08:05:09Z"
        );
    }
}
