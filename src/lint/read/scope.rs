//! Where a clause speaks: its clauses cut at `;`, commas and `while`/`but`,
//! and its scope — a point (`at C=30`), a range (`from C=50 on`, `above
//! N=8`, `from 1 req/s to saturation`), every point (`at every size`) or a
//! `[points]` phrase — written as the claim language's quantifier.

use super::super::vocab::{Meaning, Number, Scope, Tok, Token, Unit, Vocabulary};
use super::words::{word, words_before, CLAUSE_VERBS};
use crate::claims::lang::{number, Literal, Op, PointSet, Quantifier};
use crate::metric::format_number;

/// The clauses of a sentence: token ranges.
pub(super) fn clauses(tokens: &[Token]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, t) in tokens.iter().enumerate() {
        let cut = match &t.kind {
            Tok::Punct('(' | '[') => {
                depth += 1;
                false
            }
            Tok::Punct(')' | ']') => {
                depth -= 1;
                false
            }
            Tok::Punct(';') => true,
            // `…, by 15% to 45%`: the size of the comparison before it;
            // `at 1, 2 and 4 threads`: a list. `…, 10% to 20% behind X`: a
            // ratio of its own.
            Tok::Punct(',') => {
                let number = |k: usize| tokens.get(k).is_some_and(|n| matches!(n.kind, Tok::Number(_)));
                let ratio = tokens.get(i + 1).is_some_and(
                    |n| matches!(&n.kind, Tok::Number(n) if matches!(n.unit, Unit::Times | Unit::Percent)),
                );
                let by = tokens.get(i + 1).and_then(word) == Some("by") && number(i + 2);
                depth <= 0 && (!number(i + 1) || ratio) && !by
            }
            Tok::Word(w) if w == "and" => {
                // `1.4x faster at 16k tokens and 10% faster at 1k`: a second
                // ratio is a statement of its own, with its own point (not
                // the end of `between 8% and 15%`); `… and reaches 4,300
                // tok/s`: a second predicate.
                let ratio = tokens.get(i + 1).is_some_and(
                    |n| matches!(&n.kind, Tok::Number(n) if matches!(n.unit, Unit::Times | Unit::Percent)),
                );
                let between = i >= 2 && word(&tokens[i - 2]) == Some("between");
                ratio && !between || tokens.get(i + 1).and_then(word).is_some_and(|w| CLAUSE_VERBS.contains(&w))
            }
            Tok::Word(w) => matches!(w.as_str(), "while" | "whereas" | "but" | "although" | "though"),
            _ => false,
        };
        if cut {
            out.push(start..i);
            start = i + 1;
        }
    }
    out.push(start..tokens.len());
    out
}

/// The point a number names on a param: as written, or — when the data
/// hold that and not the decimal reading — its binary reading (`16k` →
/// 16384).
fn point_value(vocab: &Vocabulary, param: &str, n: &Number) -> f64 {
    let held = |v: f64| vocab.param_values.get(param).is_some_and(|vs| vs.contains(&v));
    match n.binary {
        Some(b) if !held(n.value) && held(b) => b,
        _ => n.value,
    }
}

/// `… and 10% faster at 1k`: a bare `at N` in a clause that names no param
/// is a point of the param the sentence's earlier clause named — when the
/// data hold that point (`tops out at 210k` is a value, not a batch size).
/// Marks the number used.
pub(super) fn bare_point(vocab: &Vocabulary, tokens: &[Token], param: &str, used: &mut Vec<usize>) -> Option<Scope> {
    let held = |v: f64| vocab.param_values.get(param).is_some_and(|vs| vs.contains(&v));
    let (i, v) = tokens.iter().enumerate().find_map(|(i, t)| match &t.kind {
        Tok::Number(n) if n.unit == Unit::None && i > 0 && word(&tokens[i - 1]) == Some("at") => {
            Some((i, point_value(vocab, param, n))).filter(|(_, v)| held(*v))
        }
        _ => None,
    })?;
    used.push(i);
    Some(Scope::At(param.to_string(), v))
}

