use super::*;

/// A user's config as Cursor lays it out, with keys this code knows nothing about.
const USER: &str = r#"{
  "version": 1,
  "editor": { "vimMode": false },
  "model": {
    "modelId": "claude-4.5-sonnet",
    "displayName": "Sonnet 4.5"
  },
  "hasChangedDefaultModel": false,
  "authInfo": { "accessToken": "secret", "email": "me@example.com" },
  "permissions": { "allow": ["Shell(ls)"], "deny": ["Shell(rm)"] },
  "futureKey": [1, {"nested": "x"}]
}
"#;

/// What Cursor leaves after a `--model=<id>` run: the same file with the two fields changed.
fn after_run(text: &str, id: &str) -> String {
    text.replace("\"claude-4.5-sonnet\"", &format!("\"{id}\""))
        .replace(
            "\"hasChangedDefaultModel\": false",
            "\"hasChangedDefaultModel\": true",
        )
}

fn config(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cli-config.json");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

#[test]
fn the_two_fields_are_put_back_and_every_other_byte_kept() {
    let (_dir, path) = config(USER);
    let _ = crate::platform::testing::set_mode(&path, 0o600);
    let hold = ModelPutBack::begin(&path, "gpt-5");
    std::fs::write(&path, after_run(USER, "gpt-5")).unwrap();
    assert_eq!(hold.finish(), PutBack::Restored);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), USER);
    crate::platform::testing::assert_mode(&path, 0o600);
    let leftovers = std::fs::read_dir(path.parent().unwrap()).unwrap().count();
    assert_eq!(leftovers, 1, "no temp file left");
}

#[test]
fn a_model_the_user_chose_meanwhile_is_left_alone() {
    let (_dir, path) = config(USER);
    let hold = ModelPutBack::begin(&path, "gpt-5");
    let theirs = after_run(USER, "gemini-3-pro");
    std::fs::write(&path, &theirs).unwrap();
    assert!(matches!(hold.finish(), PutBack::Left(_)));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs);
}

#[test]
fn overlapping_runs_put_back_the_users_model_once_the_last_ends() {
    let (_dir, path) = config(USER);
    let first = ModelPutBack::begin(&path, "gpt-5");
    std::fs::write(&path, after_run(USER, "gpt-5")).unwrap();
    // The second run starts while the file holds the first run's model: its "before" is
    // still the user's.
    let second = ModelPutBack::begin(&path, "composer-2.5");
    std::fs::write(&path, after_run(USER, "composer-2.5")).unwrap();
    assert_eq!(first.finish(), PutBack::Deferred);
    assert_eq!(second.finish(), PutBack::Restored);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), USER);
}

#[test]
fn fields_absent_before_are_removed_again() {
    let plain = "{\n  \"version\": 1,\n  \"permissions\": {\"allow\": [], \"deny\": []}\n}\n";
    let (_dir, path) = config(plain);
    let hold = ModelPutBack::begin(&path, "gpt-5");
    std::fs::write(
        &path,
        "{\n  \"version\": 1,\n  \"permissions\": {\"allow\": [], \"deny\": []},\n  \"model\": {\"modelId\": \"gpt-5\"},\n  \"hasChangedDefaultModel\": true\n}\n",
    )
    .unwrap();
    assert_eq!(hold.finish(), PutBack::Restored);
    let now: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let was: Value = serde_json::from_str(plain).unwrap();
    assert_eq!(now, was);
}

#[test]
fn a_model_object_with_more_than_the_id_keeps_the_rest() {
    let before = "{\"model\": {\"maxMode\": true}, \"version\": 1}";
    let (_dir, path) = config(before);
    let hold = ModelPutBack::begin(&path, "gpt-5");
    std::fs::write(
        &path,
        "{\"model\": {\"maxMode\": true, \"modelId\": \"gpt-5\"}, \"version\": 1, \"hasChangedDefaultModel\": true}",
    )
    .unwrap();
    assert_eq!(hold.finish(), PutBack::Restored);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
}

