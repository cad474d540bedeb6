//! Envoy Gateway status (docs/families.md §3.5): per ancestor Gateway (and listener) the conditions the
//! controller writes — Accepted (or Conflicted / TargetNotFound), Merged, Overridden — with its
//! exact messages, and the top-level conditions taken from them.
//!
//! Ancestors are listed in the order the controller inserts them (field-2026 §2.5): the policy's
//! targets are walked as [`super::order`] says, and a route policy's per-listener `Merged`
//! ancestors come before its parentRef ancestors, as `processBackendTrafficPolicyForRoute` and
//! its twins set them. Several targets of one policy on one ancestor: Accepted is True when any
//! of them is accepted there, else the first failure; Merged and Overridden keep the first
//! message.

use super::evaluate::EnvoyEvaluator;
use super::order::{Step, steps};
use super::slots::{Slot, conflict_message, holder, why_first};
use super::spec::ListenerStyle;
use crate::engine::observed::Observed;
use crate::model::gateway::GATEWAY_GROUP;
use crate::policy::{AncestorRef, AncestorStatus, Condition, ConflictNote, PolicyConditions};
use crate::topology::Target;

/// An ancestor: its kind (`Gateway`, or `ListenerSet` for a route attached through one and for
/// a merge context on a ListenerSet listener, field-2026 §2.5), namespace, name, section.
type Key = (&'static str, String, String, Option<String>);

/// What one ancestor has gathered so far.
#[derive(Default)]
struct Gathered {
    accepted: Option<Condition>,
    merged: Option<Condition>,
    overridden: Option<Condition>,
    conflicts: Vec<ConflictNote>,
}

/// The ancestors gathered so far, in insertion order (a policy has few: a linear look-up).
#[derive(Default)]
struct Ancestors(Vec<(Key, Gathered)>);

impl Ancestors {
    /// The entry of `key`, appended when it is new.
    fn entry(&mut self, key: Key) -> &mut Gathered {
        let at = match self.0.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                self.0.push((key, Gathered::default()));
                self.0.len() - 1
            }
        };
        &mut self.0[at].1
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn values(&self) -> impl Iterator<Item = &Gathered> {
        self.0.iter().map(|(_, g)| g)
    }
}

fn accepted() -> Condition {
    Condition::new("Accepted", "True", "Accepted", "Policy has been accepted.")
}

/// The status of `policy`.
pub fn conditions(
    evaluator: &EnvoyEvaluator<'_>,
    _observed: &Observed<'_, '_>,
    policy: u32,
) -> PolicyConditions {
    let model = evaluator.model;
    let p = &model.policies[policy as usize];
    let mut gathered = Ancestors::default();
    let targets = &evaluator.topology.targets.of_policy[policy as usize];
    let mut missing = missing_sections(evaluator, p);
    let (set_missing, unjoined) = set_targets(evaluator, p);
    missing.extend(set_missing);
    let indexes: Vec<(usize, u8)> = missing.iter().map(|m| (m.0, m.1)).collect();
    let unjoined_indexes: Vec<usize> = unjoined.iter().map(|u| u.0).collect();
    for step in steps(evaluator, policy, &indexes, &unjoined_indexes) {
        match step {
            Step::Resolved(target) => {
                if matches!(target, Target::Route(_) | Target::RouteRule(..)) {
                    merged_contexts(evaluator, policy, target, &mut gathered);
                }
                target_status(evaluator, policy, Slot::At(target), &mut gathered);
            }
            Step::Set(set) => target_status(evaluator, policy, Slot::Set(set), &mut gathered),
            Step::GatewaySection(target) => target_status(
                evaluator,
                policy,
                Slot::GatewaySection(target),
                &mut gathered,
            ),
            Step::MissingSection(index) => {
                if let Some((_, _, keys, message)) = missing.iter().find(|m| m.0 == index) {
                    not_found(keys, message, &mut gathered);
                }
            }
            Step::NotJoined(index) => {
                if let Some((_, key)) = unjoined.iter().find(|u| u.0 == index) {
                    let entry = gathered.entry(key.clone());
                    entry.accepted = Some(accepted());
                }
            }
        }
    }
    if gathered.is_empty() {
        return without_ancestors(evaluator, policy, !targets.is_empty());
    }
    PolicyConditions {
        conditions: top_level(&gathered),
        ancestors: Some(gathered.0.into_iter().map(ancestor).collect()),
    }
}