/// A size unit written between a number and its param (`10 KB values`):
/// its decimal and binary factors.
fn size_unit(w: &str) -> Option<(f64, f64)> {
    Some(match w {
        "b" | "byte" | "bytes" => (1.0, 1.0),
        "kb" | "k" | "kib" => (1e3, 1024.0),
        "mb" | "mib" => (1e6, 1024.0 * 1024.0),
        "gb" | "gib" => (1e9, 1024.0 * 1024.0 * 1024.0),
        _ => return None,
    })
}

/// The point a number with a size unit names (`1 GB cache`): in the unit
/// the param's name ends with (`cache_mb`: MB), else in bytes — the decimal
/// or binary reading, whichever the data hold, else as written. `Err` with
/// both readings when the data hold none and the two differ: which point
/// is meant is not known.
fn sized_value(vocab: &Vocabulary, param: &str, n: &Number, size: Option<(f64, f64)>) -> Result<f64, (f64, f64)> {
    let held = |v: f64| vocab.param_values.get(param).is_some_and(|vs| vs.contains(&v));
    let Some((dec, bin)) = size else { return Ok(point_value(vocab, param, n)) };
    let (pdec, pbin) = param.rsplit_once('_').and_then(|(_, u)| size_unit(u)).unwrap_or((1.0, 1.0));
    let (decimal, binary) = (n.value * dec / pdec, n.value * bin / pbin);
    match [decimal, binary, n.value].into_iter().find(|v| held(*v)) {
        Some(v) => Ok(v),
        None if (decimal - binary).abs() <= 1e-9 * decimal.abs() => Ok(decimal),
        None => Err((decimal, binary)),
    }
}

/// A param a size is written before by the first word of its name (`10 KB
/// values` of `value_size`, `4 KB blocks` of `block_bytes`): the one param
/// so named.
fn size_param(vocab: &Vocabulary, w: &str) -> Option<String> {
    let stem = w.strip_suffix('s').unwrap_or(w);
    let mut named = vocab.param_values.keys().filter(|p| p.split('_').next() == Some(stem) && p.contains('_'));
    let p = named.next()?;
    named.next().is_none().then(|| p.clone())
}

/// `With a 2 GB cache` where the data hold neither 2000 nor 2048 MB: why the
/// point is not read, for the author.
pub(super) fn unsure_size(vocab: &Vocabulary, tokens: &[Token], text: &str) -> Option<String> {
    tokens.iter().enumerate().find_map(|(i, t)| {
        let Tok::Number(n) = &t.kind else { return None };
        let mut j = i + 1;
        if matches!(tokens.get(j).map(|t| &t.kind), Some(Tok::Punct('-'))) {
            j += 1;
        }
        let size = size_unit(word(tokens.get(j)?)?)?;
        let p = match &tokens.get(j + 1)?.kind {
            Tok::Mention(Meaning::Param(p)) => p.clone(),
            Tok::Word(w) => size_param(vocab, w)?,
            _ => return None,
        };
        let (decimal, binary) = sized_value(vocab, &p, n, Some(size)).err()?;
        let (f, written) = (format_number, &text[t.start..tokens[j].end]);
        Some(format!(
            "`{written}` is {} or {} in `{p}`'s unit and the data hold neither: write the point as `{p} = …`",
            f(decimal),
            f(binary)
        ))
    })
}

/// `16 MB`, `1 GB` right after a number, where one param is kept in a
/// size unit its name ends with (`cache_mb`): that param's point, in its
/// unit (decimal or binary, whichever the data hold).
fn size_point(vocab: &Vocabulary, tokens: &[Token], at: usize, num: &Number) -> Option<Scope> {
    let unit = word(tokens.get(at + 1)?)?;
    let (dec, bin) = size_unit(unit)?;
    let mut kept = vocab.param_values.keys().filter_map(|param| {
        let (_, suffix) = param.rsplit_once('_')?;
        Some((param, size_unit(suffix).filter(|_| suffix != "b" || unit == "b")?))
    });
    let (param, (pdec, pbin)) = kept.next()?;
    if kept.next().is_some() {
        return None;
    }
    let held = |v: f64| vocab.param_values.get(param).is_some_and(|vs| vs.contains(&v));
    let value = [num.value * dec / pdec, num.value * bin / pbin].into_iter().find(|v| held(*v))?;
    Some(Scope::At(param.clone(), value))
}

