//! The local stack's API Gateway: requests in, the HTTP API's payload 2.0 events out to
//! `cargo lambda watch`'s invoke endpoint, the functions' answers back as HTTP.
//!
//! `cargo lambda watch` has an HTTP front of its own, but it turns a text body into a
//! `String` and every header value into a string before any function runs, so a body
//! that is not UTF-8 or a header with a byte above 0x7f got its own 500 there, where a
//! deployed stack answers the function's 400. This front builds the event as API
//! Gateway does (such a body base64-encoded, headers lower-cased and joined, cookies
//! apart) and posts it to `/2015-03-31/functions/<name>/invocations`, which hands it
//! to the function untouched (docs/decisions/0025-a-local-api-gateway.md).

use std::{collections::BTreeMap, net::IpAddr};

use base64::{Engine as _, engine::general_purpose::STANDARD as BASE64};
use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, Method, Response, StatusCode, Uri, header};
use serde_json::{Value, json};

/// The function that serves `path`: its route group's when `/api/<group>` names one of
/// `groups`, else `default` (API Gateway's `$default` route).
pub fn function_for<'a>(path: &str, groups: &'a [String], default: &'a str) -> &'a str {
    let group = path
        .strip_prefix("/api/")
        .map(|rest| rest.split('/').next().unwrap_or_default());
    group
        .and_then(|g| groups.iter().find(|known| known.as_str() == g))
        .map_or(default, String::as_str)
}

/// A request as the event API Gateway's HTTP API hands a function (payload 2.0).
pub struct Incoming<'a> {
    pub method: &'a Method,
    pub uri: &'a Uri,
    pub headers: &'a HeaderMap,
    pub body: &'a [u8],
    /// `requestContext.http.sourceIp`. The local stack leaves it unknown, as the
    /// watcher's own front did: the limits per client address (web::edge) then
    /// stay off locally, where every test and every developer is 127.0.0.1; the
    /// per-user limits hold.
    pub source_ip: Option<IpAddr>,
    pub request_id: &'a str,
    pub now: time::OffsetDateTime,
}

/// The payload 2.0 event of `req`.
pub fn event(req: &Incoming<'_>) -> Value {
    // Header names lower-cased (http's already are), repeated ones joined with commas;
    // values that are not UTF-8 read as API Gateway gives them, one character per
    // valid sequence and U+FFFD for the rest.
    let mut headers: BTreeMap<&str, String> = BTreeMap::new();
    let mut cookies: Vec<String> = vec![];
    for (name, value) in req.headers {
        let text = String::from_utf8_lossy(value.as_bytes()).into_owned();
        if *name == header::COOKIE {
            cookies.extend(
                text.split(';')
                    .map(str::trim)
                    .filter(|c| !c.is_empty())
                    .map(str::to_owned),
            );
            continue;
        }
        headers
            .entry(name.as_str())
            .and_modify(|joined| {
                joined.push(',');
                joined.push_str(&text);
            })
            .or_insert(text);
    }
    let raw_query = req.uri.query().unwrap_or_default();
    let mut query: BTreeMap<String, String> = BTreeMap::new();
    for (k, v) in form_urlencoded::parse(raw_query.as_bytes()) {
        query
            .entry(k.into_owned())
            .and_modify(|joined| {
                joined.push(',');
                joined.push_str(&v);
            })
            .or_insert_with(|| v.into_owned());
    }
    let path = req.uri.path();
    let user_agent = headers.get("user-agent").cloned().unwrap_or_default();
    let domain = headers.get("host").cloned().unwrap_or("localhost".into());
    let time = req
        .now
        .format(time::macros::format_description!(
            "[day]/[month repr:short]/[year]:[hour]:[minute]:[second] +0000"
        ))
        .unwrap_or_default();
    let mut event = json!({
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": path,
        "rawQueryString": raw_query,
        "headers": headers,
        "requestContext": {
            "accountId": "local",
            "apiId": "local",
            "domainName": domain,
            "domainPrefix": domain.split('.').next().unwrap_or_default(),
            "http": {
                "method": req.method.as_str(),
                "path": path,
                "protocol": "HTTP/1.1",
                "userAgent": user_agent,
            },
            "requestId": req.request_id,
            "routeKey": "$default",
            "stage": "$default",
            "time": time,
            "timeEpoch": req.now.unix_timestamp_nanos() / 1_000_000,
        },
        "isBase64Encoded": false,
    });
    let fields = event.as_object_mut().expect("an object");
    if let Some(ip) = req.source_ip {
        fields["requestContext"]["http"]["sourceIp"] = ip.to_string().into();
    }
    if !cookies.is_empty() {
        fields.insert("cookies".into(), json!(cookies));
    }
    if !query.is_empty() {
        fields.insert("queryStringParameters".into(), json!(query));
    }
    if !req.body.is_empty() {
        let text = is_text(req.headers)
            .then(|| std::str::from_utf8(req.body).ok())
            .flatten();
        let (body, encoded) = match text {
            Some(text) => (text.to_owned(), false),
            None => (BASE64.encode(req.body), true),
        };
        fields.insert("body".into(), body.into());
        fields.insert("isBase64Encoded".into(), encoded.into());
    }
    event
}

