//! Every `MULTI_CURSOR_*` environment variable, documented once: this module is the only place
//! in `src/` where such a name is spelled (a repository test holds it), and the variable table
//! of `docs/environment.md` is generated from `VARIABLES` (a test fails when the committed
//! page differs; `UPDATE_GENERATED_DOCS=1 cargo test --lib generated` rewrites it).

use std::time::Duration;

/// Cursor's agent executable.
pub(crate) const AGENT_ENV: &str = "MULTI_CURSOR_AGENT";
/// Claude Code's executable.
pub(crate) const CLAUDE_ENV: &str = "MULTI_CURSOR_CLAUDE";
/// Where Claude models go.
pub(crate) const UPSTREAM_ENV: &str = "MULTI_CURSOR_UPSTREAM";
/// The state folder.
pub(crate) const STATE_DIR_ENV: &str = "MULTI_CURSOR_STATE_DIR";
/// Cursor ids added to the picker.
pub(crate) const EXTRA_MODELS_ENV: &str = "MULTI_CURSOR_EXTRA_MODELS";
/// `all`: every Cursor route the account can run is a `/model` row.
pub(crate) const PICKER_ENV: &str = "MULTI_CURSOR_PICKER";
/// The MCP opt-in.
pub(crate) const APPROVE_MCPS_ENV: &str = "MULTI_CURSOR_APPROVE_MCPS";
/// The first-event watchdog's bound, in seconds.
pub(crate) const FIRST_EVENT_ENV: &str = "MULTI_CURSOR_FIRST_EVENT_SECS";
/// Cursor sessions one gateway keeps open.
pub(crate) const MAX_SESSIONS_ENV: &str = "MULTI_CURSOR_MAX_SESSIONS";
/// Turns one gateway may start.
pub(crate) const BUDGET_TURNS_ENV: &str = "MULTI_CURSOR_BUDGET_TURNS";
/// Tokens one gateway's runs may use.
pub(crate) const BUDGET_TOKENS_ENV: &str = "MULTI_CURSOR_BUDGET_TOKENS";
/// Tokens all gateways may use since local midnight.
pub(crate) const BUDGET_DAILY_TOKENS_ENV: &str = "MULTI_CURSOR_BUDGET_DAILY_TOKENS";
/// The repeated-worker guard.
pub(crate) const LOOP_LIMIT_ENV: &str = "MULTI_CURSOR_LOOP_LIMIT";
/// The turn-rate guard.
pub(crate) const MAX_TURNS_PER_MINUTE_ENV: &str = "MULTI_CURSOR_MAX_TURNS_PER_MINUTE";
/// The status line switch.
pub(crate) const STATUSLINE_ENV: &str = "MULTI_CURSOR_STATUSLINE";
/// The log filter.
pub const LOG_ENV: &str = "MULTI_CURSOR_LOG";
/// The switch of the plugin the launcher loads.
pub(crate) const PLUGIN_ENV: &str = "MULTI_CURSOR_PLUGIN";
/// The `multi-cursor` executable the plugin's shim runs, set by the launcher.
pub(crate) const BIN_ENV: &str = "MULTI_CURSOR_BIN";
/// The gateway's URL, set by the launcher for hooks and commands inside the session.
pub(crate) const GATEWAY_URL_ENV: &str = "MULTI_CURSOR_GATEWAY_URL";
/// The gateway's token, set by the launcher beside [`GATEWAY_URL_ENV`].
pub(crate) const GATEWAY_TOKEN_ENV: &str = "MULTI_CURSOR_GATEWAY_TOKEN";
/// The prefix of both gateway variables, removed from every agent child's environment.
pub(crate) const GATEWAY_PREFIX: &str = "MULTI_CURSOR_GATEWAY_";
/// A turn's random marker (see `cursor::process`), set by the turn supervisor only.
pub(crate) const RUN_MARKER_ENV: &str = "MULTI_CURSOR_RUN_MARKER";
/// The Claude Code the end-to-end tests drive.
pub const TEST_CLAUDE_ENV: &str = "MULTI_CURSOR_TEST_CLAUDE";
/// The newest Claude Code, for the tests of what changed after the pinned one.
pub const TEST_CLAUDE_LATEST_ENV: &str = "MULTI_CURSOR_TEST_CLAUDE_LATEST";
/// The Agent SDK package the wrapper's SDK test drives.
pub const TEST_AGENT_SDK_ENV: &str = "MULTI_CURSOR_TEST_AGENT_SDK";

// What applies when a variable is unset, where that is a value: the code reads these, and the
// reference table prints them, so the page cannot drift from the code.

