//! CloudWatch Embedded Metric Format: a metric is one JSON line on stdout, which
//! CloudWatch Logs turns into a metric. No API call, nothing waits, nothing to fail.
//!
//! Namespace: `METRICS_NAMESPACE` (template.yaml sets `Ambulance/<stack>`, so a dev
//! and a prod stack in one account never mix), else `Ambulance`. Every line carries
//! the dimension `Function` (the logical name: `booking`, `clock`, ...; alarms name
//! it) and the request id when there is one (Logs Insights joins it to the request's
//! log line). docs/operations.md lists every metric.

use std::{cell::RefCell, sync::Mutex};

use serde_json::{Map, Value, json};

/// CloudWatch's units (the names it accepts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Count,
    Milliseconds,
    Seconds,
}

impl Unit {
    fn as_str(self) -> &'static str {
        match self {
            Unit::Count => "Count",
            Unit::Milliseconds => "Milliseconds",
            Unit::Seconds => "Seconds",
        }
    }
}

/// One EMF line: its dimensions (`Function` first) and its values.
#[derive(Debug, Clone)]
pub struct Metrics {
    dimensions: Vec<(&'static str, String)>,
    values: Vec<(&'static str, f64, Unit)>,
}

impl Metrics {
    /// Metrics of the function `function` (the `Function` dimension).
    pub fn of(function: &str) -> Metrics {
        Metrics {
            dimensions: vec![("Function", function.to_owned())],
            values: Vec::new(),
        }
    }

    /// One more dimension (a small fixed set of values only: each value is a metric
    /// CloudWatch bills; never an id).
    pub fn dimension(mut self, name: &'static str, value: &str) -> Metrics {
        self.dimensions.push((name, value.to_owned()));
        self
    }

    pub fn value(mut self, name: &'static str, value: f64, unit: Unit) -> Metrics {
        self.values.push((name, value, unit));
        self
    }

    pub fn count(self, name: &'static str, n: usize) -> Metrics {
        self.value(name, n as f64, Unit::Count)
    }

    /// The EMF document (`_aws` and the values at the top level, as EMF asks).
    pub fn to_json(&self, timestamp_ms: i64, request_id: Option<&str>) -> Value {
        let metrics: Vec<Value> = self
            .values
            .iter()
            .map(|(name, _, unit)| json!({"Name": name, "Unit": unit.as_str()}))
            .collect();
        let dimension_names: Vec<&str> = self.dimensions.iter().map(|(n, _)| *n).collect();
        let mut line = Map::new();
        line.insert(
            "_aws".into(),
            json!({
                "Timestamp": timestamp_ms,
                "CloudWatchMetrics": [{
                    "Namespace": namespace(),
                    "Dimensions": [dimension_names],
                    "Metrics": metrics,
                }],
            }),
        );
        for (name, value) in &self.dimensions {
            line.insert((*name).into(), Value::from(value.as_str()));
        }
        for (name, value, _) in &self.values {
            line.insert((*name).into(), Value::from(*value));
        }
        if let Some(id) = request_id {
            line.insert("requestId".into(), Value::from(id));
        }
        Value::Object(line)
    }

    /// Writes the line (stdout, or a test's capture) and counts it for [`counted`].
    pub fn emit(self) {
        if self.values.is_empty() {
            return;
        }
        let now = time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000;
        let line = self
            .to_json(now as i64, super::context::current_request_id().as_deref())
            .to_string();
        let captured = CAPTURE.try_with(|c| {
            if let Some(lines) = c.borrow_mut().as_mut() {
                lines.push(line.clone());
                true
            } else {
                false
            }
        });
        if captured != Ok(true) {
            println!("{line}");
        }
        let dims: Vec<&str> = self.dimensions[1..]
            .iter()
            .map(|(_, v)| v.as_str())
            .collect();
        let mut counts = COUNTS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (name, value, _) in &self.values {
            let key = (*name, dims.join("/"));
            match counts.iter_mut().find(|(k, _)| *k == key) {
                Some((_, total)) => *total += value,
                None => counts.push((key, *value)),
            }
        }
    }
}

fn namespace() -> String {
    std::env::var("METRICS_NAMESPACE")
        .ok()
        .filter(|n| !n.is_empty() && n.len() <= 255)
        .unwrap_or_else(|| "Ambulance".into())
}

tokio::task_local! {
    /// A test's capture of the lines written by the future it runs.
    static CAPTURE: RefCell<Option<Vec<String>>>;
}

/// Runs `work` and returns what it returned with the EMF lines it wrote (those of the
/// same task: what a request's handler writes), instead of printing them.
pub async fn capture<F: std::future::Future>(work: F) -> (F::Output, Vec<String>) {
    CAPTURE
        .scope(RefCell::new(Some(Vec::new())), async {
            let out = work.await;
            let lines = CAPTURE.with(|c| c.borrow_mut().take().unwrap_or_default());
            (out, lines)
        })
        .await
}

/// Totals of this process's metric values by name and the dimensions after
/// `Function` joined by `/` (tests read them).
type Totals = Vec<((&'static str, String), f64)>;
static COUNTS: Mutex<Totals> = Mutex::new(Vec::new());

/// The total this process wrote for `metric` with these dimension values (those
/// after `Function`, joined by `/`).
pub fn counted(metric: &str, dims: &str) -> f64 {
    COUNTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .iter()
        .find(|((m, d), _)| *m == metric && d == dims)
        .map_or(0.0, |(_, n)| *n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_emf_document_names_each_value_and_dimension() {
        let line = Metrics::of("booking")
            .dimension("Outcome", "dispatched")
            .count("EmergencyDispatches", 1)
            .value("EmergencyDispatchLatency", 12.5, Unit::Milliseconds)
            .to_json(1_700_000_000_000, Some("req-1"));
        let spec = &line["_aws"]["CloudWatchMetrics"][0];
        assert_eq!(line["_aws"]["Timestamp"], 1_700_000_000_000_i64);
        assert_eq!(spec["Dimensions"], json!([["Function", "Outcome"]]));
        assert_eq!(
            spec["Metrics"],
            json!([
                {"Name": "EmergencyDispatches", "Unit": "Count"},
                {"Name": "EmergencyDispatchLatency", "Unit": "Milliseconds"}
            ])
        );
        assert_eq!(line["Function"], "booking");
        assert_eq!(line["Outcome"], "dispatched");
        assert_eq!(line["EmergencyDispatches"], 1.0);
        assert_eq!(line["EmergencyDispatchLatency"], 12.5);
        assert_eq!(line["requestId"], "req-1");
    }

    #[tokio::test]
    async fn capture_takes_the_lines_of_its_task() {
        let ((), lines) = capture(async {
            Metrics::of("t").count("Things", 2).emit();
            Metrics::of("t").emit(); // no values: no line
        })
        .await;
        assert_eq!(lines.len(), 1, "{lines:?}");
        let line: Value = serde_json::from_str(&lines[0]).unwrap();
        assert_eq!(line["Things"], 2.0);
        assert_eq!(counted("Things", ""), 2.0);
    }
}
