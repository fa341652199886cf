//! Python's `Namespace(...)` argument dumps, as printed before a block:
//! a small reader for the repr of the values reckon keeps as params.

use super::labels::{rate_value, upsert};
use crate::run::Value;
use crate::syntax::read_padded;

/// Namespace keys that describe what was measured (identity and
/// independent variables). Host, port, output paths and UI switches are
/// left out: they differ between otherwise identical runs.
pub(super) const NAMESPACE_PARAMS: &[&str] = &[
    "backend",
    "endpoint",
    "model",
    "served_model_name",
    "tokenizer",
    "dataset_name",
    "dataset_path",
    "num_prompts",
    "random_input_len",
    "random_output_len",
    "random_range_ratio",
    "random_prefix_len",
    "sharegpt_output_len",
    "sharegpt_context_len",
    "input_len",
    "output_len",
    "request_rate",
    "burstiness",
    "max_concurrency",
    "seed",
    "tag",
    "label",
    "ignore_eos",
    "disable_ignore_eos",
    "temperature",
    "top_p",
    "top_k",
    "lora_name",
];

/// A Python repr value, as far as reckon needs to read it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum PyVal {
    Str(String),
    Num(f64),
    Bool(bool),
    None,
    List(Vec<PyVal>),
    /// Something readable only as "skip it": dicts, `<function ...>`,
    /// `PosixPath(...)`.
    Other,
}

/// The argument text after `Namespace(` on a line, when the line holds an
/// argparse dump (`Namespace(...)`, `benchmark_args=Namespace(...)`).
pub(super) fn find_namespace(line: &str) -> Option<&str> {
    let mut from = 0;
    while let Some(at) = line[from..].find("Namespace(") {
        let start = from + at;
        let before = line[..start].chars().next_back();
        if before.is_none_or(|c| !(c.is_alphanumeric() || c == '_')) {
            return Some(&line[start + "Namespace(".len()..]);
        }
        from = start + 1;
    }
    None
}

/// The benchmark client's own command line, echoed before its block
/// (`python3 benchmark_serving.py --model M --num-prompts 10`,
/// `python -m sglang.bench_serving …`, `vllm bench serve …`): its
/// `--flag value` and `--flag=value` arguments as the `Namespace` argparse
/// would print of them (`--num-prompts` is `num_prompts`; a flag with no
/// value is `True`). None for any other line — a server's launch
/// (`vllm serve …`) sets no param of the benchmark.
pub(super) fn command_args(line: &str) -> Option<Vec<(String, PyVal)>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let client = words.iter().position(|w| {
        let name = w.rsplit('/').next().unwrap_or(w);
        matches!(name, "benchmark_serving.py" | "bench_serving.py" | "sglang.bench_serving" | "vllm.benchmarks.serve")
    });
    let vllm =
        || words.windows(3).position(|w| w[0].rsplit('/').next() == Some("vllm") && w[1..] == ["bench", "serve"]);
    let after = if let Some(at) = client { at + 1 } else { vllm()? + 3 };
    let mut out = Vec::new();
    let mut i = after;
    while i < words.len() {
        let Some(flag) = words[i].strip_prefix("--") else {
            i += 1;
            continue;
        };
        let (key, value) = match flag.split_once('=') {
            Some((k, v)) => (k, Some(v)),
            None => match words.get(i + 1).filter(|w| !w.starts_with("--")) {
                Some(v) => {
                    i += 1;
                    (flag, Some(*v))
                }
                None => (flag, None),
            },
        };
        i += 1;
        if key.is_empty() {
            continue;
        }
        let value = match value.map(|v| v.trim_matches(|c| c == '\'' || c == '"')) {
            None => PyVal::Bool(true),
            Some(v) => read_padded(v).map_or_else(|| PyVal::Str(v.to_string()), PyVal::Num),
        };
        out.push((key.replace('-', "_"), value));
    }
    // A line that names the client without arguments (prose about it)
    // says nothing of a run.
    (!out.is_empty()).then_some(out)
}

