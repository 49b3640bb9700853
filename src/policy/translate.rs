//! Claude permission rules in Cursor's permission tokens (the `permissions.allow`/`deny` entries
//! of Cursor's `cli-config.json` and `.cursor/cli.json`).
//!
//! Claude: `Tool` or `Tool(specifier)` — `Bash(git:*)`, `Bash(npm run *)`, `Read(.env)`,
//! `Edit(/src/**)`, `WebFetch(domain:x)`, `mcp__srv__tool`. Cursor: `Shell(commandBase)` or
//! `Shell(command:argsGlob)`, `Read(glob)`, `Write(glob)`, `WebFetch(domain)`,
//! `Mcp(server:tool)`; deny beats allow; entries are exact strings.
//!
//! Translations are for deny-type use: where the two differ, the Cursor token matches at least
//! what the Claude rule matches (`Bash(git push)` becomes `Shell(git:push)`; `Bash(rm)` becomes
//! `Shell(rm)`, which also denies `rm` with arguments). A rule with no such token is
//! [`Translation::Inexpressible`]. Since no per-run way exists to hand Cursor rules (see
//! ARCHITECTURE.md "Policy parity"), the token is what the refusal tells the user to put in
//! `.cursor/cli.json`, and what is looked for there.

use std::path::Path;

/// Which Cursor permission a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum CursorKind {
    /// `Shell(...)`.
    Shell,
    /// `Read(...)`.
    Read,
    /// `Write(...)`.
    Write,
    /// `WebFetch(...)`.
    WebFetch,
    /// `Mcp(...)`.
    Mcp,
}

/// A Cursor permission token standing for a Claude rule, and the Cursor deny entries that
/// enforce it (itself, equivalent spellings, and broader catch-alls of the same kind).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CursorRule {
    /// Its kind.
    pub kind: CursorKind,
    /// The token to put in Cursor's `permissions.deny`.
    pub token: String,
    /// Every Cursor deny entry that denies at least as much (includes `token`).
    pub covered_by: Vec<String>,
}

impl CursorRule {
    fn new(kind: CursorKind, token: String, mut covered_by: Vec<String>) -> CursorRule {
        covered_by.insert(0, token.clone());
        covered_by.dedup();
        CursorRule {
            kind,
            token,
            covered_by,
        }
    }

    /// Whether a Cursor deny list containing `deny` enforces this rule.
    pub(crate) fn enforced_by<'a>(&self, deny: impl IntoIterator<Item = &'a str>) -> bool {
        deny.into_iter()
            .any(|entry| self.covered_by.iter().any(|c| c == entry.trim()))
    }
}

/// What a Claude rule is for Cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Translation {
    /// A Cursor token denying at least what the rule denies.
    Cursor(CursorRule),
    /// A Claude-only tool (subagents, to-do list, plan exit, questions, skills, slash
    /// commands): Cursor's native actions never go through it, so there is nothing to enforce.
    ClaudeOnly,
    /// No Cursor token expresses it; the reason says why.
    Inexpressible(String),
}

/// Claude tools with no Cursor action behind them.
const CLAUDE_ONLY: [&str; 9] = [
    "Agent",
    "Task",
    "TodoWrite",
    "ExitPlanMode",
    "EnterPlanMode",
    "AskUserQuestion",
    "SlashCommand",
    "Skill",
    "BashOutput",
];

/// Splits `Tool(spec)` into the tool and its specifier (`None` for a bare tool name).
fn split_rule(rule: &str) -> Option<(&str, Option<&str>)> {
    let rule = rule.trim();
    match rule.find('(') {
        None => Some((rule, None)),
        Some(open) => {
            let spec = rule[open + 1..].strip_suffix(')')?;
            Some((&rule[..open], Some(spec)))
        }
    }
}

