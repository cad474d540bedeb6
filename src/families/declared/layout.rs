//! A declared rule layout: where a declared kind's rules live in its `spec` (or in one of its
//! blocks) and how they are keyed (docs/families.md §4.2).
//!
//! Either every top-level field is a rule keyed by its name (`fields: top-level`, minus the
//! reserved fields and `exclude`), or a list of rules, each a path of map keys below `spec`
//! cut `by-map-key` (one rule per entry), `by-list-item` (one rule per item, named by a field of
//! the item) or `whole` (the value is one rule). The layout cuts a node into [`Rule`]s with the
//! span of what names each one, renders rules back into the spec shape (what a CEL constraint
//! sees as `spec`), and turns `unset`/`remove` entries into rule keys.

use crate::load::fields::{FieldPath, Fields};
use crate::name::Name;
use crate::policy::Rule;
use crate::policy::decode::json_slot;
use crate::yaml::{Node, Value};
use serde_json::{Map, Value as Json};

/// Spec fields that are never rules (targets, blocks, deactivation, Envoy Gateway's merge
/// setting).
pub const RESERVED: &[&str] = &[
    "targetRef",
    "targetRefs",
    "targetSelectors",
    "defaults",
    "overrides",
    "unset",
    "remove",
    "mergeType",
];

/// Where a declared kind's rules live.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Every top-level field (of the spec, or of a block) is a rule keyed by its name, except
    /// the reserved fields and these.
    TopLevel {
        /// Fields that are not rules.
        exclude: Vec<String>,
    },
    /// The declared rules.
    Rules(Vec<RuleDecl>),
}

/// One declared rule: a path below `spec` and how its value is cut.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleDecl {
    /// Map keys below `spec` (or below a block), at least one.
    pub path: Vec<String>,
    /// How the value at `path` becomes rules.
    pub cut: Cut,
}

/// How the value at a rule path becomes rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cut {
    /// A mapping: one rule per entry, the entry's key filling the template.
    ByMapKey(Template),
    /// A list: one rule per item, the item's `field` filling the template.
    ByListItem {
        /// The item field holding the name.
        field: String,
        /// The key template.
        template: Template,
    },
    /// The whole value is one rule with this key.
    Whole(String),
}

/// A key template with exactly one `{name}` placeholder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    prefix: String,
    suffix: String,
}

/// The placeholder of key templates.
pub const PLACEHOLDER: &str = "{name}";

impl Template {
    /// Parses a template: `{name}` exactly once, no other braces.
    pub fn parse(text: &str) -> Result<Template, String> {
        let Some(at) = text.find(PLACEHOLDER) else {
            return Err(format!(
                "key template `{text}` must contain `{PLACEHOLDER}`"
            ));
        };
        let (prefix, suffix) = (&text[..at], &text[at + PLACEHOLDER.len()..]);
        if suffix.contains(PLACEHOLDER) {
            return Err(format!(
                "key template `{text}` must contain `{PLACEHOLDER}` once, not twice"
            ));
        }
        if let Some(other) = placeholder_in(prefix).or_else(|| placeholder_in(suffix)) {
            return Err(format!(
                "key template `{text}` uses `{other}`; the only placeholder is `{PLACEHOLDER}`"
            ));
        }
        Ok(Template {
            prefix: prefix.to_string(),
            suffix: suffix.to_string(),
        })
    }

    /// The key of the rule named `name`.
    pub fn key(&self, name: &str) -> String {
        format!("{}{name}{}", self.prefix, self.suffix)
    }

    /// The name a key fills the template with, if it fits (a non-empty name).
    pub fn name_of<'k>(&self, key: &'k str) -> Option<&'k str> {
        let name = key
            .strip_prefix(self.prefix.as_str())?
            .strip_suffix(self.suffix.as_str())?;
        (!name.is_empty()).then_some(name)
    }

    /// As written.
    pub fn text(&self) -> String {
        self.key(PLACEHOLDER)
    }
}

/// A brace-delimited placeholder (or a stray brace) in literal template text.
pub fn placeholder_in(text: &str) -> Option<String> {
    let start = text.find(['{', '}'])?;
    let rest = &text[start..];
    let end = rest.find('}').map_or(rest.len(), |e| e + 1);
    Some(rest[..end.max(1)].to_string())
}

impl RuleDecl {
    /// `a.b`, the path below `spec` as written after `spec.`.
    pub fn dotted(&self) -> String {
        self.path.join(".")
    }

