use super::*;
use crate::store::RunRecord;

#[test]
fn hostile_nesting_is_an_error_and_long_chains_are_fine() {
    // Found by a reliability pass: each of these overflowed the stack.
    let parens = format!("{}a = 1{}", "(".repeat(10_000), ")".repeat(10_000));
    let e = Filter::parse(&parens).unwrap_err();
    assert!(e.msg.contains("more than 64 deep"), "{}", e.msg);
    assert_eq!(e.col, 65);
    let nots = format!("{}a = 1", "not ".repeat(100_000));
    assert!(Filter::parse(&nots).unwrap_err().msg.contains("more than 64 deep"));
    // A chain is flat: 20,000 `or` parse, evaluate and drop.
    let chain = vec!["a = 1"; 20_001].join(" or ");
    let f = Filter::parse(&chain).unwrap();
    let chain_and = vec!["a = 1"; 20_001].join(" and ");
    let g = Filter::parse(&chain_and).unwrap();
    let fields: BTreeMap<String, Value> = [("a".to_string(), Value::Num(1.0))].into();
    assert!(f.matches_fields(&fields) && g.matches_fields(&fields));
    assert_eq!(f.params(), ["a"]);
    // Nesting up to the limit is allowed.
    let ok = format!("{}a = 1{}", "(".repeat(64), ")".repeat(64));
    assert!(Filter::parse(&ok).unwrap().matches_fields(&fields));
    let ok = format!("{}a = 2", "not ".repeat(63));
    assert!(Filter::parse(&ok).unwrap().matches_fields(&fields));
}

fn run(params: &[(&str, Value)], sweep: &str) -> RunRecord {
    RunRecord {
        id: 1,
        source: "logs/baseline/c8.jsonl".into(),
        line: 3,
        time: format!("{sweep}T10:00:00Z"),
        time_origin: "log".into(),
        sweep: sweep.into(),
        params: params.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
    }
}

fn t(s: &str) -> Value {
    Value::Text(s.into())
}

fn n(v: f64) -> Value {
    Value::Num(v)
}

/// A run shaped like the scenario's: config, model, concurrency.
fn sample() -> RunRecord {
    run(
        &[
            ("config", t("eagle-topk1-v2")),
            ("model", t("kimi-k2.5")),
            ("max_concurrency", n(30.0)),
            ("request_rate", t("inf")),
            ("server_info.speculative_eagle_topk", t("1")),
        ],
        "2026-11-29",
    )
}

fn m(filter: &str) -> bool {
    Filter::parse(filter).unwrap_or_else(|e| panic!("{e}")).matches(&sample())
}

fn err(filter: &str) -> FilterError {
    Filter::parse(filter).err().unwrap_or_else(|| panic!("`{filter}` parsed"))
}

#[test]
fn each_comparison_operator() {
    assert!(m("max_concurrency = 30"));
    assert!(m("max_concurrency == 30"));
    assert!(!m("max_concurrency != 30"));
    assert!(m("max_concurrency <> 8"));
    assert!(m("max_concurrency < 31") && !m("max_concurrency < 30"));
    assert!(m("max_concurrency <= 30") && !m("max_concurrency <= 29.5"));
    assert!(m("max_concurrency > 8") && !m("max_concurrency > 30"));
    assert!(m("max_concurrency >= 30") && !m("max_concurrency >= 30.01"));
    assert!(m("config = eagle-topk1-v2") && m("config != baseline"));
}

#[test]
fn numbers_compare_numerically_and_text_lexically() {
    // 30 > 8 as numbers, though "30" < "8" as text.
    assert!(m("max_concurrency > 8"));
    // A text param that reads as a number compares as one.
    assert!(m("server_info.speculative_eagle_topk = 1.0"));
    assert!(m("server_info.speculative_eagle_topk < 4"));
    // `inf` is a number: request_rate=inf is above every finite rate.
    assert!(m("request_rate > 1000") && m("request_rate = inf"));
    // A quoted number still reads as one.
    assert!(m("max_concurrency = '30'"));
    // Text compares lexically.
    assert!(m("config > eagle-topk") && m("config < f"));
    // A number never equals a non-numeric text, and does not order with it.
    assert!(!m("max_concurrency = thirty") && m("max_concurrency != thirty"));
    assert!(!m("max_concurrency < thirty") && !m("max_concurrency >= thirty"));
}

#[test]
fn quoting_and_bare_words() {
    assert!(m("model = 'kimi-k2.5'"));
    assert!(m("model = \"kimi-k2.5\""));
    assert!(m("model = kimi-k2.5"));
    assert!(m("model in ('kimi-k2.5', \"other model\")"));
    let r = run(&[("note", t("it's (a) test, = fine"))], "2026-11-29");
    assert!(Filter::parse(r"note = 'it\'s (a) test, = fine'").unwrap().matches(&r));
    assert!(Filter::parse("note = \"it's (a) test, = fine\"").unwrap().matches(&r));
    // Keywords are values only when quoted.
    let r = run(&[("mode", t("and"))], "2026-11-29");
    assert!(Filter::parse("mode = 'and'").unwrap().matches(&r));
}

