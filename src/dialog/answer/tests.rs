use super::*;
use crate::anthropic::request::parse;
use serde_json::Value;
use serde_json::json;
use std::path::PathBuf;

fn approval() -> PendingDialog {
    PendingDialog::PlanApproval {
        write_id: "toolu_w".into(),
        exit_id: "toolu_x".into(),
        plan_file: PathBuf::from("/p.md"),
    }
}

fn question() -> PendingDialog {
    PendingDialog::Question {
        ask_id: "toolu_q".into(),
        left_out: Vec::new(),
    }
}

fn with_newest(blocks: Value) -> MessagesRequest {
    parse(
        json!({"model": "m", "messages": [
            {"role": "user", "content": "plan it"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_x", "name": "ExitPlanMode", "input": {}}]},
            {"role": "user", "content": blocks}
        ]})
        .to_string()
        .as_bytes(),
    )
    .unwrap()
}

fn result(id: &str, content: &str, is_error: bool) -> Value {
    json!({"type": "tool_result", "tool_use_id": id, "content": content, "is_error": is_error})
}

#[test]
fn each_plan_approval_outcome() {
    let yes = with_newest(json!([result(
        "toolu_x",
        "User has approved your plan. You can now start coding.\n\n## Approved Plan:\n1.",
        false
    )]));
    assert_eq!(
        read(&yes, &approval()),
        Some(DialogAnswer::PlanApproved { added: None })
    );
    let yes_and = with_newest(json!([
        result("toolu_x", "User has approved your plan. You can now start coding.", false),
        {"type": "text", "text": "Also add a -v short alias"}
    ]));
    assert_eq!(
        read(&yes_and, &approval()),
        Some(DialogAnswer::PlanApproved {
            added: Some("Also add a -v short alias".into())
        })
    );
    let change = with_newest(json!([result(
        "toolu_x",
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nAlso add a -v short alias",
        true
    )]));
    assert_eq!(
        read(&change, &approval()),
        Some(DialogAnswer::PlanChanges(
            "Also add a -v short alias".into()
        ))
    );
    let esc = with_newest(json!([
        result("toolu_x", "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.", true),
        {"type": "text", "text": "[Request interrupted by user for tool use]\n"},
        {"type": "text", "text": "next message"}
    ]));
    assert_eq!(read(&esc, &approval()), Some(DialogAnswer::Declined));
    let crashed = with_newest(json!([result(
        "toolu_x",
        "[Tool call interrupted: the session ended before this call's result was recorded, so its outcome is unknown.]",
        true
    )]));
    assert_eq!(read(&crashed, &approval()), Some(DialogAnswer::Declined));
    // An approval for another id answers nothing.
    let other = with_newest(json!([result(
        "toolu_other",
        "User has approved your plan.",
        false
    )]));
    assert_eq!(read(&other, &approval()), None);
}

#[test]
fn only_a_pick_or_typed_words_answer_a_question() {
    let pick = with_newest(json!([result(
        "toolu_q",
        "Your questions have been answered: \"Which file?\"=\"notes.txt\". You can now continue with these answers in mind.",
        false
    )]));
    let Some(DialogAnswer::Answered(text)) = read(&pick, &question()) else {
        panic!()
    };
    assert!(text.contains("\"Which file?\"=\"notes.txt\""));
    let typed = with_newest(json!([result(
        "toolu_q",
        "The user answered: \"Which file?\"=\"neither\". Read the answers carefully",
        false
    )]));
    assert!(matches!(
        read(&typed, &question()),
        Some(DialogAnswer::Answered(_))
    ));
    for declined in [
        result(
            "toolu_q",
            "No response after 8s — the user may be away from keyboard. Proceed using your best judgment",
            false,
        ),
        result(
            "toolu_q",
            "<tool_use_error>InputValidationError: [ ]</tool_use_error>",
            true,
        ),
        result(
            "toolu_q",
            "The user doesn't want to proceed with this tool use. … To tell you how to proceed, the user said:\nThe user wants to clarify these questions.",
            true,
        ),
    ] {
        assert_eq!(
            read(&with_newest(json!([declined])), &question()),
            Some(DialogAnswer::Declined)
        );
    }
}

#[test]
fn the_plan_files_write_result() {
    let pending = PendingDialog::PlanWrite {
        write_id: "toolu_w".into(),
        exit_id: "toolu_x".into(),
        plan_file: PathBuf::from("/p.md"),
    };
    let written = with_newest(json!([result(
        "toolu_w",
        "File created successfully at: /p.md (file state is current in your context — no need to Read it back)",
        false
    )]));
    assert_eq!(read(&written, &pending), Some(DialogAnswer::PlanWritten));
    let refused = with_newest(json!([result(
        "toolu_w",
        "The user doesn't want to proceed with this tool use.",
        true
    )]));
    assert_eq!(read(&refused, &pending), Some(DialogAnswer::Declined));
}

#[test]
fn cursor_is_told_the_answer_in_words() {
    assert!(
        prompt_for(&DialogAnswer::PlanApproved { added: None })
            .unwrap()
            .contains("Carry out the approved plan now.")
    );
    assert!(
        prompt_for(&DialogAnswer::PlanChanges("add -v".into()))
            .unwrap()
            .contains("wants changes before anything is done:\nadd -v")
    );
    assert_eq!(prompt_for(&DialogAnswer::Declined), None);
}

#[test]
fn only_claude_codes_words_for_a_pick_allow_an_action() {
    let question = "Cursor's allowlist blocked `curl x`. Allow `Shell(curl)`?";
    let pending = PendingDialog::Allow {
        ask_id: "toolu_q".into(),
        question: question.into(),
        what: "curl x".into(),
        token: "Shell(curl)".into(),
    };
    let pick = |label: &str| {
        with_newest(json!([result(
            "toolu_q",
            &format!(
                "Your questions have been answered: \"{question}\"=\"{label}\". You can now continue with these answers in mind.\n\n<system-reminder>x</system-reminder>"
            ),
            false
        )]))
    };
    assert_eq!(
        read(&pick("Allow once"), &pending),
        Some(DialogAnswer::Allowed(AllowScope::Once))
    );
    assert_eq!(
        read(&pick("Allow in this workspace"), &pending),
        Some(DialogAnswer::Allowed(AllowScope::Workspace))
    );
    assert_eq!(read(&pick("No"), &pending), Some(DialogAnswer::NotAllowed));
    // Typed words never allow, even the label's.
    let typed = with_newest(json!([result(
        "toolu_q",
        &format!("The user answered: \"{question}\"=\"Allow once\". Read the answers carefully"),
        false
    )]));
    assert!(matches!(
        read(&typed, &pending),
        Some(DialogAnswer::Answered(_))
    ));
    // A pick for another question, or an error, is no pick.
    let other = with_newest(json!([result(
        "toolu_q",
        "Your questions have been answered: \"x\"=\"Allow once\". You can",
        false
    )]));
    assert_eq!(read(&other, &pending), Some(DialogAnswer::Declined));
    let esc = with_newest(json!([result(
        "toolu_q",
        "The user doesn't want to proceed with this tool use.",
        true
    )]));
    assert_eq!(read(&esc, &pending), Some(DialogAnswer::Declined));
}
