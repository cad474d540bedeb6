//! A TrafficPolicy `spec` cut into rule keys (docs/families.md §2.1).
//!
//! kgateway merges field by field, so each top-level spec field is one rule. `rateLimit` and
//! `compression` are split as kgateway's merge metadata splits them (local and global rate limits,
//! compression and decompression merge independently). Target fields are not rules.

use super::contribution::is_set;
use crate::name::Name;
use crate::policy::Rule;
use crate::yaml::Node;

/// Fields that say where a policy attaches, not what it does: `targetRefs`, `targetSelectors`, and
/// the deprecated singular `targetRef` (docs/families.md §1 reads it as a target for every family).
const TARGET_FIELDS: [&str; 3] = ["targetRef", "targetRefs", "targetSelectors"];

/// Fields whose sub-fields are separate rules, keyed `<field>.<sub-field>`.
const SPLIT_FIELDS: [&str; 2] = ["rateLimit", "compression"];

/// The rules of a TrafficPolicy `spec`, sorted by key: every top-level field except the target
/// fields; `rateLimit` → `rateLimit.local`, `rateLimit.global`; `compression` →
/// `compression.responseCompression`, `compression.requestDecompression` (any other sub-field of
/// these two likewise becomes `<field>.<sub-field>`, so that nothing is silently dropped; a
/// non-mapping value stays one rule). Null values are not rules.
pub fn rule_keys(spec: &Node) -> Vec<(String, Node)> {
    rules(spec)
        .into_iter()
        .map(|r| (r.key.to_string(), r.value))
        .collect()
}

/// [`rule_keys`] as the policy's [`Rule`]s, each with the span of the key that names it.
pub fn rules(spec: &Node) -> Vec<Rule> {
    let mut rules = Vec::new();
    for entry in spec.as_map().unwrap_or(&[]) {
        let key = &*entry.key.text;
        let value = &entry.value;
        if TARGET_FIELDS.contains(&key) || !is_set(Some(value)) {
            continue;
        }
        match value.as_map() {
            Some(subfields) if SPLIT_FIELDS.contains(&key) => rules.extend(
                subfields
                    .iter()
                    .filter(|sub| is_set(Some(&sub.value)))
                    .map(|sub| Rule {
                        key: Name::new(&format!("{key}.{}", sub.key.text)),
                        value: sub.value.clone(),
                        key_span: sub.key.span,
                    }),
            ),
            _ => rules.push(Rule {
                key: Name::new(key),
                value: value.clone(),
                key_span: entry.key.span,
            }),
        }
    }
    rules.sort_by(|x, y| x.key.cmp(&y.key));
    rules
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kgateway::testing::{j, yaml};

    fn keys(text: &str) -> Vec<(String, String)> {
        rule_keys(&yaml(text))
            .into_iter()
            .map(|(key, value)| (key, value.to_json().to_string()))
            .collect()
    }

    #[test]
    fn top_level_fields_are_rules_sorted() {
        let spec = "targetRefs: [{kind: HTTPRoute, name: r}]\ntargetSelectors: []\n\
                    timeouts: {request: 5s}\ncors: {}\nfuture: 1\nacl: {defaultAction: deny}\n\
                    buffer: null\n";
        let got = keys(spec);
        let want = [
            ("acl", j("{defaultAction: deny}")),
            ("cors", j("{}")),
            ("future", j("1")),
            ("timeouts", j("{request: 5s}")),
        ];
        let want: Vec<_> = want.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn rate_limit_and_compression_are_split() {
        let spec = "rateLimit:\n  local: {tokenBucket: {maxTokens: 1}}\n  global: {extensionRef: {name: rl}}\n\
                    compression:\n  responseCompression: {}\n  requestDecompression: {disable: {}}\n";
        let got: Vec<String> = keys(spec).into_iter().map(|(k, _)| k).collect();
        assert_eq!(
            got,
            [
                "compression.requestDecompression",
                "compression.responseCompression",
                "rateLimit.global",
                "rateLimit.local",
            ]
        );
        let got = keys("rateLimit:\n  local: null\n  global: {extensionRef: {name: rl}}\n");
        assert_eq!(
            got,
            [(
                "rateLimit.global".to_owned(),
                j("{extensionRef: {name: rl}}")
            )]
        );
    }
}
