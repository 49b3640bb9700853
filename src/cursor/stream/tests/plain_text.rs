//! The CLI's plain-text failures are recognised (each kind, on stdout through the parser and on
//! stderr through `classify_plain_text`); other plain text is noise and skipped.

use super::support as stream_support;

use crate::cursor::CliFailure;
use crate::cursor::failure::classify_plain_text;
use stream_support::events;
use stream_support::failures;
use stream_support::parse;

const AUTH: &str = "Error: Authentication required. Run 'agent login', pass --api-key/--auth-token, or set CURSOR_API_KEY/CURSOR_AUTH_TOKEN.";
const MODEL: &str = "Cannot use this model: claude-4.6-sonnet. Available models: auto, composer-1.5, sonnet-4.6, opus-4.6, opus-4.5";
const RATE: &str = "Rate limit exceeded, try again later";
const TRUST_BLOCK: &str = "⚠ Workspace Trust Required\n  Cursor Agent can execute code and access files in this directory.\n  To proceed, you can either:\n    • Run 'agent' interactively to decide\n    • Pass --trust, --yolo, or -f if you trust this directory\n";

#[test]
fn each_kind_is_classified_with_the_cli_words() {
    assert_eq!(
        classify_plain_text(AUTH),
        Some(CliFailure::AuthRequired(AUTH.to_owned()))
    );
    assert_eq!(
        classify_plain_text(MODEL),
        Some(CliFailure::BadModel(MODEL.to_owned()))
    );
    assert_eq!(
        classify_plain_text(RATE),
        Some(CliFailure::RateLimited(RATE.to_owned()))
    );
    assert_eq!(
        classify_plain_text("⚠ Workspace Trust Required"),
        Some(CliFailure::WorkspaceTrust(
            "⚠ Workspace Trust Required".to_owned()
        ))
    );
    assert_eq!(
        classify_plain_text("Error: 429 Too Many Requests"),
        Some(CliFailure::RateLimited(
            "Error: 429 Too Many Requests".to_owned()
        ))
    );
}

#[test]
fn colours_and_whitespace_are_removed_from_the_words() {
    let coloured = format!("\u{1b}[31m{AUTH}\u{1b}[0m  \r");
    assert_eq!(
        classify_plain_text(&coloured),
        Some(CliFailure::AuthRequired(AUTH.to_owned()))
    );
    assert_eq!(
        classify_plain_text("  error: authentication required  "),
        Some(CliFailure::AuthRequired(
            "error: authentication required".to_owned()
        ))
    );
}

#[test]
fn noise_is_not_a_failure() {
    for noise in [
        "",
        "   ",
        "正在写入 Web 请求",
        "Loading…",
        "[1/3] warming up",
        "\u{1b}[2K",
    ] {
        assert_eq!(classify_plain_text(noise), None, "{noise:?}");
    }
}

#[test]
fn the_trust_block_is_one_failure_carrying_its_words() {
    let items = parse(TRUST_BLOCK.as_bytes());
    let found = failures(&items);
    assert_eq!(found.len(), 1, "{items:?}");
    let CliFailure::WorkspaceTrust(words) = found[0] else {
        panic!("expected a trust failure, got {:?}", found[0]);
    };
    assert_eq!(
        words,
        "⚠ Workspace Trust Required Cursor Agent can execute code and access files in this directory. \
         To proceed, you can either: • Run 'agent' interactively to decide • Pass --trust, --yolo, \
         or -f if you trust this directory"
    );
}

#[test]
fn the_trust_block_ends_at_the_next_unindented_line() {
    let stream = format!("{TRUST_BLOCK}\n{AUTH}\n");
    let items = parse(stream.as_bytes());
    let found = failures(&items);
    assert_eq!(found.len(), 2);
    assert!(
        matches!(found[0], CliFailure::WorkspaceTrust(words) if words.ends_with("trust this directory"))
    );
    assert_eq!(found[1], &CliFailure::AuthRequired(AUTH.to_owned()));
}

#[test]
fn the_trust_block_ends_at_a_json_line() {
    let stream = format!(
        "{TRUST_BLOCK}{}\n",
        r#"{"type":"system","subtype":"init","session_id":"c"}"#
    );
    let items = parse(stream.as_bytes());
    assert!(matches!(
        &items[0],
        crate::cursor::stream::StreamItem::Failure(CliFailure::WorkspaceTrust(_))
    ));
    assert_eq!(events(&items).len(), 1);
}

#[test]
fn failures_on_stdout_are_reported_in_order_and_noise_is_skipped() {
    let init = r#"{"type":"system","subtype":"init","session_id":"c","model":"Auto"}"#;
    let stream = format!("some progress text\n{AUTH}\n{init}\nmore noise\n{RATE}\n{MODEL}");
    let items = parse(stream.as_bytes());
    assert_eq!(
        failures(&items),
        [
            &CliFailure::AuthRequired(AUTH.to_owned()),
            &CliFailure::RateLimited(RATE.to_owned()),
            &CliFailure::BadModel(MODEL.to_owned()),
        ]
    );
    assert_eq!(events(&items).len(), 1);
}

#[test]
fn malformed_json_and_unknown_types_are_skipped() {
    let stream = concat!(
        "{\"type\":\"assistant\",\"message\":\n",
        "{\"type\":\"retry\",\"subtype\":\"unheard_of\",\"attempt\":6,\"is_resume\":true}\n",
        "{\"type\":\"interaction_query\",\"whatever\":[1,2]}\n",
        "{\"type\":\"thinking\",\"subtype\":\"completed\"}\n",
        "{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"hi\"},{\"type\":\"image\"},{\"type\":\"text\",\"text\":\" there\"}]},\"extra\":{\"a\":1}}\n",
    );
    let items = parse(stream.as_bytes());
    assert_eq!(
        items,
        [crate::cursor::stream::StreamItem::Event(
            crate::cursor::events::RunEvent::UserEcho {
                text: "hi there".to_owned()
            }
        )]
    );
}
