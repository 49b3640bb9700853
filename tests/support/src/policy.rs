//! Helpers for the settings-admission tests (tests/policy_*.rs): writing Claude and Cursor
//! settings fixtures and reading a refusal.

use std::path::Path;

/// Writes `value` as JSON to `path`, creating its folders.
pub fn write_json(path: &Path, value: &serde_json::Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(value).unwrap()).unwrap();
}

/// `{"permissions": {"deny": [rules…]}}`.
pub fn deny(rules: &[&str]) -> serde_json::Value {
    serde_json::json!({"permissions": {"deny": rules}})
}

/// A Cursor config (project `cli.json` or global `cli-config.json`) denying `tokens`.
pub fn cursor_deny(tokens: &[&str]) -> serde_json::Value {
    serde_json::json!({"version": 1, "permissions": {"allow": [], "deny": tokens}})
}

/// The message of a 400 refusal (asserting status and `x-should-retry: false`).
pub fn refusal(response: reqwest::blocking::Response) -> String {
    assert_eq!(response.status(), 400);
    assert_eq!(response.headers()["x-should-retry"], "false");
    let body: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    body["error"]["message"].as_str().unwrap().to_string()
}

/// Every file under `dir` (relative paths, sorted), for "nothing was written" checks.
pub fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            out.push(path.strip_prefix(root).unwrap().display().to_string());
            if path.is_dir() {
                walk(root, &path, out);
            }
        }
    }
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// A Claude session's conversation with a Cursor model, grown one turn at a time so each
/// request continues the last answer (as Claude Code sends it).
pub struct Conversation {
    session: String,
    messages: Vec<serde_json::Value>,
}

impl Conversation {
    pub fn new(session: &str) -> Conversation {
        Conversation {
            session: session.to_string(),
            messages: Vec::new(),
        }
    }

    /// Sends `prompt` (after the history so far) to `url` with `token`, streamed; returns the
    /// status and the answer text (kept in the history when 200).
    pub fn send(&mut self, url: &str, token: &str, prompt: &str) -> (u16, String) {
        self.messages
            .push(serde_json::json!({"role": "user", "content": prompt}));
        let body = serde_json::json!({
            "model": "multi/cursor/composer-2.5",
            "max_tokens": 32000,
            "stream": true,
            "messages": self.messages,
        });
        let response = reqwest::blocking::Client::new()
            .post(format!("{url}/v1/messages"))
            .header("x-multi-cursor-token", token)
            .header("content-type", "application/json")
            .header("x-claude-code-session-id", &self.session)
            .body(body.to_string())
            .send()
            .unwrap();
        let status = response.status().as_u16();
        let body = response.text().unwrap();
        if status != 200 {
            self.messages.pop();
            return (status, body);
        }
        let text: String = body
            .split("\n\n")
            .flat_map(|frame| frame.lines())
            .filter_map(|line| line.strip_prefix("data: "))
            .filter_map(|data| serde_json::from_str::<serde_json::Value>(data).ok())
            .filter(|d| d["type"] == "content_block_delta")
            .filter_map(|d| d["delta"]["text"].as_str().map(str::to_string))
            .collect();
        self.messages
            .push(serde_json::json!({"role": "assistant", "content": text}));
        (status, text)
    }
}
