//! Prompt assembly: what goes in front of the conversation Cursor is given. The rulebook's
//! preamble carries what this chat has not been given yet (a fresh chat, tried when Cursor will
//! not resume the recorded one, gets its own); after a turn that did not finish, the
//! interruption notice goes first so Cursor reports where it stopped instead of repeating
//! completed actions.

use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;

use crate::rules::ChatRules;
use crate::rules::Rulebook;
use crate::rules::TurnRules;
use crate::session::conversation::Prompt;
use crate::session::store::INTERRUPTED_NOTICE;
use crate::turn::StreamRules;

/// Loads the workspace's rulebook and links its skills (unless the CLI reads `.claude/skills`
/// itself: `reads_claude_skills`) (blocking file I/O, off the runtime's
/// threads). A skills change is announced in `notices`; a skills failure is logged, not fatal.
/// `Err` carries why the loading task failed.
pub(super) async fn load_rulebook(
    workspace: &Path,
    home: Option<&Path>,
    reads_claude_skills: bool,
    notices: &mut Vec<String>,
) -> Result<Arc<Rulebook>, String> {
    let home: Option<PathBuf> = home.map(Path::to_path_buf);
    let workspace = workspace.to_path_buf();
    let (book, skills) = tokio::task::spawn_blocking(move || {
        let skills = crate::skills::sync_for(&workspace, reads_claude_skills);
        (Rulebook::load(&workspace, home.as_deref()), skills)
    })
    .await
    .map_err(|e| e.to_string())?;
    match skills {
        Ok(sync) => notices.extend(sync.row()),
        Err(error) => tracing::warn!(%error, "could not link the project's skills for Cursor"),
    }
    Ok(Arc::new(book))
}

/// A turn's prompts with the rules in front, and the rule state they leave.
pub(super) struct Assembled {
    /// The prompt for the chat the turn runs in.
    pub prompt: String,
    /// The prompt for a fresh chat, when the recorded one continues.
    pub fresh: Option<String>,
    /// The stream rules watched while Cursor writes.
    pub stream_rules: StreamRules,
    /// What the rulebook delivered, recorded once Cursor has the prompt.
    pub turn_rules: TurnRules,
}

/// What a turn's prompts are made from.
pub(super) struct Parts {
    /// The workspace's rulebook.
    pub book: Arc<Rulebook>,
    /// The chat's rule state before this turn.
    pub chat_before: ChatRules,
    /// The recorded chat the turn resumes (`None`: a chat's first turn).
    pub chat_id: Option<String>,
    /// The prompt for that chat.
    pub prompt: Prompt,
    /// The prompt for a fresh chat, when the recorded one continues.
    pub fresh: Option<Prompt>,
    /// The last turn did not finish.
    pub interrupted: bool,
}

/// The turn's prompts: the rules preamble, then the interruption notice in front.
pub(super) fn assemble(parts: Parts) -> Assembled {
    let Parts {
        book,
        chat_before,
        chat_id,
        prompt,
        fresh,
        interrupted,
    } = parts;
    let mut chat_rules = chat_before.clone();
    let preamble = book.prompt_preamble(&mut chat_rules, chat_id.is_none(), &prompt.request);
    let prompt_text = with_rules(preamble, prompt.text());
    let (fresh_prompt, fresh_rules) = match fresh {
        Some(fresh) => {
            let mut rules = chat_before;
            let preamble = book.prompt_preamble(&mut rules, true, &fresh.request);
            let text = with_rules(preamble, fresh.text());
            (Some(with_interruption(text, interrupted)), Some(rules))
        }
        None => (None, None),
    };
    let stream_rules = StreamRules {
        book: Arc::clone(&book),
        fired: chat_rules.fired_rules.clone(),
    };
    let turn_rules = TurnRules {
        book,
        chat: chat_rules,
        fresh: fresh_rules,
        resumed: chat_id,
    };
    Assembled {
        prompt: with_interruption(prompt_text, interrupted),
        fresh: fresh_prompt,
        stream_rules,
        turn_rules,
    }
}

/// The prompt with the rules preamble in front, when there is one.
fn with_rules(preamble: Option<String>, prompt: String) -> String {
    match preamble {
        Some(rules) => format!("{rules}\n\n{prompt}"),
        None => prompt,
    }
}

/// The prompt with the interruption notice in front, when the last turn did not finish.
fn with_interruption(prompt: String, interrupted: bool) -> String {
    if interrupted {
        format!("{INTERRUPTED_NOTICE}\n\n{prompt}")
    } else {
        prompt
    }
}
