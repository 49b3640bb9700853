//! The real Claude Code through the launcher: a parent on a Claude model (scripted upstream)
//! delegates with `subagent_type: multi-cursor`; the worker runs on Cursor Auto (the fake
//! agent ran `--model auto` with exactly the task on stdin: the worker's own conversation, not
//! the parent's), and the parent's next request carries the worker's Cursor answer in the Agent
//! tool's result.

use multi_cursor_test_support::launcher;
use multi_cursor_test_support::parent;

use launcher::Launch;
use parent::fake_upstream::FakeUpstream;

const TASK: &str = "List the files in this workspace.";

#[test]
fn a_worker_runs_on_cursor_auto_and_reports_back() {
    let upstream = FakeUpstream::start();
    parent::script_parent(&upstream, TASK);
    let mut launch = Launch::real()
        .env_remove("MULTI_CURSOR_UPSTREAM")
        .env("ANTHROPIC_BASE_URL", upstream.url())
        .env("FAKE_AGENT_REPLY", "WORKER_OK from Cursor")
        .args([
            "-p",
            "delegate this to a Cursor worker",
            "--model",
            parent::PARENT_MODEL,
            "--permission-mode",
            "bypassPermissions",
        ]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    assert_eq!(output.stdout.trim(), parent::PARENT_DONE, "{output:?}");

    let turns = launch.turns();
    assert_eq!(turns.len(), 1, "one Cursor turn: {turns:#?}");
    let argv: Vec<&str> = turns[0]["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(argv.contains(&"--model=auto"), "{argv:?}");
    assert_eq!(turns[0]["stdin"], TASK);

    let requests = parent::parent_requests(&upstream);
    assert_eq!(requests.len(), 2, "the parent asked twice");
    assert!(
        requests
            .iter()
            .all(|r| r.model().as_deref() == Some(parent::PARENT_MODEL))
    );
    assert!(
        requests
            .iter()
            .all(|r| r.header("x-claude-code-agent-id").is_none()),
        "only the parent reaches the upstream"
    );
    let result = parent::tool_result_text(&requests[1]).expect("the Agent result");
    assert!(result.contains("WORKER_OK from Cursor"), "{result}");
}
