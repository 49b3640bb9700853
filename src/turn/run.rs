//! The run loop of a turn: spawns each Cursor run (the turn's own, a fresh-chat fallback, a
//! stream-rule resume), relays its output as Messages events through the display and the stream
//! rules, and reports each run's end and the turn's outcome as [`TurnItem`]s.

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::mpsc;
use tokio::sync::oneshot;

use super::ChatHolder;
use super::Delivered;
use super::FIRST_EVENT_WAIT;
use super::RESUME_FALLBACK_NOTICE;
use super::TurnError;
use super::TurnFailure;
use super::TurnInput;
use super::TurnItem;
use super::error::exit_code;
use crate::anthropic::StreamEvent;
use crate::anthropic::events::closing_events;
use crate::anthropic::events::closing_with_tool;
use crate::cursor::events::RunEvent;
use crate::cursor::events::RunResult;
use crate::cursor::failure::Recovery;
use crate::cursor::failure::RunFailure;
use crate::cursor::process::CursorRun;
use crate::cursor::process::RunError;
use crate::cursor::process::RunLimits;
use crate::cursor::process::RunOutput;
use crate::cursor::process::spawn_turn_held;
use crate::dialog::material::Material;
use crate::dialog::offer;
use crate::display::TurnDisplay;
use crate::display::estimate_text_tokens;
use crate::display::run_tokens;
use crate::display::usage_json;
use crate::policy::cursor_config::put_back_after_run;
use crate::rules::Fired;
use crate::rules::FiredRule;
use crate::rules::StreamWatch;
use crate::rules::render_interruption;
use crate::spend::ledger::EstimateBasis;
use crate::spend::ledger::Purpose;
use crate::spend::ledger::RunEnded;
use crate::spend::ledger::RunOutcome;

/// Turns run outputs into Messages events: one per turn, across its runs.
pub(super) struct Translator {
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
    /// The run going on since its prompt was delivered, for its `RunEnded`.
    run_clock: Option<RunClock>,
    /// What Cursor wanted to put to the user (its plan, its questions).
    material: Material,
    /// Why the turn was cancelled, when the canceller said ([`TurnCancel::fire_because`](super::TurnCancel::fire_because)).
    stopped: Option<String>,
}

