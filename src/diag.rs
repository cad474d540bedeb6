//! Diagnostics as data.
//!
//! Loading, topology, the engine and the lint checks never print: they return [`Diagnostic`]
//! values (a stable [`Code`], a [`Severity`], a message and labels pointing at file spans).
//! One renderer (`render::diagnostics`) turns them into miette reports, JSON, SARIF, GitHub
//! annotations or JUnit. That keeps the engine testable as plain data and the output formats
//! consistent with each other.

use crate::source::{SourceMap, Span};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;

/// How serious a finding is. Ordered: `Info < Warning < Error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; never fails a run unless `--fail-on info`.
    Info,
    /// Probably a mistake.
    Warning,
    /// Definitely wrong (the API server would reject it, or the policy cannot work).
    Error,
}

impl Severity {
    /// Lower-case name as used on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    /// Parses `error`, `warning` or `info` (case-insensitive).
    pub fn parse(s: &str) -> Option<Severity> {
        match s.to_ascii_lowercase().as_str() {
            "error" => Some(Severity::Error),
            "warning" | "warn" => Some(Severity::Warning),
            "info" | "note" => Some(Severity::Info),
            _ => None,
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether a diagnostic is about the input being malformed (exit code 3 on every command) or a
/// finding about what the (valid) input means (reported by `lint`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// The input is malformed or would be rejected by the API server.
    Input,
    /// The input is valid but probably not what the author wanted.
    Finding,
}

macro_rules! codes {
    ($( $variant:ident = $code:literal, $name:literal, $severity:ident, $class:ident, $summary:literal; )*) => {
        /// Stable diagnostic codes. The numbers never change meaning; retired codes are not reused.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $( #[doc = $summary] $variant, )* }

        impl Code {
            /// Every code, in catalogue order.
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];

            /// The stable identifier, e.g. `DPL1001`.
            pub fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $code, )* }
            }

            /// Short kebab-case name, e.g. `yaml-syntax`.
            pub fn name(self) -> &'static str {
                match self { $( Code::$variant => $name, )* }
            }

            /// Severity used unless a check decides otherwise.
            pub fn default_severity(self) -> Severity {
                match self { $( Code::$variant => Severity::$severity, )* }
            }

            /// Input error or finding.
            pub fn class(self) -> Class {
                match self { $( Code::$variant => Class::$class, )* }
            }

            /// One-line summary.
            pub fn summary(self) -> &'static str {
                match self { $( Code::$variant => $summary, )* }
            }
        }
    };
}

