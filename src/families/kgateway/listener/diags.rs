//! ListenerPolicy's codes (DPL5020–DPL5021, docs/lint.md): a field kgateway does not read where
//! the policy is attached, and HTTPListenerPolicy, which dopol does not model.

use crate::diag::{Class, Code, CodeDef, Severity, Violation};
use crate::policy::Policy;

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[
    Code::LISTENERPOLICY_FIELD_IGNORED,
    Code::HTTPLISTENERPOLICY_DEPRECATED,
];

impl Code {
    /// DPL5020 `listenerpolicy-field-ignored`: kgateway does not read this ListenerPolicy field where the policy is attached.
    pub const LISTENERPOLICY_FIELD_IGNORED: Code = Code::new(&CodeDef {
        id: "DPL5020",
        name: "listenerpolicy-field-ignored",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "kgateway does not read this ListenerPolicy field where the policy is attached.",
        explanation: "kgateway writes one Envoy listener per port and reads each ListenerPolicy key at its own level: `proxyProtocol`, `tcpKeepalive`, `perConnectionBufferLimitBytes` and `httpSettings.healthCheck` from policies targeting the whole Gateway only; the other `httpSettings` fields and `transportSocketConnectTimeout` from a `sectionName` policy only on an HTTPS listener (HTTP listeners share one filter chain per port); `clientCertificateValidation` only from `sectionName` policies on HTTPS listeners. Elsewhere the field is accepted and silently unused.",
        fix: "Move the field to a policy targeting the whole Gateway (listener keys), or target the HTTPS listener by `sectionName` (`clientCertificateValidation`).",
        example: "spec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: https}]\n  default: {proxyProtocol: {}}",
    });

    /// DPL5021 `httplistenerpolicy-deprecated`: HTTPListenerPolicy is deprecated in favour of ListenerPolicy; dopol does not evaluate it.
    pub const HTTPLISTENERPOLICY_DEPRECATED: Code = Code::new(&CodeDef {
        id: "DPL5021",
        name: "httplistenerpolicy-deprecated",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "HTTPListenerPolicy is deprecated in favour of ListenerPolicy; dopol does not evaluate it.",
        explanation: "kgateway still serves HTTPListenerPolicy, but ListenerPolicy replaces it (its `httpSettings` hold the same fields) and a later kgateway removes it. dopol does not model HTTPListenerPolicy: its values appear on no path, and a ListenerPolicy beside it is evaluated as if it were absent.",
        fix: "Move the fields into a ListenerPolicy's `default.httpSettings` (or a `perPort` entry).",
        example: "apiVersion: gateway.kgateway.dev/v1alpha1\nkind: HTTPListenerPolicy",
    });
}

/// A field kgateway does not read where the policy is attached.
pub struct FieldIgnored<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The rule key.
    pub key: &'a str,
    /// Where it is attached (`Gateway ns/gw`, `listener ns/gw#https`).
    pub at: String,
    /// Why it is not read.
    pub reason: &'a str,
}

impl Violation for FieldIgnored<'_> {
    fn code(&self) -> Code {
        Code::LISTENERPOLICY_FIELD_IGNORED
    }
    fn message(&self) -> String {
        format!(
            "{}: `{}` has no effect on {}: {}",
            self.policy.display(),
            self.key,
            self.at,
            self.reason
        )
    }
}

/// An HTTPListenerPolicy in the input.
pub struct HttpListenerPolicyDeprecated<'a> {
    /// `namespace/name`.
    pub name: &'a str,
}

impl Violation for HttpListenerPolicyDeprecated<'_> {
    fn code(&self) -> Code {
        Code::HTTPLISTENERPOLICY_DEPRECATED
    }
    fn message(&self) -> String {
        format!(
            "HTTPListenerPolicy {} is not evaluated: dopol models its replacement, ListenerPolicy",
            self.name
        )
    }
}
