//! A stream rule interrupts a live Cursor run: the fake agent streams `.unw` + `rap();` in
//! two deltas, the watcher reports the `no-unwrap` rule as soon as the match is complete, the
//! run is cancelled, and the chat is resumed (`--resume` of the same chat) with the rule's text
//! as an interruption notice; the rule is recorded as fired and does not fire again in the
//! resumed run although the text matches again.

use multi_cursor_test_support::process as process_support;

use std::time::Duration;

use multi_cursor::cursor::events::RunEvent;
use multi_cursor::cursor::process::RunError;
use multi_cursor::cursor::process::RunOutput;
use multi_cursor::rules::ChatRules;
use multi_cursor::rules::FiredRule;
use multi_cursor::rules::Rulebook;
use multi_cursor::rules::StreamKind;
use multi_cursor::rules::render_interruption;
use process_support::Sandbox;
use process_support::drain;
use process_support::limits;
use process_support::resumed_chat;
use process_support::spawn;

const INIT: &str = r#"{"type":"system","subtype":"init","apiKeySource":"login","cwd":"{{workspace_json}}","session_id":"{{chat_id}}","model":"Auto","permissionMode":"default"}"#;
const RESULT: &str = r#"{"type":"result","subtype":"success","duration_ms":5,"duration_api_ms":5,"is_error":false,"result":"done","session_id":"{{chat_id}}","request_id":"{{request_id}}"}"#;

fn delta(text: &str) -> String {
    format!(
        r#"{{"type":"assistant","message":{{"role":"assistant","content":[{{"type":"text","text":"{text}"}}]}},"session_id":"{{{{chat_id}}}}","timestamp_ms":1787030680901}}"#
    ) + "\n"
}

#[tokio::test(flavor = "multi_thread")]
async fn a_matching_stream_interrupts_and_the_chat_resumes_with_the_rule() {
    let scenarios = tempfile::tempdir().unwrap();
    // Turn 1 would go on for a long time after the violation: only a cancel ends it in time.
    std::fs::write(
        scenarios.path().join("01-violation.scenario"),
        format!(
            "{INIT}\n{}{}{}#!stall\n",
            delta("Quick fix: let v = opt.unw"),
            delta("rap(); done"),
            delta(" and more")
        ),
    )
    .unwrap();
    std::fs::write(
        scenarios.path().join("02-resumed.ndjson"),
        format!(
            "{INIT}\n{}{RESULT}\n",
            delta("Fixed with ? instead of .unwrap() as the rule asks.")
        ),
    )
    .unwrap();
    let sandbox = Sandbox::from_file(scenarios.path(), &[]);
    let ws = &sandbox.workspace;
    std::fs::create_dir_all(ws.join(".git")).unwrap();
    std::fs::create_dir_all(ws.join(".claude/rules")).unwrap();
    std::fs::write(
        ws.join(".claude/rules/no-unwrap.md"),
        "---\ncondition: '\\.unwrap\\(\\)'\n---\nNO-UNWRAP RULE: return errors with `?`.\n",
    )
    .unwrap();
    let book = Rulebook::load(ws, None);
    let mut chat = ChatRules::default();
    let mut watch = book.stream_watch(&chat.fired_rules);

    // Run 1: watch the stream, cancel on the first interrupting match.
    let mut spec = sandbox.spec(None);
    spec.prompt = "Fix the crash.".into();
    let mut run = spawn(&sandbox.agent, &spec, limits()).unwrap();
    let mut chat_id = String::new();
    let mut fired = Vec::new();
    let mut texts = Vec::new();
    let mut fired_after = None;
    while let Some(item) = tokio::time::timeout(Duration::from_secs(10), run.next())
        .await
        .unwrap()
    {
        match item {
            Ok(RunOutput::Event(event)) => {
                if let RunEvent::Init { chat_id: id, .. } = &event {
                    chat_id = id.clone();
                }
                if let RunEvent::Text { text } = &event {
                    texts.push(text.clone());
                }
                let now = watch.observe(&event);
                if now.iter().any(|f| f.interrupt) {
                    fired = now;
                    fired_after = Some(texts.len());
                    run.cancel();
                }
            }
            Ok(RunOutput::ChatReplaced { .. }) => {}
            Err(RunError::Cancelled) => break,
            Err(other) => panic!("run 1 failed: {other:?}"),
        }
    }
    assert_eq!(fired.len(), 1);
    assert_eq!(fired[0].rule.name, "no-unwrap");
    assert_eq!(fired[0].stream, StreamKind::Text);
    assert!(fired[0].row().contains("`no-unwrap`"));
    // Caught with the delta that completed the match (the second), not at the end of the turn.
    assert_eq!(fired_after, Some(2), "{texts:?}");
    chat.note_fired(&fired.iter().map(FiredRule::from).collect::<Vec<_>>());
    assert!(chat.fired_rules.contains("no-unwrap"));
    assert!(
        chat.pending_rules.is_empty(),
        "delivered by the resume, not later"
    );
    assert_eq!(watch.interrupts(), 1);

    // Run 2: resume the same chat with the rule as the interruption notice.
    watch.next_run();
    let mut spec = sandbox.spec(Some(&chat_id));
    spec.prompt = render_interruption(&fired);
    let mut run = spawn(&sandbox.agent, &spec, limits()).unwrap();
    let (outputs, error) = drain(&mut run, Duration::from_secs(10)).await;
    assert!(error.is_none(), "{error:?}");
    for output in &outputs {
        if let RunOutput::Event(event) = output {
            assert!(watch.observe(event).is_empty(), "fires once per chat");
        }
    }
    assert!(matches!(outputs.last(), Some(RunOutput::Event(RunEvent::Result(r))) if r.success));

    let log = sandbox.log_lines();
    let turns: Vec<_> = log.iter().filter(|l| l["kind"] == "turn").collect();
    assert_eq!(turns.len(), 2);
    let resumed = turns[1]["stdin"].as_str().unwrap();
    assert!(resumed.contains("<system-interrupt reason=\"project-rule\" rule=\"no-unwrap\""));
    assert!(resumed.contains("NO-UNWRAP RULE: return errors with `?`."));
    assert_eq!(resumed_chat(turns[1]).as_deref(), Some(chat_id.as_str()));
}
