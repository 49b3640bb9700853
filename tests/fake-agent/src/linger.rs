//! The lingering grandchild: `#!spawn-lingerer` re-executes the fake in a hidden mode that only
//! sleeps, in the same process group, and writes its pid to a file. A test then checks that
//! killing the turn's process group took the lingerer with it.

use std::fs;
use std::path::Path;
use std::path::PathBuf;
use std::process::Command;
use std::process::Stdio;
use std::time::Duration;

use crate::config;
use crate::error::Error;
use crate::wait;
use crate::wait::Wait;

/// The hidden first argument that selects lingerer mode.
const LINGER_ARG: &str = "__fake-agent-lingerer";

/// How long a lingerer lives when the directive does not say: ten minutes.
pub(crate) const DEFAULT_LINGER: Duration = Duration::from_secs(600);

/// How `#!spawn-lingerer` starts the lingerer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LingerSpec {
    /// File to write the lingerer's pid to.
    pub pidfile: Option<PathBuf>,
    /// How long the lingerer sleeps.
    pub wait: Wait,
    /// Whether the lingerer keeps our stdout and stderr open (`true`) or gets /dev/null.
    pub inherit_stdio: bool,
}

impl LingerSpec {
    /// Parses `[PIDFILE] [pidfile=PATH] [ms=N|forever] [stdio=inherit|null]`.
    pub(crate) fn parse(args: &str) -> Result<Self, Error> {
        let mut spec = Self {
            pidfile: config::path(config::LINGERER_PIDFILE),
            wait: Wait::For(DEFAULT_LINGER),
            inherit_stdio: true,
        };
        for word in args.split_whitespace() {
            match word.split_once('=') {
                Some(("pidfile", path)) => spec.pidfile = Some(PathBuf::from(path)),
                Some(("ms", wait)) => spec.wait = Wait::parse(wait)?,
                Some(("stdio", "inherit")) => spec.inherit_stdio = true,
                Some(("stdio", "null")) => spec.inherit_stdio = false,
                Some(_) => {
                    return Err(Error::new(format!(
                        "#!spawn-lingerer: unknown argument {word:?} (use pidfile=, ms=, stdio=inherit|null)"
                    )));
                }
                None => spec.pidfile = Some(PathBuf::from(word)),
            }
        }
        Ok(spec)
    }

    /// Starts the lingerer and writes its pid file; the lingerer is not waited for.
    pub(crate) fn spawn(&self) -> Result<u32, Error> {
        let exe = std::env::current_exe()
            .map_err(|error| Error::new(format!("finding our own executable: {error}")))?;
        let wait_arg = match self.wait {
            Wait::For(duration) => duration.as_millis().to_string(),
            Wait::Forever => "forever".to_owned(),
        };
        let stdio = || {
            if self.inherit_stdio {
                Stdio::inherit()
            } else {
                Stdio::null()
            }
        };
        let child = Command::new(&exe)
            .arg(LINGER_ARG)
            .arg(wait_arg)
            .stdin(Stdio::null())
            .stdout(stdio())
            .stderr(stdio())
            .spawn()
            .map_err(|error| Error::io("starting a lingerer from", &exe, &error))?;
        let pid = child.id();
        if let Some(pidfile) = &self.pidfile {
            write_pidfile(pidfile, pid)?;
        }
        Ok(pid)
    }
}

/// Writes `pid` to `path` atomically (temporary file, then rename).
fn write_pidfile(path: &Path, pid: u32) -> Result<(), Error> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(format!(".{}.tmp", std::process::id()));
    let temporary = PathBuf::from(temporary);
    fs::write(&temporary, format!("{pid}\n"))
        .map_err(|error| Error::io("writing", &temporary, &error))?;
    fs::rename(&temporary, path).map_err(|error| Error::io("renaming to", path, &error))
}

/// Whether this process was started as a lingerer.
pub(crate) fn is_lingerer(argv: &[String]) -> bool {
    argv.first().is_some_and(|arg| arg == LINGER_ARG)
}

/// The lingerer's whole life: sleep as told (bounded by `FAKE_AGENT_MAX_LIFETIME_MS`), exit 0.
pub(crate) fn run_lingerer(argv: &[String]) -> i32 {
    if let Err(error) = wait::start_lifetime_watchdog() {
        eprintln!("fake-agent lingerer: {error}");
        return crate::error::MISUSE_EXIT_CODE;
    }
    match argv.get(1).map(|arg| Wait::parse(arg)) {
        Some(Ok(wait)) => {
            wait.sleep();
            0
        }
        _ => {
            eprintln!("fake-agent lingerer: expected a duration in ms or `forever`");
            crate::error::MISUSE_EXIT_CODE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments() {
        let spec = LingerSpec::parse("/tmp/pid ms=forever stdio=null");
        assert_eq!(
            spec.ok(),
            Some(LingerSpec {
                pidfile: Some(PathBuf::from("/tmp/pid")),
                wait: Wait::Forever,
                inherit_stdio: false,
            })
        );
        assert!(LingerSpec::parse("colour=blue").is_err());
    }
}
