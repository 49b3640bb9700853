//! Plain `claude` keeps the model the user saved. Claude Code writes a `/model` choice into the
//! user's `settings.json` (`$CLAUDE_CONFIG_DIR` or `~/.claude`), so a Cursor row chosen in a
//! launched session would be where the next plain `claude` starts: on a route nothing answers
//! there, which a signed-out Claude Code validates before the plugin could refuse it.
//!
//! A launched session notes the saved `model` before Claude Code starts (`SessionModel::begin`,
//! a record in the state folder) and, when it ends, puts it back (`SessionModel::finish`) if
//! the file then holds a Cursor route; a model that is not a Cursor route (the user chose a
//! Claude model meanwhile, or nothing changed) is left alone. A session whose launcher was
//! killed leaves its record: the next `multi-cursor` command puts that one back ([`sweep`]),
//! once the launcher has ended (no process has its pid, or it is a zombie). The Cursor route
//! found is kept as the row chosen last (`last_cursor_row`), which the next launch starts on
//! unless `--model` names another.
//!
//! The edit has the same care as Cursor's model put-back (`policy::cursor_config`): only
//! `model` changes, on jsonc-parser's concrete syntax tree (every other byte kept), the edited
//! text is parsed and compared with the intended value before anything is written, and the
//! file is replaced atomically (same permissions) only while it still reads what was edited.
//! A link, a file over the cap or one that does not parse is left alone.

use std::path::Path;
use std::path::PathBuf;

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::CstInputValue;
use jsonc_parser::cst::CstRootNode;
use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;

use crate::cursor::catalog::ROUTE_PREFIX;

/// The folder in the state folder holding one record per live launched session.
pub(crate) const RECORDS_DIR: &str = "saved-model";

/// The file in the state folder naming the Cursor row chosen last.
pub(crate) const LAST_ROW_FILE: &str = "last-cursor-model.json";

/// Largest settings file edited, and largest record read.
const MAX_SETTINGS_BYTES: u64 = 4 * 1024 * 1024;

/// Records looked at per sweep at most.
const MAX_RECORDS: usize = 64;

const MODEL: &str = "model";

/// What a launched session noted before Claude Code started.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Record {
    /// Claude Code's user settings file.
    settings: PathBuf,
    /// Its `model` then (`None`: absent, or itself a Cursor route left by an older release).
    before: Option<Value>,
    /// The launcher's pid: while it lives, the session is not over.
    pid: u32,
}

/// The Cursor row chosen last.
#[derive(Debug, Serialize, Deserialize)]
struct LastRow {
    model: String,
}

/// What a put-back did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// `model` holds what it held before the session; the Cursor route it held was kept.
    Restored { route: String },
    /// Left as it was, and why (never the file's content).
    Left(&'static str),
}

/// Claude Code's user settings file: `$CLAUDE_CONFIG_DIR/settings.json`, else
/// `~/.claude/settings.json`.
pub(crate) fn user_settings_path(inputs: &crate::policy::PolicyInputs) -> Option<PathBuf> {
    inputs.claude_dir().map(|dir| dir.join("settings.json"))
}

/// A launched session's hold on the saved model.
#[derive(Debug)]
pub(crate) struct SessionModel {
    state_dir: PathBuf,
    record: PathBuf,
    settings: PathBuf,
    before: Option<Value>,
}

impl SessionModel {
    /// Notes `settings`' `model` in a record in `state_dir` before Claude Code starts. `None`
    /// when the record cannot be written (the session then runs without the put-back).
    pub(crate) fn begin(state_dir: &Path, settings: &Path) -> Option<SessionModel> {
        let before = read_settings(settings)
            .ok()
            .flatten()
            .and_then(|(_, value)| value.get(MODEL).cloned())
            .filter(|model| !is_cursor_route(model));
        let dir = state_dir.join(RECORDS_DIR);
        if let Err(error) = crate::state::ensure_private_dir(&dir) {
            tracing::warn!(%error, "could not note the saved model; it is not put back after this session");
            return None;
        }
        let pid = std::process::id();
        let record = dir.join(format!("{pid}-{:016x}.json", crate::random::u64()));
        let noted = Record {
            settings: settings.to_path_buf(),
            before: before.clone(),
            pid,
        };
        let bytes = serde_json::to_vec(&noted).ok()?;
        if let Err(error) = crate::state::write_private_atomic(&record, &bytes) {
            tracing::warn!(%error, "could not note the saved model; it is not put back after this session");
            return None;
        }
        Some(SessionModel {
            state_dir: state_dir.to_path_buf(),
            record,
            settings: settings.to_path_buf(),
            before,
        })
    }

    /// The session ended: puts the model back (see the module documentation) and removes the
    /// record.
    pub(crate) fn finish(self) -> Outcome {
        let outcome = put_back(&self.state_dir, &self.settings, self.before.as_ref());
        let _ = std::fs::remove_file(&self.record);
        outcome
    }
}

