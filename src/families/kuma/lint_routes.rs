//! `kuma-route-ignores-service-entries` (§K12): a MeshHTTPRoute's outbound key never takes the
//! entries aimed at the MeshService the route sends to (§K5 4).

use super::diags::Finding;
use super::evaluate::KumaEvaluator;
use super::lint::{finding_about, name_span};
use super::resolve::resolve;
use super::spec::Ref;
use crate::diag::Diagnostic;
use crate::yaml::Node;
use std::collections::BTreeSet;

/// The MeshServices (metas) route `route` (a meta) sends to.
fn route_services(evaluator: &KumaEvaluator<'_>, route: usize) -> BTreeSet<usize> {
    let index = &evaluator.index;
    let to = (index.specs[route].as_ref())
        .and_then(|s| s.get("to"))
        .and_then(Node::as_seq)
        .unwrap_or_default();
    to.iter()
        .map(|item| Ref::read(item.get("targetRef"), item.span))
        .filter(|target| target.kind == "MeshService")
        .flat_map(|target| resolve(index, &index.metas[route], &target))
        .map(|r| r.meta)
        .collect()
}

/// The findings on every route key.
pub fn route_findings(evaluator: &KumaEvaluator<'_>) -> Vec<Diagnostic> {
    let index = &evaluator.index;
    let mut seen = BTreeSet::new();
    let mut found = Vec::new();
    for item in evaluator.paths.items.iter() {
        let key = &item.segments[3];
        if !key.starts_with("kri_mhttpr_") {
            continue;
        }
        let Some(route) =
            (index.metas.iter()).position(|m| m.kind == "MeshHTTPRoute" && m.kri(None) == *key)
        else {
            continue;
        };
        let services = route_services(evaluator, route);
        let Some(proxy) = (index.proxies.iter())
            .position(|p| index.metas[p.meta].namespaced_name() == item.segments[1])
        else {
            continue;
        };
        for (p, _) in &evaluator.selections[proxy] {
            let policy = &evaluator.policies[*p];
            if !std::ptr::eq(policy.kind, item.kind) {
                continue;
            }
            let meta = &index.metas[policy.meta];
            let aimed = (policy.view.to.iter().flatten())
                .flat_map(|to| resolve(index, meta, &to.target))
                .find(|r| services.contains(&r.meta));
            if let Some(service) = aimed.filter(|_| seen.insert((policy.index, route))) {
                let service = index.metas[service.meta].namespaced_name();
                let finding = Finding::RouteIgnoresServiceEntries(
                    key.clone(),
                    format!("MeshService {service}"),
                );
                found.push(finding_about(
                    evaluator,
                    policy,
                    finding,
                    name_span(evaluator, policy),
                ));
            }
        }
    }
    found
}
