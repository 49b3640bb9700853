//! Claude Code's settings as Claude Code itself reads them, each layer with the file it came
//! from: managed policy (per OS, plus its `managed-settings.d/` drop-ins), the launcher's
//! `--settings` values, the project's local and shared settings, and the user's settings
//! (ARCHITECTURE.md "Policy parity"). Also the Claude MCP servers a session has, for the
//! once-per-session notice.
//!
//! Everything is read again for every Cursor request (a handful of small files): Claude Code
//! picks up settings edits during a session, so the gateway does too.

use std::ffi::OsStr;
use std::path::Path;
use std::path::PathBuf;

use serde_json::Map;
use serde_json::Value;

use crate::platform::paths::joined;

/// Claude Code's own variable naming the managed-settings folder in place of the OS one. The
/// gateway honours it exactly as Claude Code does, so both read the same policy (tests point it
/// at a fixture folder so they never read the machine's).
pub(crate) const MANAGED_SETTINGS_ENV: &str = "CLAUDE_CODE_MANAGED_SETTINGS_PATH";

/// Claude Code's variable relocating `~/.claude` (and `~/.claude.json`).
pub(crate) const CLAUDE_CONFIG_DIR_ENV: &str = "CLAUDE_CONFIG_DIR";

/// Where Claude Code caches server-managed settings, in its user folder (name found in the
/// 2.1.328 binary beside `remote-settings.json.signature.json`; its layout is inferred). Read as
/// a managed layer: its `settings` object when it has one, else the whole object.
pub(crate) const REMOTE_SETTINGS_FILE: &str = "remote-settings.json";

/// Largest settings file read; a bigger one is refused as unreadable rather than skipped.
const MAX_SETTINGS_BYTES: u64 = 4 * 1024 * 1024;

/// Largest `~/.claude.json` read for MCP server names (it also holds history); beyond this the
/// MCP notice simply does not list its servers.
const MAX_CLAUDE_JSON_BYTES: u64 = 64 * 1024 * 1024;

/// Where a settings layer comes from, in Claude Code's precedence order (highest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Scope {
    /// Administrator policy: `managed-settings.json` and `managed-settings.d/*.json`.
    Managed,
    /// A `--settings` value given to the launcher.
    Flag,
    /// `<project>/.claude/settings.local.json`.
    Local,
    /// `<project>/.claude/settings.json`.
    Project,
    /// `~/.claude/settings.json` (or `$CLAUDE_CONFIG_DIR/settings.json`).
    User,
}

/// An operating system whose managed-settings folder Claude Code reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TargetOs {
    /// Linux and WSL: `/etc/claude-code`.
    Linux,
    /// macOS: `/Library/Application Support/ClaudeCode`.
    MacOs,
    /// Windows: `C:\Program Files\ClaudeCode`.
    Windows,
}

impl TargetOs {
    /// The system this binary was built for (BSDs read Linux's folder, as Claude Code does).
    pub(crate) fn current() -> TargetOs {
        if cfg!(target_os = "macos") {
            TargetOs::MacOs
        } else if cfg!(windows) {
            TargetOs::Windows
        } else {
            TargetOs::Linux
        }
    }

    /// The folder holding `managed-settings.json`, `managed-settings.d/` and `managed-mcp.json`.
    pub(crate) fn managed_dir(self) -> PathBuf {
        match self {
            TargetOs::Linux => PathBuf::from("/etc/claude-code"),
            TargetOs::MacOs => PathBuf::from("/Library/Application Support/ClaudeCode"),
            TargetOs::Windows => PathBuf::from(r"C:\Program Files\ClaudeCode"),
        }
    }
}

/// One `--settings` value the launcher gave Claude Code, as the user wrote it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FlagSettings {
    /// The file it was read from, or `--settings (inline JSON)`.
    pub origin: String,
    /// Its settings object.
    pub settings: Map<String, Value>,
}

