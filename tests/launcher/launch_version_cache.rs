//! `claude --version` is asked once per executable: later launches read the answer from the
//! state folder until the executable changes.

use multi_cursor_test_support::launcher;

use launcher::Launch;

fn version_calls(launch: &Launch) -> usize {
    launch
        .dumped("version-calls")
        .map_or(0, |t| t.lines().count())
}

#[test]
fn version_is_cached_per_executable() {
    let mut launch = Launch::scripted().args(["-p", "hi"]);
    assert_eq!(launch.run().status, Some(0));
    assert_eq!(version_calls(&launch), 1);
    assert_eq!(launch.run().status, Some(0));
    assert_eq!(version_calls(&launch), 1, "second launch read the cache");
    let cache = std::fs::read_to_string(launch.state.join("claude-version.json")).unwrap();
    assert!(
        cache.contains("2.1.328") || cache.contains("328"),
        "{cache}"
    );

    // A changed executable (new modification time and size) is asked again.
    let script = launch.dir.path().join("bin/claude");
    let mut text = std::fs::read_to_string(&script).unwrap();
    text.push_str("# updated\n");
    std::fs::write(&script, text).unwrap();
    assert_eq!(launch.run().status, Some(0));
    assert_eq!(version_calls(&launch), 2);
}

/// Cursor's agent, probed before Claude Code starts (`--version`, `--help`: its auto review
/// decides the rows' profile), is probed once per executable: a later launch reads the answer
/// from the state folder.
#[test]
fn the_agent_probe_is_cached_per_executable() {
    let mut launch = Launch::scripted().args(["-p", "hi"]);
    let probes = |launch: &Launch| {
        std::fs::read_to_string(&launch.agent_log)
            .unwrap_or_default()
            .lines()
            .filter(|line| {
                line.contains(r#""kind":"version""#) || line.contains(r#""kind":"help""#)
            })
            .count()
    };
    assert_eq!(launch.run().status, Some(0));
    assert_eq!(
        probes(&launch),
        2,
        "--version and --help at the first launch"
    );
    assert_eq!(launch.run().status, Some(0));
    assert_eq!(probes(&launch), 2, "the second launch read the cache");
    let cache = std::fs::read_to_string(launch.state.join("agent-probe.json")).unwrap();
    assert!(cache.contains("\"supports_auto_review\": true"), "{cache}");
}
