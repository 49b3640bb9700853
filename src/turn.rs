//! One Cursor turn end to end: spawn the agent, translate its events into the Anthropic
//! Messages event sequence, and report how it ended.
//!
//! The turn produces the same `(event, data)` pairs whether the client streams or not: the
//! gateway writes them as SSE frames, or folds them into one Messages JSON. `message_start` is
//! held back until the agent's first event (or [`FIRST_EVENT_WAIT`]), so failures found before
//! that keep their real HTTP status. Claude Code never receives a `tool_use` from a turn: only
//! text blocks.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;
use serde_json::json;
use tokio::sync::mpsc;
use tokio::sync::oneshot;

use crate::cursor::CliFailure;
use crate::cursor::command::TurnSpec;
use crate::cursor::events::RunEvent;
use crate::cursor::events::RunResult;
use crate::cursor::events::Usage;
use crate::cursor::process::CursorRun;
use crate::cursor::process::RunError;
use crate::cursor::process::RunLimits;
use crate::cursor::process::RunOutput;
use crate::cursor::process::spawn_turn;
use crate::cursor::stream::classify_plain_text;
use crate::gateway::error::ApiError;

/// How long the first SSE frame waits for the agent's first event.
pub const FIRST_EVENT_WAIT: Duration = Duration::from_secs(2);

/// One Messages stream event: its SSE `event:` name and its `data:` JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct SseEvent {
    pub event: &'static str,
    pub data: Value,
}

impl SseEvent {
    fn new(event: &'static str, data: Value) -> Self {
        SseEvent { event, data }
    }

    /// The SSE frame: `event:` and `data:` lines, then a blank line.
    pub fn frame(&self) -> String {
        format!("event: {}\ndata: {}\n\n", self.event, self.data)
    }
}

/// What the gateway hands a turn.
#[derive(Debug, Clone)]
pub struct TurnInput {
    /// Agent executable.
    pub agent: PathBuf,
    /// The invocation (prompt included).
    pub spec: TurnSpec,
    /// The model id as Claude Code sent it, echoed in `message_start`.
    pub requested_model: String,
    /// Local estimate of the prompt's input tokens, used when Cursor reports none.
    pub input_estimate: u64,
    /// Notices streamed before Cursor's own text (e.g. "[Cursor] Outer history changed; …").
    pub notices: Vec<String>,
    /// Supervision limits.
    pub limits: RunLimits,
}

/// How a turn ended, for whoever keeps the conversation's state.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnOutcome {
    /// The chat Cursor used (from `system/init` or `result`).
    pub chat_id: Option<String>,
    /// The whole text streamed to Claude Code (notices included): what Claude Code keeps as
    /// this turn's assistant message, so the next turn can find where it continues.
    pub answer: String,
    /// `Ok` when the turn ended with a successful `result`.
    pub result: Result<(), ApiError>,
    /// True once the agent reported anything (it may have acted).
    pub agent_started: bool,
}

/// A started turn: its events arrive on `events`; the outcome when it is over.
pub struct TurnHandle {
    pub events: mpsc::Receiver<Result<SseEvent, ApiError>>,
    pub outcome: oneshot::Receiver<TurnOutcome>,
    /// Process group of the agent, for status and crash recovery.
    pub pgid: i32,
}

/// Spawns the agent and starts translating its output in a background task. Dropping the
/// handle's `events` receiver cancels the run (its process group is ended).
pub fn start(input: TurnInput) -> Result<TurnHandle, ApiError> {
    let run = spawn_turn(&input.agent, &input.spec, input.limits).map_err(|e| map_run_error(&e))?;
    let pgid = run.pgid;
    let (tx, rx) = mpsc::channel(256);
    let (outcome_tx, outcome_rx) = oneshot::channel();
    tokio::spawn(async move {
        let outcome = Translator::new(input, tx).drive(run).await;
        let _ = outcome_tx.send(outcome);
    });
    Ok(TurnHandle {
        events: rx,
        outcome: outcome_rx,
        pgid,
    })
}

