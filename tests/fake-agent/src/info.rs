//! The informational subcommands: `--help`, `--version`, `about`, `create-chat`, and the
//! real subcommands the fake only acknowledges.

use std::fs;
use std::io::Write;

use crate::auth;
use crate::cli::Invocation;
use crate::config;
use crate::error::Error;
use crate::invocation_log;
use crate::turn;

/// The version printed when neither `FAKE_AGENT_VERSION` nor `FAKE_AGENT_VERSION_FILE` is set.
pub(crate) const DEFAULT_VERSION: &str = "2026.09.18-9a7762b";

/// The real CLI's `--help` (captured from a real install), plus the later `--add-dir` and
/// `--auto-review` flags.
const HELP: &str = r#"Usage: agent [options] [command] [prompt...]

Start the Cursor Agent

Arguments:
  prompt                       Initial prompt for the agent

Options:
  -v, --version                Output the version number
  --api-key <key>              API key for authentication (can also use CURSOR_API_KEY env var)
  -H, --header <header>        Add custom header to agent requests (format: 'Name: Value', can be used multiple times)
  -p, --print                  Print responses to console (for scripts or non-interactive use). Has access to all tools,
                               including write and shell. (default: false)
  --output-format <format>     Output format (only works with --print): text | json | stream-json (default: "text")
  --stream-partial-output      Stream partial output as individual text deltas (only works with --print and stream-json
                               format) (default: false)
  -c, --cloud                  Start in cloud mode (open composer picker on launch) (default: false)
  --mode <mode>                Start in the given execution mode. plan: read-only/planning (analyze, propose plans, no
                               edits). ask: Q&A style for explanations and questions (read-only). (choices: "plan",
                               "ask")
  --plan                       Start in plan mode (shorthand for --mode=plan). Ignored if --cloud is passed. (default:
                               false)
  --resume [chatId]            Select a session to resume (default: false)
  --continue                   Continue previous session (default: false)
  --model <model>              Model to use (e.g., gpt-5, sonnet-4, sonnet-4-thinking)
  --list-models                List available models and exit (default: false)
  -f, --force                  Force allow commands unless explicitly denied (default: false)
  --yolo                       Alias for --force (Run Everything) (default: false)
  --auto-review                Let an automatic reviewer approve or deny tool calls instead of asking (default: false)
  --sandbox <mode>             Explicitly enable or disable sandbox mode (overrides config) (choices: "enabled",
                               "disabled")
  --approve-mcps               Automatically approve all MCP servers (default: false)
  --trust                      Trust the current workspace without prompting (only works with --print/headless mode)
                               (default: false)
  --workspace <path>           Workspace directory to use (defaults to current working directory)
  --add-dir <dir>              Add another directory to the workspace (can be used multiple times)
  -w, --worktree [name]        Start in an isolated git worktree at ~/.cursor/worktrees/<reponame>/<name>. If omitted, a
                               name is generated.
  --worktree-base <branch>     Branch or ref to base the new worktree on (default: current HEAD)
  --skip-worktree-setup        Skip running worktree setup scripts from .cursor/worktrees.json (default: false)
  -h, --help                   Display help for command

Commands:
  install-shell-integration    Install shell integration to ~/.zshrc
  uninstall-shell-integration  Remove shell integration from ~/.zshrc
  login                        Authenticate with Cursor. Set NO_OPEN_BROWSER to disable browser opening.
  logout                       Sign out and clear stored authentication
  mcp                          Manage MCP servers
  status|whoami                View authentication status
  models                       List available models for this account
  about                        Display version, system, and account information
  update                       Update Cursor Agent to the latest version
  create-chat                  Create a new empty chat and return its ID
  generate-rule|rule           Generate a new Cursor rule with interactive prompts
  agent [prompt...]            Start the Cursor Agent
  ls                           Resume a chat session
  resume                       Resume the latest chat session
  help [command]               Display help for command
"#;

/// Writes `bytes` to stdout.
fn write_stdout(bytes: &[u8]) -> Result<(), Error> {
    std::io::stdout()
        .write_all(bytes)
        .map_err(|error| Error::new(format!("writing stdout: {error}")))
}

/// The contents of the file named by `variable`, when set.
fn file_override(variable: &str) -> Result<Option<Vec<u8>>, Error> {
    config::path(variable)
        .map(|path| fs::read(&path).map_err(|error| Error::io("reading", &path, &error)))
        .transpose()
}

/// Answers `--help`: `FAKE_AGENT_HELP_FILE` verbatim, else the real CLI's help.
pub(crate) fn help(invocation: &Invocation) -> Result<i32, Error> {
    invocation_log::record_simple(invocation, "help")?;
    let bytes = file_override(config::HELP_FILE)?.unwrap_or_else(|| HELP.as_bytes().to_vec());
    write_stdout(&bytes)?;
    Ok(0)
}

/// The version string (`FAKE_AGENT_VERSION` or the default), without a newline.
fn version_string() -> String {
    config::non_empty(config::VERSION).unwrap_or_else(|| DEFAULT_VERSION.to_owned())
}

/// Answers `--version`: `FAKE_AGENT_VERSION_FILE` verbatim, else the version and a newline.
pub(crate) fn version(invocation: &Invocation) -> Result<i32, Error> {
    invocation_log::record_simple(invocation, "version")?;
    let bytes = match file_override(config::VERSION_FILE)? {
        Some(bytes) => bytes,
        None => format!("{}\n", version_string()).into_bytes(),
    };
    write_stdout(&bytes)?;
    Ok(0)
}

/// Answers `about` with the real CLI's key/value lines.
pub(crate) fn about(invocation: &Invocation) -> Result<i32, Error> {
    invocation_log::record_simple(invocation, "about")?;
    if !auth::logged_in(invocation) {
        return Ok(auth::fail_auth());
    }
    let email = auth::email();
    let text = format!(
        "About Cursor CLI\n\nCLI Version         {}\nModel               Auto\nOS                  {} ({})\nUser Email          {email}\n",
        version_string(),
        std::env::consts::OS,
        node_arch(),
    );
    write_stdout(text.as_bytes())?;
    Ok(0)
}

/// The architecture as Node (and so the real CLI) names it.
fn node_arch() -> &'static str {
    match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => other,
    }
}

/// Answers `create-chat`: prints a new chat id (`FAKE_AGENT_CHAT_ID` or fresh) and remembers it
/// in `FAKE_AGENT_CHATS_FILE`.
pub(crate) fn create_chat(invocation: &Invocation) -> Result<i32, Error> {
    invocation_log::record_simple(invocation, "create-chat")?;
    if !auth::logged_in(invocation) {
        return Ok(auth::fail_auth());
    }
    let chat_id = turn::new_chat_id();
    turn::remember_chat(&chat_id)?;
    println!("{chat_id}");
    Ok(0)
}

/// Acknowledges a real subcommand the fake does not model (`mcp`, `update`, …): exit 0, no
/// output.
pub(crate) fn other(invocation: &Invocation, name: &str) -> Result<i32, Error> {
    invocation_log::record_simple(invocation, name)?;
    Ok(0)
}
