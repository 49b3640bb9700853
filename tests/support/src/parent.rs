//! A parent Claude session scripted on the fake Anthropic upstream: it delegates one task to the
//! `multi-cursor` worker through the Agent tool (foreground), then finishes once the worker's
//! report is back. It re-exports `fake_upstream` for the tests that use both.

pub use crate::fake_upstream;

use fake_upstream::FakeUpstream;
use fake_upstream::RecordedRequest;
use fake_upstream::ScriptedResponse;
use fake_upstream::anthropic;

/// The Claude model the parent runs on (answered by the fake upstream).
pub const PARENT_MODEL: &str = "claude-sonnet-4-5";

/// The id of the parent's Agent tool call.
pub const TOOL_USE_ID: &str = "toolu_launch_worker_1";

/// What the parent says once the worker has reported.
pub const PARENT_DONE: &str = "PARENT_DONE";

/// Scripts the upstream: `count_tokens` gets a small count; a Messages request that carries the
/// Agent call's result gets [`PARENT_DONE`]; any other Messages request calls the Agent tool
/// with `subagent_type: multi-cursor` and `prompt: task`.
pub fn script_parent(upstream: &FakeUpstream, task: &'static str) {
    upstream.respond_with(move |request| {
        if request.path.ends_with("/count_tokens") {
            return ScriptedResponse::json(200, &serde_json::json!({"input_tokens": 10}));
        }
        if tool_result_text(request).is_some() {
            ScriptedResponse::text_stream(PARENT_MODEL, PARENT_DONE)
        } else {
            ScriptedResponse::tool_use_stream(
                PARENT_MODEL,
                TOOL_USE_ID,
                "Agent",
                &anthropic::agent_input_foreground("Cursor task", task),
            )
        }
    });
}

/// The text of the Agent call's `tool_result` in a parent request, if it carries one.
pub fn tool_result_text(request: &RecordedRequest) -> Option<String> {
    let body: serde_json::Value = serde_json::from_slice(&request.body).ok()?;
    body["messages"]
        .as_array()?
        .iter()
        .filter_map(|m| m["content"].as_array())
        .flatten()
        .find(|block| block["type"] == "tool_result" && block["tool_use_id"] == TOOL_USE_ID)
        .map(|block| match &block["content"] {
            serde_json::Value::String(text) => text.clone(),
            serde_json::Value::Array(parts) => parts
                .iter()
                .filter_map(|p| p["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            other => other.to_string(),
        })
}

/// The parent's Messages requests (not `count_tokens`) the upstream received, in order.
pub fn parent_requests(upstream: &FakeUpstream) -> Vec<RecordedRequest> {
    upstream
        .requests()
        .into_iter()
        .filter(|r| r.path == "/v1/messages")
        .collect()
}
