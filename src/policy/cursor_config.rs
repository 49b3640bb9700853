//! Cursor's own permission configuration, read to see which Claude rules Cursor already
//! enforces and whether it would widen plan or dontAsk. Only `permissions` may be set at
//! project level; the global file also has `approvalMode` (`allowlist`, `auto-review`,
//! `unrestricted`). Deny beats allow.
//!
//! Global: `$CURSOR_CONFIG_DIR/cli-config.json`, else `$XDG_CONFIG_HOME/cursor/cli-config.json`
//! (Linux/BSD, when that variable is set), else `~/.cursor/cli-config.json`. Project:
//! `<workspace>/.cursor/cli.json` (permissions only). The Cursor child inherits the gateway's
//! environment, so these are the files it reads.
//!
//! The global file also holds Cursor's login (`authInfo`): only `permissions` and
//! `approvalMode` are deserialised, and nothing from the file is logged or echoed.
//!
//! Cursor rewrites the global file on every `--model` run, so a read can land on a file half
//! written: a file that is not valid JSON is read again for up to [`SETTLE_TIME`] before it is
//! reported broken (never taken as empty: it may hold deny rules). The one write this crate
//! makes to it is [`ModelPutBack`]: after a run, the two model fields Cursor changed go back to
//! what they were, and nothing else is touched.

use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;
use std::time::Instant;

use super::settings::PolicyInputs;
use crate::cursor::process::AfterEnd;
use crate::platform::paths::joined;

pub(crate) mod allow_entry;
pub(crate) mod model_put_back;

pub(crate) use allow_entry::AllowEntry;

pub(crate) use model_put_back::ModelPutBack;
pub(crate) use model_put_back::replace_if_unchanged;

/// Largest Cursor config file read.
const MAX_CONFIG_BYTES: u64 = 4 * 1024 * 1024;

/// How long a config file that does not parse is read again before it is reported broken:
/// Cursor may be rewriting it (it does on every `--model` run).
pub(crate) const SETTLE_TIME: Duration = Duration::from_millis(500);

/// Pause between two reads of a file that did not parse.
const SETTLE_STEP: Duration = Duration::from_millis(25);

/// What one Cursor config file says about permissions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CursorConfig {
    /// The file.
    pub path: PathBuf,
    /// `permissions.allow` (string entries).
    pub allow: Vec<String>,
    /// `permissions.deny` (string entries).
    pub deny: Vec<String>,
    /// `approvalMode`, when a string.
    pub approval_mode: Option<String>,
}

/// A Cursor config file that exists but was not usable: Cursor itself replaces an invalid file
/// (backing it up as `.bad`), so its rules cannot be counted on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BrokenConfig {
    /// The file.
    pub path: PathBuf,
    /// Why (never the file's content).
    pub reason: String,
}

/// Cursor's global config file for these inputs.
pub(crate) fn global_path(inputs: &PolicyInputs) -> Option<PathBuf> {
    if let Some(dir) = &inputs.cursor_config_dir {
        return Some(dir.join("cli-config.json"));
    }
    if cfg!(all(unix, not(target_os = "macos")))
        && let Some(xdg) = &inputs.xdg_config_home
    {
        return Some(joined(xdg, "cursor/cli-config.json"));
    }
    inputs
        .home
        .as_ref()
        .map(|h| joined(h, ".cursor/cli-config.json"))
}

/// A number that changes when Cursor's stored login does: the `authInfo` member of the global
/// config (where the CLI keeps its credentials since 2026.06), and the size and time of the
/// older builds' `$XDG_CONFIG_HOME/cursor/auth.json` (`~/.config/cursor/auth.json`). Never the
/// credentials themselves: only their hash leaves this function. The model fields Cursor
/// rewrites on every run do not change it. Blocking (two small reads).
pub(crate) fn login_fingerprint(inputs: &PolicyInputs) -> u64 {
    use std::hash::Hash;
    use std::hash::Hasher;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    if let Some(path) = global_path(inputs) {
        // No file and a file without `authInfo` are the same login: none.
        let login: Option<String> = match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_file() && meta.len() <= MAX_CONFIG_BYTES => {
                let bytes = std::fs::read(&path).unwrap_or_default();
                match serde_json::from_slice::<serde_json::Value>(&bytes) {
                    Ok(value) => value.get("authInfo").map(ToString::to_string),
                    // Being rewritten, or broken: its bytes stand for the login.
                    Err(_) => Some(String::from_utf8_lossy(&bytes).into_owned()),
                }
            }
            Ok(meta) => Some(format!("{} {:?}", meta.len(), meta.modified().ok())),
            Err(_) => None,
        };
        login.hash(&mut hasher);
    }
    let config_home = inputs
        .xdg_config_home
        .clone()
        .or_else(|| inputs.home.as_ref().map(|h| h.join(".config")));
    if let Some(dir) = config_home {
        let meta = std::fs::metadata(joined(&dir, "cursor/auth.json")).ok();
        meta.map(|m| (m.len(), m.modified().ok())).hash(&mut hasher);
    }
    hasher.finish()
}

