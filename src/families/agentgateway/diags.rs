//! agentgateway's codes (DPL8xxx, docs/lint.md): equal-specificity ties, conditional lists that
//! switch a parent's value off, `traffic.buffer`'s reversed precedence, locks with no effect,
//! policies that say Attached but take effect nowhere, the targets dopol does not model, and
//! the ListenerSet rungs' surprises (a Gateway-listener policy reaching set listeners, a
//! `backend` section on a ListenerSet that is never read).

use crate::diag::{Class, Code, CodeDef, Severity, Violation};
use crate::policy::Policy;

/// The codes declared here, in catalogue order.
pub const CODES: &[Code] = &[
    Code::AGW_EQUAL_SPECIFICITY_TIE,
    Code::AGW_CONDITIONAL_SHADOWS_PARENT,
    Code::AGW_GATEWAY_LISTENER_LEAKS_INTO_LISTENERSET,
    Code::AGW_BACKEND_LISTENERSET_IGNORED,
    Code::AGW_BUFFER_LEAST_SPECIFIC_WINS,
    Code::AGW_OVERRIDE_ON_RULE,
    Code::AGW_ATTACHED_BUT_INEFFECTIVE,
    Code::AGW_BACKEND_LEVEL_NOT_MODELLED,
    Code::AGW_LISTENERSET_NOT_MODELLED,
];

impl Code {
    /// DPL8001 `agw-equal-specificity-tie`: Two AgentgatewayPolicies set the same field at the same level; agentgateway applies one of them in an arbitrary order.
    pub const AGW_EQUAL_SPECIFICITY_TIE: Code = Code::new(&CodeDef {
        id: "DPL8001",
        name: "agw-equal-specificity-tie",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "Two AgentgatewayPolicies set the same field at the same level; agentgateway applies one of them in an arbitrary order.",
        explanation: "agentgateway keeps the policies of one target in a hash set (`policies_by_target`): when two of them set the same field of one section on the same Gateway, listener, route or rule, which one applies is arbitrary and can change when the proxy restarts. Both still report Attached. dopol shows the older one (then by namespace/name) and marks the other `tie`. A `strategy.inheritance: Override` value beats a default at the same level whatever the order.",
        fix: "Set the field in one policy only, or move one of them to a more specific target (a listener, route or rule).",
        example: "# two AgentgatewayPolicies targeting HTTPRoute shop/cart, both with traffic.timeouts",
    });

    /// DPL8002 `agw-conditional-shadows-parent`: A conditional list without a fallback replaces a less specific value: requests no condition matches get neither.
    pub const AGW_CONDITIONAL_SHADOWS_PARENT: Code = Code::new(&CodeDef {
        id: "DPL8002",
        name: "agw-conditional-shadows-parent",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A conditional list without a fallback replaces a less specific value: requests no condition matches get neither.",
        explanation: "agentgateway merges a `conditional` list (`extAuth`, `extProc`, `rateLimit`, `transformation`, `directResponse`) as one value: the most specific list replaces the less specific value whole, and the request picks an entry of the winning list only. A list whose every entry has a `condition` therefore switches the parent's value off for every request no condition matches (agentgateway's own docs say conditions are selected before merging; its code does not).",
        fix: "End the list with an entry without `condition` that repeats the parent's value, or set the conditional list on the parent instead.",
        example: "# Gateway: traffic.extAuth {...}\n# HTTPRoute: traffic.extAuth: {conditional: [{condition: 'request.path.startsWith(\"/admin\")', policy: {...}}]}",
    });

    /// DPL8003 `agw-gateway-listener-leaks-into-listenerset`: A policy on a Gateway listener also applies on the ListenerSet listeners of the same name, above their own policies.
    pub const AGW_GATEWAY_LISTENER_LEAKS_INTO_LISTENERSET: Code = Code::new(&CodeDef {
        id: "DPL8003",
        name: "agw-gateway-listener-leaks-into-listenerset",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "A policy on a Gateway listener also applies on the ListenerSet listeners of the same name, above their own policies.",
        explanation: "agentgateway's proxy looks a ListenerSet's listener `L` up also as the Gateway's listener `L`, so an AgentgatewayPolicy targeting the Gateway with `sectionName: L` reaches every ListenerSet listener named `L` on that Gateway and is more specific there than the set's own `S` and `S#L` policies (Envoy Gateway and kgateway keep the two apart). A `sectionName` that only a ListenerSet has is reported not found by the controller (`StatusSummary`), yet the policy is still sent to the Gateway and applies on those set listeners.",
        fix: "Target the ListenerSet listener (`kind: ListenerSet`, `sectionName: L`) instead, or give the Gateway's and the ListenerSet's listeners different names.",
        example: "# Gateway gw: listener http; ListenerSet ext of gw: listener http\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: http}]",
    });

