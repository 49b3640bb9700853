//! Putting the user's default model back after a run. Every `agent --model <id>` run makes
//! Cursor write `model.modelId = <id>` and `hasChangedDefaultModel: true` into its global
//! `cli-config.json`, so a worker's turn would silently change the model the user chose for
//! their own Cursor. [`ModelPutBack`] notes those two fields before a run and, when the last of
//! this gateway's overlapping runs on that file has ended, restores exactly them, and only when
//! the file still holds a value one of those runs wrote.
//!
//! Safety rules, each with a test:
//! - Only `model.modelId` and `hasChangedDefaultModel` change: the edit is made on the text
//!   (every other byte kept: key order, spacing, unknown keys, the login), the result is
//!   parsed and compared with the intended value, and nothing is written when they differ.
//! - Never someone else's choice: the file must still hold one of our runs' model ids with
//!   `hasChangedDefaultModel: true`; anything else (the user picked a model meanwhile, Cursor
//!   wrote another id) is left alone. The file is read again just before it is replaced and
//!   nothing is written when it changed; on Linux the replacement is an atomic exchange, and
//!   when what it displaced is not what was read (Cursor wrote in between) the other writer's
//!   bytes are exchanged back ([`swap_in`]).
//! - Runs of this gateway that overlap share one "before" (taken when the first began) and
//!   the put-back waits for the last, so one run never restores another run's model as the
//!   user's.
//! - A file that is missing after the run, not valid JSON (Cursor is writing it), a symlink
//!   (a dotfile manager's link would be replaced by a plain file), or over the size cap is
//!   left alone; so is any file whose "before" could not be read.
//!
//! What it cannot do: runs of two different gateways (two Claude Code sessions) that overlap
//! each take their own "before", so the later one may put back the earlier one's model rather
//! than the user's (never a model the user chose after the runs began). A model the user
//! picks during a run that is the very id the run used cannot be told from the run's write.

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::PoisonError;

use serde_json::Value;

use super::MAX_CONFIG_BYTES;
use jsonc_parser::ParseOptions;
use jsonc_parser::cst::CstInputValue;
use jsonc_parser::cst::CstObject;
use jsonc_parser::cst::CstRootNode;

const MODEL: &str = "model";
const MODEL_ID: &str = "modelId";
const HAS_CHANGED: &str = "hasChangedDefaultModel";

/// The two fields as they were before the runs (`None`: absent).
#[derive(Debug, Clone, PartialEq)]
struct Before {
    model_existed: bool,
    model_id: Option<Value>,
    has_changed: Option<Value>,
}

/// This gateway's runs on one config file that overlap in time.
#[derive(Debug)]
struct Window {
    runs: usize,
    /// `None` when the file could not be read when the first run began: nothing is put back.
    before: Option<Before>,
    /// The model ids those runs passed to `--model`.
    ours: BTreeSet<String>,
}

/// Open windows by config file.
static WINDOWS: Mutex<BTreeMap<PathBuf, Window>> = Mutex::new(BTreeMap::new());

/// What [`ModelPutBack::finish`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PutBack {
    /// The two fields hold what they held before the runs again.
    Restored,
    /// Another run of this gateway on the same file is still going; the last one puts back.
    Deferred,
    /// Nothing to do or not ours to do, and why (never the file's content).
    Left(&'static str),
}

/// A run's hold on Cursor's global config: taken ([`ModelPutBack::begin`]) just before the
/// agent is spawned with `--model`, finished once the run's process group has ended. Dropping
/// it unfinished finishes it.
#[derive(Debug)]
pub(crate) struct ModelPutBack {
    path: Option<PathBuf>,
}

impl ModelPutBack {
    /// Notes the model fields of the config at `path` (Cursor's global `cli-config.json`, see
    /// `cursor_config::global_path`) before a run with `--model=<model>`. Blocking (one small read).
    pub(crate) fn begin(path: &Path, model: &str) -> ModelPutBack {
        let mut windows = WINDOWS.lock().unwrap_or_else(PoisonError::into_inner);
        let window = windows.entry(path.to_path_buf()).or_insert_with(|| Window {
            runs: 0,
            before: read_before(path),
            ours: BTreeSet::new(),
        });
        window.runs += 1;
        window.ours.insert(model.to_string());
        ModelPutBack {
            path: Some(path.to_path_buf()),
        }
    }

    /// Ends this run's hold; the last run of a window puts the fields back (see the module
    /// documentation). Blocking: a read, and at most one temp write, fsync and rename.
    pub(crate) fn finish(mut self) -> PutBack {
        self.finish_now()
    }

