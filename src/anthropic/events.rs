//! The events of a streamed Messages answer, their SSE framing, and the one message they fold
//! into when the client did not ask for a stream.
//!
//! An answer is built, kept (in an exchange, in a record's replay) and served as
//! [`StreamEvent`]s; it becomes SSE text ([`StreamEvent::frame`]) or JSON ([`fold_message`],
//! a record's `[name, data]` pairs) only at the edge. Data objects are written with their keys
//! in alphabetical order.

use std::collections::HashSet;
use std::hash::Hash;

use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;
use serde_json::json;

use super::error::ErrorDetail;
use super::usage::USAGE_FIELD;
use super::usage::Usage;
use super::usage::UsageSource;

/// One event of a streamed Messages answer, serialised as its SSE `data:` object (the variant
/// is the object's `type`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StreamEvent {
    /// Opens the answer: the message with no content yet, and its input token count.
    MessageStart { message: MessageStart },
    /// Opens content block `index`: text block 0, and for an answer that opens one of Claude
    /// Code's dialogs, the `tool_use` block 1 after it.
    ContentBlockStart {
        index: usize,
        content_block: ContentBlock,
    },
    /// Appends to the open content block `index`.
    ContentBlockDelta { index: usize, delta: ContentDelta },
    /// Closes content block `index`.
    ContentBlockStop { index: usize },
    /// The answer's end: why it stopped, the final usage and, for this gateway's answers, the
    /// `multi_cursor_usage` object.
    MessageDelta {
        delta: MessageDeltaBody,
        usage: Usage,
        #[serde(
            rename = "multi_cursor_usage",
            default,
            skip_serializing_if = "Option::is_none"
        )]
        source: Option<UsageSource>,
    },
    /// The last event of a complete answer.
    MessageStop,
    /// Keeps a quiet stream open.
    Ping,
    /// The answer failed after it had started streaming.
    Error { error: ErrorDetail },
}

/// The message object of `message_start`: an assistant message with no content yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageStart {
    /// `msg_` and 24 hex digits.
    pub id: String,
    /// Always `message`.
    #[serde(rename = "type")]
    pub kind: MessageType,
    /// Always `assistant`.
    pub role: AssistantRole,
    /// The model id, echoed as the client sent it.
    pub model: String,
    /// Always empty in `message_start`.
    pub content: Vec<ContentBlock>,
    /// `null` until the final `message_delta`.
    pub stop_reason: Option<StopReason>,
    /// `null`: stop sequences are never used.
    pub stop_sequence: Option<String>,
    /// Input tokens, and 0 output tokens so far.
    pub usage: Usage,
}

impl MessageStart {
    /// The start of an answer in `model` with `input_tokens`, under a fresh random id.
    pub(crate) fn new(model: &str, input_tokens: u64) -> Self {
        MessageStart {
            id: format!("msg_{:024x}", crate::random::u128() >> 32),
            kind: MessageType::Message,
            role: AssistantRole::Assistant,
            model: model.to_string(),
            content: Vec::new(),
            stop_reason: None,
            stop_sequence: None,
            usage: Usage {
                input_tokens,
                ..Usage::default()
            },
        }
    }
}

/// The `type` of a message object: always `message`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageType {
    /// `message`.
    Message,
}

/// The role of an answer: always `assistant`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AssistantRole {
    /// `assistant`.
    Assistant,
}

/// Why an answer stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The answer is complete.
    EndTurn,
    /// The answer ends with a `tool_use` block for Claude Code to run (one of its dialogs).
    ToolUse,
}

/// A content block of an answer: text, or the `tool_use` that opens one of Claude Code's
/// dialogs (its `input` is `{}` here and arrives whole in one `input_json_delta`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentBlock {
    /// A text block.
    Text { text: String },
    /// A tool call for Claude Code to run.
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
}

/// What a `content_block_delta` appends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentDelta {
    /// More text for a text block.
    TextDelta { text: String },
    /// A `tool_use` block's input, as JSON text.
    InputJsonDelta { partial_json: String },
}

/// The `delta` of the final `message_delta`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MessageDeltaBody {
    /// Why the answer stopped.
    pub stop_reason: StopReason,
    /// `null`: stop sequences are never used.
    pub stop_sequence: Option<String>,
    /// The answer to Claude Code's action check, when it asked ([`safeguard_results`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safeguard_results: Option<Value>,
}

