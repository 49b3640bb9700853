//! One action as a row: what it is (`shell `ls``, `edit `src/lib.rs``), how it ended and its
//! details (exit code, output tail, line counts).

use std::path::PathBuf;
use std::time::Duration;
use std::time::Instant;

use serde_json::Value;

use super::Action;
use super::ActionKind;
use super::COMMAND_LIMIT;
use super::PATH_LIMIT;
use super::REASON_LIMIT;
use super::State;
use super::TAIL_LIMIT;
use super::TurnDisplay;
use super::format_duration;
use crate::cursor::events::QueryKind;
use crate::cursor::events::ToolCall;
use crate::cursor::events::ToolOutcome;
use crate::cursor::events::url_host;
use crate::text::clip_chars;
use crate::text::clip_chars_end;
use crate::text::one_line;
use crate::text::strip_ansi;

pub(super) fn new_action(call: &ToolCall, kind: ActionKind, now: Instant) -> Action {
    Action {
        call_id: call.call_id.clone(),
        tool: call.tool.clone(),
        kind,
        args: call.args.clone(),
        started: now,
        running_row_shown: false,
        state: State::Running,
        changed: None,
    }
}

/// The outcome of a completed call (with arguments `args`) as the summary counts it.
/// `questions_in_dialog`: a question print mode rejected goes to Claude Code's question dialog
/// at the end of the answer.
pub(super) fn state_of(
    kind: ActionKind,
    args: &Value,
    outcome: &ToolOutcome,
    questions_in_dialog: bool,
) -> State {
    if kind == ActionKind::Question
        && matches!(
            outcome,
            ToolOutcome::Rejected { .. } | ToolOutcome::Unapproved { .. }
        )
    {
        return question_row(args, questions_in_dialog);
    }
    match outcome {
        ToolOutcome::Success { value } => {
            if kind == ActionKind::Shell
                && let Some(code) = exit_code(value)
                && code != 0
            {
                return State::Failed(format!("exit {code}"));
            }
            if kind == ActionKind::Mcp
                && value.get("isError").and_then(Value::as_bool) == Some(true)
            {
                return match mcp_text(value) {
                    Some(text) => State::Failed(format!("failed: {text}")),
                    None => State::Failed(String::from("failed")),
                };
            }
            State::Done
        }
        ToolOutcome::Error { message } => {
            let message = clip_chars(&one_line(message), REASON_LIMIT);
            let lower = message.to_ascii_lowercase();
            if ["denied", "blocked", "rejected", "not allowed"]
                .iter()
                .any(|w| lower.contains(w))
            {
                State::Denied(denied_reason(&message))
            } else if message.is_empty() {
                State::Failed(String::from("failed"))
            } else {
                State::Failed(format!("failed: {message}"))
            }
        }
        ToolOutcome::Rejected { reason, .. } => {
            State::Denied(denied_reason(&clip_chars(&one_line(reason), REASON_LIMIT)))
        }
        ToolOutcome::Unapproved { query, .. } => unapproved(query, kind, args),
        ToolOutcome::Unknown { .. } => State::Unreported,
    }
}

/// A call print mode could not approve: what Cursor wanted is the row's description; this
/// says why it did not run and the fix that exists.
fn unapproved(query: &QueryKind, kind: ActionKind, args: &Value) -> State {
    let fetch = *query == QueryKind::WebFetch || kind == ActionKind::WebFetch;
    let search = *query == QueryKind::WebSearch || kind == ActionKind::WebSearch;
    if fetch {
        let rule = match args.get("url").and_then(Value::as_str).and_then(url_host) {
            Some(domain) => format!("WebFetch({domain})"),
            None => String::from("WebFetch(<domain>)"),
        };
        let rule = clip_chars(&rule, PATH_LIMIT);
        return State::Unapproved {
            row: format!(
                "not approved: Cursor's print mode cannot ask you to approve a fetch; to allow it, add `{rule}` to `permissions.allow` in `.cursor/cli.json`"
            ),
            short: format!("not approved in print mode; allow `{rule}` in `.cursor/cli.json`"),
        };
    }
    let what = if search { "a web search" } else { "this call" };
    State::Unapproved {
        row: format!(
            "not approved: Cursor's print mode cannot ask you to approve {what}, and Cursor has no permission rule for it; only the bypassPermissions mode lets it run"
        ),
        short: String::from("not approved in print mode; only bypassPermissions allows it"),
    }
}

