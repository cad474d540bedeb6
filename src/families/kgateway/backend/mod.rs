//! kgateway's BackendConfigPolicy (`gateway.kgateway.dev/v1alpha1`, docs/families.md §2.10):
//! settings of the Envoy cluster of a backend — a Service, a kgateway `Backend`, an istio
//! `Hostname` — a family with a hierarchy of its own.
//!
//! Its items are keyed by backend, not by Gateway API path: kgateway writes one cluster per
//! backend, shared by every route that sends to it, so the effective value cannot differ per
//! route. The family hands the reports one owned path per backend a policy targets
//! (`engine::owned`), whose id is the subject id `<Kind>[.<group>]:<ns>/<name>`. The modules:
//!
//! - [`family`]: the kinds (BackendConfigPolicy, and BackendTLSPolicy, read only for the `tls` it
//!   replaces), decoding;
//! - [`subjects`]: a policy's targets as subjects, and their ids;
//! - [`evaluate`]: the order, the merge (AugmentedShallow per top-level field, `dns` per
//!   sub-field), BackendTLSPolicy removing `tls`, the owned paths;
//! - [`status`], [`checks`], [`diags`]: the controller's status, lint.

mod checks;
pub mod diags;
mod evaluate;
mod family;
mod status;
pub mod subjects;

pub use family::BackendConfigPolicies;
