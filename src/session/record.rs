//! The durable record of one identity's Cursor conversation: the v3 format the
//! gateway writes, the legacy v2 format it migrates from, and validation on load.
//!
//! A record that cannot be read as exactly one of those is refused with its path and is never
//! overwritten: it may hold the only link to a user's Cursor chat.

use std::path::Path;
use std::path::PathBuf;

use serde::Deserialize;
use serde::Serialize;
use serde_json::Map;
use serde_json::Value;
use thiserror::Error;

use crate::anthropic::StreamEvent;
use crate::rules::ChatRules;

/// The record format this release writes.
pub(crate) const RECORD_VERSION: u64 = 3;
/// The legacy format this release migrates from.
pub const LEGACY_VERSION: u64 = 2;
/// `provider` of every record.
pub(crate) const PROVIDER: &str = "cursor";

/// How the last turn of a record ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Completed,
    Cancelled,
    Failed,
}

/// A turn that was started and has not been recorded as over. A gateway that finds one left
/// by a predecessor ends the process group, but only if its leader still has `process_start`
/// and carries `marker` in its environment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingRun {
    /// Exchange key of the request that started it.
    pub key: String,
    /// Cursor model id it ran.
    pub model: String,
    /// Process group id (= leader pid).
    pub pgid: i32,
    /// RFC 3339.
    pub started_at: String,
    /// The leader's start time in clock ticks since boot, when it could be read.
    pub process_start: Option<u64>,
    /// The random run marker set in the agent child's environment (`MULTI_CURSOR_RUN_MARKER`):
    /// the proof that the group is ours. A record written by a release that set none has no
    /// marker, and its group is never signalled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marker: Option<String>,
}

/// The events of the last completed exchange, replayed verbatim to an identical request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// Exchange key.
    pub key: String,
    /// The events in order, stored as `[event name, data]` pairs (`replay_events`).
    #[serde(with = "replay_events")]
    pub events: Vec<StreamEvent>,
}

/// A replay's events on disk: `[event name, data]` pairs, the data exactly as the event's SSE
/// `data:` object. Reading one back checks the name is a Messages event and agrees with the
/// data's `type`; anything else makes the record unreadable (refused, never overwritten).
mod replay_events {
    use serde::Deserialize;
    use serde::Deserializer;
    use serde::Serialize;
    use serde::Serializer;
    use serde::de::Error;
    use serde_json::Value;

    use crate::anthropic::StreamEvent;

    pub(super) fn serialize<S: Serializer>(
        events: &[StreamEvent],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let data: Vec<Value> = events.iter().map(StreamEvent::data).collect();
        let pairs: Vec<(&str, &Value)> = data
            .iter()
            .map(|data| (StreamEvent::name_of(data), data))
            .collect();
        pairs.serialize(serializer)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<StreamEvent>, D::Error> {
        let pairs: Vec<(String, Value)> = Vec::deserialize(deserializer)?;
        pairs
            .into_iter()
            .map(|(name, data)| {
                let kind = StreamEvent::name_of(&data).to_string();
                let event: StreamEvent = serde_json::from_value(data).map_err(|error| {
                    D::Error::custom(format!(
                        "its replay's {name:?} event is unreadable: {error}"
                    ))
                })?;
                // The data was read as an event, so its `type` is a Messages event name.
                if kind != name {
                    return Err(D::Error::custom(format!(
                        "its replay has an event {name:?} that holds a {kind:?} event"
                    )));
                }
                Ok(event)
            })
            .collect()
    }
}

/// Where a migrated record came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MigratedFrom {
    pub path: PathBuf,
    pub agent_id: String,
}

