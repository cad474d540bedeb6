//! The three scopes of one rule key combined (docs/families.md §2.5 step 3).
//!
//! kgateway writes each scope's merged value to a different Envoy level — the route, the virtual
//! host (listener), the route configuration (Gateway) — and never merges them itself; Envoy
//! resolves them, and each filter does so its own way. So this is not a merge strategy but a
//! table of Envoy behaviours, one mechanism per key:
//!
//! - route action fields fill what is still unset (`timeouts` per sub-field);
//! - most filters read only the most specific per-route config, whole;
//! - `cors` reads every level attribute by attribute;
//! - provider filters (`extAuth`, ...) run for every scope that names them, and a `disable`
//!   anywhere switches the field off;
//! - header mutations run at every level, route first, so the least specific `set` wins;
//! - compression is enabled or disabled per codec.
//!
//! Origins list the contributing scopes' origins, most specific first; a value only one scope
//! contributed to is that scope's value verbatim. Facts lint needs come back as [`ScopeNote`]s.

use super::contribution::{
    Contribution, ProviderId, entries, entry, is_set, join_origins, map_node, seq_node,
};
use crate::yaml::{Entry, Node, Value};

/// Where kgateway installs a TrafficPolicy value, most specific first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// The Envoy route (route policies, merged over the delegation chain).
    Route,
    /// The virtual host (policies of an HTTP listener).
    Listener,
    /// The route configuration (whole-Gateway policies, and those of an HTTPS listener).
    Gateway,
}

impl Scope {
    /// Lower-case name for output.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Route => "route",
            Scope::Listener => "listener",
            Scope::Gateway => "Gateway",
        }
    }
}

/// The half of `headerModifiers` a note is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    /// `request`.
    Request,
    /// `response`.
    Response,
}

impl Direction {
    /// The field name.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Request => "request",
            Direction::Response => "response",
        }
    }
}

/// A fact about how the scopes combined that lint reports.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ScopeNote {
    /// A listener or Gateway scope's `disable` switches off the providers the route scope names
    /// (lint `gateway-disables-route-provider`).
    DisablesRouteProviders {
        /// The scope whose `disable` is the value.
        scope: Scope,
        /// The route scope's providers, in order.
        providers: Vec<ProviderId>,
    },
    /// A header `set` at two scopes to different values ends with the less specific scope's
    /// value (lint `gateway-header-set-wins`).
    HeaderSetWins {
        /// Request or response headers.
        direction: Direction,
        /// The header, as the winning scope writes it.
        header: String,
        /// The least specific scope setting it: its value is the one that stays.
        winner: Scope,
        /// The most specific scope setting it.
        over: Scope,
    },
}

/// The effective value of one key on a path, and what lint should know.
#[derive(Clone, Debug)]
pub struct Combined {
    /// The effective value; `None` when no scope sets the key.
    pub result: Option<Contribution>,
    /// Facts for lint.
    pub notes: Vec<ScopeNote>,
}

/// How Envoy resolves a key across the three levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mechanism {
    /// Route action field, sub-field by sub-field (`timeouts`).
    FillUnsetFields,
    /// Route action field, whole (`retry`, `internalRedirect`), or a filter reading the most
    /// specific config: the most specific scope's value.
    MostSpecific,
    /// The cors filter, attribute by attribute.
    Cors,
    /// One filter per provider; whether a `disable` value switches the whole field off.
    Providers { disable: bool },
    /// header_mutation at every level.
    HeaderModifiers,
    /// One filter per codec.
    Compression,
    /// Only HTTPRoute/GRPCRoute targets may set it.
    RouteOnly,
}

/// The mechanism of `key`; any key not in the table is most specific, whole.
fn mechanism(key: &str) -> Mechanism {
    match key {
        "timeouts" => Mechanism::FillUnsetFields,
        "cors" => Mechanism::Cors,
        "extAuth" | "extProc" | "jwtAuth" => Mechanism::Providers { disable: true },
        "oauth2" | "rateLimit.global" => Mechanism::Providers { disable: false },
        "headerModifiers" => Mechanism::HeaderModifiers,
        "compression.responseCompression" | "compression.requestDecompression" => {
            Mechanism::Compression
        }
        "autoHostRewrite" | "urlRewrite" | "tracing" | "statPrefix" => Mechanism::RouteOnly,
        _ => Mechanism::MostSpecific,
    }
}

