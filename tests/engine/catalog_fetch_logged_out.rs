//! A logged-out agent gives CatalogError::LoggedOut with Cursor's words and the fix; other
//! failures carry the exit code and bounded stderr.

use std::path::Path;
use std::path::PathBuf;

use multi_cursor::cursor::catalog::CatalogError;
use multi_cursor::cursor::catalog::fetch_catalog;
use multi_cursor_test_support::write_script;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/list-models")
        .join(name)
}

#[tokio::test]
async fn failures_are_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    let logged_out = write_script(
        &dir.path().join("agent-logged-out"),
        &format!(
            "cat '{}' >&2\nexit 1",
            fixture("logged-out-stderr.txt").display()
        ),
    );
    let broken = write_script(
        &dir.path().join("agent-broken"),
        "printf '\\033[31mboom: something broke\\033[0m\\n' >&2\nhead -c 20000 /dev/zero | tr '\\0' x >&2\nexit 3",
    );

    let error = fetch_catalog(&logged_out).await.unwrap_err();
    let CatalogError::LoggedOut { message } = &error else {
        panic!("expected LoggedOut, got {error:?}");
    };
    assert_eq!(
        message,
        "Error: Authentication required. Run 'agent login', pass --api-key/--auth-token, or set CURSOR_API_KEY/CURSOR_AUTH_TOKEN."
    );
    let text = error.to_string();
    assert!(text.contains("Authentication required"), "{text}");
    assert!(text.contains("multi-cursor --cursor-login"), "{text}");

    let error = fetch_catalog(&broken).await.unwrap_err();
    let CatalogError::Failed { code, stderr, .. } = &error else {
        panic!("expected Failed, got {error:?}");
    };
    assert_eq!(*code, Some(3));
    assert!(stderr.starts_with("boom: something broke\n"), "{stderr}");
    assert!(
        stderr.len() <= 4 * 1024 + 3,
        "stderr is bounded: {}",
        stderr.len()
    );
    assert!(error.to_string().contains("exit code 3"));
}
