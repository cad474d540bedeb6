//! Kuadrant's codes: the CRD's block rules (exclusive, non-empty) and the RFC 0009 extensions
//! dopol evaluates beyond the operator (constraints, `unset`).

use crate::diag::{Class, Code, CodeDef, Severity};

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[
    Code::EXCLUSIVE_BLOCKS,
    Code::EMPTY_BLOCK,
    Code::UNSET_OF_OVERRIDE,
    Code::UNSET_UNMATCHED,
    Code::RFC_EXTENSION,
    Code::CONSTRAINT_INVALID,
    Code::CONSTRAINT_EVALUATION,
];

impl Code {
    /// DPL1010 `exclusive-blocks`: A policy mixes `defaults`, `overrides` and bare rules, which the CRD forbids.
    pub const EXCLUSIVE_BLOCKS: Code = Code::new(&CodeDef {
        id: "DPL1010",
        name: "exclusive-blocks",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A policy mixes `defaults`, `overrides` and bare rules, which the CRD forbids.",
        explanation: "A policy has `defaults` together with `overrides`, or either of them beside bare rules. The Kuadrant CRD rejects this. dopol still evaluates such a policy, processing its blocks in the RFC 0009 order (defaults, bare, overrides), so you can see what was meant.",
        fix: "Keep exactly one of `defaults`, `overrides` or bare rules; split the policy in two if both are needed.",
        example: "spec:\n  defaults:\n    rules: {authentication: {a: {anonymous: {}}}}\n  overrides:\n    rules: {authorization: {b: {opa: {rego: allow = true}}}}",
    });

    /// DPL1011 `empty-block`: The active defaults/overrides block (or the bare spec) holds no rule.
    pub const EMPTY_BLOCK: Code = Code::new(&CodeDef {
        id: "DPL1011",
        name: "empty-block",
        severity: Severity::Error,
        class: Class::Input,
        summary: "The active defaults/overrides block (or the bare spec) holds no rule.",
        explanation: "The active block holds no rule the CRD counts (`limits` for rate limit policies; `rules.*` for AuthPolicy — `patterns` and `when` alone do not count). The API server rejects such a policy.",
        fix: "Add a rule, or delete the policy.",
        example: "spec:\n  defaults:\n    strategy: merge",
    });

    /// DPL4006 `unset-of-override`: An `unset` entry names a rule that only an override provides; overrides cannot be deactivated.
    pub const UNSET_OF_OVERRIDE: Code = Code::new(&CodeDef {
        id: "DPL4006",
        name: "unset-of-override",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "An `unset` entry names a rule that only an override provides; overrides cannot be deactivated.",
        explanation: "An `unset` entry names a rule that a less specific policy sets as an override. RFC 0009 deactivation applies to defaults only; overrides cannot be deactivated, so the entry has no effect there.",
        fix: "Remove the entry, or ask the owner of the override to make it a default.",
        example: "unset: [rules.authentication.a]   # a higher policy has overrides.rules.authentication.a",
    });

    /// DPL4007 `unset-unmatched`: An `unset` entry names no rule of any higher default on any path.
    pub const UNSET_UNMATCHED: Code = Code::new(&CodeDef {
        id: "DPL4007",
        name: "unset-unmatched",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "An `unset` entry names no rule of any higher default on any path.",
        explanation: "An `unset` entry names no rule of any less specific default on any path of the policy: a typo, or a default that was renamed or removed.",
        fix: "Fix the entry (spec path `rules.authentication.a`, `limits.a`, or rule key `authentication#a`) or remove it.",
        example: "unset: [rules.authentication.jtw]",
    });

    /// DPL4008 `rfc-extension`: The policy uses an RFC 0009 feature the Kuadrant operator does not enforce (constraints, unset).
    pub const RFC_EXTENSION: Code = Code::new(&CodeDef {
        id: "DPL4008",
        name: "rfc-extension",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "The policy uses an RFC 0009 feature the Kuadrant operator does not enforce (constraints, unset).",
        explanation: "The policy uses an RFC 0009 feature — constraints (`when` as a CEL string on a block) or deactivation (`unset`) — that the Kuadrant operator does not implement yet. dopol evaluates it as the RFC describes; a cluster would not.",
        fix: "Nothing, if you are designing ahead; otherwise express the intent with plain defaults and overrides.",
        example: "overrides:\n  strategy: merge\n  when: spec.limits.a.rates.exists(r, r.limit > 50)",
    });

    /// DPL4009 `constraint-invalid`: A block's `when` constraint is not a valid CEL expression.
    pub const CONSTRAINT_INVALID: Code = Code::new(&CodeDef {
        id: "DPL4009",
        name: "constraint-invalid",
        severity: Severity::Error,
        class: Class::Input,
        summary: "A block's `when` constraint is not a valid CEL expression.",
        explanation: "A block's `when` constraint is not valid CEL, references something other than `spec` and `self`, or exceeds dopol's limits (size, nesting, comprehension depth). The block never applies.",
        fix: "Fix the expression at the position shown; constraints see the lower effective policy as `spec` (or `self.spec`).",
        example: "when: |\n  spec.limits.a.rates.exists(r,\n    r.limit > 50 &&)",
    });

    /// DPL4010 `constraint-evaluation`: A block's `when` constraint failed to evaluate or did not return a boolean, so the block was not applied.
    pub const CONSTRAINT_EVALUATION: Code = Code::new(&CodeDef {
        id: "DPL4010",
        name: "constraint-evaluation",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A block's `when` constraint failed to evaluate or did not return a boolean, so the block was not applied.",
        explanation: "A constraint failed on a path (a key missing from the lower effective policy, a type mismatch) or returned something other than a boolean. The block was not applied on that path.",
        fix: "Guard optional keys with has(), e.g. `has(spec.limits.a) && spec.limits.a.rates.exists(r, r.limit > 50)`.",
        example: "when: spec.limits.zz.rates.size() > 0",
    });
}
