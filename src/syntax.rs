//! The vocabulary the filter language (`--where`, `where=`) and the claim
//! language share, so that a value written in one means the same in the
//! other: the literal a statement compares with, the comparison operators,
//! how a written value reads as a number (and how every stage reads a
//! number from text: [`read_number`] and the family beside it), and where a
//! byte of a statement sits as a line and column.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::ops::Range;
use std::path::Path;

use serde::Serialize;

use crate::error::Span;
use crate::metric::format_number;

/// The numeric reading of a written value, if it has one: `8`, `1e-3`,
/// `'8'` once unquoted, and `inf` / `Infinity` (how vLLM writes an
/// unbounded request rate). Surrounding spaces are ignored; NaN is not a
/// number a researcher compares with. What a researcher writes (a filter,
/// a claim, a cell's key, a region's argument) is read by this one; what a
/// log writes by [`read_logged`], the grammar both share.
pub(crate) fn read_number(text: &str) -> Option<f64> {
    read_padded(text).filter(|v| !v.is_nan())
}

/// A number as a log or a data file writes it, the one grammar every
/// reader of numbers in reckon shares: an optional sign, digits with an
/// optional point and exponent (`12`, `-0.5`, `.5`, `1e-3`, `2E+6`), or
/// `inf` / `infinity` / `nan` in any case — nothing around it (a format
/// whose cells are padded trims them first, and says so at its call).
/// NaN is kept: a log's `nan` is a measurement that is missing, which the
/// store keeps as such. No digit separators (`1_000`, `1,000`; for commas
/// see [`read_grouped`]), no hex.
pub(crate) fn read_logged(text: &str) -> Option<f64> {
    text.parse::<f64>().ok()
}

/// [`read_logged`] of a number padded with spaces, as consoles, tables and
/// JSON strings print them (`  12.50 `): trimmed first.
pub(crate) fn read_padded(text: &str) -> Option<f64> {
    read_logged(text.trim())
}

/// [`read_logged`] of a number whose digits may be grouped by commas
/// (`1,234.5`), as GenAI-Perf's exports and prose write thousands: every
/// comma is dropped before reading.
pub(crate) fn read_grouped(text: &str) -> Option<f64> {
    if text.contains(',') {
        read_logged(&text.replace(',', ""))
    } else {
        read_logged(text)
    }
}

/// A value written in a filter or a claim: a bare number, or text (quoted,
/// or a bare word that is not a number). Text that reads as a number (a
/// quoted `'8'`) compares as that number; see [`Literal::compare`].
/// Two literals are equal when they are the same kind and the same value
/// (numbers as numbers: `-0` is `0`; NaN, which no reader makes, equals
/// NaN), so a literal can be part of a key (a pivot's query).
#[derive(Debug, Clone)]
pub enum Literal {
    Num(f64),
    Text(String),
}

impl PartialEq for Literal {
    fn eq(&self, other: &Literal) -> bool {
        match (self, other) {
            (Literal::Num(a), Literal::Num(b)) => number_bits(*a) == number_bits(*b),
            (Literal::Text(a), Literal::Text(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Literal {}

impl std::hash::Hash for Literal {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        match self {
            Literal::Num(n) => (0u8, number_bits(*n)).hash(h),
            Literal::Text(t) => (1u8, t).hash(h),
        }
    }
}

/// A number's bits with the numbers `==` holds equal made one: `-0` as
/// `0`, every NaN as one NaN (so equality is an equivalence).
fn number_bits(n: f64) -> u64 {
    if n == 0.0 {
        0.0f64.to_bits()
    } else if n.is_nan() {
        f64::NAN.to_bits()
    } else {
        n.to_bits()
    }
}

impl Literal {
    /// A bare word as both languages read it: a number when it reads as
    /// one (`8`, `inf`), else text.
    pub fn bare(word: &str) -> Literal {
        match read_number(word) {
            Some(n) => Literal::Num(n),
            None => Literal::Text(word.to_string()),
        }
    }

    /// The numeric reading: the number, or the text read as one.
    pub fn number(&self) -> Option<f64> {
        match self {
            Literal::Num(n) => Some(*n),
            Literal::Text(t) => read_number(t),
        }
    }

    /// The text a text value is compared with: the text, or the number as
    /// reckon prints it.
    pub fn text(&self) -> Cow<'_, str> {
        match self {
            Literal::Num(n) => Cow::Owned(format_number(*n)),
            Literal::Text(t) => Cow::Borrowed(t),
        }
    }

    /// The text of a text literal (`None` for a number).
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Literal::Num(_) => None,
            Literal::Text(t) => Some(t),
        }
    }

    /// A value compared with this literal (`value.cmp(literal)`), the value
    /// given as its numeric reading and its text (either may be absent).
    /// As numbers when both read as numbers, as text when both are text;
    /// `None` when the two cannot be ordered (a number against text that
    /// is not one).
    pub fn compare(&self, num: Option<f64>, text: Option<&str>) -> Option<Ordering> {
        compare_read(num, text, self.number(), self.as_text())
    }
}

/// [`Literal::compare`] with the literal's readings already taken (a
/// filter takes them once, not once per run).
pub(crate) fn compare_read(
    num: Option<f64>,
    text: Option<&str>,
    lit_num: Option<f64>,
    lit_text: Option<&str>,
) -> Option<Ordering> {
    if let (Some(a), Some(b)) = (num, lit_num) {
        return a.partial_cmp(&b);
    }
    Some(text?.cmp(lit_text?))
}

impl Serialize for Literal {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Literal::Num(n) => s.serialize_f64(*n),
            Literal::Text(t) => s.serialize_str(t),
        }
    }
}

