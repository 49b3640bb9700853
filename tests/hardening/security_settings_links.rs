//! A cloned repository decides what its `.claude/settings.json` and `settings.local.json` are,
//! and a user may pass `--settings /dev/stdin`. A settings file that is a link to a FIFO or a
//! device is never read: the gateway refuses the Cursor turn naming the file (a FIFO would hang
//! the request, `/dev/zero` would be read until memory runs out), the launcher still starts
//! Claude Code when a project layer is such a link, and a `--settings` FIFO is refused by name.
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::launcher;

use std::path::Path;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use launcher::Launch;

fn fifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    nix::unistd::mkfifo(path, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
}

fn refused_naming(gw: &TestGateway, settings: &Path) {
    let (status, body) = gw.ask(
        "s-settings-link",
        &cursor_request("multi/cursor/composer-2.5", "hello", false),
    );
    assert_eq!(status, 400, "{body}");
    assert!(
        body.contains(&format!("{} could not be read", settings.display())),
        "names the file: {body}"
    );
    assert!(body.contains("not a regular file"), "{body}");
    assert!(gw.turns().is_empty(), "Cursor ran: {:#?}", gw.turns());
}

fn gateway() -> TestGateway {
    TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    })
}

#[test]
fn a_project_settings_fifo_is_refused_not_waited_on() {
    let gw = gateway();
    let settings = gw.workspace().join(".claude/settings.json");
    fifo(&settings);
    refused_naming(&gw, &settings);
}

#[test]
fn a_local_settings_link_to_dev_zero_is_refused_not_read() {
    let gw = gateway();
    let settings = gw.workspace().join(".claude/settings.local.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &settings).unwrap();
    refused_naming(&gw, &settings);
}

#[test]
fn the_launcher_starts_claude_past_a_project_settings_fifo() {
    let mut launch = Launch::scripted().arg("-p").arg("hello");
    fifo(&launch.project.join(".claude/settings.json"));
    let output = launch.run();
    assert!(
        launch.claude_argv().is_some(),
        "Claude Code never started: {output:?}"
    );
}

#[test]
fn a_settings_argument_that_is_a_fifo_is_refused_by_name() {
    let launch = Launch::scripted();
    let settings = launch.project.join("settings-pipe.json");
    fifo(&settings);
    let mut launch = launch
        .arg("--settings")
        .arg(&settings)
        .arg("-p")
        .arg("hello");
    let output = launch.run();
    assert_ne!(output.status, Some(0), "{output:?}");
    assert!(
        output.stderr.contains(&format!(
            "--settings {} cannot be used: it is not a regular file",
            settings.display()
        )),
        "{output:?}"
    );
    assert!(launch.claude_argv().is_none(), "Claude Code started");
}