/// An `askQuestion` call print mode rejected: put to the user in Claude Code's question dialog
/// after the answer (`in_dialog`), or a question that never reached them.
fn question_row(args: &Value, in_dialog: bool) -> State {
    let (lead, short) = if in_dialog {
        (
            "Cursor asks you in the question dialog below",
            "a question, in the dialog below",
        )
    } else {
        (
            "Cursor asked a question it could not put to you",
            "a question it could not put to you",
        )
    };
    let row = match question_text(args) {
        Some(question) => format!("{lead}: {question}"),
        None => format!("{lead}."),
    };
    State::Unapproved {
        row,
        short: short.to_string(),
    }
}

/// The question(s) of an `askQuestion` call with their options: `Which file? (a or b)`.
fn question_text(args: &Value) -> Option<String> {
    let questions: Vec<String> = args
        .get("questions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|question| {
            let prompt = question
                .get("prompt")
                .and_then(Value::as_str)
                .map(one_line)
                .filter(|p| !p.is_empty())?;
            let options: Vec<String> = question
                .get("options")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|o| o.get("label").and_then(Value::as_str).map(one_line))
                .filter(|label| !label.is_empty())
                .collect();
            Some(match options.split_last() {
                None => prompt,
                Some((only, [])) => format!("{prompt} ({only})"),
                Some((last, rest)) => format!("{prompt} ({} or {last})", rest.join(", ")),
            })
        })
        .collect();
    let text = if questions.is_empty() {
        args.get("title")
            .and_then(Value::as_str)
            .map(one_line)
            .filter(|t| !t.is_empty())?
    } else {
        questions.join(" ")
    };
    Some(clip_chars(&text, REASON_LIMIT * 2))
}

/// The first text of an MCP result's `content`.
fn mcp_text(value: &Value) -> Option<String> {
    let text = value.get("content")?.as_array()?.iter().find_map(|item| {
        item.get("text")
            .and_then(|t| t.get("text").and_then(Value::as_str).or_else(|| t.as_str()))
    })?;
    let text = clip_chars(&one_line(text), REASON_LIMIT);
    (!text.is_empty()).then_some(text)
}

fn denied_reason(reason: &str) -> String {
    if reason.is_empty() {
        String::from("denied by Cursor permissions")
    } else {
        format!("denied by Cursor permissions: {reason}")
    }
}

