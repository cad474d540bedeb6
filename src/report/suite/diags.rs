//! The codes of a suite that is wrong (`dopol test`, exit 2), and the finding type that words
//! them. A suite is a source file like any manifest: each problem is located at file:line:col
//! with a snippet, and names the nearest existing name, so that a typo never passes as a case
//! that checks nothing.

use crate::diag::{Class, Code, CodeDef, Severity, Violation};

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[
    Code::INVALID_SUITE,
    Code::NOT_A_SUITE,
    Code::SELECTS_NOTHING,
    Code::UNKNOWN_EXPECTATION,
    Code::UNKNOWN_RULE_KEY,
    Code::UNKNOWN_SUITE_POLICY,
    Code::INVALID_SUITE_REQUEST,
];

impl Code {
    /// DPL9001 `invalid-suite`: A policy test suite is not valid YAML of the `PolicyTest` shape.
    pub const INVALID_SUITE: Code = Code::new(&CodeDef {
        id: "DPL9001",
        name: "invalid-suite",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A policy test suite (`*.dopoltest.yaml`) is not valid: `dopol test` stops before any case runs (exit 2).",
        explanation: "A suite read by `dopol test` has a YAML syntax error, an unknown key, a value of the wrong type, a case without `name`, with both or neither of `paths` and `request`, or an `expect` that asks for nothing. A key dopol does not know would be an expectation that is silently not checked, so the whole run stops (exit 2) with one error per problem.",
        fix: "Fix the suite at the position shown; `docs/test.md` has the format.",
        example: "apiVersion: dopol.dev/v1alpha1
kind: PolicyTest
cases:
- name: checkout is limited
  path: {route: shop/cart}",
    });

    /// DPL9002 `not-a-suite`: A file named as a suite is not a `PolicyTest`.
    pub const NOT_A_SUITE: Code = Code::new(&CodeDef {
        id: "DPL9002",
        name: "not-a-suite",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A file named explicitly as a suite is not a `PolicyTest` (`apiVersion: dopol.dev/v1alpha1`, `kind: PolicyTest`).",
        explanation: "`dopol test` was given a file (on the command line or in `.dopol.yaml`'s `tests`) whose `apiVersion` and `kind` are not those of a suite. Skipping it would turn a misnamed or mistyped suite into a green run that tested nothing, so it is an error (exit 2). Files found by walking a directory are only read when named `*.dopoltest.yaml`.",
        fix: "Start the file with `apiVersion: dopol.dev/v1alpha1` and `kind: PolicyTest`, or do not name it as a suite.",
        example: "apiVersion: v1
kind: ConfigMap",
    });

    /// DPL9003 `selects-nothing`: A selector of a suite matches no path.
    pub const SELECTS_NOTHING: Code = Code::new(&CodeDef {
        id: "DPL9003",
        name: "selects-nothing",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A case's `paths` or `except` selector matches no path of the input (no vacuous pass).",
        explanation: "A case selects paths by `gateway` and `route` (matched as `--gateway` and `--route` match), `listener` and `rule` (by name). A selector naming a Gateway, route, listener or rule the input does not have, or whose parts together match no path, would make the case pass while checking nothing; an `except` entry that excludes nothing is as likely a typo. It is an error (exit 2) naming the nearest name.",
        fix: "Correct the name to one the input has (the nearest is suggested), or remove the selector.",
        example: "paths: {route: shop/cartt}",
    });

    /// DPL9004 `unknown-expectation`: An `expect` key names no policy kind and no check.
    pub const UNKNOWN_EXPECTATION: Code = Code::new(&CodeDef {
        id: "DPL9004",
        name: "unknown-expectation",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A case's `expect` names a policy kind dopol does not know, or a family-neutral check that does not exist.",
        explanation: "The keys of `expect` are policy kinds (`AuthPolicy`, `TrafficPolicy`, `SecurityPolicy`, ... or `Kind.group`), the family-neutral checks `authentication`, `authorization` and `rate-limit`, and, in a request case, `route` and `rule`. Any other key would be an expectation nobody checks: an error (exit 2) naming the nearest key.",
        fix: "Use a kind the registry knows (the nearest is suggested) or one of the checks.",
        example: "expect:
  AuthPolicyy: {present: true}",
    });

    /// DPL9005 `unknown-rule-key`: An expected rule key is in no policy of its kind.
    pub const UNKNOWN_RULE_KEY: Code = Code::new(&CodeDef {
        id: "DPL9005",
        name: "unknown-rule-key",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A case expects a rule key that no policy of the kind in the input declares.",
        explanation: "An expectation on a rule key (`rules: {per-user: {absent: true}}`) of a key no policy of that kind has would hold whatever the input says: `absent` would pass forever, anything else fail for the wrong reason. It is an error (exit 2) naming the nearest key the kind's policies declare.",
        fix: "Write the key as `dopol effective` shows it (the nearest is suggested).",
        example: "RateLimitPolicy:
  rules:
    per-usr: {absent: true}",
    });

