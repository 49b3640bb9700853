//! The plugin's slash commands on a Cursor route: `/multi-cursor:login`, `:models`, `:status`,
//! `:usage` and `:rules` run the helper in their `!` line before the model turn, and Claude Code
//! then sends that turn (holding the helper's output) to the session's model. On a `multi/cursor/*`
//! model the gateway answers it itself from that output, so these commands never cost a Cursor
//! run and work before Cursor is even logged in.
//!
//! What Claude Code 2.1.328 sends for such a command (measured): the newest user turn holds a
//! text block `<command-message>multi-cursor:models</command-message>\n<command-name>/multi-cursor:models</command-name>\n<command-args>…</command-args>`
//! and, in a later text block, the command file's body with each `!` line replaced by its
//! output (stdout and stderr). The command files put that output between
//! [`OUTPUT_OPEN`] and [`OUTPUT_CLOSE`], which is how it is found here.

use std::borrow::Cow;

use crate::anthropic::request::Content;
use crate::anthropic::request::ContentBlock;
use crate::anthropic::request::MessagesRequest;
use crate::anthropic::request::Role;
use crate::session::conversation::plugin_command;
use crate::session::conversation::strip_system_reminders;
use crate::text;
use crate::text::ELLIPSIS;
use crate::text::strip_ansi;

/// Opens the helper's output in a command file (`commands/*.md`).
pub(crate) const OUTPUT_OPEN: &str = "<multi-cursor-output>";
/// Closes the helper's output in a command file.
pub(crate) const OUTPUT_CLOSE: &str = "</multi-cursor-output>";

/// Most lines of output repeated in the answer.
const MAX_LINES: usize = 200;
/// Most bytes of output repeated in the answer.
const MAX_BYTES: usize = 16 * 1024;

/// The gateway's own answer to this plugin's slash command, built from the helper output Claude
/// Code put in the request: `None` when the newest user turn runs no `/multi-cursor:…` command,
/// or when its output block is missing (then the request is an ordinary Cursor turn). Used by
/// the `/v1/messages` handler before anything about Cursor is looked up.
pub(crate) fn local_answer_text(request: &MessagesRequest) -> Option<String> {
    let name = plugin_command(request)?;
    let turn = newest_user_text(request);
    const NAME_CLOSE: &str = "</command-name>";
    let after_command = &turn[turn.find(NAME_CLOSE)? + NAME_CLOSE.len()..];
    let start = after_command.find(OUTPUT_OPEN)? + OUTPUT_OPEN.len();
    let inner = &after_command[start..];
    let output = &inner[..inner.find(OUTPUT_CLOSE)?];
    Some(render(&name, &strip_ansi(output)))
}

/// The text of the user messages after the last assistant message, reminders removed, one
/// block per line group.
fn newest_user_text(request: &MessagesRequest) -> String {
    let mut newest: Vec<&Content> = request
        .messages
        .iter()
        .rev()
        .take_while(|m| m.role != Role::Assistant)
        .filter(|m| m.role == Role::User)
        .map(|m| &m.content)
        .collect();
    newest.reverse();
    let mut texts = Vec::new();
    for content in newest {
        match content {
            Content::Text(text) => texts.push(strip_system_reminders(text)),
            Content::Blocks(blocks) => {
                for block in blocks {
                    if let ContentBlock::Text { text } = block {
                        texts.push(strip_system_reminders(text));
                    }
                }
            }
        }
    }
    texts.join("\n")
}

/// `/multi-cursor:<name>` then the output in a fence, bounded to [`MAX_LINES`] and
/// [`MAX_BYTES`].
fn render(name: &str, output: &str) -> String {
    let output = output.trim_matches(['\n', '\r']).trim_end();
    if output.trim().is_empty() {
        return format!("/multi-cursor:{name}: the helper printed nothing.");
    }
    let (shown, omitted) = bounded(output);
    let fence = "`".repeat(longest_backtick_run(&shown).max(2) + 1);
    let mut answer = format!("/multi-cursor:{name}\n\n{fence}text\n{shown}\n{fence}");
    if omitted > 0 {
        answer.push_str(&format!(
            "\n\n… {omitted} more line{} not shown; run the command in a terminal for all of it.",
            if omitted == 1 { "" } else { "s" }
        ));
    }
    answer
}

/// The first lines of `output` within the limits, and how many lines were left out.
fn bounded(output: &str) -> (Cow<'_, str>, usize) {
    let total = output.lines().count();
    let mut bytes = 0;
    let mut kept = 0;
    for line in output.lines() {
        if kept == MAX_LINES || bytes + line.len() + 1 > MAX_BYTES {
            break;
        }
        bytes += line.len() + 1;
        kept += 1;
    }
    if kept == total {
        return (Cow::Borrowed(output), 0);
    }
    if kept == 0 {
        // One enormous first line: cut it at a character boundary.
        let cut = text::clip_bytes(output, MAX_BYTES);
        return (Cow::Owned(format!("{cut}{ELLIPSIS}")), total - 1);
    }
    let shown: Vec<&str> = output.lines().take(kept).collect();
    (Cow::Owned(shown.join("\n")), total - kept)
}

