//! `multi-cursor doctor` says what the launcher remembers of the agent's `--version`/`--help`
//! and when it was asked; a remembered answer the agent no longer gives (a wrapper whose
//! environment changed keeps its path, time and size) is a warning and is replaced.

use multi_cursor_test_support::doctor;
use multi_cursor_test_support::fake_agent::fake_agent;

#[test]
fn a_stale_probe_is_named_and_refreshed() {
    let check = doctor::Doctor::new();
    let state = check.dir.path().join("state");
    std::fs::create_dir_all(&state).unwrap();
    // What the launcher would have remembered of this executable when it had no --auto-review.
    let agent = std::fs::canonicalize(fake_agent()).unwrap();
    let meta = std::fs::metadata(&agent).unwrap();
    let mtime_ns = meta
        .modified()
        .unwrap()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let cache = serde_json::json!({
        "version": 1,
        "entries": {
            agent.to_string_lossy(): {
                "mtimeNs": mtime_ns, "size": meta.len(),
                "cli_version": "2026.09.01-old", "supports_auto_review": false,
                "probed_at": "2026-11-30T08:05:09Z"
            }
        }
    });
    std::fs::write(state.join("agent-probe.json"), cache.to_string()).unwrap();

    let (output, dir) = check.run();
    let line = output.line("Agent probe");
    assert!(line.starts_with("[warn]"), "{output:?}");
    assert!(
        line.contains("2026.09.01-old, without --auto-review (asked 2026-11-30T08:05:09Z)")
            && line.contains("with --auto-review now"),
        "{line}"
    );
    assert!(
        output.fix("Agent probe").contains("refreshed now"),
        "{output:?}"
    );

    // Refreshed: the next doctor finds it as the agent answers, with when it was asked.
    let again = doctor::Doctor::new().env("MULTI_CURSOR_STATE_DIR", dir.path().join("state"));
    let (output, _dir) = again.run();
    let line = output.line("Agent probe");
    assert!(line.starts_with("[pass]"), "{output:?}");
    assert!(line.contains("remembered from 20"), "{line}");
    assert!(
        line.contains("with --auto-review, as it answers now"),
        "{line}"
    );
}
