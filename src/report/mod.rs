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
pub(crate) mod forge;
mod provenance;

use body::Swap;
pub(crate) use forge::Site;
use provenance::Entries;

use crate::claims::judge::ClaimReport;
use crate::doc::{self, Kind, Region};
use crate::escape::html as esc;
use crate::render::Trace;
use crate::review::document::DocReview;
use crate::review::Context;
use crate::{Error, Result};

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
struct Marked<'e, 'a, 's> {
    md: String,
    tokens: Tokens,
    /// Token → the HTML that replaces it.
    swaps: BTreeMap<String, Swap>,
    /// The provenance list, cited as the page is marked.
    entries: &'e mut Entries<'a, 's>,
    /// The newest sweep the page's verdicts rest on.
    newest: Option<String>,
    /// Table regions' cells linked to provenance (region index, each body
    /// row's cells' entries).
    linked_tables: Vec<(usize, Vec<Vec<Option<usize>>>)>,
}

impl Marked<'_, '_, '_> {
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
            let after = claim::evidence_after(report, self.entries);
            let close = Swap { after_block: Some(after), ..Swap::html("</span>".to_string()) };
            self.swaps.insert(end, close);
        } else {
            let _ = write!(self.md, "\n\n{begin}\n\n{content}\n\n{end}\n\n");
            self.swap(begin, claim::open(report));
            let close = claim::close(report, self.entries);
            self.swap(end, close);
        }
    }

    /// An inline value: the number, linked to the entry of its runs when
    /// known (and not inside a link's text).
    fn value(&mut self, i: usize, content: &str, prov: Option<usize>) {
        let v = self.tokens.token("V", i);
        self.md.push_str(&v);
        let plain = format!("<span class=\"num\">{}</span>", esc(content.trim()));
        let swap = match prov {
            Some(k) => {
                let link =
                    format!("<a class=\"num\" href=\"#prov-{k}\" title=\"provenance\">{}</a>", esc(content.trim()));
                Swap { in_link: Some(plain), ..Swap::html(link) }
            }
            None => Swap::html(plain),
        };
        self.swaps.insert(v, swap);
    }

    /// A plot: the SVG inline as a data URI, each point a link to its
    /// runs' entry laid over it, the rest of the region's text below. The
    /// SVG is the one reckon drew for this region of this document (its
    /// `file=` checked to be inside the document's folder, a regular file);
    /// no path written in the content is ever read.
    fn plot(&mut self, i: usize, region: &Region, content: &str, review: &DocReview, trace: Option<&Trace>) {
        let (begin, end) = (self.tokens.token("B", i), self.tokens.token("E", i));
        let rest = below_plot_image(content);
        let p = self.tokens.token("P", i);
        let _ = write!(self.md, "\n\n{begin}\n\n{p}\n\n{rest}\n\n{end}\n\n");
        let spec = match &region.spec {
            Ok(crate::doc::RegionSpec::Plot(spec)) => Some(spec),
            _ => None,
        };
        let x = spec.map_or("", |s| s.x.value.as_str());
        let alt = match spec {
            Some(s) => s.title.as_ref().map_or_else(|| format!("{} by {x}", s.metric.value), |t| t.value.clone()),
            None => " by ".to_string(),
        };
        let (points, all) = point_links(self.entries, trace, x);
        let figure = match review.plots.iter().find(|(r, _, _)| *r == i) {
            Some((_, _, svg)) => format!(
                "<figure class=\"plot\"><div class=\"plot-frame\"><img src=\"data:image/svg+xml;base64,{}\" \
                 alt=\"{}\">{points}</div></figure>",
                base64::engine::general_purpose::STANDARD.encode(svg.as_bytes()),
                esc(&alt)
            ),
            None => "<p class=\"muted\">(plot not drawn)</p>".to_string(),
        };
        let prov = self.entries.cite(&all);
        self.swap(p, figure);
        self.swap(begin, format!("<div class=\"region region-plot\" id=\"region-{i}\">"));
        self.swap(end, region_footer(prov));
    }

    /// Any other region: its content inside a `<div>` of its kind, a
    /// table's numbers each linked to the entry of its cell's runs.
    fn block(&mut self, i: usize, region: &Region, content: &str, trace: Option<&Trace>) {
        let (begin, end) = (self.tokens.token("B", i), self.tokens.token("E", i));
        let _ = write!(self.md, "\n\n{begin}\n\n{content}\n\n{end}\n\n");
        self.swap(begin, format!("<div class=\"region region-{}\" id=\"region-{i}\">", region.kind.name()));
        let mut all: BTreeSet<i64> = BTreeSet::new();
        if let Some(Trace::Table(rows)) = trace {
            let grid = rows
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|runs| {
                            all.extend(runs);
                            self.entries.cite(runs)
                        })
                        .collect()
                })
                .collect();
            self.linked_tables.push((i, grid));
        }
        let prov = self.entries.cite(&all.into_iter().collect::<Vec<_>>());
        self.swap(end, region_footer(prov));
    }
}

