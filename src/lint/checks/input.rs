//! Input checks (DPL1xxx): YAML syntax, encoding, object shape, duplicates, API versions, the
//! CRD's cross-field rules. The logic lives where the input is read (`load`, `model`,
//! `policy::kuadrant`); this module documents the codes.

use crate::diag::Code;
use crate::lint::doc::CheckDoc;

/// Documentation of the input codes.
pub const DOCS: &[CheckDoc] = &[
    CheckDoc {
        code: Code::YamlSyntax,
        explanation: "The document cannot be parsed as YAML (or JSON): an unclosed bracket or quote, bad indentation, a tab, a duplicate mapping key, an alias to an unknown anchor. kubectl would refuse the file. dopol leaves the broken document out and evaluates the others.",
        fix: "Correct the syntax at the position shown. Duplicate keys must be merged into one.",
        example: "spec:\n  limits:\n    a:\n      rates: [{limit: 1, window: 1m}",
    },
    CheckDoc {
        code: Code::UnreadableInput,
        explanation: "A path given with -f does not exist, cannot be read, is a directory with no manifest files, or a glob pattern matches nothing. Nothing from it is evaluated.",
        fix: "Check the path or pattern (quote globs so the shell does not expand them).",
        example: "dopol lint -f manifests/does-not-exist.yaml",
    },
    CheckDoc {
        code: Code::InvalidEncoding,
        explanation: "The file is not UTF-8 (for instance Latin-1 or UTF-16). Kubernetes manifests must be UTF-8; the documents that contain invalid bytes are left out.",
        fix: "Re-save the file as UTF-8.",
        example: "",
    },
    CheckDoc {
        code: Code::NotAnObject,
        explanation: "A document has no apiVersion and kind, so it is not a Kubernetes object (a stray values file, a comment block that became a mapping). It is skipped.",
        fix: "Remove the document, move it out of the manifest directory, or add apiVersion and kind.",
        example: "just: some\nyaml: data",
    },
    CheckDoc {
        code: Code::InvalidObject,
        explanation: "A Gateway API object or policy has a field of the wrong type, a missing required field, or a value the CRD rejects (an unknown strategy, a rate window that is not a Gateway API duration, a label that YAML reads as a boolean). The API server would reject the object, so dopol leaves it out.",
        fix: "Fix the field shown. Quote values that YAML 1.1 would read as booleans or numbers (`yes`, `on`, `0777`).",
        example: "spec:\n  defaults:\n    strategy: sometimes",
    },
    CheckDoc {
        code: Code::DuplicateObject,
        explanation: "Two documents define the same object (same group, kind, namespace and name). Applying both would make the second silently replace the first. dopol keeps the first and reports both places.",
        fix: "Delete one of the definitions, or rename one of the objects.",
        example: "",
    },
    CheckDoc {
        code: Code::DeprecatedApiVersion,
        explanation: "The object uses an API version current releases no longer serve: the Kuadrant CRDs from 1.0 on serve AuthPolicy and RateLimitPolicy only as kuadrant.io/v1, so the API server rejects kuadrant.io/v1beta3 objects. dopol still evaluates the object as v1 (the shape is the same), so that the migration can be checked before it is applied, and reports an error so that CI does not pass manifests the cluster refuses.",
        fix: "Change apiVersion to the current version (kuadrant.io/v1).",
        example: "apiVersion: kuadrant.io/v1beta3\nkind: RateLimitPolicy",
    },
    CheckDoc {
        code: Code::EmptyInput,
        explanation: "The inputs contain no Kubernetes objects at all, so there is nothing to evaluate. This is usually a wrong path.",
        fix: "Point -f at the manifests (a file, a directory, a quoted glob, or - for stdin).",
        example: "",
    },
    CheckDoc {
        code: Code::UnknownField,
        explanation: "A field is not part of the object's CRD schema. It is most often a typo (`limit:` for `limits:`) or wrong indentation. `kubectl apply` validates fields strictly (the default since kubectl 1.27), so the API server rejects the object, and dopol leaves it out. Subtrees marked `x-kubernetes-preserve-unknown-fields` accept any field. For a kind no CRD is known for (a family declared with `--families` without its CRD in `--crds`), dopol only knows the fields it reads, so this is a warning and the object is still evaluated.",
        fix: "Fix the name or the indentation; the help suggests the closest known field.",
        example: "spec:\n  limit:\n    a: {rates: [{limit: 1, window: 1s}]}",
    },
    CheckDoc {
        code: Code::ExclusiveBlocks,
        explanation: "A policy has `defaults` together with `overrides`, or either of them beside bare rules. The Kuadrant CRD rejects this. dopol still evaluates such a policy, processing its blocks in the RFC 0009 order (defaults, bare, overrides), so you can see what was meant.",
        fix: "Keep exactly one of `defaults`, `overrides` or bare rules; split the policy in two if both are needed.",
        example: "spec:\n  defaults:\n    rules: {authentication: {a: {anonymous: {}}}}\n  overrides:\n    rules: {authorization: {b: {opa: {rego: allow = true}}}}",
    },
    CheckDoc {
        code: Code::EmptyBlock,
        explanation: "The active block holds no rule the CRD counts (`limits` for rate limit policies; `rules.*` for AuthPolicy — `patterns` and `when` alone do not count). The API server rejects such a policy.",
        fix: "Add a rule, or delete the policy.",
        example: "spec:\n  defaults:\n    strategy: merge",
    },
    CheckDoc {
        code: Code::UnsupportedApiVersion,
        explanation: "A kind dopol reads appears with an API version it does not know (for instance an old v1beta2 AuthPolicy with a different shape). The object is skipped rather than misread.",
        fix: "Migrate the object to a supported version, or ignore this if the version is intentionally unsupported.",
        example: "apiVersion: kuadrant.io/v1beta2\nkind: AuthPolicy",
    },
    CheckDoc {
        code: Code::InvalidName,
        explanation: "A name breaks the rule the API server checks before anything else: `metadata.name` must be a lowercase RFC 1123 subdomain (at most 253 characters; a Namespace's name an RFC 1123 label), `metadata.namespace` an RFC 1123 label (at most 63), and the Gateway API types have their own patterns — `Hostname` for listener `hostname` and route `hostnames` (an optional `*.` then a subdomain), `SectionName` for listener and rule names and every `sectionName`, `Namespace` for a parentRef's `namespace`. `kubectl apply` would be refused, so dopol leaves the object out. The commonest cause is an unfilled template placeholder such as `${KUADRANT_GATEWAY_NAME}` or `{{ .Values.host }}`: the help says so when the value looks like one.",
        fix: "Use a valid name; for a template, render it first (`envsubst < manifest.yaml | dopol lint -f -`, `helm template ... | dopol lint -f -`).",
        example: "metadata:\n  name: ${KUADRANT_GATEWAY_NAME}\nspec:\n  listeners:\n  - {name: api, hostname: maas.${CLUSTER_DOMAIN}, port: 80, protocol: HTTP}",
    },
    CheckDoc {
        code: Code::SchemaViolation,
        explanation: "A value breaks the structural schema of the object's CRD, as the API server checks it: a wrong type, a missing required field, a value outside an `enum`, a string that does not match its `pattern` or `format`, a number out of bounds, a string or list too long or too short, a duplicate in a `set` or `map` list. The message is the API server's own (`spec.rules[0].matches: Too many: 65: must have at most 64 items`) and the help names the schema node that decided. Defaults are applied first, as the API server does. The object is left out.",
        fix: "Change the value as the message says; the schema path in the help shows the rule in the CRD.",
        example: "spec:\n  limits:\n    a:\n      rates: [{limit: -1, window: 1m}]",
    },
    CheckDoc {
        code: Code::ValidationRule,
        explanation: "An `x-kubernetes-validations` rule of the CRD (a CEL expression such as `!(has(self.defaults) && has(self.limits))`) is false for the object, or fails to evaluate. The message is the rule's own `message` (or `messageExpression`), reported at the field the rule sits on (or its `fieldPath`). As on the API server, these rules only run when the structural checks found no missing field, unsupported value, wrong type or over-long value; otherwise one error says they were not checked. The object is left out.",
        fix: "Change the object so the rule holds; the help names the schema node the rule sits on.",
        example: "spec:\n  targetRef: {group: gateway.networking.k8s.io, kind: Service, name: x}",
    },
    CheckDoc {
        code: Code::RuleNotEvaluated,
        explanation: "A CRD validation rule dopol cannot evaluate (a CEL function it does not implement, an expression beyond its limits). It is listed once per kind and rule, and objects are not checked against it, so the API server may still reject an object dopol accepts.",
        fix: "Nothing to fix in the manifests; check the object against a cluster (`kubectl apply --dry-run=server`) if the rule matters.",
        example: "",
    },
    CheckDoc {
        code: Code::VersionNotServed,
        explanation: "The object's apiVersion is listed in its CRD with `served: false`: the API server refuses objects of that version. The object is left out.",
        fix: "Change apiVersion to a served version (the message lists them).",
        example: "",
    },
    CheckDoc {
        code: Code::InvalidCrd,
        explanation: "A file given with `--crds` cannot be used: it cannot be read, a document in it is not a CustomResourceDefinition (with spec.group, spec.names.kind and spec.versions), or a version's schema does not compile. dopol stops before reading manifests (exit 2), since validating against a broken CRD would give wrong answers.",
        fix: "Point `--crds` at CRD files, or at the output of `kubectl get crd -o yaml`.",
        example: "dopol lint --crds not-a-crd.yaml -f manifests/",
    },
    CheckDoc {
        code: Code::InvalidConfig,
        explanation: "The config file (`.dopol.yaml` found upward from the working directory, or `--config FILE`) cannot be used: it cannot be read, is not valid YAML, has a key dopol does not know (a typo would otherwise be silently ignored), or a value of the wrong type or outside its choices (`fail-on: warn`, an unknown code under `ignore`, a bad `exclude` pattern). The run stops before any manifest is read (exit 2), with one error per problem at its line and column.",
        fix: "Fix the config file at the position shown (`docs/config.md` has the format), or run with `--no-config` to ignore it.",
        example: "inputs: [manifests/]\nlint:\n  fail-on: warn",
    },
    CheckDoc {
        code: Code::TemplateSkipped,
        explanation: "A file holds Go template actions (`{{ .Values.x }}`, `{{- if ... }}`, `{{ include ... }}`): it is a Helm chart template or similar, not a manifest, until it is rendered. Reading it would fail with YAML errors or yield objects with template names, so it is left out. Found by a directory walk or a glob it is a note (shown with `-v`); named on the command line it is a warning. The rest of the input is evaluated.",
        fix: "Render the chart and pipe it in (`helm template ./chart | dopol lint -f -`), or leave the templates out of the walk with a `.dopolignore` line (`charts/*/templates/`) or `--exclude`, so the note goes away.",
        example: "# charts/app/templates/route.yaml\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: {{ .Values.name }}",
    },
];
