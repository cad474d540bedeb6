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

use super::gateway::{ParentRef, Route};

/// The namespaces, other than `namespace`, holding an object called `name`, sorted and unique.
pub fn namespaces_of<'a>(
    objects: impl Iterator<Item = (&'a str, &'a str)>,
    name: &str,
    namespace: &str,
) -> Vec<&'a str> {
    let mut found: Vec<&str> = objects
        .filter(|&(ns, n)| n == name && ns != namespace)
        .map(|(ns, _)| ns)
        .collect();
    found.sort_unstable();
    found.dedup();
    found
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
    namespaces: &[&str],
) -> String {
    let there = namespaces[0];
    if namespace_defaulted {
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
}

impl<'a> ParentRefSite<'a> {
    /// The facts of `parent` on `route`.
    pub fn of(route: &'a Route, parent: &ParentRef) -> Self {
        ParentRefSite {
            route: format!("{} {}/{}", route.kind.as_str(), route.namespace, route.name),
            route_namespace: &route.namespace,
            route_namespace_defaulted: route.namespace_defaulted,
            ref_namespace_written: parent.namespace_written,
        }
    }
}

/// Help for a parentRef naming a Gateway found only in other namespaces.
pub fn parent_ref_help(site: &ParentRefSite<'_>, namespaces: &[&str]) -> String {
    let there = namespaces[0];
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
        assert_eq!(
            namespaces_of(objects.iter().copied(), "gw", "default"),
            ["a", "b"]
        );
        assert!(namespaces_of(objects.iter().copied(), "nope", "default").is_empty());
        assert_eq!(
            exists_clause("Gateway", "gw", &["a", "b"]),
            "a Gateway gw exists in namespaces `a`, `b`"
        );
    }

    #[test]
    fn parent_ref_help_depends_on_what_was_written() {
        let mut site = ParentRefSite {
            route: "HTTPRoute default/toystore".into(),
            route_namespace: "default",
            route_namespace_defaulted: true,
            ref_namespace_written: false,
        };
        let help = parent_ref_help(&site, &["gateway-system"]);
        assert!(
            help.contains("pass `-n gateway-system` or set `metadata.namespace: gateway-system`"),
            "{help}"
        );
        assert!(
            help.contains("set `parentRef.namespace: gateway-system`"),
            "{help}"
        );
        site.route_namespace_defaulted = false;
        let help = parent_ref_help(&site, &["gateway-system"]);
        assert!(!help.contains("-n gateway-system"), "{help}");
        site.ref_namespace_written = true;
        assert_eq!(
            parent_ref_help(&site, &["gateway-system"]),
            "the parentRef's `namespace` names the wrong namespace: set it to `gateway-system`"
        );
    }
}
