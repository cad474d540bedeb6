//! The Kuma evaluation of one model: the index, the policies as Kuma reads them, and every
//! Dataplane's paths with their items (`OwnedPaths`), computed once when the evaluator is made.

use super::index::{Gateway, Index};
use super::kinds::semantics_of;
use super::meta::{EFFECT, POLICY_ROLE};
use super::paths::{self, KumaPolicy, Subject, inbound, outbound};
use super::role::Role;
use super::select::{Selection, Selector, select};
use super::settings::KumaSettings;
use super::spec::View;
use crate::diag::Diagnostic;
use crate::engine::fold::{FoldFailure, FoldObserver, Folded};
use crate::engine::observed::Observed;
use crate::model::Model;
use crate::policy::owned::{OwnedFilter, OwnedItem, OwnedNode, OwnedPaths};
use crate::policy::{Evaluator, PathView, PolicyConditions};
use crate::topology::hierarchy::{Level, Occurs};

/// The filters of the mesh hierarchy.
const FILTERS: &[OwnedFilter] = &[
    OwnedFilter::by_name("mesh", 0),
    OwnedFilter::by_name("dataplane", 1),
];

/// The levels of the mesh hierarchy (the nodes of its tree).
const LEVELS: &[Level] = &[
    Level {
        name: "Mesh",
        occurs: Occurs::Once,
    },
    Level {
        name: "Dataplane",
        occurs: Occurs::Once,
    },
    Level {
        name: "inbound, outbound or proxy",
        occurs: Occurs::Once,
    },
];

/// Kuma's evaluator: everything is computed up front.
pub struct KumaEvaluator<'m> {
    pub(super) model: &'m Model,
    pub(super) settings: KumaSettings,
    /// The object index.
    pub index: Index,
    /// The Kuma policies of the model.
    pub policies: Vec<KumaPolicy>,
    /// Per Dataplane (index into `Index::proxies`): the policies (index into `policies`)
    /// selecting it, with what they select; none for builtin gateways.
    pub selections: Vec<Vec<(usize, Selection)>>,
    /// The paths.
    pub paths: OwnedPaths,
}

