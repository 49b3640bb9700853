//! CRLF line endings, blank lines and a final line without a newline.

use super::support as stream_support;

use stream_support::answer;
use stream_support::fixture;
use stream_support::parse;
use stream_support::parse_pieces;

#[test]
fn crlf_gives_the_same_items_as_lf() {
    let lf = fixture("maestro-04_partial_output");
    let crlf: Vec<u8> = lf
        .iter()
        .flat_map(|&b| {
            if b == b'\n' {
                vec![b'\r', b'\n']
            } else {
                vec![b]
            }
        })
        .collect();
    assert_eq!(parse(&crlf), parse(&lf));
    for cut in 0..crlf.len() {
        let (head, tail) = crlf.split_at(cut);
        assert_eq!(parse_pieces([head, tail]), parse(&lf), "cut at {cut}");
    }
}

#[test]
fn a_final_line_without_newline_is_parsed_at_finish() {
    let mut bytes = fixture("maestro-02_shell_tool_call");
    assert_eq!(bytes.pop(), Some(b'\n'));
    let items = parse(&bytes);
    assert!(
        stream_support::result(&items).is_some(),
        "the last line is the result"
    );
    assert_eq!(items, parse(&fixture("maestro-02_shell_tool_call")));
}

#[test]
fn blank_lines_and_surrounding_whitespace_are_ignored() {
    let line = r#"{"type":"assistant","message":{"content":[{"type":"text","text":"ok"}]}}"#;
    let stream = format!("\n\r\n   \n  {line}  \r\n\n");
    assert_eq!(answer(&parse(stream.as_bytes())), "ok");
}

#[test]
fn feeding_nothing_yields_nothing() {
    assert!(parse_pieces([&b""[..], b"", b""]).is_empty());
}
