//! Configuration, read from the environment once at cold start.

use std::time::Duration;

use domain::{deadline::AnswerTimes, response_times::ServiceZone};

/// Local development may run without a secret; nowhere else.
const LOCAL_DEV_SECRET: &str = "local-development-secret-not-for-production-use-0123456789";
pub const MIN_SECRET_BYTES: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppEnv {
    Local,
    Deployed,
}

/// DynamoDB timeouts (per attempt, per operation) of a deployed function: short, so a
/// dead database answers 503 fast.
pub const DB_TIMEOUTS: (Duration, Duration) =
    (Duration::from_millis(800), Duration::from_millis(2500));
/// Towards DynamoDB Local (a `DYNAMODB_ENDPOINT` is set), and in the test kit: a JVM
/// sharing the machine with builds and browsers takes seconds now and then.
pub const EMULATOR_DB_TIMEOUTS: (Duration, Duration) =
    (Duration::from_secs(5), Duration::from_secs(15));

#[derive(Clone)]
pub struct Config {
    pub table_name: String,
    /// DynamoDB Local's URL; absent in AWS.
    pub dynamodb_endpoint: Option<String>,
    pub region: String,
    pub app_env: AppEnv,
    pub jwt_secret: Vec<u8>,
    /// The secret CloudFront sends in `edge::ORIGIN_SECRET_HEADER` on every request
    /// it forwards: when set, a request without it (one that went around CloudFront
    /// to the API's own endpoint) is refused. During a rotation the previous value
    /// is accepted too. Unset locally.
    pub origin_secrets: Option<OriginSecrets>,
    /// Per-attempt timeout towards DynamoDB: [`DB_TIMEOUTS`], or
    /// [`EMULATOR_DB_TIMEOUTS`] towards DynamoDB Local.
    pub db_attempt_timeout: Duration,
    pub db_operation_timeout: Duration,
    pub db_max_attempts: u32,
    /// `ANSWER_EMERGENCY_SECS` (60) and `ANSWER_NORMAL_SECS` (300): how long a crew
    /// has to accept a job (decision 0012); a test stack sets them short.
    pub answer_times: AnswerTimes,
    /// `VAPID_PUBLIC_KEY`: the public half of the VAPID key pair (decision 0014),
    /// served by `GET /api/push/key`; checked at start. Absent: push is off here.
    pub vapid_public_key: Option<String>,
    /// `SERVICE_TIME_ZONE` (an IANA name, default `Asia/Kolkata`): whose days the
    /// response-time report counts (decision 0021); checked at start.
    pub time_zone: ServiceZone,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("table_name", &self.table_name)
            .field("dynamodb_endpoint", &self.dynamodb_endpoint)
            .field("region", &self.region)
            .field("app_env", &self.app_env)
            .field("jwt_secret", &"***")
            .field("origin_secrets", &self.origin_secrets)
            .finish()
    }
}

/// The origin secret's values a function accepts (`edge::guard`): the current one
/// and, while a rotation is under way, the previous one, so that CloudFront's edges
/// may send either while they move to the new value (docs/operations.md, "Secrets").
/// In AWS they are the secret's versions labelled `AWSCURRENT` and `AWSPREVIOUS`,
/// read at cold start ([`Config::load`]); locally `ORIGIN_SECRET` and
/// `ORIGIN_SECRET_PREVIOUS`.
#[derive(Clone, PartialEq, Eq)]
pub struct OriginSecrets {
    pub current: String,
    /// `None` outside a rotation: once the operator removes the `AWSPREVIOUS` label
    /// and the functions start afresh, the old value is refused.
    pub previous: Option<String>,
}

