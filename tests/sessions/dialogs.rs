//! A dialog of Claude Code's the session waits on is part of its record: a re-sent request
//! opens the same dialog without running Cursor again, a gateway restarted between the dialog
//! and the user's pick still resumes the same chat with it, and the resumed run is on the
//! ledger like any other. A worker's request, which can open no dialog, gets words.

use std::path::Path;

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::ledger::ledger_lines;
use multi_cursor_test_support::repo_root;
use serde_json::Value;
use serde_json::json;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::sse_events;
use gateway::sse_text;

const SESSION: &str = "s-dialog";

/// Claude Code's plan-mode context as 2.1.328 sends it (in `<system-reminder>` blocks).
fn plan_context(plan_file: &Path) -> Value {
    json!([
        {"type": "text", "text": "<system-reminder>\nThe following deferred tools are now available via ToolSearch.\nEnterPlanMode\nExitPlanMode\nWebFetch\n</system-reminder>"},
        {"type": "text", "text": format!("<system-reminder>\nPlan mode is active. The user indicated that they do not want you to execute yet.\n\n## Plan File Info:\nNo plan file exists yet. You should create your plan at {} using the Write tool.\n</system-reminder>", plan_file.display())},
        {"type": "text", "text": "plan a greeting"}
    ])
}

fn request(messages: Value) -> Value {
    json!({"model": "multi/cursor/composer-2.5", "stream": true, "max_tokens": 32000,
        "tools": [{"name": "Write"}, {"name": "AskUserQuestion"}, {"name": "Bash"}],
        "messages": messages})
}

/// The answer's one `tool_use`: its id, name and input. Every frame of it is one Claude Code
/// reads as whole.
fn tool_use(body: &str) -> (String, String, Value) {
    let faults = multi_cursor_test_support::sse_frames::frame_faults(body);
    assert!(faults.is_empty(), "{faults:#?}\n{body}");
    let events = sse_events(body);
    let (id, name) = events
        .iter()
        .find_map(|(_, data)| {
            let block = data.get("content_block")?;
            (block["type"] == "tool_use").then(|| {
                (
                    block["id"].as_str().unwrap().to_string(),
                    block["name"].as_str().unwrap().to_string(),
                )
            })
        })
        .unwrap_or_else(|| panic!("no tool_use in {body}"));
    let input: String = events
        .iter()
        .filter_map(|(_, data)| {
            data.pointer("/delta/partial_json")?
                .as_str()
                .map(str::to_string)
        })
        .collect();
    let stop = events
        .iter()
        .find_map(|(_, data)| data.pointer("/delta/stop_reason").cloned())
        .unwrap();
    assert_eq!(stop, "tool_use", "{body}");
    (id, name, serde_json::from_str(&input).unwrap())
}

