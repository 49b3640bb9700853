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