    /// DPL9006 `unknown-suite-policy`: A `source` or `origins` entry names no policy.
    pub const UNKNOWN_SUITE_POLICY: Code = Code::new(&CodeDef {
        id: "DPL9006",
        name: "unknown-suite-policy",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A case's `source` or `origins` names a policy the input does not have (or several).",
        explanation: "`source` and `origins` name policies as `--policy` does (`name`, `ns/name`, `Kind/ns/name` or a locator). A name that matches no policy of the expected kind, or several, cannot be compared with what `effective` shows: an error (exit 2) with the nearest name.",
        fix: "Name the policy as `ns/name` (the nearest is suggested).",
        example: "source: infra/platform-limitz",
    });

    /// DPL9007 `invalid-suite-request`: A request case's request or expected route is wrong.
    pub const INVALID_SUITE_REQUEST: Code = Code::new(&CodeDef {
        id: "DPL9007",
        name: "invalid-suite-request",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A request case's `request` is malformed (as `dopol request` would refuse it), or its expected `route` or `rule` is not in the input.",
        explanation: "A request case sends `request: {method, url, headers}` through the same engine as `dopol request` and compares where it lands with `expect: {route, rule}`. A request `dopol request` would refuse (a relative URL, a bad header), an unknown `gateway`, or an expected route or rule the input does not have is an error (exit 2), never a failing or passing case.",
        fix: "Fix the request, or name a route and rule the input has (the nearest is suggested).",
        example: "request: {method: GET, url: /admin}",
    });
}

/// Why a suite is wrong.
pub enum SuiteProblem<'a> {
    /// The file cannot be read.
    Unreadable {
        /// The file.
        file: &'a str,
        /// Why.
        why: String,
    },
    /// A value has the wrong shape.
    Expected {
        /// What the field should be.
        what: &'a str,
        /// Where (`cases[2].paths`).
        field: &'a str,
    },
    /// A key the format does not have.
    UnknownKey {
        /// The key.
        key: &'a str,
        /// Where.
        field: &'a str,
        /// The keys allowed.
        allowed: &'a [&'a str],
    },
    /// A required key is missing, or keys that exclude each other are both there.
    Shape {
        /// The code it is reported under.
        code: Code,
        /// In words.
        message: String,
    },
    /// Not a `PolicyTest`.
    NotASuite {
        /// The file.
        file: &'a str,
        /// What it is instead.
        found: String,
    },
    /// A name that matches nothing, with the names there are.
    NoMatch {
        /// The code it is reported under.
        code: Code,
        /// What was looked for (`route`, `rule key of RateLimitPolicy`).
        what: String,
        /// The name written.
        name: &'a str,
        /// The names it could have been.
        candidates: Vec<String>,
    },
}

impl Violation for SuiteProblem<'_> {
    fn code(&self) -> Code {
        match self {
            SuiteProblem::NotASuite { .. } => Code::NOT_A_SUITE,
            SuiteProblem::NoMatch { code, .. } | SuiteProblem::Shape { code, .. } => *code,
            _ => Code::INVALID_SUITE,
        }
    }

    fn message(&self) -> String {
        match self {
            SuiteProblem::Unreadable { file, why } => {
                format!("cannot read the suite `{file}`: {why}")
            }
            SuiteProblem::Expected { what, field } => format!("`{field}` must be {what}"),
            SuiteProblem::UnknownKey { key, field, .. } => {
                format!("unknown key `{key}` in `{field}`")
            }
            SuiteProblem::Shape { message, .. } => message.clone(),
            SuiteProblem::NotASuite { file, found } => {
                format!("`{file}` is not a PolicyTest suite ({found})")
            }
            SuiteProblem::NoMatch { what, name, .. } => {
                format!("{what} `{name}` matches nothing in the input")
            }
        }
    }

    fn help(&self) -> Option<String> {
        match self {
            SuiteProblem::UnknownKey { key, allowed, .. } => Some(
                crate::suggest::did_you_mean_help(key, allowed.iter().copied())
                    .unwrap_or_else(|| format!("the keys allowed here: {}", allowed.join(", "))),
            ),
            SuiteProblem::NotASuite { .. } => Some(format!(
                "a suite starts with `apiVersion: {}` and `kind: {}`",
                super::API_VERSION,
                super::KIND
            )),
            SuiteProblem::NoMatch {
                name, candidates, ..
            } => crate::suggest::did_you_mean_help(name, candidates.iter().map(String::as_str))
                .or_else(|| match candidates.len() {
                    0 => None,
                    n if n <= 8 => Some(format!("the input has: {}", candidates.join(", "))),
                    _ => None,
                }),
            _ => None,
        }
    }
}
