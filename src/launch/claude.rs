//! Finding Claude Code, checking its version (cached per executable), and telling whether it
//! is signed in to Anthropic.

use crate::env::CLAUDE_ENV;
use std::ffi::OsStr;

use crate::exec::resolve_configured;
use crate::exec::search_path;
use std::path::Path;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;

use super::LaunchError;

/// The oldest Claude Code the launcher runs: the version whose settings (`modelPicker` rows
/// with `behavesAs`), `--agents`, hook payloads and worker requests were measured.
pub const MIN_VERSION: Version = Version(2, 1, 328);

/// Claude Code's npm package.
pub(crate) const NPM_PACKAGE: &str = "@anthropic-ai/claude-code";

/// The version a hint installs. Named, because without it npm on Node older than 22 picks
/// 2.1.197, the last release whose `engines.node` it meets, and that is older than
/// [`MIN_VERSION`]. With it npm installs the newest with an EBADENGINE warning, and Claude Code
/// (a native binary) runs on Node 20 (seen with 2.1.337 on Node 20.20).
pub(crate) const INSTALL_VERSION: &str = "latest";

/// Where an npm-installed Claude Code or multi-cursor lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Installed {
    /// Under the npm prefix `prefix` (`<prefix>/lib/node_modules/<package>`, on Windows
    /// `<prefix>\node_modules\<package>`).
    Npm { prefix: PathBuf },
    /// Not in an npm package (Claude Code's native installer, a copy, a build).
    Elsewhere,
}

/// Where the executable at `path` was installed from: the npm prefix when it (links
/// followed) lies inside `node_modules/<package>` (`package`'s components, such as
/// `["@anthropic-ai", "claude-code"]`).
pub(crate) fn installed_from(path: &Path, package: &[&str]) -> Installed {
    let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    if let Some(prefix) = npm_prefix_of(&real, package) {
        return Installed::Npm { prefix };
    }
    // npm's own entry whose target is gone or not a link (Windows' `<prefix>\claude.cmd`, a
    // broken `<prefix>/bin/claude`): the package folder beside it names the prefix.
    let package_dir = |prefix: &Path, lib: bool| {
        let mut dir = if lib {
            prefix.join("lib")
        } else {
            prefix.to_path_buf()
        };
        dir.push("node_modules");
        package.iter().for_each(|name| dir.push(name));
        dir.is_dir()
    };
    let shim_dir = path.parent();
    let prefix = shim_dir.filter(|dir| package_dir(dir, false)).or_else(|| {
        shim_dir
            .and_then(Path::parent)
            .filter(|dir| package_dir(dir, true))
    });
    prefix.map_or(Installed::Elsewhere, |prefix| Installed::Npm {
        prefix: prefix.to_path_buf(),
    })
}

/// The npm prefix of `real` (a path with links resolved), from its first
/// `node_modules/<package>` components; `None` when it has none. Pure.
pub(crate) fn npm_prefix_of(real: &Path, package: &[&str]) -> Option<PathBuf> {
    let parts: Vec<std::path::Component<'_>> = real.components().collect();
    let at = (0..parts.len()).find(|&i| {
        parts[i].as_os_str() == "node_modules"
            && package.iter().enumerate().all(|(k, name)| {
                parts
                    .get(i + 1 + k)
                    .is_some_and(|c| c.as_os_str() == OsStr::new(name))
            })
    })?;
    let mut prefix: PathBuf = parts[..at].iter().collect();
    // `<prefix>/lib/node_modules` on Unix; `<prefix>\node_modules` on Windows.
    if !cfg!(windows) && prefix.file_name() == Some(OsStr::new("lib")) {
        prefix.pop();
    }
    (!prefix.as_os_str().is_empty()).then_some(prefix)
}

/// The one command that installs Claude Code [`INSTALL_VERSION`] into the npm prefix
/// `prefix` (npm's own global prefix when `None`).
pub(crate) fn npm_install_command(prefix: Option<&Path>) -> String {
    let package = format!("{NPM_PACKAGE}@{INSTALL_VERSION}");
    match prefix {
        Some(prefix) => format!(
            "npm install -g --prefix {} {package}",
            shell_word(&prefix.to_string_lossy())
        ),
        None => format!("npm install -g {package}"),
    }
}

/// `text` as one word of the shell the user types in.
fn shell_word(text: &str) -> String {
    if cfg!(windows) {
        if text.contains([' ', '&', '(', ')', '\'']) {
            return format!("\"{text}\"");
        }
        return text.to_string();
    }
    crate::platform::shell_command::posix_quote(text)
}

