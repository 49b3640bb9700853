//! Supervision of one Cursor turn's child process.
//!
//! The child runs in its own process group, whose id is reported so a later gateway can end a
//! group that outlived a crash. stdout and stderr are read concurrently; stdout goes through
//! the stream parser as it arrives (no buffering beyond the current line), stderr is kept,
//! bounded, for messages. Cancelling or dropping the run ends the whole group: SIGINT, then
//! SIGTERM, then SIGKILL, 1.5 s apart (on Windows the tree is a console process group in a Job
//! Object: `CTRL_BREAK_EVENT` twice, then `TerminateJobObject`; see [`crate::platform`]). After `result` a short grace period lets the CLI exit by
//! itself, then the group is ended anyway (the real CLI sometimes never exits). A run that
//! stays silent longer than the inactivity limit is ended as stalled.
//!
//! Each child carries a random marker in its environment (`RUN_MARKER_ENV`); a gateway that
//! restarts after a crash ends a recorded group only when its leader still has the recorded
//! start time *and* its environment carries the marker (`identity`), so a record naming some
//! other process (with its exact start time) never gets a stranger signalled.
//!
//! - `identity`: start times, command lines and the marker check, from
//!   [`crate::platform`] (`/proc`, `proc_pidinfo` and `sysctl`, `GetProcessTimes`);
//! - `crate::platform::parse`: the pure parsers of what those platforms return;
//! - [`crate::platform::watchdog`]: what ends the group if this process dies (SIGKILL included) while the run
//!   goes on: a helper process on Unix, a kill-on-close Job Object on Windows.

use crate::env::DEFAULT_FIRST_EVENT;
use crate::env::FIRST_EVENT_ENV;
use crate::env::RUN_MARKER_ENV;
use std::path::Path;
use std::path::PathBuf;
use std::process::ExitStatus;
use std::process::Stdio;
use std::time::Duration;

use thiserror::Error;
use tokio::io::AsyncReadExt;
use tokio::io::AsyncWriteExt;
use tokio::process::Child;
use tokio::sync::mpsc;
use tokio::sync::oneshot;
use tokio::time::Instant;

use super::CliFailure;
use super::command::TurnSpec;
use super::events::RunEvent;
use super::failure::Exit;
use super::failure::Reached;
use super::failure::RunEnd;
use super::failure::RunFailure;
use super::failure::classify_run;
use super::spawn::AgentCommand;
use super::spawn::Kind;
use super::spawn::group_alive;
use super::spawn::signal_group;
use super::stream::StreamError;
use super::stream::StreamItem;
use super::stream::StreamParser;
use crate::platform::Stop;
use crate::platform::watchdog::Target;
use crate::platform::watchdog::Watchdog;

pub(crate) mod identity;

pub(crate) use identity::command_line;
pub use identity::end_stray_run;
pub use identity::environ_carries;
pub use identity::process_start_time;

/// Delay between the escalation steps SIGINT → SIGTERM → SIGKILL.
pub(crate) const KILL_STEP: Duration = Duration::from_millis(1500);

/// Bounds on one run. The defaults suit real turns; tests shorten them.
#[derive(Debug, Clone, Copy)]
pub struct RunLimits {
    /// Silence (no stdout or stderr bytes) after which a run is ended as stalled.
    pub inactivity: Duration,
    /// How long a run may take to write its first event (`system/init`). A CLI waiting on
    /// something nobody can answer (on macOS, a modal keychain dialog when its config folder
    /// was moved) starts and never opens its stream; such a run is ended and said to be so,
    /// separately from the long quiet a running tool call may need.
    pub first_event: Duration,
    /// How long the CLI may take to exit by itself after its `result`.
    pub result_grace: Duration,
    /// Total stdout bytes allowed for one turn.
    pub max_output: usize,
    /// stderr bytes kept for messages (the newest are kept).
    pub max_stderr: usize,
    /// Longest stdout line accepted.
    pub max_line: usize,
}

impl Default for RunLimits {
    fn default() -> Self {
        RunLimits {
            inactivity: Duration::from_secs(15 * 60),
            first_event: DEFAULT_FIRST_EVENT,
            result_grace: Duration::from_millis(750),
            max_output: 512 * 1024 * 1024,
            max_stderr: 64 * 1024,
            max_line: super::stream::DEFAULT_MAX_LINE,
        }
    }
}

