//! Doctor's Claude Code checks: found where the launcher would find it, at least
//! [`MIN_CLAUDE_VERSION`], and no Cursor route saved as the model of plain `claude`.

use std::path::Path;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use thiserror::Error;

use super::Check;
use super::DoctorOptions;
use super::editors::read_settings;
use crate::cursor::catalog::ROUTE_PREFIX;
use crate::env::CLAUDE_ENV;
use crate::launch::claude::MIN_VERSION as MIN_CLAUDE_VERSION;
use crate::launch::claude::Version;
use crate::launch::claude::install_hint_here;
use crate::platform::paths::joined;

/// How long `claude --version` may take.
const CLAUDE_VERSION_TIMEOUT: Duration = Duration::from_secs(30);

/// The Claude Code check, and the path of a usable Claude Code (for the live round trip).
pub(super) struct ClaudeFound {
    pub(super) check: Check,
    pub(super) path: Option<PathBuf>,
}

/// Why Claude Code could not be found or asked for its version.
#[derive(Debug, Error)]
enum ClaudeError {
    #[error("{0}")]
    NotFound(String),
    #[error("{path} could not be run: {reason}")]
    Unusable { path: PathBuf, reason: String },
}

/// Claude Code where the launcher would find it.
fn find_claude() -> Result<PathBuf, ClaudeError> {
    crate::launch::claude::find_claude(
        std::env::var_os(CLAUDE_ENV).as_deref(),
        std::env::var_os("PATH").as_deref(),
        crate::platform::places::home().as_deref(),
    )
    .map_err(|e| match e {
        // The fix names what to install; the finding says only where we looked.
        crate::launch::LaunchError::ClaudeMissing { tried } => {
            ClaudeError::NotFound(format!("not found (looked for {tried})"))
        }
        other => ClaudeError::NotFound(other.to_string()),
    })
}

pub(super) async fn check_claude() -> ClaudeFound {
    const NAME: &str = "Claude Code";
    let path = match find_claude() {
        Ok(path) => path,
        Err(error) => {
            return ClaudeFound {
                check: Check::fail(NAME, error.to_string(), install_hint_here(None)),
                path: None,
            };
        }
    };
    let output = match claude_version(&path).await {
        Ok(output) => output,
        Err(error) => {
            return ClaudeFound {
                check: Check::fail(
                    NAME,
                    error.to_string(),
                    format!("reinstall Claude Code: {}", install_hint_here(Some(&path))),
                ),
                path: None,
            };
        }
    };
    let minimum = MIN_CLAUDE_VERSION.to_string();
    let check = match Version::parse(&output) {
        Some(version) if version >= MIN_CLAUDE_VERSION => {
            Check::pass(NAME, format!("{} at {}", version, path.display()))
        }
        Some(version) => Check::fail(
            NAME,
            format!(
                "{} at {} is older than {minimum}, the version multi-cursor was measured on",
                version,
                path.display()
            ),
            install_hint_here(Some(&path)),
        ),
        None => Check::fail(
            NAME,
            format!(
                "{} answered `--version` with {:?}, which is not a Claude Code version",
                path.display(),
                output.trim()
            ),
            format!(
                "point {CLAUDE_ENV} at Claude Code's `claude`, or reinstall it: {}",
                install_hint_here(Some(&path))
            ),
        ),
    };
    let path = check.passed.then_some(path);
    ClaudeFound { check, path }
}

async fn claude_version(path: &Path) -> Result<String, ClaudeError> {
    let unusable = |reason: String| ClaudeError::Unusable {
        path: path.to_path_buf(),
        reason,
    };
    let mut command = tokio::process::Command::new(path);
    command
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("DISABLE_AUTOUPDATER", "1")
        .kill_on_drop(true);
    crate::platform::own_group_tokio(&mut command);
    let output = tokio::time::timeout(CLAUDE_VERSION_TIMEOUT, command.output())
        .await
        .map_err(|_| {
            unusable(format!(
                "`--version` did not answer within {}s",
                CLAUDE_VERSION_TIMEOUT.as_secs()
            ))
        })?
        .map_err(|e| unusable(e.to_string()))?;
    if !output.status.success() {
        return Err(unusable(format!(
            "`--version` exited with {}: {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Claude Code's settings files whose top-level `"model"` applies to a plain `claude` started
/// in `options.workspace`: local, project, then user (`$CLAUDE_CONFIG_DIR` or `~/.claude`).
fn model_settings_files(options: &DoctorOptions) -> Vec<PathBuf> {
    let mut files = vec![
        joined(&options.workspace, ".claude/settings.local.json"),
        joined(&options.workspace, ".claude/settings.json"),
    ];
    let user_dir = options
        .claude_config_dir
        .clone()
        .or_else(|| options.home.as_ref().map(|home| home.join(".claude")));
    if let Some(dir) = user_dir {
        files.push(dir.join("settings.json"));
    }
    files
}

/// A Cursor route saved as the model in Claude Code's settings (`/model` in a launched session
/// saves it): sessions `multi-cursor` starts are fine, but a plain `claude` starts on a route
/// nothing answers. A warning naming each file; the settings are never edited.
pub(super) fn check_saved_model(options: &DoctorOptions) -> Check {
    const NAME: &str = "Saved model";
    let mut saved = Vec::new();
    let mut unreadable = Vec::new();
    for file in model_settings_files(options) {
        match read_settings(&file) {
            Ok(Some(settings)) => {
                if let Some(model) = settings
                    .get("model")
                    .and_then(serde_json::Value::as_str)
                    .filter(|m| m.starts_with(ROUTE_PREFIX))
                {
                    saved.push(format!("{} saves \"model\": \"{model}\"", file.display()));
                }
            }
            Ok(None) => {}
            Err(error) => unreadable.push(error.to_string()),
        }
    }
    if !saved.is_empty() {
        return Check::warn(
            NAME,
            format!(
                "{}: a Cursor route chosen in /model of a multi-cursor session, which nothing answers in a plain claude session",
                saved.join("; ")
            ),
            "multi-cursor puts the model back when the session that saved it ends (after a killed launcher, at its next command, such as this one); one still here comes from a session still running or from an older multi-cursor: in a plain claude session choose a Claude model with /model, or delete that \"model\" line",
        );
    }
    if !unreadable.is_empty() {
        return Check::warn(
            NAME,
            unreadable.join("; "),
            "correct the file (Claude Code reports it at start too)",
        );
    }
    Check::pass(NAME, "no Cursor route saved as plain claude's model")
}