/// The parts after the description in a completion row.
pub(super) fn outcome_parts(action: &Action, outcome: &ToolOutcome) -> Vec<String> {
    match (&action.state, outcome) {
        (State::Failed(why) | State::Denied(why), ToolOutcome::Success { value }) => {
            let mut parts = vec![why.clone()];
            parts.extend(shell_details(value));
            parts
        }
        (State::Failed(why) | State::Denied(why), _) => vec![why.clone()],
        (State::Unapproved { row, .. }, _) => vec![row.clone()],
        (State::Unreported, _) => vec![String::from("outcome not reported")],
        (_, ToolOutcome::Success { value }) => match action.kind {
            ActionKind::Shell => {
                let mut parts = Vec::new();
                if value.get("isBackground").and_then(Value::as_bool) == Some(true) {
                    parts.push(String::from("started in the background"));
                } else if let Some(code) = exit_code(value) {
                    parts.push(format!("exit {code}"));
                }
                parts.extend(shell_details(value));
                parts
            }
            ActionKind::Edit => edit_counts(&action.tool, value).into_iter().collect(),
            ActionKind::Task => {
                let ms = value.get("durationMs").and_then(number);
                ms.map(|ms| format_duration(Duration::from_millis(ms)))
                    .into_iter()
                    .collect()
            }
            ActionKind::Todos => todo_count(&todos(&action.args, value))
                .into_iter()
                .collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The todos of an `updateTodos` call: its arguments', else its result's.
pub(super) fn todos<'a>(args: &'a Value, value: &'a Value) -> Vec<(&'static str, String)> {
    let list = args
        .get("todos")
        .and_then(Value::as_array)
        .or_else(|| value.get("todos").and_then(Value::as_array));
    list.into_iter()
        .flatten()
        .filter_map(|todo| {
            let content = todo
                .get("content")
                .and_then(Value::as_str)
                .map(one_line)
                .filter(|c| !c.is_empty())?;
            let status = todo
                .get("status")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_ascii_lowercase();
            let mark = if status.contains("completed") {
                "[x]"
            } else if status.contains("progress") {
                "[~]"
            } else if status.contains("cancel") {
                "[-]"
            } else {
                "[ ]"
            };
            Some((mark, content))
        })
        .collect()
}

/// `2 of 5 done`.
fn todo_count(todos: &[(&'static str, String)]) -> Option<String> {
    if todos.is_empty() {
        return None;
    }
    let done = todos.iter().filter(|(mark, _)| *mark == "[x]").count();
    Some(format!("{done} of {} done", todos.len()))
}

/// Duration and output tail of a shell result.
fn shell_details(value: &Value) -> Vec<String> {
    let mut parts = Vec::new();
    let ms = ["executionTime", "localExecutionTimeMs"]
        .iter()
        .find_map(|k| number(value.get(*k)?));
    if let Some(ms) = ms {
        parts.push(format_duration(Duration::from_millis(ms)));
    }
    if let Some(signal) = value.get("signal").and_then(Value::as_str)
        && !signal.is_empty()
    {
        parts.push(format!("signal {}", clip_chars(&one_line(signal), 20)));
    }
    if let Some(tail) = output_tail(value) {
        parts.push(tail);
    }
    parts
}

/// The last non-blank line of a shell's output, bounded from its end.
fn output_tail(value: &Value) -> Option<String> {
    let text = ["interleavedOutput", "stdout", "stderr", "output"]
        .iter()
        .filter_map(|k| value.get(*k).and_then(Value::as_str))
        .find(|s| !s.trim().is_empty())?;
    let cleaned = strip_ansi(text);
    let line = cleaned.lines().rev().find(|l| !one_line(l).is_empty())?;
    let line = one_line(line);
    Some(clip_chars_end(&line, TAIL_LIMIT))
}

/// `+added −removed` of an edit, `+created` of a write, `deleted` of a delete.
fn edit_counts(tool: &str, value: &Value) -> Option<String> {
    if tool.eq_ignore_ascii_case("delete") {
        return Some(String::from("deleted"));
    }
    let added = number(value.get("linesAdded").unwrap_or(&Value::Null));
    let removed = number(value.get("linesRemoved").unwrap_or(&Value::Null));
    match (added, removed) {
        (Some(a), Some(r)) => Some(format!("+{a} −{r}")),
        (Some(a), None) => Some(format!("+{a}")),
        (None, Some(r)) => Some(format!("−{r}")),
        (None, None) => {
            number(value.get("linesCreated").unwrap_or(&Value::Null)).map(|n| format!("+{n}"))
        }
    }
}

fn exit_code(value: &Value) -> Option<i64> {
    let code = value.get("exitCode")?;
    code.as_i64()
        .or_else(|| code.as_str().and_then(|s| s.trim().parse().ok()))
}

/// A non-negative count, given as a number or a string of digits.
fn number(value: &Value) -> Option<u64> {
    value
        .as_u64()
        .or_else(|| value.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64))
        .or_else(|| value.as_str().and_then(|s| s.trim().parse().ok()))
}

/// What an action is about: `shell \`cmd\``, `edit \`path\``, `grep \`pat\` in \`dir\``, ….
pub(super) fn describe(action: &Action, display: &TurnDisplay) -> String {
    let args = &action.args;
    let tool = one_line(&action.tool);
    let name = if tool.is_empty() {
        String::from("tool")
    } else {
        tool
    };
    let text = |keys: &[&str]| -> Option<String> {
        keys.iter()
            .find_map(|k| args.get(*k).and_then(Value::as_str))
            .map(one_line)
            .filter(|s| !s.is_empty())
    };
    let path = |keys: &[&str]| -> Option<String> {
        text(keys).map(|p| code(&clip_chars_end(&display.show_path(&p), PATH_LIMIT)))
    };
    match action.kind {
        ActionKind::Shell => match text(&["command", "cmd"]) {
            Some(command) => format!("{name} {}", code(&clip_chars(&command, COMMAND_LIMIT))),
            None => name,
        },
        ActionKind::Search => {
            let pattern = text(&["pattern", "globPattern", "query", "regex", "searchTerm"])
                .map(|p| code(&clip_chars(&p, COMMAND_LIMIT)));
            let place = path(&["path", "targetDirectory", "directory", "dir"])
                .or_else(|| listed_path(args, "targetDirectories", display));
            match (pattern, place) {
                (Some(p), Some(d)) => format!("{name} {p} in {d}"),
                (Some(p), None) => format!("{name} {p}"),
                (None, Some(d)) => format!("{name} in {d}"),
                (None, None) => name,
            }
        }
        ActionKind::Edit | ActionKind::Read => {
            let place = path(&["path", "filePath", "file", "targetFile", "targetDirectory"])
                .or_else(|| listed_path(args, "paths", display));
            match place {
                Some(p) => format!("{name} {p}"),
                None => name,
            }
        }
        ActionKind::WebFetch | ActionKind::WebSearch | ActionKind::Task => {
            match text(&["url", "searchTerm", "query", "description"]) {
                Some(s) => format!("{name} {}", code(&clip_chars(&s, COMMAND_LIMIT))),
                None => name,
            }
        }
        ActionKind::Question => match text(&["title"]) {
            Some(s) => format!("{name} {}", code(&clip_chars(&s, COMMAND_LIMIT))),
            None => name,
        },
        ActionKind::Todos => name,
        ActionKind::Mcp | ActionKind::Plan | ActionKind::Tool => {
            let subject = text(&[
                "name",
                "toolName",
                "description",
                "path",
                "command",
                "query",
                "url",
            ]);
            match subject {
                Some(s) => format!("{name} {}", code(&clip_chars(&s, COMMAND_LIMIT))),
                None => name,
            }
        }
    }
}

/// The first of a list of paths (`paths`, `targetDirectories`), with how many more there are.
fn listed_path(args: &Value, key: &str, display: &TurnDisplay) -> Option<String> {
    let paths: Vec<&str> = args
        .get(key)?
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .filter(|p| !p.is_empty())
        .collect();
    let first = code(&clip_chars_end(
        &display.show_path(&one_line(paths.first()?)),
        PATH_LIMIT,
    ));
    Some(match paths.len() - 1 {
        0 => first,
        more => format!("{first} and {more} more"),
    })
}

/// The path of an edit: its arguments' `path`, else the result's.
pub(super) fn action_path(args: &Value, outcome: &ToolOutcome) -> Option<String> {
    let from_args = ["path", "filePath", "file", "targetFile"]
        .iter()
        .find_map(|k| args.get(*k).and_then(Value::as_str))
        .filter(|s| !s.is_empty());
    let from_result = match outcome {
        ToolOutcome::Success { value } => value
            .get("path")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty()),
        _ => None,
    };
    from_args.or(from_result).map(one_line)
}

/// Paths a call's arguments name (the rules module's keys, plus search folders).
pub(super) fn named_paths(args: &Value) -> Vec<PathBuf> {
    let mut paths = crate::cursor::events::paths_in_args(args);
    for key in ["targetDirectory", "directory"] {
        if let Some(dir) = args.get(key).and_then(Value::as_str)
            && !dir.is_empty()
        {
            paths.push(PathBuf::from(dir));
        }
    }
    paths
}

/// A Markdown code span holding `text` exactly (a longer fence when it contains backticks).
pub(super) fn code(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    if text.starts_with('`') || text.ends_with('`') {
        format!("{fence} {text} {fence}")
    } else {
        format!("{fence}{text}{fence}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fetch_rule_names_the_host() {
        assert_eq!(
            url_host("https://example.com/a?b").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            url_host("http://user@Docs.RS:8080/x").as_deref(),
            Some("docs.rs")
        );
        assert_eq!(url_host("example.org").as_deref(), Some("example.org"));
        assert_eq!(url_host("https:///x"), None);
    }

    #[test]
    fn a_question_lists_its_options() {
        let args = serde_json::json!({"title": "Which?", "questions": [{"prompt": "Which file?", "options": [{"label": "a"}, {"label": "b"}, {"label": "c"}]}]});
        assert_eq!(
            question_text(&args).as_deref(),
            Some("Which file? (a, b or c)")
        );
        assert_eq!(
            question_text(&serde_json::json!({"title": "Which?"})).as_deref(),
            Some("Which?")
        );
    }

    #[test]
    fn code_spans_survive_backticks() {
        assert_eq!(code("ls"), "`ls`");
        assert_eq!(code("echo `date`"), "`` echo `date` ``");
        assert_eq!(code("a `b` c"), "``a `b` c``");
    }
}