impl std::fmt::Debug for OriginSecrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OriginSecrets")
            .field("current", &"***")
            .field("previous", &self.previous.as_ref().map(|_| "***"))
            .finish()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("environment variable {0} is required")]
    Missing(&'static str),
    #[error("JWT_SECRET must be at least {MIN_SECRET_BYTES} bytes outside local development")]
    WeakSecret,
    /// Never carries the secret itself: only the SDK's description of the failure.
    #[error("could not read a secret from Secrets Manager: {0}")]
    SecretUnreadable(String),
    #[error("{0} must be a whole number of seconds from 5 to 3600")]
    BadSeconds(&'static str),
    #[error("{0} is set but only Config::load reads Secrets Manager")]
    SecretNotLoaded(&'static str),
    #[error("VAPID_PUBLIC_KEY must be an uncompressed P-256 point in base64url (87 characters)")]
    BadVapidKey,
    #[error("SERVICE_TIME_ZONE: {0}")]
    BadTimeZone(String),
}

fn env(key: &str) -> Option<String> {
    std::env::var(key).ok().filter(|v| !v.is_empty())
}

impl Config {
    /// Reads `TABLE_NAME`, `DYNAMODB_ENDPOINT`, `AWS_REGION`, `APP_ENV`, `JWT_SECRET`,
    /// `ORIGIN_SECRET`, `ORIGIN_SECRET_PREVIOUS`.
    /// Never calls AWS; see [`Config::load`] for the deployed functions.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(env)
    }

    /// A function's cold start. In AWS the template gives `JWT_SECRET_ARN` and
    /// `ORIGIN_SECRET_ARN`, not the secrets: they are read from Secrets Manager here
    /// (all at once), once, and held for the life of the execution environment: the
    /// JWT secret's current value, the origin secret's current (`AWSCURRENT`) and
    /// previous (`AWSPREVIOUS`, absent outside a rotation) values. When `JWT_SECRET`
    /// is set (local runs, tests, `sam local`, cold-start measurements) it wins and
    /// nothing calls AWS (likewise `ORIGIN_SECRET`). Either way the secret passes the
    /// same rule: at least [`MIN_SECRET_BYTES`] outside local development. Failures
    /// are logged here, without the secret.
    pub async fn load() -> Result<Self, ConfigError> {
        // The secrets named by ARN (and not given directly): one Secrets Manager
        // client for all of them, made only when there is one to read, and the
        // reads at once.
        let by_arn = |value: &str, arn: &str| env(value).is_none().then(|| env(arn)).flatten();
        let (jwt_arn, origin_arn) = (
            by_arn("JWT_SECRET", "JWT_SECRET_ARN"),
            by_arn("ORIGIN_SECRET", "ORIGIN_SECRET_ARN"),
        );
        let client = match (&jwt_arn, &origin_arn) {
            (None, None) => None,
            _ => Some(secrets_client(env("AWS_REGION")).await),
        };
        let jwt = async {
            match (&client, &jwt_arn) {
                (Some(client), Some(arn)) => current_value(client, arn).await.map(Some),
                _ => Ok(None),
            }
        };
        let origin = async {
            match (&client, &origin_arn) {
                (Some(client), Some(arn)) => {
                    let (current, previous) =
                        tokio::join!(current_value(client, arn), previous_value(client, arn));
                    Ok(Some(OriginSecrets {
                        current: current?,
                        previous: previous?,
                    }))
                }
                _ => Ok(None),
            }
        };
        let (jwt, origin) = tokio::join!(jwt, origin);
        let result = jwt.and_then(|jwt| {
            let origin = origin?;
            Self::from_lookup(|k| match (k, &origin) {
                ("JWT_SECRET", _) if jwt.is_some() => jwt.clone(),
                ("ORIGIN_SECRET", Some(o)) => Some(o.current.clone()),
                ("ORIGIN_SECRET_PREVIOUS", Some(o)) => o.previous.clone(),
                _ => env(k),
            })
        });
        result
            .inspect_err(|e| tracing::error!(error = %e, "configuration error; refusing to start"))
    }

    /// A background function's configuration (the clock): the environment without
    /// the secrets. It serves no request, so it neither signs nor verifies a token:
    /// its JWT key is random and unused, and it is granted no secret to read.
    pub fn for_background() -> Result<Self, ConfigError> {
        use rand::Rng;
        let unused: String = rand::rng()
            .sample_iter(rand::distr::Alphanumeric)
            .take(MIN_SECRET_BYTES.max(32))
            .map(char::from)
            .collect();
        Self::from_lookup(|k| match k {
            "JWT_SECRET" => Some(unused.clone()),
            "JWT_SECRET_ARN" | "ORIGIN_SECRET" | "ORIGIN_SECRET_PREVIOUS" | "ORIGIN_SECRET_ARN" => {
                None
            }
            _ => env(k),
        })
    }

    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let app_env = match get("APP_ENV").as_deref() {
            Some("local") | Some("test") => AppEnv::Local,
            _ => AppEnv::Deployed,
        };
        let table_name = get("TABLE_NAME").ok_or(ConfigError::Missing("TABLE_NAME"))?;
        for (value, arn) in [
            ("JWT_SECRET", "JWT_SECRET_ARN"),
            ("ORIGIN_SECRET", "ORIGIN_SECRET_ARN"),
        ] {
            if get(value).is_none() && get(arn).is_some() {
                return Err(ConfigError::SecretNotLoaded(arn));
            }
        }
        let jwt_secret = match (get("JWT_SECRET"), app_env) {
            (Some(s), _) if s.len() >= MIN_SECRET_BYTES => s.into_bytes(),
            (None, AppEnv::Local) => LOCAL_DEV_SECRET.as_bytes().to_vec(),
            (Some(s), AppEnv::Local) => s.into_bytes(),
            (_, AppEnv::Deployed) => return Err(ConfigError::WeakSecret),
        };
        let seconds = |key: &'static str, default: Duration| match get(key) {
            None => Ok(default),
            Some(v) => match v.trim().parse::<u64>() {
                Ok(n) if (5..=3600).contains(&n) => Ok(Duration::from_secs(n)),
                _ => Err(ConfigError::BadSeconds(key)),
            },
        };
        let defaults = AnswerTimes::default();
        let answer_times = AnswerTimes {
            emergency: seconds("ANSWER_EMERGENCY_SECS", defaults.emergency)?,
            normal: seconds("ANSWER_NORMAL_SECS", defaults.normal)?,
        };
        let origin_secrets = match (get("ORIGIN_SECRET"), get("ORIGIN_SECRET_PREVIOUS")) {
            (Some(current), previous) => Some(OriginSecrets { current, previous }),
            (None, None) => None,
            // A previous value alone would let the old value in and nothing else.
            (None, Some(_)) => return Err(ConfigError::Missing("ORIGIN_SECRET")),
        };
        let vapid_public_key = match get("VAPID_PUBLIC_KEY") {
            None => None,
            Some(k) => Some(parse_vapid_public_key(&k).ok_or(ConfigError::BadVapidKey)?),
        };
        let time_zone = match get("SERVICE_TIME_ZONE") {
            None => ServiceZone::default(),
            Some(name) => ServiceZone::named(name.trim()).map_err(ConfigError::BadTimeZone)?,
        };
        let dynamodb_endpoint = get("DYNAMODB_ENDPOINT");
        // Towards DynamoDB Local the short timeouts turn a slow second of the emulator
        // into a 503 (seen under `make load`, docs/performance.md), which fails the
        // fuzzing and the browser tests.
        let (db_attempt_timeout, db_operation_timeout) = match dynamodb_endpoint {
            None => DB_TIMEOUTS,
            Some(_) => EMULATOR_DB_TIMEOUTS,
        };
        Ok(Config {
            vapid_public_key,
            time_zone,
            answer_times,
            table_name,
            dynamodb_endpoint,
            region: get("AWS_REGION").unwrap_or_else(|| "us-east-1".into()),
            app_env,
            jwt_secret,
            origin_secrets,
            db_attempt_timeout,
            db_operation_timeout,
            db_max_attempts: 3,
        })
    }
}

