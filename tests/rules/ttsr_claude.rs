//! A stream rule interrupting a Cursor turn, seen from the real Claude Code (2.1.328): Claude
//! prints one answer holding Cursor's text up to the match, the row naming the rule, and the
//! resumed run's text, never the interrupted run's rest; Cursor ran twice, the second time in
//! the same chat with the rule.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::scenario;

use claude::ClaudeRun;
use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::resumed_chat;

#[test]
fn claude_prints_the_interrupted_and_resumed_answer() {
    let root = tempfile::tempdir().unwrap();
    let workspace = root.path().join("workspace");
    std::fs::create_dir_all(workspace.join(".git")).unwrap();
    std::fs::create_dir_all(workspace.join(".claude/rules")).unwrap();
    std::fs::write(
        workspace.join(".claude/rules/no-force-push.md"),
        "---\ncondition: 'git push (-f|--force)'\nscope: tool:shell\n---\nNever force-push; open a new branch instead.\n",
    )
    .unwrap();
    let dir = root.path().join("turns");
    std::fs::create_dir(&dir).unwrap();
    let shell = r#"{"type":"tool_call","subtype":"started","call_id":"s1","tool_call":{"shellToolCall":{"args":{"command":"git push --force origin main"}}},"session_id":"{{chat_id}}"}"#;
    scenario::write(
        &dir,
        "01-force.scenario",
        &[
            scenario::INIT,
            &scenario::delta("Publishing the fix."),
            shell,
            &scenario::delta("PUSHED-BY-FORCE"),
            "#!stall",
        ],
    );
    scenario::reply(
        &dir,
        "02-resumed.scenario",
        "Pushed to a new branch fix-1 instead.",
    );
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![
            ("FAKE_AGENT_SCENARIO".into(), dir.display().to_string()),
            ("FAKE_AGENT_CHAT_ID".into(), "chat-force".into()),
        ],
        workspace: Some(workspace),
        ..GatewayOptions::default()
    });
    let output = ClaudeRun::new(&root.path().join("claude-home"), &gw.workspace())
        .gateway(&gw.url, &gw.token)
        .args([
            "-p",
            "publish the fix",
            "--model",
            "multi/cursor/composer-2.5",
        ])
        .run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let printed = &output.stdout;
    let before = printed.find("Publishing the fix.").expect(printed);
    let row = printed
        .find("[rules] stream rule `no-force-push` matched a shell call: Cursor was interrupted")
        .expect(printed);
    let after = printed
        .find("Pushed to a new branch fix-1 instead.")
        .expect(printed);
    assert!(before < row && row < after, "{printed}");
    assert!(!printed.contains("PUSHED-BY-FORCE"), "{printed}");

    let turns = gw.turns();
    assert_eq!(turns.len(), 2, "{turns:#?}");
    assert_eq!(resumed_chat(&turns[1]).as_deref(), Some("chat-force"));
    assert!(
        turns[1]["stdin"]
            .as_str()
            .unwrap()
            .contains("Never force-push; open a new branch instead.")
    );
}
