//! The codes of the hierarchy (DPL2xxx, DPL300x): parentRefs that attach nowhere and the Gateway
//! API reason why, routes attached to nothing, and policy targets that name nothing — and the
//! finding types that word them. The findings of a route link (a child dropped, a policy of a
//! family that does not follow the link) are the linking family's.

use super::attach::RejectionReason;
use crate::diag::{Class, Code, CodeDef, Severity, Violation};
use crate::kinds::{Policy, TargetRef};
use crate::model::elsewhere::{
    Elsewhere, ParentRefSite, exists_clause, parent_ref_help, target_ref_help,
};
use crate::model::gateway::{Gateway, Listener, ListenerSet, ParentRef, Route};
use crate::source::Span;
use crate::suggest::did_you_mean_help;
use std::fmt;

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[
    Code::PARENT_NOT_FOUND,
    Code::NO_MATCHING_PARENT,
    Code::NOT_ALLOWED_BY_LISTENERS,
    Code::NO_MATCHING_LISTENER_HOSTNAME,
    Code::ROUTE_NOT_ATTACHED,
    Code::SELECTOR_UNDECIDABLE,
    Code::TARGET_NOT_FOUND,
    Code::SECTION_NOT_FOUND,
    Code::LISTENER_SET_NOT_MODELLED,
    Code::PARENT_REF_LISTENER_SET,
];

impl Code {
    /// DPL2013 `listener-set-not-modelled`: Retired: dopol models ListenerSets as a level of the hierarchy (see DPL2015–DPL2020); never reported.
    ///
    /// Kept in the catalogue, never reported and never reused, so that `--ignore` and
    /// `dopol.io/ignore` entries naming it stay valid.
    pub const LISTENER_SET_NOT_MODELLED: Code = Code::new(&CodeDef {
        id: "DPL2013",
        name: "listener-set-not-modelled",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "Retired: dopol models ListenerSets as a level of the hierarchy (see DPL2015–DPL2020); never reported.",
        explanation: "Until dopol modelled ListenerSets (issue 49), this info said a ListenerSet's listeners were not evaluated. They are now a level between a Gateway and its routes: an admitted ListenerSet's listeners carry paths, and what keeps one from serving is reported by `listenerset-not-allowed`, `listenerset-parent-not-found`, `namespace-labels-unknown`, `listener-conflicted` and `listenerset-no-listener`. The code is kept so that suppressions naming it stay valid; it is never reported and never reused.",
        fix: "Nothing: remove suppressions naming it when convenient.",
        example: "apiVersion: gateway.networking.k8s.io/v1\nkind: ListenerSet\nspec:\n  parentRef: {name: gw}\n  listeners: [{name: extra, port: 80, protocol: HTTP, hostname: extra.example.com}]",
    });

    /// DPL2014 `parent-ref-listener-set`: Retired: a route's ListenerSet parentRef attaches it to the set's listeners; never reported.
    ///
    /// Kept in the catalogue, never reported and never reused, so that `--ignore` and
    /// `dopol.io/ignore` entries naming it stay valid.
    pub const PARENT_REF_LISTENER_SET: Code = Code::new(&CodeDef {
        id: "DPL2014",
        name: "parent-ref-listener-set",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "Retired: a route's ListenerSet parentRef attaches it to the set's listeners; never reported.",
        explanation: "Until dopol modelled ListenerSets (issue 49), this info said a route's parentRef to a ListenerSet gave no path. Such a parentRef now attaches the route to the set's listeners as a Gateway parentRef does to the Gateway's, and a refusal is reported with the Gateway API reason (DPL2001–DPL2004). The code is kept so that suppressions naming it stay valid; it is never reported and never reused.",
        fix: "Nothing: remove suppressions naming it when convenient.",
        example: "parentRefs:\n- {group: gateway.networking.k8s.io, kind: ListenerSet, name: extra}",
    });
}

