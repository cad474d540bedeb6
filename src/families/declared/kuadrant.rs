//! Declared kinds of the `kuadrant` model (docs/families.md §4.3): docs/semantics.md#3-policy-kinds-and-rule-keys with the declared blocks.
//!
//! Decoding is the built-in Kuadrant decoder ([`crate::families::kuadrant::decoder`]) with the
//! declared layout as its [`RuleShape`]: bare rules, `defaults`/`overrides` with the declared
//! strategies (the first is the default), a block's string `when` as its constraint,
//! `unset`/`remove`, and the CRD-like checks (exclusive blocks, an empty block) as the same
//! errors the built-in kinds get. The fold, status and checks are the Kuadrant evaluator's,
//! over this kind's policies.

use super::layout::Layout;
use crate::diag::Diagnostic;
use crate::families::kuadrant::{
    BlockRules, Clash, Kuadrant, KuadrantEvaluator, RuleShape, decoder,
};
use crate::load::Object;
use crate::load::fields::{FieldPath, Fields};
use crate::model::Model;
use crate::policy::FamilyEvaluation;
use crate::policy::FamilyHierarchy;
use crate::policy::decode::TargetFields;
use crate::policy::{
    Evaluator, FamilyKinds, Policy, PolicyConditions, PolicyFamily, PolicyKind, Rule, request,
};
use crate::source::Span;
use crate::topology::Topology;
use crate::yaml::Node;

/// Where a declared kind's rules live and which blocks it has.
#[derive(Debug)]
pub struct DeclaredShape {
    /// The rule layout.
    pub layout: Layout,
    /// The target fields.
    pub targets: TargetFields,
    /// The blocks.
    pub blocks: BlockRules,
}

impl DeclaredShape {
    /// Whether a rule is declared at `spec.when` (predicates as a rule).
    fn declares_when(&self) -> bool {
        match &self.layout {
            Layout::TopLevel { exclude } => !exclude.iter().any(|e| e == "when"),
            Layout::Rules(_) => self.layout.is_rule_field("when"),
        }
    }
}

impl RuleShape for DeclaredShape {
    fn targets(&self) -> &TargetFields {
        &self.targets
    }

    fn blocks(&self) -> &BlockRules {
        &self.blocks
    }

    fn is_rule_field(&self, field: &str) -> bool {
        field != "strategy" && self.layout.is_rule_field(field)
    }

    fn known_fields(&self) -> Option<Vec<&str>> {
        let mut fields = self.layout.first_fields()?;
        if !fields.contains(&"when") {
            fields.push("when");
        }
        Some(fields)
    }

    fn cut(
        &self,
        fields: &mut Fields<'_>,
        block: &Node,
        path: &FieldPath<'_>,
        when_is_constraint: bool,
        rules: &mut Vec<Rule>,
    ) -> Option<()> {
        let when = block.get("when").filter(|n| !n.is_null());
        if let Some(when) = when.filter(|_| !when_is_constraint && !self.declares_when()) {
            fields.invalid(
                when.span,
                format!(
                    "`{path}.when` must be a CEL string, the constraint of a `defaults` or `overrides` block (the kind declares no rule at `spec.when`), found {}",
                    when.type_name()
                ),
                "expected a constraint",
            );
            return None;
        }
        let skip = |field: &str| field == "strategy" || (field == "when" && when_is_constraint);
        self.layout.cut(fields, block, path, &skip, rules)
    }

    fn counted_rules(&self, block: &Node) -> Result<(), Vec<String>> {
        self.layout.counted(block)
    }

    fn unset_key(&self, text: &str) -> Option<String> {
        self.layout.unset_key(text)
    }

    fn unset_forms(&self) -> String {
        self.layout.unset_forms()
    }

    fn clash_message(&self, clash: Clash) -> &'static str {
        match clash {
            Clash::DefaultsOverrides => "Overrides and explicit defaults are mutually exclusive",
            Clash::DefaultsBare => "Implicit and explicit defaults are mutually exclusive",
            Clash::OverridesBare => "Overrides and implicit defaults are mutually exclusive",
        }
    }

    fn spec_shape(&self, rules: &[(&str, &Node)]) -> serde_json::Value {
        self.layout.spec_shape(rules)
    }
}

/// A declared kind of the `kuadrant` model: a family of its own.
pub struct DeclaredKuadrant {
    /// Its one kind.
    pub kinds: &'static [PolicyKind],
    /// Its layout and blocks.
    pub shape: DeclaredShape,
    /// Whether it has the group and kind of a built-in Kuadrant kind: it then keeps that
    /// kind's request-time semantics (`when` predicates and counters, by kind).
    pub builtin: bool,
}

impl FamilyKinds for DeclaredKuadrant {
    fn name(&self) -> &'static str {
        "kuadrant"
    }

    fn kinds(&self) -> &'static [PolicyKind] {
        self.kinds
    }

    fn crd_view(&self, object: &crate::yaml::Node) -> Option<crate::yaml::Node> {
        crate::families::kuadrant::extensions_removed(object)
    }

    fn decode(
        &self,
        kind: &'static PolicyKind,
        object: &Object,
        fields: &mut Fields,
    ) -> Option<Policy> {
        decoder::decode_policy(kind, &self.shape, object, fields)
    }

    fn request_expressions<'p>(&self, policy: &'p Policy) -> Vec<(&'p str, Span)> {
        if self.builtin {
            Kuadrant.request_expressions(policy)
        } else {
            Vec::new()
        }
    }
}

/// As its model: Kuadrant knows no ListenerSet (docs/families.md, Kuadrant), so a kind of the
/// kuadrant model applies on no path through a ListenerSet's listener either.
impl FamilyHierarchy for DeclaredKuadrant {
    fn follows_listener_sets(&self) -> bool {
        false
    }
}

impl FamilyEvaluation for DeclaredKuadrant {
    fn evaluator<'m>(
        &self,
        model: &'m Model,
        _topology: &'m Topology,
    ) -> (Box<dyn Evaluator<'m> + 'm>, Vec<Diagnostic>) {
        let (evaluator, diagnostics) = KuadrantEvaluator::new(model, self.kinds);
        (Box::new(evaluator), diagnostics)
    }
}

impl PolicyFamily for DeclaredKuadrant {
    /// A re-declared Kuadrant kind keeps the operator's controllers; the user's own do not say.
    fn controllers(&self, kind: &PolicyKind) -> &'static [&'static str] {
        match self.builtin {
            true => Kuadrant.controllers(kind),
            false => &[],
        }
    }

    /// The Kuadrant fold writes Kuadrant's conditions.
    fn status_admits_loss(&self, conditions: &PolicyConditions) -> bool {
        Kuadrant.status_admits_loss(conditions)
    }

    fn spec_shape(&self, _kind: &PolicyKind, rules: &[(&str, &Node)]) -> serde_json::Value {
        self.shape.spec_shape(rules)
    }

    fn request_verdicts(
        &self,
        kind: &request::KindRules<'_>,
        path: &[request::KindRules<'_>],
        context: &request::RequestContext<'_>,
    ) -> request::KindVerdicts {
        if self.builtin {
            Kuadrant.request_verdicts(kind, path, context)
        } else {
            request::KindVerdicts::unconditional(kind)
        }
    }
}
