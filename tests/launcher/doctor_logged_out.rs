//! `multi-cursor doctor` when Cursor is logged out: the login check fails with Cursor's words
//! and the login command, and the catalog check fails the same way.

use multi_cursor_test_support::doctor;

#[test]
fn logged_out_names_the_login_command() {
    let (output, _dir) = doctor::Doctor::new()
        .env("FAKE_AGENT_LOGGED_OUT", "1")
        .run();
    assert_eq!(output.code, Some(1), "{output:?}");
    let login = output.line("Cursor login");
    assert!(login.starts_with("[FAIL]"), "{login}");
    assert!(login.contains("Not logged in"), "Cursor's words: {login}");
    assert!(
        output
            .fix("Cursor login")
            .contains("multi-cursor --cursor-login"),
        "{output:?}"
    );
    let models = output.line("Cursor models");
    assert!(models.starts_with("[FAIL]"), "{models}");
    assert!(models.contains("Cursor is not logged in"), "{models}");
    assert!(
        output.line("Cursor agent").starts_with("[pass]"),
        "{output:?}"
    );
}
