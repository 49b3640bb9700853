//! The loopback gateway Claude Code talks to: it answers `multi/cursor/*` models by
//! running Cursor turns and passes every other request through to Anthropic byte for byte.
//!
//! It listens on 127.0.0.1 only, checks a random token in constant time on every route but
//! `HEAD /api/hello`, refuses browser origins and foreign Host headers, and caps bodies at
//! 8 MiB.

pub mod client;
pub(crate) mod error;
pub(crate) mod guard;
pub(crate) mod messages;
pub mod passthrough;
pub(crate) mod plugin_commands;
pub(crate) mod server;
pub(crate) mod spend;
pub(crate) mod status;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use axum::Router;
use axum::body::Bytes;
use axum::extract::FromRequest;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::MethodRouter;
use axum::routing::get;
use axum::routing::post;
use serde::Serialize;
use tokio::net::TcpListener;

use crate::cursor::catalog::Catalog;
use crate::cursor::process::RunLimits;
use crate::orchestrate::services::TurnServices;
use crate::orchestrate::services::TurnSettings;
use crate::policy::ClaudeMode;
use error::ApiError;
use passthrough::Upstream;

/// Largest request body accepted.
pub(crate) const MAX_BODY: usize = 8 * 1024 * 1024;

/// How the gateway is set up; fixed for its lifetime.
#[derive(Debug, Clone)]
pub(crate) struct GatewayConfig {
    /// The token every request but the preconnect must carry.
    pub token: String,
    /// Lines the launcher printed before Claude Code started, which Claude Code's TUI clears
    /// from the screen: shown again in the session, once, as the first SessionStart hook's
    /// `systemMessage` (`status::hook`).
    pub startup_notices: Vec<String>,
    /// Where non-Cursor models go.
    pub upstream: String,
    /// Identities (so Cursor processes) kept open at once (`MULTI_CURSOR_MAX_SESSIONS`).
    pub max_sessions: usize,
    /// Set by the launcher when Claude Code has no Anthropic login: the placeholder credential
    /// it gave Claude Code. Passthrough answers requests carrying it with 403 "not signed in to
    /// Anthropic" instead of forwarding them (see `passthrough`).
    pub anthropic_placeholder: Option<String>,
    /// What a Cursor request is served under (mode, workspace, limits, state folder, policy
    /// inputs, surface); the services read it as it is ([`TurnServices::settings`]).
    pub settings: TurnSettings,
}

impl GatewayConfig {
    /// A configuration from the environment with a fresh random token.
    pub(crate) fn from_env(default_mode: Option<ClaudeMode>) -> anyhow::Result<Self> {
        let state_dir = crate::state::state_dir().context("opening the state folder")?;
        let configured = std::env::var(crate::env::UPSTREAM_ENV).ok();
        let base_url = std::env::var("ANTHROPIC_BASE_URL").ok();
        let upstream =
            passthrough::resolve_base(configured.as_deref(), base_url.as_deref()).to_string();
        Ok(GatewayConfig {
            token: new_token(),
            upstream,
            settings: TurnSettings {
                default_mode,
                working_dir: std::env::current_dir().context("reading the working directory")?,
                home: crate::platform::places::home().map(PathBuf::from),
                approve_mcps: std::env::var(crate::env::APPROVE_MCPS_ENV).is_ok_and(|v| v == "1"),
                limits: RunLimits::from_env().map_err(anyhow::Error::msg)?,
                state_dir,
                policy: crate::policy::PolicyInputs::from_env(),
                surface: crate::policy::Surface::Terminal,
                expects_hooks: false,
            },
            max_sessions: crate::session::store::SessionStore::capacity_from_env(),
            anthropic_placeholder: None,
            startup_notices: Vec::new(),
        })
    }
}

/// A random 256-bit token, hex.
pub(crate) fn new_token() -> String {
    format!(
        "{:032x}{:032x}",
        crate::random::u128(),
        crate::random::u128()
    )
}

/// Shared gateway state; cheap to clone.
#[derive(Clone)]
pub(crate) struct Gateway {
    inner: Arc<Inner>,
}

