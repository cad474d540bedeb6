//! The whole pipeline in one call: inputs → loaded objects → model → topology.
//!
//! Commands, tests and the benchmark all start here, then create an [`crate::engine::Engine`]
//! over the result.

use crate::diag::Diagnostic;
use crate::load::files::{FileTree, WorkTree};
use crate::load::{self, ObjectOptions};
use crate::model::{Model, ModelOptions, known_kinds};
use crate::topology::Topology;
use std::io::Read;

/// What to read and how.
#[derive(Clone, Debug)]
pub struct InputOptions {
    /// `-f` arguments.
    pub files: Vec<String>,
    /// `--exclude` and the config file's `exclude`: left out of walks and glob matches.
    pub excludes: load::ignores::Excludes,
    /// Namespace for objects without one (`-n`, default `default`).
    pub default_namespace: String,
    /// `--assume-gateways`.
    pub assume_gateways: bool,
    /// `--with` / `--without`.
    pub overlay: load::Overlay,
    /// The policy families to read.
    pub registry: std::sync::Arc<crate::policy::Registry>,
    /// The CRDs objects are validated against (`--crds`, `--gateway-api-channel`).
    pub catalog: std::sync::Arc<crate::crd::Catalog>,
    /// Which rule values the model keeps (what the command's report reads).
    pub rule_values: crate::model::RuleValues,
}

impl Default for InputOptions {
    fn default() -> Self {
        InputOptions {
            files: Vec::new(),
            excludes: load::ignores::Excludes::default(),
            default_namespace: "default".into(),
            assume_gateways: false,
            overlay: load::Overlay::default(),
            registry: std::sync::Arc::new(crate::policy::Registry::builtin()),
            catalog: std::sync::Arc::new(crate::crd::Catalog::default()),
            rule_values: crate::model::RuleValues::All,
        }
    }
}

/// A model and its topology, with every diagnostic found on the way.
#[derive(Debug, Default)]
pub struct Evaluated {
    /// `--without` selectors that matched no object (a usage error for the CLI).
    pub unmatched_without: Vec<String>,
    /// The decoded objects.
    pub model: Model,
    /// The hierarchy and paths.
    pub topology: Topology,
}

impl Evaluated {
    /// Diagnostics from loading, decoding and attachment (not the engine's).
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.model
            .diagnostics
            .iter()
            .chain(&self.topology.diagnostics)
    }
}

/// From how many documents (or objects: a `kind: List` is one document) a run hands back the
/// memory its load freed and the executable's pages it ran
/// ([`crate::platform::hand_back_freed_memory`], [`crate::platform::hand_back_executable_pages`]).
///
/// Both lower a big run's peak; a small run's peak is the binary and the allocator's first
/// pages, and handing them back only makes the rest of the run fault them in again: on a
/// 100-object repository that was about a tenth of its CPU time (docs/performance.md#small-runs).
/// The 4.9 MB benchmark has about 7,000 objects.
const HAND_BACK_FROM: usize = 1_000;

/// Reads the inputs from `tree` and builds the model and topology.
pub fn evaluate(options: &InputOptions, tree: &dyn FileTree, stdin: &mut dyn Read) -> Evaluated {
    let kinds = known_kinds(&options.registry);
    let object_options = ObjectOptions {
        default_namespace: &options.default_namespace,
        kinds: &kinds,
    };
    let inputs = load::Inputs {
        args: &options.files,
        excludes: &options.excludes,
        overlay: &options.overlay,
        tree,
    };
    let loaded = load::load(
        options.registry.declared_sources().clone(),
        &inputs,
        &object_options,
        &|object| {
            let values = options.rule_values;
            crate::model::prepare(object, &options.registry, &options.catalog, values)
        },
        stdin,
    );
    crate::platform::timing::mark("load (rest)");
    let unmatched_without = loaded.unmatched_without.clone();
    let stats = &loaded.stats;
    let big = stats
        .documents
        .max(stats.objects + stats.skipped_other_kinds)
        >= HAND_BACK_FROM;
    let model = Model::build(
        loaded,
        &ModelOptions {
            assume_gateways: options.assume_gateways,
            registry: options.registry.clone(),
            catalog: options.catalog.clone(),
        },
    );
    crate::platform::timing::mark("model");
    if big {
        crate::platform::hand_back_freed_memory();
    }
    crate::platform::timing::mark("hand back");
    let topology = Topology::build(&model);
    if big {
        crate::platform::hand_back_freed_memory();
        crate::platform::hand_back_executable_pages();
    }
    crate::platform::timing::mark("topology");
    Evaluated {
        unmatched_without,
        model,
        topology,
    }
}

/// Reads local files (and stdin for `-`).
///
/// Stdin is locked only when a file is `-`: a run that reads none leaves it to others, so
/// that commands run side by side in one process ([`crate::cli::run_captured`]) never wait
/// on it.
pub fn evaluate_files(options: &InputOptions) -> Evaluated {
    if reads_stdin(&options.files) {
        evaluate(options, &WorkTree, &mut std::io::stdin().lock())
    } else {
        evaluate(options, &WorkTree, &mut std::io::empty())
    }
}

/// Whether `files` names stdin (`-`).
pub fn reads_stdin(files: &[String]) -> bool {
    files.iter().any(|f| f == "-")
}