impl RunLimits {
    /// The defaults, with [`FIRST_EVENT_ENV`] applied; an unreadable value is refused with
    /// its name.
    pub(crate) fn from_env() -> Result<RunLimits, String> {
        let first_event = match std::env::var(FIRST_EVENT_ENV) {
            Err(_) => DEFAULT_FIRST_EVENT,
            Ok(value) => match value.trim().parse::<u64>() {
                Ok(secs) if secs > 0 => Duration::from_secs(secs),
                _ => {
                    return Err(format!(
                        "{FIRST_EVENT_ENV}={value:?} is not a whole number of seconds above 0"
                    ));
                }
            },
        };
        Ok(RunLimits {
            first_event,
            ..RunLimits::default()
        })
    }
}

/// What a running turn yields besides failures.
#[derive(Debug, Clone, PartialEq)]
pub enum RunOutput {
    /// A parsed Cursor event, in stream order. `Result` is the last one.
    Event(RunEvent),
    /// `--resume <requested>` was asked for but `system/init` names another chat: Cursor
    /// silently started a new conversation.
    ChatReplaced { requested: String, actual: String },
}

/// Why a turn failed. Each message says what happened in Cursor's own words where it gave any.
#[derive(Debug, Error)]
pub enum RunError {
    /// The executable could not be started.
    #[error("could not start Cursor's agent at {path}: {source}")]
    Spawn {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The process ended without a `result` event (never a success), classified from its
    /// stderr, stdout's plain text, its exit status and how far it got: a usage limit, a bad
    /// key, a refused resume, a kill from outside, … in Cursor's own words.
    #[error(transparent)]
    Failed(RunFailure),
    /// No output for longer than the inactivity limit.
    #[error("Cursor stopped responding: no output for {}s, so the run was ended", .after.as_secs())]
    Stalled { after: Duration },
    /// The agent started but wrote no event within [`RunLimits::first_event`].
    #[error(
        "Cursor's agent started but wrote nothing for {}s, not even its first event, so the run was ended. The CLI may be waiting on something nobody can answer from here (on macOS, a keychain dialog); run `agent` once in a terminal to see what it asks, then send your message again ({FIRST_EVENT_ENV} sets the wait)",
        .after.as_secs()
    )]
    NoFirstEvent { after: Duration },
    /// stdout exceeded the turn's output cap.
    #[error("Cursor produced more than {limit} bytes of output in one turn; the run was ended")]
    OutputTooLarge { limit: usize },
    /// A stream-json line exceeded the line cap.
    #[error(transparent)]
    Stream(StreamError),
    /// The run was cancelled (the client went away or the gateway is closing).
    #[error("the Cursor run was cancelled")]
    Cancelled,
    /// Reading the child's pipes failed.
    #[error("reading Cursor's output failed: {0}")]
    Io(#[source] std::io::Error),
}

/// Blocking work to do once a run's process group has ended, on the blocking pool (a turn's
/// hold on Cursor's default model, [`crate::policy::cursor_config::ModelPutBack`]).
pub(crate) type AfterEnd = Box<dyn FnOnce() + Send + Sync + 'static>;

/// A running Cursor turn. Dropping it ends the child's whole process group.
#[derive(Debug)]
pub struct CursorRun {
    /// Process group id (= the leader's pid).
    pub pgid: i32,
    /// The leader's start time ([`process_start_time`]), to recognise the group later.
    pub process_start: Option<u64>,
    /// The random value of `RUN_MARKER_ENV` in the child's environment: recorded with the
    /// group, it proves after a restart that a group is still ours ([`end_stray_run`]).
    pub marker: String,
    rx: mpsc::Receiver<Result<RunOutput, RunError>>,
    cancel: Option<oneshot::Sender<()>>,
    prompt_gate: Option<oneshot::Sender<()>>,
}

impl CursorRun {
    /// The next output; `None` once the run is over (after `Result` or an error).
    pub async fn next(&mut self) -> Option<Result<RunOutput, RunError>> {
        self.rx.recv().await
    }

    /// Writes the prompt to the agent's stdin and closes it. A run from [`spawn_turn_held`]
    /// waits for this (the agent sits blocked on stdin, doing nothing), so the caller can
    /// record the process group before Cursor can act.
    pub(crate) fn deliver_prompt(&mut self) {
        if let Some(gate) = self.prompt_gate.take() {
            let _ = gate.send(());
        }
    }

    /// Ends the run: the process group gets SIGINT, SIGTERM, SIGKILL, 1.5 s apart, and the
    /// run's last item is [`RunError::Cancelled`].
    pub fn cancel(&mut self) {
        if let Some(cancel) = self.cancel.take() {
            let _ = cancel.send(());
        }
    }

