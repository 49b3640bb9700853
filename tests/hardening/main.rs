//! Integration tests of one area, security (`security_*`: credentials, file modes, loopback,
//! origin, request sizes, tokens) and faults injected into running sessions (`session_*`: crashes,
//! a full disk, a read-only or replaced state folder, a cut stream).
//!
//! One module per behaviour, sharing `multi-cursor-test-support` (tests/support). Run one
//! module with `cargo test --test hardening <module>::`.

// Helpers outside `#[test]` functions unwrap and expect too (clippy's allow-unwrap-in-tests covers only
// `#[test]` functions); a panic is the failure report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod security_agent_environment;
mod security_argv_credentials;
mod security_cli_output;
mod security_control_sequences;
mod security_error_body_credentials;
mod security_file_credentials;
// Permission bits and umask: Windows files keep their folder's ACL (docs/security.md#windows).
#[cfg(unix)]
mod security_file_modes;
mod security_gateway_client;
mod security_http_connections;
mod security_log_credentials;
mod security_loopback_only;
mod security_origin_and_host;
mod security_request_size;
// FIFOs and a link to /dev/zero: Unix files.
#[cfg(unix)]
mod security_settings_links;
// A symlinked state folder (directory symlinks need Developer Mode or an administrator on
// Windows) and one owned by another uid.
#[cfg(unix)]
mod security_state_folder;
mod security_state_links;
mod security_state_tampering;
mod security_status_redaction;
mod security_token_refused;
mod session_claude_stream_cut;
mod session_commit_failure;
// SIGSTOP freezes the gateway while Cursor finishes its turn; Windows has no stop signal (a
// gateway killed mid-turn: session_gateway_crash).
#[cfg(unix)]
mod session_crash_before_commit;
mod session_disk_full;
mod session_gateway_crash;
mod session_read_only_state;
