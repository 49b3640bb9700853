//! Finding Cursor's agent executable (`MULTI_CURSOR_AGENT`, else `cursor-agent` then `agent`
//! on PATH, else `~/.local/bin/cursor-agent` and `~/.local/bin/agent`) and making sure it really
//! is Cursor's: xAI's Grok Build installs a command named `agent` too (on macOS and Windows), so
//! `cursor-agent`, which only Cursor installs, is looked for first, and an `agent` that is not
//! Cursor's is skipped for the next candidate, and named.
//!
//! The identity check runs `--version` and `--help` once per executable per process; later
//! lookups reuse the answer.

use crate::env::AGENT_ENV;
use std::collections::HashMap;
use std::ffi::OsStr;

use std::path::Path;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::OnceLock;
use std::time::Duration;

use thiserror::Error;

use super::spawn::AgentCommand;
use super::spawn::CaptureLimits;
use super::spawn::Kind;
use super::spawn::SpawnError;
use crate::exec::resolve_configured;
use crate::exec::search_path;

/// How to install the Cursor CLI on this system, quoted in every "not found" message.
pub(crate) fn install_hint() -> String {
    format!(
        "install the Cursor CLI with {}, or set MULTI_CURSOR_AGENT to its path",
        crate::platform::places::AGENT_INSTALL_COMMAND
    )
}

/// How long `--version` and `--help` may take before the executable is declared unusable.
const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why no usable Cursor agent is available. Every message names what to do.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LocateError {
    /// Nothing found where we look.
    #[error(
        "Cursor's agent CLI was not found (looked for {tried}); {}",
        install_hint()
    )]
    NotFound { tried: String },
    /// An `agent` exists but is another program (xAI's Grok CLI, …).
    #[error(
        "{path} is not Cursor's agent CLI (it looks like {looks_like}); {}, and put it before the other `agent` on PATH or set MULTI_CURSOR_AGENT",
        install_hint()
    )]
    NotCursor { path: PathBuf, looks_like: String },
    /// The executable could not be run or did not answer `--version`.
    #[error(
        "{path} could not be run ({reason}); reinstall the Cursor CLI or set MULTI_CURSOR_AGENT"
    )]
    Unusable { path: PathBuf, reason: String },
}

/// A Cursor agent executable that answered `--version`/`--help` like Cursor's CLI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentInfo {
    /// Absolute path of the executable.
    pub path: PathBuf,
    /// First line of `--version` (e.g. `2026.09.18-9a7762b`).
    pub version: String,
    /// `--help` lists `--auto-review` (needed for Claude's auto mode).
    pub supports_auto_review: bool,
    /// Candidates tried before it that are other programs (another vendor's `agent`).
    pub skipped: Vec<PathBuf>,
}

impl AgentInfo {
    /// Whether this CLI reads Claude Code's `.claude/skills` itself: 2026.10 and later builds
    /// (versions are `YYYY.MM.DD-<hash>`, so they order as text).
    pub(crate) fn reads_claude_skills(&self) -> bool {
        self.version.as_str() >= "2026.10"
    }
}

/// Finds the agent executable without running it: the first of [`agent_candidates`].
pub(crate) fn find_agent_path() -> Result<PathBuf, LocateError> {
    find_agent_path_in(
        std::env::var_os(AGENT_ENV).as_deref(),
        std::env::var_os("PATH").as_deref(),
        crate::platform::places::home().as_deref(),
    )
}

/// [`find_agent_path`] with its inputs passed in, for tests.
pub(crate) fn find_agent_path_in(
    configured: Option<&OsStr>,
    path_var: Option<&OsStr>,
    home: Option<&OsStr>,
) -> Result<PathBuf, LocateError> {
    agent_candidates(configured, path_var, home)?
        .into_iter()
        .next()
        .ok_or_else(not_found)
}

/// Where Cursor's agent may be, in the order they are tried: `$MULTI_CURSOR_AGENT` alone when
/// set; else `cursor-agent` then `agent` on PATH, then `~/.local/bin/cursor-agent` and
/// `~/.local/bin/agent` (each once).
pub(crate) fn agent_candidates(
    configured: Option<&OsStr>,
    path_var: Option<&OsStr>,
    home: Option<&OsStr>,
) -> Result<Vec<PathBuf>, LocateError> {
    if let Some(configured) = configured.filter(|v| !v.is_empty()) {
        return resolve_configured(configured, path_var)
            .map(|found| vec![found])
            .ok_or_else(|| LocateError::NotFound {
                tried: format!("{AGENT_ENV}={}", Path::new(configured).display()),
            });
    }
    let mut found: Vec<PathBuf> = Vec::new();
    for name in ["cursor-agent", "agent"] {
        found.extend(search_path(OsStr::new(name), path_var));
    }
    if let Some(home) = home {
        let dirs = crate::platform::places::agent_install_dirs(Path::new(home));
        for name in ["cursor-agent", "agent"] {
            found.extend(crate::exec::search_dirs(OsStr::new(name), &dirs));
        }
    }
    let mut unique = Vec::new();
    for path in found {
        if !unique.contains(&path) {
            unique.push(path);
        }
    }
    Ok(unique)
}

