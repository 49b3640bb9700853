//! Doctor's Cursor checks: the agent CLI (present, really Cursor's, its version), the login,
//! the model catalog, and MCP servers that would stall Cursor's print mode.

use super::Check;
use super::DoctorOptions;
use crate::cursor::account;
use crate::cursor::account::LoginState;
use crate::cursor::catalog;
use crate::cursor::catalog::CatalogError;
use crate::cursor::catalog::Route;
use crate::cursor::locate;
use crate::cursor::locate::AgentInfo;
use crate::cursor::locate::LocateError;
use crate::policy;

/// The Cursor agent check, and the agent when it is usable (the later checks need it).
pub(super) struct AgentFound {
    pub(super) check: Check,
    pub(super) info: Option<AgentInfo>,
}

pub(super) async fn check_agent() -> AgentFound {
    const NAME: &str = "Cursor agent";
    let found = locate::locate_agent().await;
    match found {
        Ok(info) => {
            let mut detail = format!(
                "Cursor's agent CLI {} at {}",
                info.version,
                info.path.display()
            );
            for skipped in &info.skipped {
                detail.push_str(&format!(
                    " (skipped {}: not Cursor's CLI)",
                    crate::cursor::sanitize::sanitize(&skipped.display().to_string())
                ));
            }
            if !info.supports_auto_review {
                detail.push_str(
                    " (no --auto-review: Claude Code offers no auto mode on Cursor's rows until `agent update`)",
                );
            }
            AgentFound {
                check: Check::pass(NAME, detail),
                info: Some(info),
            }
        }
        Err(error) => {
            let (detail, fix) = match &error {
                LocateError::NotFound { tried } => (
                    format!("not found (looked for {tried})"),
                    locate::install_hint(),
                ),
                LocateError::NotCursor { path, looks_like } => (
                    format!(
                        "{} is not Cursor's agent CLI (it looks like {looks_like})",
                        path.display()
                    ),
                    format!(
                        "{}, and put it before the other `agent` on PATH",
                        locate::install_hint()
                    ),
                ),
                LocateError::Unusable { path, reason } => (
                    format!("{} could not be run ({reason})", path.display()),
                    format!(
                        "reinstall the Cursor CLI ({}), or set MULTI_CURSOR_AGENT to a working one",
                        crate::platform::places::AGENT_INSTALL_COMMAND
                    ),
                ),
            };
            AgentFound {
                check: Check::fail(NAME, detail, fix),
                info: None,
            }
        }
    }
}

/// What the launcher remembers of the agent's `--version` and `--help` (the state folder's
/// probe cache, kept while the executable's path, time and size are unchanged) and when it was
/// asked, against doctor's own probe just now. A remembered answer that differs (a wrapper
/// script whose environment changed) is replaced, and said.
pub(super) fn check_agent_probe(info: &AgentInfo, state_dir: &std::path::Path) -> Check {
    const NAME: &str = "Agent probe";
    use crate::launch::agent_probe;
    let path = info.path.display();
    let review = |yes: bool| {
        if yes {
            "with --auto-review"
        } else {
            "without --auto-review"
        }
    };
    let now = format!("{}, {}", info.version, review(info.supports_auto_review));
    match agent_probe::remembered(state_dir, &info.path) {
        None => {
            agent_probe::remember(state_dir, info);
            Check::pass(
                NAME,
                format!(
                    "`{path} --version` and `--help` asked now: {now}; remembered for the launcher from now on"
                ),
            )
        }
        Some(known) => {
            let when = known
                .probed_at
                .clone()
                .unwrap_or_else(|| "at a time not recorded".to_string());
            if known.cli_version == info.version
                && known.supports_auto_review == info.supports_auto_review
            {
                return Check::pass(
                    NAME,
                    format!(
                        "`{path} --version` and `--help` remembered from {when}: {now}, as it answers now (asked again when the file changes, or when a run refuses a flag it listed)"
                    ),
                );
            }
            agent_probe::remember(state_dir, info);
            Check::warn(
                NAME,
                format!(
                    "the launcher remembered `{path}` as {}, {} (asked {when}), but it answers {now} now (a wrapper whose environment changed keeps its path, time and size)",
                    known.cli_version,
                    review(known.supports_auto_review)
                ),
                "refreshed now: the next multi-cursor start offers Cursor's rows as it answers now",
            )
        }
    }
}

pub(super) async fn check_login(agent: &AgentInfo) -> Check {
    const NAME: &str = "Cursor login";
    match account::login_state(&agent.path).await {
        Ok(LoginState::LoggedIn { who }) => Check::pass(NAME, format!("logged in as {who}")),
        Ok(LoginState::ApiKey) => Check::pass(
            NAME,
            format!("{} is set (the key is not shown)", account::API_KEY_ENV),
        ),
        Ok(LoginState::LoggedOut { said }) => Check::fail(
            NAME,
            format!("not logged in (Cursor said: {said})"),
            format!(
                "run `multi-cursor --cursor-login` (or /multi-cursor:login in Claude Code), or set {}",
                account::API_KEY_ENV
            ),
        ),
        Err(error) => Check::fail(
            NAME,
            error.to_string(),
            "check your network connection, then run `multi-cursor doctor` again",
        ),
    }
}

