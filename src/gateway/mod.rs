//! The loopback gateway Claude Code talks to: it answers `multi/cursor/*` models by
//! running Cursor turns and passes every other request through to Anthropic byte for byte.
//!
//! It listens on 127.0.0.1 only, checks a random token in constant time on every route but
//! `HEAD /api/hello`, refuses browser origins and foreign Host headers, and caps bodies at
//! 8 MiB.

pub mod client;
pub mod error;
pub mod guard;
pub mod hooks;
pub mod messages;
pub mod passthrough;
pub mod plugin_commands;
pub mod server;
pub mod spend;
pub mod status;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;

use anyhow::Context;
use axum::Router;
use axum::body::Bytes;
use axum::extract::FromRequest;
use axum::extract::Request;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::response::Response;
use axum::routing::get;
use axum::routing::post;
use serde::Serialize;
use tokio::net::TcpListener;

use crate::cursor::catalog::Catalog;
use crate::cursor::locate::AgentInfo;
use crate::cursor::locate::LocateError;
use crate::cursor::process::RunLimits;
use crate::policy::ClaudeMode;
use crate::session::store::SessionStore;
use error::ApiError;
use hooks::SessionBook;
use passthrough::Upstream;

/// Largest request body accepted.
pub const MAX_BODY: usize = 8 * 1024 * 1024;

/// How the gateway is set up; fixed for its lifetime.
#[derive(Debug, Clone)]
pub struct GatewayConfig {
    /// The token every request but the preconnect must carry.
    pub token: String,
    /// Where non-Cursor models go.
    pub upstream: String,
    /// Mode for sessions no hook has reported one for (`serve --permission-mode`).
    pub default_mode: Option<ClaudeMode>,
    /// Records, images, catalog cache.
    pub state_dir: PathBuf,
    /// Workspace for requests whose session reported none.
    pub working_dir: PathBuf,
    /// The user's home (for `~/.cursor/mcp.json`).
    pub home: Option<PathBuf>,
    /// `MULTI_CURSOR_APPROVE_MCPS=1`.
    pub approve_mcps: bool,
    /// Supervision limits for Cursor runs.
    pub limits: RunLimits,
    /// Identities (so Cursor processes) kept open at once (`MULTI_CURSOR_MAX_SESSIONS`).
    pub max_sessions: usize,
    /// Set by the launcher when Claude Code has no Anthropic login: the placeholder credential
    /// it gave Claude Code. Passthrough answers requests carrying it with 403 "not signed in to
    /// Anthropic" instead of forwarding them (see `passthrough`).
    pub anthropic_placeholder: Option<String>,
    /// Where Claude's settings and Cursor's config are read for settings admission (the
    /// launcher adds the user's `--settings` values; see `policy::settings`).
    pub policy: crate::policy::PolicyInputs,
    /// Which program started Claude Code: [`Surface::Wrapper`](crate::policy::Surface) when
    /// `multi-cursor-claude` runs the gateway, so a mode refusal names the VS Code panel's
    /// switches; the terminal's otherwise.
    pub surface: crate::policy::Surface,
}

impl GatewayConfig {
    /// A configuration from the environment with a fresh random token.
    pub fn from_env(default_mode: Option<ClaudeMode>) -> anyhow::Result<Self> {
        let state_dir = crate::state::state_dir().context("opening the state folder")?;
        let configured = std::env::var(passthrough::UPSTREAM_ENV).ok();
        let base_url = std::env::var("ANTHROPIC_BASE_URL").ok();
        let upstream =
            passthrough::resolve_base(configured.as_deref(), base_url.as_deref()).to_string();
        Ok(GatewayConfig {
            token: new_token(),
            upstream,
            default_mode,
            state_dir,
            working_dir: std::env::current_dir().context("reading the working directory")?,
            home: std::env::var_os("HOME").map(PathBuf::from),
            approve_mcps: std::env::var(crate::policy::APPROVE_MCPS_ENV).is_ok_and(|v| v == "1"),
            limits: RunLimits::from_env().map_err(anyhow::Error::msg)?,
            max_sessions: SessionStore::capacity_from_env(),
            anthropic_placeholder: None,
            policy: crate::policy::PolicyInputs::from_env(),
            surface: crate::policy::Surface::Terminal,
        })
    }
}

