//! The page's data: JSON cut into blocks, each compressed and written as one line of base64.
//!
//! A page of a big input carries a lot of data (360,000 paths on the benchmark corpus), and a
//! browser reads an inline text node of 140 MB slowly: the HTML parser alone took longer than
//! the goal of opening a path in two seconds. So the data is JSON cut into blocks of about
//! [`BLOCK_BYTES`], each compressed with zlib (the `deflate` format of the browser's own
//! `DecompressionStream`) and written as a line of base64, and the page reads a block only when
//! it needs it: the graph's parts when it opens, one path's explanations when that path is
//! opened. A block of base64 holds nothing but `A–Z a–z 0–9 + / =`, so no manifest string can
//! close the `<script>` element that holds it or be read as markup, whatever it contains.
//!
//! Line 0 is the index: `{"apiVersion", "kind": "PolicyView", "mode", "parts": {name: part}}`,
//! each part `{"first": line}` (one JSON value in one block) or `{"first": line, "starts":
//! [first item of each block], "count": items}` (an array cut between items; block `b` is line
//! `first + b`). [`read`] puts a document back together, as the page does, for tests.

use rayon::prelude::*;
use serde::Serialize;
use std::io;

/// About how much JSON goes into one block before it is compressed.
pub const BLOCK_BYTES: usize = 256 * 1024;

/// The block size of this run: [`BLOCK_BYTES`], or `DOPOL_VIEW_BLOCK_BYTES` when it is set to
/// a positive number (tests cut a small input into many blocks with it, so that the page's
/// reading of blocks is tested on the inputs whose rows they check).
pub fn block_bytes() -> usize {
    (std::env::var("DOPOL_VIEW_BLOCK_BYTES").ok())
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or(BLOCK_BYTES)
}

