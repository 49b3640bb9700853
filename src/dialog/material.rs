//! What Cursor wanted to put to the user during a run, collected from its events: the plan of
//! a plan-mode run (`createPlanToolCall`) and the questions it asked (`askQuestionToolCall`,
//! which print mode rejects on its own: "Questions skipped by the user, …").
//!
//! It also collects the actions Cursor's allowlist refused (a shell command's `rejected`
//! result, a fetch print mode did not approve), each with the permission token that would allow
//! it, so the user can allow one in Claude Code's question dialog.
//!
//! A captured 2026.09.15 stream (`hcn0915-askquestion-rejected`) shows what Cursor does after
//! its question is rejected: it asks again in words and ends the turn. So the run is not
//! stopped at the question; the dialog follows the run's answer.

use std::collections::HashMap;

use serde_json::Value;

use crate::cursor::events::QueryKind;
use crate::cursor::events::RunEvent;
use crate::cursor::events::ToolOutcome;
use crate::cursor::events::url_host;
use crate::text::clip_chars;
use crate::text::one_line;

/// Tool calls whose arguments are remembered until they complete (a rejected call's completed
/// event carries none).
const REMEMBERED_CALLS: usize = 64;

/// The tools whose refused calls can be allowed ([`blocked`]).
const ALLOWABLE_TOOLS: [&str; 2] = ["shell", "webFetch"];

/// Characters of a blocked command as the dialog shows it.
const WHAT_CHARS: usize = 200;

/// An action Cursor's allowlist refused, and the token that would allow it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocked {
    /// What was refused, one line: the command line, or the URL.
    pub what: String,
    /// The Cursor permission token that allows it (`Shell(curl)`, `WebFetch(example.com)`).
    pub token: String,
}

/// Cursor's plan and questions of one turn (the newest of each).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Material {
    /// The `createPlan` call's arguments (`name`, `overview`, `plan`, `todos`).
    pub plan: Option<Value>,
    /// The `askQuestion` call's arguments (`title`, `questions[{id, prompt, options[{id,
    /// label}], allowMultiple}]`).
    pub questions: Option<Value>,
    /// What Cursor's allowlist refused, in order, each token once.
    pub blocked: Vec<Blocked>,
    /// The arguments of started calls, by call id.
    started: HashMap<String, Value>,
}

impl Material {
    /// Takes what `event` carries.
    pub fn observe(&mut self, event: &RunEvent) {
        let call = match event {
            RunEvent::ToolStarted { call } | RunEvent::ToolCompleted { call, .. } => call,
            _ => return,
        };
        if let RunEvent::ToolCompleted { outcome, .. } = event {
            let args = if call.args.is_null() {
                self.started.remove(&call.call_id).unwrap_or(Value::Null)
            } else {
                self.started.remove(&call.call_id);
                call.args.clone()
            };
            if let Some(blocked) = blocked(&call.tool, &args, outcome)
                && !self.blocked.iter().any(|b| b.token == blocked.token)
            {
                self.blocked.push(blocked);
            }
        }
        if call.args.is_null() {
            return;
        }
        // Only the calls an allowlist refusal is offered for: an edit's arguments carry whole
        // files, and every call passes here.
        if matches!(event, RunEvent::ToolStarted { .. })
            && ALLOWABLE_TOOLS.contains(&call.tool.as_str())
            && self.started.len() < REMEMBERED_CALLS
        {
            self.started.insert(call.call_id.clone(), call.args.clone());
        }
        match call.tool.as_str() {
            "createPlan" => self.plan = Some(call.args.clone()),
            "askQuestion" => self.questions = Some(call.args.clone()),
            _ => {}
        }
    }
}

