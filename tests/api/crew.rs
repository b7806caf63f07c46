//! Crew accounts: made, listed, moved and removed by admins; bound to one
//! ambulance, which cannot go while it has crew; a crew token reaches no user-only
//! or admin route.

use domain::geo::Point;
use domain::types::Id;
use http::{Method, StatusCode};
use serde_json::{Value, json};
use testkit::{TEST_PASSWORD, TestApp, TestResponse, TestUser};

pub fn id_of(v: &Value) -> Id {
    Id::try_from(v["id"].as_u64().unwrap()).unwrap()
}

pub struct Fleet {
    pub app: TestApp,
    pub admin: TestUser,
    pub hospital: Value,
    pub ambulances: Vec<Value>,
}

impl Fleet {
    /// A hospital at (30.67, 74.33) with `n` AVAILABLE ambulances `C-0`, `C-1`...
    pub async fn new(n: usize) -> Fleet {
        let app = TestApp::new(api_tests::system).await;
        let admin = app.admin().await;
        let hospital = app
            .add_hospital(
                Some(&admin.token),
                json!({"name":"General","address":"1 Main St","latitude":30.67,"longitude":74.33,"contactInfo":"+911234567"}),
            )
            .await
            .body;
        let mut fleet = Fleet {
            app,
            admin,
            hospital,
            ambulances: vec![],
        };
        for i in 0..n {
            let amb = fleet.add_ambulance(&format!("C-{i}"), "AVAILABLE").await;
            fleet.ambulances.push(amb);
        }
        fleet
    }

    pub fn admin_token(&self) -> Option<&str> {
        Some(&self.admin.token)
    }

    pub async fn add_ambulance(&self, number: &str, status: &str) -> Value {
        let res = self
            .app
            .add_ambulance(
                self.admin_token(),
                json!({"number": number, "status": status, "hospital": {"id": self.hospital["id"]},
                       "driverInfo": "R. Kumar", "type": "ALS", "contactInfo": "+919999999"}),
            )
            .await;
        res.assert_status(StatusCode::CREATED);
        res.body
    }

    pub async fn create_crew(&self, username: &str, ambulance: &Value) -> (StatusCode, Value) {
        let res = self
            .app
            .post(
                "/api/admin/crew",
                self.admin_token(),
                json!({"username": username, "email": format!("{username}@example.com"),
                       "password": TEST_PASSWORD, "phoneNumber": "+91 98000 11111",
                       "ambulanceId": ambulance["id"]}),
            )
            .await;
        (res.status, res.body)
    }

    /// Binds crew `crew` (an id) to `ambulance` (a JSON id).
    pub async fn move_crew(&self, crew: impl std::fmt::Display, ambulance: &Value) -> TestResponse {
        self.app
            .call(
                Method::PATCH,
                &format!("/api/admin/crew/{crew}"),
                self.admin_token(),
                Some(json!({ "ambulanceId": ambulance })),
            )
            .await
    }

    pub async fn remove_ambulance(&self, ambulance: &Value) -> TestResponse {
        self.app
            .delete(
                &format!(
                    "/api/admin/ambulances/remove?ambulanceId={}",
                    ambulance["id"]
                ),
                self.admin_token(),
            )
            .await
    }

    pub async fn remove_crew(&self, crew: impl std::fmt::Display) -> TestResponse {
        self.app
            .delete(&format!("/api/admin/crew/{crew}"), self.admin_token())
            .await
    }

    /// `user` books `ambulance` of the fleet's hospital, picked up at `pickup` (none:
    /// the user's stored location).
    pub async fn book(
        &self,
        user: &TestUser,
        ambulance: &Value,
        pickup: Option<Point>,
    ) -> TestResponse {
        let mut body = json!({"hospitalId": self.hospital["id"], "ambulanceId": ambulance["id"],
            "patient": {"name": "P", "age": 30, "gender": "Male", "condition": "Fall"}});
        if let Some(Point { lat, lng }) = pickup {
            body["pickup"] = json!({"latitude": lat, "longitude": lng});
        }
        self.app.book(Some(&user.token), body).await
    }

