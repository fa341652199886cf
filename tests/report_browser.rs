//! `reckon report`: the bundled example with both scenario sweeps rendered
//! to HTML and opened in a real headless Chromium (Debian's `chromium`,
//! installed by `.ci/run`): the DOM it builds holds the verdict badges, the
//! numbers with their provenance links and the inline plot, and its
//! screenshot is a rendered page, not a blank one. Values from logs are
//! escaped.

mod common;

use common::chromium::{chromium, headless};
use common::Sandbox;

const DOC: &str = "notebooks/eagle-fast-verify.md";

/// The bundled example with both sweeps, reported into `site/`.
fn reported() -> Sandbox {
    let s = Sandbox::example("", &["2026-11-20", "2026-11-29"]);
    let r = s.ok(&["report", DOC, "--out", "site"]);
    assert!(r.stderr.contains("site/eagle-fast-verify.html"), "{r:?}");
    s
}

#[test]
fn report_renders_in_headless_chromium() {
    let s = reported();
    let page = s.path().join("site/eagle-fast-verify.html");
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: nothing fetched from anywhere.
    for external in ["src=\"http", "href=\"http", "<link", "<script", "@import", "url("] {
        assert!(!html.contains(external), "external reference `{external}` in the page");
    }
    assert!(html.contains("prefers-color-scheme: dark"), "a dark theme follows the system setting");

    let Some(chrome) = chromium() else { return };
    let profile = s.path().join("chromium-profile");
    let out = headless(&chrome, &profile, &["--dump-dom"], &page);
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && dom.contains("</html>"),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    // The header: the data date.
    assert!(dom.contains("<time class=\"data-date\">2026-11-29</time>"), "{dom}");
    // Every claim carries its verdict: three contradicted, three holding.
    let badge = |v: &str| dom.matches(&format!("<span class=\"badge badge-{v}\">{v}</span>")).count();
    assert_eq!(badge("contradicted"), 3, "{dom}");
    assert_eq!(badge("holds"), 3, "{dom}");
    assert_eq!(dom.matches("<details class=\"evidence\">").count(), 6, "evidence one click away for each claim");
    assert!(
        dom.contains("baseline 689.4 vs eagle-topk1-v2 759.3 (-9.2%; 95% interval -10.7% to -7.8%"),
        "the counterexample is in the evidence"
    );
    // Numbers link to their provenance: the inline peak and a table cell.
    assert!(dom.contains("title=\"provenance\">773.0</a>"), "{dom}");
    assert!(dom.contains("><strong>759.3</strong></a>"), "{dom}");
    let prov = &dom[dom.find("id=\"provenance\"").expect("a provenance section")..];
    assert!(prov.contains("notebooks/logs/2026-11-29/baseline.jsonl"), "{prov}");
    assert!(prov.contains("sweep 2026-11-29"), "{prov}");
    // The plot is inline.
    assert!(dom.contains("<img src=\"data:image/svg+xml;base64,"), "{dom}");

    // A screenshot of the page shows a rendered page: many colours, and
    // much of it not background.
    let shot = s.path().join("shot.png");
    let out =
        headless(&chrome, &profile, &[&format!("--screenshot={}", shot.display()), "--window-size=1100,1600"], &page);
    assert!(shot.exists(), "no screenshot: {}", String::from_utf8_lossy(&out.stderr));
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let pixels: Vec<&[u8]> = buf[..info.buffer_size()].chunks(channels).collect();
    let background = pixels[0];
    let distinct: std::collections::HashSet<&[u8]> = pixels.iter().copied().collect();
    let drawn = pixels.iter().filter(|p| **p != background).count() as f64 / pixels.len() as f64;
    assert!(distinct.len() > 100, "{} colours: a blank page?", distinct.len());
    assert!(drawn > 0.03, "only {:.1}% of the page differs from its background", drawn * 100.0);
}

#[test]
fn values_from_logs_are_escaped() {
    let s = Sandbox::new();
    let hostile = "<img src=x onerror=alert(1)>";
    s.write(
        "logs/2026-01-05/run.csv",
        format!("config,size,throughput\n\"{hostile}\",1,100\nplain,1,50\n\"{hostile}\",2,120\nplain,2,60\n"),
    );
    s.ok(&["ingest", "-q", "--label", "x=1", "logs/{date}/run.csv"]);
    s.write(
        "plan.md",
        "# Plan <b>bold</b>\n\n<!-- reckon:table metric=throughput rows=size cols=config -->\n<!-- \
         /reckon:table -->\n\n<!-- reckon:claim id=c\n     plain beats others on throughput for all size \
         -->\nPlain is best.\n<!-- /reckon:claim -->\n",
    );
    s.ok(&["report", "plan.md", "--out", "site"]);
    let html = s.read("site/plan.html");
    assert!(!html.contains("<img src=x"), "a series name from a log became markup:\n{html}");
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"), "{html}");
    assert!(!html.contains("<b>bold</b>"), "the author's raw HTML is not passed through");
    assert!(html.contains("badge-contradicted"), "{html}");
}

#[test]
fn report_needs_out_and_reports_bad_documents() {
    let s = Sandbox::new();
    s.write("plan.md", "<!-- reckon:tabel -->\n");
    let r = s.run(&["report", "plan.md"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("--out"), "{r:?}");
    let r = s.run(&["report", "plan.md", "--out", "site"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("plan.md:1:"), "{r:?}");
    assert!(!s.path().join("site/plan.html").exists());
}

#[test]
fn provenance_lists_the_runs_a_value_read() {
    let s = Sandbox::new();
    s.write("logs/2026-01-05/run.csv", "config,size,throughput\nfast,1,100\nslow,1,50\n");
    s.write("logs/2026-01-12/run.csv", "config,size,throughput\nfast,1,110\nfast,1,111\nslow,1,51\n");
    s.ok(&["ingest", "-q", "logs/{date}/run.csv"]);
    s.write(
        "plan.md",
        "Now <!-- reckon:value metric=throughput config=fast --><!-- /reckon:value -->, then <!-- \
         reckon:value metric=throughput config=fast as_of=2026-01-05 --><!-- /reckon:value -->.\n",
    );
    s.ok(&["report", "plan.md", "--out", "site"]);
    let html = s.read("site/plan.html");
    assert!(html.contains("href=\"#prov-0\" title=\"provenance\">110.5</a>"), "{html}");
    assert!(html.contains("href=\"#prov-1\" title=\"provenance\">100</a>"), "{html}");
    let entry = |i: usize| {
        let start = html.find(&format!("<li id=\"prov-{i}\">")).unwrap_or_else(|| panic!("no prov-{i}: {html}"));
        html[start..start + html[start..].find("</ul></li>").unwrap()].to_string()
    };
    let now = entry(0);
    assert!(
        now.contains("2 runs; sweep 2026-01-12") && now.contains("logs/2026-01-12/run.csv</code></a> lines 2–3"),
        "{now}"
    );
    let then = entry(1);
    assert!(
        then.contains("1 run; sweep 2026-01-05") && then.contains("logs/2026-01-05/run.csv</code></a> line 2"),
        "{then}"
    );
}
