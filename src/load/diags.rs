//! The codes of loading (DPL10xx): inputs that cannot be read, documents that are not
//! Kubernetes objects, objects of the wrong shape, duplicates, names the API server refuses and
//! fields no schema knows. Loading rejects such objects before the model sees them.

use super::names::NameRule;
use crate::diag::{Class, Code, CodeDef, Severity, Violation};
use crate::words;
use std::fmt::{self, Display};

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[
    Code::UNREADABLE_INPUT,
    Code::INVALID_ENCODING,
    Code::NOT_AN_OBJECT,
    Code::INVALID_OBJECT,
    Code::DUPLICATE_OBJECT,
    Code::EMPTY_INPUT,
    Code::UNKNOWN_FIELD,
    Code::INVALID_NAME,
    Code::TEMPLATE_SKIPPED,
    Code::FIXTURE_KEY_IGNORED,
];

impl Code {
    /// DPL1002 `unreadable-input`: An input path could not be read (missing file, permissions, no match for a glob).
    pub const UNREADABLE_INPUT: Code = Code::new(&CodeDef {
        id: "DPL1002",
        name: "unreadable-input",
        severity: Severity::Error,
        class: Class::Input,
        summary: "An input path could not be read (missing file, permissions, no match for a glob).",
        explanation: "A path given with -f does not exist, cannot be read, is a directory with no manifest files, or a glob pattern matches nothing. Nothing from it is evaluated.",
        fix: "Check the path or pattern (quote globs so the shell does not expand them).",
        example: "dopol lint -f manifests/does-not-exist.yaml",
    });

    /// DPL1003 `invalid-encoding`: The file is not valid UTF-8.
    pub const INVALID_ENCODING: Code = Code::new(&CodeDef {
        id: "DPL1003",
        name: "invalid-encoding",
        severity: Severity::Error,
        class: Class::Input,
        summary: "The file is not valid UTF-8.",
        explanation: "The file is not UTF-8 (for instance Latin-1 or UTF-16). Kubernetes manifests must be UTF-8; the documents that contain invalid bytes are left out.",
        fix: "Re-save the file as UTF-8.",
        example: "",
    });

    /// DPL1004 `not-a-kubernetes-object`: A document has no apiVersion/kind and was skipped.
    pub const NOT_AN_OBJECT: Code = Code::new(&CodeDef {
        id: "DPL1004",
        name: "not-a-kubernetes-object",
        severity: Severity::Warning,
        class: Class::Input,
        summary: "A document has no apiVersion/kind and was skipped.",
        explanation: "A document has no apiVersion and kind, so it is not a Kubernetes object (a stray values file, a comment block that became a mapping). It is skipped.",
        fix: "Remove the document, move it out of the manifest directory, or add apiVersion and kind.",
        example: "just: some\nyaml: data",
    });

    /// DPL1005 `invalid-object`: A known object has the wrong shape (wrong type, missing or invalid field) and was left out.
    pub const INVALID_OBJECT: Code = Code::new(&CodeDef {
        id: "DPL1005",
        name: "invalid-object",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A known object has the wrong shape (wrong type, missing or invalid field) and was left out.",
        explanation: "A Gateway API object or policy has a field of the wrong type, a missing required field, or a value the CRD rejects (an unknown strategy, a rate window that is not a Gateway API duration, a label that YAML reads as a boolean). The API server would reject the object, so dopol leaves it out.",
        fix: "Fix the field shown. Quote values that YAML 1.1 would read as booleans or numbers (`yes`, `on`, `0777`).",
        example: "spec:\n  defaults:\n    strategy: sometimes",
    });

    /// DPL1006 `duplicate-object`: The same object (group, kind, namespace, name) is defined twice; the first definition is used.
    pub const DUPLICATE_OBJECT: Code = Code::new(&CodeDef {
        id: "DPL1006",
        name: "duplicate-object",
        severity: Severity::Error,
        class: Class::Input,
        summary: "The same object (group, kind, namespace, name) is defined twice; the first definition is used.",
        explanation: "Two documents define the same object (same group, kind, namespace and name). Applying both would make the second silently replace the first. dopol keeps the first and reports both places.",
        fix: "Delete one of the definitions, or rename one of the objects.",
        example: "",
    });

