//! What serving a Cursor request needs, in one place and below HTTP: the settings, Cursor's
//! agent, the catalog cache, the hook-reported sessions, the session store, the live runs and
//! the spend book. The gateway owns one [`TurnServices`] and hands it to the orchestrator;
//! every method is cheap or caches what it fetches.

use std::collections::HashMap;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::MutexGuard;
use std::sync::PoisonError;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;
use std::time::Duration;
use std::time::Instant;

use serde::Serialize;

use crate::cursor::catalog::Catalog;
use crate::cursor::catalog::CatalogError;
use crate::cursor::locate::AgentInfo;
use crate::cursor::locate::LocateError;
use crate::cursor::process::RunLimits;
use crate::policy::ClaudeMode;
use crate::policy::PolicyInputs;
use crate::policy::Surface;
use crate::session::exchange::Exchange;
use crate::session::hooks::SessionBook;
use crate::session::identity::Identity;
use crate::session::identity::MAIN_WORKER;
use crate::session::store::SessionStore;
use crate::spend::SpendBook;

/// How long an unknown model id is not checked with Cursor again
/// ([`TurnServices::recheck_catalog`]).
pub(crate) const CATALOG_RECHECK: Duration = Duration::from_secs(60);

/// Most unknown model ids remembered at once; beyond that, no recheck until some expire.
const MAX_RECHECKED: usize = 64;

/// The settings a Cursor request is served under, fixed for the server's lifetime: the
/// gateway's configuration holds them (`GatewayConfig::settings`) and its services read them
/// as they are.
#[derive(Debug, Clone)]
pub(crate) struct TurnSettings {
    /// Mode for sessions no hook has reported one for (`serve --permission-mode`).
    pub default_mode: Option<ClaudeMode>,
    /// Workspace for requests whose session reported none.
    pub working_dir: PathBuf,
    /// The user's home (for `~/.cursor/mcp.json` and the rulebook's user rules).
    pub home: Option<PathBuf>,
    /// `MULTI_CURSOR_APPROVE_MCPS=1`.
    pub approve_mcps: bool,
    /// Supervision limits for Cursor runs.
    pub limits: RunLimits,
    /// The state folder: records, images of the newest turn (its `images` folder), the
    /// catalog cache, the ledger.
    pub state_dir: PathBuf,
    /// Where Claude's settings and Cursor's config are read for settings admission (the
    /// launcher adds the user's `--settings` values; see `policy::settings`).
    pub policy: PolicyInputs,
    /// Which program started Claude Code ([`Surface`]), so a mode note or refusal names the
    /// switch that exists there: Shift+Tab in the launcher's session, `--permission-mode` with
    /// `-p`, the VS Code panel's mode menu, the Agent SDK's option.
    pub surface: Surface,
    /// Set by the launcher and the wrapper, which register Claude Code hooks reporting to this
    /// gateway: a session none of them reached is told so in its first answer.
    pub expects_hooks: bool,
}

/// A Cursor run in progress, for `GET /multi-cursor/status`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct LiveRun {
    pub session: String,
    pub worker: String,
    pub model: String,
    pub pgid: i32,
    pub started_at: String,
}

/// The services of one gateway (see the module doc).
pub(crate) struct TurnServices {
    config: TurnSettings,
    /// Cursor's agent as located (and probed) on first need; `None` again once a run showed
    /// its probe wrong ([`TurnServices::forget_agent`]).
    agent: tokio::sync::Mutex<Option<Result<AgentInfo, LocateError>>>,
    catalog: tokio::sync::RwLock<Option<Catalog>>,
    /// Unknown model ids the catalog was fetched again for, and when.
    rechecked: Mutex<HashMap<String, Instant>>,
    sessions: Mutex<SessionBook>,
    store: SessionStore,
    runs: Mutex<HashMap<u64, LiveRun>>,
    /// Each live run's exchange, to end it on Claude Code's `Interrupt` hook.
    exchanges: Mutex<HashMap<u64, Arc<Exchange>>>,
    next_run: AtomicU64,
    spend: Arc<SpendBook>,
    /// Cursor answered "not logged in" ([`TurnServices::cursor_logged_out`]).
    logged_out: Mutex<Option<LoggedOut>>,
}