#[test]
fn a_restarted_gateway_still_answers_the_plan_dialog_and_resumes_the_same_chat() {
    let root = tempfile::tempdir().unwrap();
    let root_path = std::fs::canonicalize(root.path()).unwrap();
    let workspace = root_path.join("workspace");
    std::fs::create_dir(&workspace).unwrap();
    let runs = root_path.join("runs");
    std::fs::create_dir(&runs).unwrap();
    let scenarios = repo_root().join("tests/fake-agent/scenarios");
    std::fs::copy(scenarios.join("plan-mode.scenario"), runs.join("01-plan")).unwrap();
    std::fs::copy(scenarios.join("edit-file.scenario"), runs.join("02-edit")).unwrap();
    let state = root_path.join("state");
    let options = GatewayOptions {
        permission_mode: Some("plan".into()),
        env: vec![("FAKE_AGENT_SCENARIO".into(), runs.display().to_string())],
        state_dir: Some(state.clone()),
        workspace: Some(workspace.clone()),
        agent_log: Some(root_path.join("agent.jsonl")),
        ..GatewayOptions::default()
    };
    let plan_file = root_path.join("home/.claude/plans/plan-a-greeting.md");
    let first_turn = json!([{"role": "user", "content": plan_context(&plan_file)}]);

    let mut first = TestGateway::start(options.clone());
    first.set_mode(SESSION, "plan");
    let (status, body) = first.ask(SESSION, &request(first_turn.clone()));
    assert_eq!(status, 200, "{body}");
    let (write_id, name, input) = tool_use(&body);
    assert_eq!(name, "Write");
    assert_eq!(input["file_path"], plan_file.display().to_string());
    assert!(
        input["content"]
            .as_str()
            .unwrap()
            .contains("Add greet() to src/lib.rs")
    );
    assert!(sse_text(&body).contains("Cursor's plan goes to Claude Code's plan approval."));
    // A re-send opens the same dialog; Cursor does not run again.
    let (_, again) = first.ask(SESSION, &request(first_turn));
    assert_eq!(tool_use(&again).0, write_id);
    assert_eq!(first.turns().len(), 1);
    first.kill();

    // A new gateway on the same state: the plan file's result opens "Ready to code?".
    let second = TestGateway::start(options);
    second.set_mode(SESSION, "plan");
    let written = json!([
        {"role": "user", "content": plan_context(&plan_file)},
        {"role": "assistant", "content": [
            {"type": "text", "text": "Here is the plan."},
            {"type": "tool_use", "id": write_id, "name": "Write", "input": input}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": write_id,
            "content": format!("File created successfully at: {} (file state is current in your context — no need to Read it back)", plan_file.display())}]}
    ]);
    let (status, body) = second.ask(SESSION, &request(written.clone()));
    assert_eq!(status, 200, "{body}");
    let (exit_id, name, input) = tool_use(&body);
    assert_eq!((name.as_str(), input), ("ExitPlanMode", json!({})));
    let (_, again) = second.ask(SESSION, &request(written.clone()));
    assert_eq!(
        tool_use(&again).0,
        exit_id,
        "a re-send opens the same dialog"
    );
    assert_eq!(second.turns().len(), 1, "nothing ran for the dialog");

    // "Yes, auto-accept edits": the PostToolUse hook says the mode, then the approval comes.
    second.hook(
        json!({"session_id": SESSION, "cwd": workspace, "hook_event_name": "PostToolUse",
        "permission_mode": "acceptEdits", "tool_name": "ExitPlanMode", "tool_input": {}}),
    );
    let mut approved = written.as_array().unwrap().clone();
    approved.push(json!({"role": "assistant", "content": [
        {"type": "tool_use", "id": exit_id, "name": "ExitPlanMode", "input": {}}]}));
    approved.push(json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": exit_id,
        "content": "User has approved your plan. You can now start coding. Start with updating your todo list if applicable\n\n## Approved Plan:\n# Plan"}]}));
    let ledger_before = ledger_lines(&state).len();
    let (status, body) = second.ask(SESSION, &request(Value::Array(approved)));
    assert_eq!(status, 200, "{body}");
    assert!(sse_text(&body).contains("Changed: notes.txt"), "{body}");
    assert_eq!(
        std::fs::read_to_string(workspace.join("notes.txt")).unwrap(),
        "written by Cursor\n"
    );
    let turns = second.turns();
    assert_eq!(turns.len(), 2);
    let argv: Vec<String> = serde_json::from_value(turns[1]["argv"].clone()).unwrap();
    assert!(
        !argv.contains(&"--mode".to_string()),
        "accept edits' flags: {argv:?}"
    );
    assert!(
        argv.iter().any(|a| a.starts_with("--resume=")),
        "the same chat: {argv:?}"
    );
    assert!(
        turns[1]["stdin"]
            .as_str()
            .unwrap()
            .contains("Carry out the approved plan now.")
    );
    assert_eq!(
        ledger_lines(&state).len(),
        ledger_before + 1,
        "the resumed run is on the ledger"
    );
}

#[test]
fn a_worker_gets_cursors_question_in_words() {
    let fixture =
        repo_root().join("tests/fixtures/cursor-stream-2026/hcn0915-askquestion-rejected.ndjson");
    let gw = TestGateway::start(GatewayOptions::replaying(&fixture));
    let mut body = request(json!([{"role": "user", "content": "ask me which file"}]));
    body["system"] = json!([{"type": "text", "text": "x-anthropic-billing-header: cc_version=2.1.328; cc_is_subagent=true;"}]);
    let (status, answer) = gw.ask("s-worker", &body);
    assert_eq!(status, 200, "{answer}");
    assert!(!answer.contains("tool_use"), "{answer}");
    assert!(
        sse_text(&answer).contains("answer it in your next message"),
        "{answer}"
    );
}

