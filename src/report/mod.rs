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
//! evidence drawn from logs — goes through [`crate::escape::html`]. Plots travel as
//! `<img>` data URIs, in which an SVG cannot run script.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use base64::Engine as _;

mod body;
pub(crate) mod ci;
mod claim;

use body::Swap;

use crate::claims::judge::ClaimReport;
use crate::doc::{self, Kind, Region};
use crate::escape::html as esc;
use crate::query::{Agg, Filter, Query};
use crate::review::document::DocReview;
use crate::review::Context;
use crate::syntax::Literal;
use crate::{Error, Result};

/// The runs behind one region, for its provenance entry.
struct Provenance {
    runs: Vec<i64>,
}

/// Where reckon's own HTML goes in the markdown a page is rendered from:
/// token text that survives markdown rendering unchanged (letters and
/// digits, which no markdown syntax touches) and appears nowhere in the
/// document — its prefix is made longer until the text does not hold it,
/// so a log value or an author's word cannot pass for one.
pub(super) struct Tokens {
    prefix: String,
}

impl Tokens {
    fn new(text: &str) -> Tokens {
        let mut prefix = String::from("RECKONTOKEN");
        while text.contains(prefix.as_str()) {
            prefix.push('Q');
        }
        Tokens { prefix }
    }

    fn token(&self, kind: &str, i: usize) -> String {
        format!("{}{kind}{i}X", self.prefix)
    }
}

