//! A function's routes as a table as well as a router: each route is declared once,
//! with its method and its handler, so the contract test (tests/api/openapi.rs)
//! compares the table with docs/openapi.yaml instead of reading the source, and
//! docs/architecture.md's "Every route" is checked against it (tests/api/docs.rs).

use axum::{
    Router,
    handler::Handler,
    http::Method,
    routing::{MethodFilter, on},
};

use crate::AppState;

/// What a function serves: a [`Route`] for each, and the router.
#[derive(Default)]
pub struct Routes {
    router: Router<AppState>,
    table: Vec<Route>,
}

/// One route of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    pub method: Method,
    pub path: &'static str,
    /// The handler's path in its crate, as the compiler names it
    /// (`admin::alerts::free_near`): where the route lives.
    pub handler: &'static str,
}

impl Routes {
    pub fn new() -> Routes {
        Routes::default()
    }

    pub fn get<H: Handler<T, AppState>, T: 'static>(self, path: &'static str, h: H) -> Routes {
        self.on(Method::GET, MethodFilter::GET, path, h)
    }

    pub fn post<H: Handler<T, AppState>, T: 'static>(self, path: &'static str, h: H) -> Routes {
        self.on(Method::POST, MethodFilter::POST, path, h)
    }

    pub fn put<H: Handler<T, AppState>, T: 'static>(self, path: &'static str, h: H) -> Routes {
        self.on(Method::PUT, MethodFilter::PUT, path, h)
    }

    pub fn patch<H: Handler<T, AppState>, T: 'static>(self, path: &'static str, h: H) -> Routes {
        self.on(Method::PATCH, MethodFilter::PATCH, path, h)
    }

    pub fn delete<H: Handler<T, AppState>, T: 'static>(self, path: &'static str, h: H) -> Routes {
        self.on(Method::DELETE, MethodFilter::DELETE, path, h)
    }

    /// Axum merges the methods of one path and panics on a method declared twice,
    /// so the table never lists a route the router does not serve once.
    fn on<H: Handler<T, AppState>, T: 'static>(
        mut self,
        method: Method,
        filter: MethodFilter,
        path: &'static str,
        h: H,
    ) -> Routes {
        self.router = self.router.route(path, on(filter, h));
        self.table.push(Route {
            method,
            path,
            handler: std::any::type_name::<H>(),
        });
        self
    }

    /// Another part's routes (the admin function's areas).
    pub fn merge(mut self, other: Routes) -> Routes {
        self.router = self.router.merge(other.router);
        self.table.extend(other.table);
        self
    }

    /// Every route, in the order declared.
    pub fn table(&self) -> &[Route] {
        &self.table
    }

    pub fn with_state(self, state: AppState) -> Router {
        self.router.with_state(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn ok() {}

    async fn gone() {}

    #[test]
    fn the_table_lists_each_route_with_its_method_and_handler() {
        let routes = Routes::new()
            .get("/api/x", ok)
            .post("/api/x", gone)
            .merge(Routes::new().delete("/api/y/{id}", ok));
        let table: Vec<(Method, &str, &str)> = routes
            .table()
            .iter()
            .map(|r| (r.method.clone(), r.path, r.handler))
            .collect();
        let ok = "web::http::routes::tests::ok";
        assert_eq!(
            table,
            [
                (Method::GET, "/api/x", ok),
                (Method::POST, "/api/x", "web::http::routes::tests::gone"),
                (Method::DELETE, "/api/y/{id}", ok)
            ]
        );
    }

    #[test]
    #[should_panic]
    fn a_method_declared_twice_on_a_path_is_refused() {
        let _ = Routes::new().get("/api/x", ok).get("/api/x", ok);
    }
}
