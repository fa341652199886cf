//! `reckon watch --serve`: the documents' HTML reports (what `reckon report`
//! writes) on 127.0.0.1, and a page around each that reloads it when the
//! report changes. The report itself stays as `report` makes it, with no
//! script: the page around it holds the one script, which asks `/version`
//! every second. Only these paths are served, never a file by its path, and
//! only to a browser that asked for 127.0.0.1 or localhost (a page of another
//! site resolving its name to 127.0.0.1 is refused).

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use crate::escape::html as esc;
use crate::{Error, Result};

/// The reports being served: each document's name and page, and a version
/// that changes when any page does.
#[derive(Debug, Default)]
struct Pages {
    version: u64,
    pages: Vec<(String, String)>,
}

/// The server, running on a thread of its own until [`Site::stop`].
pub(super) struct Site {
    pages: Arc<Mutex<Pages>>,
    server: Arc<tiny_http::Server>,
    stopping: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    pub(super) addr: SocketAddr,
}

impl Site {
    /// Listens on 127.0.0.1:`port` (0: a port the system picks) and serves
    /// `pages` (document name, report HTML).
    pub(super) fn start(port: u16, pages: Vec<(String, String)>) -> Result<Site> {
        let server = tiny_http::Server::http(("127.0.0.1", port)).map_err(|e| {
            Error::usage(format!(
                "--serve: cannot listen on 127.0.0.1:{port}: {e}; give another port, or --serve alone for one \
                 the system picks"
            ))
        })?;
        let addr = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| Error::usage("--serve: the server has no IP address".to_string()))?;
        let server = Arc::new(server);
        let pages = Arc::new(Mutex::new(Pages { version: 1, pages }));
        let stopping = Arc::new(AtomicBool::new(false));
        let thread = {
            let (server, pages, stopping) = (Arc::clone(&server), Arc::clone(&pages), Arc::clone(&stopping));
            std::thread::spawn(move || serve(&server, &pages, &stopping, addr.port()))
        };
        Ok(Site { pages, server, stopping, thread: Some(thread), addr })
    }

    /// Serves `pages` from now on; the version changes (and open pages
    /// reload) only when one of them differs from what was served.
    pub(super) fn update(&self, pages: Vec<(String, String)>) {
        let mut held = self.pages.lock().unwrap_or_else(PoisonError::into_inner);
        if held.pages != pages {
            held.pages = pages;
            held.version += 1;
        }
    }

    /// Stops listening and waits for the server's thread.
    pub(super) fn stop(mut self) {
        self.stopping.store(true, Ordering::SeqCst);
        self.server.unblock();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(server: &tiny_http::Server, pages: &Mutex<Pages>, stopping: &AtomicBool, port: u16) {
    loop {
        let request = match server.recv() {
            Ok(r) => r,
            Err(_) if stopping.load(Ordering::SeqCst) => return,
            // A connection that failed before its request was read.
            Err(_) => continue,
        };
        let host = request.headers().iter().find(|h| h.field.equiv("Host")).map(|h| h.value.as_str().to_string());
        let get = matches!(request.method(), tiny_http::Method::Get | tiny_http::Method::Head);
        let answer = {
            let held = pages.lock().unwrap_or_else(PoisonError::into_inner);
            answer(&held, request.url(), host.as_deref(), get, port)
        };
        let _ = request.respond(answer.response());
    }
}

/// What is sent back for one request.
#[derive(Debug, PartialEq)]
struct Answer {
    status: u16,
    content_type: &'static str,
    body: String,
}

impl Answer {
    fn text(status: u16, body: &str) -> Answer {
        Answer { status, content_type: "text/plain; charset=utf-8", body: body.to_string() }
    }

    fn response(self) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
        let header = |k: &str, v: &str| tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()).ok();
        let mut r = tiny_http::Response::from_string(self.body).with_status_code(self.status);
        for h in [
            header("Content-Type", self.content_type),
            header("Cache-Control", "no-store"),
            header("X-Content-Type-Options", "nosniff"),
        ]
        .into_iter()
        .flatten()
        {
            r.add_header(h);
        }
        r
    }
}

