//! What the display's unit tests cannot take from the test-support crate: they render streams
//! and build stream-json lines with `multi_cursor_test_support::display` and `stream_lines`, the
//! harnesses' helpers, but the events a test feeds a `TurnDisplay` by hand must be this crate's
//! own `RunEvent` (the support crate's `display::events` returns the library's, a different type
//! to the compiler).

use crate::cursor::events::RunEvent;
use crate::cursor::stream::StreamItem;
use crate::cursor::stream::parse_all;

/// The events of stream-json lines, in order (plain-text items dropped).
pub(super) fn events(lines: &[String]) -> Vec<RunEvent> {
    parse_all((lines.join("\n") + "\n").as_bytes())
        .unwrap()
        .into_iter()
        .filter_map(|item| match item {
            StreamItem::Event(event) => Some(event),
            _ => None,
        })
        .collect()
}
