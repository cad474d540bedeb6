//! YAML reading: a spanned, JSON-compatible tree built from parser events.
//!
//! See [`parse`] for how files are cut into documents and parsed, [`list`] for how a `List`
//! document is cut at its items, `fast` for the scanner that
//! reads the common block style without the general parser, [`scalar`] for how plain scalars
//! are typed (the Kubernetes YAML 1.1 table), [`node`] for the tree itself and [`shared`] for its one-word
//! collections and strings.

pub mod diags;
mod fast;
pub mod list;
pub mod node;
pub mod parse;
pub mod scalar;
pub mod shared;

pub use fast::compare_with_parser as compare_fast_path_with_parser;
/// The fast path's events of one document (`None`: it goes to the parser), for the
/// `yaml_stages` example, which times the scanner apart from the tree built from its events.
pub use fast::events as fast_path_events;
pub use list::{ListLayout, list_layout};
pub use node::{Entry, Key, Node, Value};
pub use parse::{
    Document, MAX_DOCUMENT_NODES, Part, intern, parse_chunk, parse_part, scalar_source_span,
    split_documents,
};
pub use shared::{Shared, SharedStr};
