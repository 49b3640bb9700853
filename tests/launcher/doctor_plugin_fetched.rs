//! `multi-cursor doctor` reads Claude Code's own record of the marketplace plugin: after a real
//! `claude plugin install` (offline, from this checkout) it names the fetched copy; with the
//! copy gone while the plugin stays enabled (what a new machine's first headless start may meet
//! from 2.1.335 on) it warns, naming the setting and the command that fetches it.

use multi_cursor_test_support::doctor;
use multi_cursor_test_support::plugin;

#[test]
fn the_marketplace_copy_is_named_and_a_missing_one_is_a_warning() {
    let check = doctor::Doctor::new();
    let (home, project) = (check.home(), check.project());
    std::fs::create_dir_all(&project).unwrap();
    let installed = plugin::install(&home, &project);
    let settings = std::fs::read_to_string(home.join(".claude/settings.json")).unwrap();
    assert!(
        settings.contains("multi-cursor@"),
        "the install enabled it: {settings}"
    );

    let (output, dir) = check.run();
    let line = output.line("Plugin fetched");
    assert!(line.starts_with("[pass]"), "{output:?}");
    assert!(line.contains(&installed.display().to_string()), "{line}");

    std::fs::remove_dir_all(&installed).unwrap();
    let again = doctor::Doctor::new();
    let moved = again.home();
    std::fs::remove_dir_all(&moved).ok();
    std::fs::rename(dir.path().join("home"), &moved).unwrap();
    std::fs::create_dir_all(again.project()).unwrap();
    let (output, _dir) = again.run();
    let line = output.line("Plugin fetched");
    assert!(line.starts_with("[warn]"), "{output:?}");
    assert!(
        line.contains("Claude Code has not fetched the plugin yet"),
        "{output:?}"
    );
    assert!(
        output
            .fix("Plugin fetched")
            .contains("claude plugin install multi-cursor@"),
        "{output:?}"
    );
}
