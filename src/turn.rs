//! One Cursor turn end to end: spawn the agent, translate its events into the Anthropic
//! Messages event sequence, and report how it ended.
//!
//! The turn produces the same `(event, data)` pairs whether the client streams or not: the
//! gateway writes them as SSE frames, or folds them into one Messages JSON. `message_start` is
//! held back until the agent's first event (or [`FIRST_EVENT_WAIT`]), so failures found before
//! that keep their real HTTP status. Claude Code never receives a `tool_use` from a turn: only
//! text blocks. What that text shows besides Cursor's prose (action rows, the plan, progress
//! lines, the closing summary) and the usage it reports are decided by [`crate::display`].

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use std::time::Instant;

use thiserror::Error;
use tokio::sync::mpsc;
use tokio::sync::oneshot;

pub use crate::anthropic::SseEvent;
use crate::anthropic::StreamEvent;
use crate::anthropic::events::closing_events;
pub use crate::anthropic::events::fold_message;
use crate::cursor::CliFailure;
use crate::cursor::command::TurnSpec;
use crate::cursor::events::RunEvent;
use crate::cursor::events::RunResult;
use crate::cursor::failure::Recovery;
use crate::cursor::failure::RunFailure;
use crate::cursor::locate::INSTALL_HINT;
use crate::cursor::process::CursorRun;
use crate::cursor::process::RunError;
use crate::cursor::process::RunLimits;
use crate::cursor::process::RunOutput;
use crate::cursor::process::spawn_turn_held;
use crate::cursor::stream::classify_plain_text;
use crate::display::TurnDisplay;
use crate::gateway::error::ApiError;
use crate::rules::Fired;
use crate::rules::FiredRule;
use crate::rules::Rulebook;
use crate::rules::StreamWatch;
use crate::rules::render_interruption;

/// How long the first SSE frame waits for the agent's first event.
pub const FIRST_EVENT_WAIT: Duration = Duration::from_secs(2);

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
    /// Local estimate of the prompt's input tokens, used when Cursor reports none.
    pub input_estimate: u64,
    /// Notices streamed before Cursor's own text (e.g. "[Cursor] Outer history changed; …").
    pub notices: Vec<String>,
    /// Supervision limits.
    pub limits: RunLimits,
    /// The stream rules watched while Cursor writes (`None`: none are).
    pub stream_rules: Option<StreamRules>,
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
pub const RESUME_FALLBACK_NOTICE: &str = "[Cursor] Cursor could not resume its earlier conversation; this turn started a new one with the conversation so far as context.";

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
    Event(SseEvent),
    /// Cursor's successful `result`. The closing events (`content_block_stop`,
    /// `message_delta`, `message_stop`) go out only after the turn has been recorded.
    Finished {
        closing: Vec<SseEvent>,
        /// The whole text streamed (notices, rows and summary included): what Claude Code
        /// keeps as this turn's assistant message.
        answer: String,
        chat_id: Option<String>,
        /// Every path Cursor's read, list, search and edit calls named in this turn, absolute
        /// (see [`TurnDisplay::touched`]).
        touched: Vec<PathBuf>,
        /// The stream rules that fired in this turn.
        fired: Vec<FiredRule>,
    },
    /// The turn failed. `acted` is true once the agent had reported anything (it may have
    /// changed files); `cancelled` when it ended because it was asked to.
    Failed {
        error: ApiError,
        acted: bool,
        cancelled: bool,
        chat_id: Option<String>,
        /// As for `Finished`: the paths Cursor's calls named before the turn failed.
        touched: Vec<PathBuf>,
        /// As for `Finished`: the stream rules that fired before the turn failed.
        fired: Vec<FiredRule>,
    },
}

/// A started turn: its items arrive on `items` until `Finished` or `Failed`.
pub struct TurnHandle {
    pub items: mpsc::Receiver<TurnItem>,
    /// Ends the run (its process group) when fired.
    pub cancel: TurnCancel,
}

/// Cancels a turn; firing it twice is harmless.
#[derive(Debug)]
pub struct TurnCancel(Option<oneshot::Sender<()>>);