impl StreamEvent {
    /// `message_start` of an answer in `model` (echoed as the client sent it), with a fresh id.
    pub fn message_start(model: &str, input_tokens: u64) -> Self {
        StreamEvent::MessageStart {
            message: MessageStart::new(model, input_tokens),
        }
    }

    /// Opens the answer's one text block (index 0).
    pub fn text_block_start() -> Self {
        StreamEvent::ContentBlockStart {
            index: 0,
            content_block: ContentBlock::Text {
                text: String::new(),
            },
        }
    }

    /// Appends `text` to the answer's text block (index 0).
    pub fn text_delta(text: impl Into<String>) -> Self {
        StreamEvent::ContentBlockDelta {
            index: 0,
            delta: ContentDelta::TextDelta { text: text.into() },
        }
    }

    /// Closes the answer's text block (index 0).
    pub fn text_block_stop() -> Self {
        StreamEvent::ContentBlockStop { index: 0 }
    }

    /// The final `message_delta` of a complete answer (`end_turn`).
    pub fn end_turn(usage: Usage, source: Option<UsageSource>) -> Self {
        StreamEvent::stop(StopReason::EndTurn, usage, source)
    }

    /// The three events of a `tool_use` block at `index`: its start with an empty input, the
    /// whole input in one `input_json_delta`, its stop (as Anthropic streams a tool call).
    pub(crate) fn tool_use_block(index: usize, id: &str, name: &str, input: &Value) -> [Self; 3] {
        [
            StreamEvent::ContentBlockStart {
                index,
                content_block: ContentBlock::ToolUse {
                    id: id.to_string(),
                    name: name.to_string(),
                    input: Value::Object(serde_json::Map::new()),
                },
            },
            StreamEvent::ContentBlockDelta {
                index,
                delta: ContentDelta::InputJsonDelta {
                    partial_json: input.to_string(),
                },
            },
            StreamEvent::ContentBlockStop { index },
        ]
    }

    /// The final `message_delta` of an answer that stops for `reason`.
    pub(crate) fn stop(reason: StopReason, usage: Usage, source: Option<UsageSource>) -> Self {
        StreamEvent::MessageDelta {
            delta: MessageDeltaBody {
                stop_reason: reason,
                stop_sequence: None,
                safeguard_results: None,
            },
            usage,
            source,
        }
    }

    /// The event's data object, keys in alphabetical order.
    pub(crate) fn data(&self) -> Value {
        // Serialising these types cannot fail: every map key is a string.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The name of the event whose data object is `data`: its `type`, which is also its SSE
    /// `event:` line and a record's stored name. Serde spells it from the variant's name (the
    /// one place an event name is spelled); empty when `data` has none.
    pub(crate) fn name_of(data: &Value) -> &str {
        data.get("type").and_then(Value::as_str).unwrap_or_default()
    }

    /// The SSE frame: `event:` and `data:` lines, then a blank line.
    pub fn frame(&self) -> String {
        let data = self.data();
        format!("event: {}\ndata: {data}\n\n", StreamEvent::name_of(&data))
    }

    /// Marks an event of an answer served again: the final `message_delta`'s
    /// `multi_cursor_usage` gets `"replayed": true`. Other events are unchanged.
    pub fn mark_replayed(&mut self) {
        if let StreamEvent::MessageDelta {
            source: Some(source),
            ..
        } = self
        {
            source.replayed = true;
        }
    }

    /// Puts `results` ([`safeguard_results`]) in the final `message_delta`'s `delta`, where
    /// Claude Code reads them from a stream. Other events are unchanged.
    pub fn add_safeguard_results(&mut self, results: &Value) {
        if let StreamEvent::MessageDelta { delta, .. } = self {
            delta.safeguard_results = Some(results.clone());
        }
    }
}

/// The answer to Claude Code's server-side action check (`safeguards`) for an answer that holds
/// no tool use, which every Cursor answer is: each check asked for is `available` with nothing
/// to judge — what the API itself answers for a turn without tool use. One result per type
/// asked for, in the order first asked (`first_of_each`: linear in the number of checks).
pub fn safeguard_results<'a>(kinds: impl IntoIterator<Item = &'a str>) -> Value {
    Value::Array(
        first_of_each(kinds)
            .into_iter()
            .map(|kind| json!({"type": kind, "status": {"type": "available", "tool_uses": {}}}))
            .collect(),
    )
}

