//! A fast path for the block YAML that tools write, producing the parser's own events.
//!
//! `kubectl get -o yaml`, Helm and most hand-written manifests use a small part of YAML: block
//! mappings and sequences indented with spaces, one-line plain and quoted scalars, `|` literal
//! blocks, `{}` and `[]`, comments. `saphyr-parser` reads all of YAML one character at a time,
//! and on a cluster dump it costs more than everything dopol does after it. This scanner reads
//! that common part a line at a time and emits exactly the events, with exactly the spans,
//! that `saphyr-parser` emits for it, so the tree builder cannot tell the two apart.
//!
//! It accepts a document only when every line of it is in that part and otherwise returns
//! `None` before anything is built, and the document goes to `saphyr-parser`, which reads all
//! of YAML and reports its errors. So the scanner never reports an error and never decides
//! what YAML means at its edges: anchors, aliases, tags, flow content, multi-line plain or
//! quoted scalars, folded blocks, explicit indentation or `+` chomping, quoted keys, tabs,
//! carriage returns, byte order marks, directives and document end markers all go to the
//! parser. The differential tests (`tests` below) compare the two
//! event streams on every YAML file in the repository and on mutations of them, and the
//! `yaml_fast` fuzz target on whatever it makes ([`compare_with_parser`]).
//!
//! Offsets are bytes into the document (the parser's are characters; the caller maps them).

use saphyr_parser::{Event, ScalarStyle};
use std::borrow::Cow;

/// An event with its start and end offsets.
pub type Spanned<'a> = (Event<'a>, usize, usize);

/// Deepest nesting the scanner follows (it recurses); deeper documents go to the parser,
/// which enforces the real limit.
const MAX_NESTING: usize = 100;
/// Longest key the scanner accepts: the parser fails keys longer than 1,024 characters.
const MAX_KEY_BYTES: usize = 1000;

/// The events of `document` (one YAML document, optionally starting with `---`), or `None`
/// when the document is not in the part of YAML this scanner reads.
pub fn events(document: &str) -> Option<Vec<Spanned<'_>>> {
    let bytes = document.as_bytes();
    if bytes
        .iter()
        .any(|&b| matches!(b, b'\t' | b'\r' | b'\0' | 0xEF))
    {
        // Tabs, carriage returns, NUL and (0xEF) byte order marks need the parser.
        return None;
    }
    let mut scan = Scan {
        text: document,
        bytes,
        events: Vec::with_capacity(bytes.len() / 10),
        depth: 0,
    };
    scan.document()?;
    Some(scan.events)
}

/// One line: where it starts, where its content (after the indentation) starts, where it
/// ends (its `\n` or the end of the text).
#[derive(Clone, Copy, Debug)]
struct Line {
    content: usize,
    indent: usize,
    end: usize,
}

/// A mapping key read from a line: its text and style, where it starts and where its `:` is.
struct Key<'a> {
    text: Cow<'a, str>,
    style: ScalarStyle,
    at: usize,
    colon: usize,
}

struct Scan<'a> {
    text: &'a str,
    bytes: &'a [u8],
    events: Vec<Spanned<'a>>,
    depth: usize,
}

impl<'a> Scan<'a> {
    fn line_at(&self, start: usize) -> Line {
        let rest = &self.bytes[start..];
        let end = memchr::memchr(b'\n', rest).map_or(self.bytes.len(), |n| start + n);
        let indent = rest[..end - start]
            .iter()
            .take_while(|&&b| b == b' ')
            .count();
        Line {
            content: start + indent,
            indent,
            end,
        }
    }

    /// The first line at or after `start` that is not blank or a comment.
    fn significant(&self, mut start: usize) -> Option<Line> {
        while start < self.bytes.len() {
            let line = self.line_at(start);
            if line.content < line.end && self.bytes[line.content] != b'#' {
                return Some(line);
            }
            start = line.end + 1;
        }
        None
    }