fn not_found() -> LocateError {
    LocateError::NotFound {
        tried: format!(
            "`cursor-agent` and `agent` on PATH and in {}",
            crate::platform::places::AGENT_INSTALL_DIRS_SHOWN
        ),
    }
}

type ProbeCache = Mutex<HashMap<PathBuf, Result<AgentInfo, LocateError>>>;

fn probe_cache() -> &'static ProbeCache {
    static CACHE: OnceLock<ProbeCache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Finds the agent and checks, once per process, that it is Cursor's: the first of
/// `agent_candidates` that answers like Cursor's CLI. A candidate that is another program is
/// skipped; when none is Cursor's, the error names each one skipped.
pub async fn locate_agent() -> Result<AgentInfo, LocateError> {
    let candidates = agent_candidates(
        std::env::var_os(AGENT_ENV).as_deref(),
        std::env::var_os("PATH").as_deref(),
        crate::platform::places::home().as_deref(),
    )?;
    // Other programs' paths, and the first one's refusal (the error when it is the only one).
    let mut skipped: Vec<PathBuf> = Vec::new();
    let mut first_refusal = None;
    for candidate in candidates {
        match identify(&candidate).await {
            Ok(mut info) => {
                info.skipped = skipped;
                return Ok(info);
            }
            Err(error @ LocateError::NotCursor { .. }) => {
                skipped.push(candidate);
                first_refusal.get_or_insert(error);
            }
            Err(error) => return Err(error),
        }
    }
    match (skipped.len(), first_refusal) {
        (1, Some(refusal)) => Err(refusal),
        (0, _) | (_, None) => Err(not_found()),
        _ => Err(LocateError::NotCursor {
            path: PathBuf::from(
                skipped
                    .iter()
                    .map(|path| path.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            looks_like: "other programs".to_string(),
        }),
    }
}

/// The file in the state folder remembering each agent executable's probe while it is
/// unchanged (`launch::agent_probe`).
pub(crate) const PROBE_CACHE_FILE: &str = "agent-probe.json";

/// A run showed the probe of `path` wrong (it refused a flag the probe said the CLI has: a
/// wrapper script whose environment changed keeps its path, time and size): forgotten in this
/// process and in `state_dir`'s cache, so the next lookup runs `--version`/`--help` again.
pub(crate) fn forget_probe(state_dir: &Path, path: &Path) {
    if let Ok(mut cache) = probe_cache().lock() {
        cache.remove(path);
    }
    let mut stored = crate::exec::AnswerCache::<serde_json::Value>::open(
        state_dir.join(PROBE_CACHE_FILE),
        usize::MAX,
    );
    stored.forget(path);
}

/// Takes `info` as this process's answer for its executable (a probe remembered from an earlier
/// start, `launch::agent_probe`), so no later lookup runs it again.
pub(crate) fn remember(info: &AgentInfo) {
    if let Ok(mut cache) = probe_cache().lock() {
        cache.insert(info.path.clone(), Ok(info.clone()));
    }
}

/// Checks (once per executable per process) that `path` is Cursor's agent CLI.
pub(crate) async fn identify(path: &Path) -> Result<AgentInfo, LocateError> {
    if let Some(known) = probe_cache()
        .lock()
        .ok()
        .and_then(|cache| cache.get(path).cloned())
    {
        return known;
    }
    let answer = probe(path).await;
    if let Ok(mut cache) = probe_cache().lock() {
        cache.insert(path.to_path_buf(), answer.clone());
    }
    answer
}

async fn probe(path: &Path) -> Result<AgentInfo, LocateError> {
    let unusable = |reason: String| LocateError::Unusable {
        path: path.to_path_buf(),
        reason,
    };
    let version = run_probe(path, "--version").await.map_err(&unusable)?;
    let help = run_probe(path, "--help").await.unwrap_or_default();
    classify(path, &version, &help)
}

/// Decides from `--version` and `--help` output whether `path` is Cursor's CLI.
pub(crate) fn classify(path: &Path, version: &str, help: &str) -> Result<AgentInfo, LocateError> {
    let lower_help = help.to_ascii_lowercase();
    let lower_version = version.to_ascii_lowercase();
    let other = ["grok", "xai", "x.ai"]
        .iter()
        .any(|w| lower_help.contains(w) || lower_version.contains(w));
    let cursor_help = lower_help.contains("cursor");
    let cursor_version = looks_like_cursor_version(version.trim());
    if other && !cursor_help {
        return Err(LocateError::NotCursor {
            path: path.to_path_buf(),
            looks_like: "xAI's Grok CLI".to_string(),
        });
    }
    if !cursor_help && !cursor_version {
        return Err(LocateError::NotCursor {
            path: path.to_path_buf(),
            looks_like: format!(
                "another program (its --version said {:?})",
                super::sanitize::sanitize(first_line(version))
            ),
        });
    }
    Ok(AgentInfo {
        path: path.to_path_buf(),
        version: first_line(version).to_string(),
        supports_auto_review: help.contains("--auto-review"),
        skipped: Vec::new(),
    })
}

fn first_line(text: &str) -> &str {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

/// Cursor's versions look like `2026.01.28-fd13201`.
fn looks_like_cursor_version(version: &str) -> bool {
    let line = first_line(version);
    let Some((date, hash)) = line.split_once('-') else {
        return false;
    };
    let parts: Vec<&str> = date.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| p.chars().all(|c| c.is_ascii_digit()))
        && parts[0].len() == 4
        && !hash.is_empty()
        && hash.chars().all(|c| c.is_ascii_hexdigit())
}

async fn run_probe(path: &Path, arg: &str) -> Result<String, String> {
    // Identifying the executable needs no account: the key stays out of the probe.
    let output = AgentCommand::new(path, Kind::Captured)
        .arg(arg)
        .env_remove(super::account::API_KEY_ENV)
        .capture(CaptureLimits::new(PROBE_TIMEOUT))
        .await
        .map_err(|error| match error {
            SpawnError::Timeout { .. } => {
                format!("`{arg}` did not answer within {}s", PROBE_TIMEOUT.as_secs())
            }
            SpawnError::Spawn { source, .. } => source.to_string(),
        })?;
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    if text.trim().is_empty() {
        text = String::from_utf8_lossy(&output.stderr).into_owned();
    }
    if !output.status.success() && text.trim().is_empty() {
        return Err(format!("`{arg}` exited with {}", output.status));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_version_shape() {
        assert!(looks_like_cursor_version("2026.01.28-fd13201\n"));
        assert!(!looks_like_cursor_version("grok 1.2.3"));
        assert!(!looks_like_cursor_version("0.1.0"));
    }

    #[test]
    fn grok_is_named() {
        let err = classify(
            Path::new("/bin/agent"),
            "1.4.0",
            "Grok CLI by xAI\nUsage: agent [prompt]",
        )
        .unwrap_err();
        assert!(err.to_string().contains("xAI's Grok CLI"), "{err}");
        assert!(err.to_string().contains("cursor.com/install"), "{err}");
    }

    #[test]
    fn cursor_help_is_accepted() {
        let info = classify(
            Path::new("/bin/agent"),
            "2026.09.18-9a7762b",
            "Usage: agent [options] [command] [prompt...]\nStart the Cursor Agent\n  --auto-review  ...",
        )
        .unwrap();
        assert!(info.supports_auto_review);
        assert_eq!(info.version, "2026.09.18-9a7762b");
    }

    #[test]
    fn cursor_agent_comes_first_and_each_candidate_once() {
        let dir = tempfile::tempdir().unwrap();
        let (bin, home) = (dir.path().join("bin"), dir.path().join("home"));
        // The installer's folder: `~/.local/bin`, on Windows `~\AppData\Local\cursor-agent`.
        let local = crate::platform::places::agent_install_dirs(&home).remove(0);
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(&local).unwrap();
        for file in [
            bin.join("agent"),
            bin.join("cursor-agent"),
            local.join("agent"),
            local.join("cursor-agent"),
        ] {
            std::fs::write(&file, "#!/bin/sh\n").unwrap();
            let _ = crate::platform::testing::set_mode(&file, 0o755);
        }
        let path = std::env::join_paths([&bin, &local]).unwrap();
        let found = agent_candidates(None, Some(&path), Some(home.as_os_str())).unwrap();
        assert_eq!(
            found,
            [
                bin.join("cursor-agent"),
                bin.join("agent"),
                local.join("cursor-agent"),
                local.join("agent")
            ]
        );
    }

    #[test]
    fn missing_agent_names_the_install() {
        let dir = tempfile::tempdir().unwrap();
        let err = find_agent_path_in(None, Some(dir.path().as_os_str()), None).unwrap_err();
        assert!(err.to_string().contains("cursor.com/install"), "{err}");
    }
}