    /// DPL8004 `agw-backend-listenerset-ignored`: The `backend` section of a policy targeting a ListenerSet is never read.
    pub const AGW_BACKEND_LISTENERSET_IGNORED: Code = Code::new(&CodeDef {
        id: "DPL8004",
        name: "agw-backend-listenerset-ignored",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "The `backend` section of a policy targeting a ListenerSet is never read.",
        explanation: "agentgateway accepts a ListenerSet (or one of its listeners) as the target of a policy with a `backend` section and reports it Attached, but the proxy reads backend policies from the Gateway, its listeners, routes and rules only: the values have no effect through the ListenerSet (derived from the proxy's `internal_backend_policies`). Its `traffic` section still applies there.",
        fix: "Target the Gateway, its listener, or the routes instead for the `backend` values.",
        example: "spec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: ListenerSet, name: ext}]\n  backend: {tcp: {keepalive: {}}}",
    });

    /// DPL8005 `agw-buffer-least-specific-wins`: Several levels set `traffic.buffer`; agentgateway keeps the least specific one.
    pub const AGW_BUFFER_LEAST_SPECIFIC_WINS: Code = Code::new(&CodeDef {
        id: "DPL8005",
        name: "agw-buffer-least-specific-wins",
        severity: Severity::Warning,
        class: Class::Finding,
        summary: "Several levels set `traffic.buffer`; agentgateway keeps the least specific one.",
        explanation: "Every other `traffic` field is taken from the most specific level that sets it, but the proxy fills `buffer` only when it is still unset while folding from the Gateway down (`set_if_unset`): a route's or rule's `buffer` is ignored wherever the Gateway or listener sets one.",
        fix: "Set `traffic.buffer` on one level only, or remove it from the Gateway/listener policy so that the more specific value applies.",
        example: "# Gateway: traffic.buffer {maxRequestSize: 1Mi}; HTTPRoute: traffic.buffer {maxRequestSize: 10Mi}: 1Mi applies",
    });

    /// DPL8006 `agw-override-on-rule`: `strategy.inheritance: Override` on a route-rule target locks nothing: no level is more specific.
    pub const AGW_OVERRIDE_ON_RULE: Code = Code::new(&CodeDef {
        id: "DPL8006",
        name: "agw-override-on-rule",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "`strategy.inheritance: Override` on a route-rule target locks nothing: no level is more specific.",
        explanation: "An Override value locks its field against more specific policies. A route rule is the most specific level of the traffic ladder, so the lock has no effect there (it still beats a default of another policy on the same rule).",
        fix: "Drop `strategy.inheritance`, or target the route or Gateway if the lock was meant for what is below it.",
        example: "spec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: cart, sectionName: checkout}]\n  strategy: {inheritance: Override}",
    });

    /// DPL8007 `agw-attached-but-ineffective`: An AgentgatewayPolicy says Attached, but none of its fields takes effect on any path dopol evaluated.
    pub const AGW_ATTACHED_BUT_INEFFECTIVE: Code = Code::new(&CodeDef {
        id: "DPL8007",
        name: "agw-attached-but-ineffective",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "An AgentgatewayPolicy says Attached, but none of its fields takes effect on any path dopol evaluated.",
        explanation: "agentgateway's status has no Overridden or Merged condition: a policy whose every field is replaced by a more specific one, locked by an Override, or lost in a tie still reports Attached True. dopol names the cause and the winner of each field (`dopol overridden --policy ...`).",
        fix: "Remove the policy, or move its fields to where they take effect.",
        example: "# a Gateway policy with traffic.timeouts under a route policy that also sets traffic.timeouts on every route",
    });

