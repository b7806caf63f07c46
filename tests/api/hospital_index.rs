//! The in-memory nearest-hospital index (shared/store/src/hospital_index.rs) against
//! DynamoDB Local: every warm instance sees an admin's add or removal in its very
//! next search; a warm search is one round; a hospital write and the index update
//! commit or fail together; a table without the index is indexed by its first write.
//!
//! An "instance" is a `Store` of its own over the shared table, as each warm Lambda
//! instance builds one at cold start.

use std::sync::atomic::{AtomicBool, Ordering};

use aws_sdk_dynamodb::{
    operation::transact_write_items::TransactWriteItemsInput, types::AttributeValue,
};
use domain::{
    ambulance::{AmbulanceStatus, AmbulanceType, NewAmbulance},
    geo::{Point, haversine_km},
    hospital::{Hospital, NewHospital},
    refusal::{Conflict, Refusal},
    types::Id,
};
use futures::future::join_all;
use http::StatusCode;
use rand::{Rng, SeedableRng, rngs::StdRng};
use serde_json::{Value, json};
use store::{
    Store,
    hospital_index::{LOG_LEN, NearestStats},
    keys,
};
use testkit::{TestApp, TestUser, fresh_state, hooks::Hooks};
use web::AppState;

fn n(v: u64) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

/// `state`'s nearest search: at most `k` hospitals within `radius_km` of `at`.
async fn nearest(
    state: &AppState,
    at: Point,
    k: usize,
    radius_km: f64,
) -> (Vec<Hospital>, NearestStats) {
    state
        .store
        .hospitals()
        .nearest_hospitals(at, k, radius_km)
        .await
        .unwrap()
}

/// Another warm instance over the same table: its own store, so its own copy.
fn instance(state: &AppState) -> AppState {
    AppState {
        store: Store::new(state.store.client().clone(), state.store.table()),
        ..state.clone()
    }
}

fn new_hospital(name: &str, at: Point) -> NewHospital {
    NewHospital {
        name: name.into(),
        address: format!("{name} Road"),
        location: at,
        contact_info: Some("+911234567".into()),
    }
}

/// A grid of 60 hospitals around (30.6, 74.3), ids 1..=60, index built (and the id
/// sequence moved past them).
async fn grid(state: &AppState) -> Vec<Point> {
    let points: Vec<Point> = (0..60)
        .map(|i| {
            Point::new(
                30.6 + f64::from(i / 6) * 0.01,
                74.3 + f64::from(i % 6) * 0.01,
            )
        })
        .collect();
    let hospitals = points
        .iter()
        .enumerate()
        .map(|(i, at)| {
            (
                Id::try_from(i as u64 + 1).unwrap(),
                new_hospital(&format!("H{i}"), *at),
            )
        })
        .collect();
    state
        .store
        .bulk()
        .bulk_load_hospitals(hospitals)
        .await
        .unwrap();
    points
}

async fn nearest_ids(app: &TestApp, at: Point, limit: usize) -> Vec<u64> {
    let res = app.nearest(at, limit, 50.0).await;
    res.assert_status(StatusCode::OK);
    res.body
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_u64().unwrap())
        .collect()
}

async fn add(admin_app: &TestApp, admin: &TestUser, name: &str, at: Point) -> Value {
    let Point { lat, lng } = at;
    let res = admin_app
        .add_hospital(
            Some(&admin.token),
            json!({ "name": name, "address": "1 New Road", "latitude": lat, "longitude": lng }),
        )
        .await;
    res.assert_status(StatusCode::CREATED);
    res.body
}

async fn generation(store: &Store) -> u64 {
    store
        .hospitals()
        .hospital_index_generation()
        .await
        .unwrap()
        .expect("the index exists")
}