fn longest_backtick_run(text: &str) -> usize {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

#[cfg(test)]
mod tests {
    use serde_json::Value;
    use serde_json::json;

    use super::*;
    use crate::session::conversation::parse_request;

    const REMINDER: &str = "<system-reminder>\nAttribution for git commits…\n</system-reminder>\n";

    fn command_block(name: &str) -> String {
        format!(
            "<command-message>multi-cursor:{name}</command-message>\n<command-name>/multi-cursor:{name}</command-name>\n<command-args></command-args>\n"
        )
    }

    fn body_block(output: &str) -> String {
        format!(
            "The multi-cursor helper said:\n\n{OUTPUT_OPEN}\n{output}\n{OUTPUT_CLOSE}\n\nReport this to the user briefly. Do not run any tools.\n"
        )
    }

    fn request(messages: Value) -> MessagesRequest {
        let body = json!({
            "model": "multi/cursor/composer-2.5",
            "max_tokens": 32000,
            "stream": true,
            "messages": messages,
        });
        parse_request(body.to_string().as_bytes()).unwrap()
    }

    /// The shape Claude Code 2.1.328 sends: reminder, command block, rendered body.
    fn command_request(name: &str, output: &str) -> MessagesRequest {
        request(json!([{"role": "user", "content": [
            {"type": "text", "text": REMINDER},
            {"type": "text", "text": command_block(name)},
            {"type": "text", "text": body_block(output)},
        ]}]))
    }

    #[test]
    fn the_answer_repeats_the_helper_output() {
        let output =
            "ROUTE  CURSOR MODEL\nmulti/cursor/default  auto\n[multi-cursor exited with status 1]";
        let answer = local_answer_text(&command_request("models", output)).unwrap();
        assert_eq!(
            answer,
            format!("/multi-cursor:models\n\n```text\n{output}\n```")
        );
        assert!(
            !answer.contains("Report this"),
            "the instructions are not repeated"
        );
        assert!(
            !answer.contains("Attribution"),
            "reminders are not repeated"
        );
    }

    #[test]
    fn a_single_string_turn_works_too() {
        let text = format!(
            "{}{}",
            command_block("status"),
            body_block("Cursor agent: /bin/agent")
        );
        let answer = local_answer_text(&request(json!([{"role": "user", "content": text}])));
        assert_eq!(
            answer.as_deref(),
            Some("/multi-cursor:status\n\n```text\nCursor agent: /bin/agent\n```")
        );
    }

    #[test]
    fn other_requests_are_not_answered() {
        let plain = request(json!([{"role": "user", "content": "fix the bug"}]));
        assert_eq!(local_answer_text(&plain), None);
        let other_command = request(json!([{"role": "user", "content": [
            {"type": "text", "text": "<command-name>/clear</command-name>"},
            {"type": "text", "text": body_block("x")},
        ]}]));
        assert_eq!(local_answer_text(&other_command), None);
    }

    #[test]
    fn a_command_without_an_output_block_is_left_to_cursor() {
        let without = request(json!([{"role": "user", "content": [
            {"type": "text", "text": command_block("login")},
            {"type": "text", "text": "Log in please."},
        ]}]));
        assert_eq!(local_answer_text(&without), None);
    }

    #[test]
    fn an_earlier_command_is_not_answered_again() {
        let later = request(json!([
            {"role": "user", "content": [
                {"type": "text", "text": command_block("models")},
                {"type": "text", "text": body_block("table")},
            ]},
            {"role": "assistant", "content": [{"type": "text", "text": "/multi-cursor:models …"}]},
            {"role": "user", "content": [{"type": "text", "text": "now use composer"}]},
        ]));
        assert_eq!(local_answer_text(&later), None);
    }

    #[test]
    fn empty_output_is_said_plainly() {
        let answer = local_answer_text(&command_request("rules", "")).unwrap();
        assert_eq!(answer, "/multi-cursor:rules: the helper printed nothing.");
    }

    #[test]
    fn colours_are_removed_and_the_fence_outlasts_backticks() {
        let output = "\u{1b}[32m✓\u{1b}[39m ok\n```\ninner fence\n```";
        let answer = local_answer_text(&command_request("status", output)).unwrap();
        assert!(answer.starts_with("/multi-cursor:status\n\n````text\n✓ ok\n```"));
        assert!(answer.ends_with("```\n````"), "{answer}");
    }

    #[test]
    fn long_output_is_bounded() {
        let output: Vec<String> = (0..MAX_LINES + 5).map(|i| format!("line {i}")).collect();
        let answer = local_answer_text(&command_request("models", &output.join("\n"))).unwrap();
        assert!(answer.contains(&format!("line {}", MAX_LINES - 1)));
        assert!(!answer.contains(&format!("line {MAX_LINES}\n")));
        assert!(
            answer.ends_with(
                "… 5 more lines not shown; run the command in a terminal for all of it."
            )
        );

        let huge = "x".repeat(MAX_BYTES * 2);
        let answer = local_answer_text(&command_request("models", &huge)).unwrap();
        assert!(answer.len() < MAX_BYTES + 200, "{}", answer.len());
    }
}
