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

use std::ops::Range;

/// The parts of a `List` document written in block style with column-0 items.
#[derive(Debug, PartialEq, Eq)]
pub struct ListLayout {
    /// Before the `items:` line: the List's keys written first.
    pub head: Range<usize>,
    /// Where each item's `-` line starts, in order.
    pub items: Vec<usize>,
    /// Where the last item ends.
    pub items_end: usize,
    /// After the items: the List's keys written last.
    pub tail: Range<usize>,
}

/// The layout of the document in `text[range]` when it has a column-0 `items:` key whose
/// value is a block sequence of column-0 items; `None` otherwise.
pub fn list_layout(text: &str, range: Range<usize>) -> Option<ListLayout> {
    let bytes = &text.as_bytes()[..range.end];
    let chunk = &bytes[range.start..];
    if !chunk.starts_with(b"items:") && memchr::memmem::find(chunk, b"\nitems:").is_none() {
        return None;
    }
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
    Some(ListLayout {
        head: range.start..items_line,
        items,
        items_end,
        tail: items_end..range.end,
    })
}

/// `items:` with nothing after it but blanks and a comment.
fn is_items_key(line: &[u8]) -> bool {
    line.strip_prefix(b"items:").is_some_and(|rest| {
        let after = rest.trim_ascii_start();
        after.is_empty() || (after.len() < rest.len() && after[0] == b'#')
    })
}

/// A column-0 `-` starting a sequence entry.
fn is_item(line: &[u8]) -> bool {
    line.first() == Some(&b'-') && line.get(1).is_none_or(|b| b.is_ascii_whitespace())
}

/// A line with nothing but blanks, or a comment.
fn is_blank_or_comment(line: &[u8]) -> bool {
    let content = line.trim_ascii_start();
    content.is_empty() || content[0] == b'#'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(text: &str) -> Option<ListLayout> {
        list_layout(text, 0..text.len())
    }

    #[test]
    fn finds_the_head_the_items_and_the_tail_of_a_kubectl_list() {
        let text = "apiVersion: v1\nitems:\n# first\n- a: 1\n  b:\n  - x\n\n-\n  c: 2\n\
                    - d\nkind: List\nmetadata: {}\n";
        let found = layout(text).unwrap();
        let at = |s: &str| text.find(s).unwrap();
        assert_eq!(found.head, 0..at("items:"));
        assert_eq!(found.items, [at("- a"), at("-\n  c"), at("- d")]);
        assert_eq!(found.items_end, at("kind:"));
        assert_eq!(found.tail, at("kind:")..text.len());
    }

    #[test]
    fn items_may_end_the_document_and_lines_may_end_in_crlf() {
        let text = "kind: List\r\nitems: # all\r\n- a\r\n-\r\n  b: 1\r\n";
        let found = layout(text).unwrap();
        assert_eq!(
            found.items,
            [text.find("- a").unwrap(), text.find("-\r").unwrap()]
        );
        assert_eq!(found.items_end, text.len());
        assert!(found.tail.is_empty());
    }

    #[test]
    fn a_range_is_read_alone() {
        let text = "a: 1\n---\nitems:\n- x\n---\nb: 2\n";
        let range = text.find("items").unwrap()..text.rfind("---").unwrap();
        let found = list_layout(text, range.clone()).unwrap();
        assert_eq!(found.head, range.start..range.start);
        assert_eq!(found.items, [range.start + 7]);
        assert_eq!(found.items_end, range.end);
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
        ] {
            assert_eq!(layout(text), None, "{text:?}");
        }
    }
}
