//! Passthrough to the real Anthropic upstream (`MULTI_CURSOR_UPSTREAM`, else
//! `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com`); an upstream that cannot be reached
//! is answered with 502 "upstream could not be reached", its URL shown without user-info.
//!
//! Every request whose model is not a `multi/cursor/*` route is forwarded here, byte for byte:
//! the method, the path and query string (appended to the upstream base, which may carry a path
//! prefix), the body, and every end-to-end header, so Claude Code's auth (`x-api-key` or
//! `Authorization`), `anthropic-version`, `anthropic-beta`, session and agent ids reach Anthropic
//! unchanged. Only these are dropped on the way up:
//!
//! - our own token header `x-multi-cursor-token` (it authenticates Claude Code to us, not to
//!   Anthropic; dropping it also means a gateway that forwards to itself by mistake answers 401
//!   instead of looping),
//! - `host` and `content-length`, which the HTTP client recomputes for the upstream,
//! - the hop-by-hop headers of RFC 9110 §7.6.1 (`connection`, `keep-alive`, `proxy-connection`,
//!   `proxy-authenticate`, `proxy-authorization`, `te`, `trailer`, `transfer-encoding`,
//!   `upgrade`) and every header the `Connection` header names,
//! - `expect`: the body is already in hand, so there is nothing left to wait for.
//!
//! The HTTP client adds `accept: */*` only when the request carries no `Accept` (Claude Code
//! always sends one). Bodies are never decoded: `accept-encoding` goes up as sent and a
//! compressed answer comes back compressed, with its `content-encoding`.
//!
//! The upstream's status, headers (minus hop-by-hop ones) and body come back the same way. The
//! body is streamed chunk by chunk as it arrives, never buffered, so SSE events reach Claude Code
//! as Anthropic sends them. An upstream error status (429, 529 with `x-should-retry: false`, …) is
//! an ordinary answer and passes through untouched.
//!
//! Failures that are ours to report:
//! - the upstream cannot be reached (refused, DNS, TLS, reset before an answer, connect timeout):
//!   502 with an Anthropic error JSON naming the upstream and `MULTI_CURSOR_UPSTREAM` /
//!   `ANTHROPIC_BASE_URL`. No `x-should-retry: false` is sent: an unreachable upstream is
//!   usually a passing network problem, for which Claude Code's own retries with backoff are
//!   right, and a lasting misconfiguration still shows our message once they run out.
//! - the upstream breaks off mid-body: the body stream ends with an error, so the server aborts
//!   the response (no final chunk) and the client sees a broken stream, never a clean end it
//!   could mistake for a complete answer.
//!
//! - Claude Code has no Anthropic login (launcher only): the launcher gave Claude Code a
//!   placeholder credential that means nothing to Anthropic (`Upstream::refusing_placeholder`).
//!   A request carrying it is answered 403 with `NOT_SIGNED_IN` and `x-should-retry: false`
//!   instead of being forwarded, so the user reads what to do and the placeholder never leaves
//!   the machine.
//!
//! Header values are never logged and never put into error messages (they carry credentials);
//! the upstream URL is shown without any user-info.

use std::time::Duration;

use crate::env::DEFAULT_UPSTREAM;

use axum::body::Body;
use axum::http::HeaderMap;
use axum::http::header;
use axum::http::request::Parts;
use axum::response::IntoResponse;
use axum::response::Response;
use bytes::Bytes;
use futures_util::StreamExt;

use super::error::ApiError;
use thiserror::Error;

/// Our token header; it never leaves the gateway.
const TOKEN_HEADER: &str = "x-multi-cursor-token";

/// What a request for an Anthropic model gets when Claude Code has no Anthropic login.
pub(crate) const NOT_SIGNED_IN: &str =
    "multi-cursor: not signed in to Anthropic: pick a Cursor model in /model, or log in";

/// How long establishing a connection to the upstream may take. There is deliberately no
/// overall request timeout: a long SSE answer may stream for many minutes.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Hop-by-hop headers (RFC 9110 §7.6.1, plus the non-standard `proxy-connection` and
/// `keep-alive`), dropped in both directions.
const HOP_BY_HOP: [&str; 9] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