/// A member of the embedded document, and how it is cut.
pub enum Part<'a> {
    /// One JSON value, read whole.
    Whole(&'a dyn Json),
    /// An array, cut between items, whose blocks the page reads when it needs their items.
    Items(&'a dyn Items),
}

/// A value written as JSON.
pub trait Json {
    /// Appends the value's JSON to `out`.
    fn write(&self, out: &mut Vec<u8>) -> io::Result<()>;
}

impl<T: Serialize> Json for T {
    fn write(&self, out: &mut Vec<u8>) -> io::Result<()> {
        serde_json::to_writer(out, self).map_err(io::Error::other)
    }
}

/// An array written item by item.
pub trait Items {
    /// How many items it has.
    fn count(&self) -> usize;
    /// Appends item `i`'s JSON to `out`.
    fn write_item(&self, i: usize, out: &mut Vec<u8>) -> io::Result<()>;
}

impl<T: Serialize> Items for Vec<T> {
    fn count(&self) -> usize {
        self.len()
    }
    fn write_item(&self, i: usize, out: &mut Vec<u8>) -> io::Result<()> {
        self[i].write(out)
    }
}

/// An array of `.0` items, item `i` written by `.1`.
pub struct ByNumber<F>(pub usize, pub F);

impl<F: Fn(usize, &mut Vec<u8>) -> io::Result<()>> Items for ByNumber<F> {
    fn count(&self) -> usize {
        self.0
    }
    fn write_item(&self, i: usize, out: &mut Vec<u8>) -> io::Result<()> {
        (self.1)(i, out)
    }
}

/// Where a part's blocks are: its first line and, for an array, each block's first item.
#[derive(Serialize)]
struct Placed {
    first: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    starts: Option<Vec<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<usize>,
}

/// The lines of the data block: the index, then every part's blocks, each compressed and in
/// base64. Blocks are compressed in parallel, a few at a time as they are cut, so no more
/// than those few are ever held as JSON (on a big input, the JSON is ten times the page).
pub fn lines(head: &serde_json::Value, parts: &[(&str, Part<'_>)]) -> io::Result<Vec<String>> {
    lines_cut(head, parts, block_bytes())
}

/// [`lines`], with blocks of about `block` bytes of JSON.
pub fn lines_cut(
    head: &serde_json::Value,
    parts: &[(&str, Part<'_>)],
    block: usize,
) -> io::Result<Vec<String>> {
    let mut blocks = Blocks {
        lines: vec![String::new()],
        pending: Vec::new(),
    };
    let mut index = serde_json::Map::new();
    for (name, part) in parts {
        let first = blocks.lines.len() + blocks.pending.len();
        let placed = match part {
            Part::Whole(value) => {
                let mut json = Vec::new();
                value.write(&mut json)?;
                blocks.push(json);
                Placed {
                    first,
                    starts: None,
                    count: None,
                }
            }
            Part::Items(items) => {
                let starts = cut(*items, block, &mut blocks)?;
                let count = Some(items.count());
                Placed {
                    first,
                    starts: Some(starts),
                    count,
                }
            }
        };
        index.insert(name.to_string(), serde_json::to_value(placed)?);
    }
    blocks.flush();
    let mut head = head.clone();
    head["parts"] = serde_json::Value::Object(index);
    blocks.lines[0] = base64(&compress(&serde_json::to_vec(&head)?));
    Ok(blocks.lines)
}

/// How many blocks are cut before they are compressed (together, in parallel).
const BATCH: usize = 16;

/// The lines written so far, and the blocks cut but not compressed yet.
struct Blocks {
    lines: Vec<String>,
    pending: Vec<Vec<u8>>,
}

impl Blocks {
    /// Adds a block of JSON.
    fn push(&mut self, json: Vec<u8>) {
        self.pending.push(json);
        if self.pending.len() >= BATCH {
            self.flush();
        }
    }

    /// Compresses the pending blocks into lines.
    fn flush(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        let lines: Vec<String> = pending
            .par_iter()
            .map(|json| base64(&compress(json)))
            .collect();
        self.lines.extend(lines);
    }
}

/// Cuts `items` into blocks of about `block` bytes (each a JSON array); the first item of
/// each block. An empty array is one empty block.
fn cut(items: &dyn Items, block: usize, blocks: &mut Blocks) -> io::Result<Vec<usize>> {
    let mut starts = vec![0];
    let mut json = vec![b'['];
    for i in 0..items.count() {
        if json.len() >= block {
            json.push(b']');
            blocks.push(std::mem::replace(&mut json, vec![b'[']));
            starts.push(i);
        }
        if json.len() > 1 {
            json.push(b',');
        }
        items.write_item(i, &mut json)?;
    }
    json.push(b']');
    blocks.push(json);
    Ok(starts)
}

/// zlib-compressed `bytes`. Level 3: on the benchmark corpus's JSON, level 6 made the file
/// a few per cent smaller and took about twice as long.
fn compress(bytes: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(bytes, 3)
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding.
pub fn base64(bytes: &[u8]) -> String {
    let mut text = Vec::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n =
            (chunk.iter().enumerate()).fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            text.push(match i <= chunk.len() {
                true => ALPHABET[(n >> (18 - 6 * i) & 63) as usize],
                false => b'=',
            });
        }
    }
    String::from_utf8(text).unwrap_or_default()
}

/// The bytes of standard base64 text, or `None` when it is not that.
fn unbase64(text: &str) -> Option<Vec<u8>> {
    let text = text.as_bytes();
    if text.len() % 4 != 0 {
        return None;
    }
    let mut bytes = Vec::with_capacity(text.len() / 4 * 3);
    for chunk in text.chunks(4) {
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 {
            return None;
        }
        let mut n = 0u32;
        for &c in &chunk[..4 - pad] {
            n = n << 6 | ALPHABET.iter().position(|&a| a == c)? as u32;
        }
        n <<= 6 * pad as u32;
        bytes.extend_from_slice(&n.to_be_bytes()[1..4 - pad]);
    }
    Some(bytes)
}

/// The JSON of one line of the data block.
fn block(line: &str) -> Option<serde_json::Value> {
    let bytes = miniz_oxide::inflate::decompress_to_vec_zlib(&unbase64(line)?).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// The document a data block holds, put back together as the page does (every array part
/// whole): for tests and the fuzz target. `None` when the block is not one [`lines`] wrote.
pub fn read(data: &str) -> Option<serde_json::Value> {
    let lines: Vec<&str> = data.split('\n').collect();
    let mut document = block(lines.first()?)?;
    let parts = document.get_mut("parts")?.take();
    for (name, part) in parts.as_object()? {
        let first = part.get("first")?.as_u64()? as usize;
        let value = match part.get("starts") {
            None => block(lines.get(first)?)?,
            Some(starts) => {
                let blocks = starts.as_array()?.len();
                let mut items = Vec::new();
                for line in lines.get(first..first + blocks)? {
                    items.extend(block(line)?.as_array()?.iter().cloned());
                }
                serde_json::Value::Array(items)
            }
        };
        document[name.as_str()] = value;
    }
    document.as_object_mut()?.remove("parts");
    Some(document)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn base64_matches_the_standard_and_reads_back() {
        for (bytes, text) in [
            (&b""[..], ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(bytes), text);
            assert_eq!(unbase64(text).as_deref(), Some(bytes));
        }
        assert_eq!(unbase64("Zm9"), None);
        assert_eq!(unbase64("Zm9<"), None);
        assert_eq!(unbase64("===="), None);
    }

    #[test]
    fn parts_read_back_whole_and_cut_between_items() {
        let many: Vec<String> = (0..40_000).map(|i| format!("item {i} </script>")).collect();
        let small = json!({"a": [1, 2], "b": "<!--"});
        let empty: Vec<u32> = Vec::new();
        let head = json!({"apiVersion": "dopol/v1", "mode": "view"});
        let lines = lines_cut(
            &head,
            &[
                ("many", Part::Items(&many)),
                ("small", Part::Whole(&small)),
                ("empty", Part::Items(&empty)),
            ],
            BLOCK_BYTES,
        )
        .unwrap();
        assert!(lines.len() > 4, "{} lines: the array is cut", lines.len());
        let text = lines.join("\n");
        assert!(
            text.bytes()
                .all(|b| ALPHABET.contains(&b) || b == b'=' || b == b'\n')
        );
        let back = read(&text).unwrap();
        assert_eq!(back["many"], json!(many));
        assert_eq!(back["small"], small);
        assert_eq!(back["empty"], json!([]));
        assert_eq!(back["mode"], "view");
    }
}
