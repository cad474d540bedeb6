//! Reports: the data behind each command's output, independent of the output format.
//!
//! Each report is a plain data structure built from the engine's results and serializable to
//! the JSON contracts of SPEC §8; the renderers in [`crate::render`] turn the same data into
//! tables and YAML.

pub mod effective;
pub mod filter;

/// The `apiVersion` of every machine-readable document dopol prints.
pub const API_VERSION: &str = "dopol/v1";
