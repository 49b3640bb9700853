//! One gateway's spend book: what its Cursor runs cost per Claude session (the spend route),
//! the live runs with their last action, the per-turn admission against the budgets and the
//! runaway guards, and the ledger lines it appends.
//!
//! Everything here is in memory under one mutex held for microseconds, except the ledger
//! append (one `write(2)`, no fsync) and the daily budget's incremental read, which runs only
//! when `MULTI_CURSOR_BUDGET_DAILY_TOKENS` is set or the status is asked for.

use std::collections::HashMap;
use std::collections::HashSet;
use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Instant;

use serde::Serialize;
use sha2::Digest;

use super::BudgetUse;
use super::LiveSpend;
use super::SessionSpend;
use super::TokenFigures;
use super::daily::DailyTally;
use super::ledger::Ledger;
use super::ledger::LedgerLine;
use super::ledger::Purpose;
use super::ledger::RunEnded;
use super::ledger::RunOutcome;
use super::ledger::RunPlace;
use super::limits::LOOP_WINDOW;
use super::limits::RATE_WINDOW;
use super::limits::SpendLimits;
use super::limits::SpendRefusal;
use crate::anthropic::request::Content;
use crate::anthropic::request::ContentBlock;
use crate::anthropic::request::MessagesRequest;
use crate::anthropic::request::Role;

/// Most Claude sessions whose figures one gateway keeps; beyond it the quietest is dropped.
pub(crate) const MAX_SESSIONS: usize = 1024;

/// Most sessions one gateway keeps a spent compaction exemption for (one per session, until a
/// non-compaction turn of that session succeeds); beyond it every compaction is held to the
/// budgets.
pub(crate) const MAX_COMPACTION_EXEMPTIONS: usize = 4096;

/// Most bytes of a live run's last action kept for the status line.
pub(crate) const MAX_ACTION: usize = 200;

/// One gateway's spend: figures, live runs, limits and the ledger.
#[derive(Debug)]
pub(crate) struct SpendBook {
    ledger: Ledger,
    limits: SpendLimits,
    state: Mutex<BookState>,
}

#[derive(Debug, Default)]
struct BookState {
    sessions: HashMap<String, SessionTally>,
    /// Turns admitted by this gateway.
    turns: u64,
    /// Input + output tokens of its runs.
    tokens: u64,
    /// When its latest turns were admitted (the rate guard).
    recent: VecDeque<Instant>,
    /// Starts of a new worker by (session, first-message digest) (the loop guard).
    starts: HashMap<(String, [u8; 32]), VecDeque<Instant>>,
    live: HashMap<u64, LiveEntry>,
    next_live: u64,
    daily: DailyTally,
    /// Sessions that used their compaction past a spent budget and have had no successful
    /// non-compaction turn since.
    compactions: HashSet<String>,
}

/// The rate guard: the turns admitted in the last [`RATE_WINDOW`] against the limit.
fn check_rate(
    state: &mut BookState,
    limits: SpendLimits,
    now: Instant,
) -> Result<(), SpendRefusal> {
    while state
        .recent
        .front()
        .is_some_and(|at| now.duration_since(*at) >= RATE_WINDOW)
    {
        state.recent.pop_front();
    }
    if limits.turns_per_minute > 0 && state.recent.len() as u64 >= limits.turns_per_minute {
        return Err(SpendRefusal::Rate {
            limit: limits.turns_per_minute,
        });
    }
    Ok(())
}

#[derive(Debug, Default, Clone)]
struct SessionTally {
    runs: u64,
    replays: u64,
    tokens: TokenFigures,
    model: Option<String>,
}

#[derive(Debug)]
struct LiveEntry {
    session: String,
    model: String,
    started: Instant,
    last_action: Option<String>,
}

/// The digest of a request's first user message (its text blocks), which tells the same task
/// handed to a new worker again.
pub(crate) fn task_digest(request: &MessagesRequest) -> [u8; 32] {
    let mut hasher = sha2::Sha256::new();
    if let Some(first) = request.messages.iter().find(|m| m.role == Role::User) {
        hash_text(&mut hasher, &first.content);
    }
    hasher.finalize().into()
}

/// Feeds a message's text (its text blocks, each ended by a NUL) to `hasher`.
fn hash_text(hasher: &mut sha2::Sha256, content: &Content) {
    match content {
        Content::Text(text) => hasher.update(text.as_bytes()),
        Content::Blocks(blocks) => {
            for block in blocks {
                if let ContentBlock::Text { text } = block {
                    hasher.update(text.as_bytes());
                    hasher.update([0]);
                }
            }
        }
    }
}

