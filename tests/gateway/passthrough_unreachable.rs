//! Passthrough to an upstream that cannot be reached answers 502 with an Anthropic error that
//! names the upstream and the variables to check, without credentials and without
//! `x-should-retry` (Claude Code's own retries are right for a network problem).

use multi_cursor_test_support::fake_upstream;

use std::net::SocketAddr;

use fake_upstream::passthrough_gateway;

/// A loopback port nothing listens on.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("addr").port()
}

const SECRETS: [&str; 3] = ["sk-ant-SECRET-key", "Bearer tok-SECRET", "gateway-SECRET"];

async fn post(gw: SocketAddr) -> reqwest::Response {
    reqwest::Client::new()
        .post(format!("http://{gw}/v1/messages?beta=true"))
        .header("x-multi-cursor-token", "gateway-SECRET")
        .header("x-api-key", "sk-ant-SECRET-key")
        .header("authorization", "Bearer tok-SECRET")
        .header("content-type", "application/json")
        .body(r#"{"model":"claude-opus-5-5","stream":true,"messages":[]}"#)
        .send()
        .await
        .expect("the gateway answers")
}

/// Checks the 502 and returns its message.
async fn expect_502(resp: reqwest::Response) -> String {
    assert_eq!(resp.status(), 502);
    assert_eq!(
        resp.headers()
            .get("content-type")
            .map(axum::http::HeaderValue::as_bytes),
        Some(b"application/json".as_slice())
    );
    assert!(
        resp.headers().get("x-should-retry").is_none(),
        "x-should-retry must be left to Claude Code's defaults for an unreachable upstream"
    );
    let body = resp.text().await.expect("body");
    for secret in SECRETS {
        assert!(!body.contains(secret), "a credential leaked: {body}");
    }
    let json: serde_json::Value = serde_json::from_str(&body).expect("JSON error body");
    assert_eq!(json["type"], "error");
    assert_eq!(json["error"]["type"], "api_error");
    json["error"]["message"]
        .as_str()
        .expect("message")
        .to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn refused_connection_is_a_502_naming_the_upstream() {
    let port = closed_port();
    let base = format!("http://127.0.0.1:{port}");
    let gw = passthrough_gateway(&base).await;
    let message = expect_502(post(gw).await).await;
    let prefix = format!("multi-cursor: the Anthropic upstream {base} could not be reached: ");
    assert!(message.starts_with(&prefix), "{message}");
    assert!(
        message.ends_with(". Check MULTI_CURSOR_UPSTREAM / ANTHROPIC_BASE_URL."),
        "{message}"
    );
    let reason = &message[prefix.len()..];
    assert!(
        reason.to_ascii_lowercase().contains("connect"),
        "the reason should say what failed: {reason}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn user_info_in_the_base_is_not_shown() {
    let port = closed_port();
    let gw = passthrough_gateway(&format!("http://user:hunter2@127.0.0.1:{port}/prefix")).await;
    let message = expect_502(post(gw).await).await;
    assert!(!message.contains("hunter2"), "{message}");
    assert!(
        message.contains(&format!(
            "upstream http://127.0.0.1:{port}/prefix could not"
        )),
        "{message}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn connection_closed_before_an_answer_is_a_502() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    // Accept each connection, read a little of the request, and hang up without answering.
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut buf = [0u8; 64];
            let _ = tokio::io::AsyncReadExt::read(&mut socket, &mut buf).await;
            drop(socket);
        }
    });
    let gw = passthrough_gateway(&format!("http://{addr}")).await;
    let message = expect_502(post(gw).await).await;
    assert!(
        message.starts_with(&format!(
            "multi-cursor: the Anthropic upstream http://{addr} could not be reached: "
        )),
        "{message}"
    );
}
