//! A full disk while Cursor works: the state folder is a small tmpfs in the gateway's own mount
//! namespace, filled to the last byte once the chat id is recorded. Cursor's answer cannot be
//! recorded (ENOSPC), so the user gets a failure naming it instead of a success, the record
//! still reads back, a re-send does not run Cursor again, and once space is freed the next
//! message continues the chat with the interruption notice.

use multi_cursor_test_support::commit_fault;
use multi_cursor_test_support::gateway;

use std::io::Write;

use commit_fault::Fault;
use gateway::GatewayOptions;

#[test]
fn a_full_disk_while_committing_is_a_failure() {
    commit_fault::a_commit_fault_is_a_failure(
        GatewayOptions {
            state_tmpfs: Some("4m".into()),
            ..GatewayOptions::default()
        },
        Fault {
            inject: Box::new(|gw| {
                let mut filler = std::fs::File::create(gw.state_view.join("filler")).unwrap();
                let block = vec![0u8; 64 * 1024];
                let full = loop {
                    if let Err(error) = filler.write_all(&block) {
                        break error;
                    }
                };
                assert_eq!(full.kind(), std::io::ErrorKind::StorageFull, "{full}");
            }),
            undo: Box::new(|gw| std::fs::remove_file(gw.state_view.join("filler")).unwrap()),
            cause: "No space left on device",
        },
    );
}
