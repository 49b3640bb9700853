//! Settings admission: whether Claude's permission settings hold for a Cursor turn, and the
//! notices that go with it (ARCHITECTURE.md "Policy parity").
//!
//! multi-cursor has no per-run way to hand Cursor extra rules (no flag; `CURSOR_CONFIG_DIR`
//! would hide the user's Cursor login, which lives in that folder; `.cursor/cli.json` is the
//! user's file). So every Claude `permissions.deny` and `permissions.ask` rule must already be
//! enforced by Cursor's own configuration — the workspace's `.cursor/cli.json` or Cursor's
//! global `cli-config.json` denying the rule's Cursor token (or a broader one) — or the request
//! is refused, naming each rule, its file, and the fix. Claude's command sandbox has no Cursor
//! equivalent and is refused the same way. Rules for Claude-only tools (subagents, to-do list…)
//! are admitted and listed, never dropped silently.

use std::fmt;
use std::path::Path;
use std::path::PathBuf;

use serde_json::Value;

use super::ClaudeMode;
use super::cursor_config;
use super::cursor_config::CursorConfigs;
use super::settings;
use super::settings::Layer;
use super::settings::McpServer;
use super::settings::PolicyInputs;
use super::translate;
use super::translate::Translation;
use crate::cursor::command::CursorMode;

/// Refusal lines listed at most; the rest are counted.
const MAX_LISTED: usize = 12;

/// Claude's tool hooks, none of which runs for Cursor's native actions.
const TOOL_HOOK_EVENTS: [&str; 3] = ["PreToolUse", "PostToolUse", "PermissionRequest"];

/// A deny or an ask rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RuleKind {
    /// `permissions.deny`.
    Deny,
    /// `permissions.ask`.
    Ask,
}

impl RuleKind {
    fn key(self) -> &'static str {
        match self {
            RuleKind::Deny => "deny",
            RuleKind::Ask => "ask",
        }
    }
}

/// Something in Claude's settings Cursor would not be bound by: one line of a refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unenforced {
    /// A deny or ask rule Cursor's config does not enforce. `cursor` is its Cursor token when
    /// one exists, else `why` says why not.
    Rule {
        kind: RuleKind,
        rule: String,
        file: String,
        cursor: Option<String>,
        why: Option<String>,
    },
    /// Claude's command sandbox is on.
    Sandbox { file: String },
    /// A settings value of the wrong shape (`what` names it).
    Malformed { what: String, file: String },
    /// A settings file that exists but could not be used.
    Unreadable { file: String, reason: String },
    /// The session's mode is turned off by a setting (only reachable through
    /// `serve --permission-mode`: hooks report the mode Claude Code really runs in).
    ModeDisabled {
        mode: &'static str,
        key: &'static str,
        file: String,
    },
}

impl fmt::Display for Unenforced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unenforced::Rule {
                kind: RuleKind::Deny,
                rule,
                file,
                cursor: Some(token),
                ..
            } => write!(f, "deny rule `{rule}` in {file} (for Cursor: `{token}`)"),
            Unenforced::Rule {
                kind: RuleKind::Ask,
                rule,
                file,
                cursor: Some(token),
                ..
            } => write!(
                f,
                "ask rule `{rule}` in {file} (Cursor cannot ask you from inside Claude Code; as a Cursor deny rule: `{token}`)"
            ),
            Unenforced::Rule {
                kind,
                rule,
                file,
                why,
                ..
            } => write!(
                f,
                "{} rule `{rule}` in {file} has no Cursor equivalent ({})",
                kind.key(),
                why.as_deref().unwrap_or("no Cursor permission token")
            ),
            Unenforced::Sandbox { file } => write!(
                f,
                "`sandbox.enabled` in {file} (Cursor's print mode has no equivalent of Claude's command sandbox)"
            ),
            Unenforced::Malformed { what, file } => write!(f, "{what} in {file}"),
            Unenforced::Unreadable { file, reason } => {
                write!(f, "{file} could not be read: {reason}")
            }
            Unenforced::ModeDisabled { mode, key, file } => write!(
                f,
                "`{key}: \"disable\"` in {file} turns off {mode}, which this request would run in"
            ),
        }
    }
}

