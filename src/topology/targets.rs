//! Policy target resolution and same-element ordering.
//!
//! A policy's `targetRef` names a Gateway or route in the policy's own namespace; with
//! `sectionName`, a listener or route rule. A target that does not resolve makes the policy not
//! accepted (`TargetNotFound`). Accepted policies are grouped per (element, kind) and each group
//! is sorted by the kind's family (`PolicyFamily::order`: commonly older `creationTimestamp`
//! first, then `namespace/name`; the older policy is the less specific one).

use super::diags::{Missing, SelectorsSelectNothing, TargetRefNotFound};
use super::family::{Attachment, Via};
use crate::diag::Diagnostic;
use crate::kinds::{Level, Policy, TargetRef, TargetSelector};
use crate::model::gateway::GATEWAY_GROUP;
use crate::model::gateway::RouteKind;
use crate::model::{Model, elsewhere, grants};
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// An element of the hierarchy a policy can attach to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// A Gateway (index into `Model::gateways`).
    Gateway(u32),
    /// A listener (gateway index, listener index): the Gateway's own, or, at an index past
    /// them, a ListenerSet's (`S#L`, [`super::listener_sets`]).
    Listener(u32, u32),
    /// A whole ListenerSet `S` (index into `Model::listener_sets`): resolved only for the
    /// families that opt in ([`super::family::FamilyHierarchy::resolves_listener_sets`]), and
    /// a level of a path through one of its listeners for them alone.
    ListenerSet(u32),
    /// A route (index into `Model::routes`).
    Route(u32),
    /// A route rule (route index, rule index).
    RouteRule(u32, u32),
}

impl Target {
    /// The target's level.
    pub fn level(self) -> Level {
        match self {
            Target::Gateway(_) => Level::Gateway,
            // A ListenerSet is a group of listeners of its Gateway: the listener level.
            Target::Listener(..) | Target::ListenerSet(_) => Level::Listener,
            Target::Route(_) => Level::Route,
            Target::RouteRule(..) => Level::RouteRule,
        }
    }

    /// A readable name: `Gateway infra/gw`, `listener infra/gw#https`, `HTTPRoute shop/cart#rule-1`.
    pub fn describe(self, model: &Model) -> String {
        match self {
            Target::Gateway(g) => {
                let g = &model.gateways[g as usize];
                format!("Gateway {}/{}", g.namespace, g.name)
            }
            Target::Listener(g, l) => {
                let gw = &model.gateways[g as usize];
                let listener = &gw.listeners[l as usize];
                let key = gw.listener_key(listener);
                format!("listener {key}")
            }
            Target::ListenerSet(s) => model.listener_sets[s as usize].display(),
            Target::Route(r) => {
                let r = &model.routes[r as usize];
                r.display()
            }
            Target::RouteRule(r, k) => {
                let r = &model.routes[r as usize];
                format!(
                    "{} {}/{}#{}",
                    r.kind.as_str(),
                    r.namespace,
                    r.name,
                    r.rules[k as usize].name
                )
            }
        }
    }
}

/// Where each policy attaches.
///
/// Policy lists are stored once per (element, kind) in `lists`; every element of the model has a
/// dense slot per kind holding its list id (or [`NO_LIST`]), so finding the policies of a path
/// is four array reads — no hashing on the hot path.
#[derive(Debug, Default)]
pub struct PolicyTargets {
    /// Per policy: the elements it attaches to (empty when it is not accepted).
    pub of_policy: Vec<Vec<Target>>,
    /// Per policy: the `TargetNotFound` message when it is not accepted.
    pub not_accepted: Vec<Option<String>>,
    /// Accepted policies per (element, kind), in their family's order (for the common
    /// order: least specific, i.e. oldest, first).
    pub lists: Vec<Vec<u32>>,
    /// Per list: how each of its policies reached the element (parallel to `lists`).
    pub vias: Vec<Vec<Via>>,
    /// Neighbouring pairs `(older, newer)` on one element ordered by name only.
    pub name_ties: Vec<(u32, u32)>,
    /// Per kind of the registry: its column in the slot tables, or [`NO_LIST`] when no policy
    /// of the input has that kind. A registry has a handful of families' kinds and an input
    /// uses few of them: a column for every kind made the rule table most of the topology.
    columns: Vec<u32>,
    /// Columns per element: the kinds some policy of the input has.
    width: usize,
    /// First listener slot of each Gateway.
    listener_offsets: Vec<u32>,
    /// First rule slot of each route.
    rule_offsets: Vec<u32>,
    gateway_slots: Vec<u32>,
    listener_slots: Vec<u32>,
    route_slots: Vec<u32>,
    rule_slots: Vec<u32>,
    /// Per ListenerSet (whole-set targets, [`Target::ListenerSet`]).
    set_slots: Vec<u32>,
}

