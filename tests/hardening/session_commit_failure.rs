//! A turn whose answer cannot be recorded because the sessions folder was replaced by a file
//! while Cursor worked: the user gets a failure naming it instead of a success (an error event,
//! never `message_stop`), the record still reads back, an identical re-send does not run Cursor
//! again, and once the folder is back the next message continues the chat with the
//! interruption notice.

use multi_cursor_test_support::commit_fault;
use multi_cursor_test_support::gateway;

use commit_fault::Fault;
use gateway::GatewayOptions;

#[test]
fn a_failed_commit_is_a_failure() {
    commit_fault::a_commit_fault_is_a_failure(
        GatewayOptions::default(),
        Fault {
            inject: Box::new(|gw| {
                let sessions = gw.state_view.join("sessions");
                std::fs::rename(&sessions, sessions.with_extension("moved")).unwrap();
                std::fs::write(&sessions, b"not a folder").unwrap();
            }),
            undo: Box::new(|gw| {
                let sessions = gw.state_view.join("sessions");
                std::fs::remove_file(&sessions).unwrap();
                std::fs::rename(sessions.with_extension("moved"), &sessions).unwrap();
            }),
            // Windows: ERROR_PATH_NOT_FOUND, a path through a file.
            cause: if cfg!(windows) {
                "(os error 3)"
            } else {
                "Not a directory"
            },
        },
    );
}
