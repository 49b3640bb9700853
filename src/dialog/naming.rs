//! The session-naming request Claude Code sends to the same model after a plan is approved
//! (measured on 2.1.332): `tools: []`, an `output_config.format` JSON schema asking for
//! `{"name": string}`, a system block "Generate a short kebab-case name (2-4 words) …" and one
//! user message `<conversation>\n<plan>\n</conversation>`. It is answered here, never with a
//! Cursor run: a name made of the plan's first words.

use crate::anthropic::request::Content;
use crate::anthropic::request::ContentBlock;
use crate::anthropic::request::MessagesRequest;

/// Words of Claude Code's naming instruction this answer recognises.
pub const NAMING_INSTRUCTION: &str = "Generate a short kebab-case name";

/// Words a name is made of, at most.
const NAME_WORDS: usize = 4;

/// Whether `request` is Claude Code's session-naming request.
pub fn is_naming_request(request: &MessagesRequest) -> bool {
    let asks_name = request
        .output_config
        .as_ref()
        .and_then(|c| c.format.as_ref())
        .and_then(|f| f.pointer("/schema/properties/name"))
        .is_some();
    asks_name
        && request.tools.is_empty()
        && texts(request.system.as_ref())
            .iter()
            .any(|t| t.contains(NAMING_INSTRUCTION))
}

/// The answer: `{"name":"<kebab-case>"}` from the conversation's first heading (or first line).
pub fn answer(request: &MessagesRequest) -> String {
    let conversation: Vec<String> = request
        .messages
        .iter()
        .flat_map(|m| texts(Some(&m.content)))
        .collect();
    let lines: Vec<&str> = conversation
        .iter()
        .flat_map(|t| t.lines())
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("<conversation") && !l.starts_with("</conversation")
        })
        .collect();
    let source = lines
        .iter()
        .find(|l| l.starts_with('#'))
        .or(lines.first())
        .copied()
        .unwrap_or("cursor plan");
    let words: Vec<String> = source
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty() && !w.eq_ignore_ascii_case("plan"))
        .take(NAME_WORDS)
        .map(str::to_ascii_lowercase)
        .collect();
    let name = if words.is_empty() {
        "cursor-plan".to_string()
    } else {
        words.join("-")
    };
    serde_json::json!({"name": name}).to_string()
}

fn texts(content: Option<&Content>) -> Vec<String> {
    match content {
        None => Vec::new(),
        Some(Content::Text(text)) => vec![text.clone()],
        Some(Content::Blocks(blocks)) => blocks
            .iter()
            .filter_map(|b| match b {
                ContentBlock::Text { text } => Some(text.clone()),
                _ => None,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anthropic::request::parse;
    use serde_json::Value;
    use serde_json::json;

    fn naming(conversation: &str) -> MessagesRequest {
        parse(json!({
            "model": "multi/cursor/composer-2.5", "tools": [],
            "output_config": {"effort": "high", "format": {"type": "json_schema", "schema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"], "additionalProperties": false}}},
            "system": [{"type": "text", "text": "x-anthropic-billing-header"}, {"type": "text", "text": "You are Claude Code"}, {"type": "text", "text": "Generate a short kebab-case name (2-4 words) that captures the main topic of this conversation."}],
            "messages": [{"role": "user", "content": format!("<conversation>\n{conversation}\n</conversation>")}]
        }).to_string().as_bytes()).unwrap()
    }

    #[test]
    fn the_naming_request_is_answered_from_the_plans_heading() {
        let request =
            naming("**Plan: Add a greeting**\n\n# Plan: add a `--verbose` flag\n\n1. Parse it");
        assert!(is_naming_request(&request));
        let answer: Value = serde_json::from_str(&answer(&request)).unwrap();
        assert_eq!(answer, json!({"name": "add-a-verbose-flag"}));
    }

    #[test]
    fn other_requests_are_not_naming_requests() {
        let mut request = naming("x");
        request.tools.push(json!({"name": "Write"}));
        assert!(!is_naming_request(&request));
        let plain = parse(br#"{"model":"m","messages":[{"role":"user","content":"hi"}]}"#).unwrap();
        assert!(!is_naming_request(&plain));
    }
}
