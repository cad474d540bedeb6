//! Where a `List` document's items are, read from line starts alone.
//!
//! `kubectl get -o yaml` writes all it lists as one `List` document, so a cluster dump is one
//! YAML document: parsed whole, one thread reads it and its whole tree is alive at once. kubectl
//! (like most YAML writers) puts the `items:` key at column 0 and each item's `-` at column 0
//! too, so the items can be found the way documents are found at `---` lines: from the first
//! bytes of lines. An item starts at a column-0 `-` followed by a blank or the line's end;
//! inside the items, a line starting with a space continues the item, and blank lines and
//! comments change nothing. The first other column-0 line (the List's next key) ends them.
//!
//! The layout is read from the text, not from the grammar: the loader reads the parts it names
//! and uses them only when each reads cleanly and they add up to what the whole document holds
//! (`load::lists`); otherwise the document is read whole.

use super::parse::{json_close, json_string_end};
use std::ops::Range;

/// Where a `List` document's parts are.
#[derive(Debug, PartialEq, Eq)]
pub struct ListLayout {
    /// The List's other keys.
    pub keys: Keys,
    /// Each item: in block style, its lines (from its `-` line to the next item's); in JSON,
    /// its value.
    pub items: Vec<Range<usize>>,
}

/// Where a `List`'s keys other than `items` are written.
#[derive(Debug, PartialEq, Eq)]
pub enum Keys {
    /// Block style: the text before the `items:` line and the text after the items, each a
    /// mapping (or nothing).
    Block {
        /// Before the `items:` line.
        head: Range<usize>,
        /// After the items.
        tail: Range<usize>,
    },
    /// JSON: each `"key"` and its value.
    Json(Vec<(Range<usize>, Range<usize>)>),
}

/// The layout of the document in `text[range]` when it is a mapping with an `items` sequence
/// written either as kubectl's YAML writes it (a column-0 `items:` key whose value is a block
/// sequence of column-0 items) or as JSON (as `kubectl get -o json` writes it); `None`
/// otherwise.
pub fn list_layout(text: &str, range: Range<usize>) -> Option<ListLayout> {
    let chunk = &text.as_bytes()[range.clone()];
    let first = chunk.iter().position(|&b| !is_blank(b))?;
    let json = chunk[first] == b'{';
    // Most documents are neither: they are let go before the checks below read them whole.
    if !json && !chunk.starts_with(b"items:") && memchr::memmem::find(chunk, b"\nitems:").is_none()
    {
        return None;
    }
    // A lone carriage return is a line break to YAML, not to the line scan; a directive
    // (`%TAG`) changes what the parts after it mean.
    let lone_cr = memchr::memchr_iter(b'\r', chunk).any(|at| chunk.get(at + 1) != Some(&b'\n'));
    if lone_cr || chunk.first() == Some(&b'%') || memchr::memmem::find(chunk, b"\n%").is_some() {
        return None;
    }
    match json {
        true => json_layout(text.as_bytes(), range.start + first, range.end),
        false => block_layout(text, range),
    }
}

