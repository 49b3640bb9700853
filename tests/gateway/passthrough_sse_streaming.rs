//! Passthrough streams: each SSE event the upstream sends reaches the client before the upstream
//! sends the next one (nothing is buffered on the way).

use multi_cursor_test_support::fake_upstream;

use std::net::SocketAddr;
use std::time::Duration;
use std::time::Instant;

use fake_upstream::FakeUpstream;
use fake_upstream::Gate;
use fake_upstream::ScriptedResponse;
use fake_upstream::anthropic;
use fake_upstream::passthrough_gateway;

const MODEL: &str = "claude-sonnet-4-5";

/// Sends a streaming request; the response head must come back at once (a gateway that
/// collected the body first would hold it back).
async fn post_stream(gw: SocketAddr) -> reqwest::Response {
    let send = reqwest::Client::new()
        .post(format!("http://{gw}/v1/messages?beta=true"))
        .header("x-multi-cursor-token", "t")
        .header("x-api-key", "sk-ant-test")
        .header("content-type", "application/json")
        .body(format!(
            r#"{{"model":"{MODEL}","stream":true,"messages":[]}}"#
        ))
        .send();
    tokio::time::timeout(Duration::from_secs(5), send)
        .await
        .expect("no response head while the upstream was mid-stream (the passthrough buffers)")
        .expect("request through the gateway")
}

#[tokio::test(flavor = "multi_thread")]
async fn each_event_arrives_before_the_next_is_sent() {
    let events = anthropic::text_events(MODEL, "Hello there, streaming world");
    // After each event but the last, the upstream stops until the test has read that event.
    let gates: Vec<Gate> = events.iter().map(|_| Gate::new()).collect();
    let mut scripted = ScriptedResponse::sse_head();
    for (i, event) in events.iter().enumerate() {
        scripted = scripted.chunk(event.clone());
        if i + 1 < events.len() {
            scripted = scripted.wait_for(&gates[i]);
        }
    }
    let fake = FakeUpstream::start();
    fake.push(scripted);
    let gw = passthrough_gateway(&fake.url()).await;

    let mut resp = post_stream(gw).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(
        resp.headers()
            .get("content-type")
            .map(|v| v.as_bytes().to_vec()),
        Some(b"text/event-stream; charset=utf-8".to_vec())
    );

    let mut received: Vec<u8> = Vec::new();
    let mut expected: Vec<u8> = Vec::new();
    for (i, event) in events.iter().enumerate() {
        expected.extend_from_slice(event.as_bytes());
        while received.len() < expected.len() {
            let chunk = tokio::time::timeout(Duration::from_secs(5), resp.chunk())
                .await
                .unwrap_or_else(|_| {
                    panic!(
                        "event {i} did not reach the client while the upstream waited for it \
                         to be read (the passthrough buffers); got {:?}",
                        String::from_utf8_lossy(&received)
                    )
                })
                .expect("body chunk")
                .expect("the stream ended early");
            received.extend_from_slice(&chunk);
        }
        assert_eq!(received, expected, "after event {i}");
        gates[i].open();
    }
    let end = tokio::time::timeout(Duration::from_secs(5), resp.chunk())
        .await
        .expect("clean end in time")
        .expect("clean end");
    assert!(end.is_none(), "extra bytes after message_stop");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_paced_tool_use_stream_arrives_paced() {
    const GAP: Duration = Duration::from_millis(120);
    let events = anthropic::agent_tool_use_events(
        MODEL,
        "toolu_01FakeAgentCall0001",
        "Fix the parser",
        "model: composer-2.5\nFix the off-by-one in src/parse.rs",
    );
    let fake = FakeUpstream::start();
    fake.push(ScriptedResponse::sse_with_delay(events.clone(), GAP));
    let gw = passthrough_gateway(&fake.url()).await;

    let start = Instant::now();
    let mut resp = post_stream(gw).await;
    assert_eq!(resp.status(), 200);
    let mut received = Vec::new();
    let mut first_at = None;
    while let Some(chunk) = tokio::time::timeout(Duration::from_secs(10), resp.chunk())
        .await
        .expect("chunk in time")
        .expect("body chunk")
    {
        first_at.get_or_insert_with(|| start.elapsed());
        received.extend_from_slice(&chunk);
    }
    let total = start.elapsed();
    assert_eq!(received, events.concat().into_bytes());
    let first_at = first_at.expect("at least one chunk");
    let paced = GAP * u32::try_from(events.len() - 1).expect("few events");
    assert!(
        total >= paced,
        "the stream took {total:?}, less than the upstream's pacing {paced:?}"
    );
    assert!(
        first_at + paced / 2 < total,
        "the first event arrived at {first_at:?}, near the end {total:?}: buffered?"
    );
}
