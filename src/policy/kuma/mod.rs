//! Kuma's targetRef policies (stub: the kuma family's own module replaces this file at merge).

pub mod admission;
pub mod settings;
