//! Validation against the CRDs, as the Kubernetes API server does it on create.

pub mod cel;
pub mod schema;
