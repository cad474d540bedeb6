//! The paths of one Dataplane and kind: outbound keys (§K5), inbounds (§K8) and proxy-wide
//! (§K9), each with its item.

use super::index::{Index, Proxy};
use super::item::{Contribution, Place, fold_losses, fold_rules, highest_first, item};
use super::kinds::{Inbound, semantics_of};
use super::merge::fold;
use super::order::{SortKey, sort};
use super::resolve::{Resolved, relevance, resolve};
use super::role::Role;
use super::select::Selection;
use super::spec::{Item, View};
use crate::model::Model;
use crate::policy::PolicyKind;
use crate::policy::owned::{OwnedItem, OwnedRule};
use serde_json::{Value as Json, json};
use std::collections::BTreeSet;

/// A policy as the evaluation reads it.
#[derive(Clone, Debug)]
pub struct KumaPolicy {
    /// Index into `Model::policies`.
    pub index: u32,
    /// Its meta (index into `Index::metas`).
    pub meta: usize,
    /// Its kind.
    pub kind: &'static PolicyKind,
    /// Its sections.
    pub view: View,
    /// Its role, from its label (absent: system).
    pub role: Option<Role>,
    /// Labelled `kuma.io/effect: shadow`.
    pub shadow: bool,
}

impl KumaPolicy {
    /// Its sort key (§K6), without to-kind or index.
    pub fn sort_key(&self, index: &Index) -> SortKey {
        let meta = &index.metas[self.meta];
        SortKey::new(
            &self.view.top,
            meta.origin(),
            self.role,
            &meta.display,
            meta.namespaced_name(),
        )
    }
}

/// What the paths of one Dataplane are computed from.
pub struct Subject<'a> {
    /// The model.
    pub model: &'a Model,
    /// The index.
    pub index: &'a Index,
    /// The Dataplane.
    pub proxy: &'a Proxy,
    /// The policies of one kind selecting it, with what they select.
    pub selected: Vec<(&'a KumaPolicy, Selection)>,
}

impl Subject<'_> {
    fn dataplane(&self) -> String {
        self.index.metas[self.proxy.meta].namespaced_name()
    }

    fn mesh(&self) -> &str {
        &self.index.metas[self.proxy.meta].mesh
    }

    fn place(&self, kind: &'static PolicyKind, direction: &str, key: String) -> Place {
        let dp = self.dataplane();
        let path_id = if direction == "proxy" {
            format!("{}|{dp}|proxy", self.mesh())
        } else {
            format!("{}|{dp}|{direction}|{key}", self.mesh())
        };
        Place {
            kind,
            path_id,
            segments: vec![self.mesh().to_string(), dp, direction.to_string(), key],
        }
    }
}

/// One outbound entry: a `to[]` item with what it resolved to.
struct Entry<'a> {
    policy: &'a KumaPolicy,
    item: usize,
    key: SortKey,
    resolved: Vec<Resolved>,
}

/// The outbound items of one kind (§K5).
pub fn outbound(subject: &Subject<'_>, kind: &'static PolicyKind) -> Vec<OwnedItem> {
    let index = subject.index;
    let mut entries: Vec<Entry<'_>> = Vec::new();
    for (policy, _) in &subject.selected {
        if policy.view.top.kind == "MeshHTTPRoute" {
            continue;
        }
        let meta = &index.metas[policy.meta];
        for (i, to) in policy.view.to.iter().flatten().enumerate() {
            let key =
                policy
                    .sort_key(index)
                    .with_to(&to.target.kind, to.target.section.is_some(), i);
            let resolved = resolve(index, meta, &to.target);
            entries.push(Entry {
                policy,
                item: i,
                key,
                resolved,
            });
        }
    }
    sort(&mut entries, |e| &e.key);
    let keys: BTreeSet<Resolved> = entries
        .iter()
        .flat_map(|e| e.resolved.iter().cloned())
        .collect();
    let durations = semantics_of(kind).durations;
    let mut items = Vec::new();
    for key in keys {
        let mut contributions = Vec::new();
        let mut confs = Vec::new();
        for entry in &entries {
            let Some(why) = entry
                .resolved
                .iter()
                .find_map(|r| relevance(index, r, &key))
            else {
                continue;
            };
            contributions.push(Contribution {
                policy: entry.policy.index,
                entry: format!("to[{}]", entry.item),
                key: entry.key.clone(),
                relevance: why,
            });
            confs.push(&entry.policy.view.to.as_ref().expect("has to")[entry.item].conf);
        }
        let kri = index.metas[key.meta].kri(key.section.as_deref());
        let place = subject.place(kind, "outbound", kri);
        items.push(folded_item(
            subject,
            place,
            &contributions,
            &confs,
            durations,
        ));
    }
    items
}

