//! Glob rules are enforced over real turns: the fake agent's first turn edits
//! `src/components/Button.tsx`, which attaches the `frontend` rule (once, with a display row);
//! the second turn's prompt (a `--resume` of the same chat) carries the rule's text, and a
//! second matching edit does not attach it again.

use multi_cursor_test_support::process as process_support;

use std::time::Duration;

use multi_cursor::cursor::events::RunEvent;
use multi_cursor::cursor::process::RunOutput;
use multi_cursor::rules::ChatRules;
use multi_cursor::rules::Rulebook;
use process_support::Sandbox;
use process_support::drain;
use process_support::limits;
use process_support::resumed_chat;
use process_support::spawn;

const INIT: &str = r#"{"type":"system","subtype":"init","apiKeySource":"login","cwd":"{{workspace_json}}","session_id":"{{chat_id}}","model":"Auto","permissionMode":"default"}"#;
const RESULT: &str = r#"{"type":"result","subtype":"success","duration_ms":5,"duration_api_ms":5,"is_error":false,"result":"done","session_id":"{{chat_id}}","request_id":"{{request_id}}"}"#;

fn edit(call_id: &str, path: &str) -> String {
    let started = format!(
        r#"{{"type":"tool_call","subtype":"started","call_id":"{call_id}","tool_call":{{"editToolCall":{{"args":{{"path":"{path}","streamContent":"export const x = 1;\n"}}}}}},"session_id":"{{{{chat_id}}}}"}}"#
    );
    let completed = format!(
        r#"{{"type":"tool_call","subtype":"completed","call_id":"{call_id}","tool_call":{{"editToolCall":{{"args":{{"path":"{path}","streamContent":"export const x = 1;\n"}},"result":{{"success":{{"path":"{path}","linesAdded":1,"linesRemoved":0}}}}}}}},"session_id":"{{{{chat_id}}}}"}}"#
    );
    format!("{started}\n{completed}\n")
}

fn read(call_id: &str, path: &str) -> String {
    format!(
        r#"{{"type":"tool_call","subtype":"started","call_id":"{call_id}","tool_call":{{"readToolCall":{{"args":{{"path":"{path}"}}}}}},"session_id":"{{{{chat_id}}}}"}}"#
    ) + "\n"
}

/// One turn: the prompt goes in, events come out; tool calls attach rules to `chat`.
async fn turn(
    sandbox: &Sandbox,
    book: &Rulebook,
    chat: &mut ChatRules,
    chat_id: Option<&str>,
    user: &str,
) -> (String, Vec<String>) {
    let preamble = book.prompt_preamble(chat, chat_id.is_none(), user);
    let mut spec = sandbox.spec(chat_id);
    spec.prompt = match preamble {
        Some(rules) => format!("{rules}\n\n{user}"),
        None => user.to_string(),
    };
    let mut run = spawn(&sandbox.agent, &spec, limits()).unwrap();
    let (outputs, error) = drain(&mut run, Duration::from_secs(10)).await;
    assert!(error.is_none(), "{error:?}");
    let mut id = String::new();
    let mut rows = Vec::new();
    for output in outputs {
        let RunOutput::Event(event) = output else {
            continue;
        };
        match &event {
            RunEvent::Init { chat_id, .. } => id = chat_id.clone(),
            RunEvent::ToolStarted { call } | RunEvent::ToolCompleted { call, .. } => {
                let attached = book.attach_for_tool_call(call, &chat.attached_rules);
                rows.extend(attached.iter().map(multi_cursor::rules::Attachment::row));
                chat.note_attachments(&attached);
            }
            _ => {}
        }
    }
    (id, rows)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_touched_file_attaches_its_rule_on_the_next_turn_once() {
    let scenarios = tempfile::tempdir().unwrap();
    std::fs::write(
        scenarios.path().join("01-first.ndjson"),
        format!(
            "{INIT}\n{}{}{RESULT}\n",
            read("r1", "README.md"),
            edit("e1", "{{workspace_json}}/src/components/Button.tsx")
        ),
    )
    .unwrap();
    std::fs::write(
        scenarios.path().join("02-second.ndjson"),
        format!(
            "{INIT}\n{}{RESULT}\n",
            edit("e2", "src/components/Card.tsx")
        ),
    )
    .unwrap();
    let sandbox = Sandbox::from_file(scenarios.path(), &[]);
    let ws = &sandbox.workspace;
    std::fs::create_dir_all(ws.join(".git")).unwrap();
    std::fs::create_dir_all(ws.join(".claude/rules")).unwrap();
    std::fs::write(
        ws.join(".claude/rules/style.md"),
        "Prefer small functions.\n",
    )
    .unwrap();
    std::fs::write(
        ws.join(".claude/rules/frontend.md"),
        "---\npaths: src/components/**/*.tsx\n---\nFRONTEND RULE: function components only.\n",
    )
    .unwrap();
    let book = Rulebook::load(ws, None);
    let mut chat = ChatRules::default();

    let (chat_id, rows) = turn(&sandbox, &book, &mut chat, None, "Add a button.").await;
    assert!(!chat_id.is_empty());
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(
        rows[0].contains("`frontend`") && rows[0].contains("Button.tsx"),
        "{rows:?}"
    );
    assert_eq!(chat.pending_rules, ["frontend"]);

    let (same_chat, rows) = turn(&sandbox, &book, &mut chat, Some(&chat_id), "Now a card.").await;
    assert_eq!(same_chat, chat_id);
    assert!(rows.is_empty(), "attached once per chat: {rows:?}");
    assert!(chat.attached_rules.contains("frontend"));
    assert!(chat.pending_rules.is_empty());

    let log = sandbox.log_lines();
    let turns: Vec<_> = log.iter().filter(|l| l["kind"] == "turn").collect();
    assert_eq!(turns.len(), 2);
    let first = turns[0]["stdin"].as_str().unwrap();
    assert!(first.contains("Prefer small functions."));
    assert!(first.contains("`frontend`: applies to files matching `src/components/**/*.tsx`"));
    assert!(!first.contains("FRONTEND RULE"));
    let second = turns[1]["stdin"].as_str().unwrap();
    assert!(second.contains("<project-rules-attached>"), "{second}");
    assert!(second.contains("FRONTEND RULE: function components only."));
    assert!(second.ends_with("Now a card."));
    assert!(
        !second.contains("Prefer small functions."),
        "the rulebook is sent once"
    );
    assert_eq!(resumed_chat(turns[1]).as_deref(), Some(chat_id.as_str()));
}
