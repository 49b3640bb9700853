//! Every fixture fed in two pieces, cut at every byte boundary (inside UTF-8 characters,
//! inside `\n` escapes, right before and after newlines), gives the same items as one feed.

use super::support as stream_support;

use stream_support::fixtures;
use stream_support::parse;
use stream_support::parse_pieces;

#[test]
fn two_pieces_at_every_byte_boundary_give_identical_items() {
    for (name, bytes) in fixtures() {
        let whole = parse(&bytes);
        assert!(!whole.is_empty(), "{name} produced nothing");
        for cut in 0..=bytes.len() {
            let (head, tail) = bytes.split_at(cut);
            assert_eq!(
                parse_pieces([head, tail]),
                whole,
                "{name} cut at byte {cut}"
            );
        }
    }
}

#[test]
fn one_byte_at_a_time_gives_identical_items() {
    for (name, bytes) in fixtures() {
        let whole = parse(&bytes);
        assert_eq!(
            parse_pieces(bytes.chunks(1)),
            whole,
            "{name} fed byte by byte"
        );
    }
}
