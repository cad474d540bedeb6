//! Kuma's admission checks (contract §K11): what Kuma's webhooks refuse when a Kuma object is
//! applied, so that dopol leaves such an object out (`kuma-invalid-policy`, exit 3) instead of
//! evaluating a policy the cluster never stored.
//!
//! Facts from kumahq/kuma v2.14.3: `ValidateTargetRef` (`pkg/core/resources/apis/mesh/validators.go`),
//! each kind's `validator.go` (which targetRef kinds each section takes, which sections exclude
//! each other), `ComputePolicyRole` (`pkg/core/resources/labels/compute.go`, run by the defaulting
//! webhook), the origin label check (`pkg/plugins/runtime/k8s/webhooks/validation.go`) and the
//! namespace gates (`.../webhooks/resourceadmissionchecker.go`). Messages are Kuma's, prefixed
//! with Kuma's field path (`spec.targetRef.tags: must not be set with kind Mesh`).
//!
//! Kuma's webhooks stop at the first gate that refuses: the namespace gate (an operation not
//! allowed), then the origin label or the policy role (the defaulter cannot compute labels; an
//! object with an unknown origin is not local and gets no role), then the spec, whose violations
//! are all reported. [`check`] keeps that order.
//!
//! Where the validators say more than §K11's summary, the validators are followed: MeshTrafficPermission
//! and MeshFaultInjection `from[]` refs take Mesh, MeshSubset, MeshService and
//! MeshServiceSubset (the other kinds' only `Mesh`); MeshHTTPRoute and MeshTCPRoute
//! narrow their top level for non-system roles too; on Global every namespaced Kuma object
//! (not only policies) must be in the system namespace.
//!
//! Only local objects are checked (§K2, [`is_local`]): a synced copy was admitted elsewhere and is
//! taken as stored. An unknown `kuma.io/origin` is refused whatever the mode: no control plane
//! writes one. Not checked (§K11): conf fields, the origin-label rules of federated zones, and the
//! tag syntax of the deprecated `MeshSubset`, `MeshServiceSubset` and `MeshGateway` refs.

use super::role::Role;
use super::settings::{KumaSettings, Mode};
use crate::source::Span;
use crate::yaml::Node;

/// One Kuma object as the webhooks see it.
pub struct Admission<'a> {
    /// Its kind (`MeshTimeout`, `MeshExternalService`, ...).
    pub kind: &'a str,
    /// `metadata.namespace` (empty for cluster-scoped kinds).
    pub namespace: &'a str,
    /// `metadata.labels` as written, sorted by key.
    pub labels: &'a [(String, String)],
    /// Its `spec`.
    pub spec: &'a Node,
    /// The control plane settings of the run.
    pub settings: &'a super::settings::KumaSettings,
}

/// One refusal: the message and where (the offending field, else the spec).
type Violation = (String, Span);

const ORIGIN_LABEL: &str = "kuma.io/origin";
const ZONE_LABEL: &str = "kuma.io/zone";

/// Every §K11 violation: message and where (the offending field, else the spec).
pub fn check(admission: &Admission<'_>) -> Vec<(String, Span)> {
    let origin = label(admission.labels, ORIGIN_LABEL);
    let bad_origin = origin.filter(|o| !matches!(*o, "zone" | "global"));
    if bad_origin.is_none() && !is_local(admission.labels, admission.settings) {
        return Vec::new();
    }
    if let Some(refused) = namespace_gate(admission) {
        return vec![refused];
    }
    if let Some(origin) = bad_origin {
        let message = format!("labels[\"{ORIGIN_LABEL}\"]: unknown resource origin \"{origin}\"");
        return vec![(message, admission.spec.span)];
    }
    let Some(rules) = KindRules::of(admission.kind) else {
        return Vec::new();
    };
    let settings = admission.settings;
    match role_of(
        admission.namespace,
        admission.spec,
        &settings.system_namespace,
    ) {
        Err(refused) => vec![refused],
        Ok(role) => Spec::new(admission.spec, rules, role).violations(),
    }
}

/// Whether an object is local (§K2, [`super::meta::is_local_by`]; any zone counts as the local
/// one when `settings.zone` is not known: the zone the Dataplanes imply is not known while one
/// object is decoded).
pub fn is_local(labels: &[(String, String)], settings: &KumaSettings) -> bool {
    let (origin, zone) = (label(labels, ORIGIN_LABEL), label(labels, ZONE_LABEL));
    super::meta::is_local_by(settings.mode, origin, zone, settings.zone.as_deref())
}

/// The value of `key` in sorted labels.
fn label<'a>(labels: &'a [(String, String)], key: &str) -> Option<&'a str> {
    labels
        .binary_search_by(|(k, _)| k.as_str().cmp(key))
        .ok()
        .map(|i| labels[i].1.as_str())
}

/// The namespace gates of the resource admission checker: on Global every namespaced object
/// belongs in the system namespace; on a zone, MeshExternalServices do.
fn namespace_gate(admission: &Admission<'_>) -> Option<Violation> {
    let system = &admission.settings.system_namespace;
    if admission.namespace.is_empty() || admission.namespace == system {
        return None;
    }
    let message = match admission.settings.mode {
        Mode::Global => {
            format!("on Global CP the policy can be created only in the system namespace:{system}")
        }
        Mode::Zone if admission.kind == "MeshExternalService" => format!(
            "resource type MeshExternalService can be created only in the system namespace:{system}"
        ),
        Mode::Zone => return None,
    };
    Some((message, admission.spec.span))
}