struct Inner {
    config: GatewayConfig,
    upstream: Upstream,
    /// What serving a Cursor request needs, below HTTP.
    services: Arc<TurnServices>,
    /// Whether [`GatewayConfig::startup_notices`] were handed to a SessionStart hook.
    notices_shown: std::sync::atomic::AtomicBool,
    /// The status route's shared `agent status` answer.
    login_probe: status::LoginProbe,
}

impl Gateway {
    /// Builds the gateway state; `catalog` may be `None` (it is fetched on first need).
    pub(crate) fn new(config: GatewayConfig, catalog: Option<Catalog>) -> anyhow::Result<Self> {
        let upstream = Upstream::new(&config.upstream)
            .with_context(|| format!("using {} as the Anthropic upstream", config.upstream))?
            .refusing_placeholder(config.anthropic_placeholder.clone());
        let limits = crate::spend::limits::SpendLimits::from_env()
            .context("reading the Cursor spend limits")?;
        let spend = crate::spend::SpendBook::new(&config.settings.state_dir, limits);
        let services =
            TurnServices::new(config.settings.clone(), config.max_sessions, catalog, spend);
        Ok(Gateway {
            inner: Arc::new(Inner {
                config,
                upstream,
                services: Arc::new(services),
                notices_shown: std::sync::atomic::AtomicBool::new(false),
                login_probe: status::LoginProbe::default(),
            }),
        })
    }

    /// The configuration.
    pub(crate) fn config(&self) -> &GatewayConfig {
        &self.inner.config
    }

    /// The token requests must carry.
    pub(crate) fn token(&self) -> &str {
        &self.inner.config.token
    }

    /// The status route's shared `agent status` answer.
    pub(crate) fn login_probe(&self) -> &status::LoginProbe {
        &self.inner.login_probe
    }

    /// The upstream for passthrough.
    pub(crate) fn upstream(&self) -> &Upstream {
        &self.inner.upstream
    }

    /// The launcher's start-up notices, the first time they are asked for (`None` after, or
    /// when there are none).
    pub(crate) fn take_startup_notices(&self) -> Option<String> {
        let notices = &self.inner.config.startup_notices;
        let first = !self
            .inner
            .notices_shown
            .swap(true, std::sync::atomic::Ordering::Relaxed);
        (first && !notices.is_empty()).then(|| notices.join("\n"))
    }

    /// What serving a Cursor request needs: the agent, the catalog, the hook-reported
    /// sessions, the session store, the live runs and the spend book.
    pub(crate) fn services(&self) -> &Arc<TurnServices> {
        &self.inner.services
    }
}

/// One endpoint of the gateway: what it answers, in the reference page's words
/// (`docs/gateway.md`'s route table is generated from [`ENDPOINTS`]), and its handler. The router
/// is built from this table, so an endpoint cannot exist undocumented.
pub(crate) struct Endpoint {
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "read by the generated route table's test")
    )]
    /// The methods, as the page shows them (`POST`, `HEAD` or `GET`).
    pub methods: &'static str,
    /// The path in axum's syntax (`{session}` for a segment).
    pub path: &'static str,
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "read by the generated route table's test")
    )]
    pub does: &'static str,
    handler: fn() -> MethodRouter<Gateway>,
}

