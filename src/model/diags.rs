//! The codes of building the model: API versions dopol skips, names a Gateway or route defines
//! twice, and Gateways dopol stands in for. (A version a family's controller no longer serves is
//! the family's finding: `PolicyFamily::unserved_version`.)

use super::elsewhere::{self, Elsewhere, ParentRefSite};
use super::gateway::{Gateway, ListenerSet};
use super::listener_sets::Conflict;
use crate::diag::{Class, Code, CodeDef, Severity, Violation};

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[
    Code::UNSUPPORTED_API_VERSION,
    Code::DUPLICATE_LISTENER_NAME,
    Code::DUPLICATE_RULE_NAME,
    Code::ASSUMED_GATEWAY,
    Code::LISTENERSET_NOT_ALLOWED,
    Code::LISTENERSET_PARENT_NOT_FOUND,
    Code::NAMESPACE_LABELS_UNKNOWN,
    Code::LISTENER_CONFLICTED,
    Code::LISTENERSET_NO_LISTENER,
    Code::LEGACY_XLISTENERSET,
];

impl Code {
    /// DPL1012 `unsupported-api-version`: A kind dopol reads appears with an apiVersion it does not know; the object was skipped.
    pub const UNSUPPORTED_API_VERSION: Code = Code::new(&CodeDef {
        id: "DPL1012",
        name: "unsupported-api-version",
        severity: Severity::Warning,
        class: Class::Input,
        summary: "A kind dopol reads appears with an apiVersion it does not know; the object was skipped.",
        explanation: "A kind dopol reads appears with an API version it does not know (for instance an old v1beta2 AuthPolicy with a different shape). The object is skipped rather than misread.",
        fix: "Migrate the object to a supported version, or ignore this if the version is intentionally unsupported.",
        example: "apiVersion: kuadrant.io/v1beta2\nkind: AuthPolicy",
    });

    /// DPL2006 `duplicate-listener-name`: Two listeners of one Gateway share a name.
    pub const DUPLICATE_LISTENER_NAME: Code = Code::new(&CodeDef {
        id: "DPL2006",
        name: "duplicate-listener-name",
        severity: Severity::Error,
        class: Class::Input,
        summary: "Two listeners of one Gateway share a name.",
        explanation: "Two listeners of one Gateway have the same name. The API server rejects the Gateway, so dopol leaves it out.",
        fix: "Give every listener a unique name.",
        example: "listeners:\n- {name: http, protocol: HTTP, port: 80}\n- {name: http, protocol: HTTP, port: 8080}",
    });

    /// DPL2007 `duplicate-rule-name`: Two rules of one route share a name (written, or a written one and an unnamed rule's positional one).
    pub const DUPLICATE_RULE_NAME: Code = Code::new(&CodeDef {
        id: "DPL2007",
        name: "duplicate-rule-name",
        severity: Severity::Error,
        class: Class::Input,
        summary: "Two rules of one route share a name (written, or a written one and an unnamed rule's positional one).",
        explanation: "Two rules of one route share a name. Two written names are rejected by the API server (error; the route is left out). An unnamed rule is called `rule-<i+1>` after its 0-based index i in `spec.rules`; a written name equal to that positional name is legal (warning): dopol then calls the unnamed rule `rules[<i>]` in path ids, so that every path id stays unique. A policy's sectionName of that name is ambiguous only for the families that read positional names (the message names them, from `PolicyFamily::positional_rule_names`); the others match a sectionName against written names only.",
        fix: "Name the unnamed rule, or avoid the `rule-N` pattern for written names.",
        example: "rules:\n- matches: [{path: {value: /a}}]   # unnamed: positional name rule-1\n- name: rule-1",
    });

