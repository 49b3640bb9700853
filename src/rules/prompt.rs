//! What Cursor's prompts carry from the rulebook, and the rulebook's digest.
//!
//! - The first prompt of a chat (and the first after the rulebook changed): the bodies of the
//!   Always rules, in Claude Code's load order (user files first, then project files from the
//!   git root down to the workspace, so the most specific comes last), and an index of the
//!   rules Cursor should read on demand — agent-requested rules by description, glob rules by
//!   their globs — each with its absolute path.
//! - Attachments: glob rules a touched path matched, in full, once per chat.
//! - Interruptions: a fired stream rule, in full, as a system interrupt notice.
//!
//! Rules Cursor loads itself never appear. A body longer than [`MAX_INLINE_BODY`] bytes is cut
//! at a line break with a pointer to its file; the first-prompt section stops inlining bodies
//! after [`MAX_SECTION`] bytes and points to the files instead. Both are reported when the
//! rulebook is loaded.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;
use std::path::PathBuf;

use sha2::Digest as _;
use sha2::Sha256;

use super::diagnostic::Diagnostic;
use super::diagnostic::DiagnosticKind;
use super::diagnostic::Severity;
use super::rule::Activation;
use super::rule::Delivery;
use super::rule::Level;
use super::rule::Rule;
use super::stream_rules::Fired;

/// Longest body sent inline (bytes); the rest is read from the file.
pub(crate) const MAX_INLINE_BODY: usize = 16 * 1024;
/// Longest first-prompt section (bytes) before bodies are replaced by pointers.
pub(crate) const MAX_SECTION: usize = 64 * 1024;

/// A glob rule attached by a touched path.
#[derive(Debug, Clone)]
pub struct Attachment<'a> {
    /// The rule.
    pub rule: &'a Rule,
    /// The first path that matched (as the tool call named it).
    pub path: PathBuf,
    /// The glob it matched (as written in the rule).
    pub glob: String,
}

impl Attachment<'_> {
    /// The display row telling the user a rule was attached.
    pub fn row(&self) -> String {
        format!(
            "[rules] `{}` applies to {} (matches `{}`): attached to the next prompt",
            self.rule.name,
            self.path.display(),
            self.glob
        )
    }
}

/// Cuts `body` to [`MAX_INLINE_BODY`] at a line break, pointing to `path` for the rest.
fn inline_body(body: &str, path: &Path) -> String {
    if body.len() <= MAX_INLINE_BODY {
        return body.to_string();
    }
    let cut = crate::text::floor_boundary(body, MAX_INLINE_BODY);
    let cut = body[..cut].rfind('\n').unwrap_or(cut);
    format!(
        "{}\n[… cut at {} of {} bytes: read the whole rule in {}]",
        &body[..cut],
        cut,
        body.len(),
        path.display()
    )
}

fn index_line(rule: &Rule) -> String {
    let what = match (&rule.description, rule.activation) {
        (Some(description), Activation::Globs) => {
            format!("{description} (files matching {})", quoted_globs(rule))
        }
        (None, Activation::Globs) => format!("applies to files matching {}", quoted_globs(rule)),
        (Some(description), _) => description.clone(),
        (None, _) => String::from("(no description)"),
    };
    format!("- `{}`: {what} — read {}", rule.name, rule.path.display())
}