/// A param named with a word that picks some of its values without saying
/// which (`small values`, `long sequences`), as the phrase and the param.
pub(super) fn vague_param(tokens: &[Token], text: &str) -> Option<(String, String)> {
    const SOME: &[&str] = &[
        "small", "smaller", "large", "larger", "big", "bigger", "long", "longer", "short", "shorter", "high", "higher",
        "low", "lower", "tiny", "huge", "medium", "moderate", "few", "many", "most", "some",
    ];
    tokens.iter().enumerate().find_map(|(i, t)| match &t.kind {
        Tok::Mention(Meaning::Param(p)) if i > 0 && word(&tokens[i - 1]).is_some_and(|w| SOME.contains(&w)) => {
            Some((text[tokens[i - 1].start..t.end].to_string(), p.clone()))
        }
        _ => None,
    })
}

/// A clause's scope, and the tokens it used: its first point or range, a
/// point widened to the list it heads (`at C=64 and C=128`, `at 1 and 2
/// threads`: the points the data hold).
pub(super) fn scope_of(vocab: &Vocabulary, tokens: &[Token]) -> (Option<Scope>, Vec<usize>) {
    let (scope, mut used) = first_scope(vocab, tokens);
    let scope = scope.map(|s| listed(vocab, tokens, s, &mut used));
    (scope, used)
}

fn first_scope(vocab: &Vocabulary, tokens: &[Token]) -> (Option<Scope>, Vec<usize>) {
    let mut used = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        match &t.kind {
            // `at 4096 tokens`, `with 16k tokens`, `for 10 KB values`,
            // `100-byte values`: a number (and a size unit) then the param.
            Tok::Number(n) if n.unit == Unit::None => {
                let mut j = i + 1;
                if matches!(tokens.get(j).map(|t| &t.kind), Some(Tok::Punct('-'))) {
                    j += 1;
                }
                let size = tokens.get(j).and_then(word).and_then(size_unit);
                if size.is_some() {
                    j += 1;
                }
                let named = match tokens.get(j).map(|t| &t.kind) {
                    Some(Tok::Mention(Meaning::Param(p))) => Some(p.clone()),
                    Some(Tok::Word(w)) if size.is_some() => size_param(vocab, w),
                    _ => None,
                };
                let Some(p) = named.as_ref() else {
                    // `at 16 MB` of a param kept in MB (`cache_mb`).
                    if let Some(at) = size_point(vocab, tokens, i, n) {
                        used.extend([i, i + 1]);
                        let before = words_before(tokens, i, 2);
                        return (Some(ranged(at, &before, tokens.get(i + 2..).unwrap_or_default())), used);
                    }
                    continue;
                };
                let Ok(value) = sized_value(vocab, p, n, size) else { continue };
                used.extend(i..=j);
                let before = words_before(tokens, i, 2);
                // `from 1 client to saturation`, `from 4 to 64 threads`
                if before.first() == Some(&"from") {
                    if let Some((rest, Some(hi))) = next_point(tokens, j + 1, p) {
                        used.extend(rest);
                        return (Some(Scope::Between(p.clone(), value, hi)), used);
                    }
                }
                let at = Scope::At(p.clone(), value);
                return (Some(ranged(at, &before, tokens.get(j + 1..).unwrap_or_default())), used);
            }
            Tok::Mention(Meaning::Point(s)) => {
                used.push(i);
                // (`from a single request to saturation`: past the article.)
                let before: Vec<&str> =
                    words_before(tokens, i, 3).into_iter().skip_while(|w| matches!(*w, "a" | "an" | "the")).collect();
                // `from 1 req/s to saturation`
                if before.first() == Some(&"from") {
                    if let Some((j, hi)) = next_point(tokens, i + 1, s.param()) {
                        used.extend(j.clone());
                        if let (Some(lo), Some(hi)) = (low_value(s), hi) {
                            return (Some(Scope::Between(s.param().to_string(), lo, hi)), used);
                        }
                    }
                }
                return (Some(ranged(s.clone(), &before, &tokens[i + 1..])), used);
            }
            Tok::Mention(Meaning::Param(p)) => {
                if let Some(s) = param_scope(vocab, tokens, i, p, &mut used) {
                    return (Some(s), used);
                }
            }
            // `at a single thread` of `threads`: its point 1.
            Tok::Word(w) if w == "single" => {
                let held = |p: &str| vocab.param_values.get(p).is_some_and(|vs| vs.contains(&1.0));
                let param = match tokens.get(i + 1).map(|t| &t.kind) {
                    Some(Tok::Mention(Meaning::Param(p))) if held(p) => Some(p.clone()),
                    Some(Tok::Word(next)) => {
                        vocab.param_values.keys().find(|p| **p == format!("{next}s") && held(p)).cloned()
                    }
                    _ => None,
                };
                if let Some(p) = param {
                    used.extend([i, i + 1]);
                    return (Some(Scope::At(p, 1.0)), used);
                }
            }
            _ => {}
        }
    }
    (None, used)
}