    /// DPL8008 `agw-backend-level-not-modelled`: An AgentgatewayPolicy targets a Service, InferencePool or AgentgatewayBackend; dopol does not evaluate backend levels.
    pub const AGW_BACKEND_LEVEL_NOT_MODELLED: Code = Code::new(&CodeDef {
        id: "DPL8008",
        name: "agw-backend-level-not-modelled",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "An AgentgatewayPolicy targets a Service, InferencePool or AgentgatewayBackend; dopol does not evaluate backend levels.",
        explanation: "agentgateway applies policies on backends too (a Service and port, an InferencePool, an AgentgatewayBackend and its sub-backends). dopol's paths end at the route rule, so these targets are not evaluated: the policy's effect there is not shown, and it is not counted as targeting nothing.",
        fix: "Nothing to fix; check the backend-level effect on a cluster.",
        example: "spec:\n  targetRefs: [{group: '', kind: Service, name: backend}]\n  backend: {tcp: {keepalive: {}}}",
    });

    /// DPL8009 `agw-listenerset-not-modelled`: Retired: dopol evaluates AgentgatewayPolicy ListenerSet targets (see DPL8003, DPL8004); never reported.
    pub const AGW_LISTENERSET_NOT_MODELLED: Code = Code::new(&CodeDef {
        id: "DPL8009",
        name: "agw-listenerset-not-modelled",
        severity: Severity::Info,
        class: Class::Finding,
        summary: "Retired: dopol evaluates AgentgatewayPolicy ListenerSet targets (see DPL8003, DPL8004); never reported.",
        explanation: "agentgateway accepts ListenerSets and their listeners as targets of `traffic` and `backend` policies. dopol reported such a target as not evaluated until ListenerSets became a level of its hierarchy; they are now evaluated (docs/families.md, agentgateway, ListenerSets), and this code is kept only so that suppressions naming it stay valid.",
        fix: "Nothing to fix.",
        example: "spec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: ListenerSet, name: team-a}]\n  traffic: {timeouts: {request: 15s}}",
    });
}

/// Policies that set one field at one level, with the one dopol shows (`agw-equal-specificity-tie`).
pub struct EqualSpecificityTie<'a> {
    /// The rule key.
    pub key: &'a str,
    /// Where both are attached (`HTTPRoute shop/cart`).
    pub level: &'a str,
    /// dopol's pick.
    pub winner: &'a Policy,
    /// The others.
    pub losers: Vec<&'a Policy>,
}

impl Violation for EqualSpecificityTie<'_> {
    fn code(&self) -> Code {
        Code::AGW_EQUAL_SPECIFICITY_TIE
    }
    fn message(&self) -> String {
        let losers: Vec<String> = self.losers.iter().map(|p| p.display()).collect();
        format!(
            "`{}` is set by {} and {} on {}: agentgateway may apply either (dopol shows {})",
            self.key,
            self.winner.display(),
            losers.join(", "),
            self.level,
            self.winner.display()
        )
    }
    fn help(&self) -> Option<String> {
        Some(
            "set the field in one policy only, or target a more specific level with one of them"
                .into(),
        )
    }
}

/// A conditional list without fallback that hides a less specific value.
pub struct ConditionalShadowsParent<'a> {
    /// The rule key.
    pub key: &'a str,
    /// The policy with the conditional list.
    pub winner: &'a Policy,
    /// The less specific policy whose value it hides.
    pub parent: &'a Policy,
    /// On how many paths.
    pub paths: usize,
}

impl Violation for ConditionalShadowsParent<'_> {
    fn code(&self) -> Code {
        Code::AGW_CONDITIONAL_SHADOWS_PARENT
    }
    fn message(&self) -> String {
        format!(
            "the conditional `{}` of {} has no fallback entry and replaces the value of {} on {}: requests no condition matches get neither",
            self.key,
            self.winner.display(),
            self.parent.display(),
            crate::words::counted(self.paths, "path")
        )
    }
    fn help(&self) -> Option<String> {
        Some("end the list with an entry without `condition` repeating the parent's value".into())
    }
}

/// `traffic.buffer` set on several levels: the least specific wins.
pub struct BufferLeastSpecificWins<'a> {
    /// The less specific policy, whose value applies.
    pub winner: &'a Policy,
    /// The more specific one, ignored.
    pub ignored: &'a Policy,
    /// On how many paths.
    pub paths: usize,
}

impl Violation for BufferLeastSpecificWins<'_> {
    fn code(&self) -> Code {
        Code::AGW_BUFFER_LEAST_SPECIFIC_WINS
    }
    fn message(&self) -> String {
        format!(
            "`traffic.buffer` of {} is ignored on {}: agentgateway keeps the less specific value of {}",
            self.ignored.display(),
            crate::words::counted(self.paths, "path"),
            self.winner.display()
        )
    }
    fn help(&self) -> Option<String> {
        Some("set `traffic.buffer` on one level only".into())
    }
}

