//! Reading a suite: the YAML loader's spanned tree (the same as for manifests), checked key by
//! key into [`Suite`]. Every problem is a located diagnostic; an unknown key is one, since an
//! expectation nobody reads would pass silently.

use super::diags::SuiteProblem;
use super::{
    Case, CaseBody, Expect, KindExpect, OutcomeExpect, RequestSpec, RuleExpect, Selector, Suite,
    Text,
};
use crate::diag::Diagnostic;
use crate::policy::gate::Capability;
use crate::source::{SourceMap, Span};
use crate::yaml::{Entry, Node, Value, parse_chunk};

const SUITE_KEYS: &[&str] = &["apiVersion", "kind", "metadata", "inputs", "cases"];
const CASE_KEYS: &[&str] = &["name", "paths", "except", "request", "expect"];
const SELECTOR_KEYS: &[&str] = &["gateway", "listener", "route", "rule"];
const REQUEST_KEYS: &[&str] = &["method", "url", "headers", "attributes", "gateway"];
const KIND_KEYS: &[&str] = &["present", "rules", "outcomes"];
const OUTCOME_KEYS: &[&str] = &["policy", "rule", "outcome"];
const RULE_KEYS: &[&str] = &[
    "absent", "source", "value", "origins", "block", "strategy", "applies",
];

/// Collects the problems of one suite file.
struct Reader {
    problems: Vec<Diagnostic>,
}

impl Reader {
    fn report(&mut self, problem: SuiteProblem<'_>, span: Span, label: &str) {
        self.problems
            .push(Diagnostic::from(problem).with_label(span, label));
    }

    fn map<'n>(&mut self, node: &'n Node, field: &str) -> Option<&'n [Entry]> {
        let map = node.as_map();
        if map.is_none() {
            let found = format!("a {}", node.type_name());
            self.report(
                SuiteProblem::Expected {
                    what: "a mapping",
                    field,
                },
                node.span,
                &found,
            );
        }
        map
    }

    /// The entries of a mapping, unknown keys reported.
    fn keyed<'n>(&mut self, node: &'n Node, field: &str, allowed: &[&str]) -> &'n [Entry] {
        let entries = self.map(node, field).unwrap_or_default();
        for entry in entries
            .iter()
            .filter(|e| !allowed.contains(&e.key.text.as_str()))
        {
            let key = entry.key.text.as_str();
            self.report(
                SuiteProblem::UnknownKey {
                    key,
                    field,
                    allowed,
                },
                entry.key.span,
                "unknown key",
            );
        }
        entries
    }

    fn text(&mut self, node: &Node, field: &str) -> Option<Text> {
        match &node.value {
            Value::String(s) => Some(Text {
                text: s.to_string(),
                span: node.span,
            }),
            Value::Int(i) => Some(Text {
                text: i.to_string(),
                span: node.span,
            }),
            _ => {
                let found = format!("a {}", node.type_name());
                self.report(
                    SuiteProblem::Expected {
                        what: "a string",
                        field,
                    },
                    node.span,
                    &found,
                );
                None
            }
        }
    }

    fn boolean(&mut self, node: &Node, field: &str) -> Option<bool> {
        match node.value {
            Value::Bool(b) => Some(b),
            _ => {
                let found = format!("a {}", node.type_name());
                self.report(
                    SuiteProblem::Expected {
                        what: "true or false",
                        field,
                    },
                    node.span,
                    &found,
                );
                None
            }
        }
    }

    fn texts(&mut self, node: &Node, field: &str) -> Vec<Text> {
        match node.as_seq() {
            Some(items) => items.iter().filter_map(|n| self.text(n, field)).collect(),
            None => self.text(node, field).into_iter().collect(),
        }
    }

    fn shape(&mut self, message: String, span: Span, label: &str) {
        self.report(
            SuiteProblem::Shape {
                code: crate::diag::Code::INVALID_SUITE,
                message,
            },
            span,
            label,
        );
    }
}