/// A link over each point of a plot to the entry of its runs (placed in
/// percent of the image, so it stays on its point as the image scales),
/// and every point's runs.
fn point_links(entries: &mut Entries, trace: Option<&Trace>, x_name: &str) -> (String, Vec<i64>) {
    let mut html = String::new();
    let mut all: BTreeSet<i64> = BTreeSet::new();
    let points = match trace {
        Some(Trace::Plot(points)) => points.as_slice(),
        _ => &[],
    };
    let (width, height) = (f64::from(crate::render::plot::WIDTH), f64::from(crate::render::plot::HEIGHT));
    for point in points {
        all.extend(&point.runs);
        let Some(entry) = entries.cite(&point.runs) else { continue };
        let label = format!("{}, {x_name} {}: {}", point.series, point.x, crate::metric::format_number(point.y));
        let _ = write!(
            html,
            "<a class=\"pt\" href=\"#prov-{entry}\" style=\"left:{:.2}%;top:{:.2}%\" title=\"{}\" \
             aria-label=\"{}\"></a>",
            f64::from(point.at.0) / width * 100.0,
            f64::from(point.at.1) / height * 100.0,
            esc(&label),
            esc(&label)
        );
    }
    (html, all.into_iter().collect())
}

/// One document's page, from its review (regenerated text, claims, plots,
/// the runs behind each number), for a page in `site`.
pub(crate) fn page(ctx: &Context, review: &DocReview, site: &Site) -> Result<String> {
    let text = &review.updated;
    let parsed = doc::parse(&review.path, text)?;
    let mut entries = Entries::new(ctx.dataset, site);
    let mut marked = Marked {
        md: String::with_capacity(text.len()),
        tokens: Tokens::new(text),
        swaps: BTreeMap::new(),
        entries: &mut entries,
        newest: None,
        linked_tables: Vec::new(),
    };
    let mut claims = review.claims.iter();
    let mut cursor = 0;
    for (i, region) in parsed.regions.iter().enumerate() {
        marked.md.push_str(&text[cursor..region.open.start]);
        cursor = region.close.end;
        let content = region.content(text);
        let trace = review.traces.iter().find(|(r, _)| *r == i).map(|(_, t)| t);
        match region.kind {
            Kind::Claim => {
                if let Some(report) = claims.next() {
                    marked.claim(i, region, content, report);
                }
            }
            Kind::Value => {
                let prov = match trace {
                    Some(Trace::Value(runs)) => marked.entries.cite(runs),
                    _ => None,
                };
                marked.value(i, content, prov);
            }
            Kind::Plot => marked.plot(i, region, content, review, trace),
            _ => marked.block(i, region, content, trace),
        }
    }
    marked.md.push_str(&text[cursor..]);
    let body = body::render_body(&marked.md, &marked.tokens, &marked.swaps, &marked.linked_tables)?;
    let newest = [marked.newest.take(), entries.newest.take()].into_iter().flatten().max();
    Ok(wrap_page(review, &body, site, &entries.into_html(), newest.as_deref()))
}

fn region_footer(prov: Option<usize>) -> String {
    match prov {
        Some(k) => format!("<p class=\"prov-link\"><a href=\"#prov-{k}\">provenance</a></p></div>"),
        None => "</div>".to_string(),
    }
}

/// The page's style sheet (light and dark themes, by the reader's setting).
const CSS: &str = include_str!("page.css");

fn wrap_page(review: &DocReview, body: &str, site: &Site, provenance: &str, newest: Option<&str>) -> String {
    let title = review
        .updated
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .map(str::trim)
        .map_or_else(|| review.path.display().to_string(), str::to_string);
    let counts_html = claim::counts(&review.claims);
    let date = newest.map_or("no data".to_string(), esc);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n<title>{title}</title>\n<style>{CSS}</style>\n\
         </head>\n<body>\n<header class=\"reckon\"><div><code>{path}</code> — report by reckon {version}</div>\
         <div>Data as of the <time class=\"data-date\">{date}</time> sweep</div>{commit}\
         <div class=\"counts\">{counts_html}</div></header>\n<main>\n{body}</main>\n\
         <footer id=\"provenance\"><h2>Provenance</h2><ol>\n{provenance}</ol></footer>\n</body>\n</html>\n",
        title = esc(&title),
        path = esc(&review.path.display().to_string()),
        version = env!("CARGO_PKG_VERSION"),
        commit = site.commit_html(),
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

    /// The body comrak gives `md`, edited as a page's is (no tokens swapped).
    fn body(md: &str, linked_tables: &[(usize, Vec<Vec<Option<usize>>>)]) -> String {
        body::render_body(md, &Tokens::new(""), &BTreeMap::new(), linked_tables).unwrap()
    }

    #[test]
    fn table_numbers_link_and_words_do_not() {
        let md = "RECKONTOKENB4X\n\n| n | config | tok/s | ratio |\n|---|---|--:|---|\n\
                  | 8 | baseline | **773.0** ≈ | 2.19x |\n| 16 | 1.5 | | |\n\nRECKONTOKENE4X\n";
        let entries = vec![vec![None, Some(0), Some(1), Some(2)], vec![None, Some(3), None, None]];
        let linked = body(md, &[(4, entries)]);
        assert!(linked.contains("<td>8</td>") && linked.contains("<td>16</td>"), "row keys stay plain: {linked}");
        assert!(linked.contains("<td><a class=\"num\" href=\"#prov-3\">1.5</a></td>"), "{linked}");
        assert!(linked.contains("<td>baseline</td>"), "words stay plain: {linked}");
        assert!(linked.contains("<a class=\"num\" href=\"#prov-1\"><strong>773.0</strong> ≈</a>"), "{linked}");
        assert!(linked.contains("<a class=\"num\" href=\"#prov-2\">2.19x</a>"), "{linked}");
        assert!(linked.contains("<div class=\"table-scroll\">\n<table>"), "{linked}");
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