/// Puts back the model of every recorded session whose launcher has ended (killed; a zombie its
/// parent has not collected counts as ended, as it can put nothing back): run by each
/// `multi-cursor` command. Records of live launchers are left alone.
pub fn sweep(state_dir: &Path) {
    let Ok(entries) = std::fs::read_dir(state_dir.join(RECORDS_DIR)) else {
        return;
    };
    for entry in entries.flatten().take(MAX_RECORDS) {
        let path = entry.path();
        if path.extension().is_none_or(|ext| ext != "json") {
            continue;
        }
        let Ok(bytes) = crate::state::read_regular_file(&path, MAX_SETTINGS_BYTES) else {
            continue;
        };
        let Ok(record) = serde_json::from_slice::<Record>(&bytes) else {
            let _ = std::fs::remove_file(&path);
            continue;
        };
        let Ok(pid) = i32::try_from(record.pid) else {
            continue;
        };
        if record.pid == std::process::id() || !crate::platform::process_ended(pid) {
            continue;
        }
        let outcome = put_back(state_dir, &record.settings, record.before.as_ref());
        tracing::debug!(
            ?outcome,
            "the saved model of a session whose launcher is gone"
        );
        let _ = std::fs::remove_file(&path);
    }
}

/// The Cursor row chosen last in a launched session, if any.
pub(crate) fn last_cursor_row(state_dir: &Path) -> Option<String> {
    let bytes = crate::state::read_regular_file(&state_dir.join(LAST_ROW_FILE), 4096).ok()?;
    let row: LastRow = serde_json::from_slice(&bytes).ok()?;
    is_cursor_route(&Value::String(row.model.clone())).then_some(row.model)
}

fn is_cursor_route(model: &Value) -> bool {
    model.as_str().is_some_and(|m| m.starts_with(ROUTE_PREFIX))
}

/// The settings file's text and value; `Ok(None)` when it does not exist.
fn read_settings(path: &Path) -> Result<Option<(String, Value)>, &'static str> {
    match std::fs::symlink_metadata(path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(_) => return Err("it cannot be read"),
        Ok(meta) if !meta.file_type().is_file() => return Err("it is not a plain file"),
        Ok(_) => {}
    }
    let bytes = crate::state::read_regular_file(path, MAX_SETTINGS_BYTES)
        .map_err(|_| "it cannot be read, or is too large")?;
    let text = String::from_utf8(bytes).map_err(|_| "it is not UTF-8")?;
    let value = serde_json::from_str(&text).map_err(|_| "it is not valid JSON")?;
    Ok(Some((text, value)))
}

/// Restores `before` as `settings`' `model` when it holds a Cursor route now, and keeps that
/// route as the row chosen last.
fn put_back(state_dir: &Path, settings: &Path, before: Option<&Value>) -> Outcome {
    let (text, current) = match read_settings(settings) {
        Ok(Some(read)) => read,
        Ok(None) => return Outcome::Left("the settings file is gone"),
        Err(reason) => return Outcome::Left(reason),
    };
    let Some(route) = current
        .get(MODEL)
        .and_then(Value::as_str)
        .filter(|m| m.starts_with(ROUTE_PREFIX))
        .map(str::to_owned)
    else {
        return Outcome::Left("its model is not a Cursor route");
    };
    remember_row(state_dir, &route);
    let Some(edited) = restored_text(&text, &current, before) else {
        return Outcome::Left("it cannot be edited safely");
    };
    match crate::policy::cursor_config::replace_if_unchanged(settings, &text, &edited) {
        Ok(true) => Outcome::Restored { route },
        Ok(false) => Outcome::Left("the file changed while it was being put back"),
        Err(_) => Outcome::Left("writing it failed"),
    }
}

fn remember_row(state_dir: &Path, route: &str) {
    let row = LastRow {
        model: route.to_string(),
    };
    let written = serde_json::to_vec(&row)
        .map_err(|e| e.to_string())
        .and_then(|bytes| {
            crate::state::write_private_atomic(&state_dir.join(LAST_ROW_FILE), &bytes)
                .map_err(|e| e.to_string())
        });
    if let Err(error) = written {
        tracing::warn!(%error, "could not remember the Cursor row chosen last");
    }
}

/// `text` (whose value is `current`) with `model` set to `before`, or removed when `before` is
/// `None`; `None` when the key is repeated, `before` is not a string, or the edited text would
/// differ from the intended value in anything else. Pure.
fn restored_text(text: &str, current: &Value, before: Option<&Value>) -> Option<String> {
    let root = CstRootNode::parse(text, &ParseOptions::default()).ok()?;
    let top = root.object_value()?;
    let mut found = top
        .properties()
        .into_iter()
        .filter(|p| p.decoded_name().as_deref() == Some(MODEL));
    let model = found.next()?;
    if found.next().is_some() {
        return None;
    }
    let mut expected = current.clone();
    let object = expected.as_object_mut()?;
    match before {
        Some(value) => {
            model.set_value(CstInputValue::String(value.as_str()?.to_string()));
            object.insert(MODEL.to_string(), value.clone());
        }
        None => {
            model.remove();
            object.remove(MODEL);
        }
    }
    let edited = root.to_string();
    let check: Value = serde_json::from_str(&edited).ok()?;
    (check == expected).then_some(edited)
}

#[cfg(test)]
mod tests;