#[test]
fn in_and_not_in() {
    assert!(m("max_concurrency in (1, 8, 30)"));
    assert!(!m("max_concurrency in (1, 8, 250,)"));
    assert!(m("config in (baseline, eagle-topk1-v2)"));
    assert!(m("config not in (baseline, eagle-topk4-v1)"));
    assert!(!m("config NOT IN (eagle-topk1-v2)"));
}

#[test]
fn glob_match() {
    assert!(m("config ~ 'eagle-*'"));
    assert!(m("config ~ eagle-topk?-v2"));
    assert!(!m("config ~ 'baseline*'"));
    assert!(m("source ~ 'logs/*/c8.jsonl'"));
    // A numeric param is matched through its formatted text.
    assert!(m("max_concurrency ~ '3*'") && !m("max_concurrency ~ '8*'"));
}

#[test]
fn pseudo_params() {
    assert!(m("date = 2026-11-29") && m("sweep = '2026-11-29'"));
    assert!(!m("date = 2026-11-20"));
    assert!(m("date > 2026-11-20"));
    assert!(m("time >= 2026-11-29T00:00:00Z"));
    assert!(m("source = logs/baseline/c8.jsonl"));
    // A run's own `date` param wins over the sweep date.
    let r = run(&[("date", t("2026-01-01"))], "2026-11-29");
    assert!(Filter::parse("date = 2026-01-01").unwrap().matches(&r));
}

#[test]
fn missing_param_fails_all_but_not_equal() {
    assert!(!m("dataset = sharegpt"));
    assert!(m("dataset != sharegpt"));
    assert!(!m("dataset < zzz") && !m("dataset >= 0"));
    assert!(!m("dataset in (sharegpt)") && m("dataset not in (sharegpt)"));
    assert!(!m("dataset ~ '*'"));
    assert!(m("not dataset = sharegpt"));
}

#[test]
fn precedence_of_and_or_not() {
    // and binds tighter than or: true or (false and false) = true.
    assert!(m("config = eagle-topk1-v2 or config = x and model = y"));
    // Parentheses change it: (true or false) and false = false.
    assert!(!m("(config = eagle-topk1-v2 or config = x) and model = y"));
    // not binds tighter than and: (not false) and true.
    assert!(m("not config = baseline and model = kimi-k2.5"));
    // not applies to a parenthesised group.
    assert!(!m("not (config = baseline or model = kimi-k2.5)"));
    assert!(m("NOT NOT config = eagle-topk1-v2"));
    assert!(m("((max_concurrency = 30))"));
}

#[test]
fn blank_filter_passes_everything_and_params_are_listed() {
    let f = Filter::parse("   ").unwrap();
    assert!(f.is_all() && f.matches(&sample()));
    assert!(Filter::all().matches(&sample()));
    let f = Filter::parse("model = x and (config in (a) or model ~ 'k*') and not date = 2026-11-20").unwrap();
    assert_eq!(f.params(), vec!["model", "config", "date"]);
    let both = Filter::parse("config = eagle-topk1-v2").unwrap().and(Filter::parse("model = x").unwrap());
    assert!(!both.matches(&sample()));
    assert_eq!(both.as_str(), "(config = eagle-topk1-v2) and (model = x)");
}

#[test]
fn a_bare_param_map_can_be_filtered() {
    let params: BTreeMap<String, Value> = [("concurrency".to_string(), n(8.0))].into();
    assert!(Filter::parse("concurrency in (8, 16)").unwrap().matches_fields(&params));
    assert!(!Filter::parse("date = 2026-11-29").unwrap().matches_fields(&params));
}

#[test]
fn errors_point_at_the_column() {
    let e = err("model = ");
    assert_eq!((e.col, e.msg.as_str()), (9, "expected a value after '='"));
    assert_eq!(e.to_string(), "filter: expected a value after '=' at column 9\n  model = \n          ^");

    let e = err("model = 'kimi");
    assert_eq!((e.col, e.msg.as_str()), (9, "unterminated string: add the closing '"));

    let e = err("model 'kimi'");
    assert_eq!(e.col, 7);
    assert!(e.msg.starts_with("expected an operator"), "{}", e.msg);

    let e = err("model = a and");
    assert_eq!((e.col, e.msg.as_str()), (14, "expected a param name"));

    let e = err("(model = a");
    assert_eq!(e.col, 11);
    assert_eq!(e.msg, "expected ')' to close the '(' opened at column 1,");

    let e = err("model = a)");
    assert_eq!((e.col, e.msg.as_str()), (10, "unmatched ')'"));

    let e = err("model = a config = b");
    assert_eq!(e.col, 11);
    assert!(e.msg.contains("missing `and` or `or`"), "{}", e.msg);

    let e = err("concurrency in 1, 2");
    assert_eq!(e.col, 16);
    assert_eq!(e.msg, "expected '(' and a list of values after `in`, found `1`");

    let e = err("concurrency in (1 2)");
    assert_eq!((e.col, e.msg.as_str()), (19, "expected ',' or ')' in the list, found `2`"));

    let e = err("mode = and");
    assert_eq!(e.col, 8);
    assert!(e.msg.contains("quote it"), "{}", e.msg);

    let e = err("model ! x");
    assert_eq!(e.col, 7);

    let e = err("config ~ 'eagle-[a'");
    assert!(e.msg.starts_with("bad glob pattern"), "{}", e.msg);

    let e = err("8 = 8");
    assert_eq!((e.col, e.msg.as_str()), (1, "expected a param name, found `8`"));

    let e = err("config not baseline");
    assert_eq!(e.col, 12);

    let e = err("model = x and\n  config =");
    assert_eq!((e.col, e.line_col()), (25, (2, 11)));
    assert_eq!(e.snippet(), "model = x and   config =\n                        ^");

    // Columns count characters, not bytes.
    let e = err("modèle = ");
    assert_eq!(e.col, 10);

    // As the library's error: a filter error of its own kind, its message
    // unchanged.
    let usage: Error = err("model =").into();
    assert!(matches!(usage, Error::Filter { col: 8, .. }), "{usage:?}");
    assert_eq!(usage.to_string(), err("model =").to_string());
    assert!(usage.to_string().starts_with("filter: expected a value"));
}