/// The scope a param's name at `i` opens: `every size` (`up to 64`, `above
/// 8`, `from 4 on` bounding it), `C=16`, `C ≤ 16`, `from C=1 to C=8`.
fn param_scope(vocab: &Vocabulary, tokens: &[Token], at: usize, param: &str, used: &mut Vec<usize>) -> Option<Scope> {
    let before = words_before(tokens, at, 2);
    if before.first().is_some_and(|w| matches!(*w, "every" | "all" | "each" | "across" | "any")) {
        used.push(at);
        return Some(bounded_every(vocab, tokens, at + 1, param, used));
    }
    // `insensitive to M up to 64`: the param's points within the bound.
    if let s @ Scope::Range(..) = bounded_every(vocab, tokens, at + 1, param, used) {
        used.push(at);
        return Some(s);
    }
    let mut j = at + 1;
    let op = match (tokens.get(j).map(|t| &t.kind), tokens.get(j + 1).map(|t| &t.kind)) {
        (Some(Tok::Punct('<')), Some(Tok::Punct('='))) | (Some(Tok::Punct('≤')), _) => Some(Op::Le),
        (Some(Tok::Punct('>')), Some(Tok::Punct('='))) | (Some(Tok::Punct('≥')), _) => Some(Op::Ge),
        (Some(Tok::Punct('<')), _) => Some(Op::Lt),
        (Some(Tok::Punct('>')), _) => Some(Op::Gt),
        _ => None,
    };
    match (op, tokens.get(j).map(|t| &t.kind)) {
        (Some(Op::Le | Op::Ge), Some(Tok::Punct('<' | '>'))) => j += 2,
        (Some(_), _) | (None, Some(Tok::Punct('=' | ':'))) => j += 1,
        _ => {}
    }
    let Some(Tok::Number(num)) = tokens.get(j).map(|t| &t.kind) else { return None };
    if num.unit != Unit::None {
        return None;
    }
    used.extend([at, j]);
    let value = point_value(vocab, param, num);
    if let Some(op) = op {
        used.extend(at + 1..j);
        return Some(Scope::Range(param.to_string(), op, value));
    }
    if before.first() == Some(&"from") {
        if let Some((rest, Some(hi))) = next_point(tokens, j + 1, param) {
            used.extend(rest);
            return Some(Scope::Between(param.to_string(), value, hi));
        }
    }
    Some(ranged(Scope::At(param.to_string(), value), &before, &tokens[j + 1..]))
}