/// Cursor's last "not logged in": its words, and the login it was seen with.
#[derive(Debug, Clone)]
struct LoggedOut {
    said: String,
    login: u64,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl TurnServices {
    /// The services for `config`, keeping at most `max_sessions` identities open; `catalog`
    /// may be `None` (it is fetched on first need).
    pub(crate) fn new(
        config: TurnSettings,
        max_sessions: usize,
        catalog: Option<Catalog>,
        spend: SpendBook,
    ) -> TurnServices {
        TurnServices {
            store: SessionStore::new(&config.state_dir, max_sessions),
            config,
            agent: tokio::sync::Mutex::new(None),
            catalog: tokio::sync::RwLock::new(catalog),
            rechecked: Mutex::new(HashMap::new()),
            sessions: Mutex::new(SessionBook::default()),
            runs: Mutex::new(HashMap::new()),
            exchanges: Mutex::new(HashMap::new()),
            next_run: AtomicU64::new(1),
            spend: Arc::new(spend),
            logged_out: Mutex::new(None),
        }
    }

    /// The settings requests are served under.
    pub(crate) fn settings(&self) -> &TurnSettings {
        &self.config
    }

    /// Cursor's agent, located and identified once (again after [`TurnServices::forget_agent`]).
    pub(crate) async fn agent(&self) -> Result<AgentInfo, LocateError> {
        let mut slot = self.agent.lock().await;
        if let Some(known) = slot.as_ref() {
            return known.clone();
        }
        let found = crate::cursor::locate::locate_agent().await;
        *slot = Some(found.clone());
        found
    }

    /// A run showed the agent's probe wrong (it refused a flag its `--help` was remembered to
    /// list): the probe is forgotten here, in this process and in the state folder's cache, so
    /// the next turn and the next launch ask the agent again.
    pub(crate) async fn forget_agent(&self) {
        let mut slot = self.agent.lock().await;
        if let Some(Ok(info)) = slot.take() {
            tracing::warn!(path = %info.path.display(), "Cursor's agent refused a flag its remembered --help listed; probing it again");
            crate::cursor::locate::forget_probe(&self.config.state_dir, &info.path);
        }
    }

    /// The catalog, fetched from Cursor (and cached) on first need. While Cursor's last
    /// answer was "not logged in" and its login has not changed, that answer again, without
    /// running Cursor (a request waiting here while another fetched gets it too).
    pub(crate) async fn catalog(&self, agent: &Path) -> Result<Catalog, CatalogError> {
        if let Some(catalog) = self.catalog.read().await.as_ref() {
            return Ok(catalog.clone());
        }
        let mut slot = self.catalog.write().await;
        if let Some(catalog) = slot.as_ref() {
            return Ok(catalog.clone());
        }
        if let Some(said) = self.cursor_logged_out() {
            return Err(CatalogError::LoggedOut { message: said });
        }
        let catalog = match self.fetch_catalog(agent).await {
            Ok(catalog) => catalog,
            Err(error) => {
                if let CatalogError::LoggedOut { message } = &error {
                    self.note_logged_out(message);
                }
                return Err(error);
            }
        };
        *slot = Some(catalog.clone());
        Ok(catalog)
    }

    /// Cursor's words when its last answer (a run or its model list) was "not logged in" and
    /// the login it reads has not changed since ([`crate::policy::cursor_login_fingerprint`]):
    /// the same request would meet the same refusal, so it gets it without running Cursor
    /// again. `None` once the login changed (a `multi-cursor --cursor-login`, `agent login`).
    pub(crate) fn cursor_logged_out(&self) -> Option<String> {
        let mut noted = lock(&self.logged_out);
        let seen = noted.as_ref()?;
        if crate::policy::cursor_login_fingerprint(&self.config.policy) == seen.login {
            return Some(seen.said.clone());
        }
        *noted = None;
        None
    }

    /// Cursor answered "not logged in" (`said`, its words) under the login it reads now.
    pub(crate) fn note_logged_out(&self, said: &str) {
        let login = crate::policy::cursor_login_fingerprint(&self.config.policy);
        *lock(&self.logged_out) = Some(LoggedOut {
            said: said.to_string(),
            login,
        });
    }

    /// Asks Cursor for its models and caches them for the next launch (a cache that cannot be
    /// written is logged, not fatal): the next launch's picker rows follow Cursor's list (a
    /// model Cursor dropped is no longer offered in /model).
    async fn fetch_catalog(&self, agent: &Path) -> Result<Catalog, CatalogError> {
        let catalog = crate::cursor::catalog::fetch_catalog(agent).await?;
        if let Err(error) =
            crate::cursor::catalog::store_cache_in(&self.config.state_dir, &catalog, agent)
        {
            tracing::warn!(%error, "could not cache the Cursor catalog");
        }
        Ok(catalog)
    }

    /// The catalog fetched again from Cursor because a request named `model`, which the one in
    /// hand does not know: Cursor may have added it since the catalog was cached (the picker
    /// shows only what the cache knew at launch). Once per model id per [`CATALOG_RECHECK`], so
    /// Claude Code's quick re-sends of a refused request do not run `agent models` each time.
    /// `None` when not fetched (recently checked for that id, or fetching failed).
    pub(crate) async fn recheck_catalog(&self, agent: &Path, model: &str) -> Option<Catalog> {
        {
            let now = Instant::now();
            let mut rechecked = lock(&self.rechecked);
            rechecked.retain(|_, at| now.duration_since(*at) < CATALOG_RECHECK);
            if rechecked.contains_key(model) || rechecked.len() >= MAX_RECHECKED {
                return None;
            }
            rechecked.insert(model.to_string(), now);
        }
        match self.fetch_catalog(agent).await {
            Ok(fresh) => {
                *self.catalog.write().await = Some(fresh.clone());
                Some(fresh)
            }
            Err(error) => {
                tracing::warn!(%error, model, "could not check Cursor's models again");
                None
            }
        }
    }

    /// Hook-reported sessions: each one's mode, workspace, policy and notices shown.
    pub(crate) fn sessions(&self) -> MutexGuard<'_, SessionBook> {
        lock(&self.sessions)
    }

