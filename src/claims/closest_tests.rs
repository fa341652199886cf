//! The comparison the evidence names is the one its rule says, whatever
//! the claim's form (trial 5, finding 2): for a claim that holds or is
//! inconclusive the row of the breakdown closest to failing — the smallest
//! lead inside what the claim allows, in its orientation —, for a
//! contradicted one the contradicted row farthest past it. The distance is
//! worked out here from each row as the breakdown shows it (its estimate,
//! the stated bound or band), not from the judge's own numbers.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

use crate::claims::judge::{Judge, Settings, Supersede};
use crate::claims::{lang, Verdict};
use crate::query::Dataset;
use crate::run::{RawRun, Value};
use crate::store::{builder, Store};

/// Runs of `tput` (higher is better) by config (`a`, `b`) and point `c`.
fn store_of(cells: &[(&str, u32, Vec<f64>)]) -> Store {
    let mut store = Store::open_in_memory().unwrap();
    let mut raws = Vec::new();
    for (series, point, runs) in cells {
        for (repeat, v) in runs.iter().enumerate() {
            let mut raw = RawRun::new(raws.len() as u64 + 1);
            raw.param("config", Value::Text((*series).to_string()));
            raw.param("c", Value::Num(f64::from(*point)));
            raw.param("repeat", Value::Num(repeat as f64));
            raw.metric("tput", *v);
            raws.push(raw);
        }
    }
    builder::add_source(&mut store, "runs.jsonl", "2026-11-29T10:00:00Z", raws);
    store
}

/// How far a row's estimate lies inside what `op` allows (logs), from the
/// numbers the row shows.
fn lead(op: &str, stat: &crate::claims::Stat, stated: f64) -> f64 {
    let e = stat.estimate.ln();
    match (op, stat.band) {
        ("<=" | "<", _) => stated.ln() - e,
        (">=" | ">", _) => e - stated.ln(),
        (_, Some(band)) => (e - band.lo.ln()).min(band.hi.ln() - e),
        _ => unreachable!("{op} without a band"),
    }
}

/// Checks the example of `text` against its breakdown.
fn named_as_its_rule_says(dataset: &Dataset, text: &str, op: &str) -> Result<(), String> {
    let settings =
        Settings { series: "config".into(), margins: crate::metric::Margins::default(), supersede: Supersede::Cell };
    let claim = lang::parse(text).unwrap();
    let (verdict, reports) = Judge::new(dataset, &settings).claim(&claim).map_err(|e| e.msg)?;
    let ev = &reports[0].judgement.evidence;
    let (Some(example), false) = (&ev.example, ev.breakdown.is_empty()) else { return Ok(()) };
    let rows: Vec<_> = ev
        .breakdown
        .iter()
        .filter(|r| verdict != Verdict::Contradicted || r.outcome == crate::claims::stats::PointOutcome::Contradicted)
        .map(|r| (r.point.clone(), lead(op, r.stat.as_ref().unwrap(), r.second.value)))
        .collect();
    let named = rows.iter().find(|(p, _)| *p == example.point).ok_or("the example is not a row")?.1;
    let least = rows.iter().map(|r| r.1).fold(f64::INFINITY, f64::min);
    if (named - least).abs() > 1e-9 * least.abs().max(1.0) {
        return Err(format!(
            "{text}: {verdict}, named {} (lead {named}), the least lead is {least}: {rows:?}",
            example.point
        ));
    }
    Ok(())
}

proptest! {
    #![proptest_config(Config {
        cases: 64,
        rng_seed: RngSeed::Fixed(0x636c_6f73),
        failure_persistence: None,
        ..Config::default()
    })]

    /// Ratios and levels of random runs at 3–6 points against a bound or
    /// band near them, for every operator.
    #[test]
    fn the_example_is_the_closest_or_the_worst_row(
        levels in proptest::collection::vec((0.3f64..0.45, 0.9f64..1.1, vec(-1.0f64..1.0, 3)), 3..=6),
        noise in prop_oneof![Just(0.005), Just(0.02), Just(0.05)],
        bound in 0.33f64..0.42,
    ) {
        let mut cells = Vec::new();
        for (point, (ratio, spread, jitter)) in (1u32..).zip(&levels) {
            let runs = |level: f64| jitter.iter().map(|j| level * (1.0 + noise * spread * j)).collect::<Vec<_>>();
            cells.push(("a", point, runs(100.0 * ratio)));
            cells.push(("b", point, runs(100.0).into_iter().rev().collect()));
        }
        let store = store_of(&cells);
        let dataset = Dataset::load(&store).unwrap();
        for op in ["<=", "<", ">=", ">", "≈"] {
            let within = if op == "≈" { " within 5%" } else { "" };
            for term in [format!("a / b on tput {op} {bound}"), format!("a on tput {op} {}", bound * 100.0)] {
                let text = format!("{term}{within} for all c");
                let checked = named_as_its_rule_says(&dataset, &text, op);
                prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
            }
        }
        let range = format!("a / b on tput in {}..{} for all c", bound - 0.03, bound + 0.03);
        let checked = named_as_its_rule_says(&dataset, &range, "in");
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }
}