    fn finish_now(&mut self) -> PutBack {
        let Some(path) = self.path.take() else {
            return PutBack::Left("already finished");
        };
        let mut windows = WINDOWS.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(window) = windows.get_mut(&path) else {
            return PutBack::Left("no run noted");
        };
        window.runs = window.runs.saturating_sub(1);
        if window.runs > 0 {
            return PutBack::Deferred;
        }
        let Some(window) = windows.remove(&path) else {
            return PutBack::Left("no run noted");
        };
        // Still under the lock: a run beginning now waits, and then notes the restored file.
        let outcome = match &window.before {
            Some(before) => put_back(&path, before, &window.ours),
            None => PutBack::Left("the file could not be read before the run"),
        };
        drop(windows);
        if let PutBack::Left(reason) = &outcome {
            tracing::debug!(path = %path.display(), reason, "Cursor's default model left as is");
        }
        outcome
    }
}

impl Drop for ModelPutBack {
    fn drop(&mut self) {
        self.finish_now();
    }
}

/// The file's bytes when it is a regular file (not a link) within the size cap.
pub(super) fn read_plain(path: &Path) -> Result<Option<Vec<u8>>, &'static str> {
    match std::fs::symlink_metadata(path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(_) => return Err("it cannot be read"),
        Ok(meta) if !meta.file_type().is_file() => return Err("it is not a plain file"),
        Ok(meta) if meta.len() > MAX_CONFIG_BYTES => return Err("it is too large"),
        Ok(_) => {}
    }
    std::fs::read(path)
        .map(Some)
        .map_err(|_| "it cannot be read")
}

fn read_before(path: &Path) -> Option<Before> {
    let Some(bytes) = read_plain(path).ok()? else {
        // No file yet: Cursor creates it; both fields were absent.
        return Some(Before {
            model_existed: false,
            model_id: None,
            has_changed: None,
        });
    };
    let value: Value = serde_json::from_slice(&bytes).ok()?;
    let object = value.as_object()?;
    let model = object.get(MODEL);
    Some(Before {
        model_existed: model.is_some(),
        model_id: model.and_then(|m| m.get(MODEL_ID)).cloned(),
        has_changed: object.get(HAS_CHANGED).cloned(),
    })
}

/// Restores `before` in the file at `path` when it still holds one of `ours`.
fn put_back(path: &Path, before: &Before, ours: &BTreeSet<String>) -> PutBack {
    let bytes = match read_plain(path) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return PutBack::Left("the file is gone"),
        Err(reason) => return PutBack::Left(reason),
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return PutBack::Left("it is not UTF-8");
    };
    let Some(edited) = restored_text(&text, before, ours) else {
        return PutBack::Left("it does not hold our run's model, or cannot be edited safely");
    };
    if edited == text {
        return PutBack::Left("nothing changed");
    }
    match replace_if_unchanged(path, &text, &edited) {
        Ok(true) => PutBack::Restored,
        Ok(false) => PutBack::Left("the file changed while it was being put back"),
        Err(_) => PutBack::Left("writing it failed"),
    }
}

/// `text` with the two fields as in `before`, when `text` holds one of `ours` with
/// `hasChangedDefaultModel: true`; `None` when it does not, or when the edited text would
/// differ from the intended value in anything else. Pure.
fn restored_text(text: &str, before: &Before, ours: &BTreeSet<String>) -> Option<String> {
    let current: Value = serde_json::from_str(text).ok()?;
    let holds_ours = current
        .get(MODEL)
        .and_then(|m| m.get(MODEL_ID))
        .and_then(Value::as_str)
        .is_some_and(|id| ours.contains(id))
        && current.get(HAS_CHANGED) == Some(&Value::Bool(true));
    if !holds_ours {
        return None;
    }
    // Edited on jsonc-parser's concrete syntax tree, which keeps every other byte (key order,
    // spacing, unknown keys) as it was.
    let root = CstRootNode::parse(text, &ParseOptions::default()).ok()?;
    let top = root.object_value()?;
    // A key repeated in the text: serde_json keeps the last, the tree would edit the first.
    let once = |object: &CstObject, key: &str| {
        let mut found = object
            .properties()
            .into_iter()
            .filter(|p| p.decoded_name().as_deref() == Some(key));
        let first = found.next()?;
        found.next().is_none().then_some(first)
    };
    let model = once(&top, MODEL)?;
    let model_object = model.object_value()?;
    let id = once(&model_object, MODEL_ID)?;
    let changed = once(&top, HAS_CHANGED)?;

    let mut expected = current;
    let object = expected.as_object_mut()?;
    match &before.has_changed {
        Some(value) => {
            changed.set_value(input_value(value)?);
            object.insert(HAS_CHANGED.to_string(), value.clone());
        }
        None => {
            changed.remove();
            object.remove(HAS_CHANGED);
        }
    }
    match &before.model_id {
        Some(value) => {
            id.set_value(input_value(value)?);
            let model = object.get_mut(MODEL)?.as_object_mut()?;
            model.insert(MODEL_ID.to_string(), value.clone());
        }
        None if !before.model_existed && model_object.properties().len() == 1 => {
            // The run created `model` holding only the id: the member goes as a whole.
            model.remove();
            object.remove(MODEL);
        }
        None => {
            id.remove();
            object.get_mut(MODEL)?.as_object_mut()?.remove(MODEL_ID);
        }
    }
    let edited = root.to_string();
    let check: Value = serde_json::from_str(&edited).ok()?;
    (check == expected).then_some(edited)
}

