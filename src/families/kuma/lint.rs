//! Kuma's lint findings (§K12): per policy (its own sections), per pair of policies (equal
//! display names), per mesh, per Dataplane and per path (losses, MeshTrafficPermission).

use super::diags::{About, Finding};
use super::evaluate::KumaEvaluator;
use super::index::{Gateway, Index};
use super::kinds::{Inbound, semantics_of};
use super::meta::{Meta, POLICY_ROLE};
use super::order::{SortKey, compare_ranks};
use super::paths::KumaPolicy;
use super::resolve::resolve;
use super::role::Role;
use super::settings::Mode;
use super::spec::{Item, Ref};
use crate::diag::Diagnostic;
use crate::source::Span;
use std::collections::BTreeSet;

/// Every Kuma finding of the model.
pub fn findings(evaluator: &KumaEvaluator<'_>) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let selecting: BTreeSet<usize> = (evaluator.selections.iter().flatten())
        .map(|(p, _)| *p)
        .collect();
    for (i, policy) in evaluator.policies.iter().enumerate() {
        let mut report = |finding: Finding, span: Span| {
            found.push(finding_about(evaluator, policy, finding, span));
        };
        policy_findings(evaluator, policy, selecting.contains(&i), &mut report);
        to_findings(evaluator, policy, &mut report);
    }
    found.extend(equal_display_names(evaluator));
    found.extend(object_findings(evaluator));
    found.extend(path_findings(evaluator));
    found.extend(permission_findings(evaluator));
    found
}

/// A finding about `policy` at `span`.
pub(super) fn finding_about(
    evaluator: &KumaEvaluator<'_>,
    policy: &KumaPolicy,
    finding: Finding,
    span: Span,
) -> Diagnostic {
    let object = evaluator.model.policies[policy.index as usize].display();
    Diagnostic::from(About {
        object: &object,
        finding,
    })
    .with_label(span, "here")
    .with_object(object)
}

pub(super) fn name_span(evaluator: &KumaEvaluator<'_>, policy: &KumaPolicy) -> Span {
    evaluator.model.policies[policy.index as usize].name_span
}

/// What one policy says of itself: shadow, no Dataplane, deprecated forms, its role label,
/// name refs from Global, numeric inbound sections, legacy `from[]`, mTLS.
fn policy_findings(
    evaluator: &KumaEvaluator<'_>,
    policy: &KumaPolicy,
    selects: bool,
    report: &mut dyn FnMut(Finding, Span),
) {
    let meta = &evaluator.index.metas[policy.meta];
    let name = name_span(evaluator, policy);
    let top = &policy.view.top;
    if policy.shadow {
        report(Finding::ShadowSkipped, name);
    } else if !selects {
        report(Finding::SelectsNoDataplane, name);
    }
    let from_global = meta.origin() == Some("global") || evaluator.index_mode() == Mode::Global;
    if top.kind == "Dataplane" && top.name.is_some() && from_global {
        report(Finding::DataplaneNameRefFromGlobal, top.span);
    }
    for what in deprecated(policy) {
        report(Finding::DeprecatedTargetRef(what), top.span);
    }
    if top.kind == "MeshGateway" {
        let what = "a top-level MeshGateway ref (builtin gateways)".to_string();
        report(Finding::NotModelled(what), top.span);
    }
    if let Some((written, computed)) = role_overwritten(evaluator, policy, meta) {
        report(Finding::RoleLabelOverwritten(written, computed), name);
    }
    if let Some((section, inbound)) = numeric_inbound_section(&evaluator.index, meta, top) {
        report(Finding::SectionPortNumber(section, inbound), top.span);
    }
    legacy_from(evaluator, policy, meta, report);
}

/// The deprecated forms a policy uses.
fn deprecated(policy: &KumaPolicy) -> Vec<String> {
    let top = &policy.view.top;
    let mut found = Vec::new();
    if matches!(
        top.kind.as_str(),
        "MeshSubset" | "MeshService" | "MeshServiceSubset" | "MeshHTTPRoute" | "MeshGateway"
    ) {
        found.push(format!("a top-level targetRef of kind {}", top.kind));
    }
    if !top.proxy_types.is_empty() {
        found.push("proxyTypes".to_string());
    }
    if policy.view.from.is_some() {
        found.push("from[]".to_string());
    }
    found
}

