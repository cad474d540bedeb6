//! "It exists, in another namespace": the commonest reason a parentRef or targetRef resolves to
//! nothing.
//!
//! Guides and application repositories often ship YAML without `metadata.namespace` and apply
//! it with `kubectl -n X`; read without `-n`, every such object lands in `default` and every
//! reference from it misses. Saying "not in the input" (or offering `--assume-gateways`) then
//! hides the real cause, so whenever a reference names an object that exists under another
//! namespace, the diagnostics say where it is and which of the three fixes applies: `-n X` /
//! `metadata.namespace` for the referring object, or `parentRef.namespace` (with the
//! listener's `allowedRoutes`) for a route that is meant to stay where it is.

use super::Model;
use super::gateway::{Gateway, ParentRef, Route};
use std::collections::HashMap;

impl Gateway {
    /// This Gateway as a candidate for a reference that missed.
    pub fn candidate(&self) -> Candidate<'_> {
        Candidate {
            namespace: &self.namespace,
            name: &self.name,
            defaulted: self.namespace_defaulted,
        }
    }
}

impl Route {
    /// This route as a candidate for a reference that missed.
    pub fn candidate(&self) -> Candidate<'_> {
        Candidate {
            namespace: &self.namespace,
            name: &self.name,
            defaulted: self.namespace_defaulted,
        }
    }
}

/// An object that might be the one a reference meant.
#[derive(Clone, Copy, Debug)]
pub struct Candidate<'a> {
    /// Its namespace.
    pub namespace: &'a str,
    /// Its name.
    pub name: &'a str,
    /// Whether its namespace was not written (it came from `-n` or `default`).
    pub defaulted: bool,
}

/// Where a referenced name exists instead.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Elsewhere<'a> {
    /// The namespaces, other than the one looked in, holding an object of that name; sorted.
    pub namespaces: Vec<&'a str>,
    /// Whether every such object has no `metadata.namespace`: then it is the object that was
    /// probably read into the wrong namespace, not the reference that is wrong.
    pub all_defaulted: bool,
    /// The namespace the objects without `metadata.namespace` among them were read into (one:
    /// `-n`'s, or `default`), when there are such objects.
    pub defaulted_into: Option<&'a str>,
}

impl<'a> Elsewhere<'a> {
    /// Whether the name exists nowhere else.
    pub fn is_empty(&self) -> bool {
        self.namespaces.is_empty()
    }

    /// The namespace the reference most likely meant: the first one where an object of that
    /// name has its namespace written. An object read into the default namespace (a guide's
    /// YAML without `metadata.namespace`) is more likely misplaced than meant, so the help
    /// names it only when it is the only one.
    pub fn likely(&self) -> &'a str {
        self.namespaces
            .iter()
            .copied()
            .find(|ns| Some(*ns) != self.defaulted_into)
            .unwrap_or(self.namespaces[0])
    }
}

/// The objects called `name` outside `namespace`.
pub fn find<'a>(
    objects: impl Iterator<Item = Candidate<'a>>,
    name: &str,
    namespace: &str,
) -> Elsewhere<'a> {
    let found: Vec<Candidate<'a>> = objects
        .filter(|c| c.name == name && c.namespace != namespace)
        .collect();
    let mut namespaces: Vec<&str> = found.iter().map(|c| c.namespace).collect();
    namespaces.sort_unstable();
    namespaces.dedup();
    Elsewhere {
        all_defaulted: !found.is_empty() && found.iter().all(|c| c.defaulted),
        defaulted_into: found.iter().find(|c| c.defaulted).map(|c| c.namespace),
        namespaces,
    }
}

/// The model's Gateways (stand-ins left out) and routes by kind and name, built once so that
/// every reference that misses costs one lookup, not a scan of the model.
pub struct ByName<'a>(HashMap<&'a str, Vec<(&'static str, Candidate<'a>)>>);

