use super::*;

fn file(dir: &Path) -> EditorSettings {
    EditorSettings {
        name: "VS Code",
        path: dir.join("settings.json"),
    }
}

/// An executable `multi-cursor-claude` in `dir`.
fn installed_wrapper(dir: &Path) -> PathBuf {
    let path = dir.join(WRAPPER_NAME);
    std::fs::write(&path, "#!/bin/sh\n").unwrap();
    let _ = crate::platform::testing::set_mode(&path, 0o755);
    path
}

#[test]
fn comments_and_trailing_commas_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(
        &path,
        include_str!("../../../tests/fixtures/vscode-settings.jsonc"),
    )
    .unwrap();
    let settings = read_settings(&path).unwrap().unwrap();
    assert_eq!(
        settings[WRAPPER_KEY],
        "/opt/multi-cursor/bin/multi-cursor-claude"
    );
    assert_eq!(settings[SELECTED_MODEL_KEY], "multi/cursor/composer-2.5");
    assert_eq!(settings["files.exclude"]["**/target"], true);
    assert!(
        read_settings(&dir.path().join("missing.json"))
            .unwrap()
            .is_none()
    );
    std::fs::write(&path, "").unwrap();
    assert_eq!(read_settings(&path).unwrap(), Some(serde_json::json!({})));
    std::fs::write(&path, "{\"a\": }").unwrap();
    assert!(matches!(
        read_settings(&path),
        Err(SettingsReadError::Syntax { .. })
    ));
}

#[test]
fn each_case_is_worded() {
    let dir = tempfile::tempdir().unwrap();
    let wrapper = installed_wrapper(dir.path());
    let ours = wrapper.display().to_string();
    let file = file(dir.path());

    let check = check_settings(&file, &serde_json::json!({ WRAPPER_KEY: ours }), &wrapper);
    assert!(check.passed && check.fix.is_none(), "{check:?}");
    assert!(check.detail.contains("runs through multi-cursor-claude"));

    let check = check_settings(
        &file,
        &serde_json::json!({ SELECTED_MODEL_KEY: "multi/cursor/default" }),
        &wrapper,
    );
    assert!(!check.passed, "{check:?}");
    assert!(check.detail.contains("is not set"), "{check:?}");

    let check = check_settings(
        &file,
        &serde_json::json!({ WRAPPER_KEY: "${workspaceFolder}/multi-cursor-claude" }),
        &wrapper,
    );
    assert!(!check.passed, "{check:?}");
    assert!(check.fix.unwrap().contains("no variables"));

    let check = check_settings(
        &file,
        &serde_json::json!({ WRAPPER_KEY: ours, USE_TERMINAL_KEY: true }),
        &wrapper,
    );
    assert!(check.passed && check.fix.is_some(), "a warning: {check:?}");

    let check = check_settings(
        &file,
        &serde_json::json!({ WRAPPER_KEY: "/usr/bin/env" }),
        &wrapper,
    );
    assert!(check.passed && check.fix.is_none(), "{check:?}");
    assert!(
        check.detail.contains("not multi-cursor-claude"),
        "{check:?}"
    );
}

#[test]
fn every_editor_and_remote_server_is_looked_for() {
    let files = settings_files(Path::new("/h"), None);
    // Shown with the system's separators; compared with `/`.
    let paths: Vec<String> = files
        .iter()
        .map(|f| f.path.display().to_string().replace('\\', "/"))
        .collect();
    if cfg!(windows) {
        assert!(
            paths.contains(&"/h/AppData/Roaming/Code - Insiders/User/settings.json".to_string())
        );
        assert!(paths.contains(&"/h/AppData/Roaming/Cursor/User/settings.json".to_string()));
    } else if !cfg!(target_os = "macos") {
        assert!(paths.contains(&"/h/.config/Code - Insiders/User/settings.json".to_string()));
        assert!(paths.contains(&"/h/.config/Cursor/User/settings.json".to_string()));
        let xdg = settings_files(Path::new("/h"), Some(Path::new("/x")));
        assert_eq!(xdg[0].path, Path::new("/x/Code/User/settings.json"));
    }
    assert!(paths.contains(&"/h/.vscode-server/data/Machine/settings.json".to_string()));
    assert!(paths.contains(&"/h/.cursor-server/data/Machine/settings.json".to_string()));
    assert_eq!(files.len(), 8);
}