/// One inbound rule: its contribution, its match and its conf.
struct InboundRule<'a> {
    contribution: Contribution,
    matched: Option<Json>,
    conf: &'a Json,
}

/// The items of the rule sections (`rules[]`, or `from[]` read as rules) of the policies
/// selecting inbound `inbound`, in §K6 order, expanded per match and re-sorted (§K8).
fn inbound_rules<'a>(
    subject: &'a Subject<'_>,
    inbound: usize,
    from_as_rules: bool,
) -> Vec<InboundRule<'a>> {
    let mut items: Vec<(SortKey, &'a KumaPolicy, String, Vec<Json>, &'a Json)> = Vec::new();
    for (policy, selection) in &subject.selected {
        if !selection.inbounds.contains(&inbound) {
            continue;
        }
        let base = policy.sort_key(subject.index);
        if let Some(rules) = &policy.view.rules {
            for (i, rule) in rules.iter().enumerate() {
                let entry = format!("rules[{i}]");
                items.push((
                    base.clone().at(i),
                    policy,
                    entry,
                    rule.matches.clone(),
                    &rule.conf,
                ));
            }
        } else if from_as_rules {
            for (i, from) in policy.view.from.iter().flatten().enumerate() {
                items.push((
                    base.clone().at(i),
                    policy,
                    format!("from[{i}]"),
                    Vec::new(),
                    &from.conf,
                ));
            }
        }
    }
    sort(&mut items, |i| &i.0);
    let mut rules: Vec<InboundRule<'a>> = Vec::new();
    for (key, policy, entry, matches, conf) in items {
        let contribution = |relevance| Contribution {
            policy: policy.index,
            entry: entry.clone(),
            key: key.clone(),
            relevance,
        };
        if matches.is_empty() {
            rules.push(InboundRule {
                contribution: contribution("all traffic"),
                matched: None,
                conf,
            });
        }
        for matched in matches {
            rules.push(InboundRule {
                contribution: contribution("match"),
                matched: Some(matched),
                conf,
            });
        }
    }
    rules.sort_by_key(|r| match_rank(r.matched.as_ref()));
    rules
}

/// A `spiffeID` match before none (Exact before Prefix), then an `sni` match before none.
fn match_rank(matched: Option<&Json>) -> (u8, u8) {
    let spiffe = match matched
        .and_then(|m| m.pointer("/spiffeID/type"))
        .and_then(Json::as_str)
    {
        Some("Exact") => 0,
        Some(_) => 1,
        None => 2,
    };
    let sni = u8::from(matched.and_then(|m| m.get("sni")).is_none());
    (spiffe, sni)
}

