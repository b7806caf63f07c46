//! Live positions against DynamoDB Local: the crew's reports (checked, stale ones
//! and too frequent ones ignored), what the requester tracks (position, ETA), the
//! dispatcher's live map, and the free-ambulance index kept exactly for the AVAILABLE
//! ambulances after any sequence of moves.

use domain::{
    booking::{TripStage, trip::Leg},
    eta,
    geo::{Point, cell_range},
    types::{Id, Timestamp, format_rfc3339},
};
use http::{Method, StatusCode};
use rand::{Rng, SeedableRng, rngs::StdRng};
use serde_json::{Value, json};
use store::{keys, positions::FreeGeoEntry};
use testkit::TestUser;
use time::{Duration, OffsetDateTime};

use crate::{
    crew::{Fleet, id_of},
    helpers::crew_steps_to_completion,
};

fn at(offset_secs: f64) -> String {
    format_rfc3339(OffsetDateTime::now_utc() + Duration::seconds_f64(offset_secs))
}

async fn report(f: &Fleet, crew: &TestUser, body: Value) -> (StatusCode, Option<String>) {
    let res = f
        .app
        .put("/api/crew/location", Some(&crew.token), body)
        .await;
    (res.status, res.field().map(str::to_owned))
}

async fn me(f: &Fleet, crew: &TestUser) -> Value {
    let res = f.app.get("/api/crew/me", Some(&crew.token)).await;
    res.assert_status(StatusCode::OK);
    res.body
}