/// The file whose default model every `--model` run rewrites: a turn takes a
/// [`ModelPutBack`] on it just before the agent is spawned and finishes it once the run's
/// process group has ended. `None` when no global config path can be named (no home, no
/// `CURSOR_CONFIG_DIR`).
pub(crate) fn default_model_file(inputs: &PolicyInputs) -> Option<PathBuf> {
    global_path(inputs)
}

/// A run's hold on the default model in `file` (see [`default_model_file`]) as the work to do
/// once its process group has ended ([`AfterEnd`]): taken now, just before the agent is
/// spawned with `--model=<model>`; what the put-back did is logged by it.
pub(crate) fn put_back_after_run(file: Option<&Path>, model: &str) -> Option<AfterEnd> {
    let hold = ModelPutBack::begin(file?, model);
    Some(Box::new(move || {
        hold.finish();
    }))
}

/// The workspace's project config file.
pub(crate) fn project_path(workspace: &Path) -> PathBuf {
    joined(workspace, ".cursor/cli.json")
}

fn strings(value: Option<serde_json::Value>) -> Vec<String> {
    match value {
        Some(serde_json::Value::Array(items)) => items
            .into_iter()
            .filter_map(|v| v.as_str().map(|s| s.trim().to_string()))
            .collect(),
        _ => Vec::new(),
    }
}

/// Reads one Cursor config file: `Ok(None)` when absent. A file that is not valid JSON is read
/// again for up to [`SETTLE_TIME`] (Cursor may be rewriting it), then reported broken.
/// Blocking.
pub(crate) fn read(path: &Path) -> Result<Option<CursorConfig>, BrokenConfig> {
    read_settling(path, SETTLE_TIME)
}

/// [`read`] with its settle time given.
fn read_settling(path: &Path, settle: Duration) -> Result<Option<CursorConfig>, BrokenConfig> {
    let until = Instant::now() + settle;
    loop {
        match read_once(path) {
            Err(Unreadable::Invalid(broken)) if Instant::now() < until => {
                std::thread::sleep(SETTLE_STEP);
                tracing::debug!(path = %broken.path.display(), "Cursor config not valid JSON yet");
            }
            Err(Unreadable::Invalid(broken) | Unreadable::Other(broken)) => return Err(broken),
            Ok(config) => return Ok(config),
        }
    }
}

/// Why one read failed: the JSON did not parse (possibly mid-write), or anything else.
enum Unreadable {
    Invalid(BrokenConfig),
    Other(BrokenConfig),
}

fn read_once(path: &Path) -> Result<Option<CursorConfig>, Unreadable> {
    let broken = |reason: String| {
        Unreadable::Other(BrokenConfig {
            path: path.to_path_buf(),
            reason,
        })
    };
    // Checked on the descriptor that is read: a link swapped in after a path check (a FIFO, a
    // device) is never read.
    let bytes = match crate::state::read_regular_file(path, MAX_CONFIG_BYTES) {
        Ok(bytes) => bytes,
        Err(crate::state::ReadError::Io(error)) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(None);
        }
        Err(crate::state::ReadError::Io(error)) => return Err(broken(error.to_string())),
        Err(_) => return Err(broken("it is not a regular file of JSON".to_string())),
    };
    // Parsed as plain JSON first: serde_json's syntax errors name a position, never content.
    let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
        Unreadable::Invalid(BrokenConfig {
            path: path.to_path_buf(),
            reason: format!("it is not valid JSON ({e})"),
        })
    })?;
    let serde_json::Value::Object(mut map) = value else {
        return Err(broken("it is not a JSON object".to_string()));
    };
    let mut permissions = map.remove("permissions");
    let mut take = |key: &str| {
        permissions
            .as_mut()
            .and_then(|p| p.get_mut(key))
            .map(serde_json::Value::take)
    };
    let allow = strings(take("allow"));
    let deny = strings(take("deny"));
    let approval_mode = map
        .get("approvalMode")
        .and_then(|v| v.as_str())
        .map(str::to_string);
    Ok(Some(CursorConfig {
        path: path.to_path_buf(),
        allow,
        deny,
        approval_mode,
    }))
}

