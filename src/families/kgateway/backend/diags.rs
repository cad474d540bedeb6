//! BackendConfigPolicy's codes (DPL5022–DPL5023, docs/lint.md): fields that lose to an older
//! policy while the status says Attached, and `targetSelectors`, which dopol does not evaluate
//! for backends.

use crate::diag::{Class, Code, CodeDef, Severity, Violation};
use crate::policy::Policy;

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[Code::BCP_FIELD_SHADOWED, Code::BCP_SELECTOR_NOT_MODELLED];

impl Code {
    /// DPL5022 `bcp-field-shadowed`: A BackendConfigPolicy field loses to another policy on the same backend, while its status says Attached.
    pub const BCP_FIELD_SHADOWED: Code = Code::new(&CodeDef {
        id: "DPL5022",
        name: "bcp-field-shadowed",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "A BackendConfigPolicy field loses to another policy on the same backend, while its status says Attached.",
        explanation: "kgateway merges the BackendConfigPolicies of one backend field by field, the policy with the higher `kgateway.dev/policy-weight`, then the older one, keeping each field it sets (AugmentedShallow): a newer policy only fills the fields the older ones leave unset. Its status still says Attached True/`Attached to all targets`, whatever it lost.",
        fix: "Set each field in one policy per backend, or raise the weight of the policy that should win.",
        example: "# bcp-older (2020-01-01): connectTimeout: 5s\n# bcp-newer (2020-06-01): connectTimeout: 99s   <- loses",
    });

    /// DPL5023 `bcp-selector-not-modelled`: dopol does not evaluate a BackendConfigPolicy's `targetSelectors`.
    pub const BCP_SELECTOR_NOT_MODELLED: Code = Code::new(&CodeDef {
        id: "DPL5023",
        name: "bcp-selector-not-modelled",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "dopol does not evaluate a BackendConfigPolicy's `targetSelectors`.",
        explanation: "A BackendConfigPolicy's `targetSelectors` select Services (or Backends) by their labels. dopol does not read Services, so the backends these selectors reach get no value from the policy in dopol's reports; its `targetRefs` are evaluated.",
        fix: "Name the backends with `targetRefs` to have dopol evaluate them.",
        example: "spec:\n  targetSelectors: [{group: \"\", kind: Service, matchLabels: {app: web}}]",
    });
}

/// Fields of a policy that lost, on a backend, to another policy.
pub struct FieldShadowed<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// `` `field` on <subject> lost to <winner> `` per loss.
    pub losses: Vec<String>,
}

impl Violation for FieldShadowed<'_> {
    fn code(&self) -> Code {
        Code::BCP_FIELD_SHADOWED
    }
    fn message(&self) -> String {
        format!(
            "{} reports Attached, but {}",
            self.policy.display(),
            self.losses.join("; ")
        )
    }
}

/// `targetSelectors` on a BackendConfigPolicy.
pub struct SelectorNotModelled<'a> {
    /// The policy.
    pub policy: &'a Policy,
}

impl Violation for SelectorNotModelled<'_> {
    fn code(&self) -> Code {
        Code::BCP_SELECTOR_NOT_MODELLED
    }
    fn message(&self) -> String {
        format!(
            "{}: targetSelectors are not evaluated (dopol does not read Services' labels); its targetRefs are",
            self.policy.display()
        )
    }
}
