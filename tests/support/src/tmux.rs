//! The real Claude Code TUI under tmux, as a person sees it: a tmux server of the test's own
//! (its socket in the test's folder) running one script in a detached 160×40 session; keys are
//! sent with `send-keys` and the screen read with `capture-pane`.

use std::path::Path;
use std::process::Command;
use std::time::Duration;
use std::time::Instant;

/// A tmux server of the test's own (its socket in the test's folder), killed when dropped.
pub struct Tmux {
    socket: std::path::PathBuf,
}

impl Tmux {
    /// Starts `script` in a detached 160×40 session.
    pub fn start(dir: &Path, script: &Path) -> Tmux {
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

    pub fn command(&self) -> Command {
        let mut command = Command::new("tmux");
        command.arg("-S").arg(&self.socket);
        command
    }

    /// The visible pane's text.
    pub fn pane(&self) -> String {
        let output = self
            .command()
            .args(["capture-pane", "-p", "-t", "mc"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    pub fn send(&self, keys: &[&str]) {
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
    pub fn wait_for(&self, what: &str, timeout: Duration, seen: impl Fn(&str) -> bool) -> String {
        let started = Instant::now();
        let deadline = started + timeout;
        loop {
            let pane = self.pane();
            if seen(&pane) {
                // On stderr, which the test runner shows when the test fails: how long each
                // wait took.
                eprintln!("tmux: {what} after {:.1?}", started.elapsed());
                return pane;
            }
            assert!(
                Instant::now() < deadline,
                "waited {timeout:?} for {what}; the pane:\n{pane}"
            );
            std::thread::sleep(Duration::from_millis(250));
        }
    }

    /// The pid of the program the pane started.
    pub fn pane_pid(&self) -> i32 {
        let output = self
            .command()
            .args(["display-message", "-p", "-t", "mc", "#{pane_pid}"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout)
            .trim()
            .parse()
            .unwrap()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.command().arg("kill-server").status();
    }
}

impl Tmux {
    /// Types `text` into the prompt, then Enter (a pause between them, as a person's typing has:
    /// Claude Code reads a pasted line ending in Enter as part of the text).
    pub fn type_line(&self, text: &str) {
        self.send(&[text]);
        std::thread::sleep(Duration::from_millis(500));
        self.send(&["Enter"]);
    }

    /// Keeps the pane (and what it shows) after its program exits, to read what was printed
    /// last.
    pub fn keep_after_exit(&self) {
        let status = self
            .command()
            .args(["set-option", "-t", "mc", "remain-on-exit", "on"])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Shift+Tab: the next permission mode.
    pub fn shift_tab(&self) {
        self.send(&["BTab"]);
    }
}
