//! The invocation of one Cursor turn: argv, environment and stdin.
//!
//! `agent -p --output-format stream-json --stream-partial-output --trust --workspace <dir>
//! --model=<id> [--resume=<chatId>] <mode flags>`; the prompt goes on stdin, which is then
//! closed. Credentials never appear in argv: `CURSOR_API_KEY` reaches the child only through
//! the environment it inherits, and other programs' credentials are removed from it
//! (`cursor::child_env`, applied to every agent child by `cursor::spawn`). Values that come
//! from elsewhere (a model id from Cursor's own list, a chat id from a record) are attached
//! with `=`, so one that looks like an option (`--force`) can never become a flag.

use std::ffi::OsString;
use std::path::PathBuf;

/// How Cursor may act during a turn; chosen from Claude's permission mode by the policy module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CursorMode {
    /// Claude `plan`: `--mode plan`, read-only; the plan arrives as a `createPlanToolCall`.
    Plan,
    /// Claude `dontAsk`: no `--force`; Cursor's own allowlist decides, the rest is rejected.
    Allowlist,
    /// Claude `bypassPermissions`: `--force` (Cursor's deny rules still apply).
    Force,
    /// Claude `auto`: `--auto-review`, Cursor's classifier-backed approvals.
    AutoReview,
    /// Read-only question answering (`--mode ask`), used for compaction summaries.
    Ask,
}

impl CursorMode {
    /// The mode's one spelling (`plan`, `allowlist`, `force`, `auto_review`, `ask`): its
    /// ledger lines' `mode`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CursorMode::Plan => "plan",
            CursorMode::Allowlist => "allowlist",
            CursorMode::Force => "force",
            CursorMode::AutoReview => "auto_review",
            CursorMode::Ask => "ask",
        }
    }

    /// The flags this mode adds to the turn's argv.
    pub(crate) fn flags(self) -> &'static [&'static str] {
        match self {
            CursorMode::Plan => &["--mode", "plan"],
            CursorMode::Allowlist => &[],
            CursorMode::Force => &["--force"],
            CursorMode::AutoReview => &["--auto-review"],
            CursorMode::Ask => &["--mode", "ask"],
        }
    }
}

/// Everything needed to start one Cursor turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnSpec {
    /// Canonical workspace folder (`--workspace`, and the child's working directory).
    pub workspace: PathBuf,
    /// Cursor model id passed to `--model` (e.g. `composer-2.5`, `auto`).
    pub model: String,
    /// Chat to resume, when the record has one.
    pub chat_id: Option<String>,
    /// Permission flags.
    pub mode: CursorMode,
    /// The user opted in to Cursor's MCP servers (`MULTI_CURSOR_APPROVE_MCPS=1`).
    pub approve_mcps: bool,
    /// The prompt text, written to stdin.
    pub prompt: String,
}

/// Credentials a Cursor child must not inherit, by name: other programs' credentials and our
/// own gateway token (Claude Code's custom headers carry it). The environment builder
/// (`cursor::child_env::is_denied`) removes these and everything of their shape; this list
/// names them for tests and readers.
pub const SCRUBBED_ENV: &[&str] = &[
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_CUSTOM_HEADERS",
    "ANTHROPIC_FOUNDRY_API_KEY",
    "AWS_BEARER_TOKEN_BEDROCK",
    "CLAUDE_CODE_OAUTH_TOKEN",
    "CLAUDE_CODE_OAUTH_REFRESH_TOKEN",
    "CLAUDE_CODE_SESSION_ACCESS_TOKEN",
    crate::env::GATEWAY_TOKEN_ENV,
    "OPENAI_API_KEY",
    "XAI_API_KEY",
];

impl TurnSpec {
    /// The turn's argv, without the program name.
    pub(crate) fn args(&self) -> Vec<OsString> {
        let mut args: Vec<OsString> = [
            "-p",
            "--output-format",
            "stream-json",
            "--stream-partial-output",
            "--trust",
            "--workspace",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        args.push(self.workspace.clone().into_os_string());
        args.push(format!("--model={}", self.model).into());
        if let Some(chat) = &self.chat_id {
            args.push(format!("--resume={chat}").into());
        }
        args.extend(self.mode.flags().iter().map(OsString::from));
        if self.approve_mcps {
            args.push("--approve-mcps".into());
        }
        args
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(mode: CursorMode, chat: Option<&str>) -> TurnSpec {
        TurnSpec {
            workspace: PathBuf::from("/w"),
            model: "composer-2.5".into(),
            chat_id: chat.map(str::to_string),
            mode,
            approve_mcps: false,
            prompt: "hi".into(),
        }
    }

    fn strings(spec: &TurnSpec) -> Vec<String> {
        spec.args()
            .into_iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    /// The ledger's `mode` values, as docs/spend.md lists them.
    #[test]
    fn each_mode_has_one_spelling() {
        let modes = [
            CursorMode::Plan,
            CursorMode::Allowlist,
            CursorMode::Force,
            CursorMode::AutoReview,
            CursorMode::Ask,
        ];
        let names: Vec<&str> = modes.into_iter().map(CursorMode::as_str).collect();
        assert_eq!(names, ["plan", "allowlist", "force", "auto_review", "ask"]);
    }

    #[test]
    fn first_turn_argv() {
        assert_eq!(
            strings(&spec(CursorMode::Force, None)),
            [
                "-p",
                "--output-format",
                "stream-json",
                "--stream-partial-output",
                "--trust",
                "--workspace",
                "/w",
                "--model=composer-2.5",
                "--force"
            ]
        );
    }

    #[test]
    fn every_named_credential_is_denied_by_the_builder() {
        for name in SCRUBBED_ENV {
            assert!(
                crate::cursor::child_env::is_denied(std::ffi::OsStr::new(name)),
                "{name}"
            );
        }
    }

    #[test]
    fn resume_and_plan() {
        let args = strings(&spec(CursorMode::Plan, Some("c1")));
        assert_eq!(args[8..], ["--resume=c1", "--mode", "plan"]);
        assert!(!args.iter().any(|a| a == "hi"), "prompt never in argv");
    }

    #[test]
    fn option_looking_values_stay_values() {
        let mut spec = spec(CursorMode::Allowlist, Some("--force"));
        spec.model = "-p".into();
        let args = strings(&spec);
        assert_eq!(args[7..], ["--model=-p", "--resume=--force"]);
        assert!(!args.contains(&"--force".to_string()), "{args:?}");
        assert_eq!(args.iter().filter(|a| *a == "-p").count(), 1, "{args:?}");
    }
}
