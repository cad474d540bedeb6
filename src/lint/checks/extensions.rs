//! RFC 0009 extension and CEL checks (DPL4006–DPL4011). The logic lives in
//! `engine::extensions`, `engine::constraint` and `policy::expressions`.

use crate::diag::Code;
use crate::lint::doc::CheckDoc;

/// Documentation of the extension and CEL codes.
pub const DOCS: &[CheckDoc] = &[
    CheckDoc {
        code: Code::UnsetOfOverride,
        explanation: "An `unset` entry names a rule that a less specific policy sets as an override. RFC 0009 deactivation applies to defaults only; overrides cannot be deactivated, so the entry has no effect there.",
        fix: "Remove the entry, or ask the owner of the override to make it a default.",
        example: "unset: [rules.authentication.a]   # a higher policy has overrides.rules.authentication.a",
    },
    CheckDoc {
        code: Code::UnsetUnmatched,
        explanation: "An `unset` entry names no rule of any less specific default on any path of the policy: a typo, or a default that was renamed or removed.",
        fix: "Fix the entry (spec path `rules.authentication.a`, `limits.a`, or rule key `authentication#a`) or remove it.",
        example: "unset: [rules.authentication.jtw]",
    },
    CheckDoc {
        code: Code::RfcExtension,
        explanation: "The policy uses an RFC 0009 feature — constraints (`when` as a CEL string on a block) or deactivation (`unset`) — that the Kuadrant operator does not implement yet. dopol evaluates it as the RFC describes; a cluster would not.",
        fix: "Nothing, if you are designing ahead; otherwise express the intent with plain defaults and overrides.",
        example: "overrides:\n  strategy: merge\n  when: spec.limits.a.rates.exists(r, r.limit > 50)",
    },
    CheckDoc {
        code: Code::ConstraintInvalid,
        explanation: "A block's `when` constraint is not valid CEL, references something other than `spec` and `self`, or exceeds dopol's limits (size, nesting, comprehension depth). The block never applies.",
        fix: "Fix the expression at the position shown; constraints see the lower effective policy as `spec` (or `self.spec`).",
        example: "when: |\n  spec.limits.a.rates.exists(r,\n    r.limit > 50 &&)",
    },
    CheckDoc {
        code: Code::ConstraintEvaluation,
        explanation: "A constraint failed on a path (a key missing from the lower effective policy, a type mismatch) or returned something other than a boolean. The block was not applied on that path.",
        fix: "Guard optional keys with has(), e.g. `has(spec.limits.a) && spec.limits.a.rates.exists(r, r.limit > 50)`.",
        example: "when: spec.limits.zz.rates.size() > 0",
    },
    CheckDoc {
        code: Code::PredicateInvalid,
        explanation: "A Kuadrant request-time predicate (`when[].predicate`) or counter `expression` is not valid CEL. dopol never evaluates these (they need a request), but a syntax error would only surface in the gateway.",
        fix: "Fix the expression at the position shown.",
        example: "when:\n- predicate: \"request.method == 'GET' &&\"",
    },
];