/// Why an [`Upstream`] could not be built.
#[derive(Debug, Error)]
pub enum PassthroughError {
    /// The base URL is not an absolute `http`/`https` URL without query or fragment.
    #[error(
        "the Anthropic upstream {base:?} is not usable: {reason}. Set MULTI_CURSOR_UPSTREAM (or ANTHROPIC_BASE_URL) to a URL such as https://api.anthropic.com"
    )]
    InvalidBase {
        /// The base as given, with any user-info removed.
        base: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The HTTP client could not be created (for example, TLS initialisation failed).
    #[error("the HTTP client for the Anthropic upstream could not be created: {0}")]
    Client(#[source] reqwest::Error),
}

/// The Anthropic upstream: a base URL and the HTTP client that talks to it.
///
/// Cheap to clone (the client is shared and keeps its connection pool).
#[derive(Clone)]
pub struct Upstream {
    /// The base without a trailing `/`, e.g. `https://api.anthropic.com` or `http://host/prefix`.
    prefix: String,
    /// The base for messages and logs, without user-info.
    shown: String,
    client: reqwest::Client,
    /// The launcher's placeholder credential when Claude Code has no Anthropic login.
    placeholder: Option<String>,
}

impl std::fmt::Debug for Upstream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upstream")
            .field("base", &self.shown)
            .finish_non_exhaustive()
    }
}

impl Upstream {
    /// Builds the upstream for `base` (e.g. `https://api.anthropic.com`, or a URL with a path
    /// prefix such as `http://proxy.internal/anthropic`; a trailing `/` is ignored).
    ///
    /// The client follows no redirects (a 3xx is passed back to Claude Code as it is), decodes
    /// no bodies, has a connect timeout but no overall timeout, and honours the usual
    /// `HTTPS_PROXY` / `NO_PROXY` variables like Claude Code itself.
    pub fn new(base: &str) -> Result<Self, PassthroughError> {
        let trimmed = base.trim();
        let invalid = |reason: String| PassthroughError::InvalidBase {
            base: redact(trimmed),
            reason,
        };
        let url = reqwest::Url::parse(trimmed).map_err(|e| invalid(e.to_string()))?;
        if url.scheme() != "http" && url.scheme() != "https" {
            return Err(invalid(format!(
                "the scheme must be http or https, not {:?}",
                url.scheme()
            )));
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(invalid("it has no host".to_owned()));
        }
        if url.query().is_some() || url.fragment().is_some() {
            return Err(invalid(
                "it must not carry a query string or fragment".to_owned(),
            ));
        }
        // HTTP/1.1, as Claude Code speaks to the API itself and the gateway serves (reqwest's
        // `http2` feature is off; concurrent streams take one pooled connection each).
        let client = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .tcp_nodelay(true)
            .build()
            .map_err(PassthroughError::Client)?;
        let prefix = url.as_str().trim_end_matches('/').to_owned();
        let shown = redact(&prefix);
        Ok(Self {
            prefix,
            shown,
            client,
            placeholder: None,
        })
    }

    /// Refuses instead of forwarding every request that authenticates with `placeholder` (as
    /// `Authorization: Bearer <placeholder>` or `x-api-key: <placeholder>`): 403
    /// [`NOT_SIGNED_IN`]. The launcher passes the credential it gave a Claude Code that has no
    /// Anthropic login; `None` forwards everything.
    pub(crate) fn refusing_placeholder(mut self, placeholder: Option<String>) -> Self {
        self.placeholder = placeholder.filter(|p| !p.is_empty());
        self
    }
}

/// The upstream base to use: `MULTI_CURSOR_UPSTREAM` if set and non-empty, else the user's
/// `ANTHROPIC_BASE_URL` if set and non-empty, else [`DEFAULT_UPSTREAM`].
///
/// Pass the values read from the environment *before* the launcher points `ANTHROPIC_BASE_URL`
/// at the gateway.
pub(crate) fn resolve_base<'a>(
    multi_cursor_upstream: Option<&'a str>,
    anthropic_base_url: Option<&'a str>,
) -> &'a str {
    [multi_cursor_upstream, anthropic_base_url]
        .into_iter()
        .flatten()
        .map(str::trim)
        .find(|s| !s.is_empty())
        .unwrap_or(DEFAULT_UPSTREAM)
}