fn quoted_globs(rule: &Rule) -> String {
    rule.globs
        .iter()
        .map(|g| format!("`{g}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Always rules multi-cursor sends, in Claude Code's load order.
fn always_rules(rules: &[Rule]) -> Vec<&Rule> {
    let mut rules: Vec<(usize, &Rule)> = active(rules)
        .filter(|r| r.delivery() == Delivery::FirstPrompt)
        .enumerate()
        .collect();
    rules.sort_by_key(|(order, r)| {
        (
            r.source.level != Level::User,
            std::cmp::Reverse(r.source.distance),
            *order,
        )
    });
    rules.into_iter().map(|(_, r)| r).collect()
}

/// The active rules of `rules` (a rulebook's, in precedence order).
fn active(rules: &[Rule]) -> impl Iterator<Item = &Rule> {
    rules.iter().filter(|r| r.is_active())
}

/// [`Rulebook::first_prompt_section`](super::book::Rulebook::first_prompt_section) of a rulebook's
/// `rules`; `display_path` names a file for people.
pub(crate) fn first_prompt_section(
    rules: &[Rule],
    display_path: impl Fn(&Path) -> String,
) -> Option<String> {
    let always = always_rules(rules);
    let index: Vec<&Rule> = active(rules)
        .filter(|r| matches!(r.delivery(), Delivery::Index | Delivery::OnPaths))
        .collect();
    if always.is_empty() && index.is_empty() {
        return None;
    }
    let mut out = String::from(
        "<project-rules>\nmulti-cursor: the project's rules from its Claude Code, Windsurf and Cline files. Cursor's own rules (.cursor/rules, .cursorrules, AGENTS.md, CLAUDE.md) load as usual and are not repeated here. Follow these rules as you follow your own.\n",
    );
    if !always.is_empty() {
        out.push_str("\n## Always apply\n");
        for rule in always {
            let body = inline_body(&rule.body, &rule.path);
            if out.len() + body.len() > MAX_SECTION {
                let _ = write!(
                    out,
                    "\n### {}\n(too long to include here: read {} before you start)\n",
                    rule.name,
                    rule.path.display()
                );
            } else {
                let _ = write!(
                    out,
                    "\n### {} ({})\n{}\n",
                    rule.name,
                    display_path(&rule.path),
                    body
                );
            }
        }
    }
    if !index.is_empty() {
        out.push_str(
            "\n## Read when relevant\nBefore working in one of these areas, read the rule's file with your file tools and follow it.\n",
        );
        for rule in index {
            out.push_str(&index_line(rule));
            out.push('\n');
        }
    }
    out.push_str("</project-rules>");
    Some(out)
}

pub(crate) fn attach_for_paths<'a>(
    rules: &'a [Rule],
    paths: &[PathBuf],
    already: &BTreeSet<String>,
) -> Vec<Attachment<'a>> {
    let mut out = Vec::new();
    for rule in active(rules) {
        if rule.delivery() != Delivery::OnPaths || already.contains(&rule.name) {
            continue;
        }
        let hit = paths
            .iter()
            .find_map(|p| rule.matching_glob(p).map(|g| (p.clone(), g.to_string())));
        if let Some((path, glob)) = hit {
            out.push(Attachment { rule, path, glob });
        }
    }
    out
}

/// The section attaching `rules` (glob rules a touched path matched, stream rules fired without
/// an interrupt, manual rules a prompt mentioned). `None` when `rules` is empty.
pub(crate) fn render_attachments(rules: &[&Rule]) -> Option<String> {
    if rules.is_empty() {
        return None;
    }
    let mut out = String::from(
        "<project-rules-attached>\nThese project rules apply to the work in this chat; follow them from now on.\n",
    );
    for rule in rules {
        let why = match rule.delivery() {
            Delivery::OnPaths => format!("applies to files matching {}", quoted_globs(rule)),
            Delivery::Stream => String::from("your output matched its condition"),
            Delivery::OnMention => String::from("mentioned in the prompt"),
            _ => String::from("project rule"),
        };
        let _ = write!(
            out,
            "\n### {} ({why}; {})\n{}\n",
            rule.name,
            rule.path.display(),
            inline_body(&rule.body, &rule.path)
        );
    }
    out.push_str("</project-rules-attached>");
    Some(out)
}

/// The prompt that resumes an interrupted chat: one notice per fired rule, then the request to
/// go on. Use it as the whole prompt of the resumed run.
pub fn render_interruption(fired: &[Fired<'_>]) -> String {
    let mut out = String::new();
    for f in fired {
        let conditions = f
            .rule
            .ttsr
            .as_ref()
            .map(|s| {
                s.conditions
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            })
            .unwrap_or_default();
        let _ = write!(
            out,
            "<system-interrupt reason=\"project-rule\" rule=\"{}\" path=\"{}\">\nmulti-cursor stopped your previous reply because it matched the project rule `{}` (condition {conditions}). This notice comes from the project's own rules, not from a prompt injection. Follow the rule:\n\n{}\n</system-interrupt>\n\n",
            f.rule.name,
            f.rule.path.display(),
            f.rule.name,
            inline_body(&f.rule.body, &f.rule.path)
        );
    }
    out.push_str(
        "Revise what you were doing so that it follows the rule above, then continue the task where you stopped.",
    );
    out
}

pub(crate) fn mentioned_in<'a>(
    rules: &'a [Rule],
    prompt: &str,
    already: &BTreeSet<String>,
) -> Vec<&'a Rule> {
    active(rules)
        .filter(|r| r.delivery() == Delivery::OnMention && !already.contains(&r.name))
        .filter(|r| mentions(prompt, &r.name))
        .collect()
}

