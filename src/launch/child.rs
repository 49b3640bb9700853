//! Claude Code as the child of the launcher (`multi-cursor`) or the wrapper
//! (`multi-cursor-claude`): its command line and environment behind an [`InProcessGateway`],
//! the signals passed on while it runs, and the gateway stopped after it. Both doors start it
//! the same way; they differ only in what a SIGINT means ([`Interrupt`]).
//!
//! Nothing outlives either door, whatever ends it (SIGKILL included): Claude Code gets SIGTERM
//! at once — on Linux from the kernel (a parent-death signal, set between fork and exec), and
//! on every system from a [`Watchdog`] that sends SIGTERM, then SIGKILL after
//! `CLAUDE_GRACE` if the same process still
//! runs. Linux's parent-death signal follows the *thread* that spawned the child, so `claude`
//! is spawned on the main thread (the binaries' `block_on` polls the launcher's and the
//! wrapper's future there), which lives as long as the process; never from a blocking-pool
//! thread, which tokio retires when idle. The gateway lives in this process, and each of its
//! Cursor runs has a watchdog of its own ([`crate::cursor::process`]).

use std::ffi::OsString;
use std::path::Path;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;

use super::EnvInputs;
use super::GATEWAY_STOP;
use super::InProcessGateway;
use super::LaunchError;
use super::child_env;
use super::exit_code;
use super::refresh_catalog;
use super::sweep_stale_temps;
use super::upstream::Routing;
use crate::cursor::catalog::AUTO_ROUTE;
use crate::platform::Shutdown;
use crate::platform::Shutdowns;
use crate::platform::watchdog::Watchdog;

/// What Claude Code is started with, besides the gateway's settings file.
pub(crate) struct ClaudeStart<'a> {
    /// The `claude` executable.
    pub(crate) claude_path: &'a Path,
    /// `--agents`: ours merged with the user's or host's.
    pub(crate) agents: &'a serde_json::Value,
    /// Adds `--model multi/cursor/default`: Claude Code has no Anthropic login and no model
    /// was chosen.
    pub(crate) auto_model: bool,
    /// Adds `--model <route>` (before [`ClaudeStart::auto_model`]): the Cursor row chosen last
    /// in a launched session, when the user named no model (`launch::saved_model`).
    pub(crate) start_model: Option<&'a str>,
    /// Every other argument, byte for byte.
    pub(crate) rest: &'a [OsString],
    /// Started inside a launched, signed-out session: its placeholder is no credential here,
    /// so `ANTHROPIC_AUTH_TOKEN` is removed.
    pub(crate) inherited_placeholder: bool,
    /// The gateway's token.
    pub(crate) token: &'a str,
    /// Where Claude models go, and the user's custom header lines.
    pub(crate) routing: &'a Routing,
    /// The placeholder credential when Claude Code has no Anthropic login.
    pub(crate) placeholder: Option<&'a str>,
    /// `--plugin-dir`: the plugin matching this binary (the launcher; [`super::plugin`]).
    pub(crate) plugin_dir: Option<&'a Path>,
    /// The `multi-cursor` executable the plugin's shim runs (`MULTI_CURSOR_BIN`; on Windows
    /// also first on PATH, for the status line's bare `multi-cursor`).
    pub(crate) helper: Option<&'a Path>,
}

/// What a SIGINT to the launcher or the wrapper means for Claude Code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Interrupt {
    /// The terminal sent Claude Code the same Ctrl-C, and Claude Code decides what it means
    /// (the launcher).
    LeftToClaude,
    /// There is no terminal: the signal is passed on (the wrapper).
    PassedOn,
}

