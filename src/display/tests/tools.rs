//! Rows for the tools of the 2026 builds: the todo checklist, Cursor's subagent, MCP, lists of
//! paths, tools we have no row for (named from their key), and a completion that never started.

use std::time::Instant;

use serde_json::Value;
use serde_json::json;

use crate::cursor::events::RunEvent;
use crate::cursor::events::RunResult;
use crate::cursor::events::ToolCall;
use crate::cursor::events::ToolOutcome;
use crate::display::TurnDisplay;

fn call(id: &str, tool: &str, args: Value) -> ToolCall {
    ToolCall {
        call_id: id.to_owned(),
        tool: tool.to_owned(),
        args,
    }
}

fn success(value: Value) -> ToolOutcome {
    ToolOutcome::Success { value }
}

/// What a display shows for these events, then its closing summary.
fn shown(events: &[RunEvent]) -> String {
    let now = Instant::now();
    let mut display = TurnDisplay::new("/w", now);
    let mut text: String = events.iter().map(|e| display.event(e, now)).collect();
    let result = RunResult {
        success: true,
        text: String::new(),
        chat_id: None,
        duration_ms: None,
        usage: None,
        request_id: None,
    };
    text.push_str(&display.finish(&result, now));
    text
}

#[test]
fn todos_are_a_checklist_under_their_row() {
    let args = json!({"todos": [
        {"id": "1", "content": "Read the code", "status": "TODO_STATUS_COMPLETED"},
        {"id": "2", "content": "Fix the bug", "status": "TODO_STATUS_IN_PROGRESS"},
        {"id": "3", "content": "Run tests", "status": "TODO_STATUS_PENDING"},
        {"id": "4", "content": "Deploy", "status": "TODO_STATUS_CANCELLED"}
    ], "merge": false});
    let todos = call("t", "updateTodos", args);
    let text = shown(&[RunEvent::ToolCompleted {
        call: todos,
        outcome: success(json!({"todos": []})),
    }]);
    assert_eq!(
        text,
        "⎿ updateTodos · 1 of 4 done\n\
         ⎿   [x] Read the code\n\
         ⎿   [~] Fix the bug\n\
         ⎿   [ ] Run tests\n\
         ⎿   [-] Deploy\n\n\
         [Cursor] 1 native action: 1 todo list."
    );
}

#[test]
fn a_subagent_shows_its_description_and_duration() {
    let task = call(
        "k",
        "task",
        json!({"description": "Survey the tests", "prompt": "…", "subagentType": {"unspecified": {}}}),
    );
    let text = shown(&[
        RunEvent::ToolStarted { call: task },
        RunEvent::ToolCompleted {
            call: call("k", "task", Value::Null),
            outcome: success(
                json!({"conversationSteps": [], "isBackground": false, "durationMs": "5857"}),
            ),
        },
    ]);
    assert_eq!(
        text,
        "⎿ task `Survey the tests` · 5.9 s\n\n[Cursor] 1 native action: 1 subagent."
    );
}

#[test]
fn an_mcp_error_is_a_failure_in_the_servers_words() {
    let mcp = call(
        "m",
        "mcp",
        json!({"name": "docs-search", "toolName": "search", "providerIdentifier": "docs"}),
    );
    let text = shown(&[RunEvent::ToolCompleted {
        call: mcp,
        outcome: success(
            json!({"content": [{"text": {"text": "index missing"}}], "isError": true}),
        ),
    }]);
    assert_eq!(
        text,
        "⎿ mcp `docs-search` · failed: index missing\n\n\
         [Cursor] 1 native action: 1 mcp.\n\
         [Cursor] Not completed: mcp `docs-search` (failed: index missing)."
    );
}

