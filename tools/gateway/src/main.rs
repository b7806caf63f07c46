//! The local API Gateway's server, on 127.0.0.1 at the stack's API port, invoking the
//! functions `cargo lambda watch` serves on its own port; started by scripts/stack.sh
//! as `gateway --port P --functions URL --groups auth,user --default ambulances`.

use std::sync::Arc;

use axum::{
    Router,
    body::Body,
    extract::{Request, State},
    response::{IntoResponse, Response},
};
use bytes::Bytes;
use http::{StatusCode, header};
use http_body_util::{BodyExt, Full};
use hyper_util::{
    client::legacy::{Client, connect::HttpConnector},
    rt::TokioExecutor,
};
use local_gateway::{Incoming, event, function_for, integration_failure, response};

/// API Gateway's largest request payload.
const MAX_BODY: usize = 10 * 1024 * 1024;

struct Gateway {
    functions: String,
    groups: Vec<String>,
    default: String,
    client: Client<HttpConnector, Full<Bytes>>,
}

async fn forward(State(gw): State<Arc<Gateway>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let Ok(body) = axum::body::to_bytes(body, MAX_BODY).await else {
        let body = r#"{"message":"Request Entity Too Large"}"#;
        return (
            StatusCode::PAYLOAD_TOO_LARGE,
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response();
    };
    let request_id = uuid::Uuid::new_v4().to_string();
    let event = event(&Incoming {
        method: &parts.method,
        uri: &parts.uri,
        headers: &parts.headers,
        body: &body,
        // Unknown, as before this gateway: see `Incoming::source_ip`.
        source_ip: None,
        request_id: &request_id,
        now: time::OffsetDateTime::now_utc(),
    });
    let function = function_for(parts.uri.path(), &gw.groups, &gw.default);
    let invoke = http::Request::post(format!(
        "{}/2015-03-31/functions/{function}/invocations",
        gw.functions
    ))
    .header(header::CONTENT_TYPE, "application/json")
    .body(Full::new(Bytes::from(event.to_string())))
    .expect("a valid invoke request");
    let answer = match gw.client.request(invoke).await {
        Ok(res) if res.status() == StatusCode::OK => res.into_body().collect().await.ok(),
        Ok(res) => {
            eprintln!(
                "gateway: {function} answered the invoke with {}",
                res.status()
            );
            None
        }
        Err(e) => {
            eprintln!("gateway: invoking {function}: {e}");
            None
        }
    };
    let res = match answer {
        Some(answer) => response(&answer.to_bytes()),
        None => integration_failure(),
    };
    res.map(Body::from)
}

fn arg(args: &[String], name: &str) -> String {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_else(|| {
            eprintln!("usage: gateway --port P --functions URL --groups a,b,... --default NAME");
            std::process::exit(2)
        })
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let port: u16 = arg(&args, "--port").parse().expect("--port is a port");
    let gateway = Gateway {
        functions: arg(&args, "--functions").trim_end_matches('/').to_owned(),
        groups: arg(&args, "--groups")
            .split(',')
            .map(str::to_owned)
            .collect(),
        default: arg(&args, "--default"),
        client: Client::builder(TokioExecutor::new()).build_http(),
    };
    let app = Router::new()
        .fallback(forward)
        .with_state(Arc::new(gateway));
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .expect("the gateway's port is free");
    axum::serve(listener, app)
        .await
        .expect("the gateway serves");
}
