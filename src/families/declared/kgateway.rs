//! Declared kinds of the `kgateway` model (docs/families.md §4.3): the kgateway family (§2) with the
//! declared kind — ExtensionRef filters naming it attach it, `kgateway.dev/policy-weight` and
//! `kgateway.dev/inherited-policy-priority` apply, the status is Accepted/Attached per ancestor
//! — and every declared rule a plain field: inside a scope the higher-priority set value wins
//! (§2.4 first table), across scopes the most specific scope's value, whole (§2.5).

use super::Declaration;
use super::layout::Layout;
use crate::families::kgateway::{Kgateway, PlainFields};
use crate::load::fields::{FieldPath, Fields};
use crate::policy::decode::TargetFields;
use crate::policy::{PolicyKind, Rule};
use crate::yaml::Node;
use std::sync::Arc;

/// A declared layout as a kgateway rule cut.
#[derive(Debug)]
pub struct DeclaredFields {
    /// The rule layout.
    pub layout: Layout,
    /// The target fields (known spec fields besides the rules).
    pub targets: TargetFields,
}

impl PlainFields for DeclaredFields {
    fn rules(&self, fields: &mut Fields<'_>, spec: &Node, spec_path: &FieldPath<'_>) -> Vec<Rule> {
        if let (Some(rule_fields), Some(entries)) = (self.layout.first_fields(), spec.as_map()) {
            let mut known: Vec<&str> = Vec::new();
            if self.targets.single {
                known.push("targetRef");
            }
            if self.targets.list {
                known.push("targetRefs");
            }
            if self.targets.selectors.is_some() {
                known.push("targetSelectors");
            }
            known.extend(rule_fields);
            fields.check_known(entries, spec_path, &known);
        }
        let mut rules = Vec::new();
        self.layout
            .cut(fields, spec, spec_path, &|_| false, &mut rules);
        rules
    }

    fn spec_shape(&self, rules: &[(&str, &Node)]) -> serde_json::Value {
        self.layout.spec_shape(rules)
    }
}

/// The kgateway family of a declared kind (controller settings at their defaults).
pub fn family(declaration: &Declaration, kinds: &'static [PolicyKind]) -> Kgateway {
    let targets = super::target_fields(declaration);
    let fields = DeclaredFields {
        layout: declaration.layout.clone(),
        targets,
    };
    Kgateway::declared(kinds, targets, Arc::new(fields))
}