    /// Waits until the run is over and its process group has ended (after [`Self::cancel`] or
    /// a `result`), discarding output still queued. Bounded: ending a group escalates to
    /// SIGKILL.
    pub(crate) async fn ended(&mut self) {
        while self.rx.recv().await.is_some() {}
    }
}

impl Drop for CursorRun {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// Starts one turn: spawns `agent` per `spec` in its own process group, writes the prompt to
/// stdin and closes it, and supervises the child in a background task.
pub fn spawn_turn(agent: &Path, spec: &TurnSpec, limits: RunLimits) -> Result<CursorRun, RunError> {
    let mut run = spawn_turn_held(agent, spec, limits, None)?;
    run.deliver_prompt();
    Ok(run)
}

/// Like [`spawn_turn`], but the prompt is held back until [`CursorRun::deliver_prompt`]; a run
/// cancelled or dropped before that never receives it. `after_end` runs once the run's process
/// group has ended (also when the spawn fails), however the run ends.
pub(crate) fn spawn_turn_held(
    agent: &Path,
    spec: &TurnSpec,
    limits: RunLimits,
    after_end: Option<AfterEnd>,
) -> Result<CursorRun, RunError> {
    let marker = new_marker();
    let agent_command = AgentCommand::new(agent, Kind::Captured)
        .args(spec.args())
        .current_dir(&spec.workspace)
        .env(RUN_MARKER_ENV, &marker);
    let mut command = agent_command.command();
    command.stdin(Stdio::piped());
    let mut child = match agent_command.check().and_then(|()| command.spawn()) {
        Ok(child) => child,
        Err(source) => {
            if let Some(after_end) = after_end {
                tokio::task::spawn_blocking(after_end);
            }
            return Err(RunError::Spawn {
                path: agent.to_path_buf(),
                source,
            });
        }
    };
    let pgid = child.id().and_then(|p| i32::try_from(p).ok()).unwrap_or(0);
    let process_start = process_start_time(pgid);
    // Before the prompt goes out: whatever ends this process from here on, the group ends too.
    let watchdog = process_start.and_then(|start| {
        Watchdog::guard(Target::group(pgid, start))
            .inspect_err(|error| tracing::warn!(%error, pgid, "no watchdog for a Cursor run"))
            .ok()
    });
    // The child was held until its watchdog had it (on Windows; `Kind::Captured`).
    if let Some(pid) = child.id() {
        crate::platform::release(pid);
    }
    let (gate_tx, gate_rx) = oneshot::channel::<()>();
    if let Some(mut stdin) = child.stdin.take() {
        let prompt = spec.prompt.clone().into_bytes();
        tokio::spawn(async move {
            if gate_rx.await.is_err() {
                // Cancelled before the prompt went out: keep stdin open while the group is
                // ended, so the agent never sees an empty prompt and starts on it.
                tokio::time::sleep(3 * KILL_STEP + Duration::from_secs(1)).await;
                drop(stdin);
                return;
            }
            // A child that exits before reading its prompt closes the pipe; that failure shows
            // up as the child's own outcome, so the write error itself is not reported.
            let _ = stdin.write_all(&prompt).await;
            let _ = stdin.shutdown().await;
        });
    }
    let (tx, rx) = mpsc::channel(256);
    let (cancel_tx, cancel_rx) = oneshot::channel();
    let supervisor = Supervisor {
        child,
        pgid,
        limits,
        requested_chat: spec.chat_id.clone(),
        tx,
        after_end,
        _watchdog: watchdog,
    };
    tokio::spawn(supervisor.run(cancel_rx));
    Ok(CursorRun {
        pgid,
        process_start,
        marker,
        rx,
        cancel: Some(cancel_tx),
        prompt_gate: Some(gate_tx),
    })
}

struct Supervisor {
    child: Child,
    pgid: i32,
    limits: RunLimits,
    requested_chat: Option<String>,
    tx: mpsc::Sender<Result<RunOutput, RunError>>,
    /// Done after the group has ended, before the run's channel closes (so a caller awaiting
    /// [`CursorRun::ended`] finds it done).
    after_end: Option<AfterEnd>,
    /// Ends the group if this process dies first; dropped (harmlessly) once the group ended.
    _watchdog: Option<Watchdog>,
}

/// Ends the group when the supervising task is dropped without finishing (runtime shutdown).
struct GroupGuard {
    pgid: i32,
    armed: bool,
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if self.armed {
            signal_group(self.pgid, Stop::Kill);
        }
    }
}