/// A VAPID public key as browsers take it: 87 base64url characters of an
/// uncompressed P-256 point.
pub fn parse_vapid_public_key(text: &str) -> Option<String> {
    use base64::Engine as _;
    let text = text.trim();
    let point = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(text)
        .ok()?;
    (text.len() == 87 && point.len() == 65 && p256::PublicKey::from_sec1_bytes(&point).is_ok())
        .then(|| text.to_owned())
}

/// A new VAPID key pair, (public, private) in base64url: the uncompressed point (87
/// characters) and the 32-byte scalar. `manage vapid-keys` prints one; the local
/// stacks and scripts/deploy.sh keep it (decision 0014).
pub fn generate_vapid_keys() -> (String, String) {
    use base64::Engine as _;
    use p256::elliptic_curve::sec1::ToEncodedPoint;
    let b64 = |b: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b);
    loop {
        let bytes: [u8; 32] = rand::random();
        // All but about 2^-32 of the 32-byte strings are valid scalars.
        if let Ok(secret) = p256::SecretKey::from_slice(&bytes) {
            let public = secret.public_key().to_encoded_point(false);
            return (b64(public.as_bytes()), b64(&bytes));
        }
    }
}

/// The HTTPS client of every AWS SDK client (DynamoDB, Secrets Manager): rustls with
/// ring's cryptography and the system's trusted roots. The SDK's default client is
/// rustls over aws-lc, whose C library was the longest step of every cold build
/// (decision 0011); ring gives the same TLS 1.3/1.2 suites, without the post-quantum
/// key exchange aws-lc prefers.
pub fn aws_http_client() -> aws_sdk_dynamodb::config::SharedHttpClient {
    use aws_smithy_http_client::{
        Builder,
        tls::{Provider, rustls_provider::CryptoMode},
    };
    Builder::new()
        .tls_provider(Provider::Rustls(CryptoMode::Ring))
        .build_https()
}

