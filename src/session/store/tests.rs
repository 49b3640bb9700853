//! Opening an identity's session: the record is loaded once, off the runtime's threads, however
//! many requests for a new identity arrive together (none of them fails on the record's file
//! lock, which the one load holds); a load that fails (a corrupted record) is not remembered,
//! so the request after the user fixed the file opens it.

use std::sync::Arc;

use crate::session::identity::Identity;
use crate::session::store::SessionStore;
use crate::session::store::StoreError;

fn identity(workspace: &std::path::Path) -> Identity {
    Identity {
        workspace: workspace.to_path_buf(),
        session: "s-open".into(),
        worker: "main".into(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_requests_for_a_new_identity_share_one_load() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SessionStore::new(&dir.path().join("state"), 32));
    let identity = identity(dir.path());
    let opens: Vec<_> = (0..16)
        .map(|_| {
            let (store, identity) = (Arc::clone(&store), identity.clone());
            tokio::spawn(async move { store.open(&identity).await })
        })
        .collect();
    let mut sessions = Vec::new();
    for open in opens {
        sessions.push(open.await.unwrap().unwrap());
    }
    assert!(sessions.iter().all(|s| Arc::ptr_eq(s, &sessions[0])));
    assert_eq!(store.map().by_digest.len(), 1);
}

#[tokio::test]
async fn a_failed_load_is_tried_again() {
    let dir = tempfile::tempdir().unwrap();
    let store = SessionStore::new(&dir.path().join("state"), 32);
    let identity = identity(dir.path());
    let path = store.record_path(&identity);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, b"{ not json").unwrap();
    let error = store.open(&identity).await.unwrap_err();
    assert!(
        matches!(error, StoreError::Record(_)),
        "corrupted record: {error}"
    );
    assert_eq!(
        store.map().by_digest.len(),
        0,
        "nothing kept of the failed load"
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        b"{ not json",
        "never overwritten"
    );

    std::fs::remove_file(&path).unwrap();
    let session = store.open(&identity).await.unwrap();
    assert_eq!(session.lock().await.identity, identity);
}
