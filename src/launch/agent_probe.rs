//! Cursor's agent as the launcher and the wrapper find it, with what its `--version` and
//! `--help` said remembered in the state folder (`agent-probe.json`) while the executable is
//! unchanged (same canonical path, modification time and size), like Claude Code's version.
//! The launcher needs the answer before Claude Code starts (whether the CLI offers auto review
//! decides the picker rows' profile); the cache keeps that from costing two runs of the CLI on
//! every start. The answer also seeds the process's own lookup, which the in-process gateway
//! uses for its first turn.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde::Serialize;

use crate::cursor::locate;
use crate::cursor::locate::AgentInfo;
use crate::cursor::locate::LocateError;

/// The cache file in the state folder.
pub const PROBE_CACHE_FILE: &str = "agent-probe.json";

/// Executables remembered at most (the oldest are forgotten beyond).
const PROBE_CACHE_LIMIT: usize = 8;

#[derive(Debug, Default, Serialize, Deserialize)]
struct ProbeCache {
    version: u32,
    entries: BTreeMap<String, ProbeEntry>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct ProbeEntry {
    mtime_ns: i128,
    size: u64,
    /// The first line of `--version`.
    cli_version: String,
    supports_auto_review: bool,
}

/// Cursor's agent: the first candidate, answered from the cache when it is the executable
/// remembered as Cursor's; else found and probed ([`locate::locate_agent`]) and remembered.
pub async fn find_agent(state_dir: &Path) -> Result<AgentInfo, LocateError> {
    let cache_path = state_dir.join(PROBE_CACHE_FILE);
    let mut cache: ProbeCache = crate::state::read_state_file(&cache_path, 256 * 1024)
        .ok()
        .flatten()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .filter(|c: &ProbeCache| c.version == 1)
        .unwrap_or_default();
    let first = locate::find_agent_path()?;
    if let Some((path, mtime_ns, size)) = crate::exec::fingerprint(&first)
        && let Some(entry) = cache.entries.get(&path)
        && entry.mtime_ns == mtime_ns
        && entry.size == size
    {
        let info = AgentInfo {
            path: first,
            version: entry.cli_version.clone(),
            supports_auto_review: entry.supports_auto_review,
            skipped: Vec::new(),
        };
        locate::remember(&info);
        return Ok(info);
    }
    let info = locate::locate_agent().await?;
    if let Some((path, mtime_ns, size)) = crate::exec::fingerprint(&info.path) {
        if cache.entries.len() >= PROBE_CACHE_LIMIT && !cache.entries.contains_key(&path) {
            cache.entries.clear();
        }
        cache.version = 1;
        cache.entries.insert(
            path,
            ProbeEntry {
                mtime_ns,
                size,
                cli_version: info.version.clone(),
                supports_auto_review: info.supports_auto_review,
            },
        );
        let stored = serde_json::to_vec_pretty(&cache)
            .map_err(std::io::Error::other)
            .and_then(|bytes| {
                crate::state::write_private_atomic(&cache_path, &bytes)
                    .map_err(std::io::Error::other)
            });
        if let Err(error) = stored {
            tracing::warn!(%error, "could not remember what Cursor's agent said");
        }
    }
    Ok(info)
}