    fn push(&mut self, event: Event<'a>, start: usize, end: usize) {
        self.events.push((event, start, end));
    }

    fn scalar(&mut self, text: Cow<'a, str>, style: ScalarStyle, start: usize, end: usize) {
        self.push(Event::Scalar(text, style, 0, None), start, end);
    }

    fn document(&mut self) -> Option<()> {
        let first = self.significant(0)?;
        let mut body = first;
        if self.bytes[first.content..].starts_with(b"---") {
            if first.indent != 0 || !self.only_comment(first.content + 3, first.end) {
                return None;
            }
            self.push(Event::DocumentStart(true), first.content, first.content + 3);
            body = self.significant(first.end + 1)?;
        } else {
            self.push(Event::DocumentStart(false), first.content, first.content);
        }
        if body.indent != 0 || is_marker(&self.bytes[body.content..]) {
            return None;
        }
        // A root sequence is a run of a `List`'s items read on its own (`load::lists`).
        let after = if is_entry(&self.bytes[body.content..]) {
            self.sequence(body, false)?
        } else {
            self.mapping(body.content, 0, None)?
        };
        if self.significant(after).is_some() {
            return None;
        }
        let end = self.bytes.len();
        self.push(Event::DocumentEnd, end, end);
        Some(())
    }

    /// Whether `from..end` holds only spaces and perhaps a comment after a space.
    fn only_comment(&self, from: usize, end: usize) -> bool {
        let rest = &self.bytes[from..end];
        let blanks = rest.iter().take_while(|&&b| b == b' ').count();
        blanks == rest.len() || (blanks > 0 && rest[blanks] == b'#')
    }

    /// A block mapping whose first key starts at `at`, in column `column` (`first`, when the
    /// caller has already read it). Returns where the line after the mapping starts.
    fn mapping(&mut self, at: usize, column: usize, first: Option<Key<'a>>) -> Option<usize> {
        self.enter()?;
        self.push(Event::MappingStart(0, None), at, at);
        let mut key_at = at;
        let mut first = first;
        let next = loop {
            let line = self.line_at(key_at);
            let key = match first.take() {
                Some(key) => key,
                None => self.find_key(key_at, line.end)?,
            };
            let colon = key.colon;
            self.scalar(key.text, key.style, key.at, colon);
            let after = self.value(colon, line.end, column)?;
            match self.significant(after) {
                Some(next) if next.indent == column && !is_entry(&self.bytes[next.content..]) => {
                    if column == 0 && is_marker(&self.bytes[next.content..]) {
                        break after;
                    }
                    key_at = next.content;
                }
                Some(next) if next.indent > column => return None,
                _ => break after,
            }
        };
        self.push(Event::MappingEnd, next, next);
        self.depth -= 1;
        Some(next)
    }

    /// The value of the key whose `:` is at `colon` in a mapping at `column`: on the same line,
    /// on the lines below, or empty. Returns where the line after the value starts.
    fn value(&mut self, colon: usize, end: usize, column: usize) -> Option<usize> {
        let at = skip_spaces(self.bytes, colon + 1, end);
        // `key: value`, or `key:` and perhaps a comment (a `#` after a space).
        if at < end && self.bytes[at] != b'#' {
            return self.inline(at, end, column);
        }
        match self.significant(end + 1) {
            Some(below) if below.indent > column => {
                if is_entry(&self.bytes[below.content..]) {
                    self.sequence(below, false)
                } else {
                    self.mapping(below.content, below.indent, None)
                }
            }
            // A sequence may sit in its key's column.
            Some(below) if below.indent == column && is_entry(&self.bytes[below.content..]) => {
                self.sequence(below, true)
            }
            _ => {
                self.scalar(Cow::Borrowed(""), ScalarStyle::Plain, colon, colon);
                Some(next_line(self.bytes, end))
            }
        }
    }