/// Most plain-text stdout lines kept for a failure's message (the newest are kept).
const MAX_PLAIN_TEXT_LINES: usize = 32;

/// What the run observed, used to decide its outcome when the output ends.
#[derive(Default)]
struct Observed {
    saw_init: bool,
    /// A tool call was reported (started or completed): Cursor may have changed files.
    saw_tool: bool,
    saw_result: bool,
    failure: Option<CliFailure>,
    /// The newest plain-text (non-JSON) stdout lines, at most [`MAX_PLAIN_TEXT_LINES`].
    plain_text: Vec<String>,
    stderr: Vec<u8>,
}

impl Supervisor {
    async fn run(mut self, mut cancel: oneshot::Receiver<()>) {
        let mut guard = GroupGuard {
            pgid: self.pgid,
            armed: true,
        };
        let outcome = self.pump(&mut cancel).await;
        if let Err(error) = outcome {
            let _ = self.tx.send(Err(error)).await;
        }
        // Whatever happened, nothing of the group may outlive the turn.
        end_group(self.pgid, &mut self.child).await;
        guard.armed = false;
        if let Some(after_end) = self.after_end.take() {
            let _ = tokio::task::spawn_blocking(after_end).await;
        }
    }

    /// Reads both pipes until the run is over; `Ok` means a `result` was delivered.
    async fn pump(&mut self, cancel: &mut oneshot::Receiver<()>) -> Result<(), RunError> {
        let mut stdout = self.child.stdout.take();
        let mut stderr = self.child.stderr.take();
        let mut parser = StreamParser::new(self.limits.max_line);
        let mut items = Vec::new();
        let mut observed = Observed::default();
        let mut out_buf = vec![0u8; 64 * 1024];
        let mut err_buf = vec![0u8; 8 * 1024];
        let mut total = 0usize;
        let mut exit: Option<ExitStatus> = None;
        let mut deadline = Instant::now() + self.limits.inactivity;
        let mut result_deadline: Option<Instant> = None;
        loop {
            if stdout.is_none() && (exit.is_some() || observed.saw_result) {
                break;
            }
            let wake = result_deadline.map_or(deadline, |r| r.min(deadline));
            tokio::select! {
                _ = &mut *cancel => return Err(RunError::Cancelled),
                read = read_some(&mut stdout, &mut out_buf) => {
                    let n = read.map_err(RunError::Io)?;
                    deadline = Instant::now() + self.limits.inactivity;
                    let parsed = if n == 0 {
                        stdout = None;
                        parser.finish(&mut items)
                    } else {
                        total += n;
                        if total > self.limits.max_output {
                            return Err(RunError::OutputTooLarge { limit: self.limits.max_output });
                        }
                        parser.feed(&out_buf[..n], &mut items)
                    };
                    if let Err(error) = parsed {
                        // The events parsed from the same read (e.g. the init with the chat id)
                        // still go out; a result does not, since the run ends as failed.
                        items.retain(|item| !matches!(item, StreamItem::Event(RunEvent::Result(_))));
                        self.deliver(&mut items, &mut observed).await?;
                        return Err(RunError::Stream(error));
                    }
                    self.deliver(&mut items, &mut observed).await?;
                    if observed.saw_result && result_deadline.is_none() {
                        result_deadline = Some(Instant::now() + self.limits.result_grace);
                    }
                }
                read = read_some(&mut stderr, &mut err_buf) => {
                    match read {
                        Ok(0) | Err(_) => stderr = None,
                        Ok(n) => {
                            deadline = Instant::now() + self.limits.inactivity;
                            keep_tail(&mut observed.stderr, &err_buf[..n], self.limits.max_stderr);
                        }
                    }
                }
                status = self.child.wait(), if exit.is_none() => {
                    exit = Some(status.map_err(RunError::Io)?);
                }
                _ = tokio::time::sleep_until(wake) => {
                    if observed.saw_result {
                        return Ok(());
                    }
                    return Err(RunError::Stalled { after: self.limits.inactivity });
                }
            }
        }
        if observed.saw_result {
            return Ok(());
        }
        // stdout closed without a result: wait briefly for the exit status, then judge.
        if exit.is_none() {
            exit = tokio::time::timeout(self.limits.result_grace.max(KILL_STEP), self.child.wait())
                .await
                .ok()
                .and_then(Result::ok);
        }
        // Drain whatever stderr is left without waiting on lingering writers.
        if let Some(mut pipe) = stderr.take() {
            let drain = async {
                while let Ok(n) = pipe.read(&mut err_buf).await {
                    if n == 0 {
                        break;
                    }
                    keep_tail(&mut observed.stderr, &err_buf[..n], self.limits.max_stderr);
                }
            };
            let _ = tokio::time::timeout(Duration::from_millis(200), drain).await;
        }
        Err(self.failure_without_result(observed, exit))
    }

