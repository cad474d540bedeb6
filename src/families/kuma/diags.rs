//! Kuma's codes (DPL7001–DPL7016, contract §K12, in its table's order), and [`Finding`], the
//! finding type that words them.

use crate::diag::{Class, Code, CodeDef, Severity, Violation};

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[
    Code::KUMA_INVALID_POLICY,
    Code::KUMA_TO_TARGET_NOT_FOUND,
    Code::KUMA_SECTION_PORT_NUMBER,
    Code::KUMA_DATAPLANE_NAME_REF_FROM_GLOBAL,
    Code::KUMA_CONSUMER_OVERRIDES_PRODUCER,
    Code::KUMA_ROUTE_IGNORES_SERVICE_ENTRIES,
    Code::KUMA_MTP_FROM_IGNORED,
    Code::KUMA_MTP_WITHOUT_MTLS,
    Code::KUMA_ROLE_LABEL_OVERWRITTEN,
    Code::KUMA_EQUAL_DISPLAY_NAMES,
    Code::KUMA_MESHSERVICES_DISABLED,
    Code::KUMA_DEPRECATED_TARGETREF,
    Code::KUMA_SELECTS_NO_DATAPLANE,
    Code::KUMA_SHADOW_SKIPPED,
    Code::KUMA_MESH_ASSUMED,
    Code::KUMA_NOT_MODELLED,
];

impl Code {
    /// DPL7001 `kuma-invalid-policy`: Kuma's admission webhook rejects the object.
    pub const KUMA_INVALID_POLICY: Code = Code::new(&CodeDef {
        id: "DPL7001",
        name: "kuma-invalid-policy",
        severity: Severity::Error,
        class: Class::Input,
        summary: "Kuma's admission webhook rejects the object: it is left out.",
        explanation: "Kuma validates every policy on apply (the targetRef kinds and fields each kind and section allows, the sections that may go together, the policy role, the `kuma.io/origin` label). An object it rejects never exists on the control plane, so dopol leaves it out and exits with 3.",
        fix: "Change the object as the message says.",
        example: "metadata:\n  labels: {kuma.io/origin: elsewhere}   # only zone or global",
    });

    /// DPL7002 `kuma-to-target-not-found`: A `to[]` entry resolves to nothing.
    pub const KUMA_TO_TARGET_NOT_FOUND: Code = Code::new(&CodeDef {
        id: "DPL7002",
        name: "kuma-to-target-not-found",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A Kuma policy's `to[]` entry resolves to nothing: Kuma drops it silently.",
        explanation: "Kuma resolves a `to[].targetRef` within the policy's mesh: a `name` ref looks only in the policy's own zone and (without `namespace`) namespace (kuma-website#2255), a `labels` ref in every namespace and zone, and a `sectionName` keeps only the ports it names. An entry that finds nothing configures nothing, without any status.",
        fix: "Name the resource's namespace (`namespace:`), use a `labels` ref for resources of another zone, or correct the name or section.",
        example: "to:\n- targetRef: {kind: MeshService, name: backend}   # backend is in another namespace",
    });