/// Turns run outputs into Messages events.
struct Translator {
    input: TurnInput,
    tx: mpsc::Sender<Result<SseEvent, ApiError>>,
    started: bool,
    block_open: bool,
    answer: String,
    chat_id: Option<String>,
    agent_started: bool,
}

/// The client went away; the run is to be cancelled.
struct Gone;

impl Translator {
    fn new(input: TurnInput, tx: mpsc::Sender<Result<SseEvent, ApiError>>) -> Self {
        Translator {
            input,
            tx,
            started: false,
            block_open: false,
            answer: String::new(),
            chat_id: None,
            agent_started: false,
        }
    }

    async fn drive(mut self, mut run: CursorRun) -> TurnOutcome {
        let result = self.pump(&mut run).await;
        let result = match result {
            Ok(Ok(())) => Ok(()),
            Ok(Err(error)) => {
                let _ = self.tx.send(Err(error.clone())).await;
                Err(error)
            }
            Err(Gone) => {
                run.cancel();
                Err(ApiError::run_failed(
                    "the client disconnected; the Cursor run was cancelled",
                ))
            }
        };
        TurnOutcome {
            chat_id: self.chat_id,
            answer: self.answer,
            result,
            agent_started: self.agent_started,
        }
    }

    /// `Err(Gone)` when the client left; `Ok(Err)` for a turn failure to report.
    async fn pump(&mut self, run: &mut CursorRun) -> Result<Result<(), ApiError>, Gone> {
        let first = tokio::time::timeout(FIRST_EVENT_WAIT, run.next()).await;
        let mut pending = match first {
            Ok(item) => Some(item),
            Err(_) => {
                self.open().await?;
                None
            }
        };
        loop {
            let item = match pending.take() {
                Some(item) => item,
                None => run.next().await,
            };
            let output = match item {
                None => {
                    return Ok(Err(ApiError::run_failed(
                        "Cursor ended without a result; its work may be incomplete",
                    )));
                }
                Some(Err(error)) => return Ok(Err(map_run_error(&error))),
                Some(Ok(output)) => output,
            };
            self.agent_started = true;
            self.open().await?;
            match output {
                RunOutput::ChatReplaced { actual, .. } => self.chat_id = Some(actual),
                RunOutput::Event(RunEvent::Init { chat_id, .. }) => self.chat_id = Some(chat_id),
                RunOutput::Event(RunEvent::Text { text }) => self.text(text).await?,
                RunOutput::Event(RunEvent::Result(result)) => return self.finish(result).await,
                RunOutput::Event(_) => {}
            }
        }
    }

    /// Sends `message_start` and the notices, once.
    async fn open(&mut self) -> Result<(), Gone> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        let start = json!({
            "type": "message_start",
            "message": {
                "id": format!("msg_{:024x}", rand::random::<u128>() >> 32),
                "type": "message",
                "role": "assistant",
                "model": self.input.requested_model,
                "content": [],
                "stop_reason": null,
                "stop_sequence": null,
                "usage": {"input_tokens": self.input.input_estimate, "output_tokens": 0}
            }
        });
        self.send(SseEvent::new("message_start", start)).await?;
        for notice in std::mem::take(&mut self.input.notices) {
            self.text(format!("{notice}\n\n")).await?;
        }
        Ok(())
    }

    async fn text(&mut self, text: String) -> Result<(), Gone> {
        if text.is_empty() {
            return Ok(());
        }
        self.answer.push_str(&text);
        self.ensure_block().await?;
        self.send(SseEvent::new(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}),
        ))
        .await
    }

    async fn ensure_block(&mut self) -> Result<(), Gone> {
        if self.block_open {
            return Ok(());
        }
        self.block_open = true;
        self.send(SseEvent::new(
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ))
        .await
    }

    async fn finish(&mut self, result: RunResult) -> Result<Result<(), ApiError>, Gone> {
        if result.chat_id.is_some() {
            self.chat_id.clone_from(&result.chat_id);
        }
        if !result.success {
            return Ok(Err(map_result_error(&result.text)));
        }
        self.ensure_block().await?;
        self.send(SseEvent::new(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ))
        .await?;
        let usage = usage_json(result.usage, self.input.input_estimate, &self.answer);
        self.send(SseEvent::new(
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": usage}),
        ))
        .await?;
        self.send(SseEvent::new(
            "message_stop",
            json!({"type": "message_stop"}),
        ))
        .await?;
        Ok(Ok(()))
    }

    async fn send(&self, event: SseEvent) -> Result<(), Gone> {
        self.tx.send(Ok(event)).await.map_err(|_| Gone)
    }
}

