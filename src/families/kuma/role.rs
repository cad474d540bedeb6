//! The policy role (§K4, ✓ `compute.go` ComputePolicyRole): `system`, `producer`, `consumer`
//! or `workload-owner`. It decides the namespace gate and ranks in the order (§K6 4).

use super::meta::{Context, Meta, POLICY_ROLE};
use super::spec::View;
use crate::policy::Policy;

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

/// The role Kuma computes for a policy in `namespace` with sections `view`.
pub fn compute(namespace: &str, system_namespace: &str, view: &View) -> Role {
    if namespace.is_empty() || namespace == system_namespace {
        return Role::System;
    }
    let Some(to) = view.to.as_ref().filter(|_| view.from.is_none()) else {
        return Role::WorkloadOwner;
    };
    let producer = |item: &super::spec::Item| {
        let t = &item.target;
        matches!(t.kind.as_str(), "MeshService" | "MeshHTTPRoute")
            && t.name.is_some()
            && t.namespace.as_deref().is_none_or(|ns| ns == namespace)
    };
    if !to.is_empty() && to.iter().all(producer) {
        Role::Producer
    } else {
        Role::Consumer
    }
}

/// A policy's meta with the role label a local policy gets (it replaces a written one).
pub fn with_role(context: &Context<'_>, mut meta: Meta, policy: &Policy) -> Meta {
    if meta.local {
        let view = policy.spec.as_deref().map(View::read).unwrap_or_default();
        let role = compute(&meta.namespace, &context.settings.system_namespace, &view);
        meta.labels
            .insert(POLICY_ROLE.to_string(), role.as_str().to_string());
    }
    meta
}
