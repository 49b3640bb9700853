//! Every recorded Cursor stream parses to the expected answer, tool calls and result; the full
//! item sequence also matches its reviewed insta snapshot
//! (`tests/engine/snapshots/stream_items__<fixture>.snap`, shared with the engine harness's
//! `process_fixture_replay`; `cargo insta review` updates them).

use super::support as stream_support;

use crate::cursor::CliFailure;
use crate::cursor::events::RunEvent;
use crate::cursor::events::RunUsage;
use crate::cursor::events::ToolOutcome;
use crate::cursor::stream::StreamItem;
use serde_json::json;
use stream_support::answer;
use stream_support::completed_tools;
use stream_support::events;
use stream_support::failures;
use stream_support::fixture;
use stream_support::fixtures;
use stream_support::items_json;
use stream_support::parse;
use stream_support::result;
use stream_support::started_tools;

fn usage(input: u64, output: u64, cache_read: u64, cache_write: u64) -> Option<RunUsage> {
    Some(RunUsage {
        input_tokens: Some(input),
        output_tokens: Some(output),
        cache_read_tokens: Some(cache_read),
        cache_write_tokens: Some(cache_write),
    })
}

/// The answer equals the CLI's own `result` text (it concatenates segments with no separator).
fn assert_answer_is_result_text(items: &[StreamItem]) {
    let result = result(items).expect("result event");
    assert!(result.success);
    assert_eq!(answer(items), result.text);
}

fn init_of(items: &[StreamItem]) -> (&str, Option<&str>) {
    match events(items).first() {
        Some(RunEvent::Init { chat_id, model }) => (chat_id, model.as_deref()),
        other => panic!("first event is not init: {other:?}"),
    }
}

#[test]
fn maestro_02_shell_call_without_partial_output() {
    let items = parse(&fixture("maestro-02_shell_tool_call"));
    let chat = "5545ce80-d7d8-4502-b64b-240f15844099";
    assert_eq!(init_of(&items), (chat, Some("Auto")));
    assert_answer_is_result_text(&items);
    assert!(answer(&items).starts_with("I'll list the directory contents with `ls`"));

    let call_id =
        "call-ff9ecfd9-caee-43b7-a754-46e1a87268e8-0\nfc_eb39c388-b710-904d-a2a1-3887fe008ba7_0";
    let started = started_tools(&items);
    assert_eq!(started.len(), 1);
    assert_eq!(
        (started[0].tool.as_str(), started[0].call_id.as_str()),
        ("shell", call_id)
    );
    assert_eq!(started[0].args["command"], "ls -1 | wc -l; ls -1");
    let completed = completed_tools(&items);
    assert_eq!(completed.len(), 1);
    let (call, outcome) = completed[0];
    assert_eq!(
        (call.tool.as_str(), call.call_id.as_str()),
        ("shell", call_id)
    );
    match outcome {
        ToolOutcome::Success { value } => {
            assert_eq!(value["exitCode"], 0);
            assert_eq!(
                value["stdout"],
                "4\na.txt\nb.js\nstream1.raw.jsonl\nstream2.raw.jsonl\n"
            );
        }
        other => panic!("expected success, got {other:?}"),
    }

    let result = result(&items).expect("result");
    assert_eq!(result.chat_id.as_deref(), Some(chat));
    assert_eq!(result.duration_ms, Some(8311));
    assert_eq!(result.usage, usage(18377, 122, 22528, 0));
    assert_eq!(
        result.request_id.as_deref(),
        Some("f92457ae-7a5e-49d4-a68e-8cf53b8d837b")
    );
    let thinking = events(&items)
        .into_iter()
        .filter(|e| matches!(e, RunEvent::Thinking { .. }))
        .count();
    assert_eq!(thinking, 5);
}

#[test]
fn maestro_04_partial_output_has_no_duplicated_text() {
    let items = parse(&fixture("maestro-04_partial_output"));
    assert_answer_is_result_text(&items);
    assert_eq!(
        answer(&items),
        "Checking now.`sample.txt` contained:\n\n```\nhello\n```"
    );
    let text_events = events(&items)
        .into_iter()
        .filter(|e| matches!(e, RunEvent::Text { .. }))
        .count();
    assert_eq!(text_events, 3 + 11, "one Text per delta, flushes skipped");
    let completed = completed_tools(&items);
    assert_eq!(completed.len(), 1);
    assert_eq!(completed[0].0.tool, "shell");
    assert!(
        matches!(completed[0].1, ToolOutcome::Success { value } if value["stdout"] == "hello\n")
    );
    let result = result(&items).expect("result");
    assert_eq!(result.duration_ms, Some(8416));
    assert_eq!(result.usage, usage(21994, 261, 22528, 0));
    assert_eq!(
        result.chat_id.as_deref(),
        Some("4e91ef8b-e38e-4793-a875-a4818b4318ed")
    );
}

