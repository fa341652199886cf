//! `sql` regions: a read-only SQL query over the database, rendered as a
//! markdown table (the escape hatch). Tables: `run`, `source`, `batch`,
//! `metric`, `measurement`; views `run_param` and `run_metric`.
//!
//! A document is not trusted: it may come from a pull request. Its query may
//! read reckon's own database and nothing else — an `SQLite` authorizer allows
//! `SELECT`, reads of the main database and a list of pure functions, and
//! refuses everything else (ATTACH, PRAGMA, writes, transactions); a
//! progress handler stops a query that runs longer than `[limits]
//! sql_seconds` (a recursive CTE that never ends).

use std::time::{Duration, Instant};

use rusqlite::hooks::{AuthAction, AuthContext, Authorization};

use super::{Context, RegionError, Rendered};
use crate::doc::spec::SqlSpec;
use crate::query::markdown_table;

/// The most rows a region's table may have.
const MAX_ROWS: usize = 10_000;

/// The functions a query may call: `SQLite`'s core scalar, aggregate, window,
/// date, math and JSON functions. None of them reads or writes a file or
/// changes the connection.
const FUNCTIONS: &[&str] = &[
    // core scalar
    "abs",
    "char",
    "coalesce",
    "concat",
    "concat_ws",
    "format",
    "glob",
    "hex",
    "ifnull",
    "iif",
    "if",
    "instr",
    "length",
    "like",
    "likelihood",
    "likely",
    "lower",
    "ltrim",
    "max",
    "min",
    "nullif",
    "octet_length",
    "printf",
    "quote",
    "random",
    "replace",
    "round",
    "rtrim",
    "sign",
    "soundex",
    "substr",
    "substring",
    "trim",
    "typeof",
    "unhex",
    "unicode",
    "unlikely",
    "upper",
    "zeroblob",
    "randomblob",
    "unistr",
    "unistr_quote",
    // aggregate
    "avg",
    "count",
    "group_concat",
    "string_agg",
    "sum",
    "total",
    "median",
    "percentile",
    "percentile_cont",
    "percentile_disc",
    // window
    "row_number",
    "rank",
    "dense_rank",
    "percent_rank",
    "cume_dist",
    "ntile",
    "lag",
    "lead",
    "first_value",
    "last_value",
    "nth_value",
    // date and time
    "date",
    "time",
    "datetime",
    "julianday",
    "unixepoch",
    "strftime",
    "timediff",
    "current_date",
    "current_time",
    "current_timestamp",
    // math
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "ceil",
    "ceiling",
    "cos",
    "cosh",
    "degrees",
    "exp",
    "floor",
    "ln",
    "log",
    "log10",
    "log2",
    "mod",
    "pi",
    "pow",
    "power",
    "radians",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "trunc",
    // JSON
    "json",
    "jsonb",
    "json_array",
    "jsonb_array",
    "json_array_length",
    "json_error_position",
    "json_extract",
    "jsonb_extract",
    "json_insert",
    "jsonb_insert",
    "json_object",
    "jsonb_object",
    "json_patch",
    "jsonb_patch",
    "json_pretty",
    "json_remove",
    "jsonb_remove",
    "json_replace",
    "jsonb_replace",
    "json_set",
    "jsonb_set",
    "json_type",
    "json_valid",
    "json_quote",
    "json_group_array",
    "jsonb_group_array",
    "json_group_object",
    "jsonb_group_object",
    "json_each",
    "json_tree",
];

/// Whether a query may do this: read-only work on the main database.
fn allowed(ctx: &AuthContext<'_>) -> bool {
    match ctx.action {
        AuthAction::Select | AuthAction::Recursive => true,
        // Reads of reckon's database; `temp` holds nothing a query could
        // not compute itself, and an attached file is refused at ATTACH.
        // Not the evaluation cache: it is no data, and what a query read of
        // it would depend on which checks ran before.
        AuthAction::Read { table_name, .. } if CACHE_TABLES.contains(&table_name) => false,
        AuthAction::Read { .. } => matches!(ctx.database_name, Some("main") | None),
        AuthAction::Function { function_name } => FUNCTIONS.iter().any(|f| f.eq_ignore_ascii_case(function_name)),
        _ => false,
    }
}

/// The tables of the evaluation cache (`store::evaluations`).
const CACHE_TABLES: [&str; 2] = ["data_generation", "evaluation_cache"];

