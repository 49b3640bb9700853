//! Claude Code's permission modes and settings, and what they allow Cursor to do (see also
//! ARCHITECTURE.md "Policy parity").
//!
//! Cursor's print mode cannot ask the user anything, so every Claude mode becomes the Cursor
//! run that does no more than the mode allows (`cursor_mode`: manual answers read-only with a
//! note, accept edits runs Cursor's allowlist, auto its auto review, plan `--mode plan`, bypass
//! `--force`), refused when Cursor's own configuration would widen it (`check_not_widened`).
//!
//! Claude's permission settings are admitted per request by [`admission::admit_settings`]: read from
//! every source Claude Code reads ([`settings`]), each rule translated to Cursor's tokens
//! ([`translate`]) and looked up in Cursor's own config ([`cursor_config`]); whatever Cursor
//! would not be bound by refuses the request.

pub(crate) mod admission;
pub(crate) mod cursor_config;
pub(crate) mod settings;
pub(crate) mod translate;

pub(crate) use admission::Admitted;
pub(crate) use admission::SettingsRefusal;
pub(crate) use admission::admit_request;
pub(crate) use admission::status_text;
pub(crate) use cursor_config::login_fingerprint as cursor_login_fingerprint;
pub(crate) use settings::FlagSettings;
pub(crate) use settings::PolicyInputs;

use crate::env::APPROVE_MCPS_ENV;
use std::path::Path;
use std::path::PathBuf;

use serde::Serialize;
use thiserror::Error;

use crate::cursor::command::CursorMode;
use crate::platform::paths::joined;

/// A Claude Code permission mode, as hooks report it in `permission_mode` and as `multi-cursor
/// serve --permission-mode` takes it (the same camelCase spellings; `manual` is Claude's CLI
/// spelling of `default`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, clap::ValueEnum)]
pub enum ClaudeMode {
    #[serde(rename = "default")]
    #[value(name = "default", alias = "manual")]
    Default,
    #[serde(rename = "acceptEdits")]
    #[value(name = "acceptEdits")]
    AcceptEdits,
    #[serde(rename = "plan")]
    #[value(name = "plan")]
    Plan,
    #[serde(rename = "dontAsk")]
    #[value(name = "dontAsk")]
    DontAsk,
    #[serde(rename = "bypassPermissions")]
    #[value(name = "bypassPermissions")]
    BypassPermissions,
    #[serde(rename = "auto")]
    #[value(name = "auto")]
    Auto,
}

impl ClaudeMode {
    /// Parses a hook's `permission_mode`: exactly the spellings `--permission-mode` accepts
    /// (case matters, as in Claude Code).
    pub(crate) fn parse(value: &str) -> Option<Self> {
        <ClaudeMode as clap::ValueEnum>::from_str(value, false).ok()
    }

    /// The spelling Claude Code uses.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            ClaudeMode::Default => "default",
            ClaudeMode::AcceptEdits => "acceptEdits",
            ClaudeMode::Plan => "plan",
            ClaudeMode::DontAsk => "dontAsk",
            ClaudeMode::BypassPermissions => "bypassPermissions",
            ClaudeMode::Auto => "auto",
        }
    }
}

/// Claude Code's variable naming the program that started it (`sdk-ts` from the Agent SDK).
pub(crate) const ENTRYPOINT_ENV: &str = "CLAUDE_CODE_ENTRYPOINT";

/// Which program started the Claude Code a gateway serves, so a mode refusal names the switch
/// that exists there. Set once per gateway (`TurnSettings::surface`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Surface {
    /// The `multi-cursor` launcher's interactive session (or `serve`) in a terminal: Shift+Tab.
    #[default]
    Terminal,
    /// The launcher in print mode (`multi-cursor -p`): no Shift+Tab, only `--permission-mode`.
    Print,
    /// `multi-cursor-claude` started by the VS Code panel (or by a program that does not say
    /// it is the Agent SDK): the panel's mode menu and its settings.
    Panel,
    /// `multi-cursor-claude` started by the Agent SDK (`CLAUDE_CODE_ENTRYPOINT` `sdk-…`: the
    /// TypeScript SDK sets `sdk-ts` unless its caller set one, as read in 0.3.337's `sdk.mjs`):
    /// its `permissionMode` option.
    Sdk,
}