impl Code {
    /// DPL2001 `parent-not-found`: A route's parentRef names a Gateway that is not in the input.
    pub const PARENT_NOT_FOUND: Code = Code::new(&CodeDef {
        id: "DPL2001",
        name: "parent-not-found",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A route's parentRef names a Gateway that is not in the input.",
        explanation: "A route's parentRef names a Gateway that is not among the inputs. The route gets no path through it, so no policy reaches it there. Application repositories often hold routes but not the platform's Gateway. The commonest cause in guides, though, is YAML without `metadata.namespace` meant for `kubectl apply -n X`: read without `-n`, it lands in `default`. When a Gateway of that name is in the input under another namespace, the message says where, and the help says which object to fix.",
        fix: "If the Gateway is in the input under another namespace: pass `-n X` or set `metadata.namespace` on the object without one, or set `parentRef.namespace` (a listener's `allowedRoutes` must then admit the route's namespace). Otherwise add the Gateway's manifest to the inputs, or run with --assume-gateways to evaluate against a stand-in.",
        example: "parentRefs:\n- name: kuadrant-ingressgateway\n  namespace: gateway-system",
    });

    /// DPL2002 `no-matching-parent`: A parentRef's sectionName or port matches no listener of the Gateway (NoMatchingParent).
    pub const NO_MATCHING_PARENT: Code = Code::new(&CodeDef {
        id: "DPL2002",
        name: "no-matching-parent",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A parentRef's sectionName or port matches no listener of the Gateway (NoMatchingParent).",
        explanation: "The parentRef's sectionName or port matches no listener of the Gateway (Gateway API reason NoMatchingParent): the route is not attached there.",
        fix: "Use an existing listener name or port; the help lists them or suggests the closest name.",
        example: "parentRefs:\n- name: gw\n  sectionName: htps",
    });

    /// DPL2003 `not-allowed-by-listeners`: No listener allows the route's namespace or kind (NotAllowedByListeners).
    pub const NOT_ALLOWED_BY_LISTENERS: Code = Code::new(&CodeDef {
        id: "DPL2003",
        name: "not-allowed-by-listeners",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "No listener allows the route's namespace or kind (NotAllowedByListeners).",
        explanation: "Every candidate listener refuses the route: its allowedRoutes.namespaces does not admit the route's namespace (Same is the default), or its allowedRoutes.kinds (or protocol) does not admit the route's kind (Gateway API reason NotAllowedByListeners).",
        fix: "Widen the listener's allowedRoutes (from: All, or a Selector matching the namespace's labels), or attach to another listener.",
        example: "listeners:\n- name: http\n  protocol: HTTP\n  port: 80        # allowedRoutes defaults to from: Same",
    });

    /// DPL2004 `no-matching-listener-hostname`: The route's hostnames intersect no listener hostname (NoMatchingListenerHostname).
    pub const NO_MATCHING_LISTENER_HOSTNAME: Code = Code::new(&CodeDef {
        id: "DPL2004",
        name: "no-matching-listener-hostname",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "The route's hostnames intersect no listener hostname (NoMatchingListenerHostname).",
        explanation: "The route's hostnames intersect none of the allowed listeners' hostnames (Gateway API reason NoMatchingListenerHostname). Note that `*.example.com` matches `a.example.com` but never `example.com`.",
        fix: "Align the route's hostnames with the listener's hostname, or remove the listener hostname.",
        example: "hostnames: [shop.example.org]   # listener hostname: \"*.example.com\"",
    });

    /// DPL2005 `route-not-attached`: A route is attached to no listener at all, so no policy reaches it.
    pub const ROUTE_NOT_ATTACHED: Code = Code::new(&CodeDef {
        id: "DPL2005",
        name: "route-not-attached",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A route is attached to no listener at all, so no policy reaches it.",
        explanation: "A route has no Gateway parentRef at all, so it is attached to nothing and no Gateway policy can reach it. A route that a kgateway parent route delegates to (a backendRef naming it, `*` in its namespace, or its `delegation.kgateway.dev/label`) is not reported: its paths go through the parent, or delegation-child-dropped says why it has none.",
        fix: "Add a parentRef to the Gateway that should serve the route.",
        example: "spec:\n  rules:\n  - backendRefs: [{name: app, port: 80}]",
    });

