//! A template read one `/`-separated piece at a time: what its regex
//! captures from a whole path, read from the path's folders and its file
//! name apart, so that the folders' captures are read once for every file
//! in them and a piece of plain text around one capture (`{config}.jsonl`)
//! needs no regex at all. Only a template without `**` is read so: none of
//! its pieces then reaches past a `/`, so a path matches the whole template
//! exactly when each of its parts matches its piece, with the same captures.

use regex::{CaptureLocations, Regex};

use super::{translate, PathTemplate};

/// How one piece of a template reads its part of a path.
#[derive(Debug, Clone)]
enum Read {
    /// No capture and no wildcard: the part is this text.
    Literal(String),
    /// One capture between plain text (`{config}.jsonl`): the part starts
    /// and ends with these, with at least one character between them.
    Around { before: String, after: String },
    /// Anything else: this regex, anchored at both ends of the part.
    Pattern(Regex),
}

#[derive(Debug, Clone)]
struct Piece {
    read: Read,
    /// The index among the template's names of the piece's first capture.
    first: usize,
}

/// A template's pieces, in order.
#[derive(Debug, Clone)]
pub(super) struct Pieces(Vec<Piece>);

impl Pieces {
    /// The pieces of a template (its `text`, `.` folders dropped:
    /// `normalized`), or `None` when it has a `**` or a piece that does not
    /// read on its own (the whole regex is then used).
    pub(super) fn new(text: &str, normalized: &str) -> Option<Pieces> {
        if normalized.contains("**") {
            return None;
        }
        let mut pieces = Vec::new();
        let mut first = 0;
        for part in normalized.split('/') {
            let t = translate(text, part).ok()?;
            let plain = |s: &str| !PathTemplate::is_pattern(s);
            let read = if plain(part) {
                Read::Literal(part.to_string())
            } else if let [name] = t.names.as_slice() {
                let (before, after) = part.split_once(&format!("{{{name}}}"))?;
                if plain(before) && plain(after) {
                    Read::Around { before: before.to_string(), after: after.to_string() }
                } else {
                    Read::Pattern(Regex::new(&format!("^{}$", t.regex)).ok()?)
                }
            } else {
                Read::Pattern(Regex::new(&format!("^{}$", t.regex)).ok()?)
            };
            pieces.push(Piece { read, first });
            first += t.names.len();
        }
        Some(Pieces(pieces))
    }
}

/// Room for the captures of the paths one template finds, kept from path
/// to path (see [`PathTemplate::capture_room`]).
pub(crate) struct Captures {
    /// Each name's capture in the last path read, as its byte range.
    spans: Vec<(usize, usize)>,
    /// The folders (up to and with the last `/`) of the last path read, and
    /// whether they matched their pieces; their spans are still in `spans`.
    folder: Option<(String, bool)>,
    /// For each piece read by a regex, its room; for the whole regex, the
    /// last.
    locations: Vec<Option<CaptureLocations>>,
}

impl Captures {
    pub(super) fn new(whole: &Regex, names: usize, pieces: Option<&Pieces>) -> Captures {
        let locations = match pieces {
            Some(p) => {
                p.0.iter()
                    .map(|piece| match &piece.read {
                        Read::Pattern(re) => Some(re.capture_locations()),
                        _ => None,
                    })
                    .collect()
            }
            None => vec![Some(whole.capture_locations())],
        };
        Captures { spans: vec![(0, 0); names], folder: None, locations }
    }

    /// Reads the captures of `text` (from [`PathTemplate::capture_text`])
    /// by `template`, the one this room was made for; false when the path
    /// does not fit the template. The `i`-th name's value is then
    /// [`Captures::get`]`(text, i)`.
    pub(crate) fn read(&mut self, template: &PathTemplate, text: &str) -> bool {
        let Some(pieces) = &template.pieces else {
            let Some(Some(locations)) = self.locations.last_mut() else { return false };
            if template.regex.captures_read(locations, text).is_none() {
                return false;
            }
            for (i, span) in self.spans.iter_mut().enumerate() {
                *span = locations.get(i + 1).unwrap_or((0, 0));
            }
            return true;
        };
        let Some((last, folders)) = pieces.0.split_last() else { return false };
        let file_at = text.rfind('/').map_or(0, |i| i + 1);
        let folder = &text[..file_at];
        let known = self.folder.as_ref().filter(|(f, _)| f == folder).map(|(_, ok)| *ok);
        let folders_fit = known.unwrap_or_else(|| {
            let fit = self.read_folders(folders, folder);
            self.folder = Some((folder.to_string(), fit));
            fit
        });
        folders_fit && self.read_piece(last, folders.len(), &text[file_at..], file_at)
    }

