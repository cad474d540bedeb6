//! Manifest sets built from arbitrary bytes, for the property tests and the structure-aware
//! fuzz target.
//!
//! Random YAML rarely gets past the reader, and random valid YAML rarely names anything that
//! exists: a policy attaches only when its target's kind, name, namespace and section all match
//! an object of the same set. So the generator draws every name from what it has already made —
//! namespaces, then Gateways and listeners, then routes whose parentRefs name those Gateways and
//! rules, then policies of every built-in family whose targets name those objects — and spends
//! the bytes only on choices. Every object is valid for its CRD, so validation keeps it; a few
//! targets are deliberately missing (`nope`), so "attaches to nothing" is covered too.
//!
//! The bytes are read front to back; once they run out every choice is the first one, so any
//! byte string (the empty one included) gives a small, valid set.

use std::fmt::Write as _;

/// One generated manifest set.
#[derive(Clone, Debug, Default)]
pub struct Manifests {
    /// The YAML documents, one object each, in generation order.
    pub documents: Vec<String>,
    /// Every policy: its locator and its target.
    pub policies: Vec<(String, Target)>,
    /// The Kuadrant RateLimitPolicies, for reference models (same order as in `documents`).
    pub rate_limits: Vec<RateLimitSpec>,
}

/// What a generated RateLimitPolicy says, in the terms of the fold.
#[derive(Clone, Debug)]
pub struct RateLimitSpec {
    /// `namespace/name`.
    pub name: String,
    /// Its locator (`ratelimitpolicy.kuadrant.io:ns/name`).
    pub locator: String,
    /// `Gateway` or `HTTPRoute`.
    pub target_kind: &'static str,
    /// Target name (in the policy's namespace).
    pub target_name: String,
    /// Listener (Gateway) or rule (HTTPRoute) name.
    pub section: Option<String>,
    /// `metadata.creationTimestamp`, if written.
    pub created: Option<&'static str>,
    /// `bare`, `defaults` or `overrides`.
    pub block: &'static str,
    /// `atomic` or `merge` (the CRD default `atomic` when not written).
    pub strategy: &'static str,
    /// The rule keys it declares.
    pub keys: Vec<String>,
}

/// Reads choices from bytes.
struct Choices<'a> {
    bytes: &'a [u8],
}

impl Choices<'_> {
    fn byte(&mut self) -> u8 {
        match self.bytes.split_first() {
            Some((b, rest)) => {
                self.bytes = rest;
                *b
            }
            None => 0,
        }
    }

    /// A number in `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    /// A number in `low..=high`.
    fn between(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high - low + 1)
    }

    fn chance(&mut self, in_four: usize) -> bool {
        self.below(4) < in_four
    }

    fn pick<'t, T>(&mut self, items: &'t [T]) -> &'t T {
        &items[self.below(items.len())]
    }
}

const NAMESPACES: &[&str] = &["infra", "app", "web"];
const LISTENERS: &[(&str, u16)] = &[("http", 80), ("admin", 8080), ("api", 9090)];
const HOSTNAMES: &[Option<&str>] = &[None, Some("*.example.com"), Some("a.example.com")];
const TIMESTAMPS: &[Option<&str>] = &[
    None,
    Some("2025-01-01T00:00:00Z"),
    Some("2025-01-02T00:00:00Z"),
];
const LIMIT_NAMES: &[&str] = &["a", "b", "c"];
const PREDICATES: &[&str] = &[
    "request.method == 'GET'",
    "request.path.startsWith('/p')",
    "request.headers['x-tier'] == 'gold'",
];

