//! What really runs behind a Windows `.cmd` shim, and the Windows command-line limit. Pure
//! path logic: it runs (and is tested) on every system; only Windows meets `.cmd` files.
//!
//! - Cursor's installer puts `agent.cmd` / `cursor-agent.cmd` in `%LOCALAPPDATA%\cursor-agent`,
//!   which runs `versions\<YYYY.MM.DD[-HH-MM-SS]-commit>\node.exe index.js`. Rust's `Command`
//!   would run a `.cmd` through `cmd.exe` (its 8,191-character line limit and its quoting), so
//!   the pair is run directly: `node.exe` next to the shim when `index.js` is there too, else
//!   the newest `versions\` folder holding both (a half-extracted one is skipped).
//! - npm's `claude.cmd` sits in the npm prefix beside
//!   `node_modules\@anthropic-ai\claude-code\bin\claude.exe`, the real binary, which is run
//!   instead.
//! - `CreateProcessW` takes at most 32,767 characters; a line over `COMMAND_LINE_LIMIT` is
//!   refused before spawning, with what it is made of.

use std::ffi::OsStr;
use std::ffi::OsString;
use std::path::Path;
use std::path::PathBuf;

use thiserror::Error;

#[cfg(any(test, windows))]
/// Longest command line started on Windows (`CreateProcessW` takes 32,767 characters; what is
/// left is headroom).
pub(crate) const COMMAND_LINE_LIMIT: usize = 32_000;

/// Why a `.cmd` shim could not be turned into the program behind it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub(crate) enum ShimError {
    #[error(
        "{shim} is a .cmd shim with no complete Cursor build beside it (no index.js next to node.exe, and no versions\\<build> folder holding both); reinstall the Cursor CLI"
    )]
    NoCursorBuild { shim: PathBuf },
    #[error("{shim} is npm's shim, but {exe} is missing: Claude Code's install did not finish")]
    NoClaudeExe { shim: PathBuf, exe: PathBuf },
}

/// A command line too long for Windows.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "the command line to start {program} would be {length} characters, over Windows' limit of {limit} (the longest parts: {parts}); shorten them (for Claude Code, fewer or smaller --agents definitions)"
)]
pub(crate) struct CommandLineTooLong {
    pub program: String,
    pub length: usize,
    pub limit: usize,
    pub parts: String,
}

/// True for a `.cmd` or `.bat` file name (any case).
pub(crate) fn is_batch(path: &Path) -> bool {
    path.extension()
        .and_then(OsStr::to_str)
        .is_some_and(|ext| ext.eq_ignore_ascii_case("cmd") || ext.eq_ignore_ascii_case("bat"))
}

/// The `node.exe` and `index.js` to run for Cursor's shim `shim`.
pub(crate) fn cursor_entry(shim: &Path) -> Result<(PathBuf, PathBuf), ShimError> {
    let none = || ShimError::NoCursorBuild {
        shim: shim.to_path_buf(),
    };
    let dir = shim.parent().ok_or_else(none)?;
    let complete = |folder: &Path| {
        let node = folder.join("node.exe");
        let script = folder.join("index.js");
        (node.is_file() && script.is_file()).then_some((node, script))
    };
    if let Some(pair) = complete(dir) {
        return Ok(pair);
    }
    let mut builds: Vec<(BuildKey, PathBuf)> = std::fs::read_dir(dir.join("versions"))
        .map_err(|_| none())?
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|entry| Some((build_key(&entry.file_name())?, entry.path())))
        .collect();
    builds.sort();
    builds
        .iter()
        .rev()
        .find_map(|(_, folder)| complete(folder))
        .ok_or_else(none)
}

/// A build folder's order: its date, then its time of day when it has one, then its name.
type BuildKey = (String, String, String);

/// `YYYY.MM.DD[-HH-MM-SS]-commit` → (date, time, name); `None` for any other name.
fn build_key(name: &OsStr) -> Option<BuildKey> {
    let name = name.to_str()?;
    let date = name.get(..10)?;
    let date_shape = date.char_indices().all(|(i, c)| match i {
        4 | 7 => c == '.',
        _ => c.is_ascii_digit(),
    });
    if !date_shape {
        return None;
    }
    let time = name
        .get(10..)
        .and_then(|rest| rest.strip_prefix('-'))
        .and_then(|rest| rest.get(..8))
        .filter(|t| {
            t.char_indices().all(|(i, c)| match i {
                2 | 5 => c == '-',
                _ => c.is_ascii_digit(),
            })
        })
        .unwrap_or("00-00-00");
    Some((date.to_string(), time.to_string(), name.to_string()))
}

/// The `claude.exe` behind npm's `claude.cmd`.
pub(crate) fn claude_entry(shim: &Path) -> Result<PathBuf, ShimError> {
    let dir = shim.parent().unwrap_or_else(|| Path::new("."));
    let exe = dir
        .join("node_modules")
        .join("@anthropic-ai")
        .join("claude-code")
        .join("bin")
        .join("claude.exe");
    if exe.is_file() {
        Ok(exe)
    } else {
        Err(ShimError::NoClaudeExe {
            shim: shim.to_path_buf(),
            exe,
        })
    }
}

/// The length of one argument as Windows' command line carries it, in UTF-16 units (the
/// quoting std uses: quotes around an argument that is empty or has a space or tab, a
/// backslash before each quote, backslashes doubled before a quote).
pub(crate) fn quoted_length(arg: &OsStr) -> usize {
    let text = arg.to_string_lossy();
    let needs_quotes = text.is_empty() || text.contains([' ', '\t']);
    let mut length = 0;
    let mut backslashes = 0;
    for c in text.chars() {
        match c {
            '\\' => backslashes += 1,
            '"' => {
                length += backslashes + 1;
                backslashes = 0;
            }
            _ => backslashes = 0,
        }
        length += c.len_utf16();
    }
    if needs_quotes {
        length += backslashes + 2;
    }
    length
}

