//! Starting a turn: the request's session is opened under its lock, a run a stopped gateway
//! left behind is ended, and the request is admitted against the session's exchanges — joined
//! to an identical one (running, completed and replayed, or failed after Cursor may have
//! acted), refused while a different one runs, or started. A started turn is handed to its
//! keeper (`keeper.rs`).

use std::sync::Arc;

use super::Refusal;
use super::Reply;
use super::admission::Cleared;
use super::dialog;
use super::keeper::Keeper;
use super::prompt;
use super::prompt::Assembled;
use super::prompt::Parts;
use super::routing;
use super::routing::ModelChoice;
use super::services::TurnServices;
use crate::cursor::catalog::Catalog;
use crate::cursor::catalog::Resolved;
use crate::cursor::command::TurnSpec;
use crate::cursor::process::end_stray_run;
use crate::rules::TurnRules;
use crate::session::conversation;
use crate::session::cursor_request::CursorRequest;
use crate::session::cursor_request::TurnPrompts;
use crate::session::exchange::Ending;
use crate::session::exchange::Exchange;
use crate::session::exchange::exchange_key;
use crate::session::identity::Identity;
use crate::session::store::Claim;
use crate::session::store::INTERRUPTED_NOTICE;

/// The first answer of a launched session none of whose hooks reached the gateway: Cursor
/// cannot follow the session's mode or folder. The cause measured on 2.1.328 and 2.1.337:
/// `"disableAllHooks": true` in a settings file turns off the launcher's `--settings` hooks
/// too (organisations can push settings from Anthropic's admin console since 2.1.336).
pub const HOOKS_MISSING_NOTICE: &str = "[Cursor] Claude Code's hooks have not reached multi-cursor in this session, so it cannot see the permission mode you pick: Cursor answers read-only, in the folder multi-cursor was started in. \"disableAllHooks\": true in your Claude settings or your organisation's managed settings turns them off; `multi-cursor doctor` names the file. Remove it there (or ask whoever manages it), then start a new session.";
use crate::session::store::Session;
use crate::turn;
use crate::turn::ChatHolder;
use crate::turn::TurnInput;

