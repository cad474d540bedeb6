//! What a route rule matches: HTTPRoute `matches` (path, method, headers, query parameters) and
//! GRPCRoute `matches` (service/method, headers), decoded with the CRDs' defaults applied.
//!
//! Only `dopol request` needs them. Every command checks them while decoding a route (the API
//! server rejects a route with an unknown path type or a relative path), but the model does not
//! keep them: `request` decodes the rules of the few routes on its listener again, from the
//! object ([`of_route`]), which saves a few hundred bytes per rule on every other command.

use crate::load::fields::{FieldPath, Fields};
use crate::yaml::Node;

/// HTTPRoute path match type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PathType {
    /// `Exact`.
    Exact,
    /// `PathPrefix` (element-wise).
    PathPrefix,
    /// `RegularExpression` (implementation-specific).
    RegularExpression,
}

impl PathType {
    /// The CRD's name.
    pub fn as_str(self) -> &'static str {
        match self {
            PathType::Exact => "Exact",
            PathType::PathPrefix => "PathPrefix",
            PathType::RegularExpression => "RegularExpression",
        }
    }
}

/// Header, query-parameter and gRPC method match type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueType {
    /// `Exact`.
    Exact,
    /// `RegularExpression` (whole value).
    RegularExpression,
}

impl ValueType {
    /// The CRD's name.
    pub fn as_str(self) -> &'static str {
        match self {
            ValueType::Exact => "Exact",
            ValueType::RegularExpression => "RegularExpression",
        }
    }
}

/// A header or query-parameter match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueMatch {
    /// Match type.
    pub kind: ValueType,
    /// Header or parameter name as written.
    pub name: String,
    /// Expected value or pattern.
    pub value: String,
}

/// One HTTPRoute match (every condition must hold).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpMatch {
    /// Path type (default `PathPrefix`).
    pub path_type: PathType,
    /// Path value (default `/`).
    pub path: String,
    /// HTTP method, if matched.
    pub method: Option<String>,
    /// Header matches.
    pub headers: Vec<ValueMatch>,
    /// Query parameter matches.
    pub query: Vec<ValueMatch>,
}

impl HttpMatch {
    /// `PathPrefix /`: the match of a rule without `matches`.
    pub fn everything() -> HttpMatch {
        HttpMatch {
            path_type: PathType::PathPrefix,
            path: "/".into(),
            method: None,
            headers: Vec::new(),
            query: Vec::new(),
        }
    }
}

/// One GRPCRoute match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrpcMatch {
    /// Method match type (default `Exact`).
    pub method_type: ValueType,
    /// Service, if matched.
    pub service: Option<String>,
    /// Method, if matched.
    pub method: Option<String>,
    /// Header matches.
    pub headers: Vec<ValueMatch>,
}

/// A rule's matches, by route kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleMatches {
    /// HTTPRoute matches (never empty: the CRD default is one `PathPrefix /` match).
    Http(Vec<HttpMatch>),
    /// GRPCRoute matches (empty: the rule matches every request).
    Grpc(Vec<GrpcMatch>),
}

/// The nine methods Gateway API allows in an HTTPRoute match.
pub const HTTP_METHODS: &[&str] = &[
    "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
];

/// Reads `node[key]` as one of `allowed` (named by `name`); absent or null: `default`.
fn enum_field<T: Copy>(
    node: &Node,
    key: &str,
    path: &FieldPath<'_>,
    (allowed, name): (&[T], fn(T) -> &'static str),
    default: T,
    fields: &mut Fields,
) -> Option<T> {
    let Some(value) = node.get(key).filter(|n| !n.is_null()) else {
        return Some(default);
    };
    let field = path.key(key);
    let text = fields.str(value, &field)?;
    let found = allowed.iter().copied().find(|a| name(*a) == text);
    if found.is_none() {
        let names: Vec<&str> = allowed.iter().map(|a| name(*a)).collect();
        fields.invalid(
            value.span,
            format!(
                "`{field}` must be one of {}, found `{text}`",
                names.join(", ")
            ),
            "not an allowed value",
        );
    }
    found
}

/// `PathType`s, for [`enum_field`].
const PATH_TYPES: (&[PathType], fn(PathType) -> &'static str) = (
    &[
        PathType::Exact,
        PathType::PathPrefix,
        PathType::RegularExpression,
    ],
    PathType::as_str,
);

/// `ValueType`s, for [`enum_field`].
const VALUE_TYPES: (&[ValueType], fn(ValueType) -> &'static str) = (
    &[ValueType::Exact, ValueType::RegularExpression],
    ValueType::as_str,
);

/// Decodes a list of header or query-parameter matches.
fn value_matches(
    node: &Node,
    key: &str,
    path: &FieldPath<'_>,
    fields: &mut Fields,
) -> Vec<ValueMatch> {
    let Some(list) = node.get(key).filter(|n| !n.is_null()) else {
        return Vec::new();
    };
    let list_path = path.key(key);
    let items = fields.seq(list, &list_path).unwrap_or_default();
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let item_path = list_path.index(i);
        if fields.map(item, &item_path).is_none() {
            continue;
        }
        let kind = enum_field(
            item,
            "type",
            &item_path,
            VALUE_TYPES,
            ValueType::Exact,
            fields,
        );
        let name = fields
            .required(item, "name", &item_path)
            .and_then(|n| fields.non_empty_str(n, &item_path.key("name")));
        let value = fields
            .required(item, "value", &item_path)
            .and_then(|n| fields.str(n, &item_path.key("value")));
        if let (Some(kind), Some(name), Some(value)) = (kind, name, value) {
            out.push(ValueMatch {
                kind,
                name: name.to_string(),
                value: value.to_string(),
            });
        }
    }
    out
}