/// [`FIRST_EVENT_ENV`] unset: a real run's `system/init` comes within seconds.
pub(crate) const DEFAULT_FIRST_EVENT: Duration = Duration::from_secs(90);
/// [`MAX_SESSIONS_ENV`] unset: identities (and so Cursor processes) one gateway keeps open.
pub(crate) const DEFAULT_MAX_SESSIONS: usize = 32;
/// [`LOOP_LIMIT_ENV`] unset: the start of the same task that is refused, the third.
pub(crate) const DEFAULT_LOOP_LIMIT: u64 = 3;
/// [`MAX_TURNS_PER_MINUTE_ENV`] unset: turns a minute one gateway starts before refusing.
pub(crate) const DEFAULT_TURNS_PER_MINUTE: u64 = 60;
/// [`UPSTREAM_ENV`] and `ANTHROPIC_BASE_URL` unset: where requests for Claude models go.
pub(crate) const DEFAULT_UPSTREAM: &str = "https://api.anthropic.com";
/// [`LOG_ENV`] unset: warnings and errors only.
pub const DEFAULT_LOG_FILTER: &str = "warn";

#[cfg(test)]
/// Who a variable is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Audience {
    /// Set by the user to change what multi-cursor does.
    User,
    /// Set by multi-cursor for the processes it starts; read, never set, by the user.
    Ours,
    /// For working on multi-cursor: the tests and scripts.
    Development,
}

#[cfg(test)]
/// One variable: its name, what it does and what happens when it is unset.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Variable {
    pub name: &'static str,
    pub audience: Audience,
    pub meaning: &'static str,
    /// What applies when it is unset.
    pub default: Unset,
}

#[cfg(test)]
/// What applies when a variable is unset, as the reference table shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unset {
    /// Nothing (a variable multi-cursor sets itself).
    Nothing,
    /// What applies, in words (a value the code holds goes in [`Unset::Number`] or
    /// [`Unset::Value`] instead).
    Words(&'static str),
    /// A number from the code's constant.
    Number(u64),
    /// Words around a value from the code's constant: the value, as a code span, replaces the
    /// `{}` in the words.
    Value(&'static str, &'static str),
}

#[cfg(test)]
impl std::fmt::Display for Unset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unset::Nothing => Ok(()),
            Unset::Words(words) => f.write_str(words),
            Unset::Number(number) => write!(f, "{number}"),
            Unset::Value(words, value) => f.write_str(&words.replace("{}", &format!("`{value}`"))),
        }
    }
}

#[cfg(test)]
const fn user(name: &'static str, meaning: &'static str, default: Unset) -> Variable {
    Variable {
        name,
        audience: Audience::User,
        meaning,
        default,
    }
}

#[cfg(test)]
const fn ours(name: &'static str, meaning: &'static str) -> Variable {
    Variable {
        name,
        audience: Audience::Ours,
        meaning,
        default: Unset::Nothing,
    }
}

#[cfg(test)]
const fn development(name: &'static str, meaning: &'static str, default: Unset) -> Variable {
    Variable {
        name,
        audience: Audience::Development,
        meaning,
        default,
    }
}

