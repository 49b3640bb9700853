//! [`Rulebook`]: every rule of a workspace, loaded in one pass, and the API a turn uses.

use std::collections::BTreeSet;
use std::path::Path;
use std::path::PathBuf;

use super::activation;
use super::chat::ChatRules;
use super::diagnostic::Diagnostic;
use super::diagnostic::DiagnosticKind;
use super::diagnostic::Severity;
use super::discover;
use super::prompt;
use super::prompt::Attachment;
use super::prompt::render_attachments;
use super::rule::Level;
use super::rule::Rule;
use super::rule::RuleStatus;
use super::stream_rules::StreamMatcher;
use super::stream_rules::StreamWatch;
use crate::cursor::events::ToolCall;

/// Every rule of a workspace, in precedence order, with what went wrong.
#[derive(Debug)]
pub struct Rulebook {
    workspace: PathBuf,
    git_root: Option<PathBuf>,
    home: Option<PathBuf>,
    rules: Vec<Rule>,
    diagnostics: Vec<Diagnostic>,
    stream: StreamMatcher,
    digest: String,
}

impl Rulebook {
    /// Discovers and normalises every rule of `workspace` (and of `home` for user-level files;
    /// `None` skips them). Called before each Cursor turn; cheap (no network, one pass over the
    /// rule folders). Never fails: an unreadable file, a bad glob or regex, a YAML fallback or a
    /// dropped rule is a `Diagnostic`.
    pub fn load(workspace: &Path, home: Option<&Path>) -> Rulebook {
        let workspace =
            crate::platform::canonicalize(workspace).unwrap_or_else(|_| workspace.into());
        let home = home.map(|h| crate::platform::canonicalize(h).unwrap_or_else(|_| h.into()));
        let found = discover::discover(&workspace, home.as_deref());
        let mut diagnostics = found.diagnostics;
        let mut rules: Vec<Rule> = found
            .candidates
            .iter()
            .map(|candidate| activation::build_rule(candidate, &workspace, home.as_deref()))
            .collect();
        rules.sort_by_cached_key(precedence);
        dedupe(&mut rules);
        let stream = StreamMatcher::build(&mut rules);
        prompt::note_truncation(&mut rules, &mut diagnostics);
        let digest = prompt::digest(&rules);
        Rulebook {
            workspace,
            git_root: found.git_root,
            home,
            rules,
            diagnostics,
            stream,
            digest,
        }
    }

    /// [`Rulebook::load`] with the current user's home folder.
    pub(crate) fn load_for_user(workspace: &Path) -> Rulebook {
        // The home the gateway reads rules from (`USERPROFILE` on Windows, `HOME` elsewhere).
        let home = crate::platform::places::home().map(PathBuf::from);
        Rulebook::load(workspace, home.as_deref())
    }

    /// The canonical workspace the rulebook was loaded for.
    pub(crate) fn workspace(&self) -> &Path {
        &self.workspace
    }

    /// The git root that bounded the walks (`None`: not in a git repository, so only the
    /// workspace folder itself was searched).
    pub(crate) fn git_root(&self) -> Option<&Path> {
        self.git_root.as_deref()
    }

    /// Every rule found, in precedence order (priority, project before user, nearer folder
    /// first, then path), including shadowed and dropped ones.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The rules that take part (valid and first of their name), in precedence order.
    pub fn active(&self) -> impl Iterator<Item = &Rule> {
        self.rules.iter().filter(|r| r.is_active())
    }

    /// The active rule called `name` (the one multi-cursor delivers when Cursor also has a
    /// file of that name).
    pub(crate) fn get(&self, name: &str) -> Option<&Rule> {
        self.active()
            .find(|r| r.name == name && !r.native)
            .or_else(|| self.active().find(|r| r.name == name))
    }