codes! {
    YamlSyntax = "DPL1001", "yaml-syntax", Error, Input, "The file is not valid YAML or JSON.";
    UnreadableInput = "DPL1002", "unreadable-input", Error, Input, "An input path could not be read (missing file, permissions, no match for a glob).";
    InvalidEncoding = "DPL1003", "invalid-encoding", Error, Input, "The file is not valid UTF-8.";
    NotAnObject = "DPL1004", "not-a-kubernetes-object", Warning, Input, "A document has no apiVersion/kind and was skipped.";
    InvalidObject = "DPL1005", "invalid-object", Error, Input, "A known object has the wrong shape (wrong type, missing or invalid field) and was left out.";
    DuplicateObject = "DPL1006", "duplicate-object", Error, Input, "The same object (group, kind, namespace, name) is defined twice; the first definition is used.";
    DeprecatedApiVersion = "DPL1007", "deprecated-api-version", Error, Finding, "The object uses an apiVersion current releases no longer serve; it is evaluated as the current version.";
    EmptyInput = "DPL1008", "empty-input", Error, Input, "The inputs contain no Kubernetes objects.";
    UnknownField = "DPL1009", "unknown-field", Error, Input, "A field is not part of the object's CRD schema (a typo, or wrong indentation): strict field validation rejects the object, so it was left out.";
    ExclusiveBlocks = "DPL1010", "exclusive-blocks", Error, Input, "A policy mixes `defaults`, `overrides` and bare rules, which the CRD forbids.";
    EmptyBlock = "DPL1011", "empty-block", Error, Input, "The active defaults/overrides block (or the bare spec) holds no rule.";
    UnsupportedApiVersion = "DPL1012", "unsupported-api-version", Warning, Input, "A kind dopol reads appears with an apiVersion it does not know; the object was skipped.";
    InvalidName = "DPL1013", "invalid-name", Error, Input, "A name, namespace, hostname or section name breaks the rule the API server applies (RFC 1123, Gateway API patterns); the object was left out.";
    InvalidFamilies = "DPL1014", "invalid-families", Error, Input, "A families file (`--families`, `.dopol/families.yaml`) is not valid: the run stops before manifests are read (exit 2).";
    SchemaViolation = "DPL1015", "schema-violation", Error, Input, "A value breaks the CRD's structural schema (type, required, enum, pattern, format, bounds, list type): the API server rejects the object, so it was left out.";
    ValidationRule = "DPL1016", "validation-rule", Error, Input, "An `x-kubernetes-validations` rule of the CRD is false for the object: the API server rejects it, so it was left out.";
    RuleNotEvaluated = "DPL1017", "rule-not-evaluated", Info, Input, "A CRD validation rule dopol cannot evaluate: objects of the kind are not checked against it.";
    VersionNotServed = "DPL1018", "version-not-served", Error, Input, "The object's apiVersion is in the CRD but no longer served: the API server rejects it, so it was left out.";
    InvalidCrd = "DPL1019", "invalid-crd", Error, Input, "A file given with `--crds` holds something that is not a usable CRD: the run stops before manifests are read (exit 2).";
    InvalidConfig = "DPL1020", "invalid-config", Error, Input, "The config file (`.dopol.yaml`, `--config`) is not valid: the run stops before manifests are read (exit 2).";
    TemplateSkipped = "DPL1021", "template-skipped", Info, Input, "A Go/Helm template file (`{{ ... }}` actions) was not read: a note when a directory walk or glob found it, a warning when it was named.";
    ParentNotFound = "DPL2001", "parent-not-found", Warning, Finding, "A route's parentRef names a Gateway that is not in the input.";
    NoMatchingParent = "DPL2002", "no-matching-parent", Warning, Finding, "A parentRef's sectionName or port matches no listener of the Gateway (NoMatchingParent).";
    NotAllowedByListeners = "DPL2003", "not-allowed-by-listeners", Warning, Finding, "No listener allows the route's namespace or kind (NotAllowedByListeners).";
    NoMatchingListenerHostname = "DPL2004", "no-matching-listener-hostname", Warning, Finding, "The route's hostnames intersect no listener hostname (NoMatchingListenerHostname).";
    RouteNotAttached = "DPL2005", "route-not-attached", Warning, Finding, "A route is attached to no listener at all, so no policy reaches it.";
    DuplicateListenerName = "DPL2006", "duplicate-listener-name", Error, Input, "Two listeners of one Gateway share a name.";
    DuplicateRuleName = "DPL2007", "duplicate-rule-name", Error, Input, "Two rules of one route share a name (explicit or positional).";
    SelectorUndecidable = "DPL2008", "selector-undecidable", Info, Finding, "An allowedRoutes namespace selector cannot be decided offline; the route is assumed accepted.";
    AssumedGateway = "DPL2009", "assumed-gateway", Info, Finding, "A missing Gateway was replaced by a stand-in (--assume-gateways).";
    DelegationChildDropped = "DPL2010", "delegation-child-dropped", Warning, Finding, "A route delegated to by a kgateway parent rule is dropped there (hostnames set, parentRefs not naming the parent, a cycle), or some of its rules are (no match valid for the parent's).";
    DelegationMixedBackends = "DPL2012", "delegation-mixed-backends", Warning, Finding, "A rule delegates to HTTPRoutes and also names other backends, which kgateway ignores.";
    DelegationNotSupported = "DPL2011", "delegation-not-supported", Info, Finding, "A policy whose controller does not implement route delegation targets a route only delegation reaches, so it takes part in no path.";
    TargetNotFound = "DPL3001", "target-not-found", Error, Finding, "A policy's targetRef names an object that is not in the input; the policy is not accepted.";
    SectionNotFound = "DPL3002", "section-not-found", Error, Finding, "A policy's targetRef sectionName names no listener or route rule; the policy is not accepted.";
    InvalidTargetKind = "DPL3003", "invalid-target-kind", Error, Input, "A policy targets a kind it may not target.";
    PolicyOverridden = "DPL4001", "policy-overridden", Warning, Finding, "The policy is accepted but overridden on every path it reaches.";
    PolicyUnreachable = "DPL4002", "policy-unreachable", Warning, Finding, "The policy's target has no route beneath it, so it is in the path to nothing.";
    DefaultSupersededEverywhere = "DPL4003", "default-superseded-everywhere", Info, Finding, "A default rule loses to a more specific policy on every path where it applies.";
    OrderedByName = "DPL4004", "ordered-by-name", Info, Finding, "Two policies on one target are ordered by name only (same or missing creationTimestamp).";
    GranularityTrap = "DPL4005", "granularity-trap", Warning, Finding, "A merge override replaces a whole limit whose lower version had more rates (RFC 0009 granularity problem).";
    UnsetOfOverride = "DPL4006", "unset-of-override", Warning, Finding, "An `unset` entry names a rule that only an override provides; overrides cannot be deactivated.";
    UnsetUnmatched = "DPL4007", "unset-unmatched", Warning, Finding, "An `unset` entry names no rule of any higher default on any path.";
    RfcExtension = "DPL4008", "rfc-extension", Info, Finding, "The policy uses an RFC 0009 feature the Kuadrant operator does not enforce (constraints, unset).";
    ConstraintInvalid = "DPL4009", "constraint-invalid", Error, Input, "A block's `when` constraint is not a valid CEL expression.";
    ConstraintEvaluation = "DPL4010", "constraint-evaluation", Warning, Finding, "A block's `when` constraint failed to evaluate or did not return a boolean, so the block was not applied.";
    PredicateInvalid = "DPL4011", "predicate-invalid", Error, Input, "A Kuadrant request-time predicate or counter expression is not valid CEL.";
    FamilyOverridesBuiltin = "DPL4012", "family-overrides-builtin", Info, Finding, "A families file declares a kind with the group and kind of a built-in one; the declaration replaces the built-in.";
    UnknownIgnoreCode = "DPL4013", "unknown-ignore-code", Warning, Finding, "A `dopol.io/ignore` annotation names a code that does not exist, so it suppresses nothing.";
    ExtensionRefNotFound = "DPL5001", "extension-ref-not-found", Error, Finding, "A route rule's ExtensionRef filter names a TrafficPolicy that is not in the input; kgateway answers the rule with a 500.";
    RouteReplaced = "DPL5002", "route-replaced", Error, Finding, "An invalid TrafficPolicy takes part in a scope of the path, so kgateway replaces the scope with a 500 and the path has no effective TrafficPolicy.";
    InvalidPolicyWeight = "DPL5003", "invalid-policy-weight", Error, Finding, "`kgateway.dev/policy-weight` is not a base-10 int32: kgateway rejects the policy.";
    UnknownInheritedPriority = "DPL5004", "unknown-inherited-priority", Warning, Finding, "`kgateway.dev/inherited-policy-priority` has a value kgateway does not know; it means ShallowMergePreferChild.";
    InheritedPriorityOnGateway = "DPL5005", "inherited-priority-on-gateway", Warning, Finding, "`kgateway.dev/inherited-policy-priority` on a Gateway has no effect in kgateway, although its API doc says so.";
    DuplicateAttachment = "DPL5006", "duplicate-attachment", Warning, Finding, "A TrafficPolicy reaches one element through several attachments; kgateway merges it once per attachment.";
    GatewayDisablesRouteProvider = "DPL5008", "gateway-disables-route-provider", Warning, Finding, "A listener or Gateway TrafficPolicy disables extAuth/extProc/jwtAuth, switching off the providers a route policy names.";
    GatewayHeaderSetWins = "DPL5009", "gateway-header-set-wins", Warning, Finding, "A header set by a route TrafficPolicy and by a listener or Gateway one ends with the less specific value (Envoy applies header mutations of every level, least specific last).";
    InvalidPolicy = "DPL5010", "invalid-policy", Error, Finding, "kgateway records an error on the TrafficPolicy (e.g. an acl CIDR with host bits set): it is rejected and its scopes answer 500.";
    DeepMergePlainField = "DPL5011", "deep-merge-plain-field", Warning, Finding, "Under DeepMergePreferParent kgateway keeps the child's value of a plain field, not the parent's (kgateway#14724).";
    DelegateeCanDisableAuth = "DPL5012", "delegatee-can-disable-auth", Warning, Finding, "A child route in another namespace can replace or disable the parent route's authentication, because the parent does not prefer its own policies.";
    BuiltinShadowsPolicy = "DPL5013", "builtin-shadows-policy", Info, Finding, "A route rule sets a built-in field or filter with the same meaning as an effective TrafficPolicy field.";
    SelectorSelectsNothing = "DPL5007", "selector-selects-nothing", Warning, Finding, "A targetSelector with empty matchLabels selects nothing in kgateway.";
    AuthReplacedWithoutMerge = "DPL6001", "auth-replaced-without-merge", Warning, Finding, "An Envoy Gateway route SecurityPolicy without mergeType replaces a Gateway SecurityPolicy whose authentication it does not repeat (envoyproxy/gateway#8781).";
    Conflicted = "DPL6002", "conflicted", Warning, Finding, "An Envoy Gateway policy targets an element another policy of its kind already claimed; it is not accepted there (Conflicted).";
    NullPruned = "DPL6003", "null-pruned", Warning, Finding, "A `null` in an Envoy Gateway policy is pruned by the API server: the field is absent, and cannot delete a parent's field.";
    DeprecatedTargetRef = "DPL6004", "deprecated-target-ref", Info, Finding, "The singular `spec.targetRef` of an Envoy Gateway policy is deprecated; use `targetRefs`.";
    SelectorSelectsAll = "DPL6005", "selector-selects-all", Warning, Finding, "A targetSelector with neither matchLabels nor matchExpressions selects every object of its kind in the policy's namespace.";
    CrossNamespaceSelector = "DPL6006", "cross-namespace-selector", Warning, Finding, "An Envoy Gateway targetSelector's `namespaces` field is not evaluated by dopol; the selector acts on the policy's namespace only.";
    IgnoredTargetKind = "DPL6007", "ignored-target-kind", Info, Finding, "An Envoy Gateway policy targets a TCPRoute, UDPRoute, TLSRoute or ListenerSet, which dopol does not model; the target is ignored.";
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Code {
    /// Every code, in catalogue order (the common codes, then each built-in family's).
    pub fn all() -> impl Iterator<Item = Code> {
        Code::ALL.iter().copied()
    }

    /// Looks a code up by identifier (`DPL1001`) or name (`yaml-syntax`), case-insensitively.
    pub fn parse(s: &str) -> Option<Code> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str().eq_ignore_ascii_case(s) || c.name().eq_ignore_ascii_case(s))
    }

    /// The code identifier or name nearest to `s`, for "did you mean" hints.
    pub fn closest(s: &str) -> Option<&'static str> {
        crate::suggest::closest(s, Code::ALL.iter().flat_map(|c| [c.as_str(), c.name()]))
    }
}