/// The status of a policy that gathered no ancestor: Accepted when its targets resolved (on
/// routes without a Gateway parentRef: the controller writes no ancestor, the policy is not
/// rejected), else TargetNotFound (docs/families.md §1, Unresolved policies).
fn without_ancestors(
    evaluator: &EnvoyEvaluator<'_>,
    policy: u32,
    resolved: bool,
) -> PolicyConditions {
    let p = &evaluator.model.policies[policy as usize];
    let condition = if resolved {
        accepted()
    } else {
        let message = (evaluator.topology.targets.not_accepted[policy as usize].clone())
            .or_else(|| missing_set(evaluator, p))
            .unwrap_or_else(|| format!("{} has no targets", p.kind.kind));
        Condition::new("Accepted", "False", "TargetNotFound", message)
    };
    PolicyConditions {
        conditions: vec![condition],
        ancestors: Some(Vec::new()),
    }
}

/// `<Kind> target <set>[#<section>] was not found` for the first ListenerSet target of `p` naming
/// no ListenerSet whose Gateway is in the input (docs/families.md §1, Unresolved policies).
fn missing_set(evaluator: &EnvoyEvaluator<'_>, p: &crate::policy::Policy) -> Option<String> {
    use super::sets::{SetOutcome, outcome, set_refs};
    let target =
        (set_refs(p).into_iter()).find(|t| outcome(evaluator.model, p, t) == SetOutcome::Silent)?;
    let named = match target.section {
        Some(section) => format!("{}#{section}", target.name),
        None => target.name.to_string(),
    };
    Some(format!("{} target {named} was not found", p.kind.kind))
}

/// One ancestor's status, conditions in the order Accepted, Merged, Overridden.
fn ancestor(((kind, namespace, name, section_name), entry): (Key, Gathered)) -> AncestorStatus {
    AncestorStatus {
        ancestor_ref: AncestorRef {
            group: GATEWAY_GROUP,
            kind,
            namespace,
            name,
            section_name,
        },
        conditions: [entry.accepted, entry.merged, entry.overridden]
            .into_iter()
            .flatten()
            .collect(),
        conflicted_by: entry.conflicts,
    }
}

/// `Merged with policy <parent>` on the Gateway + listener of every context where `policy`
/// merged into a parent through its route or rule slot `slot`, in path order.
fn merged_contexts(
    evaluator: &EnvoyEvaluator<'_>,
    policy: u32,
    slot: Target,
    gathered: &mut Ancestors,
) {
    let model = evaluator.model;
    let records = evaluator.merges().iter();
    for record in records.filter(|r| r.winner == policy && r.slot == Slot::At(slot)) {
        let path = &evaluator.topology.paths[record.path as usize];
        let key = listener_key(evaluator, path.gateway, path.listener);
        let parent = &model.policies[record.parent as usize];
        gathered.entry(key).merged.get_or_insert_with(|| {
            let message = format!("Merged with policy {}", parent.namespaced_name());
            Condition::new("Merged", "True", "Merged", message)
        });
    }
}

/// Accepted True when any ancestor accepts, else the first ancestor's; Merged and Overridden
/// from the first ancestor that has them, in the order the ancestors are listed (field-2026
/// §6 q4: the summary follows the first ancestor a reader sees).
fn top_level(gathered: &Ancestors) -> Vec<Condition> {
    let any = gathered
        .values()
        .filter_map(|s| s.accepted.as_ref())
        .find(|c| c.status == "True");
    let first = gathered.values().find_map(|s| s.accepted.clone());
    let merged = gathered.values().find_map(|s| s.merged.clone());
    let overridden = gathered.values().find_map(|s| s.overridden.clone());
    [any.cloned().or(first), merged, overridden]
        .into_iter()
        .flatten()
        .collect()
}

