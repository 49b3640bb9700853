//! Precedence and shadowing: priority (Claude 100 > Cursor and Windsurf 50 > Cline 40), then
//! project before user, then the nearer folder, then the path; first of each name wins, the
//! others stay as shadowed; a rule that fails validation never shadows a valid one; a rule
//! Cursor loads itself neither shadows nor is shadowed; the order does not depend on the
//! order files were created in.

use super::Tree;
use super::slash;
use crate::rules::Rulebook;
use crate::rules::rule::RuleStatus;

fn statuses(book: &Rulebook, name: &str) -> Vec<(String, bool)> {
    book.rules()
        .iter()
        .filter(|r| r.name == name)
        .map(|r| (slash(&book.display_path(&r.path)), r.is_active()))
        .collect()
}

#[test]
fn higher_priority_wins_and_the_rest_is_shadowed() {
    let tree = Tree::new();
    tree.write("repo/.clinerules/style.md", "Cline.\n");
    tree.write("repo/.windsurf/rules/style.md", "Windsurf.\n");
    tree.write(
        "repo/.cursor/rules/style.mdc",
        "---\nalwaysApply: true\n---\nCursor.\n",
    );
    tree.write("home/.claude/rules/style.md", "Claude user.\n");
    tree.write("repo/.claude/rules/style.md", "Claude project.\n");
    // From the parent folder's point of view, repo/.cursor/rules is not Cursor's own.
    tree.write("repo/sub/.keep", "");
    let book = tree.load("repo/sub");
    assert_eq!(
        statuses(&book, "style"),
        [
            (
                slash(
                    &tree
                        .repo
                        .join(".claude/rules/style.md")
                        .display()
                        .to_string()
                ),
                true
            ),
            ("~/.claude/rules/style.md".to_string(), false),
            (
                slash(
                    &tree
                        .repo
                        .join(".cursor/rules/style.mdc")
                        .display()
                        .to_string()
                ),
                false
            ),
            (
                slash(
                    &tree
                        .repo
                        .join(".windsurf/rules/style.md")
                        .display()
                        .to_string()
                ),
                false
            ),
            (
                slash(&tree.repo.join(".clinerules/style.md").display().to_string()),
                false
            ),
        ]
    );
    let winner = book.get("style").unwrap();
    assert_eq!(winner.body, "Claude project.");
    for loser in book.rules().iter().filter(|r| !r.is_active()) {
        assert_eq!(
            loser.status,
            RuleStatus::Shadowed {
                by: winner.path.clone()
            }
        );
    }
}

#[test]
fn cursor_s_own_rules_stand_outside_shadowing() {
    let tree = Tree::new();
    tree.write(
        "repo/.cursor/rules/style.mdc",
        "---\nalwaysApply: true\n---\nCursor.\n",
    );
    tree.write("repo/.claude/rules/style.md", "Claude project.\n");
    let book = tree.load("repo");
    assert_eq!(
        statuses(&book, "style"),
        [
            (".claude/rules/style.md".to_string(), true),
            (".cursor/rules/style.mdc".to_string(), true),
        ]
    );
    assert_eq!(book.get("style").unwrap().body, "Claude project.");
    let own = book.rules().iter().find(|r| r.native).unwrap();
    assert!(
        own.diagnostics[0].message.contains("both apply"),
        "{:?}",
        own.diagnostics
    );
}

#[test]
fn nearer_folder_wins_among_project_rules() {
    let tree = Tree::new();
    tree.write("repo/.claude/rules/db.md", "Repo-wide.\n");
    tree.write("repo/service/.claude/rules/db.md", "Service-specific.\n");
    let book = tree.load("repo/service");
    assert_eq!(book.get("db").unwrap().body, "Service-specific.");
    assert_eq!(book.rules().iter().filter(|r| r.name == "db").count(), 2);
}

#[test]
fn an_invalid_rule_never_shadows_a_valid_one() {
    let tree = Tree::new();
    // Higher priority, but empty: dropped before deduplication.
    tree.write("repo/.claude/rules/api.md", "---\npaths: src/**\n---\n");
    // Higher priority, but every glob invalid.
    tree.write(
        "repo/.claude/rules/web.md",
        "---\npaths: src/[\n---\nBroken globs.\n",
    );
    tree.write(
        "repo/.cursor/rules/api.mdc",
        "---\nalwaysApply: true\n---\nCursor API rule.\n",
    );
    tree.write(
        "repo/.windsurf/rules/web.md",
        "---\ntrigger: always_on\n---\nWindsurf web rule.\n",
    );
    let book = tree.load("repo");
    assert_eq!(book.get("api").unwrap().body, "Cursor API rule.");
    assert_eq!(book.get("web").unwrap().body, "Windsurf web rule.");
    let dropped: Vec<_> = book
        .rules()
        .iter()
        .filter(|r| r.status == RuleStatus::Dropped)
        .map(|r| slash(&book.display_path(&r.path)))
        .collect();
    assert_eq!(dropped, [".claude/rules/api.md", ".claude/rules/web.md"]);
    assert!(book.has_errors());
}

#[test]
fn order_is_deterministic() {
    let names = ["zeta", "alpha", "mid/inner", "beta", "mid"];
    let forward = Tree::new();
    for name in names {
        forward.write(&format!("repo/.claude/rules/{name}.md"), "x\n");
        forward.write(
            &format!("repo/.windsurf/rules/{}.md", name.replace('/', "-")),
            "x\n",
        );
    }
    let backward = Tree::new();
    for name in names.iter().rev() {
        backward.write(
            &format!("repo/.windsurf/rules/{}.md", name.replace('/', "-")),
            "x\n",
        );
        backward.write(&format!("repo/.claude/rules/{name}.md"), "x\n");
    }
    let list = |tree: &Tree| -> Vec<String> {
        let book = tree.load("repo");
        book.rules()
            .iter()
            .map(|r| slash(&book.display_path(&r.path)))
            .collect()
    };
    let order = list(&forward);
    assert_eq!(order, list(&backward));
    assert_eq!(
        order,
        [
            ".claude/rules/alpha.md",
            ".claude/rules/beta.md",
            ".claude/rules/mid.md",
            ".claude/rules/mid/inner.md",
            ".claude/rules/zeta.md",
            ".windsurf/rules/alpha.md",
            ".windsurf/rules/beta.md",
            ".windsurf/rules/mid-inner.md",
            ".windsurf/rules/mid.md",
            ".windsurf/rules/zeta.md",
        ]
    );
}
