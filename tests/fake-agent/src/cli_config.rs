//! `--model` persists the choice, as the real CLI does on every run (2026.10.01), unless
//! `FAKE_AGENT_PERSIST_MODEL=0` (for a test that asserts that nothing but Cursor's own write
//! and our put-back touches the file): the config dir's
//! `cli-config.json` gets `model.modelId = <id>` and `hasChangedDefaultModel: true`,
//! everything else kept, written to a temporary file and renamed over the old one.
//!
//! The config dir is `CURSOR_CONFIG_DIR` when set and non-empty, else `~/.cursor`. A test
//! double must never change a developer's own Cursor settings, so `~/.cursor` is written only
//! when `HOME` lies inside the system's temporary folder (a test's home); a file that is not a
//! JSON object is left alone.

use std::path::PathBuf;

use serde_json::Map;
use serde_json::Value;

use crate::config;
use crate::error::Error;

/// The file name inside the config dir.
const FILE: &str = "cli-config.json";

/// The config dir the fake may write, if any.
fn config_dir() -> Option<PathBuf> {
    if let Some(dir) = config::path(config::CURSOR_CONFIG_DIR) {
        return Some(dir);
    }
    let home = config::path("HOME")?;
    let temp = std::env::temp_dir();
    let temp = std::fs::canonicalize(&temp).unwrap_or(temp);
    let real_home = std::fs::canonicalize(&home).unwrap_or_else(|_| home.clone());
    real_home.starts_with(&temp).then(|| home.join(".cursor"))
}

/// Records `model` as the chosen model.
pub(crate) fn remember_model(model: &str) -> Result<(), Error> {
    if config::turned_off(config::PERSIST_MODEL) {
        return Ok(());
    }
    let Some(dir) = config_dir() else {
        return Ok(());
    };
    let Some(mut document) = read_document(&dir)? else {
        return Ok(());
    };
    let mut chosen = match document.remove("model") {
        Some(Value::Object(chosen)) => chosen,
        _ => Map::new(),
    };
    chosen.insert("modelId".into(), Value::String(model.to_owned()));
    document.insert("model".into(), Value::Object(chosen));
    document.insert("hasChangedDefaultModel".into(), Value::Bool(true));
    write_document(&dir, document)
}

/// Stores a login as the real CLI does (its credentials in `authInfo`, 2026.06), or removes it
/// (`None`, `logout`); everything else kept. Nothing when the config dir may not be written.
pub(crate) fn store_login(email: Option<&str>) -> Result<(), Error> {
    let Some(dir) = config_dir() else {
        return Ok(());
    };
    let Some(mut document) = read_document(&dir)? else {
        return Ok(());
    };
    match email {
        Some(email) => {
            let mut info = Map::new();
            info.insert("email".into(), Value::String(email.to_owned()));
            info.insert("accessToken".into(), Value::String(crate::ids::uuid()));
            document.insert("authInfo".into(), Value::Object(info));
        }
        None => {
            if document.remove("authInfo").is_none() {
                return Ok(());
            }
        }
    }
    write_document(&dir, document)
}

/// The config file in `dir` as an object (empty when absent); `None` when it is not a JSON
/// object (left alone, as the real CLI would back it up rather than edit it).
fn read_document(dir: &std::path::Path) -> Result<Option<Map<String, Value>>, Error> {
    let path = dir.join(FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) => match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(document)) => Ok(Some(document)),
            _ => Ok(None),
        },
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Some(Map::new())),
        Err(error) => Err(Error::io("reading", &path, &error)),
    }
}

/// Writes `document` as the config file in `dir`, through a temporary file renamed over it.
fn write_document(dir: &std::path::Path, document: Map<String, Value>) -> Result<(), Error> {
    let path = dir.join(FILE);
    let text = serde_json::to_string_pretty(&Value::Object(document))
        .map_err(|error| Error::new(format!("encoding {FILE}: {error}")))?;
    std::fs::create_dir_all(dir).map_err(|error| Error::io("creating", dir, &error))?;
    let temporary = dir.join(format!(".{FILE}.{}.tmp", std::process::id()));
    std::fs::write(&temporary, text + "\n")
        .map_err(|error| Error::io("writing", &temporary, &error))?;
    std::fs::rename(&temporary, &path).map_err(|error| Error::io("renaming", &temporary, &error))
}