    /// A block sequence whose first `-` is on `first`. The parser's span of an indented
    /// sequence starts at its first `-`; of one in its key's column (`indentless`), at its first
    /// item.
    fn sequence(&mut self, first: Line, indentless: bool) -> Option<usize> {
        self.enter()?;
        let column = first.indent;
        let mut line = first;
        let mut started = false;
        let next = loop {
            let dash = line.content;
            let at = skip_spaces(self.bytes, dash + 1, line.end);
            if at == dash + 1 || at == line.end || self.bytes[at] == b'#' {
                // `-` alone (its item below) or `-x` (not an entry): leave to the parser.
                return None;
            }
            if !started {
                let start = if indentless { at } else { dash };
                self.push(Event::SequenceStart(0, None), start, start);
                started = true;
            }
            if is_entry(&self.bytes[at..]) {
                return None;
            }
            let after = match self.find_key(at, line.end) {
                Some(key) => self.mapping(at, at - (line.content - line.indent), Some(key))?,
                None => self.inline(at, line.end, column)?,
            };
            match self.significant(after) {
                Some(next) if next.indent == column && is_entry(&self.bytes[next.content..]) => {
                    line = next;
                }
                Some(next) if next.indent > column => return None,
                _ => break after,
            }
        };
        self.push(Event::SequenceEnd, next, next);
        self.depth -= 1;
        Some(next)
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_NESTING).then_some(())
    }

    /// Whether a key's `:` is at `at`: followed by a space or the line end.
    fn colon_at(&self, at: usize, end: usize) -> bool {
        at < end && self.bytes[at] == b':' && (at + 1 == end || self.bytes[at + 1] == b' ')
    }

    /// The key that starts at `at` (plain or quoted text, then `:` and a space or the line
    /// end), if the line holds one this scanner reads.
    fn find_key(&self, at: usize, end: usize) -> Option<Key<'a>> {
        let (text, style, colon) = match self.bytes[at] {
            b'"' | b'\'' => {
                let (text, style, close) = self.quoted(at, end)?;
                (text, style, close + 1)
            }
            _ => {
                let colon = self.plain_key(at, end)?;
                (
                    Cow::Borrowed(&self.text[at..colon]),
                    ScalarStyle::Plain,
                    colon,
                )
            }
        };
        (self.colon_at(colon, end) && colon - at <= MAX_KEY_BYTES).then_some(Key {
            text,
            style,
            at,
            colon,
        })
    }

    /// The `:` ending the plain key that starts at `at`, if the line holds one this scanner
    /// reads.
    fn plain_key(&self, at: usize, end: usize) -> Option<usize> {
        let line = &self.bytes[at..end];
        if is_indicator(line[0]) {
            return None;
        }
        match plain_stop(line) {
            Stop::Colon(i) if line[i - 1] != b' ' => Some(at + i),
            _ => None,
        }
    }

    /// A value written after `key: ` or `- ` at `at` (before the line end `end`), in a
    /// collection at `column`.
    fn inline(&mut self, at: usize, end: usize, column: usize) -> Option<usize> {
        match self.bytes[at] {
            b'"' | b'\'' => self.quoted_value(at, end),
            b'|' => return self.literal(at, end, column),
            b'[' | b'{' => self.empty_flow(at, end),
            b'-' if self
                .bytes
                .get(at + 1)
                .is_none_or(|&b| b == b' ' || b == b'\n') =>
            {
                None
            }
            b if is_indicator(b) && b != b'-' => None,
            _ => self.plain(at, end),
        }?;
        Some(next_line(self.bytes, end))
    }

    fn plain(&mut self, at: usize, end: usize) -> Option<()> {
        let line = &self.bytes[at..end];
        let stop = match plain_stop(line) {
            Stop::Colon(_) => return None,
            Stop::Comment(i) => i,
            Stop::End => line.len(),
        };
        let trimmed = line[..stop].iter().rposition(|&b| b != b' ')? + 1;
        let text = &self.text[at..at + trimmed];
        self.scalar(Cow::Borrowed(text), ScalarStyle::Plain, at, at + trimmed);
        Some(())
    }

    /// A quoted scalar (`"…"` with the escapes JSON also has, or `'…'` with `''`) written on
    /// one line: its text, style, and where its closing quote is.
    fn quoted(&self, at: usize, end: usize) -> Option<(Cow<'a, str>, ScalarStyle, usize)> {
        let body = &self.text[at + 1..end];
        let bytes = body.as_bytes();
        let double = self.bytes[at] == b'"';
        let mut owned: Option<String> = None;
        let mut copied = 0;
        let mut i = 0;
        let close = loop {
            let (unescaped, width) = match (bytes.get(i)?, double) {
                (b'"', true) => break i,
                (b'\\', true) => match bytes.get(i + 1)? {
                    b'\\' => ('\\', 2),
                    b'"' => ('"', 2),
                    b'/' => ('/', 2),
                    b'n' => ('\n', 2),
                    b't' => ('\t', 2),
                    b'r' => ('\r', 2),
                    b'0' => ('\0', 2),
                    _ => return None,
                },
                (b'\'', false) if bytes.get(i + 1) == Some(&b'\'') => ('\'', 2),
                (b'\'', false) => break i,
                _ => {
                    i += 1;
                    continue;
                }
            };
            let out = owned.get_or_insert_with(String::new);
            out.push_str(&body[copied..i]);
            out.push(unescaped);
            i += width;
            copied = i;
        };
        let text = match owned {
            Some(mut out) => {
                out.push_str(&body[copied..close]);
                Cow::Owned(out)
            }
            None => Cow::Borrowed(&body[..close]),
        };
        let style = if double {
            ScalarStyle::DoubleQuoted
        } else {
            ScalarStyle::SingleQuoted
        };
        Some((text, style, at + 1 + close))
    }

    /// A quoted value; its span runs to the line end, as the parser's does, over any blanks
    /// and comment after the closing quote.
    fn quoted_value(&mut self, at: usize, end: usize) -> Option<()> {
        let (text, style, close) = self.quoted(at, end)?;
        if !self.only_comment(close + 1, end) {
            return None;
        }
        self.scalar(text, style, at, end);
        Some(())
    }

    /// `[]` or `{}`; the closing bracket's span runs to the line end.
    fn empty_flow(&mut self, at: usize, end: usize) -> Option<()> {
        let (start, stop) = match &self.bytes[at..at + 2.min(end - at)] {
            b"[]" => (Event::SequenceStart(0, None), Event::SequenceEnd),
            b"{}" => (Event::MappingStart(0, None), Event::MappingEnd),
            _ => return None,
        };
        if !self.only_comment(at + 2, end) {
            return None;
        }
        // As after a quoted scalar, the parser's span of the closing bracket runs to the line end.
        self.push(start, at, at + 1);
        self.push(stop, at + 1, end);
        Some(())
    }

    /// A `|` or `|-` literal block whose header is at `at`, under a collection at `column`.
    /// Returns where the line after the block starts.
    fn literal(&mut self, at: usize, end: usize, column: usize) -> Option<usize> {
        let strip = match &self.bytes[at + 1..end] {
            [] => false,
            [b'-'] => true,
            _ => return None,
        };
        let first = self.line_at(next_line(self.bytes, end));
        if first.content >= first.end || first.indent <= column {
            // Leading blank lines, or no content: the parser decides the indentation.
            return None;
        }
        let indent = first.indent;
        let mut text = String::new();
        let mut pending_breaks = 0;
        let mut last_end = first.end;
        let mut start = first.content - first.indent;
        while start < self.bytes.len() {
            let line = self.line_at(start);
            if line.content == line.end {
                if line.indent > indent || (line.end == self.bytes.len() && line.indent > 0) {
                    // More blanks than the indentation are content; and the parser reads a
                    // last line of blanks with no line break after it as one more break
                    // (`a: |` `  x` `  ` at the end is `"x\n\n"` to it), so it decides.
                    return None;
                }
                pending_breaks += 1;
            } else if line.indent < indent {
                break;
            } else {
                if !text.is_empty() || pending_breaks > 0 {
                    for _ in 0..pending_breaks + usize::from(!text.is_empty()) {
                        text.push('\n');
                    }
                }
                pending_breaks = 0;
                text.push_str(&self.text[line.content - line.indent + indent..line.end]);
                last_end = line.end;
            }
            start = next_line(self.bytes, line.end);
        }
        if !strip {
            text.push('\n');
        }
        self.scalar(
            Cow::Owned(text),
            ScalarStyle::Literal,
            first.content,
            last_end,
        );
        Some(next_line(self.bytes, last_end))
    }
}

