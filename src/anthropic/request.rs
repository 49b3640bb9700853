//! An Anthropic Messages request (`POST /v1/messages` and `/v1/messages/count_tokens`) as
//! types, parsed tolerantly: unknown fields are ignored, `null` means absent, and unknown
//! block or source types are kept raw so nothing fails to parse.

use serde::Deserialize;
use serde::Deserializer;
use serde::de::DeserializeOwned;
use serde_json::Value;
use thiserror::Error;

/// Why a body is not a Messages request.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub(crate) enum ParseError {
    /// The body is not JSON at all.
    #[error("{0}")]
    Json(String),
    /// The body is JSON but not a Messages request (missing `model`, a malformed block, …).
    #[error("{0}")]
    Request(String),
}

/// Parses a Messages request body.
pub(crate) fn parse(body: &[u8]) -> Result<MessagesRequest, ParseError> {
    serde_json::from_slice(body).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => ParseError::Request(e.to_string()),
        _ => ParseError::Json(e.to_string()),
    })
}

/// An Anthropic Messages request (`POST /v1/messages` and `/v1/messages/count_tokens`), parsed
/// tolerantly: unknown fields are ignored, `null` means absent. Built by `parse`.
#[derive(Debug, Clone, Deserialize)]
pub struct MessagesRequest {
    /// The route, e.g. `multi/cursor/composer-2.5`.
    pub model: String,
    /// The conversation, oldest first; may include `role:"system"` entries.
    #[serde(default, deserialize_with = "null_default")]
    pub messages: Vec<Message>,
    /// Claude's system prompt (kept as sent; the gateway reads it to tell a worker's
    /// request apart and counts it in estimates).
    #[serde(default)]
    pub system: Option<Content>,
    /// Whether the answer is streamed as SSE.
    #[serde(default, deserialize_with = "null_default")]
    pub stream: bool,
    /// Claude's tool catalogue, kept raw.
    #[serde(default, deserialize_with = "null_default")]
    pub tools: Vec<Value>,
    /// How the model must use tools (`auto`, `any`, `tool`, `none`).
    #[serde(default)]
    pub tool_choice: Option<ToolChoice>,
    /// Strings that end the answer.
    #[serde(default, deserialize_with = "null_default")]
    pub stop_sequences: Vec<String>,
    /// `effort` selects a model variant; `format` is refused.
    #[serde(default)]
    pub output_config: Option<OutputConfig>,
    /// The older spelling of a strict output schema; refused.
    #[serde(default)]
    pub output_format: Option<Value>,
    /// Claude Code puts its session id in `user_id`.
    #[serde(default)]
    pub metadata: Option<Metadata>,
    /// Accepted, not enforced (Cursor decides its own output length).
    #[serde(default)]
    pub max_tokens: Option<u64>,
    /// Accepted, not enforced.
    #[serde(default)]
    pub thinking: Option<Value>,
    /// Claude Code's server-side action check (sent in auto mode and in plan with an
    /// auto-capable model, under beta `dangerous-tool-use-2026-09-03` and its successors
    /// `dangerous-tool-use-2026-10-15` and `dangerous-tool-use-classifier-tool-calls-2026-11-23`):
    /// read from this field alone, never from a beta name. `Some` whenever the field was sent,
    /// whatever its shape, so the answer reports on it; keys other than `type` and
    /// `classifier_context.auto_mode` (a `tools` list, `classifier_tool_calls`) are ignored.
    /// Its shape is never a reason to refuse a request; more than `MAX_SAFEGUARDS` checks is.
    #[serde(default, deserialize_with = "lenient_safeguards")]
    pub safeguards: Option<Vec<Safeguard>>,
    /// A server-side message thread (beta `MESSAGE_THREADS_BETA`), kept raw: `{"type":
    /// "continue", "previous_message_id": "msg_…"}` carries only the messages after that
    /// answer (`MessagesRequest::continues_a_thread`).
    #[serde(default)]
    pub thread: Option<Value>,
}

/// The beta of server-side message threads: a request that continues a thread sends only the
/// new messages, and a server that holds no thread answers 400 with the message
/// `capability_rejected: beta_header:message-threads-2026-08-12`, on which Claude Code
/// (2.1.337) sends the turn again with its whole history.
pub(crate) const MESSAGE_THREADS_BETA: &str = "message-threads-2026-08-12";

/// Most checks one request's `safeguards` may ask for (Claude Code asks for one); a Cursor
/// route refuses more, so the answer's work stays bounded by a small number.
pub(crate) const MAX_SAFEGUARDS: usize = 16;

/// One check of `safeguards`. Of its `classifier_context` (paths, git state, identity: never
/// stored or logged) only the number of the user's own auto-mode rules is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Safeguard {
    /// `dangerous_tool_use`.
    pub kind: String,
    /// Entries in `classifier_context.auto_mode`'s `allow`, `soft_deny` and `hard_deny`: the
    /// user's Claude `autoMode` rules.
    pub auto_mode_rules: usize,
}

