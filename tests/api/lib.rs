//! The route groups, once: API Gateway (template.yaml), `cargo lambda watch`
//! (Cargo.toml's `[workspace.metadata.lambda.watch.router]`) and these tests route
//! `/api/<group>/...` to the function crate named `<group>`; `route_groups.rs`
//! fails when any of them differs from [`FUNCTIONS`].

use axum::{Router, extract::Request};
use tower::ServiceExt;
use web::{AppState, http::Routes};

/// A function's router over the state built at its cold start.
pub type RouterFn = fn(AppState) -> Router;

/// A function's routes as a table (`web::http::Routes`).
pub type RoutesFn = fn() -> Routes;

/// Every function: its route group (= crate name), its router and its route table.
pub const FUNCTIONS: [(&str, RouterFn, RoutesFn); 9] = [
    ("auth", auth::router, auth::routes),
    ("user", user::router, user::routes),
    ("hospitals", hospitals::router, hospitals::routes),
    ("ambulances", ambulances::router, ambulances::routes),
    ("booking", booking::router, booking::routes),
    ("admin", admin::router, admin::routes),
    ("crew", crew::router, crew::routes),
    ("hospital", hospital::router, hospital::routes),
    ("push", push::router, push::routes),
];

/// The functions fed by events, not by API Gateway (decision 0012): crates under
/// functions/ with no route group.
pub const BACKGROUND: [&str; 2] = ["clock", "notify"];

/// The function of API Gateway's `$default` route (template.yaml): it answers every
/// path no group routes (`/api/nope`) with its "No such route" 404.
pub const UNMATCHED: &str = "ambulances";

/// The route group of a path: `/api/<group>/...`.
pub fn group_of(path: &str) -> Option<&str> {
    path.strip_prefix("/api/")?.split('/').next()
}

/// Every function's router over one state, each answering its own `/api/<group>`
/// paths as API Gateway routes them, and [`UNMATCHED`]'s the rest (the `$default`
/// route). The routers are untouched (each keeps its own 404 fallback and layers),
/// so a request sees exactly what it sees in its function.
pub fn system(state: AppState) -> Router {
    let routers: Vec<(&'static str, Router)> = FUNCTIONS
        .iter()
        .map(|(group, router, _)| (*group, router(state.clone())))
        .collect();
    Router::new().fallback(move |req: Request| {
        let of = |g: &str| routers.iter().find(|(group, _)| *group == g);
        let router = group_of(req.uri().path())
            .and_then(of)
            .or_else(|| of(UNMATCHED))
            .map(|(_, router)| router.clone())
            .expect("UNMATCHED is one of FUNCTIONS");
        async move {
            match router.oneshot(req).await {
                Ok(response) => response,
                Err(never) => match never {},
            }
        }
    })
}
