//! The keeper of a running turn: one task per turn that takes the turn's items in the order the
//! turn sent them and does everything each one calls for before it reads the next, so the
//! orderings a turn's end depends on are the order of the lines in [`Keeper::keep`]:
//!
//! - the process group is in the record before Cursor gets its prompt (the turn waits on the
//!   `Spawned` item's acknowledgement), and the chat id at `system/init`;
//! - each run's ledger line is appended when its `RunEnded` arrives, before the next item is
//!   read: so before the turn's closing events (or its failure) reach the exchange, and before
//!   the turn's last byte goes to Claude Code;
//! - the answer (with the dialog it opens, which the session then waits on) is committed before
//!   its closing events go out, and the session's note is remembered only then;
//! - once the exchange has ended: the live run leaves `status`, an action allowed for this turn
//!   only is put back, and what the ending says about Cursor's login, its probed flags and the
//!   account's plan is noted.

use std::path::Path;
use std::sync::Arc;

use tokio::sync::Mutex;
use tokio::sync::mpsc;

use super::services::TurnServices;
use crate::anthropic::StreamEvent;
use crate::anthropic::events::fold_message;
use crate::cursor::failure::RunFailure;
use crate::dialog::pending::PendingDialog;
use crate::policy::cursor_config::AllowEntry;
use crate::rules::TurnRules;
use crate::session::exchange::Ending;
use crate::session::exchange::Exchange;
use crate::session::exchange::ExchangeFailure;
use crate::session::identity::Identity;
use crate::session::record::Outcome;
use crate::session::record::PendingRun;
use crate::session::record::Record;
use crate::session::record::RecordError;
use crate::session::record::Replay;
use crate::session::store::Session;
use crate::spend::RunTap;
use crate::turn::Delivered;
use crate::turn::TurnError;
use crate::turn::TurnItem;

/// A started turn's keeper: what it writes to and what it knows of the turn.
pub(super) struct Keeper {
    pub(super) services: Arc<TurnServices>,
    /// The open session whose record the turn keeps.
    pub(super) session: Arc<Mutex<Session>>,
    /// The exchange the turn answers.
    pub(super) exchange: Arc<Exchange>,
    pub(super) identity: Identity,
    /// The exchange's key.
    pub(super) key: String,
    /// The Cursor model id the turn runs.
    pub(super) model: String,
    /// Whether the record was interrupted before this turn (restored if nothing runs).
    pub(super) interrupted_before: bool,
    /// The rulebook's part in this turn, settled in the record once Cursor had the prompt.
    pub(super) rules: TurnRules,
    /// The note remembered as shown in the Claude session once an answer carrying it is
    /// recorded.
    pub(super) session_note: Option<String>,
    /// An action allowed for this one turn: its entry is put back when the turn has ended.
    pub(super) allowed_once: Option<AllowEntry>,
}

impl Keeper {
    /// Keeps the turn whose items arrive on `items` in a task of its own, its runs followed by
    /// `spend`; the run is live in `status` from now until it has ended.
    pub(super) fn spawn(self, items: mpsc::Receiver<TurnItem>, spend: RunTap) {
        let run = self
            .services
            .run_started(&self.identity, &self.model, &self.exchange);
        tokio::spawn(self.keep(items, spend, run));
    }

