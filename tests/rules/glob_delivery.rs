//! Glob rules through the gateway: when Cursor's tool calls in one turn touch a file matching a
//! rule's `paths`, that rule is recorded in `attachedRules` and its text goes with the chat's
//! next prompt — once per chat.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::scenario;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;

/// Cursor's `started` and `completed` events of an edit of `path`, the path as a JSON string
/// (a Windows path's backslashes escaped).
fn edit(path: &str) -> [String; 2] {
    let path = serde_json::Value::from(path).to_string();
    [
        format!(
            r#"{{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{{"editToolCall":{{"args":{{"path":{path},"streamContent":"x"}}}}}},"session_id":"{{{{chat_id}}}}"}}"#
        ),
        format!(
            r#"{{"type":"tool_call","subtype":"completed","call_id":"c1","tool_call":{{"editToolCall":{{"args":{{"path":{path},"streamContent":"x"}},"result":{{"success":{{"path":{path},"linesAdded":1,"linesRemoved":0}}}}}}}},"session_id":"{{{{chat_id}}}}"}}"#
        ),
    ]
}

#[test]
fn a_touched_file_attaches_its_rule_to_the_next_prompt() {
    let root = tempfile::tempdir().unwrap();
    let workspace = root.path().join("workspace");
    std::fs::create_dir_all(workspace.join(".claude/rules")).unwrap();
    std::fs::create_dir_all(workspace.join(".git")).unwrap();
    std::fs::create_dir_all(workspace.join("src/components")).unwrap();
    std::fs::write(
        workspace.join(".claude/rules/frontend.md"),
        "---\npaths: src/components/**/*.tsx\n---\nFRONTEND-RULE: function components only.\n",
    )
    .unwrap();
    // The file named through the workspace as std canonicalises it: on Windows in the
    // verbatim `\\?\C:\…` spelling, not the gateway's `C:\…` (both are Cursor's to report).
    let target = std::fs::canonicalize(&workspace)
        .unwrap()
        .join("src/components/Button.tsx");
    let dir = root.path().join("turns");
    std::fs::create_dir(&dir).unwrap();
    let [started, completed] = edit(&target.display().to_string());
    scenario::write(
        &dir,
        "01-edit.scenario",
        &[
            scenario::INIT,
            &started,
            &completed,
            &scenario::delta("edited"),
            &scenario::result("edited"),
        ],
    );
    scenario::reply(&dir, "02-next.scenario", "ok");
    let gw = TestGateway::start(GatewayOptions {
        workspace: Some(workspace),
        ..GatewayOptions::replaying(&dir)
    });
    let (status, first_body) = gw.ask(
        "s-glob",
        &cursor_request("multi/cursor/composer-2.5", "make a button", false),
    );
    assert_eq!(status, 200, "{first_body}");
    assert!(
        !gw.turns()[0]["stdin"]
            .as_str()
            .unwrap()
            .contains("FRONTEND-RULE"),
        "not before the file is touched"
    );
    let record = gw.record("s-glob", "main");
    assert!(
        record["attachedRules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r == "frontend"),
        "{record:#}"
    );
    let answer: serde_json::Value = serde_json::from_str(&first_body).unwrap();
    let mut next = cursor_request("multi/cursor/composer-2.5", "", false);
    next["messages"] = serde_json::json!([
        {"role": "user", "content": "make a button"},
        {"role": "assistant", "content": answer["content"][0]["text"]},
        {"role": "user", "content": "now style it"}
    ]);
    let (status, body) = gw.ask("s-glob", &next);
    assert_eq!(status, 200, "{body}");
    let prompt = gw.turns()[1]["stdin"].as_str().unwrap().to_string();
    assert!(prompt.contains("FRONTEND-RULE"), "{prompt}");
    assert!(
        gw.record("s-glob", "main")["pendingRules"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}
