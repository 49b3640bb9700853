//! What Cursor wanted, as the `tool_use` that opens Claude Code's dialog for it (or, where the
//! request can open none, in words).
//!
//! The question dialog's limits (Claude Code 2.1.332's `AskUserQuestion` schema): 1–4
//! questions, each with a `header` of at most 12 characters and 2–4 options, every option a
//! `label` and a `description`; question texts unique, labels unique within a question. Claude
//! Code adds a free-text row ("Type something.") to every question itself. Cursor's questions
//! are mapped in Cursor's order; what does not fit is cut and said in the note beside the dialog.

use std::path::Path;

use serde_json::Value;
use serde_json::json;

use super::DialogTool;
use super::answer::ALLOW_ONCE;
use super::answer::ALLOW_WORKSPACE;
use super::answer::DO_NOT_ALLOW;
use super::material::Blocked;
use super::material::Material;
use super::pending::PendingDialog;
use super::surface::Surface;
use super::tool_use_id;
use crate::cursor::command::CursorMode;
use crate::display::render_plan;
use crate::text::clip_chars;
use crate::text::one_line;

/// Questions one dialog holds.
pub(crate) const MAX_QUESTIONS: usize = 4;
/// Options one question holds.
pub(crate) const MAX_OPTIONS: usize = 4;
/// Characters of a question's header chip.
pub(crate) const HEADER_CHARS: usize = 12;
/// Characters of a question's text.
pub(crate) const QUESTION_CHARS: usize = 400;
/// Characters of an option's label.
pub(crate) const LABEL_CHARS: usize = 80;

/// A dialog to open at the end of an answer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Offer {
    /// A `[Cursor]` paragraph streamed before the `tool_use` (what opens, what was cut).
    pub note: String,
    /// The tool called.
    pub tool: DialogTool,
    /// The `tool_use` id.
    pub id: String,
    /// The `tool_use` input.
    pub input: Value,
    /// What the session then waits on.
    pub pending: PendingDialog,
}

/// The dialog `surface` can open for what Cursor wanted in a turn of `chat`: its plan first
/// (plan approval), else its questions. `None` when there is nothing to ask or no dialog for it.
pub(crate) fn offer(surface: &Surface, material: &Material, chat: &str) -> Option<Offer> {
    let seed = format!("{chat}\n{}", surface.seed);
    if let (Some(plan_file), Some(plan)) = (&surface.plan_file, &material.plan) {
        return Some(plan_offer(plan_file, &render_plan(plan), &seed));
    }
    if surface.question
        && let Some(questions) = &material.questions
        && let Some(offer) = question_offer(questions, &seed)
    {
        return Some(offer);
    }
    if surface.question && surface.allow_actions {
        let mut offerable = material
            .blocked
            .iter()
            .filter(|b| !denied(&b.token, &surface.never_offer));
        if let Some(first) = offerable.next() {
            let others: Vec<&Blocked> = offerable.collect();
            return Some(allow_offer(first, &others, &seed));
        }
    }
    None
}

/// "Allow once", "Allow in this workspace" or "No" for an action Cursor's allowlist refused.
fn allow_offer(blocked: &Blocked, others: &[&Blocked], seed: &str) -> Offer {
    let question = format!(
        "Cursor's allowlist blocked `{}`. Allow `{}`?",
        blocked.what, blocked.token
    );
    let options = [
        (
            ALLOW_ONCE,
            format!(
                "Add {} to .cursor/cli.json for one Cursor run, then put the file back",
                blocked.token
            ),
        ),
        (
            ALLOW_WORKSPACE,
            format!(
                "Add {} to this workspace's .cursor/cli.json allow list for good",
                blocked.token
            ),
        ),
        (DO_NOT_ALLOW, "Cursor does not run it".to_string()),
    ];
    let options: Vec<Value> = options
        .iter()
        .map(|(label, description)| json!({"label": label, "description": description}))
        .collect();
    let input = json!({"questions": [{"question": question, "header": "Allow?", "options": options, "multiSelect": false}]});
    let ask_id = tool_use_id(&[seed, "allow", &blocked.token, &blocked.what]);
    let mut note = String::from(
        "[Cursor] Cursor's allowlist blocked an action; allow it in Claude Code's question dialog.",
    );
    if !others.is_empty() {
        let more: Vec<String> = others
            .iter()
            .map(|b| format!("`{}` ({})", b.what, b.token))
            .collect();
        note.push_str(&format!(" Also blocked: {}.", more.join(", ")));
    }
    Offer {
        note,
        tool: DialogTool::AskUserQuestion,
        id: ask_id.clone(),
        input,
        pending: PendingDialog::Allow {
            ask_id,
            question,
            what: blocked.what.clone(),
            token: blocked.token.clone(),
        },
    }
}

