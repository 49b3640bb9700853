//! Quiet is not stalled: a shell call prints nothing between `started` and `completed`, so
//! while a tool call is open the turn's inactivity limit does not apply (the call's own hard
//! timeout plus a margin does). The same silence with no call open still ends the run as
//! stalled. The limit is shortened to 1 s; the fake agent's shell call is quiet for 3 s.

use std::time::Duration;

use multi_cursor_test_support::process as process_support;
use multi_cursor_test_support::stream_lines as lines;

use multi_cursor::cursor::process::RunLimits;
use multi_cursor::turn::TurnInput;
use multi_cursor::turn::TurnItem;
use serde_json::json;

/// How a turn over `scenario` ended: `Ok(answer)` or `Err(error message)`.
async fn run(scenario: &[String]) -> Result<String, String> {
    let sandbox = process_support::Sandbox::new(Some(&(scenario.join("\n") + "\n")), &[]);
    // The cancel is held to the end: dropping it would cancel the turn.
    let (mut items, _cancel) = multi_cursor::turn::start(TurnInput {
        agent: sandbox.agent.clone(),
        spec: sandbox.spec(None),
        fresh_prompt: None,
        requested_model: "multi/cursor/auto".into(),
        notices: Vec::new(),
        limits: RunLimits {
            inactivity: Duration::from_secs(1),
            ..RunLimits::default()
        },
        stream_rules: None,
        cursor_config: None,
        dialogs: multi_cursor::dialog::surface::Surface::none(),
    });
    while let Some(item) = items.recv().await {
        match item {
            TurnItem::Spawned { ack, .. } => ack.send(true).unwrap(),
            TurnItem::Finished { answer, .. } => return Ok(answer),
            TurnItem::Failed { error, .. } => return Err(error.to_string()),
            _ => {}
        }
    }
    Err(String::from("the turn ended without an outcome"))
}

fn shell(call: &str) -> serde_json::Value {
    json!({"command": "cargo test", "timeout": 30000, "hardTimeout": 86_400_000, "toolCallId": call})
}

#[tokio::test]
async fn a_quiet_shell_call_outlives_the_inactivity_limit() {
    let scenario = [
        lines::init(),
        lines::started("s1", "shellToolCall", shell("s1")),
        String::from("#!sleep 3s"),
        lines::completed(
            "s1",
            "shellToolCall",
            shell("s1"),
            json!({"success": {"exitCode": 0, "stdout": "test result: ok"}}),
        ),
        lines::whole("Tests pass."),
        lines::result("Tests pass.", None),
    ];
    let answer = run(&scenario).await.unwrap();
    assert!(
        answer.contains("⎿ shell `cargo test` · exit 0 · test result: ok"),
        "{answer}"
    );
}

#[tokio::test]
async fn the_same_silence_without_an_open_call_is_a_stall() {
    let scenario = [
        lines::init(),
        lines::whole("Thinking it over."),
        String::from("#!sleep 3s"),
        lines::result("Thinking it over.", None),
    ];
    let error = run(&scenario).await.unwrap_err();
    assert!(error.contains("Cursor stopped responding"), "{error}");
}