/// Every captured stream and every scenario that ends, in plan mode with plan approval open
/// and in accept-edits mode, with every tool Claude Code offers listed: the only `tool_use`s
/// that ever leave the gateway are the dialogs', and a `Write` only of the plan file named.
#[test]
fn only_the_dialogs_tool_uses_ever_leave_the_gateway() {
    let root = repo_root();
    let mut streams: Vec<std::path::PathBuf> = Vec::new();
    for folder in [
        "tests/fixtures/cursor-stream",
        "tests/fixtures/cursor-stream-2026",
    ] {
        streams.extend(
            std::fs::read_dir(root.join(folder))
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "ndjson")),
        );
    }
    for scenario in [
        "plan-mode.scenario",
        "edit-file.scenario",
        "error-result.scenario",
        "failure-after-tool.scenario",
    ] {
        streams.push(root.join("tests/fake-agent/scenarios").join(scenario));
    }
    let every_tool = json!([
        "Agent",
        "AskUserQuestion",
        "Bash",
        "Edit",
        "ListAgents",
        "Read",
        "Skill",
        "ToolSearch",
        "Write",
        "ExitPlanMode",
        "EnterPlanMode",
        "WebFetch",
        "NotebookEdit"
    ]);
    let tools: Vec<Value> = every_tool
        .as_array()
        .unwrap()
        .iter()
        .map(|n| json!({"name": n}))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let plan_file = dir.path().join("plans/p.md");
    let mut dialogs_seen = 0;
    for stream in &streams {
        for mode in ["plan", "acceptEdits"] {
            let mut options = GatewayOptions::replaying(stream);
            options.permission_mode = Some(mode.into());
            let gw = TestGateway::start(options);
            gw.set_mode("s-guard", mode);
            let body = json!({"model": "multi/cursor/composer-2.5", "stream": true, "tools": tools,
                "messages": [{"role": "user", "content": plan_context(&plan_file)}]});
            let (_, answer) = gw.ask("s-guard", &body);
            for (_, data) in sse_events(&answer) {
                let Some(block) = data
                    .get("content_block")
                    .filter(|b| b["type"] == "tool_use")
                else {
                    continue;
                };
                dialogs_seen += 1;
                let name = block["name"].as_str().unwrap();
                assert!(
                    ["AskUserQuestion", "ExitPlanMode", "Write"].contains(&name),
                    "{} in {mode} mode sent a {name} tool_use: {answer}",
                    stream.display()
                );
            }
            for (_, data) in sse_events(&answer) {
                if let Some(input) = data.pointer("/delta/partial_json").and_then(Value::as_str) {
                    let input: Value = serde_json::from_str(input).unwrap();
                    if let Some(path) = input.get("file_path") {
                        assert_eq!(path, &json!(plan_file.display().to_string()), "{answer}");
                        assert_eq!(mode, "plan", "a Write outside plan mode: {answer}");
                    }
                }
            }
        }
    }
    assert!(
        dialogs_seen >= 2,
        "the plan and the question opened their dialogs"
    );
}

/// "Ready to code?" opens only while the request can still show it: a plan file's result that
/// arrives after the session left plan mode opens nothing and goes to Cursor as any message.
#[test]
fn no_plan_approval_opens_once_the_session_left_plan_mode() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let runs = root.join("runs");
    std::fs::create_dir(&runs).unwrap();
    let scenarios = repo_root().join("tests/fake-agent/scenarios");
    std::fs::copy(scenarios.join("plan-mode.scenario"), runs.join("01-plan")).unwrap();
    std::fs::copy(scenarios.join("edit-file.scenario"), runs.join("02-edit")).unwrap();
    let mut options = GatewayOptions::replaying(&runs);
    options.permission_mode = Some("plan".into());
    let gw = TestGateway::start(options);
    gw.set_mode(SESSION, "plan");
    let plan_file = root.join("plans/p.md");
    let first = json!([{"role": "user", "content": plan_context(&plan_file)}]);
    let (_, body) = gw.ask(SESSION, &request(first));
    let (write_id, _, input) = tool_use(&body);
    gw.set_mode(SESSION, "acceptEdits");
    let written = json!([
        {"role": "user", "content": plan_context(&plan_file)},
        {"role": "assistant", "content": [{"type": "tool_use", "id": write_id, "name": "Write", "input": input}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": write_id,
            "content": "File created successfully at: /p.md"}]}
    ]);
    let (status, body) = gw.ask(SESSION, &request(written));
    assert_eq!(status, 200, "{body}");
    assert!(!body.contains("\"tool_use\""), "{body}");
    assert_eq!(
        gw.turns().len(),
        2,
        "the result went to Cursor as a message"
    );
}
