//! Pure parsers for what the operating system tells about a process: Linux's `/proc/<pid>/stat`
//! line, NUL-separated `cmdline`/`environ` blobs, and macOS's `KERN_PROCARGS2` buffer. They
//! compile on every platform so their tests run on every platform, on byte fixtures built from
//! the documented layouts.

/// The start time in `/proc/<pid>/stat`: field 22, clock ticks since boot. The command name
/// (field 2) is parenthesised and may hold spaces or parentheses (and need not be UTF-8), so
/// fields are counted after the last `)`; field 22 is then the 20th. Allocates nothing.
#[cfg(any(test, target_os = "linux"))]
pub(crate) fn stat_start_time_bytes(stat: &[u8]) -> Option<u64> {
    let close = stat.iter().rposition(|b| *b == b')')?;
    let field = stat[close + 1..]
        .split(u8::is_ascii_whitespace)
        .filter(|word| !word.is_empty())
        .nth(19)?;
    std::str::from_utf8(field).ok()?.parse().ok()
}

/// The state letter in `/proc/<pid>/stat` (field 3: `R`, `S`, `Z` for a zombie, …), counted
/// after the last `)` as [`stat_start_time_bytes`] does.
#[cfg(any(test, target_os = "linux"))]
pub(crate) fn stat_state_bytes(stat: &[u8]) -> Option<u8> {
    let close = stat.iter().rposition(|b| *b == b')')?;
    stat[close + 1..]
        .split(u8::is_ascii_whitespace)
        .find(|word| !word.is_empty())
        .and_then(|word| (word.len() == 1).then_some(word[0]))
}

#[cfg(any(test, target_os = "macos"))]
/// A macOS start time (`proc_bsdinfo`'s `pbi_start_tvsec` and `pbi_start_tvusec`) as one
/// number: microseconds since the epoch. Only compared for equality with a value recorded on
/// the same machine.
pub(crate) fn bsd_start_time(seconds: u64, microseconds: u64) -> Option<u64> {
    seconds.checked_mul(1_000_000)?.checked_add(microseconds)
}

/// The entries of a NUL-separated blob (`/proc/<pid>/cmdline`, `/proc/<pid>/environ`), empty
/// ones left out.
pub(crate) fn nul_separated(raw: &[u8]) -> impl Iterator<Item = &[u8]> {
    raw.split(|b| *b == 0).filter(|entry| !entry.is_empty())
}

/// Command-line words as a person reads them: lossy UTF-8, joined by spaces; `None` when there
/// are none (a kernel thread, a zombie).
pub(crate) fn join_words<'a>(words: impl Iterator<Item = &'a [u8]>) -> Option<String> {
    let words: Vec<String> = words
        .filter(|w| !w.is_empty())
        .map(|w| String::from_utf8_lossy(w).into_owned())
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

#[cfg(any(test, target_os = "macos"))]
/// A process's arguments and environment as macOS's `sysctl` `KERN_PROCARGS2` gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ProcArgs<'a> {
    /// The executable path the kernel recorded at exec.
    pub exec_path: &'a [u8],
    /// `argv`, `argc` entries.
    pub argv: Vec<&'a [u8]>,
    /// `NAME=value` entries of the environment at exec, in order.
    pub env: Vec<&'a [u8]>,
}

#[cfg(any(test, target_os = "macos"))]
/// Parses a `KERN_PROCARGS2` buffer: `argc` (a native-endian `i32`), the executable path and
/// its NUL terminator, NUL padding, then `argc` NUL-terminated arguments, then the environment's
/// NUL-terminated `NAME=value` entries up to an empty entry or the end (the kernel's own
/// `key=value` strings for the loader follow that empty entry and are not the environment).
/// `None` when the buffer is shorter than its own `argc` says.
pub(crate) fn procargs2(buffer: &[u8]) -> Option<ProcArgs<'_>> {
    let (argc, rest) = buffer.split_first_chunk::<4>()?;
    let argc = usize::try_from(i32::from_ne_bytes(*argc)).ok()?;
    let path_end = rest.iter().position(|b| *b == 0)?;
    let exec_path = &rest[..path_end];
    let mut at = path_end;
    while rest.get(at) == Some(&0) {
        at += 1;
    }
    let mut argv = Vec::with_capacity(argc.min(4096));
    for _ in 0..argc {
        let len = rest.get(at..)?.iter().position(|b| *b == 0)?;
        argv.push(&rest[at..at + len]);
        at += len + 1;
    }
    let mut env = Vec::new();
    while let Some(tail) = rest.get(at..).filter(|tail| !tail.is_empty()) {
        let len = tail.iter().position(|b| *b == 0).unwrap_or(tail.len());
        if len == 0 {
            break;
        }
        env.push(&tail[..len]);
        at += len + 1;
    }
    Some(ProcArgs {
        exec_path,
        argv,
        env,
    })
}

