//! Doctor's code-editor checks: the Claude Code extension's settings in VS Code, VS Code
//! Insiders, VSCodium and the Cursor editor (their user settings on this machine, and the
//! machine settings their Remote-SSH servers keep), read with a JSONC reader since those files
//! take comments and trailing commas.
//!
//! Per settings file found, one check: whether `claudeCode.claudeProcessWrapper` runs
//! `multi-cursor-claude` (an absolute path: the extension substitutes no variables there);
//! a failure when `claudeCode.selectedModel` is a Cursor route the panel cannot reach without
//! it (every new panel conversation would ask Anthropic for a model it does not know); a
//! warning when `claudeCode.useTerminal` is on (the extension then runs plain `claude` in a
//! terminal and ignores the wrapper).

use std::path::Path;
use std::path::PathBuf;

use serde_json::Value;
use thiserror::Error;

use super::Check;
use super::DoctorOptions;
use crate::cursor::catalog::ROUTE_PREFIX;
use crate::launch::wrap::WRAPPER_NAME;

/// The extension's setting naming the program that starts Claude Code.
const WRAPPER_KEY: &str = "claudeCode.claudeProcessWrapper";

/// The extension's setting holding the model of new panel conversations (`/model` writes it).
const SELECTED_MODEL_KEY: &str = "claudeCode.selectedModel";

/// The extension's setting that runs Claude Code in a terminal instead of the panel.
const USE_TERMINAL_KEY: &str = "claudeCode.useTerminal";

/// A settings file an editor keeps, and the check name it is reported under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct EditorSettings {
    /// The report's name for it, e.g. `VS Code` or `VS Code (SSH)`.
    pub(super) name: &'static str,
    /// The `settings.json`.
    pub(super) path: PathBuf,
}

/// The editors' folder names under the platform's configuration folder, with their names.
const EDITORS: [(&str, &str); 4] = [
    ("VS Code", "Code"),
    ("VS Code Insiders", "Code - Insiders"),
    ("VSCodium", "VSCodium"),
    ("Cursor editor", "Cursor"),
];

/// The Remote-SSH servers' folders in the remote user's home, with their names: their
/// `data/Machine/settings.json` holds the machine settings the remote extension host reads.
const REMOTE_SERVERS: [(&str, &str); 4] = [
    ("VS Code (SSH)", ".vscode-server"),
    ("Insiders (SSH)", ".vscode-server-insiders"),
    ("VSCodium (SSH)", ".vscodium-server"),
    ("Cursor (SSH)", ".cursor-server"),
];

/// Every editor settings file doctor looks for, existing or not: user settings under
/// `~/Library/Application Support` on macOS, `%APPDATA%` (`~\AppData\Roaming`) on Windows,
/// `$XDG_CONFIG_HOME` or `~/.config` elsewhere, then the Remote-SSH machine settings. Paths
/// are joined one component at a time, so they show the system's separators.
pub(super) fn settings_files(home: &Path, config_home: Option<&Path>) -> Vec<EditorSettings> {
    let config = if cfg!(target_os = "macos") {
        home.join("Library").join("Application Support")
    } else if cfg!(windows) {
        home.join("AppData").join("Roaming")
    } else {
        config_home.map_or_else(|| home.join(".config"), Path::to_path_buf)
    };
    let local = EDITORS.iter().map(|(name, folder)| EditorSettings {
        name,
        path: config.join(folder).join("User").join("settings.json"),
    });
    let remote = REMOTE_SERVERS.iter().map(|(name, folder)| EditorSettings {
        name,
        path: home
            .join(folder)
            .join("data")
            .join("Machine")
            .join("settings.json"),
    });
    local.chain(remote).collect()
}

/// Why a settings file could not be read.
#[derive(Debug, Error)]
pub(super) enum SettingsReadError {
    #[error("could not read {}: {source}", .path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{} is not valid JSON with comments: {source}", .path.display())]
    Syntax {
        path: PathBuf,
        #[source]
        source: jsonc_parser::errors::ParseError,
    },
}

