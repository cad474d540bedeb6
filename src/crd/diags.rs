//! The codes of CRD validation: what the API server would refuse on the schemas and
//! `x-kubernetes-validations` rules of the bundled CRDs (or those given with `--crds`), and the
//! CRD files that cannot be used.

use super::validate::{self, Problem};
use crate::diag::{Class, Code, CodeDef, Severity, Violation};
use std::fmt::Display;

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[
    Code::SCHEMA_VIOLATION,
    Code::VALIDATION_RULE,
    Code::RULE_NOT_EVALUATED,
    Code::VERSION_NOT_SERVED,
    Code::INVALID_CRD,
];

impl Code {
    /// DPL1015 `schema-violation`: A value breaks the CRD's structural schema (type, required, enum, pattern, format, bounds, list type): the API server rejects the object, so it was left out.
    pub const SCHEMA_VIOLATION: Code = Code::new(&CodeDef {
        id: "DPL1015",
        name: "schema-violation",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A value breaks the CRD's structural schema (type, required, enum, pattern, format, bounds, list type): the API server rejects the object, so it was left out.",
        explanation: "A value breaks the structural schema of the object's CRD, as the API server checks it: a wrong type, a missing required field, a value outside an `enum`, a string that does not match its `pattern` or `format`, a number out of bounds, a string or list too long or too short, a duplicate in a `set` or `map` list. The message is the API server's own (`spec.rules[0].matches: Too many: 65: must have at most 64 items`) and the help names the schema node that decided. Defaults are applied first, as the API server does. The object is left out.",
        fix: "Change the value as the message says; the schema path in the help shows the rule in the CRD.",
        example: "spec:\n  limits:\n    a:\n      rates: [{limit: -1, window: 1m}]",
    });

    /// DPL1016 `validation-rule`: An `x-kubernetes-validations` rule of the CRD is false for the object: the API server rejects it, so it was left out.
    pub const VALIDATION_RULE: Code = Code::new(&CodeDef {
        id: "DPL1016",
        name: "validation-rule",
        severity: Severity::Error,
        class: Class::Input,
        summary: "An `x-kubernetes-validations` rule of the CRD is false for the object: the API server rejects it, so it was left out.",
        explanation: "An `x-kubernetes-validations` rule of the CRD (a CEL expression such as `!(has(self.defaults) && has(self.limits))`) is false for the object, or fails to evaluate. The message is the rule's own `message` (or `messageExpression`), reported at the field the rule sits on (or its `fieldPath`). As on the API server, these rules only run when the structural checks found no missing field, unsupported value, wrong type or over-long value; otherwise they are not run, and the help of the first such error quotes the API server's own error saying so (`<nil>: Invalid value: \"null\": some validation rules were not checked ...`). The object is left out.",
        fix: "Change the object so the rule holds; the help names the schema node the rule sits on.",
        example: "spec:\n  targetRef: {group: gateway.networking.k8s.io, kind: Service, name: x}",
    });

    /// DPL1017 `rule-not-evaluated`: A CRD validation rule dopol cannot evaluate: objects of the kind are not checked against it.
    pub const RULE_NOT_EVALUATED: Code = Code::new(&CodeDef {
        id: "DPL1017",
        name: "rule-not-evaluated",
        severity: Severity::Info,
        class: Class::Input,
        summary: "A CRD validation rule dopol cannot evaluate: objects of the kind are not checked against it.",
        explanation: "A CRD validation rule dopol cannot evaluate (a CEL function it does not implement, an expression beyond its limits). It is listed once per kind and rule, and objects are not checked against it, so the API server may still reject an object dopol accepts.",
        fix: "Nothing to fix in the manifests; check the object against a cluster (`kubectl apply --dry-run=server`) if the rule matters.",
        example: "",
    });

    /// DPL1018 `version-not-served`: The object's apiVersion is in the CRD but no longer served: the API server rejects it, so it was left out.
    pub const VERSION_NOT_SERVED: Code = Code::new(&CodeDef {
        id: "DPL1018",
        name: "version-not-served",
        severity: Severity::Error,
        class: Class::Input,
        summary: "The object's apiVersion is in the CRD but no longer served: the API server rejects it, so it was left out.",
        explanation: "The object's apiVersion is listed in its CRD with `served: false`: the API server refuses objects of that version. The object is left out.",
        fix: "Change apiVersion to a served version (the message lists them).",
        example: "",
    });

