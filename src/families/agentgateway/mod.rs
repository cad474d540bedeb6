//! agentgateway's `AgentgatewayPolicy` (`agentgateway.dev/v1alpha1`): the defaults-and-overrides
//! family of docs/families.md §5.
//!
//! A policy has three sections — `frontend`, `traffic` (or `preRouting` with
//! `traffic.phase: PreRouting`), `backend` — each its own precedence ladder and merge: values
//! are whole top-level fields (field-level, atomic), `traffic` folds least specific first with
//! `strategy.inheritance: Override` locking the keys it sets, the other sections take the most
//! specific value, authorization keys combine over every level, and values at one level are in
//! an order the controller leaves arbitrary (dopol picks and lints). The modules:
//!
//! - [`family`]: the kind, decoding (targets dopol has no level for left out with an info),
//!   attachment;
//! - [`keys`]: a spec cut into rule keys and the sections, union keys and conditional lists;
//! - [`ladder`]: a path's rungs (Gateway, port, ListenerSet, its listener, listener, route,
//!   rule), and [`leaks`]: the Gateway listener reaching ListenerSet listeners \[controller\];
//! - [`fold`]: the effective policy and every rule's outcome, as a pure function of a ladder;
//! - [`evaluate`], [`status`], [`explain`], [`checks`]: the evaluator, the controller's status
//!   (Attached only, the `StatusSummary` pseudo-ancestor), `explain`, and the lint checks of
//!   [`diags`].
//!
//! Not modelled (docs/families.md): backend levels (Service,
//! InferencePool, AgentgatewayBackend), CEL conditions (a conditional list is one value).

mod checks;
pub mod diags;
mod evaluate;
mod explain;
mod family;
pub mod fold;
pub mod keys;
pub mod ladder;
mod leaks;
mod status;

pub use family::Agentgateway;

#[cfg(test)]
mod tests;
