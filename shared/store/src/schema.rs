//! The table definition, once. `manage create-tables` and the tests create the table
//! from it; a test checks that template.yaml declares exactly the same thing.

use aws_sdk_dynamodb::{
    Client,
    types::{
        AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType,
        Projection, ProjectionType, ScalarAttributeType, StreamSpecification, StreamViewType,
        TimeToLiveSpecification,
    },
};

use super::table::db_error;
use crate::error::StoreError;

/// The table's stream (decision 0014): every write with the item before and after
/// it, which `functions/notify` turns into pushes. DynamoDB Local keeps one too.
pub const STREAM_VIEW: &str = "NEW_AND_OLD_IMAGES";

/// The TTL attribute (epoch seconds) of short-lived items.
pub const TTL_ATTRIBUTE: &str = "ttl";

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct IndexDef {
    pub name: &'static str,
    pub hash: &'static str,
    pub range: &'static str,
    /// `ALL`, `KEYS_ONLY` or `INCLUDE` (then `non_key` lists the attributes).
    pub projection: &'static str,
    pub non_key: &'static [&'static str],
}

/// Attribute name and type (`S` or `N`) of every key attribute.
pub const ATTRIBUTES: &[(&str, &str)] = &[
    ("pk", "S"),
    ("sk", "S"),
    ("gsi1pk", "S"),
    ("gsi1sk", "S"),
    ("listpk", "S"),
    ("listsk", "S"),
    ("availpk", "S"),
    ("availsk", "S"),
    ("geopk", "S"),
    ("geosk", "N"),
    ("freegeopk", "S"),
    ("freegeosk", "N"),
    ("openpk", "S"),
    ("duepk", "S"),
    ("duesk", "N"),
    ("foldpk", "S"),
    ("foldsk", "N"),
    ("status", "S"),
    ("fleetcell", "N"),
    ("bookingType", "S"),
    ("destpk", "S"),
    ("destsk", "S"),
];

pub const PRIMARY: (&str, &str) = ("pk", "sk");

/// Ambulances of a hospital; a user's bookings newest first.
pub const GSI1: &str = "gsi1";
/// Keys only, for paging hospitals by name, all ambulances, all bookings.
pub const LIST: &str = "list";
/// Sparse: the available ambulances only.
pub const AVAIL: &str = "avail";
/// Hospitals by H3 cell: the crew's alternative to a diverted destination
/// (`store::receiving`).
pub const GEO: &str = "geo";
/// Sparse: free ambulances by H3 cell, at their live position and at their
/// hospital's (`store::positions`).
pub const FREEGEO: &str = "freegeo";
/// Sparse, keys only: the bookings whose crew has not answered yet, by `answerBy`
/// (the clock's sweep, decision 0012).
pub const DUE: &str = "due";
/// Sparse, keys only: the bookings that ended and are not in the response-time
/// report yet, by when they ended (the clock folds them, decision 0021).
pub const FOLD: &str = "fold";
/// The live map's ambulances: `status` (the urgency class, ON_DUTY first) and the
/// res-6 cell they are shown in (`fleetcell`, only on ambulance items), KEYS_ONLY.
pub const FLEET: &str = "fleet";
/// The live map's open bookings: `bookingType` (EMERGENCY first) and `openpk` (the
/// pickup's res-2 cell, present only while open), KEYS_ONLY. Both keys are
/// attributes the booking already has: nothing new is written for it.
pub const OPENMAP: &str = "openmap";

/// The receiving hospital's board (docs/decisions/0026-receiving-hospital.md):
/// bookings by destination hospital, open ones after those ended (`keys::destination_*`),
/// with what the board shows projected ([`DEST_ATTRIBUTES`]): its two ranges (open,
/// ended in the day), read at once, are the whole read of the trips.
pub const DEST: &str = "dest";

/// What the board shows of a trip, projected into `dest`.
pub const DEST_ATTRIBUTES: &[&str] = &[
    "id",
    "bookingType",
    "bookingStatus",
    "bookingTime",
    "tripStage",
    "ambulance",
    "patient",
    "timeline",
];

/// What a free-ambulance search ranks by, projected into `freegeo`.
pub const FREEGEO_ATTRIBUTES: &[&str] = &[
    "id",
    "type",
    "hospitalId",
    "hospitalLatitude",
    "hospitalLongitude",
    "latitude",
    "longitude",
    "recordedAt",
    // What the booking of a one-tap emergency names (never changed after adding).
    "number",
    "driverInfo",
];

