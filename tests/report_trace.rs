//! `reckon report` traces every number to the runs behind it: each table
//! cell of the bundled example links to a provenance entry listing exactly
//! that cell's runs (counted against `reckon query --agg count`), numbers
//! resting on the same runs share one entry, the page names the commit it
//! was built from and links each log to its file and to the forge at that
//! commit, and — in real headless Chromium at 375 px and 1280 px — nothing
//! is wider than the screen but a table in its scrolling box, and every
//! in-page link has its target.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use common::chromium::{chromium, headless};
use common::{Git, Sandbox};

const DOC: &str = "notebooks/eagle-fast-verify.md";
const PAGE: &str = "site/eagle-fast-verify.html";

/// The bundled example with both sweeps, in a sandbox.
fn example() -> Sandbox {
    Sandbox::example("", &["2026-11-20", "2026-11-29"])
}

fn reported() -> Sandbox {
    let s = example();
    s.ok(&["report", DOC, "--out", "site"]);
    s
}

/// The `<table>` of region `region`, each body row's cells as (text, the
/// provenance entry linked).
fn table_cells(html: &str, region: usize) -> Vec<Vec<(String, Option<usize>)>> {
    let start = html.find(&format!("id=\"region-{region}\"")).expect("the region");
    let table = &html[start..start + html[start..].find("</table>").unwrap()];
    let body = &table[table.find("<tbody>").unwrap()..];
    body.split("<tr>")
        .skip(1)
        .map(|row| {
            row.split("<td")
                .skip(1)
                .map(|cell| {
                    let cell = &cell[cell.find('>').unwrap() + 1..cell.find("</td>").unwrap()];
                    let entry = cell.find("href=\"#prov-").map(|at| {
                        let rest = &cell[at + 12..];
                        rest[..rest.find('"').unwrap()].parse().unwrap()
                    });
                    (strip_tags(cell).replace(" ≈", ""), entry)
                })
                .collect()
        })
        .collect()
}

fn strip_tags(s: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.trim().to_string()
}

/// Provenance entry `k`: its text.
fn entry(html: &str, k: usize) -> String {
    let start = html.find(&format!("<li id=\"prov-{k}\">")).unwrap_or_else(|| panic!("no entry prov-{k}"));
    html[start..start + html[start..].find("</ul></li>").unwrap()].to_string()
}

/// How many lines an entry lists ("lines 1–3, 7" is four).
fn lines_listed(entry: &str) -> usize {
    let text = strip_tags(entry);
    let mut n = 0;
    for part in text.split(" line").skip(1) {
        let part = part.trim_start_matches('s').trim();
        let ranges = part.split(" ·").next().unwrap().split(" notebooks/").next().unwrap();
        for range in ranges.split(", ") {
            let range = range.split_whitespace().next().unwrap_or("");
            n += match range.split_once('–') {
                Some((a, b)) => b.parse::<usize>().unwrap() - a.parse::<usize>().unwrap() + 1,
                None if range.parse::<usize>().is_ok() => 1,
                None => 0,
            };
        }
    }
    n
}

/// `reckon query --agg count` as (row, column) → count.
fn counts(s: &Sandbox, filter: Option<&str>) -> (Vec<String>, HashMap<(String, String), usize>) {
    let mut args = vec!["query", "--metric", "output_throughput", "--rows", "max_concurrency", "--agg", "count"];
    args.extend(["--format", "csv"]);
    if let Some(f) = filter {
        args.extend(["--where", f]);
    }
    let out = s.ok(&args).stdout;
    let mut lines = out.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    let mut cells = HashMap::new();
    for line in lines {
        let fields: Vec<&str> = line.split(',').collect();
        for (c, v) in fields.iter().enumerate().skip(1) {
            if !v.is_empty() {
                cells.insert((fields[0].to_string(), header[c].clone()), v.parse().unwrap());
            }
        }
    }
    (header, cells)
}

#[test]
fn every_table_cell_links_to_an_entry_of_exactly_its_runs() {
    let s = reported();
    let html = s.read(PAGE);
    let tables =
        [("median of the newest sweep at each point", None), ("sweep, as recorded", Some("date = 2026-11-20"))];
    for (before, filter) in tables {
        let region = find_region(&html, before);
        let (header, counts) = counts(&s, filter);
        let rows = table_cells(&html, region);
        assert_eq!(rows.len(), 11, "region {region}: a row per concurrency");
        let mut entries = BTreeSet::new();
        for row in &rows {
            assert_eq!(row[0].1, None, "a row's key is not a generated number");
            for (c, (text, k)) in row.iter().enumerate().skip(1) {
                let k = k.unwrap_or_else(|| panic!("cell {text} of region {region} links nowhere"));
                entries.insert(k);
                let config = &header[c];
                let want = counts[&(row[0].0.clone(), config.clone())];
                let e = entry(&html, k);
                let runs = if want == 1 { "1 run;".to_string() } else { format!("{want} runs;") };
                assert!(e.contains(&runs), "cell {config} at {}: want {want} runs: {e}", row[0].0);
                assert_eq!(lines_listed(&e), want, "cell {config} at {}: {e}", row[0].0);
                assert!(e.contains(&format!("/{config}.")), "cell {config}'s runs are in its own log: {e}");
                assert!(e.contains(&format!("max_concurrency={}", row[0].0)), "{e}");
            }
        }
        let cells: usize = rows.iter().map(|r| r.len() - 1).sum();
        assert_eq!(entries.len(), cells, "region {region}: each cell its own runs, its own entry");
    }
}

