//! What a request answered (`TestResponse`) and the assertions on it: a failure
//! shows the request and the body.

use http::{HeaderMap, StatusCode};
use serde_json::Value;

#[derive(Debug)]
pub struct TestResponse {
    /// `METHOD uri` of the request answered, for failure messages.
    pub request: String,
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
}

impl TestResponse {
    /// The `message` of an error body (empty when there is none).
    pub fn message(&self) -> &str {
        self.body
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
    pub fn field(&self) -> Option<&str> {
        self.body.get("field").and_then(Value::as_str)
    }

    /// Asserts the status; a failure shows the request and the body.
    #[track_caller]
    pub fn assert_status(&self, status: StatusCode) {
        assert_eq!(self.status, status, "{}: {:?}", self.request, self.body);
    }

    /// Asserts the status and the `field` an error names; a failure shows the
    /// request and the body.
    #[track_caller]
    pub fn assert_field(&self, status: StatusCode, field: &str) {
        let got = (self.status, self.field());
        assert_eq!(
            got,
            (status, Some(field)),
            "{}: {:?}",
            self.request,
            self.body
        );
    }

    /// Asserts the status and the error's message; a failure shows the request and
    /// the body.
    #[track_caller]
    pub fn assert_message(&self, status: StatusCode, message: &str) {
        let got = (self.status, self.message());
        assert_eq!(got, (status, message), "{}: {:?}", self.request, self.body);
    }

    /// The `Retry-After` seconds (a 429's, a 503's); panics when there are none.
    pub fn retry_after(&self) -> i64 {
        let header = self.headers.get("retry-after");
        let secs = header.and_then(|v| v.to_str().ok()?.parse().ok());
        secs.unwrap_or_else(|| panic!("no Retry-After seconds: {header:?}, {:?}", self.body))
    }
}
