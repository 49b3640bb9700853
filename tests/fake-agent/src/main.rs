//! `fake-agent`: a stand-in for Cursor's `agent` CLI, for tests.
//!
//! It accepts the real CLI's command line, logs every invocation as one JSON line (when
//! `FAKE_AGENT_LOG` is set), and answers a turn by replaying a scenario file byte for byte, with
//! directives for timing, partial writes, stalls, exit codes, lingering children and signals.
//! Without a scenario it prints a small stream in the real CLI's exact shape. `--version`,
//! `--help`, `--list-models`/`models`, `status`/`whoami`, `login` and `logout` answer like the
//! real CLI. Everything is driven by environment variables; see `README.md` beside this crate.
//!
//! Misuse of the fake itself (a bad directive, an unreadable scenario, a bad number in an
//! environment variable) is reported on stderr as `fake-agent: …` with exit code 2.

mod auth;
mod cli;
mod cli_config;
mod config;
mod default_stream;
mod emit;
mod error;
mod events_2026;
mod ids;
mod info;
mod invocation_log;
mod linger;
mod models;
mod scenario;
mod select;
mod sidecar;
mod subst;
mod sys;
mod turn;
mod wait;

use std::process;
use std::time::Instant;

use cli::Invocation;
use cli::Subcommand;
use error::Error;

fn main() {
    if let Err(error) = sidecar::apply() {
        eprintln!("fake-agent: {error}");
        process::exit(error::MISUSE_EXIT_CODE);
    }
    let argv: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect();
    if linger::is_lingerer(&argv) {
        process::exit(linger::run_lingerer(&argv));
    }
    let code = match run(argv) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("fake-agent: {error}");
            error::MISUSE_EXIT_CODE
        }
    };
    process::exit(code);
}

/// Parses the command line and dispatches to the subcommand or a turn; returns the exit code.
fn run(argv: Vec<String>) -> Result<i32, Error> {
    let started = Instant::now();
    wait::start_lifetime_watchdog()?;
    let invocation = Invocation::parse(argv);
    match invocation.subcommand() {
        Subcommand::Help => info::help(&invocation),
        Subcommand::Version => info::version(&invocation),
        Subcommand::ListModels => models::list(&invocation),
        Subcommand::Status => auth::status(&invocation),
        Subcommand::Login => auth::login(&invocation),
        Subcommand::Logout => auth::logout(&invocation),
        Subcommand::About => info::about(&invocation),
        Subcommand::CreateChat => info::create_chat(&invocation),
        Subcommand::Other(name) => info::other(&invocation, &name),
        Subcommand::Turn => turn::run(&invocation, started),
    }
}