/// [`list_layout`] in block style.
fn block_layout(text: &str, range: Range<usize>) -> Option<ListLayout> {
    let bytes = &text.as_bytes()[..range.end];
    let chunk = &bytes[range.start..];
    let mut lines = std::iter::once(range.start).chain(
        memchr::memchr_iter(b'\n', chunk)
            .map(|newline| range.start + newline + 1)
            .filter(|&start| start < range.end),
    );
    let line = |start: usize| {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |n| start + n);
        &bytes[start..end]
    };
    let items_line = lines.find(|&start| is_items_key(line(start)))?;
    let first = lines.find(|&start| !is_blank_or_comment(line(start)))?;
    if !is_item(line(first)) {
        return None;
    }
    let mut items = vec![first];
    let mut items_end = range.end;
    for start in lines {
        let this = line(start);
        if is_item(this) {
            items.push(start);
        } else if !(this.first() == Some(&b' ') || is_blank_or_comment(this)) {
            // The List's next key, read on its own as the first line of a document: a line
            // starting otherwise (a tab, `?`, an anchor or tag, `...`) could mean something
            // else there than after the items, so the document is not cut.
            if !this[0].is_ascii_alphanumeric() && !matches!(this[0], b'_' | b'"' | b'\'') {
                return None;
            }
            items_end = start;
            break;
        }
    }
    // Read alone, the head and tail must be one document each, as they are in the whole.
    let head = &bytes[range.start..items_line];
    let head_body = match head.strip_prefix(b"---") {
        Some(_) => memchr::memchr(b'\n', head).map_or(&head[head.len()..], |n| &head[n..]),
        None => head,
    };
    let tail = &bytes[items_end..];
    let marker = |part: &[u8]| {
        part.starts_with(b"...")
            || part.starts_with(b"---")
            || memchr::memmem::find(part, b"\n...").is_some()
            || memchr::memmem::find(part, b"\n---").is_some()
    };
    // The last item is read without what follows it: the document must end its line.
    if marker(head_body) || marker(tail) || bytes.last() != Some(&b'\n') {
        return None;
    }
    let ends = items.iter().skip(1).copied().chain([items_end]);
    Some(ListLayout {
        keys: Keys::Block {
            head: range.start..items_line,
            tail: items_end..range.end,
        },
        items: items.iter().copied().zip(ends).map(|(a, b)| a..b).collect(),
    })
}

/// [`list_layout`] in JSON: `{` at `at`, then `"key": value` pairs, one of them `"items"` with
/// a non-empty array. Values are skipped by matching brackets outside strings; a document
/// with what JSON does not write (single quotes, comments, unquoted keys) is not cut, since
/// the brackets of YAML's flow style cannot be matched without its grammar.
fn json_layout(bytes: &[u8], mut at: usize, end: usize) -> Option<ListLayout> {
    let bytes = &bytes[..end];
    let (mut keys, mut items) = (Vec::new(), None);
    at += 1;
    loop {
        at = skip_blanks(bytes, at);
        let key = at..json_string_end(bytes, at)?;
        at = skip_blanks(bytes, key.end);
        (bytes.get(at) == Some(&b':')).then_some(())?;
        at = skip_blanks(bytes, at + 1);
        let value = at..json_value_end(bytes, at)?;
        if &bytes[key.clone()] == b"\"items\"" && bytes[value.start] == b'[' && items.is_none() {
            items = Some(json_array_items(bytes, value.clone())?);
        } else {
            keys.push((key, value.clone()));
        }
        at = skip_blanks(bytes, value.end);
        match bytes.get(at)? {
            b',' => at += 1,
            b'}' => break,
            _ => return None,
        }
    }
    let items = items.filter(|items| !items.is_empty())?;
    (skip_blanks(bytes, at + 1) == end).then_some(ListLayout {
        keys: Keys::Json(keys),
        items,
    })
}

/// The values of the JSON array written at `array`.
fn json_array_items(bytes: &[u8], array: Range<usize>) -> Option<Vec<Range<usize>>> {
    let mut items = Vec::new();
    let mut at = skip_blanks(bytes, array.start + 1);
    if bytes.get(at) == Some(&b']') {
        return Some(items);
    }
    loop {
        let item = at..json_value_end(bytes, at)?;
        at = skip_blanks(bytes, item.end);
        items.push(item);
        match bytes.get(at)? {
            b',' => at = skip_blanks(bytes, at + 1),
            b']' if at + 1 == array.end => return Some(items),
            _ => return None,
        }
    }
}

