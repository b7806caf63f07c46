//! One push to one device: the payload encrypted for it (RFC 8291 aes128gcm, by
//! web-push-native), a VAPID JWT for the push service's origin (RFC 8292, signed by
//! jwt-simple: ES256, `aud` the origin, `exp` 12 h ahead, `sub` a `mailto:`), and
//! RFC 8030's `TTL` and `Urgency`; sent over the hyper + rustls (ring) stack the AWS
//! SDK already uses. One try, with its own timeout; the deliveries queue retries
//! (decision 0019), so one device never waits on another.

use std::{sync::Arc, time::Duration};

use bytes::Bytes;
use domain::push::{
    Endpoints, PushSubscription, Urgency, base64url_decode, base64url_encode, parse_endpoint,
};
use http::{Request, StatusCode, Uri, header};
use http_body_util::Full;
use hyper_rustls::HttpsConnector;
use hyper_util::{
    client::legacy::{Client, connect::HttpConnector},
    rt::TokioExecutor,
};
use web_push_native::{
    Auth,
    jwt_simple::{
        algorithms::{ECDSAP256KeyPairLike, ES256KeyPair},
        claims::Claims,
    },
    p256,
};

/// How long a VAPID token is valid (RFC 8292 allows at most 24 h).
pub const VAPID_VALIDITY: Duration = Duration::from_secs(12 * 60 * 60);
/// One try at a push service, connection included: a push service that has not
/// answered by then is tried again later from the queue, never waited for.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(3);
/// Pushes in flight at once in one process: a bound on sockets and memory that a
/// flood of slow endpoints cannot raise; each waits [`ATTEMPT_TIMEOUT`] at most.
pub const IN_FLIGHT: usize = 64;

/// The application server's VAPID identity: its key pair and `sub`.
pub struct Vapid {
    key: ES256KeyPair,
    /// base64url of the uncompressed public point (the `k=` a push service checks).
    public_key: String,
    subject: String,
}

impl std::fmt::Debug for Vapid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vapid")
            .field("public_key", &self.public_key)
            .field("private_key", &"***")
            .field("subject", &self.subject)
            .finish()
    }
}

impl Vapid {
    /// From the private key (base64url of the 32-byte P-256 scalar) and `sub`
    /// (`mailto:...`). The error never repeats the key.
    pub fn new(private_key: &str, subject: &str) -> Result<Vapid, String> {
        if !subject.starts_with("mailto:") || subject.len() < 10 {
            return Err("VAPID_SUBJECT must be a mailto: address".into());
        }
        let raw = base64url_decode(private_key.trim())
            .filter(|b| b.len() == 32)
            .ok_or("the VAPID private key must be 32 bytes in base64url")?;
        let key = ES256KeyPair::from_bytes(&raw)
            .map_err(|_| "the VAPID private key is not a P-256 key")?;
        let public_key = base64url_encode(&key.key_pair().public_key().to_bytes_uncompressed());
        Ok(Vapid {
            key,
            public_key,
            subject: subject.to_owned(),
        })
    }

    pub fn public_key(&self) -> &str {
        &self.public_key
    }

    /// `Authorization: vapid t=<JWT>, k=<public key>` for a push service at `origin`.
    fn authorization(&self, origin: &str) -> Result<String, String> {
        let claims = Claims::create(VAPID_VALIDITY.into())
            .with_audience(origin)
            .with_subject(&self.subject);
        let token = self.key.sign(claims).map_err(|e| e.to_string())?;
        Ok(format!("vapid t={token}, k={}", self.public_key))
    }
}

/// A new key pair: (public, private), base64url (`manage vapid-keys` prints one).
pub fn generate_keys() -> (String, String) {
    let key = ES256KeyPair::generate();
    (
        base64url_encode(&key.key_pair().public_key().to_bytes_uncompressed()),
        base64url_encode(&key.key_pair().to_bytes()),
    )
}

/// The origin of an endpoint (RFC 6454: scheme, host, and the port unless default):
/// the VAPID `aud`.
pub fn origin(uri: &Uri) -> Option<String> {
    let scheme = uri.scheme_str()?;
    let host = uri.host()?;
    Some(match (scheme, uri.port_u16()) {
        ("https", Some(443)) | ("http", Some(80)) | (_, None) => format!("{scheme}://{host}"),
        (_, Some(port)) => format!("{scheme}://{host}:{port}"),
    })
}

/// What a push service said to one try.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Delivered,
    /// 404 or 410: the subscription is gone (to be deleted).
    Gone,
    /// Another 4xx: retrying will not help (logged).
    Refused(u16),
    /// 429, 5xx, the network or the timeout: worth another try later.
    Failed(String),
}

