//! A state folder that turns read-only while Cursor works: once the chat id is recorded, the
//! sessions folder is covered by a read-only bind mount of itself in the gateway's own mount
//! namespace (a read-only remount of the whole file system is refused while the gateway holds
//! its lock file open for writing; new files are what a commit needs). Cursor's answer cannot be
//! recorded (EROFS), so the user gets a failure naming it instead of a success, the record still
//! reads back, a re-send does not run Cursor again, and once the folder is writable again the
//! next message continues the chat with the interruption notice.

use multi_cursor_test_support::commit_fault;
use multi_cursor_test_support::gateway;

use std::ffi::OsStr;

use commit_fault::Fault;
use gateway::GatewayOptions;

#[test]
fn a_read_only_state_folder_while_committing_is_a_failure() {
    commit_fault::a_commit_fault_is_a_failure(
        GatewayOptions {
            state_tmpfs: Some("4m".into()),
            ..GatewayOptions::default()
        },
        Fault {
            inject: Box::new(|gw| {
                let sessions = gw.state_dir.join("sessions");
                let sessions = sessions.as_os_str();
                gw.run_in_namespace(&["mount".as_ref(), "--bind".as_ref(), sessions, sessions]);
                let options: &OsStr = "remount,bind,ro".as_ref();
                gw.run_in_namespace(&["mount".as_ref(), "-o".as_ref(), options, sessions]);
            }),
            undo: Box::new(|gw| {
                let sessions = gw.state_dir.join("sessions");
                gw.run_in_namespace(&["umount".as_ref(), sessions.as_os_str()]);
            }),
            cause: "Read-only file system",
        },
    );
}
