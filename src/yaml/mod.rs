//! YAML reading: a spanned, JSON-compatible tree built from parser events.
//!
//! See [`parse`] for how files are cut into documents and parsed, `fast` for the scanner that
//! reads the common block style without the general parser, [`scalar`] for how plain scalars
//! are typed (the Kubernetes YAML 1.1 table), and [`node`] for the tree itself.

mod fast;
pub mod node;
pub mod parse;
pub mod scalar;

pub use node::{Entry, Key, Node, Value};
pub use parse::{Document, intern, parse_chunk, scalar_source_span, split_documents};
