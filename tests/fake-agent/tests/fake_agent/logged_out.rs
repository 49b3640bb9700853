//! `FAKE_AGENT_LOGGED_OUT=1` makes turns, `--list-models` and `status` fail like the real CLI,
//! unless `CURSOR_API_KEY` is set; `login` then logs in through the marker file.

use crate::common;

use common::Scratch;
use common::fake;
use common::run_with_stdin;
use common::turn_args;

const AUTH_ERROR: &str = "Error: Authentication required. Run 'agent login', pass --api-key/--auth-token, or set CURSOR_API_KEY/CURSOR_AUTH_TOKEN.\n";

#[test]
fn turns_and_listings_fail_with_the_auth_error() {
    let scratch = Scratch::new("logged-out");
    let turn = run_with_stdin(
        fake()
            .args(turn_args(&scratch.0))
            .env("FAKE_AGENT_LOGGED_OUT", "1"),
        "hi",
    );
    assert_eq!(turn.status.code(), Some(1));
    assert!(turn.stdout.is_empty());
    assert_eq!(String::from_utf8_lossy(&turn.stderr), AUTH_ERROR);

    let models = fake()
        .arg("--list-models")
        .env("FAKE_AGENT_LOGGED_OUT", "1")
        .output()
        .unwrap();
    assert_eq!(models.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&models.stderr), AUTH_ERROR);

    let status = fake()
        .arg("status")
        .env("FAKE_AGENT_LOGGED_OUT", "1")
        .output()
        .unwrap();
    assert_eq!(status.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&status.stdout), "Not logged in\n");
}

#[test]
fn an_api_key_counts_as_logged_in() {
    let scratch = Scratch::new("api-key");
    let turn = run_with_stdin(
        fake()
            .args(turn_args(&scratch.0))
            .env("FAKE_AGENT_LOGGED_OUT", "1")
            .env("CURSOR_API_KEY", "key"),
        "hi",
    );
    assert!(turn.status.success(), "{turn:?}");
    let init: serde_json::Value = serde_json::from_str(
        String::from_utf8_lossy(&turn.stdout)
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(init["apiKeySource"], "env");
}

#[test]
fn login_prints_the_link_and_logs_in() {
    let scratch = Scratch::new("login");
    let marker = scratch.join("logged-in");
    let login = fake()
        .arg("login")
        .env("NO_OPEN_BROWSER", "1")
        .env("FAKE_AGENT_LOGGED_OUT", "1")
        .env("FAKE_AGENT_LOGIN_MARKER", &marker)
        .env("FAKE_AGENT_EMAIL", "dev@example.com")
        .output()
        .unwrap();
    assert!(login.status.success());
    let text = String::from_utf8_lossy(&login.stdout);
    assert!(text.starts_with(
        "Open a browser and navigate to this link: https://cursor.com/loginDeepControl?challenge="
    ));
    assert!(text.ends_with("\n✓ Logged in as dev@example.com\n"));
    assert!(marker.exists());

    let status = fake()
        .arg("whoami")
        .env("FAKE_AGENT_LOGGED_OUT", "1")
        .env("FAKE_AGENT_LOGIN_MARKER", &marker)
        .env("FAKE_AGENT_EMAIL", "dev@example.com")
        .output()
        .unwrap();
    assert!(status.status.success());
    assert_eq!(
        String::from_utf8_lossy(&status.stdout),
        "✓ Logged in as dev@example.com\n"
    );
}
