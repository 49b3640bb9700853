//! Bodies that are not JSON, or not Messages requests, are refused with clear messages;
//! unknown fields and blocks are tolerated.

use super::support::parse;
use crate::anthropic::request::Content;
use crate::anthropic::request::ContentBlock;
use crate::anthropic::request::Role;
use crate::session::conversation::RequestError;
use crate::session::conversation::parse_request;
use serde_json::json;

#[test]
fn invalid_json_is_named() {
    let err = parse_request(b"{\"model\": ").unwrap_err();
    assert!(matches!(err, RequestError::InvalidJson(_)), "{err:?}");
    assert!(
        err.to_string()
            .starts_with("multi-cursor: the request body is not valid JSON: "),
        "{err}"
    );
}

#[test]
fn invalid_requests_are_named() {
    let err = parse_request(br#"{"messages": []}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "multi-cursor: the request body is not a valid Messages request: missing field `model` at line 1 column 16"
    );
    let err =
        parse_request(br#"{"model":"m","messages":[{"role":"user","content":[{"type":"text"}]}]}"#)
            .unwrap_err();
    assert!(
        err.to_string().contains("text block: missing field `text`"),
        "{err}"
    );
    let err =
        parse_request(br#"{"model":"m","messages":[{"role":"user","content":5}]}"#).unwrap_err();
    assert!(
        err.to_string()
            .contains("content must be a string or an array of blocks"),
        "{err}"
    );
}

#[test]
fn unknown_things_are_tolerated() {
    let req = parse(&json!({
        "model": "multi/cursor/default",
        "stream": null,
        "tools": null,
        "surprise": {"a": 1},
        "messages": [
            {"role": "developer", "content": "?"},
            {"role": "user", "content": [
                {"type": "future_block", "x": 1},
                {"type": "web_search_tool_result", "tool_use_id": "s", "content": []},
                {"type": "redacted_thinking", "data": "…"},
                {"type": "tool_result", "tool_use_id": "t", "content": null, "is_error": null},
                {"type": "image", "source": {"type": "file", "file_id": "f"}}
            ]}
        ]
    }));
    assert!(!req.stream);
    assert!(req.tools.is_empty());
    assert_eq!(req.messages[0].role, Role::Other);
    let Content::Blocks(blocks) = &req.messages[1].content else {
        panic!("blocks expected");
    };
    assert!(matches!(&blocks[0], ContentBlock::Unknown { kind, .. } if kind == "future_block"));
    assert!(
        matches!(&blocks[1], ContentBlock::ServerTool { kind, .. } if kind == "web_search_tool_result")
    );
    assert_eq!(blocks[2], ContentBlock::RedactedThinking);
    assert!(matches!(
        &blocks[3],
        ContentBlock::ToolResult {
            is_error: false,
            ..
        }
    ));
}
