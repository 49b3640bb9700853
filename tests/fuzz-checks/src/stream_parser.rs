//! The stream-json parser and event mapper (`cursor::stream`) on arbitrary agent output.
//!
//! Input: the bytes the agent writes on stdout (a seed is a real capture from
//! `tests/fixtures/cursor-stream`). Checked besides "no panic":
//! - feeding the bytes in arbitrary chunks (sizes drawn from a generator seeded by the input's
//!   hash) gives exactly the items and the same too-long-line verdict as one feed, with the
//!   default line limit and with a small one;
//! - the parser never holds more than its line limit between feeds;
//! - a second `finish` adds nothing.

use multi_cursor::cursor::stream::DEFAULT_MAX_LINE;
use multi_cursor::cursor::stream::StreamItem;
use multi_cursor::cursor::stream::StreamParser;

/// Items and whether any feed reported a too-long line.
fn parse(
    data: &[u8],
    max_line: usize,
    chunks: &mut dyn FnMut() -> usize,
) -> (Vec<StreamItem>, bool) {
    let mut parser = StreamParser::new(max_line);
    let mut out = Vec::new();
    let mut too_long = false;
    let mut rest = data;
    while !rest.is_empty() {
        let size = chunks().clamp(1, rest.len());
        let (chunk, tail) = rest.split_at(size);
        too_long |= parser.feed(chunk, &mut out).is_err();
        assert!(
            parser.buffered() <= max_line,
            "held {} bytes with a {max_line}-byte line limit",
            parser.buffered()
        );
        rest = tail;
    }
    too_long |= parser.finish(&mut out).is_err();
    let done = out.len();
    too_long |= parser.finish(&mut out).is_err();
    assert_eq!(out.len(), done, "a second finish produced items");
    (out, too_long)
}

/// FNV-1a, to seed the chunk generator from the input itself.
fn hash(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// splitmix64.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One input: panics when a property above does not hold.
pub fn check(data: &[u8]) {
    let seed = hash(data);
    let small_limit = 1 + (seed % 300) as usize;
    for max_line in [DEFAULT_MAX_LINE, small_limit] {
        let whole = parse(data, max_line, &mut || usize::MAX);
        let mut state = seed ^ max_line as u64;
        // Mostly small pieces (splits inside lines, inside UTF-8 characters, at `\r\n`), now
        // and then a large one.
        let mut sizes = move || match next(&mut state) % 8 {
            0 => (next(&mut state) % 4096) as usize,
            _ => 1 + (next(&mut state) % 16) as usize,
        };
        let chunked = parse(data, max_line, &mut sizes);
        assert_eq!(
            whole, chunked,
            "chunked parse differs (line limit {max_line})"
        );
    }
}
