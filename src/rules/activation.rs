//! Each dialect's keys mapped to one [`Activation`]: reads a found rule file into a [`Rule`].
//!
//! | dialect | Always | Globs | AgentRequested | Manual |
//! |---|---|---|---|---|
//! | Cursor `.mdc`/`.md` | `alwaysApply: true` | `globs` | `description` only | nothing |
//! | `.cursorrules` | always | | | |
//! | Windsurf `.windsurf/rules` | `trigger: always_on` (or no frontmatter) | `trigger: glob` + `globs` | `trigger: model_decision` | `trigger: manual` |
//! | `.windsurfrules`, `global_rules.md` | always | | | |
//! | Cline | no `paths` | `paths` | | |
//! | Claude `.claude/rules` | no `paths` | `paths` | | |
//! | Claude memory files | always | | | |
//!
//! Values are read leniently, in one place (`reader.rs`). A key of another tool's dialect
//! (`globs` in a Claude rule) is reported and read the way that tool would read the file. Glob
//! matching is `glob.rs`.

use std::path::Path;

use super::diagnostic::Diagnostic;
use super::diagnostic::DiagnosticKind;
use super::diagnostic::Severity;
use super::discover;
use super::discover::Candidate;
use super::frontmatter;
use super::glob::compile_globs;
use super::memory;
use super::reader::Reader;
use super::rule::Activation;
use super::rule::Dialect;
use super::rule::Rule;
use super::rule::RuleSource;
use super::rule::RuleStatus;
use super::stream_rules;

/// Folded keys some dialect understands; anything else is reported as ignored.
const KNOWN_KEYS: &[&str] = &[
    "description",
    "globs",
    "alwaysapply",
    "paths",
    "trigger",
    "condition",
    "ttsrtrigger",
    "scope",
    "interruptmode",
    "name",
];

/// Reads one file into a [`Rule`]: never fails; an unusable file is a dropped rule.
pub(crate) fn build_rule(candidate: &Candidate, workspace: &Path, home: Option<&Path>) -> Rule {
    let mut rule = Rule {
        name: candidate.name.clone(),
        path: candidate.path.clone(),
        source: RuleSource {
            provider: candidate.provider,
            level: candidate.level,
            priority: candidate.provider.priority(),
            distance: candidate.distance,
        },
        body: String::new(),
        description: None,
        activation: Activation::Always,
        globs: Vec::new(),
        ttsr: None,
        native: candidate.native,
        why: String::new(),
        status: RuleStatus::Active,
        diagnostics: Vec::new(),
        matcher: None,
    };
    let text = match discover::read_rule_file(&candidate.path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                rule.why = String::from("not UTF-8 text");
                return drop_rule(
                    rule,
                    DiagnosticKind::NotUtf8,
                    "the file is not UTF-8 text; the rule was dropped".into(),
                );
            }
        },
        Err(error) => {
            rule.why = String::from("unreadable");
            return drop_rule(
                rule,
                DiagnosticKind::Unreadable,
                format!("could not read the file: {error}; the rule was dropped"),
            );
        }
    };

    if candidate.dialect == Dialect::ClaudeMemory {
        return memory_rule(rule, &text, home);
    }

    let parsed = frontmatter::parse(&text);
    let mut reader = Reader::new(&parsed, &candidate.path);
    rule.description = reader.string("description");
    let resolved = resolve(candidate.dialect, &mut reader);
    rule.activation = resolved.activation;
    rule.why = resolved.why;
    rule.ttsr = stream_rules::parse_stream_rule(&mut reader);
    reader.unknown_keys(KNOWN_KEYS);
    rule.body = parsed.body.clone();
    rule.diagnostics = reader.into_diagnostics();

    if rule.activation == Activation::Globs {
        let (matcher, valid) = compile_globs(
            &resolved.globs,
            &candidate.base,
            workspace,
            &candidate.path,
            &mut rule.diagnostics,
        );
        rule.globs = valid;
        rule.matcher = matcher;
        if rule.matcher.is_none() {
            return drop_rule(
                rule,
                DiagnosticKind::Dropped,
                "the rule applies by globs but none of them is valid; the rule was dropped".into(),
            );
        }
    }
    if rule.body.is_empty() && !rule.native {
        return drop_rule(
            rule,
            DiagnosticKind::EmptyBody,
            "the rule has no text after its frontmatter; the rule was dropped".into(),
        );
    }
    rule
}