/// The HTTPS client (loopback http too, for a local push service) and the identity.
pub struct Sender {
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
    vapid: Vapid,
    endpoints: Endpoints,
    in_flight: Arc<tokio::sync::Semaphore>,
}

impl Sender {
    /// A sender that reaches `endpoints`: in AWS https only; in a local stack (and
    /// the tests) also plain http, for a push service on loopback (the endpoints a
    /// subscription may have there, `domain::push::Endpoints`).
    pub fn new(vapid: Vapid, endpoints: Endpoints) -> Sender {
        let tls = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_native_roots(std::sync::Arc::new(rustls_ring_provider()))
            .expect("the system's trusted roots load");
        let https = if endpoints.loopback() {
            tls.https_or_http()
        } else {
            tls.https_only()
        }
        .enable_http1()
        .build();
        Sender {
            client: Client::builder(TokioExecutor::new()).build(https),
            vapid,
            endpoints,
            in_flight: Arc::new(tokio::sync::Semaphore::new(IN_FLIGHT)),
        }
    }

    /// Waits until `n` more pushes could start, and holds that room until the
    /// answer is dropped (the local consumer asks before it receives a batch).
    pub async fn room(&self, n: u32) -> tokio::sync::SemaphorePermit<'_> {
        self.in_flight
            .acquire_many(n.min(IN_FLIGHT as u32))
            .await
            .expect("the semaphore is never closed")
    }

    pub fn vapid(&self) -> &Vapid {
        &self.vapid
    }

    /// `body` to one device, to be kept by its push service at most `ttl`: one try,
    /// [`ATTEMPT_TIMEOUT`] at most, with at most [`IN_FLIGHT`] in flight.
    pub async fn send(&self, to: &PushSubscription, body: &[u8], ttl: Duration) -> Outcome {
        // A subscription stored before its host was refused (or since the list
        // changed) is not a push service's: never sent to, and deleted.
        if parse_endpoint(to.endpoint(), &self.endpoints).is_err() {
            tracing::warn!("a stored endpoint is not a push service's: dropped");
            return Outcome::Gone;
        }
        let request = match self.request(to, body, ttl) {
            Ok(r) => r,
            // A stored subscription that cannot be encrypted for: never will be.
            Err(why) => {
                tracing::warn!(why, "push not built");
                return Outcome::Refused(0);
            }
        };
        let _permit = self
            .in_flight
            .acquire()
            .await
            .expect("the semaphore is never closed");
        match tokio::time::timeout(ATTEMPT_TIMEOUT, self.client.request(request)).await {
            Err(_) => Outcome::Failed("timed out".into()),
            Ok(Err(e)) => Outcome::Failed(format!("network: {}", error_kind(&e))),
            Ok(Ok(res)) => match res.status() {
                s if s.is_success() => Outcome::Delivered,
                StatusCode::NOT_FOUND | StatusCode::GONE => Outcome::Gone,
                s if s == StatusCode::TOO_MANY_REQUESTS || s.is_server_error() => {
                    Outcome::Failed(format!("push service answered {}", s.as_u16()))
                }
                s => Outcome::Refused(s.as_u16()),
            },
        }
    }

    fn request(
        &self,
        to: &PushSubscription,
        body: &[u8],
        ttl: Duration,
    ) -> Result<Request<Full<Bytes>>, String> {
        let uri: Uri = to.endpoint().parse().map_err(|_| "bad endpoint")?;
        let origin = origin(&uri).ok_or("endpoint without an origin")?;
        let ua_public = p256::PublicKey::from_sec1_bytes(&to.p256dh()).map_err(|_| "bad p256dh")?;
        let auth: [u8; 16] = to.auth().try_into().map_err(|_| "bad auth")?;
        let encrypted = web_push_native::encrypt(body.to_vec(), &ua_public, &Auth::from(auth))
            .map_err(|e| format!("encryption failed: {e}"))?;
        Request::post(uri)
            .header("TTL", ttl.as_secs())
            // Every message of the contract is why the phone should ring.
            .header("Urgency", Urgency::High.as_ref())
            .header(header::CONTENT_ENCODING, "aes128gcm")
            .header(header::CONTENT_TYPE, "application/octet-stream")
            .header(header::AUTHORIZATION, self.vapid.authorization(&origin)?)
            .body(Full::new(Bytes::from(encrypted)))
            .map_err(|e| e.to_string())
    }
}

fn rustls_ring_provider() -> rustls::crypto::CryptoProvider {
    rustls::crypto::ring::default_provider()
}

/// A network error's kind, without the URL it may carry.
fn error_kind(e: &hyper_util::client::legacy::Error) -> &'static str {
    if e.is_connect() { "connect" } else { "request" }
}
