//! One entry added to the allow list of a workspace's `.cursor/cli.json`, when the user allowed
//! a command, fetch or MCP call that Cursor's allowlist had blocked (`crate::dialog`): for good
//! ("allow in this workspace"), or for one resumed run ("allow once"), after which the file is
//! put back.
//!
//! The edit is made on the text (comments, order and spacing kept), parsed again and compared
//! with the intended value; nothing is written when they differ. The put-back restores the
//! bytes the file had (removes the file when there was none) while it still holds exactly our
//! edit; when something else changed it meanwhile (Cursor, the user), only our entry is taken
//! out and the other change is kept. A link, a file over the size cap, or a file that is not
//! a JSON object is never edited.

use std::io::Write;
use std::path::Path;
use std::path::PathBuf;

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::CstInputValue;
use jsonc_parser::cst::CstRootNode;
use serde_json::Value;
use thiserror::Error;

use super::model_put_back::read_plain;
use super::model_put_back::replace_if_unchanged;

/// Why an entry could not be added.
#[derive(Debug, Error)]
pub(crate) enum AllowError {
    /// The file is a link, too large, unreadable or not UTF-8.
    #[error("{path} was not changed: {reason}")]
    Unreadable { path: PathBuf, reason: &'static str },
    /// The file is not a JSON object with an object `permissions` and an array `allow`.
    #[error("{path} was not changed: its permissions.allow cannot be edited safely")]
    NotEditable { path: PathBuf },
    /// Writing failed, or the file changed while it was written.
    #[error("{path} was not changed: writing it failed ({reason})")]
    Write { path: PathBuf, reason: String },
}

/// An allow entry added to a project config, until it is kept or put back.
#[derive(Debug)]
pub(crate) struct AllowEntry {
    path: PathBuf,
    token: String,
    /// The file's text before (`None`: there was no file).
    before: Option<String>,
    /// The text written.
    after: String,
    settled: bool,
}

/// What [`AllowEntry::put_back`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AllowPutBack {
    /// The file's bytes are what they were (or it is gone again, as it was).
    Restored,
    /// The file changed meanwhile: only our entry was taken out.
    EntryRemoved,
    /// Nothing could be done safely, and why.
    Left(&'static str),
}

impl AllowEntry {
    /// Adds `token` to `permissions.allow` of the project config at `path`, creating the file
    /// (`{"permissions": {"allow": [token]}}`) when there is none. Blocking.
    pub(crate) fn add(path: &Path, token: &str) -> Result<AllowEntry, AllowError> {
        let unreadable = |reason| AllowError::Unreadable {
            path: path.to_path_buf(),
            reason,
        };
        let before = match read_plain(path).map_err(unreadable)? {
            Some(bytes) => {
                Some(String::from_utf8(bytes).map_err(|_| unreadable("it is not UTF-8"))?)
            }
            None => None,
        };
        let source = before.as_deref().unwrap_or("{}\n");
        let after = with_entry(source, token).ok_or_else(|| AllowError::NotEditable {
            path: path.to_path_buf(),
        })?;
        let written = match &before {
            Some(text) => replace_if_unchanged(path, text, &after).and_then(|done| {
                if done {
                    Ok(())
                } else {
                    Err(std::io::Error::other("it changed while it was written"))
                }
            }),
            None => create(path, &after),
        };
        written.map_err(|error| AllowError::Write {
            path: path.to_path_buf(),
            reason: error.to_string(),
        })?;
        Ok(AllowEntry {
            path: path.to_path_buf(),
            token: token.to_string(),
            before,
            after,
            settled: false,
        })
    }

    /// The file edited.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Keeps the entry for good.
    pub(crate) fn keep(mut self) {
        self.settled = true;
    }

    /// Puts the file back (see the module documentation). Blocking.
    pub(crate) fn put_back(mut self) -> AllowPutBack {
        self.put_back_now()
    }

