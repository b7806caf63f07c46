//! Integration-test support: every test gets its own freshly created table on the
//! real DynamoDB Local that `make test` starts, so tests run in parallel. Requests go
//! through the function's real router as `lambda_http` requests, and every DynamoDB
//! call they make is checked against the function's grants in template.yaml
//! ([`iam`]).
//!
//! A new function's tests start with `TestApp::new(my_function::router)`, seed what
//! they need with the fixtures (`app.user(..)`, `app.admin()`, `app.seed_hospital(..)`,
//! `app.seed_ambulance(..)`) and call routes with `app.get/post/put/patch/delete`.
//!
//! # Where does X live
//!
//! One file per job. What a test calls is re-exported here at the root
//! (`testkit::TestApp`, `testkit::fresh_state`, `testkit::bench_store`), one path per
//! item: the job files are private, so a caller never picks between two names, and
//! this table is how to find an item's file. The four tools with many items of their
//! own stay public modules, reached by name (`testkit::hooks::take_reads`,
//! `testkit::iam::Grant`).
//!
//! | file | what it holds | items at the root |
//! |---|---|---|
//! | `app.rs` | `TestApp`: a router over a test's state, sending requests and checking their DynamoDB calls; the request builders; the requests many tests make (`app.book(..)`, `app.login(..)`) | `TestApp`, `json_request`, `from_address` |
//! | `response.rs` | what a request answered, and the assertions on it | `TestResponse` |
//! | `fixtures.rs` | test accounts and their one password hash; what a `TestApp` seeds straight in the store (`app.user(..)`, `app.crew(..)`, `app.seed_hospital(..)`) | `TEST_PASSWORD`, `TestUser`, `test_account`, `test_password_hash` |
//! | `state.rs` | the emulators' endpoints, the test configuration, an `AppState` over a brand-new table | `endpoint`, `sqs_endpoint`, `TEST_SECRET`, `test_config`, `config_at`, `fresh_state`, `streamed_state`, `patient_state` |
//! | `bench.rs` | the benchmarks' stores, their yardstick read, a city of numbered hospitals loaded in bulk | `bench_store`, `bench_store_with_stream`, `timed_get_item`, `numbered_hospital`, `bulk_load_hospitals`, `drop_table` |
//! | `raw.rs` | writes past the store's rules | `raw_update` |
//! | `logs.rs` | log capture | `CapturedLogs`, `capture_process_logs` |
//! | `bad_input.rs` | the bad booking requests and the field each 400 names | `BadField`, `bad_booking_fields` |
//! | `limits.rs` | keeping clear of a rate limit's window edge | `clear_of_a_window_edge` |
//! | `hooks.rs` | `hooks`: an SDK interceptor of closures (count, change, fail, read DynamoDB calls) | (a module) |
//! | `iam.rs` | `iam`: every DynamoDB call held against template.yaml's grants | (a module) |
//! | `push_service.rs` | `push_service`: a push service on loopback | (a module) |
//! | `ddb_local.rs` | `ddb_local`: a DynamoDB Local of a test's own, to hang and kill | (a module) |

pub mod ddb_local;
pub mod hooks;
pub mod iam;
pub mod push_service;

mod app;
mod bad_input;
mod bench;
mod fixtures;
mod limits;
mod logs;
mod raw;
mod response;
mod state;

pub use app::{TestApp, from_address, json_request};
pub use bad_input::{BadField, bad_booking_fields};
pub use bench::{
    bench_store, bench_store_with_stream, bulk_load_hospitals, drop_table, numbered_hospital,
    timed_get_item,
};
pub use fixtures::{TEST_PASSWORD, TestUser, test_account, test_password_hash};
pub use limits::clear_of_a_window_edge;
pub use logs::{CapturedLogs, capture_process_logs};
pub use raw::raw_update;
pub use response::TestResponse;
pub use state::{
    TEST_SECRET, config_at, endpoint, fresh_state, patient_state, sqs_endpoint, streamed_state,
    test_config,
};
