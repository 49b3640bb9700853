//! The real Claude Code through the launcher on a Cursor model: `-p … --model
//! multi/cursor/composer-2.5 --output-format stream-json --verbose` returns the fake agent's
//! text, the agent ran with `--model composer-2.5` and the user's words on stdin; a `--resume`d
//! second prompt (a new launch) resumes the same Cursor chat. The first runs on the pinned and
//! on the newest Claude Code.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::launcher;

use launcher::Launch;
use launcher::flag_value;
use launcher::resumed_chat;

fn first_prompt(launch: Launch) -> (Launch, String) {
    let mut launch = launch
        .env("FAKE_AGENT_CHAT_ID", "chat-from-first-turn")
        .args([
            "-p",
            "explain the build script",
            "--model",
            "multi/cursor/composer-2.5",
            "--permission-mode",
            "bypassPermissions",
            "--output-format",
            "stream-json",
            "--verbose",
        ]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let result = launcher::stream_result(&output.stdout);
    assert_eq!(result["is_error"], false, "{result}");
    assert_eq!(
        without_tokens(result["result"].as_str().unwrap()),
        "fake agent reply",
        "{result}"
    );
    let session = result["session_id"].as_str().unwrap().to_string();
    (launch, session)
}

#[test]
fn a_cursor_model_answers_through_the_launcher() {
    for claude in claude::builds() {
        a_cursor_model_answers_through_the_launcher_on(&claude);
    }
}

fn a_cursor_model_answers_through_the_launcher_on(claude: &std::path::Path) {
    let (launch, _) = first_prompt(Launch::real_on(claude));
    let turns = launch.turns();
    assert_eq!(turns.len(), 1, "{turns:#?}");
    assert_eq!(
        flag_value(&turns[0], "--model").as_deref(),
        Some("composer-2.5")
    );
    assert!(
        turns[0]["stdin"]
            .as_str()
            .unwrap()
            .contains("explain the build script"),
        "{}",
        turns[0]["stdin"]
    );
    assert_eq!(resumed_chat(&turns[0]), None, "a new chat");
}

#[test]
fn a_resumed_session_resumes_the_cursor_chat() {
    let (launch, session) = first_prompt(Launch::real());
    let dir_home = launch.home.clone();
    let mut second = launch.clear_args().args([
        "-p",
        "and the tests?",
        "--resume",
        &session,
        "--model",
        "multi/cursor/composer-2.5",
        "--permission-mode",
        "bypassPermissions",
    ]);
    let output = second.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    assert_eq!(without_tokens(output.stdout.trim()), "fake agent reply");
    let turns = second.turns();
    assert_eq!(turns.len(), 2, "{turns:#?}");
    assert_eq!(
        resumed_chat(&turns[1]).as_deref(),
        Some("chat-from-first-turn")
    );
    assert!(
        turns[1]["stdin"]
            .as_str()
            .unwrap()
            .contains("and the tests?")
    );
    assert!(dir_home.exists());
}