#[tokio::test]
async fn an_admin_write_is_in_the_very_next_search_of_every_warm_instance() {
    let state = fresh_state().await;
    grid(&state).await;
    let admin_app = TestApp::with_state(state.clone(), admin::router);
    let admin = admin_app.admin().await;
    let (b, c) = (instance(&state), instance(&state));
    let (b_app, c_app) = (
        TestApp::with_state(b.clone(), hospitals::router),
        TestApp::with_state(c.clone(), hospitals::router),
    );
    // Both warm: each has loaded its copy.
    let before = nearest_ids(&b_app, Point::new(30.655, 74.335), 3).await;
    assert_eq!(
        before,
        nearest_ids(&c_app, Point::new(30.655, 74.335), 3).await
    );

    // Added through the admin function: first in the next search of both.
    let new = add(&admin_app, &admin, "Right Here", Point::new(30.655, 74.335)).await;
    let id = new["id"].as_u64().unwrap();
    assert_eq!(
        nearest_ids(&b_app, Point::new(30.655, 74.335), 3).await[0],
        id
    );
    assert_eq!(
        nearest_ids(&c_app, Point::new(30.655, 74.335), 3).await[0],
        id
    );
    let res = b_app
        .get("/api/hospitals/nearest?lat=30.655&lng=74.335&limit=1", None)
        .await;
    assert_eq!(
        res.body[0],
        json!({ "id": id, "name": "Right Here", "address": "1 New Road", "latitude": 30.655,
                "longitude": 74.335, "contactInfo": null, "distance": 0.0, "onDiversionUntil": null })
    );

    // Removed: gone from the next search of both.
    let res = admin_app.remove_hospital(Some(&admin.token), id).await;
    res.assert_status(StatusCode::NO_CONTENT);
    assert_eq!(
        nearest_ids(&b_app, Point::new(30.655, 74.335), 3).await,
        before
    );
    assert_eq!(
        nearest_ids(&c_app, Point::new(30.655, 74.335), 3).await,
        before
    );

    // More writes than the version item's log remembers while `c` is idle: its next
    // search loads whole and still sees every one of them.
    let mut added = vec![];
    for i in 0..(LOG_LEN + 3) {
        let lat = 31.0 + i as f64 * 0.001;
        added.push((
            add(
                &admin_app,
                &admin,
                &format!("Far {i}"),
                Point::new(lat, 75.0),
            )
            .await,
            lat,
        ));
    }
    let ids = nearest_ids(&c_app, Point::new(31.0, 75.0), 50).await;
    assert_eq!(ids.len(), added.len(), "{ids:?}");
    for (h, _) in &added {
        assert!(ids.contains(&h["id"].as_u64().unwrap()), "{h} in {ids:?}");
    }
    assert_eq!(nearest_ids(&b_app, Point::new(31.0, 75.0), 50).await, ids);
}

#[tokio::test]
async fn a_warm_search_is_one_round_and_catching_up_one_more() {
    let state = fresh_state().await;
    grid(&state).await;
    let warm = instance(&state);
    let at = Point::new(30.65, 74.33);
    let (_, cold) = nearest(&warm, at, 10, 100.0).await;
    // Version, manifest, the one group of chunks.
    assert_eq!((cold.rounds, cold.chunks_read), (3, 1), "{cold:?}");
    let (_, stats) = nearest(&warm, at, 10, 100.0).await;
    assert_eq!((stats.rounds, stats.chunks_read), (1, 0));

    state
        .store
        .hospitals()
        .add_hospital(new_hospital("New", Point::new(30.655, 74.335)))
        .await
        .unwrap();
    let at = Point::new(30.655, 74.335);
    let (found, stats) = nearest(&warm, at, 10, 100.0).await;
    assert_eq!(found[0].name, "New");
    assert_eq!((stats.rounds, stats.chunks_read), (2, 1), "{stats:?}");
    let (_, stats) = nearest(&warm, at, 10, 100.0).await;
    assert_eq!(stats.rounds, 1);
}

#[tokio::test]
async fn concurrent_adds_from_many_instances_all_reach_the_index() {
    let state = fresh_state().await;
    grid(&state).await;
    let start = generation(&state.store).await;
    let writers: Vec<AppState> = (0..12).map(|_| instance(&state)).collect();
    let added = join_all(writers.iter().enumerate().map(|(i, w)| {
        w.store.hospitals().add_hospital(new_hospital(
            &format!("C{i}"),
            Point::new(40.0, 80.0 + i as f64 * 0.001),
        ))
    }))
    .await;
    let mut ids: Vec<Id> = added
        .into_iter()
        .map(|h| h.unwrap_or_else(|e| panic!("{e:?}")).id)
        .collect();
    ids.sort();
    assert_eq!(generation(&state.store).await, start + 12);
    let (found, _) = nearest(&instance(&state), Point::new(40.0, 80.0), 50, 10.0).await;
    let mut got: Vec<Id> = found.iter().map(|h| h.id).collect();
    got.sort();
    assert_eq!(got, ids);
}

/// Fails every TransactWriteItems before it leaves the process (a network fault),
/// or makes the version item's condition fail in it, while set.
static DROP_TRANSACTIONS: AtomicBool = AtomicBool::new(false);
static STALE_VERSION: AtomicBool = AtomicBool::new(false);