/// A value that is a number or a text: the one value type the stages
/// share — a run's param as its log holds it ([`crate::run::Value`]), a
/// part of a pivot's row or column key (`query::Key`: a param's value as a
/// pivot groups it, see [`Value::key`]). Equal, hashed and ordered as a
/// value: numbers as numbers (`-0` is `0`, NaN is NaN), before any text;
/// texts as a researcher reads them, runs of digits as the numbers they
/// are (`1k` < `2k` < `10k`), then byte by byte so the order stays total.
#[derive(Debug, Clone)]
pub enum Value {
    Text(String),
    Num(f64),
}

impl Value {
    /// A value as a researcher writes it (a cell's key in `lookup`, `8`,
    /// `inf`, `baseline`): a number when it reads as one ([`read_number`];
    /// `-0` as `0`), else the text.
    pub fn parse(text: &str) -> Value {
        match read_number(text) {
            Some(n) => Value::Num(if n == 0.0 { 0.0 } else { n }),
            None => Value::Text(text.to_string()),
        }
    }

    /// The value as a pivot groups it: its numeric reading when it has one
    /// (`"8"` and `8.0` are one cell; `-0` is `0`), else its text.
    #[must_use]
    pub fn key(&self) -> Value {
        Value::from_ref(ValueRef::key_of(self.as_f64(), self.as_text().unwrap_or("NaN")))
    }

    /// The owned value of a borrowed one.
    pub fn from_ref(value: ValueRef<'_>) -> Value {
        match value {
            ValueRef::Num(bits) => Value::Num(f64::from_bits(bits)),
            ValueRef::Text(t) => Value::Text(t.to_string()),
        }
    }

    /// The numeric reading of the value, if it has one (`"8"` reads as 8,
    /// `"inf"` as infinity; see [`read_number`]).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Num(n) => Some(*n),
            Value::Text(t) => read_number(t),
        }
    }

    /// The text of a text value (`None` for a number).
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Value::Num(_) => None,
            Value::Text(t) => Some(t),
        }
    }

    /// Whether the value is a number.
    pub fn is_num(&self) -> bool {
        matches!(self, Value::Num(_))
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Num(a), Value::Num(b)) => number_bits(*a) == number_bits(*b),
            (Value::Text(a), Value::Text(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Value {}

impl std::hash::Hash for Value {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        match self {
            Value::Num(n) => (0u8, number_bits(*n)).hash(h),
            Value::Text(t) => (1u8, t).hash(h),
        }
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        match (self, other) {
            (Value::Num(a), Value::Num(b)) => {
                f64::from_bits(number_bits(*a)).total_cmp(&f64::from_bits(number_bits(*b)))
            }
            (Value::Num(_), Value::Text(_)) => Ordering::Less,
            (Value::Text(_), Value::Num(_)) => Ordering::Greater,
            (Value::Text(a), Value::Text(b)) => natural(a, b).then_with(|| a.cmp(b)),
        }
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Text in the order a researcher reads it: runs of digits compare as the
/// numbers they are (`1k` < `2k` < `10k`, `BM_x/2` < `BM_x/10`), the rest
/// character by character. Texts equal this way (`01`, `1`) are told apart
/// by [`Value`]'s plain comparison after it, so the order stays total.
fn natural(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a, b);
    loop {
        let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
        let (da, db) = (digits(a), digits(b));
        let step = if da > 0 && db > 0 {
            let (na, nb) = (a[..da].trim_start_matches('0'), b[..db].trim_start_matches('0'));
            let o = na.len().cmp(&nb.len()).then_with(|| na.cmp(nb));
            (a, b) = (&a[da..], &b[db..]);
            o
        } else {
            let (Some(ca), Some(cb)) = (a.chars().next(), b.chars().next()) else {
                return a.len().cmp(&b.len());
            };
            (a, b) = (&a[ca.len_utf8()..], &b[cb.len_utf8()..]);
            ca.cmp(&cb)
        };
        if step != Ordering::Equal {
            return step;
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Text(t) => f.write_str(t),
            Value::Num(n) => f.write_str(&format_number(*n)),
        }
    }
}

impl Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Num(n) if n.is_finite() => s.serialize_f64(*n),
            // JSON has no infinity: write it as reckon prints it.
            Value::Num(n) => s.serialize_str(&format_number(*n)),
            Value::Text(t) => s.serialize_str(t),
        }
    }
}

