//! The launcher: `multi-cursor [--] [claude args…]` starts Claude Code with an in-process
//! gateway answering the `multi/cursor/*` models.
//!
//! In order: split the user's arguments (`args`); find Claude Code and check its version
//! (cached per executable, [`claude`]); read the Cursor catalog from the cache (refreshed in the
//! background after Claude Code starts; fetched now only when there is no usable cache); refuse
//! an unknown `MULTI_CURSOR_EXTRA_MODELS` id; tell whether Claude Code is signed in to
//! Anthropic; start the gateway on `127.0.0.1:0` with a fresh token on this runtime; write the
//! merged `--settings` (0600, in a private 0700 temporary folder) and `--agents` ([`settings`]);
//! spawn `claude` with the environment that points it at the gateway and with this binary's own
//! plugin (`--plugin-dir`, `plugin`); then wait. SIGTERM and
//! SIGHUP are passed on to Claude Code, SIGINT is left to it (it shares our terminal and
//! handles Ctrl-C itself), and the launcher exits with Claude Code's exit code (128 + the
//! signal when a signal ended it) after stopping the gateway and removing its temporary
//! folder.
//!
//! With no Anthropic login, Claude Code is given a placeholder credential only the gateway
//! understands (so it starts without asking for a login), starts on `multi/cursor/default`
//! unless `--model` says otherwise, and every request for a non-Cursor model is answered 403
//! "not signed in to Anthropic" by the gateway instead of being forwarded.

pub(crate) mod agent_probe;
pub(crate) mod args;
mod child;
pub mod claude;
pub(crate) mod plugin;
pub mod saved_model;
pub mod settings;
pub mod statusline;
pub(crate) mod upstream;
pub mod wrap;

use std::ffi::OsString;
use std::path::Path;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use std::time::Instant;

use anyhow::Context;
use thiserror::Error;

use crate::cursor::catalog;
use crate::cursor::catalog::Catalog;
use crate::cursor::catalog::Picker;
use crate::cursor::locate;
use crate::env::DEFAULT_UPSTREAM;
use crate::env::GATEWAY_TOKEN_ENV;
use crate::env::GATEWAY_URL_ENV;
use crate::env::UPSTREAM_ENV;
use crate::gateway;
use crate::gateway::GatewayConfig;
use crate::gateway::guard::TOKEN_HEADER;
use child::ClaudeStart;
use child::Interrupt;
use claude::AnthropicLogin;

/// `API_TIMEOUT_MS` given to Claude Code unless the user set one: the largest timer Node
/// accepts, so a long Cursor run is never cut off by Claude Code's request timeout.
pub(crate) const API_TIMEOUT_MS: &str = "2147483647";

/// Prefix of the launcher's temporary folders in the system temporary directory.
pub(crate) const TEMP_PREFIX: &str = "multi-cursor-";

/// How long the gateway may take to stop after Claude Code exits.
const GATEWAY_STOP: Duration = Duration::from_secs(2);

/// How long after Claude Code starts the background catalog refresh begins (Claude Code's own
/// start-up should not compete with `agent --list-models`).
const REFRESH_DELAY: Duration = Duration::from_secs(2);