fn faults() -> Hooks {
    Hooks::new("Faults")
        .on_input(|context| {
            if !STALE_VERSION.load(Ordering::Relaxed) {
                return Ok(());
            }
            if let Some(tx) = context
                .input_mut()
                .downcast_mut::<TransactWriteItemsInput>()
            {
                for item in tx.transact_items.iter_mut().flatten() {
                    if let Some(update) = &mut item.update
                        && update.key.get("sk")
                            == Some(&AttributeValue::S(keys::hospital_index_version().sk))
                    {
                        // As if another write had moved the generation since it was read.
                        update
                            .expression_attribute_values
                            .get_or_insert_default()
                            .insert(":old".into(), n(u64::MAX / 2));
                    }
                }
            }
            Ok(())
        })
        .on_send(|context| {
            let is_tx = context
                .request()
                .headers()
                .get("x-amz-target")
                .is_some_and(|t| t.ends_with("TransactWriteItems"));
            if is_tx && DROP_TRANSACTIONS.load(Ordering::Relaxed) {
                return Err("connection dropped (test fault)".into());
            }
            Ok(())
        })
}

/// Sets the hospital id sequence (back, so the next add collides with a taken id).
async fn set_hospital_sequence(state: &AppState, value: u64) {
    state
        .store
        .client()
        .put_item()
        .table_name(state.store.table())
        .set_item(Some(keys::sequence("hospital").item()))
        .item("value", n(value))
        .send()
        .await
        .unwrap();
}

/// What a failed write must leave untouched: the hospitals, the counter, the index.
async fn snapshot_of(state: &AppState) -> (Value, u64, Vec<u64>) {
    let app = TestApp::with_state(state.clone(), hospitals::router);
    let page = app.get("/api/hospitals/all?size=1000", None).await.body;
    let generation = generation(&state.store).await;
    let near = nearest_ids(
        &TestApp::with_state(instance(state), hospitals::router),
        Point::new(30.65, 74.33),
        50,
    )
    .await;
    (page, generation, near)
}

#[tokio::test]
async fn a_refused_or_failed_hospital_write_changes_neither_the_hospital_nor_the_index() {
    let state = fresh_state().await;
    grid(&state).await;
    let faulty = AppState {
        store: faults().on(&state.store),
        ..state.clone()
    };
    let before = snapshot_of(&state).await;

    // The hospital's own condition fails (its id is taken: the sequence set back).
    set_hospital_sequence(&state, 0).await;
    let err = state
        .store
        .hospitals()
        .add_hospital(new_hospital("Taken", Point::new(30.65, 74.33)))
        .await;
    assert!(err.is_err(), "{err:?}");
    assert_eq!(snapshot_of(&state).await, before);
    set_hospital_sequence(&state, 1000).await;

    // A removal refused inside its transaction (the count of ambulances moved).
    state
        .store
        .client()
        .update_item()
        .table_name(state.store.table())
        .set_key(Some(keys::hospital(Id::try_from(5).unwrap()).item()))
        .update_expression("SET ambulanceCount = :one")
        .expression_attribute_values(":one", n(1))
        .send()
        .await
        .unwrap();
    let err = state
        .store
        .hospitals()
        .remove_hospital(Id::try_from(5).unwrap())
        .await;
    assert!(
        matches!(
            err,
            Err(store::StoreError::Refused(Refusal::Conflict(
                Conflict::HospitalChanged(_)
            )))
        ),
        "{err:?}"
    );
    assert_eq!(snapshot_of(&state).await, before);

    // The index's condition keeps failing: after the retries, 503 and nothing written.
    let admin_app = TestApp::with_state(faulty.clone(), admin::router);
    let admin = admin_app.admin().await;
    STALE_VERSION.store(true, Ordering::Relaxed);
    let res = admin_app
        .add_hospital(
            Some(&admin.token),
            json!({ "name": "Lost", "address": "x", "latitude": 30.65, "longitude": 74.33 }),
        )
        .await;
    STALE_VERSION.store(false, Ordering::Relaxed);
    assert_eq!(
        res.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{:?}",
        res.body
    );
    assert_eq!(snapshot_of(&state).await, before);

    // The transaction never reaches the database: nothing was written before it.
    DROP_TRANSACTIONS.store(true, Ordering::Relaxed);
    let add = faulty
        .store
        .hospitals()
        .add_hospital(new_hospital("Dropped", Point::new(30.65, 74.33)))
        .await;
    let remove = faulty
        .store
        .hospitals()
        .remove_hospital(Id::try_from(7).unwrap())
        .await;
    DROP_TRANSACTIONS.store(false, Ordering::Relaxed);
    assert!(add.is_err() && remove.is_err(), "{add:?} {remove:?}");
    assert_eq!(snapshot_of(&state).await, before);
}