/// A [`Value`] borrowed, to hash and compare without allocating (grouping
/// a run allocates only when it opens a new cell; the distinct values of a
/// param are found without copying them): a number by its bits, a text by
/// reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueRef<'a> {
    Num(u64),
    Text(&'a str),
}

impl<'a> ValueRef<'a> {
    /// The value exactly as held: `8` and `"8"` are two, and so are `-0`
    /// and `0` (the store's distinct values).
    pub fn of(value: &'a Value) -> ValueRef<'a> {
        match value {
            Value::Num(n) => ValueRef::Num(n.to_bits()),
            Value::Text(t) => ValueRef::Text(t),
        }
    }

    /// A value as a pivot groups it, given its numeric reading and its
    /// text: the reading when there is one (`-0` as `0`), else the text.
    pub fn key_of(number: Option<f64>, text: &'a str) -> ValueRef<'a> {
        match number {
            Some(n) => ValueRef::Num(if n == 0.0 { 0.0f64 } else { n }.to_bits()),
            None => ValueRef::Text(text),
        }
    }
}

/// A comparison a filter or a claim writes. A filter's predicates use the
/// six orderings; a claim's points use those but `!=`, and a claim's
/// stated numbers add `≈` and `in lo..hi`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `≈` (or `~=`): within a tolerance.
    Approx,
    /// `in lo..hi`: inside a stated range.
    In,
}

impl Op {
    /// How the filter language writes the operator.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Eq => "=",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Approx => "≈",
            Op::In => "in",
        }
    }

    /// Whether `value ∘ literal` holds given `value.cmp(literal)` (`None`:
    /// the two cannot be ordered, or the value is missing). Only `!=`
    /// passes an unordered pair; `≈` on an ordering is `=`, and a range
    /// is not an ordering.
    pub fn accepts(self, ord: Option<Ordering>) -> bool {
        match self {
            Op::Ne => ord != Some(Ordering::Equal),
            Op::Eq | Op::Approx => ord == Some(Ordering::Equal),
            Op::Lt => ord == Some(Ordering::Less),
            Op::Le => matches!(ord, Some(Ordering::Less | Ordering::Equal)),
            Op::Gt => ord == Some(Ordering::Greater),
            Op::Ge => matches!(ord, Some(Ordering::Greater | Ordering::Equal)),
            Op::In => false,
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The 1-based line and column (in characters) of byte `offset` in
/// `text`. An offset inside a character counts as that character; a
/// byte-order mark does not count as a column.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(text, offset);
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let prefix = before[line_start..].strip_prefix('\u{feff}').unwrap_or(&before[line_start..]);
    (line, prefix.chars().count() + 1)
}

/// User text as an error message quotes it: whole when short, else its
/// first [`EXCERPT_CHARS`] characters, an ellipsis and its length
/// (`aaaa… (20000000 characters)`), so a huge value in a document or a
/// command makes a readable, bounded message.
pub(crate) fn excerpt(text: &str) -> Cow<'_, str> {
    let mut chars = text.char_indices();
    match chars.nth(EXCERPT_CHARS) {
        None => Cow::Borrowed(text),
        Some((cut, _)) => Cow::Owned(format!("{}… ({} characters)", &text[..cut], text.chars().count())),
    }
}

/// How many characters of user text an error message quotes.
pub(crate) const EXCERPT_CHARS: usize = 60;