    pub async fn crew_list(&self, query: &str) -> Value {
        let res = self
            .app
            .get(&format!("/api/admin/crew{query}"), self.admin_token())
            .await;
        res.assert_status(StatusCode::OK);
        res.body
    }
}

fn usernames(page: &Value) -> Vec<String> {
    page["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["username"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn admins_make_list_move_and_remove_crew() {
    let f = Fleet::new(2).await;
    let (a0, a1) = (&f.ambulances[0], &f.ambulances[1]);
    let (status, made) = f.create_crew("Driver_Two", a0).await;
    assert_eq!(status, StatusCode::CREATED, "{made:?}");
    assert_eq!(made["role"], "CREW");
    assert_eq!(made["ambulanceId"], a0["id"]);
    assert_eq!(made["phone"], "+919800011111");
    assert!(made["createdAt"].as_str().unwrap().ends_with('Z'));
    let keys: Vec<&String> = made.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "ambulanceId",
            "createdAt",
            "email",
            "id",
            "phone",
            "role",
            "username"
        ]
    );
    let (status, _) = f.create_crew("driver_one", a0).await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, _) = f.create_crew("medic", a1).await;
    assert_eq!(status, StatusCode::CREATED);

    // By name, with the total from the counter; per ambulance.
    let page = f.crew_list("?size=2").await;
    assert_eq!(usernames(&page), ["driver_one", "Driver_Two"]);
    assert_eq!(
        (page["totalElements"].clone(), page["totalPages"].clone()),
        (json!(3), json!(2))
    );
    assert_eq!(usernames(&f.crew_list("?page=1&size=2").await), ["medic"]);
    let of_a0 = f.crew_list(&format!("?ambulanceId={}", a0["id"])).await;
    let mut names = usernames(&of_a0);
    names.sort();
    assert_eq!(names, ["Driver_Two", "driver_one"]);
    assert_eq!(of_a0["totalElements"], 2);

    // A crew signs in with its password and lands with role CREW.
    let login = f
        .app
        .login(json!({"username": "medic", "password": TEST_PASSWORD}))
        .await;
    login.assert_status(StatusCode::OK);
    assert_eq!(login.body["role"], "CREW");

    // Move: both ambulances' lists follow.
    let res = f.move_crew(&made["id"], &a1["id"]).await;
    res.assert_status(StatusCode::OK);
    assert_eq!(res.body["ambulanceId"], a1["id"]);
    assert_eq!(
        usernames(&f.crew_list(&format!("?ambulanceId={}", a0["id"])).await),
        ["driver_one"]
    );
    assert_eq!(
        f.crew_list(&format!("?ambulanceId={}", a1["id"])).await["totalElements"],
        2
    );
    // To an unknown ambulance: 404, nothing moved.
    let res = f.move_crew(&made["id"], &json!(999_999)).await;
    res.assert_status(StatusCode::NOT_FOUND);
    assert_eq!(
        f.crew_list(&format!("?ambulanceId={}", a1["id"])).await["totalElements"],
        2
    );

    // Remove: gone from the lists, the name is free again, the token stops.
    let res = f.remove_crew(&made["id"]).await;
    res.assert_status(StatusCode::NO_CONTENT);
    assert_eq!(f.crew_list("").await["totalElements"], 2);
    let again = f.remove_crew(&made["id"]).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    let (status, _) = f.create_crew("driver_two", a0).await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "the name and email are free again"
    );
}