/// The role Kuma's defaulting webhook computes for a local policy (`ComputePolicyRole`): system
/// in the system namespace, before any other check; else workload-owner with `from` or with
/// neither `to` nor `from` (`rules` do not count); else producer when every `to[]` item is a
/// producer item ([`is_producer_item`]), consumer when none is. Mixing `to` and `from`, or
/// producer and consumer items, is refused (at `from`, or at the first item of the minority).
pub fn role_of(namespace: &str, spec: &Node, system_namespace: &str) -> Result<Role, Violation> {
    if namespace.is_empty() || namespace == system_namespace {
        return Ok(Role::System);
    }
    let to = items(spec, "to");
    let from = items(spec, "from");
    if !to.is_empty() && !from.is_empty() {
        let message = "it's not allowed to mix 'to' and 'from' arrays in the same policy";
        return Err((message.into(), key_span(spec, "from")));
    }
    if to.is_empty() {
        return Ok(Role::WorkloadOwner);
    }
    let producer = |item: &Node| {
        item.get("targetRef")
            .is_some_and(|r| is_producer_item(r, namespace))
    };
    let first = producer(&to[0]);
    match to.iter().find(|item| producer(item) != first) {
        None if first => Ok(Role::Producer),
        None => Ok(Role::Consumer),
        Some(other) => {
            let message = "it's not allowed to mix producer and consumer items in the same policy";
            let at = other.get("targetRef").unwrap_or(other).span;
            Err((message.into(), at))
        }
    }
}

/// A producer item: a MeshService or MeshHTTPRoute ref with a `name`, and a `namespace` empty
/// or the policy's own. A labels ref never is.
fn is_producer_item(target: &Node, namespace: &str) -> bool {
    let text = |key| target.get(key).and_then(Node::as_str).unwrap_or("");
    let own_namespace = text("namespace").is_empty() || text("namespace") == namespace;
    matches!(text("kind"), "MeshService" | "MeshHTTPRoute")
        && !text("name").is_empty()
        && own_namespace
}

/// The items of the list `key` of `spec` (none when absent or not a list).
fn items<'a>(spec: &'a Node, key: &str) -> &'a [Node] {
    spec.get(key).and_then(Node::as_seq).unwrap_or_default()
}

/// The span of `key`'s key in `node`, else the node's.
fn key_span(node: &Node, key: &str) -> Span {
    node.entry(key).map_or(node.span, |e| e.key.span)
}

/// A targetRef kind (`api/common/v1alpha1/targetref.go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RefKind {
    Mesh,
    MeshSubset,
    MeshGateway,
    MeshService,
    MeshExternalService,
    MeshMultiZoneService,
    MeshServiceSubset,
    MeshHTTPRoute,
    Dataplane,
}

impl RefKind {
    fn parse(kind: &str) -> Option<RefKind> {
        Some(match kind {
            "Mesh" => RefKind::Mesh,
            "MeshSubset" => RefKind::MeshSubset,
            "MeshGateway" => RefKind::MeshGateway,
            "MeshService" => RefKind::MeshService,
            "MeshExternalService" => RefKind::MeshExternalService,
            "MeshMultiZoneService" => RefKind::MeshMultiZoneService,
            "MeshServiceSubset" => RefKind::MeshServiceSubset,
            "MeshHTTPRoute" => RefKind::MeshHTTPRoute,
            "Dataplane" => RefKind::Dataplane,
            _ => return None,
        })
    }
}

use RefKind::{
    Dataplane, Mesh, MeshExternalService, MeshGateway, MeshHTTPRoute, MeshMultiZoneService,
    MeshService, MeshServiceSubset, MeshSubset,
};

/// Top levels: every kind (system role of the kinds that narrow), sidecars only (their other
/// roles), gateways but no route, proxies only.
#[rustfmt::skip]
const TOP_ALL: &[RefKind] =
    &[Mesh, MeshSubset, Dataplane, MeshGateway, MeshService, MeshServiceSubset, MeshHTTPRoute];
const TOP_SIDECAR: &[RefKind] = &[Mesh, MeshSubset, Dataplane, MeshService, MeshServiceSubset];
#[rustfmt::skip]
const TOP_GATEWAY: &[RefKind] =
    &[Mesh, MeshSubset, Dataplane, MeshGateway, MeshService, MeshServiceSubset];
const TOP_PROXY: &[RefKind] = &[Mesh, MeshSubset, Dataplane];
/// `to[]` kinds: every destination and routes, destinations only, what a gateway or route
/// scope takes.
#[rustfmt::skip]
const TO_ALL: &[RefKind] =
    &[Mesh, MeshService, MeshExternalService, MeshMultiZoneService, MeshHTTPRoute];
const TO_SERVICES: &[RefKind] = &[Mesh, MeshService, MeshExternalService, MeshMultiZoneService];
const TO_EXTERNAL: &[RefKind] = &[Mesh, MeshExternalService];
const TO_ROUTE: &[RefKind] = &[MeshService, MeshExternalService, MeshMultiZoneService];
const ONLY_MESH: &[RefKind] = &[Mesh];
const FROM_SUBSETS: &[RefKind] = &[Mesh, MeshSubset, MeshService, MeshServiceSubset];

