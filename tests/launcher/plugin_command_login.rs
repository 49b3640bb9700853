//! `/multi-cursor:login` with the plugin installed, logged out of Cursor: the helper starts
//! `agent login` in the background with NO_OPEN_BROWSER and the user gets the link to open
//! (Claude Code shows a `!` line's output only once it ends, measured, so the command must not
//! wait for the approval). Once the login is approved, running the command again says who is
//! logged in and starts nothing.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::plugin;

use gateway::GatewayOptions;
use gateway::TestGateway;

/// Ends the background `agent login` when the test ends, however it ends.
struct KillOnDrop(Option<i32>);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if let Some(pid) = self.0 {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

#[test]
fn login_command_shows_the_link_then_confirms() {
    let gw = TestGateway::start(GatewayOptions::default());
    let home = gw.dir.path().join("claude-home");
    let project = gw.workspace();
    let marker = gw.dir.path().join("login-marker");
    plugin::install(&home, &project);
    let run = || {
        plugin::claude_through(&gw, &home, &project)
            .env("FAKE_AGENT_LOGGED_OUT", "1")
            .env("FAKE_AGENT_LOGIN_MARKER", &marker)
            .env("FAKE_AGENT_LOGIN_DELAY_MS", "forever")
            .env("FAKE_AGENT_MAX_LIFETIME_MS", "300000")
    };

    let first = plugin::run_command(run(), "/multi-cursor:login");
    assert_eq!(first.status, Some(0), "{first:?}");
    let answer = &first.stdout;
    assert!(answer.starts_with("/multi-cursor:login"), "{first:?}");
    assert!(
        answer.contains("Open this link in your browser to log in to Cursor:"),
        "{answer}"
    );
    assert!(
        answer.contains("https://cursor.com/loginDeepControl?challenge="),
        "{answer}"
    );
    let pid = answer
        .split("agent login, pid ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .and_then(|pid| pid.parse::<i32>().ok());
    let _background = KillOnDrop(pid);
    assert!(
        pid.is_some(),
        "the background login's pid is named: {answer}"
    );
    let logins: Vec<_> = gw
        .agent_calls()
        .into_iter()
        .filter(|c| c["kind"] == "login")
        .collect();
    assert_eq!(logins.len(), 1, "one `agent login` started");
    assert!(
        logins[0]["env_keys"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k == "NO_OPEN_BROWSER"),
        "agent login ran with NO_OPEN_BROWSER: {}",
        logins[0]
    );

    // The user approves in the browser: the fake's login marker appears.
    std::fs::write(&marker, "").unwrap();
    let second = plugin::run_command(run(), "/multi-cursor:login");
    assert_eq!(second.status, Some(0), "{second:?}");
    assert!(
        second
            .stdout
            .contains("Logged in to Cursor as fake@example.com. No login was started"),
        "{second:?}"
    );
    let logins = gw
        .agent_calls()
        .into_iter()
        .filter(|c| c["kind"] == "login")
        .count();
    assert_eq!(logins, 1, "no second `agent login`");
    assert!(gw.turns().is_empty(), "no Cursor turn: {:?}", gw.turns());
}
