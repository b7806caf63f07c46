//! A push service on loopback, standing in for FCM / Mozilla's / Apple's in the tests
//! and the benchmark. It checks each push as a real one and a browser would: the
//! VAPID `Authorization` (RFC 8292: an ES256 JWT whose signature verifies with the
//! `k=` key, which must be the application server's, `aud` this service's origin,
//! `exp` within 24 h, `sub` a `mailto:`), RFC 8030's `TTL` and `Urgency`, and the body
//! decrypted (RFC 8291 aes128gcm) with the device's own private key. A push that
//! fails a check is answered 400 and kept apart ([`PushService::rejected`]).
//!
//! Each [`TestDevice`] has its own endpoint and key pair, made here as a browser
//! makes them; a test can make its endpoint answer another status (410, 500).

use std::{
    collections::HashMap,
    net::SocketAddr,
    sync::{Arc, Mutex, OnceLock},
    time::{Duration, Instant},
};

use axum::{
    Router,
    body::Bytes,
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
    routing::post,
};
use domain::push::{base64url_decode, base64url_encode};
use serde_json::Value;
use web_push_native::{
    Auth,
    jwt_simple::{
        algorithms::{ECDSAP256KeyPairLike, ECDSAP256PublicKeyLike, ES256KeyPair, ES256PublicKey},
        claims::{Audiences, NoCustomClaims},
        common::VerificationOptions,
    },
    p256::{self, elliptic_curve::sec1::ToEncodedPoint},
};

/// The VAPID key pair of every test configuration (generated once per process).
pub struct TestVapid {
    pub public_key: String,
    pub private_key: String,
}

pub fn vapid() -> &'static TestVapid {
    static KEYS: OnceLock<TestVapid> = OnceLock::new();
    KEYS.get_or_init(|| {
        let key = ES256KeyPair::generate();
        TestVapid {
            public_key: base64url_encode(&key.key_pair().public_key().to_bytes_uncompressed()),
            private_key: base64url_encode(&key.key_pair().to_bytes()),
        }
    })
}

/// A push as the device decrypted it.
#[derive(Debug, Clone)]
pub struct Received {
    pub device: u32,
    pub payload: Value,
    pub ttl: u64,
    pub urgency: String,
    pub at: Instant,
}

#[derive(Default)]
struct Inner {
    devices: HashMap<u32, (p256::SecretKey, [u8; 16])>,
    answers: HashMap<u32, StatusCode>,
    /// How long a device's endpoint waits before it answers.
    delays: HashMap<u32, Duration>,
    received: Vec<Received>,
    rejected: Vec<String>,
    /// Every request, whatever it was answered.
    attempts: HashMap<u32, u32>,
}

#[derive(Clone)]
pub struct PushService {
    addr: SocketAddr,
    /// The `k=` a push must carry: the application server's public key.
    expected_key: String,
    inner: Arc<Mutex<Inner>>,
    task: Arc<tokio::task::JoinHandle<()>>,
}

/// A browser's subscription at the stand-in.
#[derive(Debug, Clone)]
pub struct TestDevice {
    pub id: u32,
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
}

impl TestDevice {
    /// `PushSubscription.toJSON()`, as the browser sends it.
    pub fn subscription(&self) -> Value {
        serde_json::json!({
            "endpoint": self.endpoint,
            "expirationTime": null,
            "keys": {"p256dh": self.p256dh, "auth": self.auth},
        })
    }
}

impl Drop for PushService {
    fn drop(&mut self) {
        if Arc::strong_count(&self.task) == 1 {
            self.task.abort();
        }
    }
}