/// A settings file as JSON (comments and trailing commas accepted, as VS Code and Claude Code
/// accept them), `None` when it does not exist. An empty file is an empty object.
pub(super) fn read_settings(path: &Path) -> Result<Option<Value>, SettingsReadError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(SettingsReadError::Io {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let value: Value =
        jsonc_parser::parse_to_serde_value(&text, &Default::default()).map_err(|source| {
            SettingsReadError::Syntax {
                path: path.to_path_buf(),
                source,
            }
        })?;
    Ok(Some(if value.is_null() {
        Value::Object(Default::default())
    } else {
        value
    }))
}

/// One check per editor settings file found; one passed check saying none was found otherwise.
pub(super) fn check_editors(options: &DoctorOptions) -> Vec<Check> {
    const NONE_NAME: &str = "Code editors";
    let Some(home) = options.home.as_deref() else {
        return vec![Check::pass(
            NONE_NAME,
            format!(
                "not checked: {} is not set",
                crate::platform::places::HOME_VAR
            ),
        )];
    };
    let wrapper = wrapper_beside_this_exe();
    let checks: Vec<Check> = settings_files(home, options.config_home.as_deref())
        .into_iter()
        .filter_map(|file| match read_settings(&file.path) {
            Ok(None) => None,
            Ok(Some(settings)) => Some(check_settings(&file, &settings, &wrapper)),
            Err(error) => Some(Check::warn(
                file.name,
                error.to_string(),
                "correct the file (VS Code points at the error when you open it); until then doctor cannot check its Claude Code settings",
            )),
        })
        .collect();
    if checks.is_empty() {
        return vec![Check::pass(
            NONE_NAME,
            "no settings of VS Code, VS Code Insiders, VSCodium or the Cursor editor found",
        )];
    }
    checks
}

/// Where `multi-cursor-claude` should be: beside the running `multi-cursor`, as `cargo
/// install` puts both.
fn wrapper_beside_this_exe() -> PathBuf {
    let name = format!("{WRAPPER_NAME}{}", std::env::consts::EXE_SUFFIX);
    std::env::current_exe()
        .map(|exe| exe.with_file_name(&name))
        .unwrap_or_else(|_| PathBuf::from(name))
}

/// Whether `value` names `multi-cursor-claude` (by its file name, or a link to it).
fn names_our_wrapper(value: &str) -> bool {
    let is_ours = |path: &Path| path.file_stem().is_some_and(|stem| stem == WRAPPER_NAME);
    let path = Path::new(value);
    is_ours(path) || std::fs::canonicalize(path).is_ok_and(|real| is_ours(&real))
}

/// An absolute path to an existing executable file.
fn is_executable(value: &str) -> bool {
    let path = Path::new(value);
    path.is_absolute() && std::fs::metadata(path).is_ok_and(|m| crate::platform::is_executable(&m))
}

/// The check of one editor's settings (`wrapper` is where `multi-cursor-claude` is installed,
/// for the fixes).
pub(super) fn check_settings(file: &EditorSettings, settings: &Value, wrapper: &Path) -> Check {
    let shown = file.path.display();
    let text = |key: &str| settings.get(key).and_then(Value::as_str);
    let set_it = format!(
        "set \"{WRAPPER_KEY}\": \"{}\" in {shown}",
        wrapper.display()
    );
    let configured = text(WRAPPER_KEY).filter(|v| !v.trim().is_empty());
    let ours = configured.filter(|v| names_our_wrapper(v));
    if let Some(value) = ours
        && !is_executable(value)
    {
        return Check::fail(
            file.name,
            format!(
                "{shown}: {WRAPPER_KEY} is {value:?}, which is not an absolute path to an executable"
            ),
            format!(
                "{set_it}: the extension substitutes no variables there and needs the full path"
            ),
        );
    }
    let cursor_model = text(SELECTED_MODEL_KEY).filter(|m| m.starts_with(ROUTE_PREFIX));
    let wrapper_said = match (ours, configured) {
        (Some(value), _) => format!("the Claude Code panel runs through {WRAPPER_NAME} ({value})"),
        (None, Some(other)) => format!("{WRAPPER_KEY} is {other}, not {WRAPPER_NAME}"),
        (None, None) => format!("{WRAPPER_KEY} is not set"),
    };
    if let Some(model) = cursor_model
        && ours.is_none()
    {
        return Check::fail(
            file.name,
            format!(
                "{shown}: {SELECTED_MODEL_KEY} is {model}, a Cursor route, but {wrapper_said}: every new panel conversation asks Anthropic for a model it does not know"
            ),
            format!("{set_it}, or choose a Claude model in the panel's model menu"),
        );
    }
    if settings.get(USE_TERMINAL_KEY).and_then(Value::as_bool) == Some(true) {
        return Check::warn(
            file.name,
            format!(
                "{shown}: {USE_TERMINAL_KEY} is on, so the extension runs plain claude in a terminal, where {WRAPPER_KEY} does not apply"
            ),
            format!(
                "set \"{USE_TERMINAL_KEY}\": false in {shown} to use the panel, or run `multi-cursor` in that terminal"
            ),
        );
    }
    match ours {
        Some(_) => Check::pass(file.name, format!("{shown}: {wrapper_said}")),
        None => Check::pass(
            file.name,
            format!(
                "{shown}: {wrapper_said}, so the panel has no Cursor models; to add them, set it to {}",
                wrapper.display()
            ),
        ),
    }
}

#[cfg(test)]
mod tests;