impl TurnCancel {
    /// Ends the turn's run; its last item becomes `Failed { cancelled: true, .. }`.
    pub fn fire(&mut self) {
        if let Some(cancel) = self.0.take() {
            let _ = cancel.send(());
        }
    }
}

/// Starts a turn in a background task: spawns the agent and translates its output. A spawn
/// failure arrives as `Failed { acted: false }`.
pub fn start(input: TurnInput) -> TurnHandle {
    let (tx, rx) = mpsc::channel(256);
    let (cancel_tx, cancel_rx) = oneshot::channel();
    tokio::spawn(Translator::new(input, tx).drive(cancel_rx));
    TurnHandle {
        items: rx,
        cancel: TurnCancel(Some(cancel_tx)),
    }
}

/// Turns run outputs into Messages events.
struct Translator {
    input: TurnInput,
    tx: mpsc::Sender<TurnItem>,
    started: bool,
    block_open: bool,
    answer: String,
    chat_id: Option<String>,
    agent_started: bool,
    /// The prompt reached an agent: from then on Cursor may act, even before it says anything.
    delivered: bool,
    /// Rows, plan, progress lines and the closing summary.
    display: TurnDisplay,
    /// Stream rules that fired so far, in order.
    fired: Vec<FiredRule>,
}

/// Why pumping a run stopped early.
enum Stop {
    /// The record keeper went away or asked to cancel: end the run.
    Cancel,
    /// Cursor would not continue the recorded chat; start a fresh one (once). Carries the
    /// failure that said so, answered when no fresh chat can be started (`None`: Cursor
    /// silently replaced the chat).
    Fallback(Option<RunFailure>),
    /// A stream rule interrupted the run: resume the chat with this prompt.
    Interrupt(String),
}

impl Translator {
    fn new(input: TurnInput, tx: mpsc::Sender<TurnItem>) -> Self {
        let display = TurnDisplay::new(input.spec.workspace.clone(), Instant::now());
        Translator {
            input,
            tx,
            started: false,
            block_open: false,
            answer: String::new(),
            chat_id: None,
            agent_started: false,
            delivered: false,
            display,
            fired: Vec::new(),
        }
    }

    async fn drive(mut self, mut cancel: oneshot::Receiver<()>) {
        let mut spec = self.input.spec.clone();
        let mut fresh_prompt = self.input.fresh_prompt.take();
        let rules = self.input.stream_rules.take();
        let mut watch = rules
            .as_ref()
            .map(|r| r.book.stream_watch(&r.fired))
            .filter(StreamWatch::is_active);
        loop {
            let mut run = match spawn_turn_held(&self.input.agent, &spec, self.input.limits) {
                Ok(run) => run,
                Err(error) => return self.fail(TurnError::from(error), false).await,
            };
            let (ack_tx, ack_rx) = oneshot::channel();
            let spawned = TurnItem::Spawned {
                pgid: run.pgid,
                process_start: run.process_start,
                marker: run.marker.clone(),
                ack: ack_tx,
            };
            if self.tx.send(spawned).await.is_err() {
                return;
            }
            let delivered = tokio::select! {
                ack = ack_rx => ack.unwrap_or(false),
                _ = &mut cancel => false,
            };
            if !delivered {
                run.cancel();
                return self.fail_cancelled(TurnError::StoppedBeforeStart).await;
            }
            run.deliver_prompt();
            self.delivered = true;
            let stop = tokio::select! {
                outcome = self.pump(&mut run, &mut watch) => outcome,
                _ = &mut cancel => Err(Stop::Cancel),
            };
            match stop {
                Ok(()) => return,
                Err(Stop::Cancel) => {
                    run.cancel();
                    return self.fail_cancelled(TurnError::CancelledBeforeFinish).await;
                }
                Err(Stop::Interrupt(prompt)) => {
                    // The same chat goes on with the rule; Cursor keeps what it did so far. The
                    // interrupted process must be gone first: two processes on one chat could
                    // both write its store.
                    run.cancel();
                    run.ended().await;
                    if let Some(watch) = watch.as_mut() {
                        watch.next_run();
                    }
                    self.display.next_run();
                    spec.chat_id.clone_from(&self.chat_id);
                    spec.prompt = prompt;
                }
                Err(Stop::Fallback(failure)) => {
                    run.cancel();
                    let Some(prompt) = fresh_prompt.take() else {
                        let error = failure.map_or(TurnError::FreshChatFailed, TurnError::Failed);
                        return self.fail(error, self.agent_started).await;
                    };
                    spec.chat_id = None;
                    spec.prompt = prompt;
                    self.chat_id = None;
                    if self.started {
                        if self
                            .notice(format!("{RESUME_FALLBACK_NOTICE}\n\n"))
                            .await
                            .is_err()
                        {
                            return;
                        }
                    } else {
                        self.input.notices.push(RESUME_FALLBACK_NOTICE.to_string());
                    }
                }
            }
        }
    }

