//! The bad-input table: bad booking requests, each with the field its 400 must name.

use serde_json::Value;

/// A change of a valid booking request's JSON that makes one field bad.
pub type BadField = Box<dyn Fn(&mut Value)>;

/// Bad booking requests, each with the field its 400 must name: the parser's unit
/// test and the route's test (that also proves nothing is written) share them.
pub fn bad_booking_fields() -> Vec<(BadField, &'static str)> {
    use serde_json::json;
    vec![
        (
            Box::new(|v| v["patient"]["age"] = json!(151)),
            "patient.age",
        ),
        (Box::new(|v| v["patient"]["age"] = json!(-1)), "patient.age"),
        (
            Box::new(|v| v["patient"]["age"] = json!("ten")),
            "patient.age",
        ),
        (
            Box::new(|v| v["patient"]["age"] = json!(3.5)),
            "patient.age",
        ),
        (
            Box::new(|v| v["patient"]["gender"] = json!("x")),
            "patient.gender",
        ),
        (
            Box::new(|v| v["patient"]["name"] = json!("   ")),
            "patient.name",
        ),
        (
            Box::new(|v| v["patient"]["name"] = json!("n".repeat(101))),
            "patient.name",
        ),
        (
            Box::new(|v| v["patient"]["condition"] = json!("")),
            "patient.condition",
        ),
        (
            Box::new(|v| v["patient"]["condition"] = json!("c".repeat(501))),
            "patient.condition",
        ),
        (
            Box::new(|v| v["bookingType"] = json!("URGENT")),
            "bookingType",
        ),
        (
            Box::new(|v| {
                v.as_object_mut().unwrap().remove("patient");
            }),
            "patient",
        ),
        (Box::new(|v| v["hospitalId"] = json!(0)), "hospitalId"),
        (
            Box::new(|v| v["hospitalId"] = json!(1u64 << 60)),
            "hospitalId",
        ),
        (Box::new(|v| v["ambulanceId"] = json!(0)), "ambulanceId"),
        (Box::new(|v| v["ambulanceId"] = json!(-1)), "ambulanceId"),
        (
            Box::new(|v| v["ambulanceId"] = json!(1u64 << 60)),
            "ambulanceId",
        ),
        (
            Box::new(|v| v["patient"]["blood"] = json!("O+")),
            "patient.blood",
        ),
        (
            Box::new(|v| v["pickup"] = json!({"latitude": 91, "longitude": 74.0})),
            "pickup.latitude",
        ),
        (
            Box::new(|v| v["pickup"] = json!({"latitude": 30.0, "longitude": "east"})),
            "pickup.longitude",
        ),
        (
            Box::new(|v| v["pickup"] = json!({"longitude": 74.0})),
            "pickup.latitude",
        ),
        (
            Box::new(|v| {
                v["pickup"] =
                    json!({"latitude": 30.0, "longitude": 74.0, "landmark": "x".repeat(201)});
            }),
            "pickup.landmark",
        ),
        (
            Box::new(|v| v["pickup"] = json!({"latitude": 30.0, "longitude": 74.0, "floor": 3})),
            "pickup.floor",
        ),
    ]
}
