//! The findings of kgateway route delegation (DPL2010–DPL2012): a child dropped under a
//! delegating rule, a policy of a family that does not follow delegation on a route only
//! delegation reaches, and backends a delegating rule names beside its children. The codes keep the
//! numbers they had when delegation was part of the hierarchy's code; the family's `CODES`
//! lists them.

use super::delegation::{INHERIT_MATCHER_ANNOTATION, describe as describe_match};
use crate::diag::{Class, Code, CodeDef, Severity, Violation};
use crate::model::gateway::Route;
use crate::model::matches::HttpMatch;
use crate::policy::Policy;

impl Code {
    /// DPL2011 `delegation-not-supported`: A policy whose controller does not implement route delegation targets a route only delegation reaches, so it takes part in no path.
    pub const DELEGATION_NOT_SUPPORTED: Code = Code::new(&CodeDef {
        id: "DPL2011",
        name: "delegation-not-supported",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A policy whose controller does not implement route delegation targets a route only delegation reaches, so it takes part in no path.",
        explanation: "Route delegation is a kgateway feature. Paths through it exist only for families whose controller implements it (kgateway TrafficPolicy); Kuadrant and Envoy Gateway policies attach to no delegated path. A policy of such a family that targets a route (or rule) reachable only through delegation — no listener accepts it itself — therefore takes part in no path.",
        fix: "Target the parent route or the Gateway instead, or use a kgateway TrafficPolicy on the child route.",
        example: "kind: AuthPolicy\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: child}   # child is only delegated to",
    });

    /// DPL2010 `delegation-child-dropped`: A route delegated to by a kgateway parent rule is dropped there (hostnames set, parentRefs not naming the parent, a cycle), or some of its rules are (no match valid for the parent's).
    pub const DELEGATION_CHILD_DROPPED: Code = Code::new(&CodeDef {
        id: "DPL2010",
        name: "delegation-child-dropped",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A route delegated to by a kgateway parent rule is dropped there (hostnames set, parentRefs not naming the parent, a cycle), or some of its rules are (no match valid for the parent's).",
        explanation: "kgateway route delegation: a parent HTTPRoute rule whose backendRefs name HTTPRoutes (by name, `*` for a whole namespace, or `{group: delegation.kgateway.dev, kind: label}`) hands its traffic to those child routes, and each child rule gets a path under the parent rule. kgateway drops a child for that parent — no path, no policy through it — when the child sets `spec.hostnames` (a delegatee inherits the parent's), when its `parentRefs` are set but none is `{group: gateway.networking.k8s.io, kind: HTTPRoute}` naming the parent (namespace defaulting to the child's), or when it is already in the delegation chain (a cycle); the first reason in that order is reported. Without the child annotation `delegation.kgateway.dev/inherit-parent-matcher: \"true\"`, a child rule is also dropped when none of its matches is valid for the delegating rule's: the parent's path must be a PathPrefix that the child's path value starts with (a string prefix), and the child must repeat the parent's headers, query parameters and method. Such rules are reported once per child route and delegating rule, naming every dropped rule (the whole route when none is left). The same child can still be kept under another parent.",
        fix: "Remove the child's hostnames; name the parent in its parentRefs (or remove its parentRefs); break the cycle; narrow the child's matches to the parent's, or set the inherit-parent-matcher annotation on the child.",
        example: "# parent rule: matches [{path: {type: PathPrefix, value: /api}}], backendRefs [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: api, namespace: shop}]\n# child shop/api:\nrules:\n- matches:\n  - path: {type: PathPrefix, value: /v2}   # does not start with /api: dropped",
    });

    /// DPL2012 `delegation-mixed-backends`: A rule delegates to HTTPRoutes and also names other backends, which kgateway ignores.
    pub const DELEGATION_MIXED_BACKENDS: Code = Code::new(&CodeDef {
        id: "DPL2012",
        name: "delegation-mixed-backends",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A rule delegates to HTTPRoutes and also names other backends, which kgateway ignores.",
        explanation: "A kgateway route rule whose backendRefs name HTTPRoutes (or a delegation label) delegates: its requests go to the child routes, and the other backendRefs beside them (Services, ...) are ignored. A reader of the route may expect traffic to reach them.",
        fix: "Move the other backends into a child route, or into a rule of their own.",
        example: "backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: child}, {name: svc, port: 80}]",
    });
}

/// A backendRef that kgateway ignores beside a rule's delegations (`delegation-mixed-backends`).
pub struct DelegationMixedBackends<'a> {
    /// The route.
    pub route: &'a Route,
    /// The delegating rule's name.
    pub rule: &'a str,
    /// The ignored backendRef's name (empty when it has none).
    pub backend: &'a str,
}

impl Violation for DelegationMixedBackends<'_> {
    fn code(&self) -> Code {
        Code::DELEGATION_MIXED_BACKENDS
    }
    fn message(&self) -> String {
        format!(
            "rule {} of {} delegates to HTTPRoutes, so kgateway ignores its other backendRef `{}`",
            self.rule,
            self.route.display(),
            self.backend
        )
    }
}

