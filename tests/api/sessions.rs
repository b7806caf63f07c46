//! Sessions that end when they should (decision 0008): 5-minute access tokens renewed by
//! a rotating refresh token stored only as a hash; sign-out, a new password, a
//! removed user and a reused refresh token end them; signed-in routes confirm every
//! token against the stored user (its role, its session), public reads do not.

use domain::geo::Point;
use domain::{ambulance::AmbulanceStatus, types::epoch_seconds, user::Role};
use http::StatusCode;
use serde_json::{Value, json};
use store::{Write, keys};
use testkit::{TEST_PASSWORD, TEST_SECRET, TestApp, TestResponse};

async fn sign_in(app: &TestApp, username: &str, password: &str) -> TestResponse {
    let res = app
        .login(json!({"username": username, "password": password}))
        .await;
    res.assert_status(StatusCode::OK);
    res
}

async fn refresh(app: &TestApp, token: &Value) -> TestResponse {
    app.post("/api/auth/refresh", None, json!({ "refreshToken": token }))
        .await
}

/// The new password both password tests set.
const NEW_PASSWORD: &str = "a-new-password";

/// `username` sets [`NEW_PASSWORD`] (with the current one) from the session of
/// `token`.
async fn change_password(app: &TestApp, username: &str, token: &Value) {
    let email = format!("{username}@example.com");
    let body = json!({"email": email, "password": NEW_PASSWORD, "currentPassword": TEST_PASSWORD});
    app.edit_profile(token.as_str(), body)
        .await
        .assert_status(StatusCode::OK);
}

async fn profile(app: &TestApp, token: &Value) -> StatusCode {
    app.get("/api/user/profile", token.as_str()).await.status
}