impl PushService {
    /// Listens on 127.0.0.1 (a free port), expecting pushes signed by `vapid_public`.
    pub async fn start(vapid_public: &str) -> PushService {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port");
        let addr = listener.local_addr().expect("its address");
        let inner = Arc::new(Mutex::new(Inner::default()));
        let service = Stand {
            origin: format!("http://{addr}"),
            expected_key: vapid_public.to_owned(),
            inner: inner.clone(),
        };
        let app = Router::new()
            .route("/push/{device}", post(receive))
            .with_state(service);
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.ok();
        });
        PushService {
            addr,
            expected_key: vapid_public.to_owned(),
            inner,
            task: Arc::new(task),
        }
    }

    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn expected_key(&self) -> &str {
        &self.expected_key
    }

    /// A new device (its key pair and secret made here, as a browser makes them).
    pub fn device(&self) -> TestDevice {
        let secret = p256::SecretKey::random(&mut p256::elliptic_curve::rand_core::OsRng);
        let auth: [u8; 16] = rand_bytes();
        let mut inner = self.inner.lock().unwrap();
        let id = inner.devices.len() as u32 + 1;
        let public = secret.public_key().to_encoded_point(false);
        inner.devices.insert(id, (secret, auth));
        TestDevice {
            id,
            endpoint: format!("{}/push/{id}", self.origin()),
            p256dh: base64url_encode(public.as_bytes()),
            auth: base64url_encode(&auth),
        }
    }

    /// From now on `device`'s endpoint answers `status` (after checking the push).
    pub fn answer(&self, device: &TestDevice, status: StatusCode) {
        self.inner.lock().unwrap().answers.insert(device.id, status);
    }

    /// From now on `device`'s endpoint answers only after `delay` (one that never
    /// answers: a delay longer than any test).
    pub fn delay(&self, device: &TestDevice, delay: Duration) {
        self.inner.lock().unwrap().delays.insert(device.id, delay);
    }

    pub fn received(&self) -> Vec<Received> {
        self.inner.lock().unwrap().received.clone()
    }

    /// What `device` received, payloads only.
    pub fn payloads(&self, device: &TestDevice) -> Vec<Value> {
        self.received()
            .into_iter()
            .filter(|r| r.device == device.id)
            .map(|r| r.payload)
            .collect()
    }

    /// Requests that failed a check, with why.
    pub fn rejected(&self) -> Vec<String> {
        self.inner.lock().unwrap().rejected.clone()
    }

    /// Requests that reached `device`'s endpoint, whatever they were answered.
    pub fn attempts(&self, device: &TestDevice) -> u32 {
        self.inner
            .lock()
            .unwrap()
            .attempts
            .get(&device.id)
            .copied()
            .unwrap_or(0)
    }

    /// Waits until `device` has received `n` pushes (or `timeout`), and answers them.
    pub async fn wait_for(&self, device: &TestDevice, n: usize, timeout: Duration) -> Vec<Value> {
        let until = Instant::now() + timeout;
        loop {
            let got = self.payloads(device);
            if got.len() >= n || Instant::now() > until {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

fn rand_bytes<const N: usize>() -> [u8; N] {
    use p256::elliptic_curve::rand_core::RngCore;
    let mut out = [0u8; N];
    p256::elliptic_curve::rand_core::OsRng.fill_bytes(&mut out);
    out
}

#[derive(Clone)]
struct Stand {
    origin: String,
    expected_key: String,
    inner: Arc<Mutex<Inner>>,
}

async fn receive(
    State(s): State<Stand>,
    Path(device): Path<u32>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let at = Instant::now();
    let delay = {
        let mut inner = s.inner.lock().unwrap();
        *inner.attempts.entry(device).or_default() += 1;
        inner.delays.get(&device).copied()
    };
    if let Some(delay) = delay {
        tokio::time::sleep(delay).await;
    }
    match s.check(device, &headers, &body) {
        Ok((payload, ttl, urgency)) => {
            let mut inner = s.inner.lock().unwrap();
            let answer = inner
                .answers
                .get(&device)
                .copied()
                .unwrap_or(StatusCode::CREATED);
            if answer.is_success() {
                inner.received.push(Received {
                    device,
                    payload,
                    ttl,
                    urgency,
                    at,
                });
            }
            answer
        }
        Err(why) => {
            s.inner.lock().unwrap().rejected.push(why);
            StatusCode::BAD_REQUEST
        }
    }
}

impl Stand {
    fn check(
        &self,
        device: u32,
        headers: &HeaderMap,
        body: &[u8],
    ) -> Result<(Value, u64, String), String> {
        let header = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
                .ok_or(format!("no {name} header"))
        };
        if header("content-encoding")? != "aes128gcm" {
            return Err("Content-Encoding is not aes128gcm".into());
        }
        let ttl: u64 = header("ttl")?.parse().map_err(|_| "TTL is not a number")?;
        let urgency = header("urgency")?;
        // RFC 8292: `vapid t=<jwt>, k=<key>`.
        let auth = header("authorization")?;
        let rest = auth
            .strip_prefix("vapid ")
            .ok_or("Authorization is not vapid")?;
        let mut token = None;
        let mut key = None;
        for part in rest.split(',') {
            match part.trim().split_once('=') {
                Some(("t", v)) => token = Some(v.to_owned()),
                Some(("k", v)) => key = Some(v.to_owned()),
                _ => return Err(format!("unexpected Authorization part {part}")),
            }
        }
        let (token, key) = token.zip(key).ok_or("Authorization lacks t= or k=")?;
        if key != self.expected_key {
            return Err("k= is not the application server's key".into());
        }
        let public =
            ES256PublicKey::from_bytes(&base64url_decode(&key).ok_or("k= is not base64url")?)
                .map_err(|e| format!("k= is not a P-256 key: {e}"))?;
        let claims = public
            .verify_token::<NoCustomClaims>(&token, Some(VerificationOptions::default()))
            .map_err(|e| format!("the VAPID signature does not verify: {e}"))?;
        match claims.audiences {
            Some(Audiences::AsString(aud)) if aud == self.origin => {}
            other => return Err(format!("aud is {other:?}, not {}", self.origin)),
        }
        let exp = claims.expires_at.ok_or("no exp")?.as_secs();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        if exp > now + 24 * 3600 {
            return Err("exp is more than 24 h ahead".into());
        }
        if !claims
            .subject
            .as_deref()
            .is_some_and(|s| s.starts_with("mailto:"))
        {
            return Err("sub is not a mailto:".into());
        }
        let (secret, auth) = self
            .inner
            .lock()
            .unwrap()
            .devices
            .get(&device)
            .cloned()
            .ok_or("no such device")?;
        let plain = web_push_native::decrypt(body.to_vec(), &secret, &Auth::from(auth))
            .map_err(|e| format!("the body does not decrypt: {e}"))?;
        let payload = serde_json::from_slice(&plain).map_err(|e| format!("not JSON: {e}"))?;
        Ok((payload, ttl, urgency))
    }
}
