//! Wrap mode: `multi-cursor-claude`, the door for programs that start Claude Code themselves —
//! the VS Code panel (`claudeCode.claudeProcessWrapper`), the Agent SDK
//! (`pathToClaudeCodeExecutable`, Python's `cli_path`) and anything else that runs `claude`
//! over stream-json on its own stdin and stdout.
//!
//! The contract:
//!
//! 1. `multi-cursor-claude <path-to-claude> <claude args…>` (VS Code passes its bundled
//!    `claude` as the first argument, the TypeScript SDK its `executableArgs`) or
//!    `multi-cursor-claude <claude args…>` (Claude Code is found as the launcher finds it:
//!    `MULTI_CURSOR_CLAUDE`, then `PATH`). The older `<node> <cli.js>` form is refused with a
//!    message.
//! 2. A command that starts no session (`plugin …`, `mcp …`, `auth …`, `doctor`, `--version`,
//!    `--help`, …) is handed to `claude` untouched: the wrapper `exec`s it, with no gateway.
//! 3. Otherwise the gateway starts on loopback with a fresh token; the host's `--settings`
//!    (every value, a file or inline JSON, `--settings X` or `--settings=X`) are merged with
//!    ours, with the picker rows of the user's settings files, into one 0600 file in a private
//!    0700 temporary folder that replaces the host's flag; the host's `--agents` are merged
//!    with our worker; every other argument is kept byte for byte, and `--plugin-dir` with the
//!    plugin of the helper's version is added, as the launcher adds it (unless the host passes
//!    one holding a multi-cursor plugin, or `MULTI_CURSOR_PLUGIN=off`). No status line is
//!    added.
//! 4. `claude` runs as a child on the host's own stdin, stdout and stderr, which the wrapper
//!    never reads or writes; the wrapper itself writes to stderr only a fatal error before
//!    `claude` starts (its logs are off unless `MULTI_CURSOR_LOG` asks for them). SIGTERM,
//!    SIGINT and SIGHUP are passed on; the wrapper exits with `claude`'s code (128 + the
//!    signal when a signal ended it) after stopping the gateway and removing its folder.
//! 5. A SIGKILLed wrapper leaves nothing behind: Claude Code gets SIGTERM at once and every
//!    Cursor run of its gateway ends with its process group, as for the launcher (see
//!    `launch::child` and [`crate::platform::watchdog`]). The spawn happens on the
//!    main thread (the one `block_on` polls the wrapper's future on), which lives as long as
//!    the wrapper and so carries Linux's parent-death signal.
//!
//! The gateway runs with `Surface::Panel`, or `Surface::Sdk` when
//! the Agent SDK started it (`CLAUDE_CODE_ENTRYPOINT` `sdk-…`): a note or refusal about
//! Claude's permission mode names the panel's mode menu and settings, or the SDK's
//! `permissionMode`, not Shift+Tab.
//!
//! The token is never in any argv: it is in `claude`'s environment, and in the settings file
//! only when a settings layer sets `ANTHROPIC_BASE_URL`/`ANTHROPIC_CUSTOM_HEADERS` (see
//! `super::upstream`).

use std::ffi::OsStr;
use std::ffi::OsString;
use std::path::Path;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use thiserror::Error;

use super::ClaudeFlags;
use super::InProcessGateway;
use super::LaunchError;
use super::Merged;
use super::child::ClaudeStart;
use super::child::Interrupt;
use super::claude;
use super::new_placeholder;
use crate::cursor::catalog;
use crate::cursor::catalog::Catalog;
use crate::gateway::GatewayConfig;

/// The wrapper's executable name, as `cargo install` installs it.
pub(crate) const WRAPPER_NAME: &str = "multi-cursor-claude";

