//! The accumulator rule for assistant text: each `assistant` event's text is either new text or
//! a flush repeating the segment accumulated since the last flush or tool event (skipped), so
//! that the answer carries every word exactly once, with and without `--stream-partial-output`.
//!
//! Two refinements: when the segment so far is a single delta and the new event is also
//! delta-shaped, equal text is new text (a model streaming `-` then `-`), not a flush; and a
//! segment built only from deltas that a tool event cut before its flush is remembered, so a
//! pre-tool flush arriving after `tool_call started` is still recognised and skipped. Empty text
//! never produces anything and never resets the accumulator.

use std::mem;

/// How an `assistant` event looks: a streaming delta (`timestamp_ms` without `model_call_id`)
/// or a whole segment (a flush, or a segment without partial output).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    Delta,
    Whole,
}

/// Text of one segment as accumulated from assistant events.
#[derive(Debug, Default)]
struct Segment {
    text: String,
    /// Events appended since the last flush or tool event.
    pieces: usize,
    /// Every appended event was a delta.
    only_deltas: bool,
}

impl Segment {
    fn push(&mut self, text: &str, shape: Shape) {
        self.only_deltas = (self.pieces == 0 || self.only_deltas) && shape == Shape::Delta;
        self.pieces += 1;
        self.text.push_str(text);
    }

    /// Does an event with `text` repeat this whole segment (a flush) rather than continue it?
    /// A single delta followed by an equal delta is the model repeating itself, not a flush.
    fn is_repeated_by(&self, text: &str, shape: Shape) -> bool {
        !self.text.is_empty()
            && self.text == text
            && (shape == Shape::Whole || self.pieces >= 2 || !self.only_deltas)
    }
}

/// The accumulator rule for assistant text (see the module docs): no duplicated and no lost text, with
/// and without `--stream-partial-output`.
#[derive(Debug, Default)]
pub(super) struct TextAccumulator {
    current: Segment,
    /// A delta-built segment a tool event ended before its flush arrived.
    cut: Option<Segment>,
}

impl TextAccumulator {
    /// The new text this assistant event adds, if any.
    pub(super) fn on_assistant(&mut self, text: String, shape: Shape) -> Option<String> {
        if text.is_empty() {
            return None;
        }
        let cut = self.cut.take();
        if cut.is_some_and(|segment| segment.is_repeated_by(&text, shape)) {
            return None;
        }
        if self.current.is_repeated_by(&text, shape) {
            self.current = Segment::default();
            return None;
        }
        self.current.push(&text, shape);
        Some(text)
    }

    /// A tool event ends the segment.
    pub(super) fn on_tool(&mut self) {
        let finished = mem::take(&mut self.current);
        if finished.pieces > 0 {
            self.cut = finished.only_deltas.then_some(finished);
        }
    }
}