/// What to run when Claude Code at `found` is too old or unusable, or (`None`) missing: a
/// command naming the version and the place it goes. An npm-installed one is updated in its
/// own prefix (`claude update` and a bare `npm install -g` use npm's global prefix, which need
/// not be where the `claude` on PATH lives); a native install updates itself (`claude install
/// latest`); a missing one goes into the prefix multi-cursor was installed in (`self_exe`),
/// where the launcher's PATH finds it beside `multi-cursor`.
pub(crate) fn install_hint(found: Option<&Path>, self_exe: Option<&Path>) -> String {
    let or_set = format!("or set {CLAUDE_ENV} to the path of Claude Code {MIN_VERSION} or newer");
    let claude_package = ["@anthropic-ai", "claude-code"];
    match found {
        Some(path) => match installed_from(path, &claude_package) {
            Installed::Npm { prefix } => format!(
                "update it where it is installed: `{}` (npm warns EBADENGINE on Node older than 22; Claude Code runs anyway), {or_set}",
                npm_install_command(Some(&prefix))
            ),
            Installed::Elsewhere => format!(
                "update it with `{} install {INSTALL_VERSION}` (its own installer), or install it with npm: `{}`, {or_set}",
                shell_word(&path.to_string_lossy()),
                npm_install_command(None)
            ),
        },
        None => {
            let prefix = self_exe.and_then(|exe| match installed_from(exe, &["multi-cursor"]) {
                Installed::Npm { prefix } => Some(prefix),
                Installed::Elsewhere => None,
            });
            format!(
                "install it with `{}`, {or_set}",
                npm_install_command(prefix.as_deref())
            )
        }
    }
}

/// [`install_hint`] for this process (multi-cursor's own executable).
pub(crate) fn install_hint_here(found: Option<&Path>) -> String {
    install_hint(found, std::env::current_exe().ok().as_deref())
}

/// File in the state folder remembering `claude --version` per executable.
pub(crate) const VERSION_CACHE_FILE: &str = "claude-version.json";

/// Prefix of the placeholder credential the launcher gives a signed-out Claude Code. A value
/// with it in the environment comes from an enclosing launched session and is no login.
pub(crate) const PLACEHOLDER_PREFIX: &str = "multi-cursor-no-anthropic-login-";

/// How long `claude --version` and `claude auth status` may take.
const PROBE_TIMEOUT: Duration = Duration::from_secs(15);

/// Executables remembered in the version cache at most.
const VERSION_CACHE_LIMIT: usize = 16;

/// A Claude Code version `major.minor.patch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Version(pub u64, pub u64, pub u64);

impl Version {
    /// Reads the first word of `claude --version` output (`2.1.328 (Claude Code)`).
    pub(crate) fn parse(output: &str) -> Option<Version> {
        let word = output.split_whitespace().next()?;
        let mut parts = word.split('.');
        let mut number = || parts.next()?.parse::<u64>().ok();
        let version = Version(number()?, number()?, number()?);
        Some(version)
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// Finds Claude Code: `$MULTI_CURSOR_CLAUDE` (a path, or a name looked up on PATH), else
/// `claude` on PATH, else `~/.local/bin/claude` and `~/.claude/local/claude` (where its own
/// installers put it).
pub(crate) fn find_claude(
    configured: Option<&OsStr>,
    path_var: Option<&OsStr>,
    home: Option<&OsStr>,
) -> Result<PathBuf, LaunchError> {
    if let Some(configured) = configured.filter(|v| !v.is_empty()) {
        return resolve_configured(configured, path_var).ok_or_else(|| {
            LaunchError::ClaudeMissing {
                tried: format!("{CLAUDE_ENV}={}", Path::new(configured).display()),
            }
        });
    }
    if let Some(found) = search_path(OsStr::new("claude"), path_var) {
        // npm's `claude.cmd` (Windows) stands for the `claude.exe` beside it in node_modules:
        // that is run, never the shim through `cmd.exe`.
        if crate::platform::windows_entry::is_batch(&found) {
            return crate::platform::windows_entry::claude_entry(&found).map_err(|error| {
                LaunchError::ClaudeUnusable {
                    path: found.clone(),
                    reason: error.to_string(),
                }
            });
        }
        return Ok(found);
    }
    let installed = home.and_then(|h| {
        let dirs = crate::platform::places::claude_install_dirs(Path::new(h));
        crate::exec::search_dirs(OsStr::new("claude"), &dirs)
    });
    installed.ok_or_else(|| LaunchError::ClaudeMissing {
        tried: format!(
            "`claude` on PATH, {}",
            crate::platform::places::CLAUDE_INSTALL_DIRS_SHOWN
        ),
    })
}

/// One remembered `claude --version` ([`crate::exec::AnswerCache`]).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct VersionAnswer {
    version: Version,
}

/// Claude Code's version: from the cache in `state_dir` when the executable is unchanged, else
/// by running `claude --version` (and remembering the answer).
pub(crate) async fn version(claude: &Path, state_dir: &Path) -> Result<Version, LaunchError> {
    let mut cache = crate::exec::AnswerCache::<VersionAnswer>::open(
        state_dir.join(VERSION_CACHE_FILE),
        VERSION_CACHE_LIMIT,
    );
    if let Some(known) = cache.get(claude) {
        return Ok(known.version);
    }
    let output = run_probe(claude, &["--version"], &[]).await?;
    let version = Version::parse(&output.stdout).ok_or_else(|| LaunchError::ClaudeUnusable {
        path: claude.to_path_buf(),
        reason: format!(
            "`--version` printed {:?}, not a version number",
            crate::text::clip_bytes(output.stdout.trim(), 200)
        ),
    })?;
    cache.put(claude, VersionAnswer { version });
    Ok(version)
}

/// Refuses a Claude Code older than [`MIN_VERSION`].
pub(crate) fn check_version(claude: &Path, found: Version) -> Result<(), LaunchError> {
    if found < MIN_VERSION {
        return Err(LaunchError::ClaudeTooOld {
            path: claude.to_path_buf(),
            found,
        });
    }
    Ok(())
}

/// Whether Claude Code can reach Anthropic models, and how we know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AnthropicLogin {
    /// Signed in (the reason names the credential's source, never its value).
    SignedIn(String),
    /// No credential at all: Claude Code can only use Cursor models through the gateway.
    SignedOut,
}

