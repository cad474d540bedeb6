//! Gateway API objects, decoded from their spanned trees.
//!
//! Only the fields that decide the hierarchy are modelled: Gateway listeners (name, port,
//! protocol, hostname, `allowedRoutes`), route `parentRefs`, `hostnames` and rules (for their
//! names), and Namespace labels. Everything else in these objects is left alone: dopol is not a
//! Gateway API validator, so it reports shape errors only in the fields it relies on.

use crate::diag::{Diagnostic, Severity};
use crate::load::fields::{FieldPath, Fields};
use crate::load::names::NameRule;
use crate::load::{KindSpec, Object};
use crate::name::Name;
use crate::source::Span;
use crate::yaml::Node;

/// The Gateway API group.
pub const GATEWAY_GROUP: &str = "gateway.networking.k8s.io";
/// Gateway API versions dopol reads.
pub const GATEWAY_VERSIONS: &[&str] = &["v1", "v1beta1", "v1alpha2"];
/// TLSRoute's versions: Gateway API's and the experimental channel's `v1alpha3`.
const TLS_ROUTE_VERSIONS: &[&str] = &["v1", "v1alpha3", "v1alpha2"];

/// The versions dopol reads of the Gateway API kind `kind`.
pub fn versions_of(kind: &str) -> &'static [&'static str] {
    match kind {
        "TLSRoute" => TLS_ROUTE_VERSIONS,
        _ => GATEWAY_VERSIONS,
    }
}

/// The API group of Gateway API's experimental-channel kinds (`XListenerSet`).
pub const X_GATEWAY_GROUP: &str = "gateway.networking.x-k8s.io";

/// Gateway API and core kinds dopol reads.
pub const GATEWAY_KINDS: &[KindSpec] = &[
    KindSpec {
        group: GATEWAY_GROUP,
        kind: "GatewayClass",
        cluster_scoped: true,
    },
    KindSpec {
        group: GATEWAY_GROUP,
        kind: "Gateway",
        cluster_scoped: false,
    },
    KindSpec {
        group: GATEWAY_GROUP,
        kind: "HTTPRoute",
        cluster_scoped: false,
    },
    KindSpec {
        group: GATEWAY_GROUP,
        kind: "GRPCRoute",
        cluster_scoped: false,
    },
    KindSpec {
        group: GATEWAY_GROUP,
        kind: "TCPRoute",
        cluster_scoped: false,
    },
    KindSpec {
        group: GATEWAY_GROUP,
        kind: "TLSRoute",
        cluster_scoped: false,
    },
    KindSpec {
        group: GATEWAY_GROUP,
        kind: "UDPRoute",
        cluster_scoped: false,
    },
    KindSpec {
        group: GATEWAY_GROUP,
        kind: "ListenerSet",
        cluster_scoped: false,
    },
    // The experimental channel's earlier name of ListenerSet, which some implementations serve.
    KindSpec {
        group: X_GATEWAY_GROUP,
        kind: "XListenerSet",
        cluster_scoped: false,
    },
    KindSpec {
        group: "",
        kind: "Namespace",
        cluster_scoped: true,
    },
    // Kept as objects only (not decoded): `request` reads them to say whether a cross-namespace
    // backendRef is permitted.
    KindSpec {
        group: GATEWAY_GROUP,
        kind: "ReferenceGrant",
        cluster_scoped: false,
    },
];

/// A GatewayClass: the root of every path, and the controller that programs its Gateways
/// (lint says when a policy reaches only Gateways its family's controller never sees).
#[derive(Clone, Debug)]
pub struct GatewayClass {
    /// Name.
    pub name: String,
    /// Where the name is written.
    pub name_span: Span,
    /// `spec.controllerName` and where it is written, when it is a string.
    pub controller: Option<(String, Span)>,
}

/// A Namespace (its labels decide `allowedRoutes` selectors).
#[derive(Clone, Debug)]
pub struct Namespace {
    /// Name.
    pub name: String,
    /// Labels, including the automatic `kubernetes.io/metadata.name`.
    pub labels: Vec<(String, String)>,
}

/// Which namespaces a listener accepts routes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FromNamespaces {
    /// Only the Gateway's namespace (the default).
    Same,
    /// Every namespace.
    All,
    /// Namespaces whose labels match.
    Selector(LabelSelector),
}

/// A Kubernetes label selector.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabelSelector {
    /// `matchLabels`.
    pub match_labels: Vec<(String, String)>,
    /// `matchExpressions`.
    pub match_expressions: Vec<LabelRequirement>,
}

/// One `matchExpressions` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelRequirement {
    /// Label key.
    pub key: String,
    /// `In`, `NotIn`, `Exists`, `DoesNotExist`.
    pub operator: SelectorOperator,
    /// Values for `In`/`NotIn`.
    pub values: Vec<String>,
}

/// Label selector operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectorOperator {
    /// The label's value is one of the values.
    In,
    /// The label is absent or its value is none of the values.
    NotIn,
    /// The label is present.
    Exists,
    /// The label is absent.
    DoesNotExist,
}