/// Translates one Claude rule; `home` expands `~/` paths.
pub(crate) fn translate(rule: &str, home: Option<&Path>) -> Translation {
    let Some((tool, spec)) = split_rule(rule) else {
        return Translation::Inexpressible("it is not a Claude permission rule".to_string());
    };
    // `Tool(*)` is the same as `Tool`.
    let spec = spec.map(str::trim).filter(|s| !s.is_empty() && *s != "*");
    if let Some(mcp) = tool.strip_prefix("mcp__") {
        return mcp_rule(mcp, spec);
    }
    match tool {
        "Bash" => shell_rule(spec),
        "Read" | "NotebookRead" => path_rule(CursorKind::Read, spec, home),
        "Edit" | "Write" | "MultiEdit" | "NotebookEdit" => path_rule(CursorKind::Write, spec, home),
        "WebFetch" => web_rule(spec),
        t if CLAUDE_ONLY.contains(&t) => Translation::ClaudeOnly,
        "Grep" | "Glob" | "LS" => Translation::Inexpressible(format!(
            "Cursor has no permission token for its {} tool",
            tool.to_lowercase()
        )),
        "WebSearch" => {
            Translation::Inexpressible("Cursor has no permission token for web search".to_string())
        }
        _ => Translation::Inexpressible(format!("Cursor has no permission token for {tool}")),
    }
}

fn shell_rule(spec: Option<&str>) -> Translation {
    let all = || {
        Translation::Cursor(CursorRule::new(
            CursorKind::Shell,
            "Shell(*)".to_string(),
            vec!["Shell(**)".to_string()],
        ))
    };
    let Some(spec) = spec else {
        return all();
    };
    // `cmd:*` (legacy prefix form) and `cmd *` (word-boundary prefix) both mean "cmd, then
    // anything". Any other `*` stays a pattern: in the arguments Cursor globs them too; in the
    // command name (`rm*` also matches `rmdir`) Cursor has no equivalent.
    let (prefix, wildcard) = if let Some(p) = spec.strip_suffix(":*") {
        (p.trim(), true)
    } else if let Some(p) = spec.strip_suffix(" *") {
        (p.trim(), true)
    } else {
        (spec, false)
    };
    let mut words = prefix.splitn(2, char::is_whitespace);
    let command = words.next().unwrap_or_default();
    let args = words.next().map(str::trim).unwrap_or_default();
    if command.is_empty() {
        return all();
    }
    if command.contains(['*', '?', '[']) {
        return Translation::Inexpressible(
            "Cursor matches a command by its name, and this rule's name is a pattern".to_string(),
        );
    }
    if command.contains(['(', ')', ':']) || args.contains(['(', ')']) {
        return Translation::Inexpressible(
            "its command contains characters Cursor's Shell(...) token cannot hold".to_string(),
        );
    }
    let catch_alls = ["Shell(*)".to_string(), "Shell(**)".to_string()];
    if args.is_empty() {
        // `Shell(cmd)` matches cmd with any arguments: at least `Bash(cmd)` and `Bash(cmd:*)`.
        let mut covered = vec![format!("Shell({command}:*)")];
        covered.extend(catch_alls);
        return Translation::Cursor(CursorRule::new(
            CursorKind::Shell,
            format!("Shell({command})"),
            covered,
        ));
    }
    let glob = if wildcard {
        format!("{args}*")
    } else {
        args.to_string()
    };
    let mut covered = vec![format!("Shell({command})"), format!("Shell({command}:*)")];
    covered.extend(catch_alls);
    Translation::Cursor(CursorRule::new(
        CursorKind::Shell,
        format!("Shell({command}:{glob})"),
        covered,
    ))
}

