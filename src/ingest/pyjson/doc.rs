//! A whole JSON document read without copying, for the readers of one
//! document per file (Google Benchmark, nvbench, pytest-benchmark): strings
//! and keys borrow the text (unless they hold escapes), numbers keep their
//! kind (`u64`, `i64`, `f64`, as a `serde_json::Value` does), and an
//! object's members are a sorted `Vec` rather than a map of owned keys.
//!
//! It reads exactly what [`super::parse`] reads into a `serde_json::Value`
//! — the same deserializer sees the same text, so the same texts are
//! refused with the same messages — and iterates members the way a `Value`
//! map does: sorted by key, the last of a repeated key kept. A `Value` tree
//! of a benchmark file costs a `String` per key and string and a map node
//! per member, all freed again once the file became runs; most of a large
//! file's read went there.

use std::borrow::Cow;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::node::KeySeed;
use super::{describe, rewrite_into, sentinel_f64, ParseError};

/// One JSON value of a document.
#[derive(Debug, Clone, PartialEq)]
pub enum Doc<'a> {
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    /// A string; Python's bare `Infinity`/`NaN` tokens arrive as the
    /// sentinel strings [`super::as_f64`] knows.
    Str(Cow<'a, str>),
    Arr(Vec<Doc<'a>>),
    /// Boxed: inline, an object made every value 80 bytes where the others
    /// need 32, and a Google Benchmark file's tree twice the memory (its
    /// page faults and growing member lists a fifth of the parse).
    Obj(Box<Object<'a>>),
}

/// An object: its members sorted by key, each key once (its last value).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object<'a> {
    members: Vec<(Cow<'a, str>, Doc<'a>)>,
    /// Whether a key was repeated (the earlier values are not kept).
    repeated: bool,
    /// Where the text's first key starts (its opening quote), when it
    /// borrows the text: the object's place in the document.
    first_key: Option<*const u8>,
    /// The key of the first member in the text whose value is an array.
    first_array: Option<Cow<'a, str>>,
}

impl<'a> Doc<'a> {
    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Doc<'a>> {
        self.as_object()?.get(key)
    }

    pub fn as_object(&self) -> Option<&Object<'a>> {
        match self {
            Doc::Obj(o) => Some(o),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Doc<'a>]> {
        match self {
            Doc::Arr(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Doc::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Doc::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Doc::Null)
    }

    /// The numeric reading: numbers, and the sentinels of `Infinity`,
    /// `-Infinity` and `NaN` (as [`super::as_f64`] reads a `Value`).
    #[allow(clippy::cast_precision_loss)] // the reading `Value::as_f64` gives
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Doc::U64(n) => Some(*n as f64),
            Doc::I64(n) => Some(*n as f64),
            Doc::F64(x) => Some(*x),
            Doc::Str(s) => sentinel_f64(s),
            _ => None,
        }
    }

    /// The same value as a `serde_json::Value`, for the rare part a reader
    /// hands on to code that takes one (and for its text in a message).
    pub fn to_value(&self) -> Value {
        match self {
            Doc::Null => Value::Null,
            Doc::Bool(b) => Value::Bool(*b),
            Doc::U64(n) => Value::from(*n),
            Doc::I64(n) => Value::from(*n),
            // A finite number (JSON text holds no other).
            Doc::F64(x) => serde_json::Number::from_f64(*x).map_or(Value::Null, Value::Number),
            Doc::Str(s) => Value::String(s.to_string()),
            Doc::Arr(a) => Value::Array(a.iter().map(Doc::to_value).collect()),
            Doc::Obj(o) => Value::Object(o.to_map()),
        }
    }
}

/// As a `serde_json::Value` displays: compact JSON.
impl fmt::Display for Doc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_value(), f)
    }
}

