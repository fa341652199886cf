//! A run's params as the JSON object the store keeps (one row per distinct
//! set, found again by its text), and read back into [`Value`]s.
//!
//! The text is the set's identity: the same params must give the same bytes
//! in every reckon version, or a database written by an older one would
//! hold the same set twice and see every source's labels as changed. So
//! `serde_json` writes it through a formatter that keeps the bytes reckon
//! always wrote: numbers as Rust prints them (`1`, not `1.0`; never an
//! exponent), and backspace and form feed as `\u0008` / `\u000c`.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io;

use serde::ser::{Serialize, Serializer};
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};

use crate::metric;
use crate::run::{RawRun, Value};

/// A run's params merged with the labels (a label wins over the log's
/// param of the same name), as the JSON object the store keeps: keys
/// sorted, written into `out` (cleared first).
pub fn encode_params(run: &RawRun, labels: &BTreeMap<String, Value>, out: &mut String) {
    // Labels first so that, after a stable sort by name, a label comes
    // before the log's param of the same name and wins the dedup.
    let mut merged: Vec<(&str, &Value)> = Vec::with_capacity(labels.len() + run.params.len());
    merged.extend(labels.iter().map(|(k, v)| (k.as_str(), v)));
    merged.extend(run.params.iter().map(|(k, v)| (k.as_str(), v)));
    merged.sort_by(|a, b| a.0.cmp(b.0));
    merged.dedup_by(|later, first| later.0 == first.0);
    write_params_json(out, merged.into_iter());
}

/// The key a param set is found by in the store (`param_set.hash`): the
/// first 8 bytes of the blake3 of its text, little-endian. Stored, so it
/// must stay the same in every reckon version; a lookup always compares
/// the text too, so two sets whose keys collide stay apart.
pub(super) fn params_hash(params_json: &str) -> i64 {
    params_hash_bytes(params_json.as_bytes())
}

/// [`params_hash`] of the text's bytes.
pub(super) fn params_hash_bytes(params_json: &[u8]) -> i64 {
    let mut first = [0u8; 8];
    first.copy_from_slice(&blake3::hash(params_json).as_bytes()[..8]);
    i64::from_le_bytes(first)
}

/// Labels as the JSON the store keeps with a source.
pub fn labels_json(labels: &BTreeMap<String, Value>) -> String {
    let mut s = String::new();
    write_params_json(&mut s, labels.iter().map(|(k, v)| (k.as_str(), v)));
    s
}

/// A label's value as the labels JSON of a source holds it: a value, or
/// text as a label given as text is read ([`Value::from_label`]) without
/// building the value — checking that an unchanged log still has the
/// labels it was stored with allocates nothing per log.
#[derive(Clone, Copy)]
pub enum LabelRef<'a> {
    Value(&'a Value),
    Read(&'a str),
}

/// [`labels_json`] of labels given in key order (each key once), written
/// into `out` (replacing what it held, keeping its allocation).
pub fn write_labels_json<'a>(out: &mut String, labels: impl Iterator<Item = (&'a str, LabelRef<'a>)>) {
    let mut buf = std::mem::take(out).into_bytes();
    buf.clear();
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, StoredForm);
    let _ = ser.collect_map(labels.map(|(k, v)| (k, Label(v))));
    *out = String::from_utf8(buf).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

/// One label value as the store writes it: as [`Param`] writes the value
/// [`Value::from_label`] would make.
struct Label<'a>(LabelRef<'a>);

impl Serialize for Label<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            LabelRef::Value(v) => Param(v).serialize(s),
            LabelRef::Read(t) => match Value::label_number(t) {
                Some(n) => Param(&Value::Num(n)).serialize(s),
                None => s.serialize_str(t),
            },
        }
    }
}

/// Writes params as a JSON object into `out` (replacing what it held,
/// keeping its allocation). Non-finite numbers become the strings "inf",
/// "-inf", "NaN" (JSON has no such numbers).
fn write_params_json<'a>(out: &mut String, params: impl Iterator<Item = (&'a str, &'a Value)>) {
    let mut buf = std::mem::take(out).into_bytes();
    buf.clear();
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, StoredForm);
    // Writing into a Vec cannot fail and every key is a string, so there is
    // no error to report.
    let _ = ser.collect_map(params.map(|(k, v)| (k, Param(v))));
    // serde_json writes UTF-8 from UTF-8 keys and values.
    *out = String::from_utf8(buf).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

/// One param value as the store writes it.
struct Param<'a>(&'a Value);

impl Serialize for Param<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Num(n) if n.is_finite() => s.serialize_f64(*n),
            Value::Num(n) => s.serialize_str(&metric::format_number(*n)),
            Value::Text(t) => s.serialize_str(t),
        }
    }
}

