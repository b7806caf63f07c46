//! Operator commands against the table named by `TABLE_NAME` (in `AWS_REGION`, or
//! DynamoDB Local when `DYNAMODB_ENDPOINT` is set):
//!
//! ```text
//! manage create-tables                              create the table if absent
//! manage seed                                       local demo data, only where empty
//! manage create-admin --username NAME --email EMAIL create or promote an admin;
//!                                                   password from ADMIN_PASSWORD or stdin
//! manage build-hospital-index                       rebuild the nearest-search index from
//!                                                   every hospital (docs/decisions/0006)
//! manage repair-positions                           delete or rebuild the ambulance position
//!                                                   items that do not read (docs/reliability.md)
//! manage migrate                                   bring items written by older versions up to
//!                                                   what the code reads (docs/deploy.md,
//!                                                   "Migrations"); safe to run again
//! manage vapid-keys                                 print a new VAPID key pair as
//!                                                   VAPID_PUBLIC_KEY=… and VAPID_PRIVATE_KEY=…
//!                                                   lines (decision 0014); needs no table
//! ```

use std::process::ExitCode;

use domain::{
    geo::Point,
    types::{Email, Password, Phone, Username},
    user::{NewUser, Role},
};
use store::{Store, config::Config, schema};
use web::{
    ApiError,
    auth::{hash_password, new_account},
};

const USAGE: &str = "usage: manage create-tables | seed | create-admin --username NAME --email EMAIL | build-hospital-index | repair-positions | migrate | vapid-keys";

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("manage: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run(args: &[String]) -> Result<(), String> {
    let command = args.first().map(String::as_str).ok_or(USAGE)?;
    if command == "vapid-keys" {
        let (public, private) = store::config::generate_vapid_keys();
        println!("VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}");
        return Ok(());
    }
    // The CLI signs no tokens, so it needs no JWT secret.
    let config = Config::from_lookup(|k| match k {
        "JWT_SECRET" => Some("x".repeat(32)),
        _ => std::env::var(k).ok().filter(|v| !v.is_empty()),
    })
    .map_err(|e| e.to_string())?;
    let client = store::connect(&config).await;
    let store = Store::new(client.clone(), config.table_name.clone());
    match command {
        "create-tables" => {
            let created = schema::create_table(&client, &config.table_name)
                .await
                .map_err(fail)?;
            println!(
                "table {} {}",
                config.table_name,
                if created { "created" } else { "already exists" }
            );
            Ok(())
        }
        "seed" => {
            seed(&store).await.map_err(fail)?;
            // Local data seeded by older versions: brought up to date.
            let migrated = store.migrations().migrate().await.map_err(fail)?;
            if migrated != Default::default() {
                println!("{migrated:?}");
            }
            Ok(())
        }
        "create-admin" => {
            let username = flag(args, "--username").ok_or(USAGE)?;
            let email = flag(args, "--email").ok_or(USAGE)?;
            let password = match std::env::var("ADMIN_PASSWORD") {
                Ok(p) => p,
                Err(_) => {
                    eprint!("password for {username}: ");
                    let mut line = String::new();
                    std::io::stdin()
                        .read_line(&mut line)
                        .map_err(|e| e.to_string())?;
                    line.trim_end_matches(['\r', '\n']).to_owned()
                }
            };
            let username = Username::try_from(username).map_err(|e| format!("username {e}"))?;
            let email = Email::try_from(email).map_err(|e| format!("email {e}"))?;
            let password = Password::try_from(password).map_err(|e| format!("password {e}"))?;
            let hash = hash_password(&password).await.map_err(fail)?;
            let (user, created) = store
                .users()
                .upsert_admin(&username, &email, hash)
                .await
                .map_err(fail)?;
            println!(
                "admin {} (id {}) {}",
                user.username,
                user.id,
                if created {
                    "created"
                } else {
                    "promoted / password reset"
                }
            );
            Ok(())
        }
        "build-hospital-index" => {
            let build = store
                .hospitals()
                .build_hospital_index()
                .await
                .map_err(fail)?;
            println!(
                "hospital index generation {} (epoch {}): {} hospitals in {} chunks, {} KB",
                build.generation,
                build.epoch,
                build.hospitals,
                build.chunks,
                build.bytes / 1024
            );
            Ok(())
        }
        "repair-positions" => {
            let r = store.positions().repair_positions().await.map_err(fail)?;
            println!(
                "{} position items read: {} unreadable positions removed, {} free entries rebuilt, {} removed",
                r.checked, r.positions_removed, r.free_rebuilt, r.free_removed
            );
            Ok(())
        }
        "migrate" => {
            let m = store.migrations().migrate().await.map_err(fail)?;
            println!(
                "brought up to date: {} bookings (stage and timeline), {} free-ambulance entries (number), {} ambulances (live map cell), {} ended bookings (retention sweep), {} bookings (destination)",
                m.bookings, m.free_entries, m.fleet_cells, m.retention_entries, m.destinations
            );
            Ok(())
        }
        _ => Err(USAGE.into()),
    }
}

fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

/// Local demo data. Each part is only written where it is missing, so a restart
/// never duplicates or overwrites anything.
/// A failed command's error, as its exit message.
fn fail(e: impl std::fmt::Debug) -> String {
    format!("{e:?}")
}

async fn seed(store: &Store) -> Result<(), ApiError> {
    let accounts = [
        ("admin", "admin@example.com", "admin12345", Role::Admin),
        ("demo", "demo@example.com", "demo12345", Role::User),
    ];
    for (name, email, password, role) in accounts {
        let username = Username::try_from(name.to_owned()).map_err(ApiError::internal)?;
        if store.users().account_by_name(&username).await?.is_some() {
            continue;
        }
        let password = Password::try_from(password.to_owned()).map_err(ApiError::internal)?;
        let email = Email::try_from(email.to_owned()).map_err(ApiError::internal)?;
        let phone = Phone::try_from("+919800000000".to_owned()).map_err(ApiError::internal)?;
        store
            .users()
            .create_user(NewUser {
                account: new_account(username, email, phone, &password).await?,
                location: (role == Role::User).then_some(Point::new(30.67, 74.33)),
                role,
            })
            .await?;
        println!("seeded {name}");
    }
    let seeded = store::seed::seed_hospitals_and_ambulances(store).await?;
    if seeded.hospitals > 0 {
        println!(
            "seeded {} hospitals and {} ambulances",
            seeded.hospitals, seeded.ambulances
        );
    }
    let crew_password =
        Password::try_from(store::seed::CREW_PASSWORD.to_owned()).map_err(ApiError::internal)?;
    let crew = store::seed::seed_crew(store, &hash_password(&crew_password).await?).await?;
    let staff_password = Password::try_from(store::seed::HOSPITAL_STAFF_PASSWORD.to_owned())
        .map_err(ApiError::internal)?;
    let staff =
        store::seed::seed_hospital_staff(store, &hash_password(&staff_password).await?).await?;
    println!("demo logins (local only): admin / admin12345, demo / demo12345");
    if let Some(login) = staff {
        println!(
            "hospital login (local only): {} / {} (hospital {})",
            login.username,
            store::seed::HOSPITAL_STAFF_PASSWORD,
            login.hospital_name
        );
    }
    for login in crew {
        println!(
            "crew login (local only): {} / {} (ambulance {})",
            login.username,
            store::seed::CREW_PASSWORD,
            login.ambulance_number
        );
    }
    Ok(())
}
