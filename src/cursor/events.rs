//! The typed events one Cursor turn produces, after the stream parser has turned the agent's
//! stream-json lines into meaning. The agent prints one JSON object per line, of the types
//! `system` (its `init` carries the chat's `session_id` first), `user`, `thinking`, `assistant`,
//! `tool_call` and `result` (unknown types are ignored); a tool's name is the key ending in
//! `ToolCall`, or the `function` form's `name`; a tool result is `success`, `error` or
//! `rejected`; `result` carries `session_id`, `duration_ms` and a camelCase `usage`. The
//! 2026.09–2026.10 builds add `interaction_query` request/response pairs (the CLI answering its
//! own approval prompts in print mode), `connection`/`retry` events while it reconnects, and the
//! `system` subtypes `task_notification` and `background_shell_timeout`.
//!
//! These are what the rest of the program consumes: the gateway turns them into SSE, the
//! display module into rows and the closing summary, the session module into record commits.

use std::path::PathBuf;

use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;

/// One meaningful thing Cursor did or said during a turn, in stream order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RunEvent {
    /// `system/init`: the chat id (Cursor's `session_id`) comes first, before anything else.
    Init {
        chat_id: String,
        /// Display name of the model (`"Composer 2.5"`), not the id; absent on some builds.
        model: Option<String>,
    },
    /// `user`: Cursor's echo of the prompt it received.
    UserEcho { text: String },
    /// `thinking` delta; text is often empty. Never shown to the user, but it proves liveness.
    Thinking { text: String },
    /// New assistant text that was not seen before (the accumulator rule already applied:
    /// flushes that repeat streamed deltas are dropped, and nothing is lost without partial
    /// output). Concatenating every `Text` of a run gives Cursor's whole answer.
    Text { text: String },
    /// A native tool call started.
    ToolStarted { call: ToolCall },
    /// A native tool call finished with an outcome.
    ToolCompleted {
        call: ToolCall,
        outcome: ToolOutcome,
    },
    /// Something Cursor reported about the run itself rather than the answer: a reconnect, a
    /// background task's notification.
    Status(CursorStatus),
    /// `result`: the turn's terminal event.
    Result(RunResult),
}

/// A report about the run itself (not the answer, not a tool call), shown as a `[Cursor]` note.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum CursorStatus {
    /// `connection/reconnecting` or `retry/starting`: the connection to Cursor's servers was
    /// lost and the CLI tries again. `attempt` counts from 1 (absent on some shapes).
    Reconnecting { attempt: Option<u64> },
    /// `connection/reconnected`: the CLI is connected again.
    Reconnected,
    /// `system/task_notification`: a background task (a shell started in the background, a
    /// subagent) reported something; its text, when the event carried one.
    TaskNotification { text: String },
    /// `system/background_shell_timeout`: Cursor finished its reply and stopped background
    /// commands that were still running.
    BackgroundShellTimeout,
}

/// What an `interaction_query` asked approval for, from its `query_type`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "query", content = "name", rename_all = "snake_case")]
pub enum QueryKind {
    /// `webFetchRequestQuery`: fetch a URL (a `WebFetch(<domain>)` allow rule approves it).
    WebFetch,
    /// `webSearchRequestQuery`: search the web (no permission token exists for it).
    WebSearch,
    /// `askQuestionInteractionQuery`: a question for the user.
    AskQuestion,
    /// `createPlanRequestQuery`: a plan-mode plan (auto-approved).
    CreatePlan,
    /// Any other `query_type`, as the CLI named it.
    Other(String),
}

impl QueryKind {
    /// The kind of a `query_type` string.
    pub(crate) fn of(query_type: &str) -> QueryKind {
        match query_type {
            "webFetchRequestQuery" => QueryKind::WebFetch,
            "webSearchRequestQuery" => QueryKind::WebSearch,
            "askQuestionInteractionQuery" => QueryKind::AskQuestion,
            "createPlanRequestQuery" => QueryKind::CreatePlan,
            other => QueryKind::Other(other.to_owned()),
        }
    }
}

/// A native Cursor tool call, identified by its `call_id` (opaque; may contain `\n`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCall {
    /// `call_id` of the event, or the inner `toolCallId`, or empty when the CLI gave neither.
    pub call_id: String,
    /// Tool name without the `ToolCall` suffix (`shell`, `read`, `edit`, `createPlan`, …) or the
    /// `function` form's `name`.
    pub tool: String,
    /// The tool's arguments (`args`, or the fields beside `result` in the older flat form, or
    /// the parsed `arguments` string of the function form). `Null` when the event had none (a
    /// rejected call's completed event carries no args).
    pub args: Value,
}