/// The Cursor configuration a turn in `workspace` runs under: the project file first, then the
/// global one, and any that could not be used.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CursorConfigs {
    /// Files read.
    pub files: Vec<CursorConfig>,
    /// Files present but unusable.
    pub broken: Vec<BrokenConfig>,
}

impl CursorConfigs {
    /// Reads the project and global files.
    pub(crate) fn read(inputs: &PolicyInputs, workspace: &Path) -> CursorConfigs {
        let mut configs = CursorConfigs::default();
        let paths = std::iter::once(project_path(workspace)).chain(global_path(inputs));
        for path in paths {
            match read(&path) {
                Ok(Some(config)) => configs.files.push(config),
                Ok(None) => {}
                Err(broken) => configs.broken.push(broken),
            }
        }
        configs
    }

    /// The first file whose deny list satisfies `enforces`.
    pub(crate) fn enforcing(&self, enforces: impl Fn(&[String]) -> bool) -> Option<&Path> {
        self.files
            .iter()
            .find(|f| enforces(&f.deny))
            .map(|f| f.path.as_path())
    }
}

/// Cursor allow entries that let everything of a kind through (a shell, write, fetch or MCP
/// catch-all). Read catch-alls are left out: both plan and dontAsk let Claude read.
pub(crate) fn is_catch_all_allow(entry: &str) -> bool {
    let entry = entry.trim();
    let Some(open) = entry.find('(') else {
        return false;
    };
    let (kind, rest) = entry.split_at(open);
    let Some(arg) = rest
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .map(str::trim)
    else {
        return false;
    };
    let wild = |s: &str| s.chars().all(|c| matches!(c, '*' | '/'));
    match kind {
        "Shell" | "Write" | "WebFetch" => arg.is_empty() || wild(arg),
        "Mcp" => arg.split(':').all(|p| wild(p.trim())) || arg.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::cursor_config::model_put_back::PutBack;

    #[test]
    fn global_path_order() {
        let mut inputs = PolicyInputs {
            home: Some("/h".into()),
            ..PolicyInputs::default()
        };
        assert_eq!(
            global_path(&inputs),
            Some(PathBuf::from("/h/.cursor/cli-config.json"))
        );
        inputs.xdg_config_home = Some("/x".into());
        if cfg!(all(unix, not(target_os = "macos"))) {
            assert_eq!(
                global_path(&inputs),
                Some(PathBuf::from("/x/cursor/cli-config.json"))
            );
        }
        inputs.cursor_config_dir = Some("/c".into());
        assert_eq!(
            global_path(&inputs),
            Some(PathBuf::from("/c/cli-config.json"))
        );
    }

    #[test]
    fn reads_only_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cli-config.json");
        std::fs::write(
            &path,
            r#"{"version":1,"authInfo":{"accessToken":"secret"},"approvalMode":"unrestricted","permissions":{"allow":["Shell(ls)",3],"deny":["Shell(rm)"]}}"#,
        )
        .unwrap();
        let config = read(&path).unwrap().unwrap();
        assert_eq!(config.allow, ["Shell(ls)"]);
        assert_eq!(config.deny, ["Shell(rm)"]);
        assert_eq!(config.approval_mode.as_deref(), Some("unrestricted"));
        assert!(!format!("{config:?}").contains("secret"));
        std::fs::write(&path, "{\"authInfo\":\"secret\"").unwrap();
        let broken = read(&path).unwrap_err();
        assert!(!broken.reason.contains("secret"), "{}", broken.reason);
    }

    #[test]
    fn a_file_being_rewritten_is_read_again_then_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cli-config.json");
        std::fs::write(&path, "{\"permissions\": {\"deny\": [\"Shell(rm)\"").unwrap();
        // Cursor finishes its write 100 ms later: the read waits for it.
        let writer = {
            let path = path.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(100));
                std::fs::write(&path, "{\"permissions\": {\"deny\": [\"Shell(rm)\"]}}").unwrap();
            })
        };
        let config = read(&path).unwrap().unwrap();
        writer.join().unwrap();
        assert_eq!(config.deny, ["Shell(rm)"]);

        // Never finished: refused after the settle time, never taken as empty.
        std::fs::write(&path, "{\"permissions\": {\"deny\": [").unwrap();
        let started = Instant::now();
        let broken = read(&path).unwrap_err();
        let waited = started.elapsed();
        assert!(
            broken.reason.contains("not valid JSON"),
            "{}",
            broken.reason
        );
        assert!(waited >= SETTLE_TIME, "{waited:?}");
        assert!(waited < SETTLE_TIME * 4, "{waited:?}");

        // Other failures are not waited on.
        std::fs::write(&path, "[1]").unwrap();
        let started = Instant::now();
        assert!(read(&path).is_err());
        assert!(started.elapsed() < SETTLE_TIME);
    }

    #[test]
    fn the_hold_is_on_the_global_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cli-config.json");
        let user = "{\"model\": {\"modelId\": \"auto\"}, \"hasChangedDefaultModel\": false}";
        std::fs::write(&path, user).unwrap();
        let inputs = PolicyInputs {
            cursor_config_dir: Some(dir.path().to_path_buf()),
            ..PolicyInputs::default()
        };
        let hold = ModelPutBack::begin(&default_model_file(&inputs).unwrap(), "gpt-5");
        std::fs::write(
            &path,
            "{\"model\": {\"modelId\": \"gpt-5\"}, \"hasChangedDefaultModel\": true}",
        )
        .unwrap();
        assert_eq!(hold.finish(), PutBack::Restored);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), user);
        assert!(default_model_file(&PolicyInputs::default()).is_none());
    }

    #[test]
    fn catch_alls() {
        for entry in [
            "Shell(*)",
            "Shell(**)",
            "Write(**)",
            "Mcp(*:*)",
            "WebFetch(*)",
        ] {
            assert!(is_catch_all_allow(entry), "{entry}");
        }
        for entry in ["Shell(ls)", "Read(**)", "Write(src/**)", "Mcp(gh:*)"] {
            assert!(!is_catch_all_allow(entry), "{entry}");
        }
    }
}