/// Opens the request's session and joins, refuses or starts its turn. `main_route` is the main
/// session's model, resolved before the session was opened (`None` for a worker). The steps:
/// open the session (ending a run a stopped gateway left), claim the exchange (join, busy or
/// start), gather the notices and prompts, choose the model, put the rulebook in front, check
/// the budgets, then start the turn and its keeper.
pub(super) async fn start(
    services: &Arc<TurnServices>,
    parsed: &CursorRequest,
    cleared: Cleared,
    mut catalog: Catalog,
    main_route: Option<Resolved>,
) -> Result<Reply, Refusal> {
    let settings = services.settings();
    let identity = parsed.identity(cleared.workspace.clone());
    let policy_text = cleared.policy_text(settings.approve_mcps);
    let key = exchange_key(&identity.key(), &parsed.digest, &policy_text);
    let open = services
        .store()
        .open(&identity)
        .await
        .map_err(Refusal::Store)?;
    let mut session = open.lock().await;
    let holder = end_inherited_run(services, &mut session, &identity, parsed, &cleared).await;
    if let Some(reply) = claim(
        services,
        &mut session,
        &key,
        parsed,
        &cleared,
        &identity,
        main_route.as_ref(),
    )? {
        return Ok(reply);
    }

    // The user's answer to the dialog the session waits on: answered here, or the words the
    // chat resumes with.
    let (resume_with, allowed_notice, allowed_once) =
        match dialog::step(&mut session, parsed, &cleared).await? {
            dialog::Step::Answered(reply) => return Ok(reply),
            dialog::Step::Resume(words) => (Some(words), None, None),
            dialog::Step::ResumeAllowed {
                words,
                notice,
                once,
            } => (Some(words), Some(notice), once),
            dialog::Step::Continue => (None, None, None),
        };
    let interrupted_before = session.record.interrupted;
    let (mut notices, session_note) = notices(services, &cleared, &identity, interrupted_before);
    notices.extend(allowed_notice);
    let chat_id = session.record.chat_id.clone();
    let recorded_answer = session.record.answer_text();
    let TurnPrompts {
        mut prompt,
        fresh,
        history_changed,
    } = parsed.prompts(
        chat_id.as_deref(),
        recorded_answer.as_deref(),
        &settings.state_dir.join("images"),
    )?;
    if history_changed {
        notices.push(conversation::OUTER_HISTORY_NOTICE.to_string());
    }
    if let Some(words) = resume_with {
        prompt.context = None;
        prompt.request = words;
        prompt.images.clear();
    }
    let worker_model = session.record.worker_model.clone();
    let resolved = match routing::turn_route(
        services,
        parsed,
        &cleared,
        &mut catalog,
        main_route,
        &mut prompt,
        worker_model.as_deref(),
    )
    .await?
    {
        ModelChoice::Run(resolved, chosen) => {
            if chosen.is_some() {
                session.record.worker_model = chosen;
            }
            resolved
        }
        ModelChoice::UnknownWorkerModel(text) => return Ok(Reply::Local(text)),
    };
    // The rulebook: what this chat has not been given yet goes in front of the conversation.
    let book = prompt::load_rulebook(
        &cleared.workspace,
        settings.home.as_deref(),
        cleared.agent.reads_claude_skills(),
        &mut notices,
    )
    .await
    .map_err(Refusal::Rulebook)?;
    let assembled = prompt::assemble(Parts {
        book,
        chat_before: session.record.chat_rules(),
        chat_id: chat_id.clone(),
        prompt,
        fresh,
        interrupted: interrupted_before,
    });
    check_budgets(services, parsed, &identity, chat_id.is_none())?;

    let place = identity.run_place(
        &parsed.request.model,
        &resolved.cursor_model,
        cleared.cursor_mode,
    );
    let (input, turn_rules) = turn_input(
        services, parsed, cleared, &resolved, chat_id, assembled, notices,
    );
    session.record.policy = Some(policy_text);
    let (items, cancel) = turn::start_reclaiming(input, holder);
    let spend = services.spend().tap(place);
    let exchange = Exchange::running(key.clone(), cancel);
    session.remember(Arc::clone(&exchange));
    let observer = exchange.observe();
    drop(session);

    let keeper = Keeper {
        services: Arc::clone(services),
        session: open,
        exchange,
        identity,
        key,
        model: resolved.cursor_model,
        interrupted_before,
        rules: turn_rules,
        session_note,
        allowed_once,
    };
    keeper.spawn(items, spend);
    Ok(Reply::Exchange(observer))
}

/// Claims the request's exchange in its open session: an identical request running or answered
/// is joined (a replayed answer is counted, costing nothing), a different one running refuses
/// this one, else `None`: start the turn.
fn claim(
    services: &Arc<TurnServices>,
    session: &mut Session,
    key: &str,
    parsed: &CursorRequest,
    cleared: &Cleared,
    identity: &Identity,
    main_route: Option<&Resolved>,
) -> Result<Option<Reply>, Refusal> {
    match session.claim(key) {
        Claim::Join(exchange) => {
            // An answer served again costs nothing but is counted (a failure repeated is not
            // an answer, and costs nothing either).
            if matches!(exchange.ending(), Some(Ending::Completed)) {
                let model = main_route.map_or("", |r| r.cursor_model.as_str());
                let place = identity.run_place(&parsed.request.model, model, cleared.cursor_mode);
                services.spend().note_replay(&place);
            }
            Ok(Some(Reply::Exchange(exchange.observe())))
        }
        Claim::Busy => Err(Refusal::Busy),
        Claim::Start => Ok(None),
    }
}

