//! Finding directives: the HTML comments of a document that the markdown
//! parser reports as HTML (so not those in code), and the `reckon:KIND`
//! words and `key=value` arguments inside them.

use std::collections::HashMap;
use std::ops::Range;

use pulldown_cmark::{Event, Tag};

use super::{Kind, Statement};

/// One `key=value` argument of a directive, with where it is in the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg {
    /// The name before `=`.
    pub key: String,
    /// The value, without its quotes; `\"`, `\'` and `\\` inside quotes are
    /// unescaped.
    pub value: String,
    /// Byte range of the whole `key=value` text.
    pub span: Range<usize>,
    /// Byte range of the value (inside the quotes, when quoted).
    pub value_span: Range<usize>,
}

/// A problem at a byte offset; `parse` turns it into an error with line,
/// column and snippet.
#[derive(Debug)]
pub(crate) struct Problem {
    pub at: usize,
    pub msg: String,
}

fn problem<T>(at: usize, msg: impl Into<String>) -> Result<T, Problem> {
    Err(Problem { at, msg: msg.into() })
}

/// An HTML comment: `span` from `<!--` to `-->` inclusive, `body` between.
#[derive(Debug)]
pub(crate) struct Comment {
    pub span: Range<usize>,
    pub body: Range<usize>,
}

/// An opening directive.
#[derive(Debug)]
pub(crate) struct Open {
    pub kind: Kind,
    pub args: Vec<Arg>,
    pub statement: Option<Statement>,
}

/// A closing directive; its only argument is the digest reckon recorded.
#[derive(Debug)]
pub(crate) struct Close {
    pub kind: Kind,
    pub digest: Option<String>,
}

#[derive(Debug)]
pub(crate) enum Directive {
    Open(Open),
    Close(Close),
}

/// Byte ranges of the document that are HTML (blocks and inline), merged
/// where they touch. Only comments inside them can be directives.
fn html_ranges(text: &str) -> Vec<Range<usize>> {
    let mut ranges: Vec<Range<usize>> = super::parser(text)
        .into_offset_iter()
        .filter(|(event, _)| {
            // The block's own range is taken rather than its lines' so a
            // comment spanning several lines of a list item is one range.
            matches!(event, Event::Start(Tag::HtmlBlock) | Event::Html(_) | Event::InlineHtml(_))
        })
        .map(|(_, range)| range)
        .collect();
    ranges.sort_by_key(|r| (r.start, r.end));
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
    for range in ranges {
        match merged.last_mut() {
            Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
            _ => merged.push(range),
        }
    }
    merged
}

/// Whether a comment body is meant as a directive.
fn is_directive(body: &str) -> bool {
    let body = body.trim_start();
    body.starts_with("reckon:") || body.starts_with("/reckon:")
}

/// The HTML comments of the document, in order. A directive comment with no
/// `-->` is an error (the markdown parser would have swallowed the rest of
/// its block).
pub(crate) fn find_comments(text: &str) -> Result<Vec<Comment>, Problem> {
    let mut comments = Vec::new();
    for range in html_ranges(text) {
        let mut pos = range.start;
        while let Some(i) = text[pos..range.end].find("<!--") {
            let start = pos + i;
            let body_start = start + 4;
            let rest = &text[body_start..range.end];
            // `<!-->` and `<!--->` are complete (empty) comments in HTML.
            let (body_len, end) = if rest.starts_with('>') {
                (0, body_start + 1)
            } else if rest.starts_with("->") {
                (0, body_start + 2)
            } else if let Some(len) = rest.find("-->") {
                (len, body_start + len + 3)
            } else {
                if is_directive(rest) {
                    return problem(start, "this directive is never ended; end the comment with `-->`");
                }
                break;
            };
            comments.push(Comment { span: start..end, body: body_start..body_start + body_len });
            pos = end;
        }
    }
    Ok(comments)
}