/// The first of each equal item of `items`, in their order: one pass with a hash set (a
/// request chooses how many items there are, so never a scan per item).
pub(crate) fn first_of_each<T: Eq + Hash + Clone>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut seen = HashSet::new();
    items
        .into_iter()
        .filter(|item| seen.insert(item.clone()))
        .collect()
}

/// Where Claude Code reads the answer to its action check: the final `message_delta`'s
/// `delta` when streamed, the message's top level otherwise.
const SAFEGUARD_RESULTS: &str = "safeguard_results";

/// Folds an answer's events into one non-streamed Messages response: `message_start`'s
/// message, the text of every delta as one text block, and the final `message_delta`'s stop
/// reason, usage, `multi_cursor_usage` and action-check answer.
pub fn fold_message(events: &[StreamEvent]) -> Value {
    let mut message = json!({});
    let mut text = String::new();
    // A dialog's `tool_use` block: its id, name and the input JSON streamed for it.
    let mut tools: Vec<(String, String, String)> = Vec::new();
    for event in events {
        match event {
            StreamEvent::MessageStart { message: start } => {
                message = serde_json::to_value(start).unwrap_or_else(|_| json!({}));
            }
            StreamEvent::ContentBlockDelta {
                delta: ContentDelta::TextDelta { text: more },
                ..
            } => text.push_str(more),
            StreamEvent::ContentBlockStart {
                content_block: ContentBlock::ToolUse { id, name, .. },
                ..
            } => tools.push((id.clone(), name.clone(), String::new())),
            StreamEvent::ContentBlockDelta {
                delta: ContentDelta::InputJsonDelta { partial_json },
                ..
            } => {
                if let Some((_, _, input)) = tools.last_mut() {
                    input.push_str(partial_json);
                }
            }
            StreamEvent::MessageDelta {
                delta,
                usage,
                source,
            } => {
                message["stop_reason"] =
                    serde_json::to_value(delta.stop_reason).unwrap_or_default();
                message["stop_sequence"] = json!(delta.stop_sequence);
                message["usage"] = serde_json::to_value(usage).unwrap_or_default();
                if let Some(source) = source {
                    message[USAGE_FIELD] = serde_json::to_value(source).unwrap_or_default();
                }
                if let Some(results) = &delta.safeguard_results {
                    message[SAFEGUARD_RESULTS] = results.clone();
                }
            }
            _ => {}
        }
    }
    let mut content = vec![json!({"type": "text", "text": text})];
    content.extend(tools.into_iter().map(|(id, name, input)| {
        let input: Value = serde_json::from_str(&input).unwrap_or_else(|_| json!({}));
        json!({"type": "tool_use", "id": id, "name": name, "input": input})
    }));
    message["content"] = Value::Array(content);
    message
}

/// The events of a complete one-block text answer, all at once: `message_start` (with
/// `input_tokens`), the text, and the closing events ([`closing_events`]).
pub fn answer_events(
    model: &str,
    text: &str,
    input_tokens: u64,
    usage: Usage,
    source: Option<UsageSource>,
) -> Vec<StreamEvent> {
    let mut events = vec![
        StreamEvent::message_start(model, input_tokens),
        StreamEvent::text_block_start(),
        StreamEvent::text_delta(text),
    ];
    events.extend(closing_events(usage, source));
    events
}

/// The end of a one-block answer: `content_block_stop`, the final `message_delta` carrying
/// `usage` (and, when given, the `multi_cursor_usage` object), `message_stop`.
pub fn closing_events(usage: Usage, source: Option<UsageSource>) -> Vec<StreamEvent> {
    vec![
        StreamEvent::text_block_stop(),
        StreamEvent::end_turn(usage, source),
        StreamEvent::MessageStop,
    ]
}

/// The end of an answer that opens one of Claude Code's dialogs: the text block's stop, the
/// `tool_use` block (index 1), the final `message_delta` with `stop_reason: "tool_use"`,
/// `message_stop`.
pub fn closing_with_tool(
    usage: Usage,
    source: Option<UsageSource>,
    id: &str,
    name: &str,
    input: &Value,
) -> Vec<StreamEvent> {
    let mut events = vec![StreamEvent::text_block_stop()];
    events.extend(StreamEvent::tool_use_block(1, id, name, input));
    events.push(StreamEvent::stop(StopReason::ToolUse, usage, source));
    events.push(StreamEvent::MessageStop);
    events
}

#[cfg(test)]
mod tests {
    use super::super::usage::UsageOrigin;
    use super::*;

