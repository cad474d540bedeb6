//! Reports: the data behind each command's output, independent of the output format.
//!
//! Each report is a plain data structure built from the engine's results and serializable to
//! the JSON contracts of docs/json.md; the renderers in [`crate::render`] turn the same data into
//! tables and YAML.

pub mod diff;
pub mod diff_scope;
pub mod effective;
pub mod effective_index;
pub mod explain;
pub mod filter;
pub mod overridden;
pub mod path_fields;
pub mod reach;
pub mod request;
pub mod status;
pub mod topology;
pub mod uncovered;

/// The `apiVersion` of every machine-readable document dopol prints.
pub const API_VERSION: &str = "dopol/v1";

/// Serializes `{"apiVersion": "dopol/v1", "kind": KIND, "items": [...]}`.
pub fn list_document<S: serde::Serializer, T: serde::Serialize>(
    serializer: S,
    kind: &str,
    items: &[T],
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    let mut s = serializer.serialize_struct("List", 3)?;
    s.serialize_field("apiVersion", API_VERSION)?;
    s.serialize_field("kind", kind)?;
    s.serialize_field("items", items)?;
    s.end()
}