/// `serde_json`'s compact output with the two choices the stored form made
/// before it was written with `serde_json` (see the module comment).
struct StoredForm;

impl Formatter for StoredForm {
    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f64) -> io::Result<()> {
        write!(w, "{value}")
    }

    fn write_char_escape<W: ?Sized + io::Write>(&mut self, w: &mut W, escape: CharEscape) -> io::Result<()> {
        match escape {
            CharEscape::Backspace => w.write_all(b"\\u0008"),
            CharEscape::FormFeed => w.write_all(b"\\u000c"),
            other => CompactFormatter.write_char_escape(w, other),
        }
    }
}

/// Reads a run's params JSON (an object of numbers and strings, keys
/// sorted, as [`write_params_json`] writes it); anything unreadable is no
/// params.
pub(super) fn parse_params(json: &str) -> BTreeMap<String, Value> {
    let mut pairs = Vec::new();
    parse_param_pairs(json, &mut pairs);
    // Keys come sorted, so the map is built in bulk; a repeated key keeps
    // its last value, as inserting one by one would.
    pairs.into_iter().map(|(k, v)| (k.into_owned(), v)).collect()
}

/// Reads a run's params JSON into `out` (cleared first) as (name, value)
/// pairs in the order written, each name borrowed from `json` unless it
/// holds an escape; anything unreadable is no params. Loading a dataset
/// reads hundreds of these: allocating every name of every set cost more
/// than the parse.
pub(crate) fn parse_param_pairs<'j>(json: &'j str, out: &mut Vec<(Cow<'j, str>, Value)>) {
    out.clear();
    let mut de = serde_json::Deserializer::from_str(json);
    let read = serde::Deserializer::deserialize_map(&mut de, Pairs(out)).and_then(|()| de.end());
    if read.is_err() {
        out.clear();
    }
}

/// Fills a list of pairs from a JSON object.
struct Pairs<'o, 'j>(&'o mut Vec<(Cow<'j, str>, Value)>);

/// A param's name, borrowed from the JSON text where it can be.
struct Name<'j>(Cow<'j, str>);

/// One param value: numbers as numbers, strings as text, anything else
/// (null, booleans, arrays, objects) as its JSON text.
struct ParamValue(Value);

impl<'de> serde::de::Visitor<'de> for Pairs<'_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object of params")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        while let Some((Name(k), ParamValue(v))) = map.next_entry::<Name<'de>, ParamValue>()? {
            self.0.push((k, v));
        }
        Ok(())
    }
}