/// Whether one of Cursor's deny entries names `token`: the same kind, and its argument (a
/// glob; a shell entry's command part before `:`) matches the token's. An entry whose glob
/// cannot be read counts as naming it.
pub(crate) fn denied(token: &str, deny: &[String]) -> bool {
    let Some((kind, argument)) = split_token(token) else {
        return true;
    };
    deny.iter()
        .filter_map(|entry| split_token(entry.trim()))
        .any(|(deny_kind, pattern)| {
            if !deny_kind.eq_ignore_ascii_case(kind) {
                return false;
            }
            let pattern = if kind == "Shell" {
                pattern.split(':').next().unwrap_or(pattern)
            } else {
                pattern
            };
            pattern == argument
                || globset::Glob::new(pattern)
                    .map_or(true, |glob| glob.compile_matcher().is_match(argument))
        })
}

/// `Kind(argument)` as its two parts.
fn split_token(token: &str) -> Option<(&str, &str)> {
    let (kind, rest) = token.split_once('(')?;
    Some((kind, rest.strip_suffix(')')?))
}

/// The plan written to the plan file Claude Code named; `ExitPlanMode` follows its result.
fn plan_offer(plan_file: &Path, plan: &str, seed: &str) -> Offer {
    let file = plan_file.to_string_lossy();
    let write_id = tool_use_id(&[seed, "plan-write", &file, plan]);
    let exit_id = tool_use_id(&[&write_id, "plan-exit"]);
    Offer {
        note: "[Cursor] Cursor's plan goes to Claude Code's plan approval.".to_string(),
        tool: DialogTool::Write,
        id: write_id.clone(),
        input: json!({"file_path": file, "content": format!("{plan}\n")}),
        pending: PendingDialog::PlanWrite {
            write_id,
            exit_id,
            plan_file: plan_file.to_path_buf(),
        },
    }
}

/// The `ExitPlanMode` call that opens "Ready to code?" once the plan file is written: its
/// input is `{}` (Claude Code reads the plan from the file).
pub(crate) fn exit_plan_mode() -> Value {
    json!({})
}

/// One Cursor question within the dialog's limits, or why it cannot be one.
struct Mapped {
    question: Value,
    cut: Option<String>,
}

/// Cursor's `askQuestion` arguments as `AskUserQuestion`'s input.
fn question_offer(args: &Value, seed: &str) -> Option<Offer> {
    let title = args
        .get("title")
        .and_then(Value::as_str)
        .map(one_line)
        .filter(|t| !t.is_empty());
    let header = clip_chars(title.as_deref().unwrap_or("Cursor"), HEADER_CHARS);
    let asked = args.get("questions").and_then(Value::as_array)?;
    let mut questions = Vec::new();
    let mut notes = Vec::new();
    let mut left_out = Vec::new();
    let mut seen = Vec::new();
    for question in asked {
        let Some(prompt) = question
            .get("prompt")
            .and_then(Value::as_str)
            .map(one_line)
            .filter(|p| !p.is_empty())
        else {
            continue;
        };
        let mut text = clip_chars(&prompt, QUESTION_CHARS);
        if seen.contains(&text) {
            text = clip_chars(&format!("{prompt} ({})", seen.len() + 1), QUESTION_CHARS);
        }
        if questions.len() == MAX_QUESTIONS {
            left_out.push(text);
            continue;
        }
        match map_question(question, &text, &header) {
            Some(mapped) => {
                notes.extend(mapped.cut);
                seen.push(text);
                questions.push(mapped.question);
            }
            None => left_out.push(text),
        }
    }
    if questions.is_empty() {
        return None;
    }
    let input = json!({"questions": questions});
    let ask_id = tool_use_id(&[seed, "question", &input.to_string()]);
    let mut note = String::from("[Cursor] Cursor asks you in Claude Code's question dialog.");
    for cut in notes {
        note.push_str(&format!(" {cut}"));
    }
    if !left_out.is_empty() {
        note.push_str(&format!(
            " The dialog holds {MAX_QUESTIONS} questions with 2 to {MAX_OPTIONS} options each; Cursor also asked: {}. Answer {} in your next message.",
            left_out.join("; "),
            if left_out.len() == 1 { "it" } else { "them" }
        ));
    }
    Some(Offer {
        note,
        tool: DialogTool::AskUserQuestion,
        id: ask_id.clone(),
        input,
        pending: PendingDialog::Question { ask_id, left_out },
    })
}