    /// Diagnostics not tied to one rule (unreadable folders, walk limits, size caps).
    pub(crate) fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Every diagnostic: the rulebook's, then each rule's.
    pub(crate) fn all_diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .chain(self.rules.iter().flat_map(|r| r.diagnostics.iter()))
    }

    /// Whether any diagnostic is an error (`multi-cursor rules` then exits 1).
    pub(crate) fn has_errors(&self) -> bool {
        self.all_diagnostics()
            .any(|d| d.severity == Severity::Error)
    }

    /// Lowercase hex sha256 of everything multi-cursor delivers (names, paths, activations,
    /// globs, descriptions, conditions, bodies). Store it in the session record
    /// (`rulebookDigest`); when it differs on a later turn, send
    /// [`Rulebook::first_prompt_section`] again. Rules Cursor loads itself do not count.
    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// What a chat's first prompt carries (and any prompt after the digest changed): the bodies
    /// of the Always rules and an index of the rules Cursor should read on demand (agent-requested
    /// and glob rules, with their absolute paths). `None` when there is nothing to send.
    pub fn first_prompt_section(&self) -> Option<String> {
        prompt::first_prompt_section(&self.rules, |path| self.display_path(path))
    }

    /// The glob rules that `paths` (absolute, or relative to the workspace) attach and that are
    /// not in `already` (the chat's `attachedRules`), in precedence order, each with the first
    /// path that matched. Rules Cursor loads itself are not returned.
    pub fn attach_for_paths(
        &self,
        paths: &[PathBuf],
        already: &BTreeSet<String>,
    ) -> Vec<Attachment<'_>> {
        prompt::attach_for_paths(&self.rules, paths, already)
    }

    /// [`Rulebook::attach_for_paths`] for the paths named in one Cursor tool call's arguments
    /// (`path`, `filePath`, `targetFile`, `paths[]`, …; see `ToolCall::paths`).
    pub fn attach_for_tool_call(
        &self,
        call: &ToolCall,
        already: &BTreeSet<String>,
    ) -> Vec<Attachment<'_>> {
        self.attach_for_paths(&call.paths(), already)
    }

    /// Manual rules a prompt asks for by `@name` (word-bounded), not in `already`.
    pub fn mentioned_in(&self, prompt: &str, already: &BTreeSet<String>) -> Vec<&Rule> {
        prompt::mentioned_in(&self.rules, prompt, already)
    }

    /// The stream rules whose condition matches `text` as one text stream, skipping names in
    /// `already` (the chat's `firedRules`). For whole texts; a live run uses
    /// [`Rulebook::stream_watch`].
    pub fn fired_by(&self, text: &str, already: &BTreeSet<String>) -> Vec<&Rule> {
        let mut watch = self.stream_watch(already);
        let mut fired: Vec<&Rule> = watch.text(text).into_iter().map(|f| f.rule).collect();
        fired.extend(watch.end_text().into_iter().map(|f| f.rule));
        fired
    }

    /// A watcher for one Claude turn: feed it Cursor's events as they arrive; it reports stream
    /// rules whose condition matched (each at most once per chat: `already` is the chat's
    /// `firedRules`; at most
    /// `MAX_INTERRUPTS_PER_TURN` interrupts per
    /// turn). Constant memory per stream, constant work per byte.
    pub fn stream_watch(&self, already: &BTreeSet<String>) -> StreamWatch<'_> {
        StreamWatch::new(&self.rules, &self.stream, already)
    }

    /// The prefix of the next Cursor prompt of a chat, updating `chat`: the full first-prompt
    /// section when `first_turn` or when the digest changed since `chat.rulebook_digest`, then
    /// the rules pending from the previous turn (attached by paths, or fired without an
    /// interrupt) and manual rules `user_prompt` mentions. Returns `None` when there is nothing
    /// to add. Persist `chat` in the session record with the turn.
    pub fn prompt_preamble(
        &self,
        chat: &mut ChatRules,
        first_turn: bool,
        user_prompt: &str,
    ) -> Option<String> {
        let mut parts = Vec::new();
        if first_turn {
            // A new Cursor chat remembers nothing of an older one.
            chat.attached_rules.clear();
            chat.fired_rules.clear();
        }
        let changed = chat.rulebook_digest.as_deref() != Some(self.digest());
        if (first_turn || changed)
            && let Some(section) = self.first_prompt_section()
        {
            parts.push(section);
        }
        chat.rulebook_digest = Some(self.digest().to_string());

        let mut attach: Vec<&Rule> = Vec::new();
        for name in chat.pending_rules.drain(..) {
            if let Some(rule) = self.get(&name)
                && !attach.iter().any(|r| r.name == rule.name)
            {
                attach.push(rule);
            }
        }
        for rule in self.mentioned_in(user_prompt, &chat.attached_rules) {
            chat.attached_rules.insert(rule.name.clone());
            if !attach.iter().any(|r| r.name == rule.name) {
                attach.push(rule);
            }
        }
        if let Some(section) = render_attachments(&attach) {
            parts.push(section);
        }
        (!parts.is_empty()).then(|| parts.join("\n\n"))
    }

    /// `path` for people: relative to the workspace when inside it, `~/…` in the home folder,
    /// absolute otherwise.
    pub(crate) fn display_path(&self, path: &Path) -> String {
        if let Ok(rel) = path.strip_prefix(&self.workspace) {
            return rel.display().to_string();
        }
        if let Some(rest) = self.home.as_deref().and_then(|h| path.strip_prefix(h).ok()) {
            // `~\.claude\rules\a.md` on Windows, not a mixed `~/.claude\rules\a.md`.
            return format!("~{}{}", std::path::MAIN_SEPARATOR, rest.display());
        }
        path.display().to_string()
    }
}

