//! This plugin's slash commands are recognised in the newest user turn only.

use super::support::main_body;
use super::support::parse;
use super::support::push;
use super::support::set_first_prompt;
use crate::session::conversation::plugin_command;
use serde_json::json;

const LOGIN: &str = "<command-message>multi-cursor:login is running…</command-message>\n<command-name>/multi-cursor:login</command-name>\n<command-args></command-args>";

#[test]
fn plugin_command_is_named() {
    let mut body = main_body();
    set_first_prompt(&mut body, LOGIN);
    assert_eq!(plugin_command(&parse(&body)).as_deref(), Some("login"));
}

#[test]
fn other_commands_and_earlier_turns_are_ignored() {
    let mut body = main_body();
    set_first_prompt(&mut body, "<command-name>/clear</command-name>");
    assert_eq!(plugin_command(&parse(&body)), None);

    let mut body = main_body();
    set_first_prompt(&mut body, LOGIN);
    push(&mut body, "assistant", json!("Logged in."));
    push(&mut body, "user", json!("now fix the bug"));
    assert_eq!(plugin_command(&parse(&body)), None);
}