#[tokio::test]
async fn bad_crew_requests_name_the_field_and_write_nothing() {
    let f = Fleet::new(1).await;
    let amb = &f.ambulances[0];
    let good = json!({"username": "crewx", "email": "crewx@example.com", "password": TEST_PASSWORD,
                      "phoneNumber": "+919800011111", "ambulanceId": amb["id"]});
    type Patch = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(Patch, &str)> = vec![
        (Box::new(|v| v["username"] = json!("x")), "username"),
        (Box::new(|v| v["email"] = json!("nope")), "email"),
        (Box::new(|v| v["password"] = json!("short")), "password"),
        (Box::new(|v| v["phoneNumber"] = json!("12")), "phoneNumber"),
        (Box::new(|v| v["ambulanceId"] = json!(0)), "ambulanceId"),
        (
            Box::new(|v| {
                v.as_object_mut().unwrap().remove("ambulanceId");
            }),
            "ambulanceId",
        ),
        (Box::new(|v| v["role"] = json!("ADMIN")), "role"),
    ];
    for (patch, field) in cases {
        let mut body = good.clone();
        patch(&mut body);
        let res = f
            .app
            .post("/api/admin/crew", f.admin_token(), body.clone())
            .await;
        res.assert_field(StatusCode::BAD_REQUEST, field);
    }
    let mut unknown = good.clone();
    unknown["ambulanceId"] = json!(999_999);
    let res = f
        .app
        .post("/api/admin/crew", f.admin_token(), unknown)
        .await;
    res.assert_status(StatusCode::NOT_FOUND);
    // A name or email any user holds is taken for a crew too, and the other way round.
    let user = f.app.user("taken").await;
    for (field, value, message) in [
        ("username", "TAKEN", "Username is already taken"),
        ("email", "taken@example.com", "Email is already registered"),
    ] {
        let mut same = good.clone();
        same[field] = json!(value);
        let res = f.app.post("/api/admin/crew", f.admin_token(), same).await;
        res.assert_message(StatusCode::CONFLICT, message);
    }
    assert_eq!(
        f.crew_list("").await["totalElements"],
        0,
        "nothing was written"
    );
    // No route makes a crew but this one: register ignores a role.
    let res = f
        .app
        .post(
            "/api/auth/register",
            None,
            json!({"username": "sneaky", "email": "sneaky@example.com", "password": TEST_PASSWORD,
                   "phone": "+919800011111", "latitude": 30.0, "longitude": 74.0, "role": "CREW"}),
        )
        .await;
    assert_eq!(res.status, StatusCode::CREATED);
    assert_eq!(res.body["role"], "USER");
    for (m, uri, body) in [
        (
            Method::PATCH,
            "/api/admin/crew/1",
            Some(json!({"ambulanceId": 0})),
        ),
        (
            Method::PATCH,
            "/api/admin/crew/0",
            Some(json!({"ambulanceId": 1})),
        ),
        (Method::DELETE, "/api/admin/crew/abc", None),
        (Method::GET, "/api/admin/crew?size=101", None),
        (Method::GET, "/api/admin/crew?ambulanceId=x", None),
    ] {
        let res = f.app.call(m.clone(), uri, f.admin_token(), body).await;
        assert_eq!(
            res.status,
            StatusCode::BAD_REQUEST,
            "{m} {uri}: {:?}",
            res.body
        );
        assert!(res.field().is_some(), "{m} {uri}: {:?}", res.body);
    }
    // Only crew accounts move or go through these routes.
    let res = f.remove_crew(user.id).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_ambulance_or_hospital_with_crew_is_not_removed() {
    let f = Fleet::new(2).await;
    let (a0, a1) = (&f.ambulances[0], &f.ambulances[1]);
    for name in ["crew_a", "crew_b"] {
        assert_eq!(f.create_crew(name, a0).await.0, StatusCode::CREATED);
    }
    let res = f.remove_ambulance(a0).await;
    assert_eq!(res.status, StatusCode::CONFLICT);
    assert!(
        res.message().contains("2 crew accounts"),
        "{}",
        res.message()
    );
    let res = f
        .app
        .remove_hospital(f.admin_token(), &f.hospital["id"])
        .await;
    assert_eq!(res.status, StatusCode::CONFLICT);
    assert!(res.message().contains("C-0"), "{}", res.message());
    // The other ambulance goes; after moving its crew away, so does this one.
    let res = f.remove_ambulance(a1).await;
    res.assert_status(StatusCode::NO_CONTENT);
    let spare = f.add_ambulance("SPARE", "MAINTENANCE").await;
    for c in f.crew_list("").await["content"].as_array().unwrap() {
        let res = f.move_crew(&c["id"], &spare["id"]).await;
        assert_eq!(res.status, StatusCode::OK);
    }
    let res = f.remove_ambulance(a0).await;
    res.assert_status(StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn a_crew_bound_while_its_ambulance_is_removed_never_dangles() {
    // Many rounds of: bind a crew to an ambulance || remove that ambulance. Either
    // the crew exists on an existing ambulance, or the ambulance is gone and the crew
    // was refused (404): never a crew bound to a removed ambulance.
    let f = Fleet::new(0).await;
    for round in 0..12 {
        let amb = f.add_ambulance(&format!("R-{round}"), "AVAILABLE").await;
        let remove = f.remove_ambulance(&amb);
        let name = format!("racer{round}");
        let bind = f.create_crew(&name, &amb);
        let (removed, (made, _)) = tokio::join!(remove, bind);
        match (removed.status, made) {
            (StatusCode::NO_CONTENT, StatusCode::NOT_FOUND)
            | (StatusCode::CONFLICT, StatusCode::CREATED) => {}
            other => panic!("round {round}: {other:?} {:?}", removed.body),
        }
    }
    // Every listed crew's ambulance exists.
    let crew = f.crew_list("?size=100").await;
    let ambulances = f
        .app
        .get("/api/admin/ambulances/all", f.admin_token())
        .await
        .body;
    for c in crew["content"].as_array().unwrap() {
        assert!(
            ambulances
                .as_array()
                .unwrap()
                .iter()
                .any(|a| a["id"] == c["ambulanceId"]),
            "{c}"
        );
    }
}

#[tokio::test]
async fn a_crew_token_reaches_no_user_only_or_admin_route() {
    let f = Fleet::new(1).await;
    let crew = f.app.crew("crewman", id_of(&f.ambulances[0])).await;
    let user = f.app.user("someone").await;
    let t = Some(crew.token.as_str());
    for (m, uri) in [
        (Method::GET, "/api/booking/history".to_owned()),
        (Method::GET, "/api/booking/1".to_owned()),
        (Method::PATCH, "/api/booking/cancel?bookingId=1".to_owned()),
        (Method::GET, "/api/admin/stats".to_owned()),
        (Method::GET, "/api/admin/crew".to_owned()),
        (Method::GET, "/api/admin/ambulances/all".to_owned()),
        (Method::GET, format!("/api/user/profile?userId={}", user.id)),
    ] {
        let res = f.app.call(m.clone(), &uri, t, None).await;
        assert_eq!(
            res.status,
            StatusCode::FORBIDDEN,
            "{m} {uri}: {:?}",
            res.body
        );
    }
    let book = json!({"hospitalId": f.hospital["id"], "ambulanceId": f.ambulances[0]["id"],
                      "patient": {"name":"P","age":40,"gender":"Male","condition":"c"}});
    let res = f.app.book(t, book).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    // Its own profile it may read (no location: it has none).
    let me = f.app.get("/api/user/profile", t).await;
    me.assert_status(StatusCode::OK);
    assert_eq!(
        (me.body["role"].clone(), me.body["latitude"].clone()),
        (json!("CREW"), Value::Null)
    );
    let res = f
        .app
        .edit_profile(
            t,
            json!({"email": "crewman@example.com", "latitude": 1.0, "longitude": 2.0}),
        )
        .await;
    res.assert_status(StatusCode::OK);
    assert_eq!(res.body["latitude"], Value::Null, "a crew has no location");
    // Public reads are public.
    let res = f.app.get("/api/ambulances/available/all", t).await;
    assert_eq!(res.status, StatusCode::OK);
}
