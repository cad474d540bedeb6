//! Kuadrant's codes: the CRD's block rules (exclusive, non-empty) and the RFC 0009 extensions
//! dopol evaluates beyond the operator (constraints, `unset`) — and the finding types that word
//! them. `CODES` also lists the codes its lint checks declare beside them (`outcomes`,
//! `granularity`, `listener_sets`).

use super::decoder::{Clash, RuleShape};
use crate::diag::{Class, Code, CodeDef, Severity, Violation};
use crate::expr::ExprError;
use crate::load::fields::FieldPath;
use crate::policy::{Block, BlockKind, Policy, UnsetEntry};

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[
    Code::EXCLUSIVE_BLOCKS,
    Code::EMPTY_BLOCK,
    Code::UNSET_OF_OVERRIDE,
    Code::UNSET_UNMATCHED,
    Code::RFC_EXTENSION,
    Code::CONSTRAINT_INVALID,
    Code::CONSTRAINT_EVALUATION,
    Code::BARE_FIELD_IGNORED,
    Code::DEPRECATED_API_VERSION,
    // The lint checks' (`outcomes`, `granularity`).
    Code::DEFAULT_SUPERSEDED_EVERYWHERE,
    Code::GRANULARITY_TRAP,
    Code::FAMILY_IGNORES_LISTENERSET,
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

impl Code {
    /// DPL4015 `bare-field-ignored`: A bare rule field beside `defaults` or `overrides` that the CRD accepts and the operator ignores.
    pub const BARE_FIELD_IGNORED: Code = Code::new(&CodeDef {
        id: "DPL4015",
        name: "bare-field-ignored",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A top-level `when` of a RateLimitPolicy or TokenRateLimitPolicy sits beside `defaults` or `overrides`: the API server accepts it and the operator ignores it.",
        explanation: "The rate limit CRDs reject bare `limits` beside `defaults` or `overrides`, but not a bare `when`: their rule is `!(has(self.defaults) && has(self.limits))`. The operator then reads only the explicit block (`Spec.Proper()`), so the top-level predicates never apply: requests that should have been excluded are limited. dopol evaluates the policy as the operator does, without them (AuthPolicy's CRD rejects a bare `when` beside a block: `exclusive-blocks`).",
        fix: "Move the `when` into the block (`defaults.when`), where it applies to the block's limits.",
        example: "spec:
  when:
  - predicate: request.method == 'GET'
  defaults:
    limits:
      a: {rates: [{limit: 5, window: 1m}]}",
    });
}

/// A bare rule field beside an explicit block, accepted by the CRD and ignored by the operator
/// (`bare-field-ignored`).
pub struct BareFieldIgnored<'a> {
    /// The bare field (`when`).
    pub field: &'a str,
    /// The explicit block (`defaults`, `overrides`).
    pub block: &'a str,
}

impl BareFieldIgnored<'_> {
    /// The label of the bare field.
    pub fn label(&self) -> String {
        format!("`{}` ignored", self.field)
    }

    /// The label of the block.
    pub fn block_label(&self) -> String {
        format!("only `{}` is read", self.block)
    }
}

impl Violation for BareFieldIgnored<'_> {
    fn code(&self) -> Code {
        Code::BARE_FIELD_IGNORED
    }
    fn message(&self) -> String {
        format!(
            "the top-level `{}` beside `{}` is ignored: the CRD accepts it, but the operator reads only `spec.{}`, so its predicates never apply",
            self.field, self.block, self.block
        )
    }
    fn help(&self) -> Option<String> {
        Some(format!(
            "move it into the block (`spec.{}.{}`) to make its predicates apply to the block's limits",
            self.block, self.field
        ))
    }
}

/// Two blocks the CRD forbids together (`exclusive-blocks`).
pub struct ExclusiveBlocks<'a> {
    /// The kind's rule shape, which words the CRD's message.
    pub shape: &'a dyn RuleShape,
    /// Which two blocks.
    pub clash: Clash,
    /// The key of the block written first (`defaults`, `overrides`).
    pub first: &'a str,
    /// The key of the block that clashes with it (a bare rule's key, for bare rules).
    pub second: &'a str,
}