impl<'de> serde::Deserialize<'de> for Name<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Name<'de>, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Name<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a param name")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> std::result::Result<Name<'de>, E> {
                Ok(Name(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> std::result::Result<Name<'de>, E> {
                Ok(Name(Cow::Owned(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> std::result::Result<Name<'de>, E> {
                Ok(Name(Cow::Owned(v)))
            }
        }
        d.deserialize_str(Visit)
    }
}

impl<'de> serde::Deserialize<'de> for ParamValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<ParamValue, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = ParamValue;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a param value")
            }
            fn visit_f64<E>(self, v: f64) -> std::result::Result<ParamValue, E> {
                Ok(ParamValue(Value::Num(v)))
            }
            fn visit_i64<E>(self, v: i64) -> std::result::Result<ParamValue, E> {
                Ok(ParamValue(Value::Num(v as f64)))
            }
            fn visit_u64<E>(self, v: u64) -> std::result::Result<ParamValue, E> {
                Ok(ParamValue(Value::Num(v as f64)))
            }
            fn visit_str<E>(self, v: &str) -> std::result::Result<ParamValue, E> {
                Ok(ParamValue(Value::Text(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> std::result::Result<ParamValue, E> {
                Ok(ParamValue(Value::Text(v)))
            }
            fn visit_unit<E>(self) -> std::result::Result<ParamValue, E> {
                Ok(ParamValue(Value::Text("null".into())))
            }
            fn visit_bool<E>(self, v: bool) -> std::result::Result<ParamValue, E> {
                Ok(ParamValue(Value::Text(v.to_string())))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> std::result::Result<ParamValue, A::Error> {
                let v: serde_json::Value =
                    serde::Deserialize::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))?;
                Ok(ParamValue(Value::Text(v.to_string())))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> std::result::Result<ParamValue, A::Error> {
                let v: serde_json::Value =
                    serde::Deserialize::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(ParamValue(Value::Text(v.to_string())))
            }
        }
        d.deserialize_any(Visit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, Value)]) -> BTreeMap<String, Value> {
        pairs.iter().map(|(k, v)| ((*k).to_string(), v.clone())).collect()
    }

    #[test]
    fn labels_read_from_text_are_written_as_the_values_read_from_them() {
        let texts = ["8", "007", "1e3", " 2", "", " ", "inf", "NaN", "-0", "0.1", "eagle-topk1", "a\"b\u{8}"];
        let mut out = String::from("left over");
        for t in texts {
            let given = Value::Text("x".into());
            let built = labels(&[("a", Value::from_label(t)), ("b", given.clone())]);
            write_labels_json(&mut out, [("a", LabelRef::Read(t)), ("b", LabelRef::Value(&given))].into_iter());
            assert_eq!(out, labels_json(&built), "{t:?}");
        }
    }

    #[test]
    fn the_stored_form_keeps_the_bytes_reckon_always_wrote() {
        // These bytes are the identity of a param set in existing databases.
        let cases: &[(Value, &str)] = &[
            (Value::Num(1.0), "1"),
            (Value::Num(-0.0), "-0"),
            (Value::Num(0.1), "0.1"),
            (Value::Num(2.5e-7), "0.00000025"),
            (Value::Num(1e21), "1000000000000000000000"),
            (Value::Num(f64::INFINITY), "\"inf\""),
            (Value::Num(f64::NEG_INFINITY), "\"-inf\""),
            (Value::Num(f64::NAN), "\"NaN\""),
            (Value::Text("plain ünïcödé ✓".into()), "\"plain ünïcödé ✓\""),
            (Value::Text("quote \" and \\ slash /".into()), r#""quote \" and \\ slash /""#),
            (Value::Text("tab\tnew\nline\r".into()), r#""tab\tnew\nline\r""#),
            (
                Value::Text("nul \u{0} bs \u{8} ff \u{c} us \u{1f} del \u{7f}".into()),
                "\"nul \\u0000 bs \\u0008 ff \\u000c us \\u001f del \u{7f}\"",
            ),
        ];
        for (value, expect) in cases {
            assert_eq!(labels_json(&labels(&[("k", value.clone())])), format!("{{\"k\":{expect}}}"), "{value:?}");
        }
        assert_eq!(labels_json(&BTreeMap::new()), "{}");
        // Where serde_json's own escaping applies, it is serde_json's.
        for text in ["plain", "quote \" and \\ backslash", "tab\tnew\nline\r", "nul \u{0} bell \u{7}", "ünïcödé ✓"]
        {
            let json = labels_json(&labels(&[("k", Value::Text(text.into()))]));
            assert_eq!(json, format!("{{\"k\":{}}}", serde_json::to_string(text).unwrap()));
        }
        let two = labels(&[("b", Value::Num(2.0)), ("a", Value::Text("x".into()))]);
        assert_eq!(labels_json(&two), r#"{"a":"x","b":2}"#);
    }

    #[test]
    fn a_label_wins_over_the_log_param_of_the_same_name() {
        let mut run = RawRun::new(1);
        run.param("backend", Value::Text("sglang".into()));
        run.param("rate", Value::Num(4.0));
        let labels = labels(&[("backend", Value::Text("patched".into())), ("config", Value::Text("a".into()))]);
        let mut out = "left over".to_string();
        encode_params(&run, &labels, &mut out);
        assert_eq!(out, r#"{"backend":"patched","config":"a","rate":4}"#);
    }

    #[test]
    fn params_read_back_as_written_and_odd_json_reads_as_its_text() {
        let p = parse_params(
            r#"{"a":1,"b":"x","c":null,"d":true,"e":[1,"y"],"f":{"g":2},"h":-2.5e3,"i":18446744073709551615}"#,
        );
        assert_eq!(p["a"], Value::Num(1.0));
        assert_eq!(p["b"], Value::Text("x".into()));
        assert_eq!(p["c"], Value::Text("null".into()));
        assert_eq!(p["d"], Value::Text("true".into()));
        assert_eq!(p["e"], Value::Text(r#"[1,"y"]"#.into()));
        assert_eq!(p["f"], Value::Text(r#"{"g":2}"#.into()));
        assert_eq!(p["h"], Value::Num(-2500.0));
        assert_eq!(p["i"], Value::Num(u64::MAX as f64));
        assert_eq!(p.len(), 8);
        // A repeated key keeps its last value; unreadable JSON is no params.
        assert_eq!(parse_params(r#"{"k":1,"k":2}"#)["k"], Value::Num(2.0));
        assert!(parse_params("not json").is_empty());
        assert!(parse_params("[1]").is_empty());
        // What the store writes reads back.
        let labels = labels(&[("config", Value::Text("a\"b".into())), ("rate", Value::Num(f64::INFINITY))]);
        let back = parse_params(&labels_json(&labels));
        assert_eq!(back["config"], Value::Text("a\"b".into()));
        assert_eq!(back["rate"], Value::Text("inf".into()));
    }
}
