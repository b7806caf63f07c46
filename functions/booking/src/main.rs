//! Lambda entry point: the state is built once at cold start (`web::lambda`).

fn main() -> Result<(), lambda_http::Error> {
    web::lambda::serve(booking::router)
}