impl LabelSelector {
    /// Whether `labels` satisfy the selector.
    pub fn matches(&self, labels: &[(String, String)]) -> bool {
        let get = |key: &str| {
            labels
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        };
        self.match_labels
            .iter()
            .all(|(k, v)| get(k) == Some(v.as_str()))
            && self.match_expressions.iter().all(|req| {
                let value = get(&req.key);
                match req.operator {
                    SelectorOperator::In => {
                        value.is_some_and(|v| req.values.iter().any(|x| x == v))
                    }
                    SelectorOperator::NotIn => {
                        value.is_none_or(|v| !req.values.iter().any(|x| x == v))
                    }
                    SelectorOperator::Exists => value.is_some(),
                    SelectorOperator::DoesNotExist => value.is_none(),
                }
            })
    }

    /// The label keys the selector reads.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.match_labels
            .iter()
            .map(|(k, _)| k.as_str())
            .chain(self.match_expressions.iter().map(|r| r.key.as_str()))
    }
}

/// A route kind a listener allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteGroupKind {
    /// Group (defaults to the Gateway API group).
    pub group: String,
    /// Kind.
    pub kind: String,
}

/// A Gateway listener.
#[derive(Clone, Debug)]
pub struct Listener {
    /// Name (unique within the Gateway).
    pub name: String,
    /// Port.
    pub port: i64,
    /// Protocol (`HTTP`, `HTTPS`, `TLS`, `TCP`, `UDP`, or a domain-prefixed custom one).
    pub protocol: String,
    /// Hostname, if set.
    pub hostname: Option<String>,
    /// Where `hostname` is written.
    pub hostname_span: Option<Span>,
    /// Namespaces allowed to attach routes.
    pub from: FromNamespaces,
    /// Explicit `allowedRoutes.kinds`, if set.
    pub kinds: Option<Vec<RouteGroupKind>>,
    /// Where the listener's name is written.
    pub name_span: Span,
    /// Where `allowedRoutes` is written, if it is.
    pub allowed_routes_span: Option<Span>,
    /// The ListenerSet that adds this listener to its Gateway (an index into
    /// `Model::listener_sets`), `None` for the Gateway's own ([`super::listener_sets`]).
    pub set: Option<u32>,
    /// `ns/set#name` for a listener a ListenerSet added, `None` for the Gateway's own: what the
    /// LISTENER column and path documents print ([`Listener::qualified_name`]).
    pub qualified: Option<Box<str>>,
    /// Whether the listener lost a conflict on its port over the merged listener list and
    /// yields no path ([`super::listener_sets`]; only ports carrying a ListenerSet listener).
    pub conflicted: bool,
}

impl Listener {
    /// `L` for a Gateway's own listener, `ns/set#L` for a ListenerSet's: the LISTENER column and
    /// the `listener` field of path documents (`qualified`, written once when the set joins).
    pub fn qualified_name(&self) -> &str {
        self.qualified.as_deref().unwrap_or(&self.name)
    }

    /// Route kinds this listener accepts: `allowedRoutes.kinds`, or the protocol's defaults.
    pub fn allows_kind(&self, kind: &str) -> bool {
        match &self.kinds {
            Some(kinds) => kinds
                .iter()
                .any(|k| k.group == GATEWAY_GROUP && k.kind == kind),
            None => match self.protocol.as_str() {
                "HTTP" | "HTTPS" => matches!(kind, "HTTPRoute" | "GRPCRoute"),
                "TLS" => kind == "TLSRoute",
                "TCP" => kind == "TCPRoute",
                "UDP" => kind == "UDPRoute",
                _ => false,
            },
        }
    }
}

/// A ListenerSet (`gateway.networking.k8s.io/v1`, or the experimental channel's
/// `XListenerSet`): listeners added to a parent Gateway that admits them. A level of the
/// hierarchy between Gateway and listener (docs/semantics.md §2): its admitted listeners join
/// the Gateway's ([`super::listener_sets`]), each knowing its set (`Listener::set`).
#[derive(Clone, Debug)]
pub struct ListenerSet {
    /// Namespace.
    pub namespace: String,
    /// Name.
    pub name: String,
    /// `spec.parentRef`: the Gateway's namespace (default: the ListenerSet's) and name, when it
    /// names a Gateway.
    pub parent: Option<(String, String)>,
    /// Its listeners, in declaration order.
    pub listeners: Vec<Listener>,
    /// Where the name is written.
    pub name_span: Span,
    /// Where `spec.parentRef` is written.
    pub parent_span: Span,
    /// Whether it is the legacy `gateway.networking.x-k8s.io/v1alpha1` `XListenerSet`.
    pub legacy: bool,
    /// `metadata.creationTimestamp` (the older set's listeners come first in the merged list).
    pub creation_timestamp: Option<crate::load::Timestamp>,
    /// The Gateway whose listeners it joined (an index into `Model::gateways`), `None` when it
    /// is not admitted or its Gateway is not in the input.
    pub gateway: Option<u32>,
    /// Index into `Model::objects` (set by [`super::Model::build`]; its labels are what
    /// `targetSelectors` of kind ListenerSet read).
    pub object: u32,
}

