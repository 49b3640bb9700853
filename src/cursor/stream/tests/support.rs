//! Helpers shared by the parser's test modules: fixture loading, feeding in pieces, and views
//! of the parsed items.

use std::path::PathBuf;

use crate::cursor::CliFailure;
use crate::cursor::events::RunEvent;
use crate::cursor::events::RunResult;
use crate::cursor::events::ToolCall;
use crate::cursor::events::ToolOutcome;
use crate::cursor::stream::DEFAULT_MAX_LINE;
use crate::cursor::stream::StreamError;
use crate::cursor::stream::StreamItem;
use crate::cursor::stream::StreamParser;
use serde_json::Value;
use serde_json::json;

/// The folder of recorded Cursor streams.
pub(super) fn fixture_dir() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cursor-stream")
}

/// Every recorded stream (`*.ndjson`), sorted by name, with its bytes.
pub(super) fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut found: Vec<(String, Vec<u8>)> = std::fs::read_dir(fixture_dir())
        .expect("fixture folder")
        .map(|entry| entry.expect("dir entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "ndjson"))
        .map(|path| {
            let name = path
                .file_stem()
                .expect("stem")
                .to_string_lossy()
                .into_owned();
            (name, std::fs::read(&path).expect("read fixture"))
        })
        .collect();
    found.sort();
    assert!(
        found.len() >= 5,
        "fixtures missing from {:?}",
        fixture_dir()
    );
    found
}

/// One fixture's bytes by name (without `.ndjson`).
pub(super) fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(fixture_dir().join(format!("{name}.ndjson"))).expect("read fixture")
}

/// Feed `pieces` in order to a fresh parser with the default limit, then finish.
pub(super) fn parse_pieces<'a>(pieces: impl IntoIterator<Item = &'a [u8]>) -> Vec<StreamItem> {
    try_parse_pieces(DEFAULT_MAX_LINE, pieces).expect("stream parses")
}

/// Like [`parse_pieces`] with a limit, returning the first error.
pub(super) fn try_parse_pieces<'a>(
    max_line: usize,
    pieces: impl IntoIterator<Item = &'a [u8]>,
) -> Result<Vec<StreamItem>, StreamError> {
    let mut parser = StreamParser::new(max_line);
    let mut out = Vec::new();
    for piece in pieces {
        parser.feed(piece, &mut out)?;
    }
    parser.finish(&mut out)?;
    Ok(out)
}

/// Parse a whole stream in one feed.
pub(super) fn parse(bytes: &[u8]) -> Vec<StreamItem> {
    parse_pieces([bytes])
}

/// Split `bytes` at the given (sorted, deduplicated, in-range) cut points.
pub(super) fn split_at_cuts<'a>(bytes: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut pieces = Vec::with_capacity(cuts.len() + 1);
    let mut start = 0;
    for &cut in cuts {
        pieces.push(&bytes[start..cut]);
        start = cut;
    }
    pieces.push(&bytes[start..]);
    pieces
}

/// The run's events, in order.
pub(super) fn events(items: &[StreamItem]) -> Vec<&RunEvent> {
    items
        .iter()
        .filter_map(|item| match item {
            StreamItem::Event(event) => Some(event),
            StreamItem::Failure(_) | StreamItem::PlainText(_) => None,
        })
        .collect()
}

/// The plain-text failures, in order.
pub(super) fn failures(items: &[StreamItem]) -> Vec<&CliFailure> {
    items
        .iter()
        .filter_map(|item| match item {
            StreamItem::Failure(failure) => Some(failure),
            StreamItem::Event(_) | StreamItem::PlainText(_) => None,
        })
        .collect()
}

/// Every `Text` concatenated: Cursor's whole answer as the user sees it.
pub(super) fn answer(items: &[StreamItem]) -> String {
    events(items)
        .into_iter()
        .filter_map(|event| match event {
            RunEvent::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// The `result` event, if the stream had one.
pub(super) fn result(items: &[StreamItem]) -> Option<&RunResult> {
    events(items).into_iter().find_map(|event| match event {
        RunEvent::Result(result) => Some(result),
        _ => None,
    })
}

/// Completed tool calls with their outcomes.
pub(super) fn completed_tools(items: &[StreamItem]) -> Vec<(&ToolCall, &ToolOutcome)> {
    events(items)
        .into_iter()
        .filter_map(|event| match event {
            RunEvent::ToolCompleted { call, outcome } => Some((call, outcome)),
            _ => None,
        })
        .collect()
}

/// Started tool calls.
pub(super) fn started_tools(items: &[StreamItem]) -> Vec<&ToolCall> {
    events(items)
        .into_iter()
        .filter_map(|event| match event {
            RunEvent::ToolStarted { call } => Some(call),
            _ => None,
        })
        .collect()
}

/// A JSON rendering of the items, for the `stream_items__*` snapshots.
pub(super) fn items_json(items: &[StreamItem]) -> Value {
    Value::Array(items.iter().map(item_json).collect())
}

fn item_json(item: &StreamItem) -> Value {
    match item {
        StreamItem::Event(event) => serde_json::to_value(event).expect("event serialises"),
        StreamItem::Failure(failure) => {
            let (kind, words) = match failure {
                CliFailure::AuthRequired(words) => ("auth_required", words),
                CliFailure::BadModel(words) => ("bad_model", words),
                CliFailure::WorkspaceTrust(words) => ("workspace_trust", words),
                CliFailure::RateLimited(words) => ("rate_limited", words),
            };
            json!({"kind": "failure", "failure": kind, "words": words})
        }
        StreamItem::PlainText(text) => json!({"kind": "plain_text", "text": text}),
    }
}