fn path_rule(kind: CursorKind, spec: Option<&str>, home: Option<&Path>) -> Translation {
    let name = match kind {
        CursorKind::Read => "Read",
        _ => "Write",
    };
    let catch_alls = vec![format!("{name}(**)"), format!("{name}(/**)")];
    let Some(spec) = spec.filter(|s| *s != "**") else {
        return Translation::Cursor(CursorRule::new(
            kind,
            format!("{name}(**)"),
            vec![format!("{name}(/**)")],
        ));
    };
    // Claude: `//abs` from the filesystem root, `~/p` from home, `/p` from the project root,
    // `./p` and `p` from the working directory (the workspace). Cursor: absolute paths are
    // absolute, relative ones are workspace-scoped.
    let path = if let Some(abs) = spec.strip_prefix("//") {
        format!("/{abs}")
    } else if spec == "~" || spec.starts_with("~/") {
        let Some(home) = home else {
            return Translation::Inexpressible(format!(
                "it names a path in your home folder and {} is not set",
                crate::platform::places::HOME_VAR
            ));
        };
        let rest = spec.trim_start_matches('~').trim_start_matches('/');
        let home = home.display().to_string();
        let home = home.trim_end_matches('/');
        if rest.is_empty() {
            home.to_string()
        } else {
            format!("{home}/{rest}")
        }
    } else if let Some(rel) = spec.strip_prefix("./") {
        rel.to_string()
    } else if let Some(rel) = spec.strip_prefix('/') {
        rel.to_string()
    } else if spec.starts_with('~') {
        return Translation::Inexpressible(
            "it names another user's home folder (~user), which Cursor's tokens cannot".to_string(),
        );
    } else {
        spec.to_string()
    };
    if path.is_empty() || path.contains(')') {
        return Translation::Inexpressible(
            "its path is empty or contains a parenthesis Cursor's token cannot hold".to_string(),
        );
    }
    Translation::Cursor(CursorRule::new(kind, format!("{name}({path})"), catch_alls))
}

fn web_rule(spec: Option<&str>) -> Translation {
    let Some(spec) = spec else {
        return Translation::Cursor(CursorRule::new(
            CursorKind::WebFetch,
            "WebFetch(*)".to_string(),
            Vec::new(),
        ));
    };
    match spec.strip_prefix("domain:").map(str::trim) {
        Some(domain) if !domain.is_empty() && !domain.contains([')', '/', ' ']) => {
            Translation::Cursor(CursorRule::new(
                CursorKind::WebFetch,
                format!("WebFetch({domain})"),
                vec!["WebFetch(*)".to_string()],
            ))
        }
        _ => Translation::Inexpressible(
            "Cursor's WebFetch(...) token names a domain, and this rule is not `domain:<host>`"
                .to_string(),
        ),
    }
}