/// A labelled span. The first label of a diagnostic is its primary location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What this place has to do with the diagnostic (may be empty).
    pub message: String,
}

/// One finding: code, severity, message and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable code.
    pub code: Code,
    /// Severity (usually the code's default).
    pub severity: Severity,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Locations; the first is the primary one.
    pub labels: Vec<Label>,
    /// The object concerned, as `Kind ns/name` (or `Kind name` when cluster-scoped).
    pub object: Option<String>,
    /// A file the diagnostic is about when no span exists (unreadable file, empty glob).
    pub file: Option<String>,
    /// How to fix it.
    pub help: Option<String>,
    /// The root cause's primary span when this finding follows from another one (a CRD rule
    /// broken because a field is misspelt): it is sorted right after its root cause.
    pub follows: Option<Span>,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity and no location yet.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.default_severity(),
            message: message.into(),
            labels: Vec::new(),
            object: None,
            file: None,
            help: None,
            follows: None,
        }
    }

    /// Adds the primary label (or a further label).
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Sets the severity.
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// Names the object concerned.
    pub fn with_object(mut self, object: impl Into<String>) -> Self {
        self.object = Some(object.into());
        self
    }

    /// Marks the finding as following from the root cause reported at `root` (sorted after it).
    pub fn with_follows(mut self, root: Option<Span>) -> Self {
        self.follows = root;
        self
    }

    /// Names the file concerned (for diagnostics without a span).
    pub fn with_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    /// Adds a fix-it hint.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The primary span, if any.
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.first().map(|l| l.span)
    }

    /// Whether this diagnostic means the input was malformed (exit code 3).
    pub fn is_input_error(&self) -> bool {
        self.code.class() == Class::Input && self.severity == Severity::Error
    }

    /// A key that sorts diagnostics by file, position, code and message; a follow-on finding
    /// sorts right after its root cause.
    pub fn sort_key(&self, sources: &SourceMap) -> (String, u32, bool, u32, Code, String) {
        let own = self.primary_span();
        match self.follows.or(own) {
            Some(anchor) => (
                sources.get(anchor.source).name().to_string(),
                anchor.start,
                self.follows.is_some(),
                own.map_or(0, |s| s.start),
                self.code,
                self.message.clone(),
            ),
            None => (
                self.file.clone().unwrap_or_default(),
                0,
                false,
                0,
                self.code,
                self.message.clone(),
            ),
        }
    }
}