/// Parses `key=value, key=value, ...)` into pairs, skipping values that
/// cannot be read and stopping at the closing parenthesis or the end of
/// the text (a cut line still yields the keys before the cut).
pub(super) fn parse_namespace(args: &str) -> Vec<(String, PyVal)> {
    let mut p = Parser { s: args.as_bytes(), text: args, i: 0 };
    let mut out = Vec::new();
    loop {
        p.skip_ws();
        match p.peek() {
            None | Some(b')') => break,
            Some(b',') => {
                p.i += 1;
                continue;
            }
            _ => {}
        }
        let key = p.ident();
        p.skip_ws();
        if key.is_empty() || p.peek() != Some(b'=') {
            // Not `key=`: resynchronise at the next top-level comma. A
            // stray closing bracket stops `skip_value` without moving, so
            // step over it.
            let at = p.i;
            p.skip_value();
            if p.i == at {
                p.i += 1;
            }
            continue;
        }
        p.i += 1;
        p.skip_ws();
        let value = p.value();
        out.push((key.to_string(), value));
    }
    out
}

/// The params a Namespace contributes: the keys in [`NAMESPACE_PARAMS`],
/// plus vLLM `--metadata KEY=VALUE` entries, which vLLM's result JSON also
/// turns into top-level string keys.
pub(super) fn namespace_params(entries: &[(String, PyVal)]) -> Vec<(String, Value)> {
    let mut params = Vec::new();
    for (key, value) in entries {
        if !NAMESPACE_PARAMS.contains(&key.as_str()) {
            continue;
        }
        let v = match value {
            PyVal::Str(s) if key == "request_rate" => rate_value(s),
            // `dataset_path=''` says nothing.
            PyVal::Str(s) if s.is_empty() => None,
            PyVal::Str(s) => Some(Value::Text(s.clone())),
            PyVal::Num(n) => Some(Value::Num(*n)),
            PyVal::Bool(b) => Some(Value::Text(b.to_string())),
            PyVal::None | PyVal::List(_) | PyVal::Other => None,
        };
        upsert(&mut params, key, v);
    }
    for (key, value) in entries {
        if key != "metadata" {
            continue;
        }
        if let PyVal::List(items) = value {
            for item in items {
                if let PyVal::Str(s) = item {
                    if let Some((k, v)) = s.split_once('=') {
                        let k = k.trim();
                        if !k.is_empty() {
                            upsert(&mut params, k, Some(Value::Text(v.trim().to_string())));
                        }
                    }
                }
            }
        }
    }
    params
}

