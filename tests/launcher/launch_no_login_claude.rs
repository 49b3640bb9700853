//! The real Claude Code with no Anthropic login at all (fresh HOME, no key): through the
//! launcher it starts on Cursor Auto and answers from Cursor, and a Claude model gets
//! "not signed in to Anthropic: pick a Cursor model in /model, or log in" without any request
//! leaving the machine.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::fake_upstream;
use multi_cursor_test_support::launcher;

use fake_upstream::FakeUpstream;
use launcher::Launch;

fn signed_out(upstream: &FakeUpstream) -> Launch {
    Launch::real()
        .env_remove("ANTHROPIC_API_KEY")
        .env("MULTI_CURSOR_UPSTREAM", upstream.url())
}

#[test]
fn signed_out_claude_works_with_cursor() {
    let upstream = FakeUpstream::start();
    let mut launch = signed_out(&upstream).args([
        "-p",
        "what is in this folder?",
        "--permission-mode",
        "bypassPermissions",
    ]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    assert_eq!(
        without_tokens(output.stdout.trim()),
        "fake agent reply",
        "{output:?}"
    );
    let turns = launch.turns();
    assert_eq!(turns.len(), 1, "{turns:#?}");
    let argv = turns[0]["argv"].as_array().unwrap();
    assert!(
        argv.iter().any(|a| a == "--model=auto"),
        "started on multi/cursor/default: {argv:?}"
    );
    assert_eq!(upstream.request_count(), 0);
}

#[test]
fn signed_out_claude_models_are_refused_locally() {
    let upstream = FakeUpstream::start();
    let mut launch = signed_out(&upstream).args(["-p", "hello", "--model", "claude-sonnet-4-5"]);
    let output = launch.run();
    assert_ne!(output.status, Some(0), "{output:?}");
    let shown = format!("{}{}", output.stdout, output.stderr);
    assert!(
        shown.contains("not signed in to Anthropic: pick a Cursor model in /model, or log in"),
        "{output:?}"
    );
    assert_eq!(upstream.request_count(), 0, "nothing was forwarded");
    assert!(launch.turns().is_empty());
}
