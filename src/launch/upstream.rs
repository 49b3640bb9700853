//! Where a launched session's Claude models go, resolved as Claude Code resolves its own
//! `ANTHROPIC_BASE_URL`, and the `env` block that keeps Claude Code pointed at the gateway.
//!
//! Claude Code applies the `env` object of its settings layers over its process environment,
//! key by key, the highest layer winning: managed policy, then `--settings`, then the project's
//! `.claude/settings.local.json`, its `.claude/settings.json`, then the user's
//! `settings.json` (in `$CLAUDE_CONFIG_DIR` or `~/.claude`), and last the process environment
//! (measured on 2.1.328: a user-settings `ANTHROPIC_BASE_URL` beats the process one, a
//! `--settings` one beats both). `--setting-sources user,project,local` names which of the
//! user, project and local layers are read at all; managed policy and `--settings` are always
//! read.
//!
//! So a user of another gateway (claude-code-router, LiteLLM, cc-switch…) whose settings set
//! `ANTHROPIC_BASE_URL` would bypass ours if the launcher only set its process environment.
//! When any layer read sets `ANTHROPIC_BASE_URL` or `ANTHROPIC_CUSTOM_HEADERS`, the launcher
//! puts both in its own `--settings` `env` (their header lines, then our token header) and
//! forwards Claude models to *their* URL. The token then sits in that settings file, which is
//! 0600 in the launcher's private 0700 temporary folder and removed at exit (a same-user
//! process could read it from Claude Code's environment anyway). When no layer sets either
//! variable the file holds no token: the variables stay in the process environment only.
//!
//! `MULTI_CURSOR_UPSTREAM`, when set, names the upstream whatever the layers say. A managed
//! `ANTHROPIC_BASE_URL` or `ANTHROPIC_CUSTOM_HEADERS` outranks the launcher's `--settings`, so
//! Claude Code would never reach the gateway (or never send its token): the launch stops.

use std::borrow::Cow;
use std::ffi::OsString;
use std::path::Path;

use serde_json::Map;
use serde_json::Value;
use thiserror::Error;

use crate::env::DEFAULT_UPSTREAM;
use crate::gateway::guard::TOKEN_HEADER;
use crate::policy::FlagSettings;
use crate::policy::settings::Layer;
use crate::policy::settings::PolicyInputs;
use crate::policy::settings::Scope;

/// Claude Code's variable naming the API's base URL.
pub(crate) const BASE_URL_VAR: &str = "ANTHROPIC_BASE_URL";

/// Claude Code's variable with extra request header lines.
pub(crate) const HEADERS_VAR: &str = "ANTHROPIC_CUSTOM_HEADERS";

/// Why a session cannot be routed through the gateway.
#[derive(Debug, Error, PartialEq, Eq)]
pub(crate) enum UpstreamError {
    /// Managed policy sets a routing variable, which outranks anything the launcher can set.
    #[error(
        "managed policy ({file}) sets {variable} in its env, which outranks the settings multi-cursor gives Claude Code: its requests would never reach multi-cursor's gateway. Ask your administrator to remove {variable} from the managed settings, or use plain claude"
    )]
    ManagedRouting { file: String, variable: String },
}

/// Which settings layers Claude Code reads: every one, or (`--setting-sources`) managed
/// policy, `--settings` and the listed ones.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct SettingSources {
    /// The listed user/project/local scopes; `None` when `--setting-sources` was not given.
    listed: Option<Vec<Scope>>,
}

impl SettingSources {
    /// From Claude Code's arguments: the last `--setting-sources X` / `--setting-sources=X`
    /// before a literal `--`, a comma-separated list of `user`, `project`, `local` (unknown
    /// names and blanks ignored; an empty list reads none of the three).
    pub(crate) fn from_args(args: &[OsString]) -> SettingSources {
        let mut listed = None;
        let mut words = args.iter().map(|a| a.to_string_lossy());
        while let Some(word) = words.next() {
            if word == "--" {
                break;
            }
            let value = match word.strip_prefix("--setting-sources") {
                Some("") => words.next().map(Cow::into_owned),
                Some(rest) => match rest.strip_prefix('=') {
                    Some(value) => Some(value.to_string()),
                    None => continue,
                },
                None => continue,
            };
            let Some(value) = value else { break };
            listed = Some(
                value
                    .split(',')
                    .filter_map(|name| match name.trim() {
                        "user" => Some(Scope::User),
                        "project" => Some(Scope::Project),
                        "local" => Some(Scope::Local),
                        _ => None,
                    })
                    .collect(),
            );
        }
        SettingSources { listed }
    }

    /// Whether Claude Code reads layers of `scope`.
    pub(crate) fn reads(&self, scope: Scope) -> bool {
        match (&self.listed, scope) {
            (_, Scope::Managed | Scope::Flag) => true,
            (None, _) => true,
            (Some(listed), scope) => listed.contains(&scope),
        }
    }
}

