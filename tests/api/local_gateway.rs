//! The local stack's API Gateway (`tools/gateway`, docs/decisions/0025-a-local-api-gateway.md)
//! against what a deployed function does with API Gateway's events: each event it
//! builds is read by lambda_http exactly as the Lambda runtime reads it in AWS
//! (`lambda_http::Adapter`, what `lambda_http::run` serves), the real function
//! answers, and its payload 2.0 answer goes back through the gateway. Requests that
//! `cargo lambda watch`'s own front answered with its 500 (a body that is not UTF-8,
//! a header byte above 0x7f) get the function's answer, with `no-store` and the
//! request id, as deployed.

use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri};
use lambda_http::{Adapter, Context, LambdaEvent, Service, request::LambdaRequest};
use local_gateway::{Incoming, event, function_for, response};
use serde_json::Value;
use testkit::fresh_state;
use web::AppState;

async fn through_gateway(
    state: &AppState,
    method: Method,
    path: &str,
    headers: &[(&'static str, &[u8])],
    body: &[u8],
) -> http::Response<Bytes> {
    let groups: Vec<String> = api_tests::FUNCTIONS
        .iter()
        .map(|(group, ..)| (*group).to_owned())
        .collect();
    let uri: Uri = path.parse().unwrap();
    let mut map = HeaderMap::new();
    for (name, value) in headers {
        map.append(
            HeaderName::from_static(name),
            HeaderValue::from_bytes(value).unwrap(),
        );
    }
    let event = event(&Incoming {
        method: &method,
        uri: &uri,
        headers: &map,
        body,
        source_ip: Some("127.0.0.1".parse().unwrap()),
        request_id: "gateway-1",
        now: time::OffsetDateTime::now_utc(),
    });
    let function = function_for(uri.path(), &groups, api_tests::UNMATCHED);
    let (_, router, _) = api_tests::FUNCTIONS
        .iter()
        .find(|(group, ..)| *group == function)
        .unwrap();
    let payload: LambdaRequest = serde_json::from_value(event).expect("lambda_http reads it");
    let mut context = Context::default();
    context.request_id = "lambda-1".into();
    let answer = Adapter::from(router(state.clone()))
        .call(LambdaEvent::new(payload, context))
        .await
        .unwrap();
    response(&serde_json::to_vec(&answer).unwrap())
}

/// Status, `no-store`, the Lambda request id, and the JSON body's `message`.
fn assert_answered_by_the_function(res: &http::Response<Bytes>, status: StatusCode) -> String {
    assert_eq!(res.status(), status, "{:?}", res.body());
    assert_eq!(res.headers()["cache-control"], "no-store");
    assert_eq!(res.headers()["x-request-id"], "lambda-1");
    let body: Value = serde_json::from_slice(res.body()).expect("a JSON body");
    body["message"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn undecodable_requests_get_the_functions_answer_as_deployed() {
    let state = fresh_state().await;
    let json: (&str, &[u8]) = ("content-type", b"application/json");

    // A JSON body that is not UTF-8 (cargo lambda watch: its own 500).
    let res = through_gateway(
        &state,
        Method::POST,
        "/api/auth/login",
        &[json],
        b"{\"username\":\"\xff\xfe\",\"password\":\"secret-password\"}",
    )
    .await;
    let message = assert_answered_by_the_function(&res, StatusCode::BAD_REQUEST);
    assert!(!message.is_empty(), "a 400 says what is wrong");

    // A header byte above 0x7f on a public read: answered as usual.
    let res = through_gateway(
        &state,
        Method::GET,
        "/api/hospitals/emergency-number",
        &[("x-note", b"caf\xe9")],
        b"",
    )
    .await;
    assert_answered_by_the_function(&res, StatusCode::OK);

    // ... and in the token of a signed-in route: 401, not a 500.
    let res = through_gateway(
        &state,
        Method::GET,
        "/api/user/profile",
        &[("authorization", b"Bearer \xe9\xe9")],
        b"",
    )
    .await;
    assert_answered_by_the_function(&res, StatusCode::UNAUTHORIZED);

    // A path no group routes: the `$default` function's JSON 404.
    let res = through_gateway(&state, Method::GET, "/api/nope", &[], b"").await;
    assert_answered_by_the_function(&res, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_readable_request_keeps_its_query_cookies_and_body() {
    let state = fresh_state().await;
    // A query parameter the route refuses by name proves the query arrived whole.
    let res = through_gateway(
        &state,
        Method::GET,
        "/api/hospitals/nearest?lat=30.9&lng=200",
        &[("cookie", b"a=1; b=2")],
        b"",
    )
    .await;
    let message = assert_answered_by_the_function(&res, StatusCode::BAD_REQUEST);
    assert!(message.contains("lng"), "{message}");
    // A UTF-8 body read as text: a missing field named, not a malformed body.
    let res = through_gateway(
        &state,
        Method::POST,
        "/api/auth/login",
        &[("content-type", b"application/json")],
        "{\"username\":\"é\"}".as_bytes(),
    )
    .await;
    let message = assert_answered_by_the_function(&res, StatusCode::BAD_REQUEST);
    assert!(message.contains("password"), "{message}");
}
