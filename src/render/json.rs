//! Pretty JSON at any depth, and list documents rendered in parallel.
//!
//! Big reports are hundreds of MB of pretty JSON, and one thread formatting them token by token
//! is most of such a run. A list's items do not depend on each other, so they are rendered on
//! every core, a batch at a time, and written in order. An item is formatted at the depth it has
//! in the document ([`Nested`]), so its bytes go out as they are: no second pass re-indents
//! them. The few items too big to hold whole (megabytes) are written as they are formatted,
//! their parts rendered in parallel in turn ([`Streamed`]). Everything written here is byte for
//! byte what `serde_json::to_writer_pretty` prints for the whole document (the tests compare).

use crate::report::LazyList;
use rayon::prelude::*;
use serde::Serialize;
use serde_json::ser::Formatter;
use std::io::{self, Write};
use std::ops::Range;

/// Two spaces per level, as `serde_json`'s pretty printer.
const INDENT: &[u8] = b"  ";

/// Indices of a list (or parts of a big item) rendered per parallel batch. A batch is held whole
/// before it is written: before big items were streamed ([`Streamed`]), 4 cost 80 MB more than
/// writing on one thread on the benchmark, and 16 cost 120 MB, for the same time.
const BATCH: usize = 4;

/// `serde_json`'s pretty format for a value that starts `depth` levels deep: its first line
/// continues the current line, its other lines are indented as they are in the document.
pub struct Nested {
    depth: usize,
    has_value: bool,
}

impl Nested {
    /// A formatter for a value `depth` levels deep.
    pub fn at(depth: usize) -> Nested {
        Nested {
            depth,
            has_value: false,
        }
    }

    fn open<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            writer.write_all(b"\n")?;
            indent(writer, self.depth)?;
        }
        writer.write_all(bracket)
    }

    fn next<W: ?Sized + Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        writer.write_all(if first { b"\n" } else { b",\n" })?;
        indent(writer, self.depth)
    }
}

fn indent<W: ?Sized + Write>(writer: &mut W, depth: usize) -> io::Result<()> {
    for _ in 0..depth {
        writer.write_all(INDENT)?;
    }
    Ok(())
}