    async fn fail(&mut self, error: TurnError, acted: bool) {
        let error = self.with_summary(&error);
        let _ = self
            .tx
            .send(TurnItem::Failed {
                error,
                acted,
                cancelled: false,
                chat_id: self.chat_id.clone(),
                touched: self.display.touched(),
                fired: self.fired.clone(),
            })
            .await;
    }

    async fn fail_cancelled(&mut self, error: TurnError) {
        let error = self.with_summary(&error);
        let _ = self
            .tx
            .send(TurnItem::Failed {
                error,
                acted: self.agent_started || self.delivered,
                cancelled: true,
                chat_id: self.chat_id.clone(),
                touched: self.display.touched(),
                fired: self.fired.clone(),
            })
            .await;
    }

    /// A failure's message with what Cursor did before it (the closing summary on one line),
    /// so the user learns what changed even though the answer is not shown.
    fn with_summary(&self, error: &TurnError) -> ApiError {
        let mut error = ApiError::from(error);
        if let Some(summary) = self.display.summary_sentence() {
            error.message = format!("{} Before it stopped, Cursor ran {summary}", error.message);
        }
        error
    }

    /// Relays one run to its end. `Ok` once a `Finished` or `Failed` item was sent. Each event
    /// is fed to the stream rules' `watch` after it was relayed.
    async fn pump(
        &mut self,
        run: &mut CursorRun,
        watch: &mut Option<StreamWatch<'_>>,
    ) -> Result<(), Stop> {
        let first = tokio::time::timeout(FIRST_EVENT_WAIT, run.next()).await;
        let mut pending = match first {
            Ok(item) => Some(item),
            Err(_) => {
                self.open().await?;
                None
            }
        };
        loop {
            let item = match pending.take() {
                Some(item) => item,
                None => self.next_output(run).await?,
            };
            let output = match item {
                None => {
                    self.fail(TurnError::NoResult, self.agent_started).await;
                    return Ok(());
                }
                Some(Err(RunError::Failed(failure)))
                    if !self.agent_started && failure.recovery() != Recovery::None =>
                {
                    // `FreshChat`: Cursor refused the chat. `ReclaimChat`: another agent holds
                    // it; the turn does not know which process group that is (only the
                    // gateway's record of an earlier run could prove one ours), so it never
                    // signals anything and starts a fresh chat instead. Either way nothing ran.
                    return Err(Stop::Fallback(Some(failure)));
                }
                Some(Err(error)) => {
                    self.fail(TurnError::from(error), self.agent_started).await;
                    return Ok(());
                }
                Some(Ok(RunOutput::ChatReplaced { .. })) if !self.agent_started => {
                    // Init comes first: Cursor has read the prompt but done nothing yet.
                    return Err(Stop::Fallback(None));
                }
                Some(Ok(output)) => output,
            };
            self.agent_started = true;
            self.open().await?;
            let event = match output {
                RunOutput::ChatReplaced { actual, .. } => {
                    self.chat_id = Some(actual);
                    continue;
                }
                RunOutput::Event(event) => event,
            };
            let fired = watch
                .as_mut()
                .map(|w| w.observe(&event))
                .unwrap_or_default();
            match event {
                RunEvent::Init { chat_id, .. } => {
                    self.chat_id = Some(chat_id.clone());
                    self.emit(TurnItem::Chat(chat_id)).await?;
                }
                RunEvent::Result(result) => {
                    // A condition anchored at the end of the text matches only now: the run
                    // is over, but the chat still goes on with the rule.
                    if let Some(prompt) = self.rules_fired(fired).await? {
                        return Err(Stop::Interrupt(prompt));
                    }
                    return self.finish(result).await;
                }
                event => {
                    let text = self.display.event(&event, Instant::now());
                    self.text(text).await?;
                    if let Some(prompt) = self.rules_fired(fired).await? {
                        return Err(Stop::Interrupt(prompt));
                    }
                }
            }
        }
    }

