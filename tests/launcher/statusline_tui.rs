//! The status line in the real Claude Code TUI (tmux): the launcher's `statusLine` runs in the
//! terminal and chains the user's own line; after a Cursor answer the line ends with the
//! session's Cursor spend (`Cursor composer-2.5 · 1 run · … in / … out`).

use std::path::Path;
use std::process::Command;
use std::time::Duration;
use std::time::Instant;

use multi_cursor_test_support::launcher;

use launcher::Launch;

/// A tmux server of the test's own (its socket in the test's folder), killed when dropped.
struct Tmux {
    socket: std::path::PathBuf,
}

impl Tmux {
    /// Starts `script` in a detached 160×40 session.
    fn start(dir: &Path, script: &Path) -> Tmux {
        let tmux = Tmux {
            socket: dir.join("tmux.sock"),
        };
        let status = tmux
            .command()
            .args(["new-session", "-d", "-s", "mc", "-x", "160", "-y", "40"])
            .arg(script)
            .status()
            .expect("tmux is installed");
        assert!(status.success());
        tmux
    }

    fn command(&self) -> Command {
        let mut command = Command::new("tmux");
        command.arg("-S").arg(&self.socket);
        command
    }

    /// The visible pane's text.
    fn pane(&self) -> String {
        let output = self
            .command()
            .args(["capture-pane", "-p", "-t", "mc"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    fn send(&self, keys: &[&str]) {
        let status = self
            .command()
            .args(["send-keys", "-t", "mc"])
            .args(keys)
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Waits until the pane shows something `seen` accepts; panics with the pane after
    /// `timeout`.
    fn wait_for(&self, what: &str, timeout: Duration, seen: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let pane = self.pane();
            if seen(&pane) {
                return pane;
            }
            assert!(
                Instant::now() < deadline,
                "waited {timeout:?} for {what}; the pane:\n{pane}"
            );
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.command().arg("kill-server").status();
    }
}

/// The launcher in tmux on a Cursor model, the user's own status line printing `USER-LINE`,
/// one prompt answered by the fake agent.
fn answered_session() -> (Launch, Tmux) {
    let launch = Launch::real().args([
        "--model",
        "multi/cursor/composer-2.5",
        "--permission-mode",
        "bypassPermissions",
    ]);
    let settings = launch.home.join(".claude/settings.json");
    std::fs::write(
        &settings,
        r#"{"statusLine": {"type": "command", "command": "echo USER-LINE"}}"#,
    )
    .unwrap();
    let script = launch.script();
    let tmux = Tmux::start(launch.dir.path(), &script);
    let pane = tmux.wait_for("the prompt", Duration::from_secs(60), |pane| {
        pane.contains("USER-LINE") || pane.contains("Yes, I accept")
    });
    if pane.contains("Yes, I accept") {
        // Claude Code asks once to confirm bypassPermissions (the mode Cursor turns run in).
        tmux.send(&["Down"]);
        tmux.send(&["Enter"]);
    }
    tmux.wait_for("the user's status line", Duration::from_secs(60), |pane| {
        pane.contains("USER-LINE")
    });
    tmux.send(&["say hello"]);
    std::thread::sleep(Duration::from_millis(500));
    tmux.send(&["Enter"]);
    tmux.wait_for("the Cursor answer", Duration::from_secs(60), |pane| {
        pane.contains("fake agent reply")
    });
    (launch, tmux)
}

#[test]
fn the_chained_status_line_runs_in_the_tui() {
    let (launch, tmux) = answered_session();
    let pane = tmux.pane();
    assert!(
        pane.contains("[Cursor] ") && pane.contains(" in / "),
        "the answer ends with its tokens:\n{pane}"
    );
    assert_eq!(launch.turns().len(), 1, "{pane}");
}

#[test]
fn the_cursor_spend_ends_the_status_line_in_the_tui() {
    let (_launch, tmux) = answered_session();
    tmux.wait_for(
        "the Cursor segment after the user's line",
        Duration::from_secs(15),
        |pane| {
            pane.lines().any(|line| {
                line.contains("USER-LINE · Cursor composer-2.5 · 1 run · ") && line.contains(" out")
            })
        },
    );
}