/// Why Claude's settings keep Cursor from running; its message lists every item and the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SettingsRefusal {
    /// What Cursor would not be bound by, in settings precedence order.
    pub items: Vec<Unenforced>,
    /// The workspace's `.cursor/cli.json`, where the fix goes.
    pub project_config: PathBuf,
    /// Cursor config files that exist but are not valid (their rules did not count).
    pub broken: Vec<cursor_config::BrokenConfig>,
}

impl SettingsRefusal {
    /// Cursor tokens the user can mirror, in order, without repeats.
    pub(crate) fn tokens(&self) -> Vec<&str> {
        let mut tokens: Vec<&str> = Vec::new();
        for item in &self.items {
            if let Unenforced::Rule {
                cursor: Some(token),
                ..
            } = item
                && !tokens.contains(&token.as_str())
            {
                tokens.push(token);
            }
        }
        tokens
    }
}

impl fmt::Display for SettingsRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = self.items.len();
        write!(
            f,
            "Cursor did not run: {count} of Claude's permission settings would not bind Cursor's own actions. \
             multi-cursor has no per-run way to hand Cursor extra rules without editing your files or moving your Cursor login, \
             so Cursor must enforce each one itself. "
        )?;
        let listed: Vec<String> = self
            .items
            .iter()
            .take(MAX_LISTED)
            .map(ToString::to_string)
            .collect();
        write!(f, "{}", listed.join("; "))?;
        if count > MAX_LISTED {
            write!(
                f,
                "; and {} more (`multi-cursor status` shows this refusal)",
                count - MAX_LISTED
            )?;
        }
        write!(f, ". To use Cursor here: ")?;
        let mut fixes = Vec::new();
        let tokens = self.tokens();
        if !tokens.is_empty() {
            let list = serde_json::to_string(&tokens).unwrap_or_default();
            fixes.push(format!(
                "add {list} to \"permissions.deny\" in {} (Cursor enforces that file itself)",
                self.project_config.display()
            ));
        }
        let has = |pred: fn(&Unenforced) -> bool| self.items.iter().any(pred);
        if has(|i| {
            matches!(
                i,
                Unenforced::Sandbox { .. } | Unenforced::Rule { cursor: None, .. }
            )
        }) {
            fixes.push(
                "remove the settings Cursor has no equivalent for from those files (or keep this work on a Claude model)"
                    .to_string(),
            );
        }
        if has(|i| {
            matches!(
                i,
                Unenforced::Unreadable { .. } | Unenforced::Malformed { .. }
            )
        }) {
            fixes.push("fix the settings that could not be used".to_string());
        }
        if has(|i| matches!(i, Unenforced::ModeDisabled { .. })) {
            fixes.push(
                "choose another permission mode (Shift+Tab, or `multi-cursor serve --permission-mode <mode>`)"
                    .to_string(),
            );
        }
        for broken in &self.broken {
            fixes.push(format!(
                "repair {} ({}; Cursor replaces an invalid file, so its rules do not count)",
                broken.path.display(),
                broken.reason
            ));
        }
        write!(f, "{}, then send your message again.", fixes.join("; "))
    }
}

impl std::error::Error for SettingsRefusal {}

/// A Claude rule Cursor is bound by (or that concerns a Claude-only tool).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AdmittedRule {
    /// Deny or ask.
    pub kind: RuleKind,
    /// The Claude rule as written.
    pub rule: String,
    /// The settings file it came from.
    pub file: String,
    /// Its Cursor token and the Cursor config file whose deny list enforces it; `None` for a
    /// Claude-only tool.
    pub enforced: Option<(String, PathBuf)>,
}