/// What a policy kind's `to[]` takes.
#[derive(Clone, Copy)]
enum ToRule {
    /// The kind has no `to`.
    Absent,
    /// `narrow` when the top level is one of `tops`, else `kinds`.
    Kinds {
        tops: &'static [RefKind],
        narrow: &'static [RefKind],
        kinds: &'static [RefKind],
    },
    /// Only when the top level includes gateways, then only `Mesh` (kumahq/kuma#10907).
    GatewayScope,
    /// MeshLoadBalancingStrategy's own list (see [`Spec::load_balancing_to`]).
    LoadBalancing,
}

/// What a policy kind's `from[]` takes.
#[derive(Clone, Copy)]
enum FromRule {
    /// The kind has no `from`.
    Absent,
    /// These kinds, whatever the top level.
    Kinds(&'static [RefKind]),
    /// Refused under a MeshHTTPRoute or MeshGateway top level, else these kinds.
    NotUnderRoutes(&'static [RefKind]),
    /// Refused when the top level includes gateways, else these kinds.
    SidecarScope(&'static [RefKind]),
}

/// Which sections exclude each other, and which one is needed.
#[derive(Clone, Copy)]
enum Sections {
    /// No such check.
    Free,
    /// `rules` excludes `to` and `from`; with `needs`, one of the three is required.
    RulesAlone { needs: bool },
    /// `rules` excludes `from`; with `needs`, one of the two is required.
    RulesOrFrom { needs: bool },
}

/// How one policy kind's validator reads its sections.
#[derive(Clone, Copy)]
struct KindRules {
    /// Top-level kinds for system policies and for the other roles.
    top: (&'static [RefKind], &'static [RefKind]),
    /// Whether a MeshGateway top level may carry listener `tags` (system, other roles).
    gateway_tags: (bool, bool),
    /// Whether the kind reads inbounds (`rules`/`from`): a Dataplane `sectionName` is allowed
    /// when the policy has some.
    inbound: bool,
    to: ToRule,
    from: FromRule,
    /// Whether `rules` are refused when the top level includes gateways (MeshRateLimit).
    rules_sidecar_only: bool,
    sections: Sections,
}

/// A kind with a single `default` (or only `to`): no inbound sections.
const PLAIN: KindRules = KindRules {
    top: (TOP_GATEWAY, TOP_SIDECAR),
    gateway_tags: (true, false),
    inbound: false,
    to: ToRule::Absent,
    from: FromRule::Absent,
    rules_sidecar_only: false,
    sections: Sections::Free,
};

/// Kinds that narrow the top level for non-system roles (no MeshGateway, no MeshHTTPRoute).
const NARROWING: KindRules = KindRules {
    top: (TOP_ALL, TOP_SIDECAR),
    ..PLAIN
};
/// Kinds that take gateways, listener tags included, in every role.
const ANY_GATEWAY: KindRules = KindRules {
    top: (TOP_GATEWAY, TOP_GATEWAY),
    gateway_tags: (true, true),
    ..PLAIN
};
/// Kinds that select proxies only.
const PROXY: KindRules = KindRules {
    top: (TOP_PROXY, TOP_PROXY),
    gateway_tags: (false, false),
    ..PLAIN
};

/// `base` with inbound sections: `rules` alone or `to`/`from`, one of them needed, `from[]`
/// refs only `Mesh`.
const fn inbound(base: KindRules) -> KindRules {
    KindRules {
        inbound: true,
        sections: Sections::RulesAlone { needs: true },
        from: FromRule::Kinds(ONLY_MESH),
        ..base
    }
}

/// `to[]` takes `narrow` under the top levels `tops`, else `kinds`.
const fn to(
    tops: &'static [RefKind],
    narrow: &'static [RefKind],
    kinds: &'static [RefKind],
) -> ToRule {
    ToRule::Kinds {
        tops,
        narrow,
        kinds,
    }
}

impl KindRules {
    /// The rules of a policy kind (`None`: not a policy kind).
    fn of(kind: &str) -> Option<KindRules> {
        Some(match kind {
            "MeshTimeout" => KindRules {
                to: to(&[MeshHTTPRoute, MeshGateway], TO_EXTERNAL, TO_ALL),
                from: FromRule::NotUnderRoutes(ONLY_MESH),
                ..inbound(NARROWING)
            },
            "MeshCircuitBreaker" => KindRules {
                to: to(&[], TO_SERVICES, TO_SERVICES),
                ..inbound(ANY_GATEWAY)
            },
            "MeshRateLimit" => KindRules {
                to: ToRule::GatewayScope,
                from: FromRule::SidecarScope(ONLY_MESH),
                rules_sidecar_only: true,
                sections: Sections::RulesAlone { needs: false },
                ..inbound(NARROWING)
            },
            "MeshTLS" => KindRules {
                sections: Sections::RulesOrFrom { needs: false },
                ..inbound(PROXY)
            },
            "MeshAccessLog" => KindRules {
                to: to(&[MeshGateway], ONLY_MESH, TO_ALL),
                ..inbound(ANY_GATEWAY)
            },
            "MeshFaultInjection" => KindRules {
                to: ToRule::GatewayScope,
                from: FromRule::SidecarScope(FROM_SUBSETS),
                sections: Sections::RulesOrFrom { needs: false },
                ..inbound(PLAIN)
            },
            "MeshTrafficPermission" => KindRules {
                top: (TOP_SIDECAR, TOP_SIDECAR),
                from: FromRule::Kinds(FROM_SUBSETS),
                sections: Sections::RulesOrFrom { needs: true },
                ..inbound(PLAIN)
            },
            _ => return KindRules::outbound_or_single(kind),
        })
    }

    /// The kinds without inbound sections.
    fn outbound_or_single(kind: &str) -> Option<KindRules> {
        Some(match kind {
            "MeshRetry" => KindRules {
                to: to(&[MeshGateway, MeshHTTPRoute], TO_EXTERNAL, TO_ALL),
                ..NARROWING
            },
            "MeshHealthCheck" => KindRules {
                to: to(&[], TO_SERVICES, TO_SERVICES),
                ..ANY_GATEWAY
            },
            "MeshLoadBalancingStrategy" => KindRules {
                to: ToRule::LoadBalancing,
                ..ANY_GATEWAY
            },
            "MeshHTTPRoute" | "MeshTCPRoute" => KindRules {
                to: to(&[MeshGateway], ONLY_MESH, TO_ROUTE),
                ..PLAIN
            },
            "MeshMetric" => PLAIN,
            "MeshTrace" | "MeshProxyPatch" => KindRules {
                gateway_tags: (false, false),
                ..PLAIN
            },
            "MeshPassthrough" => PROXY,
            _ => return None,
        })
    }
}

/// A policy's spec under its kind's rules and its role.
struct Spec<'a> {
    spec: &'a Node,
    rules: KindRules,
    role: Role,
    out: Vec<Violation>,
}

impl<'a> Spec<'a> {
    fn new(spec: &'a Node, rules: KindRules, role: Role) -> Spec<'a> {
        Spec {
            spec,
            rules,
            role,
            out: Vec::new(),
        }
    }

    /// Every violation, in the order Kuma's validators report them.
    fn violations(mut self) -> Vec<Violation> {
        self.top_level();
        self.sections();
        self.from();
        self.to();
        self.rules();
        self.out
    }

    fn has(&self, section: &str) -> bool {
        !items(self.spec, section).is_empty()
    }

    /// The top level's kind: `Mesh` when absent (or unknown: the CRD refuses it).
    fn top_kind(&self) -> RefKind {
        let kind = self.spec.get_path(&["targetRef", "kind"]);
        kind.and_then(Node::as_str)
            .and_then(RefKind::parse)
            .unwrap_or(Mesh)
    }

    /// `IncludesGateways`: a MeshGateway or MeshHTTPRoute top level, or `Mesh`/`MeshSubset`
    /// whose `proxyTypes` is empty or holds `Gateway`.
    fn includes_gateways(&self) -> bool {
        let proxy_types = self.spec.get_path(&["targetRef", "proxyTypes"]);
        let proxy_types = proxy_types.and_then(Node::as_seq).unwrap_or_default();
        let gateways =
            proxy_types.is_empty() || proxy_types.iter().any(|t| t.as_str() == Some("Gateway"));
        match self.top_kind() {
            MeshGateway | MeshHTTPRoute => true,
            Mesh | MeshSubset => gateways,
            _ => false,
        }
    }

    fn refuse(&mut self, message: &str, at: Span) {
        self.out.push((message.to_string(), at));
    }

    fn top_level(&mut self) {
        let Some(target) = self.spec.get("targetRef") else {
            return;
        };
        let system = self.role == Role::System;
        let ((system_kinds, kinds), (system_tags, tags)) =
            (self.rules.top, self.rules.gateway_tags);
        let check = RefCheck {
            kinds: if system { system_kinds } else { kinds },
            kinds_error: None,
            gateway_tags: if system { system_tags } else { tags },
            inbound: self.rules.inbound && (self.has("rules") || self.has("from")),
        };
        check.run(target, "spec.targetRef", &mut self.out);
    }

    fn sections(&mut self) {
        let (rules, to, from) = (self.has("rules"), self.has("to"), self.has("from"));
        let rules_at = key_span(self.spec, "rules");
        match self.rules.sections {
            Sections::Free => {}
            Sections::RulesAlone { needs } => {
                if rules && (to || from) {
                    let message =
                        "spec: fields 'to' and 'from' must be empty when 'rules' is defined";
                    self.refuse(message, rules_at);
                }
                if needs && !(rules || to || from) {
                    let message = "spec: at least one of 'from', 'to' or 'rules' has to be defined";
                    self.refuse(message, self.spec.span);
                }
            }
            Sections::RulesOrFrom { needs } => {
                if rules && from {
                    let message = "spec: field 'from' must be empty when 'rules' is defined";
                    self.refuse(message, rules_at);
                }
                if needs && !(rules || from) {
                    let message = "spec: at least one of 'from' or 'rules' has to be defined";
                    self.refuse(message, self.spec.span);
                }
            }
        }
    }

    fn from(&mut self) {
        let at = key_span(self.spec, "from");
        let kinds = match self.rules.from {
            _ if !self.has("from") => return,
            FromRule::Absent => return,
            FromRule::Kinds(kinds) => kinds,
            FromRule::NotUnderRoutes(_)
                if matches!(self.top_kind(), MeshHTTPRoute | MeshGateway) =>
            {
                return self.refuse("spec.from: must not be defined", at);
            }
            FromRule::SidecarScope(_) if self.includes_gateways() => {
                let message = "spec.from: must not be defined when the scope includes a Gateway, select only proxyType Sidecar or select only gateways and use spec.to";
                return self.refuse(message, at);
            }
            FromRule::NotUnderRoutes(kinds) | FromRule::SidecarScope(kinds) => kinds,
        };
        self.each_ref("from", &RefCheck::plain(kinds));
    }

    fn to(&mut self) {
        let kinds = match self.rules.to {
            _ if !self.has("to") => return,
            ToRule::Absent => return,
            ToRule::GatewayScope if !self.includes_gateways() => {
                return self.refuse("spec.to: must not be defined", key_span(self.spec, "to"));
            }
            ToRule::GatewayScope => ONLY_MESH,
            ToRule::Kinds { tops, narrow, .. } if tops.contains(&self.top_kind()) => narrow,
            ToRule::Kinds { kinds, .. } => kinds,
            ToRule::LoadBalancing => return self.load_balancing_to(),
        };
        self.each_ref("to", &RefCheck::plain(kinds));
    }

    /// Checks the `targetRef` of every item of `section` (an item without one as an empty ref).
    fn each_ref(&mut self, section: &str, check: &RefCheck) {
        for (i, item) in items(self.spec, section).iter().enumerate() {
            let target = item.get("targetRef").unwrap_or(item);
            check.run(
                target,
                &format!("spec.{section}[{i}].targetRef"),
                &mut self.out,
            );
        }
    }

    /// MeshLoadBalancingStrategy: under a MeshGateway, only `Mesh` when the entry sets a
    /// `loadBalancer` (else Mesh, MeshService, MeshMultiZoneService); elsewhere also
    /// MeshHTTPRoute; a MeshExternalService only under a `Mesh` top level.
    fn load_balancing_to(&mut self) {
        const GATEWAY: &[RefKind] = &[Mesh, MeshService, MeshMultiZoneService];
        const OTHER: &[RefKind] = &[Mesh, MeshService, MeshMultiZoneService, MeshHTTPRoute];
        let top = self.top_kind();
        for (i, item) in items(self.spec, "to").iter().enumerate() {
            let balancer = item.get_path(&["default", "loadBalancer"]);
            let balancer = balancer.is_some_and(|b| !b.is_null());
            let check = match top {
                MeshGateway if balancer => RefCheck {
                    kinds_error: Some("value 'MeshGateway' is not supported, only Mesh is allowed if loadBalancer is set".into()),
                    ..RefCheck::plain(ONLY_MESH)
                },
                MeshGateway => RefCheck::plain(GATEWAY),
                _ => RefCheck::plain(OTHER),
            };
            let target = item.get("targetRef").unwrap_or(item);
            let path = format!("spec.to[{i}].targetRef");
            check.run(target, &path, &mut self.out);
            let kind = target.get("kind");
            if top != Mesh && kind.and_then(Node::as_str) == Some("MeshExternalService") {
                let message = format!(
                    "{path}.kind: kind MeshExternalService is only allowed with targetRef.kind: Mesh as it is configured on the Zone Egress and shared by all clients in the mesh"
                );
                self.refuse(&message, kind.map_or(target.span, |k| k.span));
            }
        }
    }

    /// MeshRateLimit: `rules` only when the top level selects no gateway.
    fn rules(&mut self) {
        if self.rules.rules_sidecar_only && self.has("rules") && self.includes_gateways() {
            self.refuse(
                "spec.rules: must not be defined",
                key_span(self.spec, "rules"),
            );
        }
    }
}

/// `ValidateTargetRef`'s options: the kinds a place takes (and the message when another is
/// written), whether MeshGateway listener `tags` are allowed, whether the policy is an inbound
/// policy (a Dataplane `sectionName` names an inbound).
struct RefCheck {
    kinds: &'static [RefKind],
    kinds_error: Option<String>,
    gateway_tags: bool,
    inbound: bool,
}

impl RefCheck {
    fn plain(kinds: &'static [RefKind]) -> RefCheck {
        RefCheck {
            kinds,
            kinds_error: None,
            gateway_tags: false,
            inbound: false,
        }
    }

    /// Checks `target` (at `path`, e.g. `spec.to[0].targetRef`) as `ValidateTargetRef` does:
    /// the kind, then the fields that kind takes.
    fn run(&self, target: &Node, path: &str, out: &mut Vec<Violation>) {
        let written = text(target, "kind");
        let at = target.get("kind").map_or(target.span, |k| k.span);
        let Some(kind) = RefKind::parse(written).filter(|k| self.kinds.contains(k)) else {
            let message = match &self.kinds_error {
                _ if written.is_empty() => "must be defined".to_string(),
                Some(message) => message.clone(),
                None => format!("value '{written}' is not supported"),
            };
            return out.push((format!("{path}.kind: {message}"), at));
        };
        let mut target = Ref {
            node: target,
            path,
            kind: written,
            out,
        };
        match kind {
            Mesh => target.mesh(),
            Dataplane => target.dataplane(self.inbound),
            MeshSubset => target.mesh_subset(),
            MeshService | MeshHTTPRoute | MeshExternalService => target.destination(kind),
            MeshServiceSubset | MeshGateway => target.named_with_tags(kind, self.gateway_tags),
            MeshMultiZoneService => {}
        }
    }
}

/// The text of `key` (empty when absent or not a string).
fn text<'a>(node: &'a Node, key: &str) -> &'a str {
    node.get(key).and_then(Node::as_str).unwrap_or("")
}

/// One targetRef of a known kind, and where its violations go.
struct Ref<'a, 'o> {
    node: &'a Node,
    path: &'a str,
    kind: &'a str,
    out: &'o mut Vec<Violation>,
}

impl Ref<'_, '_> {
    /// Whether `field` is set: a non-empty string, list or map (`isSet`).
    fn set(&self, field: &str) -> bool {
        match self.node.get(field) {
            None => false,
            Some(value) => match (value.as_str(), value.as_seq(), value.as_map()) {
                (Some(text), _, _) => !text.is_empty(),
                (_, Some(list), _) => !list.is_empty(),
                (_, _, Some(map)) => !map.is_empty(),
                _ => !value.is_null(),
            },
        }
    }