    /// DPL1008 `empty-input`: The inputs contain no Kubernetes objects.
    pub const EMPTY_INPUT: Code = Code::new(&CodeDef {
        id: "DPL1008",
        name: "empty-input",
        severity: Severity::Error,
        class: Class::Input,
        summary: "The inputs contain no Kubernetes objects.",
        explanation: "The inputs contain no Kubernetes objects at all, so there is nothing to evaluate. This is usually a wrong path.",
        fix: "Point -f at the manifests (a file, a directory, a quoted glob, or - for stdin).",
        example: "",
    });

    /// DPL1009 `unknown-field`: A field is not part of the object's CRD schema (a typo, or wrong indentation): strict field validation rejects the object, so it was left out.
    pub const UNKNOWN_FIELD: Code = Code::new(&CodeDef {
        id: "DPL1009",
        name: "unknown-field",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A field is not part of the object's CRD schema (a typo, or wrong indentation): strict field validation rejects the object, so it was left out.",
        explanation: "A field is not part of the object's CRD schema. It is most often a typo (`limit:` for `limits:`) or wrong indentation. `kubectl apply` validates fields strictly (the default since kubectl 1.27), so the API server rejects the object, and dopol leaves it out. Subtrees marked `x-kubernetes-preserve-unknown-fields` accept any field. For a kind no CRD is known for (a family declared with `--families` without its CRD in `--crds`), dopol only knows the fields it reads, so this is a warning and the object is still evaluated.",
        fix: "Fix the name or the indentation; the help suggests the closest known field.",
        example: "spec:\n  limit:\n    a: {rates: [{limit: 1, window: 1s}]}",
    });

    /// DPL1013 `invalid-name`: A name, namespace, hostname or section name breaks the rule the API server applies (RFC 1123, Gateway API patterns); the object was left out.
    pub const INVALID_NAME: Code = Code::new(&CodeDef {
        id: "DPL1013",
        name: "invalid-name",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A name, namespace, hostname or section name breaks the rule the API server applies (RFC 1123, Gateway API patterns); the object was left out.",
        explanation: "A name breaks the rule the API server checks before anything else: `metadata.name` must be a lowercase RFC 1123 subdomain (at most 253 characters; a Namespace's name an RFC 1123 label), `metadata.namespace` an RFC 1123 label (at most 63), and the Gateway API types have their own patterns — `Hostname` for listener `hostname` and route `hostnames` (an optional `*.` then a subdomain), `SectionName` for listener and rule names and every `sectionName`, `Namespace` for a parentRef's `namespace`. `kubectl apply` would be refused, so dopol leaves the object out. The commonest cause is an unfilled template placeholder such as `${KUADRANT_GATEWAY_NAME}` or `{{ .Values.host }}`: the help says so when the value looks like one.",
        fix: "Use a valid name; for a template, render it first (`envsubst < manifest.yaml | dopol lint -f -`, `helm template ... | dopol lint -f -`).",
        example: "metadata:\n  name: ${KUADRANT_GATEWAY_NAME}\nspec:\n  listeners:\n  - {name: api, hostname: maas.${CLUSTER_DOMAIN}, port: 80, protocol: HTTP}",
    });

    /// DPL1021 `template-skipped`: A Go/Helm template file (`{{ ... }}` actions) was not read: a note when a directory walk or glob found it, a warning when it was named.
    pub const TEMPLATE_SKIPPED: Code = Code::new(&CodeDef {
        id: "DPL1021",
        name: "template-skipped",
        severity: Severity::Info,
        class: Class::Input,
        summary: "A Go/Helm template file (`{{ ... }}` actions) was not read: a note when a directory walk or glob found it, a warning when it was named.",
        explanation: "A file holds Go template actions (`{{ .Values.x }}`, `{{- if ... }}`, `{{ include ... }}`): it is a Helm chart template or similar, not a manifest, until it is rendered. Reading it would fail with YAML errors or yield objects with template names, so it is left out. Found by a directory walk or a glob it is a note (shown with `-v`); named on the command line it is a warning. The rest of the input is evaluated.",
        fix: "Render the chart and pipe it in (`helm template ./chart | dopol lint -f -`), or leave the templates out of the walk with a `.dopolignore` line (`charts/*/templates/`) or `--exclude`, so the note goes away.",
        example: "# charts/app/templates/route.yaml\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: {{ .Values.name }}",
    });