impl<'a> Object<'a> {
    pub fn get(&self, key: &str) -> Option<&Doc<'a>> {
        let i = self.members.binary_search_by(|(k, _)| k.as_ref().cmp(key)).ok()?;
        Some(&self.members[i].1)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The members in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Doc<'a>)> {
        self.members.iter().map(|(k, v)| (k.as_ref(), v))
    }

    /// Whether the text repeats a key of this object.
    pub fn repeats_a_key(&self) -> bool {
        self.repeated
    }

    /// The byte offset in `text` (the text parsed) of the `{` that opens
    /// this object, when its first key borrows the text.
    pub fn offset_in(&self, text: &[u8]) -> Option<usize> {
        let quote = (self.first_key? as usize).checked_sub(text.as_ptr() as usize)?.checked_sub(1)?;
        let before = text.get(..quote)?;
        let open = before.iter().rposition(|b| !b.is_ascii_whitespace())?;
        (before[open] == b'{').then_some(open)
    }

    /// The byte offsets in `text` (the text parsed) of the elements of the
    /// array `key` of this object, when each is an object that knows its
    /// place (see [`Object::offset_in`]) and they are the elements of the
    /// first array among this object's members in the text, as
    /// [`super::array_element_offsets`] finds them for the top-level
    /// object (`depth` 1): no key repeated, no array before this one.
    pub fn element_offsets(&self, key: &str, text: &[u8]) -> Option<Vec<usize>> {
        if self.repeated || self.first_array.as_deref() != Some(key) {
            return None;
        }
        let items = self.get(key)?.as_array()?;
        items.iter().map(|d| d.as_object()?.offset_in(text)).collect()
    }

    pub fn to_map(&self) -> serde_json::Map<String, Value> {
        self.members.iter().map(|(k, v)| (k.to_string(), v.to_value())).collect()
    }
}

/// Parses one JSON document in Python's dialect. `scratch` holds the text
/// with Python's bare tokens rewritten, when it has any; the text parsed
/// (the input or `scratch`) is returned beside the tree, for
/// [`Object::offset_in`].
pub fn parse_doc<'s>(text: &'s [u8], scratch: &'s mut Vec<u8>) -> Result<(Doc<'s>, &'s [u8]), ParseError> {
    // Strict JSON holds no bare `Infinity` or `NaN` (outside strings it has
    // only numbers, `true`, `false`, `null` and punctuation), so a text that
    // parses as it is would be left as it is by the rewrite: the rewrite,
    // a second pass over every byte, is paid only by a text that does not.
    if let Ok(s) = std::str::from_utf8(text) {
        if let Ok(doc) = read_whole(&mut serde_json::Deserializer::from_str(s)) {
            return Ok((doc, text));
        }
    }
    let was_rewritten = rewrite_into(text, scratch);
    let text: &'s [u8] = if was_rewritten { scratch } else { text };
    // Text valid as a whole is read as `str` (serde_json then checks no
    // string again); text with invalid UTF-8 is read as bytes, which refuses
    // it where and as `serde_json::from_slice` does.
    let doc = match std::str::from_utf8(text) {
        Ok(s) => read_whole(&mut serde_json::Deserializer::from_str(s)),
        Err(_) => read_whole(&mut serde_json::Deserializer::from_slice(text)),
    };
    let doc = doc.map_err(|e| ParseError {
        msg: describe(&e),
        line: Some(e.line() as u64),
        // Columns shift when tokens were rewritten; the line still holds.
        col: if was_rewritten { None } else { Some(e.column() as u64) },
    })?;
    Ok((doc, text))
}

fn read_whole<'de, R: serde_json::de::Read<'de>>(de: &mut serde_json::Deserializer<R>) -> serde_json::Result<Doc<'de>> {
    let doc = Seed.deserialize(&mut *de)?;
    de.end()?;
    Ok(doc)
}

#[derive(Clone, Copy)]
struct Seed;

