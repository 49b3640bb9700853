//! `/compact` on a Cursor route: Claude Code asks the route's model for an
//! `<analysis>` block and a `<summary>` block; a separate, read-only Cursor run writes them.
//!
//! - The run is `agent … --mode ask` in a **fresh chat** (no `--resume`): the user's Cursor chat
//!   is never touched, and its record (chat id, recorded answer) is not read or written. After
//!   Claude Code replaces its history with the summary, the recorded answer is no longer in the
//!   history, so the next Cursor turn continues the same chat with the outer-history notice
//!   (`conversation::continuation_prompt` → `HistoryChanged`).
//! - The prompt is [`COMPACTION_PREAMBLE`], then the conversation as a bounded transcript
//!   (`TRANSCRIPT_LIMIT`) and Claude's own compaction instructions as the new request.
//! - The answer must hold a `<summary>…</summary>` block; an `<analysis>` block is kept when
//!   given. Both are bounded ([`SUMMARY_LIMIT`], `ANALYSIS_LIMIT`): a longer block keeps its
//!   beginning and end with a marker line in between. Without a summary, or when the run fails
//!   or takes longer than `RUN_LIMIT`, Claude Code gets an error ("compaction failed … the
//!   conversation is unchanged") — never a summary we made up.

use std::path::PathBuf;
use std::time::Duration;

use thiserror::Error;

use crate::anthropic::StreamEvent;
use crate::anthropic::events::answer_events;
use crate::anthropic::request::MessagesRequest;
use crate::cursor::catalog::Catalog;
use crate::cursor::command::CursorMode;
use crate::cursor::command::TurnSpec;
use crate::cursor::events::RunEvent;
use crate::cursor::events::RunUsage;
use crate::cursor::process::RunError;
use crate::cursor::process::RunLimits;
use crate::cursor::process::RunOutput;
use crate::cursor::process::spawn_turn_held;
use crate::cursor::sanitize::sanitize;
use crate::display::run_tokens;
use crate::display::usage_json;
use crate::display::usage_source;
use crate::session::conversation;
use crate::session::conversation::RequestError;
use crate::text;

/// Bound of the transcript the summary run reads, in bytes: larger than a turn's, since the
/// summary is only as good as what it sees.
pub(crate) const TRANSCRIPT_LIMIT: usize = 256 * 1024;

/// Most bytes of the `<summary>` block handed to Claude Code.
pub const SUMMARY_LIMIT: usize = 32 * 1024;

/// Most bytes of the `<analysis>` block handed to Claude Code (it drops that block anyway).
pub(crate) const ANALYSIS_LIMIT: usize = 16 * 1024;

/// Longest a summary run may take before compaction fails.
pub(crate) const RUN_LIMIT: Duration = Duration::from_secs(10 * 60);

/// What the summary run is told before the transcript.
pub const COMPACTION_PREAMBLE: &str = "You are writing the summary Claude Code keeps when it compacts this conversation. This is a separate, read-only request: do not use any tool and do not read or change files; everything you need is in the conversation below. Answer with an <analysis> block and then a <summary> block, as the instructions under \"New request:\" describe, and keep the summary under 24,000 characters.";

/// What a compaction needs besides the request.
#[derive(Debug, Clone)]
pub(crate) struct Setup {
    /// Agent executable.
    pub agent: PathBuf,
    /// Canonical workspace (the run's `--workspace`).
    pub workspace: PathBuf,
    /// The user opted in to Cursor's MCP servers.
    pub approve_mcps: bool,
    /// Supervision limits of the run.
    pub limits: RunLimits,
    /// Folder for images of the newest turn (the instructions carry none in practice).
    pub images_dir: PathBuf,
    /// The gateway's spend book following the run: its ledger line (purpose `compaction`).
    pub spend: Option<crate::spend::RunTap>,
    /// Cursor's global `cli-config.json`, held for the run so the user's default model is put
    /// back after it (see [`crate::turn::TurnInput::cursor_config`]).
    pub cursor_config: Option<PathBuf>,
}

