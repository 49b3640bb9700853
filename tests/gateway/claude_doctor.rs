//! `claude doctor` (Claude Code 2.1.331 and later) checks the API host with `HEAD` and then
//! `GET /api/hello`, neither carrying our token: against the gateway it must report the host
//! answering 200, not a failure. Run with the newest Claude Code (`MULTI_CURSOR_TEST_CLAUDE_LATEST`).

use std::process::Command;
use std::process::Stdio;

use multi_cursor_test_support::claude::TEST_API_KEY;
use multi_cursor_test_support::claude::latest_claude_binary;
use multi_cursor_test_support::claude::prepare_home;
use multi_cursor_test_support::gateway::GatewayOptions;
use multi_cursor_test_support::gateway::TestGateway;

#[test]
fn claude_doctor_finds_the_gateway_answering() {
    let gw = TestGateway::start(GatewayOptions::default());
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    prepare_home(&home, &project);
    let output = Command::new(latest_claude_binary())
        .arg("doctor")
        .current_dir(&project)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &home)
        .env("ANTHROPIC_BASE_URL", &gw.url)
        .env("ANTHROPIC_API_KEY", TEST_API_KEY)
        .env(
            "ANTHROPIC_CUSTOM_HEADERS",
            format!("x-multi-cursor-token: {}", gw.token),
        )
        .env("DISABLE_AUTOUPDATER", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("API (custom host): answered HTTP 200"),
        "doctor did not see the gateway answer:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
