//! Drives `multi_cursor::display::TurnDisplay` over a recorded stream the way a turn does, with a
//! clock that never moves (so no progress line or `running…` row appears unless a test ticks).

use std::path::Path;
use std::path::PathBuf;
use std::time::Instant;

use multi_cursor::cursor::command::CursorMode;
use multi_cursor::cursor::events::RunEvent;
use multi_cursor::cursor::stream::StreamItem;
use multi_cursor::cursor::stream::parse_all;
use multi_cursor::dialog::material::Material;
use multi_cursor::dialog::offer::in_words;
use multi_cursor::display::TurnDisplay as Display;
use multi_cursor::display::turn_tokens;
use multi_cursor::display::usage_json;
use multi_cursor::display::usage_source;

/// What a stream looks like to the user.
#[derive(Debug)]
pub struct Rendered {
    /// The text streamed: Cursor's prose, rows, plan and closing summary.
    pub text: String,
    /// `Display::touched` at the end.
    pub touched: Vec<PathBuf>,
    /// Whether the stream ended with a successful `result`.
    pub finished: bool,
}

/// Renders a whole stream-json capture for a turn running in `workspace`.
pub fn render(stream: &[u8], workspace: &Path) -> Rendered {
    render_with(stream, workspace, false)
}

/// Renders a whole capture as a turn answers it in `bypassPermissions` for a request that can
/// open no dialog of Claude Code's: like [`render`], with the closing summary ending with the
/// turn's tokens as the answer's `usage` counts them (no input estimate: the captures carry
/// Cursor's counts), then what Cursor wanted to put to the user in words
/// (`dialog::offer::in_words`).
pub fn render_answer(stream: &[u8], workspace: &Path) -> Rendered {
    render_with(stream, workspace, true)
}

fn render_with(stream: &[u8], workspace: &Path, tokens: bool) -> Rendered {
    let now = Instant::now();
    let mut display = Display::new(workspace, now);
    let mut text = String::new();
    let mut finished = false;
    let mut material = Material::default();
    for item in parse_all(stream).unwrap() {
        let StreamItem::Event(event) = item else {
            continue;
        };
        material.observe(&event);
        match &event {
            RunEvent::Result(result) if result.success => {
                let tail = display.finish(result, now);
                if tokens {
                    let usage = usage_json(result.usage, 0, &format!("{text}{tail}"));
                    let source = usage_source(result.usage, "composer-2.5");
                    let figures = turn_tokens(&usage, &source);
                    text.push_str(&display.with_tokens(tail, &figures, now));
                    if let Some(words) = in_words(&material, CursorMode::Force) {
                        text.push_str(&display.external(&words, now));
                    }
                } else {
                    text.push_str(&tail);
                }
                finished = true;
            }
            _ => text.push_str(&display.event(&event, now)),
        }
    }
    Rendered {
        text,
        touched: display.touched(),
        finished,
    }
}

/// Renders stream-json lines given as strings.
pub fn render_lines(lines: &[String], workspace: &Path) -> Rendered {
    render((lines.join("\n") + "\n").as_bytes(), workspace)
}

/// The fixture folder of captured streams.
pub fn fixtures() -> PathBuf {
    crate::repo_root().join("tests/fixtures/cursor-stream")
}

/// The `cwd` of a capture's `system/init` (the workspace it ran in).
pub fn capture_workspace(stream: &str) -> PathBuf {
    stream
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["type"] == "system")
        .and_then(|v| v["cwd"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("/workspace"))
}

/// The events of stream-json lines, in order (plain-text items dropped).
pub fn events(lines: &[String]) -> Vec<RunEvent> {
    parse_all((lines.join("\n") + "\n").as_bytes())
        .unwrap()
        .into_iter()
        .filter_map(|item| match item {
            StreamItem::Event(event) => Some(event),
            _ => None,
        })
        .collect()
}

/// `answer` without the turn's tokens it ends with (`\n\n[Cursor] 29.8k in / 178 out`, or
/// ` · 29.8k in / 178 out` ending the summary's last line, whose full stop comes back): for
/// tests about something else. Panics when the answer does not end with them.
pub fn without_tokens(answer: &str) -> String {
    let trimmed = answer.trim_end_matches('\n');
    let (head, figures) = trimmed
        .rsplit_once(" · ")
        .filter(|(_, figures)| is_token_figures(figures))
        .map(|(head, figures)| (format!("{head}."), figures))
        .or_else(|| {
            trimmed
                .rsplit_once("[Cursor] ")
                .filter(|(_, figures)| is_token_figures(figures))
                .map(|(head, figures)| (head.trim_end_matches('\n').to_string(), figures))
        })
        .unwrap_or_else(|| panic!("the answer ends with its tokens: {answer:?}"));
    assert!(is_token_figures(figures));
    head
}

/// `29.8k in / 178 out` or `1 in / 4 out (est.)`.
fn is_token_figures(text: &str) -> bool {
    let text = text.strip_suffix(" (est.)").unwrap_or(text);
    let Some((input, output)) = text.split_once(" in / ") else {
        return false;
    };
    let count = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == 'k' || c == 'M')
    };
    output.strip_suffix(" out").is_some_and(count) && count(input)
}