impl<'a> ByName<'a> {
    /// Indexes `model`.
    pub fn of_model(model: &'a Model) -> ByName<'a> {
        let mut index: HashMap<&'a str, Vec<(&'static str, Candidate<'a>)>> = HashMap::new();
        let gateways = model.gateways.iter().filter(|g| !g.assumed);
        let gateways = gateways.map(|g| ("Gateway", g.candidate()));
        let routes = model
            .routes
            .iter()
            .map(|r| (r.kind.as_str(), r.candidate()));
        for (kind, candidate) in gateways.chain(routes) {
            index
                .entry(candidate.name)
                .or_default()
                .push((kind, candidate));
        }
        ByName(index)
    }

    /// The objects of `kind` called `name` outside `namespace`.
    pub fn find(&self, kind: &str, name: &str, namespace: &str) -> Elsewhere<'a> {
        let named = self.0.get(name).map_or(&[][..], Vec::as_slice);
        let of_kind = named.iter().filter(|(k, _)| *k == kind).map(|(_, c)| *c);
        find(of_kind, name, namespace)
    }
}

/// `` `a` `` or `` `a`, `b` ``.
fn quoted(namespaces: &[&str]) -> String {
    namespaces
        .iter()
        .map(|ns| format!("`{ns}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The clause appended to a not-found message: `a Gateway gw exists in namespace `infra``.
pub fn exists_clause(kind: &str, name: &str, namespaces: &[&str]) -> String {
    let noun = if namespaces.len() == 1 {
        "namespace"
    } else {
        "namespaces"
    };
    let article = if kind.starts_with(['A', 'E', 'H', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    };
    format!(
        "{article} {kind} {name} exists in {noun} {}",
        quoted(namespaces)
    )
}

/// The fix for an object without `metadata.namespace` that belongs in `namespace`.
fn move_object(what: &str, namespace: &str) -> String {
    format!(
        "{what} has no metadata.namespace and was read into the default namespace; if it belongs in `{namespace}` (as with `kubectl apply -n {namespace}`), pass `-n {namespace}` or set `metadata.namespace: {namespace}`"
    )
}

/// Help for a policy whose targetRef names an object found only in other namespaces.
///
/// A targetRef has no namespace field: the policy must live beside its target.
pub fn target_ref_help(
    policy: &str,
    policy_namespace: &str,
    namespace_defaulted: bool,
    target: &str,
    found: &Elsewhere<'_>,
) -> String {
    let there = found.likely();
    if found.all_defaulted {
        move_object(target, policy_namespace)
    } else if namespace_defaulted {
        format!(
            "a targetRef names an object in the policy's own namespace; {}",
            move_object(policy, there)
        )
    } else {
        format!(
            "a targetRef names an object in the policy's own namespace (`{policy_namespace}`); create {policy} in namespace `{there}` instead"
        )
    }
}

/// What is known about the route and its parentRef for [`parent_ref_help`].
pub struct ParentRefSite<'a> {
    /// `HTTPRoute shop/cart`.
    pub route: String,
    /// The route's namespace.
    pub route_namespace: &'a str,
    /// Whether the route's namespace was not written.
    pub route_namespace_defaulted: bool,
    /// Whether the parentRef writes `namespace`.
    pub ref_namespace_written: bool,
    /// The Gateway's name.
    pub gateway: &'a str,
    /// The namespace the parentRef looks in.
    pub wanted_namespace: &'a str,
}

impl<'a> ParentRefSite<'a> {
    /// The facts of `parent` on `route`.
    pub fn of(route: &'a Route, parent: &'a ParentRef) -> Self {
        ParentRefSite {
            route: route.display(),
            route_namespace: &route.namespace,
            route_namespace_defaulted: route.namespace_defaulted,
            ref_namespace_written: parent.namespace_written,
            gateway: &parent.name,
            wanted_namespace: &parent.namespace,
        }
    }
}

/// Help for a parentRef naming a Gateway found only in other namespaces.
pub fn parent_ref_help(site: &ParentRefSite<'_>, found: &Elsewhere<'_>) -> String {
    let there = found.likely();
    if found.all_defaulted {
        return move_object(
            &format!("Gateway {there}/{}", site.gateway),
            site.wanted_namespace,
        );
    }
    let cross = format!(
        "set `parentRef.namespace: {there}` (a listener of the Gateway must then admit namespace `{}` in `allowedRoutes`)",
        site.route_namespace
    );
    if site.ref_namespace_written {
        format!("the parentRef's `namespace` names the wrong namespace: set it to `{there}`")
    } else if site.route_namespace_defaulted {
        format!(
            "{}; if it is meant to stay in `{}`, {cross}",
            move_object(&site.route, there),
            site.route_namespace
        )
    } else {
        format!("a parentRef without `namespace` names a Gateway in the route's namespace; {cross}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_other_namespaces_sorted_and_once() {
        let objects = [
            ("b", "gw"),
            ("a", "gw"),
            ("b", "gw"),
            ("default", "gw"),
            ("c", "other"),
        ];
        let candidates = || {
            objects.iter().map(|&(namespace, name)| Candidate {
                namespace,
                name,
                defaulted: namespace == "b" || namespace == "default",
            })
        };
        let found = find(candidates(), "gw", "default");
        assert_eq!(found.namespaces, ["a", "b"]);
        assert!(!found.all_defaulted);
        assert!(find(candidates(), "gw", "a").all_defaulted);
        assert!(find(candidates(), "nope", "default").is_empty());
        assert_eq!(
            exists_clause("Gateway", "gw", &["a", "b"]),
            "a Gateway gw exists in namespaces `a`, `b`"
        );
    }

    /// The namespace where the object is written wins over the one a copy without
    /// `metadata.namespace` was read into, whatever their order.
    #[test]
    fn the_likely_namespace_is_a_written_one() {
        let candidate = |namespace, defaulted| Candidate {
            namespace,
            name: "r",
            defaulted,
        };
        let found = find(
            [candidate("default", true), candidate("toystore", false)].into_iter(),
            "r",
            "shop",
        );
        assert_eq!(found.namespaces, ["default", "toystore"]);
        assert_eq!(found.likely(), "toystore");
        let alone = find([candidate("default", true)].into_iter(), "r", "shop");
        assert_eq!(alone.likely(), "default");
    }

    #[test]
    fn parent_ref_help_depends_on_what_was_written() {
        let mut site = ParentRefSite {
            route: "HTTPRoute default/toystore".into(),
            route_namespace: "default",
            route_namespace_defaulted: true,
            ref_namespace_written: false,
            gateway: "gw",
            wanted_namespace: "default",
        };
        let found = Elsewhere {
            namespaces: vec!["gateway-system"],
            all_defaulted: false,
            defaulted_into: None,
        };
        let help = parent_ref_help(&site, &found);
        assert!(
            help.contains("pass `-n gateway-system` or set `metadata.namespace: gateway-system`"),
            "{help}"
        );
        assert!(
            help.contains("set `parentRef.namespace: gateway-system`"),
            "{help}"
        );
        site.route_namespace_defaulted = false;
        let help = parent_ref_help(&site, &found);
        assert!(!help.contains("-n gateway-system"), "{help}");
        site.ref_namespace_written = true;
        assert_eq!(
            parent_ref_help(&site, &found),
            "the parentRef's `namespace` names the wrong namespace: set it to `gateway-system`"
        );
        let found = Elsewhere {
            namespaces: vec!["default"],
            all_defaulted: true,
            defaulted_into: Some("default"),
        };
        site.wanted_namespace = "gateway-system";
        assert!(
            parent_ref_help(&site, &found).starts_with(
                "Gateway default/gw has no metadata.namespace and was read into the default namespace; if it belongs in `gateway-system`"
            ),
            "{}",
            parent_ref_help(&site, &found)
        );
    }
}
