//! Nothing listens beyond loopback. The sockets the gateway process listens on — `multi-cursor
//! serve`, and the launcher, which hosts the gateway of a launched session — are read from
//! `/proc/<pid>/fd` and `/proc/<pid>/net/tcp{,6}`: there is exactly one, on 127.0.0.1 at the
//! port of the URL Claude Code is given. `serve --listen` on a wildcard or a routable address
//! is refused before binding.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::security;

use std::process::Command;

use gateway::GatewayOptions;
use gateway::TestGateway;
use security::LiveSession;
use security::listening_sockets;

fn port_of(url: &str) -> u16 {
    security::authority(url)
        .rsplit_once(':')
        .unwrap()
        .1
        .parse()
        .unwrap()
}

fn assert_loopback_only(what: &str, pid: u32, url: &str) {
    let listeners = listening_sockets(pid);
    assert_eq!(
        listeners.len(),
        1,
        "{what} listens on exactly one socket: {listeners:?}"
    );
    for listener in &listeners {
        assert!(
            listener.local.ip().is_loopback(),
            "{what} listens beyond loopback: {listener:?}"
        );
    }
    assert_eq!(
        listeners[0].local.port(),
        port_of(url),
        "{what}: {listeners:?}"
    );
    assert_eq!(listeners[0].local.ip().to_string(), "127.0.0.1", "{what}");
}

#[test]
fn proc_addresses_decode() {
    assert_eq!(
        security::decode_address("0100007F:1F90"),
        "127.0.0.1:8080".parse().unwrap()
    );
    assert_eq!(
        security::decode_address("00000000000000000000000001000000:0050"),
        "[::1]:80".parse().unwrap()
    );
    assert_eq!(
        security::decode_address("00000000:0016"),
        "0.0.0.0:22".parse().unwrap()
    );
}

#[test]
fn serve_listens_on_loopback_only() {
    let gw = TestGateway::start(GatewayOptions::default());
    assert_loopback_only("multi-cursor serve", gw.pid, &gw.url);
}

#[test]
fn the_launched_gateway_listens_on_loopback_only() {
    let session = LiveSession::start(&[]);
    assert_loopback_only("the launcher", session.pid(), &session.url);
    let (_, output) = session.stop();
    assert_eq!(output.status, Some(42), "{output:?}");
}

#[test]
fn serve_refuses_non_loopback_listen_addresses() {
    for listen in ["0.0.0.0:0", "[::]:0", "192.0.2.1:0"] {
        let dir = tempfile::tempdir().unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_multi-cursor"))
            .args(["serve", "--listen", listen, "--ready-file"])
            .arg(dir.path().join("ready.json"))
            .env("MULTI_CURSOR_STATE_DIR", dir.path().join("state"))
            .env("HOME", dir.path())
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{listen}: {stderr}");
        assert!(stderr.contains("loopback"), "{listen}: {stderr}");
        assert!(!dir.path().join("ready.json").exists(), "{listen}");
    }
}