/// Anthropic usage from Cursor's counts, field by field; estimates where Cursor gave none.
pub fn usage_json(usage: Option<Usage>, input_estimate: u64, answer: &str) -> Value {
    let usage = usage.unwrap_or_default();
    let mut out = json!({
        "input_tokens": usage.input_tokens.unwrap_or(input_estimate),
        "output_tokens": usage.output_tokens.unwrap_or_else(|| (answer.len() as u64).div_ceil(4)),
    });
    if let Some(read) = usage.cache_read_tokens {
        out["cache_read_input_tokens"] = json!(read);
    }
    if let Some(write) = usage.cache_write_tokens {
        out["cache_creation_input_tokens"] = json!(write);
    }
    out
}

/// The status for a failed run (DESIGN §3 status table).
pub fn map_run_error(error: &RunError) -> ApiError {
    match error {
        RunError::Spawn { .. } => {
            ApiError::bad_request(format!("{error}; {}", crate::cursor::locate::INSTALL_HINT))
        }
        RunError::Cli(failure) => map_cli_failure(failure),
        RunError::Cancelled => ApiError::run_failed(error.to_string()),
        _ => ApiError::run_failed(format!(
            "{error}. Cursor may have changed files before it stopped; check your workspace before retrying."
        )),
    }
}

fn map_cli_failure(failure: &CliFailure) -> ApiError {
    match failure {
        CliFailure::AuthRequired(_) => ApiError::forbidden(failure.to_string()),
        CliFailure::RateLimited(_) => ApiError::rate_limited(failure.to_string()),
        CliFailure::BadModel(_) => ApiError::bad_request(format!(
            "{failure}. Pick a model from `multi-cursor --cursor-models`."
        )),
        CliFailure::WorkspaceTrust(_) => ApiError::bad_request(format!(
            "{failure}. Run `agent` once in this folder and trust it."
        )),
    }
}

fn map_result_error(text: &str) -> ApiError {
    match classify_plain_text(text) {
        Some(failure) => map_cli_failure(&failure),
        None => ApiError::run_failed(format!("Cursor reported an error: {text}")),
    }
}

/// Folds a turn's events into one non-streamed Messages response.
pub fn fold_message(events: &[SseEvent]) -> Value {
    let mut message = json!({});
    let mut text = String::new();
    for event in events {
        match event.event {
            "message_start" => message = event.data["message"].clone(),
            "content_block_delta" => {
                if let Some(t) = event.data["delta"]["text"].as_str() {
                    text.push_str(t);
                }
            }
            "message_delta" => {
                message["stop_reason"] = event.data["delta"]["stop_reason"].clone();
                message["stop_sequence"] = event.data["delta"]["stop_sequence"].clone();
                message["usage"] = event.data["usage"].clone();
            }
            _ => {}
        }
    }
    message["content"] = json!([{"type": "text", "text": text}]);
    message
}

/// The events of a complete answer given by the gateway itself (nothing runs): used for
/// refusals that are better read as an answer, such as an unknown worker model.
pub fn local_events(model: &str, text: &str) -> Vec<SseEvent> {
    let usage = json!({"input_tokens": 0, "output_tokens": (text.len() as u64).div_ceil(4)});
    vec![
        SseEvent::new(
            "message_start",
            json!({"type": "message_start", "message": {
                "id": format!("msg_{:024x}", rand::random::<u128>() >> 32),
                "type": "message", "role": "assistant", "model": model, "content": [],
                "stop_reason": null, "stop_sequence": null,
                "usage": {"input_tokens": 0, "output_tokens": 0}}}),
        ),
        SseEvent::new(
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ),
        SseEvent::new(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}),
        ),
        SseEvent::new(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        SseEvent::new(
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": usage}),
        ),
        SseEvent::new("message_stop", json!({"type": "message_stop"})),
    ]
}