    /// DPL2008 `selector-undecidable`: An allowedRoutes namespace selector cannot be decided offline; the route is assumed accepted.
    pub const SELECTOR_UNDECIDABLE: Code = Code::new(&CodeDef {
        id: "DPL2008",
        name: "selector-undecidable",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "An allowedRoutes namespace selector cannot be decided offline; the route is assumed accepted.",
        explanation: "A listener admits routes from namespaces selected by label, but the route's Namespace object is not among the inputs, so dopol cannot know its labels. It assumes the route is accepted.",
        fix: "Add the Namespace manifests to the inputs to decide offline (a selector on kubernetes.io/metadata.name alone is decided without them).",
        example: "allowedRoutes:\n  namespaces:\n    from: Selector\n    selector: {matchLabels: {shared-gateway-access: \"true\"}}",
    });

    /// DPL3001 `target-not-found`: A policy's targetRef names an object that is not in the input; the policy is not accepted.
    pub const TARGET_NOT_FOUND: Code = Code::new(&CodeDef {
        id: "DPL3001",
        name: "target-not-found",
        severity: Severity::Error,
        class: Class::Finding,
        summary: "A policy's targetRef names an object that is not in the input; the policy is not accepted.",
        explanation: "The policy's targetRef names a Gateway or route that is not among the inputs in the policy's own namespace (targetRef has no namespace field). The policy is not accepted (TargetNotFound; the operator's condition message is `<policy kind> target <name>[#<section>] was not found`) and takes part in no effective policy. When an object of that name is in the input under another namespace, the message says where, and the help names the object to move (the one without `metadata.namespace`, if either lacks it).",
        fix: "Fix the name (the help suggests a close one), create the policy in the target's namespace, or add the target's manifest.",
        example: "targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: shopp}",
    });

    /// DPL3002 `section-not-found`: A policy's targetRef sectionName names no listener or route rule; the policy is not accepted.
    pub const SECTION_NOT_FOUND: Code = Code::new(&CodeDef {
        id: "DPL3002",
        name: "section-not-found",
        severity: Severity::Error,
        class: Class::Finding,
        summary: "A policy's targetRef sectionName names no listener or route rule; the policy is not accepted.",
        explanation: "The target exists, but its sectionName names no listener (Gateway) or rule (route; unnamed rules are `rule-1`, `rule-2`, …). The policy is not accepted.",
        fix: "Use an existing listener or rule name.",
        example: "targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: htps}",
    });
}

/// The help of a parentRef naming a Gateway found nowhere.
const ADD_GATEWAY: &str = "add the Gateway's manifest to the inputs, or pass --assume-gateways to evaluate against a stand-in";

/// A parentRef that attaches its route nowhere, with the Gateway API reason why
/// (`parent-not-found`, `no-matching-parent`, `not-allowed-by-listeners`,
/// `no-matching-listener-hostname`).
pub struct ParentRefRefused<'a> {
    /// The route.
    pub route: &'a Route,
    /// The refused parentRef.
    pub parent: &'a ParentRef,
    /// Why it attaches nowhere.
    pub why: RefusedBecause<'a>,
}

/// Why a parentRef attaches nowhere, with what the reason's wording needs.
pub enum RefusedBecause<'a> {
    /// The Gateway is not in the input; `elsewhere`: the other namespaces holding one of that name.
    ParentNotFound {
        /// Gateways of that name in other namespaces.
        elsewhere: Elsewhere<'a>,
    },
    /// No listener of the Gateway (of the ListenerSet `scope`, for a parentRef naming one)
    /// matches the parentRef's `sectionName` or `port`.
    NoMatchingParent {
        /// The Gateway.
        gateway: &'a Gateway,
        /// The ListenerSet the parentRef names (an index into `Model::listener_sets`).
        scope: Option<u32>,
    },
    /// The ListenerSet a parentRef names is not in the input (`None`), or its Gateway is not in
    /// the input or does not admit it: it adds no listener.
    ListenerSetNotJoined {
        /// The ListenerSet, when it is in the input.
        set: Option<&'a ListenerSet>,
    },
    /// Every candidate listener refuses the route's namespace or kind.
    NotAllowedByListeners {
        /// The Gateway.
        gateway: &'a Gateway,
        /// Each candidate listener and why it refuses the route.
        refusals: Vec<(&'a Listener, ListenerRefusal<'a>)>,
    },
    /// The route's hostnames intersect no hostname of the listeners that allow it.
    NoMatchingListenerHostname {
        /// The Gateway.
        gateway: &'a Gateway,
        /// The listeners that allow the route (each has a hostname).
        allowed: Vec<&'a Listener>,
    },
}