impl Surface {
    /// The wrapper's surface from the `CLAUDE_CODE_ENTRYPOINT` its starter set: `sdk-ts`,
    /// `sdk-py`, … are the Agent SDK; anything else (the VS Code extension's own) the panel.
    pub(crate) fn of_wrapper(entrypoint: Option<&str>) -> Surface {
        match entrypoint {
            Some(entry) if entry.starts_with("sdk") => Surface::Sdk,
            _ => Surface::Panel,
        }
    }
}

/// Why Cursor may not run under the session's current settings. Messages name the fix.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub(crate) enum PolicyRefusal {
    /// Cursor's own configuration lets it act without asking beyond what the session's mode
    /// (accept edits, auto, don't ask with edits pre-approved) allows: `items` names each
    /// setting and its file.
    #[error(
        "Cursor did not run: in {mode}, Cursor edits files and runs only what its own allowlist names, refusing everything else, but your Cursor configuration lets it do more without asking: {items}. Remove those entries (or set \"approvalMode\" to \"allowlist\"), or {read_only}, then send your message again."
    )]
    CursorWidened {
        /// The mode as the footer names it, with its setting value.
        mode: String,
        items: String,
        /// How to reach a read-only mode where Claude Code runs.
        read_only: &'static str,
    },
    #[error(
        "Cursor has MCP servers configured ({files}); in print mode Cursor would wait on an approval prompt nobody can answer. Set {APPROVE_MCPS_ENV}=1 and restart multi-cursor to let Cursor use them, or remove them from those files."
    )]
    McpNotApproved { files: String },
    /// Claude's permission settings would not bind Cursor (the message lists each rule, its
    /// file and the fix).
    #[error("{0}")]
    Settings(SettingsRefusal),
}

impl From<SettingsRefusal> for PolicyRefusal {
    fn from(refusal: SettingsRefusal) -> Self {
        PolicyRefusal::Settings(refusal)
    }
}

impl ClaudeMode {
    /// The mode as Claude Code's footer and Shift+Tab name it, with the setting's value in
    /// brackets: "manual mode (default)", "accept edits (acceptEdits)".
    pub(crate) fn label(self) -> &'static str {
        match self {
            ClaudeMode::Default => "manual mode (default)",
            ClaudeMode::AcceptEdits => "accept edits (acceptEdits)",
            ClaudeMode::Plan => "plan mode (plan)",
            ClaudeMode::DontAsk => "don't ask mode (dontAsk)",
            ClaudeMode::BypassPermissions => "bypass permissions (bypassPermissions)",
            ClaudeMode::Auto => "auto mode (auto)",
        }
    }
}

/// What decides a turn's Cursor flags besides the mode: what the installed CLI offers and what
/// the user's settings and the request say.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ModeFacts<'a> {
    /// The installed CLI lists `--auto-review`.
    pub supports_auto_review: bool,
    /// Its `--version`, for the note when it lacks `--auto-review`.
    pub cli_version: &'a str,
    /// Claude's allow rules pre-approve every edit (`Edit` or `Write`, unscoped or `(**)`).
    pub edits_preapproved: bool,
    /// Entries in the user's Claude auto-mode rules (the request's classifier context), which
    /// Cursor's auto review never sees.
    pub auto_rules: usize,
    /// Where Claude Code runs, for the words of a note.
    pub surface: Surface,
}

/// A turn's Cursor flags and, when Cursor may do less than the mode's name suggests, the
/// `[Cursor]` line that says so first in the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ModePlan {
    pub cursor: CursorMode,
    pub note: Option<String>,
}

impl ModePlan {
    fn quiet(cursor: CursorMode) -> Self {
        ModePlan { cursor, note: None }
    }

    fn read_only(note: String) -> Self {
        ModePlan {
            cursor: CursorMode::Ask,
            note: Some(format!("[Cursor] {note}")),
        }
    }

    /// Whether Cursor may edit or run commands without `--force`, bound only by its own
    /// allowlist or auto review: the plans Cursor's own configuration must not widen.
    pub(crate) fn bounded_by_cursor_config(&self) -> bool {
        matches!(self.cursor, CursorMode::Allowlist | CursorMode::AutoReview)
    }
}

