//! A long silence (no visible text, thinking included) shows a periodic progress line saying
//! how long the turn has run and what it is doing; visible text resets the silence.

use super::support;
use multi_cursor_test_support::stream_lines as lines;

use crate::display::LONG_ACTION;
use crate::display::PROGRESS_EVERY;
use crate::display::TurnDisplay as Display;
use serde_json::json;
use std::time::Duration;
use std::time::Instant;

#[test]
fn silence_shows_a_progress_line() {
    let events = support::events(&[
        lines::delta("Looking."),
        lines::thinking("considering the options"),
        lines::started("s1", "shellToolCall", json!({"command": "make check"})),
    ]);
    let t0 = Instant::now();
    let mut display = Display::new("/w", t0);
    assert_eq!(display.event(&events[0], t0), "Looking.");
    assert_eq!(display.event(&events[1], t0 + Duration::from_secs(1)), "");
    assert_eq!(display.next_wake(), t0 + PROGRESS_EVERY);
    assert_eq!(display.tick(t0 + Duration::from_secs(29)), "");
    // Each line leaves with its newline (Claude Code shows a line only once it has one); the
    // next piece then starts with one newline less.
    assert_eq!(
        display.tick(t0 + PROGRESS_EVERY),
        "\n\n[Cursor] Still working (30 s): thinking.\n"
    );
    // An action that runs long gets its row; a period of silence after it, the progress
    // line names it.
    let started = t0 + PROGRESS_EVERY + Duration::from_secs(1);
    assert_eq!(display.event(&events[2], started), "");
    let long = started + LONG_ACTION;
    assert_eq!(display.next_wake(), long);
    assert_eq!(display.tick(long), "⎿ shell `make check` · running…\n");
    assert_eq!(display.next_wake(), long + PROGRESS_EVERY);
    assert_eq!(
        display.tick(long + PROGRESS_EVERY),
        "[Cursor] Still working (1 min 6 s): shell `make check` is running, and Cursor prints nothing until it ends.\n"
    );
}

#[test]
fn visible_text_resets_the_silence() {
    let events = support::events(&[lines::delta("a"), lines::delta("b")]);
    let t0 = Instant::now();
    let mut display = Display::new("/w", t0);
    display.event(&events[0], t0);
    display.event(&events[1], t0 + Duration::from_secs(20));
    assert_eq!(display.tick(t0 + PROGRESS_EVERY), "");
    assert_eq!(
        display.next_wake(),
        t0 + Duration::from_secs(20) + PROGRESS_EVERY
    );
}
