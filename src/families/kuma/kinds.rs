//! Kuma's policy kinds (§K1) and what each does with its sections: which give outbound keys,
//! how inbound rules are used, which are proxy-wide, and which fields are durations.

use crate::load::KindSpec;
use crate::policy::PolicyKind;

/// The top-level and `to[]` target kinds a policy may name (for messages).
const TARGET_KINDS: &[&str] = &[
    "Mesh",
    "Dataplane",
    "MeshSubset",
    "MeshGateway",
    "MeshService",
    "MeshExternalService",
    "MeshMultiZoneService",
    "MeshServiceSubset",
    "MeshHTTPRoute",
];

const fn kind(name: &'static str) -> PolicyKind {
    PolicyKind {
        family: "kuma",
        group: "kuma.io",
        kind: name,
        versions: &["v1alpha1"],
        unserved_versions: &[],
        target_kinds: TARGET_KINDS,
        target_kind_message: "Kuma policies select dataplanes through spec.targetRef",
    }
}

/// The policy kinds, in registry order.
pub static KINDS: [PolicyKind; 14] = [
    kind("MeshTimeout"),
    kind("MeshCircuitBreaker"),
    kind("MeshRateLimit"),
    kind("MeshTLS"),
    kind("MeshAccessLog"),
    kind("MeshFaultInjection"),
    kind("MeshRetry"),
    kind("MeshHealthCheck"),
    kind("MeshLoadBalancingStrategy"),
    kind("MeshTrafficPermission"),
    kind("MeshTrace"),
    kind("MeshMetric"),
    kind("MeshProxyPatch"),
    kind("MeshPassthrough"),
];

const fn object(kind: &'static str, cluster_scoped: bool) -> KindSpec {
    KindSpec {
        group: "kuma.io",
        kind,
        cluster_scoped,
    }
}

/// The other kinds the family reads (§K2).
pub static OBJECT_KINDS: [KindSpec; 9] = [
    object("Mesh", true),
    object("Dataplane", false),
    object("MeshService", false),
    object("MeshExternalService", false),
    object("MeshMultiZoneService", false),
    object("MeshHTTPRoute", false),
    object("MeshTCPRoute", false),
    object("MeshIdentity", false),
    object("MeshGateway", false),
];

/// How a kind uses the rules of an inbound (§K8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inbound {
    /// No inbound paths.
    None,
    /// The catch-all rules fold into the leaves; matched rules are `match#<i>` keys.
    Merged,
    /// Every rule is a `rule#<i>` key.
    Listed,
    /// MeshTrafficPermission's `deny`/`allowWithShadowDeny`/`allow` lists, or legacy `action`.
    Permission,
}

/// What one kind does (§K1).
#[derive(Clone, Copy, Debug)]
pub struct Semantics {
    /// Its `to[]` entries give outbound keys.
    pub outbound: bool,
    /// Its `to[]` entries exist but apply to builtin gateways only (no outbound path, a note).
    pub gateway_only_to: bool,
    /// Its inbound rules.
    pub inbound: Inbound,
    /// `from[]` items are read as rules without matches when there are no `rules`.
    pub from_as_rules: bool,
    /// A single proxy-wide `default`.
    pub proxy: bool,
    /// The duration fields, by name (`parent.name` for a name that is one only under a parent).
    pub durations: &'static [&'static str],
}

const fn semantics(outbound: bool, inbound: Inbound, from_as_rules: bool) -> Semantics {
    Semantics {
        outbound,
        gateway_only_to: false,
        inbound,
        from_as_rules,
        proxy: false,
        durations: &[],
    }
}

const PROXY: Semantics = Semantics {
    proxy: true,
    ..semantics(false, Inbound::None, false)
};

/// The semantics of `kind` (one of [`KINDS`]).
pub fn semantics_of(kind: &PolicyKind) -> Semantics {
    match kind.kind {
        "MeshTimeout" => Semantics {
            durations: &[
                "connectionTimeout",
                "idleTimeout",
                "requestTimeout",
                "streamIdleTimeout",
                "maxStreamDuration",
                "maxConnectionDuration",
                "requestHeadersTimeout",
            ],
            ..semantics(true, Inbound::Merged, true)
        },
        "MeshCircuitBreaker" => Semantics {
            durations: &["interval", "baseEjectionTime"],
            ..semantics(true, Inbound::Merged, true)
        },
        "MeshRateLimit" => Semantics {
            gateway_only_to: true,
            durations: &["interval"],
            ..semantics(false, Inbound::Merged, true)
        },
        "MeshTLS" => semantics(false, Inbound::Merged, true),
        "MeshAccessLog" => semantics(true, Inbound::Listed, true),
        "MeshFaultInjection" => Semantics {
            gateway_only_to: true,
            durations: &["delay.value"],
            ..semantics(false, Inbound::Listed, false)
        },
        "MeshRetry" => Semantics {
            durations: &["perTryTimeout", "baseInterval", "maxInterval"],
            ..semantics(true, Inbound::None, false)
        },
        "MeshHealthCheck" => Semantics {
            durations: &[
                "interval",
                "timeout",
                "initialJitter",
                "intervalJitter",
                "noTrafficInterval",
            ],
            ..semantics(true, Inbound::None, false)
        },
        "MeshLoadBalancingStrategy" => Semantics {
            durations: &["ttl"],
            ..semantics(true, Inbound::None, false)
        },
        "MeshTrafficPermission" => semantics(false, Inbound::Permission, false),
        "MeshMetric" => Semantics {
            durations: &["refreshInterval"],
            ..PROXY
        },
        _ => PROXY,
    }
}