/// Whether API Gateway passes the body as text: a textual media type, or none.
fn is_text(headers: &HeaderMap) -> bool {
    let Some(kind) = headers.get(header::CONTENT_TYPE) else {
        return true;
    };
    let kind = String::from_utf8_lossy(kind.as_bytes()).to_ascii_lowercase();
    let essence = kind.split(';').next().unwrap_or_default().trim();
    essence.starts_with("text/")
        || matches!(
            essence,
            "application/json" | "application/xml" | "application/x-www-form-urlencoded"
        )
        || [".json", "+json", "+xml"]
            .iter()
            .any(|suffix| essence.ends_with(suffix))
}

/// What API Gateway answers when the function failed or answered something that is
/// not a payload 2.0 response.
pub fn integration_failure() -> Response<Bytes> {
    let mut res = Response::new(Bytes::from_static(
        br#"{"message":"Internal Server Error"}"#,
    ));
    *res.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    res
}

/// The HTTP response of a function's payload 2.0 answer (`statusCode`, `headers`,
/// `multiValueHeaders`, `cookies`, `body`, `isBase64Encoded`).
pub fn response(answer: &[u8]) -> Response<Bytes> {
    let Ok(Value::Object(answer)) = serde_json::from_slice::<Value>(answer) else {
        return integration_failure();
    };
    let Some(status) = answer
        .get("statusCode")
        .and_then(Value::as_u64)
        .and_then(|s| u16::try_from(s).ok())
        .and_then(|s| StatusCode::from_u16(s).ok())
    else {
        return integration_failure();
    };
    let body = match answer.get("body").and_then(Value::as_str) {
        None => Bytes::new(),
        Some(body) if answer.get("isBase64Encoded") == Some(&Value::Bool(true)) => {
            match BASE64.decode(body) {
                Ok(bytes) => bytes.into(),
                Err(_) => return integration_failure(),
            }
        }
        Some(body) => Bytes::from(body.to_owned()),
    };
    let mut res = Response::new(body);
    *res.status_mut() = status;
    let out = res.headers_mut();
    let fields = |name: &str| {
        answer
            .get(name)
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
    };
    let texts = |values: &'_ Value| -> Vec<String> {
        match values {
            Value::String(one) => vec![one.clone()],
            Value::Array(many) => many
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => vec![],
        }
    };
    // API Gateway's `headers` hold one string each, `multiValueHeaders` lists.
    for (name, values) in fields("headers").chain(fields("multiValueHeaders")) {
        for value in texts(values) {
            append(out, name, &value);
        }
    }
    let cookies = answer.get("cookies").map(texts).unwrap_or_default();
    for cookie in cookies {
        append(out, "set-cookie", &cookie);
    }
    res
}

