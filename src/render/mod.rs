//! Rendering: report data → text (tables, YAML, JSON) and diagnostics → text.
//!
//! Machine formats print only the document. Tables are meant for people and may change; JSON
//! follows the contracts of docs/json.md.

pub mod diagnostics;
pub mod diff;
pub mod effective;
pub mod effective_json;
pub mod lint;
pub mod observability;
pub mod request;
pub mod snippet;
pub mod table;
pub mod topology;
pub mod value;

use rayon::prelude::*;
use serde::Serialize;
use std::io::{self, Write};

/// Bytes gathered before a write goes through `dyn Write`: serializers write token by token,
/// and a dynamic call per token costs a tenth of a big report's time.
const LOCAL_BUFFER: usize = 1 << 16;

/// Writes a document as pretty JSON followed by a newline.
pub fn write_json<T: Serialize>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(LOCAL_BUFFER, out);
    serde_json::to_writer_pretty(&mut out, value).map_err(io::Error::other)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// Writes a document as YAML as it is produced; a write error (a closed pipe) keeps its kind.
pub fn write_yaml<T: Serialize>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(LOCAL_BUFFER, out);
    serde_saphyr::to_io_writer(&mut out, value).map_err(|e| match e {
        serde_saphyr::SerializeError::IO { error } => error,
        other => io::Error::other(other),
    })?;
    out.flush()
}

/// Items rendered per parallel batch (bounds the memory held before writing).
const BATCH_ITEMS: usize = 16_384;

/// Writes `{"apiVersion": "dopol/v1", "kind": KIND, "items": [...]}` as pretty JSON, byte for
/// byte what `serde_json::to_writer_pretty` prints for such a struct, rendering items in
/// parallel: big reports (hundreds of MB) are bound by JSON formatting otherwise.
pub fn write_json_list<T: Serialize + Sync>(
    out: &mut dyn Write,
    kind: &str,
    items: &[T],
) -> io::Result<()> {
    let quoted = |s: &str| serde_json::to_string(s).map_err(io::Error::other);
    write!(
        out,
        "{{\n  \"apiVersion\": {},\n  \"kind\": {},\n  \"items\": ",
        quoted(crate::report::API_VERSION)?,
        quoted(kind)?
    )?;
    if items.is_empty() {
        return out.write_all(b"[]\n}\n");
    }
    out.write_all(b"[\n")?;
    for (batch_index, batch) in items.chunks(BATCH_ITEMS).enumerate() {
        let rendered: Vec<io::Result<Vec<u8>>> = batch
            .par_chunks(256)
            .map(|chunk| {
                let mut buffer = Vec::with_capacity(chunk.len() * 512);
                let mut item = Vec::with_capacity(1024);
                for value in chunk {
                    item.clear();
                    serde_json::to_writer_pretty(&mut item, value).map_err(io::Error::other)?;
                    buffer.extend_from_slice(b"    ");
                    for &byte in &item {
                        buffer.push(byte);
                        if byte == b'\n' {
                            buffer.extend_from_slice(b"    ");
                        }
                    }
                    buffer.extend_from_slice(b",\n");
                }
                Ok(buffer)
            })
            .collect();
        for (chunk_index, chunk) in rendered.into_iter().enumerate() {
            let mut chunk = chunk?;
            let last = (batch_index + 1) * BATCH_ITEMS >= items.len()
                && chunk_index == batch.len().div_ceil(256) - 1;
            if last {
                chunk.truncate(chunk.len() - 2);
                chunk.push(b'\n');
            }
            out.write_all(&chunk)?;
        }
    }
    out.write_all(b"  ]\n}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Doc<'a> {
        #[serde(rename = "apiVersion")]
        api_version: &'a str,
        kind: &'a str,
        items: &'a [serde_json::Value],
    }

    #[test]
    fn parallel_list_rendering_matches_serde_json_pretty() {
        for count in [0, 1, 2, 255, 256, 257, 600, BATCH_ITEMS + 3] {
            let items: Vec<serde_json::Value> = (0..count)
                .map(|i| serde_json::json!({"i": i, "nested": {"list": [1, {"s": "a\nb"}], "empty": {}}, "e": []}))
                .collect();
            let expected = serde_json::to_string_pretty(&Doc {
                api_version: "dopol/v1",
                kind: "Test",
                items: &items,
            })
            .unwrap()
                + "\n";
            let mut got = Vec::new();
            write_json_list(&mut got, "Test", &items).unwrap();
            assert_eq!(String::from_utf8(got).unwrap(), expected, "{count} items");
        }
    }
}