/// Marks an element without policies of a kind.
pub const NO_LIST: u32 = u32::MAX;

/// The column of each registry kind some policy of `model` has ([`NO_LIST`] for the others),
/// in registry order, and how many columns there are.
fn columns(model: &Model) -> (Vec<u32>, usize) {
    let mut present = vec![false; model.registry.kind_count()];
    for policy in &model.policies {
        present[model.registry.kind_index(policy.kind)] = true;
    }
    let mut width = 0;
    let columns = present
        .into_iter()
        .map(|used| {
            if !used {
                return NO_LIST;
            }
            width += 1;
            width as u32 - 1
        })
        .collect();
    (columns, width)
}

fn offsets(counts: impl Iterator<Item = usize>) -> (Vec<u32>, usize) {
    let mut total = 0usize;
    let offsets = counts
        .map(|c| {
            let start = total;
            total += c;
            start as u32
        })
        .collect();
    (offsets, total)
}

impl PolicyTargets {
    /// Resolves every policy's target.
    pub fn resolve(model: &Model, diagnostics: &mut Vec<Diagnostic>) -> PolicyTargets {
        let lookup = Lookup {
            gateways: model
                .gateways
                .iter()
                .enumerate()
                .map(|(i, g)| ((g.namespace.as_str(), g.name.as_str()), i as u32))
                .collect(),
            routes: model
                .routes
                .iter()
                .enumerate()
                .map(|(i, r)| ((r.kind, r.namespace.as_str(), r.name.as_str()), i as u32))
                .collect(),
            by_name: std::cell::OnceCell::new(),
            labels: std::cell::OnceCell::new(),
        };
        let (columns, width) = columns(model);
        let (listener_offsets, listeners) =
            offsets(model.gateways.iter().map(|g| g.listeners.len()));
        let (rule_offsets, rules) = offsets(model.routes.iter().map(|r| r.rules.len()));
        let mut targets = PolicyTargets {
            columns,
            width,
            gateway_slots: vec![NO_LIST; model.gateways.len() * width],
            listener_slots: vec![NO_LIST; listeners * width],
            route_slots: vec![NO_LIST; model.routes.len() * width],
            rule_slots: vec![NO_LIST; rules * width],
            set_slots: vec![NO_LIST; model.listener_sets.len() * width],
            listener_offsets,
            rule_offsets,
            ..PolicyTargets::default()
        };
        // Sized first, as every list a big input keeps: grown one push at a time, they held up
        // to twice their items.
        targets.not_accepted.reserve_exact(model.policies.len());
        targets.of_policy.reserve_exact(model.policies.len());
        let mut attachments: Vec<Attachment> = Vec::new();
        for (index, policy) in model.policies.iter().enumerate() {
            if !model
                .registry
                .hierarchy_of(policy.kind)
                .attaches_to_routes()
            {
                // A family with its own hierarchy: nothing to resolve here, nothing missing.
                targets.not_accepted.push(None);
                targets.of_policy.push(Vec::new());
                continue;
            }
            let (found, missed, not_accepted) =
                resolve_policy(model, index as u32, policy, &lookup);
            diagnostics.extend(missed.into_iter().map(|d| d.with_object(policy.display())));
            targets.not_accepted.push(not_accepted);
            let mut elements: Vec<Target> = found.iter().map(|a| a.target).collect();
            elements.dedup();
            targets.of_policy.push(elements);
            attachments.extend(found);
        }
        for family in model.registry.hierarchies() {
            let (extra, found) = family.extra_attachments(model);
            diagnostics.extend(found);
            for attachment in &extra {
                targets.not_accepted[attachment.policy as usize] = None;
                let elements = &mut targets.of_policy[attachment.policy as usize];
                if !elements.contains(&attachment.target) {
                    elements.push(attachment.target);
                }
            }
            attachments.extend(extra);
        }
        targets.group(model, attachments);
        diagnostics.extend(targets.selecting_nothing(model));
        targets.name_ties.sort();
        targets
    }

