//! An upstream that breaks off mid-body makes the client's response break off too: the client
//! sees an unfinished body (no final chunk, or fewer bytes than announced) and an error, never
//! a clean end it could take for a complete answer.

use multi_cursor_test_support::fake_upstream;

use std::time::Duration;

use fake_upstream::FakeUpstream;
use fake_upstream::ScriptedResponse;
use fake_upstream::anthropic;
use fake_upstream::passthrough_gateway;
use fake_upstream::raw;

const MODEL: &str = "claude-sonnet-4-5";

const REQUEST: &[u8] = b"POST /v1/messages?beta=true HTTP/1.1\r\nHost: g\r\n\
    x-multi-cursor-token: t\r\nx-api-key: sk-ant-test\r\nContent-Type: application/json\r\n\
    Content-Length: 2\r\nConnection: close\r\n\r\n{}";

/// The first events of a text answer, then the upstream drops the connection.
fn broken_stream() -> (ScriptedResponse, Vec<u8>) {
    let events = anthropic::text_events(MODEL, "partial answer that never ends");
    let sent: Vec<String> = events[..4].to_vec();
    let mut scripted = ScriptedResponse::sse_head();
    for event in &sent {
        scripted = scripted.chunk(event.clone());
    }
    scripted = scripted.delay(Duration::from_millis(50)).reset();
    (scripted, sent.concat().into_bytes())
}

#[tokio::test(flavor = "multi_thread")]
async fn sse_reset_leaves_the_chunked_body_unfinished() {
    let fake = FakeUpstream::start();
    let (scripted, sent) = broken_stream();
    fake.push(scripted);
    let gw = passthrough_gateway(&fake.url()).await;

    let resp = tokio::task::spawn_blocking(move || raw::exchange(gw, REQUEST))
        .await
        .expect("raw exchange");
    assert_eq!(resp.status, 200);
    assert_eq!(
        resp.header("transfer-encoding"),
        Some(b"chunked".as_slice())
    );
    assert_eq!(
        resp.body, sent,
        "the events sent before the reset must arrive"
    );
    assert!(
        !resp.complete,
        "the gateway ended the body cleanly after the upstream broke off"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn sse_reset_is_an_error_for_an_http_client() {
    let fake = FakeUpstream::start();
    let (scripted, sent) = broken_stream();
    fake.push(scripted);
    let gw = passthrough_gateway(&fake.url()).await;

    let mut resp = reqwest::Client::new()
        .post(format!("http://{gw}/v1/messages?beta=true"))
        .header("x-multi-cursor-token", "t")
        .body("{}")
        .send()
        .await
        .expect("response head");
    assert_eq!(resp.status(), 200);
    let mut received = Vec::new();
    let outcome = loop {
        match tokio::time::timeout(Duration::from_secs(10), resp.chunk())
            .await
            .expect("the stream neither ended nor failed")
        {
            Ok(Some(chunk)) => received.extend_from_slice(&chunk),
            Ok(None) => break Ok(()),
            Err(e) => break Err(e),
        }
    };
    assert_eq!(received, sent);
    assert!(outcome.is_err(), "the client saw a clean end");
}

#[tokio::test(flavor = "multi_thread")]
async fn reset_under_content_length_delivers_fewer_bytes_than_announced() {
    let fake = FakeUpstream::start();
    fake.push(
        ScriptedResponse::new(200)
            .header("content-type", "application/json")
            .header("content-length", "1000")
            .chunk(r#"{"id":"msg_"#)
            .delay(Duration::from_millis(50))
            .reset(),
    );
    let gw = passthrough_gateway(&fake.url()).await;

    let resp = tokio::task::spawn_blocking(move || raw::exchange(gw, REQUEST))
        .await
        .expect("raw exchange");
    assert_eq!(resp.status, 200);
    assert_eq!(resp.header("content-length"), Some(b"1000".as_slice()));
    assert_eq!(resp.body, br#"{"id":"msg_"#);
    assert!(
        !resp.complete,
        "fewer bytes than content-length, yet complete"
    );
}