/// A scalar the put-back writes (a model id, `hasChangedDefaultModel`), as the tree takes it;
/// `None` for anything else, which Cursor never writes in those two fields.
fn input_value(value: &Value) -> Option<CstInputValue> {
    match value {
        Value::Null => Some(CstInputValue::Null),
        Value::Bool(flag) => Some(CstInputValue::Bool(*flag)),
        Value::Number(number) => Some(CstInputValue::Number(number.to_string())),
        Value::String(text) => Some(CstInputValue::String(text.clone())),
        Value::Array(_) | Value::Object(_) => None,
    }
}

/// Writes `edited` over `path` by temp file, fsync and rename (same permissions), unless the
/// file no longer reads `expected` just before the rename. `Ok(false)`: it changed. Also how
/// the launcher puts the model back into Claude Code's settings (`launch::saved_model`) and an
/// allow entry is written and put back (`super::allow_entry`).
pub(crate) fn replace_if_unchanged(
    path: &Path,
    expected: &str,
    edited: &str,
) -> std::io::Result<bool> {
    replace_if_unchanged_racing(path, expected, edited, || {})
}

/// [`replace_if_unchanged`], with `race` run at the last moment before the file is replaced
/// (tests write the file there, as Cursor could).
fn replace_if_unchanged_racing(
    path: &Path,
    expected: &str,
    edited: &str,
    race: impl FnOnce(),
) -> std::io::Result<bool> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let mode = crate::platform::mode(&std::fs::metadata(path)?);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(
        ".{name}.multi-cursor-{:016x}.tmp",
        crate::random::u64()
    ));
    let written = (|| {
        let mut file = crate::platform::with_mode(
            std::fs::OpenOptions::new().write(true).create_new(true),
            mode,
        )
        .open(&temp)?;
        file.write_all(edited.as_bytes())?;
        file.sync_all()
    })();
    let done = written.and_then(|()| {
        if std::fs::read(path)? != expected.as_bytes() {
            return Ok(false);
        }
        race();
        swap_in(&temp, path, expected, edited)
    });
    // Gone after a rename; after an exchange it holds the displaced bytes.
    let _ = std::fs::remove_file(&temp);
    done
}

/// Puts `temp` (holding `edited`) at `path` when `path` still holds `expected`; `Ok(false)`
/// when another writer got there first, whose bytes are then kept.
///
/// On Linux the two are exchanged atomically (`renameat2(RENAME_EXCHANGE)`), so what was
/// displaced can be checked: when it is not `expected`, Cursor wrote the file between our last
/// read and the exchange, and it is exchanged back (once more if yet another write landed in
/// between). Readers may see our bytes for the microseconds between the two exchanges. Where
/// the exchange is unavailable (another OS, a file system without it) it is a plain rename
/// after the last read: a write landing in that gap (microseconds) is lost.
fn swap_in(temp: &Path, path: &Path, expected: &str, edited: &str) -> std::io::Result<bool> {
    if crate::platform::exchange(temp, path)?.is_some() {
        let displaced_is = |bytes: &str| plain_bytes(temp).is_some_and(|b| b == bytes.as_bytes());
        if displaced_is(expected) {
            return Ok(true);
        }
        // Another writer's bytes were displaced: put them back.
        crate::platform::exchange(temp, path)?;
        if !displaced_is(edited) {
            // A newer write replaced ours in between and was just displaced: it goes back.
            crate::platform::exchange(temp, path)?;
        }
        return Ok(false);
    }
    // Without the exchange (musl, macOS) the bytes are not compared after the rename.
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = (expected, edited);
    std::fs::rename(temp, path)?;
    Ok(true)
}

/// The bytes of `path` when it is a regular file (not a link) within the size cap.
fn plain_bytes(path: &Path) -> Option<Vec<u8>> {
    read_plain(path).ok().flatten()
}

#[cfg(test)]
mod tests;