/// How to give Cursor edits from inside Claude Code, in the words of where it runs, as a
/// sentence.
pub(crate) fn how_to_allow_edits(surface: Surface) -> &'static str {
    match surface {
        Surface::Terminal => "Shift+Tab to accept edits lets Cursor edit",
        Surface::Print => "Run with `--permission-mode acceptEdits` to let Cursor edit",
        Surface::Panel => {
            "Choosing accept edits in the mode menu below the prompt (or `claudeCode.initialPermissionMode`: `acceptEdits`) lets Cursor edit"
        }
        Surface::Sdk => {
            "The SDK's `permissionMode: \"acceptEdits\"` (Python: `permission_mode=\"acceptEdits\"`) lets Cursor edit"
        }
    }
}

/// How to reach a read-only mode, in the words of where Claude Code runs.
pub(crate) fn how_to_read_only(surface: Surface) -> &'static str {
    match surface {
        Surface::Terminal => "Shift+Tab to plan mode to keep Cursor read-only",
        Surface::Print => "run with `--permission-mode plan` to keep Cursor read-only",
        Surface::Panel => {
            "choose plan mode in the mode menu below the prompt to keep Cursor read-only"
        }
        Surface::Sdk => {
            "set the SDK's `permissionMode: \"plan\"` (Python: `permission_mode=\"plan\"`) to keep Cursor read-only"
        }
    }
}

/// The Cursor flags for the session's Claude mode: never more than the mode allows, and when
/// that is less than its name suggests, a note saying so (Cursor's print mode cannot ask the
/// user anything, so every action Claude would ask about is one Cursor may not take).
///
/// | Claude mode | Cursor |
/// |---|---|
/// | manual (`default`), or none reported yet | read-only (`--mode ask`), with a note |
/// | accept edits | its allowlist (no `--force`): edits and allowlisted commands, the rest refused |
/// | plan | `--mode plan` |
/// | auto | `--auto-review`; read-only with a note when Claude's auto-mode rules exist; the allowlist with a note when the CLI lacks it |
/// | don't ask | the allowlist when Claude's allow rules pre-approve edits, else read-only with a note |
/// | bypass permissions | `--force` |
pub(crate) fn cursor_mode(mode: Option<ClaudeMode>, facts: &ModeFacts<'_>) -> ModePlan {
    let edits = how_to_allow_edits(facts.surface);
    let Some(mode) = mode else {
        return ModePlan::read_only(format!(
            "Cursor answered read-only: Claude Code has not reported this session's permission mode yet (your next message runs in the mode it shows). {edits}."
        ));
    };
    match mode {
        ClaudeMode::Plan => ModePlan::quiet(CursorMode::Plan),
        ClaudeMode::BypassPermissions => ModePlan::quiet(CursorMode::Force),
        ClaudeMode::AcceptEdits => ModePlan::quiet(CursorMode::Allowlist),
        ClaudeMode::Default => ModePlan::read_only(format!(
            "Cursor answered read-only: in manual mode it cannot ask you before acting. {edits}."
        )),
        ClaudeMode::DontAsk if facts.edits_preapproved => ModePlan::quiet(CursorMode::Allowlist),
        ClaudeMode::DontAsk => ModePlan::read_only(format!(
            "Cursor answered read-only: in don't ask mode only what your Claude allow rules pre-approve may run, and they do not pre-approve edits. {edits}, and so does adding \"Edit\" to \"permissions.allow\" in your Claude settings."
        )),
        ClaudeMode::Auto if facts.auto_rules > 0 => ModePlan::read_only(format!(
            "Cursor answered read-only: Cursor's auto review cannot see your Claude auto-mode rules ({} in \"autoMode\"), so it could allow what they block. {edits} (its own allowlist then decides), and so does moving those rules out of \"autoMode\".",
            facts.auto_rules
        )),
        ClaudeMode::Auto if facts.supports_auto_review => ModePlan::quiet(CursorMode::AutoReview),
        ClaudeMode::Auto => ModePlan {
            cursor: CursorMode::Allowlist,
            note: Some(format!(
                "[Cursor] The installed Cursor CLI ({}) has no auto review (`--auto-review`), so Cursor ran as in accept edits: edits and the commands its allowlist names, everything else refused. Update it with `agent update`.",
                facts.cli_version
            )),
        },
    }
}