impl FlagSettings {
    /// A launcher `--settings` value (`arg`, a file or inline JSON) and its parsed object. A
    /// file is named by its absolute path, as it was when the launcher read it.
    pub(crate) fn from_arg(arg: &OsStr, settings: Map<String, Value>) -> FlagSettings {
        let text = arg.to_string_lossy();
        let origin = if text.trim_start().starts_with('{') {
            "--settings (inline JSON)".to_string()
        } else {
            let path = Path::new(arg);
            std::path::absolute(path)
                .unwrap_or_else(|_| path.to_path_buf())
                .display()
                .to_string()
        };
        FlagSettings { origin, settings }
    }
}

/// The origin named for rules given on Claude Code's command line.
pub(crate) const DISALLOWED_TOOLS_ORIGIN: &str = "--disallowedTools (command line)";

/// The deny rules of `--disallowedTools`/`--disallowed-tools` in the user's `claude` arguments
/// (as the launcher passes them on), as one `--settings`-like layer, or `None` without any.
/// Like Claude Code, the option takes the following words up to the next option (or `=VALUE`),
/// each a comma- or space-separated list; separators inside parentheses belong to the rule.
pub(crate) fn disallowed_tools(args: &[std::ffi::OsString]) -> Option<FlagSettings> {
    let mut rules = Vec::new();
    let mut words = args.iter().map(|a| a.to_string_lossy());
    while let Some(word) = words.next() {
        if word == "--" {
            break;
        }
        let names = ["--disallowedTools", "--disallowed-tools"];
        if let Some(value) = names
            .iter()
            .find_map(|n| word.strip_prefix(n).and_then(|r| r.strip_prefix('=')))
        {
            rules.extend(split_tool_list(value));
        } else if names.contains(&word.as_ref()) {
            let mut values = Vec::new();
            for next in words.by_ref() {
                if next.starts_with('-') {
                    break;
                }
                values.push(next.into_owned());
            }
            // A word starting with `-` ended the list; it is an option of its own, but none of
            // ours, so skipping it loses nothing we read.
            for value in values {
                rules.extend(split_tool_list(&value));
            }
        }
    }
    if rules.is_empty() {
        return None;
    }
    let mut settings = Map::new();
    settings.insert(
        "permissions".to_string(),
        serde_json::json!({ "deny": rules }),
    );
    Some(FlagSettings {
        origin: DISALLOWED_TOOLS_ORIGIN.to_string(),
        settings,
    })
}

/// `"Bash(git push:*), Edit Read"` → `["Bash(git push:*)", "Edit", "Read"]`.
fn split_tool_list(value: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    for c in value.chars() {
        match c {
            '(' => {
                depth += 1;
                current.push(c);
            }
            ')' => {
                depth = depth.saturating_sub(1);
                current.push(c);
            }
            ',' | ' ' | '\t' | '\n' if depth == 0 => {
                if !current.trim().is_empty() {
                    out.push(current.trim().to_string());
                }
                current.clear();
            }
            _ => current.push(c),
        }
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    out
}

/// Where the gateway reads Claude's settings and Cursor's configuration from; fixed for the
/// gateway's lifetime (part of `GatewayConfig`). The files themselves are read per request.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct PolicyInputs {
    /// The user's home (`~` in rules, `~/.claude`, `~/.cursor`).
    pub home: Option<PathBuf>,
    /// `CLAUDE_CONFIG_DIR`, when set.
    pub claude_config_dir: Option<PathBuf>,
    /// The managed-settings folder: `CLAUDE_CODE_MANAGED_SETTINGS_PATH`, else the OS's.
    pub managed_dir: PathBuf,
    /// The launcher's `--settings` values, in order (none for `multi-cursor serve`).
    pub flag_settings: Vec<FlagSettings>,
    /// `CURSOR_CONFIG_DIR`, when set (Cursor's global config folder).
    pub cursor_config_dir: Option<PathBuf>,
    /// `XDG_CONFIG_HOME`, when set (Cursor's global config on Linux without
    /// `CURSOR_CONFIG_DIR`).
    pub xdg_config_home: Option<PathBuf>,
}

fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

impl PolicyInputs {
    /// The inputs this process's environment names. Used when the gateway's configuration is
    /// built (`GatewayConfig::from_env`); the launcher adds its `--settings` values afterwards.
    pub(crate) fn from_env() -> PolicyInputs {
        PolicyInputs {
            home: crate::platform::places::home().map(PathBuf::from),
            claude_config_dir: env_path(CLAUDE_CONFIG_DIR_ENV),
            managed_dir: env_path(MANAGED_SETTINGS_ENV)
                .unwrap_or_else(|| TargetOs::current().managed_dir()),
            flag_settings: Vec::new(),
            cursor_config_dir: env_path("CURSOR_CONFIG_DIR"),
            xdg_config_home: env_path("XDG_CONFIG_HOME"),
        }
    }