/// A v3 record: `<state>/sessions/<digest>.v3.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    pub version: u64,
    pub provider: String,
    /// The identity array `[workspace, session, worker]`.
    pub identity: Value,
    /// Cursor's chat id, saved as soon as `system/init` names it.
    pub chat_id: Option<String>,
    /// A turn started and was not seen to end (crash) or failed after Cursor may have acted:
    /// the next turn tells Cursor so.
    pub interrupted: bool,
    pub pending_run: Option<PendingRun>,
    pub last_outcome: Option<Outcome>,
    /// The last completed Messages response.
    pub response: Option<Value>,
    pub replay: Option<Replay>,
    /// The permission mode and admitted rules the last turn ran under.
    pub policy: Option<String>,
    #[serde(default)]
    pub attached_rules: Vec<String>,
    #[serde(default)]
    pub fired_rules: Vec<String>,
    /// Rules the next prompt must carry (attached or fired during the last turn).
    #[serde(default)]
    pub pending_rules: Vec<String>,
    pub rulebook_digest: Option<String>,
    pub migrated_from: Option<MigratedFrom>,
    /// The route a worker's `model:` line chose on its first turn: its later turns (whose
    /// prompts carry no such line) run on it too, in the same chat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worker_model: Option<String>,
    /// The dialog of Claude Code's that the last answer opened and the session waits on (the
    /// user's pick resumes the chat: `crate::dialog`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialog: Option<crate::dialog::pending::PendingDialog>,
    /// Fields a later release added: kept as they are.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Record {
    /// A record for an identity that has never run a turn.
    pub fn new(identity: Value) -> Record {
        Record {
            version: RECORD_VERSION,
            provider: PROVIDER.to_string(),
            identity,
            chat_id: None,
            interrupted: false,
            pending_run: None,
            last_outcome: None,
            response: None,
            replay: None,
            policy: None,
            attached_rules: Vec::new(),
            fired_rules: Vec::new(),
            pending_rules: Vec::new(),
            rulebook_digest: None,
            migrated_from: None,
            worker_model: None,
            dialog: None,
            extra: Map::new(),
        }
    }

    /// The text of the recorded answer, as Claude Code keeps it in its history.
    pub fn answer_text(&self) -> Option<String> {
        let content = self.response.as_ref()?.get("content")?.as_array()?;
        Some(
            content
                .iter()
                .filter_map(|block| block.get("text").and_then(Value::as_str))
                .collect::<String>(),
        )
    }

    /// A copy to roll back to after a failed write, without the unknown fields ([`Record::extra`]),
    /// which no turn changes and which may be most of a large record: [`Record::roll_back`]
    /// keeps the current ones. Saves holding a large record three times during a write.
    pub(crate) fn snapshot(&mut self) -> Record {
        let extra = std::mem::take(&mut self.extra);
        let copy = self.clone();
        self.extra = extra;
        copy
    }

    /// Goes back to `snapshot` ([`Record::snapshot`]), keeping the unknown fields.
    pub(crate) fn roll_back(&mut self, mut snapshot: Record) {
        snapshot.extra = std::mem::take(&mut self.extra);
        *self = snapshot;
    }

    /// The chat's rule state (what the rulebook has delivered to this Cursor chat).
    pub(crate) fn chat_rules(&self) -> ChatRules {
        ChatRules {
            rulebook_digest: self.rulebook_digest.clone(),
            attached_rules: self.attached_rules.iter().cloned().collect(),
            fired_rules: self.fired_rules.iter().cloned().collect(),
            pending_rules: self.pending_rules.clone(),
        }
    }

    /// Stores the chat's rule state.
    pub(crate) fn set_chat_rules(&mut self, chat: &ChatRules) {
        self.rulebook_digest.clone_from(&chat.rulebook_digest);
        self.attached_rules = chat.attached_rules.iter().cloned().collect();
        self.fired_rules = chat.fired_rules.iter().cloned().collect();
        self.pending_rules.clone_from(&chat.pending_rules);
    }

    /// Writes the record atomically (0600, temp + fsync + rename + directory fsync).
    pub fn save(&self, path: &Path) -> Result<(), RecordError> {
        write_bytes(path, &self.to_bytes(path)?)
    }

    /// The record as its file holds it (`path` only names it in an error).
    pub(crate) fn to_bytes(&self, path: &Path) -> Result<Vec<u8>, RecordError> {
        serde_json::to_vec_pretty(self).map_err(|e| write_error(path, std::io::Error::other(e)))
    }
}