/// `every concurrency up to 64`, `every size above 8 MB`, `each M from 256
/// on`: every point of `p` within the bound written after it (from `k`).
fn bounded_every(vocab: &Vocabulary, tokens: &[Token], k: usize, p: &str, used: &mut Vec<usize>) -> Scope {
    let w = |i: usize| tokens.get(i).and_then(word);
    let (op, at) = match (w(k), w(k + 1)) {
        (Some("up"), Some("to")) => (Op::Le, k + 2),
        (Some("below" | "under"), _) => (Op::Lt, k + 1),
        (Some("above" | "over" | "past" | "beyond"), _) => (Op::Gt, k + 1),
        (Some("from"), _) => (Op::Ge, k + 1),
        _ => return Scope::Every(p.to_string()),
    };
    let Some((v, end)) = value_of(vocab, tokens, at, p) else { return Scope::Every(p.to_string()) };
    if op == Op::Ge && !matches!(w(end), Some("on" | "onward" | "onwards" | "up" | "upward" | "upwards")) {
        return Scope::Every(p.to_string());
    }
    used.extend(k..end + usize::from(op == Op::Ge));
    Scope::Range(p.to_string(), op, v)
}

/// A value of `p` written at `i` — `64`, `C=64`, `128 MB` of a param kept
/// in MB — when the data hold it, with the index after it.
fn value_of(vocab: &Vocabulary, tokens: &[Token], i: usize, p: &str) -> Option<(f64, usize)> {
    let held = |v: f64| vocab.param_values.get(p).is_some_and(|vs| vs.contains(&v));
    let mut i = i;
    if matches!(tokens.get(i).map(|t| &t.kind), Some(Tok::Mention(Meaning::Param(q))) if q == p) {
        i += 1;
        if matches!(tokens.get(i).map(|t| &t.kind), Some(Tok::Punct('=' | ':'))) {
            i += 1;
        }
    }
    match &tokens.get(i)?.kind {
        Tok::Number(n) if n.unit == Unit::None => {
            if let Some(Scope::At(q, v)) = size_point(vocab, tokens, i, n) {
                return (q == p).then_some((v, i + 2));
            }
            let v = point_value(vocab, p, n);
            held(v).then_some((v, i + 1))
        }
        Tok::Mention(Meaning::Point(Scope::At(q, v))) if q == p => Some((*v, i + 1)),
        _ => None,
    }
}

/// A point that heads a list of points of its param — `at C=64 and C=128`,
/// `at 1, 2 and 4 threads` — as the list (each a value the data hold);
/// `between 1 and 4 threads` as the range. Marks the list's tokens used.
fn listed(vocab: &Vocabulary, tokens: &[Token], scope: Scope, used: &mut Vec<usize>) -> Scope {
    let Scope::At(param, v) = &scope else { return scope };
    let (Some(&first), Some(&last)) = (used.iter().min(), used.iter().max()) else { return scope };
    let joins = |i: usize| {
        matches!(&tokens[i].kind, Tok::Punct(',')) || word(&tokens[i]).is_some_and(|w| w == "and" || w == "or")
    };
    let mut values = vec![*v];
    let mut took = Vec::new();
    // Before: `1 and` of `at 1 and 2 threads`.
    let mut k = first;
    while k >= 2 && joins(k - 1) {
        let Tok::Number(n) = &tokens[k - 2].kind else { break };
        let value = point_value(vocab, param, n);
        if n.unit != Unit::None || !vocab.param_values.get(param.as_str()).is_some_and(|vs| vs.contains(&value)) {
            break;
        }
        values.push(value);
        took.extend([k - 2, k - 1]);
        k -= 2;
    }
    if k < first && k > 0 && word(&tokens[k - 1]) == Some("between") && values.len() == 2 {
        used.extend(took);
        used.push(k - 1);
        return Scope::Between(param.clone(), values[1].min(values[0]), values[1].max(values[0]));
    }
    // After: `and C=128`, `, 16 and 64`.
    let mut k = last + 1;
    while k < tokens.len() && joins(k) {
        let mut at = k + 1;
        if at < tokens.len() && word(&tokens[at]) == Some("and") {
            at += 1;
        }
        let Some((value, end)) = value_of(vocab, tokens, at, param) else { break };
        values.push(value);
        took.extend(k..end);
        k = end;
    }
    if values.len() < 2 {
        return scope;
    }
    used.extend(took);
    values.sort_by(f64::total_cmp);
    values.dedup();
    Scope::In(param.clone(), values)
}