/// The written role label and the computed one, when a local policy's differ.
fn role_overwritten(
    evaluator: &KumaEvaluator<'_>,
    policy: &KumaPolicy,
    meta: &Meta,
) -> Option<(String, String)> {
    let object = &evaluator.model.objects[meta.object as usize];
    let written = object
        .labels()
        .find(|(k, _)| *k == POLICY_ROLE)
        .map(|(_, v)| v)?;
    let computed = meta.label(POLICY_ROLE)?;
    (meta.local && written != computed && policy.role.is_some())
        .then(|| (written.to_string(), computed.to_string()))
}

/// A numeric top-level `Dataplane` `sectionName` naming the port of a named inbound.
fn numeric_inbound_section(index: &Index, policy: &Meta, top: &Ref) -> Option<(String, String)> {
    let section = top.section.as_deref().filter(|_| top.kind == "Dataplane")?;
    let port: i64 = section.parse().ok()?;
    let inbound = (index.proxies.iter())
        .filter(|p| index.metas[p.meta].mesh == policy.mesh)
        .flat_map(|p| p.inbounds.iter())
        .find(|i| i.named && i.port == Some(port))?;
    Some((section.to_string(), inbound.section.clone()))
}

/// Legacy `from[]` dopol does not model; MeshTrafficPermissions without mTLS.
fn legacy_from(
    evaluator: &KumaEvaluator<'_>,
    policy: &KumaPolicy,
    meta: &Meta,
    report: &mut dyn FnMut(Finding, Span),
) {
    let name = name_span(evaluator, policy);
    let from = policy.view.from.as_deref().unwrap_or_default();
    match policy.kind.kind {
        "MeshFaultInjection" if !from.is_empty() => {
            report(
                Finding::NotModelled("the legacy from[] of a MeshFaultInjection".into()),
                from[0].span,
            );
        }
        "MeshTrafficPermission" => {
            if let Some(item) = from.iter().find(|f| f.target.kind != "Mesh") {
                let what = format!("a legacy from[] item of kind {}", item.target.kind);
                report(Finding::NotModelled(what), item.span);
            }
            if !mtls_enabled(evaluator, &meta.mesh) {
                report(Finding::MtpWithoutMtls(meta.mesh.clone()), name);
            }
        }
        _ => {}
    }
}

/// Whether mesh `mesh` has `mtls.enabledBackend` or the input holds a MeshIdentity of it.
fn mtls_enabled(evaluator: &KumaEvaluator<'_>, mesh: &str) -> bool {
    let index = &evaluator.index;
    let backend = index
        .mesh(mesh)
        .and_then(|m| index.specs[m].as_ref())
        .and_then(|s| s.get_path(&["mtls", "enabledBackend"]));
    backend.is_some_and(|b| !b.is_null()) || has_identity(index, mesh)
}

fn has_identity(index: &Index, mesh: &str) -> bool {
    index.of_kind("MeshIdentity", mesh).next().is_some()
}

/// The `to[]` entries: builtin-gateway-only ones, those resolving to nothing, numeric
/// sections, MeshService targets in a mesh without MeshServices.
fn to_findings(
    evaluator: &KumaEvaluator<'_>,
    policy: &KumaPolicy,
    report: &mut dyn FnMut(Finding, Span),
) {
    let semantics = semantics_of(policy.kind);
    let items = policy.view.to.as_deref().unwrap_or_default();
    if semantics.gateway_only_to && !items.is_empty() {
        let what = format!(
            "to[] of a {} (applied on builtin gateways only)",
            policy.kind.kind
        );
        report(Finding::NotModelled(what), items[0].span);
        return;
    }
    let meta = &evaluator.index.metas[policy.meta];
    let mut services = false;
    for (i, item) in items.iter().enumerate() {
        let target = &item.target;
        services |= matches!(target.kind.as_str(), "MeshService" | "MeshMultiZoneService");
        if let Some(why) = not_found(&evaluator.index, meta, target) {
            report(
                Finding::ToTargetNotFound(format!("to[{i}] ({})", describe(target)), why),
                target.span,
            );
        }
        if let Some((section, name)) = numeric_port_section(&evaluator.index, meta, target) {
            report(Finding::SectionPortNumber(section, name), target.span);
        }
    }
    if services && !mesh_services_enabled(&evaluator.index, &meta.mesh) {
        report(
            Finding::MeshServicesDisabled(meta.mesh.clone()),
            items[0].span,
        );
    }
}

