//! Report filters: `--kind`, `-n/--namespace`, `--gateway`, `--route`, `--policy`.
//!
//! Filters narrow what is printed, never what is evaluated: an effective policy is always
//! computed from every input object, then shown or not.

use crate::model::Model;
use crate::policy::owned::{OwnedItem, OwnedPaths};
use crate::policy::{PolicyKind, Registry};
use crate::topology::{Path, Topology};

/// What to show.
#[derive(Clone, Debug, Default)]
pub struct Filters {
    /// Policy kinds to show (empty = all).
    pub kinds: Vec<&'static PolicyKind>,
    /// Show paths whose route or Gateway is in this namespace (policies in it, for
    /// policy-centred reports).
    pub namespace: Option<String>,
    /// `[ns/]name` of a Gateway.
    pub gateway: Option<String>,
    /// `[ns/]name` of a route.
    pub route: Option<String>,
    /// Policies given with `--policy` (indices into `Model::policies`).
    pub policies: Option<Vec<u32>>,
    /// The topology's delegation chains (`Topology::chains`), so that `--route` also shows the
    /// paths delegated through a route.
    pub chains: Vec<Vec<(u32, u32)>>,
    /// Filters of the hierarchies families build themselves (`--mesh`, `--dataplane`): flag
    /// and pattern. Any of them hides every Gateway API path, as `--gateway` and `--route`
    /// hide every path of those hierarchies.
    pub owned: Vec<(&'static str, String)>,
}

/// Parses `--kind` values (`AuthPolicy`, `authpolicy`, `ratelimitpolicies`,
/// `<Kind>.<group>`, ...).
pub fn parse_kinds(
    registry: &Registry,
    values: &[String],
) -> Result<Vec<&'static PolicyKind>, String> {
    values
        .iter()
        .flat_map(|v| v.split(','))
        .filter(|v| !v.trim().is_empty())
        .map(|v| {
            registry.find_by_name(v.trim()).ok_or_else(|| {
                let known: Vec<&str> = registry.kinds().map(|k| k.kind).collect();
                let hint = crate::suggest::did_you_mean(v.trim(), known.iter().copied());
                format!(
                    "unknown policy kind `{v}`{hint} (known: {})",
                    known.join(", ")
                )
            })
        })
        .collect()
}

/// Resolves a policy reference: `name`, `ns/name`, `Kind/ns/name`, or a locator
/// (`<kind>.<group>:ns/name`). `ns/name` may match several kinds, and a bare `name`
/// several namespaces too: a filter shows them all, `reach` asks for one.
pub fn resolve_policy_ref(model: &Model, reference: &str) -> Result<Vec<u32>, String> {
    let matches: Vec<u32> = if let Some((prefix, nn)) = reference.split_once(':') {
        model
            .policies
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                p.kind.locator_prefix().eq_ignore_ascii_case(prefix) && p.namespaced_name() == nn
            })
            .map(|(i, _)| i as u32)
            .collect()
    } else {
        let parts: Vec<&str> = reference.split('/').collect();
        let (kind, ns, name) = match parts.as_slice() {
            // A bare name, in whatever namespace: the caller says when it names several.
            [name] if !name.is_empty() => (None, None, *name),
            [ns, name] => (None, Some(*ns), *name),
            [kind, ns, name] => {
                let kind = model
                    .registry
                    .find_by_name(kind)
                    .ok_or_else(|| format!("unknown policy kind `{kind}`"))?;
                (Some(kind), Some(*ns), *name)
            }
            _ => {
                // The example locator is of the first kind the registry reads.
                let example = model
                    .registry
                    .kinds()
                    .next()
                    .map_or_else(|| "kind.group".to_string(), |k| k.locator_prefix());
                return Err(format!(
                    "`{reference}` is not a policy reference; use name, ns/name, Kind/ns/name or a locator like {example}:ns/name"
                ));
            }
        };
        model
            .policies
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                ns.is_none_or(|ns| p.namespace == ns)
                    && p.name == name
                    && kind.is_none_or(|k| std::ptr::eq(k, p.kind))
            })
            .map(|(i, _)| i as u32)
            .collect()
    };
    if matches.is_empty() {
        let bare = !reference.contains(['/', ':']);
        let candidates: Vec<String> = model
            .policies
            .iter()
            .map(|p| match bare {
                true => p.name.to_string(),
                false => p.namespaced_name(),
            })
            .collect();
        let hint = crate::suggest::did_you_mean(reference, candidates.iter().map(String::as_str));
        return Err(format!("no policy matches `{reference}`{hint}"));
    }
    Ok(matches)
}

/// Whether `[ns/]name` names the object `namespace/name`.
pub fn matches_name(pattern: &str, namespace: &str, name: &str) -> bool {
    match pattern.split_once('/') {
        Some((ns, n)) => ns == namespace && n == name,
        None => pattern == name,
    }
}