/// The spend figures of `GET /multi-cursor/status` and `multi-cursor status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct SpendFigures {
    /// Turns this gateway started.
    pub turns: u64,
    /// Input + output tokens of its runs.
    pub tokens: u64,
    /// Input + output tokens in the ledger since local midnight, every gateway included.
    pub daily_tokens: u64,
    /// Each budget that is set: its variable, limit, use and what is left.
    pub budgets: Vec<BudgetUse>,
}

impl SpendBook {
    /// A book writing to the ledger under `state_dir`, with `limits`.
    pub(crate) fn new(state_dir: &Path, limits: SpendLimits) -> SpendBook {
        SpendBook {
            ledger: Ledger::new(state_dir),
            limits,
            state: Mutex::new(BookState::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BookState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Admits a turn of Claude session `session` (counting it) or refuses it. Called once per
    /// turn, before anything is spawned; the runs inside an admitted turn are never asked
    /// about. `new_worker_task` is, for a worker's first turn (a new Cursor chat for a worker),
    /// the digest of its first user message ([`task_digest`]); `None` for everything else,
    /// which never counts as a repeated task. Order: the rate guard, the loop guard, then the
    /// budgets (turns, tokens, daily tokens).
    pub(crate) fn check_turn(
        &self,
        session: &str,
        new_worker_task: Option<[u8; 32]>,
    ) -> Result<(), SpendRefusal> {
        let now = Instant::now();
        let limits = self.limits;
        let mut state = self.lock();
        check_rate(&mut state, limits, now)?;
        state.starts.retain(|_, at| {
            at.retain(|t| now.duration_since(*t) < LOOP_WINDOW);
            !at.is_empty()
        });
        let task = new_worker_task
            .filter(|_| limits.loop_limit > 0)
            .map(|digest| (session.to_string(), digest));
        if let Some(key) = &task {
            let earlier = state.starts.get(key).map_or(0, |at| at.len() as u64);
            if earlier + 1 >= limits.loop_limit {
                return Err(SpendRefusal::Loop {
                    starts: earlier + 1,
                    limit: limits.loop_limit,
                });
            }
        }
        self.check_budgets(&mut state)?;
        state.turns += 1;
        state.recent.push_back(now);
        if let Some(key) = task {
            state.starts.entry(key).or_default().push_back(now);
        }
        Ok(())
    }

    /// Admits a `/compact` summary run of `session` (counting it as a turn) or refuses it. It is
    /// a Cursor run like any other: the rate guard always applies. When a budget is used up,
    /// one compaction per session is still let through, so a user whose budget ran out can
    /// compact what they have; only for a session this gateway already ran Cursor for, and
    /// once until a non-compaction run of that session completes (the exempted compaction's
    /// own success does not count). The history a request carries is the client's to choose,
    /// so it never makes a second exemption.
    pub(crate) fn check_compaction(&self, session: &str) -> Result<(), SpendRefusal> {
        let now = Instant::now();
        let mut state = self.lock();
        check_rate(&mut state, self.limits, now)?;
        if let Err(refusal) = self.check_budgets(&mut state) {
            let ran_here = state.sessions.get(session).is_some_and(|t| t.runs > 0);
            if !ran_here
                || state.compactions.len() >= MAX_COMPACTION_EXEMPTIONS
                || !state.compactions.insert(session.to_string())
            {
                return Err(refusal);
            }
        }
        state.turns += 1;
        state.recent.push_back(now);
        Ok(())
    }

    /// The budgets (turns, tokens, daily tokens) in that order.
    fn check_budgets(&self, state: &mut BookState) -> Result<(), SpendRefusal> {
        let limits = self.limits;
        if let Some(limit) = limits.turns
            && state.turns >= limit
        {
            return Err(SpendRefusal::Turns {
                limit,
                used: state.turns,
            });
        }
        if let Some(limit) = limits.tokens
            && state.tokens >= limit
        {
            return Err(SpendRefusal::Tokens {
                limit,
                used: state.tokens,
            });
        }
        if let Some(limit) = limits.daily_tokens {
            let used = state.daily.refresh(&self.ledger);
            if used >= limit {
                return Err(SpendRefusal::DailyTokens { limit, used });
            }
        }
        Ok(())
    }

    /// Starts following a turn's runs: it is live (for the spend route) until the returned tap
    /// and its clones are dropped; each run it reports is appended to the ledger and counted.
    pub(crate) fn tap(self: &Arc<Self>, place: RunPlace) -> RunTap {
        let mut state = self.lock();
        state.next_live += 1;
        let id = state.next_live;
        state.live.insert(
            id,
            LiveEntry {
                session: place.session.clone(),
                model: place.model.clone(),
                started: Instant::now(),
                last_action: None,
            },
        );
        drop(state);
        RunTap(Arc::new(TapInner {
            book: Arc::clone(self),
            id,
            place,
        }))
    }

    /// An answer served again from a record: a `replay` line, counted in the session's replays.
    pub(crate) fn note_replay(&self, place: &RunPlace) {
        self.append(&LedgerLine::replay(place));
        let mut state = self.lock();
        state.tally(&place.session).replays += 1;
    }

    /// A run an earlier gateway left unfinished, found by this one: an `interrupted` line
    /// (tokens unknown). `started_at` is the run's recorded start (RFC 3339), if readable.
    pub(crate) fn note_interrupted(&self, place: &RunPlace, started_at: &str) {
        let duration = started_at
            .parse::<jiff::Timestamp>()
            .ok()
            .and_then(|at| jiff::Timestamp::now().duration_since(at).try_into().ok())
            .unwrap_or_default();
        self.append(&LedgerLine::interrupted(place, duration));
    }

    /// The ledger line of a run that ended, and its figures.
    fn run_ended(&self, place: &RunPlace, ended: &RunEnded) {
        self.append(&LedgerLine::run(place, ended));
        // The spend route answers input and output tokens; the cache counts are the ledger's.
        let figures = TokenFigures {
            cache_read_tokens: None,
            cache_write_tokens: None,
            ..ended.tokens
        };
        let mut state = self.lock();
        // A completed run of a turn (not a compaction) re-arms the session's exemption.
        if ended.outcome == RunOutcome::Completed && ended.purpose != Purpose::Compaction {
            state.compactions.remove(&place.session);
        }
        state.tokens = state.tokens.saturating_add(figures.billed());
        let tally = state.tally(&place.session);
        tally.runs += 1;
        tally.tokens.add(figures);
        tally.model = Some(place.model.clone());
    }

    fn append(&self, line: &LedgerLine) {
        if let Err(error) = self.ledger.append(line) {
            tracing::warn!(%error, "could not append to the Cursor ledger");
        }
    }

    /// The answer of the spend route for `session`, with the gateway's budgets as the status
    /// shows them. Today's tokens are read from the ledger only when the daily budget is set.
    pub(crate) fn session_spend(&self, session: &str) -> SessionSpend {
        let mut state = self.lock();
        let daily_tokens = match self.limits.daily_tokens {
            Some(_) => state.daily.refresh(&self.ledger),
            None => 0,
        };
        let budgets = self.limits.uses(state.turns, state.tokens, daily_tokens);
        let tally = state.sessions.get(session).cloned().unwrap_or_default();
        let live = state
            .live
            .values()
            .filter(|l| l.session == session)
            .max_by_key(|l| l.started)
            .map(|l| LiveSpend {
                model: l.model.clone(),
                running_secs: l.started.elapsed().as_secs(),
                last_action: l.last_action.clone(),
            });
        SessionSpend {
            session: session.to_string(),
            model: live.as_ref().map(|l| l.model.clone()).or(tally.model),
            runs: tally.runs,
            replays: tally.replays,
            tokens: tally.tokens,
            live,
            budgets,
        }
    }

    /// The gateway's figures and budgets for the status.
    pub(crate) fn figures(&self) -> SpendFigures {
        let mut state = self.lock();
        let daily_tokens = state.daily.refresh(&self.ledger);
        SpendFigures {
            turns: state.turns,
            tokens: state.tokens,
            daily_tokens,
            budgets: self.limits.uses(state.turns, state.tokens, daily_tokens),
        }
    }
}

impl BookState {
    fn tally(&mut self, session: &str) -> &mut SessionTally {
        if !self.sessions.contains_key(session) && self.sessions.len() >= MAX_SESSIONS {
            let quietest = self
                .sessions
                .iter()
                .min_by_key(|(_, t)| t.runs + t.replays)
                .map(|(k, _)| k.clone());
            if let Some(key) = quietest {
                self.sessions.remove(&key);
            }
        }
        self.sessions.entry(session.to_string()).or_default()
    }
}

/// Follows one turn's runs for the spend book (see [`SpendBook::tap`]); cheap to clone.
#[derive(Debug, Clone)]
pub(crate) struct RunTap(Arc<TapInner>);

#[derive(Debug)]
struct TapInner {
    book: Arc<SpendBook>,
    id: u64,
    place: RunPlace,
}

impl Drop for TapInner {
    fn drop(&mut self) {
        self.book.lock().live.remove(&self.id);
    }
}

impl RunTap {
    /// A run of the turn ended: its ledger line is appended (before this returns) and counted.
    pub(crate) fn run_ended(&self, ended: &RunEnded) {
        self.0.book.run_ended(&self.0.place, ended);
    }

    /// Cursor started or finished `action` (a row's words): the live run's last action.
    pub(crate) fn note_action(&self, action: &str) {
        let action = crate::text::ellipsize_bytes(action, MAX_ACTION);
        if let Some(live) = self.0.book.lock().live.get_mut(&self.0.id) {
            live.last_action = Some(action);
        }
    }
}

#[cfg(test)]
mod tests;