#[cfg(test)]
/// Every variable, in the order the reference page lists them.
pub(crate) const VARIABLES: &[Variable] = &[
    user(
        AGENT_ENV,
        "Cursor agent executable",
        Unset::Words(
            "`cursor-agent`, then `agent` on PATH, then `~/.local/bin/cursor-agent`, `~/.local/bin/agent` (on Windows `.exe` or `.cmd`, and `%LOCALAPPDATA%\\cursor-agent` instead of `~/.local/bin`); an `agent` that is not Cursor's (Grok Build installs one) is skipped for the next",
        ),
    ),
    user(
        CLAUDE_ENV,
        "Claude Code executable",
        Unset::Words(
            "`claude` on PATH, then `~/.local/bin/claude`, `~/.claude/local/claude` (on Windows `claude.exe`, `~` being `%USERPROFILE%`)",
        ),
    ),
    user(
        UPSTREAM_ENV,
        "where non-Cursor models go (the launcher also sets it for Claude Code, so a `multi-cursor` started inside the session does not forward to this gateway)",
        Unset::Value("`ANTHROPIC_BASE_URL` if set, else {}", DEFAULT_UPSTREAM),
    ),
    user(
        STATE_DIR_ENV,
        "records, locks, catalog cache, the run ledger (0700; a symlink or a folder owned by another user is refused)",
        Unset::Words("the platform state folder for `multi-cursor`"),
    ),
    user(
        EXTRA_MODELS_ENV,
        "comma-separated Cursor ids added to the picker",
        Unset::Words("none"),
    ),
    user(
        PICKER_ENV,
        "`all`: every route the account can run is a `/model` row, in the order and with the labels `--cursor-models` shows (Claude Code 2.1.334+ searches a list past 25 rows, 2.1.335+ completes with Tab); `short`: the default list",
        Unset::Words("`short`: Auto, Grok 4.7, Composer 2.5 and `MULTI_CURSOR_EXTRA_MODELS`"),
    ),
    user(
        APPROVE_MCPS_ENV,
        "`1` lets Cursor use its configured MCP servers",
        Unset::Words("unset"),
    ),
    user(
        FIRST_EVENT_ENV,
        "seconds a Cursor run may take to write its first event before it is ended as one that never started (a CLI waiting on a dialog nobody can answer)",
        Unset::Number(DEFAULT_FIRST_EVENT.as_secs()),
    ),
    user(
        MAX_SESSIONS_ENV,
        "Cursor sessions (so Cursor processes) one gateway keeps open",
        Unset::Number(DEFAULT_MAX_SESSIONS as u64),
    ),
    user(
        BUDGET_TURNS_ENV,
        "Cursor turns one gateway (one launched session, its workers included) may start; the next is refused with 429 ([spend.md](spend.md#budgets))",
        Unset::Words("no limit"),
    ),
    user(
        BUDGET_TOKENS_ENV,
        "input + output tokens one gateway's Cursor runs may use before the next turn is refused",
        Unset::Words("no limit"),
    ),
    user(
        BUDGET_DAILY_TOKENS_ENV,
        "input + output tokens all your gateways may use since local midnight (summed from the ledger)",
        Unset::Words("no limit"),
    ),
    user(
        LOOP_LIMIT_ENV,
        "the start of a new Cursor worker with the same first message, within ten minutes in one Claude session, that is refused; `0` turns this guard off",
        Unset::Number(DEFAULT_LOOP_LIMIT),
    ),
    user(
        MAX_TURNS_PER_MINUTE_ENV,
        "Cursor turns one gateway starts in a minute before refusing; `0` turns this guard off",
        Unset::Number(DEFAULT_TURNS_PER_MINUTE),
    ),
    user(
        STATUSLINE_ENV,
        "`0`: the launcher installs no Cursor status line, and a running `statusline` prints only your own line ([statusline.md](statusline.md))",
        Unset::Words("installed"),
    ),
    user(
        LOG_ENV,
        "log filter for stderr (`debug`, `multi_cursor=trace`, …)",
        Unset::Value("{}", DEFAULT_LOG_FILTER),
    ),
    user(
        PLUGIN_ENV,
        "`off` (or `0`, `false`, `no`): the launcher starts Claude Code without its own plugin (`--plugin-dir`), so an installed copy applies as in a plain session ([launching.md](launching.md#the-claude-code-plugin))",
        Unset::Words(
            "loaded: the `plugin/` folder beside the executable's `bin/`, else the copy compiled in, written once into the state folder",
        ),
    ),
    ours(
        GATEWAY_URL_ENV,
        "the gateway's URL, for the plugin's hooks and `multi-cursor status`/`statusline` inside a launched session; never given to Cursor",
    ),
    ours(
        GATEWAY_TOKEN_ENV,
        "the gateway's token, beside the URL; never given to Cursor, never logged",
    ),
    ours(
        BIN_ENV,
        "the launcher's own executable, for the plugin's `scripts/multi-cursor` shim, which runs it before looking anywhere else (also honoured when you set it)",
    ),
    ours(
        RUN_MARKER_ENV,
        "a turn's random marker in its agent's environment: a process group is ended only when its leader carries it (never inherited from another gateway)",
    ),
    development(
        TEST_CLAUDE_ENV,
        "the Claude Code executable the end-to-end tests drive; the tests that drive Claude Code fail with this fix when it is unset",
        Unset::Words("`scripts/test` sets `.tools/claude/node_modules/.bin/claude` (2.1.328)"),
    ),
    development(
        TEST_CLAUDE_LATEST_ENV,
        "the newest Claude Code, for the version-sensitive tests (strict validate, `claude doctor`, the TUI first contact, the launcher and wrapper end to end, the `Interrupt` hook); those tests fail with this fix when it is unset",
        Unset::Words(
            "`scripts/test` sets the `claude` of `.tools/claude-latest`: the build in the newest Agent SDK platform package (2.1.337 in 0.3.337)",
        ),
    ),
    development(
        TEST_AGENT_SDK_ENV,
        "the Agent SDK package the wrapper's SDK test drives",
        Unset::Words("`scripts/test` sets `.tools/agent-sdk/…` (0.3.337) when node is there"),
    ),
    development(
        "MULTI_CURSOR_FUZZ_SECONDS",
        "seconds per fuzz target in `scripts/fuzz`",
        Unset::Words("30; the release workflow uses 120"),
    ),
    development(
        "MULTI_CURSOR_FUZZ_SANITIZER",
        "`none` or `address` (needs a nightly toolchain) for `scripts/fuzz`",
        Unset::Words("`none`"),
    ),
];

#[cfg(test)]
/// The markdown table of `audience`'s variables (with a default column unless `Ours`).
pub(crate) fn reference_table(audience: Audience) -> String {
    let with_default = audience != Audience::Ours;
    let mut out = String::from(if with_default {
        "| variable | meaning | default |\n|---|---|---|\n"
    } else {
        "| variable | meaning |\n|---|---|\n"
    });
    for variable in VARIABLES.iter().filter(|v| v.audience == audience) {
        if with_default {
            out.push_str(&format!(
                "| `{}` | {} | {} |\n",
                variable.name, variable.meaning, variable.default
            ));
        } else {
            out.push_str(&format!("| `{}` | {} |\n", variable.name, variable.meaning));
        }
    }
    out
}

#[cfg(test)]
mod tests;