    /// DPL2009 `assumed-gateway`: A missing Gateway was replaced by a stand-in (--assume-gateways).
    pub const ASSUMED_GATEWAY: Code = Code::new(&CodeDef {
        id: "DPL2009",
        name: "assumed-gateway",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A missing Gateway was replaced by a stand-in (--assume-gateways).",
        explanation: "With --assume-gateways, a Gateway that routes reference but the inputs lack was replaced by a stand-in (class `unknown`, one listener per sectionName used, accepting every route that names it). Results for its paths are only as good as that assumption. When a Gateway of that name is in the input under another namespace, the stand-in most likely hides a namespace mistake: the diagnostic is then a warning and says where the Gateway is.",
        fix: "Add the real Gateway's manifest when you can; fix the namespace when the Gateway is in the input elsewhere.",
        example: "",
    });
    /// DPL2015 `listenerset-not-allowed`: A ListenerSet's Gateway does not admit it (`allowedListeners`): its listeners serve nothing.
    pub const LISTENERSET_NOT_ALLOWED: Code = Code::new(&CodeDef {
        id: "DPL2015",
        name: "listenerset-not-allowed",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A ListenerSet's Gateway does not admit it (`allowedListeners`): its listeners serve nothing.",
        explanation: "A Gateway admits ListenerSets only through `spec.allowedListeners.namespaces.from`: absent or `None` admits none, `Same` those in the Gateway's namespace, `Selector` those in namespaces whose labels match, `All` every one. A ListenerSet its Gateway does not admit adds no listener (the controller sets Accepted=False, reason NotAllowed): no route attaches through it and no policy reaches it.",
        fix: "Set `spec.allowedListeners.namespaces.from` on the Gateway so that it admits the ListenerSet's namespace, or point the ListenerSet at a Gateway that does.",
        example: "kind: Gateway\nspec:\n  listeners: [{name: http, port: 80, protocol: HTTP}]\n---\nkind: ListenerSet\nspec:\n  parentRef: {name: gw}\n  listeners: [{name: extra, port: 80, protocol: HTTP, hostname: extra.example.com}]",
    });

    /// DPL2016 `listenerset-parent-not-found`: A ListenerSet's parent Gateway is not in the input: its listeners are not evaluated.
    pub const LISTENERSET_PARENT_NOT_FOUND: Code = Code::new(&CodeDef {
        id: "DPL2016",
        name: "listenerset-parent-not-found",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A ListenerSet's parent Gateway is not in the input: its listeners are not evaluated.",
        explanation: "A ListenerSet adds listeners to the Gateway its `spec.parentRef` names. That Gateway is not in the input (or the parentRef names another kind), so dopol cannot tell whether the Gateway admits the set, and its listeners get no path. `--assume-gateways` does not stand in for a ListenerSet's Gateway: a stand-in admits no ListenerSet.",
        fix: "Add the parent Gateway's manifest to the input, or fix the parentRef's name and namespace.",
        example: "kind: ListenerSet\nspec:\n  parentRef: {name: missing}\n  listeners: [{name: extra, port: 80, protocol: HTTP}]",
    });

    /// DPL2017 `namespace-labels-unknown`: A Gateway admits ListenerSets by Namespace labels, and a ListenerSet's Namespace is not in the input.
    pub const NAMESPACE_LABELS_UNKNOWN: Code = Code::new(&CodeDef {
        id: "DPL2017",
        name: "namespace-labels-unknown",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A Gateway admits ListenerSets by Namespace labels, and a ListenerSet's Namespace is not in the input.",
        explanation: "The Gateway's `allowedListeners.namespaces.from: Selector` admits ListenerSets whose Namespace's labels match the selector. The ListenerSet's Namespace is not in the input, so its labels are unknown: dopol does not admit the set (as the controllers do when they cannot read the labels) and its listeners get no path. A selector that reads only `kubernetes.io/metadata.name` is decided from the namespace's name.",
        fix: "Add the Namespace manifest (`kubectl get namespace NAME -o yaml`) to the input.",
        example: "",
    });

