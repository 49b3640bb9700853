use std::time::Instant;

use serde_json::json;

use super::*;
use crate::cursor::events::RunEvent;
use crate::cursor::events::RunResult;
use crate::cursor::events::ToolCall;
use crate::cursor::events::ToolOutcome;

fn result(text: &str) -> RunResult {
    RunResult {
        success: true,
        text: text.into(),
        chat_id: None,
        duration_ms: None,
        usage: None,
        request_id: None,
    }
}

fn figures(estimated: bool) -> TokenFigures {
    TokenFigures {
        input_tokens: 29_812,
        output_tokens: 178,
        estimated,
        ..TokenFigures::default()
    }
}

fn shell(id: &str) -> ToolCall {
    ToolCall {
        call_id: id.into(),
        tool: "shell".into(),
        args: json!({"command": "ls"}),
    }
}

#[test]
fn a_turn_without_actions_ends_with_its_own_token_line() {
    let now = Instant::now();
    let mut display = TurnDisplay::new("/w", now);
    let mut text = display.event(
        &RunEvent::Text {
            text: "Done.".into(),
        },
        now,
    );
    let tail = display.finish(&result("Done."), now);
    text.push_str(&display.with_tokens(tail, &figures(false), now));
    assert_eq!(text, "Done.\n\n[Cursor] 29.8k in / 178 out");
}

#[test]
fn an_empty_answer_is_just_the_token_line() {
    let now = Instant::now();
    let mut display = TurnDisplay::new("/w", now);
    let tail = display.finish(&result(""), now);
    let text = display.with_tokens(tail, &figures(true), now);
    assert_eq!(text, "[Cursor] 29.8k in / 178 out (est.)");
}

#[test]
fn the_tokens_follow_the_summary_on_a_line_of_their_own() {
    let now = Instant::now();
    let mut display = TurnDisplay::new("/w", now);
    let mut text = display.event(&RunEvent::ToolStarted { call: shell("a") }, now);
    text.push_str(&display.event(
        &RunEvent::ToolCompleted {
            call: shell("a"),
            outcome: ToolOutcome::Success {
                value: json!({"exitCode": 0}),
            },
        },
        now,
    ));
    text.push_str(&display.event(
        &RunEvent::Text {
            text: "Listed.".into(),
        },
        now,
    ));
    let tail = display.finish(&result("Listed."), now);
    let summary = display.summary_lines();
    assert_eq!(summary.len(), 1);
    text.push_str(&display.with_tokens(tail, &figures(true), now));
    assert!(
        text.ends_with(&format!(
            "Listed.\n\n{}\n[Cursor] 29.8k in / 178 out (est.)",
            summary[0]
        )),
        "{text}"
    );
}

#[test]
fn the_figures_are_the_answer_usage() {
    let usage = AnswerUsage {
        input_tokens: 12_345,
        output_tokens: 9,
        cache_read_input_tokens: Some(100),
        cache_creation_input_tokens: None,
    };
    let mut source = UsageSource {
        source: UsageOrigin::Provider,
        model: "auto".into(),
        replayed: false,
    };
    assert_eq!(turn_tokens(&usage, &source).in_out(), "12.3k in / 9 out");
    source.source = UsageOrigin::Estimate;
    assert_eq!(
        turn_tokens(&usage, &source).in_out(),
        "12.3k in / 9 out (est.)"
    );
}
