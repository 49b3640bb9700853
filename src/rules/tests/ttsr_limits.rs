//! Stream rules' limits and reach: matches split across any chunking, word boundaries and `$`
//! decided at the stream's end rather than a chunk's, tool arguments scanned once per call,
//! scopes and interrupt modes honoured, at most three interrupts per turn (later matches wait
//! for the next prompt), each rule once per chat, and bad conditions reported without losing
//! the rule.

use std::collections::BTreeSet;

use super::Tree;
use crate::cursor::events::ToolCall;
use crate::rules::Activation;
use crate::rules::StreamKind;
use crate::rules::diagnostic::DiagnosticKind;
use crate::rules::rule::Delivery;

fn rule(tree: &Tree, name: &str, frontmatter: &str) {
    tree.write(
        &format!("repo/.claude/rules/{name}.md"),
        &format!("---\n{frontmatter}\n---\nRule {name}.\n"),
    );
}

fn call(id: &str, tool: &str, args: serde_json::Value) -> ToolCall {
    ToolCall {
        call_id: id.into(),
        tool: tool.into(),
        args,
    }
}

#[test]
fn any_chunking_finds_the_same_match() {
    let tree = Tree::new();
    rule(&tree, "todo", "condition: '(?i)\\bTODO\\b'");
    let book = tree.load("repo");
    let text = "first line\nleft a todo: fix later";
    for size in 1..=text.len() {
        let mut watch = book.stream_watch(&BTreeSet::new());
        let mut names = Vec::new();
        for chunk in text.as_bytes().chunks(size) {
            let chunk = std::str::from_utf8(chunk).unwrap();
            names.extend(watch.text(chunk).into_iter().map(|f| f.rule.name.clone()));
        }
        names.extend(watch.end_text().into_iter().map(|f| f.rule.name.clone()));
        assert_eq!(names, ["todo"], "chunk size {size}");
    }
}

#[test]
fn boundaries_are_decided_at_the_end_of_the_stream() {
    let tree = Tree::new();
    rule(&tree, "word", "condition: '\\bTODO\\b'");
    rule(&tree, "tail", "condition: 'done$'");
    let book = tree.load("repo");
    let none = BTreeSet::new();
    let mut watch = book.stream_watch(&none);
    assert!(watch.text("a TODO").is_empty(), "not yet: TODOS may follow");
    assert!(watch.text("S and done").is_empty());
    assert!(watch.text(" deal").is_empty(), "`done` was not the end");
    assert!(watch.end_text().is_empty());
    let mut watch = book.stream_watch(&none);
    watch.text("all done");
    let names: Vec<_> = watch
        .end_text()
        .into_iter()
        .map(|f| f.rule.name.clone())
        .collect();
    assert_eq!(names, ["tail"]);
    // A tool call ends the text stream.
    let mut watch = book.stream_watch(&none);
    watch.text("x TODO");
    let fired = watch.tool_call(&call("c", "read", serde_json::json!({"path": "a"})));
    assert_eq!(fired[0].rule.name, "word");
    assert_eq!(fired[0].stream, StreamKind::Text);
}

