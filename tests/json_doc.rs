//! docs/json.md is the schema of every `--format json` output: each output
//! below, run on the bundled example and on fixture projects, is checked
//! against the page — every object of a documented type has the fields the
//! page lists for it and no other, of the listed JSON types (an integer
//! without a point, a number with one, a word from the listed words), in
//! the output's key order — and every documented type and field is met in
//! some output, so the page cannot list what the outputs no longer hold.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use common::{copy_dir, fixtures, repo, Sandbox};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// A JSON value as written: object keys in their order, integers apart
/// from floats.
#[derive(Debug, Clone)]
enum Json {
    Null,
    Bool,
    Int,
    Float,
    Str(String),
    List(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("JSON")
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Json, E> {
        Ok(Json::Bool)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Json, E> {
        Ok(Json::Int)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Json, E> {
        Ok(Json::Int)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Json, E> {
        Ok(Json::Float)
    }
    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::Str(s.to_string()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::List(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(Json::Object(entries))
    }
}

/// A field's JSON type as the page writes it.
#[derive(Debug, Clone, PartialEq)]
enum Ty {
    /// `string`, or `string: "a", "b"` (one of those words).
    Str(Vec<String>),
    Int,
    Num,
    Bool,
    Null,
    /// `[T]`
    List(Box<Ty>),
    /// `[A, B]`
    Tuple(Vec<Ty>),
    /// `{name: T}`
    Map(Box<Ty>),
    /// `` `Type` ``, a type of the page.
    Named(String),
    /// `A or B`
    Either(Vec<Ty>),
}

/// Splits `s` at `sep` outside brackets.
fn split_top<'a>(s: &'a str, sep: &str) -> Vec<&'a str> {
    let (mut depth, mut start, mut parts) = (0i32, 0, Vec::new());
    let mut i = 0;
    while i < s.len() {
        match s.as_bytes()[i] {
            b'[' | b'{' => depth += 1,
            b']' | b'}' => depth -= 1,
            _ if depth == 0 && s[i..].starts_with(sep) => {
                parts.push(&s[start..i]);
                i += sep.len();
                start = i;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(&s[start..]);
    parts
}

fn parse_ty(text: &str) -> Ty {
    let text = text.trim();
    let alternatives = split_top(text, " or ");
    if alternatives.len() > 1 {
        return Ty::Either(alternatives.into_iter().map(parse_ty).collect());
    }
    if let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        let items = split_top(inner, ", ");
        return if items.len() == 1 {
            Ty::List(Box::new(parse_ty(items[0])))
        } else {
            Ty::Tuple(items.into_iter().map(parse_ty).collect())
        };
    }
    if let Some(inner) = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        let (_, value) = inner.split_once(": ").unwrap_or_else(|| panic!("`{{name: T}}` expected: {text}"));
        return Ty::Map(Box::new(parse_ty(value)));
    }
    if let Some(name) = text.strip_prefix('`').and_then(|t| t.strip_suffix('`')) {
        return Ty::Named(name.to_string());
    }
    if let Some(words) = text.strip_prefix("string: ") {
        return Ty::Str(words.split(", ").map(|w| w.trim_matches('"').to_string()).collect());
    }
    match text {
        "string" => Ty::Str(Vec::new()),
        "integer" => Ty::Int,
        "number" => Ty::Num,
        "boolean" => Ty::Bool,
        "null" => Ty::Null,
        _ => panic!("docs/json.md: a type it does not define: {text:?}"),
    }
}

#[derive(Debug)]
struct Field {
    name: String,
    ty: Ty,
    /// Left out in a case the page names.
    absent: bool,
}

/// The types of docs/json.md: each `### Name` heading (the name in
/// backticks) and the rows of the table below it.
fn documented() -> BTreeMap<String, Vec<Field>> {
    let page = std::fs::read_to_string(repo().join("docs/json.md")).unwrap();
    let mut types: BTreeMap<String, Vec<Field>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in page.lines() {
        if let Some(h) = line.strip_prefix("### ") {
            let name = h.trim_matches('`').to_string();
            assert!(types.insert(name.clone(), Vec::new()).is_none(), "{name} documented twice");
            current = Some(name);
        } else if line.starts_with("## ") {
            current = None;
        } else if let (Some(name), Some(row)) = (&current, line.strip_prefix("| `")) {
            let cells: Vec<&str> = row.split(" | ").collect();
            assert_eq!(cells.len(), 3, "docs/json.md: a row of {name} is not `field | type | meaning`: {line}");
            let field = cells[0].trim_end_matches('`').to_string();
            let ty = parse_ty(cells[1]);
            types.get_mut(name).unwrap().push(Field { name: field, ty, absent: cells[2].starts_with("*Absent*") });
        }
    }
    types
}

/// The key order of an output.
#[derive(Clone, Copy, PartialEq)]
enum Order {
    Alphabetical,
    AsListed,
}

/// Checks outputs against the page, and keeps what they met.
struct Checker {
    types: BTreeMap<String, Vec<Field>>,
    /// (type, field) met in some output.
    met: BTreeSet<(String, String)>,
    problems: Vec<String>,
}

impl Checker {
    /// Whether `value` is of `ty`; problems and fields met only kept when
    /// it is (an alternative that does not fit says nothing).
    fn fits(&mut self, value: &Json, ty: &Ty, order: Order, at: &str) -> bool {
        let saved = self.met.clone();
        let ok = match (ty, value) {
            (Ty::Either(alts), _) => {
                let fitting = alts.iter().position(|t| self.clone_fits(value, t, order, at));
                match fitting {
                    Some(i) => self.fits(value, &alts[i], order, at),
                    None => self.fail(at, format!("not any of {alts:?}: {value:?}")),
                }
            }
            (Ty::Str(words), Json::Str(s)) => {
                words.is_empty() || words.contains(s) || self.fail(at, format!("{s:?} is not one of {words:?}"))
            }
            (Ty::Int, Json::Int) | (Ty::Num, Json::Float) | (Ty::Bool, Json::Bool) | (Ty::Null, Json::Null) => true,
            (Ty::List(item), Json::List(items)) => {
                items.iter().enumerate().all(|(i, v)| self.fits(v, item, order, &format!("{at}[{i}]")))
            }
            (Ty::Tuple(tys), Json::List(items)) if tys.len() == items.len() => {
                tys.iter().zip(items).enumerate().all(|(i, (t, v))| self.fits(v, t, order, &format!("{at}[{i}]")))
            }
            (Ty::Map(item), Json::Object(entries)) => {
                entries.iter().all(|(k, v)| self.fits(v, item, order, &format!("{at}.{k}")))
            }
            (Ty::Named(name), Json::Object(entries)) => self.object(name, entries, order, at),
            _ => self.fail(at, format!("{value:?} is not {ty:?}")),
        };
        if !ok {
            self.met = saved;
        }
        ok
    }

    /// Whether `value` fits `ty`, leaving nothing behind.
    fn clone_fits(&mut self, value: &Json, ty: &Ty, order: Order, at: &str) -> bool {
        let (met, problems) = (self.met.clone(), self.problems.len());
        let ok = self.fits(value, ty, order, at);
        self.met = met;
        self.problems.truncate(problems);
        ok
    }

    fn fail(&mut self, at: &str, what: impl std::fmt::Display) -> bool {
        self.problems.push(format!("{at}: {what}"));
        false
    }

    /// An object of the documented type `name`.
    fn object(&mut self, name: &str, entries: &[(String, Json)], order: Order, at: &str) -> bool {
        let Some(fields) = self.types.get(name) else {
            return self.fail(at, format!("`{name}` is named as a type but docs/json.md has no `### {name}`"));
        };
        let fields: Vec<(String, Ty, bool)> = fields.iter().map(|f| (f.name.clone(), f.ty.clone(), f.absent)).collect();
        let listed: Vec<&str> = fields.iter().map(|f| f.0.as_str()).collect();
        let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
        let mut problems = Vec::new();
        for k in keys.iter().filter(|k| !listed.contains(k)) {
            problems.push(format!("`{k}` is not a field of `{name}` in docs/json.md"));
        }
        for (f, _, _) in fields.iter().filter(|(f, _, absent)| !absent && !keys.contains(&f.as_str())) {
            problems.push(format!("`{name}` lacks `{f}`, which docs/json.md does not say may be absent"));
        }
        let expected: Vec<&str> = match order {
            Order::Alphabetical => {
                let mut sorted = keys.clone();
                sorted.sort_unstable();
                sorted
            }
            Order::AsListed => listed.iter().copied().filter(|f| keys.contains(f)).collect(),
        };
        if problems.is_empty() && keys != expected {
            problems.push(format!("`{name}`'s keys {keys:?} are not in the output's order {expected:?}"));
        }
        if !problems.is_empty() {
            return self.fail(at, problems.join("; "));
        }
        let mut ok = true;
        for (k, v) in entries {
            let ty = &fields.iter().find(|(f, _, _)| f == k).unwrap().1;
            ok &= self.fits(v, ty, order, &format!("{at}.{k}"));
            self.met.insert((name.to_string(), k.clone()));
        }
        ok
    }

    /// One output of `args`: a document of `ty`, or with `lines` one per line.
    fn output(&mut self, sb: &Sandbox, args: &[&str], ty: &str, order: Order) {
        let ran = sb.run(args);
        assert!(ran.code <= 2 && !ran.stdout.is_empty(), "reckon {args:?}: {ran:?}");
        let ty = parse_ty(ty);
        let docs: Vec<&str> = if args.contains(&"jsonl") { ran.stdout.lines().collect() } else { vec![&ran.stdout] };
        for (i, text) in docs.iter().enumerate() {
            let value: Json =
                serde_json::from_str(text).unwrap_or_else(|e| panic!("reckon {args:?} is not JSON: {e}\n{ran:?}"));
            self.fits(&value, &ty, order, &format!("reckon {} #{i}", args.join(" ")));
        }
    }
}

/// The bundled example with both sweeps, and a document that does not read
/// (a bad input with a line and column).
fn example() -> Sandbox {
    let sb = Sandbox::example("", &["2026-11-20", "2026-11-29"]);
    sb.ok(&["ingest"]);
    sb.write("notebooks/bad.md", "x <!-- reckon:tabel -->\n");
    sb
}

fn fixture(name: &str) -> Sandbox {
    let sb = Sandbox::new();
    copy_dir(&fixtures().join(name), sb.path());
    sb.run(&["ingest"]);
    sb
}

/// An error rate of 0 on a side: cells compared by their difference.
fn error_rates() -> Sandbox {
    let sb = Sandbox::new();
    sb.write("reckon.toml", "series = \"config\"\n\n[[source]]\npath = \"logs/{date}/run.csv\"\n");
    for (date, rates) in [("2026-11-20", [0.0, 0.0, 0.0]), ("2026-11-29", [0.04, 0.05, 0.03])] {
        let mut csv = String::from("config,c,repeat,error_rate\n");
        for (n, v) in rates.iter().enumerate() {
            writeln!(csv, "a,1,{n},{v}").unwrap();
        }
        sb.write(&format!("logs/{date}/run.csv"), csv);
    }
    sb.ok(&["ingest"]);
    sb
}

/// The lint scenario without the alias of `max_concurrency`: lint proposes
/// the reckon.toml entries that read two of its sentences.
fn lint_without_an_alias() -> Sandbox {
    let sb = Sandbox::with_scenario();
    copy_dir(&fixtures().join("lint-scenario"), sb.path());
    let toml = sb.read("reckon.toml");
    let kept: Vec<&str> = toml.lines().filter(|l| !l.starts_with("max_concurrency = ")).collect();
    sb.write("reckon.toml", kept.join("\n") + "\n");
    sb.ok(&["ingest"]);
    sb
}

#[test]
fn every_json_output_is_as_docs_json_md_says() {
    use Order::{Alphabetical, AsListed};
    let mut c = Checker { types: documented(), met: BTreeSet::new(), problems: Vec::new() };
    let sb = example();
    let doc = "notebooks/eagle-fast-verify.md";
    c.output(&sb, &["check", "--format", "json", doc, "notebooks/bad.md"], "`CheckReport`", Alphabetical);
    c.output(&sb, &["check", "--format", "sarif", doc, "notebooks/bad.md"], "`Sarif`", Alphabetical);
    c.output(&sb, &["claims", "--format", "json"], "[`JudgedClaim`]", Alphabetical);
    c.output(&sb, &["claims", "--history", "--format", "json"], "[`ClaimHistory`]", Alphabetical);
    c.output(&sb, &["lint", "--all", "--format", "json"], "`LintReport`", Alphabetical);
    c.output(&sb, &["runs", "--format", "json", "--limit", "0", "--all-params"], "[`RunEntry`]", Alphabetical);
    c.output(&sb, &["export", "--format", "jsonl"], "`ExportRow`", Alphabetical);
    let query = ["query", "--metric", "output_throughput", "--rows", "max_concurrency", "--cols", "config"];
    c.output(&sb, &[&query[..], &["--format", "json"]].concat(), "`PivotReport`", AsListed);
    c.output(&sb, &["diff", "--format", "json", doc], "`SweepDiff`", AsListed);
    // Values shown in another unit than the stored one, repeats the log names.
    let sb = fixture("study-prefix-cache");
    c.output(&sb, &["claims", "--format", "json", "plan.md"], "[`JudgedClaim`]", Alphabetical);
    // [lint] on: the prose statements in check's report.
    let sb = fixture("lint-training");
    c.output(&sb, &["check", "--format", "json", "plan.md"], "`CheckReport`", Alphabetical);
    c.output(&sb, &["diff", "--format", "json"], "`SweepDiff`", AsListed);
    c.output(&error_rates(), &["diff", "--format", "json", "--metric", "error_rate"], "`SweepDiff`", AsListed);
    // A sweep split at midnight: its two days share no cell (exit 2), and
    // the sweeps that do are suggested.
    c.output(&fixture("trial6/midnight"), &["diff", "--format", "json"], "`SweepDiff`", AsListed);
    // A cell measured on another host in the newer sweep.
    let sb = fixture("trial6/hostmix");
    c.output(&sb, &["diff", "--format", "json"], "`SweepDiff`", AsListed);
    sb.write("h.md", "<!-- reckon:claim id=h\n     pgo beats O2 on time_s -->\nx\n<!-- /reckon:claim -->\n");
    c.output(&sb, &["claims", "--format", "json", "h.md"], "[`JudgedClaim`]", Alphabetical);
    // `others` that ran as another program (Kokkos' Mempool beside the
    // Kalman filter's benchmarks).
    let sb = Sandbox::new();
    sb.write("reckon.toml", "series = \"family\"\n");
    sb.fixture("corpus/gbench/kalman-100-repetitions-aggregates.json", "logs/kalman.json");
    sb.fixture("corpus/gbench/kokkos-mempool-user-counters-time-unit-s.json", "logs/mempool.json");
    sb.ok(&["ingest", "logs/kalman.json", "logs/mempool.json"]);
    sb.write(
        "o.md",
        "<!-- reckon:claim id=o\n     baseline beats others on real_time -->\nx\n<!-- /reckon:claim -->\n",
    );
    c.output(&sb, &["claims", "--format", "json", "o.md"], "[`JudgedClaim`]", Alphabetical);
    let sb = lint_without_an_alias();
    c.output(&sb, &["lint", "--all", "--format", "json", "eagle-fast-verify.md"], "`LintReport`", Alphabetical);

    assert!(c.problems.is_empty(), "the outputs differ from docs/json.md:\n{}", c.problems.join("\n"));
    let unmet: Vec<String> = c
        .types
        .iter()
        .flat_map(|(t, fields)| fields.iter().map(move |f| (t.clone(), f.name.clone())))
        .filter(|tf| !c.met.contains(tf))
        .map(|(t, f)| format!("{t}.{f}"))
        .collect();
    assert!(unmet.is_empty(), "docs/json.md lists fields no output holds: {unmet:?}");
}

#[test]
fn the_page_reads_as_a_schema() {
    let types = documented();
    assert!(types.len() > 30, "{:?}", types.keys());
    assert!(types.values().all(|fields| !fields.is_empty()), "a type without fields");
    assert_eq!(parse_ty("[`Side`] or null"), Ty::Either(vec![Ty::List(Box::new(Ty::Named("Side".into()))), Ty::Null]));
    assert_eq!(parse_ty("[integer, integer]"), Ty::Tuple(vec![Ty::Int, Ty::Int]));
    assert_eq!(parse_ty("string: \"a\", \"b\""), Ty::Str(vec!["a".into(), "b".into()]));
    // Every type a field names is documented.
    for (name, fields) in &types {
        for f in fields {
            let text = format!("{:?}", f.ty);
            for other in text.split("Named(\"").skip(1) {
                let other = other.split('"').next().unwrap();
                assert!(types.contains_key(other), "{name}.{} names `{other}`, not documented", f.name);
            }
        }
    }
}
