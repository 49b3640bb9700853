//! `multi-cursor rules` as a user runs it: every rule with its activation, source and
//! delivery, shadowed and dropped ones marked, diagnostics listed, `--explain` saying why,
//! FILEs answered with the glob rules they attach, exit 1 exactly when a rule has an error.

use multi_cursor_test_support::native;
use multi_cursor_test_support::rules as rules_support;

use std::path::Path;
use std::process::Command;
use std::process::Output;

use rules_support::Tree;

fn rules(tree: &Tree, cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_multi-cursor"))
        .arg("rules")
        .args(args)
        .current_dir(cwd)
        .env(multi_cursor::platform::places::HOME_VAR, &tree.home)
        .env_remove("MULTI_CURSOR_LOG")
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn clean_tree() -> Tree {
    let tree = Tree::new();
    tree.write("repo/.claude/rules/style.md", "Prefer small functions.\n");
    tree.write(
        "repo/.claude/rules/ui.md",
        "---\npaths: src/**/*.tsx\n---\nFunction components.\n",
    );
    tree.write(
        "repo/.cursor/rules/ui.mdc",
        "---\nglobs: \"*.tsx\"\n---\nCursor's UI rule.\n",
    );
    tree.write(
        "repo/.cursor/rules/css.mdc",
        "---\nglobs: \"*.css\"\n---\nCSS rule.\n",
    );
    tree.write("home/.claude/rules/terse.md", "Be terse.\n");
    tree.write("home/.claude/rules/style.md", "My own style.\n");
    tree
}

#[test]
fn listing_of_a_clean_rulebook() {
    let tree = clean_tree();
    let out = rules(&tree, &tree.repo, &[]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.starts_with(&format!(
        "Rulebook of {} (git root {})\n",
        tree.repo.display(),
        tree.repo.display()
    )));
    let line = |name: &str, file: &str| -> String {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(name) && l.ends_with(&native(file)))
            .unwrap_or_else(|| panic!("no line for {name} {file}:\n{text}"))
            .to_string()
    };
    let style = line("style", ".claude/rules/style.md");
    assert!(
        style.contains("always")
            && style.contains("claude, project")
            && style.contains("first prompt")
    );
    assert!(line("ui", ".claude/rules/ui.md").contains("on paths"));
    assert!(line("ui", ".cursor/rules/ui.mdc").contains("by Cursor"));
    assert!(line("css", ".cursor/rules/css.mdc").contains("by Cursor"));
    assert!(line("terse", "~/.claude/rules/terse.md").contains("claude, user"));
    assert!(line("style", "~/.claude/rules/style.md").contains("shadowed"));
    assert!(text.contains(
        "6 rule(s): 3 sent by multi-cursor, 2 loaded by Cursor itself, 1 shadowed, 0 dropped; 0 error(s), 0 warning(s)"
    ));
    assert!(
        !text.contains("Diagnostics:"),
        "infos only with --explain:\n{text}"
    );
}

#[test]
fn explain_says_why() {
    let tree = clean_tree();
    let out = rules(&tree, &tree.repo, &["--explain"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.contains("activation: globs — paths: src/**/*.tsx"),
        "{text}"
    );
    for line in [
        "shadows:    ~/.claude/rules/style.md",
        "delivery:   none — shadowed by .claude/rules/style.md",
        "info    ~/.claude/rules/style.md: rule `style` is shadowed by",
        "info    .cursor/rules/ui.mdc: multi-cursor also delivers a rule `ui`",
    ] {
        assert!(text.contains(&native(line)), "{line:?} in {text}");
    }
    assert!(text.contains("delivery:   loaded by Cursor itself (not sent again)"));
}

#[test]
fn files_show_the_rules_they_attach() {
    let tree = clean_tree();
    let out = rules(
        &tree,
        &tree.dir.path().join("home"),
        &[
            "--workspace",
            tree.repo.to_str().unwrap(),
            "src/app/Button.tsx",
            "style.css",
            "README.md",
        ],
    );
    assert!(out.status.success());
    let text = stdout(&out);
    let files = &text[text.find("\nFiles:\n").unwrap()..];
    assert_eq!(
        files,
        format!(
            "\nFiles:\n  {}:\n    `ui` (glob `src/**/*.tsx`): attached to the next prompt when Cursor touches it\n    `ui` (glob `*.tsx`): Cursor attaches it itself\n  style.css:\n    `css` (glob `*.css`): Cursor attaches it itself\n  README.md: no glob rule applies\n",
            native("src/app/Button.tsx")
        )
    );
}

#[test]
fn an_error_exits_1_and_is_listed() {
    let tree = clean_tree();
    tree.write(
        "repo/.claude/rules/broken.md",
        "---\npaths: src/[\n---\nBroken.\n",
    );
    let out = rules(&tree, &tree.repo, &[]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("dropped"), "{text}");
    assert!(
        text.contains(&format!(
            "error   {}: glob `src/[` is invalid",
            native(".claude/rules/broken.md")
        )),
        "{text}"
    );
    assert!(text.contains(&format!(
        "error   {}: the rule applies by globs but none of them is valid",
        native(".claude/rules/broken.md")
    )));
    let warnings_only = Tree::new();
    warnings_only.write("repo/.cursor/rules/w.mdc", "---\nglobs: *.rs\n---\nW.\n");
    let out = rules(&warnings_only, &warnings_only.repo, &[]);
    assert_eq!(out.status.code(), Some(0), "warnings do not fail");
    assert!(stdout(&out).contains(&format!(
        "warning {}:2: the frontmatter is not valid YAML",
        native(".cursor/rules/w.mdc")
    )));
}

#[test]
fn an_empty_or_missing_workspace() {
    let tree = Tree::new();
    let out = rules(&tree, &tree.repo, &[]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("No rule files found."));
    let out = rules(&tree, &tree.repo, &["--workspace", "does/not/exist"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a folder"));
}
