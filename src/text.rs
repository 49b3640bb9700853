//! Bounded text: cutting at character boundaries (by bytes or by characters, keeping the start,
//! the end, or both), one-line forms of what a program printed, and ANSI escape removal.
//!
//! Every limit that keeps a user-visible or prompt text within a size goes through here, so a
//! cut never splits a character and the marks (`…`) are the same everywhere.

use std::borrow::Cow;

/// The mark left where text was cut.
pub(crate) const ELLIPSIS: &str = "…";

/// The largest index `<= index` that is a character boundary of `text` (`text.len()` when
/// `index` is past the end).
pub(crate) fn floor_boundary(text: &str, index: usize) -> usize {
    if index >= text.len() {
        return text.len();
    }
    let mut end = index;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    end
}

/// The smallest index `>= index` that is a character boundary of `text`.
pub(crate) fn ceil_boundary(text: &str, index: usize) -> usize {
    if index >= text.len() {
        return text.len();
    }
    let mut start = index;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    start
}

/// The longest start of `text` within `limit` bytes.
pub(crate) fn clip_bytes(text: &str, limit: usize) -> &str {
    &text[..floor_boundary(text, limit)]
}

/// The longest end of `text` within `limit` bytes.
pub(crate) fn clip_bytes_end(text: &str, limit: usize) -> &str {
    &text[ceil_boundary(text, text.len().saturating_sub(limit))..]
}

/// `text` cut to at most `limit` bytes, with `…` after the cut (so a cut text is up to
/// `limit + 3` bytes).
pub(crate) fn ellipsize_bytes(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_string();
    }
    format!("{}{ELLIPSIS}", clip_bytes(text, limit))
}

/// At most `limit` characters, `…` at the end (counted) when cut.
pub(crate) fn clip_chars(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_string();
    }
    let kept: String = text.chars().take(limit.saturating_sub(1)).collect();
    format!("{kept}{ELLIPSIS}")
}

/// At most `limit` characters keeping the end, `…` at the start (counted) when cut.
pub(crate) fn clip_chars_end(text: &str, limit: usize) -> String {
    let count = text.chars().count();
    if count <= limit {
        return text.to_string();
    }
    let kept: String = text.chars().skip(count - limit.saturating_sub(1)).collect();
    format!("{ELLIPSIS}{kept}")
}

/// `text` within `limit` bytes plus a marker: when longer, its first and last `limit / 2`
/// bytes (cut back to line breaks where there is one) around the line `marker(omitted bytes)`.
pub(crate) fn clip_middle(
    text: &str,
    limit: usize,
    marker: impl FnOnce(usize) -> String,
) -> String {
    if text.len() <= limit {
        return text.to_string();
    }
    let half = limit / 2;
    let mut head_end = floor_boundary(text, half);
    if let Some(line) = text[..head_end].rfind('\n') {
        head_end = line;
    }
    let mut tail_start = ceil_boundary(text, text.len() - half);
    if let Some(line) = text[tail_start..].find('\n') {
        tail_start += line + 1;
    }
    let omitted = tail_start - head_end;
    format!(
        "{}\n{}\n{}",
        &text[..head_end],
        marker(omitted),
        &text[tail_start..]
    )
}

/// Whitespace runs as one space, ends trimmed (nothing else changed).
pub(crate) fn squash_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One line: ANSI escapes removed, control characters and whitespace runs become one space,
/// ends trimmed.
pub(crate) fn one_line(text: &str) -> String {
    let cleaned = strip_ansi(text);
    let mut out = String::with_capacity(cleaned.len());
    let mut space = false;
    for c in cleaned.chars() {
        if c.is_whitespace() || c.is_control() {
            space = !out.is_empty();
        } else {
            if space {
                out.push(' ');
                space = false;
            }
            out.push(c);
        }
    }
    out
}

/// Several lines: CRLF as LF, ANSI escapes and control characters other than newline and tab
/// removed.
pub(crate) fn multi_line(text: &str) -> String {
    strip_ansi(&text.replace("\r\n", "\n"))
        .chars()
        .filter(|c| *c == '\n' || *c == '\t' || !c.is_control())
        .collect()
}

/// Removes ANSI escape sequences (SGR colours and other CSI, OSC, two-byte escapes). Programs
/// colour their human output even on a pipe.
pub(crate) fn strip_ansi(text: &str) -> Cow<'_, str> {
    if !text.contains('\u{1b}') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        match chars.next() {
            // CSI: parameters and intermediates, then one final byte in '@'..='~'.
            Some('[') => {
                chars.by_ref().find(|c| ('@'..='~').contains(c));
            }
            // OSC: until BEL or ESC '\'.
            Some(']') => {
                while let Some(tail) = chars.next() {
                    if tail == '\u{7}' || (tail == '\u{1b}' && chars.next_if_eq(&'\\').is_some()) {
                        break;
                    }
                }
            }
            // Any other escape is two characters long.
            _ => {}
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests;
