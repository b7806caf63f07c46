//! The whole system's tests, one binary (zero2prod's `tests/api`): every function's
//! router over one fresh table on DynamoDB Local (`api_tests::system`), requests as
//! API Gateway routes them, every DynamoDB call checked against template.yaml.
//! Tests of one function alone stay beside it (`functions/<f>/tests`).

mod audit;
mod authz;
mod booking;
mod coordinates;
mod crew;
mod data_map;
mod deadlines;
mod dispatch;
mod docs;
mod emergency;
mod faults;
mod fleet;
mod free_near;
mod helpers;
mod hospital;
mod hospital_index;
mod iam;
mod inputs;
mod limits;
mod live_map;
mod local_gateway;
mod manifests;
mod observability;
mod openapi;
mod positions;
mod presence;
mod privacy;
mod push;
mod reports;
mod route_groups;
mod sessions;
mod settings;
mod shares;
mod unreadable;