/// Why a listener's `allowedRoutes` refuse a route.
pub enum ListenerRefusal<'a> {
    /// `allowedRoutes.kinds` does not list the route's kind.
    KindNotListed {
        /// The route's kind.
        kind: &'a str,
    },
    /// The listener's protocol does not carry the route's kind.
    Protocol {
        /// The listener's protocol.
        protocol: &'a str,
        /// The route's kind.
        kind: &'a str,
    },
    /// `from: Same`, and the route is in another namespace than the Gateway.
    OtherNamespace {
        /// The Gateway's namespace.
        gateway_namespace: &'a str,
    },
    /// The namespace selector does not match the route's Namespace.
    SelectorMismatch {
        /// The route's namespace.
        namespace: &'a str,
    },
}

impl fmt::Display for ListenerRefusal<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListenerRefusal::KindNotListed { kind } => {
                write!(f, "does not list kind {kind} in allowedRoutes.kinds")
            }
            ListenerRefusal::Protocol { protocol, kind } => {
                write!(f, "(protocol {protocol}) does not accept {kind}")
            }
            ListenerRefusal::OtherNamespace { gateway_namespace } => write!(
                f,
                "accepts routes from its own namespace ({gateway_namespace}) only"
            ),
            ListenerRefusal::SelectorMismatch { namespace } => write!(
                f,
                "selects namespaces by label and Namespace `{namespace}` does not match"
            ),
        }
    }
}