/// Refuses a plan bounded by Cursor's own configuration ([`ModePlan::bounded_by_cursor_config`])
/// when that configuration lets Cursor act without asking (`widening`: an `approvalMode` other
/// than `allowlist`, or a catch-all allow entry, each with its file).
pub(crate) fn check_not_widened(
    mode: Option<ClaudeMode>,
    plan: &ModePlan,
    widening: &[String],
    surface: Surface,
) -> Result<(), PolicyRefusal> {
    if !plan.bounded_by_cursor_config() || widening.is_empty() {
        return Ok(());
    }
    Err(PolicyRefusal::CursorWidened {
        mode: mode.map_or("this mode", ClaudeMode::label).to_string(),
        items: widening.join("; "),
        read_only: how_to_read_only(surface),
    })
}

/// The policy a turn runs under, as recorded and as part of its exchange key: the Claude mode,
/// the Cursor flags it became, whether MCP servers were approved, and the Claude rules it was
/// admitted under with the Cursor config enforcing each. Two requests that differ only in policy
/// are different exchanges (a retry after a mode switch, or a rule mirrored, runs again).
pub(crate) fn describe(
    mode: Option<ClaudeMode>,
    cursor: CursorMode,
    approve_mcps: bool,
    admitted: &Admitted,
) -> String {
    let flags = cursor.flags().join(" ");
    format!(
        "mode={}; cursor=[{}]; mcps={}; {}",
        mode.map_or("unreported", ClaudeMode::as_str),
        flags,
        if approve_mcps { "approved" } else { "off" },
        admitted.description()
    )
}

/// Cursor MCP configuration files that exist for `workspace`: the project's
/// `.cursor/mcp.json` and the user's `~/.cursor/mcp.json`.
pub(crate) fn mcp_config_files(workspace: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let mut candidates = vec![joined(workspace, ".cursor/mcp.json")];
    if let Some(home) = home {
        candidates.push(joined(home, ".cursor/mcp.json"));
    }
    candidates.into_iter().filter(|p| p.is_file()).collect()
}

