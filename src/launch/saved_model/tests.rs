use super::*;

const ROUTE: &str = "multi/cursor/composer-2.5";

fn setup(text: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    std::fs::create_dir_all(&state).unwrap();
    let settings = dir.path().join("settings.json");
    std::fs::write(&settings, text).unwrap();
    (dir, state, settings)
}

/// What Claude Code's `/model` does: `model` set, the rest as it was.
fn choose(settings: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(settings).unwrap();
    std::fs::write(settings, text.replace(from, to)).unwrap();
}

#[test]
fn the_model_before_the_session_comes_back_and_every_other_byte_stays() {
    let before = "{\n  \"permissions\": { \"allow\": [\"Bash(ls)\"] },\n  \"model\":   \"opus\",\n  \"theme\": \"dark\"\n}\n";
    let (_dir, state, settings) = setup(before);
    let session = SessionModel::begin(&state, &settings).unwrap();
    choose(&settings, "\"opus\"", &format!("\"{ROUTE}\""));
    // Edited meanwhile (another key): kept byte for byte.
    choose(&settings, "\"dark\"", "\"light\"");
    assert_eq!(
        session.finish(),
        Outcome::Restored {
            route: ROUTE.to_string()
        }
    );
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        before.replace("\"dark\"", "\"light\"")
    );
    assert_eq!(last_cursor_row(&state).as_deref(), Some(ROUTE));
    assert_eq!(
        std::fs::read_dir(state.join(RECORDS_DIR)).unwrap().count(),
        0,
        "the record is gone"
    );
}

#[test]
fn no_model_before_means_none_after() {
    let before = "{\n  \"theme\": \"dark\"\n}\n";
    let (_dir, state, settings) = setup(before);
    let session = SessionModel::begin(&state, &settings).unwrap();
    std::fs::write(
        &settings,
        format!("{{\n  \"theme\": \"dark\",\n  \"model\": \"{ROUTE}\"\n}}\n"),
    )
    .unwrap();
    assert!(matches!(session.finish(), Outcome::Restored { .. }));
    let after: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(after, serde_json::json!({"theme": "dark"}));
}

#[test]
fn a_claude_model_chosen_meanwhile_is_the_users() {
    let (_dir, state, settings) = setup("{\"model\": \"opus\"}");
    let session = SessionModel::begin(&state, &settings).unwrap();
    std::fs::write(&settings, "{\"model\": \"sonnet\"}").unwrap();
    assert!(matches!(session.finish(), Outcome::Left(_)));
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        "{\"model\": \"sonnet\"}"
    );
    assert_eq!(last_cursor_row(&state), None);
}

#[test]
fn a_route_left_by_an_older_release_is_not_the_before() {
    let (_dir, state, settings) = setup(&format!("{{\"model\": \"{ROUTE}\", \"x\": 1}}"));
    let session = SessionModel::begin(&state, &settings).unwrap();
    assert!(matches!(session.finish(), Outcome::Restored { .. }));
    let after: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(after, serde_json::json!({"x": 1}));
}

#[test]
fn a_repeated_key_or_a_broken_file_is_left_alone() {
    let repeated = format!("{{\"model\": \"opus\", \"model\": \"{ROUTE}\"}}");
    let (_dir, state, settings) = setup(&repeated);
    assert!(matches!(
        put_back(&state, &settings, None),
        Outcome::Left(_)
    ));
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), repeated);
    std::fs::write(&settings, "{\"model\": ").unwrap();
    assert!(matches!(
        put_back(&state, &settings, None),
        Outcome::Left(_)
    ));
}

#[cfg(unix)]
#[test]
fn a_killed_launchers_session_is_put_back_by_the_next_command() {
    let (_dir, state, settings) = setup("{\"model\": \"opus\"}");
    // A record of a launcher that is gone (a child that has exited and been reaped).
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let gone = child.id();
    child.wait().unwrap();
    let records = state.join(RECORDS_DIR);
    crate::state::ensure_private_dir(&records).unwrap();
    let record = Record {
        settings: settings.clone(),
        before: Some(Value::String("opus".into())),
        pid: gone,
    };
    std::fs::write(
        records.join(format!("{gone}-0.json")),
        serde_json::to_vec(&record).unwrap(),
    )
    .unwrap();
    // And one of a live launcher (this process): not over yet.
    let live = SessionModel::begin(&state, &settings).unwrap();
    choose(&settings, "\"opus\"", &format!("\"{ROUTE}\""));
    sweep(&state);
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        "{\"model\": \"opus\"}"
    );
    assert_eq!(
        std::fs::read_dir(&records).unwrap().count(),
        1,
        "the live one stays"
    );
    assert_eq!(last_cursor_row(&state).as_deref(), Some(ROUTE));
    assert!(matches!(live.finish(), Outcome::Left(_)));
}

/// A launcher its parent has not collected yet (a zombie: tmux with `remain-on-exit` can leave
/// the pane's program so) has ended all the same: its session is put back.
#[cfg(any(target_os = "linux", target_os = "macos"))]
#[test]
fn a_killed_launcher_left_a_zombie_is_put_back_too() {
    let (_dir, state, settings) = setup("{\"model\": \"opus\"}");
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let pid = i32::try_from(child.id()).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !crate::platform::zombie(pid) {
        assert!(std::time::Instant::now() < deadline, "`true` never ended");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(crate::platform::process_ended(pid));
    let records = state.join(RECORDS_DIR);
    crate::state::ensure_private_dir(&records).unwrap();
    let record = Record {
        settings: settings.clone(),
        before: Some(Value::String("opus".into())),
        pid: child.id(),
    };
    std::fs::write(
        records.join(format!("{pid}-0.json")),
        serde_json::to_vec(&record).unwrap(),
    )
    .unwrap();
    choose(&settings, "\"opus\"", &format!("\"{ROUTE}\""));
    sweep(&state);
    child.wait().unwrap();
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        "{\"model\": \"opus\"}"
    );
    assert_eq!(std::fs::read_dir(&records).unwrap().count(), 0);
}