impl Formatter for Nested {
    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.next(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.next(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// Appends `value` as pretty JSON `depth` levels deep (see [`Nested`]).
pub fn push_pretty<T: Serialize + ?Sized>(
    out: &mut impl Write,
    value: &T,
    depth: usize,
) -> io::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(out, Nested::at(depth));
    value.serialize(&mut serializer).map_err(io::Error::other)
}

/// Appends what part `i` of a document writes to a buffer (rendered in parallel with others).
type Render<'a> = dyn Fn(usize, &mut Vec<u8>) -> io::Result<()> + Sync + 'a;

/// The elements of a JSON array, written in order to the output as they come. Each element is
/// `,\n` and the element at its depth, and its first write holds at least that comma: the
/// array's first element loses it.
pub struct Elements<'a> {
    out: &'a mut dyn Write,
    written: bool,
}

impl<'a> Elements<'a> {
    /// The elements of an array whose `[` is the last byte written to `out`.
    pub fn new(out: &'a mut dyn Write) -> Elements<'a> {
        Elements {
            out,
            written: false,
        }
    }

    /// Whether any element was written (its closing bracket goes on a line of its own).
    pub fn written(&self) -> bool {
        self.written
    }

    /// Writes what `render(i, buffer)` appends for each `i` below `count`: `BATCH` at a time are
    /// rendered in parallel, each into a buffer of its own, then written in order.
    pub fn write_parallel(&mut self, count: usize, render: &Render<'_>) -> io::Result<()> {
        for start in (0..count).step_by(BATCH) {
            self.write_batch(start..count.min(start + BATCH), render)?;
        }
        Ok(())
    }

    /// Renders `indices` in parallel, each into a buffer of its own, and writes them in order.
    fn write_batch(&mut self, indices: Range<usize>, render: &Render<'_>) -> io::Result<()> {
        let buffers: Vec<Vec<u8>> = indices
            .into_par_iter()
            .map(|index| {
                let mut buffer = Vec::new();
                render(index, &mut buffer).map(|()| buffer)
            })
            .collect::<io::Result<_>>()?;
        buffers.iter().try_for_each(|buffer| self.write_all(buffer))
    }
}

impl Write for Elements<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if bytes.is_empty() {
            return Ok(0);
        }
        let skip = usize::from(!self.written);
        self.out.write_all(&bytes[skip..])?;
        self.written = true;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The few items of a lazy list too big to hold rendered whole (the status of a Gateway's
/// policy is megabytes, and a batch of them would be held at once): each is written straight to
/// the output, its parts formatted in parallel.
pub struct Streamed<'a> {
    /// Whether the items of a list index are big (then written by `write`).
    pub is_big: &'a dyn Fn(u32) -> bool,
    /// Writes what the list's `push` would append for the items of an index.
    pub write: &'a dyn Fn(u32, &mut Elements<'_>) -> io::Result<()>,
}

/// Writes `{"apiVersion": "dopol/v1", "kind": KIND, "items": [...]}` as pretty JSON and a
/// newline, the items of each index of `order` in turn: `render` appends them to a buffer and
/// runs of indices are rendered in parallel batches, except the big ones of `streamed`, which
/// are written one at a time as they are formatted.
fn write_list(
    out: &mut dyn Write,
    kind: &str,
    order: &[u32],
    render: &(dyn Fn(u32, &mut Vec<u8>) -> io::Result<()> + Sync),
    streamed: Option<&Streamed<'_>>,
) -> io::Result<()> {
    let mut head = Vec::with_capacity(96);
    head.extend_from_slice(b"{\n  \"apiVersion\": ");
    push_pretty(&mut head, crate::report::API_VERSION, 1)?;
    head.extend_from_slice(b",\n  \"kind\": ");
    push_pretty(&mut head, kind, 1)?;
    head.extend_from_slice(b",\n  \"items\": [");
    out.write_all(&head)?;
    let is_big = |at: usize| streamed.is_some_and(|s| (s.is_big)(order[at]));
    let mut items = Elements::new(out);
    let mut start = 0;
    while start < order.len() {
        if let Some(streamed) = streamed.filter(|_| is_big(start)) {
            (streamed.write)(order[start], &mut items)?;
            start += 1;
        } else {
            let limit = order.len().min(start + BATCH);
            let end = (start + 1..limit).find(|&at| is_big(at)).unwrap_or(limit);
            items.write_batch(start..end, &|at, buffer| render(order[at], buffer))?;
            start = end;
        }
    }
    let written = items.written();
    out.write_all(if written { b"\n  ]\n}\n" } else { b"]\n}\n" })
}

/// Appends one item of a list document: `,\n`, then the item at its depth.
pub fn push_item<T: Serialize + ?Sized>(buffer: &mut Vec<u8>, item: &T) -> io::Result<()> {
    buffer.extend_from_slice(b",\n    ");
    push_pretty(buffer, item, 2)
}

/// Writes a list document of `items` (see [`write_list`]).
pub fn write_items<T: Serialize + Sync>(
    out: &mut dyn Write,
    kind: &str,
    items: &[T],
) -> io::Result<()> {
    let order: Vec<u32> = (0..items.len() as u32).collect();
    let render = |index: u32, buffer: &mut Vec<u8>| push_item(buffer, &items[index as usize]);
    write_list(out, kind, &order, &render, None)
}

/// Writes a [`LazyList`]: what `write_json` writes for it, each index's items built and
/// formatted on the thread that renders that index.
pub fn write_lazy<F, I>(out: &mut dyn Write, list: &LazyList<F>) -> io::Result<()>
where
    F: Fn(u32) -> I + Sync,
    I: IntoIterator<Item: Serialize>,
{
    write_lazy_with(out, list, &|buffer, item| push_item(buffer, item), None)
}

/// Appends one item of a list document to a buffer (what [`push_item`] writes for it).
pub type PushItem<T> = dyn Fn(&mut Vec<u8>, &T) -> io::Result<()> + Sync;

/// [`write_lazy`], each item appended by `push` (which writes what [`push_item`] would), the
/// big indices of `streamed` written by it.
pub fn write_lazy_with<F, I>(
    out: &mut dyn Write,
    list: &LazyList<F>,
    push: &PushItem<I::Item>,
    streamed: Option<&Streamed<'_>>,
) -> io::Result<()>
where
    F: Fn(u32) -> I + Sync,
    I: IntoIterator,
{
    let render = |index: u32, buffer: &mut Vec<u8>| {
        (list.items)(index)
            .into_iter()
            .try_for_each(|item| push(buffer, &item))
    };
    write_list(out, list.kind, &list.order, &render, streamed)
}

/// Writes a JSON string literal, as `serde_json` writes it.
pub fn push_str(out: &mut Vec<u8>, s: &str) {
    push_joined(out, &[s]);
}

/// Writes the escaped bytes of a JSON string, without its quotes.
pub fn push_escaped(out: &mut Vec<u8>, s: &str) {
    if needs_escape(s.as_bytes()) {
        // serde_json's escaping, for the rare strings that need it.
        let quoted = serde_json::to_string(s).unwrap_or_default();
        out.extend_from_slice(&quoted.as_bytes()[1..quoted.len() - 1]);
    } else {
        out.extend_from_slice(s.as_bytes());
    }
}

/// Whether `bytes` hold a `"`, a `\\` or a control character, eight bytes at a time: the
/// status and effective documents are hundreds of megabytes of strings that almost never do.
fn needs_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    // Nonzero exactly when some byte of `word` is below `n` (n <= 0x80).
    let below = |word: u64, n: u8| word.wrapping_sub(ONES * u64::from(n)) & !word & HIGHS;
    let zero = |word: u64| below(word, 1);
    let mut words = bytes.chunks_exact(8);
    for chunk in &mut words {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_ne_bytes(word);
        let hit = below(word, 0x20)
            | zero(word ^ (ONES * u64::from(b'"')))
            | zero(word ^ (ONES * u64::from(b'\\')));
        if hit != 0 {
            return true;
        }
    }
    words
        .remainder()
        .iter()
        .any(|&b| b == b'"' || b == b'\\' || b < 0x20)
}

