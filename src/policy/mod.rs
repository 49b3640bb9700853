//! Claude Code's permission modes and settings, and what they allow Cursor to do (see also
//! ARCHITECTURE.md "Policy parity").
//!
//! Cursor's print mode cannot ask the user anything, so only modes whose meaning Cursor can
//! honour without a prompt run: plan (`--mode plan`), dontAsk (Cursor's allowlist, the rest
//! rejected), bypassPermissions (`--force`) and auto (`--auto-review`, when the installed CLI
//! has it). default and acceptEdits are refused with the modes that work and how to switch.
//!
//! Claude's permission settings are admitted per request by [`admission::admit`]: read from
//! every source Claude Code reads ([`settings`]), each rule translated to Cursor's tokens
//! ([`translate`]) and looked up in Cursor's own config ([`cursor_config`]); whatever Cursor
//! would not be bound by refuses the request.

pub mod admission;
pub mod cursor_config;
pub mod settings;
pub mod translate;

pub use admission::Admitted;
pub use admission::SettingsRefusal;
pub use admission::admit;
pub(crate) use admission::admit_request;
pub(crate) use admission::status_text;
pub use settings::FlagSettings;
pub use settings::PolicyInputs;

use std::path::Path;
use std::path::PathBuf;

use serde::Serialize;
use thiserror::Error;

use crate::cursor::command::CursorMode;

/// Environment variable opting in to Cursor's configured MCP servers.
pub(crate) const APPROVE_MCPS_ENV: &str = "MULTI_CURSOR_APPROVE_MCPS";

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
    pub fn parse(value: &str) -> Option<Self> {
        <ClaudeMode as clap::ValueEnum>::from_str(value, false).ok()
    }

    /// The spelling Claude Code uses.
    pub fn as_str(self) -> &'static str {
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

/// Which program started the Claude Code a gateway serves, so a mode refusal names the switch
/// that exists there. Set once per gateway (`GatewayConfig::surface`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Surface {
    /// The `multi-cursor` launcher (or `serve`) in a terminal: Shift+Tab and `--permission-mode`.
    #[default]
    Terminal,
    /// `multi-cursor-claude`, started by the VS Code panel or the Agent SDK: Shift+Tab and the
    /// launcher's flags mean nothing there; the panel has a mode menu and settings.
    Wrapper,
}

/// Why Cursor may not run under the session's current settings. Messages name the fix.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub(crate) enum PolicyRefusal {
    #[error(
        "Cursor cannot run in Claude's \"{0}\" permission mode: Cursor's approval prompts cannot reach you from inside Claude Code. Modes that work with Cursor: plan (read-only), dontAsk (Cursor's own allowlist decides), bypassPermissions (everything but Cursor's deny rules) and auto (Cursor's auto review). Switch with Shift+Tab, or start with `multi-cursor --permission-mode <mode>`, then send your message again."
    )]
    UnsupportedMode(&'static str),
    /// [`PolicyRefusal::UnsupportedMode`] when Claude Code runs behind `multi-cursor-claude`.
    #[error(
        "Cursor cannot run in Claude's \"{0}\" permission mode: Cursor's approval prompts cannot reach you from inside Claude Code. Modes that work with Cursor: plan (read-only), dontAsk (Cursor's own allowlist decides), bypassPermissions (everything but Cursor's deny rules) and auto (Cursor's auto review). In the VS Code panel, choose Plan from the mode menu below the prompt, or Bypass once the setting `claudeCode.allowDangerouslySkipPermissions` is on; `claudeCode.initialPermissionMode` sets the mode new conversations start in (the Agent SDK's option is `permissionMode`). Then send your message again."
    )]
    UnsupportedModeInPanel(&'static str),
    #[error(
        "Claude's auto mode needs Cursor's auto review (`--auto-review`), which the installed Cursor CLI ({version}) does not offer. Update the Cursor CLI with `agent update`, or switch to plan, dontAsk or bypassPermissions (Shift+Tab)."
    )]
    AutoReviewMissing { version: String },
    #[error(
        "no Claude permission mode is known for this session yet. Send your message again from Claude Code (its prompt hook reports the mode), or start the gateway with `multi-cursor serve --permission-mode <mode>`."
    )]
    ModeUnknown,
    #[error(
        "Cursor has MCP servers configured ({files}); in print mode Cursor would wait on an approval prompt nobody can answer. Set {APPROVE_MCPS_ENV}=1 and restart multi-cursor to let Cursor use them, or remove them from those files."
    )]
    McpNotApproved { files: String },
    /// Claude's permission settings would not bind Cursor (the message lists each rule, its
    /// file and the fix).
    #[error("{0}")]
    Settings(SettingsRefusal),
}