/// A random 256-bit token, hex.
pub fn new_token() -> String {
    format!(
        "{:032x}{:032x}",
        rand::random::<u128>(),
        rand::random::<u128>()
    )
}

/// A Cursor run in progress, for `GET /multi-cursor/status`.
#[derive(Debug, Clone, Serialize)]
pub struct LiveRun {
    pub session: String,
    pub worker: String,
    pub model: String,
    pub pgid: i32,
    pub started_at: String,
}

/// How long an unknown model id is not checked with Cursor again ([`Gateway::recheck_catalog`]).
pub const CATALOG_RECHECK: std::time::Duration = std::time::Duration::from_secs(60);

/// Most unknown model ids remembered at once; beyond that, no recheck until some expire.
const MAX_RECHECKED: usize = 64;

/// Shared gateway state; cheap to clone.
#[derive(Clone)]
pub struct Gateway {
    inner: Arc<Inner>,
}

struct Inner {
    config: GatewayConfig,
    upstream: Upstream,
    agent: tokio::sync::OnceCell<Result<AgentInfo, LocateError>>,
    catalog: tokio::sync::RwLock<Option<Catalog>>,
    /// Unknown model ids the catalog was fetched again for, and when (see
    /// [`Gateway::recheck_catalog`]).
    rechecked: Mutex<HashMap<String, std::time::Instant>>,
    sessions: Mutex<SessionBook>,
    store: SessionStore,
    runs: Mutex<HashMap<u64, LiveRun>>,
    next_run: AtomicU64,
    /// Cursor spend: per-session figures, the ledger, budgets and runaway guards.
    spend: Arc<crate::spend::SpendBook>,
}

