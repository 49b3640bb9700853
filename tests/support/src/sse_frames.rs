//! The SSE frame conformance check: what Claude Code (2.1.337) reads as a damaged stream, and
//! more. Once a message has started, Claude Code fails the stream ("Reply damaged in transit")
//! on a frame whose `data.type` is a stream event but which has no `event:` line, whose event
//! name is one letter off or holds a `"`, or whose `event:` line (or any field name but `data`)
//! holds NUL or U+FFFD; it then sends the turn again with `stream: false`. Every frame the
//! gateway writes must be far from that: exactly one `event:` line naming a known event, then
//! exactly one `data:` line whose JSON object's `type` is that name, and a `ping` carries
//! nothing but `{"type":"ping"}`.

/// Events an Anthropic stream may name.
pub const EVENT_NAMES: [&str; 8] = [
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "ping",
    "error",
];

/// Every way the frames of `body` (an SSE body) fall short, one line each naming the frame;
/// empty when every frame conforms.
pub fn frame_faults(body: &str) -> Vec<String> {
    let mut faults = Vec::new();
    if body.is_empty() {
        faults.push("no frame at all".to_string());
        return faults;
    }
    if !body.ends_with("\n\n") {
        faults.push("the body does not end with a blank line".to_string());
    }
    for (index, frame) in body.split("\n\n").filter(|f| !f.is_empty()).enumerate() {
        for fault in frame_fault(frame) {
            faults.push(format!("frame {index} ({frame:?}): {fault}"));
        }
    }
    faults
}

/// Whether `c` is a character Claude Code reads as damage in a field name or event line.
fn damage(c: char) -> bool {
    c == '\0' || c == '\u{fffd}'
}

fn frame_fault(frame: &str) -> Vec<String> {
    let mut faults = Vec::new();
    let lines: Vec<&str> = frame.split('\n').collect();
    let mut event = None;
    let mut data = None;
    for line in &lines {
        if line.contains('\r') {
            faults.push("a carriage return in a line".to_string());
        }
        match line.split_once(':') {
            Some(("event", rest)) => {
                if line.chars().any(damage) {
                    faults.push("NUL or U+FFFD in the event line".to_string());
                }
                if event.replace(rest).is_some() {
                    faults.push("more than one event line".to_string());
                }
            }
            Some(("data", rest)) => {
                if data.replace(rest).is_some() {
                    faults.push("more than one data line".to_string());
                }
            }
            Some((field, _)) => {
                if field.chars().any(damage) {
                    faults.push("NUL or U+FFFD in a field name".to_string());
                }
                faults.push(format!("a line that is neither event nor data: {line:?}"));
            }
            None => faults.push(format!("a line without a field: {line:?}")),
        }
    }
    if !lines.first().is_some_and(|l| l.starts_with("event: ")) {
        faults.push("the frame does not start with its event line".to_string());
    }
    let Some(event) = event else {
        faults.push("no event line".to_string());
        return faults;
    };
    let Some(name) = event.strip_prefix(' ') else {
        faults.push("no space after `event:`".to_string());
        return faults;
    };
    if name.contains('"') {
        faults.push(format!("a quoted event name {name:?}"));
    }
    if !EVENT_NAMES.contains(&name) {
        faults.push(format!("an unknown event name {name:?}"));
    }
    let Some(data) = data else {
        faults.push("no data line".to_string());
        return faults;
    };
    let value: serde_json::Value = match serde_json::from_str(data.trim_start()) {
        Ok(value) => value,
        Err(error) => {
            faults.push(format!("data is not JSON ({error})"));
            return faults;
        }
    };
    match value.get("type").and_then(serde_json::Value::as_str) {
        Some(kind) if kind == name => {}
        Some(kind) => faults.push(format!("event {name:?} carries data of type {kind:?}")),
        None => faults.push("data has no string type".to_string()),
    }
    if name == "ping" && value != serde_json::json!({"type": "ping"}) {
        faults.push(format!("a ping carrying more than a ping: {value}"));
    }
    faults
}