#[tokio::test]
async fn a_session_is_a_short_access_token_and_a_rotating_refresh_token() {
    let app = TestApp::new(api_tests::system).await;
    app.user("rotor").await;
    let first = sign_in(&app, "rotor", TEST_PASSWORD).await.body;
    for field in ["token", "refreshToken", "expiresAt", "user", "role", "id"] {
        assert!(!first[field].is_null(), "{field} in {first}");
    }
    let expires = time::OffsetDateTime::parse(
        first["expiresAt"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap()
    .unix_timestamp();
    assert!(
        (295..=300).contains(&(expires - epoch_seconds())),
        "5 minutes"
    );
    // 128 random bits at least, and never stored as such.
    let refresh_token = first["refreshToken"].as_str().unwrap();
    assert!(refresh_token.len() >= 64, "{refresh_token}");

    // A refresh answers the same shape with a new refresh token; the old one is used up.
    let second = refresh(&app, &first["refreshToken"]).await;
    second.assert_status(StatusCode::OK);
    assert_eq!(second.body["user"]["username"], "rotor");
    assert_ne!(second.body["refreshToken"], first["refreshToken"]);
    assert_eq!(profile(&app, &second.body["token"]).await, StatusCode::OK);
    let third = refresh(&app, &second.body["refreshToken"]).await;
    assert_eq!(third.status, StatusCode::OK);

    // Someone replays a rotated token: refused, and the whole session ends, so the
    // newest token (maybe the thief's, maybe the owner's) stops working too.
    let replay = refresh(&app, &first["refreshToken"]).await;
    assert_eq!(replay.status, StatusCode::UNAUTHORIZED);
    let after = refresh(&app, &third.body["refreshToken"]).await;
    assert_eq!(
        after.status,
        StatusCode::UNAUTHORIZED,
        "the session is revoked"
    );
    // Another session of the same user is not affected.
    let other = sign_in(&app, "rotor", TEST_PASSWORD).await.body;
    assert_eq!(
        refresh(&app, &other["refreshToken"]).await.status,
        StatusCode::OK
    );

    // Forged, malformed and missing tokens.
    let forged = format!("{}.{}", &refresh_token[..32], "0".repeat(64));
    for bad in [
        json!(forged),
        json!("nope"),
        json!(""),
        json!(null),
        json!(7),
    ] {
        let res = refresh(&app, &bad).await;
        assert!(
            matches!(res.status.as_u16(), 400 | 401),
            "{bad}: {:?}",
            res.body
        );
        if res.status == StatusCode::BAD_REQUEST {
            assert_eq!(res.field(), Some("refreshToken"));
        }
    }
}

#[tokio::test]
async fn signing_out_ends_the_session() {
    let app = TestApp::new(api_tests::system).await;
    app.user("leaver").await;
    let session = sign_in(&app, "leaver", TEST_PASSWORD).await.body;
    let res = app
        .post(
            "/api/auth/logout",
            None,
            json!({ "refreshToken": session["refreshToken"] }),
        )
        .await;
    res.assert_status(StatusCode::NO_CONTENT);
    assert_eq!(
        refresh(&app, &session["refreshToken"]).await.status,
        StatusCode::UNAUTHORIZED
    );
    // Whatever the token, sign-out answers the same; a body without one is a 400.
    for token in [json!("garbage"), session["refreshToken"].clone()] {
        let res = app
            .post("/api/auth/logout", None, json!({ "refreshToken": token }))
            .await;
        assert_eq!(res.status, StatusCode::NO_CONTENT);
    }
    let res = app.post("/api/auth/logout", None, json!({})).await;
    res.assert_field(StatusCode::BAD_REQUEST, "refreshToken");
}

#[tokio::test]
async fn a_new_password_ends_every_session_and_token() {
    let app = TestApp::new(api_tests::system).await;
    app.user("changer").await;
    let phone = sign_in(&app, "changer", TEST_PASSWORD).await.body;
    let laptop = sign_in(&app, "changer", TEST_PASSWORD).await.body;
    change_password(&app, "changer", &laptop["token"]).await;
    // Every earlier access token stops at once (signed-in routes check the session
    // version), every refresh token at its next use.
    for session in [&phone, &laptop] {
        assert_eq!(
            profile(&app, &session["token"]).await,
            StatusCode::UNAUTHORIZED
        );
        assert_eq!(
            refresh(&app, &session["refreshToken"]).await.status,
            StatusCode::UNAUTHORIZED
        );
    }
    let fresh = sign_in(&app, "changer", NEW_PASSWORD).await.body;
    assert_eq!(profile(&app, &fresh["token"]).await, StatusCode::OK);
    assert_eq!(
        refresh(&app, &fresh["refreshToken"]).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn removed_users_and_demoted_admins_lose_access_at_once() {
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    let session = sign_in(&app, "admin", TEST_PASSWORD).await.body;
    app.user("ghost").await;
    let ghost = sign_in(&app, "ghost", TEST_PASSWORD).await.body;
    assert_eq!(
        app.get("/api/admin/stats", Some(&admin.token)).await.status,
        StatusCode::OK
    );

    // The admin is demoted in the store: the token still says ADMIN.
    let demote = Write::update(keys::user(admin.id), "SET #role = :user")
        .name("#role", "role")
        .value(":user", Role::User);
    app.state
        .store
        .update_returning::<serde::de::IgnoredAny>(demote)
        .await
        .unwrap();
    for token in [admin.token.as_str(), session["token"].as_str().unwrap()] {
        let res = app.get("/api/admin/stats", Some(token)).await;
        res.assert_status(StatusCode::FORBIDDEN);
    }
    // A refresh issues what the store says now.
    let renewed = refresh(&app, &session["refreshToken"]).await;
    assert_eq!(renewed.body["role"], "USER");

    // The user is removed: their tokens are refused on signed-in routes.
    let ghost_id: u64 = ghost["id"].as_u64().unwrap();
    app.state
        .store
        .delete_if(Write::delete(keys::user(ghost_id.try_into().unwrap())))
        .await
        .unwrap();
    assert_eq!(
        profile(&app, &ghost["token"]).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.get("/api/booking/history", ghost["token"].as_str())
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        refresh(&app, &ghost["refreshToken"]).await.status,
        StatusCode::UNAUTHORIZED
    );
    // Public reads take the token on its own (no database read): still valid for
    // the rest of its 5 minutes.
    assert_eq!(
        app.get("/api/hospitals/all", ghost["token"].as_str())
            .await
            .status,
        StatusCode::OK
    );
}

/// Crew accounts (decision 0007) sign in, refresh and sign out like everyone; a
/// new password or the account's removal ends their tokens on the crew routes at
/// once.
#[tokio::test]
async fn crew_sessions_end_like_everyone_elses() {
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    let hospital = app.seed_hospital("General", Point::new(30.0, 74.0)).await;
    let amb = app
        .seed_ambulance(hospital.id, "C-1", AmbulanceStatus::Available)
        .await;
    let crew = app.crew("driver", amb.id).await;
    let me = |token: &Value| {
        let token = token.as_str().map(str::to_owned);
        let app = &app;
        async move { app.get("/api/crew/me", token.as_deref()).await.status }
    };
    let first = sign_in(&app, "driver", TEST_PASSWORD).await.body;
    assert_eq!(first["role"], "CREW");
    assert_eq!(me(&first["token"]).await, StatusCode::OK);
    let second = refresh(&app, &first["refreshToken"]).await.body;
    assert_eq!(me(&second["token"]).await, StatusCode::OK);

    // A new password (the crew's own profile, with the current one) ends both.
    change_password(&app, "driver", &second["token"]).await;
    for session in [&first, &second] {
        assert_eq!(me(&session["token"]).await, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(
        refresh(&app, &second["refreshToken"]).await.status,
        StatusCode::UNAUTHORIZED
    );

    // Removed by an admin: its fresh token and session end at once.
    let fresh = sign_in(&app, "driver", NEW_PASSWORD).await.body;
    assert_eq!(me(&fresh["token"]).await, StatusCode::OK);
    let res = app
        .delete(&format!("/api/admin/crew/{}", crew.id), Some(&admin.token))
        .await;
    res.assert_status(StatusCode::NO_CONTENT);
    assert_eq!(me(&fresh["token"]).await, StatusCode::UNAUTHORIZED);
    assert_eq!(
        refresh(&app, &fresh["refreshToken"]).await.status,
        StatusCode::UNAUTHORIZED
    );
}

/// Tokens signed with the right key but issued (`iat`) or valid (`nbf`) only in the
/// future are refused: a clock cannot be set forward to mint long-lived tokens.
#[tokio::test]
async fn tokens_from_the_future_are_refused() {
    let app = TestApp::new(api_tests::system).await;
    let me = app.user("timetraveller").await;
    let now = epoch_seconds();
    let sign = |iat: i64, nbf: i64| {
        let claims = web::auth::Claims {
            sub: me.id.to_string(),
            role: Role::User,
            iat,
            nbf,
            exp: now + 300,
            sv: 0,
            sid: None,
        };
        jsonwebtoken::encode(
            &jsonwebtoken::Header::default(),
            &claims,
            &jsonwebtoken::EncodingKey::from_secret(TEST_SECRET.as_bytes()),
        )
        .unwrap()
    };
    for (iat, nbf, expected) in [
        (now, now, StatusCode::OK),
        (now + 3600, now, StatusCode::UNAUTHORIZED),
        (now, now + 3600, StatusCode::UNAUTHORIZED),
        (now + 120, now + 120, StatusCode::UNAUTHORIZED),
    ] {
        let token = sign(iat, nbf);
        assert_eq!(
            app.get("/api/user/profile", Some(&token)).await.status,
            expected,
            "iat {}, nbf {}",
            iat - now,
            nbf - now
        );
        // Public reads check the token the same way.
        let public = app.get("/api/hospitals/all", Some(&token)).await.status;
        let public_expected = if expected == StatusCode::OK {
            StatusCode::OK
        } else {
            StatusCode::UNAUTHORIZED
        };
        assert_eq!(public, public_expected);
    }
}

async fn logout(app: &TestApp, refresh_token: &Value) {
    let body = json!({ "refreshToken": refresh_token });
    let res = app.post("/api/auth/logout", None, body).await;
    res.assert_status(StatusCode::NO_CONTENT);
}

/// Before: a signed-out session's access token answered the profile for the rest
/// of its 5 minutes. Now it is refused at once on every signed-in route, the
/// tokens it was refreshed into too; the user's other sessions go on.
#[tokio::test]
async fn signing_out_ends_the_sessions_access_tokens_at_once() {
    let app = TestApp::new(api_tests::system).await;
    app.user("quitter").await;
    let phone = sign_in(&app, "quitter", TEST_PASSWORD).await.body;
    let laptop = sign_in(&app, "quitter", TEST_PASSWORD).await.body;
    let renewed = refresh(&app, &phone["refreshToken"]).await.body;
    for token in [&phone["token"], &renewed["token"], &laptop["token"]] {
        assert_eq!(profile(&app, token).await, StatusCode::OK);
    }

    logout(&app, &renewed["refreshToken"]).await;
    for token in [&phone["token"], &renewed["token"]] {
        let res = app.get("/api/user/profile", token.as_str()).await;
        res.assert_message(
            StatusCode::UNAUTHORIZED,
            "This session has ended; please sign in again",
        );
        let history = app.get("/api/booking/history", token.as_str()).await;
        assert_eq!(history.status, StatusCode::UNAUTHORIZED);
    }
    // The laptop's session is another one.
    assert_eq!(profile(&app, &laptop["token"]).await, StatusCode::OK);
    let next = refresh(&app, &laptop["refreshToken"]).await;
    next.assert_status(StatusCode::OK);
    assert_eq!(profile(&app, &next.body["token"]).await, StatusCode::OK);
    // Signing out twice, or with a token of a session long gone, changes nothing.
    logout(&app, &renewed["refreshToken"]).await;
    assert_eq!(profile(&app, &next.body["token"]).await, StatusCode::OK);
}

/// Before: when a refresh token is used twice (someone kept a copy), its session
/// ends, but the access tokens already issued in it (the thief's among them) kept
/// working. Now every access token of that session is refused at once, whichever
/// of the two refreshed first; the user's other sessions go on.
#[tokio::test]
async fn a_reused_refresh_token_ends_every_access_token_of_its_session() {
    let app = TestApp::new(api_tests::system).await;
    app.user("victim").await;
    let elsewhere = sign_in(&app, "victim", TEST_PASSWORD).await.body;

    // The thief refreshes first with the copied token; the owner's refresh is the reuse.
    let owner = sign_in(&app, "victim", TEST_PASSWORD).await.body;
    let thief = refresh(&app, &owner["refreshToken"]).await;
    thief.assert_status(StatusCode::OK);
    assert_eq!(profile(&app, &thief.body["token"]).await, StatusCode::OK);
    let reuse = refresh(&app, &owner["refreshToken"]).await;
    assert_eq!(reuse.status, StatusCode::UNAUTHORIZED);
    for token in [&owner["token"], &thief.body["token"]] {
        assert_eq!(profile(&app, token).await, StatusCode::UNAUTHORIZED);
    }

    // The owner refreshes first; the thief replays the copy.
    let owner = sign_in(&app, "victim", TEST_PASSWORD).await.body;
    let renewed = refresh(&app, &owner["refreshToken"]).await.body;
    let replay = refresh(&app, &owner["refreshToken"]).await;
    assert_eq!(replay.status, StatusCode::UNAUTHORIZED);
    for token in [&owner["token"], &renewed["token"]] {
        assert_eq!(profile(&app, token).await, StatusCode::UNAUTHORIZED);
    }

    // The session signed in elsewhere is untouched.
    assert_eq!(profile(&app, &elsewhere["token"]).await, StatusCode::OK);
    let next = refresh(&app, &elsewhere["refreshToken"]).await;
    next.assert_status(StatusCode::OK);
    assert_eq!(profile(&app, &next.body["token"]).await, StatusCode::OK);
}

/// The session check costs no extra round trip: a signed-in request reads the
/// account with one GetItem, as before, and that one read also says whether the
/// token's session has ended. Counted with an SDK hook on the router's own client:
/// a user asking for someone else's profile gets 403 right after the extractor, so
/// the request's calls are exactly the extractor's.
#[tokio::test]
async fn the_session_check_is_the_one_read_of_the_account() {
    use aws_sdk_dynamodb::{operation::get_item::GetItemInput, types::AttributeValue};
    use std::sync::{Arc, Mutex};

    let calls: Arc<Mutex<Vec<String>>> = Arc::default();
    let mut state = testkit::fresh_state().await;
    let seen = calls.clone();
    state.store = testkit::hooks::Hooks::new("CountCalls")
        .on_input(move |context| {
            let input = context.input();
            let call = match input.downcast_ref::<GetItemInput>() {
                Some(get) => match get.key().and_then(|k| k.get("pk")) {
                    Some(AttributeValue::S(pk)) => format!("GetItem {pk}"),
                    other => format!("GetItem {other:?}"),
                },
                None => format!("{input:?}"),
            };
            seen.lock().unwrap().push(call);
            Ok(())
        })
        .on(&state.store);
    let app = TestApp::with_state(state, api_tests::system);
    let me = app.user("counted").await;
    let other = app.user("someone").await;
    let gone = sign_in(&app, "counted", TEST_PASSWORD).await.body;
    let live = sign_in(&app, "counted", TEST_PASSWORD).await.body;
    logout(&app, &gone["refreshToken"]).await;

    let uri = format!("/api/user/profile?userId={}", other.id);
    for (token, expected) in [
        (&live["token"], StatusCode::FORBIDDEN),
        (&gone["token"], StatusCode::UNAUTHORIZED),
    ] {
        calls.lock().unwrap().clear();
        let res = app.get(&uri, token.as_str()).await;
        res.assert_status(expected);
        assert_eq!(
            *calls.lock().unwrap(),
            [format!("GetItem USER#{}", me.id)],
            "one GetItem of the account, nothing else"
        );
    }
}

/// Devices signing out at the same moment race on the user item that keeps the
/// ended sessions: none of them is lost (each write is conditional on the list it
/// read), so every one of their access tokens is refused.
#[tokio::test]
async fn sessions_ended_at_the_same_moment_all_end() {
    let app = TestApp::new(api_tests::system).await;
    app.user("many").await;
    let mut sessions = vec![];
    for _ in 0..8 {
        sessions.push(sign_in(&app, "many", TEST_PASSWORD).await.body);
    }
    let kept = sign_in(&app, "many", TEST_PASSWORD).await.body;
    let nodes = app.instances(8, api_tests::system).await;
    let outs = futures::future::join_all(sessions.iter().zip(&nodes).map(|(s, node)| {
        node.post(
            "/api/auth/logout",
            None,
            json!({ "refreshToken": s["refreshToken"] }),
        )
    }))
    .await;
    for out in &outs {
        out.assert_status(StatusCode::NO_CONTENT);
    }
    for s in &sessions {
        assert_eq!(profile(&app, &s["token"]).await, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(profile(&app, &kept["token"]).await, StatusCode::OK);
}