/// The answer to `url` asked of `host`: `/` (the first document's page,
/// reloading), `/view/N`, `/page/N` (the report itself), `/version`.
fn answer(held: &Pages, url: &str, host: Option<&str>, get: bool, port: u16) -> Answer {
    let ours = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    if host.is_some_and(|h| !ours.iter().any(|o| o.eq_ignore_ascii_case(h))) {
        return Answer::text(403, "reckon watch serves 127.0.0.1 and localhost only\n");
    }
    if !get {
        return Answer::text(405, "reckon watch answers GET only\n");
    }
    let path = url.split(['?', '#']).next().unwrap_or("");
    let nth = |prefix: &str| path.strip_prefix(prefix).and_then(|n| n.parse::<usize>().ok());
    let html = |body: String| Answer { status: 200, content_type: "text/html; charset=utf-8", body };
    if path == "/version" {
        return Answer::text(200, &held.version.to_string());
    }
    if let Some(n) = if path == "/" { Some(0) } else { nth("/view/") }.filter(|n| *n < held.pages.len()) {
        return html(view(held, n));
    }
    if let Some((_, page)) = nth("/page/").and_then(|n| held.pages.get(n)) {
        return html(page.clone());
    }
    Answer::text(404, "not found: reckon watch serves /, /view/N, /page/N and /version\n")
}

/// The page around document `n`'s report: links to the others, the report
/// in a frame, and the script that reloads the frame when `/version` moves.
fn view(held: &Pages, n: usize) -> String {
    let name = held.pages.get(n).map_or("", |(name, _)| name.as_str());
    let nav = if held.pages.len() > 1 {
        let mut links = String::new();
        for (i, (d, _)) in held.pages.iter().enumerate() {
            let current = if i == n { " aria-current=\"page\"" } else { "" };
            let _ = write!(links, "<a href=\"/view/{i}\"{current}>{}</a>", esc(d));
        }
        format!("<nav>{links}</nav>")
    } else {
        String::new()
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{name} — reckon watch</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{nav}\
         <iframe id=\"report\" title=\"{name}\" src=\"/page/{n}\" data-version=\"{version}\"></iframe>\n\
         <script>\n{RELOAD}</script>\n</body>\n</html>\n",
        name = esc(name),
        version = held.version,
    )
}

const STYLE: &str = concat!(
    "html,body{margin:0;height:100%}body{display:flex;flex-direction:column}",
    "nav{display:flex;gap:1em;padding:.4em 1em;font:14px system-ui,sans-serif}",
    "nav a[aria-current]{font-weight:bold}iframe{flex:1;border:0;width:100%}",
);

/// Asks `/version` every second and reloads the report's frame (keeping
/// its scroll) when it moved; once reckon watch stops, the last report stays.
const RELOAD: &str = r#"const frame = document.getElementById("report");
let seen = frame.dataset.version;
setInterval(async () => {
  try {
    const v = await (await fetch("/version", { cache: "no-store" })).text();
    if (v !== seen) { seen = v; frame.contentWindow.location.reload(); }
  } catch (e) { /* reckon watch stopped */ }
}, 1000);
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn held() -> Pages {
        Pages {
            version: 3,
            pages: vec![("plan.md".into(), "<p>plan</p>".into()), ("b<x>.md".into(), "<p>b</p>".into())],
        }
    }

    #[test]
    fn the_report_its_view_and_the_version_are_served_and_nothing_else() {
        let h = held();
        let ask = |url| answer(&h, url, Some("127.0.0.1:8000"), true, 8000);
        assert_eq!(ask("/page/0").body, "<p>plan</p>");
        assert_eq!(ask("/page/1").body, "<p>b</p>");
        assert_eq!(ask("/version").body, "3");
        let view = ask("/").body;
        assert!(
            view.contains("src=\"/page/0\"")
                && view.contains("fetch(\"/version\"")
                && view.contains("data-version=\"3\"")
        );
        assert!(view.contains("b&lt;x&gt;.md") && !view.contains("b<x>.md"), "{view}");
        assert!(ask("/view/1?x=1").body.contains("src=\"/page/1\""));
        for url in ["/page/2", "/view/9", "/../reckon.toml", "/reckon.toml", "/page/", "/page/0/../1", "//etc/passwd"] {
            assert_eq!(ask(url).status, 404, "{url}");
        }
    }

    #[test]
    fn another_host_and_other_methods_are_refused() {
        let h = held();
        assert_eq!(answer(&h, "/", Some("evil.example:8000"), true, 8000).status, 403);
        assert_eq!(answer(&h, "/", Some("127.0.0.1:8001"), true, 8000).status, 403);
        assert_eq!(answer(&h, "/", Some("LOCALHOST:8000"), true, 8000).status, 200);
        assert_eq!(answer(&h, "/", None, true, 8000).status, 200);
        assert_eq!(answer(&h, "/", Some("localhost:8000"), false, 8000).status, 405);
    }
}