/// Refuses before spawning when MCP servers are configured and the user has not opted in.
pub(crate) fn check_mcp(
    workspace: &Path,
    home: Option<&Path>,
    approved: bool,
) -> Result<(), PolicyRefusal> {
    if approved {
        return Ok(());
    }
    let files = mcp_config_files(workspace, home);
    if files.is_empty() {
        return Ok(());
    }
    Err(PolicyRefusal::McpNotApproved {
        files: files
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> ModeFacts<'static> {
        ModeFacts {
            supports_auto_review: true,
            cli_version: "2026.10.01-abc",
            ..ModeFacts::default()
        }
    }

    #[test]
    fn modes_map_to_what_cursor_can_honestly_do() {
        let plan = |mode, facts: &ModeFacts<'_>| cursor_mode(Some(mode), facts);
        let quiet = |cursor| ModePlan { cursor, note: None };
        assert_eq!(plan(ClaudeMode::Plan, &facts()), quiet(CursorMode::Plan));
        assert_eq!(
            plan(ClaudeMode::BypassPermissions, &facts()),
            quiet(CursorMode::Force)
        );
        assert_eq!(
            plan(ClaudeMode::AcceptEdits, &facts()),
            quiet(CursorMode::Allowlist)
        );
        assert_eq!(
            plan(ClaudeMode::Auto, &facts()),
            quiet(CursorMode::AutoReview)
        );

        let manual = plan(ClaudeMode::Default, &facts());
        assert_eq!(manual.cursor, CursorMode::Ask);
        assert_eq!(
            manual.note.as_deref(),
            Some(
                "[Cursor] Cursor answered read-only: in manual mode it cannot ask you before acting. Shift+Tab to accept edits lets Cursor edit."
            )
        );
        let unknown = cursor_mode(None, &facts());
        assert_eq!(unknown.cursor, CursorMode::Ask);
        assert!(unknown.note.unwrap().contains("not reported"));

        let dont_ask = plan(ClaudeMode::DontAsk, &facts());
        assert_eq!(dont_ask.cursor, CursorMode::Ask);
        assert!(dont_ask.note.unwrap().contains("\"permissions.allow\""));
        let preapproved = ModeFacts {
            edits_preapproved: true,
            ..facts()
        };
        assert_eq!(
            plan(ClaudeMode::DontAsk, &preapproved),
            quiet(CursorMode::Allowlist)
        );

        let with_rules = ModeFacts {
            auto_rules: 2,
            ..facts()
        };
        let auto = plan(ClaudeMode::Auto, &with_rules);
        assert_eq!(auto.cursor, CursorMode::Ask);
        assert!(auto.note.unwrap().contains("2 in \"autoMode\""));
        let old_cli = ModeFacts {
            supports_auto_review: false,
            ..facts()
        };
        let auto = plan(ClaudeMode::Auto, &old_cli);
        assert_eq!(auto.cursor, CursorMode::Allowlist, "never more than auto");
        let note = auto.note.unwrap();
        assert!(
            note.contains("agent update") && note.contains("2026.10.01-abc"),
            "{note}"
        );
    }

    #[test]
    fn the_wrapper_tells_the_sdk_from_the_panel() {
        assert_eq!(Surface::of_wrapper(Some("sdk-ts")), Surface::Sdk);
        assert_eq!(Surface::of_wrapper(Some("sdk-py")), Surface::Sdk);
        assert_eq!(Surface::of_wrapper(Some("claude-vscode")), Surface::Panel);
        assert_eq!(Surface::of_wrapper(None), Surface::Panel);
    }

    #[test]
    fn notes_and_refusals_name_only_reachable_switches() {
        for mode in [None, Some(ClaudeMode::Default), Some(ClaudeMode::DontAsk)] {
            let on = |surface| ModeFacts { surface, ..facts() };
            let note = cursor_mode(mode, &on(Surface::Panel)).note.unwrap();
            assert!(!note.contains("Shift+Tab"), "{note}");
            assert!(note.contains("mode menu"), "{note}");
            let note = cursor_mode(mode, &on(Surface::Print)).note.unwrap();
            assert!(!note.contains("Shift+Tab"), "{note}");
            assert!(note.contains("--permission-mode acceptEdits"), "{note}");
            let note = cursor_mode(mode, &on(Surface::Sdk)).note.unwrap();
            assert!(
                !note.contains("Shift+Tab") && !note.contains("mode menu"),
                "{note}"
            );
            assert!(note.contains("permissionMode: \"acceptEdits\""), "{note}");
            let note = cursor_mode(mode, &facts()).note.unwrap();
            assert!(note.contains("Shift+Tab to accept edits"), "{note}");
            for unreachable in ["bypassPermissions", "--permission-mode", "\"default\""] {
                assert!(!note.contains(unreachable), "{note}");
            }
        }
        let plan = cursor_mode(Some(ClaudeMode::AcceptEdits), &facts());
        let widening = vec!["allow `Shell(*)` in /w/.cursor/cli.json".to_string()];
        let refusal = check_not_widened(
            Some(ClaudeMode::AcceptEdits),
            &plan,
            &widening,
            Surface::Terminal,
        )
        .unwrap_err()
        .to_string();
        assert!(
            refusal.contains("in accept edits (acceptEdits)"),
            "{refusal}"
        );
        assert!(
            refusal.contains("allow `Shell(*)` in /w/.cursor/cli.json"),
            "{refusal}"
        );
        assert!(refusal.contains("Shift+Tab to plan mode"), "{refusal}");
        let read_only = cursor_mode(Some(ClaudeMode::Plan), &facts());
        assert!(
            check_not_widened(
                Some(ClaudeMode::Plan),
                &read_only,
                &widening,
                Surface::Terminal
            )
            .is_ok()
        );
        let force = cursor_mode(Some(ClaudeMode::BypassPermissions), &facts());
        assert!(
            check_not_widened(
                Some(ClaudeMode::BypassPermissions),
                &force,
                &widening,
                Surface::Terminal
            )
            .is_ok()
        );
    }

    #[test]
    fn mcp_files_need_opt_in() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_mcp(dir.path(), None, false).is_ok());
        std::fs::create_dir(dir.path().join(".cursor")).unwrap();
        std::fs::write(dir.path().join(".cursor/mcp.json"), "{}").unwrap();
        let refusal = check_mcp(dir.path(), None, false).unwrap_err();
        assert!(refusal.to_string().contains("MULTI_CURSOR_APPROVE_MCPS=1"));
        let file = format!(".cursor{}mcp.json", std::path::MAIN_SEPARATOR);
        assert!(refusal.to_string().contains(&file), "{refusal}");
        assert!(check_mcp(dir.path(), None, true).is_ok());
    }
}