    /// Claude Code's user folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    pub(crate) fn claude_dir(&self) -> Option<PathBuf> {
        self.claude_config_dir
            .clone()
            .or_else(|| self.home.as_ref().map(|h| h.join(".claude")))
    }

    /// Claude Code's state file with user- and local-scope MCP servers:
    /// `$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json`.
    pub(crate) fn claude_json(&self) -> Option<PathBuf> {
        match &self.claude_config_dir {
            Some(dir) => Some(dir.join(".claude.json")),
            None => self.home.as_ref().map(|h| h.join(".claude.json")),
        }
    }

    /// Every settings file Claude Code would read for `workspace`, in precedence order, with
    /// its scope (the `--settings` values are not files and are not listed).
    pub(crate) fn settings_files(&self, workspace: &Path) -> Vec<(Scope, PathBuf)> {
        let mut files = vec![(
            Scope::Managed,
            self.managed_dir.join("managed-settings.json"),
        )];
        files.extend(
            drop_ins(&self.managed_dir.join("managed-settings.d"))
                .into_iter()
                .map(|p| (Scope::Managed, p)),
        );
        // Server-managed settings, as Claude Code caches them in its user folder.
        if let Some(dir) = self.claude_dir() {
            files.push((Scope::Managed, dir.join(REMOTE_SETTINGS_FILE)));
        }
        files.push((
            Scope::Local,
            joined(workspace, ".claude/settings.local.json"),
        ));
        files.push((Scope::Project, joined(workspace, ".claude/settings.json")));
        if let Some(dir) = self.claude_dir() {
            files.push((Scope::User, dir.join("settings.json")));
        }
        files
    }
}

/// `managed-settings.d/*.json` in name order, skipping dot files (as Claude Code does).
fn drop_ins(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.ends_with(".json") && !name.starts_with('.')
        })
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// One settings layer: what one file (or `--settings` value) says, and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Layer {
    /// Which of Claude Code's sources it is.
    pub scope: Scope,
    /// The file (absolute path) or `--settings (inline JSON)`.
    pub file: String,
    /// The settings object.
    pub settings: Map<String, Value>,
}

/// A settings file that exists but could not be used. It may hold deny rules, so it is never
/// skipped: the request is refused until it is fixed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unreadable {
    /// The file.
    pub file: String,
    /// What went wrong (never the file's content).
    pub reason: String,
}

/// Reads every layer Claude Code would read for `workspace`. Missing files are simply absent;
/// a file that exists but cannot be read or is not a JSON object is reported in the second list.
pub(crate) fn read_layers(
    inputs: &PolicyInputs,
    workspace: &Path,
) -> (Vec<Layer>, Vec<Unreadable>) {
    let mut layers = Vec::new();
    let mut problems = Vec::new();
    let files = inputs.settings_files(workspace);
    let mut take = |scope: Scope, path: &Path, layers: &mut Vec<Layer>| match read_object(
        path,
        MAX_SETTINGS_BYTES,
    ) {
        // An empty server-managed cache means "no server settings", not a broken file.
        Err(_) if path.ends_with(REMOTE_SETTINGS_FILE) && is_blank(path) => {}
        Ok(Some(settings)) => layers.push(Layer {
            scope,
            file: path.display().to_string(),
            settings: unwrap_remote(path, settings),
        }),
        Ok(None) => {}
        Err(reason) => problems.push(Unreadable {
            file: path.display().to_string(),
            reason,
        }),
    };
    // Precedence order: managed, then the --settings values, then local, project, user.
    for (scope, path) in files.iter().filter(|(s, _)| *s == Scope::Managed) {
        take(*scope, path, &mut layers);
    }
    layers.extend(inputs.flag_settings.iter().map(|f| Layer {
        scope: Scope::Flag,
        file: f.origin.clone(),
        settings: f.settings.clone(),
    }));
    for (scope, path) in files.iter().filter(|(s, _)| *s != Scope::Managed) {
        take(*scope, path, &mut layers);
    }
    (layers, problems)
}

