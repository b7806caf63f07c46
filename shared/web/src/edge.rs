//! How requests reach a function, and from whom: in AWS only through CloudFront
//! (so its security headers always apply), and the client's address, for the
//! limits that count per address (`store::limits`).
//!
//! CloudFront adds [`ORIGIN_SECRET_HEADER`] (an origin custom header, the value in
//! Secrets Manager) to every request it forwards to the HTTP API; [`guard`] refuses
//! any request without it, i.e. one sent to the API's own endpoint around
//! CloudFront (docs/decisions/0008-sessions-and-limits.md says why this and not a
//! disabled endpoint). During a rotation it accepts the previous value as well
//! ([`OriginSecrets`]), so that no request is refused while CloudFront's edges move
//! to the new one (docs/operations.md, "Secrets").
//!
//! API Gateway gives the address it saw (`requestContext.http.sourceIp`); behind
//! CloudFront that is an edge server's, so CloudFront's viewer-request function
//! sends the viewer's address in [`VIEWER_ADDRESS_HEADER`], which is believed only on
//! requests that carried the origin secret (see [`guard`]), i.e. that came through
//! CloudFront, which overwrites whatever a client sent in that header.
//!
//! Where no address is known (a local run without API Gateway in front), the limits
//! per address are skipped and the login throttle counts all such callers as one
//! address: the per-user limits still hold (docs/decisions/0008-sessions-and-limits.md).

use std::{
    net::{IpAddr, Ipv6Addr},
    sync::Arc,
};

use axum::{
    Router,
    extract::{FromRequestParts, Request},
    http::request::Parts,
    middleware::{self, Next},
    response::{IntoResponse, Response},
};
use lambda_http::request::RequestContext;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::error::ApiError;
use store::config::OriginSecrets;

/// The viewer's address, as CloudFront's `/api/*` viewer-request function sets it.
pub const VIEWER_ADDRESS_HEADER: &str = "x-viewer-address";

/// The header that carries the origin secret from CloudFront to the functions.
pub const ORIGIN_SECRET_HEADER: &str = "x-origin-secret";

/// Set by [`guard`] on a request that proved it came through CloudFront.
#[derive(Debug, Clone, Copy)]
struct ViewerAddress(IpAddr);

/// `router` as a deployed function serves it: with an origin secret configured,
/// only requests that carry it (its current value, or during a rotation its
/// previous one: that came through CloudFront) reach the router, and their viewer
/// address is believed; the rest get 403, which carries the request id and
/// `no-store` like every answer (`http::every_answer`: the guard answers outside the
/// router's own layers). Without one (local runs, `sam local`), `router` unchanged.
pub fn guard(router: Router, origin_secrets: Option<&OriginSecrets>) -> Router {
    let Some(secrets) = origin_secrets else {
        return router;
    };
    let accepted = Arc::new(Accepted::new(secrets));
    let guarded = router.layer(middleware::from_fn(move |req: Request, next: Next| {
        let accepted = accepted.clone();
        async move { through_cloudfront(&accepted, req, next).await }
    }));
    crate::http::every_answer(guarded)
}

type Digest32 = [u8; 32];

/// The SHA-256 digests of the values the guard lets through; the values themselves
/// are not kept.
struct Accepted {
    current: Digest32,
    previous: Option<Digest32>,
}

impl Accepted {
    fn new(secrets: &OriginSecrets) -> Self {
        let digest = |s: &str| -> Digest32 { Sha256::digest(s.as_bytes()).into() };
        Accepted {
            current: digest(&secrets.current),
            previous: secrets.previous.as_deref().map(digest),
        }
    }

    /// Whether `presented` is one of the accepted values. Its digest is compared
    /// with each accepted digest in full, every byte, and both comparisons always
    /// run (`|`, not `||`): the time taken tells nothing about how much of either
    /// value was right, nor which one matched.
    fn accepts(&self, presented: &[u8]) -> bool {
        let presented: Digest32 = Sha256::digest(presented).into();
        let current = same(&presented, &self.current);
        let previous = match &self.previous {
            Some(previous) => same(&presented, previous),
            None => false,
        };
        current | previous
    }
}

/// Constant-time equality of two digests (`subtle`): no early exit on the first
/// differing byte.
fn same(a: &Digest32, b: &Digest32) -> bool {
    a.ct_eq(b).into()
}

async fn through_cloudfront(accepted: &Accepted, mut req: Request, next: Next) -> Response {
    let through = req
        .headers()
        .get(ORIGIN_SECRET_HEADER)
        .is_some_and(|v| accepted.accepts(v.as_bytes()));
    if !through {
        // The router's log line is not written for it: say it here.
        tracing::info!(
            status = 403,
            request_id = telemetry::current_request_id(),
            "request refused: not through CloudFront"
        );
        return ApiError::Forbidden("Use the site's address for the API".into()).into_response();
    }
    req.headers_mut().remove(ORIGIN_SECRET_HEADER);
    let viewer = req
        .headers()
        .get(VIEWER_ADDRESS_HEADER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<IpAddr>().ok());
    if let Some(ip) = viewer {
        req.extensions_mut().insert(ViewerAddress(ip));
    }
    next.run(req).await
}

