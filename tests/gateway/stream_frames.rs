//! Every SSE frame the gateway writes is one Claude Code (2.1.337) reads as whole: an `event:`
//! line naming the event its `data.type` says, no NUL or U+FFFD in it, and pings that carry
//! nothing but a ping (`multi_cursor_test_support::sse_frames`). Claude Code fails a stream
//! with a damaged frame ("Reply damaged in transit") and re-sends the turn with
//! `stream: false`, which a finished Cursor turn answers from its record without a second run.
//! Covered: Cursor turns (text, tool rows, control sequences in Cursor's words), replays, a
//! second client joining a running turn, local answers (bash mode, an unoffered route), an
//! error mid-stream, keep-alive pings, and every event the protocol module builds (a dialog's
//! `tool_use` block included; the dialogs' answers through the gateway are checked in
//! `tests/sessions/dialogs.rs`).

use multi_cursor::anthropic::ErrorType;
use multi_cursor::anthropic::StreamEvent;
use multi_cursor::anthropic::Usage;
use multi_cursor::anthropic::error::ErrorDetail;
use multi_cursor::anthropic::events::answer_events;
use multi_cursor::anthropic::events::closing_with_tool;
use multi_cursor::anthropic::events::safeguard_results;
use multi_cursor_test_support::fake_agent::cursor_fixture;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::scenario;
use multi_cursor_test_support::sse_frames::frame_faults;
use serde_json::json;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_events;
use gateway::sse_text;

/// Asserts every frame of `body` conforms, naming `what` on failure.
fn assert_whole(what: &str, body: &str) {
    let faults = frame_faults(body);
    assert!(faults.is_empty(), "{what}: {faults:#?}\n{body}");
}

/// A streamed request's answer: status 200 and the SSE body.
fn streamed(gw: &TestGateway, session: &str, body: &serde_json::Value) -> String {
    let response = gw.post_with(
        "/v1/messages",
        body,
        &[("x-claude-code-session-id", session)],
    );
    assert_eq!(response.status(), 200, "{session}");
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    response.text().unwrap()
}

fn bypass(scenario: &std::path::Path) -> GatewayOptions {
    GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::replaying(scenario)
    }
}

#[test]
fn the_check_fails_on_each_kind_of_damage() {
    let good = [
        StreamEvent::message_start("multi/cursor/auto", 1),
        StreamEvent::text_block_start(),
        StreamEvent::text_delta("hi"),
        StreamEvent::Ping,
        StreamEvent::text_block_stop(),
        StreamEvent::end_turn(Usage::default(), None),
        StreamEvent::MessageStop,
    ]
    .iter()
    .map(StreamEvent::frame)
    .collect::<String>();
    assert_whole("the good stream", &good);
    let delta =
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}"#;
    let broken = [
        ("no event line", format!("data: {delta}\n\n")),
        (
            "one letter off",
            format!("event: content_block_delte\ndata: {delta}\n\n"),
        ),
        (
            "quoted name",
            format!("event: \"content_block_delta\"\ndata: {delta}\n\n"),
        ),
        (
            "NUL in the event line",
            format!("event: content_block_delta\0\ndata: {delta}\n\n"),
        ),
        (
            "U+FFFD in the event line",
            format!("event: content_block_d\u{fffd}lta\ndata: {delta}\n\n"),
        ),
        (
            "ping with stream data",
            format!("event: ping\ndata: {delta}\n\n"),
        ),
        (
            "a name other than the data's type",
            format!("event: message_delta\ndata: {delta}\n\n"),
        ),
        ("no data line", "event: message_stop\n\n".to_string()),
        (
            "no blank line after the last frame",
            "event: message_stop\ndata: {\"type\":\"message_stop\"}\n".to_string(),
        ),
    ];
    for (what, frame) in broken {
        // The damaged frame among good ones, as it would arrive mid-message.
        let (head, tail) = good.split_at(good.find("event: ping").unwrap());
        let body = format!("{head}{frame}{tail}");
        assert!(!frame_faults(&body).is_empty(), "{what} passed: {body:?}");
    }
}

#[test]
fn every_event_the_protocol_builds_is_named_as_its_data_says() {
    let awkward =
        "NUL \0, U+FFFD \u{fffd}, an escape \u{1b}[31m, a quote \", event: ping\n\ndata: x";
    let mut events = answer_events("multi/cursor/\"auto\"", awkward, 3, Usage::default(), None);
    for event in &mut events {
        event.add_safeguard_results(&safeguard_results(["dangerous_tool_use"]));
        event.mark_replayed();
    }
    // The end of an answer that opens one of Claude Code's dialogs: a tool_use block.
    events.extend(closing_with_tool(
        Usage::default(),
        None,
        "toolu_mc0123456789abcdef01234567",
        "AskUserQuestion",
        &json!({"questions": [{"question": awkward, "header": "Allow?", "options": [], "multiSelect": false}]}),
    ));
    events.push(StreamEvent::Ping);
    for kind in [ErrorType::InvalidRequest, ErrorType::Conflict] {
        events.push(StreamEvent::Error {
            error: ErrorDetail {
                kind,
                message: awkward.to_string(),
            },
        });
    }
    let body: String = events.iter().map(StreamEvent::frame).collect();
    assert_whole("built events", &body);
    let names: Vec<String> = sse_events(&body).into_iter().map(|(n, _)| n).collect();
    for name in [
        "message_start",
        "content_block_delta",
        "message_stop",
        "ping",
        "error",
    ] {
        assert!(names.iter().any(|n| n == name), "{name} covered: {names:?}");
    }
}