    /// Shows a row for each stream rule that fired and remembers it. Returns the prompt that
    /// resumes the chat when one of them interrupts the run. A run that has not named its chat
    /// cannot be resumed: its rules go with the next prompt instead.
    async fn rules_fired(&mut self, fired: Vec<Fired<'_>>) -> Result<Option<String>, Stop> {
        let mut interrupting = Vec::new();
        for mut rule in fired {
            rule.interrupt &= self.chat_id.is_some();
            let row = self.display.row(&rule.row(), Instant::now());
            self.text(row).await?;
            self.fired.push(FiredRule::from(&rule));
            if rule.interrupt {
                interrupting.push(rule);
            }
        }
        Ok((!interrupting.is_empty()).then(|| render_interruption(&interrupting)))
    }

    /// The run's next output; meanwhile, when the display has something to say about time
    /// passing (a long action, a long silence), it is streamed.
    async fn next_output(
        &mut self,
        run: &mut CursorRun,
    ) -> Result<Option<Result<RunOutput, RunError>>, Stop> {
        loop {
            let wake = tokio::time::Instant::from_std(self.display.next_wake());
            tokio::select! {
                item = run.next() => return Ok(item),
                _ = tokio::time::sleep_until(wake) => {
                    let text = self.display.tick(Instant::now());
                    if !text.is_empty() {
                        self.open().await?;
                        self.text(text).await?;
                    }
                }
            }
        }
    }

    /// Sends `message_start` and the notices, once.
    async fn open(&mut self) -> Result<(), Stop> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        let start =
            StreamEvent::message_start(&self.input.requested_model, self.input.input_estimate);
        self.send(start).await?;
        for notice in std::mem::take(&mut self.input.notices) {
            self.notice(format!("{notice}\n\n")).await?;
        }
        Ok(())
    }

    /// A notice paragraph, placed after whatever was streamed before it.
    async fn notice(&mut self, text: String) -> Result<(), Stop> {
        let text = self.display.external(&text, Instant::now());
        self.text(text).await
    }

    /// Streams text exactly as given (the display already placed it).
    async fn text(&mut self, text: String) -> Result<(), Stop> {
        if text.is_empty() {
            return Ok(());
        }
        self.answer.push_str(&text);
        self.ensure_block().await?;
        self.send(StreamEvent::text_delta(text)).await
    }

    async fn ensure_block(&mut self) -> Result<(), Stop> {
        if self.block_open {
            return Ok(());
        }
        self.block_open = true;
        self.send(StreamEvent::text_block_start()).await
    }

    async fn finish(&mut self, result: RunResult) -> Result<(), Stop> {
        if result.chat_id.is_some() {
            self.chat_id.clone_from(&result.chat_id);
        }
        if !result.success {
            self.fail(TurnError::reported(&result.text), true).await;
            return Ok(());
        }
        let now = Instant::now();
        let tail = self.display.finish(&result, now);
        // The answer's usage counts the text up to the summary; its figures then end the summary.
        let shown = self.answer.len();
        self.answer.push_str(&tail);
        let usage = usage_json(result.usage, self.input.input_estimate, &self.answer);
        self.answer.truncate(shown);
        let source = crate::display::usage_source(result.usage, &self.input.spec.model);
        let tokens = crate::display::turn_tokens(&usage, &source);
        let tail = self.display.with_tokens(tail, &tokens, now);
        self.text(tail).await?;
        self.ensure_block().await?;
        let closing = closing_events(usage, Some(source))
            .iter()
            .map(SseEvent::from)
            .collect();
        let answer = std::mem::take(&mut self.answer);
        let fired = std::mem::take(&mut self.fired);
        self.emit(TurnItem::Finished {
            closing,
            answer,
            chat_id: self.chat_id.clone(),
            touched: self.display.touched(),
            fired,
        })
        .await
    }

    async fn send(&self, event: StreamEvent) -> Result<(), Stop> {
        self.emit(TurnItem::Event(SseEvent::from(event))).await
    }

    async fn emit(&self, item: TurnItem) -> Result<(), Stop> {
        self.tx.send(item).await.map_err(|_| Stop::Cancel)
    }
}

