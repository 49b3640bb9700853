//! fetch_catalog runs `<agent> --list-models` and parses what it prints.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::path::PathBuf;

use multi_cursor::cursor::catalog::CatalogError;
use multi_cursor::cursor::catalog::ListModels;
use multi_cursor::cursor::catalog::fetch_catalog;
use multi_cursor::cursor::catalog::parse_list_models;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/list-models")
        .join(name)
}

/// Writes an executable shell script; every script is written before any is run, so no
/// concurrently forked child holds a script open for writing (ETXTBSY).
fn script(dir: &Path, name: &str, body: &str) -> std::io::Result<PathBuf> {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n"))?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
    Ok(path)
}

#[tokio::test]
async fn fetch_parses_the_agent_output() {
    let dir = tempfile::tempdir().unwrap();
    let args = dir.path().join("args");
    let listing = script(
        dir.path(),
        "agent",
        &format!(
            "echo \"$@\" > '{}'\ncat '{}'",
            args.display(),
            fixture("ansi.txt").display()
        ),
    )
    .unwrap();
    let empty = script(
        dir.path(),
        "agent-empty",
        &format!("cat '{}'", fixture("empty.txt").display()),
    )
    .unwrap();
    let garbage = script(
        dir.path(),
        "agent-garbage",
        "echo 'Something else entirely'",
    )
    .unwrap();

    let catalog = fetch_catalog(&listing).await.unwrap();
    let ListModels::Models(expected) =
        parse_list_models(include_str!("../fixtures/list-models/ansi.txt"))
    else {
        panic!("fixture did not parse");
    };
    assert_eq!(catalog.models(), expected.as_slice());
    assert_eq!(std::fs::read_to_string(&args).unwrap(), "--list-models\n");

    // `No models available for this account.` is an empty catalog, not an error.
    let catalog = fetch_catalog(&empty).await.unwrap();
    assert!(catalog.is_empty());

    let error = fetch_catalog(&garbage).await.unwrap_err();
    assert!(
        matches!(&error, CatalogError::UnrecognisedOutput { excerpt, .. } if excerpt == "Something else entirely"),
        "{error:?}"
    );

    let error = fetch_catalog(&dir.path().join("no-such-agent"))
        .await
        .unwrap_err();
    assert!(
        matches!(error, CatalogError::AgentMissing { .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains("MULTI_CURSOR_AGENT"));
}