/// Where the JSON value starting at `at` ends: a string, an object or array (brackets matched
/// outside strings), or a scalar up to the next `,`, bracket or blank.
fn json_value_end(bytes: &[u8], at: usize) -> Option<usize> {
    match bytes.get(at)? {
        b'"' => json_string_end(bytes, at),
        // A `'` or `#` outside strings is YAML's flow style, whose brackets need its grammar.
        b'{' | b'[' => json_close(bytes, at, b"'#"),
        _ => {
            // Only JSON's own scalars: YAML reads `-` or `?` there as block indicators.
            let scalar = bytes[at..]
                .iter()
                .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.'))
                .count();
            let word = &bytes[at..at + scalar];
            let number = match word.strip_prefix(b"-") {
                Some(rest) => rest.first().is_some_and(u8::is_ascii_digit),
                None => word.first().is_some_and(u8::is_ascii_digit),
            } && word
                .iter()
                .all(|&b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'));
            let keyword = matches!(word, b"true" | b"false" | b"null");
            (number || keyword).then_some(at + scalar)
        }
    }
}

/// The first byte at or after `at` that is not a blank or line break.
fn skip_blanks(bytes: &[u8], at: usize) -> usize {
    at + bytes[at.min(bytes.len())..]
        .iter()
        .take_while(|&&b| is_blank(b))
        .count()
}

/// YAML's white space and line breaks (form feed and the other ASCII white space are not).
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// Whether the last line with content in `text` may leave a node for the next line to give
/// (`key:`, `-`, `?`, a `|`/`>` block header, an anchor or tag). Read alone, such a node may
/// end at the end of the text; read with what follows, its span comes from the next line. A
/// part of a List ending so is not read alone. Any `|`, `>`, `&`, `!`, `#` or tab on the line
/// counts (a comment or a quoted `>` included): the answer may be yes when it is no, never the
/// other way.
pub fn ends_open(text: &str) -> bool {
    let Some(line) = text
        .lines()
        .rev()
        .find(|l| !is_blank_or_comment(l.as_bytes()))
    else {
        return false;
    };
    let line = line.trim_end_matches([' ', '\r']);
    line.ends_with([':', '-', '?'])
        || line
            .bytes()
            .any(|b| matches!(b, b'|' | b'>' | b'&' | b'!' | b'#' | b'\t'))
}

/// `items:` with nothing after it but blanks and a comment.
fn is_items_key(line: &[u8]) -> bool {
    line.strip_prefix(b"items:").is_some_and(|rest| {
        let rest = rest.strip_suffix(b"\r").unwrap_or(rest);
        let after = trim_spaces(rest);
        after.is_empty() || (after.len() < rest.len() && after[0] == b'#')
    })
}

/// A column-0 `-` starting a sequence entry.
fn is_item(line: &[u8]) -> bool {
    line.first() == Some(&b'-') && line.get(1).is_none_or(|b| matches!(b, b' ' | b'\r'))
}

/// A line with nothing but blanks, or a comment.
fn is_blank_or_comment(line: &[u8]) -> bool {
    let content = trim_spaces(line);
    matches!(content, [] | [b'\r'] | [b'#', ..])
}

/// `line` without its leading spaces (tabs and form feeds are not indentation to YAML).
fn trim_spaces(line: &[u8]) -> &[u8] {
    let spaces = line.iter().take_while(|&&b| b == b' ').count();
    &line[spaces..]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(text: &str) -> Option<ListLayout> {
        list_layout(text, 0..text.len())
    }

    /// Head, items, tail.
    type Block = (Range<usize>, Vec<Range<usize>>, Range<usize>);

    /// The layout of a block-style List.
    fn block(text: &str) -> Option<Block> {
        let found = layout(text)?;
        match found.keys {
            Keys::Block { head, tail } => Some((head, found.items, tail)),
            Keys::Json(_) => panic!("{text}"),
        }
    }

    #[test]
    fn finds_the_head_the_items_and_the_tail_of_a_kubectl_list() {
        let text = "apiVersion: v1\nitems:\n# first\n- a: 1\n  b:\n  - x\n\n-\n  c: 2\n\
                    - d\nkind: List\nmetadata: {}\n";
        let (head, items, tail) = block(text).unwrap();
        let at = |s: &str| text.find(s).unwrap();
        assert_eq!(head, 0..at("items:"));
        let ends = [
            at("- a")..at("-\n  c"),
            at("-\n  c")..at("- d"),
            at("- d")..at("kind:"),
        ];
        assert_eq!(items, ends);
        assert_eq!(tail, at("kind:")..text.len());
    }

    #[test]
    fn items_may_end_the_document_and_lines_may_end_in_crlf() {
        let text = "kind: List\r\nitems: # all\r\n- a\r\n-\r\n  b: 1\r\n";
        let (_, items, tail) = block(text).unwrap();
        let (a, b) = (text.find("- a").unwrap(), text.find("-\r").unwrap());
        assert_eq!(items, [a..b, b..text.len()]);
        assert!(tail.is_empty());
    }

    #[test]
    fn a_range_is_read_alone() {
        let text = "a: 1\n---\nitems:\n- x\n---\nb: 2\n";
        let range = text.find("items").unwrap()..text.rfind("---").unwrap();
        let found = list_layout(text, range.clone()).unwrap();
        let head = range.start..range.start;
        let tail = range.end..range.end;
        assert_eq!(found.keys, Keys::Block { head, tail });
        assert_eq!(found.items, vec![range.start + 7..range.end]);
    }

    #[test]
    fn finds_the_keys_and_items_of_a_json_list() {
        let text = " {\n \"apiVersion\": \"v1\",\n \"items\": [\n  {\"a\": \"}]\\\"\"},\n  [1, {}],\n  3\n ],\n \"kind\": \"List\", \"metadata\": {\"x\": null}\n}\n";
        let found = layout(text).unwrap();
        let at = |s: &str| text.find(s).unwrap();
        let value = |s: &str| at(s)..at(s) + s.len();
        assert_eq!(
            found.keys,
            Keys::Json(vec![
                (value("\"apiVersion\""), value("\"v1\"")),
                (value("\"kind\""), value("\"List\"")),
                (value("\"metadata\""), value("{\"x\": null}")),
            ])
        );
        assert_eq!(
            found.items,
            [value("{\"a\": \"}]\\\"\"}"), value("[1, {}]"), value("3")]
        );
    }

    #[test]
    fn lines_that_leave_a_node_open() {
        for open in [
            "a:\n",
            "a: 1\nb: # c\n\n# d\n",
            "- a\n-\n",
            "a: |\n",
            "a: >-\n",
            "a: |2+\n",
            "- |\n",
            "a: &x\n",
            "a: !!str\n",
            "? \n",
        ] {
            assert!(ends_open(open), "{open:?}");
        }
        for closed in [
            "a: 1\n",
            "a: |\n  x\n",
            "- a\n",
            "a: [x]\n",
            "a: x-1\n",
            "a: \"b:\"\n",
            "",
        ] {
            assert!(!ends_open(closed), "{closed:?}");
        }
    }

    #[test]
    fn other_layouts_are_not_cut() {
        for text in [
            "kind: List\nitems: []\n",
            "kind: List\nitems:\n  - a\n",
            "kind: List\nitems: &all\n- a\n",
            "kind: List\nitems:#x\n- a\n",
            "kind: List\nitems:\nkind2: x\n- a\n",
            "kind: List\nitems:\n-a\n",
            "kind: List\nmetadata:\n  items:\n  - a\n",
            "kind: List\nitems:\n",
            "kind: List\nitems:\n- a\n\tb: 1\n",
            "kind: List\nitems:\n- a\n...\n",
            "kind: List\nitems:\n- a\n&x b: 1\n",
            "{\"kind\": \"List\", \"items\": []}",
            "{\"kind\": \"List\", \"items\": [{'a': 1}]}",
            "{\"kind\": \"List\", \"items\": [{\"a\": 1} # c\n]}",
            "{kind: List, \"items\": [1]}",
            "{\"kind\": \"List\", \"items\": [1]} x",
            "{\"kind\": \"List\", \"items\": [1 2]}",
            "{\"kind\": \"List\", \"items\": [1]",
            "{\"items\": [1], \"items\": [2]",
        ] {
            assert_eq!(layout(text), None, "{text:?}");
        }
    }
}