    /// `<path>.<field>: <message>` at `field`'s key (the ref itself for field `""`).
    fn refuse(&mut self, field: &str, message: &str) {
        let (text, at) = match field {
            "" => (format!("{}: {message}", self.path), self.node.span),
            _ => {
                let at = key_span(self.node, field);
                (format!("{}.{field}: {message}", self.path), at)
            }
        };
        self.out.push((text, at));
    }

    /// `must not be set with kind <Kind>` for each of `fields` that is set.
    fn disallow(&mut self, fields: &[&str]) {
        for field in fields {
            if self.set(field) {
                let message = format!("must not be set with kind {}", self.kind);
                self.refuse(field, &message);
            }
        }
    }

    /// `proxyTypes` written as an empty list.
    fn proxy_types(&mut self) {
        let empty = self.node.get("proxyTypes").and_then(Node::as_seq);
        if empty.is_some_and(<[Node]>::is_empty) {
            self.refuse(
                "proxyTypes",
                "must be undefined or have at least one element",
            );
        }
    }

    /// A `name` of other characters than lower-case letters, digits, `-`, `.` and `_`.
    fn name_characters(&mut self) {
        let name = text(self.node, "name");
        let valid = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || "-._".contains(c);
        if !name.chars().all(valid) {
            let message = "invalid characters: must consist of lower case alphanumeric characters, '-', '.' and '_'.";
            self.refuse("name", message);
        }
    }

