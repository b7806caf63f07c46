//! Lambda entry point: the state is built once at cold start (`shared::lambda`).

fn main() -> Result<(), lambda_http::Error> {
    shared::lambda::serve(hospital::router)
}