use crate::display::usage_json;

/// Why a Cursor turn failed; its message says what happened and what to do. The gateway maps
/// each case to its HTTP status and Anthropic error type (`gateway::error`).
#[derive(Debug, Error)]
pub enum TurnError {
    /// The agent could not be started (not installed, not executable).
    #[error("{0}; {INSTALL_HINT}")]
    Spawn(RunError),
    /// The CLI reported a failure it has words for: logged out, rate limited, an unknown
    /// model, an untrusted workspace.
    #[error("{}", cli_failure_message(.0))]
    Cli(CliFailure),
    /// The run ended without a `result`: its failure in Cursor's words, with its own status
    /// and what it may have done to the workspace.
    #[error("{0}")]
    Failed(RunFailure),
    /// The run was cancelled.
    #[error("{0}")]
    Cancelled(RunError),
    /// The run failed after Cursor may have acted.
    #[error(
        "{0}. Cursor may have changed files before it stopped; check your workspace before retrying."
    )]
    Run(RunError),
    /// Cursor's `result` reported an error of no known kind (its text).
    #[error("Cursor reported an error: {0}")]
    Reported(String),
    /// The record keeper went away (or could not record the turn) before the prompt was given.
    #[error("the Cursor turn was stopped before it started")]
    StoppedBeforeStart,
    /// The turn was cancelled (the client left) while Cursor ran.
    #[error("the Cursor run was cancelled before it finished")]
    CancelledBeforeFinish,
    /// Cursor would not resume the recorded chat, and the fresh chat tried instead failed too.
    #[error("Cursor could not resume its earlier conversation, and a fresh chat was already tried")]
    FreshChatFailed,
    /// The agent's output ended without a `result`.
    #[error("Cursor ended without a result; its work may be incomplete")]
    NoResult,
}

impl From<RunError> for TurnError {
    fn from(error: RunError) -> Self {
        match error {
            RunError::Spawn { .. } => TurnError::Spawn(error),
            RunError::Failed(failure) => TurnError::Failed(failure),
            RunError::Cancelled => TurnError::Cancelled(error),
            RunError::Stalled { .. }
            | RunError::OutputTooLarge { .. }
            | RunError::Stream(_)
            | RunError::Io(_) => TurnError::Run(error),
        }
    }
}

impl TurnError {
    /// A `result` that reported an error: its text classified like a plain-text CLI failure.
    pub fn reported(text: &str) -> Self {
        match classify_plain_text(text) {
            Some(failure) => TurnError::Cli(failure),
            None => TurnError::Reported(text.to_string()),
        }
    }
}

/// A CLI failure's message with the fix for the failures the user can fix here.
fn cli_failure_message(failure: &CliFailure) -> String {
    match failure {
        CliFailure::AuthRequired(_) | CliFailure::RateLimited(_) => failure.to_string(),
        CliFailure::BadModel(_) => {
            format!("{failure}. Pick a model from `multi-cursor --cursor-models`.")
        }
        CliFailure::WorkspaceTrust(_) => {
            format!("{failure}. Run `agent` once in this folder and trust it.")
        }
    }
}
