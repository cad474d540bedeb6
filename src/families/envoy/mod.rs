//! Envoy Gateway (`gateway.envoyproxy.io/v1alpha1`): the merge model of docs/families.md §3.
//!
//! Envoy Gateway does not merge policies down a hierarchy. Each target (a Gateway, a listener,
//! a route, a route rule) is a *slot* one policy of a kind can hold — the oldest; later ones are
//! Conflicted there — and a path takes the policy of its most specific held slot as a whole.
//! Only a route policy with `mergeType` combines with its parent (the listener's or Gateway's
//! policy), as a JSON merge patch or a strategic merge patch. The modules:
//!
//! - [`spec`]: what distinguishes one kind from another, as data ([`EnvoyKindSpec`]) — the
//!   built-in kinds and kinds declared in a families file are instances of it;
//! - [`decode`]: the CRD shape rules, unmodelled targets, pruned `null`s, rule keys (§3.1);
//! - [`slots`]: slot holders, the winner of a path and its merge parent (§3.2–3.4);
//! - [`merge`]: JSONMerge and StrategicMerge as pure functions (§3.4);
//! - [`evaluate`], [`status`] (with [`overrides`]: the Merged and Overridden wording),
//!   [`explain`], [`checks`]: the evaluator — effective policies and rule outcomes, per-ancestor
//!   status with the controller's messages (§3.5), `explain`, and the family's lint checks
//!   (§3.6);
//! - [`order`]: the order the controller processes a policy's targets in, which is the order
//!   of its status ancestors (field-2026 §2.5);
//! - [`ports`]: a ClientTrafficPolicy refused on a listener sharing a plain-HTTP port
//!   (field-2026 §2.2);
//! - [`sets`]: targets on a ListenerSet's listener (`S#L`, field-2026 §2.2);
//! - [`tcp`]: the fields a kind applies on a TCPRoute, and the Invalid route policy (§3.7).

mod checks;
pub mod decode;
pub mod diags;
mod evaluate;
mod explain;
mod family;
mod gate;
pub mod merge;
mod order;
mod overrides;
mod ports;
mod ratelimit;
mod sets;
pub mod slots;
pub mod spec;
mod status;
mod tcp;

pub use family::EnvoyGateway;
pub use merge::MergeType;
pub use spec::{EnvoyKindSpec, FieldMerge, ListenerStyle, RuleCut};

#[cfg(test)]
mod declared_tests;
#[cfg(test)]
mod merge_tests;