/// The directive a comment holds, `None` when it is an ordinary comment.
pub(crate) fn parse(text: &str, comment: &Comment) -> Result<Option<Directive>, Problem> {
    let body = &text[comment.body.clone()];
    let lead = body.len() - body.trim_start().len();
    let at = comment.body.start + lead;
    let trimmed = &body[lead..];
    let (closing, after_prefix) = if let Some(rest) = trimmed.strip_prefix("/reckon:") {
        (true, at + trimmed.len() - rest.len())
    } else if let Some(rest) = trimmed.strip_prefix("reckon:") {
        (false, at + trimmed.len() - rest.len())
    } else {
        return Ok(None);
    };
    let end = comment.body.end;
    let name_len = text[after_prefix..end].find(char::is_whitespace).unwrap_or(end - after_prefix);
    let name = &text[after_prefix..after_prefix + name_len];
    let Some(kind) = Kind::from_name(name) else {
        let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
        let msg = if name.is_empty() {
            format!("directive without a kind after `reckon:`; the kinds are {}", kinds.join(", "))
        } else {
            format!("unknown directive `reckon:{}`; the kinds are {}", crate::syntax::excerpt(name), kinds.join(", "))
        };
        return problem(after_prefix, msg);
    };
    let args_start = after_prefix + name_len;

    if closing {
        let (args, _) = parse_args(text, args_start, end, false)?;
        let mut digest = None;
        for arg in args {
            if arg.key != "digest" {
                return problem(
                    arg.span.start,
                    format!(
                        "closing directives take only `digest=`, not `{}=`; move the argument to \
                         the opening `<!-- reckon:{kind} … -->`",
                        arg.key
                    ),
                );
            }
            let valid = (8..=64).contains(&arg.value.len()) && arg.value.bytes().all(|b| b.is_ascii_hexdigit());
            if !valid {
                return problem(
                    arg.value_span.start,
                    "`digest=` must be 8 to 64 hex digits (reckon writes it); remove the argument \
                     to have reckon write it again",
                );
            }
            digest = Some(arg.value.to_ascii_lowercase());
        }
        return Ok(Some(Directive::Close(Close { kind, digest })));
    }

    if kind == Kind::Claim {
        // A claim's leading `id=`, `superseded=`, `as_of=` words are its
        // arguments; the rest is the statement, in the claim language — which
        // may itself start with `name=value` (a series called `topk=1+v2`).
        let (args, stmt_start) = parse_args(text, args_start, end, true)?;
        let raw = &text[stmt_start..end];
        let stmt_text = raw.trim();
        let lead = raw.len() - raw.trim_start().len();
        let span = stmt_start + lead..stmt_start + lead + stmt_text.len();
        let statement = Some(Statement { text: stmt_text.to_string(), span });
        return Ok(Some(Directive::Open(Open { kind, args, statement })));
    }
    let (args, _) = parse_args(text, args_start, end, false)?;
    Ok(Some(Directive::Open(Open { kind, args, statement: None })))
}

fn is_key_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// Whether `rest` begins with `name=` for a claim argument `name` rather
/// than the start of its statement.
fn starts_with_arg(rest: &str) -> bool {
    let key_len = rest.find(|c: char| !is_key_char(c)).unwrap_or(rest.len());
    rest[key_len..].starts_with('=') && super::CLAIM_ARGS.contains(&&rest[..key_len])
}

fn skip_whitespace(text: &str, pos: usize, end: usize) -> usize {
    let rest = &text[pos..end];
    pos + (rest.len() - rest.trim_start().len())
}

