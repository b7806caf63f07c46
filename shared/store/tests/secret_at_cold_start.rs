//! `Config::load` in AWS: with only `JWT_SECRET_ARN`, the secret is read from
//! Secrets Manager (here a fake one on localhost, reached through the SDK's standard
//! `AWS_ENDPOINT_URL_SECRETS_MANAGER`), and it passes the same length rule as
//! `JWT_SECRET`; with `JWT_SECRET` set nothing is called at all. With
//! `ORIGIN_SECRET_ARN`, the origin secret's current value and its `AWSPREVIOUS` one
//! (none outside a rotation) are read.
//!
//! One test in this file on purpose: it changes the process's environment.

// Changing the environment is `unsafe` since edition 2024 (the workspace denies
// unsafe code): safe here, as the only test of its process.
#![allow(unsafe_code)]

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpListener,
    sync::{Arc, Mutex},
};

use store::config::{Config, ConfigError, OriginSecrets};

const ARN: &str = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:JwtSecret-abc";
const ORIGIN_ARN: &str = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:OriginSecret-def";

/// A fake Secrets Manager that answers every request with `(status, body)` and
/// keeps the request bodies it saw.
fn fake_secrets_manager(status: u16, body: String) -> (String, Arc<Mutex<Vec<String>>>) {
    fake_secrets_manager_by(move |_| (status, body.clone()))
}

/// The same, answering each request body with `answer(body)`.
fn fake_secrets_manager_by(
    answer: impl Fn(&str) -> (u16, String) + Send + 'static,
) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(vec![]));
    let log = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut length = 0;
            let mut target = String::new();
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                let lower = line.to_ascii_lowercase();
                if let Some(v) = lower.strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                if let Some(v) = lower.strip_prefix("x-amz-target:") {
                    target = v.trim().to_owned();
                }
            }
            let mut request = vec![0; length];
            reader.read_exact(&mut request).unwrap();
            let request = String::from_utf8_lossy(&request).into_owned();
            let (status, body) = answer(&request);
            log.lock().unwrap().push(format!("{target} {request}"));
            let response = format!(
                "HTTP/1.1 {status} X\r\ncontent-type: application/x-amz-json-1.1\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(response.as_bytes());
        }
    });
    (url, seen)
}

fn set(key: &str, value: &str) {
    // SAFETY: the only test in this process; nothing else reads the environment now.
    unsafe { std::env::set_var(key, value) }
}

fn unset(key: &str) {
    // SAFETY: as above.
    unsafe { std::env::remove_var(key) }
}

