//! What Cursor wanted to put to the user during a run, collected from its events: the plan of
//! a plan-mode run (`createPlanToolCall`) and the questions it asked (`askQuestionToolCall`,
//! which print mode rejects on its own: "Questions skipped by the user, …").
//!
//! A captured 2026.09.15 stream (`hcn0915-askquestion-rejected`) shows what Cursor does after
//! its question is rejected: it asks again in words and ends the turn. So the run is not
//! stopped at the question; the dialog follows the run's answer.

use serde_json::Value;

use crate::cursor::events::RunEvent;

/// Cursor's plan and questions of one turn (the newest of each).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Material {
    /// The `createPlan` call's arguments (`name`, `overview`, `plan`, `todos`).
    pub plan: Option<Value>,
    /// The `askQuestion` call's arguments (`title`, `questions[{id, prompt, options[{id,
    /// label}], allowMultiple}]`).
    pub questions: Option<Value>,
}

impl Material {
    /// Takes what `event` carries.
    pub fn observe(&mut self, event: &RunEvent) {
        let call = match event {
            RunEvent::ToolStarted { call } | RunEvent::ToolCompleted { call, .. } => call,
            _ => return,
        };
        if call.args.is_null() {
            return;
        }
        match call.tool.as_str() {
            "createPlan" => self.plan = Some(call.args.clone()),
            "askQuestion" => self.questions = Some(call.args.clone()),
            _ => {}
        }
    }
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
        assert_eq!(material, Material::default());
        material.observe(&started("createPlan", json!({"name": "P"})));
        material.observe(&started("askQuestion", json!({"title": "Q"})));
        // A completed event without args keeps what the started one said.
        material.observe(&started("askQuestion", Value::Null));
        assert_eq!(material.plan, Some(json!({"name": "P"})));
        assert_eq!(material.questions, Some(json!({"title": "Q"})));
    }
}