/// Reads the suite in `text` (file `name`, registered in `sources`). `explicit`: the file was
/// named, not found by its name, so anything but a `PolicyTest` is an error rather than a skip.
pub fn read(name: &str, text: String, sources: &mut SourceMap) -> Result<Suite, Vec<Diagnostic>> {
    let id = sources.add(name.to_string(), text.as_str());
    let mut syntax = Vec::new();
    let documents = parse_chunk(id, &text, 0..text.len(), &mut syntax);
    if !syntax.is_empty() {
        return Err(crate::diag::as_file_errors(
            syntax,
            crate::diag::Code::INVALID_SUITE,
        ));
    }
    let mut reader = Reader {
        problems: Vec::new(),
    };
    let suite = match documents.as_slice() {
        [] => {
            let problem = SuiteProblem::NotASuite {
                file: name,
                found: "it is empty".into(),
            };
            return Err(vec![Diagnostic::from(problem).with_file(name)]);
        }
        [document, rest @ ..] => {
            let suite = root(&mut reader, name, &document.root);
            if let (Some(_), Some(second)) = (&suite, rest.first()) {
                reader.shape(
                    "a suite holds one YAML document".into(),
                    second.root.span,
                    "second document",
                );
            }
            suite
        }
    };
    match suite {
        Some(suite) if reader.problems.is_empty() => Ok(suite),
        _ => Err(reader.problems),
    }
}

/// The top of a suite: `apiVersion`, `kind`, `inputs`, `cases`.
fn root(reader: &mut Reader, name: &str, root: &Node) -> Option<Suite> {
    let api = root.get("apiVersion").and_then(Node::as_str);
    let kind = root.get("kind").and_then(Node::as_str);
    if (api, kind) != (Some(super::API_VERSION), Some(super::KIND)) {
        let found = format!(
            "apiVersion `{}`, kind `{}`",
            api.unwrap_or("(none)"),
            kind.unwrap_or("(none)")
        );
        let span = root.get("kind").map_or(root.span, |k| k.span);
        reader.report(
            SuiteProblem::NotASuite { file: name, found },
            span,
            "not a PolicyTest",
        );
        return None;
    }
    reader.keyed(root, "", SUITE_KEYS);
    let inputs = root
        .get("inputs")
        .map(|n| reader.texts(n, "inputs"))
        .unwrap_or_default();
    let Some(cases) = root.get("cases") else {
        reader.shape("a suite needs `cases`".into(), root.span, "no `cases`");
        return None;
    };
    let Some(items) = cases.as_seq() else {
        let found = format!("a {}", cases.type_name());
        reader.report(
            SuiteProblem::Expected {
                what: "a list of cases",
                field: "cases",
            },
            cases.span,
            &found,
        );
        return None;
    };
    let cases = items
        .iter()
        .enumerate()
        .filter_map(|(i, c)| case(reader, &format!("cases[{i}]"), c))
        .collect();
    Some(Suite {
        file: name.to_string(),
        inputs,
        cases,
    })
}

/// One case.
fn case(reader: &mut Reader, field: &str, node: &Node) -> Option<Case> {
    reader.keyed(node, field, CASE_KEYS);
    let name = match node.get("name") {
        Some(n) => reader.text(n, &format!("{field}.name"))?,
        None => {
            reader.shape(
                format!("`{field}` has no `name`"),
                node.span,
                "a case needs a name",
            );
            return None;
        }
    };
    let expect_node = node.get("expect");
    let Some(expect_node) = expect_node else {
        reader.shape(
            format!("case `{}` has no `expect`", name.text),
            name.span,
            "nothing is checked",
        );
        return None;
    };
    let request_case = node.get("request").is_some();
    let expect = expect(
        reader,
        &format!("{field}.expect"),
        expect_node,
        request_case,
    )?;
    let body = body(reader, field, node, &name)?;
    Some(Case { name, body, expect })
}