/// Forwards one request to the upstream and returns its answer as the client's response.
///
/// `parts` are the incoming request's head (method, URI, headers) and `body` its complete body.
/// The URI's path and query are appended to the upstream base as they are; the URI is the one
/// the router saw, so mount this on un-nested routes. See the module docs for what is dropped.
///
/// Never fails: an unreachable upstream becomes a 502 Anthropic error (see module docs).
pub async fn forward(upstream: &Upstream, parts: Parts, body: Bytes) -> Response {
    if let Some(placeholder) = &upstream.placeholder
        && carries_credential(&parts.headers, placeholder)
    {
        tracing::debug!(
            path = parts.uri.path(),
            "passthrough: refused, Claude Code has no Anthropic login"
        );
        return ApiError::forbidden(NOT_SIGNED_IN).into_response();
    }
    let path_and_query = parts.uri.path_and_query().map_or("/", |pq| pq.as_str());
    let url = upstream_url(&upstream.prefix, path_and_query);
    let Ok(url) = reqwest::Url::parse(&url) else {
        tracing::warn!(
            path = parts.uri.path(),
            "passthrough: unusable request path"
        );
        return ApiError::bad_request(
            "the request path cannot be forwarded to the Anthropic upstream.",
        )
        .into_response();
    };
    let method = parts.method;
    let headers = end_to_end(
        &parts.headers,
        &[TOKEN_HEADER, "host", "content-length", "expect"],
    );

    // A request that came without a body (no length, no transfer coding: a GET, a HEAD) goes
    // up without one, rather than with `content-length: 0`.
    let had_body = !body.is_empty()
        || parts.headers.contains_key(header::CONTENT_LENGTH)
        || parts.headers.contains_key(header::TRANSFER_ENCODING);
    let mut builder = upstream
        .client
        .request(method.clone(), url)
        .headers(headers);
    if had_body {
        builder = builder.body(body);
    }
    let sent = builder.send().await;
    let resp = match sent {
        Ok(resp) => resp,
        Err(err) => {
            let reason = describe(&err);
            tracing::warn!(
                %method,
                path = parts.uri.path(),
                upstream = %upstream.shown,
                %reason,
                "passthrough: upstream unreachable"
            );
            return ApiError::upstream_unreachable(format!(
                "the Anthropic upstream {} could not be reached: {reason}. Check {} / ANTHROPIC_BASE_URL.",
                upstream.shown,
                crate::env::UPSTREAM_ENV
            ))
            .into_response();
        }
    };

    let status = resp.status();
    tracing::debug!(%method, path = parts.uri.path(), %status, "passthrough");
    let mut headers = end_to_end(resp.headers(), &[]);
    if resp.headers().contains_key(header::TRANSFER_ENCODING) {
        // A length next to a transfer coding is meaningless (RFC 9112 §6.3); the body is
        // re-framed for our client.
        headers.remove(header::CONTENT_LENGTH);
    }
    let path = parts.uri.path().to_owned();
    let stream = resp.bytes_stream().map(move |chunk| {
        if let Err(err) = &chunk {
            tracing::warn!(
                %path,
                reason = %describe(err),
                "passthrough: upstream broke off mid-body; aborting the response"
            );
        }
        chunk
    });
    let mut response = Response::new(Body::from_stream(stream));
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    response
}

/// Whether the request authenticates with `credential` (bearer token or API key).
fn carries_credential(headers: &HeaderMap, credential: &str) -> bool {
    let bearer = headers
        .get_all(header::AUTHORIZATION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.strip_prefix("Bearer "))
        .any(|token| token.trim() == credential);
    bearer
        || headers
            .get_all("x-api-key")
            .iter()
            .any(|v| v.as_bytes() == credential.as_bytes())
}

/// `base` (no trailing `/`) followed by the request's path and query.
fn upstream_url(base: &str, path_and_query: &str) -> String {
    if path_and_query.starts_with('/') {
        format!("{base}{path_and_query}")
    } else {
        format!("{base}/{path_and_query}")
    }
}

/// `headers` without hop-by-hop ones, without those the `Connection` header names, and without
/// `extra` (lower-case names).
fn end_to_end(headers: &HeaderMap, extra: &[&str]) -> HeaderMap {
    let named_by_connection: Vec<String> = headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|token| token.trim().to_ascii_lowercase())
        .filter(|token| !token.is_empty())
        .collect();
    let mut out = HeaderMap::with_capacity(headers.len());
    for (name, value) in headers {
        let n = name.as_str();
        if HOP_BY_HOP.contains(&n)
            || extra.contains(&n)
            || named_by_connection.iter().any(|t| t == n)
        {
            continue;
        }
        out.append(name.clone(), value.clone());
    }
    out
}

/// The error and its causes, without the URL reqwest would print (it may hold user-info).
fn describe(err: &reqwest::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut current: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(err);
    if err.is_timeout() {
        parts.push("timed out".to_owned());
    }
    while let Some(e) = current {
        let text = e.to_string();
        if !text.is_empty() && !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        current = e.source();
    }
    if parts.is_empty() {
        parts.push(if err.is_connect() {
            "connection failed".to_owned()
        } else {
            "the request failed".to_owned()
        });
    }
    parts.join(": ")
}

/// `url` as it may be shown (the status route): unchanged, unless it carries user-info, which
/// is removed (`redact`).
pub(crate) fn without_user_info(url: &str) -> String {
    let has_user_info = match reqwest::Url::parse(url) {
        Ok(parsed) => !parsed.username().is_empty() || parsed.password().is_some(),
        Err(_) => url.contains('@'),
    };
    if has_user_info {
        redact(url)
    } else {
        url.to_owned()
    }
}

