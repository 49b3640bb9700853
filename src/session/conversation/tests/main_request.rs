//! The real main-thread request of `claude -p "hi"`: Cursor receives exactly "hi" — the
//! reminders, the `role:"system"` message, the system prompt and the tools are all gone.

use super::support::main_body;
use super::support::parse;
use crate::session::conversation::DEFAULT_TRANSCRIPT_LIMIT;
use crate::session::conversation::first_turn_prompt;
use crate::session::conversation::is_compaction_request;
use crate::session::conversation::is_subagent;
use crate::session::conversation::plugin_command;
use crate::session::conversation::session_id_from_metadata;
use crate::session::conversation::validate_for_cursor;

#[test]
fn prompt_is_exactly_the_users_words() {
    let req = parse(&main_body());
    let images = tempfile::tempdir().unwrap();
    let prompt = first_turn_prompt(&req, DEFAULT_TRANSCRIPT_LIMIT, images.path()).unwrap();
    assert_eq!(prompt.text(), "hi");
    assert_eq!(prompt.context, None);
    assert!(prompt.images.is_empty());
    assert_eq!(std::fs::read_dir(images.path()).unwrap().count(), 0);
}

#[test]
fn request_fields_are_read() {
    let req = parse(&main_body());
    assert_eq!(req.model, "multi/cursor/composer-2.5");
    assert!(req.stream);
    assert_eq!(req.max_tokens, Some(32000));
    assert_eq!(req.tools.len(), 12);
    let effort = req.output_config.as_ref().and_then(|c| c.effort.as_deref());
    assert_eq!(effort, Some("high"));
    assert_eq!(
        session_id_from_metadata(&req).as_deref(),
        Some("b6698957-e018-4501-9c10-235c8eb024b6")
    );
    assert!(validate_for_cursor(&req).is_ok());
    assert!(!is_subagent(&req));
    assert!(!is_compaction_request(&req));
    assert_eq!(plugin_command(&req), None);
}
