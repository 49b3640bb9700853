//! Under the real Claude Code: when the streamed answer breaks inside its text block, Claude
//! Code tries streaming again and then re-sends the same body with `stream:false`. Each
//! re-send is the same exchange, answered from the recorded turn: Cursor ran once, and Claude
//! prints the whole answer.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::cut_proxy;
use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;

use claude::ClaudeRun;
use cut_proxy::CutProxy;
use gateway::GatewayOptions;
use gateway::TestGateway;

#[test]
fn a_broken_stream_is_replayed_not_rerun() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![(
            "FAKE_AGENT_REPLY".into(),
            "the answer survives a cut".into(),
        )],
        ..GatewayOptions::default()
    });
    let proxy = CutProxy::start(&gw.url);
    let home = gw.dir.path().join("claude-home");
    let output = ClaudeRun::new(&home, &gw.workspace())
        .gateway(&proxy.url, &gw.token)
        .args(["-p", "tell me", "--model", "multi/cursor/composer-2.5"])
        .timeout(std::time::Duration::from_secs(60))
        .run();
    let seen: Vec<String> = proxy
        .requests()
        .iter()
        .map(|r| {
            r.lines().next().unwrap_or("").to_string()
                + if r.contains("\"stream\":true") {
                    " stream"
                } else {
                    ""
                }
        })
        .collect();
    assert_eq!(output.status, Some(0), "{output:?} {seen:?}");
    assert_eq!(
        without_tokens(output.stdout.trim()),
        "the answer survives a cut",
        "{output:?}"
    );
    assert_eq!(gw.turns().len(), 1, "Cursor ran once");
    let posts: Vec<String> = proxy
        .requests()
        .into_iter()
        .filter(|r| r.starts_with("POST /v1/messages"))
        .collect();
    assert!(
        posts.iter().any(|r| r.contains("\"stream\":true")),
        "a streamed attempt"
    );
    assert!(
        posts.iter().any(|r| !r.contains("\"stream\":true")),
        "Claude Code fell back to a non-streamed re-send: {} requests",
        posts.len()
    );
}
