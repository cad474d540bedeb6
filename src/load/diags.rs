//! The codes of loading (DPL10xx): inputs that cannot be read, documents that are not
//! Kubernetes objects, objects of the wrong shape, duplicates, names the API server refuses and
//! fields no schema knows. Loading rejects such objects before the model sees them.

use crate::diag::{Class, Code, CodeDef, Severity};

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
}