impl ListenerSet {
    /// `Kind ns/name`, as findings name it.
    pub fn display(&self) -> String {
        let kind = if self.legacy {
            "XListenerSet"
        } else {
            "ListenerSet"
        };
        format!("{kind} {}/{}", self.namespace, self.name)
    }
}

/// Whether a parentRef's group and kind name a ListenerSet (`ListenerSet`, or the experimental
/// channel's earlier `XListenerSet`).
pub fn is_listener_set(group: &str, kind: &str) -> bool {
    matches!(
        (group, kind),
        (GATEWAY_GROUP, "ListenerSet") | (X_GATEWAY_GROUP, "XListenerSet")
    )
}

/// A Gateway.
#[derive(Clone, Debug)]
pub struct Gateway {
    /// Namespace.
    pub namespace: String,
    /// Name.
    pub name: String,
    /// `spec.gatewayClassName`.
    pub class_name: String,
    /// Listeners in declaration order.
    pub listeners: Vec<Listener>,
    /// Where the name is written (or the first parentRef naming it, for a stand-in).
    pub name_span: Span,
    /// Whether this is a stand-in created by `--assume-gateways`.
    pub assumed: bool,
    /// Whether the namespace was not written (it came from `-n` or `default`).
    pub namespace_defaulted: bool,
    /// Index into `Model::objects` (set by [`super::Model::build`]; unused for a stand-in).
    pub object: u32,
    /// `spec.allowedListeners.namespaces.from`: which ListenerSets the Gateway admits.
    pub allowed_listeners: AllowedListeners,
}

impl Gateway {
    /// `ns/gw#L` for the Gateway's own listener `l`, `ns/gw>ns/set#L` for one ListenerSet
    /// `ns/set` added: the listener's element, as path ids and findings write it.
    pub fn listener_key(&self, listener: &Listener) -> String {
        let (ns, gw) = (&self.namespace, &self.name);
        match listener.set {
            None => format!("{ns}/{gw}#{}", listener.name),
            Some(_) => format!("{ns}/{gw}>{}", listener.qualified_name()),
        }
    }
}

/// Which ListenerSets a Gateway admits (`spec.allowedListeners.namespaces.from`; GEP-1713).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AllowedListeners {
    /// None (the default when `allowedListeners` is absent).
    None,
    /// ListenerSets in the Gateway's namespace.
    Same,
    /// ListenerSets in namespaces whose labels the selector matches.
    Selector(LabelSelector),
    /// Every ListenerSet.
    All,
}

impl AllowedListeners {
    /// Reads `spec.allowedListeners.namespaces` of a Gateway's `spec` (a selector the CRD would
    /// refuse admits nothing; the shape error is the CRD's).
    fn of(spec: &Node, path: &FieldPath<'_>, fields: &mut Fields) -> AllowedListeners {
        let Some(namespaces) = spec.get_path(&["allowedListeners", "namespaces"]) else {
            return AllowedListeners::None;
        };
        match namespaces.get("from").and_then(Node::as_str) {
            Some("All") => AllowedListeners::All,
            Some("Same") => AllowedListeners::Same,
            Some("Selector") => {
                let allowed_path = path.key("allowedListeners");
                let ns_path = allowed_path.key("namespaces");
                namespaces
                    .get("selector")
                    .and_then(|n| decode_label_selector(n, &ns_path.key("selector"), fields))
                    .map_or(AllowedListeners::None, AllowedListeners::Selector)
            }
            _ => AllowedListeners::None,
        }
    }
}

/// A route kind. The order is that of paths whose routes share a namespace and name, and of
/// [`RouteKind::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RouteKind {
    /// HTTPRoute.
    Http,
    /// GRPCRoute.
    Grpc,
    /// TCPRoute: rules of backendRefs only (no matches, no hostnames).
    Tcp,
    /// TLSRoute: `hostnames` (matched against the SNI) and rules of backendRefs only.
    Tls,
    /// UDPRoute: rules of backendRefs only.
    Udp,
}

impl RouteKind {
    /// Every route kind, in order.
    pub const ALL: [RouteKind; 5] = [
        RouteKind::Http,
        RouteKind::Grpc,
        RouteKind::Tcp,
        RouteKind::Tls,
        RouteKind::Udp,
    ];

    /// The route kinds a family applies to unless it says otherwise
    /// ([`crate::policy::PolicyFamily::route_kinds`]): the HTTP ones.
    pub const HTTP: &'static [RouteKind] = &[RouteKind::Http, RouteKind::Grpc];

