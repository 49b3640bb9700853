//! Integration tests of one area, the doors into Claude Code: the launcher (`launch_*`), the plugin
//! (`plugin_*`), `multi-cursor doctor` (`doctor_*`) and the skills links.
//!
//! One module per behaviour, sharing `multi-cursor-test-support` (tests/support). Run one
//! module with `cargo test --test launcher <module>::`.

// Helpers outside `#[test]` functions unwrap and expect too (clippy's allow-unwrap-in-tests covers only
// `#[test]` functions); a panic is the failure report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod claude_descriptor_limit;
// The real Claude Code (installed for Linux only) and the state folder's mode bits.
#[cfg(unix)]
mod doctor_all_pass;
mod doctor_claude_config;
mod doctor_editors;
mod doctor_live;
mod doctor_logged_out;
mod doctor_mcp;
mod doctor_no_agent;
// The agent found on PATH is a symlink (file symlinks need Developer Mode on Windows).
#[cfg(unix)]
mod doctor_agent_probe;
mod doctor_not_cursor_agent;
mod doctor_old_claude;
// The real Claude Code installs the plugin (Linux only here).
#[cfg(unix)]
mod doctor_plugin_fetched;
mod doctor_session_lock;
// Mode bits (0755 vs 0700): Windows files keep their folder's ACL.
mod dialogs_print;
#[cfg(unix)]
mod doctor_state_folder;
// The real Claude Code's TUI under tmux.
#[cfg(unix)]
mod dialogs_tui;
// The real Claude Code's TUI under tmux.
#[cfg(unix)]
mod first_contact_tui;
mod interrupt_hook;
mod launch_agent_probe_refresh;
mod launch_agents_clash;
mod launch_auto_only_plan;
mod launch_claude_env;
mod launch_cursor_answer;
mod launch_exit_code;
mod launch_extra_models_refused;
mod launch_hooks_not_in_force;
mod launch_manual_read_only;
mod launch_no_login_claude;
mod launch_no_login_contract;
mod launch_other_gateway;
mod launch_passthrough_upstream;
mod launch_picker_all;
mod launch_picker_effort;
mod launch_plugin_dir;
mod launch_settings_file;
// SIGTERM and SIGINT to the launcher (Windows: console control events, not tested).
#[cfg(unix)]
mod launch_sigterm;
mod launch_temp_cleanup;
mod launch_user_agents_merge;
mod launch_user_picker_rows;
mod launch_user_settings_merge;
mod launch_version_cache;
mod launch_version_refused;
mod launch_worker_default;
mod launch_worker_model_line;
// The npm launcher in front of a `#!/bin/sh` fake binary and its death by signal.
#[cfg(unix)]
mod npm_launcher;
// Ends the background `agent login` with a signal to its process group.
#[cfg(unix)]
mod plugin_command_login;
mod plugin_command_models;
mod plugin_command_no_cursor_run;
mod plugin_command_rules;
mod plugin_command_status;
mod plugin_manifest_version;
// The real Claude Code (installed for Linux only) and the scripts' execute bits.
#[cfg(unix)]
mod picker_profile_not_retired;
mod plugin_offline_install;
mod plugin_saved_cursor_model;
mod plugin_session_start_message;
// The shim found through symlinks and a `#!/bin/sh` stand-in (scripts/test-windows-plugin
// checks the shim on Windows).
#[cfg(unix)]
mod plugin_shim;
mod plugin_validate_strict;
// SIGKILL to the launcher and wrapper, in the real Claude Code's TUI under tmux.
#[cfg(unix)]
mod sigkill_leaves_nothing;
// Relative directory symlinks (Windows needs Developer Mode or an administrator).
#[cfg(unix)]
mod skills_links;
// The real Claude Code's TUI under tmux.
#[cfg(unix)]
mod saved_model_tui;
mod statusline_budget;
mod statusline_command;
mod statusline_settings;
mod statusline_tui;
mod wrap_agent_sdk;
// SIGTERM to the wrapper and Linux's parent-death signal.
#[cfg(unix)]
mod wrap_lifecycle;
mod wrap_panel_wording;
mod wrap_sdk_stream;