impl Gateway {
    /// Builds the gateway state; `catalog` may be `None` (it is fetched on first need).
    pub fn new(config: GatewayConfig, catalog: Option<Catalog>) -> anyhow::Result<Self> {
        let upstream = Upstream::new(&config.upstream)
            .with_context(|| format!("using {} as the Anthropic upstream", config.upstream))?
            .refusing_placeholder(config.anthropic_placeholder.clone());
        let limits = crate::spend::limits::SpendLimits::from_env()
            .context("reading the Cursor spend limits")?;
        Ok(Gateway {
            inner: Arc::new(Inner {
                spend: Arc::new(crate::spend::SpendBook::new(&config.state_dir, limits)),
                store: SessionStore::new(&config.state_dir, config.max_sessions),
                config,
                upstream,
                agent: tokio::sync::OnceCell::new(),
                catalog: tokio::sync::RwLock::new(catalog),
                rechecked: Mutex::new(HashMap::new()),
                sessions: Mutex::new(SessionBook::default()),
                runs: Mutex::new(HashMap::new()),
                next_run: AtomicU64::new(1),
            }),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &GatewayConfig {
        &self.inner.config
    }

    /// The token requests must carry.
    pub fn token(&self) -> &str {
        &self.inner.config.token
    }

    /// The upstream for passthrough.
    pub fn upstream(&self) -> &Upstream {
        &self.inner.upstream
    }

    /// Cursor's agent, located and identified once.
    pub async fn agent(&self) -> Result<AgentInfo, LocateError> {
        self.inner
            .agent
            .get_or_init(crate::cursor::locate::locate_agent)
            .await
            .clone()
    }

    /// The catalog, fetched from Cursor (and cached) on first need.
    pub async fn catalog(&self, agent: &Path) -> Result<Catalog, ApiError> {
        if let Some(catalog) = self.inner.catalog.read().await.as_ref() {
            return Ok(catalog.clone());
        }
        let mut slot = self.inner.catalog.write().await;
        if let Some(catalog) = slot.as_ref() {
            return Ok(catalog.clone());
        }
        let catalog = self.fetch_catalog(agent).await.map_err(|e| match e {
            crate::cursor::catalog::CatalogError::LoggedOut { .. } => {
                ApiError::forbidden(e.to_string())
            }
            other => ApiError::bad_request(other.to_string()),
        })?;
        *slot = Some(catalog.clone());
        Ok(catalog)
    }

    /// Asks Cursor for its models and caches them for the next launch (a cache that cannot be
    /// written is logged, not fatal).
    async fn fetch_catalog(
        &self,
        agent: &Path,
    ) -> Result<Catalog, crate::cursor::catalog::CatalogError> {
        let catalog = crate::cursor::catalog::fetch_catalog(agent).await?;
        if let Err(error) =
            crate::cursor::catalog::store_cache_in(&self.inner.config.state_dir, &catalog, agent)
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
    pub async fn recheck_catalog(&self, agent: &Path, model: &str) -> Option<Catalog> {
        {
            let now = std::time::Instant::now();
            let mut rechecked = self
                .inner
                .rechecked
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            rechecked.retain(|_, at| now.duration_since(*at) < CATALOG_RECHECK);
            if rechecked.contains_key(model) || rechecked.len() >= MAX_RECHECKED {
                return None;
            }
            rechecked.insert(model.to_string(), now);
        }
        match self.fetch_catalog(agent).await {
            Ok(fresh) => {
                *self.inner.catalog.write().await = Some(fresh.clone());
                // The next launch's picker rows follow Cursor's list too (a model Cursor
                // dropped is no longer offered in /model).
                if let Err(error) = crate::cursor::catalog::store_cache_in(
                    &self.inner.config.state_dir,
                    &fresh,
                    agent,
                ) {
                    tracing::warn!(%error, "could not cache the Cursor catalog");
                }
                Some(fresh)
            }
            Err(error) => {
                tracing::warn!(%error, model, "could not check Cursor's models again");
                None
            }
        }
    }

    /// Hook-reported sessions.
    pub fn sessions(&self) -> std::sync::MutexGuard<'_, SessionBook> {
        self.inner
            .sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The identities this gateway owns and their records.
    pub fn store(&self) -> &SessionStore {
        &self.inner.store
    }

    /// The spend book: figures, the ledger, budgets and runaway guards.
    pub fn spend(&self) -> &Arc<crate::spend::SpendBook> {
        &self.inner.spend
    }

    /// Registers a live run; the returned id removes it again.
    pub fn add_run(&self, run: LiveRun) -> u64 {
        let id = self.inner.next_run.fetch_add(1, Ordering::Relaxed);
        self.runs_lock().insert(id, run);
        id
    }

    /// Notes the process group of a live run once it is spawned.
    pub fn set_run_pgid(&self, id: u64, pgid: i32) {
        if let Some(run) = self.runs_lock().get_mut(&id) {
            run.pgid = pgid;
        }
    }

    /// Forgets a finished run.
    pub fn remove_run(&self, id: u64) {
        self.runs_lock().remove(&id);
    }

    /// Live runs, oldest first.
    pub fn live_runs(&self) -> Vec<LiveRun> {
        let runs = self.runs_lock();
        let mut ids: Vec<_> = runs.keys().copied().collect();
        ids.sort_unstable();
        ids.iter().filter_map(|id| runs.get(id).cloned()).collect()
    }

    fn runs_lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, LiveRun>> {
        self.inner
            .runs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The gateway's routes behind its guard.
pub fn router(gateway: Gateway) -> Router {
    Router::new()
        .route("/v1/messages", post(messages::messages))
        .route("/v1/messages/count_tokens", post(messages::count_tokens))
        // HEAD (the preconnect) and GET (`claude doctor`): an empty 200.
        .route("/api/hello", get(|| async { StatusCode::OK }))
        .route("/multi-cursor/hook", post(status::hook))
        .route("/multi-cursor/status", get(status::status))
        .route(
            &format!("{}/{{session}}", crate::spend::SPEND_ROUTE),
            get(spend::session_spend),
        )
        .fallback(|request: Request| async move {
            ApiError::not_found(format!(
                "no such endpoint: {} {}",
                request.method(),
                request.uri().path()
            ))
        })
        .layer(axum::middleware::from_fn_with_state(
            gateway.clone(),
            guard::check,
        ))
        .with_state(gateway)
}

/// A request body of at most [`MAX_BODY`] bytes; larger ones are refused with 413.
pub struct LimitedBody(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for LimitedBody {
    type Rejection = Response;

    async fn from_request(request: Request, _state: &S) -> Result<Self, Self::Rejection> {
        let too_large = || {
            ApiError::too_large(format!(
                "the request body is larger than {} MiB; shorten the conversation (e.g. /compact) or attach fewer images",
                MAX_BODY / (1024 * 1024)
            ))
            .into_response()
        };
        let declared = request
            .headers()
            .get(axum::http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        if declared.is_some_and(|n| n > MAX_BODY) {
            return Err(too_large());
        }
        axum::body::to_bytes(request.into_body(), MAX_BODY)
            .await
            .map(LimitedBody)
            .map_err(|_| too_large())
    }
}

/// What the ready file says: where the gateway listens and how to authenticate.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct ReadyInfo {
    pub url: String,
    pub token: String,
    pub pid: u32,
}

/// Binds `listen` (loopback only) and returns the listener with the URL it serves. The soft
/// descriptor limit is raised to the hard one first (connections need descriptors; every agent
/// child and Claude Code get the original limit back, see `cursor::spawn`).
pub async fn bind(listen: SocketAddr) -> anyhow::Result<(TcpListener, String)> {
    if !listen.ip().is_loopback() {
        anyhow::bail!(
            "the gateway listens on loopback only; {listen} is not a loopback address (use 127.0.0.1:<port>)"
        );
    }
    crate::cursor::spawn::raise_descriptor_limit();
    let listener = TcpListener::bind(listen)
        .await
        .with_context(|| format!("binding {listen}"))?;
    let addr = listener.local_addr().context("reading the bound address")?;
    Ok((listener, format!("http://{addr}")))
}

/// Serves until `shutdown` resolves: HTTP/1.1 only, with the connection limits of
/// [`server`].
pub async fn serve(
    listener: TcpListener,
    gateway: Gateway,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    server::serve(
        listener,
        router(gateway),
        server::ServerLimits::default(),
        shutdown,
    )
    .await
    .context("serving the gateway")
}

/// Resolves on SIGTERM or SIGINT (on Windows: Ctrl-C, Ctrl-Break, the console closing,
/// logoff or shutdown; see [`crate::platform::stop_requested`]).
pub async fn shutdown_signal() {
    crate::platform::stop_requested().await;
}

/// `multi-cursor serve`: the gateway alone, with its ready file.
pub async fn run_serve(args: &crate::cli::ServeArgs) -> anyhow::Result<()> {
    let config = GatewayConfig::from_env(args.permission_mode)?;
    let catalog = crate::cursor::catalog::load_cached_from(&config.state_dir).map(|c| c.catalog);
    let token = config.token.clone();
    let gateway = Gateway::new(config, catalog)?;
    let (listener, url) = bind(args.listen).await?;
    if let Some(path) = &args.ready_file {
        let info = ReadyInfo {
            url: url.clone(),
            token,
            pid: std::process::id(),
        };
        let bytes = serde_json::to_vec(&info).context("encoding the ready file")?;
        crate::state::write_private_atomic(path, &bytes)
            .with_context(|| format!("writing the ready file {}", path.display()))?;
    }
    tracing::info!(%url, "gateway listening");
    serve(listener, gateway, shutdown_signal()).await
}

/// Extracts the gateway from axum state (re-exported for handlers).
pub type GatewayState = State<Gateway>;