    /// DPL1019 `invalid-crd`: A file given with `--crds` holds something that is not a usable CRD: the run stops before manifests are read (exit 2).
    pub const INVALID_CRD: Code = Code::new(&CodeDef {
        id: "DPL1019",
        name: "invalid-crd",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A file given with `--crds` holds something that is not a usable CRD: the run stops before manifests are read (exit 2).",
        explanation: "A file given with `--crds` cannot be used: it cannot be read, a document in it is not a CustomResourceDefinition (with spec.group, spec.names.kind and spec.versions), or a version's schema does not compile. dopol stops before reading manifests (exit 2), since validating against a broken CRD would give wrong answers.",
        fix: "Point `--crds` at CRD files, or at the output of `kubectl get crd -o yaml`.",
        example: "dopol lint --crds not-a-crd.yaml -f manifests/",
    });
}

/// What the API server says of an object the CRD's schema or rules reject (`unknown-field`,
/// `schema-violation`, `validation-rule`): the validator's finding, with the CRD it came from.
pub struct Rejected<'a> {
    /// The validator's finding (its message is the API server's error text).
    pub violation: &'a validate::Violation,
    /// Where the CRD came from (bundled file or `--crds`).
    pub origin: &'a dyn Display,
    /// The object's version, whose schema decided.
    pub version: &'a str,
}

impl Rejected<'_> {
    /// The label under the rejected value.
    pub fn label(&self) -> &'static str {
        match self.violation.problem {
            Problem::UnknownField => "not in the schema",
            Problem::Schema => "rejected by the schema",
            Problem::Rule => "rejected by a validation rule",
        }
    }
}

impl Violation for Rejected<'_> {
    fn code(&self) -> Code {
        match self.violation.problem {
            Problem::UnknownField => Code::UNKNOWN_FIELD,
            Problem::Schema => Code::SCHEMA_VIOLATION,
            Problem::Rule => Code::VALIDATION_RULE,
        }
    }

    fn message(&self) -> String {
        self.violation.message.clone()
    }

    fn help(&self) -> Option<String> {
        let schema = format!(
            "schema: {}, {} {}",
            self.origin, self.version, self.violation.schema_path
        );
        Some(match &self.violation.suggestion {
            Some(suggestion) => format!("{suggestion}\n{schema}"),
            None => schema,
        })
    }
}

/// An object in a version its CRD lists but no longer serves (`version-not-served`).
pub struct VersionNotServed<'a> {
    /// The object, as `Kind ns/name`.
    pub object: &'a str,
    /// Its `apiVersion`.
    pub api_version: &'a str,
    /// The versions served.
    pub served: &'a [&'a str],
    /// Where the CRD came from.
    pub origin: &'a dyn Display,
}

impl Violation for VersionNotServed<'_> {
    fn code(&self) -> Code {
        Code::VERSION_NOT_SERVED
    }

    fn message(&self) -> String {
        format!(
            "{} uses `{}`, which the CRD lists but no longer serves (served: {}); the API server rejects it",
            self.object,
            self.api_version,
            self.served.join(", ")
        )
    }

    fn help(&self) -> Option<String> {
        Some(format!("CRD: {}", self.origin))
    }
}

/// A CRD validation rule dopol cannot evaluate (`rule-not-evaluated`).
pub struct RuleNotEvaluated<'a> {
    /// The CRD's kind, group and version.
    pub kind: &'a str,
    /// The CRD's group.
    pub group: &'a str,
    /// The version whose schema holds the rule.
    pub version: &'a str,
    /// The rule's CEL text.
    pub rule: &'a str,
    /// Where in the schema.
    pub at: &'a dyn Display,
    /// Why it cannot be evaluated.
    pub why: &'a dyn Display,
}

impl Violation for RuleNotEvaluated<'_> {
    fn code(&self) -> Code {
        Code::RULE_NOT_EVALUATED
    }

    fn message(&self) -> String {
        format!(
            "{}.{} {}: the CRD rule `{}` at {} is not evaluated: {}",
            self.kind, self.group, self.version, self.rule, self.at, self.why
        )
    }
}

/// A `--crds` input that is not a usable CRD (`invalid-crd`).
pub enum InvalidCrd<'a> {
    /// A document that is not a CustomResourceDefinition with the fields dopol needs.
    NotACrd,
    /// A version whose schema dopol cannot compile.
    BadSchema {
        kind: &'a str,
        group: &'a str,
        version: &'a str,
        why: &'a dyn Display,
    },
    /// A CRD file or directory that cannot be read.
    Unreadable { path: &'a str, why: &'a str },
}

impl Violation for InvalidCrd<'_> {
    fn code(&self) -> Code {
        Code::INVALID_CRD
    }

    fn message(&self) -> String {
        match self {
            InvalidCrd::NotACrd => "skipped a document that is not a CustomResourceDefinition with spec.group, spec.names.kind and spec.versions".into(),
            InvalidCrd::BadSchema {
                kind,
                group,
                version,
                why,
            } => format!("the CRD of {kind}.{group} version {version}: {why}"),
            InvalidCrd::Unreadable { path, why } => {
                format!("cannot read the CRD file `{path}`: {why}")
            }
        }
    }
}
