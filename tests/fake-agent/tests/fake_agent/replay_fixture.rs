//! A real captured stream used as a scenario comes out byte for byte, and substitutions fill in
//! the chat id and prompt.

use crate::common;

use common::Scratch;
use common::fake;
use common::fixtures_dir;
use common::run_with_stdin;
use common::shipped;
use common::turn_args;

#[test]
fn every_captured_stream_replays_byte_for_byte() {
    let scratch = Scratch::new("replay");
    let mut replayed = 0;
    for entry in std::fs::read_dir(fixtures_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|ext| ext != "ndjson") {
            continue;
        }
        let expected = std::fs::read(&path).unwrap();
        let output = run_with_stdin(
            fake()
                .args(turn_args(&scratch.0))
                .env("FAKE_AGENT_SCENARIO", &path),
            "prompt\n",
        );
        assert!(output.status.success(), "{}: {output:?}", path.display());
        assert!(
            output.stdout == expected,
            "{} was not replayed byte for byte",
            path.display()
        );
        replayed += 1;
    }
    assert!(replayed >= 5, "only {replayed} fixtures found");
}

#[test]
fn substitutions_fill_chat_id_prompt_and_workspace() {
    let scratch = Scratch::new("substitutions");
    let output = run_with_stdin(
        fake()
            .args(turn_args(&scratch.0))
            .args(["--resume", "chat-123"])
            .env("FAKE_AGENT_SCENARIO", shipped("basic-reply.ndjson")),
        "say \"hi\"\nplease",
    );
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let events: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(events[0]["session_id"], "chat-123");
    assert_eq!(events[0]["cwd"], scratch.0.display().to_string());
    assert_eq!(events[0]["model"], "Auto");
    assert_eq!(
        events[1]["message"]["content"][0]["text"],
        "say \"hi\"\nplease"
    );
    assert!(events.iter().all(|event| event["session_id"] == "chat-123"));
    assert_eq!(events.last().unwrap()["type"], "result");
}

#[test]
fn default_stream_has_the_real_shape() {
    let scratch = Scratch::new("default");
    let output = run_with_stdin(
        fake()
            .args(turn_args(&scratch.0))
            .env("FAKE_AGENT_CHAT_ID", "c-1"),
        "hello",
    );
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            r#"{{"type":"system","subtype":"init","apiKeySource":"login","cwd":"{}","session_id":"c-1","model":"Auto","permissionMode":"default"}}"#,
            scratch.0.display()
        )
    );
    assert_eq!(
        lines[1],
        r#"{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hello"}]},"session_id":"c-1"}"#
    );
    let deltas: String = lines[2..lines.len() - 2]
        .iter()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .inspect(|event| assert!(event["timestamp_ms"].is_u64()))
        .map(|event| {
            event["message"]["content"][0]["text"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(deltas, "fake agent reply");
    assert_eq!(
        lines[lines.len() - 2],
        r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"fake agent reply"}]},"session_id":"c-1"}"#
    );
    let result: serde_json::Value = serde_json::from_str(lines[lines.len() - 1]).unwrap();
    assert_eq!(result["subtype"], "success");
    assert_eq!(result["result"], "fake agent reply");
    assert!(result["usage"]["inputTokens"].is_u64());
}