    /// DPL2018 `listener-conflicted`: A listener conflicts with another on its port over the merged listener list of a Gateway and its ListenerSets: it serves nothing.
    pub const LISTENER_CONFLICTED: Code = Code::new(&CodeDef {
        id: "DPL2018",
        name: "listener-conflicted",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A listener conflicts with another on its port over the merged listener list of a Gateway and its ListenerSets: it serves nothing.",
        explanation: "A Gateway's listeners and those of the ListenerSets it admits form one list (the Gateway's own first, then each set by age, then name). On a port that carries a ListenerSet listener, listeners of different protocols (HTTP; HTTPS and TLS; TCP) or of one hostname conflict: the Gateway's own listener wins, else the first ListenerSet listener in that order; when the Gateway itself has two conflicting listeners, or a ListenerSet two of one group, no one of them wins. A conflicted listener (Conflicted=True, reason ProtocolConflict or HostnameConflict) gets no route and no path.",
        fix: "Give the listener another port or hostname, or remove the listener it conflicts with.",
        example: "kind: Gateway\nspec:\n  listeners: [{name: http, port: 80, protocol: HTTP, hostname: a.example.com}]\n  allowedListeners: {namespaces: {from: Same}}\n---\nkind: ListenerSet\nspec:\n  parentRef: {name: gw}\n  listeners: [{name: again, port: 80, protocol: HTTP, hostname: a.example.com}]",
    });

    /// DPL2019 `listenerset-no-listener`: Every listener of an admitted ListenerSet is conflicted: the set serves nothing.
    pub const LISTENERSET_NO_LISTENER: Code = Code::new(&CodeDef {
        id: "DPL2019",
        name: "listenerset-no-listener",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "Every listener of an admitted ListenerSet is conflicted: the set serves nothing.",
        explanation: "The Gateway admits the ListenerSet, but each of its listeners lost a protocol or hostname conflict on its port (see DPL2018): the controller sets Accepted=False, reason ListenersNotValid, and no route attaches through the set.",
        fix: "Give the set's listeners ports or hostnames no other listener of the Gateway uses.",
        example: "",
    });

    /// DPL2020 `legacy-xlistenerset`: An experimental `XListenerSet` (gateway.networking.x-k8s.io/v1alpha1) is read as a ListenerSet.
    pub const LEGACY_XLISTENERSET: Code = Code::new(&CodeDef {
        id: "DPL2020",
        name: "legacy-xlistenerset",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "An experimental `XListenerSet` (gateway.networking.x-k8s.io/v1alpha1) is read as a ListenerSet.",
        explanation: "Before Gateway API v1.5 a ListenerSet was the experimental `XListenerSet`. kgateway still serves both kinds; Envoy Gateway translates only `ListenerSet`. dopol reads an XListenerSet as a ListenerSet. Path ids do not carry the kind, so an XListenerSet with the namespace and name of a ListenerSet on the same Gateway would give equal ids: dopol then keeps the ListenerSet, drops the XListenerSet and reports this as a warning.",
        fix: "Move to `apiVersion: gateway.networking.k8s.io/v1`, `kind: ListenerSet`.",
        example: "apiVersion: gateway.networking.x-k8s.io/v1alpha1\nkind: XListenerSet",
    });
}

/// A Gateway API object in a version dopol does not read (`unsupported-api-version`).
pub struct UnsupportedApiVersion<'a> {
    /// The object, as `Kind ns/name`.
    pub object: &'a str,
    /// Its `apiVersion`.
    pub api_version: &'a str,
    /// The versions the API serves (dopol reads them).
    pub served: &'a [&'a str],
    /// Older versions the API no longer serves, which dopol still reads (with an error).
    pub unserved: &'a [&'a str],
}

impl Violation for UnsupportedApiVersion<'_> {
    fn code(&self) -> Code {
        Code::UNSUPPORTED_API_VERSION
    }

    fn message(&self) -> String {
        let unserved = match self.unserved {
            [] => String::new(),
            versions => format!(
                "; also read, though no longer served: {}",
                versions.join(", ")
            ),
        };
        format!(
            "{} uses apiVersion `{}`, which dopol does not read (served: {}{unserved}); skipped",
            self.object,
            self.api_version,
            self.served.join(", ")
        )
    }

    fn help(&self) -> Option<String> {
        let group = self.api_version.rsplit_once('/').map(|(group, _)| group);
        let current = self.served.first()?;
        Some(match group {
            Some(group) => format!("change `apiVersion` to {group}/{current}"),
            None => format!("change `apiVersion` to {current}"),
        })
    }
}

/// Two listeners of a Gateway with one name (`duplicate-listener-name`).
pub struct DuplicateListenerName<'a> {
    /// The name.
    pub name: &'a str,
}

