//! Who may talk to the gateway: the token in `x-multi-cursor-token` (compared in constant
//! time), no browser `Origin`, and a loopback `Host` (a DNS-rebinding page cannot reach us).
//! `HEAD /api/hello` (Claude Code's preconnect, sent without auth headers) is the only route
//! that needs no token.

use axum::extract::Request;
use axum::extract::State;
use axum::http::Method;
use axum::http::header;
use axum::middleware::Next;
use axum::response::IntoResponse;
use axum::response::Response;

use super::Gateway;
use super::error::ApiError;

/// Header carrying the gateway token (Claude Code sends it through `ANTHROPIC_CUSTOM_HEADERS`).
pub const TOKEN_HEADER: &str = "x-multi-cursor-token";

/// Compares two byte strings in time that depends only on their lengths.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// True when `host` (a Host header value) names a loopback address.
pub fn is_loopback_host(host: &str) -> bool {
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
pub async fn check(State(gateway): State<Gateway>, request: Request, next: Next) -> Response {
    if request.headers().contains_key(header::ORIGIN) {
        return ApiError::forbidden(
            "requests from web pages are refused (an Origin header was present); only Claude Code on this machine may use the gateway",
        )
        .into_response();
    }
    if let Some(host) = request.headers().get(header::HOST)
        && !host.to_str().is_ok_and(is_loopback_host)
    {
        return ApiError::forbidden(
            "the Host header does not name this machine's loopback address; use the URL the launcher gave Claude Code",
        )
        .into_response();
    }
    let preconnect = request.method() == Method::HEAD && request.uri().path() == "/api/hello";
    if !preconnect {
        let presented = request
            .headers()
            .get(TOKEN_HEADER)
            .map(|v| v.as_bytes())
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
            .into_response();
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
}
