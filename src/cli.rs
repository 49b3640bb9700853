//! The command-line surface: `multi-cursor [--cursor-login|--cursor-status|--cursor-models]
//! [-- claude args]` and the subcommands `serve`, `hook`, `status`, `rules`, `doctor`,
//! `statusline`. Parsing only; `main.rs` dispatches.

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;
use clap::Parser;
use clap::Subcommand;

use crate::policy::ClaudeMode;

/// Use Cursor's agent as a native coding worker inside Claude Code.
///
/// Without a subcommand, starts Claude Code through a local gateway: `/model
/// multi/cursor/composer-2.5` then answers from Cursor, the Agent tool's `multi-cursor` type
/// runs Cursor workers, and every other model still reaches Anthropic. Arguments after the
/// options (or after `--`) are passed to `claude` unchanged.
#[derive(Debug, Parser)]
#[command(name = "multi-cursor", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub cursor: CursorFlags,

    /// Arguments for `claude` (e.g. `-p "fix the build"`, `--resume <id>`).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "CLAUDE ARGS"
    )]
    pub claude_args: Vec<OsString>,
}

/// The account flags that act instead of launching Claude Code, as clap parses them; read them
/// through [`CursorFlags::action`].
#[derive(Debug, Args, Default)]
pub struct CursorFlags {
    /// Log in to Cursor in the browser (`agent login`); with NO_OPEN_BROWSER=1 the URL to open is printed.
    #[arg(long, conflicts_with_all = ["cursor_status", "cursor_models"])]
    cursor_login: bool,

    /// Say who is logged in to Cursor, or that CURSOR_API_KEY is in use (never the key).
    #[arg(long, conflicts_with = "cursor_models")]
    cursor_status: bool,

    /// List every Cursor model route this account can run (always asks Cursor).
    #[arg(long)]
    cursor_models: bool,

    /// With --cursor-models: print the routes as a JSON array.
    #[arg(long, requires = "cursor_models")]
    json: bool,

    /// With --cursor-login: print the link to open and return at once (NO_OPEN_BROWSER=1); the
    /// login finishes in the background once approved. Used by /multi-cursor:login.
    #[arg(long, requires = "cursor_login")]
    no_wait: bool,
}

impl CursorFlags {
    /// The account action the flags ask for; `None` when none was given (launch Claude Code or
    /// run the subcommand). The flags conflict with one another, so at most one applies.
    pub fn action(&self) -> Option<AccountAction> {
        if self.cursor_login {
            Some(if self.no_wait {
                AccountAction::LoginNoWait
            } else {
                AccountAction::Login
            })
        } else if self.cursor_status {
            Some(AccountAction::Status)
        } else if self.cursor_models {
            Some(if self.json {
                AccountAction::ModelsJson
            } else {
                AccountAction::ModelsTable
            })
        } else {
            None
        }
    }
}

/// What an account flag asks for instead of launching Claude Code; `main` dispatches on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountAction {
    /// `--cursor-login`: `agent login`, waiting until the browser login is approved.
    Login,
    /// `--cursor-login --no-wait`: start the login, print the link, return at once.
    LoginNoWait,
    /// `--cursor-status`: who is logged in to Cursor, and which agent answers.
    Status,
    /// `--cursor-models`: the routes as a table for people.
    ModelsTable,
    /// `--cursor-models --json`: the routes as a JSON array.
    ModelsJson,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the gateway alone (what the launcher starts for Claude Code).
    Serve(ServeArgs),
    /// Forward one Claude Code hook payload (stdin) to the running gateway; prints nothing.
    Hook,
    /// Show the running gateway's state: agent, login, each session's mode, live Cursor runs.
    Status {
        /// Print the gateway's JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show the rulebook Cursor follows in a workspace.
    Rules(RulesArgs),
    /// Show what Cursor runs used: the run ledger by day and by model (default: the last 30 days).
    Usage(UsageArgs),
    /// Check that everything multi-cursor needs is in place, each check with its fix.
    Doctor {
        /// Also run a real `claude -p` round trip through a private gateway against Cursor.
        #[arg(long)]
        live: bool,
    },
    /// Print the Cursor segment of Claude Code's status line for the session named in the
    /// status-line JSON on stdin (what the launcher installs as `statusLine`).
    Statusline(StatuslineArgs),
}

/// `multi-cursor statusline`.
#[derive(Debug, Args)]
pub struct StatuslineArgs {
    /// The user's own status-line command: run with the same stdin, its output first, ours
    /// appended to its last line.
    #[arg(long, value_name = "COMMAND", conflicts_with = "chain_hex")]
    pub chain: Option<String>,
    /// `--chain` with the command hex-encoded (what the launcher writes on Windows, where the
    /// status line may run under PowerShell, Git Bash or cmd: a hex word reads the same in all).
    #[arg(long, value_name = "HEX", value_parser = parse_hex_text, hide = true)]
    pub chain_hex: Option<String>,
}

impl StatuslineArgs {
    /// The user's chained command, however it was given.
    pub fn chained(&self) -> Option<&str> {
        self.chain.as_deref().or(self.chain_hex.as_deref())
    }
}

/// UTF-8 text from its hex encoding (`--chain-hex`).
fn parse_hex_text(hex: &str) -> Result<String, String> {
    let bytes = hex::decode(hex).map_err(|error| format!("not hex-encoded text: {error}"))?;
    String::from_utf8(bytes).map_err(|_| "the hex-encoded text is not UTF-8".to_owned())
}