/// Writes a JSON string literal of `parts` joined (escaping is per character, so the bytes are
/// those of the joined string's literal).
pub fn push_joined(out: &mut Vec<u8>, parts: &[&str]) {
    out.push(b'"');
    for part in parts {
        push_escaped(out, part);
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needs_escape_finds_every_escaped_byte_at_every_position() {
        let plain = "abcdefghijklmnopqrstuvwxyz-é/~ ";
        assert!(!needs_escape(plain.as_bytes()));
        for special in ['"', '\\', '\n', '\t', '\u{1}', '\u{1f}'] {
            for at in 0..=plain.len() {
                if !plain.is_char_boundary(at) {
                    continue;
                }
                let text = format!("{}{special}{}", &plain[..at], &plain[at..]);
                assert!(needs_escape(text.as_bytes()), "{text:?}");
            }
        }
        for byte in 0u8..=0x7f {
            let text = format!("0123456{}89", byte as char);
            let expected = byte == b'"' || byte == b'\\' || byte < 0x20;
            assert_eq!(needs_escape(text.as_bytes()), expected, "{byte:#x}");
        }
        assert!(!needs_escape("ééééé ä ü ñ — “quoted” 🙂".as_bytes()));
    }

    #[derive(Serialize)]
    struct Doc<'a> {
        #[serde(rename = "apiVersion")]
        api_version: &'a str,
        kind: &'a str,
        items: &'a [serde_json::Value],
    }

    fn items(count: usize) -> Vec<serde_json::Value> {
        (0..count)
            .map(|i| serde_json::json!({"i": i, "nested": {"list": [1, {"s": "a\nb"}], "empty": {}}, "e": [], "o": [[], {}]}))
            .collect()
    }

    fn expected(items: &[serde_json::Value]) -> String {
        let doc = Doc {
            api_version: "dopol/v1",
            kind: "Test",
            items,
        };
        serde_json::to_string_pretty(&doc).unwrap() + "\n"
    }

    #[test]
    fn parallel_list_rendering_matches_serde_json_pretty() {
        for count in [0, 1, 2, 255, 256, 257, 600, BATCH + 3] {
            let items = items(count);
            let mut got = Vec::new();
            write_items(&mut got, "Test", &items).unwrap();
            assert_eq!(
                String::from_utf8(got).unwrap(),
                expected(&items),
                "{count} items"
            );
        }
    }

    #[test]
    fn a_lazy_list_with_empty_indices_matches_serde_json_pretty() {
        // Index i has i % 3 items, so some indices (the first among them) have none.
        let all = items(3 * BATCH);
        for count in [0, 1, 2, 4, BATCH + 2] {
            let per_index = |i: u32| all[..(i % 3) as usize].to_vec();
            let list = LazyList {
                kind: "Test",
                order: (0..count as u32).collect(),
                items: per_index,
            };
            let built: Vec<serde_json::Value> = list.iter().collect();
            let mut got = Vec::new();
            write_lazy(&mut got, &list).unwrap();
            assert_eq!(
                String::from_utf8(got).unwrap(),
                expected(&built),
                "{count} indices"
            );
        }
    }

    #[test]
    fn a_nested_value_is_indented_as_in_its_document() {
        let value = serde_json::json!({"a": [1, {"b": {}}], "c": "x"});
        let mut got = b"  \"v\": ".to_vec();
        push_pretty(&mut got, &value, 1).unwrap();
        let whole = serde_json::to_string_pretty(&serde_json::json!({"v": value})).unwrap();
        assert_eq!(
            format!("{{\n{}\n}}", String::from_utf8(got).unwrap()),
            whole
        );
    }
}
