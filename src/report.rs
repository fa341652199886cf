//! `reckon report`: one self-contained HTML page per living document, as the
//! data say it now. The document is regenerated (as `update` would), then
//! rendered with comrak (GFM tables, alerts, footnotes); reckon's regions
//! are swapped for HTML of its own: plots inline as data URIs, each claim
//! with its verdict badge and its evidence in a `<details>`, each generated
//! number linked to its provenance (the runs, their source files and lines,
//! their sweeps). No script, no external request; light and dark themes
//! follow the reader's system setting.
//!
//! Escaping: the author's raw HTML is dropped by comrak (its `unsafe` option
//! stays off) and everything reckon inserts — series names, values and
//! evidence drawn from logs — goes through [`esc`]. Plots travel as
//! `<img>` data URIs, in which an SVG cannot run script.
#![allow(clippy::assigning_clones, clippy::format_collect, clippy::too_many_lines)] // floor-plan debt (issue 7): fix these and delete this line

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use base64::Engine as _;

use crate::claims::judge::ClaimReport;
use crate::doc::{self, Kind, Region};
use crate::query::{Agg, Filter, Query};
use crate::review::document::DocReview;
use crate::review::Context;
use crate::syntax::Literal;
use crate::{Error, Result};

/// Escapes text for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    // comrak's escaper: & < > " (its output is a fmt::Write, infallible on a String).
    let _ = comrak::html::escape(&mut out, s);
    out.replace('\'', "&#39;")
}

/// The runs behind one region, for its provenance entry.
struct Provenance {
    runs: Vec<i64>,
}

/// Token text that survives markdown rendering unchanged and appears in no
/// document: letters only, so no markdown syntax touches it.
fn token(kind: &str, i: usize) -> String {
    format!("RECKONTOKEN{kind}{i}X")
}

/// The runs a metric-bearing region reads: the same query its renderer
/// runs, the union of the cells' runs (for `max_over` / `min_over`, the
/// chosen cell's).
fn region_runs(ctx: &Context, region: &Region) -> Option<Provenance> {
    let arg = |k: &str| region.arg(k).map(|a| a.value.as_str());
    let list = |k: &str| -> Vec<String> {
        arg(k)
            .map(|v| v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect())
            .unwrap_or_default()
    };
    // The renderers' own filter (`where=`, `as_of=`), so the runs listed
    // are the runs the region read.
    let args = crate::render::Args::new(region.args.iter().map(|a| (a.key.clone(), a.value.clone())).collect());
    let mut filter = crate::render::filter_of(ctx.dataset, &args).ok()?;
    let agg = match arg("agg") {
        Some(a) => Agg::parse(a).ok()?,
        None => Agg::default(),
    };
    let series = ctx.cfg.series.clone();
    let mut queries: Vec<Query> = Vec::new();
    let mut over: Option<bool> = None;
    match region.kind {
        Kind::Table => {
            let rows = list("rows");
            if let Some(metric) = arg("metric") {
                let mut q = Query::new(metric);
                let cols = list("cols");
                q.cols = if cols.is_empty() && ctx.dataset.has_param(&series) && !rows.contains(&series) {
                    vec![series.clone()]
                } else {
                    cols
                };
                q.rows = rows;
                queries.push(q);
            } else {
                let one = arg("series")?;
                filter = filter.and(Filter::eq(&series, Literal::Text(one.to_string())));
                for m in list("metrics") {
                    let mut q = Query::new(m);
                    q.rows = rows.clone();
                    queries.push(q);
                }
            }
        }
        Kind::Plot => {
            let x = arg("x")?.to_string();
            let s = arg("series").unwrap_or(&series).to_string();
            let mut q = Query::new(arg("metric")?);
            q.cols = if ctx.dataset.has_param(&s) && s != x { vec![s] } else { vec![] };
            q.rows = vec![x];
            queries.push(q);
        }
        Kind::Value => {
            for a in region.args.iter().filter(|a| !crate::render::value::KNOWN.contains(&a.key.as_str())) {
                filter = filter.and(Filter::eq(&a.key, Literal::Text(a.value.clone())));
            }
            let mut q = Query::new(arg("metric")?);
            if let Some(p) = arg("max_over") {
                q.rows = vec![p.to_string()];
                over = Some(true);
            } else if let Some(p) = arg("min_over") {
                q.rows = vec![p.to_string()];
                over = Some(false);
            }
            queries.push(q);
        }
        _ => return None,
    }
    let mut runs = BTreeSet::new();
    for mut q in queries {
        q.filter = filter.clone();
        q.agg = agg;
        let pivot = ctx.dataset.evaluate(&q).ok()?;
        match over {
            Some(max) => {
                let pick = pivot.iter().map(|(_, _, c)| c).reduce(|a, b| {
                    let b_wins = if max { b.value > a.value } else { b.value < a.value };
                    if b_wins {
                        b
                    } else {
                        a
                    }
                })?;
                runs.extend(pick.runs.iter().copied());
            }
            None => runs.extend(pivot.iter().flat_map(|(_, _, c)| c.runs.iter().copied())),
        }
    }
    Some(Provenance { runs: runs.into_iter().collect() })
}

