//! The naming requests Claude Code sends to the session's own model, answered here and never
//! with a Cursor run: `tools: []` and an `output_config.format` JSON schema asking for one
//! string.
//!
//! - After a plan is approved (measured on 2.1.332): `{"name": string}`, a system block
//!   "Generate a short kebab-case name (2-4 words) …" and one user message
//!   `<conversation>\n<plan>\n</conversation>`: a kebab-case name from the plan's first heading.
//! - At a session's first message (2.1.337): `{"title": string}`, a system block "You are naming
//!   a coding session …" and `<session>\n<first message>\n</session>`: a short title in sentence
//!   case from the first words.

use serde_json::Value;

use crate::anthropic::request::MessagesRequest;

/// Words a name or title is made of, at most.
const NAME_WORDS: usize = 5;

/// What a naming request asks for: the schema's one property.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Naming {
    /// `{"name": …}`: kebab-case.
    Name,
    /// `{"title": …}`: sentence case.
    Title,
}

/// The naming request `request` is, if it is one.
pub(crate) fn naming_request(request: &MessagesRequest) -> Option<Naming> {
    if !request.tools.is_empty() {
        return None;
    }
    let format = request.output_config.as_ref()?.format.as_ref()?;
    let properties = format.pointer("/schema/properties")?.as_object()?;
    let (key, property) = match properties.iter().collect::<Vec<_>>().as_slice() {
        [one] => *one,
        _ => return None,
    };
    if property.get("type").and_then(Value::as_str) != Some("string") {
        return None;
    }
    match key.as_str() {
        "name" => Some(Naming::Name),
        "title" => Some(Naming::Title),
        _ => None,
    }
}

/// The answer's JSON text (`{"name":"add-a-verbose-flag"}`, `{"title":"Plan a greeting"}`),
/// from the conversation's first heading (or first line).
pub(crate) fn answer(request: &MessagesRequest, naming: Naming) -> String {
    let conversation: Vec<&str> = request
        .messages
        .iter()
        .flat_map(|m| m.content.texts())
        .collect();
    let lines: Vec<&str> = conversation
        .iter()
        .flat_map(|t| t.lines())
        .map(str::trim)
        .filter(|l| !l.is_empty() && !is_tag_line(l))
        .collect();
    let source = lines
        .iter()
        .find(|l| l.starts_with('#'))
        .or(lines.first())
        .copied()
        .unwrap_or("cursor session");
    let words: Vec<String> = source
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !w.eq_ignore_ascii_case("plan"))
        .take(NAME_WORDS)
        .map(str::to_lowercase)
        .collect();
    let words = if words.is_empty() {
        vec!["cursor".to_string(), "session".to_string()]
    } else {
        words
    };
    match naming {
        Naming::Name => serde_json::json!({"name": words.join("-")}),
        Naming::Title => {
            let title = words.join(" ");
            let mut chars = title.chars();
            let title: String = chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect())
                .unwrap_or_default();
            serde_json::json!({"title": title})
        }
    }
    .to_string()
}

/// A line that is only a wrapper tag (`<session>`, `</conversation>`).
fn is_tag_line(line: &str) -> bool {
    line.starts_with('<') && line.ends_with('>')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anthropic::request::parse;
    use serde_json::json;

    fn naming(key: &str, conversation: &str) -> MessagesRequest {
        parse(json!({
            "model": "multi/cursor/composer-2.5", "tools": [],
            "output_config": {"effort": "high", "format": {"type": "json_schema", "schema": {"type": "object", "properties": {key: {"type": "string"}}, "required": [key], "additionalProperties": false}}},
            "system": [{"type": "text", "text": "You are Claude Code"}],
            "messages": [{"role": "user", "content": conversation}]
        }).to_string().as_bytes()).unwrap()
    }

    #[test]
    fn the_plan_approvals_name_comes_from_the_plans_heading() {
        let request = naming(
            "name",
            "<conversation>\n**Plan: Add a greeting**\n\n# Plan: add a `--verbose` flag\n\n1. Parse it\n</conversation>",
        );
        assert_eq!(naming_request(&request), Some(Naming::Name));
        let answer: Value = serde_json::from_str(&answer(&request, Naming::Name)).unwrap();
        assert_eq!(answer, json!({"name": "add-a-verbose-flag"}));
    }

    #[test]
    fn the_first_messages_title_is_in_sentence_case() {
        let request = naming(
            "title",
            "<session>\nplan a greeting for the README\n</session>\n\nWrite the title in the predominant language of the session",
        );
        assert_eq!(naming_request(&request), Some(Naming::Title));
        let answer: Value = serde_json::from_str(&answer(&request, Naming::Title)).unwrap();
        assert_eq!(answer, json!({"title": "A greeting for the readme"}));
    }

    #[test]
    fn other_requests_are_not_naming_requests() {
        let mut request = naming("name", "x");
        request.tools.push(json!({"name": "Write"}));
        assert_eq!(naming_request(&request), None);
        assert_eq!(naming_request(&naming("summary", "x")), None);
        let plain = parse(br#"{"model":"m","messages":[{"role":"user","content":"hi"}]}"#).unwrap();
        assert_eq!(naming_request(&plain), None);
    }
}