/// A `--route` pattern without its `[Kind]` suffix (path ids write `ns/name[GRPCRoute]` for a
/// route sharing its namespace and name with a route of an earlier kind), and that kind.
pub fn route_pattern(pattern: &str) -> (&str, Option<&str>) {
    match pattern.strip_suffix(']').and_then(|p| p.rsplit_once('[')) {
        Some((name, kind)) => (name, Some(kind)),
        None => (pattern, None),
    }
}

/// Whether a `--route` pattern (`name`, `ns/name`, either with `[Kind]`) names `route`.
pub fn matches_route(pattern: &str, route: &crate::model::gateway::Route) -> bool {
    let (name, kind) = route_pattern(pattern);
    kind.is_none_or(|k| k == route.kind.as_str())
        && matches_name(name, &route.namespace, &route.name)
}

/// Whether `--kind` (`kinds`, empty for all) shows the kind at `index` in `registry`.
pub fn shows_kind_index(registry: &Registry, kinds: &[&PolicyKind], index: usize) -> bool {
    kinds.is_empty() || kinds.iter().any(|k| std::ptr::eq(*k, registry.kind(index)))
}

impl Filters {
    /// Whether a policy kind is shown.
    pub fn shows_kind(&self, kind: &PolicyKind) -> bool {
        self.kinds.is_empty() || self.kinds.iter().any(|k| std::ptr::eq(*k, kind))
    }

    /// Whether a path is shown (namespace, Gateway and route filters).
    pub fn shows_path(&self, model: &Model, path: &Path) -> bool {
        if !self.owned.is_empty() {
            return false;
        }
        let gateway = &model.gateways[path.gateway as usize];
        let route = &model.routes[path.route as usize];
        self.namespace
            .as_ref()
            .is_none_or(|ns| *ns == route.namespace || *ns == gateway.namespace)
            && self
                .gateway
                .as_ref()
                .is_none_or(|g| matches_name(g, &gateway.namespace, &gateway.name))
            && self.route.as_ref().is_none_or(|r| {
                let chain = self
                    .chains
                    .get(path.chain as usize)
                    .map_or(&[][..], Vec::as_slice);
                std::iter::once(route)
                    .chain(chain.iter().map(|&(c, _)| &model.routes[c as usize]))
                    .any(|route| matches_route(r, route))
            })
    }

    /// Whether a listener no route is attached to is shown (namespace and Gateway filters;
    /// `--route` shows none).
    pub fn shows_listener(&self, model: &Model, gateway: u32) -> bool {
        let gateway = &model.gateways[gateway as usize];
        self.route.is_none()
            && self.owned.is_empty()
            && self
                .namespace
                .as_ref()
                .is_none_or(|ns| *ns == gateway.namespace)
            && self
                .gateway
                .as_ref()
                .is_none_or(|g| matches_name(g, &gateway.namespace, &gateway.name))
    }

    /// Whether a path's ordered policy list passes `--policy`.
    pub fn shows_policies(&self, ordered: &[u32]) -> bool {
        self.policies
            .as_ref()
            .is_none_or(|wanted| ordered.iter().any(|p| wanted.contains(p)))
    }

    /// Whether an item of an owned hierarchy is shown: its kind, `--policy`, `-n` (the
    /// namespace of a `ns/name` segment), and the hierarchy's own filters; `--gateway` and
    /// `--route` show none, and a filter the hierarchy does not declare hides all of it.
    pub fn shows_owned(&self, paths: &OwnedPaths, item: &OwnedItem) -> bool {
        let in_namespace = |ns: &str| {
            item.segments
                .iter()
                .filter_map(|s| s.split_once('/'))
                .any(|(namespace, _)| namespace == ns)
        };
        self.gateway.is_none()
            && self.route.is_none()
            && self.shows_kind(item.kind)
            && self.namespace.as_deref().is_none_or(in_namespace)
            && self.shows_policies(&item.policies)
            && self.owned.iter().all(|(flag, pattern)| {
                paths.filters.iter().any(|f| {
                    f.flag == *flag
                        && item
                            .segments
                            .get(f.segment)
                            .is_some_and(|s| segment_matches(s, pattern))
                })
            })
    }

    /// Whether a policy passes the kind, namespace and `--policy` filters (policy-centred reports).
    pub fn shows_policy(&self, model: &Model, policy: u32) -> bool {
        let p = &model.policies[policy as usize];
        self.shows_kind(p.kind)
            && self.namespace.as_ref().is_none_or(|ns| *ns == p.namespace)
            && self
                .policies
                .as_ref()
                .is_none_or(|wanted| wanted.contains(&policy))
    }

    /// Paths shown, as indices into `topology.paths`.
    pub fn paths<'a>(
        &'a self,
        model: &'a Model,
        topology: &'a Topology,
    ) -> impl Iterator<Item = usize> + 'a {
        topology
            .paths
            .iter()
            .enumerate()
            .filter(|(_, p)| self.shows_path(model, p))
            .map(|(i, _)| i)
    }
}

/// At most this many names are listed when no name is close to a filter's value.
const NAMES_LISTED: usize = 8;