/// Where plain text (not starting with an indicator) stops on its line.
enum Stop {
    /// At a `:` followed by a space or the line end: the text is a key.
    Colon(usize),
    /// At a `#` after a space: a comment follows.
    Comment(usize),
    /// At the line end.
    End,
}

fn plain_stop(line: &[u8]) -> Stop {
    for i in 0..line.len() {
        match line[i] {
            b':' if line.get(i + 1).is_none_or(|&b| b == b' ') => return Stop::Colon(i),
            b'#' if line[i - 1] == b' ' => return Stop::Comment(i),
            _ => {}
        }
    }
    Stop::End
}

/// Where the line after the one ending at `end` starts.
fn next_line(bytes: &[u8], end: usize) -> usize {
    (end + 1).min(bytes.len())
}

fn skip_spaces(bytes: &[u8], mut at: usize, end: usize) -> usize {
    while at < end && bytes[at] == b' ' {
        at += 1;
    }
    at
}

/// `-` followed by a space or the line end: a sequence entry.
fn is_entry(rest: &[u8]) -> bool {
    rest.first() == Some(&b'-') && rest.get(1).is_none_or(|&b| b == b' ' || b == b'\n')
}

/// `---` or `...` at the start of a line (followed by anything: the scanner leaves all such
/// lines to the parser).
fn is_marker(rest: &[u8]) -> bool {
    rest.starts_with(b"---") || rest.starts_with(b"...")
}