pub(super) async fn check_catalog(agent: &AgentInfo) -> Check {
    const NAME: &str = "Cursor models";
    let catalog = match catalog::fetch_catalog(&agent.path).await {
        Ok(catalog) => catalog,
        Err(error) => {
            let fix = match &error {
                CatalogError::LoggedOut { .. } => format!(
                    "run `multi-cursor --cursor-login`, or set {}",
                    account::API_KEY_ENV
                ),
                CatalogError::Timeout { .. } => {
                    "check your network connection, then run `multi-cursor doctor` again"
                        .to_string()
                }
                _ => format!(
                    "run `{} --list-models` yourself to see Cursor's answer; `agent update` updates the CLI",
                    agent.path.display()
                ),
            };
            return Check::fail(NAME, error.to_string(), fix);
        }
    };
    if catalog.is_empty() {
        return Check::fail(
            NAME,
            "Cursor lists no models for this account",
            "check the account's plan on cursor.com, or log in with another account (`agent logout`, then `multi-cursor --cursor-login`)",
        );
    }
    let extra = catalog::extra_models_from_env();
    let size = match catalog::PickerSize::from_env() {
        Ok(size) => size,
        Err(error) => {
            return Check::fail(
                NAME,
                error.to_string(),
                "set MULTI_CURSOR_PICKER to `all` or `short`, or unset it",
            );
        }
    };
    let picker = catalog.picker_sized(&extra, size);
    if let Err(error) = picker.check() {
        return Check::fail(
            NAME,
            error.to_string(),
            format!(
                "remove that id from {} or use one `multi-cursor --cursor-models` lists",
                crate::env::EXTRA_MODELS_ENV
            ),
        );
    }
    let rows: Vec<&str> = picker.rows.iter().map(Route::short_id).collect();
    Check::pass(
        NAME,
        format!(
            "{} models, {} routes; /model rows: {}",
            catalog.models().len(),
            catalog.routes().count(),
            if rows.is_empty() {
                "none".to_string()
            } else {
                rows.join(", ")
            }
        ),
    )
}

/// What Cursor 2026.10 may import from Claude Code: it runs the user's Claude hooks (from
/// `.claude/settings.local.json`, `.claude/settings.json` and the user's settings), loads MCP
/// servers from Claude plugins and reads `.claude/skills`, when its setting "Include
/// third-party Plugins, Skills, and other configs" is on. That setting is not in any file
/// multi-cursor can read, so this says what would run and where to look.
pub(super) fn check_claude_config(options: &DoctorOptions, agent: &AgentInfo) -> Check {
    const NAME: &str = "Claude in Cursor";
    if !agent.reads_claude_skills() {
        return Check::pass(
            NAME,
            format!(
                "Cursor {} does not load Claude Code's hooks, plugins or skills",
                agent.version
            ),
        );
    }
    let inputs = crate::policy::PolicyInputs {
        claude_config_dir: options.claude_config_dir.clone(),
        home: options.home.clone(),
        ..crate::policy::PolicyInputs::from_env()
    };
    let (layers, _) = crate::policy::settings::read_layers(&inputs, &options.workspace);
    let hooks: Vec<String> = layers
        .iter()
        .filter(|layer| {
            matches!(
                layer.scope,
                crate::policy::settings::Scope::Local
                    | crate::policy::settings::Scope::Project
                    | crate::policy::settings::Scope::User
            )
        })
        .filter_map(|layer| {
            let events: Vec<&str> = layer
                .settings
                .get("hooks")?
                .as_object()?
                .keys()
                .map(String::as_str)
                .collect();
            (!events.is_empty()).then(|| format!("{} ({})", layer.file, events.join(", ")))
        })
        .collect();
    let setting = "Cursor's setting “Include third-party Plugins, Skills, and other configs”";
    if hooks.is_empty() {
        return Check::pass(
            NAME,
            format!(
                "Cursor {} loads Claude plugins' MCP servers and .claude/skills when {setting} is on; you have no Claude hooks for it to run",
                agent.version
            ),
        );
    }
    Check::warn(
        NAME,
        format!(
            "Cursor {} runs your Claude hooks on its own actions when {setting} is on: {}; multi-cursor cannot read that setting",
            agent.version,
            crate::cursor::sanitize::sanitize(&hooks.join("; "))
        ),
        "look at that setting in Cursor: on, these hooks (PreToolUse included) also run inside Cursor turns; off, they do not. Cursor's own deny rules bind either way (docs/permissions.md)",
    )
}

pub(super) fn check_mcp(options: &DoctorOptions) -> Check {
    const NAME: &str = "MCP servers";
    let files = policy::mcp_config_files(&options.workspace, options.home.as_deref());
    let listed = || {
        files
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match policy::check_mcp(
        &options.workspace,
        options.home.as_deref(),
        options.approve_mcps,
    ) {
        Ok(()) if files.is_empty() => Check::pass(NAME, "none configured for Cursor"),
        Ok(()) => Check::pass(
            NAME,
            format!(
                "configured in {}; {}=1 lets Cursor use them",
                listed(),
                crate::env::APPROVE_MCPS_ENV
            ),
        ),
        Err(refusal) => Check::fail(
            NAME,
            format!(
                "configured in {} and not approved: Cursor turns would be refused",
                listed()
            ),
            format!(
                "set {}=1 (then restart multi-cursor) to let Cursor use them, or remove them; {refusal}",
                crate::env::APPROVE_MCPS_ENV
            ),
        ),
    }
}