impl<'m> KumaEvaluator<'m> {
    /// Evaluates `model` for a control plane with `settings`.
    pub fn new(model: &'m Model, settings: &KumaSettings) -> KumaEvaluator<'m> {
        let index = Index::build(model, settings);
        let policies = kuma_policies(model, &index);
        let selections = selections(&index, &policies);
        let mut evaluator = KumaEvaluator {
            model,
            settings: settings.clone(),
            index,
            policies,
            selections,
            paths: OwnedPaths {
                name: "mesh",
                levels: LEVELS,
                columns: &["MESH", "DATAPLANE", "DIRECTION", "KEY"],
                filters: FILTERS,
                ..OwnedPaths::default()
            },
        };
        let mut items = evaluator.items();
        items.extend(super::lookup::fallbacks(&items, &settings.outbounds));
        evaluator.paths.items = sorted(&evaluator.model.registry, items);
        evaluator.paths.tree = tree(&evaluator.paths.items);
        evaluator.paths.notes = notes(&evaluator.index, settings);
        evaluator
    }

    /// Every item, sorted by path id, then kind.
    fn items(&self) -> Vec<OwnedItem> {
        let mut items = Vec::new();
        for (proxy, selections) in self.index.proxies.iter().zip(&self.selections) {
            for kind in super::kinds::KINDS.iter() {
                let selected: Vec<_> = (selections.iter())
                    .filter(|(p, _)| std::ptr::eq(self.policies[*p].kind, kind))
                    .map(|(p, selection)| (&self.policies[*p], selection.clone()))
                    .collect();
                if selected.is_empty() {
                    continue;
                }
                let subject = Subject {
                    model: self.model,
                    index: &self.index,
                    proxy,
                    selected,
                };
                let semantics = semantics_of(kind);
                if semantics.outbound {
                    items.extend(outbound(&subject, kind));
                }
                items.extend(inbound(&subject, kind));
                if semantics.proxy {
                    items.extend(paths::proxy(&subject, kind));
                }
            }
        }
        items
    }
}

/// What `-v` says of how the mesh was read: the control plane's mode and local zone, and the
/// looked-up outbounds without a fallback chain; nothing when the input has no Kuma object.
fn notes(index: &Index, settings: &KumaSettings) -> Vec<String> {
    if index.metas.is_empty() {
        return Vec::new();
    }
    let mode = match settings.mode {
        super::settings::Mode::Zone => format!("Kuma: a zone control plane; {}", index.zone_note),
        super::settings::Mode::Global => {
            "Kuma: the global control plane (--kuma-mode global): objects with origin global or none are local".to_string()
        }
    };
    let mut notes = vec![mode];
    notes.extend(super::lookup::notes(&settings.outbounds));
    notes
}

/// `items` sorted by path id, then by the kind's position in the registry.
fn sorted(registry: &crate::policy::Registry, mut items: Vec<OwnedItem>) -> Vec<OwnedItem> {
    items.sort_by(|a, b| {
        (a.path_id.cmp(&b.path_id)).then_with(|| {
            registry
                .kind_index(a.kind)
                .cmp(&registry.kind_index(b.kind))
        })
    });
    items
}

/// Per Dataplane: the policies selecting it (shadow policies skipped; builtin gateways are
/// not modelled).
fn selections(index: &Index, policies: &[KumaPolicy]) -> Vec<Vec<(usize, Selection)>> {
    (index.proxies.iter())
        .map(|proxy| {
            if proxy.gateway == Gateway::Builtin {
                return Vec::new();
            }
            (policies.iter().enumerate())
                .filter(|(_, p)| !p.shadow)
                .filter_map(|(i, p)| {
                    let selector = Selector {
                        meta: &index.metas[p.meta],
                        view: &p.view,
                        role: p.role,
                    };
                    Some((i, select(index, &selector, proxy)?))
                })
                .collect()
        })
        .collect()
}

/// The model's Kuma policies, with their specs read.
fn kuma_policies(model: &Model, index: &Index) -> Vec<KumaPolicy> {
    let mut policies = Vec::new();
    for (i, policy) in model.policies.iter().enumerate() {
        let Some(&meta) = index.policy_meta.get(&(i as u32)) else {
            continue;
        };
        let labels = &index.metas[meta];
        policies.push(KumaPolicy {
            index: i as u32,
            meta,
            kind: policy.kind,
            view: policy.spec.as_deref().map(View::read).unwrap_or_default(),
            role: Role::parse(labels.label(POLICY_ROLE)),
            shadow: labels.label(EFFECT) == Some("shadow"),
        });
    }
    policies
}

/// Mesh → Dataplane → direction key, with the policies of each key.
fn tree(items: &[OwnedItem]) -> Vec<OwnedNode> {
    let mut meshes: Vec<OwnedNode> = Vec::new();
    for item in items {
        let [mesh, dp, direction, key] = &item.segments[..] else {
            continue;
        };
        let mesh_node = child(&mut meshes, "Mesh", mesh);
        let dp_node = child(&mut mesh_node.children, "Dataplane", dp);
        let name = if key.is_empty() {
            direction.clone()
        } else {
            key.clone()
        };
        let node = child(&mut dp_node.children, direction, &name);
        if !node.paths.contains(&item.path_id) {
            node.paths.push(item.path_id.clone());
        }
        for &p in &item.policies {
            if !node.policies.contains(&p) {
                node.policies.push(p);
            }
        }
    }
    meshes
}

fn child<'a>(nodes: &'a mut Vec<OwnedNode>, kind: &str, name: &str) -> &'a mut OwnedNode {
    let at = match nodes.iter().position(|n| n.kind == kind && n.name == name) {
        Some(at) => at,
        None => {
            nodes.push(OwnedNode {
                kind: kind.to_string(),
                name: name.to_string(),
                ..OwnedNode::default()
            });
            nodes.len() - 1
        }
    };
    &mut nodes[at]
}

impl<'m> Evaluator<'m> for KumaEvaluator<'m> {
    fn fold(&self, _view: &PathView<'_>, _observer: &mut dyn FoldObserver<'m>) -> Folded<'m> {
        // Kuma policies attach to no Gateway API path: the engine has none of theirs to fold.
        Folded::default()
    }

    fn fold_warning(&self, path_id: &str, failure: &FoldFailure) -> Diagnostic {
        Diagnostic::from(super::diags::About {
            object: path_id,
            finding: super::diags::Finding::NotModelled(format!("a fold ({})", failure.reason)),
        })
    }

    fn lint(&self, _observed: &Observed<'_, 'm>) -> Vec<Diagnostic> {
        super::lint::findings(self)
    }

    fn conditions(&self, _observed: &Observed<'_, 'm>, policy: u32) -> PolicyConditions {
        super::status::conditions(self, policy)
    }

    fn owned_paths(&self) -> Option<&OwnedPaths> {
        Some(&self.paths)
    }
}
