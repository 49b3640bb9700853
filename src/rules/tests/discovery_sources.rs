//! Where rules are looked for: each folder from the workspace up to the git root (never
//! above), the user's home, legacy single files, the nearest `.clinerules` (file or folder);
//! hidden files skipped, symlink loops cut, a file reached twice read once, and unreadable or
//! non-text files reported as dropped rules rather than ignored.

use super::Tree;
use super::active_names;
use crate::rules::Rulebook;
use crate::rules::diagnostic::DiagnosticKind;
use crate::rules::rule::Level;
use crate::rules::rule::Provider;
use crate::rules::rule::RuleStatus;

#[test]
fn walks_stop_at_the_git_root() {
    let tree = Tree::new();
    tree.write(".claude/rules/outside.md", "Above the repository.\n");
    tree.write(".windsurfrules", "Above the repository.\n");
    tree.write("repo/.claude/rules/root.md", "Repository root.\n");
    tree.write("repo/a/.claude/rules/middle.md", "Middle.\n");
    tree.write("repo/a/b/.claude/rules/here.md", "Workspace.\n");
    tree.write(
        "repo/a/b/c/.claude/rules/below.md",
        "Below the workspace: not read.\n",
    );
    let book = tree.load("repo/a/b");
    assert_eq!(active_names(&book), ["here", "middle", "root"]);
    let distances: Vec<usize> = book.active().map(|r| r.source.distance).collect();
    assert_eq!(distances, [0, 1, 2]);
}

#[test]
fn legacy_and_single_file_sources() {
    let tree = Tree::new();
    tree.write("repo/.windsurfrules", "Windsurf legacy.\n");
    tree.write("repo/.cursorrules", "Cursor legacy.\n");
    tree.write("repo/.clinerules", "Cline single file.\n");
    tree.write(
        "home/.codeium/windsurf/memories/global_rules.md",
        "Windsurf global.\n",
    );
    let book = tree.load("repo");
    let sources: Vec<(String, Provider, bool)> = book
        .active()
        .map(|r| (r.name.clone(), r.source.provider, r.native))
        .collect();
    assert_eq!(
        sources,
        [
            ("cursorrules".to_string(), Provider::Cursor, true),
            ("windsurfrules".to_string(), Provider::Windsurf, false),
            ("global_rules".to_string(), Provider::Windsurf, false),
            ("clinerules".to_string(), Provider::Cline, false),
        ]
    );
    // Without .cursor/rules beside it, .cursorrules is not flagged.
    assert!(
        book.diagnostics()
            .iter()
            .all(|d| d.kind != DiagnosticKind::Legacy)
    );
}

#[test]
fn the_nearest_clinerules_wins() {
    let tree = Tree::new();
    tree.write("repo/.clinerules", "Root file.\n");
    tree.write("repo/pkg/.clinerules/01-a.md", "Folder a.\n");
    tree.write("repo/pkg/.clinerules/notes.json", "{}");
    tree.write("repo/pkg/.clinerules/deep/02-b.txt", "Folder b.\n");
    let book = tree.load("repo/pkg");
    assert_eq!(active_names(&book), ["01-a", "deep/02-b"]);
    let book = tree.load("repo");
    assert_eq!(active_names(&book), ["clinerules"]);
}

#[test]
fn hidden_files_loops_and_duplicates() {
    let tree = Tree::new();
    tree.write("repo/.claude/rules/.draft.md", "Hidden: skipped.\n");
    tree.write("repo/.claude/rules/real.md", "Real.\n");
    crate::platform::testing::skip_unless!(crate::platform::testing::symlink_dir(
        &tree.repo.join(".claude/rules"),
        &tree.repo.join(".claude/rules/loop"),
    ));
    let book = tree.load("repo");
    assert_eq!(active_names(&book), ["real"]);
    assert!(
        book.diagnostics()
            .iter()
            .any(|d| d.kind == DiagnosticKind::WalkLimit)
    );

    // The workspace is the home folder: its .claude/rules is read once, as project rules.
    let tree = Tree::new();
    tree.write("repo/.claude/rules/mine.md", "Mine.\n");
    let book = Rulebook::load(&tree.repo, Some(&tree.repo));
    let mine: Vec<_> = book.rules().iter().filter(|r| r.name == "mine").collect();
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0].source.level, Level::Project);
}

#[test]
fn unreadable_and_binary_files_are_dropped_with_errors() {
    let tree = Tree::new();
    std::fs::create_dir_all(tree.repo.join(".claude/rules")).unwrap();
    crate::platform::testing::skip_unless!(crate::platform::testing::symlink_file(
        std::path::Path::new("/nonexistent/target.md"),
        &tree.repo.join(".claude/rules/dangling.md"),
    ));
    std::fs::write(
        tree.repo.join(".claude/rules/binary.md"),
        [0xff, 0xfe, 0x00, 0x41],
    )
    .unwrap();
    std::fs::write(tree.repo.join(".claude/rules/fine.md"), "Fine.\n").unwrap();
    let book = tree.load("repo");
    assert_eq!(active_names(&book), ["fine"]);
    let binary = book.rules().iter().find(|r| r.name == "binary").unwrap();
    assert_eq!(binary.status, RuleStatus::Dropped);
    assert_eq!(binary.diagnostics[0].kind, DiagnosticKind::NotUtf8);
    let dangling = book
        .diagnostics()
        .iter()
        .find(|d| d.kind == DiagnosticKind::Unreadable)
        .unwrap();
    assert!(dangling.path.as_ref().unwrap().ends_with("dangling.md"));
    assert!(book.has_errors());
}

#[test]
fn load_never_fails() {
    let book = Rulebook::load(std::path::Path::new("/definitely/not/here"), None);
    assert!(book.rules().is_empty());
    assert_eq!(book.first_prompt_section(), None);
    assert_eq!(book.digest().len(), 64);
}
