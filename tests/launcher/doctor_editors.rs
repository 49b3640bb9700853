//! `multi-cursor doctor` reads the code editors' Claude Code settings and Claude Code's saved
//! model, in a fake HOME holding each case: VS Code's user settings (comments and trailing
//! commas, the wrapper set and a Cursor model selected: in order), VS Code Insiders' (a Cursor
//! model selected without the wrapper: a failure), VSCodium's (the terminal mode on: a
//! warning), the Cursor editor's (another wrapper: reported), a Remote-SSH server's machine
//! settings it cannot parse (a warning), and a Cursor route saved as plain `claude`'s model
//! (a warning). With no editor settings at all, one line says so.

use std::path::Path;

use multi_cursor_test_support::doctor;
use multi_cursor_test_support::wrapper::wrapper_bin;

/// Writes `text` to `home`/`relative`, creating its folders.
fn put(home: &Path, relative: &str, text: &str) {
    let path = home.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn each_editor_case_is_reported() {
    let check = doctor::Doctor::new();
    let home = check.home();
    let ours = wrapper_bin().display().to_string();
    let jsonc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/vscode-settings.jsonc"),
    )
    .unwrap()
    .replace("/opt/multi-cursor/bin/multi-cursor-claude", &ours);
    put(&home, ".config/Code/User/settings.json", &jsonc);
    put(
        &home,
        ".config/Code - Insiders/User/settings.json",
        r#"{"claudeCode.selectedModel": "multi/cursor/composer-2.5"}"#,
    );
    put(
        &home,
        ".config/VSCodium/User/settings.json",
        &format!(
            r#"{{"claudeCode.claudeProcessWrapper": "{ours}", "claudeCode.useTerminal": true}}"#
        ),
    );
    put(
        &home,
        ".config/Cursor/User/settings.json",
        r#"{"claudeCode.claudeProcessWrapper": "/usr/local/bin/claude-tap",}"#,
    );
    put(
        &home,
        ".vscode-server/data/Machine/settings.json",
        r#"{"claudeCode.useTerminal": tru"#,
    );
    put(
        &home,
        ".claude/settings.json",
        r#"{"model": "multi/cursor/composer-2.5"}"#,
    );
    let (output, dir) = check.run();
    assert_eq!(output.code, Some(1), "Insiders fails: {output:?}");
    let names = [
        "Saved model",
        "VS Code ",
        "VS Code Insiders",
        "VSCodium",
        "Cursor editor",
        "VS Code (SSH)",
    ];
    let mut shown = String::new();
    let lines: Vec<&str> = output.stdout.lines().collect();
    for (at, line) in lines.iter().enumerate() {
        if names
            .iter()
            .any(|name| line.get(7..).is_some_and(|rest| rest.starts_with(name)))
        {
            shown.push_str(line.trim_end());
            shown.push('\n');
            if let Some(fix) = lines
                .get(at + 1)
                .filter(|l| l.trim_start().starts_with("fix: "))
            {
                shown.push_str(fix.trim_end());
                shown.push('\n');
            }
        }
    }
    let shown = shown
        .replace(&dir.path().display().to_string(), "<tmp>")
        .replace(
            &wrapper_bin().parent().unwrap().display().to_string(),
            "<bin>",
        );
    insta::assert_snapshot!(shown);
}

#[test]
fn no_editor_settings_is_one_line() {
    let (output, _dir) = doctor::Doctor::new().run();
    assert!(
        output.line("Code editors").contains(
            "no settings of VS Code, VS Code Insiders, VSCodium or the Cursor editor found"
        ),
        "{output:?}"
    );
    assert!(
        output.line("Saved model").starts_with("[pass]"),
        "{output:?}"
    );
}
