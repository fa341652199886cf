//! `sql` regions: a read-only SQL query over the database, rendered as a
//! markdown table (the escape hatch). Tables: `run`, `source`, `batch`,
//! `metric`, `measurement`; views `run_param` and `run_metric`.

use super::{number_format, Args, Context, RegionError, Rendered};
use crate::query::markdown_table;

pub fn render(ctx: &Context, args: &Args) -> Result<Rendered, RegionError> {
    args.allow(&["query", "digits", "as_of"])?;
    let sql = args.required("query")?;
    let fmt = number_format(args)?;
    let conn = ctx.store.connection();
    let err = |e: rusqlite::Error| RegionError::new(Some("query"), format!("SQL: {e}"));
    let mut stmt = conn.prepare(sql).map_err(err)?;
    // reckon cannot pin arbitrary SQL to a sweep by itself: `as_of=` binds
    // `:as_of`, which the query must use (a pin it ignored would be a lie).
    if let Some(value) = args.get("as_of") {
        let date = super::as_of_date(value).map_err(|msg| RegionError::new(Some("as_of"), msg))?;
        let Some(index) = stmt.parameter_index(":as_of").map_err(err)? else {
            return Err(RegionError::new(
                Some("as_of"),
                "as_of= on an sql region binds `:as_of`; use it in the query, e.g. `WHERE substr(r.time, 1, 10) <= :as_of`",
            ));
        };
        stmt.raw_bind_parameter(index, date).map_err(err)?;
    }
    if !stmt.readonly() {
        return Err(RegionError::new(
            Some("query"),
            "SQL regions may only read (SELECT); this statement would change the database",
        ));
    }
    let header: Vec<String> = stmt.column_names().into_iter().map(str::to_string).collect();
    let n = header.len();
    let mut rows = if args.get("as_of").is_some() { stmt.raw_query() } else { stmt.query([]).map_err(err)? };
    let mut body: Vec<Vec<String>> = Vec::new();
    let mut numeric = vec![true; n];
    while let Some(row) = rows.next().map_err(err)? {
        let mut line = Vec::with_capacity(n);
        for (i, is_num) in numeric.iter_mut().enumerate() {
            use rusqlite::types::ValueRef;
            let text = match row.get_ref(i).map_err(err)? {
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
        if body.len() > 10_000 {
            return Err(RegionError::new(
                Some("query"),
                "the query returns more than 10,000 rows; add a LIMIT or aggregate",
            ));
        }
    }
    Ok(Rendered { content: markdown_table(&header, &numeric, &body).trim_end().to_string(), files: vec![] })
}