fn drop_rule(mut rule: Rule, kind: DiagnosticKind, message: String) -> Rule {
    rule.diagnostics.push(Diagnostic::new(
        Severity::Error,
        kind,
        Some(&rule.path),
        message,
    ));
    rule.status = RuleStatus::Dropped;
    rule
}

/// A memory file: always on, imports expanded. The root `CLAUDE.md` is Cursor's own, except
/// for its imports, which Cursor does not follow: those are delivered.
fn memory_rule(mut rule: Rule, text: &str, home: Option<&Path>) -> Rule {
    let expanded = memory::expand(&rule.path, text, home);
    rule.diagnostics.extend(expanded.diagnostics);
    rule.activation = Activation::Always;
    if rule.native {
        if expanded.imports_only.is_empty() {
            rule.why =
                String::from("Claude Code memory file; Cursor reads the root CLAUDE.md itself");
            rule.body = expanded.full;
        } else {
            rule.native = false;
            rule.why = format!(
                "Claude Code memory file; Cursor reads the root CLAUDE.md itself but not its @imports, so the {} imported file(s) are sent",
                expanded.imported.len()
            );
            rule.body = expanded.imports_only;
        }
        return rule;
    }
    rule.why = if expanded.imported.is_empty() {
        String::from("Claude Code memory file (always loaded by Claude)")
    } else {
        format!(
            "Claude Code memory file (always loaded by Claude), {} @import(s) expanded",
            expanded.imported.len()
        )
    };
    rule.body = expanded.full;
    if rule.body.is_empty() {
        return drop_rule(
            rule,
            DiagnosticKind::EmptyBody,
            "the memory file is empty; nothing to deliver".into(),
        );
    }
    rule
}

struct Resolved {
    activation: Activation,
    globs: Vec<String>,
    why: String,
}

impl Resolved {
    fn new(activation: Activation, why: impl Into<String>) -> Resolved {
        Resolved {
            activation,
            globs: Vec::new(),
            why: why.into(),
        }
    }
}

fn resolve(dialect: Dialect, reader: &mut Reader<'_>) -> Resolved {
    match dialect {
        Dialect::Cursor => {
            reader.foreign("paths", "Cursor reads `globs`, not `paths`");
            reader.foreign("trigger", "`trigger` is Windsurf's key; Cursor reads `alwaysApply`, `globs` and `description`");
            cursor_keys(reader).unwrap_or_else(|| {
                Resolved::new(
                    Activation::Manual,
                    "no alwaysApply, globs or description (a manual rule: used when named)",
                )
            })
        }
        Dialect::CursorLegacy => {
            Resolved::new(Activation::Always, "legacy .cursorrules (always on)")
        }
        Dialect::WindsurfAlways => Resolved::new(
            Activation::Always,
            "Windsurf global or legacy rules file (always on)",
        ),
        Dialect::Windsurf => windsurf_keys(reader),
        Dialect::Cline => {
            reader.foreign(
                "globs",
                "Cline reads `paths`, not `globs`; Cline applies this rule always",
            );
            reader.foreign("alwaysapply", "Cline has no `alwaysApply`");
            paths_keys(reader, "Cline")
        }
        Dialect::ClaudeRules => {
            reader.foreign("globs", "Claude Code reads `paths`, not `globs`; Claude Code loads this rule always, and so does multi-cursor (rename the key to `paths` to scope it)");
            reader.foreign(
                "alwaysapply",
                "Claude Code has no `alwaysApply`: a rule without `paths` is always loaded",
            );
            paths_keys(reader, "Claude Code")
        }
        Dialect::ClaudeMemory => Resolved::new(Activation::Always, "Claude Code memory file"),
    }
}

