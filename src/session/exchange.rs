//! Exchanges: one request's answer, shared by every client that sends the same request.
//!
//! An exchange's key is sha256 over the identity, the body without `stream`, and the policy it
//! ran under. Its events are kept as they are produced, so a client that joins late
//! gets the earlier events first and then the live ones; a completed exchange replays them. The
//! last observer leaving a running exchange cancels its turn (Esc in Claude Code closes the
//! connection).

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::MutexGuard;

use sha2::Digest;
use sha2::Sha256;
use thiserror::Error;
use tokio::sync::watch;

use super::record::RecordError;
use crate::anthropic::StreamEvent;
use crate::turn::TurnCancel;
use crate::turn::TurnFailure;

/// The answer to a re-send of a request whose turn a stopped gateway left unfinished.
pub(crate) const UNFINISHED_MESSAGE: &str = "multi-cursor stopped while Cursor was working on this request, so Cursor may have done part of it; it is not run a second time. Send a new message (for example \"continue\") and Cursor will be told to report where it stopped";

/// Why an exchange failed: what every request joined to it is answered with. The gateway maps
/// each case to its HTTP status (`gateway::error`).
#[derive(Debug, Clone, Error)]
pub enum ExchangeFailure {
    /// The turn failed.
    #[error("{0}")]
    Turn(TurnFailure),
    /// A gateway that stopped left this request's turn unfinished: it is not run again.
    #[error("{UNFINISHED_MESSAGE}")]
    Unfinished,
    /// The turn stopped reporting before it said how it ended.
    #[error(
        "the Cursor turn ended unexpectedly; Cursor may have changed files, check your workspace before retrying"
    )]
    EndedUnexpectedly,
    /// The record could not be written before Cursor got the prompt; nothing ran.
    #[error(
        "{0}; nothing was run. Free some disk space or fix the state folder's permissions, then send the message again"
    )]
    NotStarted(Arc<RecordError>),
    /// Cursor finished, but its answer could not be recorded.
    #[error(
        "Cursor finished, but its answer could not be recorded ({0}). It is not shown as a success; free some disk space or fix the state folder's permissions, then ask Cursor what it did"
    )]
    NotRecorded(Arc<RecordError>),
}

/// The key of an exchange.
pub fn exchange_key(identity_key: &str, body_digest: &[u8; 32], policy: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(identity_key.as_bytes());
    hasher.update([0]);
    hasher.update(body_digest);
    hasher.update([0]);
    hasher.update(policy.as_bytes());
    hex::encode(hasher.finalize())
}

/// How an exchange ended.
#[derive(Debug, Clone)]
pub(crate) enum Ending {
    /// Cursor's answer was recorded; all events are in.
    Completed,
    /// The turn failed. `acted`: Cursor may have done something, so an identical retry gets
    /// this failure again instead of a second run.
    Failed { error: ExchangeFailure, acted: bool },
}

#[derive(Debug, Default)]
struct Progress {
    events: Vec<StreamEvent>,
    ending: Option<Ending>,
    observers: usize,
    cancel: Option<TurnCancel>,
}

/// One request's answer in the making or made.
#[derive(Debug)]
pub struct Exchange {
    key: String,
    replayed: bool,
    progress: Mutex<Progress>,
    changed: watch::Sender<u64>,
}

impl Exchange {
    /// A running exchange whose turn `cancel` ends.
    pub(crate) fn running(key: String, cancel: TurnCancel) -> Arc<Exchange> {
        Arc::new(Exchange {
            key,
            replayed: false,
            progress: Mutex::new(Progress {
                cancel: Some(cancel),
                ..Progress::default()
            }),
            changed: watch::Sender::new(0),
        })
    }

    /// A completed exchange served from recorded events.
    pub(crate) fn replay(key: String, events: Vec<StreamEvent>) -> Arc<Exchange> {
        Exchange::ended(key, events, Ending::Completed)
    }

    /// A failed exchange, for a request whose earlier attempt may have acted (a turn left
    /// unfinished by a gateway that stopped): an identical retry gets this failure, not a run.
    pub(crate) fn failed(key: String, error: ExchangeFailure) -> Arc<Exchange> {
        Exchange::ended(key, Vec::new(), Ending::Failed { error, acted: true })
    }

