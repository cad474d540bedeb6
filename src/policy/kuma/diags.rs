//! Kuma's codes (DPL70xx, §K12), each with the finding types that word it.

use crate::diag::{Class, Code, CodeDef, Severity, Violation};

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[Code::KUMA_NOT_MODELLED];

impl Code {
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

/// Something dopol leaves out (`kuma-not-modelled`).
pub struct NotModelled {
    /// What.
    pub what: String,
}

impl Violation for NotModelled {
    fn code(&self) -> Code {
        Code::KUMA_NOT_MODELLED
    }
    fn message(&self) -> String {
        format!("{} is not modelled", self.what)
    }
}