/// `GetSecretValue` on the secret the template created (its ARN is all the function
/// is told): its current value (`AWSCURRENT`).
pub async fn fetch_secret(arn: &str, region: Option<String>) -> Result<String, ConfigError> {
    current_value(&secrets_client(region).await, arn).await
}

/// A Secrets Manager client for the cold start. Short timeouts: this runs inside
/// Lambda's 10 s init phase, and a failure there is retried by Lambda on the next
/// request.
async fn secrets_client(region: Option<String>) -> aws_sdk_secretsmanager::Client {
    use aws_config::{BehaviorVersion, Region, timeout::TimeoutConfig};

    let mut loader = aws_config::defaults(BehaviorVersion::latest())
        .http_client(aws_http_client())
        .timeout_config(
            TimeoutConfig::builder()
                .connect_timeout(Duration::from_secs(1))
                .operation_attempt_timeout(Duration::from_secs(2))
                .operation_timeout(Duration::from_secs(5))
                .build(),
        );
    if let Some(region) = region {
        loader = loader.region(Region::new(region));
    }
    aws_sdk_secretsmanager::Client::new(&loader.load().await)
}

/// The secret's current value (no staging label given: `AWSCURRENT`).
async fn current_value(
    client: &aws_sdk_secretsmanager::Client,
    arn: &str,
) -> Result<String, ConfigError> {
    use aws_sdk_secretsmanager::error::DisplayErrorContext;
    let out = client
        .get_secret_value()
        .secret_id(arn)
        .send()
        .await
        .map_err(|e| ConfigError::SecretUnreadable(DisplayErrorContext(e).to_string()))?;
    out.secret_string()
        .map(str::to_owned)
        .ok_or_else(|| ConfigError::SecretUnreadable(format!("{arn} has no SecretString")))
}

/// The version labelled `AWSPREVIOUS`: after `put-secret-value`, the value before
/// it. `None` when no version has that label (Secrets Manager answers
/// ResourceNotFoundException: a secret never changed, or the label was removed at
/// the end of a rotation); any other failure stops the cold start, as for the
/// current value. Same permission as the current value (`GetSecretValue` on the
/// secret).
async fn previous_value(
    client: &aws_sdk_secretsmanager::Client,
    arn: &str,
) -> Result<Option<String>, ConfigError> {
    use aws_sdk_secretsmanager::error::DisplayErrorContext;
    match client
        .get_secret_value()
        .secret_id(arn)
        .version_stage("AWSPREVIOUS")
        .send()
        .await
    {
        Ok(out) => out
            .secret_string()
            .map(|s| Some(s.to_owned()))
            .ok_or_else(|| {
                ConfigError::SecretUnreadable(format!("{arn} (AWSPREVIOUS) has no SecretString"))
            }),
        Err(e)
            if e.as_service_error()
                .is_some_and(|e| e.is_resource_not_found_exception()) =>
        {
            Ok(None)
        }
        Err(e) => Err(ConfigError::SecretUnreadable(
            DisplayErrorContext(e).to_string(),
        )),
    }
}