/// `--route cartt`, `--gateway publik`, `-n nope`: a filter naming no object of the input (on
/// none of `models`: the two sides of a diff) would show nothing and look like an answer.
/// Returns the usage error's message, with the nearest name (or the names there are).
/// Every command that filters paths calls it, so the message is the same everywhere.
pub fn unmatched(filters: &Filters, models: &[&Model]) -> Option<String> {
    let gateways = named(
        models,
        |m| &m.gateways,
        |g| (g.namespace.as_str(), g.name.as_str()),
    );
    let routes = named(
        models,
        |m| &m.routes,
        |r| (r.namespace.as_str(), r.name.as_str()),
    );
    for (flag, pattern, what, objects) in [
        ("--gateway", &filters.gateway, "Gateway", &gateways),
        ("--route", &filters.route, "route", &routes),
    ] {
        let pattern = pattern.as_deref().map(|p| route_pattern(p).0);
        if let Some(pattern) = pattern
            && !objects.iter().any(|(ns, n)| matches_name(pattern, ns, n))
        {
            let candidates = name_candidates(pattern, objects);
            return Some(no_match(flag, pattern, what, candidates));
        }
    }
    let namespace = filters.namespace.as_ref()?;
    let policies = named(
        models,
        |m| &m.policies,
        |p| (p.namespace.as_str(), p.name.as_str()),
    );
    let namespaces: Vec<String> = gateways
        .iter()
        .chain(&routes)
        .chain(&policies)
        .map(|(ns, _)| ns.to_string())
        .collect();
    (!namespaces.iter().any(|ns| ns == namespace)).then(|| {
        no_match(
            "-n",
            namespace,
            "namespace of a Gateway, route or policy",
            namespaces,
        )
    })
}

/// Whether a path segment (`ns/name` or a plain name) matches a `[ns/]name` pattern.
fn segment_matches(segment: &str, pattern: &str) -> bool {
    match segment.split_once('/') {
        Some((namespace, name)) => matches_name(pattern, namespace, name),
        None => segment == pattern,
    }
}

/// `--dataplane webb`, `--mesh nope`: a filter of a family's own hierarchy that matches no
/// path of it (on any of `owned`: the hierarchies of every side of a diff) would show nothing
/// and look like an answer, as [`unmatched`] says of `--gateway`. Returns the usage error's
/// message, with the nearest of the segment's values.
pub fn unmatched_owned(filters: &Filters, owned: &[&OwnedPaths]) -> Option<String> {
    for (flag, pattern) in &filters.owned {
        let mut what = String::new();
        let mut values: Vec<&str> = Vec::new();
        for paths in owned {
            for filter in paths.filters.iter().filter(|f| f.flag == *flag) {
                if what.is_empty() {
                    let column = paths.columns.get(filter.segment).copied().unwrap_or(flag);
                    what = format!("{} of a {} path", column.to_lowercase(), paths.name);
                }
                values.extend(
                    (paths.items.iter())
                        .filter_map(|item| item.segments.get(filter.segment))
                        .map(String::as_str),
                );
            }
        }
        if values.iter().any(|v| segment_matches(v, pattern)) {
            continue;
        }
        if what.is_empty() {
            what = "path".to_string();
        }
        let candidates = values
            .iter()
            .map(|v| match v.split_once('/') {
                Some((_, name)) if !pattern.contains('/') => name.to_string(),
                _ => v.to_string(),
            })
            .collect();
        return Some(no_match(&format!("--{flag}"), pattern, &what, candidates));
    }
    None
}

/// `(namespace, name)` of the objects `list` picks from every model.
fn named<'m, T: 'm>(
    models: &[&'m Model],
    list: impl Fn(&'m Model) -> &'m [T],
    name: impl Fn(&'m T) -> (&'m str, &'m str),
) -> Vec<(&'m str, &'m str)> {
    models
        .iter()
        .flat_map(|m| list(m).iter().map(&name))
        .collect()
}

/// The names a `[ns/]name` pattern is compared with: `ns/name` when it has a namespace, else
/// names.
fn name_candidates(pattern: &str, objects: &[(&str, &str)]) -> Vec<String> {
    objects
        .iter()
        .map(|(ns, n)| {
            if pattern.contains('/') {
                format!("{ns}/{n}")
            } else {
                n.to_string()
            }
        })
        .collect()
}

/// `FLAG `value` matches no WHAT; did you mean `x`?`, or with the names there are.
fn no_match(flag: &str, value: &str, what: &str, mut candidates: Vec<String>) -> String {
    candidates.sort();
    candidates.dedup();
    let hint = crate::suggest::did_you_mean(value, candidates.iter().map(String::as_str));
    let tail = if !hint.is_empty() {
        hint
    } else if candidates.is_empty() {
        " (the input has none)".to_string()
    } else if candidates.len() > NAMES_LISTED {
        format!(
            " (the input has {}, … and {} more)",
            candidates[..NAMES_LISTED].join(", "),
            candidates.len() - NAMES_LISTED
        )
    } else {
        format!(" (the input has {})", candidates.join(", "))
    };
    format!("{flag} `{value}` matches no {what}{tail}")
}