/// Sort key: priority (high first), project before user, nearer folder first, path bytes.
fn precedence(rule: &Rule) -> (std::cmp::Reverse<u8>, Level, usize, Vec<u8>) {
    (
        std::cmp::Reverse(rule.source.priority),
        rule.source.level,
        rule.source.distance,
        rule.path.as_os_str().as_encoded_bytes().to_vec(),
    )
}

/// First valid rule of each name wins; later valid ones are shadowed (and say so). Dropped
/// rules never take a name. Rules Cursor loads itself stand outside: Cursor applies them
/// whatever multi-cursor sends, so they neither shadow nor are shadowed (a note says when a
/// delivered rule shares the name).
fn dedupe(rules: &mut [Rule]) {
    let mut winners: Vec<(String, PathBuf)> = Vec::new();
    for rule in rules.iter_mut() {
        if rule.status == RuleStatus::Dropped || rule.native {
            continue;
        }
        match winners.iter().find(|(name, _)| *name == rule.name) {
            Some((_, by)) => {
                rule.diagnostics.push(Diagnostic::new(
                    Severity::Info,
                    DiagnosticKind::Shadowed,
                    Some(&rule.path),
                    format!(
                        "rule `{}` is shadowed by {} (same name, higher precedence); it is not delivered",
                        rule.name,
                        by.display()
                    ),
                ));
                rule.status = RuleStatus::Shadowed { by: by.clone() };
            }
            None => winners.push((rule.name.clone(), rule.path.clone())),
        }
    }
    for rule in rules
        .iter_mut()
        .filter(|r| r.native && r.status == RuleStatus::Active)
    {
        if let Some((_, other)) = winners.iter().find(|(name, _)| *name == rule.name) {
            rule.diagnostics.push(Diagnostic::new(
                Severity::Info,
                DiagnosticKind::Shadowed,
                Some(&rule.path),
                format!(
                    "multi-cursor also delivers a rule `{}` ({}); Cursor loads this file itself, so both apply",
                    rule.name,
                    other.display()
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}

    /// The gateway shares a rulebook across tasks and holds a watch across awaits.
    #[test]
    fn rulebook_and_watch_cross_threads() {
        send_sync::<Rulebook>();
        send::<StreamWatch<'static>>();
        send_sync::<ChatRules>();
    }
}