/// The inbound items of one kind (§K8).
pub fn inbound(subject: &Subject<'_>, kind: &'static PolicyKind) -> Vec<OwnedItem> {
    let semantics = semantics_of(kind);
    let mut items = Vec::new();
    for (i, inbound) in subject.proxy.inbounds.iter().enumerate() {
        let key = format!("{}#{}", subject.dataplane(), inbound.section);
        let place = || subject.place(kind, "inbound", key.clone());
        let rules = inbound_rules(subject, i, semantics.from_as_rules);
        let made = match semantics.inbound {
            Inbound::None => None,
            _ if rules.is_empty() && semantics.inbound == Inbound::Permission => {
                legacy_permission(subject, i, place())
            }
            _ if rules.is_empty() => None,
            Inbound::Merged => Some(merged(subject, &rules, place(), semantics.durations)),
            Inbound::Listed => Some(listed(subject, &rules, place(), semantics.durations)),
            Inbound::Permission => Some(permission(subject, &rules, place())),
        };
        items.extend(made);
    }
    items
}

/// `{"match": ..., "conf": ...}` with the conf's durations as Go prints them.
fn matched_value(matched: Option<&Json>, conf: &Json, durations: &[&str]) -> Json {
    let mut conf = conf.clone();
    super::duration::normalize(&mut conf, None, None, durations);
    json!({"match": matched.cloned().unwrap_or(Json::Null), "conf": conf})
}

/// Each rule of `rules` as a key `<prefix>#<i>` with its match and conf.
fn keyed<'r>(
    rules: impl Iterator<Item = &'r InboundRule<'r>>,
    prefix: &str,
    durations: &[&str],
) -> Vec<OwnedRule> {
    (rules.enumerate())
        .map(|(i, rule)| OwnedRule {
            key: format!("{prefix}#{i}"),
            value: matched_value(rule.matched.as_ref(), rule.conf, durations),
            source: rule.contribution.policy,
            origins: vec![rule.contribution.policy],
        })
        .collect()
}