/// Cursor's keys; `None` when none is set.
fn cursor_keys(reader: &mut Reader<'_>) -> Option<Resolved> {
    let fallback = if reader.parsed().fallback {
        " (read after the YAML fallback)"
    } else {
        ""
    };
    let always = reader.bool("alwaysapply");
    let globs = reader.list("globs");
    let has_description = reader.parsed().get("description").is_some();
    if always == Some(true) {
        if !globs.is_empty() {
            reader.info(
                DiagnosticKind::Defaulted,
                "globs",
                "`globs` are ignored because `alwaysApply` is true",
            );
        }
        return Some(Resolved::new(
            Activation::Always,
            format!("alwaysApply: true{fallback}"),
        ));
    }
    if !globs.is_empty() {
        return Some(Resolved {
            activation: Activation::Globs,
            why: format!("globs: {}{fallback}", globs.join(", ")),
            globs,
        });
    }
    if has_description {
        return Some(Resolved::new(
            Activation::AgentRequested,
            format!("description without globs or alwaysApply{fallback}"),
        ));
    }
    always.map(|_| {
        Resolved::new(
            Activation::Manual,
            format!("alwaysApply: false without globs or description{fallback}"),
        )
    })
}

fn windsurf_keys(reader: &mut Reader<'_>) -> Resolved {
    reader.foreign(
        "paths",
        "Windsurf reads `globs` (with `trigger: glob`), not `paths`",
    );
    let Some(trigger) = reader.string("trigger") else {
        if let Some(resolved) = cursor_keys(reader) {
            reader.info(
                DiagnosticKind::Defaulted,
                "",
                "no `trigger`: read the Cursor-style keys instead",
            );
            return resolved;
        }
        reader.info(
            DiagnosticKind::Defaulted,
            "",
            "no `trigger`: treated as always on",
        );
        return Resolved::new(
            Activation::Always,
            "Windsurf rule without trigger (always on)",
        );
    };
    match trigger.as_str() {
        "always_on" => Resolved::new(Activation::Always, "trigger: always_on"),
        "manual" => Resolved::new(Activation::Manual, "trigger: manual"),
        "model_decision" => {
            if reader.parsed().get("description").is_none() {
                reader.warn(
                    DiagnosticKind::Defaulted,
                    "trigger",
                    "`trigger: model_decision` without a description: Cursor sees only the rule's name and path",
                );
            }
            Resolved::new(Activation::AgentRequested, "trigger: model_decision")
        }
        "glob" => {
            let globs = reader.list("globs");
            if globs.is_empty() {
                reader.error(
                    DiagnosticKind::BadValue,
                    "trigger",
                    "`trigger: glob` without `globs`: the rule can never apply",
                );
            }
            Resolved {
                activation: Activation::Globs,
                why: format!("trigger: glob, globs: {}", globs.join(", ")),
                globs,
            }
        }
        other => {
            reader.error(
                DiagnosticKind::BadValue,
                "trigger",
                &format!(
                    "unknown trigger `{other}` (expected always_on, manual, model_decision or glob); treated as manual"
                ),
            );
            Resolved::new(Activation::Manual, format!("unknown trigger `{other}`"))
        }
    }
}

/// Claude Code and Cline: `paths` scopes the rule, otherwise it is always on.
fn paths_keys(reader: &mut Reader<'_>, tool: &str) -> Resolved {
    let fallback = if reader.parsed().fallback {
        " (read after the YAML fallback)"
    } else {
        ""
    };
    let paths = reader.list("paths");
    if paths.is_empty() {
        Resolved::new(
            Activation::Always,
            format!("no `paths` ({tool} loads it always){fallback}"),
        )
    } else {
        Resolved {
            activation: Activation::Globs,
            why: format!("paths: {}{fallback}", paths.join(", ")),
            globs: paths,
        }
    }
}