/// A short name for a refused action, for the error message.
fn describe(action: &AuthAction<'_>) -> String {
    match action {
        AuthAction::Attach { .. } => "ATTACH (reading another database file)".into(),
        AuthAction::Detach { .. } => "DETACH".into(),
        AuthAction::Pragma { pragma_name, .. } => format!("PRAGMA {pragma_name}"),
        AuthAction::Function { function_name } => format!("the function {function_name}()"),
        AuthAction::Read { table_name, .. } if CACHE_TABLES.contains(table_name) => {
            format!("reading {table_name}, reckon's cache of what regions evaluated to, not data")
        }
        AuthAction::Read { table_name, .. } => format!("reading {table_name} outside reckon's database"),
        AuthAction::Transaction { .. } | AuthAction::Savepoint { .. } => "a transaction".into(),
        AuthAction::Insert { .. } | AuthAction::Update { .. } | AuthAction::Delete { .. } => {
            "changing the database".into()
        }
        other => format!("{other:?}").split([' ', '{']).next().unwrap_or("this statement").to_string(),
    }
}

pub fn render(ctx: &Context, spec: &SqlSpec) -> Result<Rendered, RegionError> {
    render_on(ctx.store.connection(), ctx.settings, spec, &Stop::never())
}

/// When to give up on a query besides its time budget: another region
/// evaluated beside this one failed first, so its result would be thrown
/// away (see `review::evaluate`).
#[derive(Clone)]
pub struct Stop(Option<std::sync::Arc<dyn Fn() -> bool + Send + Sync>>);

impl Stop {
    /// Run to the end (or the time budget).
    pub fn never() -> Stop {
        Stop(None)
    }

    /// Give up once `when` returns true (it is asked every few thousand
    /// steps of the query).
    pub fn when(when: impl Fn() -> bool + Send + Sync + 'static) -> Stop {
        Stop(Some(std::sync::Arc::new(when)))
    }

    fn now(&self) -> bool {
        self.0.as_ref().is_some_and(|f| f())
    }
}