/// Claude Code's commands that start no session: handed to `claude` untouched (2.1.328's
/// `claude --help` list, plus older names).
const NO_SESSION_COMMANDS: [&str; 23] = [
    "agents",
    "attach",
    "auth",
    "auto-mode",
    "config",
    "doctor",
    "gateway",
    "import",
    "install",
    "kill",
    "logs",
    "mcp",
    "migrate-installer",
    "plugin",
    "plugins",
    "purge",
    "respawn",
    "rm",
    "setup-token",
    "stop",
    "ultrareview",
    "update",
    "upgrade",
];

/// Options that make `claude` print something and exit, wherever they stand.
const NO_SESSION_OPTIONS: [&str; 4] = ["--version", "-v", "--help", "-h"];

/// Why the wrapper could not start Claude Code.
#[derive(Debug, Error)]
pub(crate) enum WrapError {
    /// `executableArgs: [node, cli.js]`.
    #[error(
        "{WRAPPER_NAME} was given {} {}: the `node cli.js` form of Claude Code is not supported; point the wrapper at Claude Code's own executable (the native `claude`), or leave the path out and it finds `claude` itself",
        .node.display(),
        .script.to_string_lossy()
    )]
    NodeForm { node: PathBuf, script: OsString },
    /// The `multi-cursor` executable the hooks run is not beside the wrapper.
    #[error(
        "{WRAPPER_NAME} needs the multi-cursor executable beside it ({}) for Claude Code's hooks; install both with `cargo install --locked --path <your multi-cursor checkout>`",
        .0.display()
    )]
    NoHelper(PathBuf),
}

/// The host's `claude` arguments, split as the wrapper needs them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct HostArgs {
    /// Every argument but the `--settings`/`--agents` options, byte for byte and in order.
    pub rest: Vec<OsString>,
    /// Each `--settings` value, in order.
    pub settings: Vec<OsString>,
    /// Each `--agents` value, in order.
    pub agents: Vec<OsString>,
    /// Whether a `--model` (or `--model=`) was given.
    pub has_model: bool,
}

/// Splits the host's arguments: `--settings` and `--agents` (separate or joined with `=`) are
/// taken out up to a literal `--`; everything else stays exactly as given.
pub(crate) fn split_host_args(args: &[OsString]) -> Result<HostArgs, LaunchError> {
    let mut out = HostArgs::default();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word == "--" {
            out.rest.push(word.clone());
            out.rest.extend(words.by_ref().cloned());
            break;
        }
        let text = word.to_string_lossy();
        if text == "--model" || text.starts_with("--model=") {
            out.has_model = true;
        }
        let (name, joined) = match text.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value)),
            _ => (text.as_ref(), None),
        };
        if !matches!(name, "--settings" | "--agents") {
            out.rest.push(word.clone());
            continue;
        }
        let value = match joined {
            Some(value) => OsString::from(value),
            None => words
                .next()
                .cloned()
                .ok_or_else(|| LaunchError::MissingValue(name.to_string()))?,
        };
        if name == "--settings" {
            out.settings.push(value);
        } else {
            out.agents.push(value);
        }
    }
    Ok(out)
}

/// Whether `args` (Claude Code's, after the path) start no session.
pub(crate) fn starts_no_session(args: &[OsString]) -> bool {
    let first = args.first().and_then(|a| a.to_str());
    if first.is_some_and(|f| NO_SESSION_COMMANDS.contains(&f)) {
        return true;
    }
    args.iter()
        .take_while(|a| *a != "--")
        .any(|a| a.to_str().is_some_and(|a| NO_SESSION_OPTIONS.contains(&a)))
}

/// An absolute path to an existing executable file.
fn is_executable_path(word: &OsStr) -> bool {
    let path = Path::new(word);
    path.is_absolute() && std::fs::metadata(path).is_ok_and(|m| crate::platform::is_executable(&m))
}