/// Writes a record's bytes ([`Record::to_bytes`]) atomically, as [`Record::save`] does.
pub(crate) fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), RecordError> {
    crate::state::write_private_atomic(path, bytes).map_err(|source| RecordError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// A write of the record at `path` that failed with `source`.
pub(crate) fn write_error(path: &Path, source: std::io::Error) -> RecordError {
    RecordError::Write {
        path: path.to_path_buf(),
        source: crate::state::StateError::Io {
            path: path.to_path_buf(),
            source,
        },
    }
}

/// A legacy v2 record: `<state>/sessions/<digest>.json`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LegacyRecord {
    pub version: u64,
    pub identity: Value,
    pub agent_id: String,
    #[serde(default)]
    pub pending: bool,
    pub response: Option<Value>,
    pub replay: Option<Replay>,
}

/// A record that cannot be used. Each message names the file and what the user can do.
#[derive(Debug, Error)]
pub enum RecordError {
    #[error(
        "the session record {path} cannot be read ({detail}); multi-cursor will not overwrite it. Move it out of the state folder to start this session's Cursor chat afresh, or restore it from a backup"
    )]
    Corrupted { path: PathBuf, detail: String },
    #[error(
        "the session record {path} has version {version}, which this release of multi-cursor does not know; it was left untouched. Update multi-cursor, or move the file out of the state folder"
    )]
    UnknownVersion { path: PathBuf, version: String },
    #[error(
        "two records claim this session's Cursor chat: the current record {current} (chat {current_chat}) and the legacy record {legacy} (chat {legacy_chat}). Stop every multi-cursor gateway, back up both files, compare them with Cursor's chat history, and move the one that is not authoritative out of the state folder (README: \"Recovering from two session records\")"
    )]
    Ambiguous {
        current: PathBuf,
        current_chat: String,
        legacy: PathBuf,
        legacy_chat: String,
    },
    #[error("could not write the session record {path}: {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: crate::state::StateError,
    },
}

/// Largest record read, in bytes: a larger one is refused with its path and size (and never
/// overwritten). Parsing holds the bytes and the JSON tree at once, about three times this.
pub(crate) const MAX_RECORD_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a record that may not exist: opened once without following a link, checked on that
/// descriptor (a regular file of this user, at most [`MAX_RECORD_BYTES`]) and read from it, so a
/// link swapped in after any earlier check is never followed.
fn read_optional(path: &Path) -> Result<Option<Vec<u8>>, RecordError> {
    crate::state::read_state_file(path, MAX_RECORD_BYTES).map_err(|error| RecordError::Corrupted {
        path: path.to_path_buf(),
        detail: error.to_string(),
    })
}

fn corrupted(path: &Path, detail: impl Into<String>) -> RecordError {
    RecordError::Corrupted {
        path: path.to_path_buf(),
        detail: detail.into(),
    }
}

/// A record's `version`, read without building the rest of the document (the other fields
/// are skipped, not kept), so a large record is not held twice while it is checked.
#[derive(Deserialize)]
struct VersionProbe {
    version: Option<Value>,
}

/// The `version` of a record's JSON `bytes`, checked before its shape.
fn check_version(path: &Path, bytes: &[u8], expected: u64) -> Result<(), RecordError> {
    let probe: VersionProbe =
        serde_json::from_slice(bytes).map_err(|e| corrupted(path, e.to_string()))?;
    let mut value = Map::new();
    if let Some(version) = probe.version {
        value.insert("version".to_string(), version);
    }
    version_of(path, &Value::Object(value), expected)
}

/// The `version` of a record's JSON, checked before its shape.
fn version_of(path: &Path, value: &Value, expected: u64) -> Result<(), RecordError> {
    match value.get("version") {
        Some(Value::Number(n)) if n.as_u64() == Some(expected) => Ok(()),
        Some(other) => Err(RecordError::UnknownVersion {
            path: path.to_path_buf(),
            version: other.to_string(),
        }),
        None => Err(corrupted(path, "it has no version")),
    }
}