    /// Each of the turn's items in order, then what follows its end (see the module doc).
    async fn keep(self, mut items: mpsc::Receiver<TurnItem>, spend: RunTap, run: u64) {
        let ending = loop {
            let Some(item) = items.recv().await else {
                // The turn is over: not live for the spend book any more.
                drop(spend);
                // A turn that stopped reporting before it said what it did.
                self.record_failure(true, false, Delivered::default()).await;
                break Ending::Failed {
                    error: ExchangeFailure::EndedUnexpectedly,
                    acted: true,
                };
            };
            match item {
                TurnItem::Spawned {
                    pgid,
                    process_start,
                    marker,
                    ack,
                } => {
                    self.services.run_spawned(run, pgid);
                    let saved = self.record_spawn(pgid, process_start, marker).await;
                    // Cursor gets its prompt only once the record names the group.
                    let _ = ack.send(saved.is_ok());
                    if let Err(error) = saved {
                        break Ending::Failed {
                            error: ExchangeFailure::NotStarted(Arc::new(error)),
                            acted: false,
                        };
                    }
                }
                TurnItem::Chat(chat_id) => self.record_chat(chat_id).await,
                TurnItem::Event(event) => self.exchange.push(event),
                TurnItem::Action(action) => spend.note_action(&action),
                // The run's ledger line is in the file before the next item is read.
                TurnItem::RunEnded(ended) => spend.run_ended(&ended),
                TurnItem::Finished {
                    closing,
                    delivered,
                    dialog,
                    ..
                } => {
                    drop(spend);
                    if let Err(error) = self.record_answer(&closing, delivered, dialog).await {
                        break Ending::Failed {
                            error: ExchangeFailure::NotRecorded(Arc::new(error)),
                            acted: true,
                        };
                    }
                    if let Some(note) = &self.session_note {
                        self.services.notice_shown(&self.identity.session, note);
                    }
                    // The answer is committed: its closing events go out.
                    for event in closing {
                        self.exchange.push(event);
                    }
                    break Ending::Completed;
                }
                TurnItem::Failed {
                    error,
                    acted,
                    cancelled,
                    delivered,
                } => {
                    drop(spend);
                    self.record_failure(acted, cancelled, delivered).await;
                    break Ending::Failed {
                        error: ExchangeFailure::Turn(error),
                        acted,
                    };
                }
            }
        };
        // Nothing after the turn's last item is read (after a spawn that could not be recorded,
        // the turn's own failure): its sender finds the keeper gone.
        drop(items);
        // A failure before anything could run is forgotten, so a retry runs.
        let forget = matches!(ending, Ending::Failed { acted: false, .. });
        self.exchange.end(ending.clone());
        if forget {
            self.session.lock().await.forget(&self.exchange);
        }
        // The run has ended here: its record is written and its exchange ended.
        self.services.run_ended(run);
        if let Some(entry) = self.allowed_once {
            let path = entry.path().display().to_string();
            let outcome = tokio::task::spawn_blocking(move || entry.put_back()).await;
            tracing::info!(%path, ?outcome, "the action allowed once was put back");
        }
        if let Some(said) = logged_out_said(&ending) {
            self.services.note_logged_out(&said);
        }
        if refused_a_probed_flag(&ending) {
            self.services.forget_agent().await;
        }
        let named_model = self.model != crate::cursor::catalog::AUTO_ID;
        note_plan(&self.services.settings().state_dir, &ending, named_model).await;
    }

    /// The record says `interrupted` with the run's process group (its leader's start time and
    /// marker) before Cursor gets the prompt; nothing is kept of a write that failed.
    async fn record_spawn(
        &self,
        pgid: i32,
        process_start: Option<u64>,
        marker: String,
    ) -> Result<(), RecordError> {
        let mut session = self.session.lock().await;
        let before = session.record.snapshot();
        session.record.interrupted = true;
        session.record.pending_run = Some(PendingRun {
            key: self.key.clone(),
            model: self.model.clone(),
            pgid,
            started_at: crate::state::now_rfc3339(),
            process_start,
            marker: Some(marker),
        });
        let saved = session.persist().await;
        if let Err(error) = &saved {
            tracing::error!(%error, "could not record the turn before starting it");
            session.record.roll_back(before);
        }
        saved
    }

    /// The chat Cursor named at `system/init`; a failure to write it is logged (the answer
    /// records it again).
    async fn record_chat(&self, chat_id: String) {
        let mut session = self.session.lock().await;
        session.record.chat_id = Some(chat_id);
        if let Err(error) = session.persist().await {
            tracing::warn!(%error, "could not record Cursor's chat id yet");
        }
    }