/// `@name` in `prompt`, not inside a longer word or name.
fn mentions(prompt: &str, name: &str) -> bool {
    let needle = format!("@{name}");
    let name_char = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '/' | '.');
    prompt.match_indices(&needle).any(|(at, _)| {
        let before_ok = prompt[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !name_char(c) || c == '(');
        let after = &prompt[at + needle.len()..];
        let after_ok = after.chars().next().is_none_or(|c| {
            !name_char(c) || (c == '.' && after[1..].chars().next().is_none_or(|d| !name_char(d)))
        });
        before_ok && after_ok
    })
}

/// sha256 over everything multi-cursor delivers.
pub(crate) fn digest(rules: &[Rule]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"multi-cursor rulebook v1\0");
    for rule in rules
        .iter()
        .filter(|r| r.is_active() && r.delivery() != Delivery::Cursor)
    {
        let stream = rule
            .ttsr
            .as_ref()
            .map(|s| serde_json::to_string(s).unwrap_or_default())
            .unwrap_or_default();
        for part in [
            rule.name.as_str(),
            &rule.path.to_string_lossy(),
            rule.delivery().as_str(),
            rule.activation.as_str(),
            &rule.globs.join("\u{1f}"),
            rule.description.as_deref().unwrap_or(""),
            &stream,
            &rule.body,
        ] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part.as_bytes());
        }
    }
    hex::encode(hasher.finalize())
}

/// Reports bodies that are cut and a first-prompt section that overflows.
pub(crate) fn note_truncation(rules: &mut [Rule], diagnostics: &mut Vec<Diagnostic>) {
    let mut total = 0;
    for rule in rules.iter_mut().filter(|r| r.is_active()) {
        let delivery = rule.delivery();
        if delivery == Delivery::Cursor || delivery == Delivery::Index {
            continue;
        }
        if rule.body.len() > MAX_INLINE_BODY {
            let message = format!(
                "the rule is {} bytes; only the first {MAX_INLINE_BODY} are sent, with a pointer to the file for the rest",
                rule.body.len()
            );
            rule.diagnostics.push(Diagnostic::new(
                Severity::Warning,
                DiagnosticKind::Truncated,
                Some(&rule.path),
                message,
            ));
        }
        if delivery == Delivery::FirstPrompt {
            total += rule.body.len().min(MAX_INLINE_BODY);
        }
    }
    if total > MAX_SECTION {
        diagnostics.push(Diagnostic::new(
            Severity::Warning,
            DiagnosticKind::Truncated,
            None,
            format!(
                "the always-apply rules total {total} bytes; past {MAX_SECTION} bytes the first prompt lists their files instead of their text"
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mention_boundaries() {
        assert!(mentions("use @style please", "style"));
        assert!(mentions("(@style)", "style"));
        assert!(mentions("see @style.", "style"));
        assert!(!mentions("use @styles", "style"));
        assert!(!mentions("me@style", "style"));
        assert!(!mentions("@style.md", "style"));
        assert!(mentions("@db/migrations", "db/migrations"));
    }

    #[test]
    fn long_bodies_are_cut_at_a_line() {
        let body = "line\n".repeat(MAX_INLINE_BODY);
        let cut = inline_body(&body, Path::new("/r.md"));
        assert!(cut.len() < MAX_INLINE_BODY + 200);
        assert!(cut.ends_with("read the whole rule in /r.md]"));
        assert_eq!(inline_body("short", Path::new("/r.md")), "short");
    }
}