/// A background function's local schedule: no argument is the Lambda runtime (`None`);
/// `[flag, n]` with `n` in `range` runs every `n` × `unit` without it (the local
/// stack's clock and stream poller).
pub fn local_every(
    args: &[String],
    flag: &str,
    unit: Duration,
    range: std::ops::RangeInclusive<u64>,
) -> Result<Option<Duration>, String> {
    match args {
        [] => Ok(None),
        [f, n] if f == flag => match n.parse::<u32>() {
            Ok(n) if range.contains(&u64::from(n)) => Ok(Some(unit * n)),
            _ => Err(format!(
                "{flag} takes {} to {}, got {n}",
                range.start(),
                range.end()
            )),
        },
        _ => Err(format!("usage: [{flag} N]")),
    }
}

/// The push services' hosts a deployment adds to the browsers' own
/// (`domain::push::PUSH_SERVICE_HOSTS`): `PUSH_HOSTS`, comma-separated host names,
/// `*.` for one or more labels (template.yaml's `PushHosts`). Read once.
pub fn push_hosts() -> &'static [String] {
    static HOSTS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    HOSTS.get_or_init(|| {
        env("PUSH_HOSTS")
            .unwrap_or_default()
            .split(',')
            .map(|h| h.trim().to_ascii_lowercase())
            .filter(|h| !h.is_empty())
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn a_local_schedule_is_a_flag_and_a_number_in_range() {
        let every = |args: &[&str]| {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            local_every(&args, "--every-ms", Duration::from_millis(1), 50..=60_000)
        };
        assert_eq!(every(&[]), Ok(None));
        assert_eq!(
            every(&["--every-ms", "200"]),
            Ok(Some(Duration::from_millis(200)))
        );
        for bad in [
            &["--every-ms", "49"][..],
            &["--every-ms", "60001"],
            &["--every-ms", "x"],
            &["--every-secs", "2"],
            &["--every-ms"],
        ] {
            assert!(every(bad).is_err(), "{bad:?}");
        }
    }

    fn cfg(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn deployed_functions_refuse_a_missing_or_short_secret() {
        assert!(matches!(
            cfg(&[("TABLE_NAME", "t")]),
            Err(ConfigError::WeakSecret)
        ));
        assert!(matches!(
            cfg(&[("TABLE_NAME", "t"), ("JWT_SECRET", "short")]),
            Err(ConfigError::WeakSecret)
        ));
        let long = "x".repeat(32);
        assert!(cfg(&[("TABLE_NAME", "t"), ("JWT_SECRET", &long)]).is_ok());
    }

    #[test]
    fn short_database_timeouts_in_aws_and_patient_ones_towards_dynamodb_local() {
        let long = "x".repeat(32);
        let aws = cfg(&[("TABLE_NAME", "t"), ("JWT_SECRET", &long)]).unwrap();
        assert_eq!(aws.db_attempt_timeout, Duration::from_millis(800));
        assert_eq!(aws.db_operation_timeout, Duration::from_millis(2500));
        let local = cfg(&[
            ("TABLE_NAME", "t"),
            ("APP_ENV", "local"),
            ("DYNAMODB_ENDPOINT", "http://127.0.0.1:8000"),
        ])
        .unwrap();
        assert_eq!(local.db_attempt_timeout, Duration::from_secs(5));
        assert_eq!(local.db_operation_timeout, Duration::from_secs(15));
    }

    #[test]
    fn a_vapid_public_key_is_an_87_character_point() {
        let (public, private) = generate_vapid_keys();
        assert_eq!(public.len(), 87);
        assert_eq!(private.len(), 43);
        assert_eq!(parse_vapid_public_key(&public), Some(public.clone()));
        let c = cfg(&[
            ("TABLE_NAME", "t"),
            ("APP_ENV", "local"),
            ("VAPID_PUBLIC_KEY", &public),
        ])
        .unwrap();
        assert_eq!(c.vapid_public_key, Some(public.clone()));
        for bad in [&private[..], &public[..86], "x"] {
            assert!(matches!(
                cfg(&[
                    ("TABLE_NAME", "t"),
                    ("APP_ENV", "local"),
                    ("VAPID_PUBLIC_KEY", bad)
                ]),
                Err(ConfigError::BadVapidKey)
            ));
        }
    }

    #[test]
    fn local_development_has_a_default_secret() {
        let c = cfg(&[("TABLE_NAME", "t"), ("APP_ENV", "local")]).unwrap();
        assert!(c.jwt_secret.len() >= MIN_SECRET_BYTES);
        assert!(matches!(cfg(&[]), Err(ConfigError::Missing("TABLE_NAME"))));
    }

    /// The secret's ARN alone does not make a config: only [`Config::load`] turns it
    /// into a secret, so nothing reads Secrets Manager by accident.
    #[test]
    fn an_arn_is_not_a_secret() {
        assert!(matches!(
            cfg(&[
                ("TABLE_NAME", "t"),
                ("JWT_SECRET_ARN", "arn:aws:secretsmanager:x")
            ]),
            Err(ConfigError::SecretNotLoaded("JWT_SECRET_ARN"))
        ));
        assert!(matches!(
            cfg(&[
                ("TABLE_NAME", "t"),
                ("APP_ENV", "local"),
                ("ORIGIN_SECRET_ARN", "arn:aws:secretsmanager:y")
            ]),
            Err(ConfigError::SecretNotLoaded("ORIGIN_SECRET_ARN"))
        ));
        let c = cfg(&[
            ("TABLE_NAME", "t"),
            ("APP_ENV", "local"),
            ("ORIGIN_SECRET", "s"),
        ])
        .unwrap();
        assert_eq!(
            c.origin_secrets,
            Some(OriginSecrets {
                current: "s".into(),
                previous: None
            })
        );
    }

    /// During a rotation the previous origin secret comes with the current one; a
    /// previous value alone is refused (it would let only the old value in).
    #[test]
    fn the_origin_secret_may_come_with_its_previous_value() {
        let local = [("TABLE_NAME", "t"), ("APP_ENV", "local")];
        let with = |extra: &[(&'static str, &'static str)]| {
            cfg(&[&local[..], extra].concat()).map(|c| c.origin_secrets)
        };
        assert_eq!(with(&[]).unwrap(), None);
        let both = with(&[("ORIGIN_SECRET", "new"), ("ORIGIN_SECRET_PREVIOUS", "old")]);
        assert_eq!(
            both.unwrap(),
            Some(OriginSecrets {
                current: "new".into(),
                previous: Some("old".into())
            })
        );
        assert!(matches!(
            with(&[("ORIGIN_SECRET_PREVIOUS", "old")]),
            Err(ConfigError::Missing("ORIGIN_SECRET"))
        ));
    }

    #[test]
    fn the_config_never_shows_a_secret() {
        let jwt = "j".repeat(40);
        let c = cfg(&[
            ("TABLE_NAME", "t"),
            ("JWT_SECRET", &jwt),
            ("ORIGIN_SECRET", "origin-now-0123456789"),
            ("ORIGIN_SECRET_PREVIOUS", "origin-before-0123456789"),
        ])
        .unwrap();
        let shown = format!("{c:?} {c:#?} {:?}", c.origin_secrets);
        for secret in [&jwt[..], "origin-now", "origin-before"] {
            assert!(!shown.contains(secret), "{shown}");
        }
        assert!(shown.contains(r#"previous: Some("***")"#), "{shown}");
    }
}
