//! One fixture tree per dialect (tests/fixtures/rules/<dialect>), normalised into rules and
//! compared with a reviewed insta snapshot (`snapshots/multi_cursor__rules__tests__dialect_snapshots__<dialect>.snap`;
//! `cargo insta review` updates them), plus the key facts of each dialect asserted directly.

use std::path::Path;

use super::Tree;
use super::snapshot;
use crate::rules::Activation;
use crate::rules::Rulebook;
use crate::rules::diagnostic::DiagnosticKind;
use crate::rules::rule::Delivery;

fn rule<'a>(book: &'a Rulebook, name: &str) -> &'a crate::rules::rule::Rule {
    book.rules()
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no rule {name}"))
}

fn has(book: &Rulebook, name: &str, kind: DiagnosticKind) -> bool {
    rule(book, name).diagnostics.iter().any(|d| d.kind == kind)
}

fn check(tree: &Tree, book: &Rulebook, name: &str) {
    insta::assert_snapshot!(name, snapshot(book, &tree.root()));
}

#[test]
fn claude_rules() {
    let tree = Tree::fixture("claude");
    let book = tree.load("repo");
    check(&tree, &book, "claude");
    assert_eq!(rule(&book, "style").activation, Activation::Always);
    let react = rule(&book, "frontend/react");
    assert_eq!(react.activation, Activation::Globs);
    assert_eq!(react.globs, ["src/components/**/*.tsx", "src/hooks/*.ts"]);
    assert!(react.matches_path(Path::new("src/components/ui/Button.tsx")));
    assert!(!react.matches_path(Path::new("src/hooks/deep/useX.ts")));
    // `globs` is Cursor's key: Claude Code loads the rule always, and so do we.
    assert_eq!(rule(&book, "legacy-globs").activation, Activation::Always);
    assert!(has(&book, "legacy-globs", DiagnosticKind::ForeignKey));
    assert!(has(&book, "legacy-globs", DiagnosticKind::YamlFallback));
    assert_eq!(rule(&book, "guard").delivery(), Delivery::Stream);
    // The project's `api` shadows the user's.
    let apis: Vec<_> = book.rules().iter().filter(|r| r.name == "api").collect();
    assert_eq!(apis.len(), 2);
    assert!(apis[0].is_active() && apis[0].path.starts_with(&tree.repo));
    assert!(!apis[1].is_active());
    assert!(!book.has_errors());
}

#[test]
fn cursor_rules() {
    let tree = Tree::fixture("cursor");
    let book = tree.load("repo/app");
    check(&tree, &book, "cursor");
    // Unquoted `*.rs` breaks YAML; `alwaysApply: true` still holds after the fallback.
    assert_eq!(rule(&book, "always").activation, Activation::Always);
    assert!(has(&book, "always", DiagnosticKind::YamlFallback));
    assert_eq!(
        rule(&book, "ts").globs,
        ["src/**/*.ts", "components/**/*.{ts,tsx}"]
    );
    assert_eq!(rule(&book, "db").activation, Activation::AgentRequested);
    assert_eq!(rule(&book, "manual").activation, Activation::Manual);
    assert_eq!(rule(&book, "nested/deep").activation, Activation::Globs);
    assert_eq!(rule(&book, "quoted-true").activation, Activation::Always);
    assert!(has(&book, "quoted-true", DiagnosticKind::Coerced));
    // The workspace's own .cursor/rules and .cursorrules are Cursor's; the parent's are ours.
    assert_eq!(rule(&book, "local").delivery(), Delivery::Cursor);
    assert_eq!(rule(&book, "cursorrules").delivery(), Delivery::Cursor);
    assert_eq!(rule(&book, "always").delivery(), Delivery::FirstPrompt);
    assert!(
        book.diagnostics()
            .iter()
            .any(|d| d.kind == DiagnosticKind::Legacy)
    );
}

#[test]
fn windsurf_rules() {
    let tree = Tree::fixture("windsurf");
    let book = tree.load("repo");
    check(&tree, &book, "windsurf");
    assert_eq!(rule(&book, "always").activation, Activation::Always);
    assert_eq!(rule(&book, "manual").activation, Activation::Manual);
    assert_eq!(rule(&book, "docs").activation, Activation::AgentRequested);
    let py = rule(&book, "py");
    assert_eq!(py.activation, Activation::Globs);
    assert_eq!(py.globs, ["*.py", "tests/{unit,e2e}/*.py"]);
    assert_eq!(rule(&book, "plain").activation, Activation::Always);
    assert!(has(&book, "plain", DiagnosticKind::Defaulted));
    assert!(has(&book, "weird", DiagnosticKind::BadValue));
    assert_eq!(rule(&book, "windsurfrules").activation, Activation::Always);
    assert_eq!(rule(&book, "global_rules").activation, Activation::Always);
    assert!(book.has_errors(), "an unknown trigger is an error");
}

#[test]
fn cline_rules() {
    let tree = Tree::fixture("cline");
    let book = tree.load("repo");
    check(&tree, &book, "cline");
    assert_eq!(rule(&book, "01-style").activation, Activation::Always);
    assert_eq!(rule(&book, "02-rust").globs, ["**/*.rs"]);
    assert_eq!(rule(&book, "sub/03-docs").activation, Activation::Globs);
    assert_eq!(
        rule(&book, "04-cursor-style").activation,
        Activation::Always
    );
    assert!(has(&book, "04-cursor-style", DiagnosticKind::ForeignKey));
    assert_eq!(
        rule(&book, "global").source.level,
        crate::rules::rule::Level::User
    );
}

#[test]
fn claude_memory_files() {
    let tree = Tree::fixture("memory");
    let book = tree.load("repo/pkg");
    check(&tree, &book, "memory");
    // The workspace's CLAUDE.md is Cursor's own, but Cursor does not follow its imports.
    let root = rule(&book, "pkg/CLAUDE.md");
    assert!(!root.native);
    assert!(root.body.contains("Shared conventions."));
    assert!(!root.body.contains("Package memory"));
    // The parent's CLAUDE.md (up to the git root) is ours, imports expanded two hops deep,
    // none inside code.
    let parent = rule(&book, "CLAUDE.md");
    assert!(parent.body.contains("Guide text.") && parent.body.contains("Nested one."));
    assert!(
        parent.body.contains("@not/imported.md"),
        "code stays as written"
    );
    assert!(
        !parent.body.contains("not/imported.md\">"),
        "no import inside a code block"
    );
    assert!(
        !parent.body.contains("not/this.md\">"),
        "no import inside a code span"
    );
    assert!(
        rule(&book, "pkg/.claude/CLAUDE.md")
            .body
            .contains("Common snippet from home.")
    );
    assert!(has(
        &book,
        "pkg/CLAUDE.local.md",
        DiagnosticKind::ImportMissing
    ));
    assert_eq!(rule(&book, "~/.claude/CLAUDE.md").body, "User memory.");
}
