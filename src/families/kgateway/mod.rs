//! kgateway TrafficPolicy (`gateway.kgateway.dev/v1alpha1`): the merge model of docs/families.md §2.
//!
//! kgateway does not merge policies the Kuadrant way (defaults and overrides over one hierarchy).
//! It installs TrafficPolicies at three Envoy levels — route, virtual host (listener), route
//! configuration (Gateway) — merges the policies of each level field by field with one of four
//! strategies, and then lets Envoy resolve the three levels, each field its own way. This module
//! holds that model as pure functions over rule values, so that the engine only has to feed it
//! policies in priority order:
//!
//! - [`keys`]: a policy's `spec` cut into rule keys (§2.1);
//! - [`strategy`]: the four strategies, the inheritance annotation and `--kgateway-policy-merge`
//!   (§2.3, §2.4);
//! - [`merge`]: one merge step between an accumulated and an incoming value (§2.4);
//! - [`scopes`]: the route, listener and Gateway values of one key combined as Envoy does (§2.5
//!   step 3).
//!
//! - [`family`], [`evaluate`], [`status`], [`checks`]: the family itself — decoding and
//!   attachment, a path's effective policy from its levels, the per-ancestor status, and its
//!   own lint checks.
//!
//! Values carry the policies that contributed to them ([`Contribution`]), so that `explain`,
//! rule outcomes and status can say who won and who was merged in. Controller quirks the contract
//! marks "\[controller\]" are reproduced on purpose and say so where they are implemented.

mod annotations;
pub mod backend;
mod chain_checks;
mod checks;
pub mod contribution;
mod deep;
pub mod delegation;
mod delegation_diags;
pub mod diags;
mod evaluate;
mod explain;
mod family;
mod gate;
mod isolation;
pub mod keys;
pub mod listener;
pub mod merge;
pub mod scopes;
pub mod settings;
mod status;
pub mod strategy;

pub use contribution::{Contribution, ProviderId, is_set};
pub use family::{FieldRules, Kgateway, PlainFields};
pub use keys::rule_keys;
pub use merge::{AclConflict, How, ProviderKey, Side, Step, step};
pub use scopes::{Combined, Direction, Scope, ScopeNote, combine_scopes};
pub use strategy::{MergeSettings, Strategy};

#[cfg(test)]
mod merge_tests;
#[cfg(test)]
mod scopes_tests;

#[cfg(test)]
pub(crate) mod testing {
    //! Test helpers: nodes from YAML text, contributions from one policy.

    use super::Contribution;
    use crate::source::SourceId;
    use crate::yaml::{Node, Value, parse_chunk};

    /// Parses a YAML (or JSON) document (`null` for a null document, which has no root).
    pub fn yaml(text: &str) -> Node {
        let mut diagnostics = Vec::new();
        let documents = parse_chunk(SourceId(0), text, 0..text.len(), &mut diagnostics);
        assert!(diagnostics.is_empty(), "{text}: {diagnostics:?}");
        documents
            .into_iter()
            .next()
            .map_or(Node::synthetic(Value::Null), |d| d.root)
    }

    /// Policy `policy` of namespace `ns` with value `text`.
    pub fn whole(text: &str, policy: u32) -> Contribution {
        Contribution::whole(yaml(text), policy, "ns")
    }

    /// The value as compact JSON, for exact comparisons.
    pub fn json(contribution: &Contribution) -> String {
        contribution.value.to_json().to_string()
    }

    /// The value's JSON and the origins.
    pub fn shown(contribution: Option<&Contribution>) -> Option<(String, Vec<u32>)> {
        contribution.map(|c| (json(c), c.origins.clone()))
    }

    /// Compact JSON of a YAML text (to write expected values readably).
    pub fn j(text: &str) -> String {
        yaml(text).to_json().to_string()
    }
}