/// The scopes that set the key, most specific first.
type Set<'c> = [(Scope, &'c Contribution)];

/// Combines the route, listener and Gateway values of `key` (each already merged within its
/// scope) the way Envoy resolves what kgateway writes.
pub fn combine_scopes(
    key: &str,
    route: Option<&Contribution>,
    listener: Option<&Contribution>,
    gateway: Option<&Contribution>,
) -> Combined {
    let all = [
        (Scope::Route, route),
        (Scope::Listener, listener),
        (Scope::Gateway, gateway),
    ];
    let set: Vec<(Scope, &Contribution)> = all
        .into_iter()
        .filter_map(|(scope, c)| c.filter(|c| is_set(Some(&c.value))).map(|c| (scope, c)))
        .collect();
    match mechanism(key) {
        Mechanism::MostSpecific => plain(most_specific(&set)),
        Mechanism::RouteOnly => plain(most_specific(&set).filter(|_| set[0].0 == Scope::Route)),
        Mechanism::FillUnsetFields => plain(fill_fields(&set)),
        Mechanism::Cors => plain(cors(&set)),
        Mechanism::Providers { disable } => providers(&set, disable),
        Mechanism::HeaderModifiers => header_modifiers(&set),
        Mechanism::Compression => plain(compression(&set)),
    }
}

/// The most specific scope's value, whole.
fn most_specific(set: &Set<'_>) -> Option<Contribution> {
    set.first().map(|s| s.1.clone())
}

/// A result without notes.
fn plain(result: Option<Contribution>) -> Combined {
    Combined {
        result,
        notes: Vec::new(),
    }
}

/// The origins of the scopes flagged in `used`, most specific first.
fn origins_of(set: &Set<'_>, used: &[bool]) -> Vec<u32> {
    let givers = set.iter().zip(used).filter(|(_, u)| **u);
    givers.fold(Vec::new(), |origins, (s, _)| {
        join_origins(&origins, &s.1.origins)
    })
}

/// The result contributed by the scopes flagged in `used`: the one contributor's value verbatim,
/// or `build` given their origins. `None` when nothing contributed.
fn from_contributors(
    set: &Set<'_>,
    used: &[bool],
    build: impl FnOnce(Vec<u32>) -> Contribution,
) -> Option<Contribution> {
    match used.iter().filter(|u| **u).count() {
        0 => None,
        1 => used.iter().position(|u| *u).map(|i| set[i].1.clone()),
        _ => Some(build(origins_of(set, used))),
    }
}

/// A built mapping value, for [`from_contributors`].
fn built_map(entries: Vec<Entry>) -> impl FnOnce(Vec<u32>) -> Contribution {
    move |origins| Contribution::built(map_node(entries), origins)
}

/// `timeouts`: each sub-field from the most specific scope that sets it.
fn fill_fields(set: &Set<'_>) -> Option<Contribution> {
    if set.iter().any(|s| s.1.value.as_map().is_none()) {
        return most_specific(set);
    }
    let mut fields: Vec<Entry> = Vec::new();
    let mut used = vec![false; set.len()];
    for (i, (_, c)) in set.iter().enumerate() {
        for e in entries(&c.value) {
            if is_set(Some(&e.value)) && !fields.iter().any(|f| f.key.text == e.key.text) {
                fields.push(e.clone());
                used[i] = true;
            }
        }
    }
    from_contributors(set, &used, built_map(fields)).or_else(|| most_specific(set))
}

/// The cors attributes the filter reads from any level.
const CORS_ATTRIBUTES: [&str; 5] = [
    "allowOrigins",
    "allowMethods",
    "allowHeaders",
    "exposeHeaders",
    "allowCredentials",
];