#[cfg(any(test, target_os = "macos"))]
/// `entries` joined back into one NUL-separated blob, each entry NUL-terminated (the shape of
/// `/proc/<pid>/environ`).
pub(crate) fn nul_joined<'a>(entries: impl Iterator<Item = &'a [u8]>) -> Vec<u8> {
    let mut blob = Vec::new();
    for entry in entries {
        blob.extend_from_slice(entry);
        blob.push(0);
    }
    blob
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `KERN_PROCARGS2` buffer laid out as the kernel writes it: argc, the exec path, NUL
    /// padding to a word boundary, argv, envp, an empty entry, the loader's strings.
    fn procargs_fixture(argc: i32, path: &str, argv: &[&str], env: &[&str]) -> Vec<u8> {
        let mut buffer = argc.to_ne_bytes().to_vec();
        buffer.extend_from_slice(path.as_bytes());
        buffer.push(0);
        while !buffer.len().is_multiple_of(8) {
            buffer.push(0);
        }
        buffer.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0]);
        for word in argv.iter().chain(env) {
            buffer.extend_from_slice(word.as_bytes());
            buffer.push(0);
        }
        buffer.push(0);
        buffer.extend_from_slice(b"executable_path=/usr/local/bin/agent\0ptr_munge=\0");
        buffer
    }

    #[test]
    fn procargs2_gives_argv_and_environment() {
        let buffer = procargs_fixture(
            3,
            "/usr/local/bin/agent",
            &["agent", "-p", "--model=gpt-5"],
            &[
                "PATH=/usr/bin",
                "MULTI_CURSOR_RUN_MARKER=abc",
                "HOME=/Users/me",
            ],
        );
        let parsed = procargs2(&buffer).unwrap();
        assert_eq!(parsed.exec_path, b"/usr/local/bin/agent");
        assert_eq!(
            parsed.argv,
            [&b"agent"[..], &b"-p"[..], &b"--model=gpt-5"[..]]
        );
        assert_eq!(
            parsed.env,
            [
                &b"PATH=/usr/bin"[..],
                &b"MULTI_CURSOR_RUN_MARKER=abc"[..],
                &b"HOME=/Users/me"[..]
            ]
        );
    }

    #[test]
    fn procargs2_without_environment_or_loader_strings() {
        let mut buffer = 1i32.to_ne_bytes().to_vec();
        buffer.extend_from_slice(b"/bin/sleep\0\0\0sleep\0");
        let parsed = procargs2(&buffer).unwrap();
        assert_eq!(parsed.argv, [&b"sleep"[..]]);
        assert!(parsed.env.is_empty());
        // An environment that runs to the end of the buffer without a terminator.
        buffer.extend_from_slice(b"A=1\0B=2");
        assert_eq!(procargs2(&buffer).unwrap().env, [&b"A=1"[..], &b"B=2"[..]]);
    }

    #[test]
    fn procargs2_refuses_what_its_argc_does_not_fit() {
        assert_eq!(procargs2(b""), None);
        assert_eq!(procargs2(&[1, 0]), None);
        let mut short = 3i32.to_ne_bytes().to_vec();
        short.extend_from_slice(b"/bin/sh\0sh\0-c\0");
        assert_eq!(procargs2(&short), None);
        let mut negative = (-1i32).to_ne_bytes().to_vec();
        negative.extend_from_slice(b"/bin/sh\0sh\0");
        assert_eq!(procargs2(&negative), None);
        // No NUL after the exec path.
        let mut unterminated = 0i32.to_ne_bytes().to_vec();
        unterminated.extend_from_slice(b"/bin/sh");
        assert_eq!(procargs2(&unterminated), None);
    }

    #[test]
    fn stat_start_time_counts_fields_after_the_command_name() {
        let stat = "4242 (agent (x) 1) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 3 0 \
                    987654 1000 10 18446744073709551615";
        assert_eq!(stat_start_time_bytes(stat.as_bytes()), Some(987_654));
        assert_eq!(stat_start_time_bytes(b"4242 (agent) S 1"), None);
        assert_eq!(stat_start_time_bytes(b"no parenthesis"), None);
        // A command name that is not UTF-8 (the kernel copies it as given).
        let mut raw = b"4242 (a\xff\xfe) S".to_vec();
        raw.extend_from_slice(&stat.as_bytes()[stat.rfind(')').unwrap() + 3..]);
        assert_eq!(stat_start_time_bytes(&raw), Some(987_654));
    }

    #[test]
    fn stat_state_is_the_letter_after_the_command_name() {
        assert_eq!(stat_state_bytes(b"4242 (agent (x) Z) S 1 4242"), Some(b'S'));
        assert_eq!(
            stat_state_bytes(b"4242 (multi-cursor) Z 1 4242"),
            Some(b'Z')
        );
        assert_eq!(stat_state_bytes(b"4242 (agent)"), None);
        assert_eq!(stat_state_bytes(b"no parenthesis"), None);
    }

    #[test]
    fn bsd_start_time_is_microseconds() {
        assert_eq!(
            bsd_start_time(1_764_600_000, 123_456),
            Some(1_764_600_000_123_456)
        );
        assert_eq!(bsd_start_time(u64::MAX, 0), None);
    }

    #[test]
    fn words_and_blobs() {
        let raw = b"agent\0-p\0\0--model=x\0";
        assert_eq!(
            join_words(nul_separated(raw)),
            Some("agent -p --model=x".to_string())
        );
        assert_eq!(join_words(nul_separated(b"")), None);
        assert_eq!(
            nul_joined([&b"A=1"[..], &b"B=2"[..]].into_iter()),
            b"A=1\0B=2\0"
        );
    }
}