    /// `TargetNotFound` for policies whose only targets are selectors that select nothing.
    fn selecting_nothing(&self, model: &Model) -> Vec<Diagnostic> {
        model
            .policies
            .iter()
            .zip(&self.not_accepted)
            .filter(|(p, missing)| {
                missing.is_some() && p.targets.is_empty() && !p.selectors.is_empty()
            })
            .map(|(policy, _)| {
                Diagnostic::from(SelectorsSelectNothing { policy })
                    .with_label(policy.selectors[0].span, "selects nothing")
                    .with_object(policy.display())
            })
            .collect()
    }

    /// Groups attachments per (element, kind) and lets each family order its groups.
    fn group(&mut self, model: &Model, attachments: Vec<Attachment>) {
        let mut groups: Vec<Vec<Attachment>> = Vec::new();
        for attachment in attachments {
            let policy = &model.policies[attachment.policy as usize];
            let slot = self
                .slot(attachment.target, model.registry.kind_index(policy.kind))
                .expect("a policy's kind has a column");
            let list = match self.slot_value(slot) {
                NO_LIST => {
                    groups.push(Vec::new());
                    let id = (groups.len() - 1) as u32;
                    self.set_slot(slot, id);
                    id
                }
                id => id,
            };
            groups[list as usize].push(attachment);
        }
        self.lists.reserve_exact(groups.len());
        self.vias.reserve_exact(groups.len());
        for mut group in groups {
            let kind = model.policies[group[0].policy as usize].kind;
            let ties = model.registry.hierarchy_of(kind).order(model, &mut group);
            self.name_ties.extend(ties);
            self.lists.push(group.iter().map(|a| a.policy).collect());
            self.vias.push(group.iter().map(|a| a.via).collect());
        }
    }

    /// Where the list of `kind` on `target` is kept; `None` when no policy has that kind.
    fn slot(&self, target: Target, kind: usize) -> Option<(u8, usize)> {
        let kind = match self.columns.get(kind) {
            Some(&column) if column != NO_LIST => column as usize,
            _ => return None,
        };
        let k = self.width;
        Some(match target {
            Target::Gateway(g) => (0, g as usize * k + kind),
            Target::Listener(g, l) => (
                1,
                (self.listener_offsets[g as usize] + l) as usize * k + kind,
            ),
            Target::Route(r) => (2, r as usize * k + kind),
            Target::RouteRule(r, i) => (3, (self.rule_offsets[r as usize] + i) as usize * k + kind),
            Target::ListenerSet(s) => (4, s as usize * k + kind),
        })
    }

    fn slots(&self, table: u8) -> &Vec<u32> {
        match table {
            0 => &self.gateway_slots,
            1 => &self.listener_slots,
            2 => &self.route_slots,
            3 => &self.rule_slots,
            _ => &self.set_slots,
        }
    }

    fn slot_value(&self, (table, index): (u8, usize)) -> u32 {
        self.slots(table)[index]
    }

    fn set_slot(&mut self, (table, index): (u8, usize), value: u32) {
        let slots = match table {
            0 => &mut self.gateway_slots,
            1 => &mut self.listener_slots,
            2 => &mut self.route_slots,
            3 => &mut self.rule_slots,
            _ => &mut self.set_slots,
        };
        slots[index] = value;
    }

    /// Whether some policy of the input has `kind` (else every target's list of it is empty:
    /// [`Self::list_id`] is [`NO_LIST`] everywhere).
    pub fn has_kind(&self, kind: usize) -> bool {
        matches!(self.columns.get(kind), Some(&column) if column != NO_LIST)
    }

    /// The id of the policy list of `kind` on `target` ([`NO_LIST`] when it has none).
    pub fn list_id(&self, target: Target, kind: usize) -> u32 {
        self.slot(target, kind)
            .map_or(NO_LIST, |slot| self.slot_value(slot))
    }