/// The Claude Code to run and its arguments: the first argument when it is an absolute path to
/// an executable, else `claude` found as the launcher finds it.
pub(crate) fn pick_claude(argv: Vec<OsString>) -> anyhow::Result<(PathBuf, Vec<OsString>)> {
    if let Some(first) = argv.first()
        && is_executable_path(first)
    {
        let mut args = argv;
        let claude = PathBuf::from(args.remove(0));
        if let Some(script) = args.first()
            && [".js", ".mjs", ".cjs"]
                .iter()
                .any(|ext| script.to_string_lossy().ends_with(ext))
        {
            return Err(WrapError::NodeForm {
                node: claude,
                script: script.clone(),
            }
            .into());
        }
        return Ok((claude, args));
    }
    let claude = claude::find_claude(
        std::env::var_os(crate::env::CLAUDE_ENV).as_deref(),
        std::env::var_os("PATH").as_deref(),
        crate::platform::places::home().as_deref(),
    )?;
    Ok((claude, argv))
}

/// `exec`s `claude` with `args` unchanged (returns only if that failed; on Windows, which
/// cannot replace a process, runs it and exits with its code).
fn exec_claude(claude: &Path, args: &[OsString]) -> anyhow::Error {
    let error = crate::platform::exec_replace(std::process::Command::new(claude).args(args));
    LaunchError::ClaudeUnusable {
        path: claude.to_path_buf(),
        reason: error.to_string(),
    }
    .into()
}

/// The `multi-cursor` executable beside this one (the hooks run `multi-cursor hook`).
fn helper_beside(exe: &Path) -> Result<PathBuf, WrapError> {
    let helper = exe.with_file_name(format!("multi-cursor{}", std::env::consts::EXE_SUFFIX));
    if is_executable_path(helper.as_os_str()) {
        Ok(helper)
    } else {
        Err(WrapError::NoHelper(helper))
    }
}

/// The catalog from the cache (refreshed in the background when `Some` agent is returned) or,
/// without a usable cache, from the agent now. Says nothing: without Cursor the session starts
/// without its rows.
async fn quiet_catalog(
    state_dir: &Path,
    agent: Option<PathBuf>,
) -> (Option<Catalog>, Option<PathBuf>) {
    let cached = catalog::load_cached_from(state_dir);
    if let (Some(cached), Some(agent)) = (&cached, &agent)
        && cached.agent == *agent
    {
        return (Some(cached.catalog.clone()), Some(agent.clone()));
    }
    let Some(agent) = agent else {
        return (cached.map(|c| c.catalog), None);
    };
    match catalog::fetch_catalog(&agent).await {
        Ok(fresh) => {
            if let Err(error) = catalog::store_cache_in(state_dir, &fresh, &agent) {
                tracing::debug!(%error, "could not cache the Cursor catalog");
            }
            (Some(fresh), None)
        }
        Err(error) => {
            tracing::debug!(%error, "Cursor's models are unavailable");
            (cached.map(|c| c.catalog), None)
        }
    }
}

