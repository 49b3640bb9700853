//! The plugin as a user gets it: installed offline from this checkout's marketplace into an
//! isolated Claude Code HOME, and `claude -p "/multi-cursor:…"` runs through a test gateway.

use std::ffi::OsString;
use std::path::Path;
use std::path::PathBuf;

use crate::claude::ClaudeOutput;
use crate::claude::ClaudeRun;
use crate::gateway::TestGateway;

/// The marketplace's name in `.claude-plugin/marketplace.json`.
pub const MARKETPLACE: &str = "multi-cursor";

/// The Cursor route the command tests run on.
pub const CURSOR_MODEL: &str = "multi/cursor/composer-2.5";

/// This checkout: the marketplace folder.
pub fn checkout() -> PathBuf {
    crate::repo_root()
}

/// The folder holding the `multi-cursor` binary under test.
pub fn helper_dir() -> PathBuf {
    crate::multi_cursor_bin().parent().unwrap().to_path_buf()
}

/// PATH with the helper under test first, so the plugin's shim finds it there.
pub fn path_with_helper() -> OsString {
    let mut dirs = vec![helper_dir()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).unwrap()
}

/// `claude plugin marketplace add <checkout>` then `claude plugin install
/// multi-cursor@multi-cursor` in `home`, offline; returns the installed copy's folder.
pub fn install(home: &Path, project: &Path) -> PathBuf {
    let add = ClaudeRun::new(home, project)
        .env_remove("ANTHROPIC_API_KEY")
        .args(["plugin", "marketplace", "add"])
        .arg(checkout())
        .run();
    assert_eq!(add.status, Some(0), "marketplace add: {add:?}");
    assert!(
        add.stdout
            .contains("Successfully added marketplace: multi-cursor"),
        "{add:?}"
    );
    let install = ClaudeRun::new(home, project)
        .env_remove("ANTHROPIC_API_KEY")
        .args(["plugin", "install"])
        .arg(format!("multi-cursor@{MARKETPLACE}"))
        .run();
    assert_eq!(install.status, Some(0), "plugin install: {install:?}");
    installed_path(home)
}

/// Where `installed_plugins.json` says the plugin was copied.
pub fn installed_path(home: &Path) -> PathBuf {
    let text =
        std::fs::read_to_string(home.join(".claude/plugins/installed_plugins.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let entry = &json["plugins"][format!("multi-cursor@{MARKETPLACE}")][0];
    PathBuf::from(entry["installPath"].as_str().unwrap())
}

/// A `claude` run in `home`/`project` (plugin installed there) pointed at `gw`, with the
/// helper under test on PATH, the fake agent as Cursor for the helper too, and a private state
/// folder for the helper.
pub fn claude_through(gw: &TestGateway, home: &Path, project: &Path) -> ClaudeRun {
    ClaudeRun::new(home, project)
        .gateway(&gw.url, &gw.token)
        .env("PATH", path_with_helper())
        .env("MULTI_CURSOR_AGENT", crate::gateway::fake_agent())
        .env("MULTI_CURSOR_STATE_DIR", gw.dir.path().join("helper-state"))
        .env("FAKE_AGENT_LOG", &gw.agent_log)
}

/// Runs `prompt` (a slash command) on the Cursor route through `gw`.
pub fn run_command(run: ClaudeRun, prompt: &str) -> ClaudeOutput {
    run.args(["-p", prompt, "--model", CURSOR_MODEL]).run()
}

/// Runs the helper under test directly, as the command's `!` line would (stdout then stderr),
/// with `envs` and `dir` as working directory; returns (output lines, exit code).
pub fn helper_output(args: &[&str], envs: &[(&str, OsString)], dir: &Path) -> (Vec<String>, i32) {
    let mut command = std::process::Command::new(crate::multi_cursor_bin());
    command.args(args).current_dir(dir);
    for (key, value) in envs {
        command.env(key, value);
    }
    let output = command.output().unwrap();
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let lines = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect();
    (lines, output.status.code().unwrap())
}