/// The problems of a settings file (families, config) as errors of its one `code`: whatever
/// the reader found (YAML syntax, a wrong type, an unknown field) makes the file unusable.
pub fn as_file_errors(diagnostics: Vec<Diagnostic>, code: Code) -> Vec<Diagnostic> {
    diagnostics
        .into_iter()
        .map(|mut d| {
            if d.code == Code::YamlSyntax && !d.message.starts_with("invalid YAML") {
                d.message = format!("invalid YAML: {}", d.message);
            }
            d.code = code;
            d.severity = Severity::Error;
            d.object = None;
            d
        })
        .collect()
}

/// Links follow-on findings to their root cause (see [`link_follow_ons`]), sorts diagnostics
/// deterministically (by file, offset, code, message) and removes exact repeats.
pub fn sort_and_dedup(diagnostics: &mut Vec<Diagnostic>, sources: &SourceMap) {
    link_follow_ons(diagnostics);
    diagnostics.sort_by_cached_key(|d| d.sort_key(sources));
    diagnostics.dedup();
}

/// Marks the input errors that follow from an unknown field of the same object: a finding on a
/// mapping that holds a misspelt key (`limit:` for `limits:` makes "At least one spec.limits
/// must be defined" fail on `spec`) is about the same mistake. The root cause is reported first
/// and the follow-on says so, instead of inventing a cause of its own.
fn link_follow_ons(diagnostics: &mut [Diagnostic]) {
    // Unknown fields by object, in input order: each finding looks at its own object's only.
    let mut unknown: HashMap<String, Vec<(Span, String)>> = HashMap::new();
    for d in diagnostics.iter().filter(|d| d.code == Code::UnknownField) {
        if let (Some(object), Some(span)) = (&d.object, d.primary_span()) {
            (unknown.entry(object.clone()).or_default()).push((span, d.message.clone()));
        }
    }
    if unknown.is_empty() {
        return;
    }
    for d in diagnostics.iter_mut() {
        if d.code == Code::UnknownField || d.follows.is_some() || d.code.class() != Class::Input {
            continue;
        }
        let (Some(object), Some(own)) = (d.object.as_deref(), d.primary_span()) else {
            continue;
        };
        let root = unknown.get(object).into_iter().flatten().find(|(span, _)| {
            span.source == own.source && own.start <= span.start && span.end <= own.end
        });
        if let Some((span, message)) = root {
            d.follows = Some(*span);
            let note = format!("this follows from the {message} reported above (DPL1009)");
            d.help = Some(match d.help.take() {
                Some(help) => format!("{note}\n{help}"),
                None => note,
            });
        }
    }
}