#[cfg(test)]
mod login_fingerprint_tests {
    use super::*;

    #[test]
    fn the_login_changes_it_and_a_runs_model_write_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = PolicyInputs {
            cursor_config_dir: Some(dir.path().to_path_buf()),
            xdg_config_home: Some(dir.path().join("xdg")),
            ..Default::default()
        };
        let file = dir.path().join("cli-config.json");
        let absent = login_fingerprint(&inputs);
        std::fs::write(&file, r#"{"permissions":{"allow":[]}}"#).unwrap();
        let logged_out = login_fingerprint(&inputs);
        assert_eq!(absent, logged_out, "no authInfo either way");
        std::fs::write(
            &file,
            r#"{"permissions":{"allow":[]},"model":{"modelId":"gpt-5"},"hasChangedDefaultModel":true}"#,
        )
        .unwrap();
        assert_eq!(
            login_fingerprint(&inputs),
            logged_out,
            "a run's model write"
        );
        std::fs::write(
            &file,
            r#"{"permissions":{"allow":[]},"authInfo":{"email":"a@example.com"}}"#,
        )
        .unwrap();
        let logged_in = login_fingerprint(&inputs);
        assert_ne!(logged_in, logged_out);
        std::fs::create_dir_all(dir.path().join("xdg/cursor")).unwrap();
        std::fs::write(dir.path().join("xdg/cursor/auth.json"), "{}").unwrap();
        assert_ne!(
            login_fingerprint(&inputs),
            logged_in,
            "the older builds' auth.json"
        );
    }
}