/// "lines 3–5, 9" from sorted line numbers.
fn line_ranges(lines: &[u64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let start = lines[i];
        let mut end = start;
        while i + 1 < lines.len() && lines[i + 1] == end + 1 {
            i += 1;
            end = lines[i];
        }
        parts.push(if start == end { start.to_string() } else { format!("{start}–{end}") });
        i += 1;
    }
    let word = if lines.len() == 1 { "line" } else { "lines" };
    format!("{word} {}", parts.join(", "))
}

/// The provenance list entry of region `i`.
fn provenance_html(ctx: &Context, i: usize, directive: &str, prov: &Provenance) -> String {
    let mut by_source: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
    let mut sweeps = BTreeSet::new();
    for run in prov.runs.iter().filter_map(|id| ctx.dataset.run(*id)) {
        by_source.entry(run.source.as_str()).or_default().push(run.line);
        sweeps.insert(run.sweep.as_str());
    }
    let n = prov.runs.len();
    let mut html = format!(
        "<li id=\"prov-{i}\"><code>{}</code><br>{n} {}; {} {}",
        esc(directive),
        if n == 1 { "run" } else { "runs" },
        if sweeps.len() == 1 { "sweep" } else { "sweeps" },
        esc(&sweeps.into_iter().collect::<Vec<_>>().join(", "))
    );
    html.push_str("<ul>");
    for (source, mut lines) in by_source {
        lines.sort_unstable();
        lines.dedup();
        let _ = write!(html, "<li><code>{}</code> {}</li>", esc(source), esc(&line_ranges(&lines)));
    }
    html.push_str("</ul></li>\n");
    html
}

/// The claim's badge and its evidence, one click away.
fn claim_open(report: &ClaimReport) -> String {
    let (class, word) = match &report.superseded {
        Some(_) => ("superseded", "superseded".to_string()),
        None => (report.verdict.as_str(), report.verdict.as_str().to_string()),
    };
    let class = class.replace(' ', "-");
    format!(
        "<section class=\"claim verdict-{class}\" id=\"claim-{}\">\n<p class=\"claim-head\"><span class=\"badge badge-{class}\">{}</span> <code class=\"claim-id\">{}</code></p>\n",
        esc(&report.id),
        esc(&word),
        esc(&report.id)
    )
}

