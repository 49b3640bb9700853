//! What Cursor receives for a request, tested on real Claude Code request bodies
//! (`tests/fixtures/claude`): one module per behaviour.

mod support;

mod after_compaction;
mod compaction;
mod continuation;
mod digest;
mod estimate;
mod history_changed;
mod images;
mod main_request;
mod parse_errors;
mod plugin_command;
mod subagent;
mod task_notification;
mod transcript;
mod transcript_bound;
mod validation;
mod worker_model_line;
