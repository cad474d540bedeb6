//! The checks that exist only for `lint` (outcomes, ordering, granularity, suppression), one
//! module per theme, each with its codes and their documentation. The other codes are declared
//! where they are reported: loading, CRD validation, the model, the hierarchy and each family's
//! folder; `lint::catalogue` collects them all.

pub mod granularity;
pub mod listeners;
pub mod ordering;
pub mod outcomes;
pub mod suppression;