/// The index of the table region after the heading `heading`.
fn find_region(html: &str, heading: &str) -> usize {
    let at = html.find(heading).expect("the heading");
    let rest = &html[at..];
    let start = rest.find("id=\"region-").unwrap() + 11;
    rest[start..start + rest[start..].find('"').unwrap()].parse().unwrap()
}

#[test]
fn numbers_resting_on_the_same_runs_share_an_entry() {
    let s = reported();
    let html = s.read(PAGE);
    // "against 462.5 tok/s": baseline at C=8, as the first table has it.
    let rows = table_cells(&html, 0);
    let c8 = rows.iter().find(|r| r[0].0 == "8").unwrap();
    let baseline = c8[1].1.unwrap();
    let value = format!("href=\"#prov-{baseline}\" title=\"provenance\">{}</a>", c8[1].0);
    assert!(html.contains(&value), "the inline value links to the cell's entry {baseline}");
    // Each entry is listed once.
    let listed = html.matches("<li id=\"prov-").count();
    let ids: BTreeSet<&str> = html.match_indices("<li id=\"prov-").map(|(at, _)| &html[at..at + 20]).collect();
    assert_eq!(ids.len(), listed);
    // Each plot point links to its cell's runs: baseline at C=8 is the
    // table cell's entry too.
    assert!(html.contains(&format!("href=\"#prov-{baseline}\" style=")), "no plot point links to entry {baseline}");
    assert_eq!(html.matches("<a class=\"pt\"").count(), 33, "a link over each of the plot's points");
}

/// A git repository around the example, with a GitHub remote.
fn committed(remote: &str) -> (Sandbox, Git, String) {
    let s = example();
    let git = Git::init(&s);
    git.ok(&["remote", "add", "origin", remote]);
    s.write(".gitignore", "db/\nsite/\n");
    git.ok(&["add", "-A"]);
    git.ok(&["commit", "-q", "-m", "example"]);
    let sha = git.ok(&["rev-parse", "HEAD"]).stdout.trim().to_string();
    (s, git, sha)
}

#[test]
fn the_page_names_its_commit_and_links_logs_to_the_forge() {
    let (s, _git, sha) = committed("git@github.com:acme/bench.git");
    s.ok(&["report", DOC, "--out", "site"]);
    let html = s.read(PAGE);
    let short = &sha[..12];
    assert!(
        html.contains(&format!(
            "Built from commit <a href=\"https://github.com/acme/bench/commit/{sha}\">\
             <code title=\"{sha}\">{short}</code></a>, clean"
        )),
        "{html}"
    );
    let blob = format!("https://github.com/acme/bench/blob/{sha}/notebooks/logs/2026-11-29/baseline.jsonl#L1-L3");
    assert!(html.contains(&format!("<a href=\"{blob}\">at {short}</a>")), "{html}");
    assert!(html.contains("<a href=\"../notebooks/logs/2026-11-29/baseline.jsonl\"><code>"), "the local file");

    // A log changed since the commit is not linked at it; the page says so.
    let log = s.path().join("notebooks/logs/2026-11-29/baseline.jsonl");
    let mut text = std::fs::read_to_string(&log).unwrap();
    text.push('\n');
    std::fs::write(&log, text).unwrap();
    s.ok(&["report", DOC, "--out", "site"]);
    let html = s.read(PAGE);
    assert!(html.contains("with uncommitted changes (dirty)"), "{html}");
    assert!(!html.contains(&blob), "a link to the committed log, which the page's numbers no longer come from");
    assert!(html.contains("not as committed"), "{html}");
    let other =
        format!("https://github.com/acme/bench/blob/{sha}/notebooks/logs/2026-11-29/eagle-topk1-v2.jsonl#L1-L3");
    assert!(html.contains(&other), "an unchanged log is still linked at the commit");
}

#[test]
fn a_remote_of_another_host_or_shape_gives_no_forge_link() {
    for remote in ["https://example.org/acme/bench.git", "https://github.com/acme/<script>x"] {
        let (s, _git, sha) = committed(remote);
        s.ok(&["report", DOC, "--out", "site"]);
        let html = s.read(PAGE);
        assert!(html.contains(&format!("<code title=\"{sha}\">")), "{remote}: the commit is still named");
        assert!(!html.contains("/blob/"), "{remote}: {html}");
        assert!(!html.contains("<script"), "{remote}");
    }
}

