//! The user's own status line, chained in front of ours.
//!
//! Claude Code draws one status line, and a `--settings` `statusLine` replaces the user's
//! (nothing merges). So when the user has one, the launcher installs
//! `multi-cursor statusline --chain '<their command>'`: their command runs through `sh -c` with
//! the same stdin, in its own process group, at the same time as our gateway request. Its
//! output comes first; ours ends its last line after ` · `. A command that fails (Claude Code
//! would blank its line), prints nothing or outlives its timeout leaves just our segment; on
//! timeout its whole process group is killed.

use std::io::Read;
use std::io::Write;
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Instant;

/// Most bytes of the user's command output kept.
const MAX_OUTPUT: u64 = 64 * 1024;

/// The separator between the user's line and our segment, and between our parts.
pub(crate) const SEPARATOR: &str = " · ";

/// The user's status-line command, started: its output arrives on a channel.
#[derive(Debug)]
pub(crate) struct UserCommand {
    group: i32,
    output: mpsc::Receiver<Option<String>>,
}

impl UserCommand {
    /// Starts `command` through `sh -c` in a process group of its own, writes `input` to its
    /// stdin and collects its stdout on a thread. `None` when it could not be started.
    pub(crate) fn spawn(command: &str, input: &[u8]) -> Option<UserCommand> {
        let mut shell = crate::platform::shell_command(command);
        shell
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        crate::platform::own_group(&mut shell);
        let mut child = shell.spawn().ok()?;
        let group = i32::try_from(child.id()).ok()?;
        let mut stdin = child.stdin.take()?;
        let mut stdout = child.stdout.take()?;
        let input = input.to_vec();
        let (tx, rx) = mpsc::sync_channel(1);
        let started = std::thread::Builder::new()
            .name("statusline-chain".into())
            .spawn(move || {
                // A command that does not read its stdin closes the pipe: that is fine.
                let writer = std::thread::spawn(move || {
                    let _ignored = stdin.write_all(&input);
                });
                let mut bytes = Vec::new();
                let read = stdout.by_ref().take(MAX_OUTPUT).read_to_end(&mut bytes);
                drop(stdout);
                let status = child.wait();
                let _joined = writer.join();
                let succeeded = read.is_ok() && status.is_ok_and(|s| s.success());
                let text = succeeded.then(|| String::from_utf8_lossy(&bytes).into_owned());
                let _gone = tx.send(text);
            });
        if started.is_err() {
            let _killed = crate::platform::stop_group(group, crate::platform::Stop::Kill);
            return None;
        }
        Some(UserCommand { group, output: rx })
    }

    /// The command's output when it exits successfully by `deadline`; otherwise `None`, and a
    /// command still running is killed with its process group.
    pub(crate) fn output(self, deadline: Instant) -> Option<String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.output.recv_timeout(wait) {
            Ok(text) => text,
            Err(_) => {
                let _killed = crate::platform::stop_group(self.group, crate::platform::Stop::Kill);
                None
            }
        }
    }
}

/// The status line: the user's output (`theirs`, trailing newlines dropped) with our segment
/// ending its last line after ` · `; either alone when the other is missing or empty.
pub(crate) fn compose(theirs: Option<&str>, ours: Option<&str>) -> String {
    let theirs = theirs.map_or("", |t| t.trim_end_matches(['\n', '\r']));
    let ours = ours.unwrap_or("");
    match (theirs.is_empty(), ours.is_empty()) {
        (true, _) => ours.to_string(),
        (false, true) => theirs.to_string(),
        (false, false) => format!("{theirs}{SEPARATOR}{ours}"),
    }
}