pub const INDEXES: &[IndexDef] = &[
    IndexDef {
        name: GSI1,
        hash: "gsi1pk",
        range: "gsi1sk",
        projection: "ALL",
        non_key: &[],
    },
    IndexDef {
        name: LIST,
        hash: "listpk",
        range: "listsk",
        projection: "KEYS_ONLY",
        non_key: &[],
    },
    IndexDef {
        name: AVAIL,
        hash: "availpk",
        range: "availsk",
        projection: "ALL",
        non_key: &[],
    },
    IndexDef {
        name: GEO,
        hash: "geopk",
        range: "geosk",
        projection: "ALL",
        non_key: &[],
    },
    IndexDef {
        name: FREEGEO,
        hash: "freegeopk",
        range: "freegeosk",
        projection: "INCLUDE",
        non_key: FREEGEO_ATTRIBUTES,
    },
    IndexDef {
        name: DUE,
        hash: "duepk",
        range: "duesk",
        projection: "KEYS_ONLY",
        non_key: &[],
    },
    IndexDef {
        name: FOLD,
        hash: "foldpk",
        range: "foldsk",
        projection: "KEYS_ONLY",
        non_key: &[],
    },
    IndexDef {
        name: FLEET,
        hash: "status",
        range: "fleetcell",
        projection: "KEYS_ONLY",
        non_key: &[],
    },
    IndexDef {
        name: OPENMAP,
        hash: "bookingType",
        range: "openpk",
        projection: "KEYS_ONLY",
        non_key: &[],
    },
    IndexDef {
        name: DEST,
        hash: "destpk",
        range: "destsk",
        projection: "INCLUDE",
        non_key: DEST_ATTRIBUTES,
    },
];

fn key_schema(hash: &str, range: &str) -> Result<Vec<KeySchemaElement>, StoreError> {
    Ok(vec![
        KeySchemaElement::builder()
            .attribute_name(hash)
            .key_type(KeyType::Hash)
            .build()
            .map_err(StoreError::internal)?,
        KeySchemaElement::builder()
            .attribute_name(range)
            .key_type(KeyType::Range)
            .build()
            .map_err(StoreError::internal)?,
    ])
}

/// Creates the table (on-demand) with its indexes, stream and TTL, unless it exists.
/// Returns whether it was created.
pub async fn create_table(client: &Client, table: &str) -> Result<bool, StoreError> {
    create(client, table, true).await
}

/// [`create_table`] without the stream, for a test or benchmark that reads none:
/// DynamoDB Local writes every change a second time into its stream, which made the
/// heaviest tests (a hundred racers, bulk loads) queue past their timeouts on CI's
/// 2 cores. Tests of what the stream feeds (notify) take the whole table.
pub async fn create_table_without_stream(client: &Client, table: &str) -> Result<bool, StoreError> {
    create(client, table, false).await
}

async fn create(client: &Client, table: &str, stream: bool) -> Result<bool, StoreError> {
    let existing = client.describe_table().table_name(table).send().await;
    if existing.is_ok() {
        return Ok(false);
    }
    let mut request = client
        .create_table()
        .table_name(table)
        .billing_mode(BillingMode::PayPerRequest)
        .set_key_schema(Some(key_schema(PRIMARY.0, PRIMARY.1)?));
    if stream {
        request = request.stream_specification(
            StreamSpecification::builder()
                .stream_enabled(true)
                .stream_view_type(StreamViewType::from(STREAM_VIEW))
                .build()
                .map_err(StoreError::internal)?,
        );
    }
    for (name, kind) in ATTRIBUTES {
        request = request.attribute_definitions(
            AttributeDefinition::builder()
                .attribute_name(*name)
                .attribute_type(if *kind == "N" {
                    ScalarAttributeType::N
                } else {
                    ScalarAttributeType::S
                })
                .build()
                .map_err(StoreError::internal)?,
        );
    }
    for index in INDEXES {
        request = request.global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name(index.name)
                .set_key_schema(Some(key_schema(index.hash, index.range)?))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::from(index.projection))
                        .set_non_key_attributes(
                            (!index.non_key.is_empty())
                                .then(|| index.non_key.iter().map(|a| a.to_string()).collect()),
                        )
                        .build(),
                )
                .build()
                .map_err(StoreError::internal)?,
        );
    }
    match request.send().await {
        Ok(_) => {}
        // A retried create whose first attempt went through: the table is there.
        Err(aws_sdk_dynamodb::error::SdkError::ServiceError(e))
            if e.err().is_resource_in_use_exception() => {}
        Err(e) => return Err(db_error(e)),
    }
    client
        .update_time_to_live()
        .table_name(table)
        .time_to_live_specification(
            TimeToLiveSpecification::builder()
                .attribute_name(TTL_ATTRIBUTE)
                .enabled(true)
                .build()
                .map_err(StoreError::internal)?,
        )
        .send()
        .await
        .map_err(db_error)?;
    Ok(true)
}