    /// The Kubernetes kind.
    pub fn as_str(self) -> &'static str {
        match self {
            RouteKind::Http => "HTTPRoute",
            RouteKind::Grpc => "GRPCRoute",
            RouteKind::Tcp => "TCPRoute",
            RouteKind::Tls => "TLSRoute",
            RouteKind::Udp => "UDPRoute",
        }
    }

    /// Parses a kind name.
    pub fn from_kind(kind: &str) -> Option<RouteKind> {
        RouteKind::ALL.into_iter().find(|k| k.as_str() == kind)
    }

    /// Whether its rules have matches, filters and an HTTP request to answer (HTTPRoute,
    /// GRPCRoute); the others only forward a connection or datagram to their backends.
    pub fn is_http(self) -> bool {
        matches!(self, RouteKind::Http | RouteKind::Grpc)
    }

    /// Whether it has `spec.hostnames` (HTTPRoute, GRPCRoute, TLSRoute).
    pub fn has_hostnames(self) -> bool {
        !matches!(self, RouteKind::Tcp | RouteKind::Udp)
    }
}

/// A route's reference to its parent Gateway (or listener).
#[derive(Clone, Debug)]
pub struct ParentRef {
    /// Group (default Gateway API).
    pub group: Name,
    /// Kind (default `Gateway`).
    pub kind: Name,
    /// Namespace (default: the route's).
    pub namespace: Name,
    /// Whether `namespace` is written.
    pub namespace_written: bool,
    /// Name.
    pub name: Name,
    /// `sectionName`: a listener name.
    pub section_name: Option<Name>,
    /// `port`: a listener port.
    pub port: Option<i64>,
    /// The whole parentRef.
    pub span: Span,
    /// Where `name` is written.
    pub name_span: Span,
    /// Where `sectionName` is written.
    pub section_span: Option<Span>,
}

/// A route rule (only its name matters to dopol).
#[derive(Clone, Debug)]
pub struct RouteRule {
    /// The name paths and reports know it by, unique within the route: its `name`, or
    /// `rule-<i+1>` when unnamed (i its 0-based index in `spec.rules`), or `rules[<i>]` when a
    /// rule writes that positional name (`duplicate-rule-name`).
    pub name: Name,
    /// Whether the name was written (`false` for positional names).
    pub named: bool,
    /// Where the rule is written (its name, or its first key).
    pub span: Span,
}

impl RouteRule {
    /// The name a policy's `sectionName` selects this rule (at `index` in its route) by: its
    /// written name, or, for a family that reads positional names, `rule-<index+1>` when unnamed.
    pub fn section_name(
        &self,
        index: usize,
        positional: bool,
    ) -> Option<std::borrow::Cow<'_, str>> {
        if self.named {
            Some(std::borrow::Cow::Borrowed(&self.name))
        } else if positional {
            Some(std::borrow::Cow::Owned(format!("rule-{}", index + 1)))
        } else {
            None
        }
    }
}

/// A route: HTTPRoute, GRPCRoute, TCPRoute, TLSRoute or UDPRoute.
#[derive(Clone, Debug)]
pub struct Route {
    /// Kind.
    pub kind: RouteKind,
    /// Namespace.
    pub namespace: Name,
    /// Name.
    pub name: String,
    /// Whether the namespace was not written (it came from `-n` or `default`).
    pub namespace_defaulted: bool,
    /// `spec.hostnames`.
    pub hostnames: Vec<String>,
    /// `spec.parentRefs`.
    pub parent_refs: Vec<ParentRef>,
    /// Rules in declaration order.
    pub rules: Vec<RouteRule>,
    /// Where the name is written.
    pub name_span: Span,
    /// `metadata.creationTimestamp` (route precedence: the older route wins a tie).
    pub creation_timestamp: Option<crate::load::Timestamp>,
    /// Index into `Model::objects` (set by [`super::Model::build`]).
    pub object: u32,
    /// Whether a rule writes `filters`: a reader of filters needs [`super::Model::tree`] only
    /// for such a route (the route's own tree is trimmed once decoded).
    pub has_filters: bool,
    /// Whether a rule's backendRef names something other than a core Service (another route,
    /// for a controller that delegates): as [`Route::has_filters`], for readers of backendRefs.
    pub other_backends: bool,
}

impl Route {
    /// `HTTPRoute ns/name`: the route as messages and findings name it.
    pub fn display(&self) -> String {
        format!("{} {}/{}", self.kind.as_str(), self.namespace, self.name)
    }
}

/// Whether some rule of `spec` has a non-empty list under `key` with an item `select`s.
fn any_rule_item(spec: &Node, key: &str, select: impl Fn(&Node) -> bool) -> bool {
    spec.get("rules")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|rule| rule.get(key).and_then(Node::as_seq))
        .any(|items| items.iter().any(&select))
}

/// Whether a backendRef names something other than a core-group Service.
fn other_than_service(backend: &Node) -> bool {
    let text = |key: &str| backend.get(key).and_then(Node::as_str);
    !matches!(text("group"), None | Some("")) || !matches!(text("kind"), None | Some("Service"))
}