impl ToolCall {
    /// The file paths the call names in its arguments (see `paths_in_args`).
    pub(crate) fn paths(&self) -> Vec<PathBuf> {
        paths_in_args(&self.args)
    }
}

/// How a native tool call ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum ToolOutcome {
    /// `result.success` (its payload kept: shell exit code, edit line counts, …). A shell call
    /// with a non-zero `exitCode` is still `Success` here; the display decides it failed.
    Success { value: Value },
    /// `result.error`, with the CLI's message.
    Error { message: String },
    /// `result.rejected` or `result.permissionDenied`: Cursor's permissions refused it.
    Rejected { reason: String, value: Value },
    /// Refused because print mode could not approve it: the CLI asked itself through an
    /// `interaction_query` and answered `rejected` (no user can answer in print mode).
    Unapproved { query: QueryKind, reason: String },
    /// A completed event whose result had none of the known forms.
    Unknown { value: Value },
}

/// The terminal `result` event.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunResult {
    /// `subtype == "success"` and `is_error` not true.
    pub success: bool,
    /// `result`: for success, every assistant segment concatenated with no separator; for an
    /// error, the message.
    pub text: String,
    /// `session_id`, the chat id.
    pub chat_id: Option<String>,
    /// `duration_ms`: 0 is a value, absent is `None`.
    pub duration_ms: Option<u64>,
    /// `usage`, when the CLI reported it (absent in older builds).
    pub usage: Option<RunUsage>,
    /// `request_id`, when present.
    pub request_id: Option<String>,
}

/// Cursor's token counts, camelCase on the wire.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunUsage {
    #[serde(default)]
    pub input_tokens: Option<u64>,
    #[serde(default)]
    pub output_tokens: Option<u64>,
    #[serde(default)]
    pub cache_read_tokens: Option<u64>,
    #[serde(default)]
    pub cache_write_tokens: Option<u64>,
}

/// The host of a URL as Cursor's `WebFetch(<domain>)` rule names it (no scheme, user, port),
/// lower-case; `None` without one.
pub(crate) fn url_host(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let host = if host.starts_with('[') {
        host.split_inclusive(']').next().unwrap_or(host)
    } else {
        host.split(':').next().unwrap_or(host)
    };
    let host = crate::text::one_line(host).to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
}

/// Argument keys (folded: lowercase, no `_`/`-`) that name files in Cursor's tool calls.
const PATH_KEYS: &[&str] = &[
    "path",
    "paths",
    "filepath",
    "filepaths",
    "file",
    "files",
    "filename",
    "targetfile",
    "targetfiles",
    "targetpath",
    "relativeworkspacepath",
];

/// The file paths one Cursor tool call names in its arguments `args`: `read`/`edit`/`write`/
/// `ls`/`delete` carry `path`; other shapes `filePath`, `targetFile`, `paths[]`, … Shell
/// commands are not parsed (a path in a command line is not reliably a path). Borrows the
/// arguments: an edit's carry the whole file text.
pub(crate) fn paths_in_args(args: &Value) -> Vec<PathBuf> {
    let Value::Object(args) = args else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, value) in args {
        if !PATH_KEYS.contains(&fold_key(key).as_str()) {
            continue;
        }
        match value {
            Value::String(s) if !s.is_empty() => out.push(PathBuf::from(s)),
            Value::Array(items) => out.extend(
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|s| !s.is_empty())
                    .map(PathBuf::from),
            ),
            _ => {}
        }
    }
    out
}

/// An argument key folded for comparison: lowercase, without `_` and `-` (`target_file`,
/// `targetFile` and `target-file` are one key).
fn fold_key(key: &str) -> String {
    key.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_call_paths() {
        let args = serde_json::json!({"path": "/ws/a.rs", "streamContent": "x", "paths": ["b", ""], "target_file": "c"});
        let mut paths = paths_in_args(&args);
        paths.sort();
        assert_eq!(
            paths,
            vec![
                PathBuf::from("/ws/a.rs"),
                PathBuf::from("b"),
                PathBuf::from("c")
            ]
        );
    }

    #[test]
    fn a_tool_call_names_its_paths() {
        let call = ToolCall {
            call_id: String::from("c1"),
            tool: String::from("edit"),
            args: serde_json::json!({"filePath": "src/a.rs", "streamContent": "src/b.rs"}),
        };
        assert_eq!(call.paths(), vec![PathBuf::from("src/a.rs")]);
        assert!(paths_in_args(&Value::Null).is_empty());
    }
}