    /// An exchange that ended before this gateway saw it run: answered from `events` and
    /// `ending`, marked replayed.
    fn ended(key: String, events: Vec<StreamEvent>, ending: Ending) -> Arc<Exchange> {
        Arc::new(Exchange {
            key,
            replayed: true,
            progress: Mutex::new(Progress {
                events,
                ending: Some(ending),
                ..Progress::default()
            }),
            changed: watch::Sender::new(0),
        })
    }

    pub(crate) fn key(&self) -> &str {
        &self.key
    }

    /// True when served from a record rather than a run of this gateway.
    pub(crate) fn is_replay(&self) -> bool {
        self.replayed
    }

    fn progress(&self) -> MutexGuard<'_, Progress> {
        self.progress
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn bump(&self) {
        self.changed.send_modify(|n| *n += 1);
    }

    /// Appends an event for every observer.
    pub(crate) fn push(&self, event: StreamEvent) {
        self.progress().events.push(event);
        self.bump();
    }

    /// Ends the exchange.
    pub(crate) fn end(&self, ending: Ending) {
        {
            let mut progress = self.progress();
            progress.ending = Some(ending);
            progress.cancel = None;
        }
        self.bump();
    }

    /// `None` while running.
    pub(crate) fn ending(&self) -> Option<Ending> {
        self.progress().ending.clone()
    }

    /// Whether the exchange is still running.
    pub(crate) fn is_running(&self) -> bool {
        self.progress().ending.is_none()
    }

    /// Every event so far.
    pub(crate) fn events(&self) -> Vec<StreamEvent> {
        self.progress().events.clone()
    }

    /// A new observer: it sees every event from the first.
    pub fn observe(self: &Arc<Self>) -> Observer {
        self.progress().observers += 1;
        Observer {
            exchange: Arc::clone(self),
            next: 0,
            changed: self.changed.subscribe(),
            finished: false,
        }
    }

    /// Cancels the turn if it is still running, even while clients still watch it, saying why
    /// (Claude Code's `Interrupt` hook: the client may keep its connection open after the user
    /// stopped the turn). True when a running turn was told to end.
    pub(crate) fn interrupt(&self, why: String) -> bool {
        let cancel = {
            let mut progress = self.progress();
            if progress.ending.is_some() {
                None
            } else {
                progress.cancel.take()
            }
        };
        cancel.map(|mut cancel| cancel.fire_because(why)).is_some()
    }
}

/// One client's view of an exchange. Dropping the last observer of a running exchange cancels
/// its turn.
#[derive(Debug)]
pub struct Observer {
    exchange: Arc<Exchange>,
    next: usize,
    changed: watch::Receiver<u64>,
    finished: bool,
}

impl Observer {
    /// The next event; `Some(Err)` once if the exchange failed; `None` when it is over.
    pub async fn next(&mut self) -> Option<Result<StreamEvent, ExchangeFailure>> {
        loop {
            if self.finished {
                return None;
            }
            self.changed.borrow_and_update();
            {
                let progress = self.exchange.progress();
                if let Some(event) = progress.events.get(self.next) {
                    self.next += 1;
                    return Some(Ok(event.clone()));
                }
                match &progress.ending {
                    Some(Ending::Completed) => {
                        self.finished = true;
                        return None;
                    }
                    Some(Ending::Failed { error, .. }) => {
                        self.finished = true;
                        return Some(Err(error.clone()));
                    }
                    None => {}
                }
            }
            if self.changed.changed().await.is_err() {
                return None;
            }
        }
    }

    pub(crate) fn exchange(&self) -> &Arc<Exchange> {
        &self.exchange
    }
}

impl Drop for Observer {
    fn drop(&mut self) {
        let cancel = {
            let mut progress = self.exchange.progress();
            progress.observers = progress.observers.saturating_sub(1);
            if progress.observers == 0 && progress.ending.is_none() {
                progress.cancel.take()
            } else {
                None
            }
        };
        if let Some(mut cancel) = cancel {
            cancel.fire();
        }
    }
}
