//! The shape of a JSON text read without parsing it (detection sees only a
//! head of the file, cut at any byte), and byte offsets of array elements
//! mapped to lines for error messages.

/// The shape of the start of a JSON text, read without parsing it fully, so
/// it works on a head cut off at any byte.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Shape {
    /// The first non-space byte: `{`, `[`, or something else.
    pub first: Option<u8>,
    /// Keys of the top-level object (depth 1), or of the objects that are
    /// elements of a top-level array (depth 2 under `[`), in order.
    pub top_keys: Vec<String>,
    /// Keys one level deeper than `top_keys`.
    pub inner_keys: Vec<String>,
    /// Keys two levels deeper than `top_keys`.
    pub deep_keys: Vec<String>,
    /// For a top-level array: the first byte of its first element.
    pub first_element: Option<u8>,
}

impl Shape {
    pub fn has(&self, key: &str) -> bool {
        self.top_keys.iter().any(|k| k == key)
    }
    pub fn has_inner(&self, key: &str) -> bool {
        self.inner_keys.iter().any(|k| k == key)
    }
    pub fn has_deep(&self, key: &str) -> bool {
        self.deep_keys.iter().any(|k| k == key)
    }
}

/// Skims a JSON text (possibly cut short) and collects the keys near its
/// top. Stops after `limit` keys in total. Escapes in keys are kept as
/// written; the keys that matter for detection have none.
pub fn shape(text: &[u8], limit: usize) -> Shape {
    let mut shape = Shape::default();
    let mut i = text.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(text.len());
    shape.first = text.get(i).copied();
    let base = match shape.first {
        Some(b'{') => 1,
        Some(b'[') => {
            shape.first_element = text[i + 1..].iter().copied().find(|b| !b.is_ascii_whitespace());
            2
        }
        _ => return shape,
    };
    // Stack of containers: true for object.
    let mut stack: Vec<bool> = Vec::new();
    // In an object, the next string is a key when this is set.
    let mut expect_key = false;
    let mut total = 0;
    while i < text.len() && total < limit {
        let b = text[i];
        match b {
            b'{' => {
                stack.push(true);
                expect_key = true;
            }
            b'[' => {
                stack.push(false);
                expect_key = false;
            }
            b'}' | b']' => {
                stack.pop();
                expect_key = false;
            }
            b',' => expect_key = stack.last() == Some(&true),
            b'"' => {
                let start = i + 1;
                let mut j = start;
                let mut escaped = false;
                while j < text.len() {
                    let c = text[j];
                    if escaped {
                        escaped = false;
                    } else if c == b'\\' {
                        escaped = true;
                    } else if c == b'"' {
                        break;
                    }
                    j += 1;
                }
                if expect_key && j < text.len() {
                    let key = String::from_utf8_lossy(&text[start..j]).into_owned();
                    let depth = stack.len();
                    let target = if depth == base {
                        Some(&mut shape.top_keys)
                    } else if depth == base + 1 {
                        Some(&mut shape.inner_keys)
                    } else if depth == base + 2 {
                        Some(&mut shape.deep_keys)
                    } else {
                        None
                    };
                    if let Some(t) = target {
                        if !t.contains(&key) {
                            t.push(key);
                            total += 1;
                        }
                    }
                }
                expect_key = false;
                i = j;
            }
            _ => {}
        }
        i += 1;
    }
    shape
}

/// Start offsets of the elements of the first array met at container depth
/// `depth` (0 for a top-level array, 1 for an array that is a value of the
/// top-level object). Used to give each element of a JSON document its own
/// line number.
pub fn array_element_offsets(text: &[u8], depth: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack = 0usize;
    // Set while inside the chosen array: waiting for an element to start.
    let mut inside = false;
    let mut want = false;
    let mut i = 0;
    // Whole runs of bytes that matter to nothing here (numbers, words,
    // whitespace while no element is awaited) are stepped over by table,
    // and strings by memchr: this looks at every byte of a document whose
    // results each get a line (megabytes for a large benchmark file).
    while i < text.len() {
        let b = text[i];
        if want {
            if b.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            if b != b']' {
                out.push(i);
            }
            want = false;
        }
        match b {
            b'"' => {
                // Skip to the end of the string, honouring escapes.
                let mut k = i + 1;
                loop {
                    match memchr::memchr2(b'"', b'\\', &text[k.min(text.len())..]) {
                        None => return out,
                        Some(p) if text[k + p] == b'\\' => k += p + 2,
                        Some(p) => {
                            k += p + 1;
                            break;
                        }
                    }
                }
                i = k;
                continue;
            }
            b'{' => stack += 1,
            b'[' => {
                if stack == depth && !inside && out.is_empty() {
                    inside = true;
                    want = true;
                }
                stack += 1;
            }
            b'}' | b']' => {
                stack = stack.saturating_sub(1);
                if inside && stack == depth {
                    return out;
                }
            }
            b',' if inside && stack == depth + 1 => want = true,
            _ => {}
        }
        i += 1;
        while !want && i < text.len() && !STRUCTURAL[usize::from(text[i])] {
            i += 1;
        }
    }
    out
}

/// The bytes [`array_element_offsets`] stops at outside strings.
const STRUCTURAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b'{' as usize] = true;
    t[b'}' as usize] = true;
    t[b'[' as usize] = true;
    t[b']' as usize] = true;
    t[b',' as usize] = true;
    t
};

/// The 1-based line of byte `offset` in `text`.
pub fn line_of(text: &[u8], offset: usize) -> u64 {
    // One more line than line breaks before the offset.
    text[..offset.min(text.len())].split(|&b| b == b'\n').count() as u64
}

/// The 1-based lines of many byte offsets of `text` (each element of an
/// array, in order); see [`Lines`].
pub fn lines_of(text: &[u8], offsets: &[usize]) -> Vec<u64> {
    let mut lines = Lines::new(text);
    offsets.iter().map(|&o| lines.of(o)).collect()
}

/// Lines of byte offsets of one text counted on from the last offset asked,
/// so offsets asked in ascending order cost one pass over the text: asking
/// [`line_of`] for each would count from the start every time, quadratic in
/// a document of many results.
pub struct Lines<'a> {
    text: &'a [u8],
    at: usize,
    line: u64,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a [u8]) -> Self {
        Lines { text, at: 0, line: 1 }
    }

    /// The 1-based line of byte `offset` (as [`line_of`] gives it).
    pub fn of(&mut self, offset: usize) -> u64 {
        let o = offset.min(self.text.len());
        if o < self.at {
            (self.at, self.line) = (0, 1);
        }
        self.line += memchr::memchr_iter(b'\n', &self.text[self.at..o]).count() as u64;
        self.at = o;
        self.line
    }
}

/// The offset of the value of `key` in the JSON object that starts `text`
/// (a member of that object itself, not of one nested in it).
pub fn member_offset(text: &[u8], key: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while j < text.len() && text[j] != b'"' {
                    j += if text[j] == b'\\' { 2 } else { 1 };
                }
                let after = text.get(j + 1..)?;
                let colon = after.iter().position(|b| !b.is_ascii_whitespace());
                let is_key = colon.is_some_and(|c| after[c] == b':');
                if depth == 1 && is_key && text.get(start..j) == Some(key.as_bytes()) {
                    let c = colon? + j + 2;
                    return text[c..].iter().position(|b| !b.is_ascii_whitespace()).map(|p| c + p);
                }
                i = j;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}