    /// Commits Cursor's answer: the events so far and `closing` as the replay and the folded
    /// response, the chat's rules, and the dialog the session waits on (`None` clears it). A
    /// failed write leaves the record as it was, less its pending run.
    async fn record_answer(
        &self,
        closing: &[StreamEvent],
        delivered: Delivered,
        dialog: Option<PendingDialog>,
    ) -> Result<(), RecordError> {
        let mut events = self.exchange.events();
        events.extend(closing.iter().cloned());
        let mut session = self.session.lock().await;
        let before = session.record.snapshot();
        let record = &mut session.record;
        self.settle_rules(record, delivered);
        record.response = Some(fold_message(&events));
        record.replay = Some(Replay {
            key: self.key.clone(),
            events,
        });
        record.last_outcome = Some(Outcome::Completed);
        record.dialog = dialog;
        record.interrupted = false;
        record.pending_run = None;
        let saved = session.persist().await;
        if let Err(error) = &saved {
            session.record.roll_back(before);
            session.record.pending_run = None;
            tracing::error!(%error, "could not record Cursor's answer");
        }
        saved
    }

    /// Records how a failed turn left the conversation: once Cursor had the prompt (`acted`),
    /// its rules were delivered and the record stays interrupted unless the turn was
    /// cancelled; before that, the record is as it was before the turn.
    async fn record_failure(&self, acted: bool, cancelled: bool, delivered: Delivered) {
        let mut session = self.session.lock().await;
        let record = &mut session.record;
        record.pending_run = None;
        if acted {
            self.settle_rules(record, delivered);
            record.last_outcome = Some(if cancelled {
                Outcome::Cancelled
            } else {
                Outcome::Failed
            });
            record.interrupted = !cancelled;
        } else {
            record.interrupted = self.interrupted_before;
        }
        if let Err(error) = session.persist().await {
            tracing::error!(%error, "could not record how a Cursor turn ended");
        }
    }

    /// The chat the turn ran in (when it named one) and the chat's rule state once the turn's
    /// prompt reached Cursor ([`TurnRules::settle`]).
    fn settle_rules(&self, record: &mut Record, delivered: Delivered) {
        if delivered.chat_id.is_some() {
            record.chat_id = delivered.chat_id;
        }
        let settled = self.rules.settle(
            record.chat_id.as_deref(),
            &delivered.touched,
            &delivered.fired,
        );
        record.set_chat_rules(&settled);
    }
}

/// The turn's error when it failed.
fn turn_error(ending: &Ending) -> Option<&TurnError> {
    match ending {
        Ending::Failed {
            error: ExchangeFailure::Turn(failure),
            ..
        } => Some(failure.error.as_ref()),
        _ => None,
    }
}

/// Cursor's words when a turn failed because Cursor is not logged in.
fn logged_out_said(ending: &Ending) -> Option<String> {
    match turn_error(ending)? {
        TurnError::Failed(RunFailure::LoggedOut { said, .. }) => Some(said.clone()),
        TurnError::Cli(crate::cursor::CliFailure::AuthRequired(said)) => Some(said.clone()),
        _ => None,
    }
}

/// Whether a turn failed because the CLI refused `--auto-review`, which its remembered
/// `--help` listed (Commander's `unknown option '--auto-review'`): the probe is stale.
fn refused_a_probed_flag(ending: &Ending) -> bool {
    turn_error(ending)
        .is_some_and(|error| error.to_string().contains("unknown option '--auto-review'"))
}

/// What a finished turn says about the account's plan (`cursor::catalog::plan`): an Auto-only
/// refusal is noted, so the next launch offers only Auto; a named model that answered clears
/// that note. Written on the blocking pool; a failure to write is logged, never the turn's.
async fn note_plan(state_dir: &Path, ending: &Ending, named_model: bool) {
    let auto_only_said = match turn_error(ending) {
        Some(TurnError::Failed(RunFailure::AutoOnly { said, .. })) => Some(said.clone()),
        _ => None,
    };
    let answered_named = named_model && matches!(ending, Ending::Completed);
    if auto_only_said.is_none() && !answered_named {
        return;
    }
    let dir = state_dir.to_path_buf();
    let written = tokio::task::spawn_blocking(move || match auto_only_said {
        Some(said) => {
            crate::cursor::catalog::plan::note_auto_only(&dir, &said).map_err(|e| e.to_string())
        }
        None => crate::cursor::catalog::plan::clear_auto_only(&dir).map_err(|e| e.to_string()),
    })
    .await;
    if let Ok(Err(error)) = written {
        tracing::warn!(%error, "could not note what the Cursor plan runs");
    }
}
