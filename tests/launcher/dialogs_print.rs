//! Where Claude Code has no dialog (`claude -p`, on the pinned build and the newest), Cursor's
//! plan ends in words saying what to send to have it carried out, with no `tool_use`: `-p`
//! sends the plan-mode text but leaves `ExitPlanMode` out. The next message goes on in the same
//! chat.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::launcher::Launch;
use multi_cursor_test_support::repo_root;

#[test]
fn print_mode_gets_the_plan_and_what_to_send_in_words() {
    for claude in [claude::claude_binary(), claude::latest_claude_binary()] {
        let mut launch = Launch::real()
            .env("MULTI_CURSOR_CLAUDE", &claude)
            .env(
                "FAKE_AGENT_SCENARIO",
                repo_root().join("tests/fake-agent/scenarios/plan-mode.scenario"),
            )
            .args([
                "-p",
                "plan a greeting",
                "--model",
                "multi/cursor/composer-2.5",
                "--permission-mode",
                "plan",
            ]);
        let output = launch.run();
        assert_eq!(output.status, Some(0), "{output:?}");
        assert!(
            output.stdout.contains("Add greet() to src/lib.rs"),
            "{output:?}"
        );
        assert!(
            output.stdout.contains("This session cannot show Claude Code's plan approval. To have Cursor carry out the plan, leave plan mode for one that lets it edit (`--permission-mode acceptEdits` with `claude -p`"),
            "{output:?}"
        );
        assert_eq!(launch.turns().len(), 1, "one run, no dialog round trip");
        assert!(
            !launch.home.join(".claude/plans").exists()
                || std::fs::read_dir(launch.home.join(".claude/plans"))
                    .unwrap()
                    .next()
                    .is_none(),
            "no plan file was written"
        );
    }
}
