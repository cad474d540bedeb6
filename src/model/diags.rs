//! The codes of building the model: API versions dopol skips, names a Gateway or route defines
//! twice, and Gateways dopol stands in for. (A version a family's controller no longer serves is
//! the family's finding: `PolicyFamily::unserved_version`.)

use super::elsewhere::{self, Elsewhere, ParentRefSite};
use crate::diag::{Class, Code, CodeDef, Severity, Violation};

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[
    Code::UNSUPPORTED_API_VERSION,
    Code::DUPLICATE_LISTENER_NAME,
    Code::DUPLICATE_RULE_NAME,
    Code::ASSUMED_GATEWAY,
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