/// The queries a region's renderer runs (the filter narrowed as it does),
/// and for `max_over` / `min_over` which end is picked (true: the max).
fn region_queries(ctx: &Context, region: &Region, filter: &mut Filter) -> Option<(Vec<Query>, Option<bool>)> {
    let arg = |k: &str| region.arg(k).map(|a| a.value.as_str());
    let list = |k: &str| -> Vec<String> {
        arg(k)
            .map(|v| v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect())
            .unwrap_or_default()
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
                *filter = filter.clone().and(Filter::eq(&series, Literal::Text(one.to_string())));
                for m in list("metrics") {
                    let mut q = Query::new(m);
                    q.rows.clone_from(&rows);
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
                *filter = filter.clone().and(Filter::eq(&a.key, Literal::Text(a.value.clone())));
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
    Some((queries, over))
}

/// The runs a metric-bearing region reads: the same query its renderer
/// runs, the union of the cells' runs (for `max_over` / `min_over`, the
/// chosen cell's).
fn region_runs(ctx: &Context, region: &Region) -> Option<Provenance> {
    let arg = |k: &str| region.arg(k).map(|a| a.value.as_str());
    // The renderers' own filter (`where=`, `as_of=`), so the runs listed
    // are the runs the region read.
    let args = crate::render::Args::new(region.args.iter().map(|a| (a.key.clone(), a.value.clone())).collect());
    let mut filter = crate::render::filter_of(ctx.dataset, &args).ok()?;
    let agg = match arg("agg") {
        Some(a) => Agg::parse(a).ok()?,
        None => Agg::default(),
    };
    let (queries, over) = region_queries(ctx, region, &mut filter)?;
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

/// A plot region's content without its `![title](file)` line (the first
/// line that is an image), for the text below the figure.
fn below_plot_image(content: &str) -> String {
    let mut rest = String::new();
    let mut image = false;
    for line in content.lines() {
        let t = line.trim();
        if !image && t.starts_with("![") && t.ends_with(')') {
            image = true;
            continue;
        }
        rest.push_str(line);
        rest.push('\n');
    }
    rest
}

/// The markdown a page is rendered from, with a token where reckon's own
/// HTML goes, and what the page says beside it.
struct Marked {
    md: String,
    tokens: Tokens,
    /// Token → the HTML that replaces it.
    swaps: BTreeMap<String, Swap>,
    /// The provenance list's entries.
    provenance: String,
    /// The newest sweep the page's numbers and verdicts rest on.
    newest: Option<String>,
    /// Table regions with provenance (region index, row-key columns).
    linked_tables: Vec<(usize, usize)>,
}

impl Marked {
    fn saw_sweep(&mut self, sweep: &str) {
        if self.newest.as_deref().is_none_or(|n| sweep > n) {
            self.newest = Some(sweep.to_string());
        }
    }

    fn swap(&mut self, token: String, html: String) {
        self.swaps.insert(token, Swap::html(html));
    }

    /// A claim: its badge before, its evidence after the author's words —
    /// as a section of its own, or, for a claim written inside a sentence,
    /// in the sentence, its evidence after the block that holds it.
    fn claim(&mut self, i: usize, region: &Region, content: &str, report: &ClaimReport) {
        if let Some(d) = &report.data_date {
            self.saw_sweep(d);
        }
        let (begin, end) = (self.tokens.token("B", i), self.tokens.token("E", i));
        if region.detached.is_some() {
            let _ = write!(self.md, "{begin}{content}{end}");
            let open = Swap {
                in_link: Some(claim::open_inline(report, true)),
                ..Swap::html(claim::open_inline(report, false))
            };
            self.swaps.insert(begin, open);
            let close = Swap { after_block: Some(claim::evidence_after(report)), ..Swap::html("</span>".to_string()) };
            self.swaps.insert(end, close);
        } else {
            let _ = write!(self.md, "\n\n{begin}\n\n{content}\n\n{end}\n\n");
            self.swap(begin, claim::open(report));
            self.swap(end, claim::close(report));
        }
    }

    /// An inline value: the number, linked to its provenance when known
    /// (and not inside a link's text).
    fn value(&mut self, i: usize, content: &str, has_provenance: bool) {
        let v = self.tokens.token("V", i);
        self.md.push_str(&v);
        let plain = format!("<span class=\"num\">{}</span>", esc(content.trim()));
        let swap = if has_provenance {
            let link = format!("<a class=\"num\" href=\"#prov-{i}\" title=\"provenance\">{}</a>", esc(content.trim()));
            Swap { in_link: Some(plain), ..Swap::html(link) }
        } else {
            Swap::html(plain)
        };
        self.swaps.insert(v, swap);
    }

    /// A plot: the SVG inline as a data URI, the rest of the region's text
    /// below it. The SVG is the one reckon drew for this region of this
    /// document (its `file=` checked to be inside the document's folder, a
    /// regular file); no path written in the content is ever read.
    fn plot(&mut self, i: usize, region: &Region, content: &str, review: &DocReview, has_provenance: bool) {
        let (begin, end) = (self.tokens.token("B", i), self.tokens.token("E", i));
        let rest = below_plot_image(content);
        let p = self.tokens.token("P", i);
        let _ = write!(self.md, "\n\n{begin}\n\n{p}\n\n{rest}\n\n{end}\n\n");
        let arg = |k: &str| region.arg(k).map_or("", |a| a.value.as_str());
        let alt = region.arg("title").map_or_else(|| format!("{} by {}", arg("metric"), arg("x")), |a| a.value.clone());
        let figure = match review.plots.iter().find(|(r, _, _)| *r == i) {
            Some((_, _, svg)) => format!(
                "<figure class=\"plot\"><img src=\"data:image/svg+xml;base64,{}\" alt=\"{}\"></figure>",
                base64::engine::general_purpose::STANDARD.encode(svg.as_bytes()),
                esc(&alt)
            ),
            None => "<p class=\"muted\">(plot not drawn)</p>".to_string(),
        };
        self.swap(p, figure);
        self.swap(begin, format!("<div class=\"region region-plot\" id=\"region-{i}\">"));
        self.swap(end, region_footer(i, has_provenance));
    }

    /// Any other region: its content inside a `<div>` of its kind.
    fn block(&mut self, i: usize, region: &Region, content: &str, has_provenance: bool) {
        let (begin, end) = (self.tokens.token("B", i), self.tokens.token("E", i));
        let _ = write!(self.md, "\n\n{begin}\n\n{content}\n\n{end}\n\n");
        self.swap(begin, format!("<div class=\"region region-{}\" id=\"region-{i}\">", region.kind.name()));
        self.swap(end, region_footer(i, has_provenance));
        if region.kind == Kind::Table && has_provenance {
            let keys = region.arg("rows").map_or(1, |a| a.value.split(',').filter(|s| !s.trim().is_empty()).count());
            self.linked_tables.push((i, keys));
        }
    }
}

/// One document's page, from its review (regenerated text, claims, plots).
pub(crate) fn page(ctx: &Context, review: &DocReview) -> Result<String> {
    let text = &review.updated;
    let parsed = doc::parse(&review.path, text)?;
    let mut marked = Marked {
        md: String::with_capacity(text.len()),
        tokens: Tokens::new(text),
        swaps: BTreeMap::new(),
        provenance: String::new(),
        newest: None,
        linked_tables: Vec::new(),
    };
    let mut claims = review.claims.iter();
    let mut cursor = 0;
    for (i, region) in parsed.regions.iter().enumerate() {
        marked.md.push_str(&text[cursor..region.open.start]);
        cursor = region.close.end;
        let content = region.content(text);
        let directive = text[region.open.clone()].trim_start_matches("<!--").trim_end_matches("-->").trim();
        let prov = region_runs(ctx, region);
        if let Some(p) = &prov {
            marked.provenance.push_str(&provenance_html(ctx, i, directive, p));
            for run in p.runs.iter().filter_map(|id| ctx.dataset.run(*id)) {
                marked.saw_sweep(&run.sweep);
            }
        }
        match region.kind {
            Kind::Claim => {
                if let Some(report) = claims.next() {
                    marked.claim(i, region, content, report);
                }
            }
            Kind::Value => marked.value(i, content, prov.is_some()),
            Kind::Plot => marked.plot(i, region, content, review, prov.is_some()),
            _ => marked.block(i, region, content, prov.is_some()),
        }
    }
    marked.md.push_str(&text[cursor..]);
    let body = body::render_body(&marked.md, &marked.tokens, &marked.swaps, &marked.linked_tables)?;
    Ok(wrap_page(review, &body, &marked.provenance, marked.newest.as_deref()))
}

fn region_footer(i: usize, has_provenance: bool) -> String {
    if has_provenance {
        format!("<p class=\"prov-link\"><a href=\"#prov-{i}\">provenance</a></p></div>")
    } else {
        "</div>".to_string()
    }
}

/// The page's style sheet (light and dark themes, by the reader's setting).
const CSS: &str = include_str!("page.css");

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
    let counts_html = counts.iter().fold(String::new(), |mut out, (w, n)| {
        let _ = write!(out, "<span><span class=\"badge badge-{}\">{n} {}</span></span>", w.replace(' ', "-"), esc(w));
        out
    });
    let date = newest.map_or("no data".to_string(), esc);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n<title>{title}</title>\n<style>{CSS}</style>\n\
         </head>\n<body>\n<header class=\"reckon\"><div><code>{path}</code> — report by reckon {version}</div>\
         <div>Data as of the <time class=\"data-date\">{date}</time> sweep</div>\
         <div class=\"counts\">{counts_html}</div></header>\n<main>\n{body}</main>\n\
         <footer id=\"provenance\"><h2>Provenance</h2><ol>\n{provenance}</ol></footer>\n</body>\n</html>\n",
        title = esc(&title),
        path = esc(&review.path.display().to_string()),
        version = env!("CARGO_PKG_VERSION"),
    )
}

/// Where a document's page goes: `DIR/<stem>.html`.
pub(crate) fn page_path(out_dir: &Path, doc: &Path) -> PathBuf {
    let stem = doc.file_stem().map_or_else(|| "report".into(), |s| s.to_string_lossy().into_owned());
    out_dir.join(format!("{stem}.html"))
}

/// Writes a page atomically (a reader never sees half of it).
pub(crate) fn write_page(path: &Path, html: &str) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    crate::doc::write::write_generated(path, html)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ranges_collapse_runs_of_lines() {
        assert_eq!(line_ranges(&[3, 4, 5, 9]), "lines 3–5, 9");
        assert_eq!(line_ranges(&[7]), "line 7");
    }

    /// The body comrak gives `md`, edited as a page's is (no tokens swapped).
    fn body(md: &str, linked_tables: &[(usize, usize)]) -> String {
        body::render_body(md, &Tokens::new(""), &BTreeMap::new(), linked_tables).unwrap()
    }

    #[test]
    fn table_numbers_link_and_words_do_not() {
        let md = "RECKONTOKENB4X\n\n| n | config | tok/s | ratio |\n|---|---|--:|---|\n\
                  | 8 | baseline | **773.0** ≈ | 2.19x |\n| 16 | 1.5 | | |\n\nRECKONTOKENE4X\n";
        let linked = body(md, &[(4, 1)]);
        assert!(linked.contains("<td>8</td>") && linked.contains("<td>16</td>"), "row keys stay plain: {linked}");
        assert!(linked.contains("<td><a class=\"num\" href=\"#prov-4\">1.5</a></td>"), "{linked}");
        assert!(linked.contains("<td>baseline</td>"), "{linked}");
        assert!(linked.contains("<a class=\"num\" href=\"#prov-4\"><strong>773.0</strong> ≈</a>"), "{linked}");
        assert!(linked.contains("<a class=\"num\" href=\"#prov-4\">2.19x</a>"), "{linked}");
        // Headings are not generated numbers.
        assert!(linked.contains("<th>n</th>"), "{linked}");
    }

    #[test]
    fn external_images_become_links() {
        let out = body("![chart](https://example.org/x.png) ![](data:image/png;base64,AA)\n", &[]);
        assert!(!out.contains("src=\"https:"), "{out}");
        assert!(out.contains("<a href=\"https://example.org/x.png\">[image: chart]</a>"), "{out}");
        assert!(out.contains("src=\"data:image/png"), "{out}");
    }

    #[test]
    fn tokens_give_way_to_html_as_blocks_and_inline() {
        let t = Tokens::new("");
        let swaps = BTreeMap::from([
            (t.token("B", 0), Swap::html("<div>".to_string())),
            (t.token("V", 1), Swap { in_link: Some("<i>7</i>".to_string()), ..Swap::html("<b>7</b>".to_string()) }),
            (t.token("V", 2), Swap { after_block: Some("<aside></aside>".to_string()), ..Swap::html("8".to_string()) }),
        ]);
        let md =
            format!("{}\n\nSpeed {} tok/s, [see {}]({}).\n", t.token("B", 0), t.token("V", 1), t.token("V", 1), "x");
        let out = body::render_body(&md, &t, &swaps, &[]).unwrap();
        assert_eq!(out, "<div>\n<p>Speed <b>7</b> tok/s, <a href=\"x\">see <i>7</i></a>.</p>\n");
        let md = format!("A {} b.\n\nNext.\n", t.token("V", 2));
        let out = body::render_body(&md, &t, &swaps, &[]).unwrap();
        assert_eq!(out, "<p>A 8 b.</p>\n<aside></aside>\n<p>Next.</p>\n");
    }

    #[test]
    fn tokens_are_never_text_the_document_holds() {
        let t = Tokens::new("a series named RECKONTOKENB0X and RECKONTOKENQ");
        assert!(!"a series named RECKONTOKENB0X and RECKONTOKENQ".contains(&t.prefix), "{}", t.prefix);
    }

    #[test]
    fn plot_image_line_is_split_from_its_caption() {
        assert_eq!(below_plot_image("![Throughput \\] x](t.svg)\n\n_Error bars: …_"), "\n_Error bars: …_\n");
    }
}