/// Environment variables that carry an Anthropic credential Claude Code uses.
const CREDENTIAL_ENV: [&str; 3] = [
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "CLAUDE_CODE_OAUTH_TOKEN",
];

/// Environment variables that switch Claude Code to a cloud provider with its own credentials.
const PROVIDER_ENV: [&str; 3] = [
    "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
    "CLAUDE_CODE_USE_FOUNDRY",
];

/// What [`anthropic_login`] reads, passed in so tests can vary it.
#[derive(Debug, Clone, Default)]
pub(crate) struct LoginInputs {
    /// `(name, value)` of the process environment.
    pub env: Vec<(String, String)>,
    /// Whether the merged `--settings` the user gave set `apiKeyHelper`.
    pub api_key_helper: bool,
    /// `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    pub config_dir: Option<PathBuf>,
}

impl LoginInputs {
    /// From the process environment and whether the user's merged settings set
    /// `apiKeyHelper`.
    pub(crate) fn from_env(api_key_helper: bool) -> LoginInputs {
        let env: Vec<(String, String)> = std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
            .collect();
        let config_dir = std::env::var_os("CLAUDE_CONFIG_DIR")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| crate::platform::places::home().map(|h| Path::new(&h).join(".claude")));
        LoginInputs {
            env,
            api_key_helper,
            config_dir,
        }
    }

    fn var(&self, name: &str) -> Option<&str> {
        self.env
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.trim().is_empty() && !v.starts_with(PLACEHOLDER_PREFIX))
    }

    /// Whether `ANTHROPIC_AUTH_TOKEN` holds an enclosing launcher's placeholder.
    pub(crate) fn inherited_placeholder(&self) -> bool {
        self.env
            .iter()
            .any(|(k, v)| k == "ANTHROPIC_AUTH_TOKEN" && v.starts_with(PLACEHOLDER_PREFIX))
    }
}

/// Whether Claude Code is signed in to Anthropic, answered without running it when the
/// answer is certain: a credential in the environment, a cloud provider switch, an
/// `apiKeyHelper` in the user's `--settings`, or a stored claude.ai login in
/// `<config dir>/.credentials.json`. Otherwise Claude Code itself is asked (`claude auth status
/// --json`, its `loggedIn`; other stores such as the macOS keychain, a `/login`-managed key or a
/// settings file's `apiKeyHelper` are only known to it). When that cannot be read, the launcher
/// assumes a login rather than hide a real one behind the placeholder credential.
pub(crate) async fn anthropic_login(claude: &Path, inputs: &LoginInputs) -> AnthropicLogin {
    if let Some(found) = login_without_asking(inputs) {
        return found;
    }
    let hide: &[&str] = if inputs.inherited_placeholder() {
        &["ANTHROPIC_AUTH_TOKEN"]
    } else {
        &[]
    };
    match run_probe(claude, &["auth", "status", "--json"], hide).await {
        Ok(output) => match serde_json::from_str::<Value>(&output.stdout)
            .ok()
            .and_then(|v| v.get("loggedIn").and_then(Value::as_bool))
        {
            Some(true) => AnthropicLogin::SignedIn("claude auth status".to_string()),
            Some(false) => AnthropicLogin::SignedOut,
            None => {
                tracing::warn!(
                    "`claude auth status --json` gave no loggedIn answer; assuming Claude Code is signed in to Anthropic"
                );
                AnthropicLogin::SignedIn("assumed".to_string())
            }
        },
        Err(error) => {
            tracing::warn!(%error, "could not ask Claude Code whether it is signed in to Anthropic; assuming it is");
            AnthropicLogin::SignedIn("assumed".to_string())
        }
    }
}

