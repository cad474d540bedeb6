//! Resolving a `to[].targetRef` to the objects (and sections) it names (§K5 3, ✓
//! `rules/resolve/targetref.go`), and which entries are relevant to a key (§K5 4).

use super::index::Index;
use super::meta::{DISPLAY_NAME, Meta, NAMESPACE, name_ref_parts};
use super::spec::Ref;
use std::collections::BTreeMap;

/// An object an entry resolved to, with the section it names.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Resolved {
    /// Index into `Index::metas`.
    pub meta: usize,
    /// The section (a port of a MeshService or MeshMultiZoneService).
    pub section: Option<String>,
}

/// The `name_namespace_svc[_port]` form of a MeshService name (§K5 3): display name,
/// namespace, and the port when there is one.
fn service_name_form(name: &str) -> Option<(&str, &str, Option<i64>)> {
    let parts: Vec<&str> = name.split('_').collect();
    match parts.as_slice() {
        [service, namespace, _] => Some((service, namespace, None)),
        [service, namespace, _, port] => Some((service, namespace, Some(port.parse().ok()?))),
        _ => None,
    }
}

/// The objects (and sections) `target` names, for a policy with meta `policy`.
pub fn resolve(index: &Index, policy: &Meta, target: &Ref) -> Vec<Resolved> {
    let whole = |meta: usize| Resolved {
        meta,
        section: None,
    };
    let mesh = policy.mesh.as_str();
    let kind = target.kind.as_str();
    match kind {
        "Mesh" => return index.mesh(mesh).map(whole).into_iter().collect(),
        "MeshSubset" | "MeshServiceSubset" => return Vec::new(),
        _ => {}
    }
    if !target.labels.is_empty() {
        let found = index.by_labels(kind, mesh, &target.labels);
        return with_section(index, found, target.section.as_deref(), None);
    }
    let Some(name) = target.name.as_deref() else {
        return Vec::new();
    };
    if kind == "MeshService" && target.section.is_none() {
        if let Some((service, namespace, port)) = service_name_form(name) {
            let labels = BTreeMap::from([
                (DISPLAY_NAME.to_string(), service.to_string()),
                (NAMESPACE.to_string(), namespace.to_string()),
            ]);
            let found = index.by_labels(kind, mesh, &labels);
            return match port {
                Some(port) => with_section(index, found, None, Some(port)),
                None => found.into_iter().map(whole).collect(),
            };
        }
    }
    let parts = name_ref_parts(policy, kind, target.namespace.as_deref(), name);
    let found: Vec<usize> = index.by_kri(kind, parts).into_iter().collect();
    with_section(index, found, target.section.as_deref(), None)
}

/// Keeps the objects having the port `section` (or numbered `port`) names, with that section;
/// objects of kinds without ports are kept whole.
fn with_section(
    index: &Index,
    found: Vec<usize>,
    section: Option<&str>,
    port: Option<i64>,
) -> Vec<Resolved> {
    if section.is_none() && port.is_none() {
        return found
            .into_iter()
            .map(|meta| Resolved {
                meta,
                section: None,
            })
            .collect();
    }
    let mut resolved = Vec::new();
    for meta in found {
        if !matches!(
            index.metas[meta].kind.as_str(),
            "MeshService" | "MeshMultiZoneService"
        ) {
            resolved.push(Resolved {
                meta,
                section: None,
            });
            continue;
        }
        let matching = index.ports[meta].iter().find(|p| match port {
            Some(number) => p.port == Some(number),
            None => Some(p.section().as_str()) == section,
        });
        if let Some(p) = matching {
            resolved.push(Resolved {
                meta,
                section: Some(p.section()),
            });
        }
    }
    resolved
}

/// Why an entry that resolved to `entry` is relevant to the key `key`, or `None` (§K5 4).
pub fn relevance(index: &Index, entry: &Resolved, key: &Resolved) -> Option<&'static str> {
    let kind = index.metas[entry.meta].kind.as_str();
    if kind == "Mesh" {
        return Some("Mesh");
    }
    if entry.meta != key.meta {
        return None;
    }
    match (&entry.section, &key.section) {
        (None, None) => Some("exact"),
        (None, Some(_)) if matches!(kind, "MeshService" | "MeshMultiZoneService") => {
            Some("whole service")
        }
        (Some(a), Some(b)) if a == b => Some("exact"),
        _ => None,
    }
}
