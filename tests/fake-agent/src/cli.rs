//! The real CLI's command line, parsed just enough to answer like it.
//!
//! Unknown flags are accepted and kept (a test asserts the exact argv through the log, not
//! through this parser). Value-taking flags are the ones the real `--help` lists with an
//! argument; `--resume` and `--worktree` take an optional one.

/// Long flags that take a value (`--flag value` or `--flag=value`).
const VALUE_FLAGS: &[&str] = &[
    "--output-format",
    "--workspace",
    "--model",
    "--mode",
    "--api-key",
    "--auth-token",
    "--header",
    "--sandbox",
    "--add-dir",
    "--worktree-base",
    "--format",
    "--name",
];

/// Long flags whose value is optional: taken when the next argument does not start with `-`.
const OPTIONAL_VALUE_FLAGS: &[&str] = &["--resume", "--worktree"];

/// Subcommand names of the real CLI that the fake answers itself (anything else is a turn or
/// a generic answer, see [`Subcommand`]).
const OTHER_SUBCOMMANDS: &[&str] = &[
    "install-shell-integration",
    "uninstall-shell-integration",
    "mcp",
    "update",
    "generate-rule",
    "rule",
    "ls",
    "resume",
];

/// What an invocation asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Subcommand {
    /// `--help`, `-h`, `help`.
    Help,
    /// `--version`, `-v`.
    Version,
    /// `--list-models`, `models`.
    ListModels,
    /// `status`, `whoami`.
    Status,
    /// `login`.
    Login,
    /// `logout`.
    Logout,
    /// `about`.
    About,
    /// `create-chat`.
    CreateChat,
    /// Another real subcommand the fake only acknowledges.
    Other(String),
    /// A print-mode turn (the default).
    Turn,
}

/// One parsed command line.
#[derive(Debug, Clone, Default)]
pub(crate) struct Invocation {
    /// The arguments after the program name, exactly as given.
    pub argv: Vec<String>,
    /// Flags in order, normalised to their long names, with their values.
    flags: Vec<(String, Option<String>)>,
    /// Arguments that are not flags or flag values.
    positionals: Vec<String>,
}

impl Invocation {
    /// Parses `argv` (without the program name). Never fails: unknown flags are booleans.
    pub(crate) fn parse(argv: Vec<String>) -> Self {
        let mut parsed = Self {
            argv: Vec::new(),
            flags: Vec::new(),
            positionals: Vec::new(),
        };
        let mut rest = argv.iter().peekable();
        while let Some(arg) = rest.next() {
            if arg == "--" {
                parsed.positionals.extend(rest.by_ref().cloned());
            } else if let Some(long) = arg.strip_prefix("--") {
                parsed.push_long(long, &mut rest);
            } else if arg.len() > 1 && arg.starts_with('-') {
                parsed.push_shorts(&arg[1..], &mut rest);
            } else {
                parsed.positionals.push(arg.clone());
            }
        }
        parsed.argv = argv;
        parsed
    }

    /// Records `--name[=value]`, taking the next argument as the value when the flag needs one.
    fn push_long<'a>(
        &mut self,
        long: &str,
        rest: &mut std::iter::Peekable<impl Iterator<Item = &'a String>>,
    ) {
        let (name, inline) = match long.split_once('=') {
            Some((name, value)) => (format!("--{name}"), Some(value.to_owned())),
            None => (format!("--{long}"), None),
        };
        let value = inline.or_else(|| take_value(&name, rest));
        self.flags.push((name, value));
    }

    /// Records a cluster of short flags (`-pf`, `-H value`, `-Hvalue`).
    fn push_shorts<'a>(
        &mut self,
        cluster: &str,
        rest: &mut std::iter::Peekable<impl Iterator<Item = &'a String>>,
    ) {
        for (index, letter) in cluster.char_indices() {
            let name = long_name(letter);
            let attached = &cluster[index + letter.len_utf8()..];
            if takes_value(&name) || takes_optional_value(&name) {
                let value = if attached.is_empty() {
                    take_value(&name, rest)
                } else {
                    Some(attached.trim_start_matches('=').to_owned())
                };
                self.flags.push((name, value));
                return;
            }
            self.flags.push((name, None));
        }
    }

    /// Whether the flag (long name, e.g. `--trust`) was given.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.flags.iter().any(|(flag, _)| flag == name)
    }

    /// The last value given for the flag (long name), if any.
    pub(crate) fn value(&self, name: &str) -> Option<&str> {
        self.flags
            .iter()
            .rev()
            .find(|(flag, _)| flag == name)
            .and_then(|(_, value)| value.as_deref())
    }

    /// The positional arguments after the subcommand, if any (a prompt given on the command line).
    pub(crate) fn prompt_words(&self) -> &[String] {
        match self.positionals.first().map(String::as_str) {
            Some("agent") => &self.positionals[1..],
            _ => &self.positionals,
        }
    }

    /// What this invocation asks for; flags win over subcommand names, as in the real CLI.
    pub(crate) fn subcommand(&self) -> Subcommand {
        if self.has("--help") {
            return Subcommand::Help;
        }
        if self.has("--version") {
            return Subcommand::Version;
        }
        if self.has("--list-models") {
            return Subcommand::ListModels;
        }
        match self.positionals.first().map(String::as_str) {
            Some("help") => Subcommand::Help,
            Some("models") => Subcommand::ListModels,
            Some("status" | "whoami") => Subcommand::Status,
            Some("login") => Subcommand::Login,
            Some("logout") => Subcommand::Logout,
            Some("about") => Subcommand::About,
            Some("create-chat") => Subcommand::CreateChat,
            Some(name) if OTHER_SUBCOMMANDS.contains(&name) => Subcommand::Other(name.to_owned()),
            _ => Subcommand::Turn,
        }
    }

    /// The chat id given to `--resume`, if any (a bare `--resume` gives none).
    pub(crate) fn resume_id(&self) -> Option<&str> {
        self.value("--resume").filter(|id| !id.is_empty())
    }

    /// The `--model` value, or `auto` like the real CLI's default.
    pub(crate) fn model(&self) -> &str {
        self.value("--model").unwrap_or("auto")
    }

    /// The `--output-format` value, or `text` like the real CLI's default.
    pub(crate) fn output_format(&self) -> &str {
        self.value("--output-format").unwrap_or("text")
    }

    /// Whether `--force` or its alias `--yolo` was given.
    pub(crate) fn force(&self) -> bool {
        self.has("--force") || self.has("--yolo")
    }

    /// Whether `--api-key` or `--auth-token` was given with a value.
    pub(crate) fn credential_flag(&self) -> bool {
        ["--api-key", "--auth-token"]
            .iter()
            .any(|flag| self.value(flag).is_some_and(|value| !value.is_empty()))
    }
}