fn check_identity(path: &Path, found: &Value, identity: &Value) -> Result<(), RecordError> {
    if found == identity {
        Ok(())
    } else {
        Err(corrupted(
            path,
            format!("it belongs to identity {found}, not {identity}"),
        ))
    }
}

fn check_replay(path: &Path, replay: Option<&Replay>) -> Result<(), RecordError> {
    let Some(replay) = replay else { return Ok(()) };
    if replay.key.len() != 64 || !replay.key.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(corrupted(path, "its replay key is not a sha256"));
    }
    Ok(())
}

fn check_response(path: &Path, response: Option<&Value>) -> Result<(), RecordError> {
    match response {
        None => Ok(()),
        Some(r) if r.get("content").is_some_and(Value::is_array) => Ok(()),
        Some(_) => Err(corrupted(path, "its response has no content array")),
    }
}

/// Loads a v3 record, or `None` when there is none. Anything else is refused.
pub fn load(path: &Path, identity: &Value) -> Result<Option<Record>, RecordError> {
    let Some(bytes) = read_optional(path)? else {
        return Ok(None);
    };
    // Parsed straight into the record (no intermediate JSON tree), the bytes dropped at once:
    // a record near the cap costs about twice its size while loading, not three times.
    check_version(path, &bytes, RECORD_VERSION)?;
    let record: Record =
        serde_json::from_slice(&bytes).map_err(|e| corrupted(path, e.to_string()))?;
    drop(bytes);
    if record.provider != PROVIDER {
        return Err(corrupted(
            path,
            format!("its provider is {:?}", record.provider),
        ));
    }
    check_identity(path, &record.identity, identity)?;
    check_replay(path, record.replay.as_ref())?;
    check_response(path, record.response.as_ref())?;
    if record.chat_id.as_deref() == Some("") {
        return Err(corrupted(path, "its chat id is empty"));
    }
    Ok(Some(record))
}

/// Loads a legacy v2 record, or `None` when there is none.
pub fn load_legacy(path: &Path, identity: &Value) -> Result<Option<LegacyRecord>, RecordError> {
    let Some(bytes) = read_optional(path)? else {
        return Ok(None);
    };
    let value: Value =
        serde_json::from_slice(&bytes).map_err(|e| corrupted(path, e.to_string()))?;
    version_of(path, &value, LEGACY_VERSION)?;
    let legacy: LegacyRecord =
        serde_json::from_value(value).map_err(|e| corrupted(path, e.to_string()))?;
    check_identity(path, &legacy.identity, identity)?;
    check_replay(path, legacy.replay.as_ref())?;
    check_response(path, legacy.response.as_ref())?;
    if legacy.agent_id.is_empty() {
        return Err(corrupted(path, "its agentId is empty"));
    }
    Ok(Some(legacy))
}

/// The v3 record a legacy one becomes: the chat is the old `agentId`, a pending turn becomes
/// an interruption, and `migratedFrom` names the legacy file (which is left untouched).
pub fn migrate(legacy: LegacyRecord, legacy_path: &Path) -> Record {
    let mut record = Record::new(legacy.identity);
    record.chat_id = Some(legacy.agent_id.clone());
    record.interrupted = legacy.pending;
    record.response = legacy.response;
    record.replay = legacy.replay;
    record.migrated_from = Some(MigratedFrom {
        path: legacy_path.to_path_buf(),
        agent_id: legacy.agent_id,
    });
    record
}