/// Warns and returns `false` when an object uses a version dopol does not read: neither one the
/// API serves (`served`) nor an older one it still reads (`unserved`).
pub fn check_version(
    object: &Object,
    diagnostics: &mut Vec<Diagnostic>,
    (served, unserved): (&[&str], &[&str]),
) -> bool {
    let version = &*object.version;
    if served.contains(&version) || unserved.contains(&version) {
        return true;
    }
    let display = object.display();
    let unsupported = super::diags::UnsupportedApiVersion {
        object: &display,
        api_version: &object.api_version(),
        served,
        unserved,
    };
    diagnostics.push(
        Diagnostic::from(unsupported)
            .with_label(object.api_version_span(), "unsupported version")
            .with_object(display),
    );
    false
}

/// Decodes a GatewayClass.
pub fn decode_gateway_class(object: &Object) -> GatewayClass {
    let controller = (object.root.get("spec"))
        .and_then(|spec| spec.get("controllerName"))
        .and_then(|node| Some((node.as_str()?.to_string(), node.span)));
    GatewayClass {
        name: object.name.to_string(),
        name_span: object.name_span(),
        controller,
    }
}

/// Decodes a Namespace.
pub fn decode_namespace(object: &Object) -> Namespace {
    let mut labels: Vec<(String, String)> = object
        .labels()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    if !labels
        .iter()
        .any(|(k, _)| k == "kubernetes.io/metadata.name")
    {
        labels.push((
            "kubernetes.io/metadata.name".into(),
            object.name.to_string(),
        ));
    }
    Namespace {
        name: object.name.to_string(),
        labels,
    }
}

/// Decodes a Gateway. `None` (with errors in `fields`) when its shape is wrong.
pub fn decode_gateway(object: &Object, fields: &mut Fields) -> Option<Gateway> {
    let root = FieldPath::ROOT;
    let spec_path = root.key("spec");
    let spec = fields.required(&object.root, "spec", &root)?;
    fields.map(spec, &spec_path)?;
    let class_name = fields
        .required(spec, "gatewayClassName", &spec_path)
        .and_then(|n| fields.non_empty_str(n, &spec_path.key("gatewayClassName")));
    let listeners_path = spec_path.key("listeners");
    let mut listeners = Vec::new();
    if let Some(items) = fields
        .required(spec, "listeners", &spec_path)
        .and_then(|n| fields.seq(n, &listeners_path))
    {
        if items.is_empty() {
            fields.invalid(
                spec.get("listeners").map_or(spec.span, |n| n.span),
                format!("`{listeners_path}` must have at least one listener"),
                "empty",
            );
        }
        for (i, item) in items.iter().enumerate() {
            let path = listeners_path.index(i);
            if let Some(listener) = decode_listener(item, &path, fields) {
                listeners.push(listener);
            }
        }
    }
    for (i, listener) in listeners.iter().enumerate() {
        if let Some(first) = listeners[..i].iter().find(|l| l.name == listener.name) {
            fields.push(
                Diagnostic::from(super::diags::DuplicateListenerName {
                    name: &listener.name,
                })
                .with_label(listener.name_span, "used again here")
                .with_label(first.name_span, "first used here"),
            );
        }
    }
    if fields.failed() {
        return None;
    }
    Some(Gateway {
        namespace_defaulted: object.namespace_defaulted,
        namespace: object.namespace_str().to_string(),
        name: object.name.to_string(),
        class_name: class_name?.to_string(),
        listeners,
        name_span: object.name_span(),
        assumed: false,
        object: 0,
        allowed_listeners: AllowedListeners::of(spec, &spec_path, fields),
    })
}

/// Decodes a ListenerSet: its parent Gateway and listeners. `None` (with errors in `fields`)
/// when its shape is wrong.
pub fn decode_listener_set(object: &Object, fields: &mut Fields) -> Option<ListenerSet> {
    let root = FieldPath::ROOT;
    let spec_path = root.key("spec");
    let spec = fields.required(&object.root, "spec", &root)?;
    fields.map(spec, &spec_path)?;
    let parent_path = spec_path.key("parentRef");
    let parent = fields.required(spec, "parentRef", &spec_path)?;
    fields.map(parent, &parent_path)?;
    let name = fields
        .required(parent, "name", &parent_path)
        .and_then(|n| fields.non_empty_str(n, &parent_path.key("name")))?;
    let group = fields
        .opt_str(parent, "group", &parent_path)
        .unwrap_or(GATEWAY_GROUP);
    let kind = fields
        .opt_str(parent, "kind", &parent_path)
        .unwrap_or("Gateway");
    let namespace = fields
        .opt_str(parent, "namespace", &parent_path)
        .unwrap_or(object.namespace_str());
    let listeners_path = spec_path.key("listeners");
    let mut listeners = Vec::new();
    if let Some(items) = spec.get("listeners").filter(|n| !n.is_null()) {
        for (i, item) in fields.seq(items, &listeners_path)?.iter().enumerate() {
            listeners.extend(decode_listener(item, &listeners_path.index(i), fields));
        }
    }
    if fields.failed() {
        return None;
    }
    Some(ListenerSet {
        namespace: object.namespace_str().to_string(),
        name: object.name.to_string(),
        parent: ((group, kind) == (GATEWAY_GROUP, "Gateway"))
            .then(|| (namespace.to_string(), name.to_string())),
        listeners,
        name_span: object.name_span(),
        parent_span: parent.span,
        legacy: *object.kind == *"XListenerSet",
        creation_timestamp: object.creation_timestamp,
        gateway: None,
        object: 0,
    })
}