    fn mesh(&mut self) {
        if self.set("name") {
            self.refuse("name", "using name with kind Mesh is not yet supported");
        }
        self.disallow(&["mesh", "tags", "labels", "namespace", "sectionName"]);
        self.proxy_types();
    }

    fn dataplane(&mut self, inbound: bool) {
        self.disallow(&["tags", "mesh", "proxyTypes"]);
        if self.set("labels") && (self.set("name") || self.set("namespace")) {
            self.refuse(
                "labels",
                "either labels or name and namespace must be specified",
            );
        }
        if !inbound && self.set("sectionName") {
            self.refuse("sectionName", "can only be used with inbound policies");
        }
    }

    fn mesh_subset(&mut self) {
        self.disallow(&["name", "mesh", "labels", "namespace", "sectionName"]);
        self.proxy_types();
    }

    /// MeshService, MeshHTTPRoute, MeshExternalService: `name` or `labels`, not both; no
    /// `sectionName` on the last two.
    fn destination(&mut self, kind: RefKind) {
        self.name_characters();
        self.disallow(&["mesh", "tags", "proxyTypes"]);
        if kind == MeshHTTPRoute {
            self.disallow(&["sectionName"]);
        }
        if !self.set("labels") && !self.set("name") {
            let message = format!("name or labels must be set when kind is {}", self.kind);
            self.refuse("", &message);
        }
        if self.set("labels") && (self.set("name") || self.set("namespace")) {
            let message = match kind {
                MeshExternalService => "either labels or name must be specified",
                _ => "either labels or name and namespace must be specified",
            };
            self.refuse("labels", message);
        }
        if kind == MeshExternalService {
            self.disallow(&["sectionName"]);
        }
    }