/// Refuses a command line longer than `limit` characters: `program` then `args`, each quoted
/// and preceded by a space. The error names the three longest arguments.
pub(crate) fn check_command_line(
    program: &Path,
    args: &[OsString],
    limit: usize,
) -> Result<(), CommandLineTooLong> {
    let lengths: Vec<usize> = args.iter().map(|a| quoted_length(a)).collect();
    let length = quoted_length(program.as_os_str()) + lengths.iter().map(|l| l + 1).sum::<usize>();
    if length <= limit {
        return Ok(());
    }
    let mut parts: Vec<(usize, String)> = args
        .iter()
        .zip(&lengths)
        .map(|(arg, l)| {
            let text = arg.to_string_lossy();
            let head: String = text.chars().take(24).collect();
            let shown = if head.len() < text.len() {
                format!("{head}…")
            } else {
                head
            };
            (*l, shown)
        })
        .collect();
    parts.sort_by_key(|part| std::cmp::Reverse(part.0));
    let parts = parts
        .iter()
        .take(3)
        .map(|(l, shown)| format!("{shown} ({l} characters)"))
        .collect::<Vec<_>>()
        .join(", ");
    Err(CommandLineTooLong {
        program: program.display().to_string(),
        length,
        limit,
        parts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, b"").unwrap();
    }

    #[test]
    fn the_newest_complete_build_is_run_and_a_half_extracted_one_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let shim = dir.path().join("agent.cmd");
        touch(&shim);
        let versions = dir.path().join("versions");
        for build in ["2026.09.15-d2fe57e", "2026.09.15-10-30-00-aaaaaaa"] {
            touch(&versions.join(build).join("node.exe"));
            touch(&versions.join(build).join("index.js"));
        }
        // Newer, but only half extracted.
        touch(&versions.join("2026.10.01-bbbbbbb").join("node.exe"));
        // Not a build folder.
        touch(&versions.join("zzz").join("node.exe"));
        touch(&versions.join("zzz").join("index.js"));
        let (node, script) = cursor_entry(&shim).unwrap();
        let newest = versions.join("2026.09.15-10-30-00-aaaaaaa");
        assert_eq!(node, newest.join("node.exe"));
        assert_eq!(script, newest.join("index.js"));
        // A pair beside the shim wins.
        touch(&dir.path().join("node.exe"));
        touch(&dir.path().join("index.js"));
        assert_eq!(cursor_entry(&shim).unwrap().0, dir.path().join("node.exe"));
    }

    #[test]
    fn a_shim_without_a_build_is_refused_with_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let shim = dir.path().join("cursor-agent.cmd");
        touch(&shim);
        let error = cursor_entry(&shim).unwrap_err();
        assert!(error.to_string().contains("cursor-agent.cmd"), "{error}");
        touch(&dir.path().join("versions/2026.09.15-d2fe57e/index.js"));
        assert!(cursor_entry(&shim).is_err(), "index.js alone is incomplete");
        assert!(is_batch(&shim) && is_batch(Path::new("X.BAT")));
        assert!(!is_batch(Path::new("agent.exe")) && !is_batch(Path::new("agent")));
    }

    #[test]
    fn npm_claude_cmd_leads_to_claude_exe() {
        let dir = tempfile::tempdir().unwrap();
        let shim = dir.path().join("claude.cmd");
        touch(&shim);
        assert!(matches!(
            claude_entry(&shim),
            Err(ShimError::NoClaudeExe { .. })
        ));
        let exe = dir
            .path()
            .join("node_modules/@anthropic-ai/claude-code/bin/claude.exe");
        touch(&exe);
        assert_eq!(claude_entry(&shim).unwrap(), exe);
    }

    #[test]
    fn quoting_is_counted_as_windows_carries_it() {
        assert_eq!(quoted_length(OsStr::new("abc")), 3);
        assert_eq!(quoted_length(OsStr::new("")), 2);
        assert_eq!(quoted_length(OsStr::new("a b")), 5);
        assert_eq!(quoted_length(OsStr::new(r#"a"b"#)), 4);
        assert_eq!(quoted_length(OsStr::new(r#"a\"b"#)), 6);
        assert_eq!(quoted_length(OsStr::new(r"a b\")), 7);
    }

    #[test]
    fn a_line_over_the_limit_is_refused_naming_its_longest_part() {
        let program = Path::new("claude.exe");
        let small = vec![OsString::from("--settings"), OsString::from("s.json")];
        assert!(check_command_line(program, &small, COMMAND_LINE_LIMIT).is_ok());
        let agents = OsString::from(format!("{{\"a\":\"{}\"}}", "x".repeat(COMMAND_LINE_LIMIT)));
        let big = vec![OsString::from("--agents"), agents];
        let error = check_command_line(program, &big, COMMAND_LINE_LIMIT).unwrap_err();
        assert!(error.length > COMMAND_LINE_LIMIT);
        assert!(error.parts.starts_with("{\"a\":\"xxx"), "{}", error.parts);
        assert!(error.to_string().contains("32000"), "{error}");
        // Exactly at the limit passes; one over does not: 10 + 1 + 89 = 100.
        let at = OsString::from("y".repeat(89));
        assert!(check_command_line(program, std::slice::from_ref(&at), 100).is_ok());
        let mut over = at;
        over.push("y");
        assert!(check_command_line(program, &[over], 100).is_err());
    }
}
