//! Each Claude rule form becomes the Cursor token that denies at least as much (what a refusal
//! tells the user to write, and what is looked for in Cursor's config), is recognised as a
//! Claude-only tool, or is reported as having no Cursor equivalent.

use std::path::Path;

use multi_cursor::policy::translate::Translation;
use multi_cursor::policy::translate::translate;

fn token(rule: &str) -> String {
    match translate(rule, Some(Path::new("/home/you"))) {
        Translation::Cursor(cursor) => cursor.token,
        other => panic!("{rule}: {other:?}"),
    }
}

#[test]
fn every_rule_form() {
    let table = [
        ("Bash(git:*)", "Shell(git)"),
        ("Bash(git *)", "Shell(git)"),
        ("Bash(git)", "Shell(git)"),
        ("Bash", "Shell(*)"),
        ("Bash(*)", "Shell(*)"),
        ("Bash(git push:*)", "Shell(git:push*)"),
        ("Bash(npm run test *)", "Shell(npm:run test*)"),
        ("Bash(git push)", "Shell(git:push)"),
        ("Read(.env)", "Read(.env)"),
        ("Read(./secrets/**)", "Read(secrets/**)"),
        ("Read(/config/*.json)", "Read(config/*.json)"),
        ("Read(//etc/passwd)", "Read(/etc/passwd)"),
        ("Read(~/.ssh/**)", "Read(/home/you/.ssh/**)"),
        ("Read", "Read(**)"),
        ("Edit(src/**)", "Write(src/**)"),
        ("Write(package.json)", "Write(package.json)"),
        ("MultiEdit(**/*.key)", "Write(**/*.key)"),
        ("NotebookEdit(nb/*.ipynb)", "Write(nb/*.ipynb)"),
        ("Edit", "Write(**)"),
        ("WebFetch(domain:example.com)", "WebFetch(example.com)"),
        ("WebFetch", "WebFetch(*)"),
        ("mcp__github__create_issue", "Mcp(github:create_issue)"),
        ("mcp__github", "Mcp(github:*)"),
        ("mcp__github__*", "Mcp(github:*)"),
    ];
    for (rule, expected) in table {
        assert_eq!(token(rule), expected, "{rule}");
    }
    for rule in [
        "Task",
        "Agent(Explore)",
        "TodoWrite",
        "ExitPlanMode",
        "Skill",
    ] {
        assert_eq!(
            translate(rule, None),
            Translation::ClaudeOnly,
            "{rule} is Claude-only"
        );
    }
    for rule in [
        "Grep",
        "Glob(**/*.rs)",
        "WebSearch",
        "WebFetch(https://example.com)",
        "Bash(rm*)",
        "Bash(* --force)",
        "mcp__github__create_issue(repo)",
        "Read(~bob/x)",
        "SomeFutureTool",
    ] {
        assert!(
            matches!(translate(rule, None), Translation::Inexpressible(_)),
            "{rule} has no Cursor token"
        );
    }
}

#[test]
fn broader_cursor_entries_count() {
    let Translation::Cursor(rule) = translate("Bash(git push:*)", None) else {
        panic!()
    };
    for entry in ["Shell(git:push*)", "Shell(git)", "Shell(git:*)", "Shell(*)"] {
        assert!(rule.enforced_by([entry]), "{entry}");
    }
    assert!(!rule.enforced_by(["Shell(git:pull*)", "Read(**)"]));
    let Translation::Cursor(rule) = translate("mcp__db__drop", None) else {
        panic!()
    };
    for entry in ["Mcp(db:drop)", "Mcp(db:*)", "Mcp(*:*)"] {
        assert!(rule.enforced_by([entry]), "{entry}");
    }
    let Translation::Cursor(rule) = translate("Read(.env)", None) else {
        panic!()
    };
    assert!(rule.enforced_by(["Read(**)"]));
    assert!(!rule.enforced_by(["Write(**)", "Read(.env.example)"]));
}