#[test]
fn broken_linked_or_missing_files_are_left_alone() {
    // Cursor is halfway through writing it.
    let (_dir, path) = config(USER);
    let hold = ModelPutBack::begin(&path, "gpt-5");
    let torn = &after_run(USER, "gpt-5")[..40];
    std::fs::write(&path, torn).unwrap();
    assert!(matches!(hold.finish(), PutBack::Left(_)));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), torn);

    // A dotfile manager's link stays a link, and its target is untouched.
    let (dir, target) = config(USER);
    let link = dir.path().join("linked.json");
    crate::platform::testing::skip_unless!(crate::platform::testing::symlink_file(&target, &link));
    let hold = ModelPutBack::begin(&link, "gpt-5");
    std::fs::write(&target, after_run(USER, "gpt-5")).unwrap();
    assert!(matches!(hold.finish(), PutBack::Left(_)));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        after_run(USER, "gpt-5")
    );

    // Gone after the run.
    let (_dir, path) = config(USER);
    let hold = ModelPutBack::begin(&path, "gpt-5");
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(hold.finish(), PutBack::Left(_)));
    assert!(!path.exists());
}

#[test]
fn an_unreadable_before_means_nothing_is_put_back() {
    let (_dir, path) = config("{\"model\": ");
    let hold = ModelPutBack::begin(&path, "gpt-5");
    let written = "{\"model\": {\"modelId\": \"gpt-5\"}, \"hasChangedDefaultModel\": true}";
    std::fs::write(&path, written).unwrap();
    assert!(matches!(hold.finish(), PutBack::Left(_)));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), written);
}

#[test]
fn dropping_the_hold_puts_back_too() {
    let (_dir, path) = config(USER);
    let hold = ModelPutBack::begin(&path, "gpt-5");
    std::fs::write(&path, after_run(USER, "gpt-5")).unwrap();
    drop(hold);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), USER);
}

#[test]
fn the_edit_is_refused_when_the_text_does_not_hold_our_model() {
    let before = Before {
        model_existed: true,
        model_id: Some(Value::from("a")),
        has_changed: Some(Value::Bool(false)),
    };
    let ours: BTreeSet<String> = ["b".to_string()].into();
    let text = "{\"model\": {\"modelId\": \"b\"}, \"hasChangedDefaultModel\": true}";
    assert_eq!(
        restored_text(text, &before, &ours).as_deref(),
        Some("{\"model\": {\"modelId\": \"a\"}, \"hasChangedDefaultModel\": false}")
    );
    // Cursor did not mark the default as changed: not a state our run leaves.
    let unmarked = "{\"model\": {\"modelId\": \"b\"}, \"hasChangedDefaultModel\": false}";
    assert_eq!(restored_text(unmarked, &before, &ours), None);
    assert_eq!(restored_text("[]", &before, &ours), None);
    // A key repeated in the text: serde_json keeps the last, the edit would touch the first.
    let repeated =
        "{\"model\": {\"modelId\": \"x\", \"modelId\": \"b\"}, \"hasChangedDefaultModel\": true}";
    assert_eq!(restored_text(repeated, &before, &ours), None);
}

#[test]
fn a_write_landing_just_before_the_replace_is_kept() {
    // Only an atomic exchange can tell the displaced bytes (see swap_in).
    let probe = tempfile::tempdir().unwrap();
    let (a, b) = (probe.path().join("a"), probe.path().join("b"));
    std::fs::write(&a, "a").unwrap();
    std::fs::write(&b, "b").unwrap();
    if crate::platform::exchange(&a, &b).unwrap().is_none() {
        eprintln!("skipped: this system has no atomic exchange of two files");
        return;
    }
    let ours = after_run(USER, "composer-2.5");
    let (_dir, path) = config(&ours);
    let other = r#"{"model": {"modelId": "picked-meanwhile"}, "hasChangedDefaultModel": true}"#;
    let write_other = || {
        // Cursor stages its write and renames it over the file.
        let staged = path.with_extension("staged");
        std::fs::write(&staged, other).unwrap();
        std::fs::rename(&staged, &path).unwrap();
    };
    let replaced = replace_if_unchanged_racing(&path, &ours, USER, write_other).unwrap();
    assert!(!replaced, "reported as replaced");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), other);
    let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
}

#[test]
fn without_a_race_the_replace_happens() {
    let ours = after_run(USER, "composer-2.5");
    let (_dir, path) = config(&ours);
    assert!(replace_if_unchanged_racing(&path, &ours, USER, || {}).unwrap());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), USER);
    assert_eq!(
        std::fs::read_dir(path.parent().unwrap()).unwrap().count(),
        1
    );
}