#[test]
fn maestro_05_two_rejected_shell_calls_and_still_success() {
    let items = parse(&fixture("maestro-05_rejected_shell"));
    assert_answer_is_result_text(&items);
    let ids = [
        "call-c9002dbc-bda9-447c-acb5-74e5093a186d-0\nfc_0956680b-0312-940b-9e66-70d44dee7753_0",
        "call-757a07b2-46a7-46c9-8051-23ef55681626-1\nfc_91a5a26c-788b-9a62-9eeb-f1372fcd1c19_0",
    ];
    let started: Vec<&str> = started_tools(&items)
        .iter()
        .map(|c| c.call_id.as_str())
        .collect();
    assert_eq!(started, ids);
    let completed = completed_tools(&items);
    assert_eq!(completed.len(), 2);
    for ((call, outcome), id) in completed.into_iter().zip(ids) {
        assert_eq!((call.tool.as_str(), call.call_id.as_str()), ("shell", id));
        assert!(call.args.is_null(), "a rejected completion carries no args");
        assert_eq!(
            *outcome,
            ToolOutcome::Rejected {
                reason: String::new(),
                value: json!({"command": "uname -a", "workingDirectory": "/tmp/spike", "reason": "", "isReadonly": false}),
            }
        );
    }
    let result = result(&items).expect("result");
    assert_eq!(result.duration_ms, Some(12337));
    assert_eq!(result.usage, usage(10908, 393, 52608, 0));
}

#[test]
fn golembot_flat_shell_call_without_call_id() {
    let items = parse(&fixture("golembot-shell-pwd"));
    let chat = "94ea14d1-cd73-4639-9db5-6037eaf6dd3c";
    assert_eq!(init_of(&items), (chat, Some("Sonnet 4.6")));
    assert!(matches!(events(&items)[1], RunEvent::UserEcho { text } if text == "运行 pwd"));
    assert_answer_is_result_text(&items);
    assert_eq!(answer(&items), "当前目录是：`/Users/test/project`");

    let started = started_tools(&items);
    assert_eq!(started.len(), 1);
    assert_eq!(started[0].call_id, "toolu_vrtx_01FRFUBLpcPnpXbEZfm4uebj");
    assert_eq!(started[0].tool, "shell");
    assert_eq!(started[0].args["command"], "pwd");
    let completed = completed_tools(&items);
    assert_eq!(completed.len(), 1);
    let (call, outcome) = completed[0];
    assert_eq!(call.call_id, "toolu_vrtx_01FRFUBLpcPnpXbEZfm4uebj");
    assert!(
        call.args.get("result").is_none(),
        "flat-form args exclude result"
    );
    assert_eq!(call.args["command"], "pwd");
    assert!(
        matches!(outcome, ToolOutcome::Success { value } if value["stdout"] == "/Users/test/project\n")
    );

    let result = result(&items).expect("result");
    assert_eq!(result.chat_id.as_deref(), Some(chat));
    assert_eq!(result.duration_ms, Some(5373));
    assert_eq!(result.usage, usage(16293, 75, 0, 16290));
}

#[test]
fn golembot_model_error_is_one_plain_text_failure() {
    let items = parse(&fixture("golembot-model-error"));
    assert!(events(&items).is_empty());
    assert_eq!(
        failures(&items),
        [&CliFailure::BadModel(
            "Cannot use this model: claude-4.6-sonnet. Available models: auto, composer-1.5, sonnet-4.6, opus-4.6, opus-4.5".to_owned()
        )]
    );
}

#[test]
fn every_fixture_matches_its_golden_file() {
    for (name, bytes) in fixtures() {
        let actual = items_json(&parse(&bytes));
        insta::with_settings!({
            snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engine/snapshots"),
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_json_snapshot!(format!("stream_items__{name}"), actual);
        });
    }
}
