//! Envoy Gateway targets on a ListenerSet (field-2026 §2.1–§2.2): on one of its listeners
//! (`kind: ListenerSet` with `sectionName`, the `S#L` slot) and on the whole set (without
//! `sectionName`, or picked by a `targetSelectors` entry of kind ListenerSet: the `S` slot).
//!
//! The topology resolves no ListenerSet target (it leaves them to the families), so the family
//! does, through its hierarchy hook ([`crate::topology::family::FamilyHierarchy::extra_attachments`]):
//! an `S#L` target of a ListenerSet its Gateway admitted attaches to that listener's element,
//! `Target::Listener(G, L)` with `L` the set listener's index in the merged list; an `S` target
//! attaches to every listener of the set. The element's list then holds the claimers of both
//! slots, told apart by how they reached it ([`is_whole`], read by [`super::slots`]). A Gateway
//! `sectionName` never resolves to a set listener (but for CTP's `G#x` quirk, [`quirk`]), and
//! every rule of the family follows: first claim wins, precedence rule > route > `S#L` > `S` >
//! `G` (CTP `S#L` > `S` > `G`), the `mergeType` parent, the ancestors `{kind: ListenerSet,
//! sectionName}` and `{kind: ListenerSet}`.
//! What the topology cannot hold is decided here from the input: a set not admitted by its
//! Gateway still resolves (Accepted on its ancestor, on no path; §2.2), a missing section is
//! TargetNotFound with Envoy Gateway's words, a set that does not exist or whose Gateway is not
//! in the input is silent.

use super::slots::Claim;
use crate::kinds::{NamespacesFrom, TargetSelector};
use crate::model::Model;
use crate::model::gateway::{GATEWAY_GROUP, ListenerSet};
use crate::policy::Policy;
use crate::source::Span;
use crate::topology::Target;
use crate::topology::family::{Attachment, Via};
use crate::topology::listener_sets::{SetRefError, SetTarget, resolve};
use crate::yaml::Node;

/// One `targetRef`/`targetRefs` entry naming a ListenerSet or one of its listeners.
#[derive(Clone, Debug)]
pub struct SetRef<'m> {
    /// Its number among the policy's ListenerSet targets (written order).
    pub index: usize,
    /// The ListenerSet's name (in the policy's namespace).
    pub name: &'m str,
    /// `sectionName`, `None` for the whole set.
    pub section: Option<&'m str>,
    /// The whole entry.
    pub span: Span,
}

/// What a [`SetRef`] comes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetOutcome {
    /// The listener of a joined set: its element.
    Attached(Target),
    /// A whole joined set (index into `Model::listener_sets`): each of its listeners.
    Whole(u32),
    /// A set in the input (or its listener) whose Gateway is too but did not admit it (index
    /// into `Model::listener_sets`): Accepted, on no path.
    NotJoined(u32),
    /// A set in the input (whose Gateway is) without that listener: TargetNotFound.
    SectionNotFound(u32),
    /// No such set, or its Gateway is not in the input: silent.
    Silent,
}