    /// The rule key a template or whole rule gives; for messages and duplicate checks.
    pub fn key_text(&self) -> String {
        match &self.cut {
            Cut::ByMapKey(t) | Cut::ByListItem { template: t, .. } => t.text(),
            Cut::Whole(key) => key.clone(),
        }
    }
}

impl Layout {
    /// Whether `field` of a spec or block holds rules.
    pub fn is_rule_field(&self, field: &str) -> bool {
        match self {
            Layout::TopLevel { exclude } => {
                !RESERVED.contains(&field) && !exclude.iter().any(|e| e == field)
            }
            Layout::Rules(rules) => rules.iter().any(|r| r.path[0] == field),
        }
    }

    /// The first path segments of the rules, in declaration order, each once; `None` with
    /// `fields: top-level` (every field is a rule).
    pub fn first_fields(&self) -> Option<Vec<&str>> {
        let Layout::Rules(rules) = self else {
            return None;
        };
        let mut fields: Vec<&str> = Vec::new();
        for rule in rules {
            if !fields.contains(&rule.path[0].as_str()) {
                fields.push(&rule.path[0]);
            }
        }
        Some(fields)
    }

    /// Cuts `node` (a spec or a block) into rules; `skip` names fields (top level) or rule
    /// paths' first fields that are not rules here. Shape errors go to `fields`.
    pub fn cut(
        &self,
        fields: &mut Fields<'_>,
        node: &Node,
        path: &FieldPath<'_>,
        skip: &dyn Fn(&str) -> bool,
        rules: &mut Vec<Rule>,
    ) -> Option<()> {
        match self {
            Layout::TopLevel { exclude } => {
                for entry in fields.map(node, path)? {
                    let name = &*entry.key.text;
                    let excluded = RESERVED.contains(&name) || exclude.iter().any(|e| e == name);
                    if excluded || skip(name) || entry.value.is_null() {
                        continue;
                    }
                    rules.push(Rule {
                        key: Name::new(name),
                        value: entry.value.clone(),
                        key_span: entry.key.span,
                    });
                }
            }
            Layout::Rules(declared) => {
                self.check_nested(fields, node, path, &[]);
                for rule in declared.iter().filter(|r| !skip(&r.path[0])) {
                    cut_rule(fields, node, path, rule, rules)?;
                }
            }
        }
        Some(())
    }

    /// Unknown-field warnings inside the maps the rule paths go through (below the first
    /// level, which the caller checks with its own reserved fields).
    fn check_nested(
        &self,
        fields: &mut Fields<'_>,
        node: &Node,
        path: &FieldPath<'_>,
        prefix: &[&str],
    ) {
        let Layout::Rules(declared) = self else {
            return;
        };
        let below: Vec<&RuleDecl> = declared
            .iter()
            .filter(|r| {
                r.path.len() > prefix.len() + 1 && r.path.iter().zip(prefix).all(|(a, b)| a == b)
            })
            .collect();
        let mut children: Vec<&str> = Vec::new();
        for rule in &below {
            if !children.contains(&rule.path[prefix.len()].as_str()) {
                children.push(&rule.path[prefix.len()]);
            }
        }
        for child in children {
            let Some(inner) = node.get(child).filter(|n| !n.is_null()) else {
                continue;
            };
            let inner_path = path.key(child);
            let Some(entries) = inner.as_map() else {
                continue;
            };
            let mut next: Vec<&str> = prefix.to_vec();
            next.push(child);
            let known: Vec<&str> = declared
                .iter()
                .filter(|r| {
                    r.path.len() > next.len() && r.path.iter().zip(&next).all(|(a, b)| a == b)
                })
                .map(|r| r.path[next.len()].as_str())
                .collect();
            fields.check_known(entries, &inner_path, &known);
            self.check_nested(fields, inner, &inner_path, &next);
        }
    }

    /// `Ok` when `node` holds a rule (what the CRD-like emptiness check asks of a block);
    /// otherwise the rule paths it looked at (none with `fields: top-level`).
    pub fn counted(&self, node: &Node) -> Result<(), Vec<String>> {
        let set = |v: &Node| match &v.value {
            Value::Null => false,
            Value::Map(m) => !m.is_empty(),
            Value::Seq(s) => !s.is_empty(),
            _ => true,
        };
        match self {
            Layout::TopLevel { .. } => {
                let entries = node.as_map().unwrap_or_default();
                match entries
                    .iter()
                    .any(|e| self.is_rule_field(&e.key.text) && set(&e.value))
                {
                    true => Ok(()),
                    false => Err(Vec::new()),
                }
            }
            Layout::Rules(declared) => {
                let holds = |r: &RuleDecl| {
                    let refs: Vec<&str> = r.path.iter().map(String::as_str).collect();
                    node.get_path(&refs).is_some_and(set)
                };
                match declared.iter().any(holds) {
                    true => Ok(()),
                    false => Err(declared.iter().map(RuleDecl::dotted).collect()),
                }
            }
        }
    }