/// Where a suggested command's inputs go: `lint` replaces it with the run's own input flags
/// (`-f manifests/ -n shop ...`) before rendering, so that a `help:` line copies and runs as is.
pub const RUN_INPUTS: &str = "\u{1}inputs";

/// `see `dopol COMMAND -f ...``: a help line suggesting another dopol command on the same input.
pub fn see_command(command: impl fmt::Display) -> String {
    format!("see `dopol {command}{RUN_INPUTS}`")
}

/// Completes the commands [`see_command`] suggested with `inputs` (leading space included).
pub fn complete_commands(diagnostics: &mut [Diagnostic], inputs: &str) {
    for help in diagnostics.iter_mut().filter_map(|d| d.help.as_mut()) {
        if help.contains(RUN_INPUTS) {
            *help = help.replace(RUN_INPUTS, inputs);
        }
    }
}

/// The message of a limit hit: what happened, with the limit's value, and the limit's name as
/// docs/limits.md lists it (`yaml-depth`, `cel-length`, ...), so the user learns which limit
/// stopped what.
pub fn over_limit(what: impl fmt::Display, name: &str) -> String {
    format!("{what} (the `{name}` limit)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_parse_back() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            assert!(seen.insert(code.as_str()), "duplicate {code}");
            assert!(seen.insert(code.name()), "duplicate name {}", code.name());
            assert_eq!(Code::parse(code.as_str()), Some(*code));
            assert_eq!(Code::parse(code.name()), Some(*code));
        }
    }
}