    /// How each policy of [`Self::on`] reached `target`.
    pub fn vias_on(&self, target: Target, kind: usize) -> &[Via] {
        match self.list_id(target, kind) {
            NO_LIST => &[],
            id => &self.vias[id as usize],
        }
    }

    /// Accepted policies of `kind` attached to `target`, least specific first.
    pub fn on(&self, target: Target, kind: usize) -> &[u32] {
        match self.list_id(target, kind) {
            NO_LIST => &[],
            id => &self.lists[id as usize],
        }
    }
}

/// Why a target did not resolve: the `TargetNotFound` message and the diagnostic.
type Unresolved = Box<(String, Diagnostic)>;

/// The model's Gateways and routes by identity, and by name for targets that miss.
struct Lookup<'m> {
    gateways: FxHashMap<(&'m str, &'m str), u32>,
    routes: FxHashMap<(RouteKind, &'m str, &'m str), u32>,
    /// Built on the first target that does not resolve.
    by_name: std::cell::OnceCell<elsewhere::ByName<'m>>,
    /// Every object's `metadata.labels`, read once, on the first selector.
    labels: std::cell::OnceCell<Vec<Vec<(String, String)>>>,
}

/// The attachments of one policy through its targets and selectors; when none resolves, the
/// `TargetNotFound` message and the diagnostics about the targets that did not.
fn resolve_policy<'m>(
    model: &'m Model,
    index: u32,
    policy: &Policy,
    lookup: &Lookup<'m>,
) -> (Vec<Attachment>, Vec<Diagnostic>, Option<String>) {
    let mut found = Vec::new();
    let mut missed: Vec<(String, Diagnostic)> = Vec::new();
    let mut left_to_family = false;
    for (i, target) in policy.targets.iter().enumerate() {
        if reaches_set_listener(model, policy, i) {
            left_to_family = true;
            continue;
        }
        match resolve_ref(model, policy, target, lookup) {
            Ok(element) => found.push(Attachment {
                policy: index,
                target: element,
                via: Via::TargetRef(i as u16),
            }),
            Err(unresolved) => missed.push(*unresolved),
        }
    }
    for (i, selector) in policy.selectors.iter().enumerate() {
        found.extend(
            select(model, policy, selector, lookup)
                .into_iter()
                .map(|element| Attachment {
                    policy: index,
                    target: element,
                    via: Via::Selector(i as u16),
                }),
        );
    }
    // Targets that miss beside ones that resolve are findings too.
    // A policy whose only targets are of kinds the family left out as not modelled yet is not
    // "without targets": its family says what it is.
    let only_unmodelled =
        missed.is_empty() && (left_to_family || !policy.unmodelled_targets.is_empty());
    let not_accepted = (found.is_empty() && !only_unmodelled).then(|| {
        missed.first().map_or_else(
            || format!("{} has no targets", policy.kind.kind),
            |(m, _)| m.clone(),
        )
    });
    let diagnostics = missed.into_iter().map(|(_, d)| d).collect();
    (found, diagnostics, not_accepted)
}

/// Whether `targetRefs` entry `index` names a Gateway listener that only the Gateway's
/// ListenerSets have, for a kind whose family resolves that itself
/// ([`super::family::FamilyHierarchy::gateway_section_reaches_set_listener`]).
fn reaches_set_listener(model: &Model, policy: &Policy, index: usize) -> bool {
    let hierarchy = model.registry.hierarchy_of(policy.kind);
    !model.listener_sets.is_empty()
        && hierarchy.gateway_section_reaches_set_listener(policy.kind)
        && super::listener_sets::gateway_section(model, policy, index)
            .is_some_and(|s| !s.own && !s.in_sets.is_empty())
}

/// The elements a selector picks: objects of its kind in the policy's namespace whose labels
/// it selects, or their listener or rule named `sectionName` where they have one; in another
/// namespace its `cross_namespace` admits, only those a ReferenceGrant permits.
fn select(
    model: &Model,
    policy: &Policy,
    selector: &TargetSelector,
    lookup: &Lookup<'_>,
) -> Vec<Target> {
    let all = lookup
        .labels
        .get_or_init(|| model.objects.iter().map(labels_of).collect());
    candidates(model, policy, selector, all)
        .into_iter()
        .filter(|&(_, scope)| scope != Scope::NotGranted)
        .map(|(target, _)| target)
        .collect()
}

