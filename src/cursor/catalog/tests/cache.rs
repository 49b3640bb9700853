//! The catalog cache: private atomic round trip; a corrupted cache is ignored, never fatal.

use std::path::Path;
use std::time::Duration;
use std::time::SystemTime;

use crate::cursor::catalog::Catalog;
use crate::cursor::catalog::cache::cache_path;
use crate::cursor::catalog::load_cached_from;
use crate::cursor::catalog::store_cache_in;
use crate::cursor::catalog::tests::catalog;

#[test]
fn round_trip_keeps_models_agent_and_time() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let agent = Path::new("/opt/cursor/bin/agent");
    let catalog = catalog();

    store_cache_in(&state, &catalog, agent).unwrap();

    crate::platform::testing::assert_mode(&cache_path(&state), 0o600);
    let cached = load_cached_from(&state).unwrap();
    assert_eq!(cached.catalog, catalog);
    assert_eq!(cached.agent, agent);
    assert!(SystemTime::now().duration_since(cached.fetched_at).unwrap() < Duration::from_secs(60));
    assert_ne!(cached.agent, Path::new("/usr/bin/agent"));
}

#[test]
fn empty_catalog_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    store_cache_in(dir.path(), &Catalog::default(), Path::new("agent")).unwrap();
    assert!(load_cached_from(dir.path()).unwrap().catalog.is_empty());
}

#[test]
fn missing_cache_is_none() {
    let dir = tempfile::tempdir().unwrap();
    assert!(load_cached_from(dir.path()).is_none());
}

#[test]
fn corrupted_or_foreign_cache_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let path = cache_path(dir.path());
    for bytes in [
        &b"{\"version\":1,\"fetchedAtMs\":1,\"agent\":\"a\",\"models\":[{\"id\":"[..],
        b"\xff\xfe not json",
        b"[]",
        b"{\"version\":99,\"fetchedAtMs\":1,\"agent\":\"a\",\"models\":[]}",
    ] {
        std::fs::write(&path, bytes).unwrap();
        assert!(load_cached_from(dir.path()).is_none(), "{bytes:?}");
    }
    // A good store replaces the bad file.
    store_cache_in(dir.path(), &catalog(), Path::new("agent")).unwrap();
    assert!(load_cached_from(dir.path()).is_some());
}