#[tokio::test]
async fn a_chunk_of_the_longest_hospitals_fits_in_one_item() {
    let state = fresh_state().await;
    // 100 hospitals of one chunk (ids 100..=199), every text at its longest, in
    // random 4-byte characters (which deflate cannot shrink much): 320 KB before
    // compression, under DynamoDB's 400 KB per item even without it.
    let mut rng = StdRng::seed_from_u64(400);
    let mut wide = |len: usize| -> String {
        (0..len)
            .map(|_| char::from_u32(rng.random_range(0x1_0000..=0x10_FFFF)).unwrap())
            .collect()
    };
    let hospitals: Vec<(Id, NewHospital)> = (100..200u64)
        .map(|i| {
            (
                Id::try_from(i).unwrap(),
                NewHospital {
                    name: wide(200),
                    address: wide(500),
                    location: Point::new(10.0 + i as f64 * 1e-4, 20.0),
                    contact_info: Some(wide(100)),
                },
            )
        })
        .collect();
    let first = (
        hospitals[0].1.name.clone(),
        hospitals[0].1.contact_info.clone(),
    );
    let build = state
        .store
        .bulk()
        .bulk_load_hospitals(hospitals)
        .await
        .unwrap();
    assert_eq!(build.chunks, 1);
    assert!(build.bytes > 200_000, "{build:?}");
    // And the index's transactions rewrite it: a removal from it, an add (id 200,
    // the next chunk).
    state
        .store
        .hospitals()
        .remove_hospital(Id::try_from(150).unwrap())
        .await
        .unwrap();
    state
        .store
        .hospitals()
        .add_hospital(new_hospital("One more", Point::new(10.0, 20.0)))
        .await
        .unwrap();
    let (found, _) = nearest(&instance(&state), Point::new(10.0, 20.0), 50, 100.0).await;
    assert_eq!(found.len(), 50);
    assert_eq!(found[0].name, "One more");
    assert_eq!(
        (found[1].name.clone(), found[1].contact_info.clone()),
        first
    );
    assert!(found.iter().all(|h| h.id.get() != 150));
}

#[tokio::test]
async fn a_table_without_the_index_gets_it_from_migrate_or_the_first_hospital_write() {
    let state = fresh_state().await;
    let points = grid(&state).await;
    let drop_the_index = async || {
        for key in [
            keys::hospital_index_version(),
            keys::hospital_index_manifest(),
        ] {
            state
                .store
                .client()
                .delete_item()
                .table_name(state.store.table())
                .set_key(Some(key.item()))
                .send()
                .await
                .unwrap();
        }
    };
    drop_the_index().await;
    let at = Point::new(30.65, 74.33);
    let brute = |points: &[Point]| {
        let mut d: Vec<f64> = points.iter().map(|p| haversine_km(at, *p)).collect();
        d.sort_by(f64::total_cmp);
        d.truncate(10);
        d.iter()
            .map(|d| (d * 1000.0).round() / 1000.0)
            .collect::<Vec<_>>()
    };
    let distances = |found: &[Hospital]| {
        found
            .iter()
            .map(|h| h.distance.unwrap())
            .collect::<Vec<_>>()
    };
    // The search reads only the index: a table from before it answers nothing
    // until `manage migrate` builds it (once: a second run builds nothing).
    let (found, _) = nearest(&instance(&state), at, 10, 100.0).await;
    assert_eq!(found.len(), 0);
    let migrations = state.store.migrations();
    assert!(migrations.migrate().await.unwrap().hospital_index);
    assert!(!migrations.migrate().await.unwrap().hospital_index);
    let (found, _) = nearest(&instance(&state), at, 10, 100.0).await;
    assert_eq!(distances(&found), brute(&points));

    // Without it again: an ambulance add is no hospital write; a hospital add
    // builds the index from every hospital in the table, then adds itself.
    drop_the_index().await;
    let reader = instance(&state);
    state
        .store
        .fleet()
        .add_ambulance(NewAmbulance {
            number: "PB-01".into(),
            driver_info: None,
            status: AmbulanceStatus::Available,
            ambulance_type: AmbulanceType::Bls,
            contact_info: None,
            hospital_id: Id::try_from(1).unwrap(),
        })
        .await
        .unwrap();
    assert_eq!(
        state
            .store
            .hospitals()
            .hospital_index_generation()
            .await
            .unwrap(),
        None
    );
    state
        .store
        .hospitals()
        .add_hospital(new_hospital("First", Point::new(30.7, 74.4)))
        .await
        .unwrap();
    let (found, _) = nearest(&reader, at, 10, 100.0).await;
    let mut all = points.clone();
    all.push(Point::new(30.7, 74.4));
    assert_eq!(distances(&found), brute(&all));
}
