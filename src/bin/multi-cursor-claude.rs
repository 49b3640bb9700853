//! The `multi-cursor-claude` binary: Claude Code behind multi-cursor's gateway for programs that
//! start `claude` themselves (the VS Code panel's `claudeCode.claudeProcessWrapper`, the Agent
//! SDK's `pathToClaudeCodeExecutable` or `cli_path`). Everything lives in
//! `multi_cursor::launch::wrap`; this only builds the runtime and reports a fatal error.

use std::process::ExitCode;

fn main() -> ExitCode {
    init_tracing();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("multi-cursor-claude: could not start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let args = std::env::args_os().skip(1).collect();
    // block_on polls the wrapper on this (main) thread, which spawns Claude Code: its
    // parent-death signal is tied to this thread, which lives as long as the wrapper.
    match runtime.block_on(multi_cursor::launch::wrap::run(args)) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("multi-cursor-claude: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Logs go to stderr only when `MULTI_CURSOR_LOG` asks for them (e.g. `debug`): the host reads
/// Claude Code's stderr, and the wrapper adds nothing to it but a fatal error.
fn init_tracing() {
    if let Ok(filter) = tracing_subscriber::EnvFilter::try_from_env(multi_cursor::env::LOG_ENV) {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .init();
    }
}