    /// MeshServiceSubset, MeshGateway: a `name`; listener `tags` on a MeshGateway only where
    /// allowed.
    fn named_with_tags(&mut self, kind: RefKind, gateway_tags: bool) {
        if !self.set("name") {
            let message = format!("must be set when kind is {}", self.kind);
            self.refuse("name", &message);
        }
        self.name_characters();
        self.disallow(&["mesh", "proxyTypes"]);
        if kind == MeshGateway && !gateway_tags {
            self.disallow(&["tags"]);
        }
        self.disallow(&["labels", "namespace", "sectionName"]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crd::cel::tests::yaml;

    /// An object of `kind` in `namespace` with `labels`, under `settings`.
    struct Object<'a> {
        kind: &'a str,
        namespace: &'a str,
        labels: &'a [(&'a str, &'a str)],
        settings: KumaSettings,
    }

    fn object<'a>(kind: &'a str, namespace: &'a str) -> Object<'a> {
        Object {
            kind,
            namespace,
            labels: &[],
            settings: KumaSettings::default(),
        }
    }

    impl Object<'_> {
        /// Asserts its refusals of `spec` (YAML): (message, the text the span covers).
        fn expect(&self, spec: &str, expected: &[(&str, &str)]) {
            let node = yaml(spec);
            let mut labels: Vec<(String, String)> = (self.labels.iter())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            labels.sort();
            let admission = Admission {
                kind: self.kind,
                namespace: self.namespace,
                labels: &labels,
                spec: &node,
                settings: &self.settings,
            };
            let text = |span: Span| &spec[span.start as usize..span.end as usize];
            let found: Vec<(String, &str)> = (check(&admission).into_iter())
                .map(|(message, span)| (message, text(span)))
                .collect();
            let expected: Vec<(String, &str)> = (expected.iter())
                .map(|(message, at)| (message.to_string(), *at))
                .collect();
            assert_eq!(found, expected, "{spec}");
        }
    }

