//! The run ledger: one JSON line per Cursor run in `<state>/ledger/<YYYY-MM>.jsonl` (the month
//! in local time), read back by `multi-cursor usage` and the daily budget.
//!
//! The folder is 0700 and each file 0600, opened append-only without following a link and
//! checked to be a regular file of this user (`crate::state::open_state_file`). A line holds
//! no prompt or answer text: only the run's time, where it ran, which model, how it ended and
//! its tokens. Every text field is clipped (`MAX_FIELD`, `MAX_WORKSPACE`), so a line is
//! never longer than `MAX_LINE` (4096 bytes, Linux's `PIPE_BUF`) and goes to the file in one
//! `write(2)` on a descriptor opened with `O_APPEND`: lines appended at the same time by
//! several gateways never interleave.

use std::io::Write;
use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;
use serde::Serialize;
use thiserror::Error;

use super::TokenFigures;
use crate::state::StateError;

/// The ledger's folder inside the state folder.
pub(crate) const LEDGER_DIR: &str = "ledger";

/// Longest line written, newline included: `PIPE_BUF` on Linux.
pub(crate) const MAX_LINE: usize = 4096;

/// Most bytes kept of the workspace path in a line.
pub(crate) const MAX_WORKSPACE: usize = 1024;

/// Most bytes kept of every other text field (ids, route, model, mode).
pub(crate) const MAX_FIELD: usize = 256;

/// The version written in each line's `v`.
pub(crate) const LINE_VERSION: u32 = 1;

/// Why a Cursor run was started, or why a line without a run was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// The first run of a turn.
    Turn,
    /// The fresh chat started when Cursor would not resume the recorded one.
    Fallback,
    /// The run resuming a chat after a stream rule interrupted it.
    Resume,
    /// The read-only run writing a `/compact` summary.
    Compaction,
    /// An answer served again from a record: nothing ran, no tokens.
    Replay,
    /// A run an earlier gateway left unfinished, recovered by this one: tokens unknown.
    Interrupted,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunOutcome {
    /// Cursor's `result` said success.
    Completed,
    /// It failed (an error `result`, no `result`, a supervision limit).
    Failed,
    /// It was cancelled (the client left).
    Cancelled,
    /// It was ended for the next run of the same turn (a fresh chat or a rule resume).
    Restarted,
    /// An earlier gateway stopped while it ran.
    Interrupted,
    /// Nothing ran: an answer served again.
    Replayed,
}

/// Where a line's token counts come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenSource {
    /// Cursor reported input and output tokens.
    Provider,
    /// Some or all counts are ours (Cursor reported none).
    Estimate,
    /// Nobody knows them (a run recovered after a stop).
    Unknown,
    /// Nothing ran, so there are none (a replay).
    None,
}

impl TokenSource {
    /// A line's counts as [`TokenFigures`]: an unknown count is 0, and every source but
    /// [`TokenSource::Provider`] makes them an estimate.
    pub(crate) fn figures(
        self,
        input_tokens: Option<u64>,
        output_tokens: Option<u64>,
        cache_read_tokens: Option<u64>,
        cache_write_tokens: Option<u64>,
    ) -> TokenFigures {
        TokenFigures {
            input_tokens: input_tokens.unwrap_or(0),
            output_tokens: output_tokens.unwrap_or(0),
            cache_read_tokens,
            cache_write_tokens,
            estimated: self != TokenSource::Provider,
        }
    }
}

/// What an estimated input count ([`TokenSource::Estimate`]) counts: always the prompt Cursor
/// was given for that run, never Claude Code's whole transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EstimateBasis {
    /// A resumed chat's prompt: what happened since Cursor's last answer (Cursor keeps the
    /// rest itself).
    NewestTurn,
    /// A new chat's prompt: the bounded transcript and the newest turn.
    NewChat,
}

/// What a turn reports when one of its Cursor runs is over (`turn::TurnItem::RunEnded`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunEnded {
    pub purpose: Purpose,
    /// From the prompt's delivery to the run's end.
    pub duration: Duration,
    /// The agent's exit code, when the supervisor saw one (a run judged by its `result` is
    /// not waited for).
    pub exit_code: Option<i32>,
    pub outcome: RunOutcome,
    /// Cursor's counts when it gave input and output, else ours (`estimated`).
    pub tokens: TokenFigures,
    /// For an estimate, which prompt its input counts.
    pub estimated_from: Option<EstimateBasis>,
    /// The `request_id` of Cursor's `result`, which Cursor's support can look up.
    pub request_id: Option<String>,
    /// The Fast variant Cursor served though the id asked for was not one (`system/init`'s
    /// display name).
    pub served_fast: Option<String>,
    /// Why a cancelled run was ended, when Claude Code said (its `Interrupt` hook: "stopped by
    /// the user", "rewound by the user", …).
    pub stopped: Option<String>,
}

