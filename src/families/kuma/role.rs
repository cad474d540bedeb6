//! The policy role (§K4, ✓ `compute.go` ComputePolicyRole): `system`, `producer`, `consumer`
//! or `workload-owner`. It decides the namespace gate and ranks in the order (§K6 4).

use super::meta::{Context, Meta, POLICY_ROLE};
use crate::policy::Policy;
use crate::yaml::Node;

/// A policy role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    /// In the system namespace (or without namespace).
    System,
    /// Every `to[]` item names a MeshService or MeshHTTPRoute of its own namespace.
    Producer,
    /// `to[]` items naming other things.
    Consumer,
    /// `from`, or neither `to` nor `from`.
    WorkloadOwner,
}

impl Role {
    /// The label value.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::Producer => "producer",
            Role::Consumer => "consumer",
            Role::WorkloadOwner => "workload-owner",
        }
    }

    /// The role a label says (`None`, an absent label, counts as `system`); `None` for an
    /// unknown value.
    pub fn parse(label: Option<&str>) -> Option<Role> {
        match label {
            None | Some("system") => Some(Role::System),
            Some("producer") => Some(Role::Producer),
            Some("consumer") => Some(Role::Consumer),
            Some("workload-owner") => Some(Role::WorkloadOwner),
            Some(_) => None,
        }
    }

    /// Its rank in the order (§K6 4): system 1 < producer 2 < consumer 3 < workload-owner 4.
    pub fn rank(role: Option<Role>) -> u8 {
        match role {
            None => 0,
            Some(Role::System) => 1,
            Some(Role::Producer) => 2,
            Some(Role::Consumer) => 3,
            Some(Role::WorkloadOwner) => 4,
        }
    }
}

/// The role Kuma computes for a local policy in `namespace` with `spec`
/// ([`super::admission::role_of`], which also says when a spec mixes roles: such a policy is
/// refused on admission, and is read here as a consumer).
pub fn compute(namespace: &str, system_namespace: &str, spec: Option<&Node>) -> Role {
    let empty = Node::synthetic(crate::yaml::Value::Null);
    super::admission::role_of(namespace, spec.unwrap_or(&empty), system_namespace)
        .unwrap_or(Role::Consumer)
}

/// A policy's meta with the role label a local policy gets (it replaces a written one).
pub fn with_role(context: &Context<'_>, mut meta: Meta, policy: &Policy) -> Meta {
    if meta.local {
        let system = &context.settings.system_namespace;
        let role = compute(&meta.namespace, system, policy.spec.as_deref());
        meta.labels
            .insert(POLICY_ROLE.to_string(), role.as_str().to_string());
    }
    meta
}
