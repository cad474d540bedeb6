//! kgateway's ListenerPolicy (`gateway.kgateway.dev/v1alpha1`, docs/families.md §2.9): listener
//! and HTTP connection settings kgateway writes per Envoy listener (one per port), a family of
//! its own beside TrafficPolicy.
//!
//! It is not TrafficPolicy's family because nothing of TrafficPolicy's model applies: its values
//! are read per Envoy listener, not per route scope; which policies a key is read from depends on
//! the key (listener keys from whole-Gateway policies only, filter-chain keys from an HTTPS
//! listener's `sectionName` policies first, `clientCertificateValidation` from those only); a
//! `perPort` entry replaces `default` on its port; and it applies on every route kind's paths, so
//! its evaluator shares no fold between listeners. The modules:
//!
//! - [`family`]: the kind, decoding, attachment (Gateway targets, kgateway's order);
//! - [`keys`]: a spec cut into rule keys (`default` fields, `httpSettings.<field>`, and
//!   `perPort[<port>].<field>`) and each field's reading scope;
//! - [`fold`]: one listener's effective ListenerPolicy and every rule's outcome;
//! - [`evaluate`], [`status`], [`checks`], [`diags`]: the evaluator, the per-Envoy-listener
//!   status, lint.
//!
//! HTTPListenerPolicy, which ListenerPolicy replaces, is not modelled: its objects are read only
//! to say so (lint `httplistenerpolicy-deprecated`).

mod checks;
pub mod diags;
mod evaluate;
mod family;
pub mod fold;
pub mod keys;
mod status;

pub use family::ListenerPolicies;
