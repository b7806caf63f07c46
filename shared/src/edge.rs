//! From whom a request comes: the client's address, for the limits that count per
//! address (`store::limits`).
//!
//! API Gateway gives the address it saw (`requestContext.http.sourceIp`). Where no
//! address is known (a local run without API Gateway in front), the limits per
//! address are skipped and the login throttle counts all such callers as one
//! address: the per-user limits still hold (docs/decisions/0008-sessions-and-limits.md).

use std::net::{IpAddr, Ipv6Addr};

use axum::{extract::FromRequestParts, http::request::Parts};
use lambda_http::request::RequestContext;

use crate::error::ApiError;

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
        Ok(ClientAddress(source_ip(parts)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
