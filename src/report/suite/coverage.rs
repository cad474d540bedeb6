//! Coverage: per policy kind and per Gateway, the share of paths that some case selects, and
//! the paths none does (`--coverage`, `--show-untested`, `--fail-under`). A paths case selects
//! the paths of its selector less `except`; for a kind, only cases that check that kind (or a
//! family-neutral check) count, since selecting a path without asking about the kind tests
//! nothing of it. Request cases test routing and are not counted.

use super::select::{Resolved, Target};
use crate::engine::{EffectiveSet, Engine};
use serde::Serialize;

/// One share.
#[derive(Clone, Debug, Serialize)]
pub struct Share {
    /// The kind or the Gateway (`ns/name`); `all` for every path.
    pub name: String,
    /// Paths some case selects.
    pub tested: usize,
    /// Paths there are.
    pub paths: usize,
    /// `tested` of `paths`, in percent (100 when there are no paths).
    pub percent: f64,
}

impl Share {
    fn new(name: String, tested: usize, paths: usize) -> Share {
        let percent = if paths == 0 {
            100.0
        } else {
            (tested as f64 * 1000.0 / paths as f64).floor() / 10.0
        };
        Share {
            name,
            tested,
            paths,
            percent,
        }
    }
}

/// The coverage of a run.
#[derive(Clone, Debug, Serialize)]
pub struct Coverage {
    /// Every path.
    pub total: Share,
    /// Per policy kind that is effective somewhere, in registry order.
    pub kinds: Vec<Share>,
    /// Per Gateway with paths, in input order.
    pub gateways: Vec<Share>,
    /// The path ids no case selects (with `--show-untested`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub untested: Vec<String>,
}

/// Per path, whether some case selects it; and per kind index, per path, whether some case
/// that checks the kind selects it.
fn tested(engine: &Engine<'_>, cases: &[Resolved<'_>]) -> (Vec<bool>, Vec<Vec<bool>>) {
    let registry = &engine.model.registry;
    let count = engine.topology.paths.len();
    let mut tested = vec![false; count];
    let mut tested_kind = vec![vec![false; count]; registry.kind_count()];
    for case in cases {
        let Target::Paths(paths) = &case.target else {
            continue;
        };
        let kinds: Vec<usize> = if case.checks.is_empty() {
            case.kinds
                .iter()
                .map(|k| registry.kind_index(k.kind))
                .collect()
        } else {
            (0..registry.kind_count()).collect()
        };
        for &p in paths {
            tested[p as usize] = true;
            for &k in &kinds {
                tested_kind[k][p as usize] = true;
            }
        }
    }
    (tested, tested_kind)
}

/// Per kind that is effective somewhere, the share of its paths a case checking it selects.
fn kinds(engine: &Engine<'_>, set: &EffectiveSet<'_>, tested_kind: &[Vec<bool>]) -> Vec<Share> {
    let registry = &engine.model.registry;
    let count = engine.topology.paths.len();
    let mut has_kind = vec![vec![false; count]; registry.kind_count()];
    for entry in &set.entries {
        has_kind[set.kind(entry)][entry.path as usize] = true;
    }
    (0..registry.kind_count())
        .filter(|&k| has_kind[k].iter().any(|&h| h))
        .map(|k| {
            let paths = has_kind[k].iter().filter(|&&h| h).count();
            let covered = (0..count)
                .filter(|&p| has_kind[k][p] && tested_kind[k][p])
                .count();
            Share::new(registry.kind(k).kind.to_string(), covered, paths)
        })
        .collect()
}

/// Per Gateway with paths, the share of its paths some case selects.
fn gateways(engine: &Engine<'_>, tested: &[bool]) -> Vec<Share> {
    let model = engine.model;
    let mut per_gateway = vec![(0usize, 0usize); model.gateways.len()];
    for (p, path) in engine.topology.paths.iter().enumerate() {
        let entry = &mut per_gateway[path.gateway as usize];
        entry.1 += 1;
        entry.0 += usize::from(tested[p]);
    }
    (model.gateways.iter().zip(per_gateway))
        .filter(|(_, (_, paths))| *paths > 0)
        .map(|(g, (covered, paths))| {
            Share::new(format!("{}/{}", g.namespace, g.name), covered, paths)
        })
        .collect()
}

/// Computes the coverage of `cases` over `engine`'s paths.
pub fn compute(
    engine: &Engine<'_>,
    set: &EffectiveSet<'_>,
    cases: &[Resolved<'_>],
    list_untested: bool,
) -> Coverage {
    let (tested, tested_kind) = tested(engine, cases);
    let untested = if list_untested {
        (0..tested.len())
            .filter(|&p| !tested[p])
            .map(|p| engine.topology.path_id(p).to_string())
            .collect()
    } else {
        Vec::new()
    };
    Coverage {
        total: Share::new(
            "all".into(),
            tested.iter().filter(|&&t| t).count(),
            tested.len(),
        ),
        kinds: kinds(engine, set, &tested_kind),
        gateways: gateways(engine, &tested),
        untested,
    }
}