/// When the current run's prompt was delivered, why it runs, and where its text starts in
/// the answer (its output estimate when Cursor reports no tokens).
struct RunClock {
    purpose: Purpose,
    started: Instant,
    answer_mark: usize,
    /// The prompt this run was given, estimated (4 bytes a token), and which prompt it is.
    prompt_estimate: u64,
    basis: EstimateBasis,
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
    pub(super) fn new(input: TurnInput, tx: mpsc::Sender<TurnItem>) -> Self {
        let mut display = TurnDisplay::new(input.spec.workspace.clone(), Instant::now());
        // A plan, when there is one, takes the dialog (`dialog::offer`).
        if input.dialogs.question && input.dialogs.plan_file.is_none() {
            display.questions_in_dialog();
        }
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
            run_clock: None,
            material: Material::default(),
            stopped: None,
        }
    }

    pub(super) async fn drive(
        mut self,
        mut cancel: oneshot::Receiver<Option<String>>,
        mut holder: Option<ChatHolder>,
    ) {
        let mut spec = self.input.spec.clone();
        let mut fresh_prompt = self.input.fresh_prompt.take();
        let rules = self.input.stream_rules.take();
        let mut watch = rules
            .as_ref()
            .map(|r| r.book.stream_watch(&r.fired))
            .filter(StreamWatch::is_active);
        let mut purpose = Purpose::Turn;
        loop {
            let limits = quiet_backstop(self.input.limits);
            let hold = put_back_after_run(self.input.cursor_config.as_deref(), &spec.model);
            let mut run = match spawn_turn_held(&self.input.agent, &spec, limits, hold) {
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
                why = &mut cancel => {
                    self.stopped = why.ok().flatten();
                    false
                }
            };
            if !delivered {
                run.cancel();
                return self.fail_cancelled(TurnError::StoppedBeforeStart).await;
            }
            run.deliver_prompt();
            self.delivered = true;
            self.run_clock = Some(RunClock {
                purpose,
                started: Instant::now(),
                answer_mark: self.answer.len(),
                prompt_estimate: estimate_text_tokens(&spec.prompt),
                basis: if spec.chat_id.is_some() {
                    EstimateBasis::NewestTurn
                } else {
                    EstimateBasis::NewChat
                },
            });
            let stop = tokio::select! {
                outcome = self.pump(&mut run, &mut watch) => outcome,
                why = &mut cancel => {
                    self.stopped = why.ok().flatten();
                    Err(Stop::Cancel)
                }
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
                    if self
                        .run_ended(RunOutcome::Restarted, None, None, None)
                        .await
                        .is_err()
                    {
                        return;
                    }
                    purpose = Purpose::Resume;
                    if let Some(watch) = watch.as_mut() {
                        watch.next_run();
                    }
                    self.display.next_run();
                    spec.chat_id.clone_from(&self.chat_id);
                    spec.prompt = prompt;
                }
                Err(Stop::Fallback(failure)) => {
                    run.cancel();
                    let in_use = failure
                        .as_ref()
                        .is_some_and(|f| f.recovery() == Recovery::ReclaimChat);
                    if in_use
                        && let Some(holder) = holder.take()
                        && holder.reclaim().await
                    {
                        // The chat's holder was ours and is gone: resume the chat once more.
                        run.ended().await;
                        continue;
                    }
                    let Some(prompt) = fresh_prompt.take() else {
                        let error = failure.map_or(TurnError::FreshChatFailed, TurnError::Failed);
                        return self.fail(error, self.agent_started).await;
                    };
                    if self
                        .run_ended(RunOutcome::Restarted, None, None, None)
                        .await
                        .is_err()
                    {
                        return;
                    }
                    purpose = Purpose::Fallback;
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
        let code = exit_code(&error);
        self.end_failed(RunOutcome::Failed, code, error, acted, false)
            .await;
    }

    async fn fail_cancelled(&mut self, error: TurnError) {
        let acted = self.agent_started || self.delivered;
        self.end_failed(RunOutcome::Cancelled, None, error, acted, true)
            .await;
    }

    /// Reports the current run as over with `outcome`, then the turn as failed.
    async fn end_failed(
        &mut self,
        outcome: RunOutcome,
        exit_code: Option<i32>,
        error: TurnError,
        acted: bool,
        cancelled: bool,
    ) {
        let _ = self.run_ended(outcome, None, exit_code, None).await;
        let error = self.with_summary(error);
        let delivered = self.delivered_so_far();
        let _ = self
            .tx
            .send(TurnItem::Failed {
                error,
                acted,
                cancelled,
                delivered,
            })
            .await;
    }

    /// What Cursor has done in this turn so far.
    fn delivered_so_far(&self) -> Delivered {
        Delivered {
            chat_id: self.chat_id.clone(),
            touched: self.display.touched(),
            fired: self.fired.clone(),
        }
    }

    /// A failure's message with what Cursor did before it (the closing summary on one line),
    /// so the user learns what changed even though the answer is not shown.
    fn with_summary(&self, error: TurnError) -> TurnFailure {
        TurnFailure {
            error: Arc::new(error),
            summary: self.display.summary_sentence(),
        }
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
                    // it; only the group the record of a stopped gateway's run names can be
                    // proven ours ([`ChatHolder`]): that one is ended and the resume tried once
                    // more, anything else is never signalled. Either way nothing ran.
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
            self.material.observe(&event);
            match event {
                RunEvent::Init { chat_id, model } => {
                    if let Some(served) = &model {
                        self.display.note_served(served, &self.input.spec.model);
                    }
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
                    if matches!(
                        event,
                        RunEvent::ToolStarted { .. } | RunEvent::ToolCompleted { .. }
                    ) && let Some(action) = self.display.last_action()
                    {
                        self.emit(TurnItem::Action(action)).await?;
                    }
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
    /// passing (a long action, a long silence), it is streamed. Quiet is not stalled: the run
    /// is ended as stalled only after the silence [`TurnDisplay::silence_allowed`] grants
    /// (the inactivity limit, or an open tool call's own timeout plus a margin).
    async fn next_output(
        &mut self,
        run: &mut CursorRun,
    ) -> Result<Option<Result<RunOutput, RunError>>, Stop> {
        let quiet_since = tokio::time::Instant::now();
        loop {
            let mut allowed = self.display.silence_allowed(self.input.limits.inactivity);
            // Before its first event a run gets the shorter wait: nothing of it runs yet.
            let first = !self.agent_started;
            if first {
                allowed = allowed.min(self.input.limits.first_event);
            }
            let stalled_at = quiet_since + allowed;
            let wake = tokio::time::Instant::from_std(self.display.next_wake()).min(stalled_at);
            tokio::select! {
                item = run.next() => return Ok(item),
                _ = tokio::time::sleep_until(wake) => {
                    if tokio::time::Instant::now() >= stalled_at {
                        let error = if first {
                            RunError::NoFirstEvent { after: allowed }
                        } else {
                            RunError::Stalled { after: allowed }
                        };
                        return Ok(Some(Err(error)));
                    }
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
        let start = StreamEvent::message_start(&self.input.requested_model, self.input_estimate());
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
            self.run_ended(
                RunOutcome::Failed,
                result.usage,
                None,
                result.request_id.clone(),
            )
            .await?;
            self.fail(TurnError::reported(&result.text), true).await;
            return Ok(());
        }
        let now = Instant::now();
        let tail = self.display.finish(&result, now);
        // The answer's usage counts the text up to the summary; its figures then end the summary.
        let shown = self.answer.len();
        self.answer.push_str(&tail);
        let usage = usage_json(result.usage, self.input_estimate(), &self.answer);
        self.answer.truncate(shown);
        let source = crate::display::usage_source(result.usage, &self.input.spec.model);
        let tokens = crate::display::turn_tokens(&usage, &source);
        let tail = self.display.with_tokens(tail, &tokens, now);
        self.text(tail).await?;
        // What Cursor wanted to put to the user: a dialog of Claude Code's, or words.
        let chat = self.chat_id.clone().unwrap_or_default();
        let offer = offer::offer(&self.input.dialogs, &self.material, &chat);
        let note = match &offer {
            Some(offer) => Some(offer.note.clone()),
            None => offer::in_words(&self.material, self.input.spec.mode),
        };
        if let Some(note) = note {
            self.notice(note).await?;
        }
        self.ensure_block().await?;
        self.run_ended(
            RunOutcome::Completed,
            result.usage,
            None,
            result.request_id.clone(),
        )
        .await?;
        let closing = match &offer {
            Some(offer) => closing_with_tool(
                usage,
                Some(source),
                &offer.id,
                offer.tool.name(),
                &offer.input,
            ),
            None => closing_events(usage, Some(source)),
        };
        let answer = std::mem::take(&mut self.answer);
        let delivered = self.delivered_so_far();
        self.emit(TurnItem::Finished {
            closing,
            answer,
            delivered,
            dialog: offer.map(|offer| offer.pending),
        })
        .await
    }

    /// Reports the current run as over (once; nothing when no prompt was delivered): its
    /// tokens are Cursor's `usage` when it gave input and output, else the input estimate and
    /// the run's text at 4 bytes a token.
    async fn run_ended(
        &mut self,
        outcome: RunOutcome,
        usage: Option<crate::cursor::events::RunUsage>,
        exit_code: Option<i32>,
        request_id: Option<String>,
    ) -> Result<(), Stop> {
        let Some(clock) = self.run_clock.take() else {
            return Ok(());
        };
        let text = self.answer.get(clock.answer_mark..).unwrap_or_default();
        // A run that said nothing (Cursor refused the chat) read no prompt worth counting; any
        // other run is estimated from the prompt it was given, never the whole transcript.
        let estimate = if self.agent_started {
            clock.prompt_estimate
        } else {
            0
        };
        let tokens = run_tokens(usage, estimate, text);
        let ended = RunEnded {
            purpose: clock.purpose,
            duration: clock.started.elapsed(),
            exit_code,
            outcome,
            tokens,
            estimated_from: tokens.estimated.then_some(clock.basis),
            request_id,
            served_fast: self.display.served_fast().map(str::to_owned),
            stopped: self.stopped.clone(),
        };
        self.emit(TurnItem::RunEnded(ended)).await
    }

    /// The input tokens an answer reports when Cursor gives none: the turn's prompt, estimated.
    fn input_estimate(&self) -> u64 {
        estimate_text_tokens(&self.input.spec.prompt)
    }

    async fn send(&self, event: StreamEvent) -> Result<(), Stop> {
        self.emit(TurnItem::Event(event)).await
    }

    async fn emit(&self, item: TurnItem) -> Result<(), Stop> {
        self.tx.send(item).await.map_err(|_| Stop::Cancel)
    }
}

/// The limits a turn's process runs under: its own inactivity limit only as a backstop (an
/// open tool call may keep Cursor quiet for a day), since the turn ends a stalled run itself
/// ([`Translator::next_output`]), knowing which tool calls are open.
fn quiet_backstop(limits: RunLimits) -> RunLimits {
    let backstop = crate::display::CURSOR_HARD_TIMEOUT + crate::display::QUIET_MARGIN * 2;
    RunLimits {
        inactivity: limits.inactivity.max(backstop),
        ..limits
    }
}