/// The policy a Cursor turn was admitted under.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Admitted {
    /// Every deny and ask rule from Claude's settings and how it holds.
    pub rules: Vec<AdmittedRule>,
    /// Cursor settings that let it act without asking beyond its allowlist: an
    /// `approvalMode` other than `allowlist` (or `auto-review`, for a turn that runs Cursor's
    /// auto review) and catch-all allow entries, each with its file. A turn bounded by Cursor's
    /// allowlist is refused over them (`policy::check_not_widened`); a read-only one warns.
    pub widening: Vec<String>,
    /// Claude's allow rules pre-approve every edit (`Edit` or `Write`, unscoped or `(**)`):
    /// what lets don't ask mode give Cursor edits.
    pub edits_preapproved: bool,
    /// Claude tool hooks (`event`, file) that Cursor's native actions bypass.
    pub tool_hooks: Vec<(String, String)>,
    /// Claude MCP servers, which Cursor neither uses nor reports to.
    pub mcp_servers: Vec<McpServer>,
    /// The mode it was admitted for.
    pub mode: Option<ClaudeMode>,
    /// Every deny entry of Cursor's project and global config (each Claude deny and ask rule
    /// is enforced by one of them): a token one of them names is never offered to allow.
    pub cursor_deny: Vec<String>,
}

impl Admitted {
    /// The admitted rules in one line, for the exchange key, the session record's `policy` and
    /// `multi-cursor status`.
    pub(crate) fn description(&self) -> String {
        let rules: Vec<String> = self
            .rules
            .iter()
            .map(|r| match &r.enforced {
                Some((token, by)) => format!(
                    "{} {} ({}) = {token} in {}",
                    r.kind.key(),
                    r.rule,
                    r.file,
                    by.display()
                ),
                None => format!(
                    "{} {} ({}) = Claude-only tool",
                    r.kind.key(),
                    r.rule,
                    r.file
                ),
            })
            .collect();
        let mut text = if rules.is_empty() {
            "claude-rules=none".to_string()
        } else {
            format!("claude-rules=[{}]", rules.join("; "))
        };
        if !self.widening.is_empty() {
            text.push_str(&format!("; widened-by=[{}]", self.widening.join("; ")));
        }
        text
    }

    /// The warning that Cursor's own config could widen a read-only turn (plan, or the
    /// read-only answer of manual mode), if it does: the first line of every answer in that
    /// state.
    pub(crate) fn widening_notice(&self, cursor: CursorMode) -> Option<String> {
        if self.widening.is_empty() || !matches!(cursor, CursorMode::Plan | CursorMode::Ask) {
            return None;
        }
        let mode = self.mode.map_or("this session's", ClaudeMode::label);
        Some(format!(
            "[Cursor] Warning: your Cursor configuration lets Cursor do more than Claude's {mode} allows: {}. Remove it to keep Cursor read-only.",
            self.widening.join("; "),
        ))
    }

    /// The once-per-session notice that Claude's tool hooks and MCP servers do not see Cursor's
    /// native actions, if the session has any.
    pub(crate) fn session_notice(&self) -> Option<String> {
        let mut parts = Vec::new();
        if !self.tool_hooks.is_empty() {
            let mut events: Vec<&str> = self.tool_hooks.iter().map(|(e, _)| e.as_str()).collect();
            events.dedup();
            let mut files: Vec<&str> = self.tool_hooks.iter().map(|(_, f)| f.as_str()).collect();
            files.sort_unstable();
            files.dedup();
            parts.push(format!(
                "{} hooks (in {})",
                events.join("/"),
                files.join(", ")
            ));
        }
        if !self.mcp_servers.is_empty() {
            let names: Vec<&str> = self.mcp_servers.iter().map(|s| s.name.as_str()).collect();
            parts.push(format!("MCP servers ({})", names.join(", ")));
        }
        if parts.is_empty() {
            return None;
        }
        Some(format!(
            "[Cursor] Note: Claude's {} do not see Cursor's native actions: Cursor reads, edits and runs commands with its own tools, so those hooks do not run for them (unless Cursor 2026.10's setting to include third-party configs runs them itself) and Cursor does not use those servers.",
            parts.join(" and ")
        ))
    }
}

/// The strings of `settings[a][b]`, or a [`Unenforced::Malformed`] when it is not a list of
/// strings.
fn rule_list(layer: &Layer, kind: RuleKind, problems: &mut Vec<Unenforced>) -> Vec<String> {
    let Some(value) = layer
        .settings
        .get("permissions")
        .and_then(|p| p.get(kind.key()))
    else {
        return Vec::new();
    };
    let malformed = |what: String| Unenforced::Malformed {
        what,
        file: layer.file.clone(),
    };
    let Value::Array(items) = value else {
        problems.push(malformed(format!(
            "`permissions.{}` is not a list",
            kind.key()
        )));
        return Vec::new();
    };
    let mut rules = Vec::new();
    for item in items {
        match item.as_str() {
            Some(rule) => rules.push(rule.trim().to_string()),
            None => problems.push(malformed(format!(
                "a `permissions.{}` entry ({item}) is not a string",
                kind.key()
            ))),
        }
    }
    rules
}