/// Where a selector's match lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    /// In the policy's namespace (or any, for a selector with `all_namespaces`).
    Here,
    /// In another namespace, permitted by a ReferenceGrant.
    Granted,
    /// In another namespace the selector looks in, but no ReferenceGrant permits it.
    NotGranted,
}

/// Whether `selector` looks in `namespace` for an object of `kind` named `name`, and how. With
/// a `cross_namespace`, its `from` decides for every namespace, the policy's own included (a
/// Namespace selector the policy's Namespace does not match excludes it: Envoy Gateway's
/// `targetSelectorNamespacesMatch`); only another namespace needs a ReferenceGrant.
fn scope(
    model: &Model,
    policy: &Policy,
    selector: &TargetSelector,
    (namespace, kind, name): (&str, &str, &str),
) -> Option<Scope> {
    let here = namespace == policy.namespace.as_str();
    let Some(cross) = selector.cross_namespace.as_deref() else {
        return (selector.all_namespaces || here).then_some(Scope::Here);
    };
    let admitted = match &cross.from {
        crate::kinds::NamespacesFrom::All => true,
        crate::kinds::NamespacesFrom::Selector(labels, expressions) => model
            .namespace(namespace)
            .is_some_and(|n| crate::kinds::label_selector_matches(labels, expressions, &n.labels)),
    };
    if !admitted {
        return None;
    }
    if here {
        return Some(Scope::Here);
    }
    let from = (
        cross.grant_group,
        policy.kind.kind,
        ("namespace", policy.namespace.as_str()),
    );
    let to = (GATEWAY_GROUP, kind, ("name", name));
    Some(match grants::permitting(model, from, namespace, to) {
        Some(_) => Scope::Granted,
        None => Scope::NotGranted,
    })
}

/// Every element a selector matches by namespace and labels, with where it lies.
fn candidates(
    model: &Model,
    policy: &Policy,
    selector: &TargetSelector,
    all: &[Vec<(String, String)>],
) -> Vec<(Target, Scope)> {
    let labels = |object: u32| all[object as usize].as_slice();
    let mut found = Vec::new();
    let family = model.registry.hierarchy_of(policy.kind);
    if super::listener_sets::is_set_kind(&selector.kind) && family.resolves_listener_sets() {
        return select_sets(model, policy, selector, &labels);
    }
    if selector.kind == "Gateway" {
        for (g, gateway) in model.gateways.iter().enumerate() {
            if gateway.assumed || !selector.selects(labels(gateway.object)) {
                continue;
            }
            let at = (gateway.namespace.as_str(), "Gateway", gateway.name.as_str());
            let Some(scope) = scope(model, policy, selector, at) else {
                continue;
            };
            let target = match &selector.section_name {
                None => Some(Target::Gateway(g as u32)),
                Some(section) => gateway
                    .listeners
                    .iter()
                    .position(|l| l.set.is_none() && &l.name == section)
                    .map(|l| Target::Listener(g as u32, l as u32)),
            };
            found.extend(target.map(|t| (t, scope)));
        }
        return found;
    }
    let Some(kind) = RouteKind::from_kind(&selector.kind) else {
        return found;
    };
    for (r, route) in model.routes.iter().enumerate() {
        if route.kind != kind || !selector.selects(labels(route.object)) {
            continue;
        }
        let at = (route.namespace.as_str(), kind.as_str(), route.name.as_str());
        let Some(scope) = scope(model, policy, selector, at) else {
            continue;
        };
        let target = match &selector.section_name {
            None => Some(Target::Route(r as u32)),
            Some(section) => route
                .rules
                .iter()
                .position(|rule| rule.named && &rule.name == section)
                .map(|k| Target::RouteRule(r as u32, k as u32)),
        };
        found.extend(target.map(|t| (t, scope)));
    }
    found
}

