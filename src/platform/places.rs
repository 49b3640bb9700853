//! Where people's tools and files live on each system, and how messages name those places in
//! the words of that system: the home folder (`HOME` on Unix; `USERPROFILE` on Windows, as
//! Node's `os.homedir()` reads it for Claude Code and Cursor's CLI, which never look at a `HOME`
//! that Git Bash sets), and the folders the official installers of Cursor's CLI and Claude Code
//! put them in when they are not on PATH.

use std::ffi::OsString;
use std::path::Path;
use std::path::PathBuf;

/// The variable naming the home folder here.
pub const HOME_VAR: &str = if cfg!(windows) { "USERPROFILE" } else { "HOME" };

/// The home folder, from [`HOME_VAR`] (`None` when unset or empty).
pub(crate) fn home() -> Option<OsString> {
    std::env::var_os(HOME_VAR).filter(|home| !home.is_empty())
}

/// Where Cursor's installer puts the agent: `~/.local/bin` (`curl https://cursor.com/install`),
/// on Windows `%LOCALAPPDATA%\cursor-agent` (its PowerShell installer's folder, holding
/// `agent.cmd` beside the `versions` folder), taken as `<home>\AppData\Local\cursor-agent`.
pub(crate) fn agent_install_dirs(home: &Path) -> Vec<PathBuf> {
    if cfg!(windows) {
        vec![home.join("AppData").join("Local").join("cursor-agent")]
    } else {
        vec![home.join(".local").join("bin")]
    }
}

/// [`agent_install_dirs`] as messages name them.
pub(crate) const AGENT_INSTALL_DIRS_SHOWN: &str = if cfg!(windows) {
    r"%LOCALAPPDATA%\cursor-agent"
} else {
    "~/.local/bin"
};

/// How to install Cursor's CLI here, for messages.
pub(crate) const AGENT_INSTALL_COMMAND: &str = if cfg!(windows) {
    r"`irm 'https://cursor.com/install?win32=true' | iex` in PowerShell (it puts `agent` in %LOCALAPPDATA%\cursor-agent)"
} else {
    "`curl https://cursor.com/install -fsS | bash` (it puts `agent` in ~/.local/bin)"
};

/// Where Claude Code's own installers put `claude` when it is not on PATH: the native
/// installer's `~/.local/bin` and the older local install's `~/.claude/local`.
pub(crate) fn claude_install_dirs(home: &Path) -> Vec<PathBuf> {
    vec![
        home.join(".local").join("bin"),
        home.join(".claude").join("local"),
    ]
}

/// [`claude_install_dirs`] with the executable, as messages name them.
pub(crate) const CLAUDE_INSTALL_DIRS_SHOWN: &str = if cfg!(windows) {
    r"%USERPROFILE%\.local\bin\claude.exe and %USERPROFILE%\.claude\local\claude.exe"
} else {
    "~/.local/bin/claude and ~/.claude/local/claude"
};
