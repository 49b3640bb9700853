//! A parent picks the worker's Cursor model with a first prompt line `model: composer-2.5`: the
//! worker runs `agent --model composer-2.5`, the line never reaches Cursor, and the worker's
//! answer comes back to the parent.

use multi_cursor_test_support::launcher;
use multi_cursor_test_support::parent;

use launcher::Launch;
use parent::fake_upstream::FakeUpstream;

#[test]
fn the_model_line_chooses_the_workers_cursor_model() {
    let upstream = FakeUpstream::start();
    parent::script_parent(&upstream, "model: composer-2.5\nRename the helper.");
    let mut launch = Launch::real()
        .env_remove("MULTI_CURSOR_UPSTREAM")
        .env("ANTHROPIC_BASE_URL", upstream.url())
        .env("FAKE_AGENT_REPLY", "COMPOSER_WORKER_OK")
        .args([
            "-p",
            "delegate the rename",
            "--model",
            parent::PARENT_MODEL,
            "--permission-mode",
            "bypassPermissions",
        ]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");

    let turns = launch.turns();
    assert_eq!(turns.len(), 1, "{turns:#?}");
    let argv: Vec<&str> = turns[0]["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(argv.contains(&"--model=composer-2.5"), "{argv:?}");
    let stdin = turns[0]["stdin"].as_str().unwrap();
    assert!(
        !stdin.contains("model:"),
        "the model line reached Cursor: {stdin:?}"
    );
    assert!(stdin.contains("Rename the helper."), "{stdin:?}");

    let requests = parent::parent_requests(&upstream);
    let result = parent::tool_result_text(requests.last().unwrap()).expect("the Agent result");
    assert!(result.contains("COMPOSER_WORKER_OK"), "{result}");
}