impl ParentRefRefused<'_> {
    /// The Gateway API reason.
    pub fn reason(&self) -> RejectionReason {
        match self.why {
            RefusedBecause::ParentNotFound { .. } | RefusedBecause::ListenerSetNotJoined { .. } => {
                RejectionReason::ParentNotFound
            }
            RefusedBecause::NoMatchingParent { .. } => RejectionReason::NoMatchingParent,
            RefusedBecause::NotAllowedByListeners { .. } => RejectionReason::NotAllowedByListeners,
            RefusedBecause::NoMatchingListenerHostname { .. } => {
                RejectionReason::NoMatchingListenerHostname
            }
        }
    }

    /// The refusal in words, without its reason: the rejection's message in `dopol topology`.
    pub fn explanation(&self) -> String {
        match &self.why {
            RefusedBecause::ParentNotFound { elsewhere } => self.not_found(elsewhere),
            RefusedBecause::ListenerSetNotJoined { set } => self.set_not_joined(*set),
            RefusedBecause::NoMatchingParent { gateway, .. } => format!(
                "{} has no listener {}",
                self.parent_object(gateway),
                self.wanted_listener()
            ),
            RefusedBecause::NotAllowedByListeners { gateway, refusals } => {
                let reasons: Vec<String> = refusals
                    .iter()
                    .map(|(listener, why)| format!("listener `{}` {why}", listener.name))
                    .collect();
                format!(
                    "no listener of {} allows {}: {}",
                    self.parent_object(gateway),
                    self.route.display(),
                    reasons.join("; ")
                )
            }
            RefusedBecause::NoMatchingListenerHostname { gateway, allowed } => {
                self.no_hostname(gateway, allowed)
            }
        }
    }

    /// `Gateway ns/name`, or `ListenerSet ns/name` for a parentRef naming a ListenerSet of
    /// `gateway`.
    fn parent_object(&self, gateway: &Gateway) -> String {
        let parent = self.parent;
        if crate::model::gateway::is_listener_set(&parent.group, &parent.kind) {
            return format!("{} {}/{}", parent.kind, parent.namespace, parent.name);
        }
        format!("Gateway {}/{}", gateway.namespace, gateway.name)
    }

    /// The ListenerSet a parentRef names adds no listener: not in the input, or not joined.
    fn set_not_joined(&self, set: Option<&ListenerSet>) -> String {
        let parent = self.parent;
        let named = format!("{} {}/{}", parent.kind, parent.namespace, parent.name);
        match set {
            None => format!("parentRef names {named}, which is not in the input"),
            Some(set) => match &set.parent {
                Some((ns, name)) => format!(
                    "parentRef names {named}, which Gateway {ns}/{name} does not admit or which is not in the input (see the ListenerSet's finding): it adds no listener"
                ),
                None => format!("parentRef names {named}, whose parent is not a Gateway"),
            },
        }
    }

    /// The Gateway is not in the input, and where one of that name is.
    fn not_found(&self, elsewhere: &Elsewhere<'_>) -> String {
        let parent = self.parent;
        let message = format!(
            "parentRef names Gateway {}/{}, which is not in the input",
            parent.namespace, parent.name
        );
        if elsewhere.is_empty() {
            return message;
        }
        let clause = exists_clause("Gateway", &parent.name, &elsewhere.namespaces);
        format!("{message}; {clause}")
    }

    /// The listener the parentRef asks for: `named `a` on port 80`, `at all`.
    fn wanted_listener(&self) -> String {
        match (&self.parent.section_name, self.parent.port) {
            (Some(s), Some(p)) => format!("named `{s}` on port {p}"),
            (Some(s), None) => format!("named `{s}`"),
            (None, Some(p)) => format!("on port {p}"),
            (None, None) => "at all".into(),
        }
    }

    /// The route's hostnames against those of the listeners that allow it.
    fn no_hostname(&self, gateway: &Gateway, allowed: &[&Listener]) -> String {
        let route = self.route;
        let hosts: Vec<&str> = allowed
            .iter()
            .filter_map(|l| l.hostname.as_deref())
            .collect();
        format!(
            "the hostnames of {} ({}) intersect no listener hostname of Gateway {}/{} ({})",
            route.display(),
            route.hostnames.join(", "),
            gateway.namespace,
            gateway.name,
            hosts.join(", ")
        )
    }

    /// `hostname of listener `a`` at each hostname of the listeners that allow the route, when
    /// their hostnames are why it is refused.
    pub fn hostname_labels(&self) -> Vec<(Span, String)> {
        let RefusedBecause::NoMatchingListenerHostname { allowed, .. } = &self.why else {
            return Vec::new();
        };
        allowed
            .iter()
            .filter_map(|l| {
                Some((
                    l.hostname_span?,
                    format!("hostname of listener `{}`", l.name),
                ))
            })
            .collect()
    }
}

impl Violation for ParentRefRefused<'_> {
    fn code(&self) -> Code {
        self.reason().code()
    }
    fn message(&self) -> String {
        format!("{} ({})", self.explanation(), self.reason().as_str())
    }
    fn help(&self) -> Option<String> {
        match &self.why {
            RefusedBecause::ParentNotFound { elsewhere } if elsewhere.is_empty() => {
                Some(ADD_GATEWAY.to_string())
            }
            RefusedBecause::ParentNotFound { elsewhere } => Some(parent_ref_help(
                &ParentRefSite::of(self.route, self.parent),
                elsewhere,
            )),
            RefusedBecause::NoMatchingParent { gateway, scope } => {
                let names: Vec<&str> = (gateway.listeners.iter())
                    .filter(|l| l.set == *scope && !l.conflicted)
                    .map(|l| l.name.as_str())
                    .collect();
                let wanted = self.parent.section_name.as_deref();
                wanted
                    .and_then(|wanted| did_you_mean_help(wanted, names.iter().copied()))
                    .or_else(|| Some(format!("its listeners are: {}", names.join(", "))))
            }
            _ => None,
        }
    }
}

/// A route attached to no listener (`route-not-attached`).
pub struct RouteNotAttached<'a> {
    /// The route: it has no parentRefs, or none is a Gateway.
    pub route: &'a Route,
}