fn decode_listener(node: &Node, path: &FieldPath<'_>, fields: &mut Fields) -> Option<Listener> {
    fields.map(node, path)?;
    let name_node = fields.required(node, "name", path);
    let name =
        name_node.and_then(|n| fields.check_name(n, &path.key("name"), NameRule::SectionName));
    let port_path = path.key("port");
    let port = fields.required(node, "port", path).and_then(|n| {
        let port = fields.int(n, &port_path)?;
        if !(1..=65535).contains(&port) {
            fields.invalid(
                n.span,
                format!("`{port_path}` must be between 1 and 65535"),
                "out of range",
            );
            return None;
        }
        Some(port)
    });
    let protocol = fields
        .required(node, "protocol", path)
        .and_then(|n| fields.non_empty_str(n, &path.key("protocol")));
    let hostname_node = node.get("hostname").filter(|n| !n.is_null());
    let hostname = fields.opt_name(node, "hostname", path, NameRule::Hostname);
    let (from, kinds, allowed_routes_span) =
        match node.get("allowedRoutes").filter(|n| !n.is_null()) {
            Some(allowed) => {
                let (from, kinds) =
                    decode_allowed_routes(allowed, &path.key("allowedRoutes"), fields)?;
                // A defaulted `allowedRoutes` (empty span) was not written: point at the name.
                (from, kinds, Some(allowed.span).filter(|s| !s.is_empty()))
            }
            None => (FromNamespaces::Same, None, None),
        };
    Some(Listener {
        name: name?.to_string(),
        port: port?,
        protocol: protocol?.to_string(),
        hostname: hostname.map(str::to_string),
        hostname_span: hostname_node.map(|n| n.span),
        from,
        kinds,
        name_span: name_node?.span,
        allowed_routes_span,
        set: None,
        qualified: None,
        conflicted: false,
    })
}

type AllowedRoutes = (FromNamespaces, Option<Vec<RouteGroupKind>>);

fn decode_allowed_routes(
    node: &Node,
    path: &FieldPath<'_>,
    fields: &mut Fields,
) -> Option<AllowedRoutes> {
    fields.map(node, path)?;
    let mut from = FromNamespaces::Same;
    if let Some(namespaces) = node.get("namespaces").filter(|n| !n.is_null()) {
        let ns_path = path.key("namespaces");
        fields.map(namespaces, &ns_path)?;
        let from_text = fields
            .opt_str(namespaces, "from", &ns_path)
            .unwrap_or("Same");
        from = match from_text {
            "Same" => FromNamespaces::Same,
            "All" => FromNamespaces::All,
            "Selector" => {
                let selector_path = ns_path.key("selector");
                let selector = fields.required(namespaces, "selector", &ns_path)?;
                FromNamespaces::Selector(decode_label_selector(selector, &selector_path, fields)?)
            }
            other => {
                let span = namespaces.get("from").map_or(namespaces.span, |n| n.span);
                fields.invalid(
                    span,
                    format!("`{ns_path}.from` must be All, Same or Selector, found `{other}`"),
                    "unknown value",
                );
                return None;
            }
        };
    }
    let mut kinds = None;
    if let Some(kinds_node) = node.get("kinds").filter(|n| !n.is_null()) {
        let kinds_path = path.key("kinds");
        let items = fields.seq(kinds_node, &kinds_path)?;
        let mut list = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let item_path = kinds_path.index(i);
            fields.map(item, &item_path)?;
            let kind = fields
                .required(item, "kind", &item_path)
                .and_then(|n| fields.non_empty_str(n, &item_path.key("kind")))?;
            let group = fields
                .opt_str(item, "group", &item_path)
                .unwrap_or(GATEWAY_GROUP);
            list.push(RouteGroupKind {
                group: group.to_string(),
                kind: kind.to_string(),
            });
        }
        // Gateway API: "When unspecified or empty, the kinds of Routes selected are determined
        // using the Listener protocol."
        kinds = (!list.is_empty()).then_some(list);
    }
    Some((from, kinds))
}