impl ExclusiveBlocks<'_> {
    /// The label of the second block.
    pub fn second_label(&self) -> String {
        format!("`{}` here", self.second)
    }

    /// The label of the first block.
    pub fn first_label(&self) -> String {
        format!("conflicts with `{}`", self.first)
    }
}

impl Violation for ExclusiveBlocks<'_> {
    fn code(&self) -> Code {
        Code::EXCLUSIVE_BLOCKS
    }
    fn message(&self) -> String {
        self.shape.clash_message(self.clash).to_string()
    }
    fn help(&self) -> Option<String> {
        Some("use exactly one of `defaults`, `overrides` or bare rules; dopol evaluates the blocks in the order defaults, bare, overrides".into())
    }
}

/// A spec without a block, or a block without a rule the CRD counts (`empty-block`).
pub enum EmptyBlock<'a> {
    /// A kind without bare rules, and neither of its blocks written.
    NoBlock {
        /// The blocks it has (`spec.defaults`, `spec.overrides`).
        blocks: Vec<&'a str>,
    },
    /// A block holding none of the rules the CRD counts.
    NoRule {
        /// The block's path.
        path: &'a FieldPath<'a>,
        /// The fields whose rules count (none: any rule).
        counted: &'a [String],
    },
}

impl EmptyBlock<'_> {
    /// The label of the spec or block.
    pub fn label(&self) -> String {
        match self {
            EmptyBlock::NoRule {
                counted: [field], ..
            } => format!("no `{field}` here"),
            EmptyBlock::NoRule { .. } => "no rule here".to_string(),
            EmptyBlock::NoBlock { .. } => "no block here".to_string(),
        }
    }
}

impl Violation for EmptyBlock<'_> {
    fn code(&self) -> Code {
        Code::EMPTY_BLOCK
    }
    fn message(&self) -> String {
        match self {
            EmptyBlock::NoBlock { blocks } => {
                format!("One of {} must be defined", blocks.join(", "))
            }
            EmptyBlock::NoRule { path, counted: [] } => {
                format!("At least one rule must be defined in {path}")
            }
            EmptyBlock::NoRule {
                path,
                counted: [field],
            } => format!("At least one {path}.{field} must be defined"),
            EmptyBlock::NoRule { path, counted } => {
                let fields: Vec<String> = counted.iter().map(|f| format!("{path}.{f}")).collect();
                format!("At least one of {} must be defined", fields.join(", "))
            }
        }
    }
}

/// A policy relying on RFC 0009 extensions the operator does not enforce (`rfc-extension`):
/// constraints (`when` as CEL) and deactivation (`unset`).
pub struct RfcExtension<'a> {
    /// The policy.
    pub policy: &'a Policy,
}

impl RfcExtension<'_> {
    /// The label of a block's constraint.
    pub fn constraint_label(&self, block: &Block) -> String {
        format!("constraint of the `{}` block", block.kind.as_str())
    }
}

impl Violation for RfcExtension<'_> {
    fn code(&self) -> Code {
        Code::RFC_EXTENSION
    }
    fn message(&self) -> String {
        let policy = self.policy;
        let constraints = policy.blocks.iter().any(|b| b.constraint.is_some());
        let features: Vec<&str> = [
            constraints.then_some("constraints (`when` as CEL)"),
            (!policy.unset.is_empty()).then_some("deactivation (`unset`)"),
        ]
        .into_iter()
        .flatten()
        .collect();
        format!(
            "{} uses RFC 0009 {}, not enforced by the Kuadrant operator; dopol evaluates them as the RFC describes",
            policy.display(),
            features.join(" and ")
        )
    }
}

/// An `unset` entry naming a rule a higher policy sets as an override (`unset-of-override`).
pub struct UnsetOfOverride<'a> {
    /// The policy with the entry.
    pub policy: &'a Policy,
    /// The entry.
    pub entry: &'a UnsetEntry,
    /// The policy whose override it names.
    pub overriding: &'a Policy,
}