/// Whether a current and a legacy record disagree on who owns the chat: the current one was
/// not migrated from this legacy file and names another chat.
pub fn ambiguous(current: &Record, legacy: &LegacyRecord, legacy_path: &Path) -> bool {
    let migrated_from_it = current
        .migrated_from
        .as_ref()
        .is_some_and(|m| m.path == legacy_path);
    !migrated_from_it && current.chat_id.as_deref() != Some(legacy.agent_id.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roll_back_restores_the_fields_and_keeps_the_unknown_ones() {
        let mut record = Record::new(serde_json::json!(["/w", "s", "main"]));
        record.extra.insert("bulk".into(), serde_json::json!("x"));
        let snapshot = record.snapshot();
        assert!(
            snapshot.extra.is_empty(),
            "the unknown fields are not copied"
        );
        record.interrupted = true;
        record.chat_id = Some("c".into());
        record.roll_back(snapshot);
        assert!(!record.interrupted);
        assert_eq!(record.chat_id, None);
        assert_eq!(record.extra["bulk"], "x");
    }

    #[test]
    fn a_symlinked_record_is_not_loaded() {
        let dir = tempfile::tempdir().unwrap();
        let identity = serde_json::json!(["/w", "s", "main"]);
        let elsewhere = dir.path().join("elsewhere.json");
        std::fs::write(
            &elsewhere,
            serde_json::to_vec(&Record::new(identity.clone())).unwrap(),
        )
        .unwrap();
        let path = dir.path().join("r.v3.json");
        crate::platform::testing::skip_unless!(crate::platform::testing::symlink_file(
            &elsewhere, &path
        ));
        let error = load(&path, &identity).unwrap_err();
        assert!(error.to_string().contains("symlink"), "{error}");
    }

    #[test]
    fn unknown_fields_survive_a_round_trip() {
        let identity = serde_json::json!(["/w", "s", "main"]);
        let mut value = serde_json::to_value(Record::new(identity)).unwrap();
        value["futureField"] = serde_json::json!({"kept": true});
        let record: Record = serde_json::from_value(value).unwrap();
        let again = serde_json::to_value(&record).unwrap();
        assert_eq!(again["futureField"]["kept"], true);
        assert_eq!(again["version"], 3);
        assert_eq!(again["pendingRun"], Value::Null);
    }

    #[test]
    fn answer_text_joins_text_blocks() {
        let mut record = Record::new(serde_json::json!(["/w", "s", "main"]));
        record.response = Some(
            serde_json::json!({"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}),
        );
        assert_eq!(record.answer_text().as_deref(), Some("ab"));
    }

    /// A replay is stored as `[name, data]` pairs and read back as typed events; a name that
    /// is no Messages event, or that disagrees with its data's `type`, makes the record
    /// unreadable rather than replaying something else.
    #[test]
    fn a_replay_round_trips_as_pairs_and_refuses_a_wrong_event() {
        let dir = tempfile::tempdir().unwrap();
        let identity = serde_json::json!(["/w", "s", "main"]);
        let mut record = Record::new(identity.clone());
        let events = crate::anthropic::events::answer_events(
            "multi/cursor/auto",
            "hi",
            1,
            crate::anthropic::Usage::default(),
            None,
        );
        record.replay = Some(Replay {
            key: "a".repeat(64),
            events: events.clone(),
        });
        let path = dir.path().join("r.v3.json");
        record.save(&path).unwrap();
        let stored: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(stored["replay"]["events"][0][0], "message_start");
        assert_eq!(stored["replay"]["events"][2][1]["delta"]["text"], "hi");
        let loaded = load(&path, &identity).unwrap().unwrap();
        assert_eq!(loaded.replay.unwrap().events, events);

        for (pair, words) in [
            (
                serde_json::json!(["message_stopped", {"type": "message_stop"}]),
                "has an event",
            ),
            (
                serde_json::json!(["ping", {"type": "message_stop"}]),
                "holds a",
            ),
            (
                serde_json::json!(["ping", {"type": "nonsense"}]),
                "unreadable",
            ),
        ] {
            let mut bad = stored.clone();
            bad["replay"]["events"][0] = pair;
            std::fs::write(&path, serde_json::to_vec(&bad).unwrap()).unwrap();
            let error = load(&path, &identity).unwrap_err().to_string();
            assert!(error.contains(words), "{error}");
        }
    }
}