/// `url` with any `user:password@` removed (best effort on unparsable input).
fn redact(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(mut parsed) => {
            if !parsed.username().is_empty() || parsed.password().is_some() {
                // Both only fail for URLs that cannot have user-info, which then has none.
                let _ = parsed.set_username("");
                let _ = parsed.set_password(None);
            }
            parsed.as_str().trim_end_matches('/').to_owned()
        }
        // Unparsable: drop everything between the scheme and the last `@` (this may hide a
        // path part too, which is harmless in an error message).
        Err(_) => match (url.find("://"), url.rfind('@')) {
            (Some(scheme_end), Some(at)) if at > scheme_end => {
                format!("{}{}", &url[..scheme_end + 3], &url[at + 1..])
            }
            _ => url.to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderName;
    use axum::http::HeaderValue;

    use super::*;

    fn map(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut m = HeaderMap::new();
        for (k, v) in pairs {
            m.append(
                HeaderName::from_bytes(k.as_bytes()).unwrap(),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        m
    }

    #[test]
    fn drops_hop_by_hop_token_and_connection_named_headers() {
        let h = map(&[
            ("connection", "keep-alive, X-Drop-Me"),
            ("keep-alive", "timeout=5"),
            ("x-drop-me", "1"),
            ("te", "trailers"),
            ("transfer-encoding", "chunked"),
            ("upgrade", "h2c"),
            ("proxy-authorization", "Basic x"),
            ("x-multi-cursor-token", "secret"),
            ("host", "127.0.0.1:1"),
            ("content-length", "3"),
            ("x-api-key", "sk-test"),
            ("anthropic-beta", "a,b"),
            ("x-foo", "1"),
            ("x-foo", "2"),
        ]);
        let out = end_to_end(&h, &[TOKEN_HEADER, "host", "content-length"]);
        let names: Vec<&str> = out.keys().map(HeaderName::as_str).collect();
        assert_eq!(names, ["x-api-key", "anthropic-beta", "x-foo"]);
        let foo: Vec<&[u8]> = out
            .get_all("x-foo")
            .iter()
            .map(axum::http::HeaderValue::as_bytes)
            .collect();
        assert_eq!(foo, [b"1".as_slice(), b"2".as_slice()]);
    }

    #[test]
    fn joins_base_prefix_and_query() {
        let u = Upstream::new("http://host:9/prefix/").unwrap();
        assert_eq!(
            upstream_url(&u.prefix, "/v1/messages?beta=true"),
            "http://host:9/prefix/v1/messages?beta=true"
        );
        let u = Upstream::new("https://api.anthropic.com").unwrap();
        assert_eq!(
            upstream_url(&u.prefix, "/v1/messages/count_tokens?beta=true"),
            "https://api.anthropic.com/v1/messages/count_tokens?beta=true"
        );
    }

    #[test]
    fn shown_urls_lose_their_user_info_only() {
        assert_eq!(
            without_user_info("http://user:hunter2@127.0.0.1:9/"),
            "http://127.0.0.1:9"
        );
        assert_eq!(
            without_user_info("http://127.0.0.1:9/"),
            "http://127.0.0.1:9/"
        );
        assert!(!without_user_info("http://u:hunter2@ho st/").contains("hunter2"));
    }

    #[test]
    fn rejects_unusable_bases_without_echoing_passwords() {
        for bad in [
            "",
            "api.anthropic.com",
            "ftp://x",
            "http://h/?q=1",
            "http://h/#f",
        ] {
            assert!(Upstream::new(bad).is_err(), "{bad:?} accepted");
        }
        for with_password in ["ftp://user:hunter2@host/", "http://user:hunter2@ho st/"] {
            let err = Upstream::new(with_password).unwrap_err();
            assert!(!err.to_string().contains("hunter2"), "{err}");
        }
        let up = Upstream::new("http://user:hunter2@host/p").unwrap();
        assert_eq!(up.shown, "http://host/p");
        assert!(!format!("{up:?}").contains("hunter2"));
    }

    #[test]
    fn recognises_the_placeholder_credential() {
        let p = "mc-placeholder";
        assert!(carries_credential(
            &map(&[("authorization", "Bearer mc-placeholder")]),
            p
        ));
        assert!(carries_credential(
            &map(&[("x-api-key", "mc-placeholder")]),
            p
        ));
        assert!(!carries_credential(&map(&[("x-api-key", "sk-real")]), p));
        assert!(!carries_credential(
            &map(&[("authorization", "Bearer mc-placeholder-2")]),
            p
        ));
        let up = Upstream::new("http://h")
            .unwrap()
            .refusing_placeholder(Some(String::new()));
        assert!(
            up.placeholder.is_none(),
            "an empty placeholder refuses nothing"
        );
    }

    #[test]
    fn resolves_base_in_order() {
        assert_eq!(resolve_base(None, None), DEFAULT_UPSTREAM);
        assert_eq!(resolve_base(Some(" "), Some("http://b")), "http://b");
        assert_eq!(resolve_base(Some("http://a"), Some("http://b")), "http://a");
        assert_eq!(resolve_base(None, Some("")), DEFAULT_UPSTREAM);
    }
}