impl Violation for UnsetOfOverride<'_> {
    fn code(&self) -> Code {
        Code::UNSET_OF_OVERRIDE
    }
    fn message(&self) -> String {
        format!(
            "`unset: {}` of {} names a rule that {} sets as an override; overrides cannot be deactivated, so this entry has no effect there",
            self.entry.text,
            self.policy.display(),
            self.overriding.display()
        )
    }
}

/// An `unset` entry naming no rule of any higher default on any path (`unset-unmatched`).
pub struct UnsetUnmatched<'a> {
    /// The policy with the entry.
    pub policy: &'a Policy,
    /// The entry.
    pub entry: &'a UnsetEntry,
}

impl Violation for UnsetUnmatched<'_> {
    fn code(&self) -> Code {
        Code::UNSET_UNMATCHED
    }
    fn message(&self) -> String {
        format!(
            "`unset: {}` of {} names no rule (`{}`) of any higher default on any of its paths",
            self.entry.text,
            self.policy.display(),
            self.entry.key
        )
    }
}

/// A block's constraint that does not compile (`constraint-invalid`).
pub struct ConstraintInvalid<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The block carrying the constraint.
    pub block: BlockKind,
    /// The compile error.
    pub error: &'a ExprError,
}

impl Violation for ConstraintInvalid<'_> {
    fn code(&self) -> Code {
        Code::CONSTRAINT_INVALID
    }
    fn message(&self) -> String {
        format!(
            "invalid constraint in `{}` of {}: {}",
            self.block.as_str(),
            self.policy.display(),
            self.error.message
        )
    }
}

/// A block not applied on a path because its constraint could not be evaluated there
/// (`constraint-evaluation`).
pub struct ConstraintEvaluation<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The block carrying the constraint.
    pub block: BlockKind,
    /// The path's id.
    pub path_id: &'a str,
    /// Why the evaluation failed.
    pub reason: &'a str,
}

impl Violation for ConstraintEvaluation<'_> {
    fn code(&self) -> Code {
        Code::CONSTRAINT_EVALUATION
    }
    fn message(&self) -> String {
        format!(
            "the `{}` block of {} was not applied on path {}: {}",
            self.block.as_str(),
            self.policy.display(),
            self.path_id,
            self.reason
        )
    }
}

impl Code {
    /// DPL1007 `deprecated-api-version`: The object uses an apiVersion current releases no longer serve; it is evaluated as the current version.
    pub const DEPRECATED_API_VERSION: Code = Code::new(&CodeDef {
        id: "DPL1007",
        name: "deprecated-api-version",
        severity: Severity::Error,
        class: Class::Finding,
        summary: "The object uses an apiVersion current releases no longer serve; it is evaluated as the current version.",
        explanation: "The object uses an API version current releases no longer serve: the Kuadrant CRDs from 1.0 on serve AuthPolicy and RateLimitPolicy only as kuadrant.io/v1, so the API server rejects kuadrant.io/v1beta3 objects. dopol still evaluates the object as v1 (the shape is the same), so that the migration can be checked before it is applied, and reports an error so that CI does not pass manifests the cluster refuses.",
        fix: "Change apiVersion to the current version (kuadrant.io/v1).",
        example: "apiVersion: kuadrant.io/v1beta3\nkind: RateLimitPolicy",
    });
}

/// An object in an API version current releases no longer serve, evaluated as the current one
/// (`deprecated-api-version`).
pub struct DeprecatedApiVersion<'a> {
    /// The object, as `Kind ns/name`.
    pub object: &'a str,
    /// Its `apiVersion`.
    pub api_version: &'a str,
    /// The kind's group.
    pub group: &'a str,
    /// The version it is evaluated as (the current one).
    pub current: &'a str,
}

impl Violation for DeprecatedApiVersion<'_> {
    fn code(&self) -> Code {
        Code::DEPRECATED_API_VERSION
    }

    fn message(&self) -> String {
        format!(
            "{} uses `{}`, which is not served by Kuadrant >= 1.0 (the API server rejects it); migrate to {}/{}",
            self.object, self.api_version, self.group, self.current
        )
    }

    fn help(&self) -> Option<String> {
        let current = self.current;
        Some(format!(
            "change `apiVersion` to {}/{current}; dopol evaluates this object as {current} meanwhile, so the result shows what the migrated object does",
            self.group
        ))
    }
}
