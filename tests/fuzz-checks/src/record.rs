//! Session record loading (`session::record`): the v3 loader, the legacy v2 loader, the
//! migration and the v2/v3 ambiguity check, on arbitrary file bytes.
//!
//! Input: the bytes of a record file (seeds are records written by the real `Record::save`
//! and legacy records in the documented v2 shape; see `seeds.rs`). The identity
//! asked for is the file's own `identity` when it has one, so inputs get past the identity
//! check. Checked besides "no panic":
//! - an existing file is never reported as absent;
//! - a record that loads saves and loads back equal (unknown fields included);
//! - a migrated legacy record names the legacy chat, is not ambiguous with its source, and
//!   saves and loads back equal.

use std::path::Path;
use std::path::PathBuf;
use std::sync::OnceLock;

use multi_cursor::session::record;
use serde_json::Value;

/// A private `sessions` folder on tmpfs when there is one.
fn sessions() -> &'static Path {
    static DIR: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &DIR.get_or_init(|| {
        let dir = crate::scratch_dir();
        let sessions = dir.path().join("sessions");
        multi_cursor::state::ensure_private_dir(&sessions).expect("the sessions folder");
        (dir, sessions)
    })
    .1
}

fn round_trip(record: &record::Record, path: &Path, identity: &Value) {
    record.save(path).expect("saving a valid record");
    let again = record::load(path, identity)
        .unwrap_or_else(|e| panic!("a saved record does not load: {e}"))
        .expect("a saved record is present");
    assert_eq!(
        &again, record,
        "the record changed on a save/load round trip"
    );
}

/// One input: panics when a property above does not hold.
pub fn check(data: &[u8]) {
    let dir = sessions();
    let current = dir.join("fuzz.v3.json");
    let legacy_path = dir.join("fuzz.json");
    let saved = dir.join("saved.v3.json");
    let identity = serde_json::from_slice::<Value>(data)
        .ok()
        .and_then(|v| v.get("identity").cloned())
        .unwrap_or_else(|| serde_json::json!(["/w", "s", "main"]));
    std::fs::write(&current, data).expect("writing the v3 file");
    std::fs::write(&legacy_path, data).expect("writing the v2 file");

    let v3 = record::load(&current, &identity);
    let v2 = record::load_legacy(&legacy_path, &identity);
    assert!(
        !matches!(v3, Ok(None)),
        "an existing v3 file was reported absent"
    );
    assert!(
        !matches!(v2, Ok(None)),
        "an existing v2 file was reported absent"
    );
    if let Err(error) = &v3 {
        let _ = error.to_string();
    }

    if let Ok(Some(current_record)) = &v3 {
        let _ = current_record.answer_text();
        round_trip(current_record, &saved, &identity);
        let other = record::LegacyRecord {
            version: record::LEGACY_VERSION,
            identity: identity.clone(),
            agent_id: "\u{0}another chat".to_string(),
            pending: false,
            response: None,
            replay: None,
        };
        let expected = current_record
            .migrated_from
            .as_ref()
            .is_none_or(|m| m.path != legacy_path)
            && current_record.chat_id.as_deref() != Some(other.agent_id.as_str());
        assert_eq!(
            record::ambiguous(current_record, &other, &legacy_path),
            expected
        );
    }
    if let Ok(Some(old)) = v2 {
        // A fresh v3 with no chat, not migrated from this file, disagrees with it; one
        // naming the same chat does not.
        let mut fresh = record::Record::new(identity.clone());
        assert!(
            record::ambiguous(&fresh, &old, &legacy_path),
            "a chat-less v3 agrees"
        );
        fresh.chat_id = Some(old.agent_id.clone());
        assert!(
            !record::ambiguous(&fresh, &old, &legacy_path),
            "the same chat disagrees"
        );
        let migrated = record::migrate(old.clone(), &legacy_path);
        assert_eq!(migrated.chat_id.as_deref(), Some(old.agent_id.as_str()));
        assert_eq!(migrated.interrupted, old.pending);
        assert!(
            !record::ambiguous(&migrated, &old, &legacy_path),
            "migrated yet ambiguous"
        );
        round_trip(&migrated, &saved, &identity);
    }
}
