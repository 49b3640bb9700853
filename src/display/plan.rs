//! A plan-mode run's plan, rendered as the answer.

use serde_json::Value;

use super::PLAN_LIMIT;
use crate::text;
use crate::text::multi_line;
use crate::text::one_line;

/// A plan-mode `createPlan` call's arguments as the answer: name, overview, plan, todos.
pub(crate) fn render_plan(args: &Value) -> String {
    let field = |key: &str| {
        args.get(key)
            .and_then(Value::as_str)
            .map(|s| multi_line(s).trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let mut parts = Vec::new();
    if let Some(name) = field("name") {
        parts.push(format!("**Plan: {}**", one_line(&name)));
    }
    if let Some(overview) = field("overview") {
        parts.push(overview);
    }
    if let Some(plan) = field("plan") {
        parts.push(plan);
    }
    if let Some(todos) = args.get("todos").and_then(Value::as_array) {
        let items: Vec<String> = todos
            .iter()
            .filter_map(|todo| {
                let content = todo
                    .get("content")
                    .or_else(|| todo.get("title"))
                    .and_then(Value::as_str)
                    .or_else(|| todo.as_str())
                    .map(one_line)
                    .filter(|s| !s.is_empty())?;
                let status = todo
                    .get("status")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_ascii_lowercase();
                let mark = if status.contains("complete") || status.contains("done") {
                    "x"
                } else if status.contains("progress") {
                    "~"
                } else {
                    " "
                };
                Some(format!("- [{mark}] {content}"))
            })
            .collect();
        if !items.is_empty() {
            parts.push(format!("Todos:\n{}", items.join("\n")));
        }
    }
    let plan = parts.join("\n\n");
    if plan.len() <= PLAN_LIMIT {
        return plan;
    }
    format!(
        "{}\n\n[plan cut at {} KiB]",
        text::clip_bytes(&plan, PLAN_LIMIT),
        PLAN_LIMIT / 1024
    )
}
