//! count_tokens gets a cheap local estimate: a quarter of the bytes of what is counted.

use super::support::fixture;
use super::support::main_body;
use super::support::parse;
use crate::session::conversation::estimate_tokens;
use serde_json::json;

#[test]
fn count_tokens_request_is_estimated() {
    let req = parse(&fixture("count-tokens-request-example.json")["body"]);
    // "foo": 3 bytes → 1 token.
    assert_eq!(estimate_tokens(&req), 1);
}

#[test]
fn images_system_and_tools_count() {
    let req = parse(&json!({
        "model": "m",
        "system": "abcd",
        "tools": [{"name": "x"}],
        "messages": [{"role": "user", "content": [
            {"type": "text", "text": "12345678"},
            {"type": "image", "source": {"type": "url", "url": "https://e/x.png"}}
        ]}]
    }));
    // 8 + 4 + len({"name":"x"}) = 24 bytes → 6 tokens, plus one image.
    assert_eq!(estimate_tokens(&req), 6 + 1600);
}

#[test]
fn the_real_request_counts_its_system_prompt_and_tools() {
    let req = parse(&main_body());
    let estimate = estimate_tokens(&req);
    assert!((5_000..20_000).contains(&estimate), "{estimate}");
}