impl InProcessGateway {
    /// Claude Code's command: `--settings <ours>`, `--agents`, `--plugin-dir` when given, the
    /// auto route when needed, then the other arguments; the environment of [`child_env`] (and
    /// `MULTI_CURSOR_BIN` when given); the descriptor limit we started with (the gateway raised
    /// ours, see `gateway::bind`).
    pub(crate) fn claude_command(&self, start: &ClaudeStart<'_>) -> tokio::process::Command {
        let mut command = tokio::process::Command::new(start.claude_path);
        command
            .arg("--settings")
            .arg(&self.settings_path)
            .arg("--agents")
            .arg(start.agents.to_string());
        if let Some(folder) = start.plugin_dir {
            command.arg("--plugin-dir").arg(folder);
        }
        if let Some(helper) = start.helper {
            command.env(crate::env::BIN_ENV, helper);
            crate::platform::shell_command::put_helper_on_path(&mut command, helper);
        }
        if let Some(route) = start.start_model {
            command.arg("--model").arg(route);
        } else if start.auto_model {
            command.arg("--model").arg(AUTO_ROUTE);
        }
        command.args(start.rest);
        crate::platform::restore_descriptor_limit(command.as_std_mut());
        crate::platform::die_with_parent(&mut command);
        if start.inherited_placeholder {
            command.env_remove("ANTHROPIC_AUTH_TOKEN");
        }
        let api_timeout = std::env::var("API_TIMEOUT_MS").ok();
        let tool_search = std::env::var("ENABLE_TOOL_SEARCH").ok();
        let thinking_probe = std::env::var(super::THINKING_PROBE_ENV).ok();
        command.envs(child_env(&EnvInputs {
            url: &self.url,
            token: start.token,
            upstream: &start.routing.upstream,
            placeholder: start.placeholder,
            custom_headers: start.routing.custom_headers.as_deref(),
            api_timeout: api_timeout.as_deref(),
            tool_search: tool_search.as_deref(),
            thinking_probe: thinking_probe.as_deref(),
        }));
        command
    }

    /// Spawns `command` (from [`Self::claude_command`]) and waits for Claude Code, passing
    /// SIGTERM and SIGHUP on (and SIGINT as `interrupt` says); then stops the gateway and
    /// removes the private folder. Returns Claude Code's exit code as a shell reports it.
    /// `refresh` (state folder, agent) refreshes the catalog cache in the background.
    /// Must be awaited on the main thread, which spawns `claude` and so carries its
    /// parent-death signal (see the module docs).
    pub(crate) async fn run_claude(
        self,
        mut command: tokio::process::Command,
        claude_path: &Path,
        interrupt: Interrupt,
        refresh: Option<(PathBuf, PathBuf)>,
        started: Instant,
    ) -> anyhow::Result<ExitCode> {
        // Registered before the spawn: from here on these signals (on Windows, console
        // control events) never end us.
        let mut shutdowns = Shutdowns::watch().context("watching SIGTERM, SIGHUP and SIGINT")?;

        if let Some(limit) = crate::platform::COMMAND_LINE_LIMIT {
            let std = command.as_std();
            let args: Vec<OsString> = std.get_args().map(OsString::from).collect();
            crate::platform::windows_entry::check_command_line(claude_path, &args, limit).map_err(
                |error| LaunchError::ClaudeUnusable {
                    path: claude_path.to_path_buf(),
                    reason: error.to_string(),
                },
            )?;
        }
        let mut child = command.spawn().map_err(|e| LaunchError::ClaudeUnusable {
            path: claude_path.to_path_buf(),
            reason: e.to_string(),
        })?;
        tracing::debug!(
            elapsed_ms = started.elapsed().as_secs_f64() * 1000.0,
            "claude spawned"
        );
        // Sends Claude Code SIGTERM if this process dies while it runs.
        let _watchdog = Watchdog::for_child(child.id(), false);
        let pid = child.id();
        if let Some((state_dir, agent)) = refresh {
            tokio::spawn(refresh_catalog(state_dir, agent));
        }
        sweep_stale_temps(&std::env::temp_dir(), self.temp.path());

        let forward = |what: Shutdown| {
            if let Some(pid) = pid
                && let Err(error) = crate::platform::forward(pid, what)
            {
                tracing::debug!(%error, ?what, "could not pass the signal on to Claude Code");
            }
        };
        let status = loop {
            tokio::select! {
                status = child.wait() => break status.context("waiting for Claude Code")?,
                what = shutdowns.next() => {
                    if what != Shutdown::Interrupt || interrupt == Interrupt::PassedOn {
                        forward(what);
                    }
                }
            }
        };

        let InProcessGateway {
            temp, stop, server, ..
        } = self;
        let _ = stop.send(());
        match tokio::time::timeout(GATEWAY_STOP, server).await {
            Ok(Ok(Err(error))) => tracing::warn!(%error, "the gateway stopped with an error"),
            Ok(_) => {}
            Err(_) => tracing::debug!("the gateway did not stop in time; leaving it"),
        }
        drop(temp);
        Ok(ExitCode::from(exit_code(status)))
    }
}
