//! Report filters: `--kind`, `-n/--namespace`, `--policy`, and the path filters every hierarchy
//! declares (the Gateway API's `--gateway` and `--route`, a family's own `--mesh` or
//! `--dataplane`), tested against any hierarchy's paths by one function ([`Filters::shows_on`]).
//!
//! Filters narrow what is printed, never what is evaluated: an effective policy is always
//! computed from every input object, then shown or not.

use crate::model::Model;
use crate::policy::owned::{OwnedItem, OwnedPaths};
use crate::policy::{PolicyKind, Registry};
use crate::topology::Topology;
use crate::topology::gateway_api::{self, GatewayApi};
use crate::topology::hierarchy::{self, Hierarchy, HierarchyFilter};
pub use crate::topology::hierarchy::{matches_name, matches_route, route_pattern};

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

/// Whether `--kind` (`kinds`, empty for all) shows the kind at `index` in `registry`.
pub fn shows_kind_index(registry: &Registry, kinds: &[&PolicyKind], index: usize) -> bool {
    kinds.is_empty() || kinds.iter().any(|k| std::ptr::eq(*k, registry.kind(index)))
}

impl Filters {
    /// Whether a policy kind is shown.
    pub fn shows_kind(&self, kind: &PolicyKind) -> bool {
        self.kinds.is_empty() || self.kinds.iter().any(|k| std::ptr::eq(*k, kind))
    }

    /// Whether Gateway API path number `path` is shown (namespace and path filters).
    pub fn shows_path(&self, model: &Model, topology: &Topology, path: u32) -> bool {
        self.shows_on(&GatewayApi::new(model, topology), path as usize)
    }

    /// Whether path `path` of `hierarchy` is shown: `-n` and every path filter given
    /// (`--gateway`, `--route`, `--mesh`, ...), each of which the hierarchy must declare.
    pub fn shows_on<H: Hierarchy + ?Sized>(&self, hierarchy: &H, path: usize) -> bool {
        self.passes(
            hierarchy.filters(),
            usize::MAX,
            |namespace| hierarchy.in_namespace(path, namespace),
            |filter, pattern| hierarchy.filter_matches(path, filter, pattern),
        )
    }

    /// The path filters given, as flag and pattern: `--gateway`, `--route`, then the flags of
    /// the hierarchies families build (`--mesh`, `--dataplane`).
    fn path_flags(&self) -> impl Iterator<Item = (&str, &str)> {
        let gateway = self.gateway.as_deref().map(|g| ("gateway", g));
        let route = self.route.as_deref().map(|r| ("route", r));
        (gateway.into_iter().chain(route)).chain(
            self.owned
                .iter()
                .map(|(flag, pattern)| (*flag, pattern.as_str())),
        )
    }

    /// Whether any path filter is given (`--gateway`, `--route`, `--mesh`, ...).
    pub fn filters_paths(&self) -> bool {
        self.path_flags().next().is_some()
    }

    /// Whether a path (its first `segments` segments: all, or a prefix) passes `-n`
    /// (`in_namespace`) and every path filter given: a filter `declared` does not have (or has
    /// for a later segment) hides it, one it has must match (`matches`). The one test of every
    /// hierarchy's paths.
    fn passes(
        &self,
        declared: &[HierarchyFilter],
        segments: usize,
        in_namespace: impl Fn(&str) -> bool,
        matches: impl Fn(&HierarchyFilter, &str) -> bool,
    ) -> bool {
        self.namespace.as_deref().is_none_or(in_namespace)
            && self.path_flags().all(|(flag, pattern)| {
                (declared.iter())
                    .any(|f| f.flag == flag && f.segment < segments && matches(f, pattern))
            })
    }

    /// Whether a listener of Gateway `gateway` that no route is attached to is shown, and a
    /// Gateway the filters name kept whole: its path so far has the Gateway API's first two
    /// segments only, so a filter of a later one (`--route`) shows none.
    pub fn shows_listener(&self, model: &Model, gateway: u32) -> bool {
        let gateway = &model.gateways[gateway as usize];
        self.passes(
            gateway_api::FILTERS,
            gateway_api::LISTENER_SEGMENTS,
            |namespace| namespace == gateway.namespace,
            |_, pattern| matches_name(pattern, &gateway.namespace, &gateway.name),
        )
    }

    /// Whether a path's ordered policy list passes `--policy`.
    pub fn shows_policies(&self, ordered: &[u32]) -> bool {
        self.policies
            .as_ref()
            .is_none_or(|wanted| ordered.iter().any(|p| wanted.contains(p)))
    }

