//! Test support: a request's JSON or query string read into the domain's request
//! types as the HTTP edge reads it (`web::http::parse_json` and `parse_query` go
//! through the same serde types and name the failing field by its path), so the
//! domain's tests check which field a bad input names without the HTTP crate. The
//! edge's own wording of each message is tested in `web` and `tests/api`.

use serde::de::DeserializeOwned;

use crate::refusal::Refusal;

/// `body` read as `T`, or the refusal naming the field that failed.
pub fn json<T: DeserializeOwned>(body: &[u8]) -> Result<T, Refusal> {
    let mut de = serde_json::Deserializer::from_slice(body);
    serde_path_to_error::deserialize(&mut de)
        .map_err(|e| named(&e.path().to_string(), &e.inner().to_string()))
}

/// A query string (`a=1&b=x`) read as `T`, or the refusal naming the parameter.
pub fn query<T: DeserializeOwned>(text: &str) -> Result<T, Refusal> {
    let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(text.as_bytes()));
    serde_path_to_error::deserialize(de)
        .map_err(|e| named(&e.path().to_string(), &e.inner().to_string()))
}

/// The field a serde error at `path` is about: the path, or for a missing or unknown
/// field at the top the field serde names between backticks.
fn named(path: &str, inner: &str) -> Refusal {
    let field = if path == "." {
        inner
            .split_once('`')
            .and_then(|(_, rest)| rest.split('`').next())
            .unwrap_or("")
            .to_owned()
    } else {
        path.to_owned()
    };
    Refusal::invalid(field, inner)
}