/// The ancestor of listener `l` of Gateway `g`: the Gateway with the listener's name, or, for a
/// listener of a ListenerSet, the ListenerSet with it (`getAncestorRefForListenerSetPolicy`).
fn listener_key(evaluator: &EnvoyEvaluator<'_>, g: u32, l: u32) -> Key {
    let model = evaluator.model;
    let gw = &model.gateways[g as usize];
    let listener = &gw.listeners[l as usize];
    let section = Some(listener.name.clone());
    match listener.set.map(|s| &model.listener_sets[s as usize]) {
        Some(set) => (
            "ListenerSet",
            set.namespace.clone(),
            set.name.clone(),
            section,
        ),
        None => ("Gateway", gw.namespace.clone(), gw.name.clone(), section),
    }
}

/// The ancestors of a slot: the Gateway (and listener), the ListenerSet (and listener), or for a
/// route each Gateway or ListenerSet (in the input) its parentRefs name, with their
/// `sectionName` (field-2026 §2.5).
fn ancestors_of(evaluator: &EnvoyEvaluator<'_>, slot: Slot) -> Vec<Key> {
    let model = evaluator.model;
    let target = match slot {
        Slot::At(target) => target,
        Slot::Set(set) => {
            let s = &model.listener_sets[set as usize];
            return vec![("ListenerSet", s.namespace.clone(), s.name.clone(), None)];
        }
        Slot::GatewaySection(Target::Listener(g, l)) => {
            let gw = &model.gateways[g as usize];
            let section = Some(gw.listeners[l as usize].name.clone());
            return vec![("Gateway", gw.namespace.clone(), gw.name.clone(), section)];
        }
        Slot::GatewaySection(target) => target,
    };
    match target {
        Target::Gateway(g) => {
            let gw = &model.gateways[g as usize];
            vec![("Gateway", gw.namespace.clone(), gw.name.clone(), None)]
        }
        Target::Listener(g, l) => vec![listener_key(evaluator, g, l)],
        Target::ListenerSet(s) => {
            let set = &model.listener_sets[s as usize];
            vec![("ListenerSet", set.namespace.clone(), set.name.clone(), None)]
        }
        Target::Route(r) | Target::RouteRule(r, _) => model.routes[r as usize]
            .parent_refs
            .iter()
            .filter(|p| p.group == GATEWAY_GROUP)
            .filter_map(|p| {
                let kind = match &*p.kind {
                    "Gateway" => "Gateway",
                    "ListenerSet" if set_exists(evaluator, &p.namespace, &p.name) => "ListenerSet",
                    _ => return None,
                };
                let section = p.section_name.as_ref().map(String::from);
                Some((kind, p.namespace.to_string(), p.name.to_string(), section))
            })
            .collect(),
    }
}

/// Whether a (v1) ListenerSet `namespace/name` is in the input: a route's parentRef to one
/// that is not gives no ancestor (the controller skips it).
fn set_exists(evaluator: &EnvoyEvaluator<'_>, namespace: &str, name: &str) -> bool {
    (evaluator.model.listener_sets.iter())
        .any(|s| !s.legacy && s.namespace == namespace && s.name == name)
}

/// Accepted, or Conflicted with a note naming the holder and why it came first.
fn acceptance(
    evaluator: &EnvoyEvaluator<'_>,
    policy: u32,
    holder: u32,
    slot: Slot,
) -> (Condition, Option<ConflictNote>) {
    if holder == policy {
        return (accepted(), None);
    }
    let model = evaluator.model;
    let kind = model.policies[policy as usize].kind.kind;
    let message = conflict_message(model, slot, kind, evaluator.spec(policy).listener_style);
    let note = ConflictNote {
        target: slot.describe(model),
        winner: model.policies[holder as usize].locator.clone(),
        why: why_first(
            &model.policies[holder as usize],
            &model.policies[policy as usize],
        ),
    };
    (
        Condition::new("Accepted", "False", "Conflicted", message),
        Some(note),
    )
}