/// `MeshService kuma-demo/backend#http`, for messages.
fn describe(target: &Ref) -> String {
    let mut text = target.kind.clone();
    if let Some(name) = &target.name {
        text.push(' ');
        if let Some(ns) = &target.namespace {
            text.push_str(&format!("{ns}/"));
        }
        text.push_str(name);
    }
    if !target.labels.is_empty() {
        let labels: Vec<String> = target
            .labels
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        text.push_str(&format!(" with labels {}", labels.join(",")));
    }
    if let Some(section) = &target.section {
        text.push_str(&format!("#{section}"));
    }
    text
}

/// Why an entry resolves to nothing, when it does.
fn not_found(index: &Index, policy: &Meta, target: &Ref) -> Option<&'static str> {
    if matches!(
        target.kind.as_str(),
        "Mesh" | "MeshSubset" | "MeshServiceSubset"
    ) || !resolve(index, policy, target).is_empty()
    {
        return None;
    }
    let whole = Ref {
        section: None,
        ..target.clone()
    };
    Some(
        if target.section.is_some() && !resolve(index, policy, &whole).is_empty() {
            "no port has that section"
        } else if !target.labels.is_empty() {
            "no object has these labels"
        } else {
            "a name ref looks only in the policy's zone and namespace"
        },
    )
}

/// A numeric `sectionName` on a MeshService whose port of that number has a name.
fn numeric_port_section(index: &Index, policy: &Meta, target: &Ref) -> Option<(String, String)> {
    let section = target.section.as_deref()?;
    let number: i64 = section.parse().ok()?;
    let whole = Ref {
        section: None,
        ..target.clone()
    };
    resolve(index, policy, &whole).into_iter().find_map(|r| {
        let port = index.ports[r.meta]
            .iter()
            .find(|p| p.port == Some(number))?;
        port.name.clone().map(|name| (section.to_string(), name))
    })
}

/// Whether mesh `mesh`'s `meshServices.mode` is other than `Disabled` (the default).
fn mesh_services_enabled(index: &Index, mesh: &str) -> bool {
    let mode = index
        .mesh(mesh)
        .and_then(|m| index.specs[m].as_ref())
        .and_then(|s| s.get_path(&["meshServices", "mode"]))
        .and_then(crate::yaml::Node::as_str);
    mode.is_some_and(|m| m != "Disabled")
}

/// Policies of one kind, mesh and display name that tie on every rank.
fn equal_display_names(evaluator: &KumaEvaluator<'_>) -> Vec<Diagnostic> {
    let index = &evaluator.index;
    let key = |p: &KumaPolicy| -> SortKey { p.sort_key(index) };
    let mut found = Vec::new();
    for a in &evaluator.policies {
        let tied = evaluator.policies.iter().filter(|b| {
            b.index != a.index
                && std::ptr::eq(a.kind, b.kind)
                && index.metas[a.meta].mesh == index.metas[b.meta].mesh
                && index.metas[a.meta].display == index.metas[b.meta].display
                && compare_ranks(&key(a), &key(b)).is_eq()
        });
        if let Some(b) = tied.min_by_key(|b| b.index) {
            let other = evaluator.model.policies[b.index as usize].display();
            found.push(finding_about(
                evaluator,
                a,
                Finding::EqualDisplayNames(other),
                name_span(evaluator, a),
            ));
        }
    }
    found
}

/// Assumed meshes and Dataplanes dopol does not model.
fn object_findings(evaluator: &KumaEvaluator<'_>) -> Vec<Diagnostic> {
    let index = &evaluator.index;
    let model = evaluator.model;
    let mut found = Vec::new();
    let about = |meta: &Meta, finding: Finding| {
        let object = &model.objects[meta.object as usize];
        let display = object.display();
        Diagnostic::from(About {
            object: &display,
            finding,
        })
        .with_label(object.name_span(), "here")
        .with_object(display)
    };
    for mesh in &index.assumed_meshes {
        if let Some(first) = index
            .metas
            .iter()
            .find(|m| m.mesh == *mesh && m.object != u32::MAX)
        {
            found.push(about(first, Finding::MeshAssumed(mesh.clone())));
        }
    }
    for proxy in &index.proxies {
        let meta = &index.metas[proxy.meta];
        if proxy.gateway == Gateway::Builtin {
            found.push(about(
                meta,
                Finding::NotModelled("a builtin gateway".into()),
            ));
        }
        if proxy.listeners {
            found.push(about(
                meta,
                Finding::NotModelled("networking.listeners[] (zone proxy)".into()),
            ));
        }
    }
    found
}