/// Why the launcher refused to start Claude Code. Every message names the fix.
#[derive(Debug, Error)]
pub(crate) enum LaunchError {
    /// `--bg` / `--background`.
    #[error(
        "Claude Code cannot run in the background under multi-cursor: the gateway its requests go to lives in this launcher. Start it without --bg/--background"
    )]
    Background,
    /// An option that takes a value came last.
    #[error("{0} needs a value")]
    MissingValue(String),
    /// A `--settings`/`--agents` file could not be read.
    #[error("{option} {} cannot be used: {source}", .path.display())]
    ReadArg {
        option: String,
        path: PathBuf,
        #[source]
        source: crate::state::ReadError,
    },
    /// A `--settings`/`--agents` value is not what Claude Code expects.
    #[error("{option} ({origin}): {reason}")]
    BadArg {
        option: String,
        origin: String,
        reason: String,
    },
    /// The user's `--agents` defines our worker type.
    #[error(
        "--agents defines \"{}\", the worker type multi-cursor supplies; give your agent another name",
        settings::WORKER_TYPE
    )]
    AgentClash,
    /// No Claude Code executable.
    #[error(
        "Claude Code was not found (looked for {tried}); {}",
        claude::install_hint_here(None)
    )]
    ClaudeMissing { tried: String },
    /// Claude Code could not be run or did not answer.
    #[error("{} could not be used as Claude Code: {reason}; {}", .path.display(), claude::install_hint_here(Some(.path)))]
    ClaudeUnusable { path: PathBuf, reason: String },
    /// Claude Code is older than [`claude::MIN_VERSION`].
    #[error(
        "Claude Code {found} ({}) is too old: multi-cursor needs {} or newer; {}",
        .path.display(),
        claude::MIN_VERSION,
        claude::install_hint_here(Some(.path))
    )]
    ClaudeTooOld {
        path: PathBuf,
        found: claude::Version,
    },
    /// The private temporary folder could not be made.
    #[error("could not create a private temporary folder in {}: {source}", .dir.display())]
    TempDir {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The lock file inside each launcher's temporary folder: an OS file lock on it (`flock`) is
/// held for the launcher's lifetime, and the kernel drops it however the launcher ends.
pub(crate) const TEMP_LOCK: &str = ".lock";

/// A 0700 folder of our own in the system temporary directory, locked while it lives
/// ([`TEMP_LOCK`]) and removed on drop.
#[derive(Debug)]
pub(crate) struct PrivateTemp {
    path: PathBuf,
    /// The held lock (`None` only while dropping).
    lock: Option<std::fs::File>,
}

impl PrivateTemp {
    /// Creates `<tmp>/multi-cursor-<pid>-<random>` with mode 0700 (never an existing one),
    /// holding the lock on its [`TEMP_LOCK`]. The folder is made and locked under a hidden
    /// name and then renamed into place, so a sweep never sees it unlocked.
    pub(crate) fn create() -> Result<PrivateTemp, LaunchError> {
        let dir = std::env::temp_dir();
        let name = format!(
            "{TEMP_PREFIX}{}-{:016x}",
            std::process::id(),
            crate::random::u64()
        );
        let staging = dir.join(format!(".{name}"));
        let path = dir.join(name);
        let fail = |source| LaunchError::TempDir {
            dir: dir.clone(),
            source,
        };
        crate::platform::create_private_dir(&staging, false).map_err(fail)?;
        let locked = lock_new(&staging.join(TEMP_LOCK))
            .and_then(|lock| std::fs::rename(&staging, &path).map(|()| lock));
        match locked {
            Ok(lock) => Ok(PrivateTemp {
                path,
                lock: Some(lock),
            }),
            Err(source) => {
                let _ = std::fs::remove_dir_all(&staging);
                Err(fail(source))
            }
        }
    }

    /// The folder.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

/// Creates the lock file `path` (0600, never through a link) and takes its lock.
fn lock_new(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create_new(true);
    crate::platform::private_file(&mut options);
    let file = crate::platform::no_follow(&mut options).open(path)?;
    file.try_lock().map_err(std::io::Error::from)?;
    Ok(file)
}

impl Drop for PrivateTemp {
    fn drop(&mut self) {
        // Closed first: Windows removes no file that is open.
        drop(self.lock.take());
        if let Err(error) = std::fs::remove_dir_all(&self.path)
            && error.kind() != std::io::ErrorKind::NotFound
        {
            tracing::warn!(path = %self.path.display(), %error, "could not remove the launcher's temporary folder");
        }
    }
}

/// Removes temporary folders left by launchers that were killed outright (SIGKILL): ours
/// (same owner), named `multi-cursor-<pid>-…`, whose [`TEMP_LOCK`] no one holds. The pid in
/// the name is not asked about: a launcher in another PID namespace (a container sharing the
/// temporary folder) has a pid that means nothing here, while its lock is seen by every
/// namespace. A folder without a lock file (an older launcher's) is left alone. Runs after
/// Claude Code has started, off the start-up path. `own` is a folder of this launcher (its
/// owner is ours).
pub(crate) fn sweep_stale_temps(dir: &Path, own: &Path) {
    let Ok(uid) = std::fs::metadata(own).map(|m| crate::platform::owner_id(&m)) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let named_so = name
            .to_str()
            .and_then(|n| n.strip_prefix(TEMP_PREFIX))
            .and_then(|rest| rest.split_once('-'))
            .is_some_and(|(pid, _)| pid.parse::<u32>().is_ok());
        if !named_so || entry.path() == own {
            continue;
        }
        let ours = entry
            .metadata()
            .is_ok_and(|m| m.is_dir() && !m.is_symlink() && crate::platform::owner_id(&m) == uid);
        if ours && lock_is_free(&entry.path().join(TEMP_LOCK)) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether the lock file `path` is a regular file (not a link) whose lock no one holds.
fn lock_is_free(path: &Path) -> bool {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    let Ok(file) = crate::platform::no_follow(&mut options).open(path) else {
        return false;
    };
    file.metadata().is_ok_and(|m| m.is_file()) && file.try_lock().is_ok()
}

/// The variables the launcher sets for Claude Code (on top of the inherited environment).
#[derive(Debug, Clone, Default)]
pub(crate) struct EnvInputs<'a> {
    /// The gateway's URL.
    pub url: &'a str,
    /// The gateway's token.
    pub token: &'a str,
    /// Where the gateway forwards non-Cursor models.
    pub upstream: &'a str,
    /// The placeholder credential when Claude Code has no Anthropic login.
    pub placeholder: Option<&'a str>,
    /// The user's `ANTHROPIC_CUSTOM_HEADERS`.
    pub custom_headers: Option<&'a str>,
    /// The user's `API_TIMEOUT_MS`.
    pub api_timeout: Option<&'a str>,
    /// The user's `ENABLE_TOOL_SEARCH`.
    pub tool_search: Option<&'a str>,
    /// The user's [`THINKING_PROBE_ENV`].
    pub thinking_probe: Option<&'a str>,
}

/// Claude Code's switch for its replayed-thinking probe (2.1.334 and newer): when the history
/// holds thinking blocks, an unknown 400/422 is sent once more as it was and once without the
/// thinking, and the error shown gains "If other sessions work and this one keeps failing,
/// start a new session." Measured on 2.1.337 through the gateway with an API key: 8 sends of
/// one refusal with the probe, 6 with this set to `1`, and no such hint. The probe is for
/// gateways that rewrite upstream errors; ours forwards Anthropic's bodies unchanged (Claude
/// Code reads Anthropic's own wording) and its own refusals name their fix, so the launcher and
/// the wrapper set it when Claude models go to Anthropic's API, and leave it alone when they
/// go to another gateway (which may rewrite errors) or the user chose a value.
pub(crate) const THINKING_PROBE_ENV: &str = "CLAUDE_CODE_DISABLE_REPLAYED_THINKING_PROBE";

/// Claude Code's environment additions: `ANTHROPIC_BASE_URL` (the gateway),
/// `ANTHROPIC_CUSTOM_HEADERS` (the user's lines, then our token header),
/// `MULTI_CURSOR_GATEWAY_URL`/`_TOKEN` (for hooks and `status`), `MULTI_CURSOR_UPSTREAM` (so a
/// `multi-cursor` started inside the session forwards to the real upstream, not to us),
/// `API_TIMEOUT_MS` and `ENABLE_TOOL_SEARCH=auto` unless the user chose values (with a custom
/// base URL Claude Code otherwise stops loading tools on demand and fills the context with
/// their schemas), [`THINKING_PROBE_ENV`]`=1` when the upstream is Anthropic's API and the user
/// chose no value, and `ANTHROPIC_AUTH_TOKEN` = the placeholder when there is no login.
pub(crate) fn child_env(inputs: &EnvInputs<'_>) -> Vec<(&'static str, String)> {
    let ours = format!("{TOKEN_HEADER}: {}", inputs.token);
    let headers = match inputs.custom_headers.map(str::trim_end) {
        Some(user) if !user.trim().is_empty() => format!("{user}\n{ours}"),
        _ => ours,
    };
    let chosen = |value: Option<&str>, default: &str| {
        value
            .filter(|v| !v.trim().is_empty())
            .unwrap_or(default)
            .to_string()
    };
    let mut env = vec![
        ("ANTHROPIC_BASE_URL", inputs.url.to_string()),
        ("ANTHROPIC_CUSTOM_HEADERS", headers),
        (GATEWAY_URL_ENV, inputs.url.to_string()),
        (GATEWAY_TOKEN_ENV, inputs.token.to_string()),
        (UPSTREAM_ENV, inputs.upstream.to_string()),
        ("API_TIMEOUT_MS", chosen(inputs.api_timeout, API_TIMEOUT_MS)),
        ("ENABLE_TOOL_SEARCH", chosen(inputs.tool_search, "auto")),
    ];
    let user_probe = inputs.thinking_probe.filter(|v| !v.trim().is_empty());
    let to_anthropic = inputs.upstream.trim_end_matches('/') == DEFAULT_UPSTREAM;
    if user_probe.is_none() && to_anthropic {
        env.push((THINKING_PROBE_ENV, "1".to_string()));
    }
    if let Some(placeholder) = inputs.placeholder {
        env.push(("ANTHROPIC_AUTH_TOKEN", placeholder.to_string()));
    }
    env
}

/// A placeholder Anthropic credential: random, recognisable, worthless anywhere but our
/// gateway (which refuses to forward it).
pub(crate) fn new_placeholder() -> String {
    format!(
        "multi-cursor-no-anthropic-login-{:032x}",
        crate::random::u128()
    )
}

/// The catalog for this launch and the agent to refresh it from in the background (when it
/// came from the cache). Never fails: without Cursor the session starts without its rows.
async fn launch_catalog(
    state_dir: &Path,
    agent: Result<PathBuf, locate::LocateError>,
) -> (Option<Catalog>, Option<PathBuf>) {
    let cached = catalog::load_cached_from(state_dir);
    match (cached, agent) {
        (Some(cached), Ok(agent)) if cached.agent == agent => (Some(cached.catalog), Some(agent)),
        (Some(cached), Err(error)) => {
            eprintln!("multi-cursor: {error}");
            (Some(cached.catalog), None)
        }
        (cached, Ok(agent)) => match catalog::fetch_catalog(&agent).await {
            Ok(fresh) => {
                if let Err(error) = catalog::store_cache_in(state_dir, &fresh, &agent) {
                    tracing::warn!(%error, "could not cache the Cursor catalog");
                }
                (Some(fresh), None)
            }
            Err(error) => {
                eprintln!(
                    "multi-cursor: Cursor's models are unavailable ({error}); Claude Code starts without them."
                );
                (cached.map(|c| c.catalog), None)
            }
        },
        (None, Err(error)) => {
            eprintln!(
                "multi-cursor: Cursor's models are unavailable ({error}); Claude Code starts without them."
            );
            (None, None)
        }
    }
}

/// Fetches the catalog again and stores it for the next launch.
async fn refresh_catalog(state_dir: PathBuf, agent: PathBuf) {
    tokio::time::sleep(REFRESH_DELAY).await;
    match catalog::fetch_catalog(&agent).await {
        Ok(fresh) => {
            if let Err(error) = catalog::store_cache_in(&state_dir, &fresh, &agent) {
                tracing::warn!(%error, "could not cache the Cursor catalog");
            }
        }
        Err(error) => tracing::debug!(%error, "background catalog refresh failed"),
    }
}

/// The exit code a shell would report for Claude Code's status.
fn exit_code(status: std::process::ExitStatus) -> u8 {
    match (status.code(), crate::platform::exit_signal(status)) {
        (Some(code), _) => u8::try_from(code & 0xff).unwrap_or(1),
        (None, Some(signal)) => u8::try_from((128 + signal).min(255)).unwrap_or(255),
        (None, None) => 1,
    }
}

/// The gateway a launch runs in its own process for one `claude`, and the private settings
/// file that points Claude Code at it. Used by the launcher and the wrapper.
pub(crate) struct InProcessGateway {
    pub(crate) url: String,
    /// The private folder holding `settings_path`; removed when dropped.
    pub(crate) temp: PrivateTemp,
    pub(crate) settings_path: PathBuf,
    /// Sending (or dropping) it stops the gateway.
    pub(crate) stop: tokio::sync::oneshot::Sender<()>,
    pub(crate) server: tokio::task::JoinHandle<anyhow::Result<()>>,
    /// The gateway's state, read after Claude Code exits (which session to resume).
    pub(crate) gateway: gateway::Gateway,
}

impl InProcessGateway {
    /// Starts `config`'s gateway on a loopback port, then writes `settings`, with `routing`'s
    /// variables pointing at that gateway, to `settings.json` in a new private folder.
    pub(crate) async fn start(
        config: GatewayConfig,
        catalog: Option<Catalog>,
        mut settings: serde_json::Value,
        routing: &upstream::Routing,
    ) -> anyhow::Result<InProcessGateway> {
        let token = config.token.clone();
        let gateway = gateway::Gateway::new(config, catalog)?;
        let (listener, url) =
            gateway::bind(std::net::SocketAddr::from(([127, 0, 0, 1], 0))).await?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(gateway::serve(listener, gateway.clone(), async {
            let _ = stopped.await;
        }));

        let temp = PrivateTemp::create()?;
        let settings_path = temp.path().join("settings.json");
        upstream::put_routing_env(&mut settings, routing, &url, &token);
        settings::put_client_env(&mut settings, &url, &token);
        let bytes = serde_json::to_vec_pretty(&settings).context("encoding the settings")?;
        crate::state::write_private_atomic(&settings_path, &bytes)
            .context("writing Claude Code's settings file")?;
        Ok(InProcessGateway {
            url,
            temp,
            settings_path,
            stop,
            server,
            gateway,
        })
    }
}

/// The user's (or host's) `--settings` and `--agents` values, read, with the settings layers
/// Claude Code will read and where Claude models go. Read before the catalog, so a refusal
/// (a managed `ANTHROPIC_BASE_URL`, bad JSON) comes first. Used by the launcher and the wrapper.
pub(crate) struct ClaudeFlags {
    user_settings: Vec<serde_json::Map<String, serde_json::Value>>,
    flag_settings: Vec<crate::policy::FlagSettings>,
    user_agents: Vec<serde_json::Map<String, serde_json::Value>>,
    layers: Vec<crate::policy::settings::Layer>,
    routing: upstream::Routing,
}

/// What Claude Code is given: the merged `--settings` and `--agents`, the `--settings` layers
/// for the gateway's admission, and the routing of Claude models.
pub(crate) struct Merged {
    pub(crate) settings: serde_json::Value,
    pub(crate) agents: serde_json::Value,
    pub(crate) flag_settings: Vec<crate::policy::FlagSettings>,
    pub(crate) routing: upstream::Routing,
}

impl ClaudeFlags {
    /// Reads each `--settings` and `--agents` value; `rest` holds the other arguments (for
    /// `--setting-sources`).
    pub(crate) fn read(
        settings_values: &[OsString],
        agents_values: &[OsString],
        rest: &[OsString],
    ) -> anyhow::Result<ClaudeFlags> {
        let user_settings = settings_values
            .iter()
            .map(|v| settings::read_json_arg("--settings", v))
            .collect::<Result<Vec<_>, _>>()?;
        // The gateway's settings admission reads each --settings value with its own origin.
        let flag_settings: Vec<crate::policy::FlagSettings> = settings_values
            .iter()
            .zip(&user_settings)
            .map(|(arg, map)| crate::policy::FlagSettings::from_arg(arg, map.clone()))
            .collect();
        let user_agents = agents_values
            .iter()
            .map(|v| settings::read_json_arg("--agents", v))
            .collect::<Result<Vec<_>, _>>()?;
        let layers = upstream::launch_layers(&flag_settings, rest);
        let routing = upstream::resolve(&layers, &upstream::ProcessRouting::from_env())?;
        Ok(ClaudeFlags {
            user_settings,
            flag_settings,
            user_agents,
            layers,
            routing,
        })
    }

    /// Whether the settings Claude Code reads save a Cursor route as the model (`/model`'s
    /// Enter writes it to the user's settings): a signed-out session then starts on it, as the
    /// picker promised, instead of on Auto.
    pub(crate) fn saves_cursor_route(&self) -> bool {
        self.layers
            .iter()
            .find_map(|layer| layer.settings.get("model"))
            .and_then(serde_json::Value::as_str)
            .is_some_and(|model| model.starts_with(crate::cursor::catalog::ROUTE_PREFIX))
    }

    /// Merges ours (picker rows from `catalog`, only Auto when the account's plan was last
    /// seen running only Auto; hooks running `hook_exe`; the `multi-cursor` worker) with
    /// theirs: their `--settings` values and the picker rows of the settings files Claude Code
    /// reads come first.
    pub(crate) fn merge_with_ours(
        self,
        catalog: Option<&Catalog>,
        auto_review: bool,
        auto_only: bool,
        hook_exe: &Path,
        claude: claude::Version,
    ) -> anyhow::Result<Merged> {
        let picker = match catalog {
            Some(catalog) => {
                let size = catalog::PickerSize::from_env()?;
                let picker = catalog.picker_sized(&catalog::extra_models_from_env(), size);
                picker.check()?;
                if auto_only {
                    picker.auto_only()
                } else {
                    picker
                }
            }
            None => Picker {
                rows: Vec::new(),
                unavailable: Vec::new(),
            },
        };
        let events = settings::hook_events(claude);
        let ours = settings::our_settings(&picker, catalog, auto_review, hook_exe, &events);
        let mut theirs = self.user_settings;
        theirs.extend(settings::file_pickers(&self.layers));
        Ok(Merged {
            settings: settings::merge_settings(theirs, ours)?,
            agents: settings::merge_agents(self.user_agents, settings::our_agents(&picker))?,
            flag_settings: self.flag_settings,
            routing: self.routing,
        })
    }
}

/// The launcher's line when the picker offers only Auto: why (Cursor's words) and what brings
/// the named models back.
fn auto_only_line(note: &catalog::plan::PlanNote) -> String {
    format!(
        "multi-cursor: /model offers only Auto via Cursor: when last asked for a named model, Cursor said “{}”. Once your Cursor plan includes named models, `/model multi/cursor/<id>` (ids: `multi-cursor --cursor-models`) works again and the picker lists them from the next start.",
        crate::cursor::sanitize::sanitize(&note.said)
    )
}

/// `multi-cursor [--] [claude args…]`: starts Claude Code through a private gateway and
/// returns its exit code. Used by `main.rs` when no subcommand is given. Must be polled on the
/// main thread (`Runtime::block_on` in `main`), which spawns `claude` and so carries its
/// parent-death signal (see `launch::child`).
pub async fn run(user_args: Vec<OsString>) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let user = args::split(&user_args)?;
    let state_dir = crate::state::state_dir().context("opening the state folder")?;

    let claude_path = claude::find_claude(
        std::env::var_os(crate::env::CLAUDE_ENV).as_deref(),
        std::env::var_os("PATH").as_deref(),
        crate::platform::places::home().as_deref(),
    )?;
    let version = claude::version(&claude_path, &state_dir).await?;
    claude::check_version(&claude_path, version)?;

    let flags = ClaudeFlags::read(&user.settings, &user.agents, &user.rest)?;
    let saves_cursor_route = flags.saves_cursor_route();
    // A note names the switch that exists here: Shift+Tab in the session, flags with -p.
    let surface = if is_print(&user.rest) {
        crate::policy::Surface::Print
    } else {
        crate::policy::Surface::Terminal
    };
    // The first candidate that is Cursor's CLI (another vendor's `agent` is skipped); whether it
    // offers auto review decides the picker rows' profile (`settings::behaves_as`).
    let agent = agent_probe::find_agent(&state_dir).await;
    let mut notices = Vec::new();
    let auto_review = agent.as_ref().is_ok_and(|info| info.supports_auto_review);
    if agent.is_ok() && !auto_review && asks_auto_mode(&user.rest) {
        // Claude Code turns auto into manual mode on a row it cannot run auto on, silently.
        notices.push(format!(
            "multi-cursor: on Cursor models Claude Code starts in manual mode, not auto: the installed Cursor CLI has no auto review (`agent update` adds it). {}.",
            crate::policy::how_to_allow_edits(surface)
        ));
    }
    let (catalog, refresh_from) = launch_catalog(&state_dir, agent.map(|info| info.path)).await;
    let plan = catalog::plan::auto_only(&state_dir);
    if let Some(note) = &plan {
        notices.push(auto_only_line(note));
    }
    let auto_only = plan.is_some();
    // The Cursor row chosen last in a launched session (put back out of Claude Code's settings
    // when that session ended): this one starts on it unless a model is named.
    let start_model = (user.model.is_none() && !saves_cursor_route)
        .then(|| saved_model::last_cursor_row(&state_dir))
        .flatten();
    if let Some(route) = &start_model {
        notices.push(format!(
            "multi-cursor: starting on {route}, the Cursor model chosen last in /model (`multi-cursor --model <model>` starts on another; plain `claude` keeps your own saved model)"
        ));
    }
    // On stderr now (seen with -p and before the TUI starts), and again inside the session:
    // Claude Code's TUI clears the screen it starts on.
    for notice in &notices {
        eprintln!("{notice}");
    }
    let exe = std::env::current_exe().context("finding the multi-cursor executable for hooks")?;
    let plugin_dir = plugin::for_launch(&exe, &state_dir, &user.rest, |why| eprintln!("{why}"))?;
    let status_line = settings::status_line(&flags.layers, &exe, statusline::enabled());
    let Merged {
        mut settings,
        agents,
        flag_settings,
        routing,
    } = flags.merge_with_ours(catalog.as_ref(), auto_review, auto_only, &exe, version)?;
    settings::install_status_line(&mut settings, status_line);
    let login_inputs = claude::LoginInputs::from_env(settings.get("apiKeyHelper").is_some());
    let login = claude::anthropic_login(&claude_path, &login_inputs).await;
    let placeholder = (login == AnthropicLogin::SignedOut).then(new_placeholder);
    tracing::debug!(?login, "Anthropic login");

    let mut config = GatewayConfig::from_env(None)?;
    config.settings.state_dir = state_dir.clone();
    config.settings.surface = surface;
    config.startup_notices = notices;
    config.settings.expects_hooks = true;
    config.anthropic_placeholder = placeholder.clone();
    config.settings.policy.flag_settings = flag_settings;
    config
        .settings
        .policy
        .flag_settings
        .extend(crate::policy::settings::disallowed_tools(&user.rest));
    let token = config.token.clone();
    config.upstream = routing.upstream.clone();
    let gateway = InProcessGateway::start(config, catalog, settings, &routing).await?;
    let command = gateway.claude_command(&ClaudeStart {
        claude_path: &claude_path,
        agents: &agents,
        auto_model: placeholder.is_some() && user.model.is_none() && !saves_cursor_route,
        start_model: start_model.as_deref(),
        rest: &user.rest,
        inherited_placeholder: login_inputs.inherited_placeholder(),
        token: &token,
        routing: &routing,
        placeholder: placeholder.as_deref(),
        plugin_dir: plugin_dir.as_deref(),
        helper: Some(&exe),
    });
    // `/model` in the session saves its choice into Claude Code's user settings: noted now,
    // put back when the session ends (a killed launcher's, by the next multi-cursor command).
    let saved = (!is_print(&user.rest))
        .then(|| saved_model::user_settings_path(&crate::policy::PolicyInputs::from_env()))
        .flatten()
        .and_then(|settings| saved_model::SessionModel::begin(&state_dir, &settings));
    let refresh = refresh_from.map(|agent| (state_dir, agent));
    let sessions = gateway.gateway.clone();
    let code = gateway
        .run_claude(
            command,
            &claude_path,
            Interrupt::LeftToClaude,
            refresh,
            started,
        )
        .await;
    if let Some(saved) = saved {
        let outcome = saved.finish();
        tracing::debug!(?outcome, "the saved model after the session");
    }
    let code = code?;
    if let Some(line) = resume_hint(&sessions, &user.rest) {
        eprintln!("{line}");
    }
    Ok(code)
}

/// Whether Claude Code's arguments ask for auto mode (`--permission-mode auto`).
fn asks_auto_mode(args: &[OsString]) -> bool {
    args.iter().enumerate().any(|(index, arg)| {
        arg == "--permission-mode=auto"
            || (arg == "--permission-mode"
                && args.get(index + 1).is_some_and(|next| next == "auto"))
    })
}

/// Whether Claude Code's arguments ask for print mode (`-p`, `--print`).
fn is_print(args: &[OsString]) -> bool {
    args.iter()
        .any(|a| a == "-p" || a == "--print" || a.to_string_lossy().starts_with("--print="))
}

/// After an interactive session, the line that follows Claude Code's own `claude --resume
/// <id>`: resuming through `claude` would skip the gateway, so its Cursor models would not
/// answer. `None` for a print-mode run (`-p`), which names no session to resume.
fn resume_hint(gateway: &gateway::Gateway, args: &[OsString]) -> Option<String> {
    if is_print(args) {
        return None;
    }
    let session = gateway.services().sessions().last_prompted()?.to_string();
    // A hook's value: printed only when it is an id (no control sequence reaches the terminal).
    let id_like = !session.is_empty()
        && session
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    id_like.then(|| format!("To resume it with Cursor models: multi-cursor -- --resume {session}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get<'a>(env: &'a [(&'static str, String)], key: &str) -> Option<&'a str> {
        env.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str())
    }

    #[test]
    fn env_appends_our_header_and_keeps_user_choices() {
        let env = child_env(&EnvInputs {
            url: "http://127.0.0.1:1",
            token: "t0k",
            upstream: "https://api.anthropic.com",
            custom_headers: Some("x-team: a\n"),
            api_timeout: Some("5000"),
            ..EnvInputs::default()
        });
        assert_eq!(
            get(&env, "ANTHROPIC_CUSTOM_HEADERS"),
            Some("x-team: a\nx-multi-cursor-token: t0k")
        );
        assert_eq!(get(&env, "API_TIMEOUT_MS"), Some("5000"));
        assert_eq!(get(&env, "ENABLE_TOOL_SEARCH"), Some("auto"));
        assert_eq!(get(&env, "ANTHROPIC_AUTH_TOKEN"), None);
        let env = child_env(&EnvInputs {
            placeholder: Some("ph"),
            ..EnvInputs::default()
        });
        assert_eq!(get(&env, "ANTHROPIC_AUTH_TOKEN"), Some("ph"));
        assert_eq!(get(&env, "API_TIMEOUT_MS"), Some(API_TIMEOUT_MS));
    }

    #[test]
    fn the_replayed_thinking_probe_is_off_when_claude_models_go_to_anthropic() {
        let probe = |upstream: &str, user: Option<&str>| {
            let env = child_env(&EnvInputs {
                upstream,
                thinking_probe: user,
                ..EnvInputs::default()
            });
            get(&env, THINKING_PROBE_ENV).map(str::to_string)
        };
        assert_eq!(probe(DEFAULT_UPSTREAM, None).as_deref(), Some("1"));
        assert_eq!(
            probe("https://api.anthropic.com/", None).as_deref(),
            Some("1")
        );
        assert_eq!(probe(DEFAULT_UPSTREAM, Some(" ")).as_deref(), Some("1"));
        // Another gateway may rewrite errors: the probe is for it.
        assert_eq!(probe("https://llm.example.com/anthropic", None), None);
        // The user's own value is inherited as it is.
        assert_eq!(probe(DEFAULT_UPSTREAM, Some("0")), None);
    }

    #[test]
    fn exit_codes_follow_the_shell() {
        match crate::platform::testing::exit_status_from_raw(7 << 8) {
            Ok(status) => {
                assert_eq!(exit_code(status), 7);
                assert_eq!(
                    exit_code(crate::platform::testing::exit_status_from_raw(15).unwrap()),
                    143
                );
            }
            Err(reason) => eprintln!("skipped: {reason}"),
        }
    }

    /// The third probe: a launcher in its own PID namespace has a pid that is not running
    /// here, and the sweep of another launcher removed its folder. Only a free lock counts.
    #[test]
    fn the_sweep_removes_only_folders_whose_lock_is_free() {
        let own = PrivateTemp::create().unwrap();
        let dir = tempfile::tempdir().unwrap();
        // Pids above the kernel's maximum: not running in this namespace.
        let folder = |rest: &str| {
            let path = dir.path().join(format!("{TEMP_PREFIX}99999999-{rest}"));
            std::fs::create_dir(&path).unwrap();
            path
        };
        let live = folder("live");
        let held = lock_new(&live.join(TEMP_LOCK)).unwrap();
        let dead = folder("dead");
        drop(lock_new(&dead.join(TEMP_LOCK)).unwrap());
        let older = folder("no-lock");
        let other = dir.path().join(format!("{TEMP_PREFIX}notes"));
        std::fs::create_dir(&other).unwrap();
        std::fs::write(other.join(TEMP_LOCK), "").unwrap();

        sweep_stale_temps(dir.path(), own.path());
        assert!(live.exists(), "a live launcher's folder is kept");
        assert!(!dead.exists(), "a folder whose lock is free is swept");
        assert!(older.exists(), "a folder without a lock file is left alone");
        assert!(other.exists(), "only our pattern is touched");

        drop(held);
        sweep_stale_temps(dir.path(), own.path());
        assert!(!live.exists(), "swept once its launcher let go");
    }

    #[test]
    fn a_launchers_own_folder_is_locked_while_it_lives() {
        let temp = PrivateTemp::create().unwrap();
        assert!(!lock_is_free(&temp.path().join(TEMP_LOCK)));
        let other = PrivateTemp::create().unwrap();
        sweep_stale_temps(&std::env::temp_dir(), other.path());
        assert!(temp.path().exists());
        let staging = temp.path().with_file_name(format!(
            ".{}",
            temp.path().file_name().unwrap().to_string_lossy()
        ));
        assert!(!staging.exists(), "renamed into place");
    }

    #[test]
    fn temp_folder_is_private_and_removed() {
        let temp = PrivateTemp::create().unwrap();
        let path = temp.path().to_path_buf();
        crate::platform::testing::assert_mode(&path, 0o700);
        drop(temp);
        assert!(!path.exists());
    }
}
