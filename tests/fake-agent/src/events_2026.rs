//! Events of the 2026.09–2026.10 builds the default stream can add before its reply, in the
//! shapes of the captures in `tests/fixtures/cursor-stream-2026/`:
//!
//! - `FAKE_AGENT_RECONNECTS=N`: N rounds of `connection/reconnecting` (with `attempt` and
//!   `endpoint_url`), `retry/starting` (`attempt`, `is_resume:false`), `connection/reconnected`
//!   (`dsh1001-server-reject-retry-no-result.ndjson`), after which the turn goes on.
//! - `FAKE_AGENT_WEB_FETCH=<url>`: a web fetch, ordered as the CLI orders it: `started`, the
//!   `interaction_query` request, its response (`approved` with `--force`/`--yolo`, else
//!   `rejected` "User Rejected": print mode cannot ask anyone), `completed` (the page, or a
//!   rejection without `args`) (`hcn0915-webfetch-denied.ndjson`,
//!   `hcn0910-force-webfetch-approved.ndjson`).

use serde_json::Value;

use crate::emit::Emitter;
use crate::error::Error;
use crate::ids;
use crate::subst::Context;

/// The endpoint the 2026.10.01 capture reconnected to.
const ENDPOINT: &str = "https://agentn.global.api5.cursor.sh";

/// A JSON string literal.
fn quoted(text: &str) -> String {
    Value::String(text.to_owned()).to_string()
}

fn line(out: &mut Emitter, text: &str) -> Result<(), Error> {
    out.emit(format!("{text}\n").as_bytes())
}

/// `rounds` reconnect rounds, attempts counted from 1.
pub(crate) fn reconnects(out: &mut Emitter, context: &Context, rounds: u64) -> Result<(), Error> {
    let session = quoted(&context.chat_id);
    for attempt in 1..=rounds {
        let now = ids::now_ms();
        line(
            out,
            &format!(
                r#"{{"type":"connection","subtype":"reconnecting","session_id":{session},"timestamp_ms":{now},"attempt":{attempt},"endpoint_url":"{ENDPOINT}"}}"#
            ),
        )?;
        line(
            out,
            &format!(
                r#"{{"type":"retry","subtype":"starting","session_id":{session},"timestamp_ms":{now},"attempt":{attempt},"is_resume":false}}"#
            ),
        )?;
        line(
            out,
            &format!(
                r#"{{"type":"connection","subtype":"reconnected","session_id":{session},"timestamp_ms":{now}}}"#
            ),
        )?;
    }
    Ok(())
}

/// One web fetch of `url`, approved or not.
pub(crate) fn web_fetch(
    out: &mut Emitter,
    context: &Context,
    url: &str,
    approved: bool,
) -> Result<(), Error> {
    let session = quoted(&context.chat_id);
    let call = quoted(&format!("tool_{}", ids::uuid()));
    let url = quoted(url);
    let now = ids::now_ms();
    let args = format!(r#"{{"url":{url},"toolCallId":{call}}}"#);
    line(
        out,
        &format!(
            r#"{{"type":"tool_call","subtype":"started","call_id":{call},"tool_call":{{"webFetchToolCall":{{"args":{args}}},"hookAdditionalContexts":[],"toolCallId":{call},"startedAtMs":"{now}"}},"session_id":{session},"timestamp_ms":{now}}}"#
        ),
    )?;
    line(
        out,
        &format!(
            r#"{{"type":"interaction_query","subtype":"request","query_type":"webFetchRequestQuery","query":{{"id":0,"webFetchRequestQuery":{{"args":{args},"skipApproval":false}}}},"session_id":{session},"timestamp_ms":{now}}}"#
        ),
    )?;
    let answer = if approved {
        r#"{"approved":{}}"#
    } else {
        r#"{"rejected":{"reason":"User Rejected"}}"#
    };
    line(
        out,
        &format!(
            r#"{{"type":"interaction_query","subtype":"response","query_type":"webFetchRequestQuery","response":{{"id":0,"webFetchRequestResponse":{answer}}},"session_id":{session},"timestamp_ms":{now}}}"#
        ),
    )?;
    let inner = if approved {
        format!(
            r##"{{"args":{args},"result":{{"success":{{"url":{url},"markdown":"# Example Domain"}}}}}}"##
        )
    } else {
        String::from(r#"{"result":{"rejected":{"reason":"User Rejected"}}}"#)
    };
    line(
        out,
        &format!(
            r#"{{"type":"tool_call","subtype":"completed","call_id":{call},"tool_call":{{"webFetchToolCall":{inner},"hookAdditionalContexts":[],"toolCallId":{call},"startedAtMs":"{now}","completedAtMs":"{now}"}},"session_id":{session},"timestamp_ms":{now}}}"#
        ),
    )
}