#[tokio::test]
async fn reports_are_checked_and_only_newer_ones_at_least_4s_apart_are_kept() {
    let f = Fleet::new(1).await;
    let crew = f.app.crew("reporter", id_of(&f.ambulances[0])).await;
    // Never reported: the hospital stands in, labelled so.
    let pos = &me(&f, &crew).await["ambulance"]["position"];
    assert_eq!(
        (
            pos["source"].clone(),
            pos["at"].clone(),
            pos["stale"].clone()
        ),
        (json!("HOSPITAL"), Value::Null, json!(true))
    );
    assert_eq!(
        (pos["latitude"].clone(), pos["longitude"].clone()),
        (json!(30.67), json!(74.33))
    );

    let t0 = at(-20.0);
    let ok = json!({"latitude": 30.70, "longitude": 74.40, "accuracyM": 8.5, "recordedAt": t0});
    assert_eq!(report(&f, &crew, ok).await, (StatusCode::NO_CONTENT, None));
    let pos = me(&f, &crew).await["ambulance"]["position"].clone();
    assert_eq!(
        pos,
        json!({"latitude": 30.70, "longitude": 74.40, "at": t0, "stale": false, "source": "GPS"})
    );

    // Less than 4 s after the last write by the server's clock, whatever the
    // phone's times say; then (4 s later) older and equal ones: 204, ignored.
    let body = json!({"latitude": 30.70, "longitude": 74.40, "recordedAt": at(-10.0)});
    assert_eq!(report(&f, &crew, body).await.0, StatusCode::NO_CONTENT);
    assert_eq!(
        me(&f, &crew).await["ambulance"]["position"]["at"],
        json!(t0)
    );
    f.app.state.store.advance_clock(Duration::seconds(4));
    let older = format_rfc3339(Timestamp::parse(&t0).unwrap().get() - Duration::seconds(10));
    for (when, lat) in [(older, 1.0), (t0.clone(), 2.0)] {
        let body = json!({"latitude": lat, "longitude": 74.0, "recordedAt": when});
        assert_eq!(report(&f, &crew, body).await.0, StatusCode::NO_CONTENT);
        assert_eq!(
            me(&f, &crew).await["ambulance"]["position"]["latitude"],
            30.70,
            "{when}"
        );
    }
    // Newer, in any offset: kept.
    let later = OffsetDateTime::now_utc() - Duration::seconds(10);
    let ist = later.to_offset(time::macros::offset!(+5:30));
    let text = ist
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let body = json!({"latitude": 30.701, "longitude": 74.401, "recordedAt": text});
    assert_eq!(report(&f, &crew, body).await.0, StatusCode::NO_CONTENT);
    let pos = me(&f, &crew).await["ambulance"]["position"].clone();
    assert_eq!(
        (pos["latitude"].clone(), pos["at"].clone()),
        (json!(30.701), json!(format_rfc3339(later)))
    );

    // Out of range, in the future, malformed: 400 naming the field, nothing written.
    for (body, field) in [
        (
            json!({"latitude": 90.5, "longitude": 74, "recordedAt": at(0.0)}),
            "latitude",
        ),
        (
            json!({"latitude": 30, "longitude": 181, "recordedAt": at(0.0)}),
            "longitude",
        ),
        (
            json!({"latitude": 30, "longitude": 74, "recordedAt": at(40.0)}),
            "recordedAt",
        ),
        (
            json!({"latitude": 30, "longitude": 74, "recordedAt": "now"}),
            "recordedAt",
        ),
        (json!({"latitude": 30, "longitude": 74}), "recordedAt"),
        (
            json!({"latitude": 30, "longitude": 74, "recordedAt": at(0.0), "accuracyM": -3}),
            "accuracyM",
        ),
        (
            json!({"latitude": 30, "longitude": 74, "recordedAt": at(0.0), "heading": 90}),
            "heading",
        ),
    ] {
        assert_eq!(
            report(&f, &crew, body.clone()).await,
            (StatusCode::BAD_REQUEST, Some(field.to_owned())),
            "{body}"
        );
    }
    assert_eq!(
        me(&f, &crew).await["ambulance"]["position"]["latitude"],
        30.701
    );
    // A burst of reports (the phone's clock running ahead): one written, at the
    // server's time, not 28 s ahead; a real report 4 s later is taken.
    f.app.state.store.advance_clock(Duration::seconds(5));
    let statuses = futures::future::join_all((0..40).map(|i| {
        let body =
            json!({"latitude": 30.702, "longitude": 74.402, "recordedAt": at(f64::from(i) * 0.7)});
        report(&f, &crew, body)
    }))
    .await;
    assert!(
        statuses.iter().all(|s| s.0 == StatusCode::NO_CONTENT),
        "{statuses:?}"
    );
    let pos = me(&f, &crew).await["ambulance"]["position"].clone();
    let stored = Timestamp::parse(pos["at"].as_str().unwrap()).unwrap().get();
    assert!(
        stored <= f.app.state.store.now(),
        "stored at {stored}, ahead of the server"
    );
    f.app.state.store.advance_clock(Duration::seconds(4));
    let now = format_rfc3339(f.app.state.store.now());
    let body = json!({"latitude": 30.703, "longitude": 74.403, "recordedAt": now});
    assert_eq!(report(&f, &crew, body).await.0, StatusCode::NO_CONTENT);
    assert_eq!(
        me(&f, &crew).await["ambulance"]["position"]["latitude"],
        30.703
    );

    // A position more than 2 minutes old is stale, never live.
    let other = f.add_ambulance("STALE-1", "MAINTENANCE").await;
    let crew2 = f.app.crew("stalecrew", id_of(&other)).await;
    let body = json!({"latitude": 30.6, "longitude": 74.3, "recordedAt": at(-121.0)});
    assert_eq!(report(&f, &crew2, body).await.0, StatusCode::NO_CONTENT);
    let pos = me(&f, &crew2).await["ambulance"]["position"].clone();
    assert_eq!(
        (pos["stale"].clone(), pos["source"].clone()),
        (json!(true), json!("GPS"))
    );
}