/// Why a compaction gave no summary. Every case leaves the conversation unchanged.
#[derive(Debug, Error)]
pub(crate) enum CompactionError {
    /// The request could not be turned into a prompt.
    #[error("{0}")]
    Request(#[from] RequestError),
    /// The request names a model the catalog does not know.
    #[error("{0}")]
    Model(String),
    /// The summary run failed.
    #[error("the Cursor summary run failed: {0}")]
    Run(RunError),
    /// Cursor's `result` reported an error.
    #[error("Cursor reported an error: {0}")]
    Cursor(String),
    /// The run ended without a `result`.
    #[error("the Cursor summary run ended without a result")]
    NoResult,
    /// The run took longer than [`RUN_LIMIT`].
    #[error("the Cursor summary run took longer than {} minutes", RUN_LIMIT.as_secs() / 60)]
    TimedOut,
    /// Cursor answered without a `<summary>…</summary>` block.
    #[error("Cursor's answer had no <summary> block ({0})")]
    NoSummary(String),
}

/// The two blocks handed to Claude Code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Compacted {
    /// The `<analysis>` block's content, when Cursor wrote one.
    pub analysis: Option<String>,
    /// The `<summary>` block's content (never empty).
    pub summary: String,
}

impl Compacted {
    /// The answer text: `<analysis>…</analysis>` (when present), a blank line, `<summary>…</summary>`.
    pub(crate) fn text(&self) -> String {
        let summary = format!("<summary>\n{}\n</summary>", self.summary);
        match &self.analysis {
            Some(analysis) => format!("<analysis>\n{analysis}\n</analysis>\n\n{summary}"),
            None => summary,
        }
    }
}

/// Finds the blocks in Cursor's answer (the last complete `<summary>` block; the last
/// `<analysis>` block before it) and bounds them.
pub(crate) fn extract(answer: &str) -> Result<Compacted, CompactionError> {
    let Some((summary, at)) = last_block(answer, "summary") else {
        let shown = text::one_line(answer);
        let preview: String = shown.chars().take(120).collect();
        let why = if preview.is_empty() {
            String::from("it was empty")
        } else if shown.chars().count() > 120 {
            format!("it began: {preview}…")
        } else {
            format!("it said: {preview}")
        };
        return Err(CompactionError::NoSummary(why));
    };
    let summary = summary.trim();
    if summary.is_empty() {
        return Err(CompactionError::NoSummary(String::from(
            "the block was empty",
        )));
    }
    let analysis = last_block(&answer[..at], "analysis")
        .map(|(a, _)| a.trim().to_string())
        .filter(|a| !a.is_empty())
        .map(|a| bound_middle(&a, ANALYSIS_LIMIT));
    Ok(Compacted {
        analysis,
        summary: bound_middle(summary, SUMMARY_LIMIT),
    })
}

/// The content of the last `<tag>…</tag>` in `text` and where its opening tag starts.
fn last_block<'a>(text: &'a str, tag: &str) -> Option<(&'a str, usize)> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let end = text.rfind(&close)?;
    let start = text[..end].rfind(&open)?;
    Some((&text[start + open.len()..end], start))
}

/// `text` within `limit` bytes: when longer, its first and last parts (cut at line breaks
/// where possible) with a marker line saying how much was left out.
pub(crate) fn bound_middle(text: &str, limit: usize) -> String {
    text::clip_middle(text, limit, |omitted| {
        format!(
            "[… {omitted} bytes of the summary left out by multi-cursor to stay within {} KiB …]",
            limit / 1024
        )
    })
}

/// The summary run's prompt: [`COMPACTION_PREAMBLE`], then the bounded transcript and Claude's
/// instructions.
pub(crate) fn compaction_prompt(
    request: &MessagesRequest,
    images_dir: &std::path::Path,
) -> Result<String, RequestError> {
    let prompt = conversation::first_turn_prompt(request, TRANSCRIPT_LIMIT, images_dir)?;
    Ok(format!("{COMPACTION_PREAMBLE}\n\n{}", prompt.text()))
}

