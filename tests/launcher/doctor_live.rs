//! `multi-cursor doctor --live`: a real `claude -p` (Claude Code 2.1.328) through a private
//! `multi-cursor serve` runs one Cursor turn (the fake agent) in plan mode and reports the
//! answer; the private folder is removed afterwards.

use multi_cursor_test_support::doctor;

#[test]
fn the_live_round_trip_reaches_cursor() {
    let check = doctor::Doctor::new();
    std::fs::write(
        check.home().join(".claude.json"),
        r#"{"hasCompletedOnboarding":true}"#,
    )
    .unwrap();
    let log = check.agent_log();
    let state = check.state();
    let (output, _dir) = check.arg("--live").run();
    assert_eq!(output.code, Some(0), "{output:?}");
    let live = output.line("Live round trip");
    assert!(live.starts_with("[pass]"), "{live}");
    assert!(live.contains("fake agent reply"), "{live}");

    let turns: Vec<serde_json::Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|c: &serde_json::Value| c["kind"] == "turn")
        .collect();
    assert_eq!(turns.len(), 1, "one Cursor turn");
    let argv: Vec<&str> = turns[0]["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(argv.windows(2).any(|w| w == ["--mode", "plan"]), "{argv:?}");
    assert!(argv.contains(&"--model=auto"), "{argv:?}");
    assert!(
        turns[0]["stdin"]
            .as_str()
            .unwrap()
            .contains("multi-cursor doctor"),
        "{}",
        turns[0]
    );
    let leftovers: Vec<_> = std::fs::read_dir(&state)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("doctor-live"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}
