//! User-defined policy families (docs/families.md §4): kinds a team declares in a families file
//! (`--families FILE`, or `.dopol/families.yaml` in the working directory), each naming one of
//! the built-in merge models.
//!
//! - [`file`]: the file parsed and validated into typed [`Declaration`]s (every problem a
//!   located `invalid-families` error; a bad file stops the run with exit 2);
//! - [`layout`]: a declared rule layout — where rules live and how they are keyed — cutting a
//!   spec into rules, rendering rules back into a spec, reading `unset` entries;
//! - [`kuadrant`], [`kgateway`], [`envoy`]: one module per model, turning a declaration into a
//!   [`PolicyFamily`] (Kuadrant: the built-in decoder and evaluator with the declared layout;
//!   kgateway: the kgateway family with the declared kind, every rule a plain field; Envoy
//!   Gateway: the settings of its family, see [`envoy`]).
//!
//! Each declared kind is a family of its own, added to the registry after the built-in ones; a
//! kind with the group and kind of a built-in one replaces it, and `lint` says so
//! (`family-overrides-builtin`). A declared kind's `PolicyKind` is leaked once per process
//! (kinds are `&'static`, see [`crate::policy::registry`]).

pub mod diags;
pub mod envoy;
pub mod file;
pub mod kgateway;
pub mod kuadrant;
pub mod layout;

pub use file::{Declaration, MergeModel, TargetKind, TargetsField};

use crate::diag::Diagnostic;
use crate::policy::decode::{SelectorFields, TargetFields};
use crate::policy::options::OptionValues;
use crate::policy::{PolicyFamily, PolicyKind, Registry};
use crate::source::SourceMap;
use diags::{FamilyOverridesBuiltin, InvalidFamilies};
use std::sync::Arc;

/// The families file read when no `--families` is given and it exists.
pub const DEFAULT_FILE: &str = ".dopol/families.yaml";

/// The declarations of one run, with the files they came from.
#[derive(Debug, Default)]
pub struct Declared {
    /// Every declaration with its (leaked) kind, in file order.
    pub kinds: Vec<(Declaration, &'static [PolicyKind])>,
    /// The families files, for rendering diagnostics located in them.
    pub sources: SourceMap,
}

/// Families files that cannot be used: the problems, and the files to render them with.
#[derive(Debug)]
pub struct Rejected {
    /// One `invalid-families` error per problem.
    pub diagnostics: Vec<Diagnostic>,
    /// The files read.
    pub sources: SourceMap,
}

/// Reads and validates the families files `paths`, in order.
pub fn load(paths: &[String]) -> Result<Declared, Rejected> {
    let mut sources = SourceMap::new();
    let mut diagnostics = Vec::new();
    let mut declarations: Vec<Declaration> = Vec::new();
    for path in paths {
        let text = match std::fs::read(path).map(String::from_utf8) {
            Ok(Ok(text)) => text,
            Ok(Err(_)) => {
                diagnostics.push(unreadable(path, "it is not valid UTF-8"));
                continue;
            }
            Err(error) => {
                diagnostics.push(unreadable(path, &error.to_string()));
                continue;
            }
        };
        let id = sources.add(path.clone(), text.as_str());
        match file::parse(id, path, &text) {
            Ok(found) => declarations.extend(found),
            Err(found) => diagnostics.extend(found),
        }
    }
    diagnostics.extend(duplicates(&declarations));
    if !diagnostics.is_empty() {
        return Err(Rejected {
            diagnostics,
            sources,
        });
    }
    let kinds = declarations
        .into_iter()
        .map(|d| {
            let kind = leak_kind(&d);
            (d, kind)
        })
        .collect();
    Ok(Declared { kinds, sources })
}

fn unreadable(path: &str, why: &str) -> Diagnostic {
    Diagnostic::from(InvalidFamilies::Unreadable { path, why }).with_file(path)
}

/// The same group and kind declared twice (in one file or across files).
fn duplicates(declarations: &[Declaration]) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for (j, later) in declarations.iter().enumerate() {
        let first = declarations[..j]
            .iter()
            .find(|d| d.group == later.group && d.kind == later.kind);
        if let Some(first) = first {
            let finding = InvalidFamilies::DeclaredTwice {
                kind: &later.kind,
                group: &later.group,
            };
            found.push(
                Diagnostic::from(finding)
                    .with_label(later.span, "declared again here")
                    .with_label(first.span, "first declared here"),
            );
        }
    }
    found
}

fn leak(text: &str) -> &'static str {
    Box::leak(text.to_string().into_boxed_str())
}

/// The declaration as a `PolicyKind`, leaked once.
fn leak_kind(declaration: &Declaration) -> &'static [PolicyKind] {
    let versions: Vec<&'static str> = declaration.versions.iter().map(|v| leak(v)).collect();
    let target_kinds: Vec<&'static str> = declaration
        .target_kinds
        .iter()
        .map(|k| k.as_str())
        .collect();
    let kind = PolicyKind {
        family: declaration.model.as_str(),
        group: leak(&declaration.group),
        kind: leak(&declaration.kind),
        versions: Box::leak(versions.into_boxed_slice()),
        unserved_versions: &[],
        target_kinds: Box::leak(target_kinds.into_boxed_slice()),
        target_kind_message: leak(&target_kind_message(declaration)),
    };
    Box::leak(Box::new([kind]))
}