#[test]
fn searches_lints_and_deletes_get_rows() {
    let text = shown(&[
        RunEvent::ToolCompleted {
            call: call("g", "grep", json!({"pattern": "fn main", "path": "/w/src"})),
            outcome: success(json!({"pattern": "fn main"})),
        },
        RunEvent::ToolCompleted {
            call: call(
                "l",
                "glob",
                json!({"globPattern": "*.rs", "targetDirectory": "/w"}),
            ),
            outcome: success(json!({})),
        },
        RunEvent::ToolCompleted {
            call: call(
                "s",
                "semSearch",
                json!({"query": "where is the parser", "targetDirectories": ["/w/src", "/w/tests"]}),
            ),
            outcome: success(json!({})),
        },
        RunEvent::ToolCompleted {
            call: call(
                "r",
                "readLints",
                json!({"paths": ["/w/src/a.rs", "/w/src/b.rs"]}),
            ),
            outcome: success(json!({})),
        },
        RunEvent::ToolCompleted {
            call: call("d", "delete", json!({"path": "/w/old.txt"})),
            outcome: success(json!({})),
        },
    ]);
    assert_eq!(
        text,
        "⎿ grep `fn main` in `src`\n\
         ⎿ glob `*.rs` in `.`\n\
         ⎿ semSearch `where is the parser` in `src` and 1 more\n\
         ⎿ readLints `src/a.rs` and 1 more\n\
         ⎿ delete `old.txt` · deleted\n\n\
         [Cursor] 5 native actions: 1 edit, 1 read, 3 search.\n\
         [Cursor] Changed: old.txt."
    );
}

#[test]
fn a_tool_without_a_row_of_its_own_is_named_from_its_key() {
    let text = shown(&[
        RunEvent::ToolCompleted {
            call: call("x", "listMcpResources", json!({"server": "docs"})),
            outcome: success(json!({})),
        },
        RunEvent::ToolCompleted {
            call: call("y", "generateImage", json!({"description": "a cat"})),
            outcome: success(json!({})),
        },
    ]);
    assert_eq!(
        text,
        "⎿ listMcpResources\n\
         ⎿ generateImage `a cat`\n\n\
         [Cursor] 2 native actions: 1 list mcp resources, 1 generate image."
    );
    assert!(!text.contains("other"));
}

#[test]
fn a_completion_that_never_started_gets_its_row() {
    let text = shown(&[RunEvent::ToolCompleted {
        call: call("w", "webFetch", json!({"url": "https://docs.rs/serde"})),
        outcome: success(json!({"url": "https://docs.rs/serde", "markdown": "…"})),
    }]);
    assert_eq!(
        text,
        "⎿ webFetch `https://docs.rs/serde`\n\n[Cursor] 1 native action: 1 web fetch."
    );
}

#[test]
fn an_open_call_allows_its_own_timeout_plus_a_margin() {
    use std::time::Duration;

    use crate::display::CURSOR_HARD_TIMEOUT;
    use crate::display::QUIET_MARGIN;

    let now = Instant::now();
    let limit = Duration::from_secs(900);
    let mut display = TurnDisplay::new("/w", now);
    assert_eq!(display.silence_allowed(limit), limit);
    let quick = call(
        "q",
        "shell",
        json!({"command": "make", "hardTimeout": 120_000}),
    );
    display.event(&RunEvent::ToolStarted { call: quick }, now);
    assert_eq!(
        display.silence_allowed(limit),
        limit,
        "never less than the limit"
    );
    let long = call("l", "shell", json!({"command": "make check"}));
    display.event(&RunEvent::ToolStarted { call: long }, now);
    assert_eq!(
        display.silence_allowed(limit),
        CURSOR_HARD_TIMEOUT + QUIET_MARGIN
    );
    display.event(
        &RunEvent::ToolCompleted {
            call: call("l", "shell", Value::Null),
            outcome: success(json!({"exitCode": 0})),
        },
        now,
    );
    display.event(
        &RunEvent::ToolCompleted {
            call: call("q", "shell", Value::Null),
            outcome: success(json!({"exitCode": 0})),
        },
        now,
    );
    assert_eq!(display.silence_allowed(limit), limit);
}