    /// DPL7003 `kuma-section-port-number`: A numeric `sectionName` where the port has a name.
    pub const KUMA_SECTION_PORT_NUMBER: Code = Code::new(&CodeDef {
        id: "DPL7003",
        name: "kuma-section-port-number",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A numeric `sectionName` names a port or inbound that has a name: the number never matches (kumahq/kuma#13905).",
        explanation: "A section of a MeshService port or of a Dataplane inbound is its `name` when it has one; its number is its section only when it has no name. A `sectionName: \"8080\"` therefore matches nothing when port 8080 is named.",
        fix: "Write the port's name as `sectionName`.",
        example: "targetRef: {kind: MeshService, name: backend, sectionName: \"80\"}   # port 80 is named http",
    });

    /// DPL7004 `kuma-dataplane-name-ref-from-global`: A Dataplane name ref in a global policy.
    pub const KUMA_DATAPLANE_NAME_REF_FROM_GLOBAL: Code = Code::new(&CodeDef {
        id: "DPL7004",
        name: "kuma-dataplane-name-ref-from-global",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A top-level `Dataplane` `name` ref in a policy from the global control plane selects nothing on zones.",
        explanation: "A name ref compares the Dataplane's KRI, zone included, with the policy's own zone label; a policy synced from Global has none, so it never selects by name (MADR 103: name refs must be applied on the zone).",
        fix: "Apply the policy on the zone, or select the Dataplanes by `labels`.",
        example: "metadata: {labels: {kuma.io/origin: global}}\nspec:\n  targetRef: {kind: Dataplane, name: web-1}",
    });

    /// DPL7005 `kuma-consumer-overrides-producer`: A consumer entry wins over a producer's.
    pub const KUMA_CONSUMER_OVERRIDES_PRODUCER: Code = Code::new(&CodeDef {
        id: "DPL7005",
        name: "kuma-consumer-overrides-producer",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A consumer policy's entry wins a value a producer policy set for its own service (kumahq/kuma#13576).",
        explanation: "The role outranks the `to[]` kind in Kuma's order: a consumer's mesh-wide `to: Mesh` entry beats a producer's entry for a specific service, in the consumer's namespace (the documented \"same-namespace exception\").",
        fix: "Aim the consumer entry at the service too, or leave the field to the producer.",
        example: "# producer (backend's namespace): to MeshService backend, idleTimeout 1s\n# consumer (same namespace): to Mesh, idleTimeout 2s -> 2s wins",
    });

    /// DPL7006 `kuma-route-ignores-service-entries`: A route key does not take its service's entries.
    pub const KUMA_ROUTE_IGNORES_SERVICE_ENTRIES: Code = Code::new(&CodeDef {
        id: "DPL7006",
        name: "kuma-route-ignores-service-entries",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A MeshHTTPRoute's outbound key does not take the entries aimed at the MeshService it routes to.",
        explanation: "Kuma's key for a MeshHTTPRoute takes the entries aimed at the route and at the Mesh, never those aimed at the route's MeshService (MADR 066 describes inclusion; the code and goldens do not), so the route's traffic does not get the service's values.",
        fix: "Add an entry aimed at the MeshHTTPRoute with the values the service's entries set.",
        example: "to:\n- targetRef: {kind: MeshService, name: backend}   # not applied to routes to backend",
    });

    /// DPL7007 `kuma-mtp-from-ignored`: MeshTrafficPermission `from[]` is ignored.
    pub const KUMA_MTP_FROM_IGNORED: Code = Code::new(&CodeDef {
        id: "DPL7007",
        name: "kuma-mtp-from-ignored",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A MeshTrafficPermission's `from[]` is ignored on an inbound.",
        explanation: "An inbound that has MeshTrafficPermission `rules` ignores every `from[]`; and a proxy with a workload identity (a MeshIdentity) ignores the legacy `from[]` altogether and denies what no rule allows.",
        fix: "Write the permission as `rules`.",
        example: "spec:\n  from:\n  - targetRef: {kind: Mesh}\n    default: {action: Allow}   # ignored where another MTP has rules",
    });

    /// DPL7008 `kuma-mtp-without-mtls`: MeshTrafficPermissions in a mesh without mTLS.
    pub const KUMA_MTP_WITHOUT_MTLS: Code = Code::new(&CodeDef {
        id: "DPL7008",
        name: "kuma-mtp-without-mtls",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A MeshTrafficPermission in a mesh without mTLS and without a MeshIdentity: Kuma does not apply it.",
        explanation: "Traffic permissions need the caller's identity: Kuma applies them only when the mesh has `mtls.enabledBackend` or a MeshIdentity gives the proxies a workload identity.",
        fix: "Enable mTLS on the Mesh (`spec.mtls.enabledBackend`) or add a MeshIdentity.",
        example: "kind: Mesh\nspec: {}   # no mtls",
    });

    /// DPL7009 `kuma-role-label-overwritten`: A written policy role is replaced.
    pub const KUMA_ROLE_LABEL_OVERWRITTEN: Code = Code::new(&CodeDef {
        id: "DPL7009",
        name: "kuma-role-label-overwritten",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "The `kuma.io/policy-role` label written on a policy is replaced by the role Kuma computes.",
        explanation: "Kuma's admission webhook computes the policy role from the namespace and the sections and sets it unconditionally: a written value that differs is overwritten, and the role decides the namespace gate and the order.",
        fix: "Remove the label, or change the sections so that the role is the one meant.",
        example: "metadata:\n  labels: {kuma.io/policy-role: producer}   # to: Mesh makes it a consumer",
    });

    /// DPL7010 `kuma-equal-display-names`: Policies whose order Kuma leaves undefined.
    pub const KUMA_EQUAL_DISPLAY_NAMES: Code = Code::new(&CodeDef {
        id: "DPL7010",
        name: "kuma-equal-display-names",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "Two policies of one kind share a display name and rank: Kuma's order between them is undefined.",
        explanation: "Kuma orders policies by top-level kind, origin, role and then display name, with a sort that is not stable: two with one display name (in two namespaces, or a local and a synced copy) come in no defined order. dopol orders them by `<namespace>/<name>` descending (the smallest wins).",
        fix: "Give the policies distinct names.",
        example: "# MeshTimeout timeouts in kuma-system and in kuma-demo, both system role",
    });

    /// DPL7011 `kuma-meshservices-disabled`: MeshService targets in a mesh without MeshServices.
    pub const KUMA_MESHSERVICES_DISABLED: Code = Code::new(&CodeDef {
        id: "DPL7011",
        name: "kuma-meshservices-disabled",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A policy aims at MeshServices in a mesh whose `meshServices.mode` is `Disabled`: no such outbounds exist.",
        explanation: "With `meshServices.mode: Disabled` (the default) proxies use the legacy `kuma.io/service` outbounds, so entries aimed at MeshService or MeshMultiZoneService resources configure nothing.",
        fix: "Set `spec.meshServices.mode: Exclusive` on the Mesh.",
        example: "kind: Mesh\nspec: {}   # meshServices.mode defaults to Disabled",
    });

    /// DPL7012 `kuma-deprecated-targetref`: A deprecated targetRef form.
    pub const KUMA_DEPRECATED_TARGETREF: Code = Code::new(&CodeDef {
        id: "DPL7012",
        name: "kuma-deprecated-targetref",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A deprecated targetRef form (removed in Kuma v3).",
        explanation: "Top-level MeshSubset, MeshService, MeshServiceSubset, MeshHTTPRoute and MeshGateway refs, `proxyTypes` and `from[]` are deprecated: Kuma v3 selects with `Mesh` and `Dataplane` (labels) only, and has no `from`.",
        fix: "Select with `kind: Dataplane` and `labels`, and write inbound settings as `rules`.",
        example: "targetRef: {kind: MeshService, name: web}",
    });

    /// DPL7013 `kuma-selects-no-dataplane`: A policy selects no Dataplane.
    pub const KUMA_SELECTS_NO_DATAPLANE: Code = Code::new(&CodeDef {
        id: "DPL7013",
        name: "kuma-selects-no-dataplane",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A Kuma policy selects no Dataplane of the input.",
        explanation: "A policy configures the proxies its top-level targetRef selects (after the zone and namespace gates); with none in the input, dopol shows no value of it.",
        fix: "Check the top-level targetRef, or add the Dataplanes (`kubectl get dataplanes -A -o yaml`).",
        example: "targetRef: {kind: Dataplane, labels: {app: nothing}}",
    });

    /// DPL7014 `kuma-shadow-skipped`: A shadow policy is skipped.
    pub const KUMA_SHADOW_SKIPPED: Code = Code::new(&CodeDef {
        id: "DPL7014",
        name: "kuma-shadow-skipped",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A policy labelled `kuma.io/effect: shadow` is skipped.",
        explanation: "Kuma's matching leaves out shadow policies (they are for previewing a change with the inspect API): they configure nothing.",
        fix: "Remove the label to apply the policy.",
        example: "metadata:\n  labels: {kuma.io/effect: shadow}",
    });

    /// DPL7015 `kuma-mesh-assumed`: A mesh is assumed.
    pub const KUMA_MESH_ASSUMED: Code = Code::new(&CodeDef {
        id: "DPL7015",
        name: "kuma-mesh-assumed",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A mesh named by Kuma objects is not in the input: dopol assumes it exists.",
        explanation: "Kuma creates mesh-scoped objects only in an existing mesh, so the Mesh exists on the control plane. Without it every `to: Mesh` entry would resolve to nothing; dopol assumes it, without mTLS and with the default MeshService mode.",
        fix: "Add the Mesh to the input.",
        example: "metadata:\n  labels: {kuma.io/mesh: mesh-1}   # no Mesh mesh-1 in the input",
    });

    /// DPL7016 `kuma-not-modelled`: Part of a Kuma input that dopol does not model.
    pub const KUMA_NOT_MODELLED: Code = Code::new(&CodeDef {
        id: "DPL7016",
        name: "kuma-not-modelled",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "Part of a Kuma input that dopol does not model (builtin gateways, legacy `from[]`, `to[]` entries read only by builtin gateways).",
        explanation: "dopol computes what Kuma's targetRef policies resolve to for sidecars and delegated gateways. Builtin gateways (MeshGateway listeners), zone proxies, the legacy `kuma.io/service` outbounds and `from[]` sections other than a MeshTrafficPermission's `Mesh` items are not modelled: no path is reported for them, so that no value is shown where dopol cannot say what Kuma applies.",
        fix: "Nothing to fix in the input; check these parts with `kumactl inspect` on a running control plane.",
        example: "spec:\n  targetRef: {kind: Mesh}\n  to:\n  - targetRef: {kind: Mesh}\n    default: {local: {http: {requestRate: {num: 5, interval: 10s}}}}   # MeshRateLimit `to`: builtin gateways only",
    });
}

/// One Kuma finding, with what the check found.
pub enum Finding {
    /// §K11 (`kuma-invalid-policy`).
    Invalid(String),
    /// A `to[]` entry that resolves to nothing: the entry and why.
    ToTargetNotFound(String, &'static str),
    /// A numeric `sectionName` (the section, the name it should be).
    SectionPortNumber(String, String),
    /// A Dataplane name ref in a global policy.
    DataplaneNameRefFromGlobal,
    /// On a path, a consumer's value beats a producer's: (key, producer, path).
    ConsumerOverridesProducer(String, String, String),
    /// A route key without the entries aimed at its MeshService: (route key, service).
    RouteIgnoresServiceEntries(String, String),
    /// MTP `from[]` ignored on an inbound, and why.
    MtpFromIgnored(String, &'static str),
    /// MTPs in a mesh without mTLS.
    MtpWithoutMtls(String),
    /// (written, computed) role.
    RoleLabelOverwritten(String, String),
    /// The other policy with the same display name.
    EqualDisplayNames(String),
    /// MeshService targets in a mesh without MeshServices.
    MeshServicesDisabled(String),
    /// A deprecated form.
    DeprecatedTargetRef(String),
    /// No Dataplane selected.
    SelectsNoDataplane,
    /// A shadow policy.
    ShadowSkipped,
    /// An assumed mesh.
    MeshAssumed(String),
    /// What is not modelled.
    NotModelled(String),
}

/// A finding about one object (`Kind ns/name` in messages).
pub struct About<'a> {
    /// The object, as `Kind ns/name`.
    pub object: &'a str,
    /// The finding.
    pub finding: Finding,
}

impl Violation for About<'_> {
    fn code(&self) -> Code {
        match self.finding {
            Finding::Invalid(_) => Code::KUMA_INVALID_POLICY,
            Finding::ToTargetNotFound(..) => Code::KUMA_TO_TARGET_NOT_FOUND,
            Finding::SectionPortNumber(..) => Code::KUMA_SECTION_PORT_NUMBER,
            Finding::DataplaneNameRefFromGlobal => Code::KUMA_DATAPLANE_NAME_REF_FROM_GLOBAL,
            Finding::ConsumerOverridesProducer(..) => Code::KUMA_CONSUMER_OVERRIDES_PRODUCER,
            Finding::RouteIgnoresServiceEntries(..) => Code::KUMA_ROUTE_IGNORES_SERVICE_ENTRIES,
            Finding::MtpFromIgnored(..) => Code::KUMA_MTP_FROM_IGNORED,
            Finding::MtpWithoutMtls(_) => Code::KUMA_MTP_WITHOUT_MTLS,
            Finding::RoleLabelOverwritten(..) => Code::KUMA_ROLE_LABEL_OVERWRITTEN,
            Finding::EqualDisplayNames(_) => Code::KUMA_EQUAL_DISPLAY_NAMES,
            Finding::MeshServicesDisabled(_) => Code::KUMA_MESHSERVICES_DISABLED,
            Finding::DeprecatedTargetRef(_) => Code::KUMA_DEPRECATED_TARGETREF,
            Finding::SelectsNoDataplane => Code::KUMA_SELECTS_NO_DATAPLANE,
            Finding::ShadowSkipped => Code::KUMA_SHADOW_SKIPPED,
            Finding::MeshAssumed(_) => Code::KUMA_MESH_ASSUMED,
            Finding::NotModelled(_) => Code::KUMA_NOT_MODELLED,
        }
    }

