use super::*;
use crate::cursor::command::CursorMode;
use std::path::PathBuf;

fn surface(question: bool, plan: bool) -> Surface {
    Surface {
        question,
        plan_file: plan.then(|| PathBuf::from("/h/.claude/plans/p.md")),
        allow_actions: false,
        never_offer: Vec::new(),
        seed: "request-1".into(),
    }
}

fn material(plan: Option<Value>, questions: Option<Value>) -> Material {
    let mut material = Material::default();
    material.plan = plan;
    material.questions = questions;
    material
}

fn questions(options: usize) -> Value {
    let options: Vec<Value> = (0..options)
        .map(|i| json!({"id": format!("o{i}"), "label": format!("file{i}.txt")}))
        .collect();
    json!({"title": "Which file to edit?", "questions": [
        {"id": "q", "prompt": "Which file should I edit?", "options": options, "allowMultiple": false}
    ]})
}

#[test]
fn a_plan_goes_to_the_plan_file_claude_code_named() {
    let material = material(
        Some(json!({"name": "Add a flag", "plan": "1. Parse it"})),
        Some(questions(2)),
    );
    let offer = offer(&surface(true, true), &material, "chat").unwrap();
    assert_eq!(offer.tool, DialogTool::Write);
    assert_eq!(offer.input["file_path"], "/h/.claude/plans/p.md");
    assert!(
        offer.input["content"]
            .as_str()
            .unwrap()
            .contains("1. Parse it")
    );
    let PendingDialog::PlanWrite {
        write_id, exit_id, ..
    } = &offer.pending
    else {
        panic!("{:?}", offer.pending)
    };
    assert_eq!(write_id, &offer.id);
    assert_ne!(write_id, exit_id);
    // The same plan in the same chat gets the same ids (a re-send, a restarted gateway).
    assert_eq!(
        offer,
        super::offer(&surface(true, true), &material, "chat").unwrap()
    );
    // Without plan approval there is no plan dialog: the question is asked instead.
    let asked = super::offer(&surface(true, false), &material, "chat").unwrap();
    assert_eq!(asked.tool, DialogTool::AskUserQuestion);
    assert_eq!(
        super::offer(&surface(false, false), &material, "chat"),
        None
    );
}

#[test]
fn cursors_question_fits_the_dialog() {
    let material = material(None, Some(questions(2)));
    let offer = offer(&surface(true, false), &material, "chat").unwrap();
    assert_eq!(
        offer.input,
        json!({"questions": [{"question": "Which file should I edit?", "header": "Which file …",
            "multiSelect": false, "options": [
                {"label": "file0.txt", "description": "Cursor's option 1 of 2"},
                {"label": "file1.txt", "description": "Cursor's option 2 of 2"}]}]})
    );
    assert_eq!(
        offer.note,
        "[Cursor] Cursor asks you in Claude Code's question dialog."
    );
}