    /// DPL1022 `fixture-key-ignored`: A key of an Envoy Gateway translator fixture holds no Kubernetes object (a golden's `xdsIR` or `infraIR`) and was not read.
    pub const FIXTURE_KEY_IGNORED: Code = Code::new(&CodeDef {
        id: "DPL1022",
        name: "fixture-key-ignored",
        severity: Severity::Info,
        class: Class::Input,
        summary: "A key of an Envoy Gateway translator fixture holds no Kubernetes object (a golden's `xdsIR` or `infraIR`) and was not read.",
        explanation: "Envoy Gateway's translator fixtures (`internal/gatewayapi/testdata/*.in.yaml` and their `*.out.yaml` goldens) are one mapping whose keys (`gateways`, `httpRoutes`, `backendTrafficPolicies`, ...) each hold a list of Kubernetes objects. dopol reads such a document as the objects it holds, each at its own place in the file (`-v` says how many documents were read this way). A key holding something else, such as the goldens' intermediate representations `xdsIR` and `infraIR`, is not read: this note names it.",
        fix: "Nothing to fix when the key is a golden's output. If the key was meant to hold objects, give each item `apiVersion` and `kind`.",
        example: "gateways:\n- apiVersion: gateway.networking.k8s.io/v1\n  kind: Gateway\n  metadata: {name: gw, namespace: default}\n  spec: {gatewayClassName: eg, listeners: [{name: http, port: 80, protocol: HTTP}]}\nxdsIR:\n  default/gw: {}",
    });
}

/// Why an input could not be read (`unreadable-input`): the path, the glob or stdin, and what
/// went wrong with it.
pub enum UnreadableInput<'a> {
    /// Reading standard input failed.
    Stdin(&'a dyn Display),
    /// A named path is a device or socket, not a file.
    NotAFile { arg: &'a str, what: &'a str },
    /// A named path does not exist.
    Missing { name: &'a str },
    /// A named path cannot be looked at.
    Inaccessible {
        name: &'a str,
        error: &'a dyn Display,
    },
    /// A directory holds no manifest file; `ignored` entries were left out by ignore files.
    EmptyDirectory { name: &'a str, ignored: usize },
    /// A listed file could not be read.
    ReadFailed {
        name: &'a str,
        error: &'a dyn Display,
    },
    /// A walked or matched entry is not a regular file and was skipped.
    Skipped { name: &'a str, why: Skip<'a> },
    /// A walk went deeper than `depth` directories.
    TooDeep { name: &'a str, depth: usize },
    /// A directory could not be listed.
    CannotList {
        name: &'a str,
        error: &'a dyn Display,
    },
    /// A glob pattern does not parse.
    BadGlob {
        pattern: &'a str,
        error: &'a dyn Display,
    },
    /// A glob pattern matched nothing (apart from `excluded` paths).
    NoMatch { pattern: &'a str, excluded: usize },
}

/// Why a walked entry was skipped.
pub enum Skip<'a> {
    /// A named pipe.
    Pipe,
    /// A device, socket or other special file, as `what` says.
    Other(&'a str),
    /// It cannot be looked at.
    Unstat(&'a dyn Display),
    /// A dangling symlink, or an entry that vanished while the walk ran.
    Gone,
}

impl Display for Skip<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::Pipe => f.write_str("is a named pipe, not a file"),
            Skip::Other(what) => write!(f, "is {what}, not a file"),
            Skip::Unstat(error) => write!(f, "cannot be read: {error}"),
            Skip::Gone => f.write_str("is a dangling symlink, or vanished during the walk"),
        }
    }
}

impl Violation for UnreadableInput<'_> {
    fn code(&self) -> Code {
        Code::UNREADABLE_INPUT
    }

    fn message(&self) -> String {
        match self {
            UnreadableInput::Stdin(error) => format!("cannot read stdin: {error}"),
            UnreadableInput::NotAFile { arg, what } => {
                format!("`{arg}` is {what}, not a file; not read")
            }
            UnreadableInput::Missing { name } => format!("`{name}` does not exist"),
            UnreadableInput::Inaccessible { name, error } => {
                format!("cannot access `{name}`: {error}")
            }
            UnreadableInput::EmptyDirectory { name, ignored } => {
                let apart = match ignored {
                    0 => String::new(),
                    n => format!(
                        ", apart from {} left out by ignore files or excludes",
                        words::counted_as(*n, "entry", "entries")
                    ),
                };
                format!("directory `{name}` holds no .yaml, .yml or .json file{apart}")
            }
            UnreadableInput::ReadFailed { name, error } => format!("cannot read `{name}`: {error}"),
            UnreadableInput::Skipped { name, why } => format!("`{name}` {why}; skipped"),
            UnreadableInput::TooDeep { name, depth } => format!(
                "`{name}` is nested more than {depth} directories deep (a symlink loop?); not read"
            ),
            UnreadableInput::CannotList { name, error } => format!("cannot list `{name}`: {error}"),
            UnreadableInput::BadGlob { pattern, error } => {
                format!("invalid glob pattern `{pattern}`: {error}")
            }
            UnreadableInput::NoMatch { pattern, excluded } => {
                let apart = match excluded {
                    0 => String::new(),
                    n => format!(" (apart from {} excluded)", words::counted(*n, "path")),
                };
                format!("`{pattern}` matches no file{apart}")
            }
        }
    }

    fn help(&self) -> Option<String> {
        match self {
            UnreadableInput::EmptyDirectory { ignored: 1.., .. } => Some(
                "see .gitignore, .dopolignore and --exclude (and `exclude` in .dopol.yaml)".into(),
            ),
            _ => None,
        }
    }
}

/// A file that is not UTF-8 (`invalid-encoding`).
pub enum InvalidEncoding<'a> {
    /// The whole file could not be decoded (UTF-16 without a byte order mark, say).
    Unreadable {
        name: &'a str,
        reason: &'a dyn Display,
    },
    /// `count` invalid byte sequences; the documents holding them are left out.
    Sequences { count: usize },
}