/// Characters that cannot start a plain scalar the scanner reads.
fn is_indicator(b: u8) -> bool {
    matches!(
        b,
        b'-' | b'?'
            | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    )
}

/// Whether the scanner reads `document` (`Ok(false)`: it leaves it to the parser), or, as
/// `Err`, where it reads it otherwise than `saphyr-parser` does: events that differ, or a
/// document the parser rejects. For the differential tests below and the `yaml_fast` fuzz
/// target; nothing else calls it.
pub fn compare_with_parser(document: &str) -> Result<bool, String> {
    let Some(fast) = events(document) else {
        return Ok(false);
    };
    let parser = parser_events(document)
        .map_err(|e| format!("the scanner read what the parser rejects ({e}):\n{document}"))?;
    if fast.len() != parser.len() {
        return Err(format!(
            "event counts differ:\n{document}\nfast: {fast:?}\nparser: {parser:?}"
        ));
    }
    match fast
        .iter()
        .zip(&parser)
        .find(|(f, p)| !same(document, f, p))
    {
        Some((f, p)) => Err(format!(
            "events differ:\n{document}\nfast: {f:?}\nparser: {p:?}"
        )),
        None => Ok(true),
    }
}

/// The parser's events with byte offsets, or its error.
fn parser_events(document: &str) -> Result<Vec<Spanned<'_>>, String> {
    use saphyr_parser::Parser;
    let bytes: Vec<usize> = document
        .char_indices()
        .map(|(b, _)| b)
        .chain([document.len()])
        .collect();
    let mut out = Vec::new();
    let mut parser = Parser::new_from_str(document);
    while let Some(next) = parser.next_event() {
        let (event, span) = next.map_err(|e| e.to_string())?;
        if !matches!(
            event,
            Event::StreamStart | Event::StreamEnd | Event::Nothing
        ) {
            out.push((event, bytes[span.start.index()], bytes[span.end.index()]));
        }
    }
    Ok(out)
}