impl<'de> DeserializeSeed<'de> for Seed {
    type Value = Doc<'de>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Doc<'de>, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed {
    type Value = Doc<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_unit<E>(self) -> Result<Doc<'de>, E> {
        Ok(Doc::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Doc<'de>, E> {
        Ok(Doc::Bool(b))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Doc<'de>, E> {
        Ok(Doc::U64(n))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Doc<'de>, E> {
        Ok(Doc::I64(n))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Doc<'de>, E> {
        Ok(Doc::F64(x))
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Doc<'de>, E> {
        Ok(Doc::Str(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Doc<'de>, E> {
        Ok(Doc::Str(Cow::Owned(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<Doc<'de>, E> {
        Ok(Doc::Str(Cow::Owned(s)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Doc<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Doc::Arr(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Doc<'de>, A::Error> {
        let mut members: Vec<(Cow<'de, str>, Doc<'de>)> = Vec::with_capacity(map.size_hint().unwrap_or(8));
        let (mut first_key, mut first_array) = (None, None);
        while let Some(key) = map.next_key_seed(KeySeed)? {
            if members.is_empty() {
                if let Cow::Borrowed(k) = key {
                    first_key = Some(k.as_ptr());
                }
            }
            let value = map.next_value_seed(self)?;
            if first_array.is_none() && matches!(value, Doc::Arr(_)) {
                first_array = Some(key.clone());
            }
            members.push((key, value));
        }
        let (members, repeated) = sorted(members);
        Ok(Doc::Obj(Box::new(Object { members, repeated, first_key, first_array })))
    }
}

/// Members as a `Value` map holds them: sorted by key, and of a repeated
/// key only the last in the text. A stable sort keeps the text's order
/// among equal keys.
fn sorted<'a>(mut members: Vec<(Cow<'a, str>, Doc<'a>)>) -> (Vec<(Cow<'a, str>, Doc<'a>)>, bool) {
    if members.windows(2).all(|w| w[0].0 < w[1].0) {
        return (members, false);
    }
    members.sort_by(|a, b| a.0.cmp(&b.0));
    let before = members.len();
    // Of equal keys the last in the text wins: each later one takes the
    // kept one's place.
    members.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            std::mem::swap(later, kept);
        }
        same
    });
    let repeated = members.len() != before;
    (members, repeated)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree reads what `pyjson::parse` reads: the same values, the same
    /// order of members, the same refusals.
    #[test]
    fn reads_as_a_value_reads() {
        let texts: [&[u8]; 6] = [
            br#"{"b": 1, "a": [1, -2, 2.5, 18446744073709551615, "x\"y"], "c": {"z": null, "y": true}}"#,
            br#"{"a": 1, "a": 2, "b": NaN, "c": -Infinity}"#,
            br#"{"a": 1e999}"#,
            b"{\"a\": \"\xff\"}",
            br#"{"a": [1, 2"#,
            br#"{"a": 1} x"#,
        ];
        for text in texts {
            let mut scratch = Vec::new();
            let ours = parse_doc(text, &mut scratch).map(|(d, _)| d.to_value());
            assert_eq!(ours, super::super::parse(text), "{}", String::from_utf8_lossy(text));
        }
        let mut scratch = Vec::new();
        let (doc, _) = parse_doc(br#"{"a": 1, "a": 2}"#, &mut scratch).unwrap();
        assert!(doc.as_object().unwrap().repeats_a_key());
        assert_eq!(doc.get("a").and_then(Doc::as_f64), Some(2.0));
    }

    #[test]
    fn an_object_knows_its_place() {
        let text = b"{\"xs\": [\n  {\n    \"a\": 1},\n  {\"b\": 2}, {}]}";
        let mut scratch = Vec::new();
        let (doc, parsed) = parse_doc(text, &mut scratch).unwrap();
        let places: Vec<Option<usize>> = doc
            .get("xs")
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_object().unwrap().offset_in(parsed))
            .collect();
        assert_eq!(places, [Some(11), Some(28), None]);
        let text = b"{\"a\": 1, \"xs\": [\n {\"b\": 1},\n {\"c\": 2}]}";
        let (doc, parsed) = parse_doc(text, &mut scratch).unwrap();
        let found = super::super::array_element_offsets(parsed, 1);
        assert_eq!(doc.as_object().unwrap().element_offsets("xs", parsed), Some(found));
        // Not the first array of the text: the scan would find another.
        let text = br#"{"ys": [], "xs": [{"b": 1}]}"#;
        let (doc, parsed) = parse_doc(text, &mut scratch).unwrap();
        assert_eq!(doc.as_object().unwrap().element_offsets("xs", parsed), None);
    }
}