impl Violation for InvalidEncoding<'_> {
    fn code(&self) -> Code {
        Code::INVALID_ENCODING
    }

    fn message(&self) -> String {
        match self {
            InvalidEncoding::Unreadable { name, reason } => {
                format!("cannot read `{name}`: {reason}")
            }
            InvalidEncoding::Sequences { count } => format!(
                "the file is not valid UTF-8 ({}); documents containing them are left out",
                words::counted(*count, "invalid byte sequence")
            ),
        }
    }

    fn help(&self) -> Option<String> {
        match self {
            InvalidEncoding::Sequences { .. } => Some("save the file as UTF-8".into()),
            InvalidEncoding::Unreadable { .. } => None,
        }
    }
}

/// A document that is not a Kubernetes object, or a list nested too deep (`not-a-kubernetes-object`).
pub enum NotAnObject {
    /// A mapping without `apiVersion` and `kind`.
    Untyped,
    /// Not a mapping at all.
    NotAMapping,
    /// `List`s nested more than `limit` deep.
    NestedTooDeep { limit: usize },
}

impl Violation for NotAnObject {
    fn code(&self) -> Code {
        Code::NOT_AN_OBJECT
    }

    fn message(&self) -> String {
        let what = match self {
            NotAnObject::Untyped => "a mapping without `apiVersion` and `kind`",
            NotAnObject::NotAMapping => "not a mapping",
            NotAnObject::NestedTooDeep { limit } => {
                return crate::diag::over_limit(
                    format_args!("lists nested more than {limit} deep are not read"),
                    "list-nesting",
                );
            }
        };
        format!("skipped a document that is not a Kubernetes object ({what})")
    }
}

/// An object of the wrong shape (`invalid-object`): the shape check's own words for what is
/// wrong (each decoder knows its fields; the code and the rejection are common).
pub struct InvalidObject {
    /// What is wrong, as one sentence.
    pub problem: String,
}

impl Violation for InvalidObject {
    fn code(&self) -> Code {
        Code::INVALID_OBJECT
    }