impl MessagesRequest {
    /// Whether the request leans on a server-side thread: a `thread` of any type but
    /// `create` (a continuation, or a shape this gateway does not know), whose `messages` may
    /// be only the newest part of the conversation.
    pub(crate) fn continues_a_thread(&self) -> bool {
        self.thread
            .as_ref()
            .is_some_and(|thread| thread.get("type").and_then(Value::as_str) != Some("create"))
    }

    /// The user's Claude auto-mode rules the request delivers, counted (0 without
    /// `safeguards`).
    pub(crate) fn auto_mode_rules(&self) -> usize {
        self.safeguards
            .iter()
            .flatten()
            .map(|s| s.auto_mode_rules)
            .max()
            .unwrap_or(0)
    }
}

/// `safeguards` read without ever failing the request: a value that is not a list of objects
/// with a string `type` still counts as sent (its unreadable entries are skipped).
fn lenient_safeguards<'de, D>(deserializer: D) -> Result<Option<Vec<Safeguard>>, D::Error>
where
    D: Deserializer<'de>,
{
    let value = Option::<Value>::deserialize(deserializer)?;
    Ok(value.map(|value| {
        let entries = value.as_array().map(Vec::as_slice).unwrap_or_default();
        entries
            .iter()
            .filter_map(|entry| {
                let kind = entry.get("type")?.as_str()?.to_string();
                let rules = entry
                    .pointer("/classifier_context/auto_mode")
                    .map_or(0, |rules| {
                        ["allow", "soft_deny", "hard_deny"]
                            .iter()
                            .filter_map(|key| rules.get(key)?.as_array().map(Vec::len))
                            .sum()
                    });
                Some(Safeguard {
                    kind,
                    auto_mode_rules: rules,
                })
            })
            .collect()
    }))
}

/// One entry of `messages`.
#[derive(Debug, Clone, Deserialize)]
pub struct Message {
    /// Who spoke.
    pub role: Role,
    /// A string or an array of blocks.
    #[serde(default)]
    pub content: Content,
}

/// The role of a message. `system` entries are Claude Code's context and never sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user (and tool results).
    User,
    /// A model's answer (Cursor's or a Claude model's).
    Assistant,
    /// Claude Code's environment context inside `messages`.
    System,
    /// Any other role; ignored.
    #[serde(other)]
    Other,
}

/// Message, `system` or tool-result content: a plain string or an array of blocks.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// `"content": "…"`.
    Text(String),
    /// `"content": [{…}, …]`.
    Blocks(Vec<ContentBlock>),
}

impl Default for Content {
    fn default() -> Self {
        Content::Blocks(Vec::new())
    }
}

/// One content block. Unknown block types are kept (not sent) so nothing fails to parse.
#[derive(Debug, Clone, PartialEq)]
pub enum ContentBlock {
    /// `text`.
    Text { text: String },
    /// `image` with a base64 or URL source.
    Image { source: MediaSource },
    /// `document`: a PDF (base64 or URL), plain text, or content blocks.
    Document {
        source: MediaSource,
        title: Option<String>,
    },
    /// `tool_use`: a tool call by the assistant.
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
    /// `tool_result`: the result of a tool call, in a user message.
    ToolResult {
        tool_use_id: String,
        content: Content,
        is_error: bool,
    },
    /// `thinking` (never sent to Cursor).
    Thinking { thinking: String },
    /// `redacted_thinking` (never sent).
    RedactedThinking,
    /// A server tool block (`server_tool_use`, `web_search_tool_result`, `mcp_tool_use`, …).
    ServerTool { kind: String, raw: Value },
    /// Any other block type, kept raw.
    Unknown { kind: String, raw: Value },
}

/// The `source` of an image or document block.
#[derive(Debug, Clone, PartialEq)]
pub enum MediaSource {
    /// `{"type":"base64","media_type":…,"data":…}`.
    Base64 { media_type: String, data: String },
    /// `{"type":"url","url":…}`.
    Url { url: String },
    /// A plain-text document: `{"type":"text","data":…}`.
    Text { data: String },
    /// A document made of content blocks: `{"type":"content","content":[…]}`.
    Content { content: Content },
    /// Any other source type (`file`, …), kept raw.
    Other { kind: String, raw: Value },
}

/// `tool_choice`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ToolChoice {
    /// `auto`, `any`, `tool` or `none`.
    #[serde(rename = "type", default)]
    pub kind: String,
    /// The forced tool's name when `kind` is `tool`.
    #[serde(default)]
    pub name: Option<String>,
}

/// `output_config`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct OutputConfig {
    /// `low` | `medium` | `high` | …; used to pick an effort variant of the Cursor model.
    #[serde(default)]
    pub effort: Option<String>,
    /// A strict output schema.
    #[serde(default)]
    pub format: Option<Value>,
}

/// `metadata`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Metadata {
    /// Claude Code sends a JSON *string* holding `device_id`, `account_uuid`, `session_id`.
    #[serde(default)]
    pub user_id: Option<Value>,
}

fn null_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