/// The holder of `slot` for `policy`'s kind: the first claimer of the element's own slot, or of
/// the whole ListenerSet (from the input: a set not joined has no element).
fn slot_holder(evaluator: &EnvoyEvaluator<'_>, policy: u32, slot: Slot) -> Option<u32> {
    let model = evaluator.model;
    let kind = evaluator.kind_index(policy);
    match slot {
        Slot::At(target) => holder(model, evaluator.topology, target, kind),
        Slot::GatewaySection(target) => {
            let claim = super::slots::Claim::GatewaySection;
            super::slots::first_claimer(model, evaluator.topology, (target, kind), claim)
        }
        Slot::Set(set) => {
            let kind = model.policies[policy as usize].kind;
            super::sets::set_claims(model, set, kind).first().copied()
        }
    }
}

/// Why the controller refuses `policy` holding `slot` (Accepted False/`Invalid`): on a TCPRoute
/// (§3.7), or a ClientTrafficPolicy on a shared plain-HTTP port (field-2026 §2.2; a
/// whole-ListenerSet one on any of the listeners it would apply on).
fn refusal(evaluator: &EnvoyEvaluator<'_>, policy: u32, slot: Slot) -> Option<String> {
    match slot {
        Slot::At(target) if super::tcp::invalid_at(evaluator, policy, target) => {
            Some(super::tcp::invalid_message(evaluator, policy))
        }
        Slot::At(_) | Slot::GatewaySection(_) => super::ports::refused(evaluator, policy, slot),
        Slot::Set(set) => {
            let kind = evaluator.kind_index(policy);
            let listeners: Vec<Target> = (super::sets::listeners_of(evaluator.model, set))
                .into_iter()
                .filter(|&t| holder(evaluator.model, evaluator.topology, t, kind).is_none())
                .collect();
            super::ports::refused_set_message(evaluator, policy, &listeners)
        }
    }
}

/// The conditions one resolved slot gives its ancestors.
fn target_status(
    evaluator: &EnvoyEvaluator<'_>,
    policy: u32,
    slot: Slot,
    gathered: &mut Ancestors,
) {
    let holder = slot_holder(evaluator, policy, slot).unwrap_or(policy);
    let (mut state, note) = acceptance(evaluator, policy, holder, slot);
    let mut accepted_here = holder == policy;
    if accepted_here && let Some(message) = refusal(evaluator, policy, slot) {
        state = Condition::new("Accepted", "False", "Invalid", message);
        accepted_here = false;
    }
    let overridden = accepted_here
        .then(|| super::overrides::overridden(evaluator, policy, slot))
        .flatten();
    let merged = accepted_here
        .then(|| super::overrides::merged(evaluator, policy, slot))
        .flatten();
    for key in ancestors_of(evaluator, slot) {
        let entry = gathered.entry(key);
        let replace = match &entry.accepted {
            None => true,
            Some(c) => c.status == "False" && state.status == "True",
        };
        if replace {
            entry.accepted = Some(state.clone());
        }
        entry.conflicts.extend(note.clone());
        if entry.overridden.is_none() {
            entry.overridden = overridden.clone();
        }
        if entry.merged.is_none() {
            entry.merged = merged.clone();
        }
    }
}

/// A `targetRefs` entry whose object exists but whose section does not: its index, the pass
/// it is processed in, its ancestors and its TargetNotFound message.
type MissingSection = (usize, u8, Vec<Key>, String);