/// `multi-cursor serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Loopback address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:0")]
    pub listen: SocketAddr,
    /// Write `{"url","token","pid"}` here (0600, atomically) once listening.
    #[arg(long)]
    pub ready_file: Option<PathBuf>,
    /// Permission mode for sessions no hook has reported a mode for.
    #[arg(long, value_enum)]
    pub permission_mode: Option<ClaudeMode>,
}

/// `multi-cursor usage`.
#[derive(Debug, Args)]
pub struct UsageArgs {
    /// First day counted: a number of days (`7d`, today included) or a date (`2026-11-30`).
    #[arg(long)]
    pub since: Option<String>,
    /// Only runs in this workspace folder.
    #[arg(long)]
    pub workspace: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `multi-cursor rules`.
#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Also show shadowed rules and why each rule applies.
    #[arg(long)]
    pub explain: bool,
    /// Workspace folder (default: the current directory).
    #[arg(long)]
    pub workspace: Option<PathBuf>,
    /// Files (relative to the workspace) whose matching glob rules to show.
    pub files: Vec<PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Cli {
        Cli::try_parse_from(std::iter::once("multi-cursor").chain(args.iter().copied())).unwrap()
    }

    #[test]
    fn the_status_line_chain_comes_plain_or_hex_encoded() {
        let chained = |args: &[&str]| match parse(args).command {
            Some(Command::Statusline(args)) => args.chained().map(str::to_owned),
            other => panic!("{other:?}"),
        };
        assert_eq!(chained(&["statusline"]), None);
        assert_eq!(
            chained(&["statusline", "--chain", "echo 'x'"]).as_deref(),
            Some("echo 'x'")
        );
        let hex = hex::encode("pwsh -File \"C:\\A B\\l.ps1\"");
        assert_eq!(
            chained(&["statusline", "--chain-hex", &hex]).as_deref(),
            Some("pwsh -File \"C:\\A B\\l.ps1\"")
        );
        let refused = |args: &[&str]| {
            Cli::try_parse_from(std::iter::once("multi-cursor").chain(args.iter().copied()))
                .unwrap_err()
                .to_string()
        };
        assert!(refused(&["statusline", "--chain-hex", "zz"]).contains("not hex-encoded text"));
        assert!(refused(&["statusline", "--chain-hex", "ff"]).contains("not UTF-8"));
        assert!(
            refused(&["statusline", "--chain", "a", "--chain-hex", "61"])
                .contains("cannot be used with")
        );
    }

    #[test]
    fn claude_args_pass_through() {
        let cli = parse(&["-p", "hi", "--model", "multi/cursor/composer-2.5"]);
        assert!(cli.command.is_none());
        assert_eq!(cli.claude_args.len(), 4);
        let cli = parse(&["--", "--cursor-models"]);
        assert_eq!(cli.claude_args, [OsString::from("--cursor-models")]);
        assert_eq!(cli.cursor.action(), None);
    }

    #[test]
    fn our_flags_and_subcommands() {
        assert_eq!(parse(&[]).cursor.action(), None);
        let cli = parse(&["--cursor-models", "--json"]);
        assert_eq!(cli.cursor.action(), Some(AccountAction::ModelsJson));
        let cli = parse(&["--cursor-models"]);
        assert_eq!(cli.cursor.action(), Some(AccountAction::ModelsTable));
        let cli = parse(&["--cursor-status"]);
        assert_eq!(cli.cursor.action(), Some(AccountAction::Status));
        let cli = parse(&["serve", "--permission-mode", "plan"]);
        assert!(matches!(cli.command, Some(Command::Serve(_))));
        let cli = parse(&["--cursor-login", "--no-wait"]);
        assert_eq!(cli.cursor.action(), Some(AccountAction::LoginNoWait));
        let cli = parse(&["--cursor-login"]);
        assert_eq!(cli.cursor.action(), Some(AccountAction::Login));
        assert!(
            Cli::try_parse_from(["multi-cursor", "--no-wait"]).is_err(),
            "--no-wait only with --cursor-login"
        );
        assert!(
            Cli::try_parse_from(["multi-cursor", "--cursor-login", "--cursor-status"]).is_err(),
            "one account action at a time"
        );
    }

    fn serve_mode(mode: &str) -> Option<ClaudeMode> {
        match parse(&["serve", "--permission-mode", mode]).command {
            Some(Command::Serve(args)) => args.permission_mode,
            other => panic!("not serve: {other:?}"),
        }
    }

    #[test]
    fn permission_modes_keep_claude_spellings() {
        for (spelling, mode) in [
            ("default", ClaudeMode::Default),
            ("manual", ClaudeMode::Default),
            ("acceptEdits", ClaudeMode::AcceptEdits),
            ("plan", ClaudeMode::Plan),
            ("dontAsk", ClaudeMode::DontAsk),
            ("bypassPermissions", ClaudeMode::BypassPermissions),
            ("auto", ClaudeMode::Auto),
        ] {
            assert_eq!(serve_mode(spelling), Some(mode), "{spelling}");
            assert_eq!(ClaudeMode::parse(spelling), Some(mode), "{spelling}");
        }
        assert_eq!(ClaudeMode::parse("bypasspermissions"), None);
    }

    #[test]
    fn a_bad_permission_mode_lists_the_valid_ones() {
        let error = Cli::try_parse_from(["multi-cursor", "serve", "--permission-mode", "yolo"])
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains("'yolo'"), "{error}");
        assert!(
            error.contains(
                "[possible values: default, acceptEdits, plan, dontAsk, bypassPermissions, auto]"
            ),
            "{error}"
        );
    }
}