fn typed<T: DeserializeOwned>(value: Value, what: &str) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| format!("{what}: {e}"))
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Content::from_value(Value::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

impl Content {
    /// The text of a string, or of each text block, in order.
    pub(crate) fn texts(&self) -> Vec<&str> {
        match self {
            Content::Text(text) => vec![text.as_str()],
            Content::Blocks(blocks) => blocks
                .iter()
                .filter_map(|b| match b {
                    ContentBlock::Text { text } => Some(text.as_str()),
                    _ => None,
                })
                .collect(),
        }
    }

    fn from_value(value: Value) -> Result<Content, String> {
        match value {
            Value::String(text) => Ok(Content::Text(text)),
            Value::Null => Ok(Content::default()),
            Value::Array(items) => items
                .into_iter()
                .map(ContentBlock::from_value)
                .collect::<Result<Vec<_>, _>>()
                .map(Content::Blocks),
            other => Err(format!(
                "content must be a string or an array of blocks, not {other}"
            )),
        }
    }
}

impl<'de> Deserialize<'de> for ContentBlock {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        ContentBlock::from_value(Value::deserialize(deserializer)?)
            .map_err(serde::de::Error::custom)
    }
}

#[derive(Deserialize)]
struct TextRepr {
    text: String,
}

#[derive(Deserialize)]
struct ImageRepr {
    source: MediaSource,
}

#[derive(Deserialize)]
struct DocumentRepr {
    source: MediaSource,
    #[serde(default)]
    title: Option<String>,
}

#[derive(Deserialize)]
struct ToolUseRepr {
    #[serde(default, deserialize_with = "null_default")]
    id: String,
    name: String,
    #[serde(default)]
    input: Value,
}

#[derive(Deserialize)]
struct ToolResultRepr {
    #[serde(default, deserialize_with = "null_default")]
    tool_use_id: String,
    #[serde(default)]
    content: Content,
    #[serde(default, deserialize_with = "null_default")]
    is_error: bool,
}

#[derive(Deserialize)]
struct ThinkingRepr {
    #[serde(default, deserialize_with = "null_default")]
    thinking: String,
}

fn is_server_tool_type(kind: &str) -> bool {
    matches!(kind, "server_tool_use" | "mcp_tool_use")
        || (kind.ends_with("_tool_result") && kind != "tool_result")
}

impl ContentBlock {
    fn from_value(value: Value) -> Result<ContentBlock, String> {
        let kind = value
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let what = format!("{kind} block");
        Ok(match kind.as_str() {
            "text" => {
                let r: TextRepr = typed(value, &what)?;
                ContentBlock::Text { text: r.text }
            }
            "image" => {
                let r: ImageRepr = typed(value, &what)?;
                ContentBlock::Image { source: r.source }
            }
            "document" => {
                let r: DocumentRepr = typed(value, &what)?;
                ContentBlock::Document {
                    source: r.source,
                    title: r.title,
                }
            }
            "tool_use" => {
                let r: ToolUseRepr = typed(value, &what)?;
                ContentBlock::ToolUse {
                    id: r.id,
                    name: r.name,
                    input: r.input,
                }
            }
            "tool_result" => {
                let r: ToolResultRepr = typed(value, &what)?;
                ContentBlock::ToolResult {
                    tool_use_id: r.tool_use_id,
                    content: r.content,
                    is_error: r.is_error,
                }
            }
            "thinking" => {
                let r: ThinkingRepr = typed(value, &what)?;
                ContentBlock::Thinking {
                    thinking: r.thinking,
                }
            }
            "redacted_thinking" => ContentBlock::RedactedThinking,
            k if is_server_tool_type(k) => ContentBlock::ServerTool { kind, raw: value },
            _ => ContentBlock::Unknown { kind, raw: value },
        })
    }
}

#[derive(Deserialize)]
struct Base64Repr {
    #[serde(default, deserialize_with = "null_default")]
    media_type: String,
    data: String,
}

#[derive(Deserialize)]
struct UrlRepr {
    url: String,
}

#[derive(Deserialize)]
struct TextSourceRepr {
    data: String,
}

#[derive(Deserialize)]
struct ContentSourceRepr {
    #[serde(default)]
    content: Content,
}

impl<'de> Deserialize<'de> for MediaSource {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        MediaSource::from_value(Value::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

impl MediaSource {
    fn from_value(value: Value) -> Result<MediaSource, String> {
        let kind = value
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let what = format!("{kind} source");
        Ok(match kind.as_str() {
            "base64" => {
                let r: Base64Repr = typed(value, &what)?;
                MediaSource::Base64 {
                    media_type: r.media_type,
                    data: r.data,
                }
            }
            "url" => {
                let r: UrlRepr = typed(value, &what)?;
                MediaSource::Url { url: r.url }
            }
            "text" => {
                let r: TextSourceRepr = typed(value, &what)?;
                MediaSource::Text { data: r.data }
            }
            "content" => {
                let r: ContentSourceRepr = typed(value, &what)?;
                MediaSource::Content { content: r.content }
            }
            _ => MediaSource::Other { kind, raw: value },
        })
    }
}