/// Parses `key=value` arguments in `text[pos..end]`. With `leading_only`,
/// stops at the first word that is not a claim argument `name=…` and returns
/// where it starts;
/// otherwise every word must be an argument.
fn parse_args(text: &str, mut pos: usize, end: usize, leading_only: bool) -> Result<(Vec<Arg>, usize), Problem> {
    let mut args: Vec<Arg> = Vec::new();
    // Each name given so far, by its argument's index: a second `key=` is
    // found by a look-up, not a scan of the arguments before it (which made
    // a directive of many arguments quadratic).
    let mut given: HashMap<&str, usize> = HashMap::new();
    loop {
        pos = skip_whitespace(text, pos, end);
        if pos >= end {
            return Ok((args, end));
        }
        let rest = &text[pos..end];
        if leading_only && !starts_with_arg(rest) {
            return Ok((args, pos));
        }
        let key_len = rest.find(|c: char| c.is_whitespace() || matches!(c, '=' | '"' | '\'')).unwrap_or(rest.len());
        let key = &rest[..key_len];
        // A name in a message is quoted bounded, however long it is.
        let shown = crate::syntax::excerpt(key);
        if key.is_empty() {
            return if rest.starts_with('=') {
                problem(pos, "argument without a name before `=`; write `name=value`")
            } else {
                problem(pos, "quoted text without an argument name; write `name=\"…\"`")
            };
        }
        let valid_key = key.chars().next().is_some_and(is_key_start) && key.chars().all(is_key_char);
        if !valid_key {
            return problem(
                pos,
                format!(
                    "`{shown}` is not an argument name; names are letters, digits, `_`, `-` and `.`, \
                     written `name=value`"
                ),
            );
        }
        let eq = pos + key_len;
        if !text[eq..end].starts_with('=') {
            return problem(pos, format!("argument `{shown}` has no value; write `{shown}=VALUE`"));
        }
        let value_start = eq + 1;
        let (value, value_span, next) = match text[value_start..end].chars().next() {
            Some(quote @ ('"' | '\'')) => {
                let (value, close) = unquote(text, value_start + 1, end, quote).ok_or_else(|| Problem {
                    at: value_start,
                    msg: format!("unbalanced `{quote}` in the value of `{shown}`; close the quote before `-->`"),
                })?;
                let after = close + 1;
                if text[after..end].chars().next().is_some_and(|c| !c.is_whitespace()) {
                    return problem(after, format!("expected a space after the quoted value of `{shown}`"));
                }
                (value, value_start + 1..close, after)
            }
            Some(c) if !c.is_whitespace() => {
                let rest = &text[value_start..end];
                let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
                if let Some(q) = rest[..len].find(['"', '\'']) {
                    return problem(
                        value_start + q,
                        format!(
                            "quote inside the value of `{shown}`; quote the whole value: \
                             `{shown}=\"…\"`"
                        ),
                    );
                }
                (rest[..len].to_string(), value_start..value_start + len, value_start + len)
            }
            _ => {
                return problem(value_start, format!("argument `{shown}` has an empty value; write `{shown}=VALUE`"));
            }
        };
        if let Some(first) = given.get(key).map(|i| &args[*i]) {
            let (line, col) = super::location(text, first.span.start);
            return problem(
                pos,
                format!(
                    "argument `{shown}` is given twice (first at line {line}, column {col}); \
                     keep one"
                ),
            );
        }
        given.insert(key, args.len());
        args.push(Arg { key: key.to_string(), value, span: pos..next, value_span });
        pos = next;
    }
}