impl PolicyRefusal {
    /// The refusal worded for `surface`: a mode refusal behind the wrapper names the panel's
    /// switches instead of Shift+Tab and the launcher's flag; every other refusal is unchanged.
    pub(crate) fn on(self, surface: Surface) -> Self {
        match (self, surface) {
            (PolicyRefusal::UnsupportedMode(mode), Surface::Wrapper) => {
                PolicyRefusal::UnsupportedModeInPanel(mode)
            }
            (refusal, _) => refusal,
        }
    }
}

impl From<SettingsRefusal> for PolicyRefusal {
    fn from(refusal: SettingsRefusal) -> Self {
        PolicyRefusal::Settings(refusal)
    }
}

/// The policy a turn runs under, as recorded and as part of its exchange key: the Claude mode,
/// the Cursor flags it became, whether MCP servers were approved, and the Claude rules it was
/// admitted under with the Cursor config enforcing each. Two requests that differ only in policy
/// are different exchanges (a retry after a mode switch, or a rule mirrored, runs again).
pub fn describe(
    mode: ClaudeMode,
    cursor: &CursorMode,
    approve_mcps: bool,
    admitted: &Admitted,
) -> String {
    let flags = cursor.flags().join(" ");
    format!(
        "mode={}; cursor=[{}]; mcps={}; {}",
        mode.as_str(),
        flags,
        if approve_mcps { "approved" } else { "off" },
        admitted.description()
    )
}

/// The Cursor flags for `mode`, or why it cannot run.
pub(crate) fn cursor_mode(
    mode: ClaudeMode,
    supports_auto_review: bool,
    cli_version: &str,
) -> Result<CursorMode, PolicyRefusal> {
    match mode {
        ClaudeMode::Plan => Ok(CursorMode::Plan),
        ClaudeMode::DontAsk => Ok(CursorMode::Allowlist),
        ClaudeMode::BypassPermissions => Ok(CursorMode::Force),
        ClaudeMode::Auto if supports_auto_review => Ok(CursorMode::AutoReview),
        ClaudeMode::Auto => Err(PolicyRefusal::AutoReviewMissing {
            version: cli_version.to_string(),
        }),
        ClaudeMode::Default | ClaudeMode::AcceptEdits => {
            Err(PolicyRefusal::UnsupportedMode(mode.as_str()))
        }
    }
}

/// Cursor MCP configuration files that exist for `workspace`: the project's
/// `.cursor/mcp.json` and the user's `~/.cursor/mcp.json`.
pub(crate) fn mcp_config_files(workspace: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let mut candidates = vec![workspace.join(".cursor/mcp.json")];
    if let Some(home) = home {
        candidates.push(home.join(".cursor/mcp.json"));
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

    #[test]
    fn modes_map() {
        assert_eq!(
            cursor_mode(ClaudeMode::Plan, false, "v"),
            Ok(CursorMode::Plan)
        );
        assert_eq!(
            cursor_mode(ClaudeMode::DontAsk, false, "v"),
            Ok(CursorMode::Allowlist)
        );
        assert_eq!(
            cursor_mode(ClaudeMode::BypassPermissions, false, "v"),
            Ok(CursorMode::Force)
        );
        assert_eq!(
            cursor_mode(ClaudeMode::Auto, true, "v"),
            Ok(CursorMode::AutoReview)
        );
        let refusal = cursor_mode(ClaudeMode::Auto, false, "2026.01.02-80e4d9b").unwrap_err();
        assert!(refusal.to_string().contains("agent update"));
        let refusal = cursor_mode(ClaudeMode::Default, true, "v").unwrap_err();
        assert!(refusal.to_string().contains("Shift+Tab"));
        assert!(refusal.to_string().contains("bypassPermissions"));
    }

    #[test]
    fn the_wrapper_names_the_panels_switches() {
        let refusal = cursor_mode(ClaudeMode::Default, true, "v").unwrap_err();
        assert_eq!(refusal.clone().on(Surface::Terminal), refusal);
        let panel = refusal.on(Surface::Wrapper).to_string();
        for want in [
            "\"default\" permission mode",
            "Plan from the mode menu",
            "claudeCode.allowDangerouslySkipPermissions",
            "claudeCode.initialPermissionMode",
        ] {
            assert!(panel.contains(want), "{want} in {panel}");
        }
        assert!(!panel.contains("Shift+Tab"), "{panel}");
        let other = PolicyRefusal::ModeUnknown;
        assert_eq!(other.clone().on(Surface::Wrapper), other);
    }

    #[test]
    fn mcp_files_need_opt_in() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_mcp(dir.path(), None, false).is_ok());
        std::fs::create_dir(dir.path().join(".cursor")).unwrap();
        std::fs::write(dir.path().join(".cursor/mcp.json"), "{}").unwrap();
        let refusal = check_mcp(dir.path(), None, false).unwrap_err();
        assert!(refusal.to_string().contains("MULTI_CURSOR_APPROVE_MCPS=1"));
        assert!(refusal.to_string().contains(".cursor/mcp.json"));
        assert!(check_mcp(dir.path(), None, true).is_ok());
    }
}