fn append(headers: &mut HeaderMap, name: &str, value: &str) {
    if let (Ok(name), Ok(value)) = (
        HeaderName::from_bytes(name.as_bytes()),
        HeaderValue::from_str(value),
    ) {
        headers.append(name, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn incoming<'a>(
        method: &'a Method,
        uri: &'a Uri,
        headers: &'a HeaderMap,
        body: &'a [u8],
    ) -> Incoming<'a> {
        Incoming {
            method,
            uri,
            headers,
            body,
            source_ip: Some("127.0.0.1".parse().unwrap()),
            request_id: "req-1",
            now: time::macros::datetime!(2026-11-29 11:40:05 UTC),
        }
    }

    #[test]
    fn each_group_has_its_function_and_every_other_path_the_default() {
        let groups = ["auth".to_owned(), "booking".to_owned()];
        for (path, function) in [
            ("/api/auth/login", "auth"),
            ("/api/booking", "booking"),
            ("/api/nope/x", "ambulances"),
            ("/api/authx", "ambulances"),
            ("/", "ambulances"),
        ] {
            assert_eq!(
                function_for(path, &groups, "ambulances"),
                function,
                "{path}"
            );
        }
    }

    #[test]
    fn a_body_that_is_not_utf8_is_base64_and_a_bad_header_byte_is_kept_readable() {
        let mut headers = HeaderMap::new();
        headers.insert("content-type", HeaderValue::from_static("application/json"));
        headers.insert("x-name", HeaderValue::from_bytes(b"caf\xe9").unwrap());
        headers.append("accept", HeaderValue::from_static("a"));
        headers.append("accept", HeaderValue::from_static("b"));
        headers.insert("cookie", HeaderValue::from_static("a=1; b=2"));
        let uri: Uri = "/api/auth/login?x=1&x=2&y=%20z".parse().unwrap();
        let body = b"{\"username\":\"\xff\"}";
        let event = event(&incoming(&Method::POST, &uri, &headers, body));
        assert_eq!(event["isBase64Encoded"], true);
        assert_eq!(
            BASE64.decode(event["body"].as_str().unwrap()).unwrap(),
            body
        );
        assert_eq!(event["headers"]["x-name"], "caf\u{fffd}");
        assert_eq!(event["headers"]["accept"], "a,b");
        assert!(event["headers"].get("cookie").is_none());
        assert_eq!(event["cookies"], json!(["a=1", "b=2"]));
        assert_eq!(event["rawQueryString"], "x=1&x=2&y=%20z");
        assert_eq!(
            event["queryStringParameters"],
            json!({"x": "1,2", "y": " z"})
        );
        assert_eq!(event["requestContext"]["http"]["sourceIp"], "127.0.0.1");
        assert_eq!(
            event["requestContext"]["time"],
            "29/Nov/2026:11:40:05 +0000"
        );
        assert_eq!(event["requestContext"]["timeEpoch"], 1_795_952_405_000_i64);
    }

    #[test]
    fn a_utf8_json_body_is_text_and_no_body_is_none() {
        let mut headers = HeaderMap::new();
        headers.insert(
            "content-type",
            HeaderValue::from_static("application/json; charset=utf-8"),
        );
        let uri: Uri = "/api/auth/login".parse().unwrap();
        let with = event(&incoming(
            &Method::POST,
            &uri,
            &headers,
            "{\"a\":\"é\"}".as_bytes(),
        ));
        assert_eq!(with["isBase64Encoded"], false);
        assert_eq!(with["body"], "{\"a\":\"é\"}");
        let without = event(&incoming(&Method::GET, &uri, &HeaderMap::new(), b""));
        assert!(without.get("body").is_none());
        assert!(without.get("queryStringParameters").is_none());
        assert_eq!(without["rawQueryString"], "");
    }

    #[test]
    fn an_answer_becomes_its_status_headers_cookies_and_body() {
        let answer = json!({
            "statusCode": 400,
            "headers": {"content-type": "application/json", "cache-control": "no-store"},
            "multiValueHeaders": {"vary": ["a", "b"]},
            "cookies": ["s=1"],
            "body": BASE64.encode("{\"message\":\"x\"}"),
            "isBase64Encoded": true,
        });
        let res = response(answer.to_string().as_bytes());
        assert_eq!(res.status(), StatusCode::BAD_REQUEST);
        assert_eq!(res.headers()["cache-control"], "no-store");
        assert_eq!(res.headers().get_all("vary").iter().count(), 2);
        assert_eq!(res.headers()["set-cookie"], "s=1");
        assert_eq!(res.body().as_ref(), b"{\"message\":\"x\"}");
    }

    #[test]
    fn anything_but_a_payload_answer_is_api_gateways_500() {
        for bad in [
            &b"not json"[..],
            b"[]",
            b"{\"body\":\"x\"}",
            b"{\"statusCode\":99}",
        ] {
            let res = response(bad);
            assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
            assert_eq!(
                res.body().as_ref(),
                br#"{"message":"Internal Server Error"}"#
            );
        }
    }
}