/// The effective `sandbox.enabled` (the highest-precedence layer that sets it) and its file.
fn sandbox_on(layers: &[Layer], problems: &mut Vec<Unenforced>) -> Option<String> {
    for layer in layers {
        let Some(sandbox) = layer.settings.get("sandbox") else {
            continue;
        };
        match sandbox.get("enabled") {
            Some(Value::Bool(true)) => return Some(layer.file.clone()),
            Some(Value::Bool(false)) => return None,
            None if sandbox.is_object() => {}
            _ => {
                problems.push(Unenforced::Malformed {
                    what: "`sandbox` is not an object with a true/false `enabled`".to_string(),
                    file: layer.file.clone(),
                });
                return None;
            }
        }
    }
    None
}

fn mode_disabled(mode: ClaudeMode, layers: &[Layer]) -> Option<Unenforced> {
    let disabled = |v: Option<&Value>| v.and_then(Value::as_str) == Some("disable");
    for layer in layers {
        let permissions = layer.settings.get("permissions");
        let hit = match mode {
            ClaudeMode::BypassPermissions => {
                disabled(permissions.and_then(|p| p.get("disableBypassPermissionsMode")))
                    .then_some("permissions.disableBypassPermissionsMode")
            }
            ClaudeMode::Auto => {
                if disabled(permissions.and_then(|p| p.get("disableAutoMode"))) {
                    Some("permissions.disableAutoMode")
                } else if disabled(layer.settings.get("disableAutoMode")) {
                    Some("disableAutoMode")
                } else {
                    None
                }
            }
            _ => None,
        };
        if let Some(key) = hit {
            return Some(Unenforced::ModeDisabled {
                mode: mode.label(),
                key,
                file: layer.file.clone(),
            });
        }
    }
    None
}

fn tool_hooks(layers: &[Layer]) -> Vec<(String, String)> {
    if layers
        .iter()
        .any(|l| l.settings.get("disableAllHooks") == Some(&Value::Bool(true)))
    {
        return Vec::new();
    }
    let mut hooks = Vec::new();
    for event in TOOL_HOOK_EVENTS {
        for layer in layers {
            let configured = layer
                .settings
                .get("hooks")
                .and_then(|h| h.get(event))
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty());
            if configured {
                hooks.push((event.to_string(), layer.file.clone()));
            }
        }
    }
    hooks
}

/// Cursor settings that let it act without asking beyond its allowlist (see
/// [`Admitted::widening`]); `auto_review` accepts `approvalMode: "auto-review"`.
fn widening(cursor: &CursorConfigs, auto_review: bool) -> Vec<String> {
    let mut found = Vec::new();
    for file in &cursor.files {
        match file.approval_mode.as_deref() {
            None | Some("allowlist") => {}
            Some("auto-review") if auto_review => {}
            Some(other) => found.push(format!(
                "`approvalMode: {}` in {}",
                serde_json::Value::from(other),
                file.path.display()
            )),
        }
        for entry in file
            .allow
            .iter()
            .filter(|e| cursor_config::is_catch_all_allow(e))
        {
            found.push(format!("allow `{entry}` in {}", file.path.display()));
        }
    }
    found
}

/// Whether Claude's allow rules pre-approve every edit: `Edit` or `Write`, unscoped or
/// `(**)`, in any layer.
fn edits_preapproved(layers: &[Layer]) -> bool {
    layers.iter().any(|layer| {
        layer
            .settings
            .get("permissions")
            .and_then(|p| p.get("allow"))
            .and_then(Value::as_array)
            .is_some_and(|allow| {
                allow.iter().filter_map(Value::as_str).any(|rule| {
                    matches!(
                        rule.trim(),
                        "Edit" | "Write" | "Edit(**)" | "Write(**)" | "Edit(/**)" | "Write(/**)"
                    )
                })
            })
    })
}