/// Byte offset → line:col for many offsets of one text: where each line
/// starts and how many characters precede every [`Lines::CHUNK`]-th byte,
/// computed once, so each look-up costs a binary search and at most a chunk
/// of counting (with [`line_col`], each scans the text before the offset).
/// Gives what [`line_col`] gives.
pub(crate) struct Lines<'t> {
    text: &'t str,
    /// Byte offset of the start of each line, the first at 0.
    starts: Vec<usize>,
    /// Characters before byte `k * CHUNK`, for each `k`.
    chars: Vec<usize>,
}

impl<'t> Lines<'t> {
    const CHUNK: usize = 256;

    pub(crate) fn new(text: &'t str) -> Lines<'t> {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        starts.extend(bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i + 1));
        let mut chars = Vec::with_capacity(bytes.len() / Self::CHUNK + 1);
        let mut count = 0;
        chars.push(0);
        for chunk in bytes.chunks(Self::CHUNK) {
            count += chunk.iter().filter(|b| !is_continuation(**b)).count();
            chars.push(count);
        }
        Lines { text, starts, chars }
    }

    /// Characters in `text[..offset]` (`offset` a char boundary).
    fn chars_before(&self, offset: usize) -> usize {
        let k = offset / Self::CHUNK;
        let from = k * Self::CHUNK;
        self.chars[k] + self.text.as_bytes()[from..offset].iter().filter(|b| !is_continuation(**b)).count()
    }

    /// The 1-based line and column (in characters) of byte `offset`, as
    /// [`line_col`] reads them.
    pub(crate) fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(self.text, offset);
        let line = self.starts.partition_point(|s| *s <= offset);
        let start = self.starts[line - 1];
        let mut col = self.chars_before(offset) - self.chars_before(start) + 1;
        if self.text[start..].starts_with('\u{feff}') && offset >= start + '\u{feff}'.len_utf8() {
            col -= 1;
        }
        (line, col)
    }
}

/// The [`Span`] of `bytes` of `text` (the file `path`): its line and
/// column read by [`line_col`], the one reading of a byte as a place.
pub(crate) fn span(path: &Path, text: &str, bytes: Range<usize>) -> Span {
    let at = line_col(text, bytes.start);
    Span::located(path, bytes, at)
}

/// Whether a byte continues a UTF-8 character rather than starting one.
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// The byte offset of the 1-based character column `col` of `text` (its
/// end when the column is past it).
pub(crate) fn byte_of_col(text: &str, col: usize) -> usize {
    text.char_indices().nth(col.saturating_sub(1)).map_or(text.len(), |(i, _)| i)
}