#[test]
fn stack_formatting_matches_format_number() {
    for v in [
        f64::MAX,
        0.0,
        -0.0,
        1.0,
        30.0,
        759.3,
        0.092340913,
        -12.5,
        1e20,
        123456.789,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -0.0000001,
    ] {
        let mut buf = NumBuf::new();
        assert_eq!(buf.format(v), crate::metric::format_number(v), "{v}");
    }
}

#[test]
fn filters_built_as_values_read_as_written() {
    let f = Filter::eq("config", Literal::Text("it's a \\ test".into()));
    assert_eq!(f.as_str(), r"config = 'it\'s a \\ test'");
    let mut run = BTreeMap::new();
    run.insert("config".to_string(), Value::Text("it's a \\ test".into()));
    assert!(f.matches_fields(&run));
    assert_eq!(Filter::parse(f.as_str()).unwrap().expr, f.expr);
    // A quoted number built as a value still compares as the number.
    run.insert("tp".to_string(), Value::Num(8.0));
    assert!(Filter::eq("tp", Literal::Text("8".into())).matches_fields(&run));
    let pin = Filter::compare("date", Op::Le, Literal::Text("2026-11-20".into()));
    assert_eq!(pin.as_str(), "date <= '2026-11-20'");
}

mod round_trip {
    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngSeed};

    fn literal() -> impl Strategy<Value = Literal> {
        prop_oneof![
            (-1000i32..1000).prop_map(|n| Literal::Num(f64::from(n))),
            any::<f64>().prop_filter("a number", |v| !v.is_nan()).prop_map(Literal::Num),
            Just(Literal::Num(f64::INFINITY)),
            Just(Literal::Num(f64::NEG_INFINITY)),
            prop::sample::select(vec!["8", "inf", "kimi-k2.5", "and", "it's", r"a\b", "say \"hi\"", "", " x "])
                .prop_map(|t| Literal::Text(t.to_string())),
        ]
    }

    fn leaf() -> impl Strategy<Value = Expr> {
        let param = prop::sample::select(vec!["max_concurrency", "config", "server_info.topk", "a-b", "_x", "date"]);
        let op = prop::sample::select(vec![Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge]);
        let glob = prop::sample::select(vec!["eagle*", "a?c", "[ab]x", "it's*", "*"]);
        prop_oneof![
            (param.clone(), op, literal()).prop_map(|(p, op, l)| Expr::Cmp {
                param: p.to_string(),
                op,
                lit: Operand::new(l)
            }),
            (param.clone(), prop::collection::vec(literal(), 1..4), any::<bool>()).prop_map(|(p, ls, negated)| {
                Expr::In { param: p.to_string(), lits: ls.into_iter().map(Operand::new).collect(), negated }
            }),
            (param, glob).prop_map(|(p, g)| Expr::Glob {
                param: p.to_string(),
                pattern: glob::Pattern::new(g).expect("a valid pattern")
            }),
        ]
    }

    fn expr() -> impl Strategy<Value = Expr> {
        leaf().prop_recursive(4, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 2..4).prop_map(Expr::And),
                prop::collection::vec(inner.clone(), 2..4).prop_map(Expr::Or),
                inner.prop_map(|e| Expr::Not(Box::new(e))),
            ]
        })
    }

    proptest! {
        // A fixed seed, as the fuzz tests use: a failure shows on every run.
        #![proptest_config(Config {
            cases: 512,
            rng_seed: RngSeed::Fixed(0x7265_636b_6f6e),
            failure_persistence: None,
            ..Config::default()
        })]

        /// parse ∘ print: a filter printed reads back as the same filter.
        #[test]
        fn printing_reads_back_the_same(e in expr()) {
            let printed = e.to_string();
            let parsed = Filter::parse(&printed).unwrap_or_else(|err| panic!("{printed:?}: {err}"));
            prop_assert_eq!(&parsed.expr, &e, "printed as {}", printed);
            prop_assert_eq!(parsed.expr.to_string(), printed);
        }
    }
}