    fn message(&self) -> String {
        self.problem.clone()
    }
}

/// The same object defined twice (`duplicate-object`).
pub struct DuplicateObject<'a> {
    /// The object's identity, as `Kind ns/name`.
    pub identity: &'a dyn Display,
}

impl Violation for DuplicateObject<'_> {
    fn code(&self) -> Code {
        Code::DUPLICATE_OBJECT
    }

    fn message(&self) -> String {
        format!(
            "{} is defined more than once; the first definition is used",
            self.identity
        )
    }
}

/// Inputs without a single Kubernetes object (`empty-input`).
pub struct EmptyInput {
    /// Whether what was read were Go/Helm templates (all skipped).
    pub templates: bool,
}

impl Violation for EmptyInput {
    fn code(&self) -> Code {
        Code::EMPTY_INPUT
    }

    fn message(&self) -> String {
        "the input contains no Kubernetes objects".into()
    }

    fn help(&self) -> Option<String> {
        Some(if self.templates {
            "the files read are Go/Helm templates, skipped: render them first (`helm template ./chart | dopol lint -f -`)".into()
        } else {
            "pass manifests as paths (`dopol lint manifests/`), with -f FILE|DIR|GLOB, or -f - for stdin".into()
        })
    }
}

/// A key dopol's own field list does not know, for an object no CRD validated (`unknown-field`).
pub struct UnknownField<'a> {
    /// The key.
    pub key: &'a str,
    /// Where, as a kubectl field path.
    pub path: &'a dyn Display,
    /// The fields known there.
    pub known: &'a [&'a str],
}

impl Violation for UnknownField<'_> {
    fn code(&self) -> Code {
        Code::UNKNOWN_FIELD
    }

    fn message(&self) -> String {
        format!("unknown field `{}` in `{}`", self.key, self.path)
    }

    fn help(&self) -> Option<String> {
        match crate::suggest::did_you_mean_help(self.key, self.known.iter().copied()) {
            Some(help) => Some(help),
            None if !self.known.is_empty() => {
                Some(format!("known fields: {}", self.known.join(", ")))
            }
            None => None,
        }
    }
}

/// A name that breaks the rule the API server applies (`invalid-name`).
pub struct InvalidName<'a> {
    /// The field, as a kubectl field path.
    pub path: &'a dyn Display,
    /// The value written.
    pub value: &'a str,
    /// The rule it breaks.
    pub rule: NameRule,
    /// How it breaks it.
    pub why: &'a str,
}

impl InvalidName<'_> {
    /// The label under the value.
    pub fn label(&self) -> String {
        format!("invalid {}", self.rule.noun())
    }
}

impl Violation for InvalidName<'_> {
    fn code(&self) -> Code {
        Code::INVALID_NAME
    }

    fn message(&self) -> String {
        format!(
            "`{}` `{}` is not a valid {}: {}",
            self.path,
            self.value,
            self.rule.noun(),
            self.why
        )
    }

    fn help(&self) -> Option<String> {
        super::names::template_help(self.value)
    }
}

/// A Go/Helm template file left out (`template-skipped`).
pub struct TemplateSkipped<'a> {
    /// The file.
    pub name: &'a str,
    /// Its first action, cut to 60 characters.
    pub action: &'a str,
}

impl Violation for TemplateSkipped<'_> {
    fn code(&self) -> Code {
        Code::TEMPLATE_SKIPPED
    }

    fn message(&self) -> String {
        format!(
            "`{}` is a Go/Helm template (`{}`); skipped",
            self.name, self.action
        )
    }

    fn help(&self) -> Option<String> {
        Some("render it first (`helm template ... | dopol lint -f -`), or leave it out with .dopolignore or --exclude".into())
    }
}

/// A key of a translator fixture that holds no object (`fixture-key-ignored`).
pub struct FixtureKeyIgnored<'a> {
    /// The key.
    pub key: &'a str,
}

impl Violation for FixtureKeyIgnored<'_> {
    fn code(&self) -> Code {
        Code::FIXTURE_KEY_IGNORED
    }

    fn message(&self) -> String {
        format!(
            "`{}` of an Envoy Gateway translator fixture holds no Kubernetes object; not read",
            self.key
        )
    }
}