/// The ListenerSets of the selector's kind its labels select (a family that resolves ListenerSet
/// targets): the whole set, or its listener named `sectionName` where it has one. A set that
/// joined no Gateway is selected whole (accepted, on no path), as a `targetRef` to it.
fn select_sets<'a>(
    model: &Model,
    policy: &Policy,
    selector: &TargetSelector,
    labels: &dyn Fn(u32) -> &'a [(String, String)],
) -> Vec<(Target, Scope)> {
    let legacy = selector.kind.as_str() != "ListenerSet";
    let mut found = Vec::new();
    for (s, set) in model.listener_sets.iter().enumerate() {
        if set.legacy != legacy || !selector.selects(labels(set.object)) {
            continue;
        }
        let at = (
            set.namespace.as_str(),
            selector.kind.as_str(),
            set.name.as_str(),
        );
        let Some(scope) = scope(model, policy, selector, at) else {
            continue;
        };
        let target = match (&selector.section_name, set.gateway) {
            (None, _) | (Some(_), None) => Some(Target::ListenerSet(s as u32)),
            (Some(section), Some(g)) => (model.gateways[g as usize].listeners.iter())
                .position(|l| l.set == Some(s as u32) && &l.name == section)
                .map(|l| Target::Listener(g, l as u32)),
        };
        found.extend(target.map(|t| (t, scope)));
    }
    found
}

/// The elements `policy`'s selectors match in other namespaces without a ReferenceGrant
/// permitting it (which they therefore do not select), with the selector's index.
pub fn not_granted(model: &Model, policy: &Policy) -> Vec<(usize, Target)> {
    let all: Vec<Vec<(String, String)>> = model.objects.iter().map(labels_of).collect();
    let mut found = Vec::new();
    for (i, selector) in policy.selectors.iter().enumerate() {
        if selector.cross_namespace.is_none() {
            continue;
        }
        found.extend(
            candidates(model, policy, selector, &all)
                .into_iter()
                .filter(|&(_, scope)| scope == Scope::NotGranted)
                .map(|(target, _)| (i, target)),
        );
    }
    found
}

