//! Everything multi-cursor writes is private: after sessions that ran a Cursor turn with an
//! image, every folder under the state folder (the folder itself, `sessions/`, `images/`,
//! `plugin/`) is 0700 and every file (records, locks, the image, the catalog and version
//! caches, the plugin copy but its hooks and shim, which are 0700) is 0600; so are `serve`'s
//! ready file and the launcher's temporary folder and `--settings` file. The processes run
//! with umask 000, so the modes come from the code, not from the umask.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::security;

use std::path::Path;

use gateway::GatewayOptions;
use gateway::TestGateway;
use security::modes_under;

/// A Cursor request whose newest turn carries an image (written into the state folder).
fn with_image() -> String {
    serde_json::json!({
        "model": "multi/cursor/composer-2.5", "max_tokens": 100, "stream": false,
        "messages": [{"role": "user", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgoAAAANSUhEUg=="}},
            {"type": "text", "text": "what is in this picture?"}
        ]}]
    })
    .to_string()
}

/// Asserts 0700 folders and 0600 files under `root` (0700 for the executables of the
/// launcher's plugin copy, `plugin/<version>/{scripts,hooks}/`); returns how many of each.
fn assert_private(root: &Path) -> (usize, usize) {
    let entries = modes_under(root);
    let mut counts = (0, 0);
    for (path, is_dir, mode) in &entries {
        if *is_dir {
            assert_eq!(*mode, 0o700, "folder {} has mode {mode:o}", path.display());
            counts.0 += 1;
        } else {
            let plugin_executable = path.strip_prefix(root.join("plugin")).is_ok_and(|inner| {
                let kind = inner
                    .iter()
                    .nth(1)
                    .map(|c| c.to_string_lossy().into_owned());
                matches!(kind.as_deref(), Some("scripts" | "hooks")) && path.extension().is_none()
            });
            let want = if plugin_executable { 0o700 } else { 0o600 };
            assert_eq!(*mode, want, "file {} has mode {mode:o}", path.display());
            counts.1 += 1;
        }
    }
    counts
}

fn open_umask() {
    nix::sys::stat::umask(nix::sys::stat::Mode::empty());
}

#[test]
fn serve_writes_private_files_only() {
    open_umask();
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let answer = security::exchange(
        &gw.url,
        &[
            "POST /v1/messages HTTP/1.1".into(),
            format!("Host: {}", security::authority(&gw.url)),
            format!("x-multi-cursor-token: {}", gw.token),
            "x-claude-code-session-id: s-modes".into(),
            "content-type: application/json".into(),
            format!("content-length: {}", with_image().len()),
        ],
        with_image().as_bytes(),
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(gw.turns().len(), 1);

    let images = std::fs::read_dir(gw.state_dir.join("images"))
        .unwrap()
        .count();
    assert_eq!(images, 1, "the image was written");
    let (folders, files) = assert_private(&gw.state_dir);
    assert!(folders >= 3, "state, sessions, images: {folders}");
    assert!(files >= 4, "record, lock, image, catalog cache: {files}");
    let ready = std::fs::metadata(gw.dir.path().join("ready.json")).unwrap();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&ready.permissions()) & 0o777,
        0o600,
        "the ready file holds the token"
    );
}

#[test]
fn the_launcher_writes_private_files_only() {
    open_umask();
    let session = security::LiveSession::start(&[]);
    session.bypass("s-modes");
    let answer = session.request("POST", "/v1/messages", "s-modes", &with_image());
    assert_eq!(answer.status, 200, "{}", answer.body);

    let (folders, files) = assert_private(
        &session.launch.tmp.join(
            std::fs::read_dir(&session.launch.tmp)
                .unwrap()
                .next()
                .unwrap()
                .unwrap()
                .file_name(),
        ),
    );
    assert_eq!(
        (folders, files),
        (1, 2),
        "the settings folder, the settings file and the folder's lock"
    );
    let (folders, files) = assert_private(&session.launch.state);
    assert!(folders >= 3, "state, sessions, images: {folders}");
    assert!(files >= 5, "record, lock, image, caches: {files}");

    let (launch, output) = session.stop();
    assert_eq!(output.status, Some(42), "{output:?}");
    assert_private(&launch.state);
}