fn mcp_rule(rest: &str, spec: Option<&str>) -> Translation {
    if spec.is_some() {
        return Translation::Inexpressible(
            "Cursor's Mcp(server:tool) token has no argument patterns".to_string(),
        );
    }
    let (server, tool) = match rest.split_once("__") {
        Some((server, tool)) => (server, tool),
        None => (rest, "*"),
    };
    let tool = if tool.is_empty() { "*" } else { tool };
    if server.is_empty() || server.contains(['(', ')', ':']) || tool.contains(['(', ')', ':']) {
        return Translation::Inexpressible(
            "its server or tool name does not fit Cursor's Mcp(server:tool) token".to_string(),
        );
    }
    let mut covered = Vec::new();
    if tool != "*" {
        covered.push(format!("Mcp({server}:*)"));
    }
    covered.push("Mcp(*:*)".to_string());
    covered.push("Mcp(*)".to_string());
    Translation::Cursor(CursorRule::new(
        CursorKind::Mcp,
        format!("Mcp({server}:{tool})"),
        covered,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(rule: &str) -> String {
        match translate(rule, Some(Path::new("/home/u"))) {
            Translation::Cursor(c) => c.token,
            other => panic!("{rule}: {other:?}"),
        }
    }

    #[test]
    fn bash_forms() {
        assert_eq!(token("Bash(git:*)"), "Shell(git)");
        assert_eq!(token("Bash(rm *)"), "Shell(rm)");
        assert_eq!(token("Bash(rm)"), "Shell(rm)");
        assert_eq!(token("Bash"), "Shell(*)");
        assert_eq!(token("Bash(*)"), "Shell(*)");
        assert_eq!(token("Bash(git push:*)"), "Shell(git:push*)");
        assert_eq!(token("Bash(git push)"), "Shell(git:push)");
        assert_eq!(token("Bash(git * main)"), "Shell(git:* main)");
        assert_eq!(token("Bash(git push*)"), "Shell(git:push*)");
        for rule in ["Bash(* --force)", "Bash(rm*)", "Bash(a:b)"] {
            assert!(
                matches!(translate(rule, None), Translation::Inexpressible(_)),
                "{rule}"
            );
        }
    }

    #[test]
    fn covered_by_broader_entries() {
        let Translation::Cursor(rule) = translate("Bash(git push:*)", None) else {
            panic!()
        };
        assert!(rule.enforced_by(["Shell(git)"]));
        assert!(rule.enforced_by(["Shell(*)"]));
        assert!(!rule.enforced_by(["Shell(gi)", "Shell(git:pull*)"]));
    }

    mod translations {
        //! Each Claude rule form becomes the Cursor token that denies at least as much (what a refusal
        //! tells the user to write, and what is looked for in Cursor's config), is recognised as a
        //! Claude-only tool, or is reported as having no Cursor equivalent.

        use std::path::Path;

        use crate::policy::translate::Translation;
        use crate::policy::translate::translate;

        fn token(rule: &str) -> String {
            match translate(rule, Some(Path::new("/home/you"))) {
                Translation::Cursor(cursor) => cursor.token,
                other => panic!("{rule}: {other:?}"),
            }
        }

        #[test]
        fn every_rule_form() {
            let table = [
                ("Bash(git:*)", "Shell(git)"),
                ("Bash(git *)", "Shell(git)"),
                ("Bash(git)", "Shell(git)"),
                ("Bash", "Shell(*)"),
                ("Bash(*)", "Shell(*)"),
                ("Bash(git push:*)", "Shell(git:push*)"),
                ("Bash(npm run test *)", "Shell(npm:run test*)"),
                ("Bash(git push)", "Shell(git:push)"),
                ("Read(.env)", "Read(.env)"),
                ("Read(./secrets/**)", "Read(secrets/**)"),
                ("Read(/config/*.json)", "Read(config/*.json)"),
                ("Read(//etc/passwd)", "Read(/etc/passwd)"),
                ("Read(~/.ssh/**)", "Read(/home/you/.ssh/**)"),
                ("Read", "Read(**)"),
                ("Edit(src/**)", "Write(src/**)"),
                ("Write(package.json)", "Write(package.json)"),
                ("MultiEdit(**/*.key)", "Write(**/*.key)"),
                ("NotebookEdit(nb/*.ipynb)", "Write(nb/*.ipynb)"),
                ("Edit", "Write(**)"),
                ("WebFetch(domain:example.com)", "WebFetch(example.com)"),
                ("WebFetch", "WebFetch(*)"),
                ("mcp__github__create_issue", "Mcp(github:create_issue)"),
                ("mcp__github", "Mcp(github:*)"),
                ("mcp__github__*", "Mcp(github:*)"),
            ];
            for (rule, expected) in table {
                assert_eq!(token(rule), expected, "{rule}");
            }
            for rule in [
                "Task",
                "Agent(Explore)",
                "TodoWrite",
                "ExitPlanMode",
                "Skill",
            ] {
                assert_eq!(
                    translate(rule, None),
                    Translation::ClaudeOnly,
                    "{rule} is Claude-only"
                );
            }
            for rule in [
                "Grep",
                "Glob(**/*.rs)",
                "WebSearch",
                "WebFetch(https://example.com)",
                "Bash(rm*)",
                "Bash(* --force)",
                "mcp__github__create_issue(repo)",
                "Read(~bob/x)",
                "SomeFutureTool",
            ] {
                assert!(
                    matches!(translate(rule, None), Translation::Inexpressible(_)),
                    "{rule} has no Cursor token"
                );
            }
        }

        #[test]
        fn broader_cursor_entries_count() {
            let Translation::Cursor(rule) = translate("Bash(git push:*)", None) else {
                panic!()
            };
            for entry in ["Shell(git:push*)", "Shell(git)", "Shell(git:*)", "Shell(*)"] {
                assert!(rule.enforced_by([entry]), "{entry}");
            }
            assert!(!rule.enforced_by(["Shell(git:pull*)", "Read(**)"]));
            let Translation::Cursor(rule) = translate("mcp__db__drop", None) else {
                panic!()
            };
            for entry in ["Mcp(db:drop)", "Mcp(db:*)", "Mcp(*:*)"] {
                assert!(rule.enforced_by([entry]), "{entry}");
            }
            let Translation::Cursor(rule) = translate("Read(.env)", None) else {
                panic!()
            };
            assert!(rule.enforced_by(["Read(**)"]));
            assert!(!rule.enforced_by(["Write(**)", "Read(.env.example)"]));
        }
    }
}
