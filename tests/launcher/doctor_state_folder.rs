//! `multi-cursor doctor` on a state folder others can read (mode 0755): the check fails with
//! the `chmod 700` that fixes it, and leaves the folder as it found it.

use multi_cursor_test_support::doctor;

use std::os::unix::fs::PermissionsExt;

#[test]
fn an_open_state_folder_fails() {
    let check = doctor::Doctor::new();
    let state = check.state();
    std::fs::create_dir_all(&state).unwrap();
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (output, _dir) = check.run();
    assert_eq!(output.code, Some(1), "{output:?}");
    let line = output.line("State folder");
    assert!(line.starts_with("[FAIL]"), "{line}");
    assert!(line.contains("mode 0755"), "{line}");
    assert_eq!(
        output.fix("State folder"),
        format!("fix: chmod 700 '{}'", state.display())
    );
    let mode = std::fs::metadata(&state).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o755, "doctor only reports");
}