#[test]
fn tool_arguments_scopes_and_modes() {
    let tree = Tree::new();
    rule(
        &tree,
        "rmrf",
        "condition: '(?m)^rm -rf /'\nscope: tool:shell",
    );
    rule(
        &tree,
        "unwrap",
        "condition: 'unwrap\\(\\)'\ninterruptMode: tool-only",
    );
    rule(
        &tree,
        "secret",
        "condition: 'BEGIN PRIVATE KEY'\nscope: thinking, text",
    );
    let book = tree.load("repo");
    let none = BTreeSet::new();
    let mut watch = book.stream_watch(&none);

    // Shell scope: an edit writing the same text does not count.
    let edit = call(
        "e1",
        "edit",
        serde_json::json!({"path": "x.sh", "streamContent": "rm -rf /tmp/x\nlet a = b.unwrap();"}),
    );
    let fired = watch.tool_call(&edit);
    assert_eq!(fired.len(), 1);
    assert_eq!(fired[0].rule.name, "unwrap");
    assert_eq!(fired[0].tool.as_deref(), Some("edit"));
    assert!(fired[0].interrupt, "tool-only interrupts on tool matches");
    let shell = call(
        "s1",
        "shell",
        serde_json::json!({"command": "cd /w && ls\nrm -rf /", "timeout": 30000}),
    );
    let fired = watch.tool_call(&shell);
    assert_eq!(fired[0].rule.name, "rmrf");
    // The completed event of the same call is not scanned again (and the rule is done anyway).
    assert!(watch.tool_call(&shell).is_empty());

    // Thinking is only watched when the scope names it.
    let mut watch = book.stream_watch(&none);
    let fired = watch.thinking("-----BEGIN PRIVATE KEY-----");
    assert_eq!(fired[0].rule.name, "secret");
    assert_eq!(fired[0].stream, StreamKind::Thinking);
    // `unwrap` in prose does not interrupt (tool-only): it waits for the next prompt.
    let fired = watch.text("call unwrap() here");
    assert_eq!(fired[0].rule.name, "unwrap");
    assert!(!fired[0].interrupt);
}

#[test]
fn at_most_three_interrupts_per_turn_and_once_per_chat() {
    let tree = Tree::new();
    for i in 0..5 {
        rule(&tree, &format!("r{i}"), &format!("condition: 'word{i}x'"));
    }
    let book = tree.load("repo");
    let mut watch = book.stream_watch(&BTreeSet::from(["r4".to_string()]));
    let mut interrupts = Vec::new();
    for i in 0..5 {
        watch.next_run();
        for f in watch.text(&format!("a word{i}x b")) {
            interrupts.push((f.rule.name.clone(), f.interrupt));
        }
    }
    assert_eq!(
        interrupts,
        [
            ("r0".to_string(), true),
            ("r1".to_string(), true),
            ("r2".to_string(), true),
            ("r3".to_string(), false),
        ],
        "r4 already fired in this chat"
    );
    assert_eq!(watch.interrupts(), 3);
    assert_eq!(watch.fired().len(), 4);
    // A custom cap.
    let mut watch = book.stream_watch(&BTreeSet::new()).with_max_interrupts(0);
    assert!(!watch.text("word0x.")[0].interrupt);
}

#[test]
fn bad_conditions_are_reported_and_the_rule_keeps_its_other_keys() {
    let tree = Tree::new();
    rule(&tree, "broken", "condition: '(unclosed'\npaths: src/**");
    rule(&tree, "empty", "condition: 'x*'");
    rule(&tree, "half", "condition:\n  - '(bad'\n  - 'good\\d+'");
    let book = tree.load("repo");
    let broken = book.get("broken").unwrap();
    assert!(broken.ttsr.is_none());
    assert_eq!(broken.activation, Activation::Globs);
    assert_eq!(broken.delivery(), Delivery::OnPaths);
    assert!(
        broken
            .diagnostics
            .iter()
            .any(|d| d.kind == DiagnosticKind::BadRegex)
    );
    let empty = book.get("empty").unwrap();
    assert!(empty.ttsr.is_none());
    assert!(
        empty
            .diagnostics
            .iter()
            .any(|d| d.message.contains("empty text"))
    );
    let half = book.get("half").unwrap();
    assert_eq!(half.ttsr.as_ref().unwrap().conditions, ["good\\d+"]);
    assert_eq!(book.fired_by("so good42.", &BTreeSet::new()).len(), 1);
    assert!(book.has_errors());
}

#[test]
fn the_legacy_ttsr_trigger_key_is_read() {
    let tree = Tree::new();
    tree.write(
        "repo/.cursor/rules/legacy.mdc",
        "---\nttsr_trigger: 'console\\.log'\n---\nNo console.log.\n",
    );
    let book = tree.load("repo");
    let fired = book.fired_by("console.log(x)", &BTreeSet::new());
    assert_eq!(fired[0].name, "legacy");
    // A Cursor rule Cursor loads itself is still watched: Cursor has no stream rules.
    assert!(fired[0].native);
}
