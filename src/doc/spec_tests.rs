use super::*;

/// The spec of one region, and the text it was read from (for spans).
fn read(directive: &str) -> (Result<RegionSpec, RegionError>, String) {
    let kind = directive.split_whitespace().next().unwrap_or_default();
    let text = format!("<!-- reckon:{directive} -->\n<!-- /reckon:{kind} -->\n");
    let doc = super::super::parse(std::path::Path::new("t.md"), &text).expect("the directive parses");
    (doc.regions.into_iter().next().expect("one region").spec, text)
}

/// The error of a region's arguments: what the span it points at holds,
/// and the message.
fn error(directive: &str) -> (String, String) {
    let (spec, text) = read(directive);
    let e = spec.expect_err("the arguments are wrong");
    (e.at.map(|at| text[at].to_string()).unwrap_or_default(), e.msg)
}

#[test]
fn a_table_reads_each_argument_as_its_type() {
    let RegionSpec::Table(t) = read_one(
        "table metric=tput rows=c,,model cols=config where=\"c > 1\" as_of=2026-11-20 agg=mean digits=2 \
         sort=-baseline highlight=best ratio=a/b,c/d caption=yes labels=\"c=Concurrency\"",
    ) else {
        panic!("not a table")
    };
    assert!(matches!(&t.metrics, TableMetrics::One(m) if m.value == "tput"));
    assert_eq!(t.rows.value, ["c", "model"]);
    assert_eq!(t.rows.raw, "c,,model");
    assert_eq!(t.cols.map(|c| c.value), Some(vec!["config".to_string()]));
    assert_eq!(t.selection.filter.as_ref().map(|f| f.value.as_str().to_string()), Some("c > 1".into()));
    assert_eq!(t.selection.as_of.as_ref().map(|d| d.value.as_str()), Some("2026-11-20"));
    assert_eq!(t.agg.map(|a| a.value), Some(Agg::Mean));
    assert_eq!(t.format, NumberFormat { precision: Some(2) });
    assert_eq!(t.sort.map(|s| s.value), Some(Sort::Column { name: "baseline".into(), descending: true }));
    assert_eq!(t.highlight.map(|h| h.value), Some(true));
    assert_eq!(t.ratio.map(|r| r.value), Some(vec!["a/b".to_string(), "c/d".to_string()]));
    assert!(t.caption);
    assert_eq!(t.labels.map(|l| l.value), Some("c=Concurrency".into()));
}

#[test]
fn several_metrics_need_a_series() {
    let RegionSpec::Table(t) = read_one("table metrics=a,b series=baseline rows=c") else { panic!("not a table") };
    assert!(matches!(&t.metrics, TableMetrics::Several { metrics, series }
        if metrics.value == ["a", "b"] && series.value == "baseline"));
    assert_eq!(error("table metrics=a,b rows=c"), (String::new(), "missing argument `series=`".into()));
    assert_eq!(
        error("table metric=m metrics=a,b rows=c").0,
        "metrics=a,b",
        "both metric= and metrics= is an error at metrics="
    );
}

#[test]
fn a_value_keeps_its_pins_and_its_over() {
    let RegionSpec::Value(v) = read_one("value metric=tput config=\"eagle v2\" c=30 max_over=batch digits=1") else {
        panic!("not a value")
    };
    let pins: Vec<(&str, &str)> = v.pins.iter().map(|p| (p.value.param.as_str(), p.value.value.as_str())).collect();
    assert_eq!(pins, [("config", "eagle v2"), ("c", "30")]);
    let over = v.over.expect("max_over");
    assert_eq!((over.param.value.as_str(), over.max, over.key()), ("batch", true, "max_over"));
    assert_eq!(
        error("value metric=m max_over=a min_over=b"),
        ("min_over=b".into(), "give `max_over=` or `min_over=`, not both".into())
    );
}

#[test]
fn a_plot_reads_its_shape() {
    let RegionSpec::Plot(p) = read_one("plot metric=m x=c kind=bar log=xy file=a.svg title=T") else {
        panic!("not a plot")
    };
    assert_eq!((p.kind, p.log_x, p.log_y), (PlotKind::Bar, true, true));
    assert_eq!(p.file.map(|f| f.value), Some("a.svg".into()));
    let RegionSpec::Plot(p) = read_one("plot metric=m x=c") else { panic!("not a plot") };
    assert_eq!((p.kind, p.log_x, p.log_y, p.series), (PlotKind::Line, false, false, None));
    assert_eq!(error("plot metric=m x=c log=z"), ("log=z".into(), "log=`z`: expected `x`, `y` or `xy`".into()));
    assert_eq!(error("plot metric=m x=c kind=pie"), ("kind=pie".into(), "kind=`pie`: expected `line` or `bar`".into()));
    assert_eq!(error("plot metric=m"), (String::new(), "missing argument `x=`".into()));
}