/// One question: its options in Cursor's order, labels unique, at most [`MAX_OPTIONS`] (the cut
/// said); `None` when fewer than two options remain (the dialog refuses such a question).
fn map_question(question: &Value, text: &str, header: &str) -> Option<Mapped> {
    let options: Vec<String> = question
        .get("options")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|o| {
            o.get("label")
                .or_else(|| o.get("id"))
                .and_then(Value::as_str)
        })
        .map(|label| clip_chars(&one_line(label), LABEL_CHARS))
        .filter(|label| !label.is_empty())
        .collect();
    let mut labels: Vec<String> = Vec::new();
    for label in &options {
        let mut unique = label.clone();
        let mut n = 2;
        while labels.contains(&unique) {
            unique = format!("{label} ({n})");
            n += 1;
        }
        labels.push(unique);
    }
    if labels.len() < 2 {
        return None;
    }
    let total = labels.len();
    let cut = (total > MAX_OPTIONS).then(|| {
        format!(
            "\"{text}\" has {total} options; the dialog shows the first {MAX_OPTIONS} (type another in \"Type something\"): not shown {}.",
            labels[MAX_OPTIONS..]
                .iter()
                .map(|l| format!("\"{l}\""))
                .collect::<Vec<_>>()
                .join(", ")
        )
    });
    labels.truncate(MAX_OPTIONS);
    let options: Vec<Value> = labels
        .iter()
        .enumerate()
        .map(|(i, label)| {
            json!({"label": label, "description": format!("Cursor's option {} of {total}", i + 1)})
        })
        .collect();
    let multi = question
        .get("allowMultiple")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    Some(Mapped {
        question: json!({"question": text, "header": header, "options": options, "multiSelect": multi}),
        cut,
    })
}

/// What Cursor wanted, in words, for a request that can open no dialog (`-p`, stream-json, a
/// worker): its plan waits for a "go ahead", its question for an answer in the next message, an
/// action its allowlist refused (in accept edits) for the entry that allows it. `mode`: the
/// Cursor mode the turn ran in.
pub fn in_words(material: &Material, mode: CursorMode) -> Option<String> {
    if mode == CursorMode::Plan && material.plan.is_some() {
        return Some(
            "[Cursor] This session cannot show Claude Code's plan approval. To have Cursor carry out the plan, leave plan mode for one that lets it edit (`--permission-mode acceptEdits` with `claude -p`, accept edits in the terminal) and send \"go ahead\": the same Cursor chat continues.".to_string(),
        );
    }
    if material.questions.is_some() {
        return Some("[Cursor] Cursor's question could not be put to you as a dialog here: answer it in your next message, and the same Cursor chat continues.".to_string());
    }
    if mode != CursorMode::Allowlist || material.blocked.is_empty() {
        return None;
    }
    let entries: Vec<String> = material
        .blocked
        .iter()
        .map(|b| format!("`{}` for `{}`", b.token, b.what))
        .collect();
    Some(format!(
        "[Cursor] Cursor's allowlist blocked what it wanted to run. To allow it, add {} to `permissions.allow` in `.cursor/cli.json` and send \"go ahead\": the same Cursor chat continues.",
        entries.join(", ")
    ))
}

#[cfg(test)]
mod tests;
