//! A JSON value read so that structs come only from JSON objects.
//!
//! serde's derived `Deserialize` for a struct also accepts a sequence, its fields
//! by position, and serde_json passes either to it: `["demo","demo12345"]` signed in
//! and `[164,"AT_PICKUP"]` moved a trip (docs/reliability.md). The contract's bodies are
//! objects, so [`Objects`] wraps a parsed [`Value`] and refuses a struct that is not
//! an object, at any depth; everything else is read as serde_json reads a `Value`.

use serde::de::{
    self, DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Unexpected, Visitor,
    value::BorrowedStrDeserializer,
};
use serde_json::{Error, Value};

/// `value` read with structs only from objects (see the module).
pub(crate) struct Objects<'de>(pub(crate) &'de Value);

/// What kind of JSON `value` is, for a message: "an array".
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// What a struct found where an object belongs, for the error.
fn unexpected(value: &Value) -> Unexpected<'static> {
    Unexpected::Other(kind(value))
}

/// The methods that read a value the way serde_json reads a `Value`.
macro_rules! as_a_value {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
                self.0.$method(visitor)
            }
        )*
    };
}

impl<'de> Deserializer<'de> for Objects<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(items) => visitor.visit_seq(Items(items.iter())),
            Value::Object(map) => visitor.visit_map(Fields {
                fields: map.iter(),
                value: None,
            }),
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(map) => visitor.visit_map(Fields {
                fields: map.iter(),
                value: None,
            }),
            other => Err(Error::invalid_type(unexpected(other), &"a JSON object")),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(_) => self.deserialize_any(visitor),
            other => other.deserialize_map(visitor),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(_) => self.deserialize_any(visitor),
            other => other.deserialize_seq(visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.0.deserialize_enum(name, variants, visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.0.deserialize_unit_struct(name, visitor)
    }

    as_a_value! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_bytes deserialize_byte_buf deserialize_unit
        deserialize_identifier deserialize_ignored_any
    }
}

/// An array's items, each read as [`Objects`].
struct Items<'de>(std::slice::Iter<'de, Value>);

impl<'de> SeqAccess<'de> for Items<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        self.0
            .next()
            .map(|item| seed.deserialize(Objects(item)))
            .transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

/// An object's fields, each value read as [`Objects`].
struct Fields<'de> {
    fields: serde_json::map::Iter<'de>,
    value: Option<&'de Value>,
}

impl<'de> MapAccess<'de> for Fields<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.fields.next() else {
            return Ok(None);
        };
        self.value = Some(value);
        seed.deserialize(BorrowedStrDeserializer::<Error>::new(key))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let value = self
            .value
            .take()
            .ok_or_else(|| de::Error::custom("a value without its key"))?;
        seed.deserialize(Objects(value))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.fields.len())
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Inner {
        a: u8,
        b: Option<String>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Outer {
        inner: Inner,
        list: Vec<Inner>,
        maybe: Option<Inner>,
        pair: (u8, u8),
    }

    fn read(value: serde_json::Value) -> Result<Outer, Error> {
        Outer::deserialize(Objects(&value))
    }

    #[test]
    fn objects_read_as_serde_json_reads_them() {
        let value = json!({"inner": {"a": 1, "b": "x"}, "list": [{"a": 2, "b": null}],
            "maybe": null, "pair": [3, 4]});
        let expected: Outer = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(read(value).unwrap(), expected);
    }

    #[test]
    fn structs_come_only_from_objects() {
        for value in [
            json!([{"a": 1}, [], null, [0, 0]]),
            json!({"inner": [1, "x"], "list": [], "maybe": null, "pair": [3, 4]}),
            json!({"inner": {"a": 1}, "list": [[2, null]], "maybe": null, "pair": [3, 4]}),
            json!({"inner": {"a": 1}, "list": [], "maybe": [1, null], "pair": [3, 4]}),
        ] {
            // serde_json alone takes each of them.
            assert!(
                serde_json::from_value::<Outer>(value.clone()).is_ok(),
                "{value}"
            );
            let err = read(value.clone()).unwrap_err().to_string();
            assert!(err.contains("expected a JSON object"), "{value}: {err}");
        }
    }
}