/// MeshTimeout, MeshCircuitBreaker, MeshRateLimit, MeshTLS: the catch-all rules folded, each
/// matched rule a `match#<i>` key.
fn merged(
    subject: &Subject<'_>,
    rules: &[InboundRule<'_>],
    place: Place,
    durations: &[&str],
) -> OwnedItem {
    let catch_all: Vec<&InboundRule<'_>> = rules.iter().filter(|r| r.matched.is_none()).collect();
    let contributions: Vec<Contribution> =
        catch_all.iter().map(|r| r.contribution.clone()).collect();
    let confs: Vec<&Json> = catch_all.iter().map(|r| r.conf).collect();
    let folded = fold(&confs, durations);
    let mut owned = fold_rules(&contributions, &folded);
    let matched = rules.iter().filter(|r| r.matched.is_some());
    owned.extend(keyed(matched, "match", durations));
    let lost = fold_losses(&contributions, &folded);
    let conf = folded.conf.clone();
    let mut made = item(
        subject.model,
        place,
        (owned, lost),
        &contributions,
        Some(&folded),
        conf,
    );
    // The matched rules' policies take part too (their `match#<i>` keys), after the fold's.
    for rule in rules.iter().filter(|r| r.matched.is_some()) {
        if !made.policies.contains(&rule.contribution.policy) {
            made.policies.push(rule.contribution.policy);
        }
    }
    made
}

/// MeshAccessLog, MeshFaultInjection: every rule a `rule#<i>` key.
fn listed(
    subject: &Subject<'_>,
    rules: &[InboundRule<'_>],
    place: Place,
    durations: &[&str],
) -> OwnedItem {
    let owned = keyed(rules.iter(), "rule", durations);
    let contributions: Vec<Contribution> = rules.iter().map(|r| r.contribution.clone()).collect();
    let conf = Json::Array(owned.iter().map(|r| r.value.clone()).collect());
    item(
        subject.model,
        place,
        (owned, Vec::new()),
        &contributions,
        None,
        conf,
    )
}

/// The MeshTrafficPermission lists, in Envoy's order of checks.
const PERMISSION_LISTS: [&str; 3] = ["deny", "allowWithShadowDeny", "allow"];

/// MeshTrafficPermission with `rules`: `deny`, `allowWithShadowDeny`, `allow`, each the
/// concatenation over every rule in order.
fn permission(subject: &Subject<'_>, rules: &[InboundRule<'_>], place: Place) -> OwnedItem {
    let contributions: Vec<Contribution> = rules.iter().map(|r| r.contribution.clone()).collect();
    let mut owned = Vec::new();
    let mut conf = serde_json::Map::new();
    for list in PERMISSION_LISTS {
        let mut values = Vec::new();
        let mut steps = Vec::new();
        for (s, rule) in rules.iter().enumerate() {
            if let Some(Json::Array(items)) = rule.conf.get(list) {
                values.extend(items.iter().cloned());
                steps.push(s);
            }
        }
        let Some(&last) = steps.last() else { continue };
        conf.insert(list.to_string(), Json::Array(values.clone()));
        owned.push(OwnedRule {
            key: list.to_string(),
            value: Json::Array(values),
            source: contributions[last].policy,
            origins: highest_first(&contributions, steps.into_iter()),
        });
    }
    item(
        subject.model,
        place,
        (owned, Vec::new()),
        &contributions,
        None,
        Json::Object(conf),
    )
}

/// An inbound without MeshTrafficPermission `rules`: the legacy `from[]`, modelled only when
/// every item targets `Mesh` (key `action`).
fn legacy_permission(subject: &Subject<'_>, inbound: usize, place: Place) -> Option<OwnedItem> {
    let mut items: Vec<(SortKey, &KumaPolicy, usize, &Item)> = Vec::new();
    for (policy, selection) in &subject.selected {
        if !selection.inbounds.contains(&inbound) {
            continue;
        }
        for (i, from) in policy.view.from.iter().flatten().enumerate() {
            items.push((policy.sort_key(subject.index).at(i), policy, i, from));
        }
    }
    if items.is_empty()
        || items
            .iter()
            .any(|(_, _, _, from)| from.target.kind != "Mesh")
    {
        return None;
    }
    sort(&mut items, |i| &i.0);
    let contributions: Vec<Contribution> = (items.iter())
        .map(|(key, policy, i, _)| Contribution {
            policy: policy.index,
            entry: format!("from[{i}]"),
            key: key.clone(),
            relevance: "Mesh",
        })
        .collect();
    let confs: Vec<&Json> = items.iter().map(|(_, _, _, from)| &from.conf).collect();
    Some(folded_item(subject, place, &contributions, &confs, &[]))
}

/// The proxy-wide item of a single-`default` kind (§K9).
pub fn proxy(subject: &Subject<'_>, kind: &'static PolicyKind) -> Option<OwnedItem> {
    let mut policies: Vec<(SortKey, &KumaPolicy)> = (subject.selected.iter())
        .map(|(p, _)| (p.sort_key(subject.index), *p))
        .collect();
    if policies.is_empty() {
        return None;
    }
    sort(&mut policies, |p| &p.0);
    let empty = Json::Object(serde_json::Map::new());
    let confs: Vec<&Json> = (policies.iter())
        .map(|(_, p)| p.view.default.as_ref().unwrap_or(&empty))
        .collect();
    let contributions: Vec<Contribution> = (policies.iter())
        .map(|(key, p)| Contribution {
            policy: p.index,
            entry: "default".to_string(),
            key: key.clone(),
            relevance: "selected",
        })
        .collect();
    let place = subject.place(kind, "proxy", String::new());
    let durations = semantics_of(kind).durations;
    Some(folded_item(
        subject,
        place,
        &contributions,
        &confs,
        durations,
    ))
}

/// The item of a path whose value is the fold of `confs` (one per contribution).
fn folded_item(
    subject: &Subject<'_>,
    place: Place,
    contributions: &[Contribution],
    confs: &[&Json],
    durations: &[&str],
) -> OwnedItem {
    let folded = fold(confs, durations);
    let rules = (
        fold_rules(contributions, &folded),
        fold_losses(contributions, &folded),
    );
    let conf = folded.conf.clone();
    item(
        subject.model,
        place,
        rules,
        contributions,
        Some(&folded),
        conf,
    )
}
