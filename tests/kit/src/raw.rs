//! Raw writes: an item changed straight in the table, past the store's rules, as an
//! older version of the code (or a bug) left it.

use store::Store;

/// An UpdateItem straight to the table, past the store's rules: how a test makes an
/// item look as an older version of the code (or a bug) left it.
pub async fn raw_update(
    store: &Store,
    key: &store::keys::Key,
    expression: &str,
    values: Vec<(&str, aws_sdk_dynamodb::types::AttributeValue)>,
) {
    let values: std::collections::HashMap<String, _> =
        values.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    store
        .client()
        .update_item()
        .table_name(store.table())
        .set_key(Some(key.item()))
        .update_expression(expression)
        .set_expression_attribute_values((!values.is_empty()).then_some(values))
        .send()
        .await
        .expect("the raw update is written");
}