/// `cors`: the most specific scope with a `cors` decides; its `disable` turns CORS off; otherwise
/// each attribute from the most specific scope that sets it (`allowCredentials` only when true),
/// `maxAge` (and any other field) from the deciding scope. Origins: the deciding scope, then each
/// scope that gave an attribute.
fn cors(set: &Set<'_>) -> Option<Contribution> {
    let (_, deciding) = *set.first()?;
    if deciding.is_disable() || set.iter().any(|s| s.1.value.as_map().is_none()) {
        return Some(deciding.clone());
    }
    let mut used = vec![false; set.len()];
    used[0] = true;
    let mut out: Vec<Entry> = Vec::new();
    for attribute in CORS_ATTRIBUTES {
        let giver = set
            .iter()
            .position(|(_, c)| !c.is_disable() && gives(&c.value, attribute));
        if let Some(i) = giver {
            out.extend(set[i].1.value.entry(attribute).cloned());
            used[i] = true;
        }
    }
    let own = entries(&deciding.value)
        .iter()
        .filter(|e| !CORS_ATTRIBUTES.contains(&&*e.key.text));
    out.extend(own.filter(|e| is_set(Some(&e.value))).cloned());
    from_contributors(set, &used, built_map(out))
}

/// Whether a cors value gives `attribute` (`allowCredentials` only when true).
fn gives(cors: &Node, attribute: &str) -> bool {
    match cors.get(attribute) {
        Some(node) if attribute == "allowCredentials" => matches!(node.value, Value::Bool(true)),
        node => is_set(node),
    }
}

/// Provider fields: a `disable` at any scope (when the field has one) is the value, the most
/// specific such; otherwise every scope's providers, route first, each provider once at the most
/// specific scope naming it.
fn providers(set: &Set<'_>, has_disable: bool) -> Combined {
    let disabling = set.iter().position(|s| has_disable && s.1.is_disable());
    if let Some(i) = disabling {
        let (scope, value) = set[i];
        return Combined {
            result: Some(value.clone()),
            notes: disabled_route_providers(set, scope).into_iter().collect(),
        };
    }
    let mut items: Vec<(ProviderId, Node)> = Vec::new();
    let mut used = vec![false; set.len()];
    for (i, (_, c)) in set.iter().enumerate() {
        for (id, node) in c.provider_items() {
            if !items.iter().any(|(seen, _)| *seen == id) {
                items.push((id, node));
                used[i] = true;
            }
        }
    }
    let listed = |origins| Contribution::listed(items, origins);
    plain(from_contributors(set, &used, listed).or_else(|| most_specific(set)))
}

/// The note when a listener or Gateway `disable` switches off providers the route scope names.
fn disabled_route_providers(set: &Set<'_>, disabling: Scope) -> Option<ScopeNote> {
    let (scope, route) = *set.first()?;
    if disabling == Scope::Route || scope != Scope::Route {
        return None;
    }
    let providers: Vec<ProviderId> = route
        .provider_items()
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    (!providers.is_empty()).then_some(ScopeNote::DisablesRouteProviders {
        scope: disabling,
        providers,
    })
}

/// The header mutation lists, in the order Envoy applies them within one level.
const HEADER_LISTS: [&str; 3] = ["set", "add", "remove"];

/// `headerModifiers`: for `request` and `response`, each of `set`, `add`, `remove` concatenated
/// route, listener, Gateway (every level applies, most specific first).
fn header_modifiers(set: &Set<'_>) -> Combined {
    if set.len() < 2 || set.iter().any(|s| s.1.value.as_map().is_none()) {
        return plain(most_specific(set));
    }
    let mut out: Vec<Entry> = Vec::new();
    let mut notes = Vec::new();
    let mut used = vec![false; set.len()];
    for direction in [Direction::Request, Direction::Response] {
        let sections: Vec<(usize, &Node)> = set
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.1.value.get(direction.as_str()).map(|n| (i, n)))
            .filter(|(_, n)| n.as_map().is_some())
            .collect();
        let lists: Vec<Entry> = HEADER_LISTS
            .iter()
            .filter_map(|list| concat_list(&sections, list, &mut used))
            .collect();
        if !lists.is_empty() {
            out.push(entry(direction.as_str(), map_node(lists)));
        }
        notes.extend(header_set_notes(set, &sections, direction));
    }
    Combined {
        result: from_contributors(set, &used, built_map(out)).or_else(|| most_specific(set)),
        notes,
    }
}