/// [`render`] over a given connection: `sql` regions may run on their own
/// read-only connections, beside the regions that read the dataset.
pub fn render_on(
    conn: &rusqlite::Connection,
    settings: &super::Settings,
    spec: &SqlSpec,
    stop: &Stop,
) -> Result<Rendered, RegionError> {
    let fmt = spec.format;
    let err = |e: rusqlite::Error| RegionError::at(&spec.query, format!("SQL: {e}"));

    // The first refused action, to say what was refused rather than
    // SQLite's "not authorized".
    let refused = std::sync::Arc::new(std::sync::Mutex::new(None::<String>));
    let seen = refused.clone();
    conn.authorizer(Some(move |a: AuthContext<'_>| {
        if allowed(&a) {
            Authorization::Allow
        } else {
            if let Ok(mut r) = seen.lock() {
                r.get_or_insert_with(|| describe(&a.action));
            }
            Authorization::Deny
        }
    }));
    let budget = Duration::from_secs_f64(settings.sql_seconds);
    let deadline = Instant::now() + budget;
    // Checked every 10,000 virtual machine steps; returning true interrupts.
    let asked = stop.clone();
    conn.progress_handler(10_000, Some(move || Instant::now() > deadline || asked.now()));
    let result = run(conn, spec, &fmt);
    conn.authorizer(None::<fn(AuthContext<'_>) -> Authorization>);
    conn.progress_handler(0, None::<fn() -> bool>);

    match result {
        Ok(r) => Ok(r),
        Err(Failure::Sql(e)) => {
            if let Some(what) = refused.lock().ok().and_then(|r| r.clone()) {
                return Err(RegionError::at(
                    &spec.query,
                    format!("SQL regions may only read reckon's database; {what} is not allowed"),
                ));
            }
            let interrupted = matches!(&e, rusqlite::Error::SqliteFailure(f, _)
                if f.code == rusqlite::ErrorCode::OperationInterrupted);
            if interrupted && stop.now() {
                return Err(RegionError::at(&spec.query, "the query was stopped: another region failed first"));
            }
            if interrupted {
                return Err(RegionError::at(
                    &spec.query,
                    format!(
                        "the query ran longer than {}s and was stopped; simplify it, or raise `sql_seconds` under \
                         [limits] in reckon.toml",
                        settings.sql_seconds
                    ),
                ));
            }
            Err(err(e))
        }
        Err(Failure::Region(e)) => Err(e),
    }
}

enum Failure {
    Sql(rusqlite::Error),
    Region(RegionError),
}

impl From<rusqlite::Error> for Failure {
    fn from(e: rusqlite::Error) -> Self {
        Failure::Sql(e)
    }
}

fn run(conn: &rusqlite::Connection, spec: &SqlSpec, fmt: &crate::query::NumberFormat) -> Result<Rendered, Failure> {
    let mut stmt = conn.prepare(&spec.query.value)?;
    // reckon cannot pin arbitrary SQL to a sweep by itself: `as_of=` binds
    // `:as_of`, which the query must use (a pin it ignored would be a lie).
    if let Some(as_of) = &spec.as_of {
        let date = as_of.value.as_str();
        let Some(index) = stmt.parameter_index(":as_of")? else {
            return Err(Failure::Region(RegionError::at(
                as_of,
                "as_of= on an sql region binds `:as_of`; use it in the query, e.g. \
                 `WHERE substr(r.time, 1, 10) <= :as_of`",
            )));
        };
        stmt.raw_bind_parameter(index, date)?;
    }
    if !stmt.readonly() {
        return Err(Failure::Region(RegionError::at(
            &spec.query,
            "SQL regions may only read (SELECT); this statement would change the database",
        )));
    }
    let header: Vec<String> = stmt.column_names().into_iter().map(str::to_string).collect();
    let n = header.len();
    if n == 0 {
        return Err(Failure::Region(RegionError::at(
            &spec.query,
            "the statement returns no columns; a sql region shows the result of a SELECT",
        )));
    }
    let mut rows = if spec.as_of.is_some() { stmt.raw_query() } else { stmt.query([])? };
    let mut body: Vec<Vec<String>> = Vec::new();
    let mut numeric = vec![true; n];
    while let Some(row) = rows.next()? {
        let mut line = Vec::with_capacity(n);
        for (i, is_num) in numeric.iter_mut().enumerate() {
            use rusqlite::types::ValueRef;
            let text = match row.get_ref(i)? {
                ValueRef::Null => String::new(),
                ValueRef::Integer(v) => v.to_string(),
                ValueRef::Real(v) => fmt.format(v),
                ValueRef::Text(t) => {
                    *is_num = false;
                    String::from_utf8_lossy(t).into_owned()
                }
                ValueRef::Blob(b) => {
                    *is_num = false;
                    format!("<{} bytes>", b.len())
                }
            };
            line.push(text);
        }
        body.push(line);
        if body.len() > MAX_ROWS {
            return Err(Failure::Region(RegionError::at(
                &spec.query,
                format!("the query returns more than {MAX_ROWS} rows; add a LIMIT or aggregate"),
            )));
        }
    }
    Ok(Rendered::text(markdown_table(&header, &numeric, &body).trim_end().to_string()))
}

#[cfg(test)]
mod tests {
    use super::{render_on, Stop};
    use crate::doc::spec::SqlSpec;
    use crate::render::Settings;
    use crate::store::Store;

    fn settings(sql_seconds: f64) -> Settings {
        Settings {
            series: "config".into(),
            templates: "templates".into(),
            aliases: std::collections::BTreeMap::new(),
            margins: crate::metric::Margins::default(),
            sql_seconds,
            template_fuel: 1000,
            supersede: crate::claims::judge::Supersede::Cell,
        }
    }

    fn query(sql: &str) -> SqlSpec {
        match crate::doc::spec::read_one(&format!("sql query=\"{sql}\"")) {
            crate::doc::RegionSpec::Sql(spec) => spec,
            other => panic!("not an sql region: {other:?}"),
        }
    }

    /// A query that never ends on its own.
    const ENDLESS: &str = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n";

    #[test]
    fn a_query_is_stopped_when_told_long_before_its_time_budget() {
        let store = Store::open_in_memory().unwrap();
        let told = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = told.clone();
        let stop = Stop::when(move || flag.load(std::sync::atomic::Ordering::Relaxed));
        // Told after the query started: without the stop it would run for
        // the hour its budget allows (and this test would not end).
        let teller = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            told.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        let err = render_on(store.connection(), &settings(3600.0), &query(ENDLESS), &stop).unwrap_err();
        teller.join().unwrap();
        assert_eq!(err.msg, "the query was stopped: another region failed first");
        // The connection is left as it was: the next query runs in full.
        let out = render_on(store.connection(), &settings(3600.0), &query("SELECT 41 + 1 AS n"), &Stop::never());
        assert_eq!(out.unwrap().content, "| n |\n|---:|\n| 42 |");
    }
}