pub(super) struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn ident(&mut self) -> &'a str {
        let start = self.i;
        while self.peek().is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
            self.i += 1;
        }
        &self.text[start..self.i]
    }

    /// One value; leaves the cursor on the following `,` / `)` / `]`.
    fn value(&mut self) -> PyVal {
        let start = self.i;
        let value = match self.peek() {
            Some(q @ (b'\'' | b'"')) => self.string(q, false),
            Some(b'[') => self.list(b']'),
            Some(b'(') => match self.list(b')') {
                // A tuple reads like a list; nothing reckon keeps is one.
                PyVal::List(_) => PyVal::Other,
                other => other,
            },
            Some(b'{' | b'<') => {
                self.skip_value();
                PyVal::Other
            }
            Some(_) => self.word(),
            None => PyVal::Other,
        };
        self.skip_ws();
        if !matches!(self.peek(), None | Some(b',' | b')' | b']' | b'}')) {
            // Trailing text after what looked like a value (`Foo(...)`,
            // `b'..'` handled below): the value was not what it seemed.
            self.i = start;
            self.skip_value();
            return PyVal::Other;
        }
        value
    }

    /// A bare word: a number, `inf`, `None`, `True`, or a string prefix
    /// (`b'..'`, `r'..'`) followed by its string.
    fn word(&mut self) -> PyVal {
        let start = self.i;
        while self.peek().is_some_and(|b| b.is_ascii_alphanumeric() || b"+-._".contains(&b)) {
            self.i += 1;
        }
        let word = &self.text[start..self.i];
        if let Some(q @ (b'\'' | b'"')) = self.peek() {
            let lower = word.to_ascii_lowercase();
            if matches!(lower.as_str(), "b" | "r" | "u" | "rb" | "br" | "f") {
                return self.string(q, lower.contains('r'));
            }
        }
        match word {
            "None" => PyVal::None,
            "True" => PyVal::Bool(true),
            "False" => PyVal::Bool(false),
            _ => read_padded(word).map_or(PyVal::Other, PyVal::Num),
        }
    }

    /// A quoted string with Python escapes; the cursor starts on the quote.
    fn string(&mut self, quote: u8, raw: bool) -> PyVal {
        self.i += 1;
        let mut out = String::new();
        let mut run_start = self.i;
        while let Some(b) = self.peek() {
            if b == quote {
                out.push_str(&self.text[run_start..self.i]);
                self.i += 1;
                return PyVal::Str(out);
            }
            if b == b'\\' && !raw {
                out.push_str(&self.text[run_start..self.i]);
                self.i += 1;
                self.escape(&mut out);
                run_start = self.i;
                continue;
            }
            if b == b'\\' {
                // Raw strings still cannot end on an escaped quote.
                self.i += 1;
            }
            self.i += 1;
        }
        // Unterminated (the line was cut): not a value to trust.
        self.i = self.s.len();
        PyVal::Other
    }

    fn escape(&mut self, out: &mut String) {
        let Some(b) = self.peek() else { return };
        self.i += 1;
        let hex = |p: &mut Self, n: usize| -> Option<char> {
            let digits = p.text.get(p.i..p.i + n)?;
            let code = u32::from_str_radix(digits, 16).ok()?;
            p.i += n;
            char::from_u32(code)
        };
        let c = match b {
            b'n' => Some('\n'),
            b't' => Some('\t'),
            b'r' => Some('\r'),
            b'0' => Some('\0'),
            b'\\' => Some('\\'),
            b'\'' => Some('\''),
            b'"' => Some('"'),
            b'x' => hex(self, 2),
            b'u' => hex(self, 4),
            b'U' => hex(self, 8),
            _ => None,
        };
        if let Some(c) = c {
            out.push(c);
        } else {
            // Unknown escape: Python keeps the backslash too.
            out.push('\\');
            self.i -= 1;
            if let Some(ch) = self.text[self.i..].chars().next() {
                out.push(ch);
                self.i += ch.len_utf8();
            }
        }
    }

    /// `[a, b]` or `(a, b)`; the cursor starts on the opening bracket.
    fn list(&mut self, close: u8) -> PyVal {
        self.i += 1;
        let mut items = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                None => return PyVal::Other,
                Some(b) if b == close => {
                    self.i += 1;
                    return PyVal::List(items);
                }
                Some(b',') => self.i += 1,
                Some(b')' | b']' | b'}') => {
                    // Mismatched bracket: give up on this value.
                    self.i += 1;
                    return PyVal::Other;
                }
                _ => items.push(self.value()),
            }
        }
    }

    /// Skips one value of any shape: to the next `,` or closing bracket at
    /// depth zero, honouring quotes and `<...>` reprs.
    fn skip_value(&mut self) {
        let mut depth = 0usize;
        while let Some(b) = self.peek() {
            match b {
                b'\'' | b'"' => {
                    self.string(b, false);
                    continue;
                }
                b'(' | b'[' | b'{' | b'<' => depth += 1,
                b')' | b']' | b'}' | b'>' if depth > 0 => depth -= 1,
                b')' | b']' | b'}' | b',' if depth == 0 => return,
                _ => {}
            }
            self.i += 1;
        }
    }
}