/// The `[Cursor]` lines in front of the turn's answer: what the mode lets Cursor do when that
/// is less than its name suggests (manual mode's read-only answer; in a launched session no
/// hook of which reached the gateway, [`HOOKS_MISSING_NOTICE`] in its place until an answer
/// carrying it completes), a widening warning, the hooks/MCP note until an answer carrying it
/// completes once in this Claude session (returned apart, to be remembered then), and the
/// interruption notice.
fn notices(
    services: &TurnServices,
    cleared: &Cleared,
    identity: &Identity,
    interrupted_before: bool,
) -> (Vec<String>, Option<String>) {
    let hooks_note = cleared
        .hooks_missing
        .then_some(HOOKS_MISSING_NOTICE)
        .filter(|note| !services.notice_was_shown(&identity.session, note));
    let session_note = cleared
        .admitted
        .session_notice()
        .filter(|note| !services.notice_was_shown(&identity.session, note));
    let mut notices = Vec::new();
    if let Some(note) = hooks_note {
        // It says why Cursor answers read-only, in place of the mode's own note.
        notices.push(note.to_string());
    } else {
        notices.extend(cleared.mode_note.clone());
    }
    notices.extend(cleared.admitted.widening_notice(cleared.cursor_mode));
    notices.extend(session_note.clone());
    if interrupted_before {
        notices.push(INTERRUPTED_NOTICE.to_string());
    }
    // One note is remembered per answer; the other shows again until it is.
    let remembered = session_note.or_else(|| hooks_note.map(str::to_string));
    (notices, remembered)
}

/// Budgets and runaway guards, per turn and before anything is spawned (the runs inside an
/// admitted turn, a fresh-chat fallback or a rule resume, are never refused). A worker's first
/// turn is a new task for the loop guard.
fn check_budgets(
    services: &TurnServices,
    parsed: &CursorRequest,
    identity: &Identity,
    new_chat: bool,
) -> Result<(), Refusal> {
    let new_worker_task = (parsed.worker.is_some() && new_chat)
        .then(|| crate::spend::book::task_digest(&parsed.request));
    services
        .spend()
        .check_turn(&identity.session, new_worker_task)
        .map_err(Refusal::Spend)
}

/// What the turn runs (the agent, its command line and prompts, the notices, the limits), and
/// the rules its prompt delivers, to be recorded once Cursor has it.
fn turn_input(
    services: &TurnServices,
    parsed: &CursorRequest,
    cleared: Cleared,
    resolved: &Resolved,
    chat_id: Option<String>,
    assembled: Assembled,
    notices: Vec<String>,
) -> (TurnInput, TurnRules) {
    let settings = services.settings();
    let dialogs = dialog::surface(parsed, &cleared);
    let input = TurnInput {
        agent: cleared.agent.path,
        spec: TurnSpec {
            workspace: cleared.workspace,
            model: resolved.cursor_model.clone(),
            chat_id,
            mode: cleared.cursor_mode,
            approve_mcps: settings.approve_mcps,
            prompt: assembled.prompt,
        },
        fresh_prompt: assembled.fresh,
        requested_model: parsed.request.model.clone(),
        notices,
        limits: settings.limits,
        stream_rules: Some(assembled.stream_rules),
        cursor_config: crate::policy::cursor_config::default_model_file(&settings.policy),
        dialogs,
    };
    (input, assembled.turn_rules)
}

/// Ends a turn a stopped gateway left running, whatever this request is, and notes it in the
/// ledger as interrupted (its tokens unknown). Only a group whose leader has the recorded start
/// time and carries the recorded marker is signalled; a record without a marker (written by
/// the previous release) never is. Returns that group as the chat's possible holder, for a
/// turn Cursor answers with `… is already in use.`
async fn end_inherited_run(
    services: &Arc<TurnServices>,
    session: &mut Session,
    identity: &Identity,
    parsed: &CursorRequest,
    cleared: &Cleared,
) -> Option<ChatHolder> {
    let left = session.take_inherited_run()?;
    let lost = identity.run_place(&parsed.request.model, &left.model, cleared.cursor_mode);
    services.spend().note_interrupted(&lost, &left.started_at);
    let (Some(process_start), Some(marker)) = (left.process_start, left.marker) else {
        return None;
    };
    let ended = end_stray_run(left.pgid, process_start, Some(&marker)).await;
    if ended {
        tracing::warn!(
            pgid = left.pgid,
            "ended a Cursor run left by an earlier gateway"
        );
    }
    Some(ChatHolder {
        pgid: left.pgid,
        process_start,
        marker,
        ended,
    })
}