/// Where a run belongs: the same for every run of one turn.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunPlace {
    pub workspace: String,
    /// Claude Code's session id.
    pub session: String,
    /// The worker id (`main` for the session itself).
    pub worker: String,
    /// The route Claude Code asked for (`multi/cursor/auto`).
    pub route: String,
    /// The Cursor model id that runs (`auto` for Auto).
    pub model: String,
    /// The Cursor mode (`CursorMode::as_str`).
    pub mode: String,
}

/// One line of the ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LedgerLine {
    /// `LINE_VERSION`.
    pub v: u32,
    /// When the run ended (or the line was written), RFC 3339 UTC.
    pub time: String,
    pub workspace: String,
    pub session: String,
    pub worker: String,
    pub route: String,
    pub model: String,
    pub mode: String,
    pub purpose: Purpose,
    pub duration_ms: u64,
    pub outcome: RunOutcome,
    #[serde(default)]
    pub exit_code: Option<i32>,
    #[serde(default)]
    pub input_tokens: Option<u64>,
    #[serde(default)]
    pub output_tokens: Option<u64>,
    #[serde(default)]
    pub cache_read_tokens: Option<u64>,
    #[serde(default)]
    pub cache_write_tokens: Option<u64>,
    pub token_source: TokenSource,
    /// Which prompt an estimated input count counts (absent when Cursor reported its tokens).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_from: Option<EstimateBasis>,
    /// The `request_id` Cursor's `result` carried, to quote to Cursor's support.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// The Fast variant Cursor served though the id asked for was not one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub served_fast: Option<String>,
    /// Why a cancelled run was ended, when Claude Code's `Interrupt` hook said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
}

impl LedgerLine {
    /// The line of a run that ended now.
    pub fn run(place: &RunPlace, ended: &RunEnded) -> LedgerLine {
        let mut line = LedgerLine::bare(place, ended.purpose, ended.outcome, ended.duration);
        line.exit_code = ended.exit_code;
        let tokens = ended.tokens;
        line.input_tokens = Some(tokens.input_tokens);
        line.output_tokens = Some(tokens.output_tokens);
        line.cache_read_tokens = tokens.cache_read_tokens;
        line.cache_write_tokens = tokens.cache_write_tokens;
        line.token_source = if tokens.estimated {
            TokenSource::Estimate
        } else {
            TokenSource::Provider
        };
        line.estimated_from = ended.estimated_from;
        line.request_id = ended
            .request_id
            .as_deref()
            .map(|id| crate::text::clip_bytes(id, MAX_FIELD).to_string());
        line.served_fast = ended
            .served_fast
            .as_deref()
            .map(|name| crate::text::clip_bytes(name, MAX_FIELD).to_string());
        line.stopped = ended
            .stopped
            .as_deref()
            .map(|why| crate::text::clip_bytes(why, MAX_FIELD).to_string());
        line
    }

    /// The line of an answer served again: no tokens, it cost nothing.
    pub(crate) fn replay(place: &RunPlace) -> LedgerLine {
        let mut line =
            LedgerLine::bare(place, Purpose::Replay, RunOutcome::Replayed, Duration::ZERO);
        line.token_source = TokenSource::None;
        line
    }

    /// The line of a run an earlier gateway left unfinished: its tokens are unknown.
    pub(crate) fn interrupted(place: &RunPlace, duration: Duration) -> LedgerLine {
        LedgerLine::bare(
            place,
            Purpose::Interrupted,
            RunOutcome::Interrupted,
            duration,
        )
    }

    fn bare(
        place: &RunPlace,
        purpose: Purpose,
        outcome: RunOutcome,
        duration: Duration,
    ) -> LedgerLine {
        let field = |text: &str| crate::text::clip_bytes(text, MAX_FIELD).to_string();
        LedgerLine {
            v: LINE_VERSION,
            time: crate::state::now_rfc3339(),
            workspace: crate::text::clip_bytes_end(&place.workspace, MAX_WORKSPACE).to_string(),
            session: field(&place.session),
            worker: field(&place.worker),
            route: field(&place.route),
            model: field(&place.model),
            mode: field(&place.mode),
            purpose,
            duration_ms: u64::try_from(duration.as_millis()).unwrap_or(u64::MAX),
            outcome,
            exit_code: None,
            input_tokens: None,
            output_tokens: None,
            cache_read_tokens: None,
            cache_write_tokens: None,
            token_source: TokenSource::Unknown,
            estimated_from: None,
            request_id: None,
            served_fast: None,
            stopped: None,
        }
    }