/// The certain answers of [`anthropic_login`]; `None` when Claude Code must be asked.
pub(crate) fn login_without_asking(inputs: &LoginInputs) -> Option<AnthropicLogin> {
    if let Some(name) = CREDENTIAL_ENV.iter().find(|n| inputs.var(n).is_some()) {
        return Some(AnthropicLogin::SignedIn(name.to_string()));
    }
    if let Some(name) = PROVIDER_ENV
        .iter()
        .find(|n| inputs.var(n).is_some_and(|v| v != "0" && v != "false"))
    {
        return Some(AnthropicLogin::SignedIn(name.to_string()));
    }
    if inputs.api_key_helper {
        return Some(AnthropicLogin::SignedIn("apiKeyHelper".to_string()));
    }
    let stored = inputs
        .config_dir
        .as_ref()
        .and_then(|dir| std::fs::read(dir.join(".credentials.json")).ok())
        .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
        .is_some_and(|v| v.get("claudeAiOauth").is_some_and(Value::is_object));
    stored.then(|| AnthropicLogin::SignedIn("claude.ai login".to_string()))
}

/// What a probe printed.
struct ProbeOutput {
    stdout: String,
}

/// Runs `claude <args>` without the variables in `hide` (stdin closed, killed after
/// [`PROBE_TIMEOUT`]); any exit status is accepted (`auth status` exits 1 when signed out), the
/// output is what counts.
async fn run_probe(
    claude: &Path,
    args: &[&str],
    hide: &[&str],
) -> Result<ProbeOutput, LaunchError> {
    let unusable = |reason: String| LaunchError::ClaudeUnusable {
        path: claude.to_path_buf(),
        reason,
    };
    let mut command = tokio::process::Command::new(claude);
    for name in hide {
        command.env_remove(name);
    }
    let child = command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| unusable(e.to_string()))?;
    let output = tokio::time::timeout(PROBE_TIMEOUT, child.wait_with_output())
        .await
        .map_err(|_| {
            unusable(format!(
                "`{}` did not answer within {} s",
                args.join(" "),
                PROBE_TIMEOUT.as_secs()
            ))
        })?
        .map_err(|e| unusable(e.to_string()))?;
    Ok(ProbeOutput {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_and_order() {
        assert_eq!(
            Version::parse("2.1.328 (Claude Code)\n"),
            Some(Version(2, 1, 328))
        );
        assert_eq!(Version::parse("garbage"), None);
        assert!(Version(2, 1, 327) < MIN_VERSION && Version(2, 2, 0) > MIN_VERSION);
    }

    #[test]
    fn certain_logins_need_no_probe() {
        let inputs = |env: &[(&str, &str)]| LoginInputs {
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..LoginInputs::default()
        };
        assert_eq!(
            login_without_asking(&inputs(&[("ANTHROPIC_API_KEY", "sk")])),
            Some(AnthropicLogin::SignedIn("ANTHROPIC_API_KEY".into()))
        );
        assert_eq!(
            login_without_asking(&inputs(&[("ANTHROPIC_API_KEY", " ")])),
            None
        );
        assert_eq!(
            login_without_asking(&inputs(&[("CLAUDE_CODE_USE_BEDROCK", "0")])),
            None
        );
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(".credentials.json"),
            r#"{"claudeAiOauth":{"accessToken":"x"}}"#,
        )
        .unwrap();
        let stored = LoginInputs {
            config_dir: Some(dir.path().to_path_buf()),
            ..LoginInputs::default()
        };
        assert!(matches!(
            login_without_asking(&stored),
            Some(AnthropicLogin::SignedIn(_))
        ));
    }

    #[test]
    fn finds_claude_from_the_variable_or_path() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("claude");
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        let _ = crate::platform::testing::set_mode(&exe, 0o755);
        let path_var = dir.path().as_os_str();
        assert_eq!(find_claude(None, Some(path_var), None).unwrap(), exe);
        assert_eq!(find_claude(Some(exe.as_os_str()), None, None).unwrap(), exe);
        assert!(matches!(
            find_claude(Some(OsStr::new("/nope/claude")), Some(path_var), None),
            Err(LaunchError::ClaudeMissing { .. })
        ));
    }
}