/// `at 16 threads for small objects`: a point on a second param after the
/// clause's scope, as a filter (`object_bytes = 64`). Marks its tokens used.
pub(super) fn second_point(
    vocab: &Vocabulary,
    tokens: &[Token],
    first: &Scope,
    used: &mut Vec<usize>,
) -> Option<Scope> {
    let from = used.iter().max()? + 1;
    let (Some(Scope::At(p, v)), more) = scope_of(vocab, tokens.get(from..)?) else { return None };
    if p == first.param() {
        return None;
    }
    used.extend(more.into_iter().map(|i| i + from));
    Some(Scope::At(p, v))
}

/// Of a clause's two points, the scope is the one on the sweep's param
/// (`With 100-byte values, X reaches 12,400 QPS at 8 threads`: at 8
/// threads, where the value size is 100); the other is the filter, as
/// `p = v`.
pub(super) fn point_and_filter(
    first: Option<Scope>,
    second: Option<Scope>,
    sweep: Option<&str>,
) -> (Option<Scope>, Option<String>) {
    let (first, second) = match (first, second) {
        (Some(a), Some(b)) if Some(b.param()) == sweep && Some(a.param()) != sweep && matches!(a, Scope::At(..)) => {
            (Some(b), Some(a))
        }
        pair => pair,
    };
    let filter = match second {
        Some(Scope::At(p, v)) => Some(format!("{p} = {}", format_number(v))),
        _ => None,
    };
    (first, filter)
}

fn low_value(s: &Scope) -> Option<f64> {
    match s {
        Scope::At(_, v) | Scope::Range(_, _, v) => Some(*v),
        Scope::Between(_, lo, _) => Some(*lo),
        _ => None,
    }
}

/// After `from X`: `to Y` on the same param (`to C=250`, `to 8 req/s`,
/// `to saturation` as the largest value: None).
fn next_point(tokens: &[Token], from: usize, param: &str) -> Option<(std::ops::Range<usize>, Option<f64>)> {
    let j = from + tokens[from..].iter().position(|t| !matches!(t.kind, Tok::Punct(_)))?;
    if !matches!(word(tokens.get(j)?), Some("to" | "through" | "until")) {
        return None;
    }
    match &tokens.get(j + 1)?.kind {
        Tok::Mention(Meaning::Point(s)) if s.param() == param => match s {
            Scope::At(_, v) => Some((j..j + 2, Some(*v))),
            Scope::Largest(_) => Some((j..j + 2, Some(f64::INFINITY))),
            _ => None,
        },
        Tok::Mention(Meaning::Param(p)) if p == param => {
            let mut k = j + 2;
            if matches!(tokens.get(k).map(|t| &t.kind), Some(Tok::Punct('='))) {
                k += 1;
            }
            match &tokens.get(k)?.kind {
                Tok::Number(n) => Some((j..k + 1, Some(n.value))),
                _ => None,
            }
        }
        Tok::Number(n) if n.unit == Unit::None => Some((j..j + 2, Some(n.value))),
        _ => None,
    }
}

/// A point made a range by the words around it: `from C=50 on`, `above
/// C=8`, `up to C=16`, `16 threads and up`.
pub(super) fn ranged(s: Scope, before: &[&str], after: &[Token]) -> Scope {
    let Scope::At(p, v) = s else { return s };
    let next = |k: usize| after.get(k).and_then(word);
    let op = match (before.first().copied(), before.get(1).copied(), next(0)) {
        (Some("from"), _, Some("on" | "onward" | "onwards" | "upward" | "upwards" | "up"))
        | (Some("least"), Some("at"), _) => Some(Op::Ge),
        (Some("most"), Some("at"), _) | (Some("to" | "until" | "through"), Some("up"), _) => Some(Op::Le),
        (Some("above" | "beyond" | "past" | "over" | "after"), _, _) => Some(Op::Gt),
        (Some("below" | "under" | "before"), _, _) => Some(Op::Lt),
        (_, _, Some("and" | "or")) if next(2) != Some("to") => match next(1) {
            Some("up" | "above" | "more" | "higher" | "beyond" | "upward" | "upwards") => Some(Op::Ge),
            Some("below" | "less" | "fewer" | "lower" | "under") => Some(Op::Le),
            _ => None,
        },
        _ => None,
    };
    match op {
        Some(op) => Scope::Range(p, op, v),
        None => Scope::At(p, v),
    }
}

