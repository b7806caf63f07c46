//! The route groups, once: API Gateway (template.yaml), `cargo lambda watch`
//! (Cargo.toml's `[workspace.metadata.lambda.watch.router]`) and these tests route
//! `/api/<group>/...` to the function crate named `<group>`; `route_groups.rs`
//! fails when any of them differs from [`FUNCTIONS`].

use axum::{Router, extract::Request, response::IntoResponse};
use shared::{ApiError, AppState};
use tower::ServiceExt;

/// A function's router over the state built at its cold start.
pub type RouterFn = fn(AppState) -> Router;

/// Every function: its route group (= crate name) and its router.
pub const FUNCTIONS: [(&str, RouterFn); 7] = [
    ("auth", auth::router),
    ("user", user::router),
    ("hospitals", hospitals::router),
    ("ambulances", ambulances::router),
    ("booking", booking::router),
    ("admin", admin::router),
    ("crew", crew::router),
];

/// The route group of a path: `/api/<group>/...`.
pub fn group_of(path: &str) -> Option<&str> {
    path.strip_prefix("/api/")?.split('/').next()
}

/// Every function's router over one state, each answering its own `/api/<group>`
/// paths as API Gateway routes them. The routers are untouched (each keeps its own
/// 404 fallback and layers), so a request sees exactly what it sees in its function.
pub fn system(state: AppState) -> Router {
    let routers: Vec<(&'static str, Router)> = FUNCTIONS
        .iter()
        .map(|(group, router)| (*group, router(state.clone())))
        .collect();
    Router::new().fallback(move |req: Request| {
        let router = group_of(req.uri().path())
            .and_then(|g| routers.iter().find(|(group, _)| *group == g))
            .map(|(_, router)| router.clone());
        async move {
            match router {
                Some(router) => match router.oneshot(req).await {
                    Ok(response) => response,
                    Err(never) => match never {},
                },
                None => ApiError::NotFound("No such route".into()).into_response(),
            }
        }
    })
}