/// The client's address, when known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddress(pub Option<IpAddr>);

impl ClientAddress {
    /// What the limits count by: an IPv4 address, or the /64 network of an IPv6 one
    /// (one subscriber usually holds a whole /64, so single IPv6 addresses would
    /// make per-address limits free to dodge). `None` when unknown.
    pub fn key(&self) -> Option<String> {
        self.0.map(|ip| match ip {
            IpAddr::V4(v4) => v4.to_string(),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => v4.to_string(),
                None => {
                    let s = v6.segments();
                    let net = Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0);
                    format!("{net}/64")
                }
            },
        })
    }
}

/// API Gateway's source address of the request, if it came through API Gateway.
// With only the `apigw_http` feature, `RequestContext` has one variant.
#[allow(irrefutable_let_patterns)]
fn source_ip(parts: &Parts) -> Option<IpAddr> {
    let RequestContext::ApiGatewayV2(ctx) = parts.extensions.get::<RequestContext>()? else {
        return None;
    };
    ctx.http.source_ip.as_deref()?.parse().ok()
}

impl<S: Send + Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        if let Some(ViewerAddress(ip)) = parts.extensions.get::<ViewerAddress>() {
            return Ok(ClientAddress(Some(*ip)));
        }
        Ok(ClientAddress(source_ip(parts)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::{body::Body, http::StatusCode, routing::get};
    use tower::ServiceExt;

    fn guarded(current: &str, previous: Option<&str>) -> Router {
        let secrets = OriginSecrets {
            current: current.into(),
            previous: previous.map(Into::into),
        };
        let router = Router::new().route("/", get(|| async { "through" }));
        guard(router, Some(&secrets))
    }

    async fn status(router: &Router, presented: Option<&str>) -> StatusCode {
        let mut req = axum::http::Request::get("/");
        if let Some(value) = presented {
            req = req.header(ORIGIN_SECRET_HEADER, value);
        }
        let req = req.body(Body::empty()).unwrap();
        router.clone().oneshot(req).await.unwrap().status()
    }

    #[tokio::test]
    async fn the_current_origin_secret_lets_a_request_through() {
        let router = guarded("now-0123456789", None);
        assert_eq!(
            status(&router, Some("now-0123456789")).await,
            StatusCode::OK
        );
    }

    #[tokio::test]
    async fn during_a_rotation_the_previous_origin_secret_does_too() {
        let router = guarded("now-0123456789", Some("before-0123456789"));
        assert_eq!(
            status(&router, Some("now-0123456789")).await,
            StatusCode::OK
        );
        assert_eq!(
            status(&router, Some("before-0123456789")).await,
            StatusCode::OK
        );
    }

    #[tokio::test]
    async fn any_other_origin_secret_is_refused() {
        let router = guarded("now-0123456789", Some("before-0123456789"));
        for presented in [
            None,
            Some(""),
            Some("wrong"),
            Some("now-012345678"),
            Some("now-01234567890"),
            Some("before-012345678"),
            Some("NOW-0123456789"),
            Some("now-0123456789before-0123456789"),
        ] {
            assert_eq!(
                status(&router, presented).await,
                StatusCode::FORBIDDEN,
                "{presented:?}"
            );
        }
    }

    /// The end of a rotation: the previous value's label removed, the functions
    /// started afresh with the current value alone, the old value is refused.
    #[tokio::test]
    async fn the_previous_origin_secret_is_refused_once_no_longer_set() {
        let router = guarded("now-0123456789", None);
        assert_eq!(
            status(&router, Some("before-0123456789")).await,
            StatusCode::FORBIDDEN
        );
        assert_eq!(
            status(&router, Some("now-0123456789")).await,
            StatusCode::OK
        );
    }

    #[test]
    fn digests_are_compared_whole() {
        let a: Digest32 = Sha256::digest(b"a").into();
        let mut b = a;
        assert!(same(&a, &b));
        b[31] ^= 1;
        assert!(!same(&a, &b));
        b = a;
        b[0] ^= 0x80;
        assert!(!same(&a, &b));
    }

    fn key(ip: &str) -> String {
        ClientAddress(Some(ip.parse().unwrap())).key().unwrap()
    }

    #[test]
    fn ipv6_addresses_count_by_their_64_network() {
        assert_eq!(key("203.0.113.7"), "203.0.113.7");
        assert_eq!(key("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
        assert_eq!(key("2001:db8:1:2:ffff::1"), "2001:db8:1:2::/64");
        assert_eq!(key("::ffff:198.51.100.9"), "198.51.100.9");
        assert_eq!(ClientAddress(None).key(), None);
    }
}