/// On each path: consumer entries winning over producer ones; route keys without their
/// service's entries.
fn path_findings(evaluator: &KumaEvaluator<'_>) -> Vec<Diagnostic> {
    let role = |p: u32| {
        evaluator
            .policies
            .iter()
            .find(|k| k.index == p)
            .and_then(|k| k.role)
    };
    let mut seen = BTreeSet::new();
    let mut found = Vec::new();
    for item in &evaluator.paths.items {
        for loss in &item.lost {
            let pair = (loss.winner, loss.policy, loss.key.clone());
            if role(loss.policy) == Some(Role::Producer)
                && role(loss.winner) == Some(Role::Consumer)
                && less_specific(item, loss.winner, loss.policy)
                && seen.insert(pair)
            {
                let winner = evaluator
                    .policies
                    .iter()
                    .find(|k| k.index == loss.winner)
                    .expect("a Kuma policy");
                let producer = evaluator.model.policies[loss.policy as usize].display();
                let finding = Finding::ConsumerOverridesProducer(
                    loss.key.clone(),
                    producer,
                    item.path_id.clone(),
                );
                found.push(finding_about(
                    evaluator,
                    winner,
                    finding,
                    name_span(evaluator, winner),
                ));
            }
        }
    }
    found.extend(super::lint_routes::route_findings(evaluator));
    found
}

/// Whether on `item` the entries of `winner` aim at a less specific kind of target (the `to`
/// column of their sort keys) than those of `loser`.
fn less_specific(item: &crate::policy::owned::OwnedItem, winner: u32, loser: u32) -> bool {
    let rank = |policy: u32| {
        (item.explanation.steps.iter())
            .filter(|s| s.policy == policy)
            .filter_map(|s| s.key.get(3))
            .map(|to| super::order::kind_rank(to.split('#').next().unwrap_or_default()))
            .max()
    };
    matches!((rank(winner), rank(loser)), (Some(w), Some(l)) if w < l)
}

/// MeshTrafficPermission `from[]` ignored: beside `rules` on an inbound, or with a
/// MeshIdentity in the mesh.
fn permission_findings(evaluator: &KumaEvaluator<'_>) -> Vec<Diagnostic> {
    let index = &evaluator.index;
    let mut reported = BTreeSet::new();
    let mut found = Vec::new();
    for (proxy, selections) in index.proxies.iter().zip(&evaluator.selections) {
        let mesh = &index.metas[proxy.meta].mesh;
        for (i, inbound) in proxy.inbounds.iter().enumerate() {
            let mtps: Vec<&KumaPolicy> = (selections.iter())
                .filter(|(p, s)| {
                    semantics_of(evaluator.policies[*p].kind).inbound == Inbound::Permission
                        && s.inbounds.contains(&i)
                })
                .map(|(p, _)| &evaluator.policies[*p])
                .collect();
            let has_rules = mtps.iter().any(|p| p.view.rules.is_some());
            let why = if has_rules {
                "another MeshTrafficPermission has rules for it"
            } else if has_identity(index, mesh) {
                "a MeshIdentity gives the proxy a workload identity"
            } else {
                continue;
            };
            let target = format!(
                "{}#{}",
                index.metas[proxy.meta].namespaced_name(),
                inbound.section
            );
            for policy in mtps
                .iter()
                .filter(|p| p.view.from.as_ref().is_some_and(|f| !f.is_empty()))
            {
                if reported.insert(policy.index) {
                    let span = from_span(policy);
                    found.push(finding_about(
                        evaluator,
                        policy,
                        Finding::MtpFromIgnored(target.clone(), why),
                        span,
                    ));
                }
            }
        }
    }
    found
}

fn from_span(policy: &KumaPolicy) -> Span {
    let first: Option<&Item> = policy.view.from.as_ref().and_then(|f| f.first());
    first.map_or(policy.view.top.span, |f| f.span)
}

impl KumaEvaluator<'_> {
    /// The mode of the control plane.
    fn index_mode(&self) -> Mode {
        self.settings.mode
    }
}
