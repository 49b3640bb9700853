//! Which of Claude Code's dialogs a request can open: read from the request itself, never
//! assumed. Measured on Claude Code 2.1.332:
//!
//! - `AskUserQuestion` is in the main thread's `tools` in manual and auto mode; it is absent
//!   from a worker's (subagent's) tools and from `-p` and stream-json sessions (where a
//!   `tool_use` of it only gets an error).
//! - Plan approval needs three things in the request: the plan-mode text ("Plan mode is
//!   active …") naming the plan file, in a `role:"system"` entry of `messages` (2.1.332) or a
//!   `<system-reminder>` block of a user message (2.1.328); `ExitPlanMode`
//!   listed (a deferred tool: named in that entry's list, or in `tools` once loaded); and the
//!   `Write` tool. `-p` sends the plan-mode text with `ExitPlanMode` disabled (not listed); in
//!   manual and auto mode the tool is listed but refused ("You are not in plan mode"), so the
//!   session's mode must be plan too — the plan-mode text stays in the history after the plan
//!   was approved.

use std::path::Path;
use std::path::PathBuf;

use serde_json::Value;

use super::DialogTool;
use crate::anthropic::request::MessagesRequest;
use crate::anthropic::request::Role;

/// How Claude Code's plan-mode instructions begin (2.1.328–2.1.337).
pub(crate) const PLAN_MODE_TEXT: &str = "Plan mode is active.";

/// What one request can open.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Surface {
    /// The question dialog (`AskUserQuestion` is in `tools`).
    pub question: bool,
    /// Plan approval, and the plan file it reads.
    pub plan_file: Option<PathBuf>,
    /// Actions Cursor's allowlist refused may be allowed in the question dialog: the session is
    /// in accept edits (where Claude would have asked) and the dialog is there.
    pub allow_actions: bool,
    /// Cursor's deny entries (project and global config, every Claude deny rule among them):
    /// a token one of them names is never offered.
    pub never_offer: Vec<String>,
    /// What makes this request's `tool_use` ids its own (its body's digest): a re-sent request
    /// opens the same dialog under the same id, a later one under a new id even when Cursor
    /// wrote the same plan again (Claude Code runs no second call of one id).
    pub seed: String,
}

impl Surface {
    /// No dialog: a worker, `-p`, or a request that offers none.
    pub fn none() -> Surface {
        Surface::default()
    }

    /// What `request` can open. `main_thread`: not a worker's request; `plan_mode`: the
    /// session is in plan mode as its hooks last said.
    pub(crate) fn of(request: &MessagesRequest, main_thread: bool, plan_mode: bool) -> Surface {
        if !main_thread {
            return Surface::none();
        }
        let tools = tool_names(request);
        let question = tools.contains(&DialogTool::AskUserQuestion.name());
        let plan_file = if plan_mode && tools.contains(&DialogTool::Write.name()) {
            let texts = system_texts(request);
            let listed = tools.contains(&DialogTool::ExitPlanMode.name())
                || texts
                    .iter()
                    .any(|text| text.lines().any(|line| line.trim() == "ExitPlanMode"));
            if listed { plan_file(&texts) } else { None }
        } else {
            None
        };
        Surface {
            question,
            plan_file,
            allow_actions: false,
            never_offer: Vec::new(),
            seed: String::new(),
        }
    }
}

/// The names in the request's `tools`.
fn tool_names(request: &MessagesRequest) -> Vec<&str> {
    request
        .tools
        .iter()
        .filter_map(|tool| tool.get("name").and_then(Value::as_str))
        .collect()
}

/// Claude Code's context in `messages`, oldest first: every `role:"system"` entry's text and
/// every user text holding a `<system-reminder>`.
fn system_texts(request: &MessagesRequest) -> Vec<&str> {
    request
        .messages
        .iter()
        .flat_map(|message| {
            message
                .content
                .texts()
                .into_iter()
                .filter(|text| match message.role {
                    Role::System => true,
                    Role::User => text.contains(REMINDER),
                    _ => false,
                })
        })
        .collect()
}

/// How Claude Code wraps its context inside a user message.
const REMINDER: &str = "<system-reminder>";