    fn put_back_now(&mut self) -> AllowPutBack {
        if self.settled {
            return AllowPutBack::Left("already settled");
        }
        self.settled = true;
        let current = match read_plain(&self.path) {
            Ok(Some(bytes)) => match String::from_utf8(bytes) {
                Ok(text) => text,
                Err(_) => return AllowPutBack::Left("it is not UTF-8"),
            },
            Ok(None) => return AllowPutBack::Left("the file is gone"),
            Err(reason) => return AllowPutBack::Left(reason),
        };
        if current == self.after {
            let restored = match &self.before {
                Some(text) => replace_if_unchanged(&self.path, &current, text),
                None => std::fs::remove_file(&self.path).map(|()| true),
            };
            return match restored {
                Ok(true) => AllowPutBack::Restored,
                Ok(false) => AllowPutBack::Left("the file changed while it was put back"),
                Err(_) => AllowPutBack::Left("writing it failed"),
            };
        }
        let Some(edited) = without_entry(&current, &self.token) else {
            return AllowPutBack::Left("our entry cannot be taken out safely");
        };
        match replace_if_unchanged(&self.path, &current, &edited) {
            Ok(true) => AllowPutBack::EntryRemoved,
            Ok(false) => AllowPutBack::Left("the file changed while it was put back"),
            Err(_) => AllowPutBack::Left("writing it failed"),
        }
    }
}

impl Drop for AllowEntry {
    fn drop(&mut self) {
        if !self.settled {
            let outcome = self.put_back_now();
            tracing::debug!(path = %self.path.display(), ?outcome, "allow-once entry put back");
        }
    }
}

/// `text` with `token` appended to `permissions.allow`, checked by parsing it again.
fn with_entry(text: &str, token: &str) -> Option<String> {
    let mut expected: Value =
        jsonc_parser::parse_to_serde_value(text, &ParseOptions::default()).ok()?;
    let allow = expected
        .as_object_mut()?
        .entry("permissions")
        .or_insert_with(|| Value::Object(serde_json::Map::new()))
        .as_object_mut()?
        .entry("allow")
        .or_insert_with(|| Value::Array(Vec::new()))
        .as_array_mut()?;
    allow.push(Value::String(token.to_string()));
    let root = CstRootNode::parse(text, &ParseOptions::default()).ok()?;
    root.object_value()?
        .object_value_or_create("permissions")?
        .array_value_or_create("allow")?
        .append(CstInputValue::String(token.to_string()));
    let edited = root.to_string();
    let check: Value =
        jsonc_parser::parse_to_serde_value(&edited, &ParseOptions::default()).ok()?;
    (check == expected).then_some(edited)
}

/// `text` with the last `token` entry of `permissions.allow` taken out, checked likewise.
fn without_entry(text: &str, token: &str) -> Option<String> {
    let mut expected: Value =
        jsonc_parser::parse_to_serde_value(text, &ParseOptions::default()).ok()?;
    let allow = expected.pointer_mut("/permissions/allow")?.as_array_mut()?;
    let at = allow.iter().rposition(|v| v.as_str() == Some(token))?;
    allow.remove(at);
    let root = CstRootNode::parse(text, &ParseOptions::default()).ok()?;
    let array = root
        .object_value()?
        .object_value("permissions")?
        .array_value("allow")?;
    let element = array.elements().into_iter().rev().find(|node| {
        node.as_string_lit()
            .and_then(|lit| lit.decoded_value().ok())
            .is_some_and(|value| value == token)
    })?;
    element.remove();
    let edited = root.to_string();
    let check: Value =
        jsonc_parser::parse_to_serde_value(&edited, &ParseOptions::default()).ok()?;
    (check == expected).then_some(edited)
}

/// Creates the file (and its `.cursor` folder) with `text`; never over an existing one.
fn create(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    const WITH_COMMENTS: &str = "{\n  // ours\n  \"permissions\": {\n    \"allow\": [\"Shell(ls)\"],\n    \"deny\": [\"Shell(rm)\"]\n  }\n}\n";

    #[test]
    fn an_entry_added_once_is_put_back_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".cursor/cli.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, WITH_COMMENTS).unwrap();
        let entry = AllowEntry::add(&path, "Shell(curl)").unwrap();
        let during = std::fs::read_to_string(&path).unwrap();
        assert!(during.contains("// ours"), "{during}");
        assert!(during.contains("\"Shell(curl)\""), "{during}");
        assert_eq!(entry.put_back(), AllowPutBack::Restored);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), WITH_COMMENTS);
    }

    #[test]
    fn a_file_that_was_absent_is_removed_again_and_one_kept_stays() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".cursor/cli.json");
        let entry = AllowEntry::add(&path, "WebFetch(example.com)").unwrap();
        let value: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(
            value["permissions"]["allow"],
            serde_json::json!(["WebFetch(example.com)"])
        );
        drop(entry);
        assert!(!path.exists(), "dropping an unsettled entry puts it back");
        AllowEntry::add(&path, "Shell(curl)").unwrap().keep();
        assert!(
            std::fs::read_to_string(&path)
                .unwrap()
                .contains("Shell(curl)")
        );
    }

    #[test]
    fn a_change_made_meanwhile_is_kept_and_only_our_entry_leaves() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cli.json");
        std::fs::write(&path, WITH_COMMENTS).unwrap();
        let entry = AllowEntry::add(&path, "Shell(curl)").unwrap();
        let during = std::fs::read_to_string(&path).unwrap();
        std::fs::write(
            &path,
            during.replace("\"Shell(rm)\"", "\"Shell(rm)\", \"Shell(dd)\""),
        )
        .unwrap();
        assert_eq!(entry.put_back(), AllowPutBack::EntryRemoved);
        let after = std::fs::read_to_string(&path).unwrap();
        assert!(
            after.contains("Shell(dd)") && !after.contains("Shell(curl)"),
            "{after}"
        );
        assert!(after.contains("// ours"));
    }

    #[test]
    fn links_and_odd_files_are_never_edited() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cli.json");
        std::fs::write(&path, "[1, 2]").unwrap();
        assert!(matches!(
            AllowEntry::add(&path, "Shell(x)"),
            Err(AllowError::NotEditable { .. })
        ));
        std::fs::write(&path, "{\"permissions\": {\"allow\": 3}}").unwrap();
        assert!(matches!(
            AllowEntry::add(&path, "Shell(x)"),
            Err(AllowError::NotEditable { .. })
        ));
        #[cfg(unix)]
        {
            let link = dir.path().join("link.json");
            std::os::unix::fs::symlink(&path, &link).unwrap();
            assert!(matches!(
                AllowEntry::add(&link, "Shell(x)"),
                Err(AllowError::Unreadable { .. })
            ));
        }
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"permissions\": {\"allow\": 3}}"
        );
    }
}