/// The unescaped text of a quoted value starting at `from` (after the opening
/// quote), and the offset of the closing quote; `None` when it is not closed
/// before `end`. Only the quote itself and `\` can be escaped, so Windows
/// paths and regexes keep their backslashes.
fn unquote(text: &str, from: usize, end: usize, quote: char) -> Option<(String, usize)> {
    let mut value = String::new();
    let mut chars = text[from..end].char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == quote {
            return Some((value, from + i));
        }
        if c == '\\' {
            if let Some(&(_, next)) = chars.peek() {
                if next == quote || next == '\\' {
                    value.push(next);
                    chars.next();
                    continue;
                }
            }
        }
        value.push(c);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    fn comments(text: &str) -> Vec<&str> {
        find_comments(text).expect("comments are well formed").into_iter().map(|c| &text[c.span]).collect()
    }

    #[test]
    fn comments_in_code_are_not_found() {
        let text = "<!-- a -->\n\n```\n<!-- b -->\n```\n\n~~~md\n<!-- c -->\n~~~\n\n    <!-- d -->\n\n\
                    text `<!-- e -->` and <!-- f --> end\n";
        assert_eq!(comments(text), ["<!-- a -->", "<!-- f -->"]);
    }

    #[test]
    fn several_comments_in_one_html_block_line() {
        let text = "<!-- a --> <!-- reckon:value -->1<!-- /reckon:value --> x\n";
        assert_eq!(comments(text), ["<!-- a -->", "<!-- reckon:value -->", "<!-- /reckon:value -->"]);
    }

    #[test]
    fn empty_html_comments() {
        assert_eq!(comments("a <!--> b <!---> c <!-- d -->\n"), ["<!-->", "<!--->", "<!-- d -->"]);
    }

    #[test]
    fn multi_line_comment_in_list_item_is_one_comment() {
        let text = "- item\n  <!-- reckon:table a=1\n  b=2 -->\n  x\n  <!-- /reckon:table -->\n";
        assert_eq!(comments(text), ["<!-- reckon:table a=1\n  b=2 -->", "<!-- /reckon:table -->"]);
    }

    fn args(src: &str) -> Result<Vec<(String, String)>, String> {
        parse_args(src, 0, src.len(), false)
            .map(|(args, _)| args.into_iter().map(|a| (a.key, a.value)).collect())
            .map_err(|p| format!("{}: {}", p.at, p.msg))
    }

    #[test]
    fn arguments() {
        let parsed = args(" a=1 b=\"x y\"\n  c='it''s' d=\"q \\\" \\\\ \\n\"").unwrap_err();
        assert_eq!(parsed, "21: expected a space after the quoted value of `c`");
        assert_eq!(
            args(" a=1 b=\"x y\"\n  d=\"q \\\" \\\\ \\n\"").unwrap(),
            [
                ("a".to_string(), "1".to_string()),
                ("b".to_string(), "x y".to_string()),
                ("d".to_string(), "q \" \\ \\n".to_string()),
            ]
        );
        assert_eq!(args("a=").unwrap_err(), "2: argument `a` has an empty value; write `a=VALUE`");
        assert_eq!(args("a").unwrap_err(), "0: argument `a` has no value; write `a=VALUE`");
        assert_eq!(args("=b").unwrap_err(), "0: argument without a name before `=`; write `name=value`");
        assert_eq!(args("a=x\"y").unwrap_err(), "3: quote inside the value of `a`; quote the whole value: `a=\"…\"`");
        assert_eq!(
            args("1a=2").unwrap_err(),
            "0: `1a` is not an argument name; names are letters, digits, `_`, `-` and `.`, \
             written `name=value`"
        );
    }

    /// Each argument was checked against every one before it for a second
    /// `key=`: 100,000 arguments ran past a minute before the renderer could
    /// say "unknown argument". Now a look-up each: 200,000 are read, and a
    /// repeated one at the end is still named with where it first was.
    #[test]
    fn finding_23_a_directive_of_many_arguments_is_read_in_one_pass() {
        let n = 200_000;
        let mut src = String::new();
        for i in 0..n {
            let _ = write!(src, " x{i}=1");
        }
        let (read, _) = parse_args(&src, 0, src.len(), false).map_err(|p| p.msg).unwrap();
        assert_eq!(read.len(), n);
        assert_eq!((read[n - 1].key.as_str(), read[n - 1].value.as_str()), ("x199999", "1"));
        src.push_str(" x7=2");
        let twice = parse_args(&src, 0, src.len(), false).map(|_| ()).unwrap_err();
        assert_eq!(twice.at, src.len() - "x7=2".len());
        assert_eq!(twice.msg, "argument `x7` is given twice (first at line 1, column 37); keep one");
    }

    #[test]
    fn claim_arguments_stop_at_the_statement() {
        let src = "id=x as_of=2026-11-20 baseline beats y on m where a=b";
        let (args, stmt) = parse_args(src, 0, src.len(), true).unwrap();
        let keys: Vec<&str> = args.iter().map(|a| a.key.as_str()).collect();
        assert_eq!(keys, ["id", "as_of"]);
        assert_eq!(&src[stmt..], "baseline beats y on m where a=b");
        // A series whose name holds `=` starts the statement.
        let src = "id=x topk=1+v2 beats baseline on tok/s";
        let (args, stmt) = parse_args(src, 0, src.len(), true).unwrap();
        assert_eq!(args.len(), 1);
        assert_eq!(&src[stmt..], "topk=1+v2 beats baseline on tok/s");
    }
}