    /// The line's tokens (an unknown count is 0): what budgets and `usage` count.
    pub(crate) fn tokens(&self) -> TokenFigures {
        self.token_source.figures(
            self.input_tokens,
            self.output_tokens,
            self.cache_read_tokens,
            self.cache_write_tokens,
        )
    }

    /// The line as written, newline included. Fields are clipped when the line is made, so it
    /// fits `MAX_LINE`: 9 fields of at most `MAX_FIELD` bytes and a workspace of at most
    /// `MAX_WORKSPACE` (JSON escaping can at most sextuple a control byte, and every field
    /// is clipped again below if it ever did not fit).
    pub fn encode(&self) -> Result<Vec<u8>, LedgerError> {
        let mut bytes = serde_json::to_vec(self).map_err(LedgerError::Encode)?;
        if bytes.len() >= MAX_LINE {
            // Only escaping-heavy text gets here: keep the line, shorten its text.
            let mut short = self.clone();
            for text in [
                &mut short.workspace,
                &mut short.session,
                &mut short.worker,
                &mut short.route,
                &mut short.model,
                &mut short.mode,
            ] {
                *text = crate::text::clip_bytes(text, 64).to_string();
            }
            for text in [
                &mut short.request_id,
                &mut short.served_fast,
                &mut short.stopped,
            ]
            .into_iter()
            .flatten()
            {
                *text = crate::text::clip_bytes(text, 64).to_string();
            }
            bytes = serde_json::to_vec(&short).map_err(LedgerError::Encode)?;
        }
        bytes.push(b'\n');
        Ok(bytes)
    }
}

/// Why the ledger could not be written or read.
#[derive(Debug, Error)]
pub enum LedgerError {
    #[error("the ledger folder cannot be used: {0}")]
    Folder(#[source] StateError),
    #[error("the ledger file cannot be used: {0}")]
    File(#[source] StateError),
    #[error("writing the ledger {path}: {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("encoding a ledger line: {0}")]
    Encode(#[source] serde_json::Error),
}

/// The ledger of one state folder.
#[derive(Debug, Clone)]
pub struct Ledger {
    dir: PathBuf,
}

impl Ledger {
    /// The ledger in `<state_dir>/ledger`.
    pub fn new(state_dir: &Path) -> Ledger {
        Ledger {
            dir: state_dir.join(LEDGER_DIR),
        }
    }

    /// Its folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of the month `zoned` is in (`2026-12.jsonl`).
    pub fn month_file(&self, zoned: &jiff::ZonedDateTime) -> PathBuf {
        self.dir.join(format!("{}.jsonl", zoned.strftime("%Y-%m")))
    }

    /// Appends `line` to this month's file (local time) in one write.
    pub fn append(&self, line: &LedgerLine) -> Result<(), LedgerError> {
        let bytes = line.encode()?;
        crate::state::ensure_private_dir(&self.dir).map_err(LedgerError::Folder)?;
        let path = self.month_file(&jiff::ZonedDateTime::now());
        let mut file = crate::state::open_state_file_to_write(
            &path,
            crate::platform::private_file(
                std::fs::OpenOptions::new()
                    .read(true)
                    .append(true)
                    .create(true),
            ),
        )
        .map_err(LedgerError::File)?;
        let bytes = on_a_fresh_line(&file, bytes);
        // One write: O_APPEND places it at the end as a whole (see the module's comment).
        let written = file.write(&bytes).map_err(|source| LedgerError::Write {
            path: path.clone(),
            source,
        })?;
        if written != bytes.len() {
            return Err(LedgerError::Write {
                path,
                source: std::io::Error::new(std::io::ErrorKind::WriteZero, "a short write"),
            });
        }
        Ok(())
    }
}

/// `line` to append to `file`, with a newline in front when the file ends inside a line (a
/// crash or a short write on a full disk cut the last one): the cut line stays damaged, and
/// this run's line is whole, so `usage` and the daily budget still count it. A line appended by
/// another gateway between the check and the write at worst leaves an empty line, which
/// readers skip.
fn on_a_fresh_line(file: &std::fs::File, line: Vec<u8>) -> Vec<u8> {
    let Some(last) = file
        .metadata()
        .ok()
        .map(|m| m.len())
        .and_then(|len| len.checked_sub(1))
    else {
        return line;
    };
    let mut byte = [0u8; 1];
    match crate::platform::read_at(file, &mut byte, last) {
        Ok(1) if byte[0] != b'\n' => {
            let mut fresh = Vec::with_capacity(line.len() + 1);
            fresh.push(b'\n');
            fresh.extend_from_slice(&line);
            fresh
        }
        _ => line,
    }
}

/// Parses one ledger line; `None` for a damaged one (not JSON, missing fields, another shape).
pub fn parse_line(line: &[u8]) -> Option<LedgerLine> {
    serde_json::from_slice(line).ok()
}

#[cfg(test)]
mod tests;
