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
use super::slots::{conflict_message, holder, why_first};
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
                target_status(evaluator, policy, target, &mut gathered);
            }
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
    if gathered.is_empty() && !targets.is_empty() {
        // Resolved, but on routes without a Gateway parentRef: the controller writes no
        // ancestor; the policy is not rejected.
        return PolicyConditions {
            conditions: vec![accepted()],
            ancestors: Some(Vec::new()),
        };
    }
    if gathered.is_empty() && targets.is_empty() && !p.unmodelled_targets.is_empty() {
        return not_modelled(p);
    }
    if gathered.is_empty() {
        let message = evaluator.topology.targets.not_accepted[policy as usize]
            .clone()
            .unwrap_or_else(|| format!("{} has no targets", p.kind.kind));
        return PolicyConditions {
            conditions: vec![Condition::new(
                "Accepted",
                "False",
                "TargetNotFound",
                message,
            )],
            ancestors: Some(Vec::new()),
        };
    }
    PolicyConditions {
        conditions: top_level(&gathered),
        ancestors: Some(gathered.0.into_iter().map(ancestor).collect()),
    }
}

/// The status of a policy whose only targets are of kinds dopol does not model yet
/// (ListenerSets): not evaluated, rather than "has no targets".
fn not_modelled(p: &crate::policy::Policy) -> PolicyConditions {
    let message = format!(
        "{} targets only {}s, which dopol does not model yet: its status is not evaluated",
        p.kind.kind, p.unmodelled_targets[0]
    );
    PolicyConditions {
        conditions: vec![Condition::new(
            "Accepted",
            "Unknown",
            "NotModelled",
            message,
        )],
        ancestors: Some(Vec::new()),
    }
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
    for record in records.filter(|r| r.winner == policy && r.slot == slot) {
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

/// The ancestors of a target: the Gateway (and listener), or for a route each Gateway or
/// ListenerSet (in the input) its parentRefs name, with their `sectionName` (field-2026 §2.5).
fn ancestors_of(evaluator: &EnvoyEvaluator<'_>, target: Target) -> Vec<Key> {
    let model = evaluator.model;
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
    target: Target,
) -> (Condition, Option<ConflictNote>) {
    if holder == policy {
        return (accepted(), None);
    }
    let model = evaluator.model;
    let kind = model.policies[policy as usize].kind.kind;
    let message = conflict_message(model, target, kind, evaluator.spec(policy).listener_style);
    let note = ConflictNote {
        target: target.describe(model),
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

/// The conditions one resolved target gives its ancestors.
fn target_status(
    evaluator: &EnvoyEvaluator<'_>,
    policy: u32,
    target: Target,
    gathered: &mut Ancestors,
) {
    let holder = holder(evaluator.topology, target, evaluator.kind_index(policy)).unwrap_or(policy);
    let (mut state, note) = acceptance(evaluator, policy, holder, target);
    let mut accepted_here = holder == policy;
    if accepted_here && super::tcp::invalid_at(evaluator, policy, target) {
        let message = super::tcp::invalid_message(evaluator, policy);
        state = Condition::new("Accepted", "False", "Invalid", message);
        accepted_here = false;
    }
    if accepted_here && let Some(message) = super::ports::refused(evaluator, policy, target) {
        state = Condition::new("Accepted", "False", "Invalid", message);
        accepted_here = false;
    }
    let overridden = accepted_here
        .then(|| super::overrides::overridden(evaluator, policy, target))
        .flatten();
    let merged = accepted_here
        .then(|| super::overrides::merged(evaluator, policy, target))
        .flatten();
    for key in ancestors_of(evaluator, target) {
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
    let section_style = (evaluator.specs.iter())
        .zip(evaluator.kinds)
        .any(|(s, k)| std::ptr::eq(k, p.kind) && s.listener_style == ListenerStyle::Section);
    let (mut missing, mut unjoined) = (Vec::new(), Vec::new());
    for target in set_refs(p) {
        let index = p.targets.len() + target.index;
        let (set, found) = match outcome(model, p, &target) {
            SetOutcome::SectionNotFound(set) => (set, false),
            SetOutcome::NotJoined(set) => (set, true),
            SetOutcome::Attached(_) | SetOutcome::Silent => continue,
        };
        let s = &model.listener_sets[set as usize];
        let section = target.section.to_string();
        let key = (
            "ListenerSet",
            s.namespace.clone(),
            s.name.clone(),
            Some(section),
        );
        if found {
            unjoined.push((index, key));
            continue;
        }
        let message = if section_style {
            format!(
                "ListenerSet {}/{} does not have a listener named \"{}\"",
                s.namespace, s.name, target.section
            )
        } else {
            format!(
                "No section name {} found for ListenerSet {}/{}",
                target.section, s.namespace, s.name
            )
        };
        missing.push((index, super::order::SET_LISTENER_PASS, vec![key], message));
    }
    (missing, unjoined)
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
        // Validated against the Gateway's own listeners (field-2026 §2.2).
        if gw
            .listeners
            .iter()
            .any(|l| l.set.is_none() && &l.name == section)
        {
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
    Some((ancestors_of(evaluator, Target::Route(r as u32)), message))
}
