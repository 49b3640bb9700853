//! The per-chat flow the session record drives: the first prompt carries the rulebook, later
//! prompts carry it again only after the digest changed (and only delivered rules count),
//! attached and non-interrupting fired rules go with the next prompt once, manual rules come
//! when a prompt mentions them, and the state round-trips through the record's JSON.

use std::collections::BTreeSet;
use std::path::PathBuf;

use super::Tree;
use crate::rules::ChatRules;
use crate::rules::FiredRule;

fn tree() -> Tree {
    let tree = Tree::new();
    tree.write("repo/.claude/rules/style.md", "Prefer small functions.\n");
    tree.write(
        "repo/.claude/rules/tests.md",
        "---\npaths: tests/**\n---\nOne behaviour per test file.\n",
    );
    tree.write(
        "repo/.windsurf/rules/deploy.md",
        "---\ntrigger: manual\n---\nDeploy steps.\n",
    );
    tree.write(
        "repo/.claude/rules/guard.md",
        "---\ncondition: 'todo!\\(\\)'\ninterruptMode: never\n---\nNo todo!() left behind.\n",
    );
    tree.write(
        "repo/.cursor/rules/own.mdc",
        "---\nalwaysApply: true\n---\nCursor's own.\n",
    );
    tree
}

#[test]
fn first_prompt_then_only_changes() {
    let tree = tree();
    let book = tree.load("repo");
    let mut chat = ChatRules::default();
    let first = book.prompt_preamble(&mut chat, true, "hello").unwrap();
    assert!(first.contains("Prefer small functions."));
    assert_eq!(chat.rulebook_digest.as_deref(), Some(book.digest()));
    assert_eq!(book.prompt_preamble(&mut chat, false, "next"), None);

    // A change to a rule Cursor loads itself does not change what we deliver.
    tree.write(
        "repo/.cursor/rules/own.mdc",
        "---\nalwaysApply: true\n---\nEdited.\n",
    );
    let same = tree.load("repo");
    assert_eq!(same.digest(), book.digest());
    assert_eq!(same.prompt_preamble(&mut chat, false, "next"), None);

    // A change to a delivered rule does: the whole section goes again.
    tree.write("repo/.claude/rules/style.md", "Prefer tiny functions.\n");
    let changed = tree.load("repo");
    assert_ne!(changed.digest(), book.digest());
    let again = changed.prompt_preamble(&mut chat, false, "next").unwrap();
    assert!(again.contains("Prefer tiny functions."));
    assert_eq!(changed.prompt_preamble(&mut chat, false, "next"), None);
}

#[test]
fn attachments_and_fired_rules_go_with_the_next_prompt_once() {
    let tree = tree();
    let book = tree.load("repo");
    let mut chat = ChatRules::default();
    book.prompt_preamble(&mut chat, true, "start");

    let attached = book.attach_for_paths(&[PathBuf::from("tests/a.rs")], &chat.attached_rules);
    assert_eq!(attached.len(), 1);
    assert!(attached[0].row().contains("`tests`"));
    chat.note_attachments(&attached);
    let fired = book.fired_by("left a todo!() here", &chat.fired_rules);
    assert_eq!(fired.len(), 1);
    let mut watch = book.stream_watch(&chat.fired_rules);
    let live = watch.text("todo!() x");
    assert_eq!(live.len(), 1);
    assert!(!live[0].interrupt, "interruptMode: never");
    chat.note_fired(&live.iter().map(FiredRule::from).collect::<Vec<_>>());
    assert_eq!(chat.pending_rules, ["tests", "guard"]);

    let next = book.prompt_preamble(&mut chat, false, "continue").unwrap();
    assert!(next.starts_with("<project-rules-attached>"));
    assert!(next.contains("One behaviour per test file."));
    assert!(next.contains("No todo!() left behind."));
    assert!(
        !next.contains("Prefer small functions."),
        "the rulebook did not change"
    );
    assert!(chat.pending_rules.is_empty());
    assert_eq!(book.prompt_preamble(&mut chat, false, "more"), None);
    // Once per chat.
    assert!(
        book.attach_for_paths(&[PathBuf::from("tests/b.rs")], &chat.attached_rules)
            .is_empty()
    );
    assert!(book.fired_by("todo!() again", &chat.fired_rules).is_empty());
}

#[test]
fn manual_rules_on_mention_and_a_new_chat_starts_over() {
    let tree = tree();
    let book = tree.load("repo");
    let mut chat = ChatRules::default();
    let first = book
        .prompt_preamble(&mut chat, true, "ship it per @deploy")
        .unwrap();
    assert!(first.contains("Deploy steps."));
    assert!(chat.attached_rules.contains("deploy"));
    assert_eq!(
        book.prompt_preamble(&mut chat, false, "@deploy again"),
        None
    );

    // Cursor lost the chat: a new one gets everything again.
    let fresh = book.prompt_preamble(&mut chat, true, "@deploy").unwrap();
    assert!(fresh.contains("Prefer small functions.") && fresh.contains("Deploy steps."));
}

#[test]
fn the_state_round_trips_through_the_record() {
    let chat = ChatRules {
        rulebook_digest: Some("ab".into()),
        attached_rules: BTreeSet::from(["tests".to_string()]),
        fired_rules: BTreeSet::from(["guard".to_string()]),
        pending_rules: vec!["tests".into()],
    };
    let json = serde_json::to_value(&chat).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "rulebookDigest": "ab",
            "attachedRules": ["tests"],
            "firedRules": ["guard"],
            "pendingRules": ["tests"],
        })
    );
    let back: ChatRules = serde_json::from_value(json).unwrap();
    assert_eq!(back, chat);
    let partial: ChatRules = serde_json::from_str(r#"{"attachedRules":["x"]}"#).unwrap();
    assert_eq!(partial.attached_rules, BTreeSet::from(["x".to_string()]));
    assert_eq!(partial.rulebook_digest, None);
}
