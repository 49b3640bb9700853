//! Cursor's agent as the launcher and the wrapper find it, with what its `--version` and
//! `--help` said remembered in the state folder (`agent-probe.json`) while the executable is
//! unchanged (same canonical path, modification time and size), like Claude Code's version.
//! The launcher needs the answer before Claude Code starts (whether the CLI offers auto review
//! decides the picker rows' profile); the cache keeps that from costing two runs of the CLI on
//! every start. The answer also seeds the process's own lookup, which the in-process gateway
//! uses for its first turn.

use std::path::Path;

use serde::Deserialize;
use serde::Serialize;

use crate::cursor::locate;
use crate::cursor::locate::AgentInfo;
use crate::cursor::locate::LocateError;

/// The cache file in the state folder.
use locate::PROBE_CACHE_FILE;

/// Executables remembered at most.
const PROBE_CACHE_LIMIT: usize = 8;

/// What `--version` and `--help` said of a Cursor CLI (`crate::exec::AnswerCache`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ProbeAnswer {
    /// The first line of `--version`.
    pub cli_version: String,
    pub supports_auto_review: bool,
    /// When it was asked (RFC 3339); absent in caches written before it was noted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probed_at: Option<String>,
}

/// The probes remembered in the state folder.
fn probe_cache(state_dir: &Path) -> crate::exec::AnswerCache<ProbeAnswer> {
    crate::exec::AnswerCache::open(state_dir.join(PROBE_CACHE_FILE), PROBE_CACHE_LIMIT)
}

/// What `info` says, as asked now.
fn answer_now(info: &AgentInfo) -> ProbeAnswer {
    ProbeAnswer {
        cli_version: info.version.clone(),
        supports_auto_review: info.supports_auto_review,
        probed_at: Some(crate::state::now_rfc3339()),
    }
}

/// The probe remembered for the agent at `path` while it is unchanged, for `doctor`.
pub(crate) fn remembered(state_dir: &Path, path: &Path) -> Option<ProbeAnswer> {
    probe_cache(state_dir).get(path)
}

/// Remembers `info` as the probe of its executable now (`doctor` after a fresh probe).
pub(crate) fn remember(state_dir: &Path, info: &AgentInfo) {
    probe_cache(state_dir).put(&info.path, answer_now(info));
}

/// Cursor's agent: the first candidate, answered from the cache when it is the executable
/// remembered as Cursor's; else found and probed ([`locate::locate_agent`]) and remembered.
pub(super) async fn find_agent(state_dir: &Path) -> Result<AgentInfo, LocateError> {
    let mut cache = probe_cache(state_dir);
    let first = locate::find_agent_path()?;
    if let Some(known) = cache.get(&first) {
        let info = AgentInfo {
            path: first,
            version: known.cli_version,
            supports_auto_review: known.supports_auto_review,
            skipped: Vec::new(),
        };
        locate::remember(&info);
        return Ok(info);
    }
    let info = locate::locate_agent().await?;
    cache.put(&info.path, answer_now(&info));
    Ok(info)
}