/// The quantifier of a scope in the claim language (`None`: the scope is
/// the largest/smallest value of a param the data do not hold).
pub(crate) fn quantifier(vocab: &Vocabulary, s: &Scope) -> Option<Quantifier> {
    let values = vocab.param_values.get(s.param());
    let for_all = Quantifier::for_all;
    Some(match s {
        Scope::At(p, v) => Quantifier::at(p, number(*v)),
        Scope::Range(p, op, v) => for_all(p, PointSet::Cmp(*op, number(*v))),
        Scope::Between(p, lo, hi) if hi.is_infinite() => for_all(p, PointSet::Cmp(Op::Ge, number(*lo))),
        Scope::Between(p, lo, hi) => for_all(p, PointSet::Range(number(*lo), number(*hi))),
        Scope::Largest(p) => Quantifier::at(p, number(*values?.last()?)),
        Scope::Smallest(p) => Quantifier::at(p, number(*values?.first()?)),
        Scope::Every(p) => for_all(p, PointSet::Every),
        Scope::In(p, vs) => for_all(p, PointSet::In(vs.iter().map(|v| number(*v)).collect())),
        Scope::Is(p, v) => Quantifier::at(p, literal(v)),
    })
}

/// A param's value as the claim language reads it: a number or a plain
/// word as written bare, anything else as text (which it prints quoted).
pub(super) fn literal(v: &str) -> Literal {
    let bare = crate::syntax::read_logged(v).is_some() && !v.contains(char::is_alphabetic)
        || v.chars().next().is_some_and(char::is_alphabetic)
            && v.chars().all(|c| c.is_alphanumeric() || "_.-".contains(c));
    if bare {
        crate::claims::lang::bare(v)
    } else {
        Literal::Text(v.to_string())
    }
}

/// The param a whole sweep runs over when a sentence names none: one the
/// `[points]` phrases use, else the one with the most values every series
/// shares (a grid's axis, not a measurement stored as a param).
pub(crate) fn sweep_param(vocab: &Vocabulary, preferred: &[String]) -> Option<String> {
    if let Some(p) = preferred.iter().find(|p| vocab.param_values.get(*p).is_some_and(|v| v.len() > 1)) {
        return Some(p.clone());
    }
    vocab.shared_values.iter().filter(|(_, n)| **n > 1).max_by_key(|(_, n)| **n).map(|(p, _)| p.clone())
}

/// The param a sentence on `metric` sweeps when it names none: as
/// [`sweep_param`], among the params that vary over that metric's own runs
/// (`across the board` on a throughput measured at one output length is
/// never `for all output_len`).
pub(super) fn sweep_param_of(vocab: &Vocabulary, preferred: &[String], metric: Option<&str>) -> Option<String> {
    let Some(shared) = metric.and_then(|m| vocab.metric_shared(m)) else { return sweep_param(vocab, preferred) };
    if let Some(p) = preferred.iter().find(|p| shared.get(*p).is_some_and(|n| *n > 1)) {
        return Some(p.clone());
    }
    shared.iter().filter(|(_, n)| **n > 1).max_by_key(|(_, n)| **n).map(|(p, _)| p.clone())
}

/// `for all p [points]` for an aggregate over a scope (or the param the
/// sentence's metric sweeps when it names none).
pub(super) fn aggregate_over(
    vocab: &Vocabulary,
    s: Option<&Scope>,
    preferred: &[String],
    metric: &str,
) -> Option<Quantifier> {
    match s {
        Some(s @ (Scope::Range(..) | Scope::Between(..) | Scope::Every(_) | Scope::In(..))) => quantifier(vocab, s),
        Some(Scope::At(..) | Scope::Largest(_) | Scope::Smallest(_) | Scope::Is(..)) => None,
        None => sweep_param_of(vocab, preferred, Some(metric)).map(|p| Quantifier::for_all(&p, PointSet::Every)),
    }
}
