//! A JSON record read without copying: strings borrow the line they were
//! read from (unless they hold escapes), numbers are `f64` at once, and an
//! object's members are a sorted `Vec` rather than a map of owned keys.
//!
//! It reads exactly what [`super::parse`] reads into a `serde_json::Value`
//! — the same deserializer sees the same text, so the same texts are
//! refused with the same messages — and iterates members the way a
//! `Value` map does: sorted by key, the last of a repeated key kept. The
//! difference is cost: a `Value` allocates a `String` per key and string
//! and a map node per member, all freed again once the record became a run.

use std::borrow::Cow;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{describe, rewrite_into, sentinel_f64, ParseError};

/// One JSON value of a record.
#[derive(Debug, Clone, PartialEq)]
pub enum Node<'a> {
    Null,
    Bool(bool),
    /// Any JSON number, read as `f64` (as `Value::as_f64` reads it).
    Num(f64),
    /// A string; Python's bare `Infinity`/`NaN` tokens arrive as the
    /// sentinel strings [`super::as_f64`] knows.
    Str(Cow<'a, str>),
    /// An array whose elements were read (to check them) but not kept: see
    /// [`Reader::parse`].
    Skipped,
    Arr(Vec<Node<'a>>),
    /// Members sorted by key, each key once (its last value).
    Obj(Vec<Member<'a>>),
}

/// A member of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Member<'a> {
    pub key: Cow<'a, str>,
    pub value: Node<'a>,
    /// Its place in the text among the object's members.
    at: u32,
}

impl Node<'_> {
    /// The numeric reading: numbers, and the sentinels of `Infinity`,
    /// `-Infinity` and `NaN` (as [`super::as_f64`]).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Node::Num(x) => Some(*x),
            Node::Str(s) => sentinel_f64(s),
            _ => None,
        }
    }
}

/// Reads records one after another, keeping the buffer that Python's bare
/// tokens are rewritten into.
#[derive(Default)]
pub struct Reader {
    rewritten: Vec<u8>,
    /// The keys of the last top-level object, in text order, and the order
    /// [`sorted_members`] put its members in: records of one log name the
    /// same keys in the same order, so the sort is done once per log.
    last_keys: Vec<String>,
    last_order: Vec<u32>,
}

impl Reader {
    /// Parses one JSON text in Python's dialect. Arrays that are members of
    /// the top-level object are checked as `serde_json` checks them, then
    /// dropped ([`Node::Skipped`]): they are per-request detail, as long as
    /// the rest of the record many times over. Deeper arrays are kept.
    pub fn parse<'s>(&'s mut self, text: &'s [u8]) -> Result<Node<'s>, ParseError> {
        let was_rewritten = rewrite_into(text, &mut self.rewritten);
        let text: &'s [u8] = if was_rewritten { &self.rewritten } else { text };
        // Text valid as a whole is read as `str`: serde_json then checks no
        // string again (on bytes it validates each one, a call per key and
        // value). Text with invalid UTF-8 is read as bytes, which refuses it
        // where and as `serde_json::from_slice` does.
        let node = match std::str::from_utf8(text) {
            Ok(text) => read_whole(&mut serde_json::Deserializer::from_str(text)),
            Err(_) => read_whole(&mut serde_json::Deserializer::from_slice(text)),
        };
        let node = node.map_err(|e| ParseError {
            msg: describe(&e),
            line: Some(e.line() as u64),
            // Columns shift when tokens were rewritten; the line still holds.
            col: if was_rewritten { None } else { Some(e.column() as u64) },
        })?;
        Ok(match node {
            Node::Obj(members) => Node::Obj(sorted_top(&mut self.last_keys, &mut self.last_order, members)),
            node => node,
        })
    }
}

/// The top-level members sorted as [`sorted_members`] sorts them: in the
/// order found for the last record (`last_order`) when its keys
/// (`last_keys`) were the same.
fn sorted_top<'a>(last_keys: &mut Vec<String>, last_order: &mut Vec<u32>, members: Vec<Member<'a>>) -> Vec<Member<'a>> {
    let same =
        members.len() == last_keys.len() && members.iter().zip(last_keys.iter()).all(|(m, k)| m.key == k.as_str());
    if !same {
        last_keys.clear();
        last_keys.extend(members.iter().map(|m| m.key.to_string()));
        let sorted = sorted_members(members);
        last_order.clear();
        last_order.extend(sorted.iter().map(|m| m.at));
        return sorted;
    }
    let mut slots: Vec<Option<Member<'a>>> = members.into_iter().map(Some).collect();
    last_order.iter().filter_map(|&at| slots.get_mut(at as usize).and_then(Option::take)).collect()
}

