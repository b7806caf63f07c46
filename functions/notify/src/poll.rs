//! The local stack's feed (`notify --every-ms N`, and the tests): DynamoDB Local keeps
//! the table's stream like DynamoDB does, so this reads it with the Streams API
//! (DescribeTable → its stream, DescribeStream → the shards, GetShardIterator,
//! GetRecords) and hands each batch to [`Notifier::handle`], the Lambda's own handler.
//! A record that fails is retried [`RETRIES`] times, then skipped and logged: what
//! the failure queue holds in AWS.
//!
//! The Streams calls are plain JSON over HTTP, not the AWS SDK's client: DynamoDB
//! Local writes an empty map attribute as `{}` in stream records (DynamoDB writes
//! `{"M": {}}`), which the SDK refuses to parse, failing the whole GetRecords answer
//! (the hospital index's manifest starts as an empty map). [`repair_empty_maps`]
//! mends that one quirk; the records are then read by the same serde types as the
//! Lambda event's.

use std::{collections::HashMap, time::Duration};

use bytes::Bytes;
use http::{Request, header};
use http_body_util::{BodyExt, Full};
use hyper_util::{
    client::legacy::{Client, connect::HttpConnector},
    rt::TokioExecutor,
};
use serde_json::{Value, json};
use web::ApiError;

use crate::{Notifier, StreamEvent};

/// A failing record is tried this many more times before it is skipped (the event
/// source mapping's MaximumRetryAttempts in template.yaml).
pub const RETRIES: u32 = 3;

/// Where the poller starts reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// What is written from now on (the local stack: its history is not news).
    Now,
    /// Everything the stream still holds (a test's fresh table: no write missed
    /// while the poller starts).
    Beginning,
}

/// DynamoDB Local's Streams endpoint (the table's endpoint).
pub struct LocalStreams {
    endpoint: String,
    http: Client<HttpConnector, Full<Bytes>>,
}

fn stream_error(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(format!("stream: {e}"))
}

impl LocalStreams {
    pub fn new(endpoint: &str) -> LocalStreams {
        LocalStreams {
            endpoint: endpoint.to_owned(),
            http: Client::builder(TokioExecutor::new()).build_http(),
        }
    }

    /// One Streams call. DynamoDB Local wants an `Authorization` header naming an
    /// access key; it checks no signature.
    async fn call(&self, action: &str, body: Value) -> Result<Value, ApiError> {
        let request = Request::post(&self.endpoint)
            .header(header::CONTENT_TYPE, "application/x-amz-json-1.0")
            .header("X-Amz-Target", format!("DynamoDBStreams_20120810.{action}"))
            .header(
                header::AUTHORIZATION,
                "AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0",
            )
            .body(Full::new(Bytes::from(body.to_string())))
            .map_err(stream_error)?;
        let res = self.http.request(request).await.map_err(stream_error)?;
        let status = res.status();
        let bytes = res
            .into_body()
            .collect()
            .await
            .map_err(stream_error)?
            .to_bytes();
        let value: Value = serde_json::from_slice(&bytes).map_err(stream_error)?;
        if !status.is_success() {
            return Err(stream_error(format!("{action} answered {status}: {value}")));
        }
        Ok(value)
    }

    async fn iterator(
        &self,
        arn: &str,
        shard: &str,
        kind: &str,
        seq: Option<&str>,
    ) -> Result<Option<String>, ApiError> {
        let mut body = json!({"StreamArn": arn, "ShardId": shard, "ShardIteratorType": kind});
        if let Some(seq) = seq {
            body["SequenceNumber"] = json!(seq);
        }
        let out = self.call("GetShardIterator", body).await?;
        Ok(out["ShardIterator"].as_str().map(str::to_owned))
    }
}

/// DynamoDB Local's `{}` for an empty map, as DynamoDB writes it: `{"M": {}}`, in
/// every image of a GetRecords answer (nested maps and lists too).
pub fn repair_empty_maps(answer: &mut Value) {
    fn attribute(v: &mut Value) {
        let Some(obj) = v.as_object_mut() else { return };
        if obj.is_empty() {
            obj.insert("M".into(), json!({}));
        } else if let Some(Value::Object(m)) = obj.get_mut("M") {
            m.values_mut().for_each(attribute);
        } else if let Some(Value::Array(l)) = obj.get_mut("L") {
            l.iter_mut().for_each(attribute);
        }
    }
    for record in answer["Records"].as_array_mut().into_iter().flatten() {
        for image in ["NewImage", "OldImage", "Keys"] {
            if let Some(Value::Object(item)) = record["dynamodb"].get_mut(image) {
                item.values_mut().for_each(attribute);
            }
        }
    }
}

