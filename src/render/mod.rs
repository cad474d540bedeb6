//! Rendering: report data → text (tables, YAML, JSON) and diagnostics → text.
//!
//! Machine formats print only the document. Tables are meant for people and may change; JSON
//! follows the contracts of docs/json.md.

pub mod diagnostics;
pub mod diff;
pub mod effective;
pub mod effective_json;
pub mod json;
pub mod lint;
pub mod observability;
pub mod request;
pub mod snippet;
pub mod status_json;
pub mod suite;
pub mod table;
pub mod topology;
pub mod value;
pub mod view;

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