fn decode_label_selector(
    node: &Node,
    path: &FieldPath<'_>,
    fields: &mut Fields,
) -> Option<LabelSelector> {
    fields.map(node, path)?;
    let mut selector = LabelSelector::default();
    if let Some(labels) = node.get("matchLabels").filter(|n| !n.is_null()) {
        let labels_path = path.key("matchLabels");
        for entry in fields.map(labels, &labels_path)? {
            let value = fields.str(&entry.value, &labels_path.key(&entry.key.text))?;
            selector
                .match_labels
                .push((entry.key.text.to_string(), value.to_string()));
        }
    }
    if let Some(expressions) = node.get("matchExpressions").filter(|n| !n.is_null()) {
        let exprs_path = path.key("matchExpressions");
        for (i, item) in fields.seq(expressions, &exprs_path)?.iter().enumerate() {
            let item_path = exprs_path.index(i);
            fields.map(item, &item_path)?;
            let key = fields
                .required(item, "key", &item_path)
                .and_then(|n| fields.str(n, &item_path.key("key")))?;
            let op_node = fields.required(item, "operator", &item_path)?;
            let operator = match fields.str(op_node, &item_path.key("operator"))? {
                "In" => SelectorOperator::In,
                "NotIn" => SelectorOperator::NotIn,
                "Exists" => SelectorOperator::Exists,
                "DoesNotExist" => SelectorOperator::DoesNotExist,
                other => {
                    fields.invalid(
                        op_node.span,
                        format!("`{item_path}.operator` must be In, NotIn, Exists or DoesNotExist, found `{other}`"),
                        "unknown operator",
                    );
                    return None;
                }
            };
            let mut values = Vec::new();
            if let Some(values_node) = item.get("values").filter(|n| !n.is_null()) {
                let values_path = item_path.key("values");
                for (j, v) in fields.seq(values_node, &values_path)?.iter().enumerate() {
                    values.push(fields.str(v, &values_path.index(j))?.to_string());
                }
            }
            selector.match_expressions.push(LabelRequirement {
                key: key.to_string(),
                operator,
                values,
            });
        }
    }
    Some(selector)
}

/// Decodes a route of `kind`. `None` (with errors in `fields`) when its shape is wrong.
///
/// `positional_families` names the families that read an unnamed rule's positional name as its
/// `sectionName` (asked only when a written rule name equals a positional one).
pub fn decode_route(
    object: &Object,
    kind: RouteKind,
    fields: &mut Fields,
    positional_families: &dyn Fn() -> Vec<&'static str>,
) -> Option<Route> {
    let root = FieldPath::ROOT;
    let spec_path = root.key("spec");
    let empty = Node::synthetic(crate::yaml::Value::Null);
    let spec = object.root.get("spec").unwrap_or(&empty);
    fields.map(spec, &spec_path)?;
    let namespace = object.namespace_name();

    let mut parent_refs = Vec::new();
    if let Some(refs) = spec.get("parentRefs").filter(|n| !n.is_null()) {
        let refs_path = spec_path.key("parentRefs");
        for (i, item) in fields
            .seq(refs, &refs_path)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let path = refs_path.index(i);
            if fields.map(item, &path).is_none() {
                continue;
            }
            let name = fields
                .required(item, "name", &path)
                .and_then(|n| fields.non_empty_str(n, &path.key("name")));
            let port = match item.get("port").filter(|n| !n.is_null()) {
                Some(n) => fields.int(n, &path.key("port")),
                None => None,
            };
            let section_name = fields.opt_name(item, "sectionName", &path, NameRule::SectionName);
            let group = fields
                .opt_str(item, "group", &path)
                .unwrap_or(GATEWAY_GROUP);
            let kind = fields.opt_str(item, "kind", &path).unwrap_or("Gateway");
            let written_namespace = fields.opt_name(item, "namespace", &path, NameRule::Namespace);
            if let Some(name) = name {
                parent_refs.push(ParentRef {
                    group: Name::new(group),
                    kind: Name::new(kind),
                    namespace: written_namespace.map_or_else(|| namespace.clone(), Name::new),
                    namespace_written: written_namespace.is_some(),
                    name: Name::new(name),
                    section_name: section_name.map(Name::new),
                    port,
                    span: item.span,
                    name_span: item.get("name").map_or(item.span, |n| n.span),
                    section_span: item.get("sectionName").map(|n| n.span),
                });
            }
        }
    }

    let mut hostnames = Vec::new();
    let written_hostnames = spec.get("hostnames").filter(|_| kind.has_hostnames());
    if let Some(list) = written_hostnames.filter(|n| !n.is_null()) {
        let path = spec_path.key("hostnames");
        for (i, item) in fields
            .seq(list, &path)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            if let Some(h) = fields.check_name(item, &path.index(i), NameRule::Hostname) {
                hostnames.push(h.to_string());
            }
        }
    }

    let rules = decode_rules(spec, kind, &spec_path, fields, positional_families);
    if fields.failed() {
        return None;
    }
    Some(Route {
        kind,
        namespace,
        namespace_defaulted: object.namespace_defaulted,
        name: object.name.to_string(),
        hostnames,
        parent_refs,
        rules,
        name_span: object.name_span(),
        creation_timestamp: object.creation_timestamp,
        object: 0,
        has_filters: any_rule_item(spec, "filters", |_| true),
        other_backends: any_rule_item(spec, "backendRefs", other_than_service),
    })
}