/// Reads one value and checks that nothing but whitespace follows it.
fn read_whole<'de, R: serde_json::de::Read<'de>>(
    de: &mut serde_json::Deserializer<R>,
) -> serde_json::Result<Node<'de>> {
    let node = NodeSeed { depth: 0 }.deserialize(&mut *de)?;
    de.end()?;
    Ok(node)
}

/// Reads a value; `depth` 1 is a member of the top-level object.
#[derive(Clone, Copy)]
struct NodeSeed {
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for NodeSeed {
    type Value = Node<'de>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Node<'de>, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for NodeSeed {
    type Value = Node<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<Node<'de>, E> {
        Ok(Node::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Node<'de>, E> {
        Ok(Node::Bool(b))
    }

    // As `serde_json::Number::as_f64` reads each kind.
    #[allow(clippy::cast_precision_loss)] // the reading `Value::as_f64` gives
    fn visit_u64<E>(self, n: u64) -> Result<Node<'de>, E> {
        Ok(Node::Num(n as f64))
    }

    #[allow(clippy::cast_precision_loss)] // the reading `Value::as_f64` gives
    fn visit_i64<E>(self, n: i64) -> Result<Node<'de>, E> {
        Ok(Node::Num(n as f64))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Node<'de>, E> {
        Ok(Node::Num(x))
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Node<'de>, E> {
        Ok(Node::Str(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Node<'de>, E> {
        Ok(Node::Str(Cow::Owned(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<Node<'de>, E> {
        Ok(Node::Str(Cow::Owned(s)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node<'de>, A::Error> {
        if self.depth == 1 {
            while seq.next_element_seed(Check)?.is_some() {}
            return Ok(Node::Skipped);
        }
        let inner = NodeSeed { depth: self.depth + 1 };
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(inner)? {
            items.push(item);
        }
        Ok(Node::Arr(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node<'de>, A::Error> {
        let inner = NodeSeed { depth: self.depth + 1 };
        // A record's top level has tens of members (bench_serving: 40);
        // growing from a few reallocated it three times a record.
        let guess = if self.depth == 0 { 64 } else { 8 };
        let mut members: Vec<Member<'de>> = Vec::with_capacity(map.size_hint().unwrap_or(guess));
        let mut at = 0;
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let value = map.next_value_seed(inner)?;
            members.push(Member { key, value, at });
            at = at.wrapping_add(1);
        }
        // The top-level object is sorted by the reader, which knows the
        // order of the record before.
        Ok(Node::Obj(if self.depth == 0 { members } else { sorted_members(members) }))
    }
}

/// Members as a map iterates them: sorted by key, and of each repeated key
/// only the last in the text. An unstable sort (no scratch memory) ordered
/// by place among equal keys gives the stable order.
fn sorted_members(mut members: Vec<Member<'_>>) -> Vec<Member<'_>> {
    if members.windows(2).all(|w| w[0].key < w[1].key) {
        return members;
    }
    members.sort_unstable_by(|a, b| a.key.cmp(&b.key).then(a.at.cmp(&b.at)));
    // Of equal keys the last in the text wins: each later one takes the
    // kept one's place.
    members.dedup_by(|later, kept| {
        let same = later.key == kept.key;
        if same {
            std::mem::swap(later, kept);
        }
        same
    });
    members
}

/// Reads an object key, borrowing it when it holds no escape (the
/// whole-document tree, `doc`, reads its keys so too).
pub(super) struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Cow<'de, str>, D::Error> {
        de.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(s))
    }

    fn visit_str<E>(self, s: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(s))
    }
}

/// Reads a value only to check it, as a `Value` would be read (numbers
/// parsed in full, so one out of range is refused alike), keeping nothing.
#[derive(Clone, Copy)]
struct Check;

impl<'de> DeserializeSeed<'de> for Check {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Check {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_key_seed(CheckKey)?.is_some() {
            map.next_value_seed(self)?;
        }
        Ok(())
    }
}

/// Reads an object key only to check it.
struct CheckKey;

impl<'de> DeserializeSeed<'de> for CheckKey {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_str(Check)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_that_are_not_utf8_are_refused_as_serde_json_refuses_them() {
        let texts: [&[u8]; 5] = [
            b"{\"a\": \"\xff\"}",
            b"{\"\xc3\": 1}",
            b"{\"a\": 1, \"b\": \"ok\"}\xff",
            b"{\"a\": Infinity, \"b\": \"\xe2\x82\"}",
            b"{\"ttfts\": [\"\xff\"]}",
        ];
        for text in texts {
            let general = super::super::parse(text).map(|_| ()).unwrap_err();
            let fast = Reader::default().parse(text).map(|_| ()).unwrap_err();
            assert_eq!(fast, general, "{}", String::from_utf8_lossy(text));
        }
        // And the same text made valid reads.
        assert!(Reader::default().parse("{\"a\": \"é\", \"é\": 1}".as_bytes()).is_ok());
    }
}
