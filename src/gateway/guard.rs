//! Who may talk to the gateway: the token in `x-multi-cursor-token` (compared in constant
//! time), no browser `Origin`, and a loopback `Host` (a DNS-rebinding page cannot reach us).
//! `HEAD /api/hello` and `GET /api/hello` (Claude Code's preconnect, and `claude doctor`'s
//! connectivity check since 2.1.331, both sent without auth headers) are the only requests that
//! need no token; they answer an empty 200 and reach nothing else. A refusal (401, 403) closes its connection; a request that presents the
//! token marks its connection authenticated (see `server`: it may then stay idle longer and is
//! shed last).

use axum::extract::Request;
use axum::extract::State;
use axum::http::HeaderValue;
use axum::http::Method;
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;

use super::Gateway;
use super::error::ApiError;
use super::server::ConnectionHandle;

/// Header carrying the gateway token (Claude Code sends it through `ANTHROPIC_CUSTOM_HEADERS`).
pub(crate) const TOKEN_HEADER: &str = "x-multi-cursor-token";

/// Compares two byte strings in time that depends only on their lengths: every byte pair is
/// XOR-ed and OR-ed into one accumulator, with no early exit, so where a wrong token first
/// differs cannot be learnt by timing. A length mismatch returns at once; the length is not
/// secret (every token is 64 hex digits). Used by [`check`] for the gateway token.
pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// True when `host` (a Host header value) names a loopback address.
pub(crate) fn is_loopback_host(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        host.rsplit_once(':').map_or(host, |(name, _)| name)
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Middleware applying the checks to every request.
pub(crate) async fn check(
    State(gateway): State<Gateway>,
    request: Request,
    next: Next,
) -> Response {
    if request.headers().contains_key(header::ORIGIN) {
        return ApiError::forbidden(
            "requests from web pages are refused (an Origin header was present); only Claude Code on this machine may use the gateway",
        )
        .into_closing_response();
    }
    if let Some(host) = request.headers().get(header::HOST)
        && !host.to_str().is_ok_and(is_loopback_host)
    {
        return ApiError::forbidden(
            "the Host header does not name this machine's loopback address; use the URL the launcher gave Claude Code",
        )
        .into_closing_response();
    }
    let preconnect = matches!(*request.method(), Method::HEAD | Method::GET)
        && request.uri().path() == "/api/hello";
    if !preconnect {
        let presented = request
            .headers()
            .get(TOKEN_HEADER)
            .map(HeaderValue::as_bytes)
            .unwrap_or_default();
        if !constant_time_eq(presented, gateway.token().as_bytes()) {
            let what = if presented.is_empty() {
                "missing"
            } else {
                "wrong"
            };
            return ApiError::unauthorized(format!(
                "the gateway token is {what}. Start Claude Code with `multi-cursor`, which sets it in ANTHROPIC_CUSTOM_HEADERS, or send {TOKEN_HEADER} from the ready file"
            ))
            .into_closing_response();
        }
        if let Some(connection) = request.extensions().get::<ConnectionHandle>() {
            connection.mark_authenticated();
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts() {
        for ok in [
            "127.0.0.1:8080",
            "localhost:1",
            "[::1]:9",
            "127.0.0.1",
            "LOCALHOST",
        ] {
            assert!(is_loopback_host(ok), "{ok}");
        }
        for bad in [
            "evil.example:80",
            "10.0.0.1:80",
            "[fe80::1]:1",
            "127.0.0.1.evil.com",
        ] {
            assert!(!is_loopback_host(bad), "{bad}");
        }
    }

    #[test]
    fn token_comparison() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }

    /// Equal-length tokens that differ only in their first or only in their last byte are both
    /// refused: the comparison looks at every byte (a prefix check would accept the second, a
    /// short-circuit one would stop at the first). Timing itself is not asserted (see README
    /// "Security"); the absence of an early exit is visible in `constant_time_eq`.
    #[test]
    fn tokens_differing_in_first_or_last_byte_are_refused() {
        let token = new_token_for_test();
        let mut first = token.clone().into_bytes();
        first[0] = if first[0] == b'0' { b'1' } else { b'0' };
        let mut last = token.clone().into_bytes();
        let end = last.len() - 1;
        last[end] = if last[end] == b'0' { b'1' } else { b'0' };
        assert!(constant_time_eq(token.as_bytes(), token.as_bytes()));
        assert!(!constant_time_eq(&first, token.as_bytes()));
        assert!(!constant_time_eq(&last, token.as_bytes()));
        assert!(!constant_time_eq(&[], token.as_bytes()));
        let zeros = vec![0u8; token.len()];
        assert!(!constant_time_eq(&zeros, token.as_bytes()));
    }

    fn new_token_for_test() -> String {
        let token = crate::gateway::new_token();
        assert_eq!(token.len(), 64);
        assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
        token
    }
}
