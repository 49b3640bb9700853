//! A plan-mode turn (`--mode plan`) shows Cursor's `createPlanToolCall` as the plan itself —
//! name, overview, plan text, todos — after Cursor's words; the plan is the answer, not a
//! native action, so no closing summary follows.

use multi_cursor_test_support::display;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::stream_lines as lines;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

const PLAN: &str = "Here is the plan.\n\n\
**Plan: Add a greeting**\n\n\
Add a greet() helper and test it.\n\n\
# Plan\n\n\
1. Add greet() to src/lib.rs\n\
2. Add a unit test\n\n\
Todos:\n\
- [ ] Add greet()\n\
- [ ] Test greet()";

#[test]
fn the_plan_is_the_answer() {
    let scenario = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake-agent/scenarios/plan-mode.scenario");
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("plan".into()),
        env: vec![("FAKE_AGENT_SCENARIO".into(), scenario.display().to_string())],
        ..GatewayOptions::default()
    });
    let (status, body) = gw.ask(
        "plan-streamed",
        &cursor_request("multi/cursor/composer-2.5", "plan a greeting", true),
    );
    assert_eq!(status, 200, "{body}");
    // The turn's tokens, as every answer has; then, since this request (as from `claude -p`)
    // cannot open Claude Code's plan approval, what to send to have the plan carried out.
    let answer = format!(
        "{PLAN}\n\n[Cursor] 12.0k in / 80 out\n\n[Cursor] This session cannot show Claude Code's plan approval. To have Cursor carry out the plan, leave plan mode for one that lets it edit (`--permission-mode acceptEdits` with `claude -p`, accept edits in the terminal) and send \"go ahead\": the same Cursor chat continues."
    );
    assert_eq!(sse_text(&body), answer);
    assert!(!body.contains("tool_use"));

    let (status, body) = gw.ask(
        "plan-json",
        &cursor_request("multi/cursor/composer-2.5", "plan a greeting", false),
    );
    assert_eq!(status, 200, "{body}");
    let message: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(message["content"][0]["text"], answer);

    let turns = gw.turns();
    assert_eq!(turns.len(), 2);
    let argv: Vec<String> = serde_json::from_value(turns[0]["argv"].clone()).unwrap();
    assert!(argv.windows(2).any(|w| w == ["--mode", "plan"]), "{argv:?}");
}

/// A plan whose call never reported completion is still the answer: it is shown at the end.
#[test]
fn a_plan_never_completed_is_shown_at_the_end() {
    let args = serde_json::json!({"name": "Tidy", "overview": "Remove dead code.", "todos": [{"content": "Delete old.rs", "status": "completed"}, {"content": "Run tests", "status": "in_progress"}]});
    let stream = [
        lines::init(),
        lines::whole("Planning."),
        lines::started("p1", "createPlanToolCall", args),
        lines::result("Planning.", None),
    ];
    let rendered = display::render_lines(&stream, std::path::Path::new("/w"));
    assert_eq!(
        rendered.text,
        "Planning.\n\n**Plan: Tidy**\n\nRemove dead code.\n\nTodos:\n- [x] Delete old.rs\n- [~] Run tests"
    );
}