/// Decodes one HTTPRoute match.
fn http_match(node: &Node, path: &FieldPath<'_>, fields: &mut Fields) -> Option<HttpMatch> {
    fields.map(node, path)?;
    let mut decoded = HttpMatch::everything();
    if let Some(p) = node.get("path").filter(|n| !n.is_null()) {
        let p_path = path.key("path");
        fields.map(p, &p_path)?;
        decoded.path_type =
            enum_field(p, "type", &p_path, PATH_TYPES, PathType::PathPrefix, fields)?;
        let value = fields.opt_str(p, "value", &p_path).unwrap_or("/");
        if decoded.path_type != PathType::RegularExpression && !value.starts_with('/') {
            let span = p.get("value").map_or(p.span, |n| n.span);
            fields.invalid(
                span,
                format!("`{p_path}.value` must be an absolute path and start with '/' when type is {}, found `{value}`", decoded.path_type.as_str()),
                "not an absolute path",
            );
            return None;
        }
        decoded.path = value.to_string();
    }
    decoded.method = match node.get("method").filter(|n| !n.is_null()) {
        Some(_) => {
            let methods: (&[&str], fn(&'static str) -> &'static str) = (HTTP_METHODS, |m| m);
            Some(enum_field(node, "method", path, methods, "GET", fields)?.to_string())
        }
        None => None,
    };
    decoded.headers = value_matches(node, "headers", path, fields);
    decoded.query = value_matches(node, "queryParams", path, fields);
    Some(decoded)
}

/// Decodes one GRPCRoute match.
fn grpc_match(node: &Node, path: &FieldPath<'_>, fields: &mut Fields) -> Option<GrpcMatch> {
    fields.map(node, path)?;
    let mut decoded = GrpcMatch {
        method_type: ValueType::Exact,
        service: None,
        method: None,
        headers: value_matches(node, "headers", path, fields),
    };
    if let Some(m) = node.get("method").filter(|n| !n.is_null()) {
        let m_path = path.key("method");
        fields.map(m, &m_path)?;
        decoded.method_type =
            enum_field(m, "type", &m_path, VALUE_TYPES, ValueType::Exact, fields)?;
        decoded.service = fields.opt_str(m, "service", &m_path).map(str::to_string);
        decoded.method = fields.opt_str(m, "method", &m_path).map(str::to_string);
    }
    Some(decoded)
}

/// Decodes a rule's `matches`, applying the CRD defaults.
pub fn decode(rule: &Node, grpc: bool, path: &FieldPath<'_>, fields: &mut Fields) -> RuleMatches {
    let list = rule.get("matches").filter(|n| !n.is_null());
    let list_path = path.key("matches");
    let items = match list {
        Some(list) => fields.seq(list, &list_path).unwrap_or_default(),
        None => &[],
    };
    if grpc {
        RuleMatches::Grpc(
            items
                .iter()
                .enumerate()
                .filter_map(|(i, m)| grpc_match(m, &list_path.index(i), fields))
                .collect(),
        )
    } else if items.is_empty() {
        RuleMatches::Http(vec![HttpMatch::everything()])
    } else {
        RuleMatches::Http(
            items
                .iter()
                .enumerate()
                .filter_map(|(i, m)| http_match(m, &list_path.index(i), fields))
                .collect(),
        )
    }
}

/// The matches of every rule of `route`, decoded from its object (rules in order; an HTTPRoute
/// without `rules` has its CRD default, one rule matching everything).
pub fn of_route(
    model: &crate::model::Model,
    route: &crate::model::gateway::Route,
) -> Vec<RuleMatches> {
    let grpc = route.kind == crate::model::gateway::RouteKind::Grpc;
    let object = &model.objects[route.object as usize];
    let mut fields = Fields::for_object(object);
    let root = FieldPath::ROOT;
    let spec_path = root.key("spec");
    let rules_path = spec_path.key("rules");
    let tree = model.tree_once(object);
    let rules = tree
        .get_path(&["spec", "rules"])
        .and_then(Node::as_seq)
        .unwrap_or_default();
    if rules.is_empty() && !grpc {
        return vec![RuleMatches::Http(vec![HttpMatch::everything()])];
    }
    rules
        .iter()
        .enumerate()
        .filter(|(_, rule)| rule.as_map().is_some())
        .map(|(i, rule)| decode(rule, grpc, &rules_path.index(i), &mut fields))
        .collect()
}
