//! The backends of the matched rule, as far as dopol can resolve them offline
//! (docs/request.md "Backends").
//!
//! Gateway API: a backendRef that cannot be resolved — to another namespace without a
//! ReferenceGrant permitting it (`RefNotPermitted`), of a kind the implementation does not
//! support (`InvalidKind`), or to a Service that does not exist (`BackendNotFound`) — gets no
//! traffic, and the requests that would have gone to it receive a 500 (conformance
//! `httproute-invalid-cross-namespace-backend-ref`, `httproute-invalid-reference-grant`,
//! `httproute-invalid-backendref-unknown-kind`). dopol reads ReferenceGrants, so it can say
//! `RefNotPermitted`; it does not read Services, so it never says a Service exists, and a kind
//! other than a core Service is one whose support only the implementation knows. An answer is
//! therefore "cannot be resolved" (500), or "not known to fail": never "served".

use crate::model::Model;
use crate::model::gateway::{GATEWAY_GROUP, Route};
use crate::yaml::Node;
use serde::Serialize;

/// Whether a backendRef resolves, as far as dopol can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Resolution {
    /// Cannot resolve: another namespace and no ReferenceGrant permits it (`RefNotPermitted`).
    RefNotPermitted,
    /// A kind dopol does not know: the implementation decides (`InvalidKind` if unsupported).
    UnknownKind,
    /// Nothing dopol reads says it fails (a Service's existence is not checked).
    NotChecked,
}

/// One backendRef of the matched rule.
#[derive(Clone, Debug, Serialize)]
pub struct BackendView {
    /// `Kind ns/name[:port]` (`Service` for a core Service).
    pub backend: String,
    /// Its weight (default 1).
    pub weight: i64,
    /// What dopol can tell.
    pub resolution: Resolution,
    /// In words.
    pub message: String,
}

/// The response the unresolvable backends cause.
#[derive(Clone, Debug, Serialize)]
pub struct BackendFailure {
    /// `500`.
    pub status: u16,
    /// Whether every request of the rule gets it, or some (by weight).
    pub share: Share,
    /// In words, with the reason.
    pub message: String,
}

/// Which requests of a rule an unresolvable backend answers with a 500.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Share {
    /// Every request the rule matches.
    All,
    /// Their share by weight.
    Some,
}

/// A backendRef read from the rule.
struct BackendRef<'n> {
    group: &'n str,
    kind: &'n str,
    name: &'n str,
    namespace: &'n str,
    port: Option<i64>,
    weight: i64,
}

impl BackendRef<'_> {
    fn is_service(&self) -> bool {
        self.group.is_empty() && self.kind == "Service"
    }

    fn display(&self) -> String {
        let port = self.port.map(|p| format!(":{p}")).unwrap_or_default();
        let kind = if self.is_service() || self.group.is_empty() {
            self.kind.to_string()
        } else {
            format!("{}.{}", self.kind, self.group)
        };
        format!("{kind} {}/{}{port}", self.namespace, self.name)
    }
}

/// The backendRefs written in rule `rule` of `route`.
fn backend_refs<'n>(rule: &'n Node, route: &'n Route) -> Vec<BackendRef<'n>> {
    let text = |node: &'n Node, key: &str| node.get(key).and_then(Node::as_str);
    rule.get("backendRefs")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .map(|b| BackendRef {
            group: text(b, "group").unwrap_or(""),
            kind: text(b, "kind").unwrap_or("Service"),
            name: text(b, "name").unwrap_or(""),
            namespace: text(b, "namespace").unwrap_or(&route.namespace),
            port: b.get("port").and_then(Node::as_i64),
            weight: b.get("weight").and_then(Node::as_i64).unwrap_or(1),
        })
        .collect()
}

