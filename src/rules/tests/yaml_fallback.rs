//! Frontmatter that strict YAML rejects still means what its author wrote: unquoted
//! `**/*.ts` globs, `alwaysApply: true` after the fallback, comma lists split outside braces,
//! quoted items, and each fallback reported as a warning with its line.

use std::path::Path;

use super::Tree;
use crate::rules::Activation;
use crate::rules::diagnostic::DiagnosticKind;
use crate::rules::diagnostic::Severity;

fn fallback_line(rule: &crate::rules::rule::Rule) -> Option<usize> {
    rule.diagnostics
        .iter()
        .find(|d| d.kind == DiagnosticKind::YamlFallback)
        .map(|d| {
            assert_eq!(d.severity, Severity::Warning);
            d.line.unwrap()
        })
}

#[test]
fn unquoted_double_star_glob() {
    let tree = Tree::new();
    tree.write(
        "repo/.cursor/rules/ts.mdc",
        "---\ndescription: TypeScript\nglobs: **/*.ts\n---\nStrict mode.\n",
    );
    let book = tree.load("repo");
    let rule = book.get("ts").unwrap();
    assert_eq!(rule.activation, Activation::Globs);
    assert_eq!(rule.globs, ["**/*.ts"]);
    assert_eq!(fallback_line(rule), Some(3));
    assert!(rule.matches_path(Path::new("a/b/c.ts")));
    assert!(rule.matches_path(Path::new("c.ts")));
    assert!(!rule.matches_path(Path::new("c.tsx")));
}

#[test]
fn always_apply_survives_the_fallback() {
    let tree = Tree::new();
    tree.write(
        "repo/.windsurf/rules/x.md",
        "---\nglobs: *.rs\nalwaysApply: true\n---\nAlways.\n",
    );
    tree.write(
        "repo/.windsurf/rules/y.md",
        "---\nglobs: *.rs\nalwaysApply: false\n---\nOnly for Rust files.\n",
    );
    let book = tree.load("repo");
    let x = book.get("x").unwrap();
    assert_eq!(x.activation, Activation::Always, "{:?}", x.diagnostics);
    assert_eq!(x.why, "alwaysApply: true (read after the YAML fallback)");
    assert_eq!(fallback_line(x), Some(2));
    let y = book.get("y").unwrap();
    assert_eq!(y.activation, Activation::Globs);
    assert!(y.matches_path(Path::new("src/lib.rs")));
}

#[test]
fn comma_globs_split_outside_braces() {
    let tree = Tree::new();
    tree.write(
        "repo/.cursor/rules/web.mdc",
        "---\nglobs: *.{ts,tsx}, src/**/*.css,\"docs/*.md\"\n---\nWeb rules.\n",
    );
    tree.write(
        "repo/.claude/rules/list.md",
        "---\npaths:\n  - **/*.go\n  - 'cmd/{a,b}/*.go'\n---\nGo rules.\n",
    );
    let book = tree.load("repo");
    let web = book.get("web").unwrap();
    assert_eq!(web.globs, ["*.{ts,tsx}", "src/**/*.css", "docs/*.md"]);
    assert!(
        web.diagnostics
            .iter()
            .any(|d| d.kind == DiagnosticKind::Coerced)
    );
    for yes in ["x/y.tsx", "src/a/b.css", "docs/readme.md"] {
        assert!(web.matches_path(Path::new(yes)), "{yes}");
    }
    assert!(!web.matches_path(Path::new("docs/deep/x.md")));
    assert_eq!(
        web.matching_glob(Path::new("src/a.css")),
        Some("src/**/*.css")
    );
    let list = book.get("list").unwrap();
    assert_eq!(list.globs, ["**/*.go", "cmd/{a,b}/*.go"]);
    assert!(fallback_line(list).is_some());
    assert!(list.matches_path(Path::new("cmd/b/main.go")));
}

#[test]
fn valid_yaml_does_not_fall_back() {
    let tree = Tree::new();
    tree.write(
        "repo/.cursor/rules/q.mdc",
        "---\nglobs: \"**/*.ts\"\nalwaysApply: false\n---\nQuoted.\n",
    );
    let book = tree.load("repo");
    let q = book.get("q").unwrap();
    assert_eq!(fallback_line(q), None);
    assert_eq!(q.globs, ["**/*.ts"]);
    assert!(q.diagnostics.is_empty(), "{:?}", q.diagnostics);
}

#[test]
fn unusable_lines_and_values_are_reported() {
    let tree = Tree::new();
    tree.write(
        "repo/.cursor/rules/odd.mdc",
        "---\nglobs: *.rs\nthis is not a key\nalwaysApply: maybe\n---\nOdd.\n",
    );
    let book = tree.load("repo");
    let odd = book.get("odd").unwrap();
    let kinds: Vec<_> = odd.diagnostics.iter().map(|d| (d.kind, d.line)).collect();
    assert!(
        kinds.contains(&(DiagnosticKind::IgnoredLine, Some(3))),
        "{kinds:?}"
    );
    assert!(
        kinds.contains(&(DiagnosticKind::BadValue, Some(4))),
        "{kinds:?}"
    );
    assert_eq!(odd.activation, Activation::Globs);
    assert!(book.has_errors());
}
