//! What kind of request this is: a worker's (and its `model:` line), a `/compact`, one of the
//! plugin's slash commands, bash mode's `!command`, and the Claude session it belongs to.

use serde_json::Value;

use super::COMPACTION_PREFIX;
use super::PLUGIN_COMMAND_NAMESPACE;
use super::SUBAGENT_MARKER;
use super::clean::Piece;
use super::clean::conversation;
use super::clean::pieces;
use super::clean::split_newest;
use crate::anthropic::request::Content;
use crate::anthropic::request::ContentBlock;
use crate::anthropic::request::MessagesRequest;
use crate::anthropic::request::Role;

/// Splits a worker's `model: <id>` first line off `text` (the newest user turn's text): leading
/// blank lines are skipped, the key is case-insensitive, spaces around the key, colon and id are
/// tolerated, and the id is one word. Returns `(id, rest)` with the rest's leading line breaks
/// removed; `None` when the first line is anything else. Only for worker requests (the caller
/// decides); the line never reaches Cursor.
pub(crate) fn take_worker_model_line(text: &str) -> Option<(String, String)> {
    let mut body = text;
    while let Some((line, rest)) = body.split_once('\n') {
        if !line.trim().is_empty() {
            break;
        }
        body = rest;
    }
    let (first, rest) = body.split_once('\n').unwrap_or((body, ""));
    let (key, value) = first.split_once(':')?;
    if !key.trim().eq_ignore_ascii_case("model") {
        return None;
    }
    let id = value.trim();
    if id.is_empty() || id.contains(char::is_whitespace) {
        return None;
    }
    Some((
        id.to_string(),
        rest.trim_start_matches(['\n', '\r']).to_string(),
    ))
}

/// Whether the request comes from a Claude Code subagent (a worker): the first `system` block's
/// text ends with `SUBAGENT_MARKER`. Used with (not instead of) the `x-claude-code-agent-id`
/// header when deciding the identity.
pub fn is_subagent(req: &MessagesRequest) -> bool {
    let first = match &req.system {
        Some(Content::Blocks(blocks)) => match blocks.first() {
            Some(ContentBlock::Text { text }) => text.as_str(),
            _ => return false,
        },
        Some(Content::Text(text)) => text.lines().next().unwrap_or_default(),
        None => return false,
    };
    first.trim_end().ends_with(SUBAGENT_MARKER)
}

/// Whether the request is Claude Code's `/compact` summary request: the last user message's
/// text (reminders removed) begins with `COMPACTION_PREFIX`.
pub fn is_compaction_request(req: &MessagesRequest) -> bool {
    let Some(last_user) = req.messages.iter().rev().find(|m| m.role == Role::User) else {
        return false;
    };
    pieces(&last_user.content)
        .iter()
        .find_map(|p| match p {
            Piece::Text(text) => Some(text.trim_start().starts_with(COMPACTION_PREFIX)),
            _ => None,
        })
        .unwrap_or(false)
}

/// The name of this plugin's slash command the newest user turn runs, e.g. `login` for
/// `<command-name>/multi-cursor:login</command-name>`; used to answer plugin commands without
/// running Cursor.
pub fn plugin_command(req: &MessagesRequest) -> Option<String> {
    let messages = conversation(req);
    let (_, newest) = split_newest(&messages);
    newest.iter().find_map(|m| match &m.content {
        Content::Text(text) => command_name(text),
        Content::Blocks(blocks) => blocks.iter().find_map(|b| match b {
            ContentBlock::Text { text } => command_name(text),
            _ => None,
        }),
    })
}

fn command_name(text: &str) -> Option<String> {
    const OPEN: &str = "<command-name>";
    const CLOSE: &str = "</command-name>";
    let start = text.find(OPEN)? + OPEN.len();
    let inner = &text[start..];
    let inner = &inner[..inner.find(CLOSE)?];
    let inner = inner.trim();
    let name = inner
        .strip_prefix('/')
        .unwrap_or(inner)
        .strip_prefix(PLUGIN_COMMAND_NAMESPACE)?
        .trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// The Claude session id in `metadata.user_id` (a JSON string holding `session_id`; an object
/// is accepted too). Used when the `X-Claude-Code-Session-Id` header is missing.
pub fn session_id_from_metadata(req: &MessagesRequest) -> Option<String> {
    let user_id = req.metadata.as_ref()?.user_id.as_ref()?;
    let parsed;
    let object = match user_id {
        Value::String(text) => {
            parsed = serde_json::from_str::<Value>(text).ok()?;
            &parsed
        }
        other => other,
    };
    object
        .get("session_id")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// The gateway's own answer to a request that only carries bash mode's `!command` and its
/// output: nothing runs, and the command reaches Cursor with the next real prompt (this
/// answer is left out of what Cursor is sent, so the two user turns become one).
pub(crate) const BASH_MODE_NOTE: &str = "[Cursor] Cursor was not run for this command; it sees the command and its output with your next message.";

/// Claude Code's tags around bash mode's input and output (measured on 2.1.328: after `!ls`
/// the session's model is sent `<bash-input>ls</bash-input>` and
/// `<bash-stdout>…</bash-stdout><bash-stderr>…</bash-stderr>`, each a text block).
const BASH_TAGS: [&str; 3] = ["<bash-input>", "<bash-stdout>", "<bash-stderr>"];

/// Whether the newest user turn holds nothing but bash mode's input and output (reminders
/// aside): such a request asks the model nothing, so it costs no Cursor run.
pub(crate) fn is_bash_mode_only(req: &MessagesRequest) -> bool {
    let messages = conversation(req);
    let (_, newest) = split_newest(&messages);
    let mut any = false;
    for message in newest {
        for piece in pieces(&message.content) {
            match piece {
                Piece::Text(text) if is_bash_text(&text) => any = true,
                _ => return false,
            }
        }
    }
    any
}

/// A text made of bash mode's tagged blocks only.
fn is_bash_text(text: &str) -> bool {
    let text = text.trim();
    BASH_TAGS.iter().any(|tag| text.starts_with(tag))
        && ["</bash-input>", "</bash-stdout>", "</bash-stderr>"]
            .iter()
            .any(|tag| text.ends_with(tag))
}