impl Violation for DuplicateListenerName<'_> {
    fn code(&self) -> Code {
        Code::DUPLICATE_LISTENER_NAME
    }

    fn message(&self) -> String {
        format!("listener name `{}` is used twice", self.name)
    }
}

/// Two rules of a route with one name (`duplicate-rule-name`): both written (the CRD rejects
/// the route), or a written one equal to an unnamed rule's positional one (legal; dopol calls the
/// unnamed rule by its index, and a `sectionName` of that name is ambiguous for the families that
/// read positional names).
pub struct DuplicateRuleName<'a> {
    /// The name.
    pub name: &'a str,
    /// Whether both names are written.
    pub both_named: bool,
    /// The 0-based index of the later written rule, or of the unnamed rule.
    pub index: usize,
    /// The families of the run that read an unnamed rule's positional name as its `sectionName`.
    pub families: &'a [&'static str],
}

impl Violation for DuplicateRuleName<'_> {
    fn code(&self) -> Code {
        Code::DUPLICATE_RULE_NAME
    }

    fn message(&self) -> String {
        let (name, index) = (self.name, self.index);
        if self.both_named {
            return format!(
                "rule name `{name}` is used twice; rule names must be unique within the route"
            );
        }
        let called = format!(
            "the unnamed rule rules[{index}] has the positional name `{name}`, which another rule writes; dopol calls it `rules[{index}]` in path ids"
        );
        if self.families.is_empty() {
            format!(
                "{called} (no family of this run reads positional names: a sectionName `{name}` names the written one)"
            )
        } else {
            format!(
                "{called}; for {} (which read positional names) a sectionName `{name}` is ambiguous",
                self.families.join(", ")
            )
        }
    }

    fn help(&self) -> Option<String> {
        (!self.both_named).then(|| {
            format!(
                "give rules[{}] a name, or rename the rule that writes `{}` (avoid the `rule-N` pattern for written names)",
                self.index, self.name
            )
        })
    }
}

/// A Gateway not in the input, replaced by a stand-in (`assumed-gateway`).
pub struct AssumedGateway<'a> {
    /// Its namespace.
    pub namespace: &'a str,
    /// Its name.
    pub name: &'a str,
    /// The listeners the stand-in has (the sections routes name).
    pub sections: &'a [String],
    /// Where Gateways of that name are in the input, under other namespaces.
    pub found: &'a Elsewhere<'a>,
    /// The first parentRef naming it.
    pub site: &'a ParentRefSite<'a>,
}

impl Violation for AssumedGateway<'_> {
    fn code(&self) -> Code {
        Code::ASSUMED_GATEWAY
    }

    fn message(&self) -> String {
        let assumed = format!(
            "Gateway {}/{} is not in the input; assuming a stand-in (class `unknown`, listeners: {})",
            self.namespace,
            self.name,
            self.sections.join(", ")
        );
        if self.found.is_empty() {
            return assumed;
        }
        let clause = elsewhere::exists_clause("Gateway", self.name, &self.found.namespaces);
        format!("{assumed}, although {clause}")
    }

    fn help(&self) -> Option<String> {
        (!self.found.is_empty()).then(|| elsewhere::parent_ref_help(self.site, self.found))
    }
}

/// A ListenerSet its Gateway does not admit (`listenerset-not-allowed`), or may admit by the
/// labels of a Namespace that is not in the input (`namespace-labels-unknown`).
pub struct ListenerSetNotAllowed<'a> {
    /// The ListenerSet.
    pub set: &'a ListenerSet,
    /// Its Gateway.
    pub gateway: &'a Gateway,
    /// Whether the Gateway selects by Namespace labels dopol does not have.
    pub labels_unknown: bool,
}

