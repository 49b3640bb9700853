//! A repository decides what its rule names and `@path` imports point at, so the rulebook
//! reads only regular files of at most `MAX_RULE_FILE` bytes: a FIFO (whose read would wait
//! forever), a device, or an oversized file, under a rule's name or behind an import, is
//! reported and not read, and loading goes on. Found by the `rules` fuzz target (`@/dev/zero`
//! in a CLAUDE.md ran the process out of memory; a FIFO hung it).

use std::sync::mpsc;
use std::time::Duration;

use super::Tree;
use crate::rules::diagnostic::DiagnosticKind;
use crate::rules::discover::MAX_RULE_FILE;
use crate::rules::rule::RuleStatus;

/// Loads the rulebook of `repo` on another thread; a load that never returns (the bug: a
/// blocking read of a FIFO) fails the test instead of hanging it.
fn load(tree: &Tree) -> crate::rules::Rulebook {
    let repo = tree.repo.clone();
    let home = tree.home.clone();
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(crate::rules::Rulebook::load(&repo, Some(&home)));
    });
    receive
        .recv_timeout(Duration::from_secs(120))
        .expect("loading the rulebook blocked on a special file")
}

fn mkfifo(path: &std::path::Path) -> Result<(), String> {
    crate::platform::testing::mkfifo(path)
}

#[test]
fn special_and_oversized_files_are_reported_not_read() {
    let tree = Tree::new();
    // Imports of a FIFO and of a device from a memory file.
    let fifo = tree.root().join("pipe.md");
    if let Err(reason) = mkfifo(&fifo) {
        eprintln!("skipped: {reason}");
        return;
    }
    tree.write(
        "repo/CLAUDE.md",
        &format!(
            "Project memory.\nSee @{} and @/dev/null for more.\n",
            fifo.display()
        ),
    );
    // A rule that is a FIFO, one that is a link to a device, one over the size limit, and a
    // well-formed one that must still load.
    std::fs::create_dir_all(tree.repo.join(".claude/rules")).unwrap();
    mkfifo(&tree.repo.join(".claude/rules/fifo.md")).unwrap();
    crate::platform::testing::skip_unless!(crate::platform::testing::symlink_file(
        std::path::Path::new("/dev/null"),
        &tree.repo.join(".claude/rules/device.md"),
    ));
    let big = "x".repeat(usize::try_from(MAX_RULE_FILE).unwrap() + 1);
    tree.write("repo/.claude/rules/big.md", &big);
    tree.write("repo/.claude/rules/fine.md", "Write tests first.\n");

    let book = load(&tree);

    let fine = book.get("fine").unwrap();
    assert_eq!(fine.status, RuleStatus::Active);
    assert_eq!(fine.body, "Write tests first.");

    for (name, why) in [
        ("fifo", "not a regular file"),
        ("device", "not a regular file"),
        ("big", "larger than 1024 KiB"),
    ] {
        let rule = book
            .rules()
            .iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("rule {name} is listed"));
        assert_eq!(rule.status, RuleStatus::Dropped, "{name}");
        assert!(
            rule.diagnostics
                .iter()
                .any(|d| d.kind == DiagnosticKind::Unreadable && d.message.contains(why)),
            "{name}: {:?}",
            rule.diagnostics
        );
        assert!(rule.body.is_empty(), "{name} was read");
    }

    let memory = book.get("CLAUDE.md").unwrap();
    let imports: Vec<_> = memory
        .diagnostics
        .iter()
        .filter(|d| d.kind == DiagnosticKind::ImportMissing)
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(imports.len(), 2, "{imports:?}");
    assert!(
        imports.iter().all(|m| m.contains("not a regular file")),
        "{imports:?}"
    );
    assert!(!memory.body.contains("<imported"), "{}", memory.body);
}
