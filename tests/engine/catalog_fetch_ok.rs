//! fetch_catalog runs `<agent> --list-models` and parses what it prints.

use std::path::Path;
use std::path::PathBuf;

use multi_cursor::cursor::catalog::CatalogError;
use multi_cursor::cursor::catalog::ListModels;
use multi_cursor::cursor::catalog::fetch_catalog;
use multi_cursor::cursor::catalog::parse_list_models;
use multi_cursor_test_support::write_script;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/list-models")
        .join(name)
}

#[tokio::test]
async fn fetch_parses_the_agent_output() {
    let dir = tempfile::tempdir().unwrap();
    let args = dir.path().join("args");
    let listing = write_script(
        &dir.path().join("agent"),
        &format!(
            "echo \"$@\" > '{}'\ncat '{}'",
            args.display(),
            fixture("ansi.txt").display()
        ),
    );
    let empty = write_script(
        &dir.path().join("agent-empty"),
        &format!("cat '{}'", fixture("empty.txt").display()),
    );
    let garbage = write_script(
        &dir.path().join("agent-garbage"),
        "echo 'Something else entirely'",
    );

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