/// `metadata.labels` of an object, as written.
pub fn labels_of(object: &crate::load::Object) -> Vec<(String, String)> {
    object
        .metadata("labels")
        .and_then(|l| l.as_map())
        .map(|entries| {
            entries
                .iter()
                .filter_map(|e| Some((e.key.text.to_string(), e.value.as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

fn resolve_ref<'m>(
    model: &'m Model,
    policy: &Policy,
    target: &TargetRef,
    lookup: &Lookup<'m>,
) -> Result<Target, Unresolved> {
    let section = target.section_name.as_deref();
    let not_found = |missing: Missing, candidates: Vec<Cow<'m, str>>, span| {
        let elsewhere = match missing {
            Missing::Object => lookup
                .by_name
                .get_or_init(|| elsewhere::ByName::of_model(model))
                .find(&target.kind, &target.name, &policy.namespace),
            Missing::Section => elsewhere::Elsewhere::default(),
        };
        let finding = TargetRefNotFound {
            policy,
            target,
            missing,
            candidates,
            elsewhere,
        };
        let condition = finding.condition();
        let diagnostic = Diagnostic::from(finding).with_label(span, "not found");
        Err(Box::new((condition, diagnostic)))
    };
    let ns = policy.namespace.as_str();
    if super::listener_sets::is_set_kind(&target.kind)
        && model
            .registry
            .hierarchy_of(policy.kind)
            .resolves_listener_sets()
    {
        return resolve_set_ref(model, policy, target)
            .or_else(|(missing, candidates, span)| not_found(missing, candidates, span));
    }
    match target.kind.as_str() {
        "Gateway" => {
            let Some(&g) = lookup.gateways.get(&(ns, target.name.as_str())) else {
                let names = model
                    .gateways
                    .iter()
                    .filter(|g| g.namespace == ns)
                    .map(|g| Cow::Borrowed(g.name.as_str()))
                    .collect();
                return not_found(Missing::Object, names, target.name_span);
            };
            let Some(section) = section else {
                return Ok(Target::Gateway(g));
            };
            let gateway = &model.gateways[g as usize];
            // A Gateway's `sectionName` names its own listeners, never a ListenerSet's.
            let own = |l: &&crate::model::gateway::Listener| l.set.is_none();
            match (gateway.listeners.iter()).position(|l| own(&l) && l.name == section) {
                Some(l) => Ok(Target::Listener(g, l as u32)),
                None => {
                    let names = (gateway.listeners.iter().filter(own))
                        .map(|l| Cow::Borrowed(l.name.as_str()))
                        .collect();
                    not_found(
                        Missing::Section,
                        names,
                        target.section_span.unwrap_or(target.span),
                    )
                }
            }
        }
        kind => {
            let route_kind = RouteKind::from_kind(kind).unwrap_or(RouteKind::Http);
            let Some(&r) = lookup.routes.get(&(route_kind, ns, target.name.as_str())) else {
                let names = model
                    .routes
                    .iter()
                    .filter(|r| r.namespace == ns && r.kind == route_kind)
                    .map(|r| Cow::Borrowed(r.name.as_str()))
                    .collect();
                return not_found(Missing::Object, names, target.name_span);
            };
            let Some(section) = section else {
                return Ok(Target::Route(r));
            };
            let route = &model.routes[r as usize];
            let positional = model
                .registry
                .decoder_of(policy.kind)
                .positional_rule_names();
            let section_names = || {
                (route.rules.iter().enumerate())
                    .filter_map(move |(k, rule)| Some((k, rule.section_name(k, positional)?)))
            };
            match section_names().find(|(_, name)| name == section) {
                Some((k, _)) => Ok(Target::RouteRule(r, k as u32)),
                None => {
                    let names = section_names().map(|(_, name)| name).collect();
                    not_found(
                        Missing::Section,
                        names,
                        target.section_span.unwrap_or(target.span),
                    )
                }
            }
        }
    }
}

/// A ListenerSet `targetRef` of a family that opts in
/// ([`super::family::FamilyHierarchy::resolves_listener_sets`]): the whole set `S`, or its
/// listener `S#L` (docs/semantics.md §2). A set its Gateway did not admit (or whose Gateway is
/// not in the input) joined no Gateway, so no path goes through it: its target resolves to the
/// set's element — the policy is accepted there and reaches nothing (the set's own finding,
/// `listenerset-not-allowed` or `listenerset-parent-not-found`, says why) — once its
/// `sectionName`, if any, is checked against the set's own listeners.
fn resolve_set_ref<'m>(
    model: &'m Model,
    policy: &Policy,
    target: &TargetRef,
) -> Result<Target, (Missing, Vec<Cow<'m, str>>, crate::source::Span)> {
    use super::listener_sets::{SetRefError, SetTarget, resolve};
    let ns = policy.namespace.as_str();
    let section = target.section_name.as_deref();
    let section_span = target.section_span.unwrap_or(target.span);
    let listeners_of = |set: u32| -> Vec<Cow<'m, str>> {
        (model.listener_sets[set as usize].listeners.iter())
            .map(|l| Cow::Borrowed(l.name.as_str()))
            .collect()
    };
    match resolve(model, ns, &target.kind, &target.name, section) {
        Ok(SetTarget::Set { set, .. }) => Ok(Target::ListenerSet(set)),
        Ok(SetTarget::Listener {
            gateway, listener, ..
        }) => Ok(Target::Listener(gateway, listener)),
        Err(SetRefError::SectionNotFound(set)) => {
            Err((Missing::Section, listeners_of(set), section_span))
        }
        Err(SetRefError::NotJoined(set)) => {
            let set_listeners = &model.listener_sets[set as usize].listeners;
            match section {
                Some(section) if !set_listeners.iter().any(|l| l.name == section) => {
                    Err((Missing::Section, listeners_of(set), section_span))
                }
                _ => Ok(Target::ListenerSet(set)),
            }
        }
        Err(SetRefError::NotFound) => {
            let legacy = &*target.kind != "ListenerSet";
            let names = (model.listener_sets.iter())
                .filter(|s| s.legacy == legacy && s.namespace == ns)
                .map(|s| Cow::Borrowed(s.name.as_str()))
                .collect();
            Err((Missing::Object, names, target.name_span))
        }
    }
}
