//! What Cursor cannot honour, refused before anything runs.

use super::RequestError;
use super::clean::Piece;
use super::clean::conversation;
use super::clean::pieces;
use super::clean::split_newest;
use crate::anthropic::request::Message;
use crate::anthropic::request::MessagesRequest;
use crate::anthropic::request::Role;
use crate::anthropic::request::ToolChoice;

/// Refuses what Cursor cannot honour, before anything runs: a forced or `none` `tool_choice`,
/// stop sequences, a strict output schema, a PDF/document in the newest user turn, and a
/// request without any user message. Used by the gateway on every Cursor request.
pub fn validate_for_cursor(req: &MessagesRequest) -> Result<(), RequestError> {
    check_tool_choice(req.tool_choice.as_ref())?;
    if !req.stop_sequences.is_empty() {
        return Err(RequestError::StopSequences);
    }
    let format = req.output_config.as_ref().and_then(|c| c.format.as_ref());
    if format.is_some() || req.output_format.is_some() {
        return Err(RequestError::OutputFormat);
    }
    let messages = conversation(req);
    require_user_message(&messages)?;
    let (_, newest) = split_newest(&messages);
    if newest
        .iter()
        .flat_map(|m| pieces(&m.content))
        .any(|p| matches!(p, Piece::Document { .. }))
    {
        return Err(RequestError::Document);
    }
    Ok(())
}

fn check_tool_choice(choice: Option<&ToolChoice>) -> Result<(), RequestError> {
    let Some(choice) = choice else {
        return Ok(());
    };
    match choice.kind.as_str() {
        "auto" | "" => Ok(()),
        "none" => Err(RequestError::ToolChoiceNone),
        "tool" | "any" => Err(RequestError::ForcedToolChoice(choice.kind.clone())),
        other => Err(RequestError::UnknownToolChoice(other.to_string())),
    }
}

pub(super) fn require_user_message(messages: &[&Message]) -> Result<(), RequestError> {
    if messages.iter().any(|m| m.role == Role::User) {
        Ok(())
    } else {
        Err(RequestError::NoUserMessage)
    }
}