/// The refused action of a completed call, when it is one the user could allow: a shell
/// command of one simple command, or a fetch of a URL with a host.
fn blocked(tool: &str, args: &Value, outcome: &ToolOutcome) -> Option<Blocked> {
    match (tool, outcome) {
        ("shell", ToolOutcome::Rejected { value, .. }) => {
            let command = value
                .get("command")
                .or_else(|| args.get("command"))
                .and_then(Value::as_str)
                .map(one_line)
                .filter(|c| !c.is_empty())?;
            let simple: Vec<&str> = args
                .get("simpleCommands")
                .and_then(Value::as_array)
                .map(|names| names.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let base = match simple.as_slice() {
                [one] => one.to_string(),
                [] => command.split_whitespace().next()?.to_string(),
                _ => return None,
            };
            let plain =
                |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | '+');
            if base.is_empty() || !base.chars().all(plain) {
                return None;
            }
            Some(Blocked {
                what: clip_chars(&command, WHAT_CHARS),
                token: format!("Shell({base})"),
            })
        }
        (
            _,
            ToolOutcome::Unapproved {
                query: QueryKind::WebFetch,
                ..
            },
        )
        | ("webFetch", ToolOutcome::Rejected { .. }) => {
            let url = args.get("url").and_then(Value::as_str).map(one_line)?;
            let host = host_of(&url)?;
            Some(Blocked {
                what: clip_chars(&url, WHAT_CHARS),
                token: format!("WebFetch({host})"),
            })
        }
        _ => None,
    }
}

/// The host of a URL ([`url_host`]), only when it holds nothing a host cannot (a permission
/// token must not be widened by what a URL smuggles in).
fn host_of(url: &str) -> Option<String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '.');
    url_host(url).filter(|host| host.chars().all(plain))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cursor::events::ToolCall;
    use serde_json::json;

    fn started(tool: &str, args: Value) -> RunEvent {
        RunEvent::ToolStarted {
            call: ToolCall {
                call_id: "c".into(),
                tool: tool.into(),
                args,
            },
        }
    }

    #[test]
    fn plans_and_questions_are_kept_and_other_calls_are_not() {
        let mut material = Material::default();
        material.observe(&started("read", json!({"path": "a"})));
        assert_eq!((&material.plan, &material.questions), (&None, &None));
        material.observe(&started("createPlan", json!({"name": "P"})));
        material.observe(&started("askQuestion", json!({"title": "Q"})));
        // A completed event without args keeps what the started one said.
        material.observe(&started("askQuestion", Value::Null));
        assert_eq!(material.plan, Some(json!({"name": "P"})));
        assert_eq!(material.questions, Some(json!({"title": "Q"})));
    }

    fn completed(id: &str, tool: &str, outcome: ToolOutcome) -> RunEvent {
        RunEvent::ToolCompleted {
            call: ToolCall {
                call_id: id.into(),
                tool: tool.into(),
                args: Value::Null,
            },
            outcome,
        }
    }

    #[test]
    fn what_the_allowlist_refused_is_kept_with_its_token() {
        let mut material = Material::default();
        let mut shell = started(
            "shell",
            json!({"command": "curl -sI https://example.com", "simpleCommands": ["curl"]}),
        );
        if let RunEvent::ToolStarted { call } = &mut shell {
            call.call_id = "s1".into();
        }
        material.observe(&shell);
        let rejected = ToolOutcome::Rejected {
            reason: String::new(),
            value: json!({"command": "curl -sI https://example.com", "reason": ""}),
        };
        material.observe(&completed("s1", "shell", rejected.clone()));
        // The same token again is not listed twice.
        material.observe(&completed("s2", "shell", rejected));
        let mut fetch = started("webFetch", json!({"url": "https://Example.com/a?b"}));
        if let RunEvent::ToolStarted { call } = &mut fetch {
            call.call_id = "f1".into();
        }
        material.observe(&fetch);
        material.observe(&completed(
            "f1",
            "webFetch",
            ToolOutcome::Unapproved {
                query: QueryKind::WebFetch,
                reason: "User Rejected".into(),
            },
        ));
        assert_eq!(
            material.blocked,
            [
                Blocked {
                    what: "curl -sI https://example.com".into(),
                    token: "Shell(curl)".into()
                },
                Blocked {
                    what: "https://Example.com/a?b".into(),
                    token: "WebFetch(example.com)".into()
                },
            ]
        );
    }

    #[test]
    fn nothing_that_would_widen_a_token_is_offered() {
        let pipe = ToolOutcome::Rejected {
            reason: String::new(),
            value: json!({"command": "curl x | sh"}),
        };
        assert_eq!(
            blocked("shell", &json!({"simpleCommands": ["curl", "sh"]}), &pipe),
            None
        );
        let odd = ToolOutcome::Rejected {
            reason: String::new(),
            value: json!({"command": "cu*rl) x"}),
        };
        assert_eq!(blocked("shell", &json!({}), &odd), None);
        assert_eq!(host_of("https://a.com)(x/"), None);
        assert_eq!(
            host_of("https://user:pw@Docs.rs:443/x"),
            Some("docs.rs".into())
        );
    }
}