impl Violation for ListenerSetNotAllowed<'_> {
    fn code(&self) -> Code {
        if self.labels_unknown {
            Code::NAMESPACE_LABELS_UNKNOWN
        } else {
            Code::LISTENERSET_NOT_ALLOWED
        }
    }
    fn message(&self) -> String {
        let (g, set) = (self.gateway, self.set);
        if self.labels_unknown {
            return format!(
                "Gateway {}/{} admits ListenerSets by Namespace labels, and Namespace `{}` of {} is not in the input: the set is taken as not admitted",
                g.namespace,
                g.name,
                set.namespace,
                set.display()
            );
        }
        format!(
            "{} is not admitted by Gateway {}/{} (allowedListeners): its listeners serve nothing",
            set.display(),
            g.namespace,
            g.name
        )
    }
    fn help(&self) -> Option<String> {
        let (g, ns) = (self.gateway, &self.set.namespace);
        Some(if self.labels_unknown {
            format!("add the Namespace to the input: kubectl get namespace {ns} -o yaml")
        } else {
            format!(
                "set `spec.allowedListeners.namespaces.from` on Gateway {}/{} to admit namespace `{ns}`",
                g.namespace, g.name
            )
        })
    }
}

/// A ListenerSet whose Gateway is not in the input (`listenerset-parent-not-found`).
pub struct ListenerSetParentNotFound<'a> {
    /// The ListenerSet.
    pub set: &'a ListenerSet,
}

impl Violation for ListenerSetParentNotFound<'_> {
    fn code(&self) -> Code {
        Code::LISTENERSET_PARENT_NOT_FOUND
    }
    fn message(&self) -> String {
        match &self.set.parent {
            Some((ns, name)) => format!(
                "{} names Gateway {ns}/{name}, which is not in the input: its listeners are not evaluated",
                self.set.display()
            ),
            None => format!(
                "{}'s parentRef names no Gateway: its listeners are not evaluated",
                self.set.display()
            ),
        }
    }
}

/// A listener that lost a conflict on its port (`listener-conflicted`).
pub struct ListenerConflicted<'a> {
    /// Its Gateway.
    pub gateway: &'a Gateway,
    /// The listener, `L` or `ns/set#L`.
    pub listener: String,
    /// Its port.
    pub port: i64,
    /// What it lost.
    pub conflict: Conflict,
    /// The winner, or the other listeners of its group when none wins.
    pub others: Vec<String>,
}

impl Violation for ListenerConflicted<'_> {
    fn code(&self) -> Code {
        Code::LISTENER_CONFLICTED
    }
    fn message(&self) -> String {
        let reason = match self.conflict {
            Conflict::Protocol => "ProtocolConflict",
            Conflict::Hostname => "HostnameConflict",
        };
        let others = self.others.join(", ");
        format!(
            "listener {} of Gateway {}/{} on port {} conflicts with {others} ({reason}): it serves nothing",
            self.listener, self.gateway.namespace, self.gateway.name, self.port
        )
    }
}

/// An admitted ListenerSet whose every listener is conflicted (`listenerset-no-listener`).
pub struct ListenerSetNoListener<'a> {
    /// The ListenerSet.
    pub set: &'a ListenerSet,
}

impl Violation for ListenerSetNoListener<'_> {
    fn code(&self) -> Code {
        Code::LISTENERSET_NO_LISTENER
    }
    fn message(&self) -> String {
        format!(
            "every listener of {} is conflicted (ListenersNotValid): the set serves nothing",
            self.set.display()
        )
    }
}

/// An `XListenerSet`, read as a ListenerSet or dropped for one of its name (`legacy-xlistenerset`).
pub struct LegacyXListenerSet<'a> {
    /// The XListenerSet.
    pub set: &'a ListenerSet,
    /// Whether a ListenerSet of the same namespace, name and Gateway replaces it.
    pub dropped: bool,
}

impl Violation for LegacyXListenerSet<'_> {
    fn code(&self) -> Code {
        Code::LEGACY_XLISTENERSET
    }
    fn message(&self) -> String {
        let set = &self.set;
        if self.dropped {
            format!(
                "{} has the namespace, name and Gateway of ListenerSet {}/{}: dopol keeps the ListenerSet and drops the XListenerSet (their path ids would be equal)",
                set.display(),
                set.namespace,
                set.name
            )
        } else {
            format!(
                "{} is the experimental kind (gateway.networking.x-k8s.io/v1alpha1); read as a ListenerSet",
                set.display()
            )
        }
    }
    fn help(&self) -> Option<String> {
        Some("use `apiVersion: gateway.networking.k8s.io/v1`, `kind: ListenerSet`".into())
    }
}
