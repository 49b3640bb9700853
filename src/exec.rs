//! Finding executables: the PATH search and the "is it runnable" test shared by everything
//! that looks for a program (Cursor's agent, Claude Code, the doctor's checks).

use std::ffi::OsStr;
use std::path::Path;
use std::path::PathBuf;

/// The first runnable `name` in the folders of `path_var` (a PATH value); on Windows as
/// `name.exe`, then `name.cmd` (Cursor's and npm's shims, see [`crate::platform::windows_entry`]).
pub(crate) fn search_path(name: &OsStr, path_var: Option<&OsStr>) -> Option<PathBuf> {
    let names = crate::platform::executable_names(name);
    std::env::split_paths(path_var?)
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|p| is_executable(p))
}

/// The first runnable `name` in `dirs` (with this system's executable names, as
/// [`search_path`]): the folders an installer puts a program in when it is not on PATH
/// ([`crate::platform::places`]).
pub(crate) fn search_dirs(name: &OsStr, dirs: &[PathBuf]) -> Option<PathBuf> {
    let joined = std::env::join_paths(dirs).ok()?;
    search_path(name, Some(&joined))
}

/// A regular file with an execute bit (on Windows, any regular file: the name's extension
/// decides what runs).
pub(crate) fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| crate::platform::is_executable(&m))
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
fn fingerprint(path: &Path) -> Option<(String, i128, u64)> {
    let canonical = std::fs::canonicalize(path).ok()?;
    let meta = std::fs::metadata(&canonical).ok()?;
    let mtime_ns = match meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH) {
        Ok(after) => i128::try_from(after.as_nanos()).ok()?,
        Err(before) => -i128::try_from(before.duration().as_nanos()).ok()?,
    };
    Some((
        canonical.to_string_lossy().into_owned(),
        mtime_ns,
        meta.len(),
    ))
}

/// What executables said (`claude --version`, `agent --help`, …), remembered in a state file
/// while each is unchanged: same canonical path, modification time and size. The file is
/// `{"version":1,"entries":{"<canonical path>":{"mtimeNs":…,"size":…,<the answer's fields>}}}`;
/// one that is a link, not ours, oddly large or of another shape is ignored and replaced.
pub(crate) struct AnswerCache<T> {
    file: PathBuf,
    limit: usize,
    cache: CacheFile<T>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct CacheFile<T> {
    version: u32,
    entries: std::collections::BTreeMap<String, CacheEntry<T>>,
}

#[derive(Clone, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct CacheEntry<T> {
    mtime_ns: i128,
    size: u64,
    #[serde(flatten)]
    answer: T,
}

impl<T: Clone + serde::Serialize + serde::de::DeserializeOwned> AnswerCache<T> {
    /// The cache in `file`, keeping at most `limit` executables (all are forgotten beyond).
    pub(crate) fn open(file: PathBuf, limit: usize) -> AnswerCache<T> {
        let cache = crate::state::read_state_file(&file, 1024 * 1024)
            .ok()
            .flatten()
            .and_then(|bytes| serde_json::from_slice::<CacheFile<T>>(&bytes).ok())
            .filter(|c| c.version == 1)
            .unwrap_or(CacheFile {
                version: 1,
                entries: std::collections::BTreeMap::new(),
            });
        AnswerCache { file, limit, cache }
    }

    /// The answer remembered for `executable` as it is now.
    pub(crate) fn get(&self, executable: &Path) -> Option<T> {
        let (path, mtime_ns, size) = fingerprint(executable)?;
        let entry = self.cache.entries.get(&path)?;
        (entry.mtime_ns == mtime_ns && entry.size == size).then(|| entry.answer.clone())
    }

    /// Forgets the answer for `executable` (a run showed it wrong) and writes the file.
    pub(crate) fn forget(&mut self, executable: &Path) {
        let Ok(canonical) = std::fs::canonicalize(executable) else {
            return;
        };
        if self
            .cache
            .entries
            .remove(&*canonical.to_string_lossy())
            .is_some()
        {
            self.write();
        }
    }

    fn write(&self) {
        let stored = serde_json::to_vec_pretty(&self.cache)
            .map_err(std::io::Error::other)
            .and_then(|bytes| {
                crate::state::write_private_atomic(&self.file, &bytes)
                    .map_err(std::io::Error::other)
            });
        if let Err(error) = stored {
            tracing::warn!(%error, file = %self.file.display(), "could not remember an executable's answer");
        }
    }

    /// Remembers `answer` for `executable` and writes the file (0600, atomically); a failure
    /// to write is logged, never an error: the answer is only asked again next time.
    pub(crate) fn put(&mut self, executable: &Path, answer: T) {
        let Some((path, mtime_ns, size)) = fingerprint(executable) else {
            return;
        };
        if self.cache.entries.len() >= self.limit && !self.cache.entries.contains_key(&path) {
            self.cache.entries.clear();
        }
        self.cache.entries.insert(
            path,
            CacheEntry {
                mtime_ns,
                size,
                answer,
            },
        );
        self.write();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_places_are_searched_with_this_systems_names() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        let dirs = crate::platform::places::claude_install_dirs(home);
        assert_eq!(search_dirs(OsStr::new("claude"), &dirs), None);
        let file = crate::platform::executable_names(OsStr::new("claude"))
            .into_iter()
            .next()
            .unwrap();
        let local = home.join(".claude").join("local");
        std::fs::create_dir_all(&local).unwrap();
        std::fs::write(local.join(&file), "").unwrap();
        let _ = crate::platform::testing::set_mode(&local.join(&file), 0o755);
        assert_eq!(
            search_dirs(OsStr::new("claude"), &dirs),
            Some(local.join(file))
        );
        assert!(crate::platform::places::agent_install_dirs(home)[0].starts_with(home));
    }
}