    /// The rule key an `unset`/`remove` entry names: a spec path (`spec.` optional) to a whole
    /// rule or into a keyed rule, or a rule key a template or whole rule gives.
    pub fn unset_key(&self, text: &str) -> Option<String> {
        let text = text.strip_prefix("spec.").unwrap_or(text);
        match self {
            Layout::TopLevel { .. } => {
                (!text.is_empty() && !text.contains('.') && self.is_rule_field(text))
                    .then(|| text.to_string())
            }
            Layout::Rules(declared) => {
                let by_path = declared.iter().find_map(|r| {
                    let dotted = r.dotted();
                    match &r.cut {
                        Cut::Whole(key) => (text == dotted).then(|| key.clone()),
                        Cut::ByMapKey(t) | Cut::ByListItem { template: t, .. } => text
                            .strip_prefix(dotted.as_str())
                            .and_then(|rest| rest.strip_prefix('.'))
                            .filter(|name| !name.is_empty())
                            .map(|name| t.key(name)),
                    }
                });
                by_path.or_else(|| {
                    declared
                        .iter()
                        .any(|r| match &r.cut {
                            Cut::Whole(key) => key == text,
                            Cut::ByMapKey(t) | Cut::ByListItem { template: t, .. } => {
                                t.name_of(text).is_some()
                            }
                        })
                        .then(|| text.to_string())
                })
            }
        }
    }

    /// What an `unset` entry may be, for messages.
    pub fn unset_forms(&self) -> String {
        let Layout::Rules(declared) = self else {
            return "a top-level spec field that is a rule".to_string();
        };
        let keys: Vec<String> = declared
            .iter()
            .map(|r| format!("`{}`", r.key_text()))
            .collect();
        let paths: Vec<String> = declared
            .iter()
            .map(|r| match r.cut {
                Cut::Whole(_) => format!("`{}`", r.dotted()),
                _ => format!("`{}.<name>`", r.dotted()),
            })
            .collect();
        format!(
            "a rule key ({}) or a spec path ({})",
            keys.join(", "),
            paths.join(", ")
        )
    }

    /// The rule declaring `key`: a whole rule with that key first, then the first template
    /// it fits, with the name.
    fn rule_of<'k>(&self, key: &'k str) -> Option<(&RuleDecl, Option<&'k str>)> {
        let Layout::Rules(declared) = self else {
            return None;
        };
        declared
            .iter()
            .find(|r| matches!(&r.cut, Cut::Whole(k) if k == key))
            .map(|r| (r, None))
            .or_else(|| {
                declared.iter().find_map(|r| match &r.cut {
                    Cut::ByMapKey(t) | Cut::ByListItem { template: t, .. } => {
                        t.name_of(key).map(|name| (r, Some(name)))
                    }
                    Cut::Whole(_) => None,
                })
            })
    }

    /// Rules rendered back into the spec shape: mappings for `by-map-key`, lists (in key
    /// order) for `by-list-item`, the value for `whole` and top-level fields.
    pub fn spec_shape(&self, rules: &[(&str, &Node)]) -> Json {
        let mut spec = Map::new();
        for (key, value) in rules {
            let value = value.to_json();
            match self.rule_of(key) {
                None => {
                    spec.insert(key.to_string(), value);
                }
                Some((rule, None)) => {
                    *json_slot(&mut spec, &rule.path) = value;
                }
                Some((rule, Some(name))) => {
                    let place = json_slot(&mut spec, &rule.path);
                    match &rule.cut {
                        Cut::ByListItem { .. } => {
                            if !place.is_array() {
                                *place = Json::Array(Vec::new());
                            }
                            if let Json::Array(items) = place {
                                items.push(value);
                            }
                        }
                        _ => {
                            if !place.is_object() {
                                *place = Json::Object(Map::new());
                            }
                            if let Json::Object(map) = place {
                                map.insert(name.to_string(), value);
                            }
                        }
                    }
                }
            }
        }
        Json::Object(spec)
    }
}