#[tokio::test]
async fn the_requester_tracks_the_ambulance_with_an_eta() {
    let f = Fleet::new(2).await;
    let amb = &f.ambulances[0];
    let crew = f.app.crew("driver", id_of(amb)).await;
    let owner = f.app.user("owner").await;
    let stranger = f.app.user("stranger").await;
    let pickup = Point::new(30.70, 74.35);
    let b = f.book(&owner, amb, Some(pickup)).await.body;
    let track_uri = format!("/api/booking/{}/track", b["id"]);
    let track = async |token: &str| f.app.get(&track_uri, Some(token)).await;

    // Who may see it.
    let other_crew = f.app.crew("othercrew", id_of(&f.ambulances[1])).await;
    for (who, token, want) in [
        ("owner", &owner.token, StatusCode::OK),
        ("admin", &f.admin.token, StatusCode::OK),
        ("its crew", &crew.token, StatusCode::OK),
        ("a stranger", &stranger.token, StatusCode::FORBIDDEN),
        ("another crew", &other_crew.token, StatusCode::FORBIDDEN),
    ] {
        assert_eq!(track(token).await.status, want, "{who}");
    }
    assert_eq!(
        f.app.get(&track_uri, None).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        f.app
            .get("/api/booking/999999/track", Some(&owner.token))
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    // PENDING: no ETA. The hospital and the ambulance as the contract shows them.
    let t = track(&owner.token).await.body;
    assert_eq!(t["bookingStatus"], "PENDING");
    assert_eq!(
        (t["etaMinutes"].clone(), t["distanceKm"].clone()),
        (Value::Null, Value::Null)
    );
    assert_eq!(
        t["hospital"],
        json!({"id": f.hospital["id"], "name": "General", "address": "1 Main St",
        "latitude": 30.67, "longitude": 74.33, "contactInfo": "+911234567"})
    );
    assert_eq!(t["ambulance"]["number"], "C-0");
    assert_eq!(t["ambulance"]["contactInfo"], "+919999999");
    assert_eq!(t["ambulance"]["position"]["source"], "HOSPITAL");

    // Accepted (EN_ROUTE) with a fresh position: the ETA to the pickup, from the one
    // estimator.
    let step = async |stage: &str| {
        f.app
            .crew_step(
                Some(&crew.token),
                json!({"bookingId": b["id"], "stage": stage}),
            )
            .await
    };
    let path = TripStage::AtHospital.path_to();
    let (accept, rest) = path.split_first().unwrap();
    assert_eq!(step(accept.as_ref()).await.status, StatusCode::OK);
    assert_eq!(
        track(&owner.token).await.body["etaMinutes"],
        Value::Null,
        "no position yet"
    );
    let here = Point::new(30.60, 74.30);
    let put = f
        .app
        .put(
            "/api/crew/location",
            Some(&crew.token),
            json!({"latitude": here.lat, "longitude": here.lng, "recordedAt": at(-1.0)}),
        )
        .await;
    assert_eq!(put.status, StatusCode::NO_CONTENT);
    let t = track(&owner.token).await.body;
    let want = eta::estimate(here, pickup);
    assert_eq!(
        (t["etaMinutes"].clone(), t["distanceKm"].clone()),
        (json!(want.eta_minutes), json!(want.distance_km))
    );
    assert!(want.eta_minutes > 0);
    assert_eq!(t["ambulance"]["position"]["source"], "GPS");
    assert_eq!(t["timeline"].as_array().unwrap().len(), 3);

    // Then each stage of the domain's path: the ETA to where the ambulance is going
    // (the pickup, the hospital), none while it stands at one.
    let from = here;
    for stage in rest {
        assert_eq!(step(stage.as_ref()).await.status, StatusCode::OK, "{stage}");
        let want = match stage.leg() {
            Leg::ToPickup => json!(eta::estimate(from, pickup).eta_minutes),
            Leg::ToHospital => json!(eta::estimate(from, Point::new(30.67, 74.33)).eta_minutes),
            Leg::AtPickup | Leg::AtHospital | Leg::HandedOver => Value::Null,
        };
        assert_eq!(
            track(&owner.token).await.body["etaMinutes"],
            want,
            "{stage}"
        );
    }
    assert!(
        rest.iter().any(|s| s.leg() == Leg::ToHospital),
        "the hospital's ETA was seen"
    );
    // Once done, its crew no longer tracks it; the owner still does.
    assert_eq!(step("COMPLETED").await.status, StatusCode::OK);
    assert_eq!(track(&crew.token).await.status, StatusCode::FORBIDDEN);
    let t = track(&owner.token).await.body;
    assert_eq!(
        (t["bookingStatus"].clone(), t["etaMinutes"].clone()),
        (json!("COMPLETED"), Value::Null)
    );
}

#[tokio::test]
async fn the_live_map_shows_what_is_in_the_box() {
    let f = Fleet::new(3).await;
    let far = f
        .app
        .add_hospital(
            f.admin_token(),
            json!({"name": "Far", "address": "x", "latitude": 12.97, "longitude": 77.59}),
        )
        .await
        .body;
    let far_amb = f
        .app
        .add_ambulance(
            f.admin_token(),
            json!({"number": "FAR-1", "status": "AVAILABLE", "hospital": {"id": far["id"]}}),
        )
        .await
        .body;
    let crew = f.app.crew("mover", id_of(&f.ambulances[2])).await;
    // Ambulance 2 drives 60 km north-east of its hospital (reported: a first report
    // that far is taken once agreeing reports confirm it).
    crate::helpers::report_until_taken(&f.app, &crew, Point::new(31.0, 74.7)).await;
    let user = f.app.user("caller").await;
    let b = f
        .book(&user, &f.ambulances[0], Some(Point::new(30.70, 74.35)))
        .await
        .body;
    let gone = f
        .book(&user, &f.ambulances[1], Some(Point::new(30.71, 74.36)))
        .await
        .body;
    f.app.cancel_booking(Some(&user.token), &gone["id"]).await;

    let live = async |bbox: &str| {
        f.app
            .get(&format!("/api/admin/live?bbox={bbox}"), f.admin_token())
            .await
    };
    let punjab = live("30.0,73.5,31.5,75.5").await;
    punjab.assert_status(StatusCode::OK);
    let ids = |v: &Value, key: &str| -> Vec<Value> {
        let mut ids: Vec<Value> = v[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["id"].clone())
            .collect();
        ids.sort_by_key(|i| i.as_u64());
        ids
    };
    let mut fleet_ids: Vec<Value> = f.ambulances.iter().map(|a| a["id"].clone()).collect();
    fleet_ids.sort_by_key(|i| i.as_u64());
    assert_eq!(ids(&punjab.body, "ambulances"), fleet_ids);
    let row = punjab.body["ambulances"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["id"] == f.ambulances[0]["id"])
        .unwrap();
    assert_eq!(row["status"], "ON_DUTY");
    assert_eq!(row["position"]["source"], "HOSPITAL");
    assert_eq!(row["hospitalId"], f.hospital["id"]);
    assert_eq!(
        punjab.body["openBookings"],
        json!([{"id": b["id"], "bookingType": "NORMAL",
        "bookingStatus": "PENDING", "tripStage": null, "pickup": {"latitude": 30.70, "longitude": 74.35},
        "ambulanceId": f.ambulances[0]["id"]}])
    );
    // A box beside the hospital: only the ambulance that drove into it, at its live
    // position (the others stand at the hospital, outside).
    let beside = live("30.9,74.5,31.3,75.0").await.body;
    assert_eq!(ids(&beside, "ambulances"), [f.ambulances[2]["id"].clone()]);
    assert_eq!(beside["ambulances"][0]["position"]["source"], "GPS");
    assert_eq!(beside["openBookings"], json!([]));
    // South India: the far hospital's ambulance.
    let south = live("12.5,77.0,13.5,78.0").await.body;
    assert_eq!(ids(&south, "ambulances"), [far_amb["id"].clone()]);
    assert_eq!(south["openBookings"], json!([]));
    // The whole world: every ambulance, the far one too; a box across the
    // antimeridian; bad boxes.
    let mut everyone = fleet_ids.clone();
    everyone.push(far_amb["id"].clone());
    everyone.sort_by_key(|i| i.as_u64());
    let world = live("-90,-180,90,180").await;
    world.assert_status(StatusCode::OK);
    assert_eq!(ids(&world.body, "ambulances"), everyone);
    assert_eq!(ids(&world.body, "openBookings"), [b["id"].clone()]);
    assert_eq!(
        live("-10,170,10,-170").await.body,
        json!({"ambulances": [], "openBookings": [], "truncated": false})
    );
    for bad in ["1,2,3", "91,0,0,0", "a,b,c,d"] {
        let res = live(bad).await;
        res.assert_field(StatusCode::BAD_REQUEST, "bbox");
    }
    // No box: the whole world, the fleet in it.
    let world = f.app.get("/api/admin/live", f.admin_token()).await;
    world.assert_status(StatusCode::OK);
    assert_eq!(ids(&world.body, "ambulances"), everyone);
    assert_eq!(world.body["truncated"], false);
    assert_eq!(live("30,73,31,75").await.status, StatusCode::OK);
    let res = f
        .app
        .get("/api/admin/live?bbox=30,73,31,75", Some(&user.token))
        .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
}

/// Both `freegeo` entries of every ambulance (FREEPOS and the ambulance item), read
/// back from the index around (30.67, 74.33).
async fn free_index_entries(f: &Fleet) -> Vec<FreeGeoEntry> {
    let cell = h3o::LatLng::new(30.67, 74.33)
        .unwrap()
        .to_cell(h3o::Resolution::Two);
    let mut found = vec![];
    for shard in 0..keys::FREE_SHARDS {
        let mut range = cell_range(cell);
        range.partition = keys::free_geo_partition(cell, shard);
        found.extend(
            f.app
                .state
                .store
                .positions()
                .free_geo_range(&range)
                .await
                .unwrap(),
        );
    }
    found
}

async fn free_index_ids(f: &Fleet) -> Vec<(Id, String)> {
    let mut found: Vec<_> = free_index_entries(f)
        .await
        .into_iter()
        .map(|e| (e.id, e.sk))
        .collect();
    found.sort();
    found
}

#[tokio::test]
async fn a_free_ambulances_index_entry_follows_its_reports_at_most_every_30_s() {
    let f = Fleet::new(1).await;
    let amb = id_of(&f.ambulances[0]);
    let crew = f.app.crew("mover", amb).await;
    let free_point = async || {
        let entries = free_index_entries(&f).await;
        let e = entries
            .iter()
            .find(|e| e.id == amb && e.sk == "FREEPOS")
            .expect("a FREEPOS entry while AVAILABLE");
        (e.latitude, e.longitude, e.recorded_at)
    };
    let first = at(-60.0);
    let body = json!({"latitude": 30.70, "longitude": 74.40, "recordedAt": first});
    assert_eq!(report(&f, &crew, body).await.0, StatusCode::NO_CONTENT);
    assert_eq!(
        free_point().await,
        (Some(30.70), Some(74.40), Timestamp::parse(&first)),
        "the first report moves the entry"
    );
    // 10 s later: the position is stored, the index entry stays where it was moved
    // less than 30 s ago (no index write per report).
    f.app.state.store.advance_clock(Duration::seconds(10));
    let body = json!({"latitude": 30.702, "longitude": 74.402, "recordedAt": at(-50.0)});
    assert_eq!(report(&f, &crew, body).await.0, StatusCode::NO_CONTENT);
    assert_eq!(
        me(&f, &crew).await["ambulance"]["position"]["latitude"],
        json!(30.702)
    );
    assert_eq!(
        free_point().await,
        (Some(30.70), Some(74.40), Timestamp::parse(&first)),
        "moved at most once per 30 s"
    );
}

#[tokio::test]
async fn free_entries_exist_exactly_for_available_ambulances_after_any_moves() {
    let f = Fleet::new(4).await;
    let mut rng = StdRng::seed_from_u64(13);
    let mut fleet = f.ambulances.clone();
    let mut crews: Vec<TestUser> = vec![];
    for (i, a) in fleet.iter().enumerate() {
        crews.push(f.app.crew(&format!("inv{i}"), id_of(a)).await);
    }
    let user = f.app.user("invuser").await;
    let mut added = 0;
    for step in 0..70 {
        let i = rng.random_range(0..fleet.len());
        let (amb, crew) = (fleet[i].clone(), crews[i].clone());
        let held = f
            .app
            .state
            .store
            .fleet()
            .ambulance_holder(id_of(&amb))
            .await
            .unwrap();
        match rng.random_range(0..8) {
            0 => {
                let status = ["AVAILABLE", "ON_DUTY", "MAINTENANCE"][rng.random_range(0..3)];
                f.app
                    .patch(
                        &format!(
                            "/api/admin/ambulance/status?ambulanceId={}&status={status}",
                            amb["id"]
                        ),
                        f.admin_token(),
                    )
                    .await;
            }
            1 => {
                let status = ["AVAILABLE", "MAINTENANCE"][rng.random_range(0..2)];
                f.app
                    .call(
                        Method::PATCH,
                        "/api/crew/status",
                        Some(&crew.token),
                        Some(json!({"status": status})),
                    )
                    .await;
            }
            2 | 3 => {
                f.book(&user, &amb, None).await;
            }
            4 if held.is_some() => {
                let steps = crew_steps_to_completion();
                let stage = &steps[rng.random_range(0..steps.len())];
                f.app
                    .crew_step(
                        Some(&crew.token),
                        json!({"bookingId": held, "stage": stage}),
                    )
                    .await;
            }
            5 if held.is_some() => {
                let status = ["ACTIVE", "COMPLETED", "CANCELLED"][rng.random_range(0..3)];
                f.app
                    .patch(
                        &format!(
                            "/api/admin/bookings/status?bookingId={}&status={status}",
                            held.unwrap()
                        ),
                        f.admin_token(),
                    )
                    .await;
            }
            6 => {
                let body = json!({"latitude": 30.6 + rng.random::<f64>() / 10.0, "longitude": 74.3,
                                  "recordedAt": at(f64::from(step) - 100.0)});
                f.app
                    .put("/api/crew/location", Some(&crew.token), body)
                    .await;
            }
            _ => {
                // Remove (after moving its crew away) and add one.
                let res = f.remove_crew(crew.id).await;
                assert_eq!(res.status, StatusCode::NO_CONTENT);
                let res = f.remove_ambulance(&amb).await;
                added += 1;
                let new = f
                    .add_ambulance(
                        &format!("NEW-{added}"),
                        if rng.random_bool(0.5) {
                            "AVAILABLE"
                        } else {
                            "MAINTENANCE"
                        },
                    )
                    .await;
                let new_crew = f.app.crew(&format!("new{added}"), id_of(&new)).await;
                if res.status == StatusCode::NO_CONTENT {
                    fleet[i] = new;
                    crews[i] = new_crew;
                } else {
                    // Held: it stays, with a fresh crew; the new one joins the fleet.
                    let again = f.app.crew(&format!("back{added}"), id_of(&amb)).await;
                    crews[i] = again;
                    fleet.push(new);
                    crews.push(new_crew);
                }
            }
        }
        // After every step: FREEPOS exists exactly for the AVAILABLE ones, and the
        // index holds exactly their two entries.
        let all = f
            .app
            .get("/api/admin/ambulances/all", f.admin_token())
            .await
            .body;
        let mut want = vec![];
        for a in all.as_array().unwrap() {
            let free = a["status"] == "AVAILABLE";
            assert_eq!(
                f.app
                    .state
                    .store
                    .positions()
                    .has_free_entry(id_of(a))
                    .await
                    .unwrap(),
                free,
                "step {step}: {a}"
            );
            if free {
                want.push((id_of(a), "AMBULANCE".to_owned()));
                want.push((id_of(a), "FREEPOS".to_owned()));
            }
        }
        want.sort();
        assert_eq!(free_index_ids(&f).await, want, "step {step}");
    }
}

#[tokio::test]
async fn an_impossible_jump_is_refused_and_shown_to_the_dispatcher_until_a_new_track_holds() {
    let f = Fleet::new(1).await;
    let amb = id_of(&f.ambulances[0]);
    let crew = f.app.crew("jumper", amb).await;
    let store = &f.app.state.store;
    let send = async |Point { lat, lng }: Point| {
        store.advance_clock(Duration::seconds(5));
        let body =
            json!({"latitude": lat, "longitude": lng, "recordedAt": format_rfc3339(store.now())});
        f.app
            .put("/api/crew/location", Some(&crew.token), body)
            .await
    };
    let live = async || {
        let res = f
            .app
            .get("/api/admin/live?bbox=29.5,73.5,32.5,75.5", f.admin_token())
            .await;
        res.assert_status(StatusCode::OK);
        let ambulances = res.body["ambulances"].as_array().unwrap().clone();
        ambulances
            .into_iter()
            .find(|a| a["id"] == json!(amb.get()))
            .expect("the ambulance is on the map")
    };
    send(Point::new(30.70, 74.40))
        .await
        .assert_status(StatusCode::NO_CONTENT);
    assert_eq!(live().await["positionDoubt"], Value::Null);

    // 111 km (and the North Pole) 5 s later: refused, the position stays, the
    // dispatcher sees the latest refused report and its speed.
    for (lat, lng) in [(31.70, 74.40), (90.0, 180.0)] {
        let res = send(Point::new(lat, lng)).await;
        res.assert_status(StatusCode::CONFLICT);
        assert!(res.message().contains("km/h"), "{}", res.message());
    }
    assert_eq!(
        me(&f, &crew).await["ambulance"]["position"]["latitude"],
        30.70
    );
    let doubt = live().await["positionDoubt"].clone();
    assert_eq!(
        (doubt["latitude"].clone(), doubt["longitude"].clone()),
        (json!(90.0), json!(180.0))
    );
    assert!(doubt["speedKmh"].as_f64().unwrap() > 250.0, "{doubt}");
    // The free-ambulance index did not follow it either: an emergency near the
    // real position still finds it 0 km away, not at the pole.
    let entry = free_index_entries(&f)
        .await
        .into_iter()
        .find(|e| e.id == amb && e.sk == "FREEPOS")
        .unwrap();
    assert_eq!(
        (entry.latitude, entry.longitude),
        (Some(30.70), Some(74.40))
    );

    // The phone really is 111 km away (a bad first fix, or another ambulance's
    // phone): reports that agree with each other for 20 s become the new track.
    let mut statuses = vec![];
    for i in 0..6 {
        statuses.push(
            send(Point::new(31.70 + f64::from(i) * 0.0001, 74.40))
                .await
                .status,
        );
    }
    assert_eq!(
        statuses,
        [409, 409, 409, 409, 204, 204].map(|s| StatusCode::from_u16(s).unwrap())
    );
    assert_eq!(
        me(&f, &crew).await["ambulance"]["position"]["latitude"],
        json!(31.7005)
    );
    assert_eq!(live().await["positionDoubt"], Value::Null);

    // A phone that has not moved sends the same fix, with its time, again and again:
    // 20 s of it by the server's clock are a new track too.
    let still =
        json!({"latitude": 30.70, "longitude": 74.40, "recordedAt": format_rfc3339(store.now())});
    let mut statuses = vec![];
    for _ in 0..6 {
        store.advance_clock(Duration::seconds(5));
        let res = f
            .app
            .put("/api/crew/location", Some(&crew.token), still.clone())
            .await;
        statuses.push(res.status);
    }
    assert_eq!(
        statuses,
        [409, 409, 409, 409, 204, 204].map(|s| StatusCode::from_u16(s).unwrap())
    );
    assert_eq!(
        me(&f, &crew).await["ambulance"]["position"]["latitude"],
        30.70
    );
}

#[tokio::test]
async fn the_live_map_finds_an_ambulance_where_it_is_far_from_its_hospital() {
    let f = Fleet::new(2).await;
    let (far, near) = (id_of(&f.ambulances[0]), id_of(&f.ambulances[1]));
    let crew = f.app.crew("faraway", far).await;
    // Its first reports (nothing to compare with): 111 km north of its hospital,
    // doubted until 3 agreeing ones over 20 s confirm it (decision 0020).
    assert_eq!(
        crate::helpers::report_until_taken(&f.app, &crew, Point::new(31.67, 74.33)).await,
        4
    );
    let live = f
        .app
        .get("/api/admin/live?bbox=31.6,74.2,31.8,74.5", f.admin_token())
        .await;
    live.assert_status(StatusCode::OK);
    let ids: Vec<Value> = live.body["ambulances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].clone())
        .collect();
    assert_eq!(ids, [json!(far.get())], "{}", live.body);
    assert_eq!(live.body["ambulances"][0]["position"]["latitude"], 31.67);
    // Around the hospital: the other one, and not the far one twice or at home.
    let home = f
        .app
        .get("/api/admin/live?bbox=30.5,74.2,30.8,74.5", f.admin_token())
        .await;
    let ids: Vec<Value> = home.body["ambulances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].clone())
        .collect();
    assert_eq!(ids, [json!(near.get())], "{}", home.body);
    // A box holding both: each once.
    let both = f
        .app
        .get("/api/admin/live?bbox=30.5,74.2,31.8,74.5", f.admin_token())
        .await;
    assert_eq!(
        both.body["ambulances"].as_array().unwrap().len(),
        2,
        "{}",
        both.body
    );
}

/// A new track taken less than 30 s after the free entry last moved moves it at once:
/// otherwise, until the parked phone's next report (up to 100 s), an emergency near
/// where the ambulance is would not find it, and one near where it was would (seen in
/// CI: the deadline's reassign found nobody while the ambulance stood at the pickup).
#[tokio::test]
async fn a_new_track_moves_the_free_entry_at_once() {
    let f = Fleet::new(1).await;
    let amb = id_of(&f.ambulances[0]);
    let crew = f.app.crew("relocated", amb).await;
    let store = &f.app.state.store;
    let send = async |lat: f64| {
        store.advance_clock(Duration::seconds(4));
        let body =
            json!({"latitude": lat, "longitude": 74.40, "recordedAt": format_rfc3339(store.now())});
        f.app
            .put("/api/crew/location", Some(&crew.token), body)
            .await
            .status
    };
    let entry = async || {
        let e = free_index_entries(&f)
            .await
            .into_iter()
            .find(|e| e.id == amb && e.sk == "FREEPOS")
            .unwrap();
        (e.latitude, e.longitude)
    };
    assert_eq!(send(30.70).await, StatusCode::NO_CONTENT);
    assert_eq!(entry().await, (Some(30.70), Some(74.40)));
    let moved = store.now();

    // 111 km north, every 4 s: refused until the reports have agreed for 20 s.
    let mut statuses = vec![];
    for i in 0..6 {
        statuses.push(send(31.70 + f64::from(i) * 0.0001).await);
    }
    assert_eq!(
        statuses,
        [409, 409, 409, 409, 409, 204].map(|s| StatusCode::from_u16(s).unwrap())
    );
    assert!(store.now() - moved < Duration::seconds(30));
    assert_eq!(entry().await, (Some(31.7005), Some(74.40)));
}