fn claim_close(report: &ClaimReport) -> String {
    let mut html = String::from("<details class=\"evidence\"><summary>Evidence</summary>\n");
    let _ = writeln!(html, "<p><strong>Statement:</strong> <code>{}</code></p>", esc(&report.statement));
    if let Some(date) = &report.superseded {
        let _ =
            writeln!(html, "<p>Superseded on {}; the data now say: {}</p>", esc(date), esc(report.verdict.as_str()));
    }
    let _ = writeln!(html, "<p>{}</p>", esc(&report.summary));
    let details: Vec<&String> = report.clauses.iter().flat_map(|c| &c.details).collect();
    if report.clauses.len() > 1 || !details.is_empty() {
        html.push_str("<ul>");
        for c in report.clauses.iter().filter(|_| report.clauses.len() > 1) {
            let _ = write!(html, "<li><code>{}</code>: {}</li>", esc(&c.statement), esc(&c.summary));
        }
        for d in details {
            let _ = write!(html, "<li>{}</li>", esc(d));
        }
        html.push_str("</ul>\n");
    }
    if let Some(date) = &report.data_date {
        let _ = writeln!(html, "<p class=\"muted\">Data of the {} sweep.</p>", esc(date));
    }
    html.push_str("</details>\n</section>\n");
    html
}

/// The `![title](file)` line of a plot region's content, and the rest.
fn split_plot_image(content: &str) -> (Option<(String, String)>, String) {
    let mut rest = String::new();
    let mut image = None;
    for line in content.lines() {
        let t = line.trim();
        if image.is_none() && t.starts_with("![") && t.ends_with(')') {
            if let Some(mid) = t.rfind("](") {
                image = Some((t[2..mid].replace("\\]", "]"), t[mid + 2..t.len() - 1].to_string()));
                continue;
            }
        }
        rest.push_str(line);
        rest.push('\n');
    }
    (image, rest)
}

/// Wraps each number of a rendered table in a link to the region's
/// provenance, except in the first `keys` cells of each row (the row's
/// params, which are not generated numbers).
fn link_table_numbers(html: &str, i: usize, keys: usize) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    let mut column = 0;
    while let Some(start) = rest.find("<td") {
        if rest[..start].contains("<tr") {
            column = 0;
        }
        let Some(open_end) = rest[start..].find('>').map(|e| start + e + 1) else { break };
        let Some(close) = rest[open_end..].find("</td>").map(|e| open_end + e) else { break };
        out.push_str(&rest[..open_end]);
        let cell = &rest[open_end..close];
        column += 1;
        if column <= keys {
            out.push_str(cell);
            rest = &rest[close..];
            continue;
        }
        let plain = cell.replace("<strong>", "").replace("</strong>", "");
        let number = plain.trim().trim_end_matches(" ≈").trim_end_matches('x');
        if !number.is_empty() && number.parse::<f64>().is_ok() {
            let _ = write!(out, "<a class=\"num\" href=\"#prov-{i}\">{cell}</a>");
        } else {
            out.push_str(cell);
        }
        rest = &rest[close..];
    }
    out.push_str(rest);
    out
}

