//! The `multi-cursor` binary: parse the command line and dispatch. Everything else lives in the
//! library so tests and benchmarks drive the same code.

use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use multi_cursor::cli::AccountAction;
use multi_cursor::cli::Cli;
use multi_cursor::cli::Command;
use multi_cursor::cursor::account;
use multi_cursor::cursor::catalog;
use multi_cursor::cursor::locate;
use multi_cursor::gateway;
use multi_cursor::gateway::ServeOptions;
use multi_cursor::gateway::client;
use multi_cursor::rules::report::RulesOptions;
use multi_cursor::spend::report::UsageOptions;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(Command::Statusline(args)) = &cli.command {
        // Claude Code runs it every second: no runtime and no logging to start, just the line.
        multi_cursor::launch::statusline::run(args.chained());
        return ExitCode::SUCCESS;
    }
    init_tracing();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("multi-cursor: could not start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    // block_on polls the launcher on this (main) thread, which spawns Claude Code: its
    // parent-death signal is tied to this thread, which lives as long as the launcher.
    match runtime.block_on(dispatch(cli)) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("multi-cursor: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Logs go to stderr, filtered by `MULTI_CURSOR_LOG` (e.g. `debug`); warnings by default.
fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_env(multi_cursor::env::LOG_ENV)
        .unwrap_or_else(|_| {
            tracing_subscriber::EnvFilter::new(multi_cursor::env::DEFAULT_LOG_FILTER)
        });
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
}

async fn dispatch(cli: Cli) -> anyhow::Result<ExitCode> {
    // A launched session whose launcher was killed: the model it left in Claude Code's user
    // settings goes back now (hooks run inside live sessions, on every tool call: not there).
    if !matches!(cli.command, Some(Command::Hook))
        && let Ok(dir) = multi_cursor::state::state_dir_path()
    {
        multi_cursor::launch::saved_model::sweep(&dir);
    }
    match cli.cursor.action() {
        Some(AccountAction::Login) => return cursor_login().await,
        Some(AccountAction::LoginNoWait) => return cursor_login_no_wait().await,
        Some(AccountAction::Status) => return cursor_status().await,
        Some(AccountAction::ModelsTable) => return cursor_models(false).await,
        Some(AccountAction::ModelsJson) => return cursor_models(true).await,
        None => {}
    }
    match cli.command {
        None => multi_cursor::launch::run(cli.claude_args).await,
        Some(Command::Serve(args)) => {
            let options = ServeOptions {
                listen: args.listen,
                ready_file: args.ready_file,
                permission_mode: args.permission_mode,
            };
            gateway::run_serve(&options).await?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Hook) => {
            client::forward_hook();
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Status { json }) => gateway_status(json),
        Some(Command::Rules(args)) => multi_cursor::rules::report::run(&RulesOptions {
            json: args.json,
            explain: args.explain,
            workspace: args.workspace,
            files: args.files,
        }),
        Some(Command::Usage(args)) => multi_cursor::spend::report::run(&UsageOptions {
            since: args.since,
            workspace: args.workspace,
            json: args.json,
        }),
        Some(Command::Doctor { live }) => doctor(live).await,
        Some(Command::Statusline(args)) => {
            multi_cursor::launch::statusline::run(args.chained());
            Ok(ExitCode::SUCCESS)
        }
    }
}

async fn cursor_login() -> anyhow::Result<ExitCode> {
    let agent = locate::locate_agent().await?;
    let state = account::login(&agent.path)
        .await
        .context("logging in to Cursor")?;
    println!("{}", state.describe());
    Ok(exit_for(&state))
}

/// `--cursor-login --no-wait`: start the login, print the link, return (for slash commands,
/// whose output is shown only once they end).
async fn cursor_login_no_wait() -> anyhow::Result<ExitCode> {
    let agent = locate::locate_agent().await?;
    let started = account::start_login(&agent.path)
        .await
        .context("starting the Cursor login")?;
    println!("{}", started.describe());
    Ok(if started.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

async fn cursor_status() -> anyhow::Result<ExitCode> {
    let agent = locate::locate_agent().await?;
    let state = account::login_state(&agent.path)
        .await
        .context("asking Cursor who is logged in")?;
    println!("{}", state.describe());
    println!("Cursor agent: {} ({})", agent.path.display(), agent.version);
    Ok(exit_for(&state))
}

/// `--cursor-models`: always asks Cursor, refreshes the cache, prints the routes.
async fn cursor_models(json: bool) -> anyhow::Result<ExitCode> {
    let agent = locate::locate_agent().await?;
    let catalog = match catalog::fetch_catalog(&agent.path).await {
        Ok(catalog) => catalog,
        Err(error @ catalog::CatalogError::LoggedOut { .. }) => {
            eprintln!("multi-cursor: {error}");
            return Ok(ExitCode::FAILURE);
        }
        Err(error) => return Err(error).context("listing Cursor models"),
    };
    if let Err(error) = catalog::store_cache(&catalog, &agent.path) {
        tracing::warn!(%error, "could not cache the Cursor catalog");
    }
    let extra = catalog::extra_models_from_env();
    let size = catalog::PickerSize::from_env()?;
    if json {
        println!("{}", catalog::routes_json_text(&catalog, &extra, size));
    } else if catalog.is_empty() {
        println!("No models available for this Cursor account.");
    } else {
        print!("{}", catalog::render_table(&catalog, &extra, size));
    }
    if let Err(error) = catalog.picker(&extra).check() {
        eprintln!("multi-cursor: {error}");
    }
    Ok(ExitCode::SUCCESS)
}

/// `multi-cursor doctor [--live]`: every check with pass/fail and the fix; exit 1 on a failure.
async fn doctor(live: bool) -> anyhow::Result<ExitCode> {
    let report =
        multi_cursor::doctor::run(&multi_cursor::doctor::DoctorOptions::from_env(live)).await;
    print!("{}", report.render());
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `multi-cursor status`: the running gateway's state.
fn gateway_status(json: bool) -> anyhow::Result<ExitCode> {
    match client::fetch_status() {
        Ok(status) if json => println!("{status:#}"),
        Ok(status) => print!("{}", client::render_status(&status)),
        Err(error) => {
            eprintln!("multi-cursor status: {error}");
            return Ok(ExitCode::FAILURE);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn exit_for(state: &account::LoginState) -> ExitCode {
    if state.is_usable() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