impl Violation for RouteNotAttached<'_> {
    fn code(&self) -> Code {
        Code::ROUTE_NOT_ATTACHED
    }
    fn message(&self) -> String {
        let why = if self.route.parent_refs.is_empty() {
            "it has no parentRefs"
        } else {
            "none of its parentRefs is a Gateway"
        };
        format!(
            "{} is attached to no listener ({why}); no policy reaches it",
            self.route.display()
        )
    }
}

/// A listener's namespace selector that cannot be decided offline (`selector-undecidable`).
pub struct SelectorUndecidable<'a> {
    /// The Gateway.
    pub gateway: &'a Gateway,
    /// Its listener selecting namespaces by label.
    pub listener: &'a Listener,
    /// The route's namespace, whose Namespace object is not in the input.
    pub namespace: &'a str,
}

impl Violation for SelectorUndecidable<'_> {
    fn code(&self) -> Code {
        Code::SELECTOR_UNDECIDABLE
    }
    fn message(&self) -> String {
        format!(
            "listener `{}` of Gateway {}/{} selects namespaces by label, but Namespace `{}` is not in the input; routes from it are assumed accepted",
            self.listener.name, self.gateway.namespace, self.gateway.name, self.namespace
        )
    }
    fn help(&self) -> Option<String> {
        Some(format!(
            "add the manifest of Namespace `{}` to decide offline",
            self.namespace
        ))
    }
}

/// A policy whose targetSelectors select nothing (`target-not-found`).
pub struct SelectorsSelectNothing<'a> {
    /// The policy, whose only targets are the selectors.
    pub policy: &'a Policy,
}

impl Violation for SelectorsSelectNothing<'_> {
    fn code(&self) -> Code {
        Code::TARGET_NOT_FOUND
    }
    fn message(&self) -> String {
        let policy = self.policy.display();
        format!(
            "the targetSelectors of {policy} select nothing; {policy} is not accepted (TargetNotFound)"
        )
    }
}

/// What of a targetRef names nothing.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// The object: no Gateway or route of that kind and name in the policy's namespace
    /// (`target-not-found`).
    Object,
    /// Its `sectionName`: the object has no listener or rule of that name (`section-not-found`).
    Section,
}

/// A policy's targetRef that names nothing (`target-not-found`, `section-not-found`).
pub struct TargetRefNotFound<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// Its targetRef.
    pub target: &'a TargetRef,
    /// Whether the object or its section is missing.
    pub missing: Missing,
    /// The names that exist where the missing one was looked for (for a suggestion).
    pub candidates: Vec<std::borrow::Cow<'a, str>>,
    /// Objects of that kind and name in other namespaces (a missing object only).
    pub elsewhere: Elsewhere<'a>,
}

impl TargetRefNotFound<'_> {
    /// `name` or `name#section`.
    fn named(&self) -> String {
        match &self.target.section_name {
            Some(s) => format!("{}#{s}", self.target.name),
            None => self.target.name.to_string(),
        }
    }

    /// The message of the policy's `Accepted` condition, as the operator writes it: it names
    /// the policy's kind, where the finding names the target's.
    pub fn condition(&self) -> String {
        format!(
            "{} target {} was not found",
            self.policy.kind.kind,
            self.named()
        )
    }

    /// For a missing section: the closest name, and every name the target has (its listeners,
    /// or its rules that a sectionName can name), so the right one can be picked.
    fn sections_help(&self) -> String {
        let target = format!(
            "{} {}/{}",
            self.target.kind, self.policy.namespace, self.target.name
        );
        let (what, named) = match self.target.kind.as_str() {
            "Gateway" => ("listeners", "listener"),
            kind if super::listener_sets::is_set_kind(kind) => ("listeners", "listener"),
            _ => ("rules", "rule"),
        };
        let names = match self.candidates.as_slice() {
            [] => format!(
                "no {named} of {target} has a `name`, which is what a sectionName names: give the {named} meant `name: {}`",
                self.wanted()
            ),
            names => {
                let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                format!("the {what} of {target} are named {}", quoted.join(", "))
            }
        };
        match did_you_mean_help(self.wanted(), self.candidates.iter().map(AsRef::as_ref)) {
            Some(closest) => format!("{closest} ({names})"),
            None => names,
        }
    }

    /// The name that was not found.
    fn wanted(&self) -> &str {
        match (self.missing, &self.target.section_name) {
            (Missing::Section, Some(section)) => section,
            _ => &self.target.name,
        }
    }
}