#[test]
fn sql_template_and_diff_read_their_arguments() {
    let RegionSpec::Sql(s) = read_one("sql query=\"SELECT 1\" as_of=2026-01-02 digits=3") else { panic!("not sql") };
    assert_eq!((s.query.value.as_str(), s.as_of.map(|d| d.value)), ("SELECT 1", Some("2026-01-02".into())));
    let RegionSpec::Template(t) = read_one("template name=best-per-row.md metric=m rows=c") else {
        panic!("not a template")
    };
    assert_eq!((t.name.value.as_str(), t.rows.map(|r| r.value)), ("best-per-row.md", Some(vec!["c".into()])));
    let RegionSpec::Diff(d) = read_one("diff metric=a,b by=c only=moved digits=25") else { panic!("not a diff") };
    assert_eq!(d.metrics.map(|m| m.value), Some(vec!["a".to_string(), "b".to_string()]));
    // A diff's digits are not bounded as a table's are (as before).
    assert_eq!((d.only_moved, d.digits), (true, Some(25)));
    assert_eq!(error("diff only=all"), ("only=all".into(), "only=`all`: expected `moved`".into()));
}

#[test]
fn a_claim_with_a_bad_date_is_still_a_claim() {
    let RegionSpec::Claim(c) = read_one("claim id=c1 superseded=2026-11-29 a beats b on m") else {
        panic!("not a claim")
    };
    assert_eq!((c.id.value.as_str(), c.superseded.map(|s| s.value)), ("c1", Some("2026-11-29".into())));
    let (spec, text) = read("claim id=c2 as_of=\"nov 20\" a beats b on m");
    let Ok(RegionSpec::Claim(c)) = spec else { panic!("a claim") };
    let e = c.as_of.expect("as_of").expect_err("not a date");
    assert_eq!(&text[e.at.expect("at the date")], "nov 20");
    assert_eq!(e.msg, "claim `c2`: as_of=`nov 20`: expected a sweep date, YYYY-MM-DD (e.g. as_of=2026-11-20)");
}

#[test]
fn each_error_points_at_its_argument() {
    assert_eq!(
        error("table metric=m rows=c colz=config"),
        (
            "colz=config".into(),
            "unknown argument `colz` (did you mean `cols`?); this region takes: metric, metrics, series, rows, \
             cols, where, as_of, agg, digits, sort, highlight, ratio, caption, labels"
                .into()
        )
    );
    assert_eq!(
        error("table metric=m rows=c digits=x"),
        ("digits=x".into(), "digits=`x`: expected a whole number".into())
    );
    assert_eq!(
        error("table metric=m rows=c digits=21"),
        ("digits=21".into(), "digits=21: at most 20 digits after the point are written".into())
    );
    assert_eq!(
        error("table metric=m rows=c highlight=most"),
        ("highlight=most".into(), "highlight=`most`: expected `best` or `none`".into())
    );
    assert_eq!(
        error("table metric=m rows=c caption=maybe"),
        ("caption=maybe".into(), "caption=`maybe`: expected true or false".into())
    );
    assert_eq!(
        error("table metric=m rows=c ratio=a/b,c"),
        ("ratio=a/b,c".into(), "ratio=`c`: expected COLUMN/COLUMN, e.g. ratio=baseline/eagle-topk4-v1".into())
    );
    assert_eq!(error("table metric=m rows=c as_of=yesterday").0, "as_of=yesterday");
    let (at, msg) = error("table metric=m rows=c where=\"c >\"");
    assert_eq!(at, "where=\"c >\"");
    assert!(!msg.is_empty());
    let (at, msg) = error("table metric=m rows=c agg=mode");
    assert_eq!(at, "agg=mode");
    assert!(msg.contains("mode"), "{msg}");
    assert_eq!(
        error("table metric=m rows=,").1,
        "missing argument `rows=` (the param each table row stands for, e.g. rows=concurrency)"
    );
    assert_eq!(error("table rows=c").1, "missing argument `metric=` (or `metrics=` with `series=`)");
    assert_eq!(error("sql digits=1"), (String::new(), "missing argument `query=`".into()));
    assert_eq!(error("template metric=m"), (String::new(), "missing argument `name=`".into()));
}

#[test]
fn the_combined_filter_pins_the_date() {
    let RegionSpec::Value(v) = read_one("value metric=m where=\"c = 1\" as_of=2026-11-20") else { panic!("a value") };
    assert_eq!(
        v.selection.combined().as_str(),
        Filter::parse("c = 1")
            .unwrap()
            .and(Filter::compare("date", Op::Le, Literal::Text("2026-11-20".into())))
            .as_str()
    );
    assert!(Selection::default().combined().is_all());
}
