//! Envoy Gateway targets on a ListenerSet's listener (`kind: ListenerSet` with `sectionName`,
//! field-2026 §2.1–§2.2): the `S#L` slot.
//!
//! The topology resolves no ListenerSet target (it leaves them to the families), so the family
//! does, through its hierarchy hook ([`crate::topology::family::FamilyHierarchy::extra_attachments`]):
//! an `S#L` target of a ListenerSet its Gateway admitted attaches to that listener's element,
//! `Target::Listener(G, L)` with `L` the set listener's index in the merged list. A Gateway
//! `sectionName` never resolves to a set listener, so that element is the `S#L` slot alone, and
//! every rule of the family follows: first claim wins, precedence rule > route > `S#L` > `G`
//! (CTP `S#L` > `G`), the `mergeType` parent, the ancestor `{kind: ListenerSet, sectionName}`.
//! What the topology cannot hold is decided here from the input: a set not admitted by its
//! Gateway still resolves (Accepted on its ancestor, on no path; §2.2), a missing section is
//! TargetNotFound with Envoy Gateway's words, a set that does not exist or whose Gateway is not
//! in the input is silent. A whole-ListenerSet target (`S`) is not modelled yet (decode reports
//! it as an ignored target kind).

use crate::model::Model;
use crate::model::gateway::{GATEWAY_GROUP, ListenerSet};
use crate::policy::Policy;
use crate::source::Span;
use crate::topology::Target;
use crate::topology::family::{Attachment, Via};
use crate::topology::listener_sets::{SetRefError, SetTarget, resolve};
use crate::yaml::Node;

/// One `targetRef`/`targetRefs` entry naming a ListenerSet's listener.
#[derive(Clone, Debug)]
pub struct SetRef<'m> {
    /// Its number among the policy's ListenerSet listener targets (written order).
    pub index: usize,
    /// The ListenerSet's name (in the policy's namespace).
    pub name: &'m str,
    /// `sectionName`.
    pub section: &'m str,
    /// The whole entry.
    pub span: Span,
}

/// What a [`SetRef`] comes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetOutcome {
    /// The listener of a joined set: its element.
    Attached(Target),
    /// A listener of a set in the input whose Gateway is too but did not admit it (index into
    /// `Model::listener_sets`): Accepted, on no path.
    NotJoined(u32),
    /// A set in the input (whose Gateway is) without that listener: TargetNotFound.
    SectionNotFound(u32),
    /// No such set, or its Gateway is not in the input: silent.
    Silent,
}

/// The ListenerSet listener targets of `policy` (from its stored spec), in written order.
pub fn set_refs(policy: &Policy) -> Vec<SetRef<'_>> {
    let Some(spec) = policy.spec.as_deref() else {
        return Vec::new();
    };
    let single = spec.get("targetRef").into_iter();
    let many = spec.get("targetRefs").and_then(Node::as_seq).unwrap_or(&[]);
    single
        .chain(many.iter())
        .filter(|n| n.get("kind").and_then(Node::as_str) == Some("ListenerSet"))
        .filter(|n| {
            let group = n.get("group").and_then(Node::as_str);
            group.is_none_or(|g| g == GATEWAY_GROUP)
        })
        .filter_map(|n| {
            let name = n.get("name").and_then(Node::as_str)?;
            let section = n.get("sectionName").and_then(Node::as_str)?;
            Some((name, section, n.span))
        })
        .enumerate()
        .map(|(index, (name, section, span))| SetRef {
            index,
            name,
            section,
            span,
        })
        .collect()
}

/// What `target` of `policy` comes to.
pub fn outcome(model: &Model, policy: &Policy, target: &SetRef<'_>) -> SetOutcome {
    let namespace = policy.namespace.as_str();
    match resolve(
        model,
        namespace,
        "ListenerSet",
        target.name,
        Some(target.section),
    ) {
        Ok(SetTarget::Listener {
            gateway, listener, ..
        }) => SetOutcome::Attached(Target::Listener(gateway, listener)),
        Ok(SetTarget::Set { .. }) | Err(SetRefError::NotFound) => SetOutcome::Silent,
        Err(SetRefError::SectionNotFound(set)) => SetOutcome::SectionNotFound(set),
        Err(SetRefError::NotJoined(set)) => {
            let s = &model.listener_sets[set as usize];
            if !parent_present(model, s) {
                SetOutcome::Silent
            } else if s.listeners.iter().any(|l| l.name == target.section) {
                SetOutcome::NotJoined(set)
            } else {
                SetOutcome::SectionNotFound(set)
            }
        }
    }
}

/// Whether the Gateway `set` names is in the input (not one `--assume-gateways` made up).
fn parent_present(model: &Model, set: &ListenerSet) -> bool {
    set.parent.as_ref().is_some_and(|(ns, name)| {
        (model.gateways.iter()).any(|g| !g.assumed && &g.namespace == ns && &g.name == name)
    })
}

/// The `Via` of a ListenerSet listener target: numbered after the policy's generic targets,
/// so that no generic `targetRefs` index is taken.
pub fn via(policy: &Policy, target: &SetRef<'_>) -> Via {
    Via::TargetRef((policy.targets.len() + target.index) as u16)
}

/// The `S#L` attachments of the policies of `owns`'s kinds.
pub fn attachments(model: &Model, owns: impl Fn(&Policy) -> bool) -> Vec<Attachment> {
    let mut found = Vec::new();
    for (index, policy) in model.policies.iter().enumerate() {
        if !owns(policy) {
            continue;
        }
        for target in set_refs(policy) {
            if let SetOutcome::Attached(element) = outcome(model, policy, &target) {
                found.push(Attachment {
                    policy: index as u32,
                    target: element,
                    via: via(policy, &target),
                });
            }
        }
    }
    found
}

/// The span of the target reached through `via`, when it is a ListenerSet listener target.
pub fn span_of(policy: &Policy, via: Via) -> Option<Span> {
    let Via::TargetRef(i) = via else {
        return None;
    };
    let index = (i as usize).checked_sub(policy.targets.len())?;
    set_refs(policy).get(index).map(|t| t.span)
}
