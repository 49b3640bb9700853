//! Through the launcher, a Cursor model in Claude's manual mode (`default`: what `-p` runs in
//! without `--permission-mode`) answers read-only: the answer's first line says so and names
//! `--permission-mode acceptEdits` (Shift+Tab does not exist with `-p`), and Cursor runs with
//! `--mode ask`.

use multi_cursor_test_support::launcher;

use launcher::Launch;

#[test]
fn manual_mode_answers_read_only() {
    let mut launch = Launch::real().args([
        "-p",
        "edit the readme",
        "--model",
        "multi/cursor/composer-2.5",
    ]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    assert!(
        output.stdout.starts_with(
            "[Cursor] Cursor answered read-only: in manual mode it cannot ask you before acting. Run with `--permission-mode acceptEdits` to let Cursor edit."
        ),
        "{output:?}"
    );
    assert!(output.stdout.contains("fake agent reply"), "{output:?}");
    let turns = launch.turns();
    assert_eq!(turns.len(), 1, "{turns:#?}");
    let argv: Vec<String> = serde_json::from_value(turns[0]["argv"].clone()).unwrap();
    assert_eq!(argv[argv.len() - 2..], ["--mode", "ask"], "{argv:?}");
}
