//! Integration tests of one area, the doors into Claude Code: the launcher (`launch_*`), the plugin
//! (`plugin_*`), `multi-cursor doctor` (`doctor_*`) and the skills links.
//!
//! One module per behaviour, sharing `multi-cursor-test-support` (tests/support). Run one
//! module with `cargo test --test launcher <module>::`.

// Helpers outside `#[test]` functions unwrap and expect too (clippy's allow-unwrap-in-tests covers only
// `#[test]` functions); a panic is the failure report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod claude_descriptor_limit;
mod doctor_all_pass;
mod doctor_claude_config;
mod doctor_editors;
mod doctor_live;
mod doctor_logged_out;
mod doctor_mcp;
mod doctor_no_agent;
mod doctor_not_cursor_agent;
mod doctor_old_claude;
mod doctor_session_lock;
mod doctor_state_folder;
mod first_contact_tui;
mod launch_agents_clash;
mod launch_auto_only_plan;
mod launch_claude_env;
mod launch_cursor_answer;
mod launch_exit_code;
mod launch_extra_models_refused;
mod launch_manual_read_only;
mod launch_no_login_claude;
mod launch_no_login_contract;
mod launch_other_gateway;
mod launch_passthrough_upstream;
mod launch_picker_effort;
mod launch_plugin_dir;
mod launch_settings_file;
mod launch_sigterm;
mod launch_temp_cleanup;
mod launch_user_agents_merge;
mod launch_user_picker_rows;
mod launch_user_settings_merge;
mod launch_version_cache;
mod launch_version_refused;
mod launch_worker_default;
mod launch_worker_model_line;
mod npm_launcher;
mod plugin_command_login;
mod plugin_command_models;
mod plugin_command_no_cursor_run;
mod plugin_command_rules;
mod plugin_command_status;
mod plugin_manifest_version;
mod plugin_offline_install;
mod plugin_saved_cursor_model;
mod plugin_session_start_message;
mod plugin_shim;
mod plugin_validate_strict;
mod sigkill_leaves_nothing;
mod skills_links;
mod statusline_budget;
mod statusline_command;
mod statusline_settings;
mod statusline_tui;
mod wrap_agent_sdk;
mod wrap_lifecycle;
mod wrap_panel_wording;
mod wrap_sdk_stream;