/// Runs the read-only summary run for `request` with Cursor model `cursor_model`; returns the
/// blocks and Cursor's token counts.
pub(crate) async fn summarize(
    request: &MessagesRequest,
    cursor_model: &str,
    setup: &Setup,
) -> Result<(Compacted, Option<RunUsage>), CompactionError> {
    let spec = TurnSpec {
        workspace: setup.workspace.clone(),
        model: cursor_model.to_string(),
        chat_id: None,
        mode: CursorMode::Ask,
        approve_mcps: setup.approve_mcps,
        prompt: compaction_prompt(request, &setup.images_dir)?,
    };
    let hold = crate::policy::cursor_config::put_back_after_run(
        setup.cursor_config.as_deref(),
        &spec.model,
    );
    let mut run =
        spawn_turn_held(&setup.agent, &spec, setup.limits, hold).map_err(CompactionError::Run)?;
    run.deliver_prompt();
    let started = std::time::Instant::now();
    let collected = tokio::time::timeout(RUN_LIMIT, async {
        let mut text = String::new();
        loop {
            match run.next().await {
                None => return Err(CompactionError::NoResult),
                Some(Err(error)) => return Err(CompactionError::Run(error)),
                Some(Ok(RunOutput::Event(RunEvent::Text { text: t }))) => text.push_str(&t),
                Some(Ok(RunOutput::Event(RunEvent::Result(result)))) => {
                    if !result.success {
                        return Err(CompactionError::Cursor(text::one_line(&result.text)));
                    }
                    text.push_str(crate::display::terminal_suffix(&text, &result.text));
                    return Ok((text, result.usage));
                }
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    // Dropping the run ends its process group, whatever happened.
    drop(run);
    if let Some(tap) = &setup.spend {
        tap.run_ended(&ledger_entry(&collected, started.elapsed(), request));
    }
    let (text, usage) = collected.map_err(|_| CompactionError::TimedOut)??;
    Ok((extract(&text)?, usage))
}

/// The summary run's ledger entry: Cursor's tokens when it reported them, else the request's
/// estimate and the answer at 4 bytes a token.
fn ledger_entry(
    collected: &Result<
        Result<(String, Option<RunUsage>), CompactionError>,
        tokio::time::error::Elapsed,
    >,
    duration: Duration,
    request: &MessagesRequest,
) -> crate::spend::RunEnded {
    use crate::spend::ledger::RunOutcome;
    let (outcome, text, usage) = match collected {
        Ok(Ok((text, usage))) => (RunOutcome::Completed, text.as_str(), *usage),
        _ => (RunOutcome::Failed, "", None),
    };
    let tokens = run_tokens(usage, conversation::estimate_tokens(request), text);
    crate::spend::RunEnded {
        purpose: crate::spend::ledger::Purpose::Compaction,
        duration,
        exit_code: None,
        outcome,
        tokens,
        // The summary run is a new read-only chat given the conversation.
        estimated_from: tokens
            .estimated
            .then_some(crate::spend::ledger::EstimateBasis::NewChat),
        // The summary run's result is read for its text and usage only.
        request_id: None,
        served_fast: None,
        stopped: None,
    }
}

/// Answers Claude Code's `/compact` request for a Cursor route: the summary as the events of
/// an ordinary assistant message, or why there is none.
pub(crate) async fn answer(
    request: &MessagesRequest,
    catalog: &Catalog,
    setup: Setup,
) -> Result<Vec<StreamEvent>, CompactionError> {
    let effort = request
        .output_config
        .as_ref()
        .and_then(|c| c.effort.clone());
    let resolved = catalog
        .resolve(&request.model, effort.as_deref())
        .map_err(|e| CompactionError::Model(e.to_string()))?;
    tracing::info!(model = %resolved.cursor_model, "compaction: a read-only Cursor run writes the summary");
    let (compacted, usage) = summarize(request, &resolved.cursor_model, &setup).await?;
    // Claude Code shows the summary: no control sequence from Cursor's answer reaches it.
    let text = sanitize(&compacted.text());
    let input_estimate = conversation::estimate_tokens(request);
    Ok(answer_events(
        &request.model,
        &text,
        input_estimate,
        usage_json(usage, input_estimate, &text),
        Some(usage_source(usage, &resolved.cursor_model)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_found() {
        let got =
            extract("Sure.\n<analysis>\nthought\n</analysis>\n\n<summary>\n1. Did X\n</summary>\n")
                .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(got.analysis.as_deref(), Some("thought"));
        assert_eq!(got.summary, "1. Did X");
        assert_eq!(
            got.text(),
            "<analysis>\nthought\n</analysis>\n\n<summary>\n1. Did X\n</summary>"
        );
    }

    #[test]
    fn no_summary_is_an_error() {
        assert!(matches!(
            extract("<analysis>x</analysis> and nothing else"),
            Err(CompactionError::NoSummary(_))
        ));
        assert!(matches!(
            extract("<summary>   </summary>"),
            Err(CompactionError::NoSummary(_))
        ));
        assert!(matches!(
            extract("<summary>never closed"),
            Err(CompactionError::NoSummary(_))
        ));
    }

    #[test]
    fn long_blocks_keep_both_ends() {
        let text: String = (0..2000).map(|i| format!("line {i}\n")).collect();
        let bounded = bound_middle(&text, 4096);
        assert!(bounded.len() <= 4096 + 120, "{}", bounded.len());
        assert!(bounded.starts_with("line 0\n"));
        assert!(bounded.trim_end().ends_with("line 1999"));
        assert!(bounded.contains("bytes of the summary left out by multi-cursor"));
    }
}