/// `multi-cursor-claude [<path-to-claude>] <claude args…>`: see the module docs. Must be
/// polled on the main thread (`Runtime::block_on` in the binary's `main`), which spawns
/// `claude` and so carries its parent-death signal.
pub async fn run(argv: Vec<OsString>) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let (claude_path, args) = pick_claude(argv)?;
    if starts_no_session(&args) {
        return Err(exec_claude(&claude_path, &args));
    }
    let host = split_host_args(&args)?;
    let exe = std::env::current_exe().context("finding the multi-cursor-claude executable")?;
    let helper = helper_beside(&exe)?;
    let state_dir = crate::state::state_dir().context("opening the state folder")?;
    let version = claude::version(&claude_path, &state_dir).await?;
    claude::check_version(&claude_path, version)?;

    let flags = ClaudeFlags::read(&host.settings, &host.agents, &host.rest)?;
    let saves_cursor_route = flags.saves_cursor_route();
    let agent = super::agent_probe::find_agent(&state_dir).await;
    let auto_review = agent.as_ref().is_ok_and(|info| info.supports_auto_review);
    let (catalog, refresh_from) = quiet_catalog(&state_dir, agent.ok().map(|info| info.path)).await;
    let Merged {
        settings,
        agents,
        flag_settings,
        routing,
    } = flags.merge_with_ours(
        catalog.as_ref(),
        auto_review,
        crate::cursor::catalog::plan::auto_only(&state_dir).is_some(),
        &helper,
        version,
    )?;
    let login_inputs = claude::LoginInputs::from_env(settings.get("apiKeyHelper").is_some());
    let login = claude::anthropic_login(&claude_path, &login_inputs).await;
    let placeholder = (login == claude::AnthropicLogin::SignedOut).then(new_placeholder);

    let mut config = GatewayConfig::from_env(None)?;
    config.settings.state_dir = state_dir.clone();
    config.anthropic_placeholder = placeholder.clone();
    config.upstream = routing.upstream.clone();
    config.settings.surface = crate::policy::Surface::of_wrapper(
        std::env::var(crate::policy::ENTRYPOINT_ENV).ok().as_deref(),
    );
    config.settings.expects_hooks = true;
    config.settings.policy.flag_settings = flag_settings;
    config
        .settings
        .policy
        .flag_settings
        .extend(crate::policy::settings::disallowed_tools(&host.rest));
    let token = config.token.clone();
    // The plugin of the helper's version, as the launcher gives it: the panel and the SDK get
    // `/multi-cursor:*` too, answered by the helper beside us (`MULTI_CURSOR_BIN`).
    let plugin_dir = super::plugin::for_launch(&helper, &state_dir, &host.rest, |why| {
        tracing::warn!("{why}");
    })?;
    let gateway = InProcessGateway::start(config, catalog, settings, &routing).await?;
    let command = gateway.claude_command(&ClaudeStart {
        claude_path: &claude_path,
        agents: &agents,
        auto_model: placeholder.is_some() && !host.has_model && !saves_cursor_route,
        start_model: None,
        rest: &host.rest,
        inherited_placeholder: login_inputs.inherited_placeholder(),
        token: &token,
        routing: &routing,
        placeholder: placeholder.as_deref(),
        plugin_dir: plugin_dir.as_deref(),
        helper: Some(&helper),
    });
    let refresh = refresh_from.map(|agent| (state_dir, agent));
    gateway
        .run_claude(command, &claude_path, Interrupt::PassedOn, refresh, started)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    #[test]
    fn host_settings_and_agents_are_taken_out_and_the_rest_kept_byte_for_byte() {
        let split = split_host_args(&os(&[
            "--output-format",
            "stream-json",
            "--model=multi/cursor/default",
            "--settings",
            "{\"a\":1}",
            "--permission-mode=default",
            "--agents={\"x\":{}}",
            "--setting-sources=",
            "--",
            "--settings",
        ]))
        .unwrap();
        assert_eq!(
            split.rest,
            os(&[
                "--output-format",
                "stream-json",
                "--model=multi/cursor/default",
                "--permission-mode=default",
                "--setting-sources=",
                "--",
                "--settings",
            ])
        );
        assert_eq!(split.settings, os(&["{\"a\":1}"]));
        assert_eq!(split.agents, os(&["{\"x\":{}}"]));
        assert!(split.has_model);
    }

    #[test]
    fn commands_without_a_session_are_recognised() {
        assert!(starts_no_session(&os(&["plugin", "list", "--json"])));
        assert!(starts_no_session(&os(&["--version"])));
        assert!(starts_no_session(&os(&["--model", "x", "-h"])));
        assert!(!starts_no_session(&os(&["-p", "--", "--help"])));
        assert!(!starts_no_session(&os(&["--output-format", "stream-json"])));
    }

    #[test]
    fn the_node_form_is_refused() {
        let node = std::env::current_exe().unwrap();
        let error = pick_claude(vec![node.into_os_string(), OsString::from("/x/cli.js")])
            .unwrap_err()
            .to_string();
        assert!(error.contains("not supported"), "{error}");
    }
}