impl Violation for TargetRefNotFound<'_> {
    fn code(&self) -> Code {
        match self.missing {
            Missing::Object => Code::TARGET_NOT_FOUND,
            Missing::Section => Code::SECTION_NOT_FOUND,
        }
    }
    fn message(&self) -> String {
        let (policy, target) = (self.policy, self.target);
        let described = format!("{} target {} was not found", target.kind, self.named());
        let not_accepted = format!("{} is not accepted (TargetNotFound)", policy.display());
        if self.elsewhere.is_empty() {
            return format!("{described}; {not_accepted}");
        }
        format!(
            "{described} in namespace `{}` ({}); {not_accepted}",
            policy.namespace,
            exists_clause(&target.kind, &target.name, &self.elsewhere.namespaces)
        )
    }
    fn help(&self) -> Option<String> {
        let (policy, target) = (self.policy, self.target);
        if self.missing == Missing::Section {
            return Some(self.sections_help());
        }
        if self.elsewhere.is_empty() {
            return did_you_mean_help(self.wanted(), self.candidates.iter().map(|c| &**c));
        }
        Some(target_ref_help(
            &policy.display(),
            &policy.namespace,
            policy.namespace_defaulted,
            &format!(
                "{} {}/{}",
                target.kind,
                self.elsewhere.likely(),
                target.name
            ),
            &self.elsewhere,
        ))
    }
}

/// Why a policy target is in the path to nothing, naming the root cause a user fixes (see
/// [`super::Topology::unreached`]).
pub struct Unreached {
    /// The target, as `Gateway infra/gw` or `HTTPRoute app/shop#rule-1`.
    pub target: String,
    /// Why nothing reaches it.
    pub cause: UnreachedCause,
}

/// The root cause of an [`Unreached`] target.
pub enum UnreachedCause {
    /// A Gateway or listener that no route is attached to.
    NoRoute,
    /// A route attached to listeners, yet on no path.
    NoPath,
    /// A route attached to no listener: the codes of the route's own findings that say why.
    NotAttached(Vec<Code>),
    /// A Gateway or listener to which only routes of kinds the policy's family does not apply
    /// to are attached.
    OnlyOtherKinds {
        /// Those kinds (`TCPRoute`).
        kinds: Vec<&'static str>,
        /// The family.
        family: &'static str,
    },
    /// A route reached only through route delegation, which the policy's family does not
    /// follow.
    Delegated {
        /// The routes that delegate to it (`HTTPRoute ns/name`).
        parents: Vec<String>,
        /// The family.
        family: &'static str,
    },
}

impl fmt::Display for Unreached {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let target = &self.target;
        match &self.cause {
            UnreachedCause::NoRoute => write!(f, "{target}, which no route is attached to"),
            UnreachedCause::NoPath => write!(f, "{target}, which is on no path"),
            UnreachedCause::OnlyOtherKinds { kinds, family } => write!(
                f,
                "{target}, to which only {} are attached, which {family} policies do not apply to",
                plural_kinds(kinds)
            ),
            UnreachedCause::Delegated { parents, family } => write!(
                f,
                "{target}, which is reached only through route delegation (from {}), which {family} policies do not follow",
                parents.join(", ")
            ),
            UnreachedCause::NotAttached(codes) => {
                let codes: Vec<String> =
                    codes.iter().map(|c| format!("{c} {}", c.name())).collect();
                write!(
                    f,
                    "{target}, which is attached to no listener (see {} on the route)",
                    codes.join(", ")
                )
            }
        }
    }
}

/// `TCPRoutes` or `TCPRoutes and UDPRoutes`.
fn plural_kinds(kinds: &[&str]) -> String {
    let plural: Vec<String> = kinds.iter().map(|k| format!("{k}s")).collect();
    match plural.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}
