//! Declared kinds of the `envoy-gateway` model (docs/families.md §4.3): everything the Envoy Gateway
//! family needs to evaluate a declared kind — its kind, `plural` for messages (the route-rule
//! message uses it too), whether `spec.mergeType` is honoured, the StrategicMerge keyed lists,
//! the target fields and the rule cut — as the family's own [`EnvoyKindSpec`], so that a declared
//! kind is evaluated by exactly the code that evaluates the built-in ones.

use super::Declaration;
use super::layout::Layout;
use crate::families::envoy::{EnvoyKindSpec, ListenerStyle, RuleCut};
use crate::load::fields::{FieldPath, Fields};
use crate::policy::PolicyKind;
use crate::yaml::Node;
use std::sync::Arc;

/// The kind and settings of a declared `envoy-gateway` kind.
pub fn envoy_spec(
    declaration: &Declaration,
    kinds: &'static [PolicyKind],
) -> (&'static PolicyKind, EnvoyKindSpec) {
    let rules = match &declaration.layout {
        Layout::TopLevel { exclude } => RuleCut::TopLevel {
            exclude: exclude.clone(),
        },
        layout @ Layout::Rules(_) => {
            let layout = layout.clone();
            RuleCut::Custom(Arc::new(move |spec: &Node| {
                // Shape problems of a declared cut were reported when the policy was decoded.
                let mut fields = Fields::new("");
                let mut rules = Vec::new();
                let path = FieldPath::ROOT.key("spec");
                layout.cut(&mut fields, spec, &path, &|_| false, &mut rules);
                rules.sort_by(|a, b| a.key.cmp(&b.key));
                rules
            }))
        }
    };
    let settings = EnvoyKindSpec {
        plural: declaration.plural.clone(),
        rule_plural: declaration.plural.clone(),
        merge_type: declaration.merge_type,
        list_merge_keys: declaration.list_merge_keys.clone(),
        targets: super::target_fields(declaration),
        rules,
        // A declaration names no authentication fields, so `auth-replaced-without-merge` does
        // not apply to declared kinds.
        auth_fields: Vec::new(),
        listener_style: ListenerStyle::Listener,
        tcp_fields: None,
        acts_on_listeners: false,
        indexed_fields: Vec::new(),
        field_merges: Vec::new(),
    };
    (&kinds[0], settings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kgateway::testing::yaml;
    use crate::source::SourceId;

    const FILE: &str = "apiVersion: dopol/v1
kind: PolicyFamilies
families:
- group: example.com
  kind: BackendPolicy
  versions: [v1alpha1]
  model: envoy-gateway
  targetKinds: [Gateway, HTTPRoute]
  targets: targetRefs
  mergeType: true
  listMergeKeys: {spec.compression: type}
  rules:
  - {path: spec.retry, keyed: whole}
  - {path: spec.headers, keyed: by-list-item, field: name, key: 'header#{name}'}
";

    #[test]
    fn settings_come_from_the_declaration() {
        let declarations = super::super::file::parse(SourceId(0), "f.yaml", FILE).unwrap();
        let kinds = super::super::leak_kind(&declarations[0]);
        let (kind, settings) = envoy_spec(&declarations[0], kinds);
        assert_eq!(kind.kind, "BackendPolicy");
        assert_eq!(settings.plural, "backendPolicies");
        assert_eq!(settings.rule_plural, "backendPolicies");
        assert!(settings.merge_type);
        assert_eq!(
            settings.list_merge_keys,
            [(vec!["compression".to_string()], "type".to_string())]
        );
        assert!(settings.targets.list && !settings.targets.single);
        let RuleCut::Custom(cut) = &settings.rules else {
            panic!("a declared cut");
        };
        let spec = yaml("{retry: {n: 1}, headers: [{name: a, v: 1}], mergeType: JSONMerge}");
        let keys: Vec<String> = cut(&spec).into_iter().map(|r| r.key.to_string()).collect();
        assert_eq!(keys, ["header#a", "retry"]);
    }
}
