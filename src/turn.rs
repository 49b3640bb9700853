//! One Cursor turn end to end: spawn the agent, translate its events into the Anthropic
//! Messages event sequence, and report how it ended.
//!
//! The turn produces the same `(event, data)` pairs whether the client streams or not: the
//! gateway writes them as SSE frames, or folds them into one Messages JSON. `message_start` is
//! held back until the agent's first event (or `FIRST_EVENT_WAIT`), so failures found before
//! that keep their real HTTP status. Claude Code receives text, and no `tool_use` but the one
//! that opens a dialog of its own at the end of an answer (`crate::dialog`). What that text shows besides Cursor's prose (action rows, the plan, progress
//! lines, the closing summary) and the usage it reports are decided by [`crate::display`].
//!
//! This file holds what a turn is given ([`TurnInput`]) and what it reports ([`TurnItem`]);
//! the run loop that spawns each Cursor run and relays its output is `run`.

mod error;
mod run;

pub(crate) use error::TurnError;
pub(crate) use error::TurnFailure;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::sync::oneshot;

use crate::anthropic::StreamEvent;
use crate::cursor::command::TurnSpec;
use crate::cursor::process::RunLimits;
use crate::cursor::process::end_stray_run;
use crate::dialog::pending::PendingDialog;
use crate::dialog::surface::Surface;
use crate::rules::FiredRule;
use crate::rules::Rulebook;
use crate::spend::ledger::RunEnded;

/// How long the first SSE frame waits for the agent's first event.
pub(crate) const FIRST_EVENT_WAIT: Duration = Duration::from_secs(2);

/// How many of a turn's items may wait between the turn and its keeper (events are small).
pub(crate) const ITEM_BUFFER: usize = 256;

/// What the gateway hands a turn.
#[derive(Debug, Clone)]
pub struct TurnInput {
    /// Agent executable.
    pub agent: PathBuf,
    /// The invocation (prompt included).
    pub spec: TurnSpec,
    /// The prompt for a fresh chat (the bounded transcript), used once when Cursor refuses to
    /// resume `spec.chat_id` or silently starts a new chat instead. `None` on a chat's first
    /// turn.
    pub fresh_prompt: Option<String>,
    /// The model id as Claude Code sent it, echoed in `message_start`.
    pub requested_model: String,
    /// Notices streamed before Cursor's own text (e.g. "\[Cursor\] Outer history changed; …").
    pub notices: Vec<String>,
    /// Supervision limits.
    pub limits: RunLimits,
    /// The stream rules watched while Cursor writes (`None`: none are).
    pub stream_rules: Option<StreamRules>,
    /// Cursor's global `cli-config.json`, whose default model every `--model` run rewrites:
    /// each run holds it (`crate::policy::cursor_config::ModelPutBack`) and the user's model is put back once the run's
    /// group has ended. `None` when no such path can be named.
    pub cursor_config: Option<PathBuf>,
    /// Which of Claude Code's dialogs the request can open: what Cursor wanted to put to the
    /// user (its plan, its questions) opens one at the end of the answer, or is said in words.
    pub dialogs: Surface,
}

/// The stream rules of a turn: the workspace's rulebook and the rules the chat already fired
/// (they never fire again in it).
#[derive(Debug, Clone)]
pub struct StreamRules {
    /// The workspace's rulebook, loaded for this turn's prompt.
    pub book: Arc<Rulebook>,
    /// The chat's `firedRules`.
    pub fired: BTreeSet<String>,
}

/// Notice streamed when a resumed chat could not be continued and a fresh one was started.
pub(crate) const RESUME_FALLBACK_NOTICE: &str = "[Cursor] Cursor could not resume its earlier conversation; this turn started a new one with the conversation so far as context.";