/// Admits (or refuses) a Cursor turn in `workspace` under `mode`, reading Claude's settings
/// and Cursor's config now. Called by the gateway for every `multi/cursor/*` request, before
/// anything runs.
pub(crate) fn admit_settings(
    inputs: &PolicyInputs,
    mode: Option<ClaudeMode>,
    workspace: &Path,
) -> Result<Admitted, SettingsRefusal> {
    let (layers, unreadable) = settings::read_layers(inputs, workspace);
    let cursor = CursorConfigs::read(inputs, workspace);
    let mut problems: Vec<Unenforced> = unreadable
        .into_iter()
        .map(|u| Unenforced::Unreadable {
            file: u.file,
            reason: u.reason,
        })
        .collect();
    problems.extend(mode.and_then(|mode| mode_disabled(mode, &layers)));
    let mut admitted = Admitted {
        mode,
        cursor_deny: cursor
            .files
            .iter()
            .flat_map(|f| f.deny.iter().cloned())
            .collect(),
        ..Admitted::default()
    };
    for layer in &layers {
        for kind in [RuleKind::Deny, RuleKind::Ask] {
            for rule in rule_list(layer, kind, &mut problems) {
                let unenforced = |cursor: Option<String>, why: Option<String>| Unenforced::Rule {
                    kind,
                    rule: rule.clone(),
                    file: layer.file.clone(),
                    cursor,
                    why,
                };
                match translate::translate(&rule, inputs.home.as_deref()) {
                    Translation::ClaudeOnly => admitted.rules.push(AdmittedRule {
                        kind,
                        rule: rule.clone(),
                        file: layer.file.clone(),
                        enforced: None,
                    }),
                    Translation::Inexpressible(why) => problems.push(unenforced(None, Some(why))),
                    Translation::Cursor(token) => {
                        match cursor
                            .enforcing(|deny| token.enforced_by(deny.iter().map(String::as_str)))
                        {
                            Some(by) => admitted.rules.push(AdmittedRule {
                                kind,
                                rule: rule.clone(),
                                file: layer.file.clone(),
                                enforced: Some((token.token.clone(), by.to_path_buf())),
                            }),
                            None => problems.push(unenforced(Some(token.token), None)),
                        }
                    }
                }
            }
        }
    }
    if let Some(file) = sandbox_on(&layers, &mut problems) {
        problems.push(Unenforced::Sandbox { file });
    }
    if !problems.is_empty() {
        return Err(SettingsRefusal {
            items: problems,
            project_config: cursor_config::project_path(workspace),
            broken: cursor.broken,
        });
    }
    admitted.widening = widening(&cursor, mode == Some(ClaudeMode::Auto));
    admitted.edits_preapproved = edits_preapproved(&layers);
    admitted.tool_hooks = tool_hooks(&layers);
    admitted.mcp_servers = settings::claude_mcp_servers(inputs, workspace);
    Ok(admitted)
}

/// [`admit_settings`] on tokio's blocking pool (it reads files, `~/.claude.json` possibly large), for
/// the gateway's request handler.
pub(crate) async fn admit_request(
    inputs: &PolicyInputs,
    mode: Option<ClaudeMode>,
    workspace: &Path,
) -> Result<Admitted, SettingsRefusal> {
    let (owned, path) = (inputs.clone(), workspace.to_path_buf());
    match tokio::task::spawn_blocking(move || admit_settings(&owned, mode, &path)).await {
        Ok(result) => result,
        // The blocking pool is shutting down or the task panicked: decide here instead.
        Err(_) => admit_settings(inputs, mode, workspace),
    }
}

/// One line for `multi-cursor status`: the admitted policy, or the refusal's first item.
pub(crate) fn status_text(result: &Result<Admitted, SettingsRefusal>) -> String {
    match result {
        Ok(admitted) => admitted.description(),
        Err(refusal) => {
            let first = refusal
                .items
                .first()
                .map(ToString::to_string)
                .unwrap_or_default();
            let more = refusal.items.len().saturating_sub(1);
            if more > 0 {
                format!("refused: {first} (and {more} more)")
            } else {
                format!("refused: {first}")
            }
        }
    }
}

#[cfg(test)]
mod tests;
