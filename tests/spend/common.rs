//! What the spend modules share: asking for a turn, reading the ledger and the spend route.

use multi_cursor_test_support::gateway::TestGateway;

/// The route every test asks for.
pub(crate) const MODEL: &str = "multi/cursor/composer-2.5";

/// A non-streamed Cursor request whose only user message is `text`.
pub(crate) fn request(text: &str) -> serde_json::Value {
    serde_json::json!({
        "model": MODEL, "max_tokens": 1000, "stream": false,
        "messages": [{"role": "user", "content": [{"type": "text", "text": text}]}]
    })
}

/// POSTs `body` for `session` (and `worker`, as the Agent tool's requests carry it); returns
/// status, the `x-should-retry` header and the body.
pub(crate) fn ask(
    gw: &TestGateway,
    session: &str,
    worker: Option<&str>,
    body: &serde_json::Value,
) -> (u16, Option<String>, serde_json::Value) {
    let mut headers = vec![("x-claude-code-session-id", session)];
    if let Some(worker) = worker {
        headers.push(("x-claude-code-agent-id", worker));
    }
    let response = gw.post_with("/v1/messages", body, &headers);
    let status = response.status().as_u16();
    let retry = response
        .headers()
        .get("x-should-retry")
        .map(|v| v.to_str().unwrap().to_string());
    let text = response.text().unwrap();
    (
        status,
        retry,
        serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text)),
    )
}

/// Every ledger line of the gateway's state folder, in order.
pub(crate) fn ledger(gw: &TestGateway) -> Vec<serde_json::Value> {
    multi_cursor_test_support::ledger::ledger_lines(&gw.state_dir)
}

/// `GET <path>` with the token: status and JSON body.
pub(crate) fn get(gw: &TestGateway, path: &str) -> (u16, serde_json::Value) {
    let response = gw
        .client()
        .get(format!("{}{path}", gw.url))
        .header("x-multi-cursor-token", &gw.token)
        .send()
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().unwrap();
    (status, serde_json::from_str(&text).unwrap_or_default())
}
