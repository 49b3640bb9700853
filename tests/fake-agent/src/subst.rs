//! `{{name}}` substitutions in scenario lines and directive arguments.
//!
//! Unknown names are left exactly as written, so a captured fixture that happens to contain
//! `{{` is still replayed byte for byte. Lines without `{{` are passed through untouched.

use std::borrow::Cow;

use crate::ids;

/// What a turn knows about itself, for substitutions and the default stream.
#[derive(Debug, Clone)]
pub(crate) struct Context {
    /// The chat id of this turn (the resumed one, or a new one).
    pub chat_id: String,
    /// The prompt (stdin, or the prompt words on the command line).
    pub prompt: String,
    /// `--workspace`, else the working directory.
    pub workspace: String,
    /// `--model`, else `auto`.
    pub model: String,
    /// The display name of the model (`Auto`, `Composer 2.5`, …).
    pub model_name: String,
    /// A request id fresh for this run.
    pub request_id: String,
    /// `system/init.apiKeySource`: `env`, `flag` or `login`.
    pub api_key_source: String,
}

impl Context {
    /// The value of the placeholder `name`, or `None` when the name is unknown.
    fn resolve(&self, name: &str) -> Option<String> {
        let value = match name {
            "chat_id" => self.chat_id.clone(),
            "prompt_json" => json_body(&self.prompt),
            "prompt" => self.prompt.clone(),
            "workspace_json" => json_body(&self.workspace),
            "model" => self.model.clone(),
            "model_name" => self.model_name.clone(),
            "request_id" => self.request_id.clone(),
            "api_key_source" => self.api_key_source.clone(),
            "now_ms" => ids::now_ms().to_string(),
            "pid" => std::process::id().to_string(),
            other => {
                let variable = other.strip_prefix("env:")?;
                std::env::var(variable).unwrap_or_default()
            }
        };
        Some(value)
    }

    /// `line` with every known `{{name}}` replaced.
    pub(crate) fn substitute<'a>(&self, line: &'a [u8]) -> Cow<'a, [u8]> {
        if find(line, b"{{").is_none() {
            return Cow::Borrowed(line);
        }
        let mut out = Vec::with_capacity(line.len());
        let mut rest = line;
        while let Some(open) = find(rest, b"{{") {
            out.extend_from_slice(&rest[..open]);
            let after = &rest[open + 2..];
            let replaced = find(after, b"}}").and_then(|close| {
                let name = std::str::from_utf8(&after[..close]).ok()?;
                Some((self.resolve(name)?, close))
            });
            match replaced {
                Some((value, close)) => {
                    out.extend_from_slice(value.as_bytes());
                    rest = &after[close + 2..];
                }
                None => {
                    out.extend_from_slice(b"{{");
                    rest = after;
                }
            }
        }
        out.extend_from_slice(rest);
        Cow::Owned(out)
    }
}

/// `text` as the inside of a JSON string literal (escaped, without the quotes).
pub(crate) fn json_body(text: &str) -> String {
    let quoted = serde_json::Value::String(text.to_owned()).to_string();
    quoted[1..quoted.len() - 1].to_owned()
}

/// The first index of `needle` in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> Context {
        Context {
            chat_id: "chat-1".to_owned(),
            prompt: "say \"hi\"\n".to_owned(),
            workspace: "/w".to_owned(),
            model: "auto".to_owned(),
            model_name: "Auto".to_owned(),
            request_id: "req".to_owned(),
            api_key_source: "login".to_owned(),
        }
    }

    #[test]
    fn known_names_are_replaced() {
        let out = context().substitute(br#"{"session_id":"{{chat_id}}","text":"{{prompt_json}}"}"#);
        assert_eq!(
            out.as_ref(),
            br#"{"session_id":"chat-1","text":"say \"hi\"\n"}"#
        );
    }

    #[test]
    fn unknown_names_and_lone_braces_stay() {
        let line = b"{{nope}} {{ {{chat_id}} }}";
        assert_eq!(
            context().substitute(line).as_ref(),
            b"{{nope}} {{ chat-1 }}"
        );
        assert!(matches!(context().substitute(b"plain"), Cow::Borrowed(_)));
    }
}
