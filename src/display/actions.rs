//! Cursor's tool calls as the display tracks them: an action from its start to its outcome,
//! its completion row (and an `updateTodos` call's checklist under it), the paths it touched,
//! and a plan-mode call shown as the plan itself.

use std::path::PathBuf;
use std::time::Instant;

use serde_json::Value;

use super::Action;
use super::ActionKind;
use super::COMMAND_LIMIT;
use super::Ending;
use super::ROW_PREFIX;
use super::SUMMARY_LIST_LIMIT;
use super::State;
use super::TRACKED_ACTIONS;
use super::Tail;
use super::TurnDisplay;
use super::plan::render_plan;
use super::rows::action_path;
use super::rows::describe;
use super::rows::named_paths;
use super::rows::new_action;
use super::rows::outcome_parts;
use super::rows::state_of;
use super::rows::todos;
use crate::cursor::events::ToolCall;
use crate::cursor::events::ToolOutcome;
use crate::cursor::sanitize::sanitize;
use crate::text::clip_chars;

impl TurnDisplay {
    pub(super) fn tool_started(&mut self, call: &ToolCall, now: Instant) -> String {
        let kind = ActionKind::of(&call.tool);
        self.note_touched(kind, &call.args, None);
        if let Some(index) = self.find(call) {
            if !call.args.is_null() && self.actions[index].args.is_null() {
                self.actions[index].args = call.args.clone();
            }
            return String::new();
        }
        self.track(call, kind, now);
        String::new()
    }

    pub(super) fn tool_completed(
        &mut self,
        call: &ToolCall,
        outcome: &ToolOutcome,
        now: Instant,
    ) -> String {
        let kind = ActionKind::of(&call.tool);
        let index = match self.find(call) {
            Some(index) => Some(index),
            None => self.track(call, kind, now),
        };
        let Some(index) = index else {
            // Past the tracking cap: counted, and shown, but not itemised.
            let mut action = new_action(call, kind, now);
            action.state = state_of(kind, &call.args, outcome, self.questions_in_dialog);
            self.note_touched(kind, &call.args, Some(outcome));
            return self.completion_row(&action, outcome, now);
        };
        if !call.args.is_null() {
            self.actions[index].args = call.args.clone();
        }
        // Borrowed, not copied: an edit's arguments carry the whole file text.
        let args = std::mem::take(&mut self.actions[index].args);
        self.note_touched(kind, &args, Some(outcome));
        if kind == ActionKind::Plan {
            self.actions[index].state = State::Done;
            let call_id = self.actions[index].call_id.clone();
            let block = self.plan_block(&call_id, &args, Ending::Ended, now);
            self.actions[index].args = args;
            return block;
        }
        let state = state_of(kind, &args, outcome, self.questions_in_dialog);
        self.actions[index].state = state.clone();
        if state == State::Done && kind == ActionKind::Edit {
            self.actions[index].changed = action_path(&args, outcome).map(|p| self.show_path(&p));
        }
        self.actions[index].args = args;
        let line = self.completion_line(&self.actions[index], outcome);
        let mut out = self.block_line(&line, now);
        if kind == ActionKind::Todos
            && let ToolOutcome::Success { value } = outcome
        {
            out.push_str(&self.checklist(&self.actions[index].args.clone(), value, now));
        }
        out
    }

    /// An `updateTodos` call's list under its row, one nested row per todo (at most
    /// [`SUMMARY_LIST_LIMIT`] × 2, then how many more).
    fn checklist(&mut self, args: &Value, value: &Value, now: Instant) -> String {
        let todos = todos(args, value);
        let limit = SUMMARY_LIST_LIMIT * 2;
        let mut out = String::new();
        for (mark, content) in todos.iter().take(limit) {
            let line = format!(
                "{ROW_PREFIX}  {mark} {}",
                clip_chars(content, COMMAND_LIMIT)
            );
            out.push_str(&self.block_line(&line, now));
        }
        if todos.len() > limit {
            let line = format!("{ROW_PREFIX}  … and {} more", todos.len() - limit);
            out.push_str(&self.block_line(&line, now));
        }
        out
    }

    fn completion_row(&mut self, action: &Action, outcome: &ToolOutcome, now: Instant) -> String {
        let line = self.completion_line(action, outcome);
        self.block_line(&line, now)
    }

    fn completion_line(&self, action: &Action, outcome: &ToolOutcome) -> String {
        let mut line = format!("{ROW_PREFIX}{}", describe(action, self));
        for part in outcome_parts(action, outcome) {
            line.push_str(" · ");
            line.push_str(&part);
        }
        line
    }

    /// Index of the tracked action `call` continues: same non-empty call id, else the newest
    /// running action of the same tool when the CLI gave no id.
    fn find(&self, call: &ToolCall) -> Option<usize> {
        if !call.call_id.is_empty() {
            return self.actions.iter().rposition(|a| a.call_id == call.call_id);
        }
        self.actions
            .iter()
            .rposition(|a| a.call_id.is_empty() && a.tool == call.tool && a.state == State::Running)
    }

    /// Starts tracking a call; `None` past [`TRACKED_ACTIONS`] (still counted).
    fn track(&mut self, call: &ToolCall, kind: ActionKind, now: Instant) -> Option<usize> {
        if kind != ActionKind::Plan {
            let label = kind.label(&call.tool);
            match self.counts.iter_mut().find(|(_, l, _)| *l == label) {
                Some((_, _, n)) => *n += 1,
                None => self.counts.push((kind, label, 1)),
            }
        }
        if self.actions.len() >= TRACKED_ACTIONS {
            self.untracked += 1;
            return None;
        }
        self.actions.push(new_action(call, kind, now));
        Some(self.actions.len() - 1)
    }

    fn note_touched(&mut self, kind: ActionKind, args: &Value, outcome: Option<&ToolOutcome>) {
        if !kind.touches_files() {
            return;
        }
        let mut paths = named_paths(args);
        if let Some(ToolOutcome::Success { value }) = outcome
            && let Some(path) = value.get("path").and_then(Value::as_str)
            && !path.is_empty()
        {
            paths.push(PathBuf::from(path));
        }
        for path in paths {
            let absolute = if path.is_absolute() {
                path
            } else {
                self.workspace.join(path)
            };
            if self.touched_seen.insert(absolute.clone()) {
                self.touched.push(absolute);
            }
        }
    }

    pub(super) fn plan_block(
        &mut self,
        call_id: &str,
        args: &Value,
        ending: Ending,
        now: Instant,
    ) -> String {
        if !self.plans_shown.insert(call_id.to_string()) {
            return String::new();
        }
        let plan = sanitize(&render_plan(args));
        if plan.is_empty() {
            return String::new();
        }
        let lead = match self.tail {
            Tail::Empty | Tail::Prose(2) => "",
            Tail::Prose(1) => "\n",
            Tail::Prose(_) | Tail::Block => "\n\n",
        };
        self.tail = Tail::Block;
        self.visible(now);
        let text = self.after_newline(format!("{lead}{plan}"));
        self.ended(text, ending)
    }
}