fn namespace(c: &mut Choices<'_>) -> &'static str {
    NAMESPACES[c.below(NAMESPACES.len())]
}

struct Gateway {
    namespace: &'static str,
    name: String,
    listeners: Vec<&'static str>,
}

struct Route {
    namespace: &'static str,
    name: String,
    rules: Vec<Option<String>>,
}

/// A manifest set from `bytes`.
pub fn manifests(bytes: &[u8]) -> Manifests {
    let mut c = Choices { bytes };
    let mut out = Manifests::default();
    for ns in NAMESPACES {
        out.documents.push(format!(
            "apiVersion: v1\nkind: Namespace\nmetadata: {{name: {ns}, labels: {{team: {ns}}}}}\n"
        ));
    }
    let gateways: Vec<Gateway> = (0..c.between(1, 2)).map(|i| gateway(&mut c, i)).collect();
    for g in &gateways {
        out.documents.push(gateway_yaml(&mut c, g));
    }
    let routes: Vec<Route> = (0..c.between(1, 3)).map(|i| route(&mut c, i)).collect();
    for r in &routes {
        out.documents.push(route_yaml(&mut c, r, &gateways));
    }
    for i in 0..c.between(1, 6) {
        let target = target(&mut c, &gateways, &routes);
        let (locator, document) = match c.below(4) {
            0 | 1 => rate_limit_policy(&mut c, i, &target, &mut out),
            2 => auth_policy(&mut c, i, &target),
            _ => gateway_policy(&mut c, i, &target),
        };
        out.documents.push(document);
        out.policies.push((locator, target));
    }
    out
}

fn gateway(c: &mut Choices<'_>, i: usize) -> Gateway {
    Gateway {
        namespace: namespace(c),
        name: format!("gw{i}"),
        listeners: LISTENERS[..c.between(1, LISTENERS.len())]
            .iter()
            .map(|(name, _)| *name)
            .collect(),
    }
}

fn gateway_yaml(c: &mut Choices<'_>, g: &Gateway) -> String {
    let mut text = format!(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {{name: {}, namespace: {}}}\nspec:\n  gatewayClassName: class{}\n  listeners:\n",
        g.name,
        g.namespace,
        c.below(2)
    );
    for (name, port) in LISTENERS.iter().filter(|(n, _)| g.listeners.contains(n)) {
        let hostname = c
            .pick(HOSTNAMES)
            .map_or(String::new(), |h| format!(", hostname: '{h}'"));
        let _ = writeln!(
            text,
            "  - {{name: {name}, protocol: HTTP, port: {port}{hostname}, allowedRoutes: {{namespaces: {{from: All}}}}}}"
        );
    }
    text
}

fn route(c: &mut Choices<'_>, i: usize) -> Route {
    Route {
        namespace: namespace(c),
        name: format!("r{i}"),
        rules: (0..c.between(1, 3))
            .map(|j| c.chance(3).then(|| format!("rule{j}")))
            .collect(),
    }
}

fn route_yaml(c: &mut Choices<'_>, r: &Route, gateways: &[Gateway]) -> String {
    let mut parents: Vec<String> = Vec::new();
    let mut used: Vec<&str> = Vec::new();
    for _ in 0..c.between(1, 2) {
        let g = c.pick(gateways);
        // Two refs to one parent need distinct sections (a CRD rule): one ref per Gateway.
        if used.contains(&g.name.as_str()) {
            continue;
        }
        used.push(&g.name);
        let section = if c.chance(1) {
            format!(", sectionName: {}", c.pick(&g.listeners))
        } else {
            String::new()
        };
        parents.push(format!(
            "{{name: {}, namespace: {}{section}}}",
            g.name, g.namespace
        ));
    }
    let hostnames = if c.chance(1) {
        "  hostnames: [a.example.com]\n"
    } else {
        ""
    };
    let mut text = format!(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: {}, namespace: {}}}\nspec:\n  parentRefs: [{}]\n{hostnames}  rules:\n",
        r.name,
        r.namespace,
        parents.join(", ")
    );
    for (j, rule) in r.rules.iter().enumerate() {
        let name = rule
            .as_ref()
            .map_or(String::new(), |n| format!("name: {n}, "));
        let _ = writeln!(
            text,
            "  - {{{name}matches: [{{path: {{type: PathPrefix, value: /p{j}}}}}], backendRefs: [{{name: svc, port: 80}}]}}"
        );
    }
    text
}

/// A policy target (in the policy's namespace).
#[derive(Clone, Debug)]
pub struct Target {
    /// The policy's (and the target's) namespace.
    pub namespace: &'static str,
    /// `Gateway` or `HTTPRoute`.
    pub kind: &'static str,
    /// The target's name (`nope` names nothing).
    pub name: String,
    /// Listener or rule name.
    pub section: Option<String>,
}

