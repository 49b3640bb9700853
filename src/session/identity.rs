//! Who a Cursor chat belongs to: the canonical workspace, Claude Code's session id, and the
//! worker id (or "main").

use std::path::PathBuf;

use sha2::Digest;
use sha2::Sha256;

use crate::cursor::command::CursorMode;
use crate::spend::ledger::RunPlace;

/// The worker part of the identity of a session's main thread.
pub(crate) const MAIN_WORKER: &str = "main";

/// One Cursor conversation's owner. Every request with the same identity continues the same
/// Cursor chat and shares one record.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Identity {
    /// Canonical workspace folder.
    pub workspace: PathBuf,
    /// Claude Code's session id.
    pub session: String,
    /// The worker's agent id, or `MAIN_WORKER`.
    pub worker: String,
}

impl Identity {
    /// The compact JSON array spelling `["/real/path","<session>","<worker>"]`.
    pub fn key(&self) -> String {
        serde_json::json!([self.workspace, self.session, self.worker]).to_string()
    }

    /// The identity as a JSON array value, as records store it.
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::json!([self.workspace, self.session, self.worker])
    }

    /// Where the runs of this identity's turn belong on the ledger: the route Claude Code asked
    /// for, the Cursor model id that runs (`auto` for Auto) and the Cursor mode.
    pub(crate) fn run_place(&self, route: &str, model: &str, mode: CursorMode) -> RunPlace {
        RunPlace {
            workspace: self.workspace.to_string_lossy().into_owned(),
            session: self.session.clone(),
            worker: self.worker.clone(),
            route: route.to_string(),
            model: model.to_string(),
            mode: mode.as_str().to_string(),
        }
    }

    /// Lowercase hex sha256 of [`Identity::key`]: the record's file name stem.
    pub(crate) fn digest(&self) -> String {
        hex::encode(Sha256::digest(self.key().as_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_is_the_compact_array_and_digest_its_sha256() {
        let identity = Identity {
            workspace: PathBuf::from("/w/p"),
            session: "s-1".into(),
            worker: MAIN_WORKER.into(),
        };
        assert_eq!(identity.key(), r#"["/w/p","s-1","main"]"#);
        assert_eq!(
            identity.digest(),
            hex::encode(Sha256::digest(br#"["/w/p","s-1","main"]"#))
        );
    }
}