/// External images would be requests: they become links.
fn no_external_images(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("<img src=\"") {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let Some(end) = after.find("/>").map(|e| e + 2) else {
            out.push_str(after);
            return out;
        };
        let tag = &after[..end];
        if tag.starts_with("<img src=\"data:") {
            out.push_str(tag);
        } else {
            let src = tag["<img src=\"".len()..].split('"').next().unwrap_or("");
            let alt = tag.split("alt=\"").nth(1).and_then(|s| s.split('"').next()).unwrap_or(src);
            let _ = write!(out, "<a href=\"{src}\">[image: {}]</a>", if alt.is_empty() { src } else { alt });
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

fn comrak_options() -> comrak::Options<'static> {
    let mut o = comrak::Options::default();
    o.extension.table = true;
    o.extension.alerts = true;
    o.extension.footnotes = true;
    o.extension.strikethrough = true;
    o.extension.autolink = true;
    o.extension.tasklist = true;
    o
}

/// One document's page, from its review (regenerated text, claims, plots).
pub fn page(ctx: &Context, review: &DocReview, doc_dir: &Path) -> Result<String> {
    let text = &review.updated;
    let parsed = doc::parse(&review.path, text)?;
    let mut md = String::with_capacity(text.len());
    let mut after: Vec<(String, String)> = Vec::new(); // (token paragraph or token, html)
    let mut provenance = String::new();
    let mut claim_index = 0;
    let mut cursor = 0;
    let mut newest: Option<String> = None;
    for (i, region) in parsed.regions.iter().enumerate() {
        md.push_str(&text[cursor..region.open.start]);
        cursor = region.close.end;
        let content = region.content(text);
        let directive = text[region.open.clone()].trim_start_matches("<!--").trim_end_matches("-->").trim();
        let prov = region_runs(ctx, region);
        if let Some(p) = &prov {
            provenance.push_str(&provenance_html(ctx, i, directive, p));
            for id in &p.runs {
                if let Some(run) = ctx.dataset.run(*id) {
                    if newest.as_deref().is_none_or(|n| run.sweep.as_str() > n) {
                        newest = Some(run.sweep.clone());
                    }
                }
            }
        }
        let (begin, end) = (token("B", i), token("E", i));
        match region.kind {
            Kind::Claim => {
                let Some(report) = review.claims.get(claim_index) else { continue };
                claim_index += 1;
                if let Some(d) = &report.data_date {
                    if newest.as_deref().is_none_or(|n| d.as_str() > n) {
                        newest = Some(d.clone());
                    }
                }
                let _ = write!(md, "\n\n{begin}\n\n{content}\n\n{end}\n\n");
                after.push((begin, claim_open(report)));
                after.push((end, claim_close(report)));
            }
            Kind::Value => {
                let v = token("V", i);
                md.push_str(&v);
                let link = if prov.is_some() {
                    format!("<a class=\"num\" href=\"#prov-{i}\" title=\"provenance\">{}</a>", esc(content.trim()))
                } else {
                    format!("<span class=\"num\">{}</span>", esc(content.trim()))
                };
                after.push((v, link));
            }
            Kind::Plot => {
                let (image, rest) = split_plot_image(content);
                let p = token("P", i);
                let _ = write!(md, "\n\n{begin}\n\n{p}\n\n{rest}\n\n{end}\n\n");
                let figure = match image {
                    Some((alt, file)) => {
                        let path = doc_dir.join(&file);
                        let svg = review
                            .files
                            .iter()
                            .find(|f| f.path == path)
                            .map(|f| f.new.clone())
                            .or_else(|| std::fs::read_to_string(&path).ok());
                        match svg {
                            Some(svg) => format!(
                                "<figure class=\"plot\"><img src=\"data:image/svg+xml;base64,{}\" alt=\"{}\"></figure>",
                                base64::engine::general_purpose::STANDARD.encode(svg.as_bytes()),
                                esc(&alt)
                            ),
                            None => format!("<p class=\"muted\">(plot {} not drawn)</p>", esc(&file)),
                        }
                    }
                    None => String::new(),
                };
                after.push((p, figure));
                after.push((begin, format!("<div class=\"region region-plot\" id=\"region-{i}\">")));
                after.push((end, region_footer(i, prov.is_some())));
            }
            _ => {
                let _ = write!(md, "\n\n{begin}\n\n{content}\n\n{end}\n\n");
                after.push((begin, format!("<div class=\"region region-{}\" id=\"region-{i}\">", region.kind.name())));
                after.push((end, region_footer(i, prov.is_some())));
            }
        }
    }
    md.push_str(&text[cursor..]);
    let mut body = comrak::markdown_to_html(&md, &comrak_options());
    // Numbers of tables link to their region's provenance.
    for (i, region) in parsed.regions.iter().enumerate() {
        if region.kind != Kind::Table || !provenance.contains(&format!("id=\"prov-{i}\"")) {
            continue;
        }
        let (b, e) = (format!("<p>{}</p>", token("B", i)), format!("<p>{}</p>", token("E", i)));
        if let (Some(s), Some(t)) = (body.find(&b), body.find(&e)) {
            if s < t {
                let keys =
                    region.arg("rows").map_or(1, |a| a.value.split(',').filter(|s| !s.trim().is_empty()).count());
                let linked = link_table_numbers(&body[s..t], i, keys);
                body.replace_range(s..t, &linked);
            }
        }
    }
    for (tok, html) in &after {
        let para = format!("<p>{tok}</p>");
        body = if body.contains(&para) { body.replace(&para, html) } else { body.replace(tok, html) };
    }
    let body = no_external_images(&body);
    Ok(wrap_page(review, &body, &provenance, newest.as_deref()))
}

fn region_footer(i: usize, has_provenance: bool) -> String {
    if has_provenance {
        format!("<p class=\"prov-link\"><a href=\"#prov-{i}\">provenance</a></p></div>")
    } else {
        "</div>".to_string()
    }
}

const CSS: &str = r#"
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0;
  --code: #f6f8fa; --link: #0969da; --holds: #1a7f37; --contradicted: #cf222e; --inconclusive: #9a6700;
  --nodata: #59636e; --superseded: #8250df; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --border: #3d444d; --code: #151b23;
    --link: #4493f8; --holds: #3fb950; --contradicted: #f85149; --inconclusive: #d29922; --nodata: #9198a1;
    --superseded: #ab7df8; }
  figure.plot img { background: #ffffff; border-radius: 4px; }
}
body { background: var(--bg); color: var(--fg); font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif;
  max-width: 60rem; margin: 0 auto; padding: 1.5rem; }
a { color: var(--link); }
a.num { text-decoration: none; border-bottom: 1px dotted var(--link); color: inherit; }
code { background: var(--code); padding: 0.1em 0.3em; border-radius: 4px; font-size: 0.9em; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid var(--border); padding: 0.3rem 0.7rem; }
header.reckon { border-bottom: 1px solid var(--border); margin-bottom: 1.5rem; padding-bottom: 0.8rem; color: var(--muted); }
header.reckon .counts span { margin-right: 0.6rem; }
.badge { display: inline-block; padding: 0.05rem 0.55rem; border-radius: 999px; color: #fff; font-size: 0.8rem;
  font-weight: 600; text-transform: uppercase; letter-spacing: 0.03em; }
.badge-holds { background: var(--holds); } .badge-contradicted { background: var(--contradicted); }
.badge-inconclusive { background: var(--inconclusive); } .badge-no-data { background: var(--nodata); }
.badge-superseded { background: var(--superseded); }
section.claim { border-left: 4px solid var(--border); padding: 0.2rem 0 0.2rem 1rem; margin: 1.2rem 0; }
section.verdict-holds { border-color: var(--holds); } section.verdict-contradicted { border-color: var(--contradicted); }
section.verdict-inconclusive { border-color: var(--inconclusive); } section.verdict-no-data { border-color: var(--nodata); }
section.verdict-superseded { border-color: var(--superseded); }
.claim-head { margin: 0.2rem 0; } .claim-id { color: var(--muted); }
details.evidence { margin: 0.4rem 0; } details.evidence summary { cursor: pointer; color: var(--link); }
.muted, .prov-link { color: var(--muted); font-size: 0.85rem; }
figure.plot { margin: 1rem 0; } figure.plot img { max-width: 100%; height: auto; }
.markdown-alert { border-left: 4px solid var(--border); padding: 0.2rem 1rem; margin: 1rem 0; }
.markdown-alert-warning { border-color: var(--inconclusive); } .markdown-alert-note { border-color: var(--link); }
.markdown-alert-title { font-weight: 600; }
#provenance li:target { background: var(--code); }
#provenance { font-size: 0.85rem; color: var(--muted); border-top: 1px solid var(--border); margin-top: 2rem; }
"#;

fn wrap_page(review: &DocReview, body: &str, provenance: &str, newest: Option<&str>) -> String {
    let title = review
        .updated
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .map(str::trim)
        .map_or_else(|| review.path.display().to_string(), str::to_string);
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for c in &review.claims {
        let word = if c.superseded.is_some() { "superseded" } else { c.verdict.as_str() };
        *counts.entry(word.to_string()).or_default() += 1;
    }
    let counts_html: String = counts
        .iter()
        .map(|(w, n)| format!("<span><span class=\"badge badge-{}\">{n} {}</span></span>", w.replace(' ', "-"), esc(w)))
        .collect();
    let date = newest.map_or("no data".to_string(), esc);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"color-scheme\" content=\"light dark\">\n<title>{title}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<header class=\"reckon\"><div><code>{path}</code> — report by reckon {version}</div><div>Data as of the <time class=\"data-date\">{date}</time> sweep</div><div class=\"counts\">{counts_html}</div></header>\n<main>\n{body}</main>\n<footer id=\"provenance\"><h2>Provenance</h2><ol>\n{provenance}</ol></footer>\n</body>\n</html>\n",
        title = esc(&title),
        path = esc(&review.path.display().to_string()),
        version = env!("CARGO_PKG_VERSION"),
    )
}

/// Where a document's page goes: `DIR/<stem>.html`.
pub fn page_path(out_dir: &Path, doc: &Path) -> PathBuf {
    let stem = doc.file_stem().map_or_else(|| "report".into(), |s| s.to_string_lossy().into_owned());
    out_dir.join(format!("{stem}.html"))
}

/// Writes a page atomically (a reader never sees half of it).
pub fn write_page(path: &Path, html: &str) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    crate::doc::write::write_generated(path, html)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            esc("<script>a & 'b' \"c\"</script>"),
            "&lt;script&gt;a &amp; &#39;b&#39; &quot;c&quot;&lt;/script&gt;"
        );
    }

    #[test]
    fn line_ranges_collapse_runs_of_lines() {
        assert_eq!(line_ranges(&[3, 4, 5, 9]), "lines 3–5, 9");
        assert_eq!(line_ranges(&[7]), "line 7");
    }

    #[test]
    fn table_numbers_link_and_words_do_not() {
        let html = "<tr><td>8</td><td>baseline</td><td align=\"right\"><strong>773.0</strong> ≈</td><td>2.19x</td></tr>\n<tr><td>16</td><td>1.5</td></tr>";
        let linked = link_table_numbers(html, 4, 1);
        assert!(
            linked.contains("<tr><td>8</td>") && linked.contains("<tr><td>16</td>"),
            "row keys stay plain: {linked}"
        );
        assert!(linked.contains("<td><a class=\"num\" href=\"#prov-4\">1.5</a></td>"), "{linked}");
        assert!(linked.contains("<td>baseline</td>"), "{linked}");
        assert!(linked.contains("<a class=\"num\" href=\"#prov-4\"><strong>773.0</strong> ≈</a>"), "{linked}");
        assert!(linked.contains("<a class=\"num\" href=\"#prov-4\">2.19x</a>"), "{linked}");
    }

    #[test]
    fn external_images_become_links() {
        let html = "<p><img src=\"https://example.org/x.png\" alt=\"chart\" /> <img src=\"data:image/png;base64,AA\" alt=\"\" /></p>";
        let out = no_external_images(html);
        assert!(!out.contains("src=\"https:"), "{out}");
        assert!(out.contains("<a href=\"https://example.org/x.png\">[image: chart]</a>"), "{out}");
        assert!(out.contains("src=\"data:image/png"), "{out}");
    }

    #[test]
    fn plot_image_line_is_split_from_its_caption() {
        let (img, rest) = split_plot_image("![Throughput \\] x](t.svg)\n\n_Error bars: …_");
        assert_eq!(img, Some(("Throughput ] x".to_string(), "t.svg".to_string())));
        assert_eq!(rest, "\n_Error bars: …_\n");
    }
}