#[tokio::test]
async fn the_deployed_secret_is_read_once_from_secrets_manager() {
    set("TABLE_NAME", "t");
    set("APP_ENV", "prod");
    set("AWS_REGION", "eu-west-1");
    set("AWS_ACCESS_KEY_ID", "test");
    set("AWS_SECRET_ACCESS_KEY", "test");
    unset("AWS_PROFILE");
    unset("JWT_SECRET");
    set("JWT_SECRET_ARN", ARN);

    // A good secret: used as the signing key.
    let secret = "s".repeat(64);
    let (url, seen) = fake_secrets_manager(
        200,
        format!(r#"{{"ARN":"{ARN}","Name":"JwtSecret","SecretString":"{secret}"}}"#),
    );
    set("AWS_ENDPOINT_URL_SECRETS_MANAGER", &url);
    let config = Config::load().await.expect("config from Secrets Manager");
    assert_eq!(config.jwt_secret, secret.as_bytes());
    let requests = seen.lock().unwrap().clone();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert!(
        requests[0].starts_with("secretsmanager.getsecretvalue ") && requests[0].contains(ARN),
        "{requests:?}"
    );

    // A short secret is refused, as a short JWT_SECRET is.
    let (url, _) = fake_secrets_manager(200, r#"{"SecretString":"short"}"#.into());
    set("AWS_ENDPOINT_URL_SECRETS_MANAGER", &url);
    assert!(matches!(Config::load().await, Err(ConfigError::WeakSecret)));

    // Secrets Manager refusing (no such secret, no permission) stops the cold start.
    let (url, _) = fake_secrets_manager(
        400,
        r#"{"__type":"AccessDeniedException","message":"not allowed"}"#.into(),
    );
    set("AWS_ENDPOINT_URL_SECRETS_MANAGER", &url);
    match Config::load().await {
        Err(ConfigError::SecretUnreadable(why)) => assert!(why.contains("not allowed"), "{why}"),
        other => panic!("expected SecretUnreadable, got {:?}", other.map(|_| ())),
    }

    // JWT_SECRET set (local runs, tests, cold-start measurements): AWS is not called,
    // even with an ARN present and a Secrets Manager that would answer.
    let (url, seen) = fake_secrets_manager(200, r#"{"SecretString":"unused"}"#.into());
    set("AWS_ENDPOINT_URL_SECRETS_MANAGER", &url);
    set("JWT_SECRET", &"e".repeat(40));
    let config = Config::load().await.expect("config from JWT_SECRET");
    assert_eq!(config.jwt_secret, "e".repeat(40).as_bytes());
    assert!(seen.lock().unwrap().is_empty());

    // The origin secret (JWT_SECRET still set): the current value and, during a
    // rotation, the previous one (the version labelled AWSPREVIOUS).
    set("ORIGIN_SECRET_ARN", ORIGIN_ARN);
    unset("ORIGIN_SECRET");
    unset("ORIGIN_SECRET_PREVIOUS");
    let previous = |status: u16, body: &'static str| {
        fake_secrets_manager_by(move |request| {
            if request.contains(r#""VersionStage":"AWSPREVIOUS""#) {
                (status, body.to_owned())
            } else {
                (200, r#"{"SecretString":"origin-now"}"#.to_owned())
            }
        })
    };
    let (url, seen) = previous(200, r#"{"SecretString":"origin-before"}"#);
    set("AWS_ENDPOINT_URL_SECRETS_MANAGER", &url);
    let origin = Config::load().await.expect("origin secrets").origin_secrets;
    assert_eq!(
        origin,
        Some(OriginSecrets {
            current: "origin-now".into(),
            previous: Some("origin-before".into())
        })
    );
    let mut requests = seen.lock().unwrap().clone();
    requests.sort();
    assert_eq!(requests.len(), 2, "{requests:?}");
    assert!(
        requests
            .iter()
            .all(|r| r.starts_with("secretsmanager.getsecretvalue ") && r.contains(ORIGIN_ARN)),
        "{requests:?}"
    );
    assert_eq!(
        requests
            .iter()
            .filter(|r| r.contains("VersionStage"))
            .count(),
        1,
        "{requests:?}"
    );

    // No rotation under way: no version is labelled AWSPREVIOUS (Secrets Manager
    // answers ResourceNotFoundException), so only the current value is accepted.
    let (url, _) = previous(
        400,
        r#"{"__type":"ResourceNotFoundException","message":"Secrets Manager can't find the specified secret value for staging label: AWSPREVIOUS"}"#,
    );
    set("AWS_ENDPOINT_URL_SECRETS_MANAGER", &url);
    let origin = Config::load().await.expect("origin secret").origin_secrets;
    assert_eq!(
        origin,
        Some(OriginSecrets {
            current: "origin-now".into(),
            previous: None
        })
    );

    // Any other refusal of the previous value stops the cold start, as for the current.
    let (url, _) = previous(
        400,
        r#"{"__type":"AccessDeniedException","message":"not allowed either"}"#,
    );
    set("AWS_ENDPOINT_URL_SECRETS_MANAGER", &url);
    match Config::load().await {
        Err(ConfigError::SecretUnreadable(why)) => {
            assert!(why.contains("not allowed either"), "{why}")
        }
        other => panic!("expected SecretUnreadable, got {:?}", other.map(|_| ())),
    }
}