/// The rules one declared rule finds below `node`.
fn cut_rule(
    fields: &mut Fields<'_>,
    node: &Node,
    path: &FieldPath<'_>,
    rule: &RuleDecl,
    rules: &mut Vec<Rule>,
) -> Option<()> {
    let (last, parents) = rule.path.split_last().expect("rule paths are never empty");
    let mut current = node;
    let mut walked: Vec<&str> = Vec::with_capacity(parents.len());
    for part in parents {
        walked.push(part);
        match current.get(part).filter(|n| !n.is_null()) {
            None => return Some(()),
            Some(inner) if inner.as_map().is_some() => current = inner,
            Some(inner) => {
                fields.invalid(
                    inner.span,
                    format!(
                        "`{path}.{}` must be a mapping (the declared rule path `spec.{}` goes through it), found {}",
                        walked.join("."),
                        rule.dotted(),
                        inner.type_name()
                    ),
                    "expected a mapping",
                );
                return None;
            }
        }
    }
    let Some(entry) = current.entry(last).filter(|e| !e.value.is_null()) else {
        return Some(());
    };
    let value_path_text = rule.dotted();
    let value_path = path.key(&value_path_text);
    match &rule.cut {
        Cut::Whole(key) => {
            if entry.value.as_seq().is_some_and(|s| s.is_empty()) {
                return Some(());
            }
            rules.push(Rule {
                key: Name::new(key),
                value: entry.value.clone(),
                key_span: entry.key.span,
            });
        }
        Cut::ByMapKey(template) => {
            for item in fields.map(&entry.value, &value_path)? {
                rules.push(Rule {
                    key: Name::new(&template.key(&item.key.text)),
                    value: item.value.clone(),
                    key_span: item.key.span,
                });
            }
        }
        Cut::ByListItem { field, template } => {
            for (i, item) in fields.seq(&entry.value, &value_path)?.iter().enumerate() {
                let item_path = value_path.index(i);
                fields.map(item, &item_path)?;
                let name_node = fields.required(item, field, &item_path)?;
                let name = fields.non_empty_str(name_node, &item_path.key(field))?;
                rules.push(Rule {
                    key: Name::new(&template.key(name)),
                    value: item.clone(),
                    key_span: name_node.span,
                });
            }
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template(text: &str) -> Template {
        Template::parse(text).unwrap()
    }

    fn timeouts() -> Layout {
        Layout::Rules(vec![
            RuleDecl {
                path: vec!["timeouts".into()],
                cut: Cut::ByMapKey(template("timeouts#{name}")),
            },
            RuleDecl {
                path: vec!["retries".into()],
                cut: Cut::ByListItem {
                    field: "name".into(),
                    template: template("retries#{name}"),
                },
            },
            RuleDecl {
                path: vec!["idle".into()],
                cut: Cut::Whole("idle#".into()),
            },
        ])
    }

    #[test]
    fn templates() {
        let t = template("timeouts#{name}");
        assert_eq!(t.key("request"), "timeouts#request");
        assert_eq!(t.name_of("timeouts#request"), Some("request"));
        assert_eq!(t.name_of("timeouts#"), None);
        assert_eq!(t.name_of("retries#a"), None);
        assert!(Template::parse("no-placeholder").is_err());
        assert!(Template::parse("{name}{name}").is_err());
        assert!(
            Template::parse("{kind}#{name}")
                .unwrap_err()
                .contains("`{kind}`")
        );
        assert!(Template::parse("{name}}").is_err());
    }

    #[test]
    fn unset_entries_become_keys() {
        let layout = timeouts();
        let cases = [
            ("timeouts.request", Some("timeouts#request")),
            ("spec.timeouts.request", Some("timeouts#request")),
            ("retries.on-5xx", Some("retries#on-5xx")),
            ("idle", Some("idle#")),
            ("idle#", Some("idle#")),
            ("timeouts#request", Some("timeouts#request")),
            ("bogus", None),
        ];
        for (text, key) in cases {
            assert_eq!(layout.unset_key(text).as_deref(), key, "{text}");
        }
    }

    #[test]
    fn spec_shape_inverts_the_cut() {
        let node = |text: &str| crate::families::kgateway::testing::yaml(text);
        let (a, b, c) = (node("30s"), node("{name: on-5xx, attempts: 2}"), node("5m"));
        let shape = timeouts().spec_shape(&[
            ("idle#", &c),
            ("retries#on-5xx", &b),
            ("timeouts#request", &a),
        ]);
        assert_eq!(
            shape.to_string(),
            r#"{"idle":"5m","retries":[{"name":"on-5xx","attempts":2}],"timeouts":{"request":"30s"}}"#
        );
    }
}