/// A delegated child route, or some of its rules, dropped under a delegating rule
/// (`delegation-child-dropped`).
pub struct DelegationChildDropped<'a> {
    /// The child route.
    pub child: &'a Route,
    /// The delegating rule, as `ns/route#rule`.
    pub under: &'a str,
    /// Why it is dropped.
    pub why: ChildDropped<'a>,
}

/// Why kgateway drops a delegated child (or some of its rules) under a delegating rule.
pub enum ChildDropped<'a> {
    /// Its parentRefs are set and none names the delegating route.
    ParentRefs {
        /// The delegating route.
        parent: &'a Route,
    },
    /// It is already in the delegation chain.
    Cycle {
        /// The chain's rules, root first, as `ns/route#rule`.
        chain: Vec<String>,
    },
    /// It sets `spec.hostnames`.
    Hostnames,
    /// Rules of it have no match valid under the delegating rule's matches.
    Rules {
        /// The dropped rules' names.
        dropped: Vec<&'a str>,
        /// Whether no rule of it is left.
        whole_route: bool,
        /// The delegating rule's matches.
        parent_matches: &'a [HttpMatch],
    },
}

impl DelegationChildDropped<'_> {
    /// The label of each dropped rule.
    pub fn rule_label(&self) -> String {
        format!("no match valid under {}", self.under)
    }

    /// The message of dropped rules: which, and under which matches.
    fn rules_message(&self, dropped: &[&str], whole_route: bool, parent: &[HttpMatch]) -> String {
        let (child, under) = (self.child.display(), self.under);
        let names: Vec<String> = dropped.iter().map(|name| format!("`{name}`")).collect();
        let what = if whole_route {
            format!("{child} is dropped under {under}: none of its rules has a")
        } else if let [name] = names.as_slice() {
            format!("rule {name} of {child} is dropped under {under}: it has no")
        } else {
            format!(
                "rules {} of {child} are dropped under {under}: none of them has a",
                names.join(", ")
            )
        };
        let parent_text: Vec<String> = parent.iter().map(describe_match).collect();
        format!(
            "{what} match valid under the parent's match {} (a child match must start with the parent's PathPrefix value and repeat its headers, query parameters and method)",
            parent_text.join(" or ")
        )
    }
}

impl Violation for DelegationChildDropped<'_> {
    fn code(&self) -> Code {
        Code::DELEGATION_CHILD_DROPPED
    }
    fn message(&self) -> String {
        let (child, under) = (self.child.display(), self.under);
        match &self.why {
            ChildDropped::ParentRefs { parent } => format!(
                "{child} is dropped under {under}: its parentRefs are set and none names HTTPRoute {}/{}, so that route may not delegate to it",
                parent.namespace, parent.name
            ),
            ChildDropped::Cycle { chain } => format!(
                "{child} is dropped under {under}: it is already in the delegation chain {} (a cycle)",
                chain.join(" > ")
            ),
            ChildDropped::Hostnames => format!(
                "{child} is dropped under {under}: a delegatee may not set spec.hostnames (it inherits the parent route's)"
            ),
            ChildDropped::Rules {
                dropped,
                whole_route,
                parent_matches,
            } => self.rules_message(dropped, *whole_route, parent_matches),
        }
    }
    fn help(&self) -> Option<String> {
        Some(match &self.why {
            ChildDropped::ParentRefs { parent } => format!(
                "add `{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: {}, namespace: {}}}` to its parentRefs, or remove the backendRef",
                parent.name, parent.namespace
            ),
            ChildDropped::Cycle { .. } => {
                "remove the backendRef that delegates back up the chain".to_string()
            }
            ChildDropped::Hostnames => "remove spec.hostnames from the child route".to_string(),
            ChildDropped::Rules { .. } => format!(
                "narrow the child's matches to the parent's, or annotate the child with `{INHERIT_MATCHER_ANNOTATION}: \"true\"` to inherit the parent's matcher"
            ),
        })
    }
}

/// A policy of a family that does not follow delegation, targeting a route only delegation
/// reaches (`delegation-not-supported`).
pub struct DelegationNotSupported<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The route it targets.
    pub route: &'a Route,
    /// The families that follow delegation.
    pub delegating: &'a [&'a str],
}

impl Violation for DelegationNotSupported<'_> {
    fn code(&self) -> Code {
        Code::DELEGATION_NOT_SUPPORTED
    }
    fn message(&self) -> String {
        let delegation = match self.delegating {
            [] => "route delegation".to_string(),
            [one] => format!("{one} route delegation"),
            [rest @ .., last] => format!("{} and {last} route delegation", rest.join(", ")),
        };
        format!(
            "{} targets {}, which only {delegation} reaches; the controller of {} does not implement delegation, so the policy takes part in no path",
            self.policy.display(),
            self.route.display(),
            self.policy.kind.kind
        )
    }
}