/// Every settings layer Claude Code will read for a session in `workspace`, in precedence
/// order (highest first): managed, the `--settings` values, local, project, user, filtered by
/// `sources`. Unreadable files are left out (the gateway reports them per request).
pub(crate) fn session_layers(
    inputs: &PolicyInputs,
    flag: Vec<FlagSettings>,
    workspace: &Path,
    sources: &SettingSources,
) -> Vec<Layer> {
    let inputs = PolicyInputs {
        flag_settings: flag,
        ..inputs.clone()
    };
    let (layers, _unreadable) = crate::policy::settings::read_layers(&inputs, workspace);
    layers
        .into_iter()
        .filter(|layer| sources.reads(layer.scope))
        .collect()
}

/// [`session_layers`] for a session started here: this process's environment names the
/// folders, the working directory is the workspace, `args` are Claude Code's arguments (for
/// `--setting-sources`).
pub(crate) fn launch_layers(flag: &[FlagSettings], args: &[OsString]) -> Vec<Layer> {
    let workspace = std::env::current_dir().unwrap_or_default();
    session_layers(
        &PolicyInputs::from_env(),
        flag.to_vec(),
        &workspace,
        &SettingSources::from_args(args),
    )
}

/// The process environment's say in routing (read before the launcher changes anything).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ProcessRouting {
    /// `MULTI_CURSOR_UPSTREAM`.
    pub upstream: Option<String>,
    /// `ANTHROPIC_BASE_URL`.
    pub base_url: Option<String>,
    /// `ANTHROPIC_CUSTOM_HEADERS`.
    pub custom_headers: Option<String>,
}

impl ProcessRouting {
    /// This process's values.
    pub(crate) fn from_env() -> ProcessRouting {
        ProcessRouting {
            upstream: std::env::var(crate::env::UPSTREAM_ENV).ok(),
            base_url: std::env::var(BASE_URL_VAR).ok(),
            custom_headers: std::env::var(HEADERS_VAR).ok(),
        }
    }
}

/// How a session is routed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Routing {
    /// Where the gateway forwards Claude models.
    pub upstream: String,
    /// The user's `ANTHROPIC_CUSTOM_HEADERS` as Claude Code would resolve it (our token header
    /// is appended to it).
    pub custom_headers: Option<String>,
    /// Whether a settings layer sets `ANTHROPIC_BASE_URL` or `ANTHROPIC_CUSTOM_HEADERS`, so
    /// the launcher must set both in its own `--settings` `env`.
    pub in_settings: bool,
}

/// A non-blank string value of `env.<name>` in `layer`.
fn layer_var<'a>(layer: &'a Layer, name: &str) -> Option<&'a str> {
    layer
        .settings
        .get("env")
        .and_then(|env| env.get(name))
        .and_then(Value::as_str)
        .filter(|v| !v.trim().is_empty())
}

fn non_blank(value: Option<&str>) -> Option<&str> {
    value.filter(|v| !v.trim().is_empty())
}

/// Resolves the session's routing from `layers` (as [`session_layers`] returns them) and the
/// process environment. A managed layer setting either routing variable is refused.
pub(crate) fn resolve(
    layers: &[Layer],
    process: &ProcessRouting,
) -> Result<Routing, UpstreamError> {
    for layer in layers.iter().filter(|l| l.scope == Scope::Managed) {
        for variable in [BASE_URL_VAR, HEADERS_VAR] {
            if layer_var(layer, variable).is_some() {
                return Err(UpstreamError::ManagedRouting {
                    file: layer.file.clone(),
                    variable: variable.to_string(),
                });
            }
        }
    }
    let from_layers = |name: &str| layers.iter().find_map(|l| layer_var(l, name));
    let layer_base = from_layers(BASE_URL_VAR);
    let layer_headers = from_layers(HEADERS_VAR);
    let upstream = non_blank(process.upstream.as_deref())
        .or(layer_base)
        .or(non_blank(process.base_url.as_deref()))
        .unwrap_or(DEFAULT_UPSTREAM)
        .trim()
        .to_string();
    let custom_headers = layer_headers
        .or(non_blank(process.custom_headers.as_deref()))
        .map(str::to_string);
    Ok(Routing {
        upstream,
        custom_headers,
        in_settings: layer_base.is_some() || layer_headers.is_some(),
    })
}

/// `ANTHROPIC_CUSTOM_HEADERS` for Claude Code: the user's lines, then our token header.
pub(crate) fn headers_with_token(user: Option<&str>, token: &str) -> String {
    let ours = format!("{TOKEN_HEADER}: {token}");
    match user.map(str::trim_end) {
        Some(user) if !user.trim().is_empty() => format!("{user}\n{ours}"),
        _ => ours,
    }
}