fn target(c: &mut Choices<'_>, gateways: &[Gateway], routes: &[Route]) -> Target {
    match c.below(8) {
        0 => Target {
            namespace: namespace(c),
            kind: "HTTPRoute",
            name: "nope".into(),
            section: None,
        },
        1..=3 => {
            let g = c.pick(gateways);
            Target {
                namespace: g.namespace,
                kind: "Gateway",
                name: g.name.clone(),
                section: c.chance(1).then(|| c.pick(&g.listeners).to_string()),
            }
        }
        _ => {
            let r = c.pick(routes);
            let section = match c.pick(&r.rules) {
                Some(name) if c.chance(2) => Some(name.clone()),
                _ => None,
            };
            Target {
                namespace: r.namespace,
                kind: "HTTPRoute",
                name: r.name.clone(),
                section,
            }
        }
    }
}

/// `targetRef: {...}` (Kuadrant) or `targetRefs: [{...}]` (the other families).
fn target_ref(t: &Target) -> String {
    let section = t
        .section
        .as_ref()
        .map_or(String::new(), |s| format!(", sectionName: {s}"));
    format!(
        "{{group: gateway.networking.k8s.io, kind: {}, name: {}{section}}}",
        t.kind, t.name
    )
}

fn metadata(kind_prefix: &str, i: usize, t: &Target, created: Option<&str>) -> String {
    let created = created.map_or(String::new(), |ts| format!(", creationTimestamp: '{ts}'"));
    format!(
        "metadata: {{name: {kind_prefix}{i}, namespace: {}{created}}}\n",
        t.namespace
    )
}

/// A block header (`defaults:`/`overrides:` with an optional strategy) and the indentation of
/// its rule fields; bare rules sit directly under `spec`.
fn block(c: &mut Choices<'_>) -> (&'static str, &'static str, Option<&'static str>) {
    let block = *c.pick(&["bare", "defaults", "overrides"]);
    let strategy = match block {
        "bare" => None,
        _ => *c.pick(&[None, Some("atomic"), Some("merge")]),
    };
    let indent = if block == "bare" { "  " } else { "    " };
    (block, indent, strategy)
}

fn block_header(block: &str, strategy: Option<&str>) -> String {
    match (block, strategy) {
        ("bare", _) => String::new(),
        (b, Some(s)) => format!("  {b}:\n    strategy: {s}\n"),
        (b, None) => format!("  {b}:\n"),
    }
}

fn rate_limit_policy(
    c: &mut Choices<'_>,
    i: usize,
    t: &Target,
    out: &mut Manifests,
) -> (String, String) {
    let created = *c.pick(TIMESTAMPS);
    let (block, indent, strategy) = block(c);
    let mut text = format!(
        "apiVersion: kuadrant.io/v1\nkind: RateLimitPolicy\n{}spec:\n  targetRef: {}\n{}",
        metadata("rlp", i, t, created),
        target_ref(t),
        block_header(block, strategy)
    );
    let mut keys = Vec::new();
    if c.chance(1) {
        let _ = writeln!(
            text,
            "{indent}when: [{{predicate: \"{}\"}}]",
            c.pick(PREDICATES)
        );
        keys.push("###_TOP_LEVEL_PREDICATES_###".to_string());
    }
    let _ = writeln!(text, "{indent}limits:");
    let first = c.below(LIMIT_NAMES.len());
    for name in LIMIT_NAMES.iter().cycle().skip(first).take(c.between(1, 2)) {
        let when = if c.chance(1) {
            format!(", when: [{{predicate: \"{}\"}}]", c.pick(PREDICATES))
        } else {
            String::new()
        };
        let _ = writeln!(
            text,
            "{indent}  {name}: {{rates: [{{limit: {}, window: 1m}}]{when}}}",
            c.between(1, 100)
        );
        keys.push(name.to_string());
    }
    keys.sort();
    let locator = format!("ratelimitpolicy.kuadrant.io:{}/rlp{i}", t.namespace);
    out.rate_limits.push(RateLimitSpec {
        name: format!("{}/rlp{i}", t.namespace),
        locator: locator.clone(),
        target_kind: t.kind,
        target_name: t.name.clone(),
        section: t.section.clone(),
        created,
        block,
        strategy: strategy.unwrap_or("atomic"),
        keys,
    });
    (locator, text)
}

