//! Lines over 1 MB are normal and accepted; a line over the limit is an error, is dropped
//! without holding it in memory, and parsing resumes after it.

use super::support as stream_support;

use crate::cursor::events::ToolOutcome;
use crate::cursor::stream::StreamError;
use crate::cursor::stream::StreamParser;
use stream_support::completed_tools;
use stream_support::parse_pieces;

fn read_completed(content_len: usize) -> Vec<u8> {
    let content: String = "line of a big file\\n".repeat(content_len / 20 + 1);
    format!(
        r#"{{"type":"tool_call","subtype":"completed","call_id":"r1","tool_call":{{"readToolCall":{{"args":{{"path":"big.txt"}},"result":{{"success":{{"content":"{content}","totalLines":1}}}}}}}}}}"#
    )
    .into_bytes()
}

const NEXT: &[u8] =
    br#"{"type":"assistant","message":{"content":[{"type":"text","text":"after"}]}}"#;

#[test]
fn a_three_megabyte_line_is_accepted_in_64k_chunks() {
    let mut stream = read_completed(3 * 1024 * 1024);
    assert!(stream.len() > 3 * 1024 * 1024);
    stream.push(b'\n');
    let mut parser = StreamParser::default();
    let mut out = Vec::new();
    let mut max_held = 0;
    for chunk in stream.chunks(64 * 1024) {
        parser
            .feed(chunk, &mut out)
            .expect("within the default limit");
        max_held = max_held.max(parser.buffered());
    }
    parser.finish(&mut out).expect("finish");
    assert!(max_held < stream.len(), "only the incomplete line is held");
    assert_eq!(parser.buffered(), 0);
    let completed = completed_tools(&out);
    assert_eq!(completed.len(), 1);
    let ToolOutcome::Success { value } = completed[0].1 else {
        panic!("expected success");
    };
    let content = value["content"].as_str().expect("content");
    assert!(content.starts_with("line of a big file\n"));
    assert_eq!(
        content.len(),
        (3 * 1024 * 1024 / 20 + 1) * 19,
        "escapes decoded, nothing lost"
    );
    assert_eq!(
        parse_pieces([stream.as_slice()]),
        out,
        "one feed gives the same items"
    );
}

#[test]
fn a_line_over_the_limit_is_an_error_with_a_clear_message() {
    let limit = 1024;
    let mut stream = read_completed(4 * 1024);
    stream.push(b'\n');
    stream.extend_from_slice(NEXT);
    stream.push(b'\n');

    let mut parser = StreamParser::new(limit);
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for chunk in stream.chunks(100) {
        if let Err(error) = parser.feed(chunk, &mut out) {
            errors.push(error);
        }
        assert!(
            parser.buffered() <= limit,
            "held {} bytes",
            parser.buffered()
        );
    }
    parser.finish(&mut out).expect("finish");
    assert_eq!(
        errors,
        [StreamError::LineTooLong { limit }],
        "reported once"
    );
    let message = errors[0].to_string();
    assert!(message.contains("longer than 1024 bytes"), "{message}");
    assert_eq!(
        stream_support::answer(&out),
        "after",
        "parsing resumed after the long line"
    );
}

#[test]
fn an_over_long_line_inside_one_chunk_is_an_error_and_the_rest_of_the_chunk_is_kept() {
    let mut stream = read_completed(4 * 1024);
    stream.push(b'\n');
    stream.extend_from_slice(NEXT);
    stream.push(b'\n');
    let mut parser = StreamParser::new(1024);
    let mut out = Vec::new();
    assert_eq!(
        parser.feed(&stream, &mut out),
        Err(StreamError::LineTooLong { limit: 1024 })
    );
    assert_eq!(stream_support::answer(&out), "after");
}

#[test]
fn an_over_long_unterminated_tail_is_dropped_at_finish() {
    let stream = read_completed(4 * 1024);
    let result = stream_support::try_parse_pieces(1024, stream.chunks(512));
    assert_eq!(result, Err(StreamError::LineTooLong { limit: 1024 }));
    let mut parser = StreamParser::new(1024);
    let mut out = Vec::new();
    let _ = parser.feed(&stream, &mut out);
    parser.finish(&mut out).expect("finish");
    assert!(out.is_empty());
    assert_eq!(parser.buffered(), 0);
}

#[test]
fn a_line_of_exactly_the_limit_is_accepted() {
    let line = NEXT;
    let items =
        stream_support::try_parse_pieces(line.len(), [line, b"\n".as_slice()]).expect("fits");
    assert_eq!(stream_support::answer(&items), "after");
    let too_small = stream_support::try_parse_pieces(line.len() - 1, [line, b"\n".as_slice()]);
    assert_eq!(
        too_small,
        Err(StreamError::LineTooLong {
            limit: line.len() - 1
        })
    );
    assert_eq!(stream_support::answer(&parse_pieces([line])), "after");
}
