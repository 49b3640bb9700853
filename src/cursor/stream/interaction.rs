//! `interaction_query` pairs: in print mode the CLI asks itself for approval (a web fetch, a
//! web search, a question for the user, a plan) and answers in the same millisecond. An
//! approved query adds nothing (its tool call tells the story); a rejected one is remembered
//! by the tool call id it names, so that call's `completed` event becomes
//! [`ToolOutcome::Unapproved`]. A query's arguments also stand in for a `completed` event that
//! carries none (a rejected call's completion never does, and a denied web search may have no
//! `started` at all).
//!
//! Shapes (2026.09.10–2026.10.01): the request is
//! `{"query_type":"webFetchRequestQuery","query":{"id":0,"webFetchRequestQuery":{"args":{"url","toolCallId"},"skipApproval":false}}}`
//! (for a question the `toolCallId` is a sibling of `args`); the response
//! `{"response":{"id":0,"webFetchRequestResponse":{"rejected":{"reason":"User Rejected"}}}}` or
//! `{"approved":{}}`; a question's answer nests one level deeper:
//! `{"askQuestionInteractionResponse":{"result":{"rejected":{"reason":"Questions skipped by the user, …"}}}}`.
//! `id` counts per run; no `model_call_id`.

use std::collections::HashMap;

use serde_json::Map;
use serde_json::Value;

use crate::cursor::events::QueryKind;
use crate::cursor::events::ToolCall;
use crate::cursor::events::ToolOutcome;

/// Most queries remembered at once (a run asks a handful; this only bounds a runaway stream).
const MAX_REMEMBERED: usize = 256;

/// A request seen, waiting for its response.
#[derive(Debug, Clone)]
struct Request {
    query: QueryKind,
    call_id: Option<String>,
    args: Value,
}

/// What a run's queries said about a tool call.
#[derive(Debug, Clone)]
struct Answer {
    query: QueryKind,
    args: Value,
    /// `Some(reason)` when the query was rejected.
    rejected: Option<String>,
}

/// The queries of one run, paired by `id`, remembered by tool call id.
#[derive(Debug, Default)]
pub(super) struct Interactions {
    pending: HashMap<u64, Request>,
    by_call: HashMap<String, Answer>,
}

impl Interactions {
    /// An `interaction_query/request`.
    pub(super) fn request(&mut self, query_type: Option<&str>, query: Option<Value>) {
        let Some(Value::Object(mut query)) = query else {
            return;
        };
        let Some(id) = query.get("id").and_then(Value::as_u64) else {
            return;
        };
        let key = query_type
            .map(str::to_owned)
            .or_else(|| query.keys().find(|k| k.as_str() != "id").cloned());
        let Some(key) = key else {
            return;
        };
        let mut body = match query.remove(&key) {
            Some(Value::Object(body)) => body,
            _ => Map::new(),
        };
        let sibling_id = take_string(&mut body, "toolCallId");
        let mut args = body.remove("args").unwrap_or(Value::Null);
        let args_id = match &mut args {
            Value::Object(fields) => take_string(fields, "toolCallId"),
            _ => None,
        };
        if self.pending.len() >= MAX_REMEMBERED {
            self.pending.clear();
        }
        self.pending.insert(
            id,
            Request {
                query: QueryKind::of(&key),
                call_id: sibling_id.or(args_id).filter(|id| !id.is_empty()),
                args,
            },
        );
    }

    /// An `interaction_query/response`: pairs it with its request.
    pub(super) fn response(&mut self, response: Option<Value>) {
        let Some(Value::Object(response)) = response else {
            return;
        };
        let Some(id) = response.get("id").and_then(Value::as_u64) else {
            return;
        };
        let Some(request) = self.pending.remove(&id) else {
            return;
        };
        let rejected = response
            .iter()
            .filter(|(key, _)| key.as_str() != "id")
            .find_map(|(_, answer)| rejection(answer));
        let Some(call_id) = request.call_id else {
            return;
        };
        if self.by_call.len() >= MAX_REMEMBERED {
            self.by_call.clear();
        }
        self.by_call.insert(
            call_id,
            Answer {
                query: request.query,
                args: request.args,
                rejected,
            },
        );
    }

    /// A tool call event: takes the query's arguments when the event has none (kept for a
    /// `started`, used up by a `completed`), and for a completion turns a refusal that answered
    /// a rejected query into [`ToolOutcome::Unapproved`].
    pub(super) fn on_call(&mut self, call: &mut ToolCall, outcome: Option<&mut ToolOutcome>) {
        if call.call_id.is_empty() {
            return;
        }
        let Some(outcome) = outcome else {
            if call.args.is_null()
                && let Some(answer) = self.by_call.get(&call.call_id)
            {
                call.args = answer.args.clone();
            }
            return;
        };
        let Some(answer) = self.by_call.remove(&call.call_id) else {
            return;
        };
        if call.args.is_null() {
            call.args = answer.args;
        }
        if let Some(reason) = answer.rejected
            && !matches!(outcome, ToolOutcome::Success { .. })
        {
            *outcome = ToolOutcome::Unapproved {
                query: answer.query,
                reason,
            };
        }
    }
}

/// The refusal's reason when an answer (`{"rejected":{…}}`, or one level deeper under
/// `result`) says rejected.
fn rejection(answer: &Value) -> Option<String> {
    let rejected = answer
        .get("rejected")
        .or_else(|| answer.get("result").and_then(|r| r.get("rejected")))?;
    Some(
        rejected
            .get("reason")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
    )
}

fn take_string(map: &mut Map<String, Value>, key: &str) -> Option<String> {
    match map.remove(key) {
        Some(Value::String(text)) => Some(text),
        _ => None,
    }
}