/// The API server's message for a target kind the kind may not target, in its model's words.
fn target_kind_message(declaration: &Declaration) -> String {
    let quoted = |kinds: &[TargetKind]| -> Vec<String> {
        kinds.iter().map(|k| format!("'{}'", k.as_str())).collect()
    };
    match declaration.model {
        MergeModel::Kuadrant => {
            // Kuadrant's CRDs list the route kinds first.
            let order = [
                TargetKind::HttpRoute,
                TargetKind::GrpcRoute,
                TargetKind::Gateway,
            ];
            let kinds: Vec<TargetKind> = order
                .into_iter()
                .filter(|k| declaration.target_kinds.contains(k))
                .collect();
            let names = quoted(&kinds);
            let list = match names.as_slice() {
                [one] => one.clone(),
                [a, b] => format!("{a} and {b}"),
                [rest @ .., last] => format!("{}, and {last}", rest.join(", ")),
                [] => String::new(),
            };
            format!("Invalid targetRef.kind. The only supported values are {list}")
        }
        MergeModel::Kgateway | MergeModel::EnvoyGateway => {
            let names = quoted(&declaration.target_kinds);
            let list = match names.as_slice() {
                [rest @ .., last] if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => names.join(""),
            };
            format!("Unsupported value: the only supported target kinds are {list}")
        }
    }
}

/// The spec fields a declared kind's targets are read from.
pub fn target_fields(declaration: &Declaration) -> TargetFields {
    let model = declaration.model;
    TargetFields {
        single: declaration.targets != TargetsField::TargetRefs,
        list: declaration.targets != TargetsField::TargetRef,
        // Kuadrant's CRDs require a target; kgateway and Envoy Gateway report a policy
        // without one as unresolved.
        required: model == MergeModel::Kuadrant,
        section_name: declaration.section_name,
        selectors: declaration.target_selectors.then_some(SelectorFields {
            match_expressions: model != MergeModel::Kgateway,
            section_name: model == MergeModel::Kgateway && declaration.section_name,
            empty_selects_nothing: model == MergeModel::Kgateway,
        }),
    }
}

impl Declared {
    /// Adds each declared kind to `registry` as a family of its own, after the built-in ones
    /// (a kind with the group and kind of a built-in one replaces it). kgateway-model kinds
    /// take kgateway's global policy namespace (`KGW_GLOBAL_POLICY_NAMESPACE`) from `values`.
    pub fn register(&self, registry: &mut Registry, values: &OptionValues) {
        let builtin = Registry::builtin();
        for (declaration, kinds) in &self.kinds {
            let replaced = builtin.find(&declaration.group, &declaration.kind);
            let family: Arc<dyn PolicyFamily> = match declaration.model {
                MergeModel::Kuadrant => Arc::new(kuadrant::DeclaredKuadrant {
                    kinds,
                    shape: kuadrant::DeclaredShape {
                        layout: declaration.layout.clone(),
                        targets: target_fields(declaration),
                        blocks: kuadrant_blocks(declaration),
                    },
                    builtin: replaced.is_some_and(|(f, _)| f.name() == "kuadrant"),
                }),
                MergeModel::Kgateway => {
                    let mut family = kgateway::family(declaration, kinds);
                    family.global_namespace =
                        crate::families::kgateway::settings::global_namespace(values);
                    Arc::new(family)
                }
                MergeModel::EnvoyGateway => {
                    let (kind, spec) = envoy::envoy_spec(declaration, kinds);
                    let family = crate::families::envoy::EnvoyGateway::declared(kind, spec);
                    Arc::new(family.by_strategy(declaration.gep))
                }
            };
            if let Some((_, kind)) = replaced {
                registry.add_note(overrides_note(declaration, kind));
            }
            registry.add(family);
        }
        registry.set_declared_sources(self.sources.clone());
    }
}

/// The blocks of a kuadrant-model kind, leaked once with its kind.
fn kuadrant_blocks(declaration: &Declaration) -> crate::families::kuadrant::BlockRules {
    let leak_list = |list: &[crate::policy::Strategy]| -> &'static [crate::policy::Strategy] {
        Box::leak(list.to_vec().into_boxed_slice())
    };
    crate::families::kuadrant::BlockRules {
        bare: declaration.blocks.bare,
        bare_as: declaration.blocks.bare_as,
        defaults: leak_list(&declaration.blocks.defaults),
        overrides: leak_list(&declaration.blocks.overrides),
    }
}

fn overrides_note(declaration: &Declaration, builtin: &PolicyKind) -> Diagnostic {
    Diagnostic::from(FamilyOverridesBuiltin {
        declaration,
        builtin,
    })
    .with_label(declaration.span, "replaces the built-in kind")
}