    /// Reads `folder` (a path's text up to and with its last `/`, or empty)
    /// by the template's pieces before the last.
    fn read_folders(&mut self, pieces: &[Piece], folder: &str) -> bool {
        let Some(folders) = folder.strip_suffix('/') else { return pieces.is_empty() };
        let mut at = 0;
        let mut parts = folders.split('/');
        for (i, piece) in pieces.iter().enumerate() {
            let Some(part) = parts.next() else { return false };
            if !self.read_piece(piece, i, part, at) {
                return false;
            }
            at += part.len() + 1;
        }
        parts.next().is_none()
    }

    /// Reads `part` (at byte `at` of the path) by `piece`, the `i`-th.
    fn read_piece(&mut self, piece: &Piece, i: usize, part: &str, at: usize) -> bool {
        match &piece.read {
            Read::Literal(text) => part == text,
            Read::Around { before, after } => {
                let fits = part.len() > before.len() + after.len() && part.starts_with(before.as_str());
                if fits && part.ends_with(after.as_str()) {
                    self.spans[piece.first] = (at + before.len(), at + part.len() - after.len());
                    true
                } else {
                    false
                }
            }
            Read::Pattern(re) => {
                let Some(Some(locations)) = self.locations.get_mut(i) else { return false };
                if re.captures_read(locations, part).is_none() {
                    return false;
                }
                for k in 1..locations.len() {
                    let (from, to) = locations.get(k).unwrap_or((0, 0));
                    self.spans[piece.first + k - 1] = (at + from, at + to);
                }
                true
            }
        }
    }

    /// The value of the `i`-th name in `text`, the path last read.
    pub(crate) fn get<'t>(&self, text: &'t str, i: usize) -> &'t str {
        self.spans.get(i).and_then(|&(from, to)| text.get(from..to)).unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::PathTemplate;

    /// What the whole regex captures from `text`, and what the room reads.
    fn both(t: &PathTemplate, room: &mut super::Captures, text: &str) -> (Option<Vec<String>>, Option<Vec<String>>) {
        let whole = t.regex.captures(text).map(|c| (1..c.len()).map(|i| c[i].to_string()).collect());
        let read = room.read(t, text).then(|| (0..t.names().len()).map(|i| room.get(text, i).to_string()).collect());
        (whole, read)
    }

    #[test]
    fn a_folder_is_read_once_and_a_file_name_around_one_capture_without_a_regex() {
        let t = PathTemplate::parse("logs/{date}/{model}/{config}.jsonl").unwrap();
        let mut room = t.capture_room();
        for text in [
            "logs/2026-11-01/llama/base.jsonl",
            "logs/2026-11-01/llama/eagle-v2.jsonl",
            "logs/2026-11-01/llama/.jsonl",
            "logs/2026-11-01/qwen/base.jsonl",
            "logs/2026-11-01/qwen/a/base.jsonl",
            "logs/x/base.jsonl",
        ] {
            let (whole, read) = both(&t, &mut room, text);
            assert_eq!(whole, read, "{text}");
        }
        assert!(room.read(&t, "logs/2026-11-01/qwen/base.jsonl"));
        assert_eq!(room.get("logs/2026-11-01/qwen/base.jsonl", 2), "base");
    }

    /// What a path may hold where a template has `part`: mostly what fits.
    fn fill(part: &str, pick: u8) -> &'static str {
        let options: &[&'static str] = match part {
            "{n1}" | "{n2}" | "{n3}" => &["a", "ab", "a-b", "x.jsonl", "", "a/b"],
            "*" => &["", "a", "ab.", "/"],
            "?" => &["a", "-", ""],
            "[ab]" => &["a", "b", "c"],
            "[!a]" => &["b", ".", "a"],
            "**" => &["", "a/b", "a", "/"],
            "/" => &["/", "//", ""],
            "a" => &["a"],
            "b" => &["b"],
            "-" => &["-"],
            "." => &["."],
            _ => &["x.jsonl", "x.json"],
        };
        options[usize::from(pick) % options.len()]
    }

    const PARTS: [&str; 15] =
        ["a", "b", "-", ".", "x.jsonl", "{n1}", "{n2}", "{n3}", "*", "?", "[ab]", "[!a]", "**", "/", "/"];

    proptest! {
        // Any template (with a `**` too: the whole regex is then read)
        // reads from any sequence of paths — most of them filled in from
        // the template, some of them not fitting it — what its regex reads,
        // whatever the room read before.
        #[test]
        fn pieces_read_what_the_whole_regex_reads(
            parts in prop::collection::vec(prop::sample::select(PARTS.to_vec()), 1..8),
            picks in prop::collection::vec(prop::collection::vec(any::<u8>(), 8), 1..16),
        ) {
            let Ok(t) = PathTemplate::parse(&parts.concat()) else { return Ok(()) };
            let mut room = t.capture_room();
            for pick in picks {
                let text: String = parts.iter().zip(&pick).map(|(part, p)| fill(part, *p)).collect();
                let (whole, read) = both(&t, &mut room, &text);
                prop_assert_eq!(whole, read, "template {}, path {}", t.text(), text);
            }
        }
    }
}
