//! A 500 shows nothing internal: the body is `{message, requestId}` and the detail
//! goes to the log line with the same request id. Provoked for real: a user item in
//! DynamoDB that no longer parses (as a bad manual edit or a botched migration would).

use aws_sdk_dynamodb::types::AttributeValue;
use http::StatusCode;
use testkit::{CapturedLogs, TestApp};

#[tokio::test] // current-thread runtime: the subscriber below sees every await
async fn a_500_carries_a_request_id_and_the_log_has_the_error() {
    let logs = CapturedLogs::default();
    let subscriber = tracing_subscriber::fmt()
        .json()
        .with_writer(logs.clone())
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    let app = TestApp::new(user::router).await;
    let user = app.user("corrupted").await;
    app.state
        .store
        .client()
        .update_item()
        .table_name(app.state.store.table())
        .key("pk", AttributeValue::S(format!("USER#{}", user.id)))
        .key("sk", AttributeValue::S("USER".into()))
        .update_expression("SET #role = :bad")
        .expression_attribute_names("#role", "role")
        .expression_attribute_values(":bad", AttributeValue::S("OVERLORD".into()))
        .send()
        .await
        .unwrap();

    let res = app
        .get(
            &format!("/api/user/profile?userId={}", user.id),
            Some(&user.token),
        )
        .await;
    assert_eq!(
        res.status,
        StatusCode::INTERNAL_SERVER_ERROR,
        "{:?}",
        res.body
    );
    assert_eq!(res.message(), "Internal server error");
    let request_id = res.body["requestId"]
        .as_str()
        .expect("a requestId")
        .to_owned();
    assert!(!request_id.is_empty());
    assert_eq!(
        res.headers["x-request-id"].to_str().unwrap(),
        request_id,
        "the header and the body name the same request"
    );
    let body = res.body.to_string();
    assert!(
        !body.contains("OVERLORD") && !body.contains("role") && !body.contains("USER#"),
        "the body leaks internals: {body}"
    );
    assert_eq!(res.body["code"], "internal");
    assert_eq!(
        res.body.as_object().unwrap().len(),
        3,
        "only message, code and requestId: {body}"
    );

    let logs = logs.text();
    let line = logs
        .lines()
        .find(|l| l.contains("internal error"))
        .unwrap_or_else(|| panic!("no error line in the log:\n{logs}"));
    assert!(line.contains(&request_id), "{line}");
    assert!(
        line.contains("OVERLORD"),
        "the log line has the cause: {line}"
    );
}