#[test]
fn header_counts_list_the_claims_they_count() {
    let s = reported();
    let html = s.read(PAGE);
    let counts = &html[html.find("<div class=\"counts\">").unwrap()..html.find("</header>").unwrap()];
    let contradicted = &counts[counts.find("3 contradicted").expect("the count")..];
    let contradicted = &contradicted[..contradicted.find("</details>").unwrap()];
    for id in ["throughput-baseline-wins", "saturation-ratio", "topk4-plateau"] {
        assert!(contradicted.contains(&format!("<a href=\"#claim-{id}\">{id}</a>")), "{contradicted}");
        assert!(html.contains(&format!("id=\"claim-{id}\"")), "the target of the link");
    }
    assert!(counts.contains("3 holds"), "{counts}");
}

// ---- in a real browser ----

/// What the page measures in the browser once it has loaded (its plot
/// decoded), written into the document around it as JSON: the viewport's
/// width, the page's scroll width, every element wider than the viewport
/// outside a scrolling table's box, the tables whose box scrolls, and
/// every in-page link without its target.
const MEASURE: &str = r#"<script>
window.addEventListener("load", function () {
  const vw = document.documentElement.clientWidth;
  const out = { vw: vw, page: document.documentElement.scrollWidth, wide: [], scrolling: 0, links: 0, missing: [] };
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const box = el.parentElement && el.parentElement.closest(".table-scroll");
    if (box && getComputedStyle(box).overflowX !== "visible") continue;
    if (r.right > vw + 0.5 || r.left < -0.5) {
      out.wide.push(el.tagName + "." + el.className + " " + Math.round(r.left) + ".." + Math.round(r.right));
    }
  }
  for (const box of document.querySelectorAll(".table-scroll")) {
    if (box.scrollWidth > box.clientWidth) out.scrolling++;
  }
  for (const a of document.querySelectorAll("a[href^='#']")) {
    out.links++;
    const id = decodeURIComponent(a.getAttribute("href").slice(1));
    if (!document.getElementById(id)) out.missing.push(a.getAttribute("href"));
  }
  const pre = parent.document.createElement("pre");
  pre.id = "measured";
  pre.textContent = JSON.stringify(out);
  parent.document.body.appendChild(pre);
});
</script>"#;

/// The page measured in a frame `width` px wide (headless Chromium's
/// window is at least 500 px wide; a `srcdoc` frame is any width, and of
/// the page's origin, so the measure can write its result outside it).
fn measure(chrome: &Path, s: &Sandbox, html: &str, width: u32) -> serde_json::Value {
    let page = html.replace("</body>", &format!("{MEASURE}</body>")).replace('&', "&amp;").replace('"', "&quot;");
    let frame = format!(
        "<!DOCTYPE html><html><body style=\"margin:0\"><iframe style=\"width:{width}px;height:900px;border:0\" \
         srcdoc=\"{page}\"></iframe></body></html>"
    );
    let path = s.path().join(format!("site/frame-{width}.html"));
    std::fs::write(&path, frame).unwrap();
    let profile = s.path().join(format!("chromium-profile-{width}"));
    let out =
        headless(chrome, &profile, &["--window-size=1400,1000", "--virtual-time-budget=10000", "--dump-dom"], &path);
    let dom = String::from_utf8_lossy(&out.stdout);
    let start = dom
        .find("<pre id=\"measured\">")
        .unwrap_or_else(|| panic!("the page did not measure itself: {}", String::from_utf8_lossy(&out.stderr)))
        + 19;
    let json = &dom[start..start + dom[start..].find("</pre>").unwrap()];
    serde_json::from_str(&json.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")).unwrap()
}

#[test]
fn the_page_fits_a_phone_and_a_desktop_in_chromium() {
    let s = reported();
    let html = s.read(PAGE);
    let Some(chrome) = chromium() else { return };
    for width in [375, 1280] {
        let m = measure(&chrome, &s, &html, width);
        let vw = m["vw"].as_u64().unwrap();
        assert!(vw <= u64::from(width) && vw + 40 >= u64::from(width), "{width}: the viewport is {vw} px");
        assert_eq!(m["wide"], serde_json::json!([]), "{width} px: elements wider than the screen");
        assert!(m["page"].as_u64().unwrap() <= vw, "{width} px: the page scrolls sideways: {m}");
        assert_eq!(m["missing"], serde_json::json!([]), "{width} px: links without their target");
        assert!(m["links"].as_u64().unwrap() > 100, "{m}");
        if width == 375 {
            assert!(m["scrolling"].as_u64().unwrap() >= 1, "at 375 px the 4-column table scrolls in its box: {m}");
        }
    }
}