#[cfg(test)]
mod install_hint_tests {
    use super::*;

    const CLAUDE: [&str; 2] = ["@anthropic-ai", "claude-code"];

    #[test]
    fn npm_prefix_is_read_from_the_package_path() {
        let unix = Path::new(
            "/home/u/.npm-global/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe",
        );
        assert_eq!(
            npm_prefix_of(unix, &CLAUDE),
            Some(PathBuf::from("/home/u/.npm-global"))
        );
        // The Node launcher's platform package sits inside multi-cursor's own node_modules.
        let launcher = Path::new(
            "/opt/p/lib/node_modules/multi-cursor/node_modules/multi-cursor-linux-x64/bin/multi-cursor",
        );
        assert_eq!(
            npm_prefix_of(launcher, &["multi-cursor"]),
            Some(PathBuf::from("/opt/p"))
        );
        assert_eq!(
            npm_prefix_of(
                Path::new("/home/u/.local/share/claude/versions/2.1.337"),
                &CLAUDE
            ),
            None
        );
        assert_eq!(
            npm_prefix_of(
                Path::new("/usr/lib/node_modules/@anthropic-ai/other/x"),
                &CLAUDE
            ),
            None
        );
    }

    #[cfg(unix)]
    #[test]
    fn hints_name_the_version_and_the_prefix_of_the_found_claude() {
        let tmp = tempfile::tempdir().unwrap();
        let prefix = tmp.path().join("user prefix");
        let package = prefix.join("lib/node_modules/@anthropic-ai/claude-code/bin");
        std::fs::create_dir_all(&package).unwrap();
        std::fs::write(package.join("claude.exe"), "").unwrap();
        std::fs::create_dir_all(prefix.join("bin")).unwrap();
        let link = prefix.join("bin/claude");
        std::os::unix::fs::symlink(package.join("claude.exe"), &link).unwrap();

        let hint = install_hint(Some(&link), None);
        let quoted = crate::platform::shell_command::posix_quote(&prefix.to_string_lossy());
        assert!(
            hint.contains(&format!(
                "`npm install -g --prefix {quoted} @anthropic-ai/claude-code@latest`"
            )),
            "{hint}"
        );
        assert!(!hint.contains("claude update"), "{hint}");

        // Missing: into the prefix multi-cursor was installed in.
        let own = tmp.path().join("mc/lib/node_modules/multi-cursor/bin");
        std::fs::create_dir_all(&own).unwrap();
        std::fs::write(own.join("multi-cursor"), "").unwrap();
        let hint = install_hint(None, Some(&own.join("multi-cursor")));
        let mc = tmp.path().join("mc");
        assert!(
            hint.contains(&format!(
                "`npm install -g --prefix {} @anthropic-ai/claude-code@latest`",
                crate::platform::shell_command::posix_quote(&mc.to_string_lossy())
            )),
            "{hint}"
        );

        // A native install updates itself, to a named version.
        let native = tmp.path().join("claude");
        std::fs::write(&native, "").unwrap();
        let hint = install_hint(Some(&native), None);
        assert!(
            hint.contains(&format!("`{} install latest`", native.display())),
            "{hint}"
        );
        // npm's entry with its target gone: the package folder beside it names the prefix.
        std::fs::remove_file(package.join("claude.exe")).unwrap();
        let hint = install_hint(Some(&link), None);
        assert!(
            hint.contains(&format!(
                "`npm install -g --prefix {quoted} @anthropic-ai/claude-code@latest`"
            )),
            "{hint}"
        );
        // Not npm-installed multi-cursor, nothing found: npm's own prefix, still a version.
        assert!(
            install_hint(None, Some(&native))
                .contains("`npm install -g @anthropic-ai/claude-code@latest`")
        );
    }

    /// scripts/install brings Claude Code up to the floor the launcher refuses below.
    #[test]
    fn scripts_install_uses_the_launchers_floor() {
        let script = include_str!("../../scripts/install-claude-code");
        assert!(
            script.contains(&format!("\nfloor={MIN_VERSION}\n")),
            "scripts/install-claude-code must say floor={MIN_VERSION}"
        );
        assert!(script.contains(&format!("{NPM_PACKAGE}@{INSTALL_VERSION}")));
    }
}
