//! A Cursor row chosen with `/model` in a launched session (real Claude Code under tmux) is
//! saved by Claude Code into the user's settings.json; when the session ends, by Ctrl-C or by
//! killing the launcher (then at the next `multi-cursor` command), the model saved before comes
//! back and every other byte of the file is as Claude Code left it (Claude Code itself rewrites
//! the whole file when it saves `/model`: its key order and spacing, not ours), so plain
//! `claude` starts where the user left it. The next launch starts on the Cursor row chosen last
//! and shows it.

use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;
use std::time::Instant;

use multi_cursor::platform::process_ended;
use multi_cursor_test_support::launcher;
use multi_cursor_test_support::tmux::Tmux;

use launcher::Launch;

const WAIT: Duration = Duration::from_secs(60);
const ROUTE: &str = "multi/cursor/composer-2.5";
/// The user's own settings, with their own spacing.
const SETTINGS: &str = "{\n  \"model\": \"claude-sonnet-4-6\",\n  \"theme\": \"dark\",\n    \"permissions\": { \"allow\": [\"Bash(ls)\"] }\n}\n";

fn settings(launch: &Launch) -> PathBuf {
    launch.home.join(".claude/settings.json")
}

/// Waits until `path` reads something `done` accepts; panics with what it read.
fn wait_for_file(path: &Path, what: &str, done: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + WAIT;
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if done(&text) {
            return text;
        }
        assert!(
            Instant::now() < deadline,
            "{what}: {} holds {text}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The user's settings as values.
fn value(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

/// Starts the launched session and picks the Cursor row with `/model`, which Claude Code saves;
/// the file as Claude Code wrote it, and what putting the model back must make of it.
fn pick_cursor_row(launch: &Launch) -> (Tmux, String) {
    let tmux = Tmux::start(launch.dir.path(), &launch.script());
    tmux.keep_after_exit();
    tmux.wait_for("the prompt", WAIT, |pane| {
        pane.contains("Claude Code v") && pane.contains("mode on")
    });
    tmux.type_line(&format!("/model {ROUTE}"));
    let saved = wait_for_file(&settings(launch), "Claude Code saving /model", |text| {
        text.contains(ROUTE)
    });
    let mut chosen = value(SETTINGS);
    chosen["model"] = ROUTE.into();
    assert_eq!(value(&saved), chosen, "Claude Code saved only the model");
    let put_back = saved.replace(&format!("\"{ROUTE}\""), "\"claude-sonnet-4-6\"");
    (tmux, put_back)
}

#[test]
fn ctrl_c_puts_the_saved_model_back_and_the_next_launch_starts_on_the_row() {
    let launch = Launch::real();
    std::fs::write(settings(&launch), SETTINGS).unwrap();
    let (tmux, put_back) = pick_cursor_row(&launch);
    tmux.send(&["C-c"]);
    std::thread::sleep(Duration::from_millis(500));
    tmux.send(&["C-c"]);
    let back = wait_for_file(&settings(&launch), "the put-back after Ctrl-C", |text| {
        !text.contains(ROUTE)
    });
    assert_eq!(back, put_back, "only the model changed back");
    assert_eq!(value(&back), value(SETTINGS));
    drop(tmux);

    // The next launch, with no --model: on the row chosen last, shown on its first screen.
    let second = launch.dir.path().join("second");
    std::fs::create_dir_all(&second).unwrap();
    let tmux = Tmux::start(&second, &launch.script());
    tmux.keep_after_exit();
    let pane = tmux.wait_for("the first screen", WAIT, |pane| {
        pane.contains("Claude Code v") && pane.contains("mode on")
    });
    // Claude Code's banner names the model it starts on.
    let banner = pane
        .lines()
        .skip_while(|line| !line.contains("Claude Code v"))
        .take(3)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        banner.contains(ROUTE) || banner.contains("Composer 2.5"),
        "{pane}"
    );
    // `/exit` once the prompt takes input: after the start-up hooks have spoken (typed while
    // Claude Code still starts, it is lost or joins the next one; Ctrl-U clears the line).
    tmux.wait_for("the start-up notice", WAIT, |pane| {
        pane.contains("SessionStart:startup says")
    });
    let launcher = tmux.pane_pid();
    let deadline = Instant::now() + WAIT;
    while !process_ended(launcher) {
        assert!(Instant::now() < deadline, "no end: {}", tmux.pane());
        tmux.send(&["C-u"]);
        tmux.type_line("/exit");
        let typed = Instant::now();
        while typed.elapsed() < Duration::from_secs(10) && !process_ended(launcher) {
            std::thread::sleep(Duration::from_millis(250));
        }
    }
    assert_eq!(
        std::fs::read_to_string(settings(&launch)).unwrap(),
        put_back,
        "starting on the row did not save it"
    );
}

#[test]
fn a_killed_launchers_model_is_put_back_by_the_next_command() {
    let launch = Launch::real();
    std::fs::write(settings(&launch), SETTINGS).unwrap();
    let (tmux, put_back) = pick_cursor_row(&launch);
    let launcher = tmux.pane_pid();
    let status = std::process::Command::new("kill")
        .args(["-KILL", &launcher.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = Instant::now() + WAIT;
    while !process_ended(launcher) {
        assert!(Instant::now() < deadline, "the launcher outlived SIGKILL");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        std::fs::read_to_string(settings(&launch))
            .unwrap()
            .contains(ROUTE),
        "nothing ran after the kill yet"
    );
    // The next multi-cursor command (any: here `status`).
    let output = std::process::Command::new(multi_cursor_test_support::multi_cursor_bin())
        .arg("status")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &launch.home)
        .env("MULTI_CURSOR_STATE_DIR", &launch.state)
        .output()
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(settings(&launch)).unwrap(),
        put_back,
        "{output:?}"
    );
}

#[test]
fn exit_leaves_no_model_when_none_was_saved_before() {
    let launch = Launch::real();
    let own = "{\n  \"theme\": \"dark\"\n}\n";
    std::fs::write(settings(&launch), own).unwrap();
    let tmux = Tmux::start(launch.dir.path(), &launch.script());
    tmux.keep_after_exit();
    tmux.wait_for("the prompt", WAIT, |pane| {
        pane.contains("Claude Code v") && pane.contains("mode on")
    });
    tmux.type_line(&format!("/model {ROUTE}"));
    wait_for_file(&settings(&launch), "Claude Code saving /model", |text| {
        text.contains(ROUTE)
    });
    tmux.type_line("/exit");
    let back = wait_for_file(&settings(&launch), "the put-back after /exit", |text| {
        !text.contains(ROUTE)
    });
    assert_eq!(value(&back), value(own), "no model, as before: {back}");
}