fn auth_policy(c: &mut Choices<'_>, i: usize, t: &Target) -> (String, String) {
    let (block, indent, strategy) = block(c);
    let mut text = format!(
        "apiVersion: kuadrant.io/v1\nkind: AuthPolicy\n{}spec:\n  targetRef: {}\n{}{indent}rules:\n",
        metadata("auth", i, t, *c.pick(TIMESTAMPS)),
        target_ref(t),
        block_header(block, strategy)
    );
    let _ = writeln!(
        text,
        "{indent}  authentication:\n{indent}    {}: {{plain: {{selector: s{i}}}}}",
        c.pick(LIMIT_NAMES)
    );
    if c.chance(2) {
        let _ = writeln!(
            text,
            "{indent}  authorization:\n{indent}    {}: {{opa: {{rego: \"allow = true\"}}}}",
            c.pick(LIMIT_NAMES)
        );
    }
    if block == "bare" && c.chance(1) {
        let _ = writeln!(text, "  unset: [authentication#{}]", c.pick(LIMIT_NAMES));
    }
    (
        format!("authpolicy.kuadrant.io:{}/auth{i}", t.namespace),
        text,
    )
}

/// A kgateway TrafficPolicy or an Envoy Gateway BackendTrafficPolicy.
fn gateway_policy(c: &mut Choices<'_>, i: usize, t: &Target) -> (String, String) {
    let created = *c.pick(TIMESTAMPS);
    if c.chance(2) {
        let mut text = format!(
            "apiVersion: gateway.kgateway.dev/v1alpha1\nkind: TrafficPolicy\n{}spec:\n  targetRefs: [{}]\n",
            metadata("tp", i, t, created),
            target_ref(t)
        );
        let _ = writeln!(text, "  timeouts: {{request: {}s}}", c.between(1, 60));
        if c.chance(2) {
            let _ = writeln!(
                text,
                "  rateLimit: {{local: {{tokenBucket: {{maxTokens: {0}, tokensPerFill: {0}, fillInterval: 1s}}}}}}",
                c.between(1, 100)
            );
        }
        let locator = format!("trafficpolicy.gateway.kgateway.dev:{}/tp{i}", t.namespace);
        return (locator, text);
    }
    let merge = if t.kind == "HTTPRoute" && c.chance(2) {
        format!(
            "  mergeType: {}\n",
            c.pick(&["StrategicMerge", "JSONMerge"])
        )
    } else {
        String::new()
    };
    let mut text = format!(
        "apiVersion: gateway.envoyproxy.io/v1alpha1\nkind: BackendTrafficPolicy\n{}spec:\n  targetRefs: [{}]\n{merge}",
        metadata("btp", i, t, created),
        target_ref(t)
    );
    let _ = writeln!(
        text,
        "  timeout: {{tcp: {{connectTimeout: {}s}}}}",
        c.between(1, 30)
    );
    if c.chance(2) {
        let _ = writeln!(
            text,
            "  compression: [{{type: {}}}]",
            c.pick(&["Gzip", "Brotli"])
        );
    }
    let locator = format!(
        "backendtrafficpolicy.gateway.envoyproxy.io:{}/btp{i}",
        t.namespace
    );
    (locator, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_bytes_give_a_set_with_gateways_routes_and_policies() {
        for bytes in [
            &b""[..],
            b"\xff\xff\xff\xff",
            b"\x01\x02\x03\x04\x05\x06\x07",
        ] {
            let set = manifests(bytes);
            let count = |kind: &str| {
                set.documents
                    .iter()
                    .filter(|d| d.contains(&format!("\nkind: {kind}\n")))
                    .count()
            };
            assert!(count("Gateway") >= 1);
            assert!(count("HTTPRoute") >= 1);
            assert!(set.documents.len() > 5, "{set:?}");
        }
    }
}