/// The plan file the newest plan-mode text names: the first absolute path ending in `.md`
/// after [`PLAN_MODE_TEXT`] ("… create your plan at `<path>` using the Write tool", or "A plan
/// file already exists at `<path>`"), with no `..` in it.
pub(crate) fn plan_file(texts: &[&str]) -> Option<PathBuf> {
    let text = texts.iter().rev().find(|t| t.contains(PLAN_MODE_TEXT))?;
    let after = &text[text.find(PLAN_MODE_TEXT)?..];
    after
        .split_whitespace()
        .map(|word| {
            word.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | ',' | ':' | ';' | '(' | ')'))
        })
        .map(|word| word.strip_suffix('.').unwrap_or(word))
        .filter(|word| word.ends_with(".md"))
        .map(Path::new)
        .find(|path| {
            path.is_absolute()
                && !path
                    .components()
                    .any(|c| matches!(c, std::path::Component::ParentDir))
        })
        .map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anthropic::request::parse;
    use serde_json::json;

    fn request(system: &str, tools: &[&str]) -> MessagesRequest {
        let tools: Vec<Value> = tools.iter().map(|t| json!({"name": t})).collect();
        parse(
            json!({"model": "multi/cursor/composer-2.5", "tools": tools, "messages": [
                {"role": "user", "content": "plan it"},
                {"role": "system", "content": [{"type": "text", "text": system}]}
            ]})
            .to_string()
            .as_bytes(),
        )
        .unwrap()
    }

    const PLAN_TEXT: &str = "The following deferred tools are now available via ToolSearch:\nEnterPlanMode\nExitPlanMode\nWebFetch\n\nPlan mode is active. The user indicated that they do not want you to execute yet.\n\n### Plan File Info:\nNo plan file exists yet. You should create your plan at /home/u/.claude/plans/planme-add-a-flag.md using the Write tool.\n";

    #[test]
    fn plan_mode_with_exit_plan_mode_listed_names_the_plan_file() {
        let surface = Surface::of(
            &request(PLAN_TEXT, &["Write", "AskUserQuestion"]),
            true,
            true,
        );
        assert_eq!(
            surface.plan_file,
            Some(PathBuf::from("/home/u/.claude/plans/planme-add-a-flag.md"))
        );
        assert!(surface.question);
    }

    #[test]
    fn the_plan_mode_reminder_of_2_1_328_counts_too() {
        let request = parse(
            json!({"model": "m", "tools": [{"name": "Write"}], "messages": [{"role": "user", "content": [
                {"type": "text", "text": "<system-reminder>\nThe following deferred tools are now available via ToolSearch.\nExitPlanMode\n</system-reminder>"},
                {"type": "text", "text": "<system-reminder>\nPlan mode is active. The user indicated …\n\n## Plan File Info:\nNo plan file exists yet. You should create your plan at /h/.claude/plans/plan-a-greeting-keen-papert.md using the Write tool.\n</system-reminder>"},
                {"type": "text", "text": "plan a greeting"}
            ]}]})
            .to_string()
            .as_bytes(),
        )
        .unwrap();
        assert_eq!(
            Surface::of(&request, true, true).plan_file,
            Some(PathBuf::from(
                "/h/.claude/plans/plan-a-greeting-keen-papert.md"
            ))
        );
        // The user's own words never count as Claude Code's context.
        let typed = parse(
            json!({"model": "m", "tools": [{"name": "Write"}], "messages": [{"role": "user", "content":
                "ExitPlanMode\nPlan mode is active. create your plan at /etc/x.md"}]})
            .to_string()
            .as_bytes(),
        )
        .unwrap();
        assert_eq!(Surface::of(&typed, true, true).plan_file, None);
    }

    #[test]
    fn an_existing_plan_file_is_named_too() {
        let text = "Plan mode is active.\n### Plan File Info:\nA plan file already exists at /h/.claude/plans/x.md. You can read it and make incremental edits using the Edit tool.";
        assert_eq!(
            plan_file(&[text]),
            Some(PathBuf::from("/h/.claude/plans/x.md"))
        );
    }

    #[test]
    fn no_plan_approval_without_each_of_its_parts() {
        // -p: the plan-mode text is sent, ExitPlanMode is not listed.
        let p_mode = PLAN_TEXT.replace("ExitPlanMode\n", "");
        assert_eq!(
            Surface::of(&request(&p_mode, &["Write"]), true, true).plan_file,
            None
        );
        // No Write tool.
        assert_eq!(
            Surface::of(&request(PLAN_TEXT, &["Read"]), true, true).plan_file,
            None
        );
        // The session left plan mode (the text stays in the history).
        assert_eq!(
            Surface::of(&request(PLAN_TEXT, &["Write"]), true, false).plan_file,
            None
        );
        // A worker gets nothing at all.
        assert_eq!(
            Surface::of(
                &request(PLAN_TEXT, &["Write", "AskUserQuestion"]),
                false,
                true
            ),
            Surface::none()
        );
        // A relative or climbing path is never a plan file.
        assert_eq!(
            plan_file(&["Plan mode is active. create your plan at plans/x.md"]),
            None
        );
        assert_eq!(plan_file(&["Plan mode is active. at /h/../etc/x.md"]), None);
    }
}