    /// Whether an item of an owned hierarchy is shown: its kind, `--policy`, and its path as
    /// [`Filters::shows_on`] tests every path (`-n`: the namespace of a `ns/name` segment).
    pub fn shows_owned(&self, paths: &OwnedPaths, item: &OwnedItem) -> bool {
        self.shows_kind(item.kind)
            && self.shows_policies(&item.policies)
            && self.passes(
                paths.filters,
                usize::MAX,
                |namespace| hierarchy::segments_in_namespace(&item.segments, namespace),
                |filter, pattern| {
                    hierarchy::segment_filter_matches(&item.segments, filter, pattern)
                },
            )
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
        let hierarchy = GatewayApi::new(model, topology);
        (0..topology.paths.len()).filter(move |&i| self.shows_on(&hierarchy, i))
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

/// `--dataplane webb`, `--mesh nope`: a filter of a family's own hierarchy that matches no
/// path of it (on any of `owned`: the hierarchies of every side of a diff) would show nothing
/// and look like an answer, as [`unmatched`] says of `--gateway`. Returns the usage error's
/// message, with the nearest of the segment's values.
pub fn unmatched_owned(filters: &Filters, owned: &[&OwnedPaths]) -> Option<String> {
    let hierarchies: Vec<_> = owned.iter().map(|paths| paths.hierarchy()).collect();
    for (flag, pattern) in &filters.owned {
        let answering: Vec<_> = (hierarchies.iter())
            .flat_map(|h| (h.filters().iter()).map(move |f| (h, f)))
            .filter(|(_, f)| f.flag == *flag)
            .collect();
        let matched = answering
            .iter()
            .any(|(h, f)| (0..h.path_count()).any(|p| h.filter_matches(p, f, pattern)));
        if matched {
            continue;
        }
        // The candidates are read only when nothing matched, the case that prints them.
        let what = match answering.first() {
            Some((h, f)) => {
                let column = (h.columns().get(f.segment)).unwrap_or(flag);
                format!("{} of a {} path", column.to_lowercase(), h.name())
            }
            None => "path".to_string(),
        };
        let candidates = (answering.iter())
            .flat_map(|(h, f)| {
                (0..h.path_count()).filter_map(|p| h.segments(p).get(f.segment).cloned())
            })
            .map(|v| match v.split_once('/') {
                Some((_, name)) if !pattern.contains('/') => name.to_string(),
                _ => v,
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

#[cfg(test)]
mod tests {
    use super::Filters;
    use crate::pipeline::{InputOptions, evaluate_files};
    use crate::topology::element::ElementId;
    use crate::topology::gateway_api::GatewayApi;
    use crate::topology::hierarchy::{Hierarchy, HierarchyFilter, Level};

    /// A hierarchy of one path, `mesh-1 | ns/dp`, answering `--mesh` and `--dataplane`.
    struct Mesh;

    impl Hierarchy for Mesh {
        fn name(&self) -> &'static str {
            "mesh"
        }
        fn levels(&self) -> &'static [Level] {
            &[]
        }
        fn columns(&self) -> &'static [&'static str] {
            &["MESH", "DATAPLANE"]
        }
        fn filters(&self) -> &[HierarchyFilter] {
            const FILTERS: [HierarchyFilter; 2] = [
                HierarchyFilter::by_name("mesh", 0),
                HierarchyFilter::by_name("dataplane", 1),
            ];
            &FILTERS
        }
        fn path_count(&self) -> usize {
            1
        }
        fn elements(&self, _: usize) -> Vec<ElementId> {
            Vec::new()
        }
        fn path_id(&self, _: usize) -> String {
            "mesh-1|ns/dp".into()
        }
        fn segments(&self, _: usize) -> Vec<String> {
            vec!["mesh-1".into(), "ns/dp".into()]
        }
    }

    fn with(flag: &'static str, pattern: &str) -> Filters {
        match flag {
            "gateway" => Filters {
                gateway: Some(pattern.into()),
                ..Filters::default()
            },
            "route" => Filters {
                route: Some(pattern.into()),
                ..Filters::default()
            },
            _ => Filters {
                owned: vec![(flag, pattern.into())],
                ..Filters::default()
            },
        }
    }

    #[test]
    fn every_hierarchy_answers_the_flags_it_declares_and_hides_its_paths_from_others() {
        let evaluated = evaluate_files(&InputOptions {
            files: vec!["testdata/delegation".into()],
            ..InputOptions::default()
        });
        let gateway_api = GatewayApi::new(&evaluated.model, &evaluated.topology);
        let id =
            "kgateway|infra/gw|infra/gw#http|infra/root#rule-2>mid/mid-a#rule-1>a/a1|a/a1#rule-1";
        let path = (0..gateway_api.path_count())
            .find(|&p| gateway_api.path_id(p) == id)
            .unwrap();
        let on_gateway_api = |filters: Filters| filters.shows_on(&gateway_api, path);
        let on_mesh = |filters: Filters| filters.shows_on(&Mesh, 0);
        assert!(on_gateway_api(with("route", "mid-a")) && on_gateway_api(with("gateway", "gw")));
        assert!(!on_gateway_api(with("route", "t1")) && !on_gateway_api(with("mesh", "mesh-1")));
        assert!(on_mesh(with("mesh", "mesh-1")) && on_mesh(with("dataplane", "ns/dp")));
        assert!(!on_mesh(with("dataplane", "x/dp")) && !on_mesh(with("gateway", "gw")));
        assert!(!on_mesh(with("route", "mid-a")));
        // A Gateway's listeners without routes: `--route` shows none, `--gateway` its own.
        assert!(with("gateway", "infra/gw").shows_listener(&evaluated.model, 0));
        assert!(!with("route", "mid-a").shows_listener(&evaluated.model, 0));
        assert!(!with("mesh", "mesh-1").shows_listener(&evaluated.model, 0));
    }
}