/// What a case runs on: exactly one of `paths` (with `except`) and `request`.
fn body(reader: &mut Reader, field: &str, node: &Node, name: &Text) -> Option<CaseBody> {
    match (node.get("paths"), node.get("request")) {
        (Some(paths), None) => {
            let except = node.get("except").map(|e| match e.as_seq() {
                Some(items) => (items.iter().enumerate())
                    .filter_map(|(i, s)| selector(reader, &format!("{field}.except[{i}]"), s))
                    .collect(),
                None => selector(reader, &format!("{field}.except"), e)
                    .into_iter()
                    .collect(),
            });
            Some(CaseBody::Paths {
                selector: selector(reader, &format!("{field}.paths"), paths)?,
                except: except.unwrap_or_default(),
            })
        }
        (None, Some(request)) => {
            if let Some(except) = node.get("except") {
                let message = "`except` belongs to a `paths` case".into();
                reader.shape(message, except.span, "not with `request`");
            }
            request_spec(reader, &format!("{field}.request"), request).map(CaseBody::Request)
        }
        _ => {
            let message = format!(
                "case `{}` needs exactly one of `paths` and `request`",
                name.text
            );
            reader.shape(message, name.span, "what does it check?");
            None
        }
    }
}

/// A path selector; at least one part.
fn selector(reader: &mut Reader, field: &str, node: &Node) -> Option<Selector> {
    let entries = reader.keyed(node, field, SELECTOR_KEYS);
    let part = |reader: &mut Reader, key: &str| {
        node.get(key)
            .and_then(|n| reader.text(n, &format!("{field}.{key}")))
    };
    let selector = Selector {
        span: node.span,
        gateway: part(reader, "gateway"),
        listener: part(reader, "listener"),
        route: part(reader, "route"),
        rule: part(reader, "rule"),
    };
    if entries.is_empty() && node.as_map().is_some() {
        reader.shape(
            format!("`{field}` selects by nothing"),
            node.span,
            "name a gateway, listener, route or rule",
        );
        return None;
    }
    Some(selector)
}

/// A request case's `request`.
fn request_spec(reader: &mut Reader, field: &str, node: &Node) -> Option<RequestSpec> {
    reader.keyed(node, field, REQUEST_KEYS);
    let required = |reader: &mut Reader, key: &str| match node.get(key) {
        Some(n) => reader.text(n, &format!("{field}.{key}")),
        None => {
            reader.shape(
                format!("`{field}` needs `{key}`"),
                node.span,
                "incomplete request",
            );
            None
        }
    };
    let (method, url) = (required(reader, "method"), required(reader, "url"));
    let pairs = |reader: &mut Reader, key: &str, join: &str| -> Vec<String> {
        let Some(map) = node.get(key) else {
            return Vec::new();
        };
        let entries = reader
            .map(map, &format!("{field}.{key}"))
            .unwrap_or_default();
        entries
            .iter()
            .map(|e| match e.value.as_str() {
                Some(s) => format!("{}{join}{s}", e.key.text),
                None => format!("{}{join}{}", e.key.text, e.value.to_json()),
            })
            .collect()
    };
    let headers = pairs(reader, "headers", ": ");
    let attributes = pairs(reader, "attributes", "=");
    let gateway = node
        .get("gateway")
        .and_then(|n| reader.text(n, &format!("{field}.gateway")));
    Some(RequestSpec {
        span: node.span,
        method: method?,
        url: url?,
        headers,
        attributes,
        gateway,
    })
}