/// The ReferenceGrant in the backend's namespace that permits `route` to reference it.
fn grant<'m>(model: &'m Model, route: &Route, backend: &BackendRef<'_>) -> Option<&'m str> {
    let from = (
        GATEWAY_GROUP,
        route.kind.as_str(),
        ("namespace", &*route.namespace),
    );
    let to = (backend.group, backend.kind, ("name", backend.name));
    crate::model::grants::permitting(model, from, backend.namespace, to)
}

/// What dopol can tell of one backendRef.
fn resolve(model: &Model, route: &Route, backend: &BackendRef<'_>) -> (Resolution, String) {
    let mut permit = String::new();
    if backend.namespace != &*route.namespace {
        let Some(grant) = grant(model, route, backend) else {
            let message = format!(
                "cannot be resolved (RefNotPermitted): it is in namespace {} and no ReferenceGrant there lets {}s of namespace {} reference it",
                backend.namespace,
                route.kind.as_str(),
                route.namespace
            );
            return (Resolution::RefNotPermitted, message);
        };
        permit = format!("ReferenceGrant {}/{grant} permits it; ", backend.namespace);
    }
    if backend.is_service() {
        let message =
            format!("{permit}dopol does not read Services, so whether it exists is not checked");
        return (Resolution::NotChecked, message);
    }
    let message = format!(
        "{permit}a kind dopol does not model: an implementation that does not support it answers 500 (InvalidKind), one that does routes to it"
    );
    (Resolution::UnknownKind, message)
}

/// The backends of the matched rule (`rule` of `route`), and the 500 they cause, if dopol can
/// tell.
pub fn check(
    model: &Model,
    route: &Route,
    rule: u32,
) -> (Vec<BackendView>, Option<BackendFailure>) {
    let tree = model.tree(&model.objects[route.object as usize]);
    let Some(rule_node) = tree
        .get_path(&["spec", "rules"])
        .and_then(Node::as_seq)
        .and_then(|rules| rules.get(rule as usize))
    else {
        return (Vec::new(), None);
    };
    let refs = backend_refs(rule_node, route);
    let views: Vec<BackendView> = refs
        .iter()
        .map(|b| {
            let (resolution, message) = resolve(model, route, b);
            BackendView {
                backend: b.display(),
                weight: b.weight,
                resolution,
                message,
            }
        })
        .collect();
    let failure = failure(rule_node, &views);
    (views, failure)
}

/// The 500 of the unresolvable backends: for every request when each backend with weight is
/// unresolvable and the rule has no filters (which could answer instead), else for their share.
fn failure(rule: &Node, views: &[BackendView]) -> Option<BackendFailure> {
    let failing: Vec<&BackendView> = views
        .iter()
        .filter(|v| v.resolution == Resolution::RefNotPermitted)
        .collect();
    if failing.is_empty() {
        return None;
    }
    let weight =
        |list: &mut dyn Iterator<Item = &BackendView>| list.map(|v| v.weight.max(0)).sum::<i64>();
    let total = weight(&mut views.iter());
    let bad = weight(&mut failing.iter().copied());
    if bad == 0 && total > 0 {
        return None; // the unresolvable backends have weight 0: no request goes there
    }
    let has_filters = rule
        .get("filters")
        .and_then(Node::as_seq)
        .is_some_and(|f| !f.is_empty());
    let names: Vec<&str> = failing.iter().map(|v| v.backend.as_str()).collect();
    let (share, message) = if bad >= total && !has_filters {
        (
            Share::All,
            format!(
                "500: no backend of the rule can be resolved ({}: no ReferenceGrant permits it), so every request it matches receives a 500 (Gateway API; conformance httproute-invalid-cross-namespace-backend-ref)",
                names.join(", ")
            ),
        )
    } else {
        (
            Share::Some,
            format!(
                "500 for {bad} of {total} (by weight): {} cannot be resolved (no ReferenceGrant permits it), and the requests that would go there receive a 500{}",
                names.join(", "),
                if has_filters {
                    "; the rule's filters may answer first"
                } else {
                    ""
                }
            ),
        )
    };
    Some(BackendFailure {
        status: 500,
        share,
        message,
    })
}
