//! Decoding of a `tool_call` event's payload into a [`ToolCall`] and, once completed, its
//! [`ToolOutcome`]. The CLI has written three forms over time: a keyed form
//! (`{"shellToolCall":{"args":…,"result":…}}` with siblings such as `toolCallId`, `startedAtMs`),
//! an OpenAI-style `function` form, and a protobuf-style `{"tool":{"case":…,"value":…}}` form.

use serde_json::Map;
use serde_json::Value;

use crate::cursor::events::ToolCall;
use crate::cursor::events::ToolOutcome;

/// Suffix of the key naming a tool inside `tool_call` (`shellToolCall`, `readToolCall`, …).
const TOOL_KEY_SUFFIX: &str = "ToolCall";

/// The parts of a `tool_call` object, whatever form it came in.
struct ToolParts {
    tool: String,
    args: Value,
    result: Option<Value>,
}

/// Build the [`ToolCall`] of a `tool_call` event and return its raw `result`, if any.
pub(super) fn tool_call(
    event_call_id: Option<String>,
    tool_call: Option<Value>,
) -> (ToolCall, Option<Value>) {
    let mut outer = match tool_call {
        Some(Value::Object(outer)) => outer,
        _ => Map::new(),
    };
    let sibling_id = take_string(&mut outer, "toolCallId");
    let parts = function_form(&mut outer)
        .or_else(|| keyed_form(&mut outer))
        .or_else(|| case_form(&mut outer))
        .unwrap_or_else(|| ToolParts {
            tool: "unknown".to_owned(),
            args: Value::Null,
            result: None,
        });
    let args_id = parts.args.get("toolCallId").and_then(Value::as_str);
    let call_id = event_call_id
        .filter(|id| !id.is_empty())
        .or(sibling_id.filter(|id| !id.is_empty()))
        .or_else(|| args_id.map(str::to_owned))
        .unwrap_or_default();
    let call = ToolCall {
        call_id,
        tool: parts.tool,
        args: parts.args,
    };
    (call, parts.result)
}

/// `{"function":{"name","arguments":"<json string>","result"?}}`.
fn function_form(outer: &mut Map<String, Value>) -> Option<ToolParts> {
    let Some(Value::Object(mut function)) = outer.remove("function") else {
        return None;
    };
    let tool = take_string(&mut function, "name").unwrap_or_else(|| "unknown".to_owned());
    let args = match function.remove("arguments") {
        Some(Value::String(text)) => serde_json::from_str(&text).unwrap_or(Value::String(text)),
        Some(other) => other,
        None => Value::Null,
    };
    Some(ToolParts {
        tool,
        args,
        result: function.remove("result"),
    })
}

/// `{"<name>ToolCall":{"args":{…},"result"?:{…}}, …siblings}`, or the older flat form where the
/// arguments sit beside `result` without an `args` wrapper.
fn keyed_form(outer: &mut Map<String, Value>) -> Option<ToolParts> {
    let key = outer
        .keys()
        .find(|key| key.len() > TOOL_KEY_SUFFIX.len() && key.ends_with(TOOL_KEY_SUFFIX))?
        .clone();
    let inner = outer.remove(&key)?;
    Some(named_parts(&key, inner))
}

/// `{"tool":{"case":"<name>ToolCall","value":{…}}}` (a protobuf-style rendering seen in a test).
fn case_form(outer: &mut Map<String, Value>) -> Option<ToolParts> {
    let Some(Value::Object(mut tool)) = outer.remove("tool") else {
        return None;
    };
    let key = take_string(&mut tool, "case")?;
    let inner = tool.remove("value").unwrap_or(Value::Null);
    Some(named_parts(&key, inner))
}

fn named_parts(key: &str, inner: Value) -> ToolParts {
    let tool = key.strip_suffix(TOOL_KEY_SUFFIX).unwrap_or(key).to_owned();
    let Value::Object(mut inner) = inner else {
        return ToolParts {
            tool,
            args: Value::Null,
            result: None,
        };
    };
    let result = inner.remove("result");
    let args = match inner.remove("args") {
        Some(args) => args,
        None if inner.is_empty() => Value::Null,
        None => Value::Object(inner),
    };
    ToolParts { tool, args, result }
}

fn take_string(map: &mut Map<String, Value>, key: &str) -> Option<String> {
    match map.remove(key) {
        Some(Value::String(text)) => Some(text),
        _ => None,
    }
}

/// Map a completed call's `result` one-of to its outcome.
pub(super) fn tool_outcome(result: Option<Value>) -> ToolOutcome {
    let mut result = match result {
        Some(Value::Object(result)) => result,
        Some(other) => return ToolOutcome::Unknown { value: other },
        None => return ToolOutcome::Unknown { value: Value::Null },
    };
    if let Some(value) = result.remove("success") {
        ToolOutcome::Success { value }
    } else if let Some(error) = result.remove("error") {
        ToolOutcome::Error {
            message: error_message(error),
        }
    } else if let Some(value) = result
        .remove("rejected")
        .or_else(|| result.remove("permissionDenied"))
    {
        ToolOutcome::Rejected {
            reason: reason_of(&value),
            value,
        }
    } else {
        ToolOutcome::Unknown {
            value: Value::Object(result),
        }
    }
}

/// `{"error":"<msg>"}`, `{"message":"<msg>"}`, a bare string, or the JSON text as a last resort.
fn error_message(error: Value) -> String {
    match error {
        Value::String(message) => message,
        Value::Object(mut fields) => take_string(&mut fields, "error")
            .or_else(|| take_string(&mut fields, "errorMessage"))
            .or_else(|| take_string(&mut fields, "message"))
            .unwrap_or_else(|| Value::Object(fields).to_string()),
        other => other.to_string(),
    }
}

/// The refusal's `reason` (often empty), its `message`, the `error` of 2026.10's
/// `permissionDenied {command, workingDirectory, error, isReadonly}`, or a bare string.
fn reason_of(value: &Value) -> String {
    let text = match value {
        Value::String(reason) => Some(reason.as_str()),
        _ => ["reason", "message", "error"]
            .iter()
            .filter_map(|key| value.get(*key).and_then(Value::as_str))
            .find(|text| !text.trim().is_empty()),
    };
    text.unwrap_or_default().to_owned()
}