/// Whether `path` holds nothing but white space.
fn is_blank(path: &Path) -> bool {
    crate::state::read_regular_file(path, MAX_SETTINGS_BYTES)
        .is_ok_and(|b| b.iter().all(u8::is_ascii_whitespace))
}

/// The settings of a cached server-managed file (`{"settings": {…}}` or the settings
/// themselves); any other file's object unchanged.
fn unwrap_remote(path: &Path, mut settings: Map<String, Value>) -> Map<String, Value> {
    if path.ends_with(REMOTE_SETTINGS_FILE)
        && let Some(Value::Object(inner)) = settings.remove("settings")
    {
        return inner;
    }
    settings
}

/// A JSON object from `path`: `Ok(None)` when there is no such file, `Err` (the reason) when it
/// exists but cannot be used. A repository decides what its `.claude/settings.json` is, so it
/// is read like a rule file ([`crate::state::read_regular_file`]): a link to `/dev/zero` or a
/// FIFO is refused, not read until memory runs out or forever.
pub(crate) fn read_object(
    path: &Path,
    max_bytes: u64,
) -> Result<Option<Map<String, Value>>, String> {
    let bytes = match crate::state::read_regular_file(path, max_bytes) {
        Ok(bytes) => bytes,
        Err(crate::state::ReadError::Io(error)) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(None);
        }
        Err(error) => return Err(error.to_string()),
    };
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(map)) => Ok(Some(map)),
        Ok(_) => Err("it is not a JSON object".to_string()),
        Err(error) => Err(format!("it is not valid JSON ({error})")),
    }
}

/// A Claude MCP server and the file that configures it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct McpServer {
    /// Its name.
    pub name: String,
    /// The file that configures it.
    pub file: String,
}

