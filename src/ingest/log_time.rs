//! A run's time as a log writes it: epoch seconds or ISO 8601 under a
//! time-like name (`timestamp`, `date`, `datetime`, `start_time`,
//! `created_at`, …). Such a field is when the run happened (stored with
//! the origin `log`), never a param (two repeats written a minute apart
//! would be two points) nor a measurement.

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};

/// The names, folded (lower case, `-` and spaces as `_`), that say a field
/// is when the run happened.
const TIME_NAMES: &[&str] =
    &["timestamp", "time_stamp", "date", "datetime", "start_time", "started_at", "created_at", "run_date"];

/// Whether a field's name says it is when the run happened (case, `-` and
/// spaces do not matter; a dotted name is judged by itself, not its last
/// part: `context.date` is a format's business).
pub fn is_time_name(name: &str) -> bool {
    let folded = fold(name);
    TIME_NAMES.contains(&folded.as_str()) || folded == BARE_TIME
}

/// A bare `time` is when the run happened only as ISO 8601 text, and only
/// when no other time-like field says it: a number under it may as well be
/// a duration (1.5e9 ns is 1.5 s, and in the plain epoch range), so it is
/// left as the log wrote it.
const BARE_TIME: &str = "time";

fn fold(name: &str) -> String {
    name.chars().map(|c| if c == '-' || c == ' ' { '_' } else { c.to_ascii_lowercase() }).collect()
}

/// Whether `name` is the bare `time` ([`BARE_TIME`]).
pub fn is_bare_time(name: &str) -> bool {
    fold(name) == BARE_TIME
}

/// A number under the time-like `name` as RFC 3339 UTC ([`from_epoch`];
/// never for a bare `time`).
pub fn from_named_epoch(name: &str, value: f64) -> Option<String> {
    if is_bare_time(name) {
        return None;
    }
    from_epoch(value)
}

/// Text under the time-like `name` ([`from_text`]; for a bare `time`, a
/// number only as [`from_named_epoch`] reads it).
pub fn from_named_text(name: &str, text: &str) -> Option<String> {
    from_iso(text).or_else(|| crate::syntax::read_padded(text).and_then(|v| from_named_epoch(name, v)))
}

/// Epoch seconds (1973 to 2286: 1e8 to 1e10), or epoch milliseconds
/// (1e11 to 1e13, the same years), as RFC 3339 UTC. Anything else is not a
/// time: a `date` of `5` is something else the log calls a date.
pub fn from_epoch(value: f64) -> Option<String> {
    let seconds = if (1e8..1e10).contains(&value) {
        value
    } else if (1e11..1e13).contains(&value) {
        value / 1000.0
    } else {
        return None;
    };
    // Within the range above: the conversion is exact enough and in range.
    #[allow(clippy::cast_possible_truncation)]
    let t = DateTime::<Utc>::from_timestamp(seconds.floor() as i64, 0)?;
    Some(rfc3339(&t))
}

/// ISO 8601 text as RFC 3339 UTC: with a zone or an offset (converted to
/// UTC), without one (read as UTC), with a space for the `T`, with
/// fractions of a second (dropped), or a date alone (its midnight).
pub fn from_iso(text: &str) -> Option<String> {
    read_iso(text).map(|(t, _)| t)
}

/// [`from_iso`], and whether the text gave its zone or offset: a time of
/// day without one was read as UTC, which a reader should be told (the
/// log may have written the machine's local time).
pub fn from_iso_zoned(text: &str) -> Option<(String, bool)> {
    read_iso(text)
}

fn read_iso(text: &str) -> Option<(String, bool)> {
    let t = text.trim();
    if let Ok(d) = DateTime::parse_from_rfc3339(t) {
        return Some((rfc3339(&d.with_timezone(&Utc)), true));
    }
    for fmt in ["%Y-%m-%dT%H:%M:%S%.f%z", "%Y-%m-%d %H:%M:%S%.f%z", "%Y-%m-%dT%H:%M:%S%.f%:z"] {
        if let Ok(d) = DateTime::parse_from_str(t, fmt) {
            return Some((rfc3339(&d.with_timezone(&Utc)), true));
        }
    }
    for fmt in ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M"] {
        if let Ok(d) = NaiveDateTime::parse_from_str(t, fmt) {
            return Some((rfc3339(&d.and_utc()), false));
        }
    }
    // A date alone names a day, not a time of day: no offset to miss.
    let date = NaiveDate::parse_from_str(t, "%Y-%m-%d").ok().filter(|_| t.len() == 10)?;
    Some((rfc3339(&date.and_hms_opt(0, 0, 0)?.and_utc()), true))
}

/// Text that is a time: ISO 8601, or epoch seconds written as text.
pub fn from_text(text: &str) -> Option<String> {
    from_iso(text).or_else(|| crate::syntax::read_padded(text).and_then(from_epoch))
}

fn rfc3339(t: &DateTime<Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epochs_and_iso_texts_read_as_utc() {
        assert_eq!(from_epoch(1_703_135_943.0).as_deref(), Some("2023-12-21T05:19:03Z"));
        assert_eq!(from_epoch(1_719_663_898_000.0).as_deref(), Some("2024-06-29T12:24:58Z"));
        assert_eq!(from_epoch(5.0), None);
        assert_eq!(from_epoch(f64::NAN), None);
        assert_eq!(from_iso("2022-09-10T19:22:43-07:00").as_deref(), Some("2022-09-11T02:22:43Z"));
        assert_eq!(from_iso("2015-08-15T00:04:18.687119+00:00").as_deref(), Some("2015-08-15T00:04:18Z"));
        assert_eq!(from_iso("2015-08-15T00:04:18.687119").as_deref(), Some("2015-08-15T00:04:18Z"));
        assert_eq!(from_iso("2024-01-09 10:11:12").as_deref(), Some("2024-01-09T10:11:12Z"));
        assert_eq!(from_iso("2024-01-09").as_deref(), Some("2024-01-09T00:00:00Z"));
        assert_eq!(from_iso("yesterday"), None);
        assert_eq!(from_iso_zoned("2016-08-02 17:44:46"), Some(("2016-08-02T17:44:46Z".into(), false)));
        assert_eq!(from_iso_zoned("2022-09-10T19:22:43-07:00").map(|(_, z)| z), Some(true));
        assert_eq!(from_text("1703135943").as_deref(), Some("2023-12-21T05:19:03Z"));
        assert!(is_time_name("Created-At") && is_time_name("timestamp") && !is_time_name("duration"));
        // A bare `time`: ISO text only; a number may be a duration.
        assert_eq!(from_named_epoch("time", 1_717_228_058.0), None);
        assert_eq!(from_named_epoch("time", 1.5e9), None);
        assert_eq!(from_named_text("Time", "2024-06-01T07:47:38Z").as_deref(), Some("2024-06-01T07:47:38Z"));
        assert_eq!(from_named_text("time", "1717228058"), None);
        assert_eq!(from_named_epoch("timestamp", 9e8).as_deref(), Some("1998-07-09T16:00:00Z"));
    }
}
