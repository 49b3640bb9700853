//! What kind of native action a Cursor tool call is, and the word the closing summary counts
//! it under. Every kind has a name of its own, so the summary never says "other": a tool we
//! have no row for is counted under its own name, read from its `…ToolCall` key
//! (`listMcpResources` → "list mcp resources").

/// How a native tool is counted and shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum ActionKind {
    /// `shell`.
    Shell,
    /// `edit`, `write`, `delete` and other file changes.
    Edit,
    /// `read`, `ls`, `readLints`: something looked at.
    Read,
    /// `grep`, `glob`, `semSearch`, …: something searched.
    Search,
    /// `webFetch`: a page fetched.
    WebFetch,
    /// `webSearch`: the web searched.
    WebSearch,
    /// `askQuestion`: a question for the user (print mode cannot put it to them).
    Question,
    /// `updateTodos`: Cursor's todo list, shown as a checklist.
    Todos,
    /// `task`: Cursor's own subagent.
    Task,
    /// `mcp`: a tool of an MCP server.
    Mcp,
    /// `createPlan`: the plan of a plan-mode run (the answer, not an action).
    Plan,
    /// Any other tool, counted under its own name.
    Tool,
}

impl ActionKind {
    /// The kind of a tool as the stream parser names it (`shell`, `readToolCall` without its
    /// suffix, the function form's name, …), compared without case.
    pub(crate) fn of(tool: &str) -> ActionKind {
        match tool.to_ascii_lowercase().as_str() {
            "shell" | "bash" | "terminal" | "runterminalcommand" => ActionKind::Shell,
            "edit" | "write" | "delete" | "multiedit" | "searchreplace" | "applypatch"
            | "editnotebook" => ActionKind::Edit,
            "read" | "ls" | "readlints" | "list" | "listdir" => ActionKind::Read,
            "grep" | "glob" | "semsearch" | "search" | "codebasesearch" | "filesearch" => {
                ActionKind::Search
            }
            "webfetch" | "fetch" => ActionKind::WebFetch,
            "websearch" => ActionKind::WebSearch,
            "askquestion" => ActionKind::Question,
            "updatetodos" | "todowrite" => ActionKind::Todos,
            "task" => ActionKind::Task,
            "mcp" => ActionKind::Mcp,
            "createplan" => ActionKind::Plan,
            _ => ActionKind::Tool,
        }
    }

    /// The words the summary counts a `tool` of this kind under ("2 web fetch, 1 question").
    pub(crate) fn label(self, tool: &str) -> String {
        let fixed = match self {
            ActionKind::Shell => "shell",
            ActionKind::Edit => "edit",
            ActionKind::Read => "read",
            ActionKind::Search => "search",
            ActionKind::WebFetch => "web fetch",
            ActionKind::WebSearch => "web search",
            ActionKind::Question => "question",
            ActionKind::Todos => "todo list",
            ActionKind::Task => "subagent",
            ActionKind::Mcp => "mcp",
            ActionKind::Plan => "plan",
            ActionKind::Tool => return tool_words(tool),
        };
        fixed.to_owned()
    }

    /// Where its count stands on the summary's first line (tools we name ourselves first, in
    /// this order; tools counted under their own name after them, in the order first seen).
    pub(super) fn rank(self) -> usize {
        match self {
            ActionKind::Shell => 0,
            ActionKind::Edit => 1,
            ActionKind::Read => 2,
            ActionKind::Search => 3,
            ActionKind::WebFetch => 4,
            ActionKind::WebSearch => 5,
            ActionKind::Mcp => 6,
            ActionKind::Task => 7,
            ActionKind::Question => 8,
            ActionKind::Todos => 9,
            ActionKind::Plan | ActionKind::Tool => 10,
        }
    }

    /// Whether the paths it names go into the turn's touched files.
    pub(super) fn touches_files(self) -> bool {
        matches!(
            self,
            ActionKind::Edit | ActionKind::Read | ActionKind::Search
        )
    }
}

/// A tool's name as words: camelCase and `_` split, lowercase (`readMcpResource` → "read mcp
/// resource"); "tool" when it has no letters.
pub(crate) fn tool_words(tool: &str) -> String {
    let mut words = String::new();
    let mut previous_lower = false;
    for c in tool.chars() {
        if c == '_' || c == '-' || c.is_whitespace() {
            if !words.ends_with(' ') && !words.is_empty() {
                words.push(' ');
            }
            previous_lower = false;
            continue;
        }
        if !c.is_alphanumeric() {
            continue;
        }
        if c.is_uppercase() && previous_lower {
            words.push(' ');
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        words.extend(c.to_lowercase());
    }
    let words = words.trim().to_owned();
    if words.is_empty() {
        String::from("tool")
    } else {
        words
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_tools_are_counted_under_their_own_name() {
        assert_eq!(ActionKind::of("listMcpResources"), ActionKind::Tool);
        assert_eq!(
            ActionKind::Tool.label("listMcpResources"),
            "list mcp resources"
        );
        assert_eq!(ActionKind::Tool.label("generate_image"), "generate image");
        assert_eq!(ActionKind::Tool.label("¤"), "tool");
        assert_eq!(ActionKind::of("webFetch").label("webFetch"), "web fetch");
        assert_eq!(ActionKind::of("askQuestion").label(""), "question");
    }
}