impl LocalStreams {
    /// Every record the stream of `store`'s table holds now, in order (the IAM
    /// test feeds them to the handler itself, inside the function's grants).
    pub async fn records(
        &self,
        store: &store::Store,
    ) -> Result<Vec<crate::StreamRecord>, ApiError> {
        let arn = stream_arn(store).await?;
        let described = self
            .call("DescribeStream", json!({"StreamArn": arn}))
            .await?;
        let mut out = vec![];
        for shard in described["StreamDescription"]["Shards"]
            .as_array()
            .cloned()
            .unwrap_or_default()
        {
            let Some(id) = shard["ShardId"].as_str() else {
                continue;
            };
            let mut it = self.iterator(&arn, id, "TRIM_HORIZON", None).await?;
            while let Some(i) = it {
                let mut answer = self.call("GetRecords", json!({"ShardIterator": i})).await?;
                repair_empty_maps(&mut answer);
                let next = answer["NextShardIterator"].as_str().map(str::to_owned);
                let event: StreamEvent = serde_json::from_value(answer).map_err(stream_error)?;
                if event.records.is_empty() {
                    break;
                }
                out.extend(event.records);
                it = next;
            }
        }
        Ok(out)
    }
}

/// The ARN of the stream of `store`'s table.
async fn stream_arn(store: &store::Store) -> Result<String, ApiError> {
    let table = store
        .client()
        .describe_table()
        .table_name(store.table())
        .send()
        .await
        .map_err(|e| stream_error(aws_sdk_dynamodb::error::DisplayErrorContext(e)))?;
    table
        .table
        .and_then(|t| t.latest_stream_arn)
        .ok_or_else(|| {
            ApiError::internal("the table has no stream (manage create-tables makes one)")
        })
}

/// Reads the table's stream and notifies, every `every` when idle, until the task
/// is dropped.
pub async fn poll(
    notifier: &Notifier,
    streams: &LocalStreams,
    every: Duration,
    from: Start,
) -> Result<(), ApiError> {
    let arn = stream_arn(&notifier.store).await?;
    // Shard id → its next iterator. Shards open when we start are read from their
    // end (from `Start::Now`); shards found later from their start.
    let mut iterators: HashMap<String, Option<String>> = HashMap::new();
    let mut first = true;
    let mut tries: HashMap<String, u32> = HashMap::new();
    loop {
        let described = streams
            .call("DescribeStream", json!({"StreamArn": arn}))
            .await?;
        let shards = described["StreamDescription"]["Shards"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for shard in shards {
            let Some(id) = shard["ShardId"].as_str() else {
                continue;
            };
            if iterators.contains_key(id) {
                continue;
            }
            let kind = if first && from == Start::Now {
                "LATEST"
            } else {
                "TRIM_HORIZON"
            };
            let it = streams.iterator(&arn, id, kind, None).await?;
            iterators.insert(id.to_owned(), it);
        }
        first = false;
        let mut busy = false;
        for (shard, iterator) in iterators.iter_mut() {
            let Some(it) = iterator.clone() else { continue };
            let mut out = streams
                .call("GetRecords", json!({"ShardIterator": it}))
                .await?;
            repair_empty_maps(&mut out);
            let next = out["NextShardIterator"].as_str().map(str::to_owned);
            let event: StreamEvent = serde_json::from_value(out).map_err(stream_error)?;
            if event.records.is_empty() {
                *iterator = next;
                continue;
            }
            busy = true;
            let answer = notifier.handle(event).await;
            match answer.batch_item_failures.first() {
                None => *iterator = next,
                Some(failed) => {
                    let seq = failed.item_identifier.as_str();
                    let n = tries.entry(seq.to_owned()).or_default();
                    *n += 1;
                    *iterator = if *n > RETRIES {
                        tracing::error!(
                            shard,
                            "a stream record failed {RETRIES} retries: skipped (the failure queue in AWS)"
                        );
                        streams
                            .iterator(&arn, shard, "AFTER_SEQUENCE_NUMBER", Some(seq))
                            .await?
                    } else {
                        // From the failed record on, as Lambda retries.
                        streams
                            .iterator(&arn, shard, "AT_SEQUENCE_NUMBER", Some(seq))
                            .await?
                    };
                }
            }
        }
        // A closed shard has no next iterator: forget it (DescribeStream lists its
        // successor).
        iterators.retain(|_, it| it.is_some());
        if !busy {
            tokio::time::sleep(every).await;
        }
    }
}