fn decode_rules(
    spec: &Node,
    kind: RouteKind,
    spec_path: &FieldPath<'_>,
    fields: &mut Fields,
    positional_families: &dyn Fn() -> Vec<&'static str>,
) -> Vec<RouteRule> {
    let rules_path = spec_path.key("rules");
    let Some(list) = spec.get("rules").filter(|n| !n.is_null()) else {
        // The HTTPRoute CRD defaults `rules` to one rule matching every path; the other kinds
        // have no default (TCPRoute, TLSRoute and UDPRoute require one rule or more).
        return match kind {
            RouteKind::Http => vec![RouteRule {
                name: Name::new("rule-1"),
                named: false,
                span: spec
                    .as_map()
                    .and_then(|m| m.first())
                    .map_or(spec.span, |e| e.key.span),
            }],
            _ => Vec::new(),
        };
    };
    let mut rules: Vec<RouteRule> = Vec::new();
    for (i, item) in fields
        .seq(list, &rules_path)
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let path = rules_path.index(i);
        if fields.map(item, &path).is_none() {
            continue;
        }
        let explicit = fields.opt_name(item, "name", &path, NameRule::SectionName);
        let span = item
            .get("name")
            .map(|n| n.span)
            .or_else(|| item.as_map().and_then(|m| m.first()).map(|e| e.key.span))
            .unwrap_or(item.span);
        // Checked here (the API server rejects a bad match with the route), decoded again
        // only by `dopol request`: no other command needs them, and keeping them costs memory.
        if kind.is_http() {
            super::matches::decode(item, kind == RouteKind::Grpc, &path, fields);
        }
        rules.push(RouteRule {
            name: Name::new(explicit.unwrap_or(&format!("rule-{}", i + 1))),
            named: explicit.is_some(),
            span,
        });
    }
    unique_rule_names(&mut rules, positional_families, fields);
    rules
}

/// The name a rule is known by when its written or positional name is taken: `rules[<i>]`, its
/// 0-based index in `spec.rules` (brackets are not allowed in a rule name, so it is taken by no
/// other rule).
fn indexed_rule_name(index: usize) -> Name {
    Name::new(&format!("rules[{index}]"))
}

/// Makes the rule names of one route unique (each path id ends in one): a written name is kept
/// the first time it is written, an unnamed rule keeps its positional `rule-<i+1>` unless a rule
/// writes that name, and every other rule is known by [`indexed_rule_name`]. Each collision is
/// `duplicate-rule-name`: an error when both names are written (the CRD rejects the route), a
/// warning when a written name equals a positional one (legal; a `sectionName` of that name is
/// ambiguous for the families that read positional names, which the finding names).
fn unique_rule_names(
    rules: &mut [RouteRule],
    positional_families: &dyn Fn() -> Vec<&'static str>,
    fields: &mut Fields,
) {
    for i in 0..rules.len() {
        let name = &rules[i].name;
        let Some(first) = rules.iter().position(|r| r.named && r.name == *name) else {
            continue;
        };
        if first == i {
            continue;
        }
        let both_named = rules[i].named;
        let families = if both_named {
            Vec::new()
        } else {
            positional_families()
        };
        let duplicate = super::diags::DuplicateRuleName {
            name,
            both_named,
            index: i,
            families: &families,
        };
        let label = if both_named {
            "written again here"
        } else {
            "unnamed rule"
        };
        let mut diagnostic = Diagnostic::from(duplicate)
            .with_label(rules[i].span, label)
            .with_label(rules[first].span, "written here");
        if !both_named {
            diagnostic = diagnostic.with_severity(Severity::Warning);
        }
        fields.push(diagnostic);
        rules[i].name = indexed_rule_name(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn label_selectors() {
        let selector = LabelSelector {
            match_labels: labels(&[("team", "a")]),
            match_expressions: vec![LabelRequirement {
                key: "env".into(),
                operator: SelectorOperator::NotIn,
                values: vec!["prod".into()],
            }],
        };
        assert!(selector.matches(&labels(&[("team", "a")])));
        assert!(selector.matches(&labels(&[("team", "a"), ("env", "dev")])));
        assert!(!selector.matches(&labels(&[("team", "a"), ("env", "prod")])));
        assert!(!selector.matches(&labels(&[("team", "b")])));
    }

    #[test]
    fn default_kinds_follow_protocol() {
        let listener = Listener {
            name: "l".into(),
            port: 80,
            protocol: "HTTP".into(),
            hostname: None,
            hostname_span: None,
            from: FromNamespaces::Same,
            kinds: None,
            name_span: Span::default(),
            allowed_routes_span: None,
            set: None,
            qualified: None,
            conflicted: false,
        };
        assert!(listener.allows_kind("HTTPRoute"));
        assert!(listener.allows_kind("GRPCRoute"));
        let tcp = Listener {
            protocol: "TCP".into(),
            ..listener.clone()
        };
        assert!(!tcp.allows_kind("HTTPRoute"));
        let only_grpc = Listener {
            kinds: Some(vec![RouteGroupKind {
                group: GATEWAY_GROUP.into(),
                kind: "GRPCRoute".into(),
            }]),
            ..listener
        };
        assert!(!only_grpc.allows_kind("HTTPRoute"));
    }
}