/// What a running turn reports to whoever keeps its record, in order.
#[derive(Debug)]
pub enum TurnItem {
    /// The agent is running and blocked on its prompt. Answer `true` on `ack` once the process
    /// group is recorded to deliver the prompt; `false` (or dropping `ack`) ends the run
    /// before Cursor sees anything.
    Spawned {
        pgid: i32,
        process_start: Option<u64>,
        /// The run's environment marker ([`crate::cursor::process::CursorRun::marker`]), kept
        /// in the record so a later gateway can prove the group is ours before ending it.
        marker: String,
        ack: oneshot::Sender<bool>,
    },
    /// Cursor named the chat this turn runs in (`system/init`).
    Chat(String),
    /// A Messages event to relay to Claude Code now.
    Event(StreamEvent),
    /// Cursor started or finished an action, in its row's words (`read \`src/lib.rs\``): the
    /// live run's last action for the spend book and the status line. Nothing is recorded.
    Action(String),
    /// One Cursor run of the turn is over (the turn's own, a fresh-chat fallback, a stream-rule
    /// resume): sent once per run whose prompt was delivered, before the turn's `Finished` or
    /// `Failed`, so the keeper writes its ledger line before the turn's last event goes out.
    RunEnded(RunEnded),
    /// Cursor's successful `result`. The closing events (`content_block_stop`,
    /// `message_delta`, `message_stop`) go out only after the turn has been recorded.
    Finished {
        closing: Vec<StreamEvent>,
        /// The whole text streamed (notices, rows and summary included): what Claude Code
        /// keeps as this turn's assistant message.
        answer: String,
        /// What Cursor had done.
        delivered: Delivered,
        /// The dialog the answer opens (its closing events carry the `tool_use`), which the
        /// session then waits on; `None` clears the one it waited on.
        dialog: Option<PendingDialog>,
    },
    /// The turn failed. `acted` is true once the agent had reported anything (it may have
    /// changed files); `cancelled` when it ended because it was asked to.
    Failed {
        error: TurnFailure,
        acted: bool,
        cancelled: bool,
        /// What Cursor had done before the turn failed.
        delivered: Delivered,
    },
}

/// What Cursor had done by the turn's end (the last item carries it), settled in the record
/// with the rules.
#[derive(Debug, Default)]
pub struct Delivered {
    /// The chat the turn ran in, once Cursor named it.
    pub chat_id: Option<String>,
    /// Every path Cursor's read, list, search and edit calls named in this turn, absolute
    /// (see [`TurnDisplay::touched`](crate::display::TurnDisplay::touched)).
    pub touched: Vec<PathBuf>,
    /// The stream rules that fired in this turn.
    pub fired: Vec<FiredRule>,
}

/// Cancels a turn (ends its run's process group); firing it twice is harmless. Dropping it
/// cancels the turn too.
#[derive(Debug)]
pub struct TurnCancel(Option<oneshot::Sender<Option<String>>>);

impl TurnCancel {
    /// Ends the turn's run; its last item becomes `Failed { cancelled: true, .. }`.
    pub(crate) fn fire(&mut self) {
        if let Some(cancel) = self.0.take() {
            let _ = cancel.send(None);
        }
    }

    /// [`Self::fire`], saying why (Claude Code's `Interrupt` hook): the run's ledger line
    /// carries `why` as its `stopped`.
    pub(crate) fn fire_because(&mut self, why: String) {
        if let Some(cancel) = self.0.take() {
            let _ = cancel.send(Some(why));
        }
    }
}

/// The process group an unfinished turn of a stopped gateway left, as the session's record
/// named it: the one agent that may still hold the chat and that can be proven ours (its
/// leader's start time and its environment's marker). When Cursor answers a resume with
/// `… is already in use.`, the turn ends this group if it is still there and ours, and resumes
/// the chat once more before it falls back to a fresh chat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ChatHolder {
    /// The group's id (its leader's pid).
    pub pgid: i32,
    /// The leader's recorded start time.
    pub process_start: u64,
    /// The run's environment marker.
    pub marker: String,
    /// The group was found ours and ended before this turn started.
    pub ended: bool,
}

impl ChatHolder {
    /// Ends the group if it is still there and ours; true when it was ours (ended now, or
    /// before the turn started), so the chat it held is free.
    async fn reclaim(&self) -> bool {
        end_stray_run(self.pgid, self.process_start, Some(&self.marker)).await || self.ended
    }
}

/// Starts a turn in a background task: spawns the agent and translates its output. Its items
/// arrive on the receiver until `Finished` or `Failed` (a spawn failure arrives as
/// `Failed { acted: false }`); the [`TurnCancel`] ends it.
pub fn start(input: TurnInput) -> (mpsc::Receiver<TurnItem>, TurnCancel) {
    start_reclaiming(input, None)
}

/// [`start`], with the process group that may hold the chat ([`ChatHolder`]).
pub(crate) fn start_reclaiming(
    input: TurnInput,
    holder: Option<ChatHolder>,
) -> (mpsc::Receiver<TurnItem>, TurnCancel) {
    let (tx, rx) = mpsc::channel(ITEM_BUFFER);
    let (cancel_tx, cancel_rx) = oneshot::channel();
    tokio::spawn(run::Translator::new(input, tx).drive(cancel_rx, holder));
    (rx, TurnCancel(Some(cancel_tx)))
}