/// The ListenerSet listener targets of `p` that the topology could not hold (field-2026 §2.2):
/// those whose section the set lacks (TargetNotFound, Envoy Gateway's words: CTP's differ),
/// and those on a set its Gateway did not admit (Accepted on the set, on no path), each with
/// its step number and ancestor.
fn set_targets(
    evaluator: &EnvoyEvaluator<'_>,
    p: &crate::policy::Policy,
) -> (Vec<MissingSection>, Vec<(usize, Key)>) {
    use super::sets::{SetOutcome, outcome, set_refs};
    let model = evaluator.model;
    let section_style = section_style(evaluator, p);
    let (mut missing, mut unjoined) = (Vec::new(), Vec::new());
    for target in set_refs(p) {
        let index = p.targets.len() + target.index;
        // A whole set is a step of its own (`Step::Set`), joined or not.
        let Some(section) = target.section else {
            continue;
        };
        let (set, found) = match outcome(model, p, &target) {
            SetOutcome::SectionNotFound(set) => (set, false),
            SetOutcome::NotJoined(set) => (set, true),
            SetOutcome::Attached(_) | SetOutcome::Whole(_) | SetOutcome::Silent => continue,
        };
        let s = &model.listener_sets[set as usize];
        let key = (
            "ListenerSet",
            s.namespace.clone(),
            s.name.clone(),
            Some(section.to_string()),
        );
        if found {
            unjoined.push((index, key));
            continue;
        }
        let message = if section_style {
            format!(
                "ListenerSet {}/{} does not have a listener named \"{}\"",
                s.namespace, s.name, section
            )
        } else {
            format!(
                "No section name {} found for ListenerSet {}/{}",
                section, s.namespace, s.name
            )
        };
        missing.push((index, super::order::SET_LISTENER_PASS, vec![key], message));
    }
    (missing, unjoined)
}

/// Whether `p`'s kind words listeners as sections (ClientTrafficPolicy).
fn section_style(evaluator: &EnvoyEvaluator<'_>, p: &crate::policy::Policy) -> bool {
    (evaluator.specs.iter())
        .zip(evaluator.kinds)
        .any(|(s, k)| std::ptr::eq(k, p.kind) && s.listener_style == ListenerStyle::Section)
}

/// The `targetRefs` entries whose `sectionName` names no listener or rule of an existing Gateway
/// or route in the policy's namespace (§3.2).
fn missing_sections(
    evaluator: &EnvoyEvaluator<'_>,
    p: &crate::policy::Policy,
) -> Vec<MissingSection> {
    p.targets
        .iter()
        .enumerate()
        .filter_map(|(i, target)| {
            let (keys, message) = missing_section(evaluator, p, target)?;
            let level = match &*target.kind {
                "Gateway" => crate::policy::Level::Listener,
                _ => crate::policy::Level::RouteRule,
            };
            Some((i, super::order::pass(level), keys, message))
        })
        .collect()
}

/// TargetNotFound on the ancestors of a missing section.
fn not_found(keys: &[Key], message: &str, gathered: &mut Ancestors) {
    for key in keys {
        gathered.entry(key.clone()).accepted.get_or_insert_with(|| {
            Condition::new("Accepted", "False", "TargetNotFound", message.to_string())
        });
    }
}

/// The ancestors and message of a target whose object exists but whose section does not.
fn missing_section(
    evaluator: &EnvoyEvaluator<'_>,
    p: &crate::policy::Policy,
    target: &crate::policy::TargetRef,
) -> Option<(Vec<Key>, String)> {
    let model = evaluator.model;
    let section = target.section_name.as_ref()?;
    if target.kind == "Gateway" {
        let gw = model
            .gateways
            .iter()
            .find(|g| g.namespace == p.namespace && g.name == target.name)?;
        // Validated against the Gateway's own listeners (field-2026 §2.2); CTP's `G#x` quirk
        // takes a ListenerSet's listener instead.
        if gw
            .listeners
            .iter()
            .any(|l| l.set.is_none() && &l.name == section)
        {
            return None;
        }
        if section_style(evaluator, p) && gw.listeners.iter().any(|l| &l.name == section) {
            return None;
        }
        let key = (
            "Gateway",
            gw.namespace.clone(),
            gw.name.clone(),
            Some(section.to_string()),
        );
        let message = format!(
            "No section name {section} found for Gateway {}/{}",
            gw.namespace, gw.name
        );
        return Some((vec![key], message));
    }
    let r = model.routes.iter().position(|r| {
        r.namespace == p.namespace && r.name == target.name && r.kind.as_str() == target.kind
    })?;
    let route = &model.routes[r];
    if route.rules.iter().any(|k| k.named && &k.name == section) {
        return None;
    }
    let message = format!(
        "No section name {section} found for {} {}/{}",
        route.kind.as_str(),
        route.namespace,
        route.name
    );
    Some((
        ancestors_of(evaluator, Slot::At(Target::Route(r as u32))),
        message,
    ))
}
