//! The launcher's `--settings` values are a settings source: a deny rule in a `--settings` file
//! and an ask rule in inline `--settings` JSON refuse the Cursor route under the real Claude
//! Code, each named with its origin, and the Cursor agent never runs.

use multi_cursor_test_support::launcher;
use multi_cursor_test_support::policy;

use launcher::Launch;

#[test]
fn launcher_settings_rules_are_enforced_with_their_origin() {
    let launch = Launch::real();
    let file = launch.dir.path().join("team-settings.json");
    policy::write_json(&file, &policy::deny(&["Bash(curl:*)"]));
    let file = std::fs::canonicalize(&file).unwrap();
    let mut launch = launch.args([
        "--settings".into(),
        file.clone().into_os_string(),
        "--settings".into(),
        r#"{"permissions":{"ask":["WebFetch(domain:example.com)"]}}"#.into(),
        "--permission-mode".into(),
        "bypassPermissions".into(),
        "-p".into(),
        "fetch the page".into(),
        "--model".into(),
        "multi/cursor/composer-2.5".into(),
    ] as [std::ffi::OsString; 10]);
    let output = launch.run();
    assert_ne!(output.status, Some(0), "{output:?}");
    let shown = format!("{}{}", output.stdout, output.stderr);
    for part in [
        format!("deny rule `Bash(curl:*)` in {}", file.display()),
        "ask rule `WebFetch(domain:example.com)` in --settings (inline JSON)".to_string(),
        "[\"Shell(curl)\",\"WebFetch(example.com)\"]".to_string(),
    ] {
        assert!(shown.contains(&part), "missing {part:?} in {output:?}");
    }
    assert!(
        launch.turns().is_empty(),
        "Cursor ran: {:#?}",
        launch.turns()
    );
}
