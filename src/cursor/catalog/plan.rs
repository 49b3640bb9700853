//! What the Cursor account's plan lets it run, as last seen: `<state>/plan.json`, written when
//! Cursor refuses a named model because the plan runs only Auto (`ActionRequiredError: Named
//! models unavailable Free plans can only use Auto.`, 2026.10.01) and removed when a named model
//! answers. The launcher then offers only Auto in the `/model` picker (and to workers), with a
//! line saying why, instead of rows that would each fail the same way.

use std::path::Path;
use std::path::PathBuf;
use std::time::SystemTime;
use std::time::UNIX_EPOCH;

use serde::Deserialize;
use serde::Serialize;

use super::AUTO_ROUTE;
use super::Picker;

/// File name inside the state folder.
const PLAN_FILE: &str = "plan.json";

/// Largest plan file read, in bytes (a real one is under 1 KiB).
const MAX_PLAN_BYTES: u64 = 64 * 1024;

/// Longest quotation of Cursor's words kept, in characters.
const MAX_SAID_CHARS: usize = 300;

/// The plan file: `{"autoOnly":true,"seenAtMs":…,"said":"…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PlanNote {
    /// The account's plan runs only Auto.
    pub auto_only: bool,
    /// When Cursor said so, in milliseconds since the Unix epoch.
    pub seen_at_ms: u64,
    /// Cursor's words (sanitised, on one line, bounded).
    pub said: String,
}

fn plan_path(state_dir: &Path) -> PathBuf {
    state_dir.join(PLAN_FILE)
}

/// The plan as last seen, when Cursor said it runs only Auto. A missing, unreadable or damaged
/// file is `None` (the picker then offers every row, as before anything was seen).
pub(crate) fn auto_only(state_dir: &Path) -> Option<PlanNote> {
    let path = plan_path(state_dir);
    let bytes = match crate::state::read_state_file(&path, MAX_PLAN_BYTES) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return None,
        Err(error) => {
            tracing::warn!(path = %path.display(), %error, "ignoring the plan note: it cannot be read");
            return None;
        }
    };
    match serde_json::from_slice::<PlanNote>(&bytes) {
        Ok(note) if note.auto_only => Some(note),
        Ok(_) => None,
        Err(error) => {
            tracing::warn!(path = %path.display(), %error, "ignoring the damaged plan note");
            None
        }
    }
}

/// Notes that Cursor refused a named model because the plan runs only Auto (`said`: its words).
pub(crate) fn note_auto_only(state_dir: &Path, said: &str) -> Result<(), crate::state::StateError> {
    let seen_at_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or_default();
    let said = crate::text::clip_chars(&crate::text::one_line(said), MAX_SAID_CHARS);
    let note = PlanNote {
        auto_only: true,
        seen_at_ms,
        said,
    };
    let path = plan_path(state_dir);
    let bytes = serde_json::to_vec_pretty(&note).map_err(|error| crate::state::StateError::Io {
        path: path.clone(),
        source: std::io::Error::other(error),
    })?;
    crate::state::ensure_private_dir(state_dir)?;
    crate::state::write_private_atomic(&path, &bytes)
}

/// Forgets an Auto-only note: a named model answered, so the plan runs more than Auto now.
pub(crate) fn clear_auto_only(state_dir: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(plan_path(state_dir)) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

impl Picker {
    /// The rows an Auto-only plan can run: Auto alone (no row at all when the catalog lacks
    /// Auto). Extra ids asked for are kept as asked, so their check still names them.
    pub(crate) fn auto_only(self) -> Picker {
        Picker {
            rows: self
                .rows
                .into_iter()
                .filter(|row| row.model == AUTO_ROUTE)
                .collect(),
            unavailable: self.unavailable,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_is_read_back_and_cleared() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(auto_only(dir.path()), None);
        let said = "ActionRequiredError: Named models unavailable Free plans can only use Auto.";
        note_auto_only(dir.path(), said).unwrap();
        let note = auto_only(dir.path()).unwrap();
        assert_eq!(note.said, said);
        assert!(note.seen_at_ms > 0);
        clear_auto_only(dir.path()).unwrap();
        assert_eq!(auto_only(dir.path()), None);
        clear_auto_only(dir.path()).unwrap();
    }

    #[test]
    fn a_damaged_note_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(PLAN_FILE), b"{not json").unwrap();
        assert_eq!(auto_only(dir.path()), None);
    }
}
