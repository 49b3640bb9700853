use super::*;
use crate::doctor::locks::HeldLock;
use crate::doctor::locks::held_session_locks;

#[test]
fn the_report_shows_each_fix() {
    let report = Report {
        checks: vec![
            Check::pass("Claude Code", "2.1.328 at /bin/claude"),
            Check::fail("Cursor agent", "not found", "install it"),
        ],
    };
    assert!(!report.passed());
    let text = report.render();
    assert!(
        text.contains("[pass] Claude Code   2.1.328 at /bin/claude"),
        "{text}"
    );
    assert!(text.contains("[FAIL] Cursor agent  not found"), "{text}");
    assert!(text.contains("fix: install it"), "{text}");
    assert!(
        text.ends_with("1 of 2 checks failed; each fix is under it.\n"),
        "{text}"
    );
}

#[test]
fn held_locks_are_found_and_free_ones_are_not() {
    let dir = tempfile::tempdir().unwrap();
    let held_path = dir.path().join("a.v3.json.lock");
    let free_path = dir.path().join("b.v3.json.lock");
    std::fs::write(&held_path, "4242\n").unwrap();
    std::fs::write(&free_path, "17\n").unwrap();
    std::fs::write(dir.path().join("a.v3.json"), "{}").unwrap();
    let holder = std::fs::File::open(&held_path).unwrap();
    holder.lock().unwrap();
    let held = held_session_locks(dir.path()).unwrap();
    assert_eq!(
        held,
        vec![HeldLock {
            path: held_path,
            pid: Some(4242)
        }]
    );
    drop(holder);
    assert!(held_session_locks(dir.path()).unwrap().is_empty());
    assert!(
        held_session_locks(&dir.path().join("missing"))
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_warning_shows_its_fix_and_does_not_fail() {
    let report = Report {
        checks: vec![
            Check::pass("Claude Code", "2.1.328"),
            Check::warn("Saved model", "saved", "delete it"),
        ],
    };
    assert!(report.passed());
    let text = report.render();
    assert!(text.contains("[warn] Saved model  saved\n"), "{text}");
    assert!(text.contains("fix: delete it"), "{text}");
    assert!(
        text.ends_with("All checks passed, with 1 warning; each fix is under it.\n"),
        "{text}"
    );
}