/// Every endpoint, in the order of the reference page.
pub(crate) const ENDPOINTS: &[Endpoint] = &[
    Endpoint {
        methods: "POST",
        path: "/v1/messages",
        does: "a `multi/cursor/*` model: one Cursor turn, answered as SSE or one JSON message (text only); any other model: passthrough. Any query string",
        handler: || post(messages::messages),
    },
    Endpoint {
        methods: "POST",
        path: "/v1/messages/count_tokens",
        does: "a local estimate for Cursor models; passthrough otherwise",
        handler: || post(messages::count_tokens),
    },
    Endpoint {
        methods: "HEAD` or `GET",
        path: "/api/hello",
        does: "an empty 200 and nothing else; the only requests that need no token (Claude Code's preconnect and, since 2.1.331, `claude doctor`'s connectivity check carry no auth headers)",
        handler: || get(|| async { StatusCode::OK }),
    },
    Endpoint {
        methods: "POST",
        path: "/multi-cursor/hook",
        does: "one Claude Code hook payload: each session's permission mode and workspace, each worker's workspace; the first SessionStart is answered with the launcher's start-up notices as `systemMessage`",
        handler: || post(status::hook),
    },
    Endpoint {
        methods: "GET",
        path: "/multi-cursor/status",
        does: "version, agent path and version, login (one `agent status` shared by the requests that arrive while it runs, kept 5 s), per-session mode, workspace and policy, live Cursor runs",
        handler: || get(status::status),
    },
    Endpoint {
        methods: "GET",
        path: "/multi-cursor/spend/{session}",
        does: "one session's spend as JSON (runs, replays, tokens, the live run, budgets): what `multi-cursor statusline` shows ([spend.md](spend.md))",
        handler: || get(spend::session_spend),
    },
];

#[cfg(test)]
/// [`ENDPOINTS`] as the reference page's markdown table.
pub(crate) fn endpoints_markdown() -> String {
    let mut out = String::from("| route | what it does |\n|---|---|\n");
    for route in ENDPOINTS {
        out.push_str(&format!(
            "| `{} {}` | {} |\n",
            route.methods, route.path, route.does
        ));
    }
    out
}

/// The gateway's routes ([`ENDPOINTS`]) behind its guard.
pub(crate) fn router(gateway: Gateway) -> Router {
    ENDPOINTS
        .iter()
        .fold(Router::new(), |router, route| {
            router.route(route.path, (route.handler)())
        })
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

/// A request body of at most [`MAX_BODY`] bytes; larger ones are refused with 413, and the
/// connection is closed (the rest of the body is never read).
pub(crate) struct LimitedBody(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for LimitedBody {
    type Rejection = Response;

    async fn from_request(request: Request, _state: &S) -> Result<Self, Self::Rejection> {
        let too_large = || {
            ApiError::too_large(format!(
                "the request body is larger than {} MiB; shorten the conversation (e.g. /compact) or attach fewer images",
                MAX_BODY / (1024 * 1024)
            ))
            .into_closing_response()
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
pub(crate) struct ReadyInfo {
    pub url: String,
    pub token: String,
    pub pid: u32,
}

/// Binds `listen` (loopback only) and returns the listener with the URL it serves. The soft
/// descriptor limit is raised to the hard one first (connections need descriptors; every agent
/// child and Claude Code get the original limit back, see `cursor::spawn`).
pub(crate) async fn bind(listen: SocketAddr) -> anyhow::Result<(TcpListener, String)> {
    if !listen.ip().is_loopback() {
        anyhow::bail!(
            "the gateway listens on loopback only; {listen} is not a loopback address (use 127.0.0.1:<port>)"
        );
    }
    crate::platform::raise_descriptor_limit();
    let listener = TcpListener::bind(listen)
        .await
        .with_context(|| format!("binding {listen}"))?;
    let addr = listener.local_addr().context("reading the bound address")?;
    Ok((listener, format!("http://{addr}")))
}

/// Serves until `shutdown` resolves: HTTP/1.1 only, with the connection limits of
/// [`server`].
pub(crate) async fn serve(
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
pub(crate) async fn shutdown_signal() {
    crate::platform::stop_requested().await;
}

/// What `multi-cursor serve` was asked for (`main` fills it from the command line).
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// The loopback address to listen on (port 0 picks a free port).
    pub listen: SocketAddr,
    /// Where to write the `ReadyInfo` (0600, atomically) once listening.
    pub ready_file: Option<PathBuf>,
    /// The permission mode of sessions no hook has reported a mode for.
    pub permission_mode: Option<ClaudeMode>,
}

/// `multi-cursor serve`: the gateway alone, with its ready file.
pub async fn run_serve(args: &ServeOptions) -> anyhow::Result<()> {
    let config = GatewayConfig::from_env(args.permission_mode)?;
    let catalog =
        crate::cursor::catalog::load_cached_from(&config.settings.state_dir).map(|c| c.catalog);
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