#[test]
fn cursor_turns_replays_and_joins_write_whole_frames() {
    // A real capture with a shell tool call (rows, then text), then Cursor's words with control
    // sequences.
    let gw = TestGateway::start(bypass(&cursor_fixture("maestro-02_shell_tool_call.ndjson")));
    let body = cursor_request("multi/cursor/composer-2.5", "run pwd", true);
    let first = streamed(&gw, "s-tool", &body);
    assert_whole("a Cursor turn with a tool call", &first);
    assert!(sse_text(&first).contains("⎿"), "{first}");
    let again = streamed(&gw, "s-tool", &body);
    assert_whole("its replay", &again);
    assert_eq!(gw.turns().len(), 1);

    let controls = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake-agent/scenarios/control-sequences.ndjson");
    let gw = TestGateway::start(bypass(&controls));
    let answer = streamed(
        &gw,
        "s-controls",
        &cursor_request("multi/cursor/composer-2.5", "colours", true),
    );
    assert_whole("Cursor's words with control sequences", &answer);

    // A second client joining a running turn gets the earlier events, then the rest.
    let scenarios = tempfile::tempdir().unwrap();
    let slow = scenario::slow_reply(scenarios.path(), "slow.scenario", "one", "1200ms", " two");
    let gw = std::sync::Arc::new(TestGateway::start(bypass(&slow)));
    let ask = || {
        let gw = std::sync::Arc::clone(&gw);
        std::thread::spawn(move || {
            streamed(
                &gw,
                "s-join",
                &cursor_request("multi/cursor/composer-2.5", "same", true),
            )
        })
    };
    let first = ask();
    assert!(scenario::wait_for(10, || gw.turns().len() == 1));
    let second = ask();
    for (what, body) in [
        ("first", first.join().unwrap()),
        ("joined", second.join().unwrap()),
    ] {
        assert_whole(what, &body);
        assert!(sse_text(&body).contains("one two"), "{what}: {body}");
    }
    assert_eq!(gw.turns().len(), 1);
}

#[test]
fn a_non_streamed_resend_of_a_finished_turn_is_replayed_without_a_second_run() {
    // What Claude Code sends after a stream it read as damaged: the same body, stream:false.
    let gw = TestGateway::start(bypass(&cursor_fixture("maestro-02_shell_tool_call.ndjson")));
    let first = streamed(
        &gw,
        "s-resend",
        &cursor_request("multi/cursor/composer-2.5", "run pwd", true),
    );
    let response = gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", "run pwd", false),
        &[("x-claude-code-session-id", "s-resend")],
    );
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["x-multi-cursor-replayed"], "true");
    let message: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert_eq!(message["type"], "message");
    assert_eq!(
        message["content"][0]["text"].as_str().unwrap(),
        sse_text(&first)
    );
    assert_eq!(gw.turns().len(), 1, "served again, never run again");
}

#[test]
fn local_answers_errors_and_keep_alives_write_whole_frames() {
    // Bash mode and an unoffered route are answered by the gateway itself.
    let gw = TestGateway::start(GatewayOptions::default());
    let bash = json!({"model": "multi/cursor/composer-2.5", "max_tokens": 100, "stream": true,
        "messages": [{"role": "user", "content": [
            {"type": "text", "text": "<bash-input>ls</bash-input>\n"},
            {"type": "text", "text": "<bash-stdout>a</bash-stdout><bash-stderr></bash-stderr>"}]}]});
    assert_whole("bash mode", &streamed(&gw, "s-local", &bash));
    gw.set_mode("s-unoffered", "bypassPermissions");
    let unoffered = streamed(
        &gw,
        "s-unoffered",
        &cursor_request("multi/cursor/no-such-model", "hi", true),
    );
    assert_whole("an unoffered route", &unoffered);
    assert!(gw.turns().is_empty());

    // Text, then Cursor ends without a result: an error frame mid-stream.
    let dir = tempfile::tempdir().unwrap();
    let half = scenario::write(
        dir.path(),
        "half.ndjson",
        &[scenario::INIT, &scenario::delta("Half")],
    );
    let gw = TestGateway::start(bypass(&half));
    let failed = streamed(
        &gw,
        "s-half",
        &cursor_request("multi/cursor/composer-2.5", "hi", true),
    );
    assert_whole("an error mid-stream", &failed);
    assert!(
        sse_events(&failed).iter().any(|(name, _)| name == "error"),
        "{failed}"
    );

    // Eleven quiet seconds: a keep-alive ping between the deltas.
    let quiet = scenario::slow_reply(dir.path(), "quiet.scenario", "before", "11s", " after");
    let gw = TestGateway::start(bypass(&quiet));
    let pinged = streamed(
        &gw,
        "s-quiet",
        &cursor_request("multi/cursor/composer-2.5", "hi", true),
    );
    assert_whole("a turn with keep-alives", &pinged);
    assert!(
        sse_events(&pinged).iter().any(|(name, _)| name == "ping"),
        "{pinged}"
    );
}