    /// §K11 bullet 1: the fields each targetRef kind takes.
    #[test]
    fn targetref_fields_per_kind() {
        let spec = "targetRef:
  kind: Mesh
  tags:
    app: a
  proxyTypes: []
to:
  - targetRef:
      kind: MeshService
      labels:
        app: backend
      name: backend
  - targetRef:
      kind: MeshHTTPRoute
      name: route
      sectionName: http
  - targetRef:
      kind: MeshExternalService
  - targetRef:
      kind: MeshService
      name: Backend
      sectionName: http
";
        object("MeshTimeout", "kuma-system").expect(spec, &[
            ("spec.targetRef.tags: must not be set with kind Mesh", "tags"),
            ("spec.targetRef.proxyTypes: must be undefined or have at least one element", "proxyTypes"),
            ("spec.to[0].targetRef.labels: either labels or name and namespace must be specified", "labels"),
            ("spec.to[1].targetRef.sectionName: must not be set with kind MeshHTTPRoute", "sectionName"),
            ("spec.to[2].targetRef: name or labels must be set when kind is MeshExternalService", "kind: MeshExternalService"),
            ("spec.to[3].targetRef.name: invalid characters: must consist of lower case alphanumeric characters, '-', '.' and '_'.", "name"),
        ]);
    }

    /// §K11 bullet 1: a Dataplane `sectionName` only in a policy with `rules` or `from`.
    #[test]
    fn dataplane_section_name_only_in_inbound_policies() {
        let top = "targetRef:\n  kind: Dataplane\n  labels:\n    app: web\n  sectionName: http\n";
        let retry = format!("{top}to:\n  - targetRef:\n      kind: Mesh\n    default: {{}}\n");
        object("MeshRetry", "kuma-demo").expect(
            &retry,
            &[(
                "spec.targetRef.sectionName: can only be used with inbound policies",
                "sectionName",
            )],
        );
        let timeout = format!("{top}rules:\n  - default:\n      idleTimeout: 20s\n");
        object("MeshTimeout", "kuma-demo").expect(&timeout, &[]);
    }

    /// `(kind, namespace, spec, expected refusals)` of objects with no label, in zone mode.
    type Case<'a> = (&'a str, &'a str, &'a str, &'a [(&'a str, &'a str)]);