/// The ListenerSet targets of `policy` (from its stored spec), in written order.
pub fn set_refs(policy: &Policy) -> Vec<SetRef<'_>> {
    let Some(spec) = policy.spec.as_deref() else {
        return Vec::new();
    };
    set_refs_of(spec)
        .filter_map(|n| {
            let name = n.get("name").and_then(Node::as_str)?;
            let section = n.get("sectionName").and_then(Node::as_str);
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

/// The `targetRef`/`targetRefs` entries of kind ListenerSet (group `gateway.networking.k8s.io`)
/// of a stored spec, in written order.
pub fn set_refs_of(spec: &Node) -> impl Iterator<Item = &Node> {
    let single = spec.get("targetRef").into_iter();
    let many = spec.get("targetRefs").and_then(Node::as_seq).unwrap_or(&[]);
    single
        .chain(many.iter())
        .filter(|n| n.get("kind").and_then(Node::as_str) == Some("ListenerSet"))
        .filter(|n| {
            let group = n.get("group").and_then(Node::as_str);
            group.is_none_or(|g| g == GATEWAY_GROUP)
        })
}

/// What `target` of `policy` comes to.
pub fn outcome(model: &Model, policy: &Policy, target: &SetRef<'_>) -> SetOutcome {
    let namespace = policy.namespace.as_str();
    match resolve(model, namespace, "ListenerSet", target.name, target.section) {
        Ok(SetTarget::Listener {
            gateway, listener, ..
        }) => SetOutcome::Attached(Target::Listener(gateway, listener)),
        Ok(SetTarget::Set { set, .. }) => SetOutcome::Whole(set),
        Err(SetRefError::NotFound) => SetOutcome::Silent,
        Err(SetRefError::SectionNotFound(set)) => SetOutcome::SectionNotFound(set),
        Err(SetRefError::NotJoined(set)) => {
            let s = &model.listener_sets[set as usize];
            let has = |section: &str| s.listeners.iter().any(|l| l.name == section);
            if !parent_present(model, s) {
                SetOutcome::Silent
            } else if target.section.is_none_or(has) {
                SetOutcome::NotJoined(set)
            } else {
                SetOutcome::SectionNotFound(set)
            }
        }
    }
}

/// What a whole set a selector picked comes to: its listeners when joined, Accepted on no path
/// when its Gateway is in the input but did not admit it, silent otherwise.
pub fn selected_outcome(model: &Model, set: u32) -> SetOutcome {
    let s = &model.listener_sets[set as usize];
    match s.gateway {
        Some(_) => SetOutcome::Whole(set),
        None if parent_present(model, s) => SetOutcome::NotJoined(set),
        None => SetOutcome::Silent,
    }
}

/// The ListenerSets (v1) `policy`'s `targetSelectors` of kind ListenerSet pick, with the
/// selector's index, in selector order and then the sets' order in the input: labels as any
/// selector, namespaces as its `namespaces` says (field-2026 §2.6; another namespace only with
/// a ReferenceGrant).
pub fn selected(model: &Model, policy: &Policy) -> Vec<(usize, u32)> {
    matches(model, policy, Some(true))
}

/// The ListenerSets `policy`'s ListenerSet selectors match in another namespace that no
/// ReferenceGrant lets them reference (`selector-target-not-granted`), with the selector's index.
pub fn not_granted(model: &Model, policy: &Policy) -> Vec<(usize, u32)> {
    matches(model, policy, Some(false))
}

/// The `(selector, set)` label matches of `policy`'s ListenerSet selectors whose [`in_scope`] is
/// `scope`.
fn matches(model: &Model, policy: &Policy, scope: Option<bool>) -> Vec<(usize, u32)> {
    let mut found = Vec::new();
    if model.listener_sets.is_empty() {
        return found;
    }
    for (i, selector) in policy.selectors.iter().enumerate() {
        if selector.kind != "ListenerSet" || selector.group != GATEWAY_GROUP {
            continue;
        }
        for (index, set) in model.listener_sets.iter().enumerate() {
            if set.legacy || !selector.selects(&labels(model, set)) {
                continue;
            }
            if in_scope(model, policy, selector, set) == scope {
                found.push((i, index as u32));
            }
        }
    }
    found
}

/// The labels of ListenerSet `set`'s object.
fn labels(model: &Model, set: &ListenerSet) -> Vec<(String, String)> {
    (model.objects.iter())
        .find(|o| {
            &*o.kind == "ListenerSet"
                && &*o.group == GATEWAY_GROUP
                && o.namespace.as_deref() == Some(set.namespace.as_str())
                && &*o.name == set.name.as_str()
        })
        .map(crate::topology::targets::labels_of)
        .unwrap_or_default()
}

/// Whether `selector` of `policy` looks in `set`'s namespace (field-2026 §2.6; `None`: it does
/// not): the policy's own unless `namespaces` says otherwise; in another one the match counts
/// (`Some(true)`) only with a ReferenceGrant (`Some(false)` without).
fn in_scope(
    model: &Model,
    policy: &Policy,
    selector: &TargetSelector,
    set: &ListenerSet,
) -> Option<bool> {
    let here = set.namespace == policy.namespace.as_str();
    let Some(cross) = selector.cross_namespace.as_deref() else {
        return here.then_some(true);
    };
    let admitted = match &cross.from {
        NamespacesFrom::All => true,
        NamespacesFrom::Selector(labels, expressions) => model
            .namespace(&set.namespace)
            .is_some_and(|n| crate::kinds::label_selector_matches(labels, expressions, &n.labels)),
    };
    if !admitted || here {
        return admitted.then_some(true);
    }
    let from = (
        cross.grant_group,
        policy.kind.kind,
        ("namespace", policy.namespace.as_str()),
    );
    let to = (GATEWAY_GROUP, "ListenerSet", ("name", set.name.as_str()));
    Some(crate::model::grants::permitting(model, from, &set.namespace, to).is_some())
}

/// Whether the Gateway `set` names is in the input (not one `--assume-gateways` made up).
fn parent_present(model: &Model, set: &ListenerSet) -> bool {
    set.parent.as_ref().is_some_and(|(ns, name)| {
        (model.gateways.iter()).any(|g| !g.assumed && &g.namespace == ns && &g.name == name)
    })
}

/// The `Via` of a ListenerSet target: numbered after the policy's generic targets, so that no
/// generic `targetRefs` index is taken.
pub fn via(policy: &Policy, target: &SetRef<'_>) -> Via {
    Via::TargetRef((policy.targets.len() + target.index) as u16)
}

/// The `S#L` and `S` attachments of the policies of `owns`'s kinds (an `S` target on each
/// listener of its set), and the `G#x` quirk of those of the kinds `quirky` says (CTP).
pub fn attachments(
    model: &Model,
    owns: impl Fn(&Policy) -> bool,
    quirky: impl Fn(&Policy) -> bool,
) -> Vec<Attachment> {
    let mut found = Vec::new();
    if model.listener_sets.is_empty() {
        return found;
    }
    for (index, policy) in model.policies.iter().enumerate() {
        if !owns(policy) {
            continue;
        }
        if quirky(policy) {
            found.extend(
                quirks(model, policy)
                    .into_iter()
                    .map(|(i, target)| Attachment {
                        policy: index as u32,
                        target,
                        via: Via::TargetRef(i as u16),
                    }),
            );
        }
        let refs = set_refs(policy).into_iter();
        let by_ref = refs.map(|t| (outcome(model, policy, &t), via(policy, &t)));
        let by_selector = (selected(model, policy).into_iter())
            .map(|(i, set)| (selected_outcome(model, set), Via::Selector(i as u16)));
        for (outcome, via) in by_ref.chain(by_selector) {
            let elements = match outcome {
                SetOutcome::Attached(element) => vec![element],
                SetOutcome::Whole(set) => listeners_of(model, set),
                _ => continue,
            };
            found.extend(elements.into_iter().map(|target| Attachment {
                policy: index as u32,
                target,
                via,
            }));
        }
    }
    found
}

/// The listener elements of joined set `set`, in merged order.
pub fn listeners_of(model: &Model, set: u32) -> Vec<Target> {
    let Some(g) = model.listener_sets[set as usize].gateway else {
        return Vec::new();
    };
    (model.gateways[g as usize].listeners.iter().enumerate())
        .filter(|(_, l)| l.set == Some(set))
        .map(|(l, _)| Target::Listener(g, l as u32))
        .collect()
}

/// Which slot `policy` claims on a ListenerSet's listener it reached through `via`: the set's
/// (`S`, a whole-set target or selector), the listener's own (`S#L`), or — through a generic
/// Gateway target — CTP's `G#x` quirk ([`quirks`]).
pub fn claim_of(model: &Model, policy: u32, via: Via) -> Claim {
    let p = &model.policies[policy as usize];
    match via {
        Via::TargetRef(i) => match (i as usize).checked_sub(p.targets.len()) {
            None => Claim::GatewaySection,
            Some(index) => match set_refs(p).get(index).map(|t| t.section.is_none()) {
                Some(true) => Claim::Set,
                _ => Claim::Own,
            },
        },
        Via::Selector(i) => match p.selectors.get(i as usize) {
            Some(s) if s.kind == "ListenerSet" => Claim::Set,
            _ => Claim::Own,
        },
        Via::Extension(_) => Claim::Own,
    }
}

/// Whether `policy` reached a ListenerSet's listener through `via` as a whole-set target (`S`).
pub fn is_whole(model: &Model, policy: u32, via: Via) -> bool {
    claim_of(model, policy, via) == Claim::Set
}

/// CTP's `G#x` quirk [controller] (field-2026 §2.2, `eg/clienttrafficpolicy.go`): a
/// ClientTrafficPolicy's `targetRefs` entry naming Gateway `G` with a `sectionName` that none of
/// `G`'s own listeners has but a listener of one of its ListenerSets has: the controller looks
/// the name up in the merged list and takes the first such listener. Each as `(targetRefs
/// index, that listener's element)`.
pub fn quirks(model: &Model, policy: &Policy) -> Vec<(usize, Target)> {
    if model.listener_sets.is_empty() {
        return Vec::new();
    }
    (crate::topology::listener_sets::gateway_sections(model, policy).into_iter())
        .filter(|s| !s.own)
        .filter_map(|s| Some((s.index, Target::Listener(s.gateway, *s.in_sets.first()?))))
        .collect()
}

/// The span of the target reached through `via`, when it is a ListenerSet listener target.
pub fn span_of(policy: &Policy, via: Via) -> Option<Span> {
    let Via::TargetRef(i) = via else {
        return None;
    };
    let index = (i as usize).checked_sub(policy.targets.len())?;
    set_refs(policy).get(index).map(|t| t.span)
}

/// The whole sets `policy` targets that the controller resolves (joined, or not admitted by a
/// Gateway in the input), each with how: its `targetRefs` entries, then its selectors' matches.
pub fn whole_targets(model: &Model, policy: &Policy) -> Vec<(u32, Via)> {
    if model.listener_sets.is_empty() {
        return Vec::new();
    }
    let refs = set_refs(policy).into_iter().filter(|t| t.section.is_none());
    let by_ref = refs.map(|t| (outcome(model, policy, &t), via(policy, &t)));
    let by_selector = (selected(model, policy).into_iter())
        .map(|(i, set)| (selected_outcome(model, set), Via::Selector(i as u16)));
    by_ref
        .chain(by_selector)
        .filter_map(|(outcome, via)| match outcome {
            SetOutcome::Whole(set) | SetOutcome::NotJoined(set) => Some((set, via)),
            _ => None,
        })
        .collect()
}

/// The policies of `kind` that claim whole set `set`, in §1 order: the first holds the `S`
/// slot, the others are Conflicted there.
pub fn set_claims(model: &Model, set: u32, kind: &crate::policy::PolicyKind) -> Vec<u32> {
    let mut claims: Vec<Attachment> = (model.policies.iter().enumerate())
        .filter(|(_, p)| std::ptr::eq(p.kind, kind))
        .filter_map(|(i, p)| {
            let (_, via) = whole_targets(model, p).into_iter().find(|t| t.0 == set)?;
            // The common order reads the policy only; a set not joined has no element, so
            // any target stands in.
            let target = Target::Gateway(0);
            Some(Attachment {
                policy: i as u32,
                target,
                via,
            })
        })
        .collect();
    crate::topology::family::order_by_age(model, &mut claims);
    claims.into_iter().map(|a| a.policy).collect()
}

/// The (v1) ListenerSets whose `parentRef` names Gateway `g` (joined or not).
pub fn sets_of_gateway(model: &Model, g: u32) -> Vec<u32> {
    let gw = &model.gateways[g as usize];
    (model.listener_sets.iter().enumerate())
        .filter(|(_, s)| {
            !s.legacy
                && (s.parent.as_ref())
                    .is_some_and(|(ns, name)| *ns == gw.namespace && *name == gw.name)
        })
        .map(|(i, _)| i as u32)
        .collect()
}
