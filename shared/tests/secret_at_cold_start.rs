//! `Config::load` in AWS: with only `JWT_SECRET_ARN`, the secret is read from
//! Secrets Manager (here a fake one on localhost, reached through the SDK's standard
//! `AWS_ENDPOINT_URL_SECRETS_MANAGER`), and it passes the same length rule as
//! `JWT_SECRET`; with `JWT_SECRET` set nothing is called at all.
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

use shared::config::{Config, ConfigError};

const ARN: &str = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:JwtSecret-abc";

/// A fake Secrets Manager that answers every request with `(status, body)` and
/// keeps the request bodies it saw.
fn fake_secrets_manager(status: u16, body: String) -> (String, Arc<Mutex<Vec<String>>>) {
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
            log.lock()
                .unwrap()
                .push(format!("{target} {}", String::from_utf8_lossy(&request)));
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
}
