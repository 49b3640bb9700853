//! The fake agent's own integration tests, one module per behaviour: argv and stdin logging,
//! `--list-models`, logged-out and unknown-resume answers, signals and process groups, replayed
//! fixtures, scenario folders and split writes. Run one module with
//! `cargo test -p fake-agent --test fake_agent <module>::`.

mod common;
mod cursor_2026;
mod invocation_log;
mod list_models;
mod logged_out;
mod process_control;
mod replay_fixture;
mod resume_unknown;
mod sequence_dir;
mod split_writes;