/// An Override lock on a route rule.
pub struct OverrideOnRule<'a> {
    /// The policy.
    pub policy: &'a Policy,
}

impl Violation for OverrideOnRule<'_> {
    fn code(&self) -> Code {
        Code::AGW_OVERRIDE_ON_RULE
    }
    fn message(&self) -> String {
        format!(
            "{} sets `strategy.inheritance: Override` on a route rule: nothing is more specific, the lock has no effect",
            self.policy.display()
        )
    }
}

/// A policy that reports Attached but whose every field lost.
pub struct AttachedButIneffective<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The policies that won over it, with the outcome (`superseded by ...`).
    pub causes: Vec<String>,
}

impl Violation for AttachedButIneffective<'_> {
    fn code(&self) -> Code {
        Code::AGW_ATTACHED_BUT_INEFFECTIVE
    }
    fn message(&self) -> String {
        format!(
            "{} reports Attached, but none of its fields takes effect on any path: {}",
            self.policy.display(),
            self.causes.join("; ")
        )
    }
    fn help(&self) -> Option<String> {
        Some(format!(
            "`dopol overridden --policy {}` lists each field and its winner",
            self.policy.namespaced_name()
        ))
    }
}

/// A target at a level dopol does not evaluate.
pub struct NotModelledTarget<'a> {
    /// Its kind.
    pub kind: &'a str,
}

impl Violation for NotModelledTarget<'_> {
    fn code(&self) -> Code {
        Code::AGW_BACKEND_LEVEL_NOT_MODELLED
    }
    fn message(&self) -> String {
        format!(
            "a target of kind {} is a backend level, which dopol does not evaluate",
            self.kind
        )
    }
}

/// A Gateway-listener target whose policy also applies on ListenerSet listeners of that name
/// (`agw-gateway-listener-leaks-into-listenerset`).
pub struct GatewayListenerLeaks<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The Gateway listener (`infra/gw#http`).
    pub listener: String,
    /// Whether the Gateway itself has that listener (else the controller reports it not found).
    pub own: bool,
    /// The set listeners it reaches (`team-a/ext#http`).
    pub reached: Vec<String>,
}

impl Violation for GatewayListenerLeaks<'_> {
    fn code(&self) -> Code {
        Code::AGW_GATEWAY_LISTENER_LEAKS_INTO_LISTENERSET
    }
    fn message(&self) -> String {
        let reached = self.reached.join(", ");
        let policy = self.policy.display();
        match self.own {
            true => format!(
                "{policy} targets listener {}, and agentgateway also applies it on the ListenerSet listeners of that name ({reached}), above their own policies",
                self.listener
            ),
            false => format!(
                "{policy} targets {}, which only ListenerSets have: the controller reports the target not found, yet applies the policy on {reached}, above their own policies",
                self.listener
            ),
        }
    }
    fn help(&self) -> Option<String> {
        Some("target the ListenerSet listener (`kind: ListenerSet`, `sectionName`) instead, or give the listeners different names".into())
    }
}

/// A `backend` section on a ListenerSet target (`agw-backend-listenerset-ignored`).
pub struct BackendListenerSetIgnored<'a> {
    /// The policy.
    pub policy: &'a Policy,
    /// The target as written (`ListenerSet ext#http`).
    pub target: String,
}

impl Violation for BackendListenerSetIgnored<'_> {
    fn code(&self) -> Code {
        Code::AGW_BACKEND_LISTENERSET_IGNORED
    }
    fn message(&self) -> String {
        format!(
            "{} targets {}: agentgateway accepts it, but never reads its `backend` section there (its `traffic` section applies)",
            self.policy.display(),
            self.target
        )
    }
}

/// A fold failure, which agentgateway folds never record (no constraint is evaluated); the
/// evaluator's answer is kept total for the trait.
pub struct FoldFailed<'a> {
    /// The path's identifier.
    pub path: &'a str,
    /// The failure's reason.
    pub reason: &'a str,
}

impl Violation for FoldFailed<'_> {
    fn code(&self) -> Code {
        Code::AGW_ATTACHED_BUT_INEFFECTIVE
    }
    fn message(&self) -> String {
        format!("path {}: {}", self.path, self.reason)
    }
}