/// A case's `expect`.
fn expect(reader: &mut Reader, field: &str, node: &Node, request_case: bool) -> Option<Expect> {
    let entries = reader.map(node, field)?;
    let mut expect = Expect::default();
    for entry in entries {
        let key = entry.key.text.as_str();
        let key_text = Text {
            text: key.to_string(),
            span: entry.key.span,
        };
        let here = format!("{field}.{key}");
        match key {
            "route" | "rule" if request_case => {
                let value = reader.text(&entry.value, &here);
                if key == "route" {
                    expect.route = value
                } else {
                    expect.rule = value
                }
            }
            _ if Capability::parse(key).is_some()
                || key.starts_with(|c: char| c.is_ascii_lowercase()) =>
            {
                let present = match &entry.value.value {
                    Value::Bool(b) => Some(*b),
                    _ => {
                        reader.keyed(&entry.value, &here, &["present"]);
                        entry
                            .value
                            .get("present")
                            .and_then(|p| reader.boolean(p, &format!("{here}.present")))
                    }
                };
                if let Some(present) = present {
                    expect.checks.push((key_text, present));
                }
            }
            _ => {
                let kind = kind_expect(reader, &here, key_text, &entry.value);
                if request_case && !kind.outcomes.is_empty() {
                    let message = "`outcomes` belong to a `paths` case".into();
                    reader.shape(message, kind.span, "not with `request`");
                }
                expect.kinds.push(kind);
            }
        }
    }
    if expect.is_empty() {
        reader.shape(
            format!("`{field}` expects nothing"),
            node.span,
            "a case must check something",
        );
        return None;
    }
    Some(expect)
}

/// What a case expects of one policy kind.
fn kind_expect(reader: &mut Reader, field: &str, kind: Text, node: &Node) -> KindExpect {
    reader.keyed(node, field, KIND_KEYS);
    let present = node
        .get("present")
        .and_then(|p| reader.boolean(p, &format!("{field}.present")));
    let rules = node.get("rules").map(|rules| {
        let entries = reader
            .map(rules, &format!("{field}.rules"))
            .unwrap_or_default();
        entries
            .iter()
            .map(|e| rule_expect(reader, &format!("{field}.rules.{}", e.key.text), e))
            .collect()
    });
    let outcomes = node.get("outcomes").map(|list| match list.as_seq() {
        Some(items) => (items.iter().enumerate())
            .filter_map(|(i, o)| outcome_expect(reader, &format!("{field}.outcomes[{i}]"), o))
            .collect(),
        None => {
            let field = format!("{field}.outcomes");
            let what = "a list of {policy, rule, outcome}";
            reader.report(
                SuiteProblem::Expected {
                    what,
                    field: &field,
                },
                list.span,
                "not a list",
            );
            Vec::new()
        }
    });
    KindExpect {
        kind,
        present,
        rules: rules.unwrap_or_default(),
        outcomes: outcomes.unwrap_or_default(),
        span: node.span,
    }
}

/// One expected outcome: what happened to a policy's rule on the paths (or to the policy).
fn outcome_expect(reader: &mut Reader, field: &str, node: &Node) -> Option<OutcomeExpect> {
    reader.keyed(node, field, OUTCOME_KEYS);
    let mut text = |key: &str| {
        node.get(key)
            .and_then(|n| reader.text(n, &format!("{field}.{key}")))
    };
    let (policy, rule, outcome) = (text("policy"), text("rule"), text("outcome"));
    if policy.is_none() || outcome.is_none() {
        reader.shape(
            format!("`{field}` needs `policy` and `outcome`"),
            node.span,
            "incomplete",
        );
    }
    Some(OutcomeExpect {
        policy: policy?,
        rule,
        outcome: outcome?,
    })
}

/// What a case expects of one rule key.
fn rule_expect(reader: &mut Reader, field: &str, entry: &Entry) -> RuleExpect {
    let node = &entry.value;
    reader.keyed(node, field, RULE_KEYS);
    let text = |reader: &mut Reader, key: &str| {
        node.get(key)
            .and_then(|n| reader.text(n, &format!("{field}.{key}")))
    };
    let flag = |reader: &mut Reader, key: &str| {
        node.get(key)
            .and_then(|n| reader.boolean(n, &format!("{field}.{key}")))
    };
    RuleExpect {
        key: Text {
            text: entry.key.text.to_string(),
            span: entry.key.span,
        },
        absent: flag(reader, "absent").unwrap_or(false),
        source: text(reader, "source"),
        value: node.get("value").cloned(),
        origins: node
            .get("origins")
            .map(|o| reader.texts(o, &format!("{field}.origins"))),
        block: text(reader, "block"),
        strategy: text(reader, "strategy"),
        applies: flag(reader, "applies"),
    }
}
