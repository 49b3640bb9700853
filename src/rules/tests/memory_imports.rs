//! Claude Code memory files reach Cursor: which files are read (up to the git root, never
//! above it), `@path` imports (relative, `~/`, absolute) expanded at most five hops deep, each
//! file once, never inside code, and every missing or skipped import reported.

use super::Tree;
use super::active_names;
use crate::rules::diagnostic::DiagnosticKind;
use crate::rules::rule::Level;

#[test]
fn memory_files_between_the_workspace_and_the_git_root() {
    let tree = Tree::new();
    tree.write("CLAUDE.md", "Above the git root: never read.\n");
    tree.write("repo/CLAUDE.md", "Repo root.\n");
    tree.write("repo/a/CLAUDE.local.md", "Middle local.\n");
    tree.write("repo/a/b/.claude/CLAUDE.md", "Workspace .claude.\n");
    tree.write("repo/a/b/CLAUDE.md", "Workspace root: Cursor reads it.\n");
    tree.write("home/.claude/CLAUDE.md", "User.\n");
    let book = tree.load("repo/a/b");
    assert_eq!(
        active_names(&book),
        [
            "a/b/.claude/CLAUDE.md",
            "a/b/CLAUDE.md",
            "a/CLAUDE.local.md",
            "CLAUDE.md",
            "~/.claude/CLAUDE.md"
        ]
    );
    assert!(book.get("a/b/CLAUDE.md").unwrap().native);
    assert!(book.rules().iter().all(|r| !r.body.contains("never read")));
    assert_eq!(
        book.get("~/.claude/CLAUDE.md").unwrap().source.level,
        Level::User
    );
    // The first prompt carries them in Claude's load order: user, then root down.
    let section = book.first_prompt_section().unwrap();
    let order: Vec<usize> = ["User.", "Repo root.", "Middle local.", "Workspace .claude."]
        .iter()
        .map(|text| section.find(text).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{section}");
    assert!(!section.contains("Workspace root: Cursor reads it."));
}

#[test]
fn imports_are_expanded_five_hops_deep() {
    let tree = Tree::new();
    tree.write("repo/CLAUDE.local.md", "Start @h1.md\n");
    for hop in 1..=6 {
        tree.write(
            &format!("repo/h{hop}.md"),
            &format!("Hop {hop} @h{}.md\n", hop + 1),
        );
    }
    let book = tree.load("repo");
    let rule = book.get("CLAUDE.local.md").unwrap();
    for hop in 1..=5 {
        assert!(rule.body.contains(&format!("Hop {hop} ")), "hop {hop}");
    }
    assert!(!rule.body.contains("Hop 6"));
    let skipped = rule
        .diagnostics
        .iter()
        .find(|d| d.kind == DiagnosticKind::ImportSkipped)
        .unwrap();
    assert!(skipped.message.contains("@h6.md"), "{}", skipped.message);
}

#[test]
fn cycles_repeats_and_missing_files() {
    let tree = Tree::new();
    let absolute = tree.write("shared/abs.md", "Absolute import.\n");
    tree.write("home/notes.md", "Home note.\n");
    tree.write(
        "repo/.claude/CLAUDE.md",
        &format!(
            "Top @../a.md and @../a.md again, @~/notes.md, @{} and @../gone.md\n",
            absolute.display()
        ),
    );
    tree.write("repo/a.md", "A imports @b.md\n");
    tree.write("repo/b.md", "B imports @a.md back\n");
    let book = tree.load("repo");
    let rule = book.get(".claude/CLAUDE.md").unwrap();
    assert_eq!(rule.body.matches("A imports").count(), 1);
    assert_eq!(rule.body.matches("B imports").count(), 1);
    assert!(rule.body.contains("Home note."));
    assert!(rule.body.contains("Absolute import."));
    let kinds: Vec<_> = rule.diagnostics.iter().map(|d| d.kind).collect();
    assert_eq!(
        kinds
            .iter()
            .filter(|k| **k == DiagnosticKind::ImportSkipped)
            .count(),
        2,
        "the repeat and the cycle: {:?}",
        rule.diagnostics
    );
    assert!(kinds.contains(&DiagnosticKind::ImportMissing));
    assert!(!book.has_errors(), "a missing import is a warning");
}

#[test]
fn imports_of_the_root_claude_md_are_sent_alone() {
    let tree = Tree::new();
    tree.write("repo/CLAUDE.md", "Cursor reads this line itself.\n");
    let book = tree.load("repo");
    let rule = book.get("CLAUDE.md").unwrap();
    assert!(rule.native);
    assert!(book.first_prompt_section().is_none());

    tree.write("repo/CLAUDE.md", "Cursor reads this line. See @docs/x.md\n");
    tree.write("repo/docs/x.md", "Imported guidance.\n");
    let book = tree.load("repo");
    let rule = book.get("CLAUDE.md").unwrap();
    assert!(!rule.native);
    let section = book.first_prompt_section().unwrap();
    assert!(section.contains("Imported guidance."));
    assert!(!section.contains("Cursor reads this line."));
}

#[test]
fn without_git_only_the_workspace_is_searched() {
    let tree = Tree::without_git();
    tree.write("CLAUDE.md", "Parent of the workspace.\n");
    tree.write("repo/CLAUDE.local.md", "Workspace.\n");
    let book = tree.load("repo");
    assert_eq!(book.git_root(), None);
    assert_eq!(active_names(&book), ["CLAUDE.local.md"]);
}
