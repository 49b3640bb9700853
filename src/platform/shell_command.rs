//! Commands Claude Code runs through a shell: the status line. Its `statusLine` setting has
//! only a command string (hooks have an exec form, `command` + `args`, which the launcher uses
//! instead), and Claude Code runs it through sh on Unix; on Windows through Git Bash, or
//! PowerShell when Git Bash is missing. To PowerShell a quoted path is only a string (it would
//! print the path as the status line), so on Windows the command names `multi-cursor` bare and
//! the launcher puts the executable's folder first on Claude Code's PATH
//! ([`put_helper_on_path`]); the user's own chained command travels hex-encoded, a word every
//! one of those shells passes through as it is.

use std::path::Path;

/// The status line's command for `exe`, with the user's own `chain` command when they have one.
pub(crate) fn statusline_command(exe: &Path, chain: Option<&str>) -> String {
    if cfg!(windows) {
        bare_form(chain)
    } else {
        posix_form(exe, chain)
    }
}

/// `'<exe>' statusline [--chain '<command>']`, quoted for a POSIX shell.
fn posix_form(exe: &Path, chain: Option<&str>) -> String {
    let ours = format!("{} statusline", posix_quote(&exe.to_string_lossy()));
    match chain {
        Some(command) => format!("{ours} --chain {}", posix_quote(command)),
        None => ours,
    }
}

/// `multi-cursor statusline [--chain-hex <hex>]`: the same words in sh, Git Bash, PowerShell
/// and cmd.
fn bare_form(chain: Option<&str>) -> String {
    match chain {
        Some(command) => format!(
            "multi-cursor statusline --chain-hex {}",
            hex::encode(command)
        ),
        None => "multi-cursor statusline".to_owned(),
    }
}

/// `text` quoted for a POSIX shell.
pub(crate) fn posix_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c))
    {
        return text.to_string();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// On Windows, puts `exe`'s folder first on `command`'s PATH, so the bare `multi-cursor` of
/// [`statusline_command`] is this executable; elsewhere the command names the path itself.
pub(crate) fn put_helper_on_path(command: &mut tokio::process::Command, exe: &Path) {
    if !cfg!(windows) {
        return;
    }
    let Some(folder) = exe.parent() else { return };
    let current = std::env::var_os("PATH").unwrap_or_default();
    let folders = std::iter::once(folder.to_path_buf()).chain(std::env::split_paths(&current));
    if let Ok(path) = std::env::join_paths(folders) {
        command.env("PATH", path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posix_quoting() {
        assert_eq!(
            posix_quote("/usr/bin/multi-cursor"),
            "/usr/bin/multi-cursor"
        );
        assert_eq!(posix_quote("/a b/it's"), r"'/a b/it'\''s'");
        assert_eq!(posix_quote(""), "''");
    }

    #[test]
    fn the_posix_form_quotes_the_path_and_their_command() {
        let exe = Path::new("/opt/my tools/multi-cursor");
        assert_eq!(
            posix_form(exe, None),
            "'/opt/my tools/multi-cursor' statusline"
        );
        assert_eq!(
            posix_form(exe, Some("echo 'hi'")),
            r"'/opt/my tools/multi-cursor' statusline --chain 'echo '\''hi'\'''"
        );
    }

    /// What Windows gets has no quote, no `$`, no `&` and no path: nothing that sh, PowerShell
    /// or cmd would read differently.
    #[test]
    fn the_bare_form_is_plain_words_in_every_shell() {
        assert_eq!(bare_form(None), "multi-cursor statusline");
        let theirs = r#"pwsh -File "C:\Users\A B\line.ps1" $env:X & echo 'it''s'"#;
        let command = bare_form(Some(theirs));
        assert!(
            command
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '-'),
            "{command}"
        );
        let hex = command.rsplit(' ').next().unwrap();
        assert_eq!(
            String::from_utf8(hex::decode(hex).unwrap()).unwrap(),
            theirs
        );
    }
}