/// `list` of every section concatenated, flagging the scopes that gave items; `None` when no
/// section has the list.
fn concat_list(sections: &[(usize, &Node)], list: &str, used: &mut [bool]) -> Option<Entry> {
    let mut items: Vec<Node> = Vec::new();
    let mut present = false;
    for &(i, section) in sections {
        if let Some(seq) = section.get(list).and_then(Node::as_seq) {
            present = true;
            used[i] |= !seq.is_empty();
            items.extend(seq.iter().cloned());
        }
    }
    present.then(|| entry(list, seq_node(items)))
}

/// One `set` item of one scope.
struct HeaderSet<'n> {
    /// The name in lower case (header names are case-insensitive).
    key: String,
    /// The name as written.
    name: &'n str,
    value: Option<&'n Node>,
    scope: Scope,
}

/// Headers `set` at two or more scopes to different values: the least specific scope's value
/// stays.
fn header_set_notes(
    set: &Set<'_>,
    sections: &[(usize, &Node)],
    direction: Direction,
) -> Vec<ScopeNote> {
    let mut sets: Vec<HeaderSet<'_>> = Vec::new();
    for &(i, section) in sections {
        for item in section.get("set").and_then(Node::as_seq).unwrap_or(&[]) {
            if let Some(name) = item.get("name").and_then(Node::as_str) {
                let (key, value, scope) = (name.to_ascii_lowercase(), item.get("value"), set[i].0);
                sets.push(HeaderSet {
                    key,
                    name,
                    value,
                    scope,
                });
            }
        }
    }
    let mut notes = Vec::new();
    for (n, first) in sets.iter().enumerate() {
        if sets[..n].iter().any(|s| s.key == first.key) {
            continue;
        }
        let same: Vec<&HeaderSet<'_>> = sets.iter().filter(|s| s.key == first.key).collect();
        let last = same[same.len() - 1];
        let differs = same.iter().any(|s| !same_value(s.value, last.value));
        if last.scope != first.scope && differs {
            notes.push(ScopeNote::HeaderSetWins {
                direction,
                header: last.name.to_owned(),
                winner: last.scope,
                over: first.scope,
            });
        }
    }
    notes
}

/// Structural equality of optional values.
fn same_value(x: Option<&Node>, y: Option<&Node>) -> bool {
    match (x, y) {
        (Some(x), Some(y)) => x.same_value(y),
        (x, y) => x.is_none() && y.is_none(),
    }
}

/// Compression: from the route scope outwards, the codecs of enabling values (`libraries`,
/// missing or empty = `[Gzip]`) until the first `disable`, each once, in first-seen order; the
/// `disable` itself when it is the most specific value.
fn compression(set: &Set<'_>) -> Option<Contribution> {
    let (_, first) = *set.first()?;
    if first.is_disable() {
        return Some(first.clone());
    }
    let mut codecs: Vec<Node> = Vec::new();
    let mut used = vec![false; set.len()];
    for (i, (_, c)) in set.iter().enumerate() {
        if c.is_disable() {
            break;
        }
        for codec in libraries(&c.value) {
            if !codecs.iter().any(|seen| seen.same_value(&codec)) {
                codecs.push(codec);
                used[i] = true;
            }
        }
    }
    let libraries = vec![entry("libraries", seq_node(codecs))];
    from_contributors(set, &used, built_map(libraries))
}

/// The codecs a compression value enables.
fn libraries(value: &Node) -> Vec<Node> {
    match value.get("libraries").and_then(Node::as_seq) {
        Some(items) if !items.is_empty() => items.to_vec(),
        _ => vec![Node::synthetic(Value::String("Gzip".into()))],
    }
}