/// The largest char boundary at or before `i` (clamped to the text).
pub(crate) fn floor_char_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_one_way() {
        assert_eq!(read_number("8"), Some(8.0));
        assert_eq!(read_number(" 1e-3 "), Some(0.001));
        assert_eq!(read_number("Infinity"), Some(f64::INFINITY));
        assert_eq!(read_number("-inf"), Some(f64::NEG_INFINITY));
        assert_eq!(read_number("NaN"), None);
        assert_eq!(read_number("v2"), None);
        assert_eq!(read_number("+inf"), Some(f64::INFINITY));
        assert_eq!(read_number("INF"), Some(f64::INFINITY));
        assert_eq!(read_number(" "), None);
    }

    #[test]
    fn logged_numbers_keep_nan_and_nothing_around_them() {
        assert_eq!(read_logged("12.50"), Some(12.5));
        assert_eq!(read_logged(".5"), Some(0.5));
        assert_eq!(read_logged("2E+6"), Some(2e6));
        assert_eq!(read_logged("-Infinity"), Some(f64::NEG_INFINITY));
        assert!(read_logged("nan").is_some_and(f64::is_nan));
        assert!(read_logged("-NaN").is_some_and(f64::is_nan));
        for not in ["", " 8", "8 ", "1_000", "1,000", "0x10", "8ms", "e5"] {
            assert_eq!(read_logged(not), None, "{not:?}");
        }
        assert_eq!(read_padded("  12.50 "), Some(12.5));
        assert!(read_padded(" nan").is_some_and(f64::is_nan));
        assert_eq!(read_grouped("1,234.5"), Some(1234.5));
        assert_eq!(read_grouped("12"), Some(12.0));
        assert_eq!(read_grouped(" 1,000"), None, "no trimming: the caller's rule");
    }

    #[test]
    fn literals_are_equal_as_values_and_hash_alike() {
        use std::hash::{BuildHasher, RandomState};
        let hashes = RandomState::new();
        let same = [(Literal::Num(-0.0), Literal::Num(0.0)), (Literal::Num(f64::NAN), Literal::Num(-f64::NAN))];
        for (a, b) in same {
            assert_eq!(a, b);
            assert_eq!(hashes.hash_one(&a), hashes.hash_one(&b));
        }
        assert_ne!(Literal::Num(8.0), Literal::Text("8".into()));
        assert_ne!(Literal::Num(8.0), Literal::Num(8.5));
    }

    #[test]
    fn values_are_equal_hashed_and_ordered_as_values() {
        use std::hash::{BuildHasher, RandomState};
        let hashes = RandomState::new();
        assert_eq!(Value::Num(-0.0), Value::Num(0.0));
        assert_eq!(hashes.hash_one(Value::Num(-0.0)), hashes.hash_one(Value::Num(0.0)));
        assert_ne!(Value::Num(8.0), Value::Text("8".into()));
        assert_eq!(Value::Text("8".into()).key(), Value::Num(8.0));
        assert_eq!(Value::Text("eagle".into()).key(), Value::Text("eagle".into()));
        assert!(matches!(Value::parse(" -0 "), Value::Num(n) if n.to_bits() == 0));
        let text = |t: &str| Value::Text(t.into());
        let mut values = [text("10k"), text("2k"), Value::Num(30.0), Value::parse("-inf"), text("1"), text("01")];
        values.sort();
        let shown: Vec<String> = values.iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["-inf", "30", "01", "1", "2k", "10k"]);
        // Borrowed: exactly as held, or as a pivot groups it.
        assert_ne!(ValueRef::of(&Value::Num(-0.0)), ValueRef::of(&Value::Num(0.0)));
        assert_ne!(ValueRef::of(&Value::Num(8.0)), ValueRef::of(&Value::Text("8".into())));
        assert_eq!(ValueRef::key_of(Some(-0.0), "-0"), ValueRef::key_of(Some(0.0), "0"));
        assert_eq!(Value::from_ref(ValueRef::key_of(None, "x")), Value::Text("x".into()));
    }

    #[test]
    fn a_quoted_number_compares_as_the_number() {
        let quoted = Literal::Text("8".into());
        assert_eq!(quoted.compare(Some(8.0), None), Some(Ordering::Equal));
        assert_eq!(quoted.compare(Some(30.0), Some("30")), Some(Ordering::Greater));
        assert_eq!(Literal::Text("8".into()).compare(None, Some("8")), Some(Ordering::Equal));
        assert_eq!(Literal::Text("x".into()).compare(Some(1.0), None), None);
        assert_eq!(Literal::Num(8.0).compare(None, Some("random")), None);
        assert!(!Op::Eq.accepts(None) && Op::Ne.accepts(None));
    }

    #[test]
    fn lines_and_columns_count_characters() {
        let text = "ab\n\u{feff}é x";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 3), (2, 1));
        assert_eq!(line_col(text, text.find('x').unwrap()), (2, 3));
        assert_eq!(line_col(text, 999), (2, 4));
        assert_eq!(byte_of_col("éx", 2), 2);
    }

    #[test]
    fn excerpts_are_bounded() {
        assert_eq!(excerpt("short"), "short");
        let exact = "é".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exact), exact);
        let long = format!("{exact}x");
        assert_eq!(excerpt(&long), format!("{exact}… ({} characters)", EXCERPT_CHARS + 1));
    }

    #[test]
    fn the_line_table_reads_as_line_col_does() {
        let long = "é".repeat(5000);
        let text = format!("ab\n\u{feff}é x\r\n{long}z\n\nlast");
        let lines = Lines::new(&text);
        for offset in (0..text.len() + 2).step_by(7).chain([0, 3, 4, 6, text.len(), text.len() + 9]) {
            assert_eq!(lines.line_col(offset), line_col(&text, offset), "offset {offset}");
        }
        assert_eq!(Lines::new("").line_col(0), (1, 1));
    }

    #[test]
    fn a_span_is_placed_where_its_first_byte_is() {
        let text = "ab\n\u{feff}é x";
        let x = text.find('x').unwrap();
        let span = super::span(Path::new("plan.md"), text, x..x + 1);
        assert_eq!((span.to_string(), span.bytes()), ("plan.md:2:3".to_string(), x..x + 1));
    }
}
