//! The checks that exist only for `lint` and belong to no family (listeners, ListenerSets,
//! ordering, suppression), one module per theme, each with its codes and their documentation. A family's
//! own checks (outcomes, granularity, ...) live in its folder and run through
//! `Evaluator::lint`. The other codes are declared where they are reported: loading, CRD
//! validation, the model, the hierarchy and each family's folder; `cli::catalogue` collects them
//! all.

pub mod controller;
pub mod effect;
pub mod listener_sets;
pub mod listeners;
pub mod ordering;
pub mod suppression;