    /// Sends parsed items on, checking the chat id against the one asked for.
    async fn deliver(
        &mut self,
        items: &mut Vec<StreamItem>,
        observed: &mut Observed,
    ) -> Result<(), RunError> {
        for item in items.drain(..) {
            let output = match item {
                StreamItem::Failure(failure) => {
                    observed.failure.get_or_insert(failure);
                    continue;
                }
                StreamItem::PlainText(line) => {
                    if observed.plain_text.len() == MAX_PLAIN_TEXT_LINES {
                        observed.plain_text.remove(0);
                    }
                    observed.plain_text.push(line);
                    continue;
                }
                StreamItem::Event(event) => event,
            };
            match &output {
                RunEvent::Init { chat_id, .. } => {
                    observed.saw_init = true;
                    if let Some(requested) = &self.requested_chat
                        && requested != chat_id
                    {
                        self.send(RunOutput::ChatReplaced {
                            requested: requested.clone(),
                            actual: chat_id.clone(),
                        })
                        .await?;
                    }
                }
                RunEvent::ToolStarted { .. } | RunEvent::ToolCompleted { .. } => {
                    observed.saw_tool = true;
                }
                RunEvent::Result(_) => observed.saw_result = true,
                _ => {}
            }
            self.send(RunOutput::Event(output)).await?;
        }
        Ok(())
    }

    async fn send(&self, output: RunOutput) -> Result<(), RunError> {
        // A closed receiver means the run was dropped: treat it as a cancellation.
        self.tx
            .send(Ok(output))
            .await
            .map_err(|_| RunError::Cancelled)
    }

    /// Names why a run whose stdout closed without a `result` failed ([`classify_run`]).
    fn failure_without_result(&self, observed: Observed, exit: Option<ExitStatus>) -> RunError {
        let end = RunEnd {
            stderr: &observed.stderr,
            stdout_text: &observed.plain_text,
            stdout_failure: observed.failure.as_ref(),
            exit: Exit::from(exit),
            reached: Reached::from_run(observed.saw_init, observed.saw_tool),
            resumed_chat: self.requested_chat.as_deref(),
        };
        RunError::Failed(classify_run(&end))
    }
}

async fn read_some<R: tokio::io::AsyncRead + Unpin>(
    pipe: &mut Option<R>,
    buf: &mut [u8],
) -> std::io::Result<usize> {
    match pipe {
        Some(pipe) => pipe.read(buf).await,
        None => std::future::pending().await,
    }
}

fn keep_tail(kept: &mut Vec<u8>, more: &[u8], limit: usize) {
    kept.extend_from_slice(more);
    if kept.len() > limit {
        let cut = kept.len() - limit;
        kept.drain(..cut);
    }
}

/// A fresh random run marker: 128 bits, hex.
fn new_marker() -> String {
    format!("{:032x}", crate::random::u128())
}

/// Ends process group `pgid`: SIGINT, SIGTERM, SIGKILL, [`KILL_STEP`] apart, reaping the
/// leader as it goes. Returns once the group is gone or SIGKILL was sent.
async fn end_group(pgid: i32, leader: &mut Child) {
    for signal in [Stop::Interrupt, Stop::Terminate] {
        let _ = leader.try_wait();
        if !group_alive(pgid) {
            return;
        }
        signal_group(pgid, signal);
        let until = Instant::now() + KILL_STEP;
        while Instant::now() < until {
            let _ = leader.try_wait();
            if !group_alive(pgid) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }
    signal_group(pgid, Stop::Kill);
    let _ = tokio::time::timeout(Duration::from_secs(1), leader.wait()).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_random_hex() {
        let (a, b) = (new_marker(), new_marker());
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
    }

    #[test]
    fn stderr_tail_is_bounded() {
        let mut kept = Vec::new();
        keep_tail(&mut kept, b"0123456789", 4);
        assert_eq!(kept, b"6789");
    }
}