/// The long name of a short flag; unknown letters become `-x` unchanged.
fn long_name(letter: char) -> String {
    let long = match letter {
        'p' => "--print",
        'f' => "--force",
        'v' => "--version",
        'h' => "--help",
        'H' => "--header",
        'c' => "--cloud",
        'w' => "--worktree",
        'n' => "--name",
        _ => return format!("-{letter}"),
    };
    long.to_owned()
}

/// Whether the long flag always takes a value.
fn takes_value(name: &str) -> bool {
    VALUE_FLAGS.contains(&name)
}

/// Whether the long flag takes an optional value.
fn takes_optional_value(name: &str) -> bool {
    OPTIONAL_VALUE_FLAGS.contains(&name)
}

/// Takes the flag's value from the following arguments when the flag takes one.
fn take_value<'a>(
    name: &str,
    rest: &mut std::iter::Peekable<impl Iterator<Item = &'a String>>,
) -> Option<String> {
    if takes_value(name) {
        return rest.next().cloned();
    }
    if takes_optional_value(name) {
        return rest.next_if(|next| !next.starts_with('-')).cloned();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Invocation {
        Invocation::parse(args.iter().map(|arg| (*arg).to_owned()).collect())
    }

    #[test]
    fn turn_flags_are_read() {
        let inv = parse(&[
            "-p",
            "--output-format",
            "stream-json",
            "--stream-partial-output",
            "--trust",
            "--workspace",
            "/w",
            "--model=gpt-5.3-codex",
            "--resume",
            "abc",
            "--mode",
            "plan",
            "--auto-review",
            "--some-unknown",
        ]);
        assert_eq!(inv.subcommand(), Subcommand::Turn);
        assert_eq!(inv.value("--workspace"), Some("/w"));
        assert_eq!(inv.model(), "gpt-5.3-codex");
        assert_eq!(inv.resume_id(), Some("abc"));
        assert_eq!(inv.value("--mode"), Some("plan"));
        assert!(inv.has("--print") && inv.has("--auto-review") && inv.has("--some-unknown"));
        assert!(inv.prompt_words().is_empty());
    }

    #[test]
    fn bare_resume_takes_no_flag_as_value() {
        let inv = parse(&["--resume", "--trust"]);
        assert_eq!(inv.resume_id(), None);
        assert!(inv.has("--trust"));
    }

    #[test]
    fn short_clusters_expand() {
        let inv = parse(&["-pf", "-Hx-Test: 1"]);
        assert!(inv.has("--print") && inv.force());
        assert_eq!(inv.value("--header"), Some("x-Test: 1"));
    }

    #[test]
    fn subcommands_and_flags() {
        assert_eq!(parse(&["-v"]).subcommand(), Subcommand::Version);
        assert_eq!(parse(&["models"]).subcommand(), Subcommand::ListModels);
        assert_eq!(
            parse(&["status", "--format", "json"]).subcommand(),
            Subcommand::Status
        );
        assert_eq!(parse(&["whoami"]).subcommand(), Subcommand::Status);
        assert_eq!(parse(&["-p", "--help"]).subcommand(), Subcommand::Help);
        assert_eq!(parse(&["-p", "hello world"]).subcommand(), Subcommand::Turn);
    }
}
