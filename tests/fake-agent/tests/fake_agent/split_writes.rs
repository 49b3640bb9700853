//! `#!chunk` and `#!split` deliver a line in several writes that a reader sees as partial reads,
//! and the bytes are exactly those of an unsplit replay.

use crate::common;

use common::Scratch;
use common::read_in_pieces;

const LINE: &str = r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"héllo ✓"}]},"session_id":"s"}"#;

#[test]
fn chunked_lines_arrive_as_partial_reads() {
    let scratch = Scratch::new("chunk");
    let scenario = scratch.write("chunked", &format!("#!chunk 9 5ms\n{LINE}\n{LINE}\n"));
    let reads = read_in_pieces(&scenario);
    assert!(
        reads.len() > 2,
        "expected several partial reads, got {reads:?}"
    );
    assert!(
        reads.iter().any(|read| !read.ends_with(b"\n")),
        "some read should end inside a line"
    );
    assert_eq!(reads.concat(), format!("{LINE}\n{LINE}\n").into_bytes());
}

#[test]
fn split_offsets_cut_one_line_where_asked() {
    let scratch = Scratch::new("split");
    let scenario = scratch.write("split", &format!("#!split 5,20 100ms\n{LINE}\nnext\n"));
    let reads = read_in_pieces(&scenario);
    let ends: Vec<usize> = reads
        .iter()
        .scan(0, |total, read| {
            *total += read.len();
            Some(*total)
        })
        .collect();
    assert!(
        ends.contains(&5) && ends.contains(&20),
        "reads should end at the split offsets: {ends:?}"
    );
    assert_eq!(reads.concat(), format!("{LINE}\nnext\n").into_bytes());
}

#[test]
fn raw_text_leaves_the_last_line_incomplete() {
    let scratch = Scratch::new("raw");
    let scenario = scratch.write("raw", "{\"a\":1}\n#!raw {\"type\":\"resu\n");
    assert_eq!(
        read_in_pieces(&scenario).concat(),
        b"{\"a\":1}\n{\"type\":\"resu".to_vec()
    );
}