    /// The session's current mode (a worker runs under its parent's) and the request's
    /// workspace, when hooks reported them.
    pub(crate) fn session_mode(
        &self,
        session: &str,
        worker: Option<&str>,
    ) -> (Option<ClaudeMode>, Option<PathBuf>) {
        self.sessions().lookup(session, worker)
    }

    /// Notes the policy a request of `session` was admitted under (or its refusal), for
    /// `multi-cursor status`.
    pub(crate) fn note_policy(&self, session: &str, policy: String) {
        self.sessions().note_policy(session, policy);
    }

    /// Whether `notice` was already shown in an answer of `session`.
    pub(crate) fn notice_was_shown(&self, session: &str, notice: &str) -> bool {
        self.sessions().was_shown(session, notice)
    }

    /// Remembers that an answer carrying `notice` completed in `session`.
    pub(crate) fn notice_shown(&self, session: &str, notice: &str) {
        self.sessions().notice_shown(session, notice);
    }

    /// The identities this server owns and their records.
    pub(crate) fn store(&self) -> &SessionStore {
        &self.store
    }

    /// The spend book: each run's ledger line and figures, budgets and runaway guards.
    pub(crate) fn spend(&self) -> &Arc<SpendBook> {
        &self.spend
    }

    /// A turn of `identity` on Cursor model `model` started, answering `exchange`; the returned
    /// id names it.
    pub(crate) fn run_started(
        &self,
        identity: &Identity,
        model: &str,
        exchange: &Arc<Exchange>,
    ) -> u64 {
        let id = self.next_run.fetch_add(1, Ordering::Relaxed);
        let run = LiveRun {
            session: identity.session.clone(),
            worker: identity.worker.clone(),
            model: model.to_string(),
            pgid: 0,
            started_at: crate::state::now_rfc3339(),
        };
        lock(&self.runs).insert(id, run);
        lock(&self.exchanges).insert(id, Arc::clone(exchange));
        id
    }

    /// The process group of run `id` was spawned.
    pub(crate) fn run_spawned(&self, id: u64, pgid: i32) {
        if let Some(run) = lock(&self.runs).get_mut(&id) {
            run.pgid = pgid;
        }
    }

    /// Run `id` ended (its record is written).
    pub(crate) fn run_ended(&self, id: u64) {
        lock(&self.runs).remove(&id);
        lock(&self.exchanges).remove(&id);
    }

    /// Claude Code's `Interrupt` hook for `session`: ends the session's own live runs (worker
    /// `main`; a worker's run ends when its client leaves) at once, even while Claude Code keeps
    /// the connection open, with `why` on their ledger lines. Returns how many were told to end.
    pub(crate) fn interrupt(&self, session: &str, why: &str) -> usize {
        let ids: Vec<u64> = lock(&self.runs)
            .iter()
            .filter(|(_, run)| run.session == session && run.worker == MAIN_WORKER)
            .map(|(id, _)| *id)
            .collect();
        let exchanges: Vec<Arc<Exchange>> = {
            let exchanges = lock(&self.exchanges);
            ids.iter()
                .filter_map(|id| exchanges.get(id).cloned())
                .collect()
        };
        exchanges
            .iter()
            .filter(|exchange| exchange.interrupt(why.to_string()))
            .count()
    }

    /// Live runs, oldest first.
    pub(crate) fn live_runs(&self) -> Vec<LiveRun> {
        let runs = lock(&self.runs);
        let mut ids: Vec<_> = runs.keys().copied().collect();
        ids.sort_unstable();
        ids.iter().filter_map(|id| runs.get(id).cloned()).collect()
    }
}
