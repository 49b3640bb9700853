//! A `--list-models` that hangs is stopped after the timeout, with its whole process group.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;
use std::time::Instant;

use multi_cursor::cursor::catalog::CatalogError;
use multi_cursor::cursor::catalog::fetch_catalog_with_timeout;

/// Whether `pid` is gone (or only a zombie waiting for its new parent to reap it).
fn gone(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

#[tokio::test]
async fn hung_agent_times_out_and_its_group_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("grandchild.pid");
    let agent = dir.path().join("agent");
    // The grandchild keeps stdout open, like a stuck Node process under the wrapper script.
    std::fs::write(
        &agent,
        format!(
            "#!/bin/sh\nsleep 30 &\necho $! > '{}'\nwait\n",
            pid_file.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&agent, std::fs::Permissions::from_mode(0o755)).unwrap();

    let started = Instant::now();
    let error = fetch_catalog_with_timeout(&agent, Duration::from_millis(500))
        .await
        .unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(
        matches!(&error, CatalogError::Timeout { path, timeout } if path == Path::new(&agent) && *timeout == Duration::from_millis(500)),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("did not answer within 0.5 s"),
        "{error}"
    );

    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let pid = pid.trim();
    let deadline = Instant::now() + Duration::from_secs(3);
    while !gone(pid) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(gone(pid), "grandchild {pid} survived the timeout");
}