    fn message(&self) -> String {
        let object = self.object;
        match &self.finding {
            Finding::Invalid(problem) => format!("{object} is rejected by Kuma: {problem}"),
            Finding::ToTargetNotFound(entry, why) => {
                format!("{object}: {entry} resolves to nothing ({why}); Kuma drops it")
            }
            Finding::SectionPortNumber(section, name) => format!(
                "{object}: sectionName `{section}` is a number, but that port is named `{name}`: it matches nothing"
            ),
            Finding::DataplaneNameRefFromGlobal => format!(
                "{object} comes from the global control plane and selects a Dataplane by name: it selects nothing on zones"
            ),
            Finding::ConsumerOverridesProducer(key, producer, path) => format!(
                "{object} (consumer) overrides `{key}` that {producer} (producer) sets on {path}"
            ),
            Finding::RouteIgnoresServiceEntries(route, service) => format!(
                "{object} has entries for {service} that do not reach the key of its route {route}"
            ),
            Finding::MtpFromIgnored(inbound, why) => {
                format!("{object}: from[] is ignored on {inbound} ({why})")
            }
            Finding::MtpWithoutMtls(mesh) => format!(
                "{object} is in mesh `{mesh}`, which has no mTLS and no MeshIdentity: Kuma does not apply it"
            ),
            Finding::RoleLabelOverwritten(written, computed) => format!(
                "{object}: label kuma.io/policy-role `{written}` is replaced by the computed role `{computed}`"
            ),
            Finding::EqualDisplayNames(other) => format!(
                "{object} and {other} share a display name and rank: Kuma's order between them is undefined (dopol applies the smaller namespace/name last)"
            ),
            Finding::MeshServicesDisabled(mesh) => format!(
                "{object} aims at MeshServices, but mesh `{mesh}` has meshServices.mode Disabled: no such outbound exists"
            ),
            Finding::DeprecatedTargetRef(what) => {
                format!("{object} uses {what}, deprecated (removed in Kuma v3)")
            }
            Finding::SelectsNoDataplane => format!("{object} selects no Dataplane of the input"),
            Finding::ShadowSkipped => {
                format!("{object} is labelled kuma.io/effect: shadow: it is skipped")
            }
            Finding::MeshAssumed(mesh) => {
                format!("mesh `{mesh}` is not in the input (named by {object}): assumed to exist")
            }
            Finding::NotModelled(what) => format!("{object}: {what} is not modelled"),
        }
    }
}