#[test]
fn more_options_or_questions_than_the_dialog_holds_are_cut_and_said() {
    let six = offer(
        &surface(true, false),
        &material(None, Some(questions(6))),
        "c",
    )
    .unwrap();
    assert_eq!(
        six.input["questions"][0]["options"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
    assert!(
        six.note
            .contains("has 6 options; the dialog shows the first 4"),
        "{}",
        six.note
    );
    assert!(
        six.note.contains("\"file4.txt\", \"file5.txt\""),
        "{}",
        six.note
    );

    let asked: Vec<Value> = (0..6)
        .map(|i| json!({"prompt": format!("Q{i}?"), "options": [{"label": "a"}, {"label": "a"}]}))
        .chain([json!({"prompt": "Only one?", "options": [{"label": "x"}]})])
        .collect();
    let many = offer(
        &surface(true, false),
        &material(None, Some(json!({"questions": asked}))),
        "c",
    )
    .unwrap();
    let held = many.input["questions"].as_array().unwrap();
    assert_eq!(held.len(), 4);
    // Labels made unique, in Cursor's order.
    assert_eq!(held[0]["options"][1]["label"], "a (2)");
    assert!(
        many.note.contains("Cursor also asked: Q4?; Q5?; Only one?"),
        "{}",
        many.note
    );
    let PendingDialog::Question { left_out, .. } = &many.pending else {
        panic!()
    };
    assert_eq!(left_out.len(), 3);

    // A question the dialog cannot hold at all opens nothing.
    let single = material(
        None,
        Some(json!({"questions": [{"prompt": "Sure?", "options": [{"label": "yes"}]}]})),
    );
    assert_eq!(offer(&surface(true, false), &single, "c"), None);
}

#[test]
fn words_where_no_dialog_can_open() {
    let plan = material(Some(json!({"plan": "x"})), None);
    assert!(
        in_words(&plan, CursorMode::Plan)
            .unwrap()
            .contains("send \"go ahead\"")
    );
    assert_eq!(in_words(&plan, CursorMode::Ask), None);
    let asked = material(None, Some(questions(2)));
    assert!(
        in_words(&asked, CursorMode::Ask)
            .unwrap()
            .contains("answer it in your next message")
    );
    assert_eq!(in_words(&Material::default(), CursorMode::Plan), None);
    let blocked = blocked_material();
    assert!(in_words(&blocked, CursorMode::Allowlist)
        .unwrap()
        .contains("add `Shell(curl)` for `curl -sI https://example.com`, `WebFetch(example.com)` for `https://example.com` to `permissions.allow`"));
    assert_eq!(
        in_words(&blocked, CursorMode::Ask),
        None,
        "read-only modes refuse by design"
    );
}

fn blocked_material() -> Material {
    let mut material = Material::default();
    material.blocked = vec![
        Blocked {
            what: "curl -sI https://example.com".into(),
            token: "Shell(curl)".into(),
        },
        Blocked {
            what: "https://example.com".into(),
            token: "WebFetch(example.com)".into(),
        },
    ];
    material
}

#[test]
fn a_blocked_action_is_offered_in_accept_edits_and_never_when_denied() {
    let mut surface = surface(true, false);
    assert_eq!(
        offer(&surface, &blocked_material(), "c"),
        None,
        "not in accept edits"
    );
    surface.allow_actions = true;
    let allow = offer(&surface, &blocked_material(), "c").unwrap();
    assert_eq!(allow.tool, DialogTool::AskUserQuestion);
    let question = &allow.input["questions"][0];
    assert_eq!(
        question["question"],
        "Cursor's allowlist blocked `curl -sI https://example.com`. Allow `Shell(curl)`?"
    );
    let labels: Vec<&str> = question["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["Allow once", "Allow in this workspace", "No"]);
    assert!(
        allow
            .note
            .contains("Also blocked: `https://example.com` (WebFetch(example.com))")
    );
    // A token a deny entry names is never offered; the next one is.
    surface.never_offer = vec!["Shell(curl:*)".into()];
    let next = offer(&surface, &blocked_material(), "c").unwrap();
    let PendingDialog::Allow { token, .. } = &next.pending else {
        panic!()
    };
    assert_eq!(token, "WebFetch(example.com)");
    surface.never_offer.push("WebFetch(*.com)".into());
    assert_eq!(offer(&surface, &blocked_material(), "c"), None);
}

#[test]
fn deny_entries_name_tokens_by_kind_and_glob() {
    let deny = |entries: &[&str]| entries.iter().map(ToString::to_string).collect::<Vec<_>>();
    assert!(denied("Shell(curl)", &deny(&["Shell(curl)"])));
    assert!(denied("Shell(curl)", &deny(&["Shell(*)"])));
    assert!(denied("Shell(curl)", &deny(&["Shell(cu*)"])));
    assert!(denied("Shell(curl)", &deny(&["Shell(curl:-X *)"])));
    assert!(!denied(
        "Shell(curl)",
        &deny(&["Shell(rm)", "WebFetch(curl)", "Read(**)"])
    ));
    assert!(denied("WebFetch(docs.rs)", &deny(&["WebFetch(*.rs)"])));
    assert!(
        denied("Shell(x)", &deny(&["Shell([)"])),
        "an unreadable glob counts as naming it"
    );
}