    fn expect_all(cases: &[Case<'_>]) {
        for (kind, namespace, spec, expected) in cases {
            object(kind, namespace).expect(spec, expected);
        }
    }

    /// §K11 bullet 2: the top-level kinds narrow for non-system roles; each section takes its
    /// kind's list.
    #[test]
    fn kinds_allowed_per_kind_role_and_section() {
        let gateway = "targetRef:\n  kind: MeshGateway\n  name: edge\nto:\n  - targetRef:\n      kind: Mesh\n    default: {}\n";
        let from =
            "from:\n  - targetRef:\n      kind: MeshService\n      name: web\n    default: {}\n";
        let external = "targetRef:\n  kind: Dataplane\nto:\n  - targetRef:\n      kind: MeshExternalService\n      name: ext\n    default: {}\n";
        expect_all(&[
            (
                "MeshTimeout",
                "kuma-demo",
                gateway,
                &[(
                    "spec.targetRef.kind: value 'MeshGateway' is not supported",
                    "MeshGateway",
                )],
            ),
            ("MeshTimeout", "kuma-system", gateway, &[]),
            ("MeshCircuitBreaker", "kuma-demo", gateway, &[]),
            (
                "MeshCircuitBreaker",
                "kuma-demo",
                from,
                &[(
                    "spec.from[0].targetRef.kind: value 'MeshService' is not supported",
                    "MeshService",
                )],
            ),
            ("MeshTrafficPermission", "kuma-demo", from, &[]),
            (
                "MeshLoadBalancingStrategy",
                "kuma-system",
                external,
                &[
                    (
                        "spec.to[0].targetRef.kind: value 'MeshExternalService' is not supported",
                        "MeshExternalService",
                    ),
                    (
                        "spec.to[0].targetRef.kind: kind MeshExternalService is only allowed with targetRef.kind: Mesh as it is configured on the Zone Egress and shared by all clients in the mesh",
                        "MeshExternalService",
                    ),
                ],
            ),
        ]);
    }

    /// §K11 bullet 2: MeshRateLimit and MeshFaultInjection split by gateway scope (#10907).
    #[test]
    fn rate_limit_and_fault_injection_sections_follow_the_gateway_scope() {
        let rules = "targetRef:\n  kind: Mesh\nrules:\n  - default: {}\n";
        let sidecars =
            "targetRef:\n  kind: Mesh\n  proxyTypes: [Sidecar]\nrules:\n  - default: {}\n";
        let to = "targetRef:\n  kind: Dataplane\nto:\n  - targetRef:\n      kind: Mesh\n    default: {}\n";
        let from = "from:\n  - targetRef:\n      kind: Mesh\n    default: {}\n";
        expect_all(&[
            (
                "MeshRateLimit",
                "kuma-demo",
                rules,
                &[("spec.rules: must not be defined", "rules")],
            ),
            ("MeshRateLimit", "kuma-demo", sidecars, &[]),
            (
                "MeshFaultInjection",
                "kuma-demo",
                to,
                &[("spec.to: must not be defined", "to")],
            ),
            (
                "MeshFaultInjection",
                "kuma-demo",
                from,
                &[(
                    "spec.from: must not be defined when the scope includes a Gateway, select only proxyType Sidecar or select only gateways and use spec.to",
                    "from",
                )],
            ),
        ]);
    }

    /// §K11 bullet 3: `rules` beside `to`/`from`, and no section at all.
    #[test]
    fn sections_that_exclude_or_require_each_other() {
        let both = "targetRef:\n  kind: Mesh\nrules:\n  - default: {}\nto:\n  - targetRef:\n      kind: Mesh\n    default: {}\n";
        let none = "targetRef:\n  kind: Mesh";
        let tls =
            "rules:\n  - default: {}\nfrom:\n  - targetRef:\n      kind: Mesh\n    default: {}\n";
        expect_all(&[
            (
                "MeshTimeout",
                "kuma-system",
                both,
                &[(
                    "spec: fields 'to' and 'from' must be empty when 'rules' is defined",
                    "rules",
                )],
            ),
            (
                "MeshAccessLog",
                "kuma-demo",
                none,
                &[(
                    "spec: at least one of 'from', 'to' or 'rules' has to be defined",
                    none,
                )],
            ),
            (
                "MeshTrafficPermission",
                "kuma-demo",
                none,
                &[(
                    "spec: at least one of 'from' or 'rules' has to be defined",
                    none,
                )],
            ),
            (
                "MeshTLS",
                "kuma-demo",
                tls,
                &[(
                    "spec: field 'from' must be empty when 'rules' is defined",
                    "rules",
                )],
            ),
        ]);
    }

    /// §K11 bullet 3: role errors, and the roles §K4 computes.
    #[test]
    fn role_errors_and_roles() {
        let mixed = "to:\n  - targetRef:\n      kind: Mesh\n    default: {}\nfrom:\n  - targetRef:\n      kind: Mesh\n    default: {}\n";
        let items = "to:\n  - targetRef:\n      kind: MeshService\n      name: backend\n    default: {}\n  - targetRef:\n      kind: Mesh\n    default: {}\n";
        expect_all(&[
            (
                "MeshTimeout",
                "kuma-demo",
                mixed,
                &[(
                    "it's not allowed to mix 'to' and 'from' arrays in the same policy",
                    "from",
                )],
            ),
            // A system policy may mix them.
            ("MeshTimeout", "kuma-system", mixed, &[]),
            (
                "MeshTimeout",
                "kuma-demo",
                items,
                &[(
                    "it's not allowed to mix producer and consumer items in the same policy",
                    "kind: Mesh",
                )],
            ),
        ]);
        let role = |namespace: &str, spec: &str| role_of(namespace, &yaml(spec), "kuma-system");
        let to = |target: &str| format!("to:\n  - targetRef: {target}\n");
        let own = "{kind: MeshService, name: backend}";
        let other = "{kind: MeshService, name: backend, namespace: other}";
        let labels = "{kind: MeshService, labels: {app: backend}}";
        assert_eq!(role("kuma-demo", &to(own)), Ok(Role::Producer));
        assert_eq!(role("kuma-demo", &to(other)), Ok(Role::Consumer));
        assert_eq!(role("kuma-demo", &to(labels)), Ok(Role::Consumer));
        assert_eq!(
            role("kuma-demo", "rules: [{default: {}}]"),
            Ok(Role::WorkloadOwner)
        );
        assert_eq!(role("kuma-system", &to(other)), Ok(Role::System));
    }

    /// §K11 bullet 4: the origin label, and the namespace gates of each mode.
    #[test]
    fn origin_label_and_namespace_gates() {
        let spec =
            "targetRef:\n  kind: Mesh\nto:\n  - targetRef:\n      kind: Mesh\n    default: {}";
        let mut bad = object("MeshTimeout", "kuma-demo");
        bad.labels = &[("kuma.io/origin", "foo")];
        bad.expect(
            spec,
            &[(
                "labels[\"kuma.io/origin\"]: unknown resource origin \"foo\"",
                spec,
            )],
        );
        let mut global = object("MeshTimeout", "kuma-demo");
        global.settings.mode = Mode::Global;
        global.expect(
            spec,
            &[(
                "on Global CP the policy can be created only in the system namespace:kuma-system",
                spec,
            )],
        );
        let external = "match:\n  type: HostnameGenerator\n  port: 443";
        object("MeshExternalService", "kuma-demo").expect(external, &[(
            "resource type MeshExternalService can be created only in the system namespace:kuma-system",
            external,
        )]);
        object("MeshExternalService", "kuma-system").expect(external, &[]);
    }

    /// Synced copies are taken as stored: no check.
    #[test]
    fn synced_copies_are_not_checked() {
        let spec = "targetRef:\n  kind: MeshGateway\n  name: edge";
        let mut from_global = object("MeshTimeout", "kuma-demo");
        from_global.labels = &[("kuma.io/origin", "global")];
        from_global.expect(spec, &[]);
        let mut other_zone = object("MeshTimeout", "kuma-demo");
        other_zone.labels = &[("kuma.io/origin", "zone"), ("kuma.io/zone", "zone-2")];
        other_zone.settings.zone = Some("zone-1".into());
        other_zone.expect(spec, &[]);
        other_zone.settings.zone = Some("zone-2".into());
        other_zone.expect(
            spec,
            &[
                (
                    "spec.targetRef.kind: value 'MeshGateway' is not supported",
                    "MeshGateway",
                ),
                (
                    "spec: at least one of 'from', 'to' or 'rules' has to be defined",
                    spec,
                ),
            ],
        );
    }
}