/// The `env` object of a settings value, made one when missing or not an object; `None` when
/// `settings` is not an object.
pub(crate) fn settings_env(settings: &mut Value) -> Option<&mut Map<String, Value>> {
    let Value::Object(settings) = settings else {
        return None;
    };
    let env = settings
        .entry("env")
        .or_insert_with(|| Value::Object(Map::new()));
    if !env.is_object() {
        *env = Value::Object(Map::new());
    }
    env.as_object_mut()
}

/// Adds the gateway's `ANTHROPIC_BASE_URL` and `ANTHROPIC_CUSTOM_HEADERS` to `settings`'s
/// `env` object when `routing` says a settings layer would otherwise override them; leaves
/// `settings` alone (no token in the file) when none does.
pub(crate) fn put_routing_env(settings: &mut Value, routing: &Routing, url: &str, token: &str) {
    if !routing.in_settings {
        return;
    }
    if let Some(env) = settings_env(settings) {
        env.insert(BASE_URL_VAR.to_string(), Value::from(url));
        env.insert(
            HEADERS_VAR.to_string(),
            Value::from(headers_with_token(routing.custom_headers.as_deref(), token)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn layer(scope: Scope, settings: Value) -> Layer {
        Layer {
            scope,
            file: format!("{scope:?}.json"),
            settings: match settings {
                Value::Object(map) => map,
                _ => Map::new(),
            },
        }
    }

    fn os(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_highest_layer_wins_and_the_process_comes_last() {
        let process = ProcessRouting {
            base_url: Some("http://process".into()),
            custom_headers: Some("x-process: 1".into()),
            ..ProcessRouting::default()
        };
        let none = resolve(&[], &process).unwrap();
        assert_eq!(none.upstream, "http://process");
        assert_eq!(none.custom_headers.as_deref(), Some("x-process: 1"));
        assert!(!none.in_settings);

        let layers = [
            layer(
                Scope::Local,
                json!({"env": {"ANTHROPIC_BASE_URL": "http://local"}}),
            ),
            layer(
                Scope::User,
                json!({"env": {"ANTHROPIC_BASE_URL": "http://user", "ANTHROPIC_CUSTOM_HEADERS": "x-user: 1"}}),
            ),
        ];
        let routed = resolve(&layers, &process).unwrap();
        assert_eq!(routed.upstream, "http://local");
        assert_eq!(routed.custom_headers.as_deref(), Some("x-user: 1"));
        assert!(routed.in_settings);

        let forced = ProcessRouting {
            upstream: Some("http://forced".into()),
            ..process
        };
        assert_eq!(resolve(&layers, &forced).unwrap().upstream, "http://forced");
    }

    #[test]
    fn a_managed_routing_variable_stops_the_launch() {
        let layers = [layer(
            Scope::Managed,
            json!({"env": {"ANTHROPIC_BASE_URL": "http://corp"}}),
        )];
        assert!(matches!(
            resolve(&layers, &ProcessRouting::default()),
            Err(UpstreamError::ManagedRouting { variable, .. }) if variable == BASE_URL_VAR
        ));
    }

    #[test]
    fn setting_sources_filter_user_project_and_local_only() {
        let all = SettingSources::from_args(&os(&["-p", "x"]));
        assert!(all.reads(Scope::User) && all.reads(Scope::Local));
        let none = SettingSources::from_args(&os(&["--setting-sources="]));
        assert!(!none.reads(Scope::User) && !none.reads(Scope::Project));
        assert!(none.reads(Scope::Managed) && none.reads(Scope::Flag));
        let some = SettingSources::from_args(&os(&["--setting-sources", "project, local"]));
        assert!(!some.reads(Scope::User) && some.reads(Scope::Project) && some.reads(Scope::Local));
        let after = SettingSources::from_args(&os(&["--", "--setting-sources="]));
        assert!(after.reads(Scope::User));
    }

    #[test]
    fn the_env_block_is_added_only_when_a_layer_routes() {
        let mut settings = json!({"env": {"FOO": "1"}});
        let quiet = Routing {
            upstream: DEFAULT_UPSTREAM.into(),
            custom_headers: None,
            in_settings: false,
        };
        put_routing_env(&mut settings, &quiet, "http://gw", "t0k");
        assert_eq!(settings, json!({"env": {"FOO": "1"}}));
        let routed = Routing {
            custom_headers: Some("x-team: a\n".into()),
            in_settings: true,
            ..quiet
        };
        put_routing_env(&mut settings, &routed, "http://gw", "t0k");
        assert_eq!(settings["env"]["ANTHROPIC_BASE_URL"], "http://gw");
        assert_eq!(
            settings["env"]["ANTHROPIC_CUSTOM_HEADERS"],
            "x-team: a\nx-multi-cursor-token: t0k"
        );
        assert_eq!(settings["env"]["FOO"], "1");
    }
}
