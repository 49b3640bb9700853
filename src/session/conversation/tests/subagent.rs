//! The real subagent (worker) request: recognised by its first system block, and Cursor
//! receives only the Agent tool's prompt.

use super::support::main_body;
use super::support::parse;
use super::support::subagent_body;
use crate::session::conversation::DEFAULT_TRANSCRIPT_LIMIT;
use crate::session::conversation::first_turn_prompt;
use crate::session::conversation::is_subagent;
use crate::session::conversation::session_id_from_metadata;
use serde_json::json;

#[test]
fn subagent_is_recognised_and_prompt_is_the_agent_prompt() {
    let req = parse(&subagent_body());
    assert!(is_subagent(&req));
    assert_eq!(
        session_id_from_metadata(&req).as_deref(),
        Some("d8a34e48-eaf8-4f93-82ac-e827cff8c575")
    );
    let images = tempfile::tempdir().unwrap();
    let prompt = first_turn_prompt(&req, DEFAULT_TRANSCRIPT_LIMIT, images.path()).unwrap();
    assert_eq!(prompt.text(), "Say WORKER_OK and nothing else.");
}

#[test]
fn main_request_and_string_system_are_not_subagents() {
    assert!(!is_subagent(&parse(&main_body())));
    let mut body = main_body();
    body["system"] = json!("x-anthropic-billing-header: cc_version=1; cc_is_subagent=true;\nrest");
    assert!(is_subagent(&parse(&body)));
    body["system"] = json!(null);
    assert!(!is_subagent(&parse(&body)));
}