/// Whether two events are the same to the tree builder, which ignores the spans of
/// document events and of empty collection ends, and trims block scalars' trailing blanks.
fn same(document: &str, fast: &Spanned<'_>, parser: &Spanned<'_>) -> bool {
    let trimmed = |start: usize, end: usize| document[start..end].trim_end().len();
    match (&fast.0, &parser.0) {
        (Event::DocumentStart(_) | Event::DocumentEnd, _) => fast.0 == parser.0,
        (Event::MappingEnd | Event::SequenceEnd, _) if parser.1 == parser.2 => {
            fast.0 == parser.0 && fast.1 == fast.2
        }
        (Event::Scalar(_, ScalarStyle::Literal, ..), _) => {
            fast.0 == parser.0
                && fast.1 == parser.1
                && trimmed(fast.1, fast.2) == trimmed(parser.1, parser.2)
        }
        _ => fast == parser,
    }
}

#[cfg(test)]
mod tests {
    //! Differential tests: wherever the scanner accepts a document, its events must be the
    //! parser's, span for span, and the parser must accept the document too.

    use super::*;

    /// Checks `document` and returns whether the scanner read it.
    fn check(document: &str) -> bool {
        compare_with_parser(document).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_literal_block_ending_in_blanks_without_a_line_break_goes_to_the_parser() {
        for document in [
            "a: |\n  x\n  ",
            "a: |\n  x\n\n  ",
            "- |\n  x\n  ",
            "a: |-\n  x\n ",
        ] {
            assert!(events(document).is_none(), "{document:?}");
            parser_events(document).expect("the parser reads it");
        }
        // With the line break, or without the blanks, the scanner reads it as the parser does.
        for document in ["a: |\n  x\n  \n", "a: |\n  x\n", "a: |\n  x"] {
            assert!(check(document), "{document:?}");
        }
    }

    #[test]
    fn reads_the_block_style_tools_write() {
        let accepted = [
            "---\napiVersion: v1\nkind: A\nmetadata:\n  name: x\n",
            "a:\n- b: 1\n  c:\n  - 2\n  d: |\n    lit\n- |-\n  t\n- plain text\ne: {}\nf: []\n",
            "a: \"x\\\"y\\\\z\\/\"\nb: x:y\nc: -1\nd: 'it''s'\ne: \"q\"   # c\nf: 's'  # c\n",
            "a:\nb: 1   \nc: x # comment\n# full\n  # indented\nd:   \ne: # c\n  f: 1\n",
            "a: |\n  x\n\n  y\n\nb:\n- |\n x\nc: |-\n  z",
            "a:\n  - x\n  - y: 1\n    z:\n      - w\nb: [] # c\n",
            "x:\n- a:\n- b\n",
            "k: v\n...\n",
            "a: b: c\n",
            "a:\n  b\n",
            "a: *x\n",
            "a: \"multi\n  line\"\n",
            "a: >\n  folded\n",
            "\"q\": 1\n'r''s': 2\nl:\n- \"k\": \"v\"\n",
            "a:\tb\n",
            "- a: 1\n  b:\n  - x\n# c\n- c: |\n    t\n\n- d\n",
            "- a\n- b: 1\nc: 2\n",
        ];
        let read: Vec<bool> = accepted.iter().map(|d| check(d)).collect();
        assert_eq!(
            read,
            [
                true, true, true, true, true, true, true, false, false, false, false, false, false,
                true, false, true, false
            ]
        );
    }

    /// Every YAML document in the repository (test data, bundled CRDs, examples, docs).
    fn repository_documents() -> Vec<String> {
        fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                    out.push(path);
                }
            }
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for dir in ["testdata", "crds", "examples", "docs"] {
            walk(&root.join(dir), &mut files);
        }
        files.sort();
        let mut documents = Vec::new();
        for file in files {
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            for range in crate::yaml::split_documents(&text) {
                // A List's runs of items are read as documents of their own (`load::lists`).
                if let Some(list) = crate::yaml::list_layout(&text, range.clone()) {
                    for item in &list.items {
                        documents.push(text[item.clone()].to_string());
                    }
                    let last = list.items.len() - 1;
                    documents.push(text[list.items[0].start..list.items[last].end].to_string());
                }
                documents.push(text[range].to_string());
            }
        }
        documents
    }

    #[test]
    fn every_repository_document_reads_as_the_parser_reads_it() {
        let documents = repository_documents();
        let read = documents.iter().filter(|d| check(d)).count();
        // Most of the repository is in the block style; the rest (flow collections in
        // hand-written tests, anchors, deliberately broken files) goes to the parser.
        assert!(
            read * 2 >= documents.len(),
            "the scanner read only {read} of {} documents",
            documents.len()
        );
    }

    /// A small deterministic generator (xorshift), so failures reproduce.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n.max(1) as u64) as usize
        }
    }

    /// `text` with one random edit of the kinds that move YAML across the scanner's edges.
    fn mutate(text: &str, rng: &mut Rng) -> String {
        const INSERTS: &[&str] = &[
            " ", "  ", "\n", "\n  ", "#", " #", ":", ": ", "- ", "-", "\"", "'", "|", "|-", "[",
            "]", "{", "}", "[]", "{}", "&a ", "*a", "!!str ", ">", "? ", ",", "x", "\\", "...",
            "---", "%", "\t", "\\n", "''", "\u{e9}",
        ];
        let boundary = |rng: &mut Rng| {
            let mut at = rng.below(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            at
        };
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        match rng.below(5) {
            0 => {
                let at = boundary(rng);
                let insert = INSERTS[rng.below(INSERTS.len())];
                format!("{}{insert}{}", &text[..at], &text[at..])
            }
            1 => {
                let from = boundary(rng);
                let mut to = (from + 1 + rng.below(3)).min(text.len());
                while !text.is_char_boundary(to) {
                    to += 1;
                }
                format!("{}{}", &text[..from], &text[to..])
            }
            2 => {
                let i = rng.below(lines.len());
                let mut out: Vec<&str> = lines.clone();
                out.insert(i, lines.get(i).copied().unwrap_or(""));
                out.concat()
            }
            3 => {
                let i = rng.below(lines.len());
                let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                if let Some(line) = out.get_mut(i) {
                    match rng.below(2) {
                        0 => line.insert_str(0, "  "),
                        _ => *line = line.trim_start_matches(' ').to_string(),
                    }
                }
                out.concat()
            }
            _ => {
                let mut out = lines.clone();
                if out.len() > 1 {
                    let i = rng.below(out.len() - 1);
                    out.swap(i, i + 1);
                }
                out.concat()
            }
        }
    }

    /// `DOPOL_YAML_SOAK=N` runs N times as many edits, from a seed of its own.
    #[test]
    fn mutated_documents_read_as_the_parser_reads_them_or_go_to_it() {
        let soak: u64 = std::env::var("DOPOL_YAML_SOAK")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(1)
            .max(1);
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ soak);
        let (mut tried, mut read) = (0, 0);
        for document in repository_documents() {
            if events(&document).is_none() {
                continue;
            }
            let rounds = soak as usize * if document.len() > 20_000 { 2 } else { 24 };
            for _ in 0..rounds {
                let mut text = mutate(&document, &mut rng);
                if rng.below(3) == 0 {
                    text = mutate(&text, &mut rng);
                }
                tried += 1;
                read += usize::from(check(&text));
            }
        }
        // Most edits keep the document in the block style; both kinds must be exercised.
        assert!(read * 4 > tried && read < tried, "read {read} of {tried}");
    }
}