/// The Claude MCP servers a session in `workspace` has: user and local scope in
/// `~/.claude.json` (top-level and under `projects.<workspace>`), project scope in
/// `<workspace>/.mcp.json`, and `managed-mcp.json`. Unreadable files add nothing (this only
/// feeds a notice). Plugin-provided servers are not listed.
pub(crate) fn claude_mcp_servers(inputs: &PolicyInputs, workspace: &Path) -> Vec<McpServer> {
    let mut servers = Vec::new();
    let mut add = |file: &Path, object: Option<&Value>| {
        if let Some(Value::Object(map)) = object {
            servers.extend(map.keys().map(|name| McpServer {
                name: name.clone(),
                file: file.display().to_string(),
            }));
        }
    };
    if let Some(path) = inputs.claude_json()
        && let Ok(Some(state)) = read_object(&path, MAX_CLAUDE_JSON_BYTES)
    {
        add(&path, state.get("mcpServers"));
        let project = state
            .get("projects")
            .and_then(|p| p.get(workspace.to_string_lossy().as_ref()));
        add(&path, project.and_then(|p| p.get("mcpServers")));
    }
    for path in [
        workspace.join(".mcp.json"),
        inputs.managed_dir.join("managed-mcp.json"),
    ] {
        if let Ok(Some(config)) = read_object(&path, MAX_SETTINGS_BYTES) {
            add(&path, config.get("mcpServers"));
        }
    }
    servers.sort();
    servers.dedup();
    servers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn managed_folders_per_os() {
        assert_eq!(
            TargetOs::Linux.managed_dir(),
            PathBuf::from("/etc/claude-code")
        );
        assert_eq!(
            TargetOs::MacOs.managed_dir(),
            PathBuf::from("/Library/Application Support/ClaudeCode")
        );
        assert_eq!(
            TargetOs::Windows.managed_dir(),
            PathBuf::from(r"C:\Program Files\ClaudeCode")
        );
    }

    #[test]
    fn layers_in_precedence_order() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let ws = dir.path().join("ws");
        let managed = dir.path().join("managed");
        for d in [
            home.join(".claude"),
            ws.join(".claude"),
            managed.join("managed-settings.d"),
        ] {
            std::fs::create_dir_all(d).unwrap();
        }
        let write = |p: PathBuf, n: u32| std::fs::write(p, format!("{{\"n\":{n}}}")).unwrap();
        write(home.join(".claude/settings.json"), 5);
        write(ws.join(".claude/settings.json"), 4);
        write(ws.join(".claude/settings.local.json"), 3);
        write(managed.join("managed-settings.json"), 1);
        write(managed.join("managed-settings.d/10-a.json"), 2);
        write(managed.join("managed-settings.d/.hidden.json"), 99);
        let inputs = PolicyInputs {
            home: Some(home),
            managed_dir: managed,
            flag_settings: vec![FlagSettings {
                origin: "--settings (inline JSON)".into(),
                settings: serde_json::from_str("{\"n\":25}").unwrap(),
            }],
            ..PolicyInputs::default()
        };
        let (layers, problems) = read_layers(&inputs, &ws);
        assert!(problems.is_empty());
        let order: Vec<(Scope, u64)> = layers
            .iter()
            .map(|l| (l.scope, l.settings["n"].as_u64().unwrap()))
            .collect();
        assert_eq!(
            order,
            [
                (Scope::Managed, 1),
                (Scope::Managed, 2),
                (Scope::Flag, 25),
                (Scope::Local, 3),
                (Scope::Project, 4),
                (Scope::User, 5)
            ]
        );
    }

    #[test]
    fn broken_files_are_reported_not_skipped() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
        std::fs::write(dir.path().join(".claude/settings.json"), "{nope").unwrap();
        std::fs::write(dir.path().join(".claude/settings.local.json"), "[]").unwrap();
        let inputs = PolicyInputs {
            managed_dir: dir.path().join("none"),
            ..PolicyInputs::default()
        };
        let (layers, problems) = read_layers(&inputs, dir.path());
        assert!(layers.is_empty());
        assert_eq!(problems.len(), 2);
        assert!(problems[0].reason.contains("not a JSON object"));
        assert!(problems[1].reason.contains("not valid JSON"));
    }

    #[test]
    fn cached_server_settings_are_a_managed_layer() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        std::fs::write(
            home.join(".claude/remote-settings.json"),
            r#"{"settings":{"permissions":{"deny":["WebSearch"]}},"checksum":"x"}"#,
        )
        .unwrap();
        let inputs = PolicyInputs {
            home: Some(home),
            managed_dir: dir.path().join("none"),
            ..PolicyInputs::default()
        };
        let (layers, problems) = read_layers(&inputs, dir.path());
        assert!(problems.is_empty());
        assert_eq!(layers.len(), 1);
        assert_eq!(layers[0].scope, Scope::Managed);
        assert_eq!(layers[0].settings["permissions"]["deny"][0], "WebSearch");
    }

    #[test]
    fn disallowed_tools_from_the_command_line() {
        let args: Vec<std::ffi::OsString> = [
            "-p",
            "--disallowedTools",
            "Bash(git push:*), Edit",
            "WebSearch",
            "--model",
            "x",
            "--disallowed-tools=mcp__gh",
            "--",
            "--disallowedTools",
            "Read",
        ]
        .iter()
        .map(Into::into)
        .collect();
        let layer = disallowed_tools(&args).unwrap();
        assert_eq!(layer.origin, DISALLOWED_TOOLS_ORIGIN);
        assert_eq!(
            layer.settings["permissions"]["deny"],
            serde_json::json!(["Bash(git push:*)", "Edit", "WebSearch", "mcp__gh"])
        );
        assert!(disallowed_tools(&["-p".into(), "hi".into()]).is_none());
    }

    #[test]
    fn claude_config_dir_moves_user_files() {
        let inputs = PolicyInputs {
            home: Some("/h".into()),
            claude_config_dir: Some("/c".into()),
            ..PolicyInputs::default()
        };
        assert_eq!(inputs.claude_dir(), Some(PathBuf::from("/c")));
        assert_eq!(inputs.claude_json(), Some(PathBuf::from("/c/.claude.json")));
        let inputs = PolicyInputs {
            home: Some("/h".into()),
            ..PolicyInputs::default()
        };
        assert_eq!(inputs.claude_json(), Some(PathBuf::from("/h/.claude.json")));
    }
}