    #[test]
    fn data_matches_the_hand_written_objects() {
        let start = StreamEvent::message_start("multi/cursor/x", 7).data();
        let id = start["message"]["id"].clone();
        assert_eq!(
            start.to_string(),
            json!({"type": "message_start", "message": {
                "id": id, "type": "message", "role": "assistant", "model": "multi/cursor/x",
                "content": [], "stop_reason": null, "stop_sequence": null,
                "usage": {"input_tokens": 7, "output_tokens": 0}}})
            .to_string()
        );
        assert_eq!(
            StreamEvent::text_block_start().frame(),
            "event: content_block_start\ndata: {\"content_block\":{\"text\":\"\",\"type\":\"text\"},\"index\":0,\"type\":\"content_block_start\"}\n\n"
        );
        assert_eq!(
            StreamEvent::text_delta("hi").frame(),
            "event: content_block_delta\ndata: {\"delta\":{\"text\":\"hi\",\"type\":\"text_delta\"},\"index\":0,\"type\":\"content_block_delta\"}\n\n"
        );
        assert_eq!(
            StreamEvent::Ping.frame(),
            "event: ping\ndata: {\"type\":\"ping\"}\n\n"
        );
        let usage = Usage {
            input_tokens: 3,
            output_tokens: 4,
            cache_read_input_tokens: Some(5),
            cache_creation_input_tokens: None,
        };
        let source = UsageSource {
            source: UsageOrigin::Provider,
            model: "m".to_string(),
            replayed: false,
        };
        assert_eq!(
            StreamEvent::end_turn(usage, Some(source)).data(),
            json!({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null},
                "usage": {"input_tokens": 3, "output_tokens": 4, "cache_read_input_tokens": 5},
                "multi_cursor_usage": {"source": "provider", "model": "m"}})
        );
        assert_eq!(
            StreamEvent::MessageStop.data(),
            json!({"type": "message_stop"})
        );
    }

    #[test]
    fn a_replayed_delta_says_so() {
        let mut delta = StreamEvent::end_turn(
            Usage::default(),
            Some(UsageSource {
                source: UsageOrigin::Estimate,
                model: "m".to_string(),
                replayed: false,
            }),
        );
        delta.mark_replayed();
        assert_eq!(delta.data()[USAGE_FIELD]["replayed"], true);
        let mut events = answer_events("x", "hello", 1, Usage::default(), None);
        let results = safeguard_results(["action_check"]);
        for event in &mut events {
            event.add_safeguard_results(&results);
        }
        let folded = fold_message(&events);
        assert_eq!(folded["content"][0]["text"], "hello");
        assert_eq!(folded["stop_reason"], "end_turn");
        assert_eq!(folded["stop_sequence"], serde_json::Value::Null);
        assert_eq!(folded[SAFEGUARD_RESULTS], results);
        assert_eq!(folded["model"], "x");
    }

    /// An item that counts how often it is compared, so the de-duplication's work is counted
    /// rather than timed.
    #[derive(Clone)]
    struct Counted<'a> {
        value: usize,
        compared: &'a std::cell::Cell<usize>,
    }

    impl PartialEq for Counted<'_> {
        fn eq(&self, other: &Self) -> bool {
            self.compared.set(self.compared.get() + 1);
            self.value == other.value
        }
    }

    impl Eq for Counted<'_> {}

    impl std::hash::Hash for Counted<'_> {
        fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
            self.value.hash(state);
        }
    }

    #[test]
    fn de_duplication_is_linear_and_keeps_the_first_order() {
        let compared = std::cell::Cell::new(0);
        let n = 20_000;
        // Every value twice: n distinct items, then the same n again.
        let items = (0..2 * n).map(|i| Counted {
            value: i % n,
            compared: &compared,
        });
        let kept: Vec<usize> = first_of_each(items).into_iter().map(|c| c.value).collect();
        assert_eq!(kept, (0..n).collect::<Vec<_>>());
        // A scan per item compares about n² / 2 times (2·10⁸ here); a hash set about once per
        // repeated item.
        assert!(
            compared.get() <= 4 * n,
            "{} comparisons for {} items",
            compared.get(),
            2 * n
        );
        let results = safeguard_results(["b", "a", "b", "a"]);
        assert_eq!(results[0]["type"], "b");
        assert_eq!(results[1]["type"], "a");
        assert_eq!(results.as_array().map(Vec::len), Some(2));
    }
}
