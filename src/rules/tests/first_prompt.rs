//! What a chat's first prompt carries: the Always bodies and an index of the rules Cursor reads
//! on demand (agent-requested by description, glob rules by globs) with absolute paths; never
//! what Cursor loads itself, never stream or manual rules; long bodies cut with a pointer.

use super::Tree;
use super::slash;
use crate::rules::diagnostic::DiagnosticKind;

#[test]
fn always_bodies_and_an_index_with_paths() {
    let tree = Tree::new();
    tree.write("repo/.claude/rules/style.md", "Prefer small functions.\n");
    let db = tree.write(
        "repo/.windsurf/rules/db.md",
        "---\ntrigger: model_decision\ndescription: Database migrations\n---\nWrite reversible migrations.\n",
    );
    let tests = tree.write(
        "repo/.claude/rules/tests.md",
        "---\npaths: tests/**/*.rs\n---\nOne behaviour per test file.\n",
    );
    tree.write(
        "repo/.cursor/rules/own.mdc",
        "---\nalwaysApply: true\n---\nCursor's own rule.\n",
    );
    tree.write("repo/.cursorrules", "Cursor's legacy rule.\n");
    tree.write("repo/CLAUDE.md", "Cursor's CLAUDE.md.\n");
    tree.write(
        "repo/.claude/rules/guard.md",
        "---\ncondition: 'unwrap\\(\\)'\n---\nNo unwrap.\n",
    );
    tree.write(
        "repo/.windsurf/rules/deploy.md",
        "---\ntrigger: manual\n---\nDeploy steps.\n",
    );
    let book = tree.load("repo");
    // Paths are shown with the system's separators; compared here with `/`.
    let section = slash(&book.first_prompt_section().unwrap());

    assert!(section.starts_with("<project-rules>\n") && section.ends_with("</project-rules>"));
    assert!(section.contains("### style (.claude/rules/style.md)\nPrefer small functions.\n"));
    assert!(section.contains(&format!(
        "- `db`: Database migrations — read {}",
        slash(&db.display().to_string())
    )));
    assert!(section.contains(&format!(
        "- `tests`: applies to files matching `tests/**/*.rs` — read {}",
        slash(&tests.display().to_string())
    )));
    // Bodies of index entries are not inlined: Cursor reads them on demand.
    assert!(!section.contains("Write reversible migrations."));
    assert!(!section.contains("One behaviour per test file."));
    for absent in [
        "Cursor's own rule.",
        "Cursor's legacy rule.",
        "Cursor's CLAUDE.md.",
        "No unwrap.",
        "Deploy steps.",
    ] {
        assert!(
            !section.contains(absent),
            "{absent} must not be sent:\n{section}"
        );
    }
}

#[test]
fn nothing_to_send() {
    let tree = Tree::new();
    tree.write(
        "repo/.cursor/rules/own.mdc",
        "---\nalwaysApply: true\n---\nCursor's own.\n",
    );
    let book = tree.load("repo");
    assert_eq!(book.first_prompt_section(), None);
    assert_eq!(Tree::new().load("repo").first_prompt_section(), None);
}

#[test]
fn long_bodies_are_cut_and_reported() {
    let tree = Tree::new();
    let long = "A long line of guidance that goes on.\n".repeat(1000);
    let path = tree.write("repo/.claude/rules/huge.md", &long);
    let book = tree.load("repo");
    let rule = book.get("huge").unwrap();
    assert!(
        rule.diagnostics
            .iter()
            .any(|d| d.kind == DiagnosticKind::Truncated)
    );
    let section = book.first_prompt_section().unwrap();
    assert!(section.len() < 17 * 1024, "{}", section.len());
    assert!(
        section.contains(&format!("read the whole rule in {}]", path.display())),
        "{}",
        &section[section.len().saturating_sub(300)..]
    );
}

#[test]
fn the_section_stops_inlining_past_its_cap() {
    let tree = Tree::new();
    for i in 0..6 {
        tree.write(
            &format!("repo/.claude/rules/r{i}.md"),
            &format!("Rule {i}.\n{}", "x".repeat(15 * 1024)),
        );
    }
    let book = tree.load("repo");
    assert!(
        book.diagnostics()
            .iter()
            .any(|d| d.kind == DiagnosticKind::Truncated)
    );
    let section = book.first_prompt_section().unwrap();
    assert!(section.len() <= 64 * 1024 + 1024, "{}", section.len());
    assert!(section.contains("Rule 0."));
    assert!(section.contains("(too long to include here: read "));
    for i in 0..6 {
        assert!(
            section.contains(&format!("### r{i}")),
            "r{i} is at least named"
        );
    }
}
